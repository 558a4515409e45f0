from typing import Any, Dict, List, Optional, Sequence, Tuple

__all__ = ["GameResult", "Clock", "play_game", "REASONS", "BOARD_REASONS"]

BOARD_REASONS: Tuple[str, ...]
REASONS: Tuple[str, ...]
COMMAND_TIMEOUT: float
CLAIM_TIMEOUT: float
STALL_TIMEOUT: float

def new_board(game: str, size: int, rule: str = ..., swap: bool = ...) -> Any: ...

class Clock:
    per_move: Optional[float]
    base: Optional[float]
    increment: float
    margin: float
    left: Optional[List[float]]
    def __init__(self, per_move: Optional[float] = ..., base: Optional[float] = ...,
                 increment: float = ..., margin: float = ...) -> None: ...
    @property
    def settings(self) -> "Clock": ...
    def allowed(self, seat: int) -> Optional[float]: ...
    def charge(self, seat: int, seconds: float) -> bool: ...

class GameResult:
    game: str
    size: int
    rule: str
    swap: bool
    names: Tuple[str, ...]
    versions: Tuple[str, ...]
    winner: Optional[int]
    reason: str
    detail: str
    moves: List[Any]
    times: List[float]
    opening: int
    claims: Dict[int, Optional[int]]
    claim_disagrees: bool
    index: int
    engines: Tuple[int, ...]
    opening_index: int
    def __init__(self, game: str, size: int, rule: str = ..., swap: bool = ...,
                 names: Sequence[str] = ..., versions: Sequence[str] = ...,
                 winner: Optional[int] = ..., reason: str = ..., detail: str = ...,
                 moves: Sequence[Any] = ..., times: Sequence[float] = ..., opening: int = ...,
                 claims: Optional[Dict[int, Optional[int]]] = ...,
                 claim_disagrees: bool = ..., index: int = ...,
                 engines: Sequence[int] = ..., opening_index: int = ...) -> None: ...
    @property
    def loser(self) -> Optional[int]: ...
    def seat_times(self) -> Tuple[float, float]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "GameResult": ...

def play_game(game: str, size: int, players: Sequence[Any], rule: str = ...,
              swap: bool = ..., clock: Optional[Any] = ..., opening: Sequence[Any] = ...,
              stall: float = ..., claims: bool = ...) -> GameResult: ...
