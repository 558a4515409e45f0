from mmap import mmap
from typing import List, Optional, Tuple, Union

from typing_extensions import disjoint_base

__all__ = ["CaseWalk", "case_cuts", "HAVANNAH", "HEX"]

# A contiguous buffer of bytes (the compiled code takes any that has one).
_Data = Union[bytes, bytearray, memoryview, mmap]
# A cut: (offset, cases before it, line).
_Cut = Tuple[int, int, int]

HAVANNAH: int
HEX: int

# A compiled (cdef) class: no class may derive from it and another such.
@disjoint_base
class CaseWalk:
    @property
    def cases(self) -> int: ...
    @property
    def unusual(self) -> bool: ...
    def __init__(self, data: _Data, game: int) -> None: ...
    def next_cut(self, unit_bytes: int) -> Optional[_Cut]: ...

def case_cuts(data: _Data, game: int, unit_bytes: int) -> Optional[List[_Cut]]: ...
