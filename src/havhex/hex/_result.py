"""The verdict on one position, :class:`Result`, with the names of the
engine's codes: below everything of the game that makes a result (the
judge's functions, the board), and re-exported by :mod:`havhex.hex`."""
from .._frozen import Frozen
from . import _judge
from ._names import PLAYERS

__all__ = ["Result", "STATUSES", "REASONS"]

# The names of the engine's codes, in the order of its VERDICT_CODES,
# REASON_CODES and COLOUR_CODES.
STATUSES = ("Nobody wins", "Red wins", "Blue wins", "Impossible")
REASONS = ("counts", "both-connected", "loser-moved-last", "no-single-last-move")
_NOBODY_WINS, _RED_WINS, _BLUE_WINS, _IMPOSSIBLE_CODE = _judge.VERDICT_CODES
_STATUS_OF_CODE = dict(zip(_judge.VERDICT_CODES, STATUSES))
_REASON_OF_CODE = dict(zip(_judge.REASON_CODES, REASONS))
_COLOUR_OF_CODE = dict(zip(_judge.COLOUR_CODES, PLAYERS))
_IMPOSSIBLE = "Impossible"
_WINS = {"Red wins": "red", "Blue wins": "blue"}


class Result(Frozen):
    """The verdict on one position: immutable, hashable, comparable.

    ``status`` is the judge's wording (also ``str(result)``): ``"Impossible"``,
    ``"Red wins"``, ``"Blue wins"`` or ``"Nobody wins"``.  ``reason`` says why
    a position is impossible (one of :data:`REASONS`, the first check that
    fails) and is ``None`` otherwise.  ``last_moves`` is, for a win, the
    frozenset of the winner's stones ``(row, col)`` that lie on every winning
    chain, i.e. the cells the last move could have been; empty otherwise.
    A result of :func:`judge`, :func:`judge_text` or :func:`judge_file`
    finds them when they are first read (the verdict does not need them),
    and until then keeps its input's boards.
    """

    __slots__ = ("status", "reason", "_last_moves", "_pending")

    def __init__(self, status, reason=None, last_moves=frozenset()):
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {status!r}")
        if (status == _IMPOSSIBLE) != (reason is not None):
            raise ValueError("a result has a reason exactly when it is Impossible")
        if reason is not None and reason not in REASONS:
            raise ValueError(f"reason must be one of {REASONS}, got {reason!r}")
        last_moves = frozenset((int(row), int(col)) for row, col in last_moves)
        if (status in _WINS) != bool(last_moves):
            raise ValueError("a result has last moves exactly when somebody wins")
        self._set(status=status, reason=reason, _last_moves=last_moves, _pending=None)

    @classmethod
    def _make(cls, status, reason, last_moves):
        return cls._build(status=status, reason=reason, _last_moves=last_moves, _pending=None)

    @classmethod
    def _win(cls, status, parsed, case):
        """A win whose last moves are found in ``parsed`` when first read."""
        return cls._build(status=status, reason=None, _last_moves=None, _pending=(parsed, case))

    @property
    def last_moves(self):
        """The winner's stones on every winning chain (a frozenset)."""
        # ``_pending`` is read first and cleared last, so a thread that finds
        # it cleared also finds the moves another thread has stored.
        pending = self._pending
        moves = self._last_moves
        if moves is None:
            parsed, case = pending
            moves = frozenset(parsed.last_moves(case))
            self._set(_last_moves=moves)
            self._set(_pending=None)       # lets the input's boards go
        return moves

    @property
    def possible(self):
        """False for an impossible position."""
        return self.status != _IMPOSSIBLE

    @property
    def winner(self):
        """``"red"``, ``"blue"`` or ``None``."""
        return _WINS.get(self.status)

    def __str__(self):
        return self.status

    def __repr__(self):
        if self.reason is not None:
            return f"Result({self.status!r}, reason={self.reason!r})"
        if self.last_moves:
            return f"Result({self.status!r}, last_moves={set(sorted(self.last_moves))!r})"
        return f"Result({self.status!r})"

    def __eq__(self, other):
        if not isinstance(other, Result):
            return NotImplemented
        return (self.status == other.status and self.reason == other.reason
                and self.last_moves == other.last_moves)

    def __hash__(self):
        return hash((self.status, self.reason, self.last_moves))

    def __reduce__(self):
        return (Result, (self.status, self.reason, self.last_moves))


_NOBODY = Result._make(STATUSES[0], None, frozenset())
_IMPOSSIBLE_BY_CODE = {code: Result._make(_IMPOSSIBLE, reason, frozenset())
                       for code, reason in _REASON_OF_CODE.items()}
