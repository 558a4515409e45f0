from typing import Any, Optional

__all__ = ["RandomPlayer", "MctsPlayer", "DEFAULT_SIMULATIONS"]

DEFAULT_SIMULATIONS: int

class RandomPlayer:
    seed: Optional[int]
    def __init__(self, seed: Optional[int] = ...) -> None: ...
    def genmove(self, board: Any, time_left: Optional[float] = ...) -> Any: ...

class MctsPlayer:
    simulations: Optional[int]
    seconds: Optional[float]
    seed: Optional[int]
    exploration: float
    last_simulations: int
    chosen_budget: bool
    def __init__(self, simulations: Optional[int] = ..., seconds: Optional[float] = ...,
                 seed: Optional[int] = ..., exploration: float = ...) -> None: ...
    def set_move_time(self, seconds: float) -> None: ...
    def genmove(self, board: Any, time_left: Optional[float] = ...) -> Any: ...
