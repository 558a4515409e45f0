"""The verdict on one position, :class:`Result`, with the names of the
engine's codes: below everything of the game that makes a result (the
judge's functions, the board), and re-exported by :mod:`havhex.hex`."""
from .._frozen import Frozen
# The compiled judge has no stub: to a type checker its objects are Any.
from . import _judge  # type: ignore[attr-defined]
from ._names import PLAYERS

# The annotations are for type checkers only, in quotes where they name what
# is imported here: a judge run's start-up imports neither typing nor
# __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, FrozenSet, Iterable, Literal, Optional, Tuple

    _Cell = Tuple[int, int]
    _Status = Literal["Impossible", "Red wins", "Blue wins", "Nobody wins"]
    _Reason = Literal["counts", "both-connected", "loser-moved-last", "no-single-last-move"]
    _Colour = Literal["red", "blue"]

__all__ = ["Result", "STATUSES", "REASONS"]

# The names of the engine's codes, in the order of its VERDICT_CODES,
# REASON_CODES and COLOUR_CODES.
STATUSES: "Tuple[str, str, str, str]" = ("Nobody wins", "Red wins", "Blue wins", "Impossible")
REASONS: "Tuple[str, str, str, str]" = ("counts", "both-connected", "loser-moved-last",
                                        "no-single-last-move")
_NOBODY_WINS, _RED_WINS, _BLUE_WINS, _IMPOSSIBLE_CODE = _judge.VERDICT_CODES
_STATUS_OF_CODE: "Dict[int, str]" = dict(zip(_judge.VERDICT_CODES, STATUSES))
_REASON_OF_CODE: "Dict[int, str]" = dict(zip(_judge.REASON_CODES, REASONS))
_COLOUR_OF_CODE: "Dict[int, str]" = dict(zip(_judge.COLOUR_CODES, PLAYERS))
_IMPOSSIBLE = "Impossible"
_WINS: "Dict[str, _Colour]" = {"Red wins": "red", "Blue wins": "blue"}


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

    status: "_Status"
    reason: "Optional[_Reason]"
    _last_moves: "Optional[FrozenSet[_Cell]]"
    _pending: "Optional[Tuple[Any, int]]"

    def __init__(self, status: "_Status", reason: "Optional[_Reason]" = None,
                 last_moves: "Iterable[_Cell]" = frozenset()) -> None:
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

    # The private constructors take the names of the engine's codes (str:
    # the tables above), which are the public ones.
    @classmethod
    def _make(cls, status: str, reason: "Optional[str]",
              last_moves: "FrozenSet[_Cell]") -> "Result":
        return cls._build(status=status, reason=reason, _last_moves=last_moves, _pending=None)

    @classmethod
    def _win(cls, status: str, parsed: "Any", case: int) -> "Result":
        """A win whose last moves are found in ``parsed`` when first read."""
        return cls._build(status=status, reason=None, _last_moves=None, _pending=(parsed, case))

    @property
    def last_moves(self) -> "FrozenSet[_Cell]":
        """The winner's stones on every winning chain (a frozenset)."""
        # ``_pending`` is read first and cleared last, so a thread that finds
        # it cleared also finds the moves another thread has stored.
        pending = self._pending
        moves = self._last_moves
        if moves is None:
            if TYPE_CHECKING:
                # A result without its last moves keeps its input's boards.
                assert pending is not None
            parsed, case = pending
            moves = frozenset(parsed.last_moves(case))
            self._set(_last_moves=moves)
            self._set(_pending=None)       # lets the input's boards go
        return moves

    @property
    def possible(self) -> bool:
        """False for an impossible position."""
        return self.status != _IMPOSSIBLE

    @property
    def winner(self) -> "Optional[_Colour]":
        """``"red"``, ``"blue"`` or ``None``."""
        return _WINS.get(self.status)

    def __str__(self) -> str:
        return self.status

    def __repr__(self) -> str:
        if self.reason is not None:
            return f"Result({self.status!r}, reason={self.reason!r})"
        if self.last_moves:
            return f"Result({self.status!r}, last_moves={set(sorted(self.last_moves))!r})"
        return f"Result({self.status!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return (self.status == other.status and self.reason == other.reason
                and self.last_moves == other.last_moves)

    def __hash__(self) -> int:
        return hash((self.status, self.reason, self.last_moves))

    def __reduce__(self) -> "Tuple[Any, ...]":
        return (Result, (self.status, self.reason, self.last_moves))


_NOBODY = Result._make(STATUSES[0], None, frozenset())
_IMPOSSIBLE_BY_CODE = {code: Result._make(_IMPOSSIBLE, reason, frozenset())
                       for code, reason in _REASON_OF_CODE.items()}
