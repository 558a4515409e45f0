"""The words of Havannah that every part of the game says alike: the
players (a cell's colour code is a player's index plus one) and the kinds
of winning structure, in the order the judge prints them.  A leaf of the
game, so that the compiled board, the results and the pictures take them
from one place."""

__all__ = ["KINDS", "PLAYERS"]

PLAYERS = ("white", "black")
KINDS = ("bridge", "fork", "ring")
