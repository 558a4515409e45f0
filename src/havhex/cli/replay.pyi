from typing import Any, Iterator, Optional, Sequence, Tuple

__all__ = ["replay_outputs", "Summary"]

UNIT_BYTES: int

_Counts = Tuple[int, int, int, dict[str, int]]

class Summary:
    files: int
    games: int
    moves: int
    wins: int
    flags: dict[str, int]
    def __init__(self) -> None: ...
    def add(self, counts: _Counts) -> None: ...
    def line(self) -> str: ...

def text_line(name: str, replayed: Any) -> str: ...
def json_line(name: str, replayed: Any) -> str: ...
def replay_unit(data: bytes, name: str, rule: str, output_format: str, first_index: int = ...,
                first_line: int = ...) -> Tuple[str, _Counts]: ...
def replay_outputs(files: Sequence[str], rule: str, output_format: str, jobs: int,
                   summary: Summary) -> Iterator[Iterator[str]]: ...
