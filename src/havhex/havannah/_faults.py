"""The judge format's faults in words, and the results of a judged input or
the InputError of its first fault: below both the package's judging
functions and :mod:`.cases`, which take them from here."""
from ..errors import InputError, shared_fault_reason
# The compiled judge has no stub: to a type checker its objects are Any.
from . import _judge  # type: ignore[attr-defined]
from ._result import Result

# The annotations are for type checkers only, in quotes where they name what
# is imported here: a judge run's start-up imports neither typing nor
# __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, List

# The engine's fault codes, named in its order.
_ERR_TOKEN, _ERR_T, _ERR_S, _ERR_M, _ERR_OFF_BOARD, _ERR_TRAILING, _ERR_MEMORY = \
    _judge.FAULT_CODES


def _field_name(field: int, case: int, move: int) -> str:
    return (
        "the number of test cases T",
        f"the board size S of case #{case}",
        f"the number of moves M of case #{case}",
        f"the x of move {move} of case #{case}",
        f"the y of move {move} of case #{case}",
        "the end of the input",
    )[field]


def _fault_reason(parsed: "Any") -> str:
    code = parsed.err_code
    case = parsed.n_cases + 1
    shared = shared_fault_reason(parsed, lambda field: _field_name(field, case, parsed.err_value),
                                 _judge)
    if shared is not None:
        return shared
    if code == _ERR_T:
        return f"the number of test cases T must not be negative, got {parsed.err_value}"
    if code == _ERR_S:
        return f"the board size S of case #{case} must be between 2 and {_judge.MAX_SIZE}, got {parsed.err_value}"
    if code == _ERR_M:
        size = parsed.err_size
        cells = 3 * size * (size - 1) + 1
        if cells > _judge.MAX_CASE_MOVES:
            return (f"the number of moves M of case #{case} must be between 0 and "
                    f"{_judge.MAX_CASE_MOVES} (the most a case may have), got {parsed.err_value}")
        return (f"the number of moves M of case #{case} must be between 0 and {cells} "
                f"(the hexagons of a board with S = {size}), got {parsed.err_value}")
    if code == _ERR_OFF_BOARD:
        where = f" of case #{case}" if parsed.err_line else ""
        return (f"move {parsed.err_value}{where}, ({parsed.err_x}, {parsed.err_y}), "
                f"is off the board of size S = {parsed.err_size}")
    return f"unknown fault {code}"


def _duplicate_reason(parsed: "Any", case: int, move_index: int, in_file: bool = True) -> str:
    first = parsed.first_played(case, move_index)
    x, y = parsed.case_coords(case, move_index + 1)[-2:]
    where = f" of case #{case + 1}" if in_file else ""
    return f"move {move_index + 1}{where} plays ({x}, {y}) again (first played in move {first + 1})"


def _judge_parsed(parsed: "Any", source: str) -> "List[Result]":
    """Results of a judged input, or the InputError of its first fault."""
    bits, moves, duplicate = parsed.results()
    if duplicate is not None:
        case, move_index = duplicate
        raise InputError(_duplicate_reason(parsed, case, move_index), source,
                         parsed.move_line(case, move_index))
    if parsed.err_code:
        repeat = parsed.partial_duplicate()
        if repeat is not None:
            move_index, first, x, y, line = repeat
            raise InputError(f"move {move_index + 1} of case #{parsed.n_cases + 1} plays ({x}, {y}) "
                             f"again (first played in move {first + 1})", source, line)
        raise InputError(_fault_reason(parsed), source, parsed.err_line)
    from_engine = Result._from_engine
    return [from_engine(b, m) for b, m in zip(bits, moves)]
