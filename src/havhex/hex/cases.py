"""The boards of an input, for a caller that needs a case's rows and not
only its answer (the ``draw`` command).

>>> from havhex.hex import cases
>>> boards = cases.read_boards_text("1\\n2\\nR.\\n.B\\n")
>>> len(boards), boards.size(1), boards.rows(1)
(1, 2, ['R.', '.B'])

Cases are numbered from 1, as the judge's output numbers them.
"""
from . import _judge
from ._faults import _checked
from .._source import encode_text, read_input
from ..errors import InputError

__all__ = ["Boards", "read_boards", "read_boards_text", "MAX_NUMBER_DIGITS"]

# The longest number token the reader takes, sign aside: one reader is
# compiled into both engines, with this one limit.
MAX_NUMBER_DIGITS = _judge.MAX_NUMBER_DIGITS


class Boards:
    """The boards of one input, read and checked; made by :func:`read_boards`.

    A board's size is known without its rows; the rows of one case become
    strings only when :meth:`rows` is called.
    """

    def __init__(self, parsed, source):
        self._parsed = parsed
        self.source = source        # the input's name in messages ("<stdin>" for "-")

    def __len__(self):
        return self._parsed.n_cases

    def _index(self, number):
        count = self._parsed.n_cases
        if number < 1:
            raise InputError(f"there is no case #{number} (cases are numbered from 1)", self.source)
        if number > count:
            cases = "1 case" if count == 1 else f"{count} cases"
            raise InputError(f"there is no case #{number} (the input has {cases})", self.source)
        return number - 1

    def size(self, number):
        """The side N of case ``number``."""
        return self._parsed.case_size(self._index(number))

    def rows(self, number):
        """The rows of case ``number``: N strings of ``R``, ``B`` and ``.``."""
        return self._parsed.board(self._index(number))


def read_boards(file):
    """Read an input as :func:`havhex.hex.judge_file` reads it: a path, ``"-"``
    (standard input) or an open binary file, read once (a pipe cannot be
    read twice).  Raises :class:`havhex.InputError` for its first fault; a
    case number it does not hold raises it from the accessors."""
    return _checked_boards(*read_input(file, _judge.parse))


def read_boards_text(text, *, source="<string>"):
    """:func:`read_boards` for a whole input given as ``str`` or bytes."""
    return _checked_boards(_judge.parse(encode_text(text, source)), source)


def _checked_boards(parsed, source):
    return Boards(_checked(parsed, source), source)
