"""Game records: read SGF (Hex, GM[11]) and Little Golem Havannah (.hgf)
files, replay their games on the live boards, and say who won where.

>>> from havhex import records
>>> game = next(records.read(b"(;FF[4]GM[11]SZ[2];B[a1];W[b1];B[a2])"))
>>> game.kind, game.size, game.moves
('hex', (2, 2), (('B', (0, 0)), ('W', (0, 1)), ('B', (1, 0))))
>>> next(records.replay(b"(;FF[4]GM[11]SZ[2]RE[B+];B[a1];W[b1];B[a2])")).win
Win(move=3, player='B', kinds=('chain',))

See docs/records.md for the formats, the coordinates and the keys of
``havhex replay --format json``.
"""
from .game import MAX_CELLS, Game, read
from .replay import ENDS, FLAGS, RULES, Replay, Win, replay
from .writer import write

__all__ = ["Game", "Replay", "Win", "read", "replay", "write", "FLAGS", "ENDS", "RULES",
           "MAX_CELLS"]
