"""Games read from records: what a record says, in the live boards' terms.

The compiled reader (``_reader``) turns bytes into each game's root
properties and its moves as rows of int32; :class:`Game` wraps one game and
makes Python objects (moves, properties as text) only when they are asked
for.
"""
import os

from .._frozen import Frozen
from ..errors import InputError
from . import _reader

__all__ = ["Game", "read", "read_bytes", "GAMES", "EXTENSIONS"]

GAMES = ("hex", "havannah")
# A record without GM[] is taken by its file's extension (Little Golem's
# Havannah files have none); GM[11] is Hex in the SGF list of games.
EXTENSIONS = {".hgf": "havannah", ".hsgf": "hex"}
HEX_GM = b"11"
HEX_DEFAULT_SIZE = 11         # the SGF Hex specification's default
SPECIAL = {1: "swap", 2: "swap-pieces", 3: "swap-sides", 4: "resign", 5: "forfeit", 6: "pass"}
CELL, OFF_BOARD, UNREADABLE = 0, 7, 8


def _text(value, charset=None):
    """A property value as text: escapes resolved (a backslash keeps the
    byte after it; a backslash before a line break removes both), decoded as
    the record's CA[] charset says, else as UTF-8 and, failing that, as
    Latin-1 (the SGF default, which every byte decodes in)."""
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
    if charset:
        try:
            return value.decode(charset, "replace")
        except LookupError:
            pass
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return value.decode("latin-1")


def _plain(value):
    """A property value for a message: as it reads when it is short
    printable ASCII, else quoted with its bytes escaped."""
    if len(value) <= 40 and all(0x20 <= byte < 0x7F for byte in value):
        return value.decode("ascii")
    return _reader._shown(value)


def _number(value, what, line):
    text = value.strip()
    if not text.isdigit() or len(text) > 9:
        raise InputError(f"{what} is not a board size: {_reader._shown(value)}", None, line)
    return int(text)


def _decider(game):
    """The ``decide`` callback of ``_reader.scan`` for a record whose game is
    ``game`` when it has no GM[] (None: GM[] must say)."""
    from ..hex import _board as hex_board
    from ..havannah import _board as havannah_board

    decided = {}

    def decide(properties, line):
        # Records of one collection mostly share GM[] and SZ[]: their answer
        # is kept (faults are not, and raise each time).
        key = (tuple(properties.get("GM", ())), tuple(properties.get("SZ", ())))
        answer = decided.get(key)
        if answer is None:
            answer = decided[key] = decide_afresh(properties, line)
        return answer

    def decide_afresh(properties, line):
        gm = properties.get("GM")
        if gm:
            if gm[0].strip() != HEX_GM:
                raise InputError(f"GM[{_plain(gm[0])}] is not a game havhex replays (Hex is "
                                 f"GM[11]; Little Golem's Havannah records have no GM[])",
                                 None, line)
            kind = "hex"
        elif game is None:
            raise InputError("no GM[] to say the game (Hex is GM[11]), and no known file "
                             "extension (.hgf is Little Golem Havannah)", None, line)
        else:
            kind = game
        size = properties.get("SZ")
        if kind == "hex":
            if not size:
                rows = cols = HEX_DEFAULT_SIZE
            else:
                # SZ[n], or SZ[columns:rows] for a board that is not square.
                parts = size[0].split(b":")
                if len(parts) > 2:
                    raise InputError(f"SZ is not a board size: {_reader._shown(size[0])}", None, line)
                cols = _number(parts[0], "SZ", line)
                rows = _number(parts[-1], "SZ", line)
                if rows < 1 or cols < 1 or (rows + 2) * (cols + 1) + 4 > hex_board.MAX_CELLS:
                    raise InputError(f"SZ[{_plain(size[0])}]: a Hex board has 1 to "
                                     f"{hex_board.MAX_CELLS} cells", None, line)
            return _reader.GAME_CODES["hex"], rows, cols
        if not size:
            raise InputError("a Havannah record needs SZ[] (the side length)", None, line)
        base = _number(size[0], "SZ", line)
        if not 2 <= base <= havannah_board.MAX_BOARD_SIZE:
            raise InputError(f"SZ[{base}]: a Havannah board's side is 2 to "
                             f"{havannah_board.MAX_BOARD_SIZE}", None, line)
        return _reader.GAME_CODES["havannah"], base, 0

    return decide


class Game(Frozen):
    """One game of a record, immutable.

    ``source`` names the file; ``index`` is the game's number in it, from
    1; ``line`` the line where its tree starts; ``kind`` ``"hex"`` or
    ``"havannah"``; ``size`` the Havannah base S, or Hex's ``(rows, cols)``.
    ``moves`` is the main line's moves, ``(letter, move)`` pairs: ``letter``
    ``"B"`` or ``"W"`` as the record writes it, ``move`` a cell in the live
    board's coordinates (Hex ``(row, col)`` from 0, Havannah ``(x, y)``) or
    one of ``"swap"``, ``"swap-pieces"``, ``"swap-sides"``, ``"resign"``,
    ``"forfeit"``, ``"pass"``; a value that is no cell of the board is kept
    as its text.  ``setup`` holds the ``(letter, cell)`` stones of AB[]/AW[];
    ``result`` the RE[] text or None; ``recorded`` the winner the record
    names, ``"B"``, ``"W"`` or None (Little Golem's Havannah records name the
    loser in RE[]: read through that); ``properties`` the root node's
    properties as ``{name: (text, ...)}``.  Colours: in Hex, B is the
    board's red (moves first, joins top and bottom) and W blue; in Havannah,
    W moves first and is the board's white, B black.
    """

    __slots__ = ("source", "index", "line", "kind", "size", "_scanned", "_cache")

    @classmethod
    def _make(cls, source, index, line, kind, size, scanned):
        # Field by field (a game is made per record game: Frozen._build's
        # keyword loop would cost more than the rest of reading it).
        self = object.__new__(cls)
        setattr = object.__setattr__
        setattr(self, "source", source)
        setattr(self, "index", index)
        setattr(self, "line", line)
        setattr(self, "kind", kind)
        setattr(self, "size", size)
        setattr(self, "_scanned", scanned)
        setattr(self, "_cache", {})
        return self

    def __repr__(self):
        size = self.size if self.kind == "havannah" else "x".join(map(str, self.size))
        return (f"<havhex.records.Game {self.source}#{self.index} {self.kind} {size}: "
                f"{self._scanned.n_stones} moves>")

    def __eq__(self, other):
        if not isinstance(other, Game):
            return NotImplemented
        return (self.kind, self.size, self.moves, self.setup, self.properties) == \
               (other.kind, other.size, other.moves, other.setup, other.properties)

    def __hash__(self):
        return hash((self.kind, self.size, self.moves))

    def __reduce__(self):
        return (_game_from_parts, (self.source, self.index, self.line, self.kind, self.size,
                                   self._scanned.properties, self._scanned.moves,
                                   self._scanned.raw))

    def _cached(self, name, make):
        value = self._cache.get(name)
        if value is None:
            value = self._cache[name] = make()
        return value

    @property
    def properties(self):
        def make():
            charset = self._scanned.properties.get("CA")
            charset = _text(charset[0]).strip() if charset else None
            return {name: tuple(_text(value, charset) for value in values)
                    for name, values in self._scanned.properties.items()}
        return self._cached("properties", make)

    @property
    def moves(self):
        def make():
            rows = memoryview(self._scanned.moves).cast("i")
            raw = self._scanned.raw or {}
            moves = []
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
    def setup(self):
        def make():
            stones = []
            for name, letter in (("AB", "B"), ("AW", "W")):
                for value in self._scanned.properties.get(name, ()):
                    stones.append((letter, self._setup_cell(value)))
            return tuple(stones)
        return self._cached("setup", make)

    def _setup_cell(self, value):
        rows, cols = (self.size, 0) if self.kind == "havannah" else self.size
        kind, a, b = _reader.decode_move(value, _reader.GAME_CODES[self.kind], rows, cols)
        if kind != CELL:
            raise InputError(f"a setup stone (AB[]/AW[]) is not a cell of the board: "
                             f"{_reader._shown(value)}", self.source, self.line)
        return (a, b)

    @property
    def result(self):
        values = self.properties.get("RE")
        return values[0] if values else None

    @property
    def is_little_golem(self):
        """A Little Golem Havannah record (RU[LG] or a littlegolem.com SO[]),
        whose RE[] names the loser."""
        return self.kind == "havannah" and _little_golem(self._scanned.properties)

    @property
    def recorded(self):
        return _recorded(self._scanned.properties, self.kind)

    def board(self, rule="official"):
        """A fresh live board for this game, its setup stones on it (swaps
        allowed, as records use them); ``rule`` is Havannah's ring rule."""
        board_class = _board_classes()[self.kind]
        setup = "AB" in self._scanned.properties or "AW" in self._scanned.properties
        if self.kind == "havannah":
            if setup:
                raise InputError("setup stones (AB[]/AW[]) on a Havannah record are not "
                                 "supported", self.source, self.line)
            return board_class(self.size, rule, True)
        rows, cols = self.size
        if not setup:
            return board_class(rows, cols, True)
        cells = bytearray(rows * cols)
        for letter, (row, col) in self.setup:
            cells[row * cols + col] = 1 if letter == "B" else 2
        mover = None
        player = self._scanned.properties.get("PL")
        if player:
            mover = "red" if _text(player[0]).strip().upper().startswith("B") else "blue"
        elif self._scanned.n_rows:
            mover = "red" if self.moves[0][0] == "B" else "blue"
        return board_class._from_start(rows, cols, True, bytes(cells), mover)


def _little_golem(properties):
    rules = properties.get("RU")
    origin = properties.get("SO")
    return bool((rules and rules[0].strip().upper() == b"LG")
                or (origin and b"littlegolem" in origin[0].lower()))


def _recorded(properties, kind):
    """The winner RE[] names, "B", "W" or None (a draw, "?", "Void", none)."""
    result = properties.get("RE")
    if not result:
        return None
    text = result[0].strip().upper()
    if not text or text[:1] not in (b"B", b"W") or (len(text) > 1 and text[1:2] != b"+"):
        return None
    letter = "B" if text[:1] == b"B" else "W"
    if kind == "havannah" and _little_golem(properties):
        return "W" if letter == "B" else "B"
    return letter


def _board_classes():
    global _BOARDS
    if _BOARDS is None:
        from ..havannah.board import Board as HavannahBoard
        from ..hex.board import Board as HexBoard

        _BOARDS = {"havannah": HavannahBoard, "hex": HexBoard}
    return _BOARDS


_BOARDS = None


def _game_from_parts(source, index, line, kind, size, properties, moves, raw):
    code = _reader.GAME_CODES[kind]
    rows, cols = (size, 0) if kind == "havannah" else size
    scanned = _reader.Scanned._from_parts(line, properties, moves, raw, code, rows, cols)
    return Game._make(source, index, line, kind, size, scanned)


def _kind_of(source_name, game):
    if game is not None:
        if game not in GAMES:
            raise ValueError(f"game must be 'hex' or 'havannah' (or None), not {game!r}")
        return game
    if source_name:
        return EXTENSIONS.get(os.path.splitext(source_name)[1].lower())
    return None


def read_bytes(data, source="<bytes>", game=None, first_index=1, first_line=1):
    """The games of ``data`` (a bytes-like object), as an iterator of
    :class:`Game`, read one at a time.  ``game`` says the game of records
    without GM[] (else the extension of ``source`` does).  A syntax fault
    raises :class:`havhex.InputError` naming ``source`` and the line when the
    iteration reaches it."""
    kind = _kind_of(source, game)
    havannah = _reader.GAME_CODES["havannah"]
    make = Game._make
    number = first_index
    games = _reader.Scan(memoryview(data).cast("B"), _decider(kind), first_line)
    while True:
        try:
            item = next(games)
        except StopIteration:
            return
        except InputError as error:
            raise InputError(error.reason, source, error.line) from None
        if item.game_code == havannah:
            yield make(source, number, item.line, "havannah", item.rows, item)
        else:
            yield make(source, number, item.line, "hex", (item.rows, item.cols), item)
        number += 1


def load(source):
    """``(bytes, name)`` of a record: a path, ``"-"`` (standard input) or bytes."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "<bytes>"
    from .._source import is_stdin

    if is_stdin(source):
        import sys

        stream = sys.stdin
        if stream is None:
            raise InputError("standard input is closed", "<stdin>")
        return getattr(stream, "buffer", stream).read(), "<stdin>"
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"a record is a path, '-' or bytes, not {type(source).__name__}")
    name = os.fsdecode(source)
    if os.path.isdir(source):
        raise InputError("is a directory", name)
    try:
        with open(source, "rb") as stream:
            return stream.read(), name
    except OSError as error:
        raise InputError(f"cannot open: {error.strerror}", name) from None


def read(source, game=None):
    """The games of a record file, in order, as :class:`Game` objects.

    ``source`` is a path, ``"-"`` for standard input, or the record's bytes.
    A file may hold a collection of games; each follows its main line.
    ``game`` (``"hex"`` or ``"havannah"``) is the game of records without
    GM[]; by default GM[] says it, or the extension (``.hgf``: Little Golem
    Havannah).  Games are read one at a time, so memory follows one game;
    broken SGF raises :class:`havhex.InputError` (``FILE:LINE: reason``)
    when the iteration reaches it (``havhex replay`` then prints none of
    that file's output).
    """
    data, name = load(source)
    return read_bytes(data, name, game)
