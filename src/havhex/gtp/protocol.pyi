from typing import NamedTuple, Optional, Tuple

__all__ = ["Command", "Response", "ProtocolError", "parse_command", "answer",
           "parse_response"]

class ProtocolError(ValueError): ...

class Command(NamedTuple):
    id: Optional[int]
    name: str
    args: Tuple[str, ...]

class Response(NamedTuple):
    ok: bool
    id: Optional[int]
    text: str

def parse_command(line: str) -> Optional[Command]: ...
def answer(id: Optional[int], text: str = "", ok: bool = True) -> str: ...
def parse_response(text: str) -> Response: ...
