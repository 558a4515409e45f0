"""``havhex solve GAME [FILE ...]``: positions solved exactly by
:mod:`havhex.search.solve`: the last position of each game of record files
(or the one ``--before N`` moves before its end), or with ``--openings``
every first move of an empty board of ``--size N``.

One answer a position, a line of text or (``--format json``) a JSON
object, as the position is solved: ``opening`` (the first move's name) or
``file``, ``record`` (its number in the file) and ``moves`` (the moves
played to the position), then
``to_move``, ``result`` ("win", "loss", "draw" or "unknown", the player
to move's), ``winner``, ``move`` (a winning or drawing move), ``nodes`` and
``seconds``.  A record's fault (its file and line named) stops the run
before that position's answer.
"""
import sys

from ..errors import InputError
from .progress import StatusLine

# The annotations are for type checkers only, in quotes, as in the rest of
# the command line.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Iterator, Optional, Tuple

    from ..descriptor import Descriptor
    from ..records import Record
    from .arguments import Arguments

__all__ = ["solve_outputs"]

# The record words that are no move on the board: the game stops there.
_NOT_PLAYED = ("resign", "forfeit", "pass")


def _openings(descriptor: "Descriptor",
              arguments: "Arguments") -> "Iterator[Tuple[Dict[str, Any], Any]]":
    size = arguments.size
    if TYPE_CHECKING:
        assert size is not None     # the parser requires --size with --openings all
    if not descriptor.min_size <= size <= descriptor.max_size:
        raise InputError(f"--size: {descriptor.name} takes {descriptor.min_size} to "
                         f"{descriptor.max_size}, got {size}")
    empty = descriptor.new_board(size, arguments.rule, arguments.swap)
    names = descriptor.engines["havhex"]
    for move in empty.legal_moves():
        board = empty.copy()
        board.play(move)
        yield {"opening": names.cell_name(size, move)}, board


def _position(record: "Record", before: int, rule: str) -> "Any":
    """The board of ``record`` ``before`` moves before its last one."""
    board = record.board(rule)
    moves = [move for _, move in record.moves]
    if any(move in _NOT_PLAYED for move in moves):
        moves = moves[:min(moves.index(word) for word in _NOT_PLAYED if word in moves)]
    for move in moves[:max(0, len(moves) - before)]:
        if board.is_over:
            raise InputError("moves after the end of the game", record.source, record.line)
        try:
            board.play(move)
        except (ValueError, TypeError) as error:
            raise InputError(f"an illegal move {move!r}: {error}", record.source,
                             record.line) from None
    return board


def _records(descriptor: "Descriptor",
             arguments: "Arguments") -> "Iterator[Tuple[Dict[str, Any], Any]]":
    from ..records import read

    for file in arguments.files or ["-"]:
        for record in read(file, arguments.game, arguments.max_cells):
            if record.game != descriptor.name:
                raise InputError(f"a {record.game} record, not {descriptor.name}",
                                 record.source, record.line)
            board = _position(record, arguments.before, arguments.rule)
            yield {"file": record.source, "record": record.index,
                   "moves": len(board.moves)}, board


def _answer(label: "Dict[str, Any]", solution: "Any", name: "Any", json: bool) -> str:
    move = None if solution.move is None else name(solution.move)
    if json:
        import json as _json

        return _json.dumps({**label, "to_move": solution.to_move, "result": solution.result,
                            "winner": solution.winner, "move": move,
                            "nodes": solution.nodes,
                            "seconds": round(solution.seconds, 6)}) + "\n"
    where = (f"opening {label['opening']}" if "opening" in label
             else f"{label['file']} game {label['record']} after {label['moves']} moves")
    verdict = {"win": f"{solution.to_move} to move wins",
               "loss": f"{solution.winner} wins ({solution.to_move} to move loses)",
               "draw": "a draw", "unknown": "unknown"}[solution.result]
    if move is not None:
        verdict += f" with {move}"
    return (f"{where}: {verdict} ({solution.nodes} nodes, "
            f"{solution.seconds:.3f} s)\n")


def _move_namer(descriptor: "Descriptor", board: "Any") -> "Any":
    names = descriptor.engines["havhex"]
    size = descriptor.board_size(board)

    def name(move: "Any") -> str:
        return move if isinstance(move, str) else str(names.cell_name(size, move))

    return name


def solve_outputs(arguments: "Arguments") -> "Iterator[Iterator[str]]":
    """Each position's answer, one piece each, solved as it is asked for."""
    from ..games import get
    from ..search import Solver

    if TYPE_CHECKING:
        assert arguments.game is not None   # the parser requires GAME
    descriptor = get(arguments.game)
    solver = Solver(arguments.memory << 20)
    positions = (_openings(descriptor, arguments) if arguments.solve_openings
                 else _records(descriptor, arguments))
    json = arguments.format == "json"
    status: "Optional[StatusLine]" = (StatusLine(sys.stderr) if sys.stderr is not None
                                      and sys.stderr.isatty() else None)
    for label, board in positions:
        if status is not None:
            status.show(f"solving {label.get('opening') or label.get('record')}")
        solution = solver.solve(board, seconds=arguments.seconds)
        yield iter((_answer(label, solution, _move_namer(descriptor, board), json),))
    if status is not None:
        status.close()
