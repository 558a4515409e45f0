"""havhex.match: engine against engine, refereed by havhex's own judges.

:func:`play` plays a match and returns its games' results
(:class:`GameResult`); engines are :class:`~havhex.match.engines.EngineSpec`
objects, command lines (a string, split like a shell's words) or Python
callables ``player(board, seat, time_left) -> move`` (an RL loop evaluates a
network with no process in between).  ``havhex match`` on the command line
(:mod:`havhex.cli.match`) is built on the same pieces: :mod:`.arbiter` plays
and judges one game, :mod:`.schedule` plans and runs the games,
:mod:`.stats` has Elo, LOS and the SPRT, :mod:`.output` the records and
tables.
"""
from __future__ import annotations

from .arbiter import REASONS, Clock, GameResult, play_game
from .schedule import MatchError
from .stats import Score, Sprt

# The annotations are for type checkers only: at run time they import
# nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, List, Optional, Sequence

    from .engines import EngineSpec

__all__ = ["play", "play_game", "GameResult", "Clock", "REASONS", "MatchError", "Score",
           "Sprt", "as_spec"]


def as_spec(engine: Any) -> EngineSpec:
    """An EngineSpec of an EngineSpec, a command line or a callable."""
    from .engines import EngineSpec

    if isinstance(engine, EngineSpec):
        return engine
    if callable(engine):
        return EngineSpec(name=getattr(engine, "__name__", None), player=engine)
    if isinstance(engine, (str, list, tuple)):
        return EngineSpec(command=engine)
    raise TypeError(f"an engine is an EngineSpec, a command or a callable, not "
                    f"{type(engine).__name__}")


def play(game: str, engines: Sequence[Any], size: int, games: int = 2, rounds: int = 1,
         pairing: str = "round-robin", rule: str = "official", swap: bool = False,
         per_move: Optional[float] = None, base: Optional[float] = None,
         increment: float = 0.0, margin: float = 0.1, opening: str = "none", plies: int = 2,
         openings_file: Optional[str] = None, seed: int = 0, concurrency: int = 1,
         sprt: Optional[Sprt] = None, records: Optional[str] = None,
         jsonl: Optional[str] = None, dat: Optional[str] = None, resume: bool = False,
         on_result: Optional[Callable[[GameResult], Any]] = None) -> List[GameResult]:
    """Play a match and return its games' :class:`GameResult` objects, in
    game order.

    ``game`` ``"hex"`` or ``"havannah"``; ``engines`` two or more (see the
    module's text); ``games`` per pair and round, each opening played twice
    with the seats reversed; ``pairing`` ``"round-robin"`` or
    ``"gauntlet"`` (the first engine against each other); ``per_move``
    seconds a move and/or ``base`` + ``increment`` seconds a game, with
    ``margin``; ``opening`` ``"none"``, ``"all"`` (every one-move opening),
    ``"random"`` (``plies`` random moves, from ``seed``) or ``"file"``
    (``openings_file``, SGF or .hgf); ``sprt`` an :class:`Sprt` (a match of
    two engines stops once it decides); ``records`` a folder for a record a
    game, ``jsonl``/``dat`` result files; ``resume`` skips the games the
    ``jsonl`` file holds.
    """
    from .schedule import Session

    session = Session(game, [as_spec(engine) for engine in engines], size, games=games,
                      rounds=rounds, pairing=pairing, rule=rule, swap=swap,
                      per_move=per_move, base=base, increment=increment, margin=margin,
                      opening=opening, plies=plies, openings_file=openings_file, seed=seed,
                      concurrency=concurrency, sprt=sprt, records=records, jsonl=jsonl,
                      dat=dat, resume=resume, on_result=on_result)
    return session.run()
