import os
from typing import (Any, BinaryIO, Callable, Dict, FrozenSet, Iterable, Iterator, List, Literal,
                    Optional, Sequence, TextIO, Tuple, Union)


from .._explanation import Explanation as Explanation
from .board import Board as Board

__all__ = [
    "Result", "Explanation", "judge", "explain", "judge_text", "judge_file",
    "explain_text", "explain_file", "iter_explain_file", "explanation_record",
    "format_results", "STATUSES", "REASONS", "MAX_SIZE", "Board",
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
STATUSES: Tuple[str, str, str, str]
REASONS: Tuple[str, str, str, str]

class Result:
    @property
    def status(self) -> _Status: ...
    @property
    def reason(self) -> Optional[_Reason]: ...
    @property
    def last_moves(self) -> FrozenSet[_Cell]: ...
    def __init__(self, status: _Status, reason: Optional[_Reason] = ...,
                 last_moves: Iterable[_Cell] = ...) -> None: ...
    @property
    def possible(self) -> bool: ...
    @property
    def winner(self) -> Optional[_Colour]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

def judge(rows: _Rows) -> Result: ...
def explain(rows: _Rows) -> Explanation: ...
def judge_text(text: _Text, *, source: str = ..., threads: int = ...) -> List[Result]: ...
def judge_file(file: _File, *, threads: int = ..., progress: _Progress = ...) -> List[Result]: ...
def explain_text(text: _Text, *, source: str = ..., threads: int = ...) -> List[Explanation]: ...
def explain_file(file: _File, *, threads: int = ...,
                 progress: _Progress = ...) -> List[Explanation]: ...
def iter_explain_file(file: _File, *, threads: int = ...,
                      progress: _Progress = ...) -> Iterator[Explanation]: ...
def explanation_record(explanation: Explanation, case: Optional[int] = ...) -> Dict[str, Any]: ...
def format_results(results: Iterable[Result]) -> str: ...
