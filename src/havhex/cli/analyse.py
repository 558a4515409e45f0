"""``havhex analyse [FILE ...]``: the games of record files reviewed by the
search (:mod:`havhex.records.review`), a report per game, or with
``--html`` the page of the one game reviewed, its win-rate curve under the
board (:mod:`havhex.draw.review`), as ``draw record --html`` writes its
page.

The output is written as the other commands write theirs (``output``): a
game's report whole or not at all, ``-o`` only once every game is
reviewed.
"""
import sys

from ..errors import InputError
from .progress import StatusLine

# The annotations are for type checkers only, in quotes, as in the rest of
# the command line.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Iterable, Iterator, List

    from ..records import Record
    from .arguments import Arguments

__all__ = ["analyse_outputs"]


class _Progress(StatusLine):
    """The moves of a game reviewed so far, on one line of a terminal's
    stderr."""

    def __init__(self, record: "Record") -> None:
        super().__init__(sys.stderr)
        self.name = f"{record.source} game {record.index}"

    def __call__(self, moves: int) -> None:
        self.show(f"{self.name}: {moves} moves reviewed")


def _records(arguments: "Arguments") -> "Iterator[Record]":
    """The records to review: every record of each file, or record
    ``--record N`` of each."""
    from ..records import read, read_one

    for file in arguments.files or ["-"]:
        if arguments.record is None:
            yield from read(file, arguments.record_game, arguments.max_cells)
        else:
            yield read_one(file, arguments.record, arguments.record_game, arguments.max_cells)


def _one_game(records: "Iterable[Record]") -> "List[Record]":
    """``records`` when they are one game, as ``--html`` needs."""
    chosen = list(records)
    if len(chosen) != 1:
        held = "no game" if not chosen else f"{len(chosen)} games"
        raise InputError(f"--html draws one game, and the files hold {held}: choose one "
                         f"with --record N")
    return chosen


def _search_options(arguments: "Arguments") -> "Dict[str, Any]":
    options: "Dict[str, Any]" = {"simulations": arguments.simulations,
                                 "seconds": arguments.seconds, "seed": arguments.seed,
                                 "threshold": arguments.threshold}
    if arguments.max_nodes is not None:
        options["max_nodes"] = arguments.max_nodes
    return options


def _report(record: "Record", arguments: "Arguments") -> "Iterator[str]":
    """The report of ``record``'s review, or with ``--html`` its page."""
    from ..records.review import analyse_record, record_heading, review_json, review_text

    steps = None
    if arguments.html:
        from ..draw import record_steps

        steps = record_steps(record, arguments.rule)  # a board beyond the page: before searching
    terminal = not arguments.quiet and sys.stderr is not None and sys.stderr.isatty()
    progress = _Progress(record) if terminal else None
    try:
        review = analyse_record(record, arguments.rule, progress=progress,
                                **_search_options(arguments))
    finally:
        if progress is not None:
            progress.close()
    if steps is not None:
        from ..draw.review import review_page

        yield review_page(steps, review)
    elif arguments.format == "json":
        yield review_json(review, record)
    else:
        yield review_text(review, record_heading(record))


def analyse_outputs(arguments: "Arguments") -> "Iterator[Iterator[str]]":
    """For each game reviewed, in order, an iterator over its report (or,
    with ``--html``, over the page of the one game)."""
    records: "Iterable[Record]" = _records(arguments)
    if arguments.html:
        records = _one_game(records)
    for record in records:
        yield _report(record, arguments)
