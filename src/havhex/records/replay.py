"""Replaying records on the live boards: who won, where, and what the record says.

Each game's moves go to its live board in one compiled call (``_replay``),
which stops at the first move that wins, cannot be played, or resigns; the
facts of :class:`Replay` follow from where it stopped.
"""
from .._frozen import Frozen
from ..errors import InputError
from . import _reader
from .game import load, read_bytes

__all__ = ["Win", "Replay", "replay", "replay_games", "RULES", "FLAGS", "ENDS"]

RULES = ("official", "contest")
FLAGS = ("played-on", "result-disagrees", "illegal", "no-result")
ENDS = ("structure", "resign", "forfeit", "none")
_RESIGN, _FORFEIT = 4, 5
_CHAIN = ("chain",)
# The board's colour of a record's letter.
_COLOUR = {"hex": {"B": "red", "W": "blue"}, "havannah": {"B": "black", "W": "white"}}
_LETTER = {"red": "B", "blue": "W", "black": "B", "white": "W"}


class Win(Frozen):
    """The first move that completed a structure: ``move``, its number
    counted like :attr:`Replay.moves` (from 1); ``player``, ``"B"`` or
    ``"W"`` as the record names colours; ``kinds``, what it completed
    (``("ring",)``, ``("bridge", "fork")``, Hex's ``("chain",)``)."""

    __slots__ = ("move", "player", "kinds")

    def __init__(self, move, player, kinds):
        setattr = object.__setattr__
        setattr(self, "move", move)
        setattr(self, "player", player)
        setattr(self, "kinds", tuple(kinds))

    def __repr__(self):
        return f"Win(move={self.move}, player={self.player!r}, kinds={self.kinds!r})"

    def __eq__(self, other):
        if not isinstance(other, Win):
            return NotImplemented
        return (self.move, self.player, self.kinds) == (other.move, other.player, other.kinds)

    def __hash__(self):
        return hash((self.move, self.player, self.kinds))

    def __reduce__(self):
        return (Win, (self.move, self.player, self.kinds))

    def to_dict(self):
        return {"move": self.move, "player": self.player, "kinds": list(self.kinds)}


class Replay(Frozen):
    """What replaying one game on a live board found, immutable.

    ``game`` is the :class:`~havhex.records.Game`; ``rule`` the Havannah ring
    rule used; ``moves`` the stones the record plays, swaps included
    (resignations, forfeits and passes not); ``win`` the first winning move
    (:class:`Win`) or None; ``recorded`` the winner the record names, or
    None; ``end`` how the game ended: ``"structure"`` (a move won),
    ``"resign"``, ``"forfeit"`` or ``"none"``; ``illegal`` None or ``(move
    number, reason)`` for the first move that cannot be played (the replay
    stops there; move 0 stands for setup stones that no board takes); ``flags``, in this order, those that hold of
    ``"played-on"`` (moves after the win), ``"result-disagrees"`` (the
    recorded winner is not the one who won on the board), ``"illegal"`` and
    ``"no-result"`` (no recorded winner).
    """

    __slots__ = ("game", "rule", "moves", "win", "recorded", "end", "illegal", "flags")

    @classmethod
    def _make(cls, game, rule, moves, win, recorded, end, illegal, flags):
        # Field by field: one is made per game replayed (see Game._make).
        self = object.__new__(cls)
        setattr = object.__setattr__
        setattr(self, "game", game)
        setattr(self, "rule", rule)
        setattr(self, "moves", moves)
        setattr(self, "win", win)
        setattr(self, "recorded", recorded)
        setattr(self, "end", end)
        setattr(self, "illegal", illegal)
        setattr(self, "flags", flags)
        return self

    def __repr__(self):
        return (f"<havhex.records.Replay {self.game.source}#{self.game.index}: {self.moves} moves, "
                f"win={self.win!r}, recorded={self.recorded!r}, end={self.end!r}, "
                f"flags={self.flags!r}>")

    def __eq__(self, other):
        if not isinstance(other, Replay):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def _key(self):
        return (self.game, self.rule, self.moves, self.win, self.recorded, self.end,
                self.illegal, self.flags)

    def __reduce__(self):
        return (_rebuilt, (self.game, self.rule, self.moves, self.win, self.recorded,
                           self.end, self.illegal, self.flags))

    def board(self):
        """The live board at the winning move (or where the replay stopped),
        e.g. for ``board().explain()`` or ``board().draw()``; raises
        :class:`havhex.InputError` for setup stones no board takes."""
        board = self.game.board(self.rule)
        board._replay(self.game._scanned.table())
        return board

    def explain(self):
        """The witness of the win as the judges give it (a
        :class:`havhex.Explanation`), or None without a win."""
        return self.board().explain() if self.win else None

    def to_dict(self, witness=False):
        """The JSON record of ``havhex replay --format json`` (without its
        ``file`` key); ``witness=True`` adds the win's explanation."""
        size = self.game.size
        record = {
            "game": self.game.index,
            "kind": self.game.kind,
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
            record["witness"] = self.explain().to_dict()
        return record


def _rebuilt(game, rule, moves, win, recorded, end, illegal, flags):
    return Replay._make(game, rule, moves, win, recorded, end, illegal, flags)


def _replayed(game, rule):
    scanned = game._scanned
    win = illegal = None
    try:
        board = game.board(rule)
    except InputError as error:
        # Setup stones no board takes: the game's fault, not the file's (the
        # rest of the collection is replayed); "move 0" is the setup.
        board = None
        outcome = 0
        illegal = (0, f"the setup stones: {error.reason}")
    if board is not None:
        row, outcome, detail = board._replay(scanned.table())
    if outcome == 1:
        kinds = _CHAIN if game.kind == "hex" else detail
        win = Win(row + 1, _LETTER[board.winner], kinds)
    elif outcome == 2:
        illegal = (row + 1, _reader.REPLAY_REASONS[detail])
    recorded = game.recorded
    if win is not None:
        end = "structure"
    elif scanned.last_kind == _RESIGN:
        end = "resign"
    elif scanned.last_kind == _FORFEIT:
        end = "forfeit"
    else:
        end = "none"
    flags = []
    if win is not None and scanned.n_stones > win.move:
        flags.append("played-on")
    if win is not None and recorded is not None and recorded != win.player:
        flags.append("result-disagrees")
    if illegal is not None:
        flags.append("illegal")
    if recorded is None:
        flags.append("no-result")
    return Replay._make(game, rule, scanned.n_stones, win, recorded, end, illegal, tuple(flags))


def _check_rule(rule):
    if not isinstance(rule, str) or rule not in RULES:
        raise ValueError(f"rule must be 'official' or 'contest', not {rule!r}")


def replay_games(games, rule="official"):
    """:class:`Replay` of each :class:`~havhex.records.Game` of ``games``, lazily."""
    _check_rule(rule)
    for game in games:
        try:
            yield _replayed(game, rule)
        except InputError as error:
            if error.source is None:
                raise InputError(error.reason, game.source, game.line) from None
            raise


def replay(source, rule="official", game=None):
    """Replays every game of a record on the live boards; yields a
    :class:`Replay` per game, in order.

    ``source`` is a path, ``"-"`` or the record's bytes (see
    :func:`havhex.records.read`); ``rule`` is Havannah's ring rule,
    ``"official"`` (a loop around any cells) or ``"contest"`` (a loop around
    an empty cell).  A record that is not SGF raises
    :class:`havhex.InputError` before the first replay; an illegal move is
    no error: its game carries the ``"illegal"`` flag.
    """
    _check_rule(rule)
    data, name = load(source)
    return replay_games(read_bytes(data, name, game), rule)
