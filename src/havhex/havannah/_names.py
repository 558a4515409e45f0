"""The words of Havannah that every part of the game says alike: the
players (a cell's colour code is a player's index plus one) and the kinds
of winning structure, in the order the judge prints them.  A leaf of the
game, so that the compiled board, the results and the pictures take them
from one place."""

# The annotations are for type checkers only, in quotes where they name what
# is imported here: a judge run's start-up imports neither typing nor
# __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Tuple

__all__ = ["KINDS", "PLAYERS"]

PLAYERS: "Tuple[str, str]" = ("white", "black")
KINDS: "Tuple[str, str, str]" = ("bridge", "fork", "ring")
