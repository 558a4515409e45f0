"""What ``loadsgf`` reads: a record file, checked as ``havhex replay``
checks it, cut to the position asked for.

An engine answers whoever controls it, and its answers may travel further
than the machine it runs on: loadsgf reads only a regular file of a bounded
size (a FIFO, a terminal or ``/dev/stdin`` would block it, or feed it its
own commands), and its refusals name the file and a line, never a byte of
what the file holds (the records' own messages quote the bytes they stop
at).
"""
from __future__ import annotations

import os
import stat

from ..errors import InputError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, List, Optional, Tuple

    from ..descriptor import Descriptor
    from ..records import Record

__all__ = ["Refused", "load", "MAX_RECORD_BYTES", "MAX_CELLS"]

# The largest file read: records are kilobytes, and the file is read whole
# before it is parsed.
MAX_RECORD_BYTES = 1 << 24
# The largest board a record may give: a record of a few bytes must not make
# a board of gigabytes.
MAX_CELLS = 128 * 128
# The moves that end a record's game without a stone; a pass is no move of
# the boards, and is skipped as the replay skips it.
_ENDS = ("resign", "forfeit")
_PASS = "pass"


class Refused(Exception):
    """A file loadsgf does not load: the text says why, without the file's
    contents."""


def load(path: str, descriptor: Descriptor, rule: str,
         before: Optional[int]) -> Tuple[Record, List[Any]]:
    """The first record of the file ``path`` for an engine of
    ``descriptor``'s game, and its moves (cells and swaps, in order) up to
    the position before record move ``before`` (None: all of them), each
    checked to be legal on the board with ``rule``; Refused otherwise."""
    # The records' modules are imported when a record is first loaded: an
    # engine that loads none starts without them.
    from ..records.game import implied_game, read_bytes
    from ..records.replay import replay_games

    data = _record_bytes(path)
    try:
        # A record without GM[] is of the engine's game, unless its
        # extension says (.hgf: Havannah).
        named = implied_game(path) is not None
        record = next(iter(read_bytes(data, path, None if named else descriptor.name,
                                      max_cells=MAX_CELLS)), None)
    except InputError as error:
        raise Refused(f"not a record havhex reads (line {error.line}; "
                      f"'havhex replay' says why)") from None
    except ValueError as error:
        # A game whose records havhex does not read: the registry's words.
        raise Refused(" ".join(str(error).split())) from None
    if record is None:
        raise Refused("no game in it")
    if record.game != descriptor.name:
        raise Refused(f"a game of {record.game}, not {descriptor.name}")
    sides = record.size if isinstance(record.size, tuple) else (record.size,)
    if not all(descriptor.min_size <= side <= descriptor.max_size for side in sides):
        raise Refused(f"its board is beyond this engine's sizes ({descriptor.min_size} to "
                      f"{descriptor.max_size})")
    recorded = [move for _, move in record.moves]
    if before is not None:
        recorded = recorded[:max(0, before - 1)]
    moves = []
    for move in recorded:
        if move in _ENDS:
            break
        if move != _PASS:
            moves.append(move)
    # The replay's checks, those of `havhex replay`: a record's colours, the
    # turns, the cells, the swap, the setup stones.  Only the moves kept
    # matter: a fault after them is no fault of the position.
    replayed = next(iter(replay_games([record], rule, max_cells=MAX_CELLS)))
    if replayed.illegal is not None and replayed.illegal[0] <= len(moves):
        number, reason = replayed.illegal
        if not number:
            # Move 0, the setup: its reason quotes the stones' values.
            raise Refused("its setup stones (AB[], AW[]) are no position of this game "
                          "('havhex replay' says why)")
        raise Refused(f"move {number} is illegal: {reason}")
    if replayed.win is not None and replayed.win.move < len(moves):
        raise Refused(f"the game is won at move {replayed.win.move} and the record plays "
                      f"on (load the position before a later move: loadsgf FILE N)")
    return record, moves


def _record_bytes(path: str) -> bytes:
    """The bytes of the regular file ``path``, at most MAX_RECORD_BYTES."""
    try:
        status = os.stat(path)
    except (OSError, ValueError) as error:
        raise Refused(_reason(error)) from None
    _check_regular(status)
    # Opened without blocking, and looked at again once open: a file swapped
    # for a FIFO between the two looks must not hang the engine.
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
             | getattr(os, "O_CLOEXEC", 0))
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise Refused(_reason(error)) from None
    try:
        _check_regular(os.fstat(descriptor))
        pieces = []
        size = 0
        while size <= MAX_RECORD_BYTES:
            piece = os.read(descriptor, MAX_RECORD_BYTES + 1 - size)
            if not piece:
                break
            pieces.append(piece)
            size += len(piece)
    except OSError as error:
        raise Refused(_reason(error)) from None
    finally:
        os.close(descriptor)
    if size > MAX_RECORD_BYTES:
        raise Refused(_too_large())
    return b"".join(pieces)


def _check_regular(status: os.stat_result) -> None:
    if stat.S_ISDIR(status.st_mode):
        raise Refused("a directory, not a file")
    if not stat.S_ISREG(status.st_mode):
        raise Refused("not a regular file (loadsgf reads no pipe, device or terminal)")
    if status.st_size > MAX_RECORD_BYTES:
        raise Refused(_too_large())


def _too_large() -> str:
    return f"larger than {MAX_RECORD_BYTES} bytes"


def _reason(error: BaseException) -> str:
    strerror = getattr(error, "strerror", None)
    if strerror:
        return f"cannot read it: {strerror}"
    return "cannot read it"
