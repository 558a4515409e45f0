"""Which games a match plays and how they are run: openings, pairings,
concurrency, resume.

The list of games is fixed before the first is played, numbered from 1, so
that a resumed match plays exactly the games the killed one had not
finished: for each round, each pair of engines, ``games`` games, the
openings taken in turn, each opening played twice with the engines' seats
reversed (the second game of a pair has the same opening, the other engine
first).

Games run on ``concurrency`` threads (engines are processes: a thread only
waits on pipes).  Each thread keeps its own players, started on first use
and reused warm from game to game (``new_game`` clears the board); a player
whose process died is restarted before its next game.
"""
from __future__ import annotations

import operator
import random
import threading

from ..games import get as describe
from .arbiter import Clock, SettingError, new_board, play_game

# The annotations are for type checkers only: at run time they import
# nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

    from .arbiter import GameResult
    from .stats import Sprt

    # A match's openings: a list of move tuples, or a function of the
    # opening's number (and the seed) that draws one.
    _Openings = Union[List[Tuple[Any, ...]], Callable[..., Tuple[Any, ...]]]

__all__ = ["Planned", "pairings", "openings", "plan", "run", "MatchError", "OPENING_KINDS",
           "Session"]

OPENING_KINDS = ("none", "all", "random", "file")


class MatchError(Exception):
    """A match that cannot be played (a bad opening file, an engine that does
    not start): one line for the user."""


class Planned:
    """One game to play: its number, the engines by seat, its opening."""

    __slots__ = ("index", "engines", "opening", "opening_index")

    index: int
    engines: Tuple[int, ...]
    opening: Tuple[Any, ...]
    opening_index: int

    def __init__(self, index: int, engines: Sequence[int], opening: Sequence[Any],
                 opening_index: int) -> None:
        self.index, self.engines = index, tuple(engines)
        self.opening, self.opening_index = tuple(opening), opening_index

    def __repr__(self) -> str:
        return f"Planned({self.index}, {self.engines}, opening {self.opening_index})"


def pairings(count: int, mode: str = "round-robin") -> List[Tuple[int, int]]:
    """The pairs of engine indices: every pair (``round-robin``) or the
    first engine against each other (``gauntlet``)."""
    if count < 2:
        raise MatchError(f"a match needs at least two engines, not {count}")
    if mode == "gauntlet":
        return [(0, other) for other in range(1, count)]
    if mode == "round-robin":
        return [(a, b) for a in range(count) for b in range(a + 1, count)]
    raise MatchError(f"pairing is 'round-robin' or 'gauntlet', not {mode!r}")


def _random_opening(game: str, size: int, rule: str, swap: bool, plies: int,
                    rng: random.Random) -> Tuple[Any, ...]:
    """``plies`` random moves that do not end the game (cells only)."""
    for _ in range(100):
        board = new_board(game, size, rule, swap)
        moves: List[Any] = []
        for _ in range(plies):
            cells = [move for move in board.legal_moves() if not isinstance(move, str)]
            move = rng.choice(cells)
            board.play(move)
            moves.append(move)
            if board.is_over:
                break
        if not board.is_over:
            return tuple(moves)
    raise MatchError(f"no opening of {plies} plies that leaves the game open")


def _file_openings(path: Optional[str], game: str, size: int, rule: str,
                   swap: bool) -> List[Tuple[Any, ...]]:
    """The positions of a file of SGF/.hgf records, each as its moves (the
    records' resignations and passes left out), checked on a board."""
    from ..errors import InputError
    from ..records import read

    found: List[Tuple[Any, ...]] = []
    try:
        # A path of None is read's TypeError, which says what a record is.
        records = list(read(path, game=game))  # type: ignore[arg-type]
    except (OSError, InputError) as error:
        raise MatchError(f"openings {path}: {error}") from None
    for record in records:
        where = f"openings {path}: game {record.index} (line {record.line})"
        if record.kind != game:
            raise MatchError(f"{where} is {record.kind}, not {game}")
        if record.size != describe(game).record_size(size):
            shown = record.size[0] if isinstance(record.size, tuple) else record.size
            raise MatchError(f"{where} has size {shown}, the match {size}")
        board = new_board(game, size, rule, True)
        moves: List[Any] = []
        for _, move in record.moves:
            if move in ("resign", "forfeit", "pass"):
                break
            if isinstance(move, str) and (move != describe(game).swap_move or not swap):
                raise MatchError(f"{where}: move {len(moves) + 1} {move!r} cannot open a "
                                 f"game of this match")
            try:
                board.play(move)
            except (InputError, ValueError) as error:
                raise MatchError(f"{where}: move {len(moves) + 1}: {error}") from None
            moves.append(board.moves[-1])
        if board.is_over:
            raise MatchError(f"{where} is already over")
        found.append(tuple(moves))
    if not found:
        raise MatchError(f"openings {path}: no games")
    return found


def openings(kind: str, game: str, size: int, rule: str = "official", swap: bool = False,
             plies: int = 2, path: Optional[str] = None) -> _Openings:
    """The openings of a match: a list of move tuples, or for ``random`` a
    function of the opening's number (seeded by it, so that a resumed match
    draws the same openings)."""
    if kind == "none":
        return [()]
    if kind == "all":
        board = new_board(game, size, rule, swap)
        return [(move,) for move in board.legal_moves() if not isinstance(move, str)]
    if kind == "random":
        if plies < 1:
            raise MatchError(f"random openings need at least one ply, not {plies}")
        return lambda number, seed=0: _random_opening(
            game, size, rule, swap, plies, random.Random(f"{seed}:{number}"))
    if kind == "file":
        return _file_openings(path, game, size, rule, swap)
    raise MatchError(f"openings are one of {', '.join(OPENING_KINDS)}, not {kind!r}")


def plan(engine_count: int, games: int, rounds: int = 1, mode: str = "round-robin",
         opening_list: Any = ((),), seed: int = 0) -> List[Planned]:
    """The games of a match, in order (see the module's text)."""
    planned: List[Planned] = []
    number = 0
    opening_number = 0
    for _ in range(rounds):
        for a, b in pairings(engine_count, mode):
            for game in range(games):
                if game % 2 == 0:
                    if callable(opening_list):
                        opening = opening_list(opening_number, seed)
                    else:
                        opening = opening_list[opening_number % len(opening_list)]
                    this = opening_number
                    opening_number += 1
                number += 1
                seats = (a, b) if game % 2 == 0 else (b, a)
                planned.append(Planned(number, seats, opening, this))
    return planned


class _Slot:
    """One thread's players, one per engine, started on first use."""

    def __init__(self, make_player: Callable[[int], Any]) -> None:
        self.make_player = make_player
        self.players: Dict[int, Any] = {}

    def player(self, engine: int) -> Any:
        player = self.players.get(engine)
        if player is None:
            player = self.players[engine] = self.make_player(engine)
        elif not getattr(player, "alive", True):
            player.restart()
        return player

    def close(self) -> None:
        for player in self.players.values():
            try:
                player.close()
            except Exception:  # noqa: BLE001 - closing a dead engine must not stop the others
                pass


def run(planned: Sequence[Planned], make_player: Callable[[int], Any], game: str, size: int,
        rule: str = "official", swap: bool = False, clock: Optional[Clock] = None,
        concurrency: int = 1, on_result: Optional[Callable[[GameResult], Any]] = None,
        stop: Optional[threading.Event] = None,
        stall: Optional[float] = None) -> List[GameResult]:
    """Play the ``planned`` games on ``concurrency`` threads; each finished
    game's result (numbered and placed) goes to ``on_result(result)`` (under
    a lock, in the order games end), which returns True to stop the match:
    no game starts after that, the games in play finish.  ``make_player(i)``
    returns a started player for engine ``i``.  Returns the results in game
    order."""
    lock = threading.Lock()
    queue = list(reversed(planned))
    results: List[GameResult] = []
    stopped = stop if stop is not None else threading.Event()
    failures: List[Exception] = []

    def work() -> None:
        slot = _Slot(make_player)
        try:
            while not stopped.is_set():
                with lock:
                    if not queue or failures:
                        return
                    item = queue.pop()
                try:
                    players = (slot.player(item.engines[0]), slot.player(item.engines[1]))
                    options: Dict[str, Any] = {} if stall is None else {"stall": stall}
                    result = play_game(game, size, players, rule, swap, clock, item.opening,
                                       **options)
                except Exception as error:  # noqa: BLE001 - raised again in the caller's thread
                    if isinstance(error, SettingError):
                        # A setting an engine cannot take (play_game's new game).
                        error = MatchError(str(error))
                    with lock:
                        failures.append(error)
                    return
                result.index, result.engines = item.index, item.engines
                result.opening_index = item.opening_index
                with lock:
                    results.append(result)
                    if on_result is not None and on_result(result):
                        stopped.set()
        finally:
            slot.close()

    threads = [threading.Thread(target=work, name=f"havhex-match-{n}", daemon=True)
               for n in range(max(1, min(concurrency, len(planned) or 1)))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise failures[0]
    results.sort(key=lambda result: result.index)
    return results


class Session:
    """A whole match: plan, players, output files, SPRT, resume (what
    :func:`havhex.match.play` and ``havhex match`` run).

    ``make_player(index)`` returns a started player for engine ``index``;
    by default :func:`havhex.match.engines.make_player` on ``specs[index]``,
    started."""

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

    def __init__(self, game: str, specs: Sequence[Any], size: int, games: int = 2,
                 rounds: int = 1, pairing: str = "round-robin", rule: str = "official",
                 swap: bool = False, per_move: Optional[float] = None,
                 base: Optional[float] = None, increment: float = 0.0, margin: float = 0.1,
                 opening: str = "none", plies: int = 2, openings_file: Optional[str] = None,
                 seed: int = 0, concurrency: int = 1, sprt: Optional[Sprt] = None,
                 records: Optional[str] = None, jsonl: Optional[str] = None,
                 dat: Optional[str] = None, resume: bool = False,
                 on_result: Optional[Callable[[GameResult], Any]] = None,
                 make_player: Optional[Callable[[int], Any]] = None, progress: Any = None,
                 stall: Optional[float] = None) -> None:
        try:
            self.descriptor = describe(game)
        except ValueError as error:
            raise MatchError(str(error)) from None
        if records is not None and self.descriptor.records is None:
            raise MatchError(f"{game} has no record format: a match of it writes no records")
        if resume and jsonl is None:
            raise MatchError("--resume needs the JSON Lines file of the match (--jsonl)")
        least, most = self.descriptor.min_size, self.descriptor.max_size
        try:
            size = operator.index(size) if not isinstance(size, bool) else -1
        except TypeError:
            size = -1
        if not least <= size <= most:
            raise ValueError(f"a {game} match takes a size of {least} to {most}")
        self.game, self.specs, self.size = game, list(specs), size
        self.rule, self.swap = rule, swap
        # Every clock setting is checked (ValueError), given a clock or not.
        clock = Clock(per_move, base, increment, margin)
        self.clock = clock if per_move is not None or base is not None else None
        self.concurrency, self.sprt = concurrency, sprt
        self.records, self.jsonl, self.dat, self.resume = records, jsonl, dat, resume
        self.on_result = on_result
        self.progress = progress
        self.stall = stall
        self.verdict = None
        self._make_player = make_player
        found = openings(opening, game, size, rule, swap, plies, openings_file)
        self.planned = plan(len(self.specs), games, rounds, pairing, found, seed)
        self.names = [getattr(spec, "name", None) or f"engine{index + 1}"
                      for index, spec in enumerate(self.specs)]

    def make_player(self, index: int) -> Any:
        if self._make_player is not None:
            return self._make_player(index)
        from .engines import make_player

        player = make_player(self.specs[index], self.game)
        try:
            player.start()
        except Exception as error:  # noqa: BLE001 - any failure to start is the user's to fix
            raise MatchError(f"engine {self.names[index]}: does not start: {error}") from None
        return player

    def _score(self, results: Sequence[GameResult]) -> Tuple[int, int, int]:
        wins = draws = losses = 0
        for result in results:
            if result.winner is None:
                draws += 1
            elif result.engines[result.winner] == 0:
                wins += 1
            else:
                losses += 1
        return wins, draws, losses

    def run(self) -> List[GameResult]:
        import os

        from .output import DatWriter, JsonlWriter, read_jsonl, write_record

        done: Dict[int, GameResult] = {}
        if self.resume:
            if TYPE_CHECKING:
                assert self.jsonl is not None   # __init__ checks: a resume needs it
            done = {result.index: result for result in read_jsonl(self.jsonl)}
        pending = [item for item in self.planned if item.index not in done]
        results = sorted(done.values(), key=lambda result: result.index)
        if self.records is not None:
            os.makedirs(self.records, exist_ok=True)
        jsonl = JsonlWriter(self.jsonl, append=self.resume) if self.jsonl else None
        for result in results:
            for seat in (0, 1):
                if result.names[seat]:
                    self.names[result.engines[seat]] = result.names[seat]
        header = [("Game", self.game), ("Size", self.size),
                  ("Black", self.names[0]), ("White", self.names[1]), ("Referee", "havhex"),
                  ("Rule", self.rule if self.descriptor.rules else "-"),
                  ("Swap", int(bool(self.swap)))]
        dat = None
        if self.dat:
            # A resumed match writes the table afresh from the JSON Lines
            # file, the record of what was done: a kill between the two
            # files' lines leaves them agreeing again.
            dat = DatWriter(self.dat, header)
            for result in results:
                dat.add(result)
        finished = list(results)
        if self.sprt is not None and len(self.specs) == 2 and finished:
            self.verdict = self.sprt.verdict(*self._score(finished))
            if self.verdict is not None:
                pending = []

        def record(result: GameResult) -> bool:
            for seat in (0, 1):
                if result.names[seat]:
                    self.names[result.engines[seat]] = result.names[seat]
            if self.records is not None:
                write_record(result, self.records)
            if jsonl is not None:
                jsonl.add(result)
            if dat is not None:
                dat.add(result)
            finished.append(result)
            if self.progress is not None:
                self.progress.update(len(finished), f"game {result.index}: "
                                     f"{result.reason}")
            if self.on_result is not None:
                self.on_result(result)
            if self.sprt is not None and len(self.specs) == 2:
                self.verdict = self.sprt.verdict(*self._score(finished))
                return self.verdict is not None
            return False

        try:
            played = run(pending, self.make_player, self.game, self.size, self.rule,
                         self.swap, self.clock, self.concurrency, record, stall=self.stall)
        finally:
            if jsonl is not None:
                jsonl.close()
            if dat is not None:
                dat.close()
            if self.progress is not None:
                self.progress.close()
        return sorted(results + played, key=lambda result: result.index)
