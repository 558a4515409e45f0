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

__all__ = ["Descriptor", "EngineWords", "RecordFormat", "FileJudge", "Pictures",
           "ENGINE_FAMILIES"]

# The annotations are for type checkers only: the judges' start-up does not
# import typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Callable, Collection, Mapping, Optional, Sequence, Tuple

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


class FileJudge:
    """How the command line and the cluster judge whole files of a game's
    contest input: its judge module's ``FILE_JUDGE``.

    ``start(threads)`` a file's engine input and the function that reads
    and judges the file's data into it on ``threads`` threads;
    ``outputs(parsed, source, explain)`` a judged input's list of results,
    or with ``explain`` an iterator over its explanations (its fault raised
    here); ``files(files, threads, explain=False, progress_for=None)`` the
    outputs of many files, judged side by side (havhex._files), each in its
    turn; ``explains_side_by_side`` False when ``files`` cannot build
    explanations (they are then built file by file, on every thread).

    For a cluster, which cuts a large input into runs of whole cases:
    ``case_walk`` the code of the input's format for
    ``havhex._boundaries.CaseWalk``; ``empty_case`` the text of a case with
    no move, ``empty_case_lines`` its lines (a run is judged behind that
    many of them so that the judge's words name the file's case numbers)."""

    __slots__ = ("start", "outputs", "files", "explains_side_by_side", "case_walk",
                 "empty_case", "empty_case_lines")

    start: Callable[[int], Tuple[Any, Callable[[Any], Any]]]
    outputs: Callable[[Any, str, bool], Any]
    files: Callable[..., Any]
    explains_side_by_side: bool
    case_walk: int
    empty_case: bytes
    empty_case_lines: int

    def __init__(self, start: Callable[[int], Tuple[Any, Callable[[Any], Any]]],
                 outputs: Callable[[Any, str, bool], Any], files: Callable[..., Any], *,
                 explains_side_by_side: bool, case_walk: int, empty_case: bytes,
                 empty_case_lines: int) -> None:
        self.start = start
        self.outputs = outputs
        self.files = files
        self.explains_side_by_side = explains_side_by_side
        self.case_walk = case_walk
        self.empty_case = empty_case
        self.empty_case_lines = empty_case_lines

    def __repr__(self) -> str:
        return "<FileJudge>"


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
    dotted name of its contest judge's module (None: none) and
    ``judge_summary`` what the judge answers, in a line (``havhex GAME``'s
    help), whose
    ``FILE_JUDGE`` (:class:`FileJudge`) the command line and the cluster
    call (:meth:`file_judge`).

    ``pictures`` how :mod:`havhex.draw` draws the game (a :class:`Pictures`;
    None: it draws none of it).

    ``batch`` the dotted name of the module of its batched environment
    (None: none): its ``Batch(n, ...)``, n games with the fields and
    auto-reset modes of the built-in batches, and ``PLANES``, the names of
    the observation's planes (``"own"`` and ``"opponent"`` among them),
    which :mod:`havhex.gymnasium` and :mod:`havhex.pettingzoo` adapt; it is
    imported only when an environment is made (:meth:`batch_module`).

    ``search`` the dotted name of the module of its part of the tree search
    (None: none): its ``accepts(board)``, whether a live board is the
    game's, ``SearchCore``, the compiled search over one such board,
    which :mod:`havhex.search` drives, and ``BatchSearchCore``, the trees
    of :class:`havhex.search.BatchSearch` over its batch's positions; it is
    imported only when a search is made (:meth:`search_module`).
    ``rave_reference`` the simulations of a move at which the engine's
    RAVE k is its set value, past which k grows with their square (None:
    k stays; see :class:`havhex.gtp.players.SearchPlayer`).
    """

    __slots__ = ("name", "title", "players", "swap_move", "size_letter", "default_size",
                 "min_size", "max_size", "rectangular", "rules", "new_board", "board_size",
                 "record_size", "win_reason", "board_text", "engines", "colour_words",
                 "refused_words", "records", "judge", "judge_summary",
                 # havhex.draw
                 "pictures",
                 # havhex.gymnasium, havhex.pettingzoo
                 "batch",
                 # havhex.search
                 "search", "rave_reference")

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
    judge_summary: Optional[str]
    pictures: Optional[Pictures]
    batch: Optional[str]
    search: Optional[str]
    rave_reference: Optional[float]

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
                 judge: Optional[str] = None, judge_summary: Optional[str] = None,
                 pictures: Optional[Pictures] = None,
                 batch: Optional[str] = None, search: Optional[str] = None,
                 rave_reference: Optional[float] = None) -> None:
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
        self.judge_summary = judge_summary
        self.pictures = pictures
        self.batch = batch
        self.search = search
        self.rave_reference = rave_reference

    def __repr__(self) -> str:
        return f"<Descriptor {self.name}>"

    def judge_module(self) -> ModuleType:
        """The module of the game's contest judge, imported now; ValueError
        when the game has none."""
        if self.judge is None:
            raise ValueError(f"{self.name} has no contest judge")
        import importlib

        return importlib.import_module(self.judge)

    def file_judge(self) -> FileJudge:
        """The :class:`FileJudge` of the game's contest judge, its module
        imported now; ValueError when the game has none."""
        found: FileJudge = self.judge_module().FILE_JUDGE
        return found

    def batch_module(self) -> ModuleType:
        """The module of the game's batched environment (its ``Batch`` and
        ``PLANES``), imported now; ValueError when the game has none."""
        if self.batch is None:
            raise ValueError(f"{self.name} has no batched environment")
        import importlib

        return importlib.import_module(self.batch)

    def search_module(self) -> ModuleType:
        """The module of the game's part of the tree search (its
        ``accepts`` and ``SearchCore``), imported now; ValueError when the
        game has none."""
        if self.search is None:
            raise ValueError(f"{self.name} has no tree search")
        import importlib

        return importlib.import_module(self.search)


def _same(size: int) -> int:
    return size


def _drawn_as_text(board: Board) -> str:
    return board.draw(as_text=True)


# ---------------------------------------------------------------------------
# Pictures (havhex.draw)
# ---------------------------------------------------------------------------

class Pictures:
    """How :mod:`havhex.draw` draws one game; a descriptor's ``pictures``.

    A game's picture code is imported only when a hook is called, so that
    a descriptor stays light to import.  ``size`` is the board's size as
    the game's boards and records give it (Havannah's base S, Hex's N or
    ``(rows, cols)``); a cell is a pair of ints in the live board's
    coordinates.

    A case of the judge's input (``havhex draw GAME FILE --case N``):
    ``svg_max`` and ``text_max`` the largest size (the descriptor's
    ``size_letter``) the SVG picture and the text view show (None: any);
    ``header`` how many numbers open a case (its size first) and
    ``case_tokens(numbers)`` how many tokens follow them in the case, so
    that draw reaches a case's header without reading the input;
    ``draw_case(judge, file, number, as_text=..., heading=..., check_size=...)``
    the picture of case ``number`` (1-based) of ``file``, read once with
    the judge module ``judge`` (the descriptor's ``judge_module()``), as a
    str: the SVG document, or with ``as_text`` the text view;
    ``heading(source)`` its heading, ``check_size(size, source)`` called
    before the case's stones are read, raising for a board draw will not
    show (None: the game has no pictures of a case).

    A game move by move (:mod:`havhex.draw.page`): ``page_size(size)`` the
    size as the hooks below take it; ``page_refusal(size)`` why the page
    will not draw such a board (None: it draws it); ``cells(size)`` every
    cell, in drawing order; ``coordinates`` the names of a hexagon's two
    data attributes (``("data-x", "data-y")``); ``centre(cell)`` the
    hexagon's centre ``(x, y)`` and ``cell_path(cell)`` its outline (an SVG
    path's ``d``); ``frame(size)`` ``(markup, box)``: the board's frame, as
    a list of SVG elements under the hexagons, and the drawing's
    ``(min_x, min_y, max_x, max_y)``; ``corners(size)`` the cells drawn as
    corners; ``labels(size)`` SVG elements over the hexagons (the axes'
    names); ``swatch(x, y, classes)`` a legend's hexagon; ``style()`` the
    CSS of the game's hexagons and stones; ``size_text(size)`` the board's
    size in a summary (``"S = 4"``, ``"7 x 7"``); ``swap_changes(move,
    stones)`` what the swap ``move`` the board took did to ``stones``
    (``{cell: colour}``), as ``[(cell, colour)]`` (colour ``""``: the stone
    leaves); ``structure(size, explanation, stones)`` the winning
    structure of the board's ``explain()`` with ``stones`` (``{cell:
    colour}``, ``""`` empty) at the win, as ``(what, marks, under, over)``:
    what was won (``"bridge"``), ``{cell: [classes]}`` of its hexagons, and
    SVG elements under and over the hexagons.

    ``module`` the dotted name of the game's picture module and ``exports``
    the names of it that :mod:`havhex.draw` and :mod:`havhex.draw.page`
    offer as their own (the names they had before the games described
    their pictures).
    """

    __slots__ = ("svg_max", "text_max", "header", "case_tokens", "draw_case", "page_size",
                 "page_refusal", "cells", "coordinates", "centre", "cell_path", "frame",
                 "corners", "labels", "swatch", "style", "size_text", "swap_changes",
                 "structure", "module", "exports")

    svg_max: Optional[int]
    text_max: Optional[int]
    header: int
    case_tokens: Optional[Callable[[Tuple[int, ...]], int]]
    draw_case: Optional[Callable[..., str]]
    page_size: Callable[[Any], Any]
    page_refusal: Callable[[Any], Optional[str]]
    cells: Callable[[Any], Sequence[Tuple[int, int]]]
    coordinates: Tuple[str, str]
    centre: Callable[[Tuple[int, int]], Tuple[float, float]]
    cell_path: Callable[[Tuple[int, int]], str]
    frame: Callable[[Any], Tuple[Sequence[str], Tuple[float, float, float, float]]]
    corners: Callable[[Any], Collection[Tuple[int, int]]]
    labels: Callable[[Any], Sequence[str]]
    swatch: Callable[[float, float, str], str]
    style: Callable[[], str]
    size_text: Callable[[Any], str]
    swap_changes: Callable[[str, Mapping[Tuple[int, int], str]],
                           Sequence[Tuple[Tuple[int, int], str]]]
    structure: Callable[[Any, Any, Mapping[Tuple[int, int], str]],
                        Tuple[str, Mapping[Tuple[int, int], Sequence[str]],
                              Sequence[str], Sequence[str]]]
    module: Optional[str]
    exports: Tuple[str, ...]

    def __init__(self, *, page_size: Callable[[Any], Any],
                 page_refusal: Callable[[Any], Optional[str]],
                 cells: Callable[[Any], Sequence[Tuple[int, int]]],
                 coordinates: Sequence[str],
                 centre: Callable[[Tuple[int, int]], Tuple[float, float]],
                 cell_path: Callable[[Tuple[int, int]], str],
                 frame: Callable[[Any], Tuple[Sequence[str],
                                              Tuple[float, float, float, float]]],
                 swatch: Callable[[float, float, str], str],
                 style: Callable[[], str],
                 size_text: Callable[[Any], str],
                 swap_changes: Callable[..., Sequence[Tuple[Tuple[int, int], str]]],
                 structure: Callable[..., Tuple[Any, ...]],
                 corners: Optional[Callable[[Any], Collection[Tuple[int, int]]]] = None,
                 labels: Optional[Callable[[Any], Sequence[str]]] = None,
                 svg_max: Optional[int] = None, text_max: Optional[int] = None,
                 header: int = 1,
                 case_tokens: Optional[Callable[[Tuple[int, ...]], int]] = None,
                 draw_case: Optional[Callable[..., str]] = None,
                 module: Optional[str] = None, exports: Sequence[str] = ()) -> None:
        if draw_case is not None and case_tokens is None:
            raise ValueError("pictures of a case need case_tokens, to reach its header")
        if len(coordinates) != 2:
            raise ValueError(f"coordinates names two data attributes, not {coordinates!r}")
        self.svg_max = svg_max
        self.text_max = text_max
        self.header = header
        self.case_tokens = case_tokens
        self.draw_case = draw_case
        self.page_size = page_size
        self.page_refusal = page_refusal
        self.cells = cells
        self.coordinates = (coordinates[0], coordinates[1])
        self.centre = centre
        self.cell_path = cell_path
        self.frame = frame
        self.corners = corners if corners is not None else _none
        self.labels = labels if labels is not None else _none
        self.swatch = swatch
        self.style = style
        self.size_text = size_text
        self.swap_changes = swap_changes
        self.structure = structure
        self.module = module
        self.exports = tuple(exports)

    def __repr__(self) -> str:
        return f"<Pictures {self.module or 'of a game'}>"


def _none(size: Any) -> Tuple[()]:
    return ()
