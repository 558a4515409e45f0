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
itself: :mod:`havhex.havannah.picture` and :mod:`havhex.hex.picture` draw
each game, :mod:`havhex._svg` holds what both share.  Here are what draws a
case or a record: :mod:`.header` measures a case from its header,
:mod:`.page` draws a game move by move.  This package is imported only by
the ``draw`` command, never by ``import havhex``.
"""
import os

from ..errors import InputError
from ..havannah.picture import (HAVANNAH_EDGES, HAVANNAH_SVG_STONES_MAX, HAVANNAH_TEXT_MAX,
                                havannah_svg, havannah_text)
from ..hex.picture import HEX_SVG_MAX, HEX_TEXT_MAX, hex_svg, hex_text
from .header import case_header
from .page import game_page, game_steps, position_svg

__all__ = [
    "draw_command", "draw_record", "game_steps", "game_page", "position_svg", "havannah_svg", "havannah_text", "hex_svg", "hex_text",
    "HAVANNAH_TEXT_MAX", "HAVANNAH_SVG_STONES_MAX", "HEX_TEXT_MAX", "HEX_SVG_MAX",
    "HAVANNAH_EDGES",
]


def draw_command(game, file, case, as_text=False):
    """The picture of case ``case`` (1-based) of ``file`` (a path or ``"-"``).

    Returns the SVG document (or, with ``as_text``, the text view) as a str.
    Faults in the input, a case the input does not hold and a case beyond what
    a picture can show (see the ``*_MAX`` limits) raise
    :class:`havhex.InputError`; a regular file's case is measured from its
    header before anything else is read.
    """
    if game not in ("havannah", "hex"):
        raise InputError(f"unknown game {game!r}: draw havannah or hex")
    header = case_header(file, game, case)
    if header is not None:
        _check_board_size(game, header[0], as_text, case, _source_name(file))
    if game == "havannah":
        size, moves, total, explanation, source = _havannah_case(file, case, as_text)
        heading = f"{source}, case #{case}"
        if as_text:
            return havannah_text(size, moves, explanation, heading=heading)
        return havannah_svg(size, moves, explanation, heading=heading, total_moves=total)
    rows, explanation, source = _hex_case(file, case, as_text)
    heading = f"{source}, case #{case}"
    if as_text:
        return hex_text(rows, explanation, heading=heading)
    return hex_svg(rows, explanation, heading=heading)


def draw_record(file, game=1, move=None, html=False, rule="official", kind=None,
                max_cells=None):
    """Game ``game`` (1-based) of a record file (SGF Hex, Little Golem
    ``.hgf``; a path or ``"-"``): the SVG of the position after ``move``
    moves (default the winning move, else the last), or with ``html`` the
    page that steps through the game, opened there.  ``rule`` is Havannah's
    ring rule; ``kind`` and ``max_cells`` (None:
    :data:`havhex.records.MAX_CELLS`) as for :func:`havhex.records.read`.
    Broken records, a game or a move the file does not hold and a board
    beyond the pictures raise :class:`havhex.InputError` (``FILE:LINE``,
    the line where the game starts)."""
    from ..records import MAX_CELLS, read

    count = 0
    for record in read(file, kind, MAX_CELLS if max_cells is None else max_cells):
        count += 1
        if record.index == game:
            break
    else:
        source = _source_name(file)
        held = "no game" if not count else "1 game" if count == 1 else f"{count} games"
        raise InputError(f"there is no game #{game} (the file holds {held})", source)
    where = (record.source, record.line)
    names = _player_names(record)
    heading = f"{os.path.basename(record.source)}, game #{record.index}" + (
        f": {names}" if names else "")
    try:
        steps = game_steps(record.kind, record.size, record.moves, board=record.board(rule),
                           setup=record.setup, heading=heading)
        if move is not None and move > len(steps.steps):
            raise InputError(f"game #{record.index} has {len(steps.steps)} moves: "
                             f"there is no move {move}")
    except InputError as error:
        if error.source is None:
            raise InputError(error.reason, *where) from None
        raise
    return game_page(steps, move) if html else position_svg(steps, move)


def _player_names(record):
    """``"A (White) v B (Black)"`` from the record's PW[]/PB[], or ``""``."""
    properties = record.properties
    colours = (("W", "White"), ("B", "Black")) if record.kind == "havannah" else \
        (("B", "Red"), ("W", "Blue"))
    parts = []
    for letter, colour in colours:
        name = (properties.get(f"P{letter}") or ("",))[0].strip()
        if name:
            parts.append(f"{name} ({colour})")
    return " v ".join(parts)


def _source_name(file):
    from .._source import is_stdin

    return "<stdin>" if is_stdin(file) else os.fsdecode(file)


def _check_board_size(game, size, as_text, case, source):
    """Refuse a board the picture cannot show, naming the case and the limit."""
    name = "S" if game == "havannah" else "N"
    if as_text:
        limit = HAVANNAH_TEXT_MAX if game == "havannah" else HEX_TEXT_MAX
        what, advice = "the text view", " (draw it as SVG instead)"
        if game == "hex" and size > HEX_SVG_MAX:
            advice = ""
    elif game == "hex":
        limit, what, advice = HEX_SVG_MAX, "the picture", ""
    else:
        return      # an SVG shows a Havannah board of any size (see the stones)
    if size > limit:
        raise InputError(f"case #{case} has {name} = {size}: {what} is for boards "
                         f"up to {name} = {limit}{advice}", source)


def _havannah_case(file, case, as_text):
    """(S, drawn moves, moves in the case, explanation, source name) of one
    case of a Havannah input.

    The input is read once (a pipe or ``<(...)`` cannot be read twice) and
    judged as :func:`havhex.havannah.judge_file` judges it, with its faults;
    only the moves drawn (up to the winning move) become Python objects."""
    from ..havannah import cases, explain

    judged = cases.read_cases(file)
    source = judged.source
    result = judged.result(case)            # (a case the input lacks raises here)
    size = judged.size(case)
    _check_board_size("havannah", size, as_text, case, source)
    limit = HAVANNAH_SVG_STONES_MAX
    # The stones drawn, copied only up to one beyond the limit.
    moves = judged.moves(case, min(result.move or limit + 1, limit + 1))
    if len(moves) > limit:
        if result.move:
            reason = f"case #{case} has {result.move} stones up to its winning move"
        else:
            reason = f"case #{case} has no winning move and over {limit} stones"
        raise InputError(f"{reason}: the picture is for up to {limit} stones", source)
    total = judged.move_count(case) if result.move else len(moves)
    # The moves up to the winning one are judged again for their witnesses
    # (the first win is the same: the moves before it are the same).
    return size, moves, total, explain(size, moves), source


def _hex_case(file, case, as_text):
    """(rows, explanation, source name) of one case of a Hex input (read once)."""
    from ..hex import cases, explain

    boards = cases.read_boards(file)
    size = boards.size(case)                # (a case the input lacks raises here)
    _check_board_size("hex", size, as_text, case, boards.source)
    rows = boards.rows(case)
    return rows, explain(rows), boards.source
