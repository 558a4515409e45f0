"""Which game's compiled search a live board belongs to (both searches
find it here)."""
from __future__ import annotations

from .. import games

# The annotations are for type checkers only: at run time they import
# nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

    from ..descriptor import Descriptor


def game_of(board: Any) -> Descriptor:
    """The :class:`~havhex.descriptor.Descriptor` of the game ``board``
    belongs to, a live board of a game with a search; TypeError for
    anything else."""
    for name in games.names(installed=False):
        descriptor = games.get(name)
        if descriptor.search is not None and descriptor.search_module().accepts(board):
            return descriptor
    raise TypeError(f"Search takes a live board of a game with a search, "
                    f"not {type(board).__name__}")


def _search_module(board: Any) -> ModuleType:
    """The search module of the game ``board`` belongs to."""
    return game_of(board).search_module()
