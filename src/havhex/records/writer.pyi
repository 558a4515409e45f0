import os
from typing import BinaryIO, Iterable, Optional, TextIO, Tuple, Union

from .game import Game

__all__ = ["write", "game_text"]

# Kept for a release, with a DeprecationWarning: the record format's
# cell_name (havhex.games.get(game).records.cell_name) names every game's cells.
def hex_cell_name(cell: Tuple[int, int]) -> str: ...
def havannah_cell_name(size: int, cell: Tuple[int, int]) -> str: ...
def game_text(game: Game) -> str: ...
def write(games: Union[Game, Iterable[Game]],
          destination: Union[None, str, bytes, "os.PathLike[str]", "os.PathLike[bytes]",
                             TextIO, BinaryIO] = ...) -> Optional[str]: ...
