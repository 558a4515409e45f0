from typing import TextIO

__all__ = ["PROGRESS_THRESHOLD", "Progress", "progress_for"]

PROGRESS_THRESHOLD: int

class Progress:
    name: str
    total_mb: float
    stream: TextIO
    shown: bool
    def __init__(self, name: str, total_bytes: int, stream: TextIO) -> None: ...
    def __call__(self, bytes_read: int, cases_read: int, cases_judged: int) -> None: ...
    def close(self) -> None: ...

def progress_for(file: str) -> Progress | None: ...
