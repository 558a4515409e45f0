from typing import Sequence, Union

from .._explanation import Explanation
from ._result import Result as Result

__all__ = ["judge", "explain", "Result"]

_Buffer = object  # collections.abc.Buffer from Python 3.12
_Rows = Union[str, bytes, Sequence[Union[str, bytes, Sequence[str]]], memoryview, _Buffer]

def judge(rows: _Rows) -> Result: ...
def explain(rows: _Rows) -> Explanation: ...
