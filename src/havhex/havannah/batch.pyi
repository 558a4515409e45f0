from typing import Any, Iterable, Literal, Optional, Tuple

from .._batch import AUTORESET_MODES as AUTORESET_MODES, MAX_GAMES as MAX_GAMES
from .._batch import Batch as _Batch

__all__ = ["Batch", "PLANES", "STRUCTURES", "SYMMETRIES", "AUTORESET_MODES", "symmetry", "augment",
           "inverse_symmetry"]

_Array = Any  # numpy.ndarray; NumPy is not a dependency of havhex
_Autoreset = Literal["next-step", "same-step", "disabled"]

PLANES: Tuple[str, ...]
STRUCTURES: Tuple[str, str, str]
SYMMETRIES: int
RULES: Tuple[str, str]
MAX_BASE: int
MAX_BYTES: int

class Batch(_Batch):
    def __init__(self, n: int, base: int = ..., *, rule: Literal["official", "contest"] = ...,
                 swap: bool = ..., seed: Optional[int] = ..., threads: int = ...,
                 autoreset: _Autoreset = ..., illegal: Literal["lose", "raise"] = ...) -> None: ...
    @property
    def structures(self) -> _Array: ...
    @property
    def base(self) -> int: ...
    @property
    def rule(self) -> str: ...
    @property
    def swap(self) -> bool: ...
    def set_positions(self, positions: _Array, mask: Optional[_Array] = ...,
                      to_move: Optional[_Array] = ...) -> None: ...
    def set_positions_from_records(self, games: Iterable[Any], mask: Optional[_Array] = ...,
                                   seed: Optional[int] = ...) -> None: ...

def symmetry(base: int, k: int) -> _Array: ...
def inverse_symmetry(base: int, k: int) -> _Array: ...
def augment(observation: _Array, policy: Optional[_Array] = ..., k: int = ...,
            inverse: bool = ...) -> Tuple[_Array, Optional[_Array]]: ...
