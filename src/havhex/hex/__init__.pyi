import os
from typing import (Any, BinaryIO, Callable, Dict, FrozenSet, Iterable, Iterator, List, Literal,
                    Optional, Sequence, TextIO, Tuple, Union)

from .._explanation import Explanation as Explanation
from ..descriptor import FileJudge
from ._position import explain as explain, judge as judge
from ._result import REASONS as REASONS, STATUSES as STATUSES, Result as Result
from .batch import Batch as Batch
from .board import Board as Board

__all__ = [
    "Result", "Explanation", "judge", "explain", "judge_text", "judge_file",
    "explain_text", "explain_file", "iter_explain_file", "explanation_record",
    "format_results", "STATUSES", "REASONS", "MAX_SIZE", "MAX_NUMBER_DIGITS", "Board", "Batch",
]

_Cell = Tuple[int, int]
_Status = Literal["Impossible", "Red wins", "Blue wins", "Nobody wins"]
_Reason = Literal["counts", "both-connected", "loser-moved-last", "no-single-last-move"]
_Colour = Literal["red", "blue"]
_Buffer = object  # collections.abc.Buffer from Python 3.12
# A 2-D buffer holds characters (NumPy S/U), character codes (any integer
# dtype) or objects that are either; other dtypes raise TypeError.
_Rows = Union[str, bytes, Sequence[Union[str, bytes, Sequence[str]]], memoryview, _Buffer]
_Text = Union[str, bytes, bytearray, memoryview, _Buffer]
_File = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]", BinaryIO, TextIO]
_Progress = Optional[Callable[[int, int, int], object]]

MAX_SIZE: int
MAX_NUMBER_DIGITS: int

def judge_text(text: _Text, *, source: str = ..., threads: int = ...) -> List[Result]: ...
def judge_file(file: _File, *, threads: int = ..., progress: _Progress = ...) -> List[Result]: ...
def explain_text(text: _Text, *, source: str = ..., threads: int = ...) -> List[Explanation]: ...
def explain_file(file: _File, *, threads: int = ...,
                 progress: _Progress = ...) -> List[Explanation]: ...
def iter_explain_file(file: _File, *, threads: int = ...,
                      progress: _Progress = ...) -> Iterator[Explanation]: ...
def explanation_record(explanation: Explanation, case: Optional[int] = ...) -> Dict[str, Any]: ...
def format_results(results: Iterable[Result]) -> str: ...

# How the command line and the cluster judge whole files.
FILE_JUDGE: FileJudge
