import os
from typing import Callable, Iterator, Optional, Sequence, Tuple, Union

__all__ = ["RECORD_EXTENSIONS", "record_files", "runs_of", "runs_as_found",
           "read_range"]

RECORD_EXTENSIONS: Tuple[str, ...]

_Run = Tuple[int, int, int, int]
_Path = Union[str, "os.PathLike[str]"]

def record_files(names: Optional[Sequence[str]]) -> list[str]: ...
def runs_of(data: Union[bytes, bytearray, memoryview], pieces: int) -> list[_Run]: ...
def runs_as_found(path: _Path, run_bytes: Union[int, Callable[[int], int]]) -> Iterator[_Run]: ...
def read_range(path: _Path, start: int, stop: int) -> bytes: ...
