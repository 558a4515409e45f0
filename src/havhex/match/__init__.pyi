from typing import Any, Callable, List, Optional, Sequence

from .arbiter import REASONS as REASONS, Clock as Clock, GameResult as GameResult, play_game as play_game
from .engines import EngineSpec
from .schedule import MatchError as MatchError
from .stats import Score as Score, Sprt as Sprt

__all__ = ["play", "play_game", "GameResult", "Clock", "REASONS", "MatchError", "Score",
           "Sprt", "as_spec"]

def as_spec(engine: Any) -> EngineSpec: ...
def play(game: str, engines: Sequence[Any], size: int, games: int = ..., rounds: int = ...,
         pairing: str = ..., rule: str = ..., swap: bool = ...,
         per_move: Optional[float] = ..., base: Optional[float] = ..., increment: float = ...,
         margin: float = ..., opening: str = ..., plies: int = ...,
         openings_file: Optional[str] = ..., seed: int = ..., concurrency: int = ...,
         sprt: Optional[Sprt] = ..., records: Optional[str] = ..., jsonl: Optional[str] = ...,
         dat: Optional[str] = ..., resume: bool = ...,
         on_result: Optional[Callable[[GameResult], Any]] = ...) -> List[GameResult]: ...
