"""The games havhex knows, found by name.

>>> from havhex import games
>>> games.names()
('havannah', 'hex')
>>> games.get("hex").players
('red', 'blue')

A game is a package that describes itself with a
:class:`havhex.descriptor.Descriptor`.  Havannah and Hex are built in;
another game plugs in with one line, either in the running program::

    havhex.games.register(my_game.DESCRIPTOR)

or, so that the command line (``havhex gtp``, ``havhex match``) finds it
too, as an entry point of its distribution in the group ``havhex.games``
(``pyproject.toml``)::

    [project.entry-points."havhex.games"]
    toy = "my_game:DESCRIPTOR"

A name is resolved when it is first asked for: the built-in games'
descriptions are imported then, and the installed distributions' entry
points are read only for a name that is not built in (or when
:func:`names` lists every game), so that ``havhex hex FILE`` starts as fast
as before.
"""

__all__ = ["get", "names", "register", "unregister", "judge_module", "built_in", "BUILT_IN", "ENTRY_POINT_GROUP",
           "UnknownGame"]

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from importlib.metadata import EntryPoint
    from types import ModuleType
    from typing import Dict, Optional, Tuple

    from .descriptor import Descriptor

ENTRY_POINT_GROUP = "havhex.games"
# The built-in games: name -> its package, whose module ``descriptor``
# holds its DESCRIPTOR and which is its contest judge too.
_BUILT_IN = {
    "havannah": "havhex.havannah",
    "hex": "havhex.hex",
}
# The names of the built-in games, each a subpackage of havhex.
BUILT_IN = tuple(_BUILT_IN)
_found: "Dict[str, Descriptor]" = {}              # as resolved
_plugins: "Optional[Dict[str, EntryPoint]]" = None  # the installed ones, once read


class UnknownGame(ValueError):
    """A name no game has: its text names the games there are."""


def register(descriptor: "Descriptor", replace: bool = False) -> "Descriptor":
    """Make ``descriptor`` (a :class:`havhex.descriptor.Descriptor`) the game
    of its name; a name already taken is a ValueError unless ``replace``."""
    from .descriptor import Descriptor

    if not isinstance(descriptor, Descriptor):
        raise TypeError(f"register takes a Descriptor, not {type(descriptor).__name__}")
    name = descriptor.name
    if not replace and (name in _BUILT_IN or name in _found):
        raise ValueError(f"a game named {name!r} is registered already")
    _found[name] = descriptor
    return descriptor


def unregister(name: str) -> None:
    """Take back a game :func:`register` added (a test's, say); a built-in
    game stays, and an installed one is found again when next asked for."""
    if name in _BUILT_IN:
        raise ValueError(f"{name!r} is a built-in game")
    _found.pop(name, None)


def get(name: str) -> "Descriptor":
    """The :class:`~havhex.descriptor.Descriptor` of the game ``name``;
    :class:`UnknownGame` (a ValueError) for a name no game has."""
    found = _found.get(name)
    if found is not None:
        return found
    if not isinstance(name, str):
        raise TypeError(f"a game's name is a str, not {type(name).__name__}")
    module = _BUILT_IN.get(name)
    if module is not None:
        import importlib

        described: "Descriptor" = importlib.import_module(f"{module}.descriptor").DESCRIPTOR
        return _found.setdefault(name, described)
    entry = _entry_points().get(name)
    if entry is None:
        raise UnknownGame(f"no game {name[:40]!r}: the games are {', '.join(names())}")
    descriptor: "Descriptor" = entry.load()
    if getattr(descriptor, "name", None) != name:
        raise ValueError(f"entry point {entry.value} of {ENTRY_POINT_GROUP!r} describes "
                         f"{getattr(descriptor, 'name', descriptor)!r}, not {name!r}")
    return _found.setdefault(name, descriptor)


def judge_module(name: str) -> "ModuleType":
    """The module of the contest judge of the game ``name`` (its
    descriptor's ``judge_module()``), imported now.  A built-in game's is
    its package, imported without its descriptor: a judge run's start-up
    reads no more than its judge."""
    package = _BUILT_IN.get(name)
    if package is not None and name not in _found:
        import importlib

        return importlib.import_module(package)
    return get(name).judge_module()


def names(installed: bool = True) -> "Tuple[str, ...]":
    """The names of every game: the built-in ones first, then those
    registered or installed, in order of their names.  ``installed=False``
    leaves out the installed games not yet asked for, reading no installed
    distribution (what a caller that tries the games it has first wants)."""
    others = set(_found) - set(_BUILT_IN)
    if installed:
        others |= set(_entry_points())
    return tuple(_BUILT_IN) + tuple(sorted(others))


def built_in(name: str) -> bool:
    """True when ``name`` is a built-in game: a test that reads no
    installed distribution."""
    return name in _BUILT_IN


def _entry_points() -> "Dict[str, EntryPoint]":
    global _plugins
    if _plugins is None:
        import sys
        from importlib import metadata

        if sys.version_info >= (3, 10):
            found = metadata.entry_points(group=ENTRY_POINT_GROUP)
        else:                 # a dict of every group
            found = metadata.entry_points().get(ENTRY_POINT_GROUP, ())
        _plugins = {entry.name: entry for entry in found if entry.name not in _BUILT_IN}
    return _plugins
