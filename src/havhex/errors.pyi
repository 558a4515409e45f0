__all__ = ["InputError"]

class InputError(ValueError):
    reason: str
    source: str | None
    line: int | None
    def __init__(self, reason: str, source: str | None = ..., line: int | None = ...) -> None: ...

def shown_bytes(token: bytes | bytearray | None) -> str: ...
