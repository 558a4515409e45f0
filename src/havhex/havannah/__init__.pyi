import os
from typing import BinaryIO, Callable, Iterable, Iterator, List, Optional, Sequence, TextIO, Tuple, Union

from .._explanation import Explanation as Explanation
from ..descriptor import FileJudge
from ._result import KINDS as KINDS, Result as Result

__all__ = [
    "Result", "first_win", "enclosed_empty", "enclosed_runs", "judge_text", "judge_file",
    "format_results", "Explanation", "explain", "explain_text", "explain_file",
    "iter_explain_file", "MAX_SIZE", "MAX_NUMBER_DIGITS", "KINDS", "Board", "Batch",
]

_Buffer = object  # collections.abc.Buffer from Python 3.12
_Cell = Tuple[int, int]
_Run = Tuple[int, int, int]  # (x, first_y, last_y)
# An (M, 2) buffer of integers of any dtype and byte order, or of objects
# that are integers; other dtypes raise TypeError.
_Moves = Union[Iterable[Sequence[int]], _Buffer]
_Text = Union[str, bytes, bytearray, memoryview, _Buffer]
_File = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]", BinaryIO, TextIO]
_Progress = Optional[Callable[[int, int, int], object]]

from .board import Board as Board
from .batch import Batch as Batch

MAX_SIZE: int
MAX_NUMBER_DIGITS: int

def first_win(size: int, moves: _Moves) -> Result: ...
def enclosed_runs(size: int, stones: _Moves) -> List[_Run]: ...
def enclosed_empty(size: int, stones: _Moves) -> List[_Cell]: ...
def judge_text(text: _Text, *, source: str = ..., threads: int = ...) -> List[Result]: ...
def judge_file(file: _File, *, threads: int = ..., progress: _Progress = ...) -> List[Result]: ...
def format_results(results: Iterable[Result]) -> str: ...
def explain(size: int, moves: _Moves) -> Explanation: ...
def explain_text(text: _Text, *, source: str = ..., threads: int = ...) -> List[Explanation]: ...
def explain_file(file: _File, *, threads: int = ...,
                 progress: _Progress = ...) -> List[Explanation]: ...
def iter_explain_file(file: _File, *, threads: int = ...,
                      progress: _Progress = ...) -> Iterator[Explanation]: ...

# How the command line and the cluster judge whole files.
FILE_JUDGE: FileJudge
