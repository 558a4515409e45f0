"""The result kinds and :class:`Result`, the verdict on one sequence of
moves: a module of their own, below everything of the game that names them
(the judge's functions, the board's witness, the picture), and re-exported
by :mod:`havhex.havannah`."""
from .._frozen import Frozen
# The compiled judge has no stub: to a type checker its objects are Any.
from . import _judge  # type: ignore[attr-defined]
from ._names import KINDS

# The annotations are for type checkers only, in quotes where they name what
# is imported here: a judge run's start-up imports neither typing nor
# __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Iterable, Optional, Tuple

__all__ = ["KINDS", "Result"]

_KIND_BITS: "Tuple[int, ...]" = _judge.KIND_BITS


class Result(Frozen):
    """The verdict on one sequence of moves: immutable, hashable, comparable.

    ``kinds`` lists the structures completed, in the order bridge, fork,
    ring (empty when nothing was built); ``move`` is the 1-based winning move
    or ``None``.  ``str(result)`` is the judge's wording.
    """

    __slots__ = ("kinds", "move")

    kinds: "Tuple[str, ...]"
    move: "Optional[int]"

    def __init__(self, kinds: "Iterable[str]", move: "Optional[int]") -> None:
        kinds = tuple(kinds)
        if any(kind not in KINDS for kind in kinds) or list(kinds) != sorted(set(kinds), key=KINDS.index):
            raise ValueError(f"kinds must be distinct names from {KINDS}, in that order")
        if (move is None) != (not kinds):
            raise ValueError("a result has kinds exactly when it has a move")
        self._set(kinds=kinds, move=move)

    @classmethod
    def _from_engine(cls, bits: int, move: "Optional[int]") -> "Result":
        if not bits:
            return _NONE
        return cls._build(kinds=tuple(k for b, k in zip(_KIND_BITS, KINDS) if bits & b), move=move)

    def __bool__(self) -> bool:
        """True when a structure was completed."""
        return bool(self.kinds)

    def __str__(self) -> str:
        if not self.kinds:
            return "none"
        return f"{'-'.join(self.kinds)} in move {self.move}"

    def __repr__(self) -> str:
        return f"Result(kinds={self.kinds!r}, move={self.move!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return self.kinds == other.kinds and self.move == other.move

    def __hash__(self) -> int:
        return hash((self.kinds, self.move))

    def __reduce__(self) -> "Tuple[Any, ...]":
        return (Result, (self.kinds, self.move))


_NONE: Result = Result._build(kinds=(), move=None)
