"""Games read from records: what a record says, in the live boards' terms.

The compiled reader (``_reader``) turns bytes into each game's root
properties and its moves as rows of int32; :class:`Record` wraps one game and
makes Python objects (moves, properties as text) only when they are asked
for.

Everything a game's records need is its descriptor's
(:class:`havhex.descriptor.RecordFormat`): the ``GM[]`` code, the file
extensions that say the game, the cell notation, the size, the colours.
A read resolves them once, and a collection's games share them.
"""
from __future__ import annotations

import os

from .. import games as _games
from .._frozen import Frozen
from ..errors import InputError
# The compiled reader has no stub: what it gives is typed where it is used.
from . import _reader  # type: ignore[attr-defined]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import (Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple, TypeVar,
                        Union)

    from ..descriptor import Descriptor, RecordFormat

    _Source = Union[str, bytes, bytearray, memoryview, "os.PathLike[str]"]
    _Name = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
    _Size = Union[int, Tuple[int, int]]
    _Cell = Tuple[int, int]
    _Move = Tuple[str, Union[_Cell, str]]
    # What the compiled reader's Scan calls back with: a root's properties
    # (name -> the raw values) and its line; the callback answers (notation
    # code, rows, cols), and keeps that answer with the game's format and
    # size (_Answer).
    _Properties = Mapping[str, Tuple[bytes, ...]]
    _Answer = Tuple["_Format", _Size, Tuple[int, int, int]]
    _Decide = Callable[[_Properties, int], Tuple[int, int, int]]
    # A piece of a record: (bytes, games, first game, first line).
    _Piece = Tuple[bytes, int, int, int]
    _T = TypeVar("_T")

    # Computed from the registry when asked for (__getattr__); GAMES,
    # HEX_GM and HEX_DEFAULT_SIZE warn (DeprecationWarning): havhex.games
    # says them.
    GAMES: Tuple[str, ...]
    EXTENSIONS: Mapping[str, str]
    HEX_GM: bytes
    HEX_DEFAULT_SIZE: int

__all__ = ["Record", "read", "read_one", "read_bytes", "implied_game", "EXTENSIONS", "MAX_CELLS",
           "NOTATIONS"]

# The cell notations the reader decodes moves in: a game's record format
# names one (havhex.descriptor.RecordFormat.notation).
NOTATIONS: Tuple[str, ...] = tuple(_reader.NOTATION_CODES)
SPECIAL: Mapping[int, str] = {1: "swap", 2: "swap-pieces", 3: "swap-sides", 4: "resign",
                              5: "forfeit", 6: "pass"}
CELL, OFF_BOARD, UNREADABLE = 0, 7, 8
# An extension that says no game: SGF's own (GM[] says the game).
_SGF = ".sgf"


class _Format:
    """What reading, replaying and writing a game's records takes from its
    descriptor, resolved once (see :func:`_format_of`): ``name`` and
    ``title`` the game's; ``form`` its RecordFormat; ``gm`` its GM[] code as
    bytes (None: none); ``code`` its notation's code in the compiled
    reader; ``colours`` a record's letter -> the board's colour, ``letters``
    the reverse; ``leading`` the properties a written root starts with."""

    __slots__ = ("name", "title", "form", "gm", "code", "colours", "letters", "leading",
                 "read_size", "cells", "new_board", "setup_board", "cell_name", "win_kinds",
                 "little_golem")

    name: str
    title: str
    form: RecordFormat
    gm: Optional[bytes]
    code: int
    colours: Dict[str, str]
    letters: Dict[str, str]
    leading: Tuple[Tuple[str, str], ...]
    read_size: Callable[[Optional[bytes]], Any]
    cells: Callable[[Any], int]
    new_board: Callable[..., Any]
    setup_board: Optional[Callable[..., Any]]
    cell_name: Callable[[Any, Any], str]
    win_kinds: Tuple[str, ...]
    little_golem: bool

    def __init__(self, descriptor: Descriptor) -> None:
        form = descriptor.records
        if TYPE_CHECKING:
            # _format_of makes a format only for a game with a notation, and
            # a RecordFormat with a notation has read_size and cells.
            assert form is not None and form.notation is not None
            assert form.read_size is not None and form.cells is not None
        self.name = descriptor.name
        self.title = descriptor.title
        self.form = form
        self.gm = form.gm.encode("ascii") if form.gm is not None else None
        self.code = _reader.NOTATION_CODES[form.notation]
        self.colours = dict(zip(form.letters, descriptor.players))
        self.letters = dict(zip(descriptor.players, form.letters))
        # The text is FF[4]; a game with a GM[] code says it (a reader takes
        # a record without GM[] by its extension only, or when told).
        self.leading = (("FF", "4"),) + ((("GM", form.gm),) if form.gm is not None else ())
        self.read_size = form.read_size
        self.cells = form.cells
        self.new_board = descriptor.new_board
        self.setup_board = form.setup_board
        self.cell_name = form.cell_name
        self.win_kinds = form.win_kinds
        self.little_golem = form.little_golem


_FORMATS: Dict[Descriptor, _Format] = {}          # descriptor -> its _Format, made once


def _format_of(descriptor: Descriptor) -> _Format:
    """The :class:`_Format` of a descriptor; ValueError for a game whose
    records havhex does not read."""
    found = _FORMATS.get(descriptor)
    if found is not None:
        return found
    form = descriptor.records
    if form is None or form.notation is None:
        raise ValueError(f"game {descriptor.name!r} has no record format havhex reads "
                         f"(its descriptor's records{' notation' if form else ''} is None)")
    if form.notation not in _reader.NOTATION_CODES:
        raise ValueError(f"game {descriptor.name!r}: the reader knows no notation "
                         f"{form.notation!r} (it knows {', '.join(NOTATIONS)})")
    return _FORMATS.setdefault(descriptor, _Format(descriptor))


def _format_named(game: str) -> _Format:
    """The :class:`_Format` of the game named ``game``; ValueError for a
    name no game has, or a game whose records havhex does not read."""
    if not isinstance(game, str):
        raise ValueError(f"game must be a game's name (havhex.games.names()) or None, "
                         f"not {game!r}")
    return _format_of(_games.get(game))


def _readable(installed: bool) -> List[_Format]:
    """The formats of the games whose records havhex reads, built-in first;
    with ``installed`` the installed games too (reading the installed
    distributions' entry points, once a process)."""
    found = []
    for name in _games.names(installed):
        descriptor = _games.get(name)
        form = descriptor.records
        if form is not None and form.notation in _reader.NOTATION_CODES:
            found.append(_format_of(descriptor))
    return found


def _first(test: Callable[[_Format], bool]) -> Optional[_Format]:
    """The first readable format that passes ``test``: the built-in and
    registered games are tried before the installed ones are read."""
    for installed in (False, True):
        for form in _readable(installed):
            if test(form):
                return form
    return None


def _by_gm(code: bytes) -> Optional[_Format]:
    return _first(lambda form: form.gm == code)


def _by_extension(extension: Optional[str]) -> Optional[_Format]:
    if not extension or extension == _SGF:
        return None
    return _first(lambda form: extension in form.form.implied_by)


def _extension(name: Optional[str]) -> Optional[str]:
    return os.path.splitext(name)[1].lower() if name else None


def implied_game(name: _Name) -> Optional[str]:
    """The name of the game a record file's extension says (a record
    without ``GM[]`` is of it), or None: ``.hgf`` says Little Golem
    Havannah; ``.sgf`` says no game."""
    form = _by_extension(_extension(os.fsdecode(name)))
    return form.name if form is not None else None


def _legacy(name: str) -> Any:
    """Names of a game kept for a release: ``<GAME>_GM``, its GM[] code as
    bytes, and ``<GAME>_DEFAULT_SIZE``, the size of its record without
    SZ[] (the side of a square board); None for another name."""
    for suffix in ("_GM", "_DEFAULT_SIZE"):
        if name.endswith(suffix) and name.isupper():
            game = name[:-len(suffix)].lower()
            if game not in _games.names(installed=False):
                return None
            import warnings

            warnings.warn(f"havhex.records.game.{name} is deprecated: read it from "
                          f"havhex.games.get({game!r}).records", DeprecationWarning, stacklevel=3)
            form = _format_named(game)
            if suffix == "_GM":
                return form.gm
            size = form.read_size(None)
            return size[0] if isinstance(size, tuple) and len(set(size)) == 1 else size
    return None


def __getattr__(name: str) -> Any:
    # GAMES and EXTENSIONS follow the registry (a game registered later
    # counts); both read the installed games.
    if name.startswith("__"):
        # "from .game import x" asks for __path__ each time it runs (in a
        # function, each call): answered at once, without the lookups below.
        raise AttributeError(name)
    if name == "EXTENSIONS":
        found: Dict[str, str] = {}
        for form in _readable(True):
            for extension in form.form.implied_by:
                found.setdefault(extension, form.name)
        return found
    if name == "Game":
        import warnings

        warnings.warn("havhex.records.game.Game is deprecated: use havhex.records.Record",
                      DeprecationWarning, stacklevel=2)
        return Record
    if name == "GAMES":
        import warnings

        warnings.warn("havhex.records.game.GAMES is deprecated: the games are "
                      "havhex.games.names(), and records read those whose descriptor has "
                      "a record format", DeprecationWarning, stacklevel=2)
        return tuple(form.name for form in _readable(True))
    value = _legacy(name)
    if value is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return value


# Every byte of SGF's syntax and of ASCII text: a charset that reads and
# writes these as ASCII does can carry a record.
_ASCII = bytes(range(0x20, 0x7F)) + b"\t\n\r"
_CODECS: Dict[str, Optional[str]] = {}


def text_codec(charset: str) -> Optional[str]:
    """The codec of a CA[] charset, or None when Python does not know it or
    it cannot carry a record: a text encoding that reads and writes ASCII
    as ASCII (not UTF-16, idna, punycode, rot13 or base64; not a name
    holding NUL)."""
    if charset in _CODECS:
        return _CODECS[charset]
    import codecs

    codec = None
    try:
        info = codecs.lookup(charset)
        if getattr(info, "_is_text_encoding", True) and \
                info.decode(_ASCII)[0] == _ASCII.decode("ascii") and \
                info.encode(_ASCII.decode("ascii"))[0] == _ASCII:
            codec = info.name
    except Exception:       # a codec may raise anything for a name or a text it refuses
        codec = None
    if len(_CODECS) < 64:
        _CODECS[charset] = codec
    return codec


def _text(value: bytes, charset: Optional[str] = None) -> str:
    """A property value as text: escapes resolved (a backslash keeps the
    byte after it; a backslash before a line break removes both), decoded as
    the record's CA[] charset says (when :func:`text_codec` takes it), else
    as UTF-8 and, failing that, as Latin-1 (the SGF default, which every
    byte decodes in)."""
    if b"\\" in value:
        out = bytearray()
        k = 0
        while k < len(value):
            byte = value[k]
            if byte == 0x5C and k + 1 < len(value):
                following = value[k + 1]
                k += 2
                if following == 0x0D and value[k:k + 1] == b"\n":
                    k += 1
                if following not in (0x0A, 0x0D):
                    out.append(following)
                continue
            out.append(byte)
            k += 1
        value = bytes(out)
    codec = text_codec(charset) if charset else None
    if codec is not None:
        try:
            return value.decode(codec, "replace")
        except (UnicodeError, LookupError, ValueError, TypeError):
            pass      # a codec that takes no "replace": as if CA[] were absent
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return value.decode("latin-1")


def shown_name(name: str) -> str:
    """A file name as output shows it: bytes of the name that are not UTF-8
    (which ``os.fsdecode`` keeps as lone surrogates, which neither JSON nor a
    UTF-8 stream can carry) become U+FFFD."""
    if name.isascii():
        return name
    try:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:       # a surrogate that stands for no byte
        return name.encode("utf-8", "replace").decode("utf-8")


def _plain(value: bytes) -> str:
    """A property value for a message: as it reads when it is short
    printable ASCII, else quoted with its bytes escaped."""
    if len(value) <= 40 and all(0x20 <= byte < 0x7F for byte in value):
        return value.decode("ascii")
    shown: str = _reader._shown(value)
    return shown


def _hints(formats: List[_Format]) -> Tuple[str, str]:
    """How records say each game, for a message: ``Hex is GM[11]``, ``.hgf
    is Havannah``."""
    said = [f"{form.title} is GM[{form.form.gm}]" for form in formats if form.gm is not None]
    named = [f"{extension} is {form.title}" for form in formats
             for extension in form.form.implied_by]
    return "; ".join(said) or "no game has a GM[] code", ", ".join(named) or "none"


def _decider(fixed: Optional[_Format], extension: Optional[str],
             max_cells: Optional[int] = None) -> Tuple[_Decide, List[Any]]:
    """``(decide, last)``: ``decide`` the callback of ``_reader.Scan``, and
    ``last`` a list whose item is ``(format, size, reader's answer)`` of the
    game it decided last (the game the scan gives next).  A record without
    GM[] is of the game of ``fixed`` (a :class:`_Format`, None: the game
    that ``extension`` says, looked up at the first such record); boards of
    more than ``max_cells`` cells are refused (None: only those the boards
    refuse)."""
    decided: Dict[Tuple[Tuple[bytes, ...], Tuple[bytes, ...]], _Answer] = {}
    last: List[Any] = [None]
    implied: List[Optional[_Format]] = []   # the extension's format, once looked up

    def decide(properties: _Properties, line: int) -> Tuple[int, int, int]:
        # Records of one collection mostly share GM[] and SZ[]: their answer
        # is kept (faults are not, and raise each time).
        key = (tuple(properties.get("GM", ())), tuple(properties.get("SZ", ())))
        answer = decided.get(key)
        if answer is None:
            answer = decided[key] = decide_afresh(properties, line)
        last[0] = answer
        return answer[2]

    def decide_afresh(properties: _Properties, line: int) -> _Answer:
        gm = properties.get("GM")
        if gm:
            form = _by_gm(gm[0].strip())
            if form is None:
                said, named = _hints(_readable(True))
                raise InputError(f"GM[{_plain(gm[0])}] is not a game havhex replays ({said}; "
                                 f"a record without GM[] is taken by its file's extension: "
                                 f"{named})", None, line)
        elif fixed is not None:
            form = fixed
        else:
            if not implied:
                implied.append(_by_extension(extension))
            form = implied[0]
            if form is None:
                said, named = _hints(_readable(True))
                raise InputError(f"no GM[] to say the game ({said}), and no known file "
                                 f"extension ({named})", None, line)
        size_values = properties.get("SZ")
        declared = size_values[0] if size_values else None
        try:
            size = form.read_size(declared)
        except ValueError as error:
            raise InputError(getattr(error, "reason", str(error)), None, line) from None
        if max_cells is not None and form.cells(size) > max_cells:
            raise InputError(_too_many(form, size, declared, max_cells), None, line)
        rows, cols = size if isinstance(size, tuple) else (size, 0)
        return form, size, (form.code, rows, cols)

    return decide, last


def _too_many(form: _Format, size: _Size, declared: Optional[bytes], max_cells: int) -> str:
    said = f"SZ[{_plain(declared)}]" if declared is not None else "no SZ[]"
    return (f"{said}: a {form.title} board of {form.cells(size):,} cells, more than the "
            f"{max_cells:,} allowed (max_cells=, havhex --max-cells)")


def too_many_cells(kind: str, size: _Size, declared: Optional[bytes], max_cells: int) -> str:
    """The reason a board of more than ``max_cells`` cells is refused
    (``declared`` the SZ[] value, None: the record has none)."""
    return _too_many(_format_named(kind), size, declared, max_cells)


class Record(Frozen):
    """The record of one game played, immutable (a record file holds one
    or more).

    ``source`` names the file; ``index`` is the record's number in it, from
    1; ``line`` the line where its tree starts; ``game`` the game's name
    (``"hex"``, ``"havannah"``, see :func:`havhex.games.names`); ``size``
    the size its descriptor's records give: the Havannah base S, or Hex's
    ``(rows, cols)``.
    ``moves`` is the main line's moves, ``(letter, move)`` pairs: ``letter``
    ``"B"`` or ``"W"`` as the record writes it, ``move`` a cell in the live
    board's coordinates (Hex ``(row, col)`` from 0, Havannah ``(x, y)``) or
    one of ``"swap"``, ``"swap-pieces"``, ``"swap-sides"``, ``"resign"``,
    ``"forfeit"``, ``"pass"``; a value that is no cell of the board is kept
    as its text.  ``setup`` holds the ``(letter, cell)`` stones of AB[]/AW[];
    ``result`` the RE[] text or None; ``recorded`` the winner the record
    names, ``"B"``, ``"W"`` or None (Little Golem's Havannah records name the
    loser in RE[]: read through that); ``properties`` the root node's
    properties as ``{name: (text, ...)}``.  Colours: the record format's
    letters are the players in turn (in Hex, B is the board's red, moves
    first and joins top and bottom, W blue; in Havannah, W moves first and
    is the board's white, B black).
    """

    __slots__ = ("source", "index", "line", "game", "size", "_format", "_scanned", "_cache")

    source: str
    index: int
    line: int
    game: str
    size: _Size
    _format: _Format
    # The compiled reader's Scanned: the game's raw properties and rows.
    _scanned: Any
    _cache: Dict[str, Any]

    @classmethod
    def _make(cls, source: str, index: int, line: int, form: _Format, size: _Size,
              scanned: Any) -> Record:
        # Field by field (a game is made per record game: Frozen._build's
        # keyword loop would cost more than the rest of reading it).
        self = object.__new__(cls)
        setattr = object.__setattr__
        setattr(self, "source", source)
        setattr(self, "index", index)
        setattr(self, "line", line)
        setattr(self, "game", form.name)
        setattr(self, "size", size)
        setattr(self, "_format", form)
        setattr(self, "_scanned", scanned)
        setattr(self, "_cache", {})
        return self

    def __repr__(self) -> str:
        size = self.size if isinstance(self.size, int) else "x".join(map(str, self.size))
        return (f"<havhex.records.Record {self.source}#{self.index} {self.game} {size}: "
                f"{self._scanned.n_stones} moves>")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return (self.game, self.size, self.moves, self.setup, self.properties) == \
               (other.game, other.size, other.moves, other.setup, other.properties)

    def __hash__(self) -> int:
        return hash((self.game, self.size, self.moves))

    @property
    def kind(self) -> str:
        """The game's name: :attr:`game`, under its name before 0.2
        (deprecated)."""
        import warnings

        warnings.warn("Record.kind is deprecated: use Record.game", DeprecationWarning,
                      stacklevel=2)
        return self.game

    def __reduce__(self) -> Tuple[Any, ...]:
        return (_record_from_parts, (self.source, self.index, self.line, self.game, self.size,
                                   self._scanned.properties, self._scanned.moves,
                                   self._scanned.raw))

    def _cached(self, name: str, make: Callable[[], _T]) -> _T:
        value: Optional[_T] = self._cache.get(name)
        if value is None:
            value = self._cache[name] = make()
        return value

    @property
    def properties(self) -> Dict[str, Tuple[str, ...]]:
        def make() -> Dict[str, Tuple[str, ...]]:
            charset = self._scanned.properties.get("CA")
            charset = _text(charset[0]).strip() if charset else None
            return {name: tuple(_text(value, charset) for value in values)
                    for name, values in self._scanned.properties.items()}
        return self._cached("properties", make)

    @property
    def moves(self) -> Tuple[_Move, ...]:
        def make() -> Tuple[_Move, ...]:
            rows = memoryview(self._scanned.moves).cast("i")
            raw = self._scanned.raw or {}
            moves: List[_Move] = []
            for k in range(self._scanned.n_rows):
                colour, kind, a, b = rows[4 * k:4 * k + 4]
                letter = "B" if colour == 1 else "W"
                if kind == CELL:
                    moves.append((letter, (a, b)))
                elif kind in SPECIAL:
                    moves.append((letter, SPECIAL[kind]))
                else:
                    moves.append((letter, _text(raw.get(k, b""))))
            return tuple(moves)
        return self._cached("moves", make)

    @property
    def setup(self) -> Tuple[Tuple[str, _Cell], ...]:
        def make() -> Tuple[Tuple[str, _Cell], ...]:
            stones = []
            for name, letter in (("AB", "B"), ("AW", "W")):
                for value in self._scanned.properties.get(name, ()):
                    stones.append((letter, self._setup_cell(value)))
            return tuple(stones)
        return self._cached("setup", make)

    def _setup_cell(self, value: bytes) -> _Cell:
        rows, cols = self.size if isinstance(self.size, tuple) else (self.size, 0)
        kind, a, b = _reader.decode_move(value, self._format.code, rows, cols)
        if kind != CELL:
            raise InputError(f"a setup stone (AB[]/AW[]) is not a cell of the board: "
                             f"{_reader._shown(value)}", self.source, self.line)
        return (a, b)

    @property
    def result(self) -> Optional[str]:
        values = self.properties.get("RE")
        return values[0] if values else None

    @property
    def is_little_golem(self) -> bool:
        """A Little Golem record of a game whose Little Golem records name
        the loser in RE[] (Havannah's: RU[LG] or a littlegolem.com SO[])."""
        return self._format.little_golem and _little_golem(self._scanned.properties)

    @property
    def recorded(self) -> Optional[str]:
        return _recorded(self._scanned.properties, self._format.little_golem)

    def board(self, rule: str = "official") -> Any:
        """A fresh live board for this game, its setup stones on it (swaps
        allowed, as records use them); ``rule`` is Havannah's ring rule."""
        form = self._format
        properties = self._scanned.properties
        if "AB" not in properties and "AW" not in properties:
            return form.new_board(self.size, rule, True)
        if form.setup_board is None:
            raise InputError(f"setup stones (AB[]/AW[]) on a {form.title} record are not "
                             f"supported", self.source, self.line)
        colours = form.colours
        stones = [(colours[letter], cell) for letter, cell in self.setup]
        mover = None
        player = properties.get("PL")
        if player:
            mover = colours["B" if _text(player[0]).strip().upper().startswith("B") else "W"]
        elif self._scanned.n_rows:
            mover = colours[self.moves[0][0]]
        return form.setup_board(self.size, stones, mover)


def _little_golem(properties: _Properties) -> bool:
    rules = properties.get("RU")
    origin = properties.get("SO")
    return bool((rules and rules[0].strip().upper() == b"LG")
                or (origin and b"littlegolem" in origin[0].lower()))


def _recorded(properties: _Properties, little_golem: bool) -> Optional[str]:
    """The winner RE[] names, "B", "W" or None (a draw, "?", "Void", none);
    ``little_golem`` whether the game's Little Golem records name the loser."""
    result = properties.get("RE")
    if not result:
        return None
    text = result[0].strip().upper()
    if not text or text[:1] not in (b"B", b"W") or (len(text) > 1 and text[1:2] != b"+"):
        return None
    letter = "B" if text[:1] == b"B" else "W"
    if little_golem and _little_golem(properties):
        return "W" if letter == "B" else "B"
    return letter


def _record_from_parts(source: str, index: int, line: int, game: str, size: _Size,
                       properties: _Properties, moves: Any, raw: Any) -> Record:
    form = _format_named(game)
    rows, cols = size if isinstance(size, tuple) else (size, 0)
    scanned = _reader.Scanned._from_parts(line, properties, moves, raw, form.code, rows, cols)
    return Record._make(source, index, line, form, size, scanned)


def _fixed(game: Optional[str]) -> Optional[_Format]:
    """The format of records without GM[] that ``game`` names (None: none);
    ValueError when havhex reads no records of that game."""
    return None if game is None else _format_named(game)


def read_bytes(data: Union[bytes, bytearray, memoryview], source: str = "<bytes>",
               game: Optional[str] = None, first_index: int = 1, first_line: int = 1,
               max_cells: Optional[int] = None,
               at_start: Optional[bool] = None) -> Iterator[Record]:
    """The games of ``data`` (a bytes-like object), as an iterator of
    :class:`Record`, read one at a time.  ``game`` says the game of records
    without GM[] (else the extension of ``source`` does).  A syntax fault
    raises :class:`havhex.InputError` naming ``source`` and the line when the
    iteration reaches it; so does a board of more than ``max_cells`` cells
    (None: no bound but the boards').  ``at_start`` (default: ``first_index``
    and ``first_line`` are 1) says that ``data`` begins its file, where a
    byte order mark may stand."""
    if at_start is None:
        at_start = first_index == 1 and first_line == 1
    decide, last = _decider(_fixed(game), _extension(source), max_cells)
    return _games_of(data, source, decide, last, first_index, first_line, at_start)


def _games_of(data: Union[bytes, bytearray, memoryview], source: str, decide: _Decide,
              last: List[Any], first_index: int, first_line: int,
              at_start: bool) -> Iterator[Record]:
    make = Record._make
    number = first_index
    games = _reader.Scan(memoryview(data).cast("B"), decide, first_line, at_start)
    while True:
        try:
            item = next(games)
        except StopIteration:
            return
        except InputError as error:
            raise InputError(error.reason, source, error.line) from None
        form, size, _ = last[0]
        yield make(source, number, item.line, form, size, item)
        number += 1


# Bytes read at a time: a record is read in pieces of at least this size (a
# game longer than the pieces read so far doubles the next read, so that
# each byte is checked a bounded number of times), and each piece is checked
# before the next is read, so that an endless or binary input fails at its
# first bad byte with no more than a piece in memory.
PIECE_BYTES = 1 << 16
_BOM = b"\xef\xbb\xbf"
# The bytes a fault's message may show from where it stands (_reader._fault).
_SHOWN_AFTER_FAULT = 16


def _open(source: _Source) -> Tuple[Callable[[int], Optional[bytes]], Callable[[], None], str]:
    """``(read, close, name)`` of a record that is a path or ``"-"``:
    ``read(n)`` gives at most ``n`` bytes, as they come (b"" at the end)."""
    from .._source import is_stdin

    if is_stdin(source):
        import sys

        # Standard input, then its binary buffer where it has one: a text
        # or a binary stream, whichever it turns out to be.
        stream: Any = sys.stdin
        if stream is None:

            raise InputError("standard input is closed", "<stdin>")
        stream = getattr(stream, "buffer", stream)
        return getattr(stream, "read1", stream.read), (lambda: None), "<stdin>"
    if not isinstance(source, (str, bytes, os.PathLike)):
        raise TypeError(f"a record is a path, '-' or bytes, not {type(source).__name__}")
    name = os.fsdecode(source)
    if os.path.isdir(source):
        raise InputError("is a directory", name)
    try:
        stream = open(source, "rb", buffering=0)
    except OSError as error:
        raise InputError(f"cannot open: {error.strerror}", name) from None
    return stream.read, stream.close, name


def _pieces(read: Callable[[int], Optional[bytes]], name: str,
            tail: bool = False) -> Iterator[_Piece]:
    """The record's bytes in checked pieces: ``(bytes, games, first game,
    first line)``, each piece whole games (or only space) whose syntax is
    sound, in order; the first fault raises :class:`havhex.InputError`
    once the pieces before it are given, or with ``tail`` ends the pieces
    with the bytes read from the last whole game to the fault (games -1),
    so that a reader of them meets the faults in the file's order."""
    pending = b""
    line = index = 1
    at_start = True
    while True:
        chunk = read(max(PIECE_BYTES, len(pending)))
        if chunk is None:
            chunk = b""
        at_end = not chunk
        data = pending + chunk if pending else bytes(chunk)
        if at_start and not at_end and _BOM.startswith(data):
            pending = data        # a byte order mark cut by the read: read on
            continue
        stop, next_line, games, fault, fault_at = _reader.checked_prefix(data, line, at_start,
                                                                          at_end)
        if stop:
            yield data[:stop], games, index, line
            index += games
            line = next_line
            at_start = False
        if fault is not None and not at_end and len(data) - fault_at < _SHOWN_AFTER_FAULT:
            pending = data[stop:]     # a message shows the bytes after a fault: read them
            continue
        if fault is not None and tail and isinstance(fault, InputError):
            yield data[stop:], -1, index, line
            return
        if fault is not None:
            if isinstance(fault, InputError):
                raise InputError(fault.reason, name, fault.line)
            raise fault
        if at_end:
            return
        pending = data[stop:]


def _read_stream(read: Callable[[int], Optional[bytes]], close: Callable[[], None], name: str,
                 fixed: Optional[_Format], max_cells: Optional[int]) -> Iterator[Record]:
    try:
        decide, last = _decider(fixed, _extension(name), max_cells)
        first = True
        for piece, games, index, line in _pieces(read, name):
            if games:
                yield from _games_of(piece, name, decide, last, index, line, first)
            first = False
    finally:
        close()


def load(source: _Source) -> Tuple[bytes, str]:
    """``(bytes, name)`` of a record: a path, ``"-"`` (standard input) or
    bytes.  A file is read in checked pieces (see :func:`read`): an endless
    or binary input stops at the piece that holds its first bad byte, and
    the bytes end there (their reader meets that fault where it stands)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "<bytes>"
    read, close, name = _open(source)
    try:
        return b"".join(piece for piece, _, _, _ in _pieces(read, name, tail=True)), name
    finally:
        close()


# The most cells a record's board may have for its game to be read (see
# records.read's max_cells): a record's memory and time then follow the moves
# it holds, not the size it declares.  A million cells is Hex 1000x1000 or a
# Havannah board of side 577, far beyond the boards records are played on.
MAX_CELLS = 1_000_000


def cells_of(kind: str, size: _Size) -> int:
    """The cells of a board of the game ``kind`` of the size its records
    give (Hex ``(rows, cols)``, Havannah side ``S``)."""
    return _format_named(kind).cells(size)


def read(source: _Source, game: Optional[str] = None,
         max_cells: Optional[int] = MAX_CELLS) -> Iterator[Record]:
    """The records of a record file, in order, as :class:`Record` objects.

    ``source`` is a path, ``"-"`` for standard input, or the record's bytes.
    A file may hold a collection of games; each follows its main line.
    ``game`` (a game's name, ``"hex"`` or ``"havannah"``: see
    :func:`havhex.games.names`) is the game of records without GM[]; by
    default GM[] says it, or the extension (``.hgf``: Little Golem
    Havannah); a game whose descriptor has no record format is a
    ValueError.  The file is read in pieces and games are made one at a
    time, so memory follows one game; broken SGF (a NUL byte among them)
    raises :class:`havhex.InputError` (``FILE:LINE: reason``) when the
    iteration reaches it, having read no further than the piece that holds
    the fault.  A game whose board has more than ``max_cells`` cells
    (default :data:`MAX_CELLS`; None: no bound but the boards') raises
    :class:`havhex.InputError` naming its line, before anything of its
    board is made.
    """
    _check_max_cells(max_cells)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return read_bytes(bytes(source), "<bytes>", game, max_cells=max_cells)
    fixed = _fixed(game)
    read_piece, close, name = _open(source)
    return _read_stream(read_piece, close, name, fixed, max_cells)


def _check_max_cells(max_cells: object) -> None:
    if max_cells is not None and (not isinstance(max_cells, int) or isinstance(max_cells, bool)
                                  or max_cells < 1):
        raise ValueError(f"max_cells must be a positive int or None, not {max_cells!r}")


def read_one(source: _Source, index: int, game: Optional[str] = None,
             max_cells: Optional[int] = MAX_CELLS) -> Record:
    """Record ``index`` (counted from 1) of a record file, read as
    :func:`read` reads it, no further than that record; a file of fewer
    records raises :class:`havhex.InputError` naming the file and how many
    it holds."""
    count = 0
    for record in read(source, game, max_cells):
        count += 1
        if record.index == index:
            return record
    from .._source import is_stdin

    if isinstance(source, (bytes, bytearray, memoryview)):
        name = "<bytes>"
    else:
        name = "<stdin>" if is_stdin(source) else os.fsdecode(source)
    held = "no game" if not count else "1 game" if count == 1 else f"{count} games"
    raise InputError(f"there is no game #{index} (the file holds {held})", name)
