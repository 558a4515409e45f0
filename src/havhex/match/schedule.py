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

import json
import operator
import random
import threading

from ..games import get as describe
from .arbiter import Clock, GameResult, SettingError, new_board, play_game

# The annotations are for type checkers only: at run time they import
# nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

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
        if record.game != game:
            raise MatchError(f"{where} is {record.game}, not {game}")
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


# Seconds an interrupted match waits for its threads once their engines
# are killed: a thread in a Python player's own code cannot be stopped.
_ABORT_JOIN = 5.0


class _RestartFailed(Exception):
    """A player that died and cannot be started again: ``engine`` its
    index, ``name`` its name, ``error`` why."""

    def __init__(self, engine: int, name: str, error: BaseException) -> None:
        super().__init__(f"{name}: cannot be restarted: {error}")
        self.engine, self.name, self.error = engine, name, error


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
            try:
                player.restart()
            except Exception as error:  # noqa: BLE001 - any failure: the engine is gone
                raise _RestartFailed(engine, getattr(player, "name", "") or f"engine{engine + 1}",
                                     error) from None
        return player

    def name(self, engine: int) -> str:
        return getattr(self.players.get(engine), "name", "") or ""

    def interrupt(self) -> None:
        """Kill every engine of this slot now (from another thread)."""
        for player in list(self.players.values()):
            interrupt = getattr(player, "interrupt", None)
            if interrupt is not None:
                interrupt()

    def close(self) -> None:
        for player in self.players.values():
            try:
                player.close()
            except Exception:  # noqa: BLE001 - closing a dead engine must not stop the others
                pass


def run(planned: Sequence[Planned], make_player: Callable[[int], Any], game: str, size: int,
        rule: str = "official", swap: bool = False, clock: Optional[Clock] = None,
        concurrency: int = 1, on_result: Optional[Callable[[GameResult], Any]] = None,
        stop: Optional[threading.Event] = None, stall: Optional[float] = None,
        names: Optional[Sequence[str]] = None) -> List[GameResult]:
    """Play the ``planned`` games on ``concurrency`` threads; each finished
    game's result (numbered and placed) goes to ``on_result(result)`` (under
    a lock, in the order games end), which returns True to stop the match:
    no game starts after that, the games in play finish.  ``make_player(i)``
    returns a started player for engine ``i``; ``names`` are the engines'
    names for a game no player of it could play.  Returns the results in
    game order.

    An engine that dies and cannot be restarted forfeits its remaining
    games (``disconnects``, "cannot be restarted").  Whatever a thread
    raises (``on_result``'s exception, a write that failed) stops the match
    and is raised here, and the game it came with is not among the results;
    an interrupt here (Ctrl-C) kills every engine, records no game in play
    and is raised again."""
    lock = threading.Lock()
    queue = list(reversed(planned))
    results: List[GameResult] = []
    stopped = stop if stop is not None else threading.Event()
    failures: List[BaseException] = []
    slots: List[_Slot] = []
    aborted = threading.Event()
    # Engines that cannot be restarted: why, by index.
    dead: Dict[int, str] = {}

    def forfeit(item: Planned, slot: _Slot, engine: int) -> GameResult:
        shown = [slot.name(each) or (names[each] if names is not None and each < len(names)
                                     else f"engine{each + 1}") for each in item.engines]
        seat = item.engines.index(engine)
        return GameResult(game, size, rule, swap, shown, winner=1 - seat, reason="disconnects",
                          detail=dead[engine])

    def play_one(slot: _Slot, item: Planned) -> GameResult:
        gone = [engine for engine in item.engines if engine in dead]
        if len(gone) == 2:
            raise MatchError(f"{dead[gone[0]]}; {dead[gone[1]]}: no game between them can "
                             f"be played")
        if gone:
            return forfeit(item, slot, gone[0])
        try:
            players = (slot.player(item.engines[0]), slot.player(item.engines[1]))
        except _RestartFailed as failed:
            with lock:
                dead.setdefault(failed.engine, str(failed))
            return play_one(slot, item)
        options: Dict[str, Any] = {} if stall is None else {"stall": stall}
        try:
            return play_game(game, size, players, rule, swap, clock, item.opening, **options)
        except SettingError as error:
            # A setting an engine cannot take (play_game's new game).
            raise MatchError(str(error)) from None

    def work() -> None:
        slot = _Slot(make_player)
        with lock:
            slots.append(slot)
        try:
            while not stopped.is_set():
                with lock:
                    if not queue or failures:
                        return
                    item = queue.pop()
                result = play_one(slot, item)
                result.index, result.engines = item.index, item.engines
                result.opening_index = item.opening_index
                with lock:
                    if aborted.is_set() or failures:
                        return
                    # The result counts once on_result has taken it (written
                    # it): a game that could not be recorded is not counted,
                    # and no other thread records one after it.
                    try:
                        done = on_result is not None and on_result(result)
                    except BaseException as error:  # noqa: BLE001 - raised in the caller's thread
                        failures.append(error)
                        stopped.set()
                        return
                    results.append(result)
                    if done:
                        stopped.set()
        except BaseException as error:  # noqa: BLE001 - raised again in the caller's thread
            with lock:
                failures.append(error)
            stopped.set()
        finally:
            slot.close()

    threads = [threading.Thread(target=work, name=f"havhex-match-{n}", daemon=True)
               for n in range(max(1, min(concurrency, len(planned) or 1)))]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    except BaseException:
        # Ctrl-C (or a signal made an exception): no game in play is
        # recorded, and the engines, each in its own process group that no
        # terminal signal reaches, are killed with their groups.
        aborted.set()
        stopped.set()
        for slot in list(slots):
            slot.interrupt()
        for thread in threads:
            if thread.ident is not None:
                thread.join(_ABORT_JOIN)
        # A thread may have been restarting an engine meanwhile.
        for slot in list(slots):
            slot.interrupt()
        raise
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
    identity: Dict[str, Any]

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
        # What makes the games of this match these games: written with each
        # game, and compared by --resume.
        self.identity = {
            "game": game, "size": size, "rule": rule, "swap": bool(swap),
            "engines": [_engine_identity(spec, index) for index, spec in enumerate(self.specs)],
            "games": games, "rounds": rounds, "pairing": pairing,
            "clock": None if self.clock is None else [per_move, base, increment, margin],
            "openings": [opening, plies if opening == "random" else None, openings_file],
            "seed": seed}
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

    def _check_resumed(self, lines: Sequence[Tuple[GameResult, Optional[Dict[str, Any]]]]) -> None:
        """MatchError when a game of the file to resume is of another match:
        its ``match`` differs from this one's, or (a file that has none)
        its game, size, rule, swap, engines' given names or number do."""
        ours = json.loads(json.dumps(self.identity))
        for result, theirs in lines:
            where = f"--resume: {self.jsonl} holds game {result.index} of another match"
            if theirs is not None:
                for key in ours:
                    if theirs.get(key) != ours[key]:
                        shown = json.dumps(theirs.get(key))
                        raise MatchError(f"{where} ({key} {_cut(shown)}, this match's "
                                         f"{_cut(json.dumps(ours[key]))})")
                continue
            facts = (("game", result.game, self.game), ("size", result.size, self.size),
                     ("rule", result.rule, self.rule), ("swap", result.swap, bool(self.swap)))
            for key, found, wanted in facts:
                if found != wanted:
                    raise MatchError(f"{where} ({key} {_cut(json.dumps(found))}, this "
                                     f"match's {_cut(json.dumps(wanted))})")
            if not 1 <= result.index <= len(self.planned) or \
                    any(not 0 <= engine < len(self.specs) for engine in result.engines):
                raise MatchError(f"{where} (a game this match does not plan)")
            for seat, engine in enumerate(result.engines):
                given = getattr(self.specs[engine], "name", None)
                if given and result.names[seat] != given:
                    raise MatchError(f"{where} (engine {_cut(json.dumps(result.names[seat]))}, "
                                     f"this match's {_cut(json.dumps(given))})")

    def run(self) -> List[GameResult]:
        import os

        from .output import DatWriter, JsonlWriter, read_jsonl_lines, write_record

        done: Dict[int, GameResult] = {}
        if self.resume:
            if TYPE_CHECKING:
                assert self.jsonl is not None   # __init__ checks: a resume needs it
            lines = read_jsonl_lines(self.jsonl)
            self._check_resumed(lines)
            done = {result.index: result for result, _ in lines}
        pending = [item for item in self.planned if item.index not in done]
        results = sorted(done.values(), key=lambda result: result.index)
        for result in results:
            for seat in (0, 1):
                if result.names[seat]:
                    self.names[result.engines[seat]] = result.names[seat]
        header = [("Game", self.game), ("Size", self.size),
                  ("Black", self.names[0]), ("White", self.names[1]), ("Referee", "havhex"),
                  ("Rule", self.rule if self.descriptor.rules else "-"),
                  ("Swap", int(bool(self.swap)))]
        # Every output is opened before any is changed: one that cannot be
        # (a folder in the way, no permission) leaves the others as they were.
        jsonl = dat = None
        try:
            if self.jsonl:
                jsonl = JsonlWriter(self.jsonl, append=self.resume, start=False,
                                    match=self.identity)
            if self.dat:
                # A resumed match writes the table afresh from the JSON Lines
                # file, the record of what was done: a kill between the two
                # files' lines leaves them agreeing again.
                dat = DatWriter(self.dat, header, start=False)
            if self.records is not None:
                os.makedirs(self.records, exist_ok=True)
        except BaseException:
            for opened in (jsonl, dat):
                if opened is not None:
                    opened.discard()
            raise
        try:
            for opened in (jsonl, dat):
                if opened is not None:
                    opened.begin()
            if dat is not None:
                for result in results:
                    dat.add(result)
            finished = list(results)
            if self.sprt is not None and len(self.specs) == 2 and finished:
                self.verdict = self.sprt.verdict(*self._score(finished))
                if self.verdict is not None:
                    pending = []

            def record(result: GameResult) -> bool:
                # The record, then the JSON line, then the table: a game the
                # JSON Lines file holds is whole everywhere else.
                if self.records is not None:
                    write_record(result, self.records)
                if jsonl is not None:
                    jsonl.add(result)
                if dat is not None:
                    dat.add(result)
                for seat in (0, 1):
                    if result.names[seat]:
                        self.names[result.engines[seat]] = result.names[seat]
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

            played = run(pending, self.make_player, self.game, self.size, self.rule,
                         self.swap, self.clock, self.concurrency, record, stall=self.stall,
                         names=self.names)
        finally:
            if jsonl is not None:
                jsonl.close()
            if dat is not None:
                dat.close()
            if self.progress is not None:
                self.progress.close()
        return sorted(results + played, key=lambda result: result.index)


def _cut(text: str, most: int = 60) -> str:
    return text if len(text) <= most else text[:most] + "..."


def _engine_identity(spec: Any, index: int) -> str:
    """What names an engine in a match's identity: the name given, else its
    command line, else the callable's name."""
    name = getattr(spec, "name", None)
    if name:
        return str(name)
    command = getattr(spec, "command", None)
    if command:
        return " ".join(command)
    player = getattr(spec, "player", None)
    return str(getattr(player, "__name__", None) or f"engine{index + 1}")
