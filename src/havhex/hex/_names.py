"""The words of Hex that every part of the game says alike: the players
(a cell's colour code is a player's index plus one; Red moves first and
joins top and bottom) and the judge's letters for the cell codes.  A leaf of
the game, so that the compiled board, the results and the pictures take them
from one place."""

# The annotations are for type checkers only, in quotes where they name what
# is imported here: a judge run's start-up imports neither typing nor
# __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Tuple

__all__ = ["CODE_LETTERS", "PLAYERS"]

PLAYERS: "Tuple[str, str]" = ("red", "blue")
# Cell codes (0 empty, 1 red, 2 blue: ``Board.to_array``'s values and the
# board's cell bytes) to the judge's letters, for ``bytes.translate``.
CODE_LETTERS = bytes.maketrans(b"\x00\x01\x02", b".RB")
