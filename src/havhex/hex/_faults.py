"""The judge format's faults in words, and the check that turns an input's
first fault into its InputError: below both the package's judging functions
and :mod:`.cases`, which take them from here."""
from ..errors import InputError, shared_fault_reason, shown_bytes
# The compiled judge has no stub: to a type checker its objects are Any.
from . import _judge  # type: ignore[attr-defined]

# The annotations are for type checkers only, in quotes where they name what
# is imported here: a judge run's start-up imports neither typing nor
# __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_ERR_TOKEN, _ERR_T, _ERR_N_SMALL, _ERR_N_LARGE, _ERR_ROW_MISSING, _ERR_ROW_LENGTH, \
    _ERR_ROW_CHAR, _ERR_TRAILING, _ERR_MEMORY = _judge.FAULT_CODES


def _characters(count: int) -> str:
    return f"{count} character" if count == 1 else f"{count} characters"


def _fault_reason(parsed: "Any", in_file: bool = True) -> str:
    code = parsed.err_code
    case = parsed.n_cases + 1
    of_case = f" of case #{case}" if in_file else ""
    shared = shared_fault_reason(parsed, lambda field: (
        "the number of test cases T", f"the board size N of case #{case}",
        "the end of the input")[field], _judge)
    if shared is not None:
        return shared
    if code == _ERR_T:
        return f"the number of test cases T must not be negative, got {parsed.err_value}"
    if code == _ERR_N_SMALL:
        return f"the board size N{of_case} must be at least 1, got {parsed.err_value}"
    if code == _ERR_N_LARGE:
        return f"the board size N{of_case} must be at most {_judge.MAX_SIZE}, got {parsed.err_value}"
    if code == _ERR_ROW_MISSING:
        return f"input ends before row {parsed.err_row}{of_case}"
    if code == _ERR_ROW_LENGTH:
        # The reader stops at a row's character N + 1: a longer row is not
        # read to its end.
        count = (f"more than {_characters(parsed.err_size)}" if parsed.err_length > parsed.err_size
                 else _characters(parsed.err_length))
        return f"row {parsed.err_row}{of_case} has {count}, expected {parsed.err_size}"
    if code == _ERR_ROW_CHAR:
        return (f"row {parsed.err_row}{of_case} has {shown_bytes(parsed.err_token)} at column "
                f"{parsed.err_column}; only B, R and . are allowed")
    return f"unknown fault {code}"


def _checked(parsed: "Any", source: str) -> "Any":
    if parsed.err_code:
        raise InputError(_fault_reason(parsed), source, parsed.err_line)
    return parsed
