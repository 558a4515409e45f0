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

__all__ = ["Game", "read", "read_bytes", "GAMES", "EXTENSIONS", "MAX_CELLS"]

GAMES = ("hex", "havannah")
# A record without GM[] is taken by its file's extension (Little Golem's
# Havannah files have none); GM[11] is Hex in the SGF list of games.
EXTENSIONS = {".hgf": "havannah", ".hsgf": "hex"}
HEX_GM = b"11"
HEX_DEFAULT_SIZE = 11         # the SGF Hex specification's default
SPECIAL = {1: "swap", 2: "swap-pieces", 3: "swap-sides", 4: "resign", 5: "forfeit", 6: "pass"}
CELL, OFF_BOARD, UNREADABLE = 0, 7, 8


# Every byte of SGF's syntax and of ASCII text: a charset that reads and
# writes these as ASCII does can carry a record.
_ASCII = bytes(range(0x20, 0x7F)) + b"\t\n\r"
_CODECS = {}


def text_codec(charset):
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


def _text(value, charset=None):
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


def shown_name(name):
    """A file name as output shows it: bytes of the name that are not UTF-8
    (which ``os.fsdecode`` keeps as lone surrogates, which neither JSON nor a
    UTF-8 stream can carry) become U+FFFD."""
    if name.isascii():
        return name
    try:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:       # a surrogate that stands for no byte
        return name.encode("utf-8", "replace").decode("utf-8")


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


def _decider(game, max_cells=None):
    """The ``decide`` callback of ``_reader.scan`` for a record whose game is
    ``game`` when it has no GM[] (None: GM[] must say), refusing boards of
    more than ``max_cells`` cells (None: only those the boards refuse)."""
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
            _check_cells("hex", (rows, cols), size[0] if size else b"11", line)
            return _reader.GAME_CODES["hex"], rows, cols
        if not size:
            raise InputError("a Havannah record needs SZ[] (the side length)", None, line)
        base = _number(size[0], "SZ", line)
        if not 2 <= base <= havannah_board.MAX_BOARD_SIZE:
            raise InputError(f"SZ[{base}]: a Havannah board's side is 2 to "
                             f"{havannah_board.MAX_BOARD_SIZE}", None, line)
        _check_cells("havannah", base, size[0], line)
        return _reader.GAME_CODES["havannah"], base, 0

    def _check_cells(kind, size, declared, line):
        if max_cells is not None and cells_of(kind, size) > max_cells:
            raise InputError(too_many_cells(kind, size, declared, max_cells), None, line)

    return decide


def too_many_cells(kind, size, declared, max_cells):
    """The reason a board of more than ``max_cells`` cells is refused."""
    return (f"SZ[{_plain(declared)}]: a {'Havannah' if kind == 'havannah' else 'Hex'} board "
            f"of {cells_of(kind, size):,} cells, more than the {max_cells:,} allowed "
            f"(max_cells=, havhex --max-cells)")


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


def read_bytes(data, source="<bytes>", game=None, first_index=1, first_line=1,
               max_cells=None, at_start=None):
    """The games of ``data`` (a bytes-like object), as an iterator of
    :class:`Game`, read one at a time.  ``game`` says the game of records
    without GM[] (else the extension of ``source`` does).  A syntax fault
    raises :class:`havhex.InputError` naming ``source`` and the line when the
    iteration reaches it; so does a board of more than ``max_cells`` cells
    (None: no bound but the boards').  ``at_start`` (default: ``first_index``
    and ``first_line`` are 1) says that ``data`` begins its file, where a
    byte order mark may stand."""
    if at_start is None:
        at_start = first_index == 1 and first_line == 1
    return _games_of(data, source, _decider(_kind_of(source, game), max_cells), first_index,
                     first_line, at_start)


def _games_of(data, source, decide, first_index, first_line, at_start):
    havannah = _reader.GAME_CODES["havannah"]
    make = Game._make
    number = first_index
    games = _reader.Scan(memoryview(data).cast("B"), decide, first_line, at_start)
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


# Bytes read at a time: a record is read in pieces of at least this size (a
# game longer than the pieces read so far doubles the next read, so that
# each byte is checked a bounded number of times), and each piece is checked
# before the next is read, so that an endless or binary input fails at its
# first bad byte with no more than a piece in memory.
PIECE_BYTES = 1 << 16
_BOM = b"\xef\xbb\xbf"
# The bytes a fault's message may show from where it stands (_reader._fault).
_SHOWN_AFTER_FAULT = 16


def _open(source):
    """``(read, close, name)`` of a record that is a path or ``"-"``:
    ``read(n)`` gives at most ``n`` bytes, as they come (b"" at the end)."""
    from .._source import is_stdin

    if is_stdin(source):
        import sys

        stream = sys.stdin
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


def _pieces(read, name, tail=False):
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


def _read_stream(read, close, name, game, max_cells):
    try:
        decide = _decider(_kind_of(name, game), max_cells)
        first = True
        for piece, games, index, line in _pieces(read, name):
            if games:
                yield from _games_of(piece, name, decide, index, line, first)
            first = False
    finally:
        close()


def load(source):
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


def cells_of(kind, size):
    """The cells of a board: Hex ``(rows, cols)``, Havannah side ``S``."""
    if kind == "havannah":
        return 3 * size * (size - 1) + 1
    return size[0] * size[1]


def read(source, game=None, max_cells=MAX_CELLS):
    """The games of a record file, in order, as :class:`Game` objects.

    ``source`` is a path, ``"-"`` for standard input, or the record's bytes.
    A file may hold a collection of games; each follows its main line.
    ``game`` (``"hex"`` or ``"havannah"``) is the game of records without
    GM[]; by default GM[] says it, or the extension (``.hgf``: Little Golem
    Havannah).  The file is read in pieces and games are made one at a
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
    _kind_of(None, game)
    read_piece, close, name = _open(source)
    return _read_stream(read_piece, close, name, game, max_cells)


def _check_max_cells(max_cells):
    if max_cells is not None and (not isinstance(max_cells, int) or isinstance(max_cells, bool)
                                  or max_cells < 1):
        raise ValueError(f"max_cells must be a positive int or None, not {max_cells!r}")
