from typing import Any, Callable, Optional

__all__ = ["InputError"]

class InputError(ValueError):
    reason: str
    source: str | None
    line: int | None
    def __init__(self, reason: str, source: str | None = ..., line: int | None = ...) -> None: ...

def shown_bytes(token: bytes | bytearray | None) -> str: ...

# The wording of the faults both judge formats have; ``engine`` is the
# compiled judge that read ``parsed``.
def shared_fault_reason(parsed: Any, name_field: Callable[[int], str],
                        engine: Any) -> Optional[str]: ...
