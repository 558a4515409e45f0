"""Pictures of one case: an SVG drawing, or a text view for small boards.

``havhex draw GAME FILE --case N [--text]`` calls :func:`draw_command`, which
returns the whole picture as a string; ``havhex draw record FILE --game N
[--move K] [--html]`` calls :func:`draw_record`, which draws a game of a
record move by move (:mod:`.page`).  The drawing functions themselves are
pure: they take the board and the judge's witness (the explanation) and build
the text; they never judge anything.

Every drawn hexagon is one ``<path class="cell ...">`` with ``data-x``/``data-y``
(Havannah) or ``data-row``/``data-col`` (Hex); cells of a winning structure
carry its name as a class (``bridge``, ``fork``, ``ring``, ``enclosed``,
``chain``, ``last-move``).  The document's ``<title>`` is the answer.

The pictures of a position live below the boards, so that a board can draw
itself: each game's picture module (:mod:`havhex.havannah.picture`,
:mod:`havhex.hex.picture`) draws it, :mod:`havhex._svg` holds what they
share.  What is drawn of a game, and how, comes from its descriptor's
``pictures`` (:class:`havhex.descriptor.Pictures`): this package names no
game.  Here are what draws a case or a record: :mod:`.header` measures a
case from its header, :mod:`.page` draws a game move by move, :mod:`.review`
draws the search's win rates and the page of a reviewed game.  This package
is imported only by the ``draw`` and ``analyse`` commands, never by
``import havhex``.
"""
from __future__ import annotations

import os

from .. import games
from ..errors import InputError
from .header import case_header
from .page import (GameSteps, game_page, game_steps, picture_module_name, pictured,
                   position_svg)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Iterable, List, Literal, Mapping, Optional, Sequence, Tuple, Union

    from .._explanation import Explanation
    from ..descriptor import Descriptor
    from ..records import Record

    _FileArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
    # An Explanation of the game, or its to_dict() record.
    _Witness = Union[Explanation, Mapping[str, Any]]

    # The names of the games' picture modules, found through the
    # descriptors (__getattr__).
    HAVANNAH_TEXT_MAX: int
    HAVANNAH_SVG_STONES_MAX: int
    HEX_TEXT_MAX: int
    HEX_SVG_MAX: int
    HAVANNAH_EDGES: Tuple[str, str, str, str, str, str]

    def havannah_svg(size: int, moves: Iterable[Sequence[int]], explanation: _Witness, *,
                     heading: Optional[str] = ..., total_moves: Optional[int] = ...,
                     others: Iterable[Sequence[int]] = ...,
                     last_move: Optional[Sequence[int]] = ...) -> str: ...
    def havannah_text(size: int, moves: Iterable[Sequence[int]], explanation: _Witness, *,
                      heading: Optional[str] = ...) -> str: ...
    def hex_svg(rows: Sequence[str], explanation: _Witness, *,
                heading: Optional[str] = ..., last_move: Optional[Sequence[int]] = ...) -> str: ...
    def hex_text(rows: Sequence[str], explanation: _Witness, *,
                 heading: Optional[str] = ...) -> str: ...

__all__ = [
    "draw_command", "draw_record", "record_steps", "game_steps", "game_page", "position_svg", "havannah_svg", "havannah_text", "hex_svg", "hex_text",
    "HAVANNAH_TEXT_MAX", "HAVANNAH_SVG_STONES_MAX", "HEX_TEXT_MAX", "HEX_SVG_MAX",
    "HAVANNAH_EDGES",
]


def __getattr__(name: str) -> Any:
    # The names of the games' picture modules this package offered before
    # the games described their pictures.
    found = picture_module_name(name) if name in __all__ else None
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return found


def draw_command(game: Union[str, Descriptor], file: _FileArg, case: int,
                 as_text: bool = False) -> str:
    """The picture of case ``case`` (1-based) of ``file`` (a path or ``"-"``).

    ``game`` is the game's name (or its :class:`~havhex.descriptor.Descriptor`).
    Returns the SVG document (or, with ``as_text``, the text view) as a str.
    Faults in the input, a case the input does not hold and a case beyond what
    a picture can show (the descriptor's ``pictures.svg_max`` and
    ``text_max``) raise :class:`havhex.InputError`; a regular file's case is
    measured from its header before anything else is read.
    """
    descriptor = pictured(game, cases=True)
    header = case_header(file, descriptor, case)
    if header is not None:
        _check_board_size(descriptor, header[0], as_text, case, _source_name(file))

    def check_size(size: int, source: str) -> None:
        _check_board_size(descriptor, size, as_text, case, source)

    if TYPE_CHECKING:
        # pictured(cases=True) gives a descriptor with pictures of a case.
        assert descriptor.pictures is not None and descriptor.pictures.draw_case is not None
    return descriptor.pictures.draw_case(
        descriptor.judge_module(), file, case, as_text=as_text,
        heading=lambda source: f"{source}, case #{case}", check_size=check_size)


def draw_record(file: _FileArg, record: int = 1, move: Optional[int] = None, html: bool = False,
                rule: Literal["official", "contest"] = "official",
                game: Union[str, int, None] = None, max_cells: Optional[int] = None, *,
                kind: Optional[str] = None) -> str:
    """Record ``record`` (1-based) of a record file (SGF Hex, Little Golem
    ``.hgf``; a path or ``"-"``): the SVG of the position after ``move``
    moves (default the winning move, else the last), or with ``html`` the
    page that steps through the game, opened there.  ``rule`` is Havannah's
    ring rule; ``game`` (the game of records without GM[]) and
    ``max_cells`` (None: :data:`havhex.records.MAX_CELLS`) as for
    :func:`havhex.records.read`.  Broken records, a record or a move the
    file does not hold and a board beyond the pictures raise
    :class:`havhex.InputError` (``FILE:LINE``, the line where the game
    starts).

    The names before 0.2, kept for one release with a DeprecationWarning:
    ``game=N``, a number, for ``record=N``, and ``kind=`` for ``game=``."""
    from ..records.game import MAX_CELLS, read_one

    if isinstance(game, int) or kind is not None:
        import warnings

        if isinstance(game, int):
            warnings.warn("draw_record(game=N) is deprecated: use record=N",
                          DeprecationWarning, stacklevel=2)
            record, game = game, None
        if kind is not None:
            warnings.warn("draw_record(kind=) is deprecated: use game=", DeprecationWarning,
                          stacklevel=2)
            game = kind if game is None else game
    # read_one's types name no os.PathLike[bytes], which it opens as it
    # opens any other path.
    found = read_one(file, record, game,  # type: ignore[arg-type]
                     MAX_CELLS if max_cells is None else max_cells)
    return _drawn(found, move, html, rule)


def _drawn(record: Record, move: Optional[int], html: bool,
           rule: Literal["official", "contest"]) -> str:
    """The SVG (or with ``html`` the page) of ``record`` after ``move``."""
    steps = record_steps(record, rule)
    if move is not None and move > len(steps.steps):
        raise InputError(f"game #{record.index} has {len(steps.steps)} moves: "
                         f"there is no move {move}", record.source, record.line)
    return game_page(steps, move) if html else position_svg(steps, move)


def record_steps(record: Record, rule: str = "official") -> GameSteps:
    """The :class:`~havhex.draw.page.GameSteps` of ``record``'s game on its
    board (``rule`` Havannah's ring rule), its setup stones on it, headed by
    the file's name, the record's number and its players.  A board beyond
    the pages raises :class:`havhex.InputError` naming the record's file
    and line."""
    names = _player_names(record)
    heading = f"{os.path.basename(record.source)}, game #{record.index}" + (
        f": {names}" if names else "")
    try:
        return game_steps(record.game, record.size, record.moves, board=record.board(rule),
                          setup=record.setup, heading=heading)
    except InputError as error:
        if error.source is None:
            raise InputError(error.reason, record.source, record.line) from None
        raise


def _player_names(record: Record) -> str:
    """``"A (White) v B (Black)"`` from the record's PW[]/PB[], or ``""``:
    the record's letters of the first and the second player (the
    descriptor's ``records.letters``) with the players' colours."""
    descriptor = games.get(record.game)
    properties = record.properties
    parts: List[str] = []
    if TYPE_CHECKING:
        # A game read from a record is of a game with a record format.
        assert descriptor.records is not None
    for letter, colour in zip(descriptor.records.letters, descriptor.players):
        name = (properties.get(f"P{letter}") or ("",))[0].strip()
        if name:
            parts.append(f"{name} ({colour.capitalize()})")
    return " v ".join(parts)


def _source_name(file: _FileArg) -> str:
    from .._source import is_stdin

    return "<stdin>" if is_stdin(file) else os.fsdecode(file)


def _check_board_size(descriptor: Descriptor, size: int, as_text: bool, case: int,
                      source: str) -> None:
    """Refuse a board the picture cannot show, naming the case and the limit
    (the descriptor's ``pictures.svg_max`` and ``text_max``)."""
    pictures = descriptor.pictures
    if TYPE_CHECKING:
        # pictured gives a descriptor with pictures.
        assert pictures is not None
    name = descriptor.size_letter
    svg_max = pictures.svg_max
    if as_text:
        limit = pictures.text_max
        what, advice = "the text view", " (draw it as SVG instead)"
        if svg_max is not None and size > svg_max:
            advice = ""
    else:
        limit, what, advice = svg_max, "the picture", ""
    if limit is not None and size > limit:
        raise InputError(f"case #{case} has {name} = {size}: {what} is for boards "
                         f"up to {name} = {limit}{advice}", source)
