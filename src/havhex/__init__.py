"""havhex: fast, explainable judges for the connection games Havannah and Hex.

>>> import havhex.havannah
>>> str(havhex.havannah.first_win(2, [(1, 1), (1, 2)]))
'bridge in move 2'

The judges live in the submodules :mod:`havhex.havannah` and :mod:`havhex.hex`;
they are imported on first use so that ``import havhex`` stays light.
:class:`Explanation` is the verdict-and-evidence type of both (imported on
first use too: ``havhex --version`` and a judge's text output need none).
"""
from ._version import __version__
from .errors import InputError

__all__ = ["Explanation", "InputError", "__version__", "havannah", "hex"]

# The game packages are imported on first use, by __getattr__; a type
# checker sees them imported here.  The annotations are for type checkers
# only, in quotes: the command line's start-up imports neither typing nor
# __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from . import havannah as havannah
    from . import hex as hex
    from ._explanation import Explanation as Explanation


def __getattr__(name: str) -> "Any":
    if name in ("havannah", "hex"):
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    if name == "Explanation":
        from ._explanation import Explanation

        return Explanation
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
