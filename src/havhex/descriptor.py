"""What the rest of havhex knows of one game: a :class:`Descriptor`.

Each game package describes itself once (``havhex.havannah.descriptor``,
``havhex.hex.descriptor``), and :mod:`havhex.games` finds a description by
the game's name.  The match arbiter, the GTP engine, the records, the
pictures and the command line take everything game-specific from it: the
players' words, the swap, the sizes, the board, how engines and records name
cells, and what the game can do (a ring rule, non-square boards, a contest
judge, a record format) as flags rather than tests of the game's name.

A game's board meets :class:`havhex.contract.Board`.  A leaf: it imports
nothing of havhex, so that a game package can build its descriptor without
reaching up to the registry.
"""

from __future__ import annotations

__all__ = ["Descriptor", "EngineWords", "RecordFormat", "ENGINE_FAMILIES"]

# The annotations are for type checkers only: the judges' start-up does not
# import typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Callable, Mapping, Optional, Sequence, Tuple

    from .contract import Board

# The engine families whose words a game may give (havhex's own engine,
# MoHex and the other benzene programs, morat, castro): see
# havhex.match.dialects.
ENGINE_FAMILIES = ("havhex", "benzene", "morat", "castro")


class EngineWords:
    """How one family of GTP engines speaks of one game.

    ``colours`` the words of the first and the second player;
    ``cell_name(size, move)`` and ``parse_cell(size, text)`` the family's
    cell names (``parse_cell`` raises ValueError for a word off the board);
    ``swap_word`` the engine's move for the pie rule's swap (None: it has
    none); ``swap_setup`` the command that turns the pie rule on or off, a
    format of 0 or 1 (None: none); ``setup`` commands sent once after the
    engine starts, where it lists them."""

    __slots__ = ("colours", "cell_name", "parse_cell", "swap_word", "swap_setup", "setup")

    colours: Tuple[str, ...]
    cell_name: Callable[[int, Any], str]
    parse_cell: Callable[[int, str], Any]
    swap_word: Optional[str]
    swap_setup: Optional[str]
    setup: Tuple[str, ...]

    def __init__(self, colours: Sequence[str], cell_name: Callable[[int, Any], str],
                 parse_cell: Callable[[int, str], Any], swap_word: Optional[str] = None,
                 swap_setup: Optional[str] = None, setup: Sequence[str] = ()) -> None:
        self.colours = tuple(colours)
        self.cell_name = cell_name
        self.parse_cell = parse_cell
        self.swap_word = swap_word
        self.swap_setup = swap_setup
        self.setup = tuple(setup)

    def __repr__(self) -> str:
        return f"<EngineWords {self.colours[0]}/{self.colours[1]}>"


class RecordFormat:
    """How a game's records are written and read (SGF and its dialects).

    ``extension`` the file's (``".sgf"``); ``letters`` the SGF properties
    of the first and the second player's moves (``("B", "W")``), whose
    colours are the descriptor's ``players`` in that order; ``root(size)``
    the root node's properties after ``FF[4]`` that say the game and its
    size; ``cell_name(size, move)`` a cell's name in the records on a
    board of ``size`` (the board's, or as ``read_size`` gives it; a game
    whose names do not depend on it ignores it), raising ValueError
    (``havhex.InputError``) for a cell of no board and TypeError for what
    is no cell.

    What :mod:`havhex.records` needs to read them: ``gm`` the game's code
    in SGF's ``GM[]`` (Hex's ``"11"``; None: its records carry no
    ``GM[]``, and the writer writes none); ``implied_by`` the file
    extensions that say a record without ``GM[]`` is of this game
    (``(".hgf",)``; never ``".sgf"``, which says no game); ``notation``
    the cell names the compiled reader decodes its moves in, one of
    ``havhex.records`` ``NOTATIONS`` (``"sgf-hex"``: column letters and row
    number on a board of rows x cols; ``"little-golem"``: row letter and
    place along the row on a board of base S; None: havhex reads no
    records of the game); ``read_size(value)`` the board's size from the
    root's first ``SZ[]`` value (bytes, None when there is none): an int,
    or ``(rows, cols)`` where a board has two sides, raising ValueError
    with the reason for a size it cannot be (the bounds of the game's
    board among them); ``cells(size)`` the cells of a board of that size
    (what a reader's ``max_cells`` bounds); ``setup_board(size, stones,
    mover)`` a live board that starts with ``stones``, ``(colour, cell)``
    pairs from ``AB[]``/``AW[]``, with ``mover`` (a colour, None: the
    first player) to move (None: setup stones are refused);
    ``win_kinds`` what a replayed win completed when the board's replay
    does not say (Hex's ``("chain",)``: it has one structure);
    ``little_golem`` True when the game's Little Golem records (``RU[LG]``,
    or an ``SO[]`` at littlegolem.com) name the loser in ``RE[]``.
    """

    __slots__ = ("extension", "letters", "root", "cell_name", "gm", "implied_by", "notation",
                 "read_size", "cells", "setup_board", "win_kinds", "little_golem")

    extension: str
    letters: Tuple[str, ...]
    root: Callable[[int], str]
    cell_name: Callable[[Any, Any], str]
    gm: Optional[str]
    implied_by: Tuple[str, ...]
    notation: Optional[str]
    read_size: Optional[Callable[[Optional[bytes]], Any]]
    cells: Optional[Callable[[Any], int]]
    setup_board: Optional[Callable[[Any, Sequence[Tuple[str, Any]], Optional[str]], Any]]
    win_kinds: Tuple[str, ...]
    little_golem: bool

    def __init__(self, extension: str, letters: Sequence[str], root: Callable[[int], str],
                 cell_name: Callable[[Any, Any], str], *, gm: Optional[str] = None,
                 implied_by: Sequence[str] = (), notation: Optional[str] = None,
                 read_size: Optional[Callable[[Optional[bytes]], Any]] = None,
                 cells: Optional[Callable[[Any], int]] = None,
                 setup_board: Optional[Callable[..., Any]] = None,
                 win_kinds: Sequence[str] = (), little_golem: bool = False) -> None:
        implied = tuple(implied_by)
        for suffix in implied:
            if not (isinstance(suffix, str) and suffix.startswith(".") and suffix.islower()
                    and suffix != ".sgf"):
                raise ValueError(f"implied_by takes lower-case extensions other than .sgf, "
                                 f"not {suffix!r}")
        if notation is not None and (read_size is None or cells is None):
            raise ValueError("a record format with a notation needs read_size and cells")
        self.extension = extension
        self.letters = tuple(letters)
        self.root = root
        self.cell_name = cell_name
        self.gm = gm
        self.implied_by = implied
        self.notation = notation
        self.read_size = read_size
        self.cells = cells
        self.setup_board = setup_board
        self.win_kinds = tuple(win_kinds)
        self.little_golem = little_golem

    def __repr__(self) -> str:
        return f"<RecordFormat {self.extension}>"


class Descriptor:
    """One game, as the rest of havhex sees it.

    ``name`` the word that names the game everywhere (the command line's,
    a record's, a match's); ``title`` the same for people (``"Hex"``);
    ``players`` the colour words of the first and the second player, as the
    board's ``to_move`` and ``winner`` say them; ``swap_move`` the move the
    board takes for the pie rule's swap; ``size_letter`` the letter the
    statement calls the board's size (Havannah's base S, Hex's N);
    ``default_size``, ``min_size`` and ``max_size`` the size of a board
    when none is given and the bounds an engine's ``boardsize`` and a match
    take; ``rectangular`` True when a board may have ``rows != cols``
    (``boardsize W H``); ``rules`` the ring rules its board takes (empty:
    none, the ``rule`` argument is ignored).

    ``new_board(size, rule, swap)`` makes an empty live board (of
    ``(rows, cols)`` too, for a game whose boards may be rectangles);
    ``board_size(board)`` is the size of one; ``record_size(size)`` the
    size a record of it gives (Hex's ``(rows, cols)``); ``win_reason(kinds)``
    the match's word for a win whose ``play`` returned ``kinds``;
    ``board_text(board)`` the board as ``showboard`` prints it.

    ``engines`` maps an engine family's name (:data:`ENGINE_FAMILIES`) to
    its :class:`EngineWords` for this game: a family missing from it does
    not play the game; ``colour_words`` maps a family to the colour words
    havhex's own engine takes and answers with under ``--colours`` (by
    default the family's ``engines`` colours); ``refused_words`` maps
    words a board takes but GTP does not (Hex's ``swap-sides``) to why.

    ``records`` its :class:`RecordFormat` (None: no records); ``judge`` the
    module of its contest judge (None: none), whose public ``judge_files``,
    ``file_start`` and ``file_outputs`` the command line and the cluster
    call.
    """

    __slots__ = ("name", "title", "players", "swap_move", "size_letter", "default_size",
                 "min_size", "max_size", "rectangular", "rules", "new_board", "board_size",
                 "record_size", "win_reason", "board_text", "engines", "colour_words",
                 "refused_words", "records", "judge")

    name: str
    title: str
    players: Tuple[str, ...]
    swap_move: str
    size_letter: str
    default_size: int
    min_size: int
    max_size: int
    rectangular: bool
    rules: Tuple[str, ...]
    new_board: Callable[..., Any]
    board_size: Callable[[Any], int]
    record_size: Callable[[int], Any]
    win_reason: Callable[[Sequence[str]], str]
    board_text: Callable[[Any], str]
    engines: dict[str, EngineWords]
    colour_words: dict[str, Tuple[str, ...]]
    refused_words: dict[str, str]
    records: Optional[RecordFormat]
    judge: Optional[str]

    def __init__(self, *, name: str, title: str, players: Sequence[str], swap_move: str,
                 default_size: int, min_size: int, max_size: int,
                 new_board: Callable[..., Any], board_size: Callable[[Any], int],
                 win_reason: Callable[[Sequence[str]], str],
                 engines: Mapping[str, EngineWords], size_letter: str = "N",
                 rectangular: bool = False, rules: Sequence[str] = (),
                 record_size: Optional[Callable[[int], Any]] = None,
                 board_text: Optional[Callable[[Any], str]] = None,
                 colour_words: Optional[Mapping[str, Tuple[str, ...]]] = None,
                 refused_words: Optional[Mapping[str, str]] = None,
                 records: Optional[RecordFormat] = None,
                 judge: Optional[str] = None) -> None:
        if not (isinstance(name, str) and name.isascii() and name.isidentifier()
                and name.islower()):
            raise ValueError(f"a game's name is a lower-case word, not {name!r}")
        if "havhex" not in engines:
            raise ValueError(f"game {name}: engines must give havhex's own words")
        unknown = set(engines) - set(ENGINE_FAMILIES)
        if unknown:
            raise ValueError(f"game {name}: unknown engine families {sorted(unknown)}")
        self.name = name
        self.title = title
        self.players = tuple(players)
        self.swap_move = swap_move
        self.size_letter = size_letter
        self.default_size = default_size
        self.min_size = min_size
        self.max_size = max_size
        self.rectangular = rectangular
        self.rules = tuple(rules)
        self.new_board = new_board
        self.board_size = board_size
        self.record_size = record_size if record_size is not None else _same
        self.win_reason = win_reason
        self.board_text = board_text if board_text is not None else _drawn_as_text
        self.engines = dict(engines)
        words: dict[str, Tuple[str, ...]] = {family: self.engines[family].colours
                                              for family in self.engines}
        words.update(colour_words or {})
        self.colour_words = words
        self.refused_words = dict(refused_words or {})
        self.records = records
        self.judge = judge

    def __repr__(self) -> str:
        return f"<Descriptor {self.name}>"

    def check_size(self, size: int) -> int:
        """``size`` when it is an int within the game's bounds, else
        ValueError naming them."""
        if type(size) is not int or not self.min_size <= size <= self.max_size:
            raise ValueError(f"{self.name} takes sizes {self.min_size} to {self.max_size}, "
                             f"not {size!r}")
        return size

    def judge_module(self) -> ModuleType:
        """The module of the game's contest judge, imported now; ValueError
        when the game has none."""
        if self.judge is None:
            raise ValueError(f"{self.name} has no contest judge")
        import importlib

        return importlib.import_module(self.judge)


def _same(size: int) -> int:
    return size


def _drawn_as_text(board: Board) -> str:
    return board.draw(as_text=True)
