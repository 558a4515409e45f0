"""The header of one case of a regular file (its board size, and the
other numbers that open a case, such as Havannah's number of moves), read
before the input is: ``draw`` refuses a board beyond what a picture can show
without reading, judging or holding it.

The compiled readers have no way to stop after a header (they read and keep
whole inputs), so this module scans the tokens itself.  It follows the
readers' rules only as far as it needs to and gives up (None) wherever the
input is anything but plain: the reader then reads it and reports its fault.
What a case holds comes from the game's descriptor (its ``pictures``:
``header`` and ``case_tokens``), the reader's bounds from its judge module
(``MAX_SIZE``, ``MAX_NUMBER_DIGITS``).
"""
from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import List, Optional, Tuple, Union

    from ..descriptor import Descriptor, Pictures

__all__ = ["Tokens", "case_header"]

_SPACE = b" \t\n\r\x0b\x0c"                 # the readers' white space
_MARKS = bytes(32 if byte in _SPACE else 120 for byte in range(256))   # b" " or b"x"


class Tokens:
    """White-space separated tokens of a regular file from ``offset``, read
    with ``pread`` (the file descriptor's offset stays where it is).  Tokens are
    taken only as far as a number can go, ``longest`` bytes (the reader's
    rule: a longer token is no number; None: one read): a longer one ends
    the scan.  ``CHUNK`` is the size of one read."""

    CHUNK = 1 << 20

    spaces: re.Pattern[bytes]
    letters: re.Pattern[bytes]
    descriptor: int
    offset: int
    longest: int
    buffer: bytes
    pos: int

    def __init__(self, descriptor: int, offset: int, longest: Optional[int] = None) -> None:
        import re

        self.spaces = re.compile(b"[" + _SPACE + b"]*")
        self.letters = re.compile(b"[^" + _SPACE + b"]*")
        self.descriptor = descriptor
        self.offset = offset
        self.longest = self.CHUNK if longest is None else longest
        self.buffer = b""
        self.pos = 0

    def _fill(self) -> bool:
        """Read on, dropping what was passed over; False at the end."""
        data = os.pread(self.descriptor, self.CHUNK, self.offset)
        self.offset += len(data)
        self.buffer = self.buffer[self.pos:] + data
        self.pos = 0
        return bool(data)

    def word(self) -> Optional[bytes]:
        """The next token, b"" at the end of the input, None when it is too
        long for a number (then the position is inside it)."""
        while True:
            # Both patterns match the empty string: a match is always found.
            self.pos = self.spaces.match(self.buffer, self.pos).end()  # type: ignore[union-attr]
            if self.pos < len(self.buffer):
                break
            if not self._fill():
                return b""
        token = b""
        while True:
            end = self.letters.match(self.buffer, self.pos).end()  # type: ignore[union-attr]
            token += self.buffer[self.pos:end]
            self.pos = end
            if len(token) > self.longest:
                return None
            if end < len(self.buffer) or not self._fill():
                return token

    def number(self) -> Optional[int]:
        """The next token as an int, or None when it is not a plain decimal
        number (or the input ends): then the reader is left to say why."""
        token = self.word()
        return int(token) if token and token.isdigit() else None

    def skip(self, count: int) -> bool:
        """Pass over ``count`` tokens; False when the input ends first or a
        token is too long."""
        previous = b" "             # the scan never stops inside a token
        while count > 0:
            if self.pos >= len(self.buffer) and not self._fill():
                return False
            span = min(len(self.buffer) - self.pos, 64 + 32 * count)
            marks = previous + self.buffer[self.pos:self.pos + span].translate(_MARKS)
            starts = marks.count(b" x")
            if starts >= count:
                index = -1
                for _ in range(count):
                    index = marks.find(b" x", index + 1)
                self.pos += index   # the last token's first byte (marks has one byte more)
                return bool(self.word())
            count -= starts
            previous = marks[-1:]
            self.pos += span
        return True


def case_header(file: Union[str, bytes, os.PathLike[str], os.PathLike[bytes]],
                game: Union[str, Descriptor], case: int) -> Optional[Tuple[int, ...]]:
    """The header numbers of case ``case`` (``(S, M)`` or ``(N,)``: the
    game's descriptor's ``pictures.header`` of them) read from the start of
    a regular file, or None when the input is no regular file or does not
    plainly reach that header (its reader then says why).  ``game``: the
    game's name or its :class:`~havhex.descriptor.Descriptor`."""
    import stat

    from .._source import is_stdin

    if isinstance(game, str):
        from .. import games

        game = games.get(game)
    judge = game.judge_module()
    descriptor = None
    try:
        if is_stdin(file):
            import sys

            stdin = sys.stdin
            if stdin is None:
                return None
            descriptor = stdin.fileno()
            offset = os.lseek(descriptor, 0, os.SEEK_CUR)
            opened = False
        elif isinstance(file, (str, bytes, os.PathLike)):
            # Opened only when regular: a reader opening and closing a named
            # pipe could make its writer fail.
            if not stat.S_ISREG(os.stat(file).st_mode):
                return None
            descriptor = os.open(file, os.O_RDONLY | getattr(os, "O_BINARY", 0))
            offset, opened = 0, True
        else:
            return None
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                return None
            tokens = Tokens(descriptor, offset, judge.MAX_NUMBER_DIGITS)
            if TYPE_CHECKING:
                # The header is asked for of a game with pictures of a case
                # (page.pictured); without, the AttributeError below says None.
                assert game.pictures is not None
            return _scan_to_case(tokens, game.pictures, judge.MAX_SIZE, case)
        finally:
            if opened:
                os.close(descriptor)
    except (OSError, ValueError, AttributeError):
        return None


def _scan_to_case(tokens: Tokens, pictures: Pictures, max_size: int,
                  case: int) -> Optional[Tuple[int, ...]]:
    if TYPE_CHECKING:
        # Pictures of a case have case_tokens (Pictures refuses them without).
        assert pictures.case_tokens is not None
    count = tokens.number()
    if count is None or not 1 <= case <= count:
        return None
    for _ in range(case - 1):
        header = _header(tokens, pictures.header)
        if header is None or not tokens.skip(pictures.case_tokens(header)):
            return None
    header = _header(tokens, pictures.header)
    # A size no board can have is the reader's fault to report.
    return None if header is None or header[0] > max_size else header


def _header(tokens: Tokens, count: int) -> Optional[Tuple[int, ...]]:
    """The next ``count`` numbers, or None where one is no plain number."""
    numbers: List[int] = []
    for _ in range(count):
        number = tokens.number()
        if number is None:
            return None
        numbers.append(number)
    return tuple(numbers)
