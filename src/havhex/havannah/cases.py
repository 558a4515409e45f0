"""The cases of a judged input with their moves, for a caller that needs a
case's stones and not only its answer (the ``draw`` command).

>>> from havhex.havannah import cases
>>> judged = cases.read_cases_text("1\\n2 3\\n1 1\\n2 2\\n1 2\\n")
>>> len(judged), judged.size(1), str(judged.result(1)), judged.moves(1)
(1, 2, 'bridge in move 3', [(1, 1), (2, 2), (1, 2)])

Cases are numbered from 1, as the judge's output numbers them.
"""
from __future__ import annotations

# The compiled judge has no stub: to a type checker its objects are Any.
from . import _judge  # type: ignore[attr-defined]
from ._faults import _judge_parsed
from .._source import encode_text, read_input
from ..errors import InputError

# The annotations are for type checkers only: reading cases does not import
# typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from typing import Any, BinaryIO, List, Optional, Sequence, Tuple, Union

    from ._result import Result

__all__ = ["JudgedCases", "read_cases", "read_cases_text"]


class JudgedCases:
    """The cases of one input, judged; made by :func:`read_cases`.

    Only what is asked for becomes Python objects: the moves of one case, up
    to a limit, are copied when :meth:`moves` is called.
    """

    source: str

    def __init__(self, parsed: object, results: Sequence[Result], source: str) -> None:
        self._parsed: Any = parsed
        self._results = results
        self.source = source        # the input's name in messages ("<stdin>" for "-")

    def __len__(self) -> int:
        return len(self._results)

    def _index(self, number: int) -> int:
        if number < 1:
            raise InputError(f"there is no case #{number} (cases are numbered from 1)", self.source)
        if number > len(self._results):
            count = "1 case" if len(self._results) == 1 else f"{len(self._results)} cases"
            raise InputError(f"there is no case #{number} (the input has {count})", self.source)
        return number - 1

    def size(self, number: int) -> int:
        """The base S of case ``number``."""
        size: int = self._parsed.case_size(self._index(number))
        return size

    def result(self, number: int) -> Result:
        """The :class:`havhex.havannah.Result` of case ``number``."""
        return self._results[self._index(number)]

    def move_count(self, number: int) -> int:
        """The number of moves M of case ``number``."""
        return len(self._parsed.case_coords(self._index(number))) // 2

    def moves(self, number: int, limit: Optional[int] = None) -> List[Tuple[int, int]]:
        """The first ``limit`` moves (default all) of case ``number`` as a
        list of ``(x, y)``."""
        flat = self._parsed.case_coords(self._index(number), limit)
        return list(zip(flat[0::2], flat[1::2]))


def read_cases(file: Union[str, bytes, os.PathLike[str], os.PathLike[bytes], BinaryIO]
               ) -> JudgedCases:
    """Read and judge an input as :func:`havhex.havannah.judge_file` does: a
    path, ``"-"`` (standard input) or an open binary file, read once (a pipe
    cannot be read twice).  Raises :class:`havhex.InputError` for its first
    fault; a case number it does not hold raises it from the accessors."""
    parsed, source = read_input(file, _judge.parse_and_judge)
    return _judged(parsed, source)


def read_cases_text(text: Union[str, bytes], *, source: str = "<string>") -> JudgedCases:
    """:func:`read_cases` for a whole input given as ``str`` or bytes."""
    return _judged(_judge.parse_and_judge(encode_text(text, source)), source)


def _judged(parsed: Any, source: str) -> JudgedCases:
    return JudgedCases(parsed, _judge_parsed(parsed, source), source)
