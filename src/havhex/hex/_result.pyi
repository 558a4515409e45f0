from typing import FrozenSet, Iterable, Literal, Optional, Tuple

__all__ = ["Result", "STATUSES", "REASONS"]

_Cell = Tuple[int, int]
_Status = Literal["Impossible", "Red wins", "Blue wins", "Nobody wins"]
_Reason = Literal["counts", "both-connected", "loser-moved-last", "no-single-last-move"]
_Colour = Literal["red", "blue"]

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
