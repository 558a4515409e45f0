from .game import MAX_CELLS as MAX_CELLS, Game as Game, read as read
from .replay import ENDS as ENDS, FLAGS as FLAGS, RULES as RULES, Replay as Replay, Win as Win, replay as replay
from .writer import write as write

__all__ = ["Game", "Replay", "Win", "read", "replay", "write", "FLAGS", "ENDS", "RULES",
           "MAX_CELLS"]
