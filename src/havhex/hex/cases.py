"""The boards of an input, for a caller that needs a case's rows and not
only its answer (the ``draw`` command).

>>> from havhex.hex import cases
>>> boards = cases.read_boards_text("1\\n2\\nR.\\n.B\\n")
>>> len(boards), boards.size(1), boards.rows(1)
(1, 2, ['R.', '.B'])

Cases are numbered from 1, as the judge's output numbers them.
"""
from __future__ import annotations

# The compiled judge has no stub: to a type checker its objects are Any.
from . import _judge  # type: ignore[attr-defined]
from ._faults import _checked
from .._source import encode_text, read_input
from ..errors import InputError

# The annotations are for type checkers only: reading cases does not import
# typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from typing import Any, BinaryIO, List, Union

__all__ = ["Boards", "read_boards", "read_boards_text", "MAX_NUMBER_DIGITS"]

# The longest number token the reader takes, sign aside: one reader is
# compiled into both engines, with this one limit.
MAX_NUMBER_DIGITS: int = _judge.MAX_NUMBER_DIGITS


class Boards:
    """The boards of one input, read and checked; made by :func:`read_boards`.

    A board's size is known without its rows; the rows of one case become
    strings only when :meth:`rows` is called.
    """

    source: str

    def __init__(self, parsed: object, source: str) -> None:
        self._parsed: Any = parsed
        self.source = source        # the input's name in messages ("<stdin>" for "-")

    def __len__(self) -> int:
        count: int = self._parsed.n_cases
        return count

    def _index(self, number: int) -> int:
        count = self._parsed.n_cases
        if number < 1:
            raise InputError(f"there is no case #{number} (cases are numbered from 1)", self.source)
        if number > count:
            cases = "1 case" if count == 1 else f"{count} cases"
            raise InputError(f"there is no case #{number} (the input has {cases})", self.source)
        return number - 1

    def size(self, number: int) -> int:
        """The side N of case ``number``."""
        size: int = self._parsed.case_size(self._index(number))
        return size

    def rows(self, number: int) -> List[str]:
        """The rows of case ``number``: N strings of ``R``, ``B`` and ``.``."""
        rows: List[str] = self._parsed.board(self._index(number))
        return rows


def read_boards(file: Union[str, bytes, os.PathLike[str], os.PathLike[bytes], BinaryIO]
                ) -> Boards:
    """Read an input as :func:`havhex.hex.judge_file` reads it: a path, ``"-"``
    (standard input) or an open binary file, read once (a pipe cannot be
    read twice).  Raises :class:`havhex.InputError` for its first fault; a
    case number it does not hold raises it from the accessors."""
    return _checked_boards(*read_input(file, _judge.parse))


def read_boards_text(text: Union[str, bytes], *, source: str = "<string>") -> Boards:
    """:func:`read_boards` for a whole input given as ``str`` or bytes."""
    return _checked_boards(_judge.parse(encode_text(text, source)), source)


def _checked_boards(parsed: Any, source: str) -> Boards:
    return Boards(_checked(parsed, source), source)
