"""One game between two players, adjudicated on havhex's own board.

The engines never decide anything: each move an engine answers is parsed in
its dialect, played on a live board of havhex (the game's, as its
descriptor makes it, with the match's ring rule and pie rule) and only
then forwarded to the other engine.  The game ends at the move that wins by
havhex's judge, or when the board fills (a draw), or at the first fault of
an engine, which loses:

- ``"illegal move"``: an answer that is no move (unparseable, a protocol
  fault such as a reply that is not GTP, a refused ``genmove``, a pass), a
  cell off the board or occupied, a swap when none is allowed; also an
  engine that refuses a legal move the arbiter forwards to it (it could not
  go on with the game the board holds);
- ``"disconnects"``: the engine's process ended, or an in-process player
  raised;
- ``"on time"``: no answer within its clock (plus the margin), or within
  the stall limit when the match has no clock;
- ``"resign"``: the engine resigned.

Seats: seat 0 moves first, seat 1 moves second.  A swap (Hex
``swap-pieces``, Havannah ``swap``) changes stones, not seats: havhex's
boards keep each colour with its seat.  An engine family whose swap means
something else (benzene's: the stone keeps its colour, the players exchange
colours) is spoken to in its own terms (:mod:`.dialects`), and once the
first move after a swap is on both engines' boards, each board havhex can
read (``showboard``) must agree with the arbiter's: one that does not is
its engine's fault (``"illegal move"``, "board disagrees after the swap").
At the end each live engine is asked for the result it sees
(``final_score``, ``winner``); a claim that names another winner than the
board's is flagged.
"""
from __future__ import annotations

import time

from .. import games

# The annotations are for type checkers only: at run time they import
# nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Sequence, Tuple

__all__ = ["GameResult", "Clock", "play_game", "REASONS", "BOARD_REASONS", "SettingError",
           "MAX_SECONDS", "excerpt", "shortened"]

# How a game can end; the first five are decided on the board.
BOARD_REASONS = ("connection", "ring", "bridge", "fork", "board full")
REASONS = BOARD_REASONS + ("resign", "illegal move", "disconnects", "on time")

# Seconds an engine has to take a forwarded move or answer a claim: these
# are not on its clock, but a dead or hung engine must not hold the match.
COMMAND_TIMEOUT = 10.0
CLAIM_TIMEOUT = 2.0
# Seconds a move may take when the match has no clock: a hung engine loses
# on time instead of holding the match for ever.
STALL_TIMEOUT = 60.0


# The most seconds a clock takes (per move, a game's base, its increment,
# the margin): some eleven days, past any match, and short of what the
# waits on the engines' pipes can hold.
MAX_SECONDS = 1e6
# The characters of an engine's answer that a result's detail quotes.
_EXCERPT = 60


class SettingError(ValueError):
    """A setting of the match that a player cannot take (a swap for an
    engine whose dialect has none): the match's fault, not the player's,
    so that it stops the match instead of losing games."""


def excerpt(text: Any, most: int = _EXCERPT) -> str:
    """``text`` as a result's detail quotes it: its first ``most``
    characters, and its length when it is longer."""
    if not isinstance(text, str):
        shown = repr(text)
        if len(shown) <= most:
            return shown
        return f"{shown[:most]}... ({len(shown)} characters)"
    if len(text) <= most:
        return repr(text)
    return f"{text[:most]!r}... ({len(text)} characters)"


def shortened(message: str, most: int = 200) -> str:
    """A message as a result's detail keeps it: its first ``most``
    characters, and its length when it is longer (an engine's error text
    is its own, of any length)."""
    shown = message if len(message) <= most else message[:most]
    if not shown.isprintable():
        # One line, whatever the engine wrote: line ends, NULs and other
        # control characters as their escapes.
        shown = "".join(char if char.isprintable() else repr(char)[1:-1] for char in shown)
    if len(message) <= most:
        return shown
    return f"{shown}... ({len(message)} characters)"


def _seconds(name: str, value: Any, zero: bool) -> float:
    """``value`` as a clock's number of seconds: a finite number, above 0
    (or 0 too with ``zero``), at most MAX_SECONDS; ValueError otherwise."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} is a number of seconds, not {excerpt(value)}") from None
    if not ((0.0 <= seconds if zero else 0.0 < seconds) and seconds <= MAX_SECONDS):
        least = "at least 0" if zero else "above 0"
        raise ValueError(f"{name} takes seconds {least} and at most {MAX_SECONDS:.0f}, "
                         f"not {excerpt(value)}")
    return seconds


def new_board(game: str, size: int, rule: str = "official", swap: bool = False) -> Any:
    """A live board of havhex for one game (by its name)."""
    return games.get(game).new_board(size, rule, swap)


class Clock:
    """The arbiter's clock of one game: ``per_move`` seconds a move
    (``st=``), and/or ``base`` seconds a game plus ``increment`` a move
    (``tc=base+inc``); ``margin`` seconds past either before a move is
    lost on time (pipes and process scheduling are not the engine's)."""

    __slots__ = ("per_move", "base", "increment", "margin", "left")

    per_move: Optional[float]
    base: Optional[float]
    increment: float
    margin: float
    left: Optional[List[float]]

    def __init__(self, per_move: Optional[float] = None, base: Optional[float] = None,
                 increment: float = 0.0, margin: float = 0.1) -> None:
        # A clock of nan or inf seconds, or a negative one, would lose every
        # game on time or wait for ever: ValueError instead.
        self.per_move = None if per_move is None else _seconds("per_move", per_move, False)
        self.base = None if base is None else _seconds("base", base, False)
        self.increment = _seconds("increment", increment, True)
        self.margin = _seconds("margin", margin, True)
        self.left = [self.base, self.base] if self.base is not None else None

    def fresh(self) -> Clock:
        """A clock of the same settings with its time all left."""
        clock = Clock.__new__(Clock)
        clock.per_move, clock.base = self.per_move, self.base
        clock.increment, clock.margin = self.increment, self.margin
        clock.left = [self.base, self.base] if self.base is not None else None
        return clock

    @property
    def settings(self) -> Clock:
        """What engines are told: an object with per_move, base, increment."""
        return self

    def allowed(self, seat: int) -> Optional[float]:
        """Seconds ``seat`` may think on this move (None: no clock)."""
        limits: List[float] = []
        if self.per_move is not None:
            limits.append(self.per_move)
        if self.left is not None:
            limits.append(max(self.left[seat], 0.0))
        return min(limits) if limits else None

    def charge(self, seat: int, seconds: float) -> bool:
        """Take a move's time off ``seat``'s clock; False when it was over
        the limit (with the margin)."""
        allowed = self.allowed(seat)
        if self.left is not None:
            self.left[seat] += self.increment - seconds
        return allowed is None or seconds <= allowed + self.margin


class GameResult:
    """What one game came to.

    ``names``/``versions`` per seat; ``winner`` the winning seat or None (a
    draw); ``reason`` one of :data:`REASONS`; ``detail`` what the fault was
    (the move text, the engine's message), else ""; ``moves`` the moves
    played on the board, opening plies first (havhex's moves: Hex
    ``(row, col)`` or ``"swap-pieces"``, Havannah ``(x, y)`` or ``"swap"``);
    ``times`` the wall seconds of each move (0.0 for opening plies);
    ``opening`` the number of opening plies; ``claims`` ``{seat: seat the
    engine said won, or None}``; ``claim_disagrees`` True when a claim names
    another outcome than the board's; ``notes`` what the arbiter saw that
    decided nothing (an engine that refused a clock command); ``loser`` the
    seat that lost by a fault or resignation.  ``game``, ``size``, ``rule``, ``swap`` the game
    played; ``index``, ``engines`` (indices of the engines in seat order)
    and ``opening_index`` are set by the schedule.
    """

    __slots__ = ("game", "size", "rule", "swap", "names", "versions", "winner", "reason",
                 "detail", "moves", "times", "opening", "claims", "claim_disagrees", "index",
                 "engines", "opening_index", "notes")

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
    notes: List[str]

    def __init__(self, game: str, size: int, rule: str = "official", swap: bool = False,
                 names: Sequence[str] = ("", ""), versions: Sequence[str] = ("", ""),
                 winner: Optional[int] = None, reason: str = "board full", detail: str = "",
                 moves: Sequence[Any] = (), times: Sequence[float] = (), opening: int = 0,
                 claims: Optional[Dict[int, Optional[int]]] = None,
                 claim_disagrees: bool = False, index: int = 0,
                 engines: Sequence[int] = (0, 1), opening_index: int = 0,
                 notes: Sequence[str] = ()) -> None:
        self.game, self.size, self.rule, self.swap = game, size, rule, swap
        self.names, self.versions = tuple(names), tuple(versions)
        self.winner, self.reason, self.detail = winner, reason, detail
        self.moves, self.times = list(moves), list(times)
        self.opening = opening
        self.claims = dict(claims or {})
        self.claim_disagrees = claim_disagrees
        self.index, self.engines, self.opening_index = index, tuple(engines), opening_index
        self.notes = list(notes)

    @property
    def loser(self) -> Optional[int]:
        return None if self.winner is None else 1 - self.winner

    def seat_times(self) -> Tuple[float, float]:
        """Total wall seconds each seat spent on its moves."""
        totals = [0.0, 0.0]
        for number, seconds in enumerate(self.times):
            totals[number % 2] += seconds
        return tuple(totals)  # type: ignore[return-value]  # of a list of two: a pair

    def to_dict(self) -> Dict[str, Any]:
        return {"index": self.index, "game": self.game, "size": self.size, "rule": self.rule,
                "swap": self.swap, "engines": list(self.engines), "names": list(self.names),
                "versions": list(self.versions), "winner": self.winner, "reason": self.reason,
                "detail": self.detail, "opening_index": self.opening_index,
                "opening": self.opening,
                "moves": [move if isinstance(move, str) else list(move) for move in self.moves],
                "times": [round(seconds, 6) for seconds in self.times],
                "claims": {str(seat): claim for seat, claim in sorted(self.claims.items())},
                "claim_disagrees": self.claim_disagrees, "notes": list(self.notes)}

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> GameResult:
        return cls(data["game"], data["size"], data.get("rule", "official"),
                   data.get("swap", False), data["names"], data.get("versions", ("", "")),
                   data["winner"], data["reason"], data.get("detail", ""),
                   [move if isinstance(move, str) else tuple(move) for move in data["moves"]],
                   data.get("times", ()), data.get("opening", 0),
                   {int(seat): claim for seat, claim in data.get("claims", {}).items()},
                   data.get("claim_disagrees", False), data.get("index", 0),
                   data.get("engines", (0, 1)), data.get("opening_index", 0),
                   data.get("notes", ()))

    def __repr__(self) -> str:
        return (f"GameResult(#{self.index} {self.names[0]} vs {self.names[1]}: "
                f"winner={self.winner}, reason={self.reason!r}, moves={len(self.moves)})")


def _fault(error: BaseException) -> Tuple[str, str]:
    """The reason and detail a player's exception loses by."""
    kind = getattr(error, "kind", None)
    if kind in ("disconnects", "on time"):
        return kind, shortened(str(error))
    if kind == "protocol":
        # An answer that is not GTP stands where a move should: no move.
        message = getattr(error, "message", None) or str(error)
        return "illegal move", f"protocol: {shortened(message)}"
    if hasattr(error, "text") and type(error).__name__ == "CommandRefused":
        return "illegal move", f"refused: {shortened(str(error.text))}"
    return "disconnects", shortened(f"{type(error).__name__}: {error}")


class _Game:
    """The state of one game in play: the board, the clock, the result."""

    def __init__(self, game: str, size: int, players: Sequence[Any], rule: str, swap: bool,
                 clock: Optional[Clock], stall: float) -> None:
        self.game, self.size, self.players = game, size, players
        descriptor = games.get(game)
        self.board = descriptor.new_board(size, rule, swap)
        self.win_reason = descriptor.win_reason
        self.first_colour = self.board.to_move
        self.clock, self.stall = clock, stall
        self.swap_move = descriptor.swap_move
        self.boards_checked = False
        self.result = GameResult(game, size, rule, swap,
                                 tuple(getattr(p, "name", "") for p in players),
                                 tuple(getattr(p, "version", "") for p in players))

    def seat_to_move(self) -> int:
        return 0 if self.board.to_move == self.first_colour else 1

    def lose(self, seat: int, reason: str, detail: str = "") -> None:
        self.result.winner, self.result.reason, self.result.detail = 1 - seat, reason, detail

    def forward(self, seat: int, move: Any) -> bool:
        """Tell the other player ``seat``'s move; False when it lost doing it."""
        other = 1 - seat
        player = self.players[other]
        # With the engine's next command where the player can (one wake-up
        # a move); a refusal then loses that player its game at genmove.
        send = getattr(player, "forward", None)
        try:
            if send is not None:
                send(seat, move)
            else:
                player.play(seat, move, COMMAND_TIMEOUT)
        except Exception as error:  # noqa: BLE001 - any fault of a player loses its game
            reason, detail = _fault(error)
            self.lose(other, reason, f"on play {self.board.cell_name(move)}: {detail}")
            return False
        return True

    def start(self, opening: Tuple[Any, ...], settings: Any) -> bool:
        for seat, player in enumerate(self.players):
            try:
                player.new_game(self.size, self.board.swap, self.board_rule(), settings)
            except SettingError:
                # Not the engine's fault in this game but the match's: a
                # setting its dialect cannot express (a swap for morat).
                raise
            except Exception as error:  # noqa: BLE001
                reason, detail = _fault(error)
                if detail.startswith("refused: "):
                    # A board or a rule it refuses: it cannot play this
                    # game at all.  A protocol fault stays one.
                    reason = "disconnects"
                self.lose(seat, reason, f"new game: {detail}")
                return False
        for move in opening:
            seat = self.seat_to_move()
            self.board.play(move)
            self.result.moves.append(self.board.moves[-1])
            self.result.times.append(0.0)
            for receiver, player in enumerate(self.players):
                try:
                    player.play(seat, self.board.moves[-1], COMMAND_TIMEOUT)
                except Exception as error:  # noqa: BLE001
                    reason, detail = _fault(error)
                    self.lose(receiver, reason, f"opening: {detail}")
                    return False
        self.result.opening = len(opening)
        return self.check_boards()

    def board_rule(self) -> str:
        return getattr(self.board, "rule", "official")

    def move(self) -> bool:
        """Ask for, check and play one move; False when the game is over."""
        seat = self.seat_to_move()
        player = self.players[seat]
        allowed = self.clock.allowed(seat) if self.clock is not None else None
        # allowed is None when there is no clock.
        timeout = ((allowed + self.clock.margin)  # type: ignore[union-attr]
                   if allowed is not None else self.stall)
        started = time.perf_counter()
        try:
            text = player.genmove(seat, timeout, allowed)
        except Exception as error:  # noqa: BLE001
            self.lose(seat, *_fault(error))
            return False
        seconds = time.perf_counter() - started
        if self.clock is not None:
            if not self.clock.charge(seat, seconds):
                self.lose(seat, "on time", f"{seconds:.3f} s for a move, {allowed:.3f} s allowed")
                return False
        elif seconds > self.stall:
            self.lose(seat, "on time", f"{seconds:.3f} s for a move (stall limit)")
            return False
        try:
            move = player.parse_move(text, self.board)
        except ValueError as error:
            self.lose(seat, "illegal move", f"{excerpt(text)}: {shortened(str(error))}")
            return False
        if move == "resign":
            self.lose(seat, "resign")
            return False
        if move == "pass":
            self.lose(seat, "illegal move", f"{excerpt(text)}: no pass in {self.game}")
            return False
        try:
            kinds = self.board.play(move)
        except (ValueError, TypeError, IndexError) as error:
            self.lose(seat, "illegal move", f"{excerpt(text)}: {shortened(str(error))}")
            return False
        # A cell is kept as parsed; a swap as the board names it.
        played = move if type(move) is tuple else self.board.moves[-1]
        self.result.moves.append(played)
        self.result.times.append(seconds)
        if self.board.is_over:
            if self.board.winner is None:
                self.result.winner, self.result.reason = None, "board full"
            else:
                self.result.winner, self.result.reason = seat, self.win_reason(kinds)
            # The loser hears the last move so that its claim can be asked.
            try:
                self.players[1 - seat].play(seat, played, COMMAND_TIMEOUT)
            except Exception:  # noqa: BLE001 - the game is decided; a claim may be missing
                pass
            return False
        return self.forward(seat, played) and (self.boards_checked or self.check_boards())

    def check_boards(self) -> bool:
        """Once the first move after a swap is on both engines' boards: each
        engine whose board havhex reads must hold what the arbiter's does in
        its dialect's words (a swap's meaning differs between families); one
        that does not loses, its board's fault.  False when one lost."""
        # The result's list of moves, not the board's (a tuple made anew at
        # each call): after the third move this costs one test a move.
        if self.boards_checked:
            return True
        moves = self.result.moves
        if len(moves) < 3:
            return True
        self.boards_checked = True
        if moves[1] != self.swap_move:
            return True
        for seat, player in enumerate(self.players):
            check = getattr(player, "check_board", None)
            if check is None:
                continue
            try:
                problem = check(self.board, COMMAND_TIMEOUT)
            except Exception as error:  # noqa: BLE001 - any fault of a player loses its game
                self.lose(seat, *_fault(error))
                return False
            if problem:
                self.lose(seat, "illegal move", problem)
                return False
        return True

    def ask_claims(self) -> None:
        result = self.result
        for seat, player in enumerate(self.players):
            claim = None
            if getattr(player, "alive", True):
                try:
                    claim = player.claimed_winner(CLAIM_TIMEOUT)
                except Exception:  # noqa: BLE001 - a claim is information, never a fault
                    claim = None
            result.claims[seat] = claim
        if result.reason in BOARD_REASONS:
            result.claim_disagrees = any(claim is not None and claim != result.winner
                                         for claim in result.claims.values())


def play_game(game: str, size: int, players: Sequence[Any], rule: str = "official",
              swap: bool = False, clock: Optional[Any] = None, opening: Sequence[Any] = (),
              stall: float = STALL_TIMEOUT, claims: bool = True) -> GameResult:
    """Play one game between ``players`` (seat 0 moves first), each an
    object with the methods of :class:`havhex.match.engines.GtpPlayer`, and
    return its :class:`GameResult`.

    ``clock`` a :class:`Clock` (None: no clock, a move may take ``stall``
    seconds); ``opening`` havhex moves played first on the board and
    forwarded to both engines (they must be legal and not end the game);
    ``claims`` False skips asking the engines for their result."""
    if isinstance(clock, Clock):
        # A fresh clock each game: the time left is the game's own (its
        # settings were checked when it was made).
        clock = clock.fresh()
    elif clock is not None:
        clock = Clock(getattr(clock, "per_move", None), getattr(clock, "base", None),
                      getattr(clock, "increment", 0.0) or 0.0,
                      getattr(clock, "margin", 0.1))
    state = _Game(game, size, players, rule, swap, clock, stall)
    if state.start(tuple(opening), clock):
        while state.move():
            pass
    if claims:
        state.ask_claims()
    for player in players:
        for note in getattr(player, "notes", ()):
            if note not in state.result.notes:
                state.result.notes.append(note)
    return state.result
