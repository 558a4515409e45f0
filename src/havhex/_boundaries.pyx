# cython: language_level=3
"""Where the cases of a judge-format input start, found without judging it.

A large input is cut into runs of whole cases so that several machines can
judge it (``havhex.dask``).  The walk counts tokens as the judges' reader
does (a token is a run of bytes other than white space), reading only the
numbers that give a case's length: Havannah's ``S M`` header is followed by
``2M`` tokens, Hex's ``N`` by ``N`` rows.  Every other token is left to the
judge, which reports any fault in it with the same words as for the whole
file.

Anything unusual stops the walk, and the caller judges the file whole, so
that the judge itself names the fault: a carriage return (the judges count
lines across ``\\r\\n`` and lone ``\\r``), a count that is not plain digits
or is out of range, an input that ends early, or data after the last case.
"""
from libc.stdint cimport int64_t

__all__ = ["case_cuts", "HAVANNAH", "HEX"]

HAVANNAH = 0
HEX = 1

# Counts beyond these are faults the judge reports; the walk does not try
# to skip that many tokens (18 digits would overflow the token count).
DEF LARGEST_COUNT = 1 << 40
DEF NUMBER_DIGITS_MAX = 18


cdef inline bint is_space(unsigned char c) noexcept nogil:
    # The judges' white space but "\r", which stops the walk before this.
    return c == 32 or c == 10 or c == 9 or c == 11 or c == 12


cdef struct Walk:
    const unsigned char* data
    Py_ssize_t pos
    Py_ssize_t end
    int64_t line
    bint unusual


cdef inline bint skip_space(Walk* w) noexcept nogil:
    """Move to the next token's first byte; False at the end or at a "\\r"."""
    cdef unsigned char c
    while w.pos < w.end:
        c = w.data[w.pos]
        if c == 13:
            w.unusual = True
            return False
        if not is_space(c):
            return True
        if c == 10:
            w.line += 1
        w.pos += 1
    return False


cdef inline int64_t read_count(Walk* w) noexcept nogil:
    """The number at the walk's position (a token of 1 to 18 ASCII digits),
    or -1 for anything else; the walk is left after the token."""
    cdef int64_t value = 0
    cdef int digits = 0
    cdef unsigned char c
    while w.pos < w.end:
        c = w.data[w.pos]
        if is_space(c) or c == 13:
            break
        if c < 48 or c > 57 or digits == NUMBER_DIGITS_MAX:
            return -1
        value = value * 10 + (c - 48)
        digits += 1
        w.pos += 1
    return value if digits else -1


cdef inline bint skip_tokens(Walk* w, int64_t count) noexcept nogil:
    """Pass ``count`` tokens; False when the input ends first or at a "\\r"."""
    cdef const unsigned char* data = w.data
    cdef Py_ssize_t pos = w.pos
    cdef Py_ssize_t end = w.end
    cdef int64_t line = w.line
    cdef unsigned char c
    cdef bint inside = False
    # ``count + 1`` token starts would be one too many: stop at the end of
    # the last token, as read_count does.
    while pos < end:
        c = data[pos]
        if c == 32 or c == 9 or c == 11 or c == 12:
            inside = False
        elif c == 10:
            inside = False
            line += 1
        elif c == 13:
            w.unusual = True
            w.pos = pos
            w.line = line
            return False
        elif not inside:
            if count == 0:
                break
            count -= 1
            inside = True
        pos += 1
    w.pos = pos
    w.line = line
    return count == 0


def case_cuts(const unsigned char[::1] data, int game, int64_t unit_bytes):
    """Runs of whole cases of about ``unit_bytes`` each, as a list of cuts
    ``(offset, cases before it, line)``: the first at case 1's first token,
    one at the first token of a case at least ``unit_bytes`` after the
    previous cut, the last at the end of the input (offset = its length,
    cases before it = T).  None when the walk meets anything unusual (see
    the module's text) or the input has no case.
    """
    cdef Walk w
    cdef int64_t cases, case, size, moves, skip
    cdef Py_ssize_t last_cut = 0
    cuts = []
    w.data = &data[0] if data.shape[0] else NULL
    w.pos = 0
    w.end = data.shape[0]
    w.line = 1
    w.unusual = False
    if not skip_space(&w):
        return None
    cases = read_count(&w)
    if cases <= 0 or cases > LARGEST_COUNT:
        return None
    for case in range(cases):
        if not skip_space(&w):
            return None
        if case == 0 or w.pos - last_cut >= unit_bytes:
            cuts.append((w.pos, case, w.line))
            last_cut = w.pos
        if game == HAVANNAH:
            size = read_count(&w)
            if size < 0 or not skip_space(&w):
                return None
            moves = read_count(&w)
            if moves < 0 or moves > LARGEST_COUNT:
                return None
            skip = 2 * moves
        else:
            size = read_count(&w)
            if size < 0 or size > LARGEST_COUNT:
                return None
            skip = size
        with nogil:
            if not skip_tokens(&w, skip):
                w.unusual = True
        if w.unusual:
            return None
    if skip_space(&w) or w.unusual:
        return None         # data after the last case: the judge says so
    cuts.append((w.end, cases, w.line))
    return cuts
