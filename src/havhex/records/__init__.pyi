from .game import Game as Game, read as read
from .replay import ENDS as ENDS, FLAGS as FLAGS, RULES as RULES, Replay as Replay, Win as Win, replay as replay

__all__ = ["Game", "Replay", "Win", "read", "replay", "FLAGS", "ENDS", "RULES"]
