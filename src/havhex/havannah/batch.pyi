from typing import Any, Iterable, Literal, Optional, Tuple

__all__ = ["Batch", "PLANES", "STRUCTURES", "AUTORESET_MODES", "symmetry", "augment",
           "inverse_symmetry"]

_Array = Any  # numpy.ndarray; NumPy is not a dependency of havhex
_Autoreset = Literal["next-step", "same-step", "disabled"]

PLANES: Tuple[str, ...]
STRUCTURES: Tuple[str, str, str]
AUTORESET_MODES: Tuple[str, str, str]
RULES: Tuple[str, str]
MAX_GAMES: int
MAX_BASE: int
MAX_BYTES: int

class Batch:
    observation: _Array
    legal_action_mask: _Array
    current_player: _Array
    rewards: _Array
    terminated: _Array
    truncated: _Array
    winner: _Array
    structures: _Array
    final_observation: _Array
    final_mask: _Array
    def __init__(self, n: int, base: int = ..., *, rule: Literal["official", "contest"] = ...,
                 swap: bool = ..., seed: Optional[int] = ..., threads: int = ...,
                 autoreset: _Autoreset = ...) -> None: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def observation_shape(self) -> Tuple[int, int, int]: ...
    @property
    def threads(self) -> int: ...
    @property
    def autoreset(self) -> str: ...
    @property
    def base(self) -> int: ...
    @property
    def rule(self) -> str: ...
    @property
    def swap(self) -> bool: ...
    def reset(self, mask: Optional[_Array] = ..., seed: Optional[int] = ...) -> None: ...
    def step(self, actions: _Array) -> None: ...
    def sample_actions(self, out: Optional[_Array] = ...) -> _Array: ...
    def set_positions(self, cells: _Array, mask: Optional[_Array] = ...,
                      to_move: Optional[_Array] = ...) -> None: ...
    def set_positions_from_records(self, games: Iterable[Any], mask: Optional[_Array] = ...,
                                   seed: Optional[int] = ...) -> None: ...

def symmetry(base: int, k: int) -> _Array: ...
def inverse_symmetry(base: int, k: int) -> _Array: ...
def augment(observation: _Array, policy: Optional[_Array], k: int,
            inverse: bool = ...) -> Tuple[_Array, Optional[_Array]]: ...
