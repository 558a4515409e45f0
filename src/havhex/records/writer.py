"""Writing games as SGF: the inverse of :func:`havhex.records.read`.

Each game comes out in its record format (its descriptor's
:class:`~havhex.descriptor.RecordFormat`): Hex games as SGF FF[4] for Hex
(``GM[11]``, cells ``a1``, columns past ``z`` as ``aa``...); Havannah games
in Little Golem's ``.hgf`` form (no ``GM[]``, cells named by row letter and
number, see docs/records.md).  Reading the text back gives the same games:
the root node's properties are written as they were read (setup stones and
results among them), each move in a node of its own with the record's
colour letter.
"""
from __future__ import annotations

import os

from .game import Record, text_codec

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO, Callable, Iterable, Optional, TextIO, Tuple, Union

    _Destination = Union[None, str, bytes, "os.PathLike[str]", "os.PathLike[bytes]", TextIO,
                         BinaryIO]

    # Kept for a release, with a DeprecationWarning (__getattr__ gives
    # them): the record format's cell_name
    # (havhex.games.get(game).records.cell_name) names every game's cells.
    def hex_cell_name(cell: Tuple[int, int]) -> str: ...
    def havannah_cell_name(size: int, cell: Tuple[int, int]) -> str: ...

__all__ = ["write", "game_text"]


def _escaped(text: str) -> str:
    # In an SGF value only "]" and "\" need a backslash before them.
    return text.replace("\\", "\\\\").replace("]", "\\]")


def __getattr__(name: str) -> Callable[..., str]:
    # <game>_cell_name (hex_cell_name, havannah_cell_name): the boards' cell
    # namers, kept for a release; the record format's cell_name(size, cell)
    # names a cell of every game alike.
    if name.startswith("__"):
        # "from .writer import x" asks for __path__ each time it runs (in a
        # function, each call): answered at once, without the lookups below.
        raise AttributeError(name)
    if name.endswith("_cell_name"):
        from .. import games

        game = name[:-len("_cell_name")]
        if game in games.names(installed=False):
            import warnings

            warnings.warn(f"havhex.records.writer.{name} is deprecated: use "
                          f"havhex.games.get({game!r}).records.cell_name(size, cell)",
                          DeprecationWarning, stacklevel=2)
            form = games.get(game).records
            if TYPE_CHECKING:
                # A built-in game's records have a format.
                assert form is not None
            return _named_by(form.cell_name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _named_by(cell_name: Callable[[Any, Any], str]) -> Callable[..., str]:
    """The old namer of a game's cells from its record format's: ``(size,
    cell)``, or ``(cell)`` alone for a game whose names need no size."""
    def name_of_cell(*arguments: Any) -> str:
        if len(arguments) == 1:
            return cell_name(None, arguments[0])
        return cell_name(*arguments)
    return name_of_cell


def game_text(game: Record) -> str:
    """One game as an SGF game tree ``(;...)``, without a line end."""
    if not isinstance(game, Record):
        raise TypeError(f"write takes havhex.records.Record objects, not {type(game).__name__}")
    parts = ["(;"]
    properties = game.properties
    form = game._format
    leading = form.leading
    for name, value in leading:
        parts.append(name)
        parts.extend(f"[{_escaped(value)}]" for value in properties.get(name, (value,)))
    written = {name for name, _ in leading}
    for name, values in properties.items():
        # A name the reader kept without letters (FF[3]'s lower-case ones
        # do not count) cannot be written: it would give its values to the
        # property before it.
        if name in written or not name.isalpha() or not name.isupper():
            continue
        parts.append(name)
        parts.extend(f"[{_escaped(value)}]" for value in values)
    cell_name, size = form.cell_name, game.size
    for letter, move in game.moves:
        # A word is a special move, or a value that was no cell (as read).
        name = move if isinstance(move, str) else cell_name(size, move)
        parts.append(f";{letter}[{_escaped(name)}]")
    parts.append(")")
    return "".join(parts)


def _charset(game: Record) -> str:
    """The codec a game's text is written in: its CA[] when the reader takes
    it (:func:`havhex.records.game.text_codec`), else UTF-8 (what the reader
    tries first), so that reading the text back gives the game."""
    values = game.properties.get("CA")
    if values:
        codec = text_codec(values[0].strip())
        if codec is not None:
            return codec
    return "utf-8"


def _encoded(text: str, game: Record) -> bytes:
    codec = _charset(game)
    try:
        return (text + "\n").encode(codec)
    except UnicodeEncodeError as error:
        raise ValueError(f"game {game.index} of {game.source} cannot be written in its "
                         f"charset CA[{game.properties.get('CA', ('utf-8',))[0]}]: {error.reason} "
                         f"({error.object[error.start:error.end]!r})") from None


def write(games: Union[Record, Iterable[Record]], destination: _Destination = None) -> Optional[str]:
    """The SGF text of ``games`` (one :class:`~havhex.records.Record` or an
    iterable of them), one game tree per line.

    Each game's root starts with its ``FF[]`` (``FF[4]`` when it has none)
    and, for a game with a GM[] code, its ``GM[]`` (Hex's ``GM[11]`` when it
    has none); Havannah games take Little Golem's form, without ``GM[]``
    (read them back from a ``.hgf`` file or with ``game="havannah"``).  Then come the other root
    properties as read, then the moves, one node each.
    Returns the text when ``destination`` is None; otherwise writes it to
    ``destination``, a path or a file opened for writing (text or binary),
    and returns None.  Bytes are each game's ``CA[]`` charset (when the
    reader takes it), else UTF-8; a game its charset cannot carry raises
    ValueError.  Every game is encoded before anything is written: a path is
    written to a temporary file beside it, renamed over it at the end (with
    the old file's mode), so that a failure leaves the old file as it was.
    """
    if isinstance(games, Record):
        games = (games,)
    texts = [(game_text(game), game) for game in games]
    if destination is None:
        return "".join(text + "\n" for text, _ in texts)
    if isinstance(destination, (str, bytes, os.PathLike)):
        _replace(destination, b"".join(_encoded(text, game) for text, game in texts))
        return None
    if not hasattr(destination, "write"):
        raise TypeError(f"destination is a path or a file, not {type(destination).__name__}")
    binary = "b" in getattr(destination, "mode", "") or not hasattr(destination, "encoding")
    # Whether the stream is binary is its mode's to say, which its type
    # does not: each write is to a stream of the one kind.
    if binary:
        destination.write(
            b"".join(_encoded(text, game) for text, game in texts))  # type: ignore[arg-type]
    else:
        destination.write(
            "".join(text + "\n" for text, _ in texts))  # type: ignore[call-overload]
    return None


def _replace(path: Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"],
             data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in its folder,
    renamed over it: the old file stays whole until the new one is."""
    import stat
    import tempfile

    path = os.fspath(path)
    folder = os.path.dirname(path) or (b"." if isinstance(path, bytes) else ".")
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = None
    # The folder, prefix and suffix are all bytes or all str, as the path
    # is: mkstemp's overloads take either, which a union does not tell.
    descriptor, temporary = tempfile.mkstemp(
        dir=folder,  # type: ignore[arg-type]
        prefix=b".havhex-" if isinstance(path, bytes) else ".havhex-",  # type: ignore[arg-type]
        suffix=b".tmp" if isinstance(path, bytes) else ".tmp")  # type: ignore[arg-type]


    try:
        with os.fdopen(descriptor, "wb") as stream:
            stream.write(data)
        if mode is None:
            # A new file gets the mode open() would give it (mkstemp's is 0600).
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
