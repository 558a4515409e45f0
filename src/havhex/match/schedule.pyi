import threading
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union

from .arbiter import Clock, GameResult
from .stats import Sprt

__all__ = ["Planned", "pairings", "openings", "plan", "run", "MatchError", "OPENING_KINDS",
           "Session"]

OPENING_KINDS: Tuple[str, ...]

class MatchError(Exception): ...

class Planned:
    index: int
    engines: Tuple[int, ...]
    opening: Tuple[Any, ...]
    opening_index: int
    def __init__(self, index: int, engines: Sequence[int], opening: Sequence[Any],
                 opening_index: int) -> None: ...

_Openings = Union[List[Tuple[Any, ...]], Callable[..., Tuple[Any, ...]]]

def pairings(count: int, mode: str = ...) -> List[Tuple[int, int]]: ...
def openings(kind: str, game: str, size: int, rule: str = ..., swap: bool = ...,
             plies: int = ..., path: Optional[str] = ...) -> _Openings: ...
def plan(engine_count: int, games: int, rounds: int = ..., mode: str = ...,
         opening_list: Any = ..., seed: int = ...) -> List[Planned]: ...
def run(planned: Sequence[Planned], make_player: Callable[[int], Any], game: str, size: int,
        rule: str = ..., swap: bool = ..., clock: Optional[Clock] = ...,
        concurrency: int = ..., on_result: Optional[Callable[[GameResult], Any]] = ...,
        stop: Optional[threading.Event] = ..., stall: Optional[float] = ...) -> List[GameResult]: ...

class Session:
    game: str
    specs: List[Any]
    size: int
    rule: str
    swap: bool
    clock: Optional[Clock]
    concurrency: int
    sprt: Optional[Sprt]
    records: Optional[str]
    jsonl: Optional[str]
    dat: Optional[str]
    resume: bool
    on_result: Optional[Callable[[GameResult], Any]]
    progress: Any
    stall: Optional[float]
    verdict: Optional[str]
    planned: List[Planned]
    names: List[str]
    def __init__(self, game: str, specs: Sequence[Any], size: int, games: int = ...,
                 rounds: int = ..., pairing: str = ..., rule: str = ..., swap: bool = ...,
                 per_move: Optional[float] = ..., base: Optional[float] = ...,
                 increment: float = ..., margin: float = ..., opening: str = ...,
                 plies: int = ..., openings_file: Optional[str] = ..., seed: int = ...,
                 concurrency: int = ..., sprt: Optional[Sprt] = ..., records: Optional[str] = ...,
                 jsonl: Optional[str] = ..., dat: Optional[str] = ..., resume: bool = ...,
                 on_result: Optional[Callable[[GameResult], Any]] = ...,
                 make_player: Optional[Callable[[int], Any]] = ..., progress: Any = ...,
                 stall: Optional[float] = ...) -> None: ...
    def make_player(self, index: int) -> Any: ...
    def run(self) -> List[GameResult]: ...
