"""Game records: read SGF (Hex, GM[11]) and Little Golem Havannah (.hgf)
files, replay their games on the live boards, and say who won where.

>>> from havhex import records
>>> record = next(records.read(b"(;FF[4]GM[11]SZ[2];B[a1];W[b1];B[a2])"))
>>> record.game, record.size, record.moves
('hex', (2, 2), (('B', (0, 0)), ('W', (0, 1)), ('B', (1, 0))))
>>> next(records.replay(b"(;FF[4]GM[11]SZ[2]RE[B+];B[a1];W[b1];B[a2])")).win
Win(move=3, player='B', kinds=('chain',))

See docs/records.md for the formats, the coordinates and the keys of
``havhex replay --format json``.
"""
from .game import MAX_CELLS, Record, read, read_one
from .replay import ENDS, FLAGS, RULES, Replay, Win, replay
from .writer import write

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["Record", "Replay", "Win", "read", "read_one", "replay", "write", "FLAGS", "ENDS", "RULES",
           "MAX_CELLS"]


if TYPE_CHECKING:
    # The name before 0.2 (deprecated): a type checker sees the alias, and
    # sees no module __getattr__, which would type every missing name as Any.
    Game = Record
else:
    def __getattr__(name: str) -> "Any":
        # The names before 0.2, kept for one release.
        if name == "Game":
            import warnings

            warnings.warn("havhex.records.Game is deprecated: use havhex.records.Record",
                          DeprecationWarning, stacklevel=2)
            return Record
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
