"""Replaying records on the live boards: who won, where, and what the record says.

Each game's moves go to its live board in one compiled call (``_replay``),
which stops at the first move that wins, cannot be played, or resigns; the
facts of :class:`Replay` follow from where it stopped.
"""
from __future__ import annotations

from .._frozen import Frozen
from ..errors import InputError
# The compiled reader has no stub: what it gives is typed where it is used.
from . import _reader  # type: ignore[attr-defined]
from .game import MAX_CELLS, _check_max_cells, _too_many, read, shown_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple

    from .._explanation import Explanation
    from .game import Record, _Source

    _Key = Tuple[Record, str, int, Optional["Win"], Optional[str], str,
                 Optional[Tuple[int, str]], Tuple[str, ...]]

__all__ = ["Win", "Replay", "replay", "replay_games", "RULES", "FLAGS", "ENDS"]

RULES = ("official", "contest")
FLAGS = ("played-on", "result-disagrees", "illegal", "no-result")
ENDS = ("structure", "resign", "forfeit", "none")
_RESIGN, _FORFEIT = 4, 5


class Win(Frozen):
    """The first move that completed a structure: ``move``, its number
    counted like :attr:`Replay.moves` (from 1); ``player``, ``"B"`` or
    ``"W"`` as the record names colours; ``kinds``, what it completed
    (``("ring",)``, ``("bridge", "fork")``, Hex's ``("chain",)``)."""

    __slots__ = ("move", "player", "kinds")

    move: int
    player: str
    kinds: Tuple[str, ...]

    def __init__(self, move: int, player: str, kinds: Iterable[str]) -> None:
        setattr = object.__setattr__
        setattr(self, "move", move)
        setattr(self, "player", player)
        setattr(self, "kinds", tuple(kinds))

    def __repr__(self) -> str:
        return f"Win(move={self.move}, player={self.player!r}, kinds={self.kinds!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Win):
            return NotImplemented
        return (self.move, self.player, self.kinds) == (other.move, other.player, other.kinds)

    def __hash__(self) -> int:
        return hash((self.move, self.player, self.kinds))

    def __reduce__(self) -> Tuple[Any, ...]:
        return (Win, (self.move, self.player, self.kinds))

    def to_dict(self) -> Dict[str, Any]:
        return {"move": self.move, "player": self.player, "kinds": list(self.kinds)}


class Replay(Frozen):
    """What replaying one game on a live board found, immutable.

    ``record`` is the :class:`~havhex.records.Record`; ``rule`` the Havannah ring
    rule used; ``moves`` the stones the record plays, swaps included
    (resignations, forfeits and passes not); ``win`` the first winning move
    (:class:`Win`) or None; ``recorded`` the winner the record names, or
    None; ``end`` how the game ended: ``"structure"`` (a move won),
    ``"resign"``, ``"forfeit"`` or ``"none"``; ``illegal`` None or ``(move
    number, reason)`` for the first move that cannot be played, counted as
    ``moves`` counts (the replay stops there; move 0 stands for a game that
    cannot start: setup stones that no board takes, or a board beyond
    ``max_cells``); ``flags``, in this order, those that hold of
    ``"played-on"`` (moves after the win, or after a resignation or
    forfeit), ``"result-disagrees"`` (the recorded winner is not the one who
    won on the board), ``"illegal"`` and ``"no-result"`` (no recorded
    winner).  A pass is read and not counted: the replay goes on after it.
    """

    __slots__ = ("record", "rule", "moves", "win", "recorded", "end", "illegal", "flags")

    record: Record
    rule: str
    moves: int
    win: Optional[Win]
    recorded: Optional[str]
    end: str
    illegal: Optional[Tuple[int, str]]
    flags: Tuple[str, ...]

    @classmethod
    def _make(cls, record: Record, rule: str, moves: int, win: Optional[Win],
              recorded: Optional[str], end: str, illegal: Optional[Tuple[int, str]],
              flags: Tuple[str, ...]) -> Replay:
        # Field by field: one is made per game replayed (see Record._make).
        self = object.__new__(cls)
        setattr = object.__setattr__
        setattr(self, "record", record)
        setattr(self, "rule", rule)
        setattr(self, "moves", moves)
        setattr(self, "win", win)
        setattr(self, "recorded", recorded)
        setattr(self, "end", end)
        setattr(self, "illegal", illegal)
        setattr(self, "flags", flags)
        return self

    def __repr__(self) -> str:
        return (f"<havhex.records.Replay {self.record.source}#{self.record.index}: {self.moves} moves, "
                f"win={self.win!r}, recorded={self.recorded!r}, end={self.end!r}, "
                f"flags={self.flags!r}>")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Replay):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> _Key:
        return (self.record, self.rule, self.moves, self.win, self.recorded, self.end,
                self.illegal, self.flags)

    @property
    def game(self) -> Record:
        """The :attr:`record` replayed, under its name before 0.2
        (deprecated)."""
        import warnings

        warnings.warn("Replay.game is deprecated: use Replay.record", DeprecationWarning,
                      stacklevel=2)
        return self.record

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_rebuilt, (self.record, self.rule, self.moves, self.win, self.recorded,
                           self.end, self.illegal, self.flags))

    def board(self) -> Any:
        """The live board at the winning move (or where the replay stopped),
        e.g. for ``board().explain()`` or ``board().draw()``; raises
        :class:`havhex.InputError` for setup stones no board takes."""
        board = self.record.board(self.rule)
        _play(board, self.record._scanned.table())
        return board

    def explain(self) -> Optional[Explanation]:
        """The witness of the win as the judges give it (a
        :class:`havhex.Explanation`), or None without a win."""
        explanation: Optional[Explanation] = self.board().explain() if self.win else None
        return explanation

    def to_dict(self, witness: bool = False) -> Dict[str, Any]:
        """The JSON record of ``havhex replay --format json``: ``file`` the
        game's source (bytes of its name that are not UTF-8 as U+FFFD);
        ``witness=True`` adds the win's explanation."""
        size = self.record.size
        # "game" (the record's number) and "kind" (the game's name) are the
        # keys before 0.2, kept for one release: in 0.2 "game" becomes the
        # game's name, as the judges' records and Record.game say it.
        record: Dict[str, Any] = {
            "file": shown_name(self.record.source),
            "record": self.record.index,
            "game": self.record.index,
            "kind": self.record.game,
            "size": size if isinstance(size, int) else list(size),
            "moves": self.moves,
            "win": self.win.to_dict() if self.win else None,
            "recorded": self.recorded,
            "end": self.end,
            "flags": list(self.flags),
        }
        if self.illegal:
            record["illegal"] = {"move": self.illegal[0], "reason": self.illegal[1]}
        if witness and self.win:
            explanation = self.explain()
            if TYPE_CHECKING:
                # A replay with a win has its explanation.
                assert explanation is not None
            record["witness"] = explanation.to_dict()
        return record


def _rebuilt(record: Record, rule: str, moves: int, win: Optional[Win], recorded: Optional[str],
             end: str, illegal: Optional[Tuple[int, str]], flags: Tuple[str, ...]) -> Replay:
    return Replay._make(record, rule, moves, win, recorded, end, illegal, flags)


_PASS = 6
_NOT_COUNTED = (_RESIGN, _FORFEIT, _PASS)


def _play(board: Any, table: Any) -> Tuple[int, int, Any]:
    """Plays a game's rows on ``board`` as ``board._replay`` does, passes
    read and not counted (the boards have no pass): ``(row, outcome,
    detail)`` of where it stopped (outcome 0 all played, 1 a win, 2 an
    illegal move, 3 a resignation or forfeit)."""
    first = 0
    while True:
        row, outcome, detail = board._replay(table, first)
        if outcome == 2 and detail == _reader.REPLAY_PASS_CODE:
            first = row + 1
            continue
        return row, outcome, detail


def _stone_number(scanned: Any, row: int) -> int:
    """The number of row ``row``'s move counted as :attr:`Replay.moves`
    counts (stones and swaps, from 1; resignations, forfeits and passes
    not): the number a message gives."""
    if scanned.n_stones == scanned.n_rows:
        return row + 1
    kinds = memoryview(scanned.moves).cast("i")[1:4 * (row + 1):4]
    return sum(1 for kind in kinds if kind not in _NOT_COUNTED) or 1


def _passed_before(scanned: Any, row: int) -> bool:
    """Whether a pass comes before row ``row``."""
    return bool(scanned.n_stones != scanned.n_rows and _PASS in
                memoryview(scanned.moves).cast("i")[1:4 * row:4].tolist())


def _stones_after(scanned: Any, row: int) -> int:
    """The stones the record plays after row ``row``."""
    kinds = memoryview(scanned.moves).cast("i")[4 * (row + 1) + 1::4]
    return sum(1 for kind in kinds if kind not in _NOT_COUNTED)


def _ended_by(scanned: Any) -> str:
    """"resign" or "forfeit", the record's first, else "none"."""
    for kind in memoryview(scanned.moves).cast("i")[1::4]:
        if kind == _RESIGN:
            return "resign"
        if kind == _FORFEIT:
            return "forfeit"
    return "none"


def _replayed(record: Record, rule: str, max_cells: Optional[int] = MAX_CELLS) -> Replay:
    scanned = record._scanned
    form = record._format
    win: Optional[Win] = None
    illegal: Optional[Tuple[int, str]] = None
    board: Any = None
    outcome = row = 0
    if max_cells is not None and form.cells(record.size) > max_cells:
        # Refused before any board is made: memory follows the moves, not
        # the size a record declares.  "Move 0": the game cannot start.
        declared = (scanned.properties.get("SZ") or (None,))[0]
        illegal = (0, _too_many(form, record.size, declared, max_cells))
    elif "AB" not in scanned.properties and "AW" not in scanned.properties:
        board = form.new_board(record.size, rule, True)     # Record.board's, without setup
    else:
        try:
            board = record.board(rule)
        except InputError as error:
            # Setup stones no board takes: the game's fault, not the file's (the
            # rest of the collection is replayed); "move 0" is the setup.
            illegal = (0, f"the setup stones: {error.reason}")
    if board is not None:
        row, outcome, detail = _play(board, scanned.table())
    if outcome == 1:
        # A board whose replay does not name what the win completed has one
        # kind of structure: the record format names it.
        kinds = detail if type(detail) is tuple else form.win_kinds
        win = Win(_stone_number(scanned, row), form.letters[board.winner], kinds)
    elif outcome == 2:
        reason: str = _reader.REPLAY_REASONS[detail]
        if detail == _reader.REPLAY_OUT_OF_TURN_CODE and _passed_before(scanned, row):
            reason += " (after a pass, which does not hand the turn over on the boards)"
        illegal = (_stone_number(scanned, row), reason)
    recorded = record.recorded
    end = "none"
    if win is not None:
        end = "structure"
    elif outcome == 3:
        end = "resign" if scanned.table()[row, 1] == _RESIGN else "forfeit"
    elif scanned.n_stones != scanned.n_rows:
        # A replay stopped short (an illegal move) still ends as the record does.
        end = _ended_by(scanned)
    flags: List[str] = []
    if (win is not None or outcome == 3) and _stones_after(scanned, row):
        flags.append("played-on")
    if win is not None and recorded is not None and recorded != win.player:
        flags.append("result-disagrees")
    if illegal is not None:
        flags.append("illegal")
    if recorded is None:
        flags.append("no-result")
    return Replay._make(record, rule, scanned.n_stones, win, recorded, end, illegal, tuple(flags))


def _check_rule(rule: object) -> None:
    if not isinstance(rule, str) or rule not in RULES:
        raise ValueError(f"rule must be 'official' or 'contest', not {rule!r}")


def replay_games(games: Iterable[Record], rule: str = "official",
                 max_cells: Optional[int] = MAX_CELLS) -> Iterator[Replay]:
    """:class:`Replay` of each :class:`~havhex.records.Record` of ``games``,
    lazily (a board of more than ``max_cells`` cells is flagged, see
    :func:`replay`)."""
    _check_rule(rule)
    _check_max_cells(max_cells)
    for game in games:
        try:
            yield _replayed(game, rule, max_cells)
        except InputError as error:
            if error.source is None:
                raise InputError(error.reason, game.source, game.line) from None
            raise


def replay(source: _Source, rule: str = "official", game: Optional[str] = None,
           max_cells: Optional[int] = MAX_CELLS) -> Iterator[Replay]:
    """Replays every game of a record on the live boards; yields a
    :class:`Replay` per game, in order.

    ``source`` is a path, ``"-"`` or the record's bytes (see
    :func:`havhex.records.read`); ``rule`` is Havannah's ring rule,
    ``"official"`` (a loop around any cells) or ``"contest"`` (a loop around
    an empty cell).  The file is read in pieces as :func:`havhex.records.read`
    reads it: a record that is not SGF raises :class:`havhex.InputError`
    when the iteration reaches the fault.  An illegal move is no error: its
    game carries the ``"illegal"`` flag; so does a game whose board has more
    than ``max_cells`` cells (default :data:`havhex.records.MAX_CELLS`;
    None: no bound but the boards'), flagged at move 0 with no board made.
    """
    _check_rule(rule)
    _check_max_cells(max_cells)
    return replay_games(read(source, game, max_cells=None), rule, max_cells)
