# cython: language_level=3
"""Where the cases of a judge-format input start, found without judging it.

A large input is cut into runs of whole cases so that several machines can
judge it (``havhex.dask``).  The walk counts tokens as the judges' reader
does (a token is a run of bytes other than white space), reading only the
numbers that give a case's length: Havannah's ``S M`` header is followed by
``2M`` tokens, Hex's ``N`` by ``N`` rows.  Every other token is left to the
judge, which reports any fault in it with the same words as for the whole
file.

Anything unusual stops the walk: a carriage return (the judges count lines
across ``\\r\\n`` and lone ``\\r``), a count that is not plain digits or is
out of range, an input that ends early, or data after the last case.  The
caller then judges the cases from the last cut on as one run (or the whole
file, when T itself is not a plain count), so that the judge itself names
the fault.
"""
from libc.stdint cimport int64_t

__all__ = ["CaseWalk", "case_cuts", "HAVANNAH", "HEX"]

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


# Byte classes for the walk: a token's byte, white space, a line feed, a
# carriage return.
cdef unsigned char CLASS[256]
cdef int _byte
for _byte in range(256):
    CLASS[_byte] = 0
for _byte in (32, 9, 11, 12):
    CLASS[_byte] = 1
CLASS[10] = 2
CLASS[13] = 3


cdef inline bint skip_tokens(Walk* w, int64_t count) noexcept nogil:
    """Pass ``count`` tokens; False when the input ends first or at a "\\r".
    Blocks of 8 bytes are counted without a branch a byte; a block that
    holds a "\\r" or the start of a token beyond ``count`` is walked byte
    by byte."""
    cdef const unsigned char* data = w.data
    cdef Py_ssize_t pos = w.pos
    cdef Py_ssize_t end = w.end
    cdef int64_t line = w.line
    cdef unsigned char c, kind
    cdef bint inside = False
    cdef bint token, before
    cdef int k, starts, feeds, returns
    while pos + 8 <= end:
        starts = feeds = returns = 0
        before = inside
        for k in range(8):
            kind = CLASS[data[pos + k]]
            token = kind == 0
            starts += token and not before
            before = token
            feeds += kind == 2
            returns += kind == 3
        if returns or starts > count:
            break
        count -= starts
        line += feeds
        inside = before
        pos += 8
    # ``count + 1`` token starts would be one too many: stop at the end of
    # the last token, as read_count does.
    while pos < end:
        c = data[pos]
        kind = CLASS[c]
        if kind == 1:
            inside = False
        elif kind == 2:
            inside = False
            line += 1
        elif kind == 3:
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


cdef class CaseWalk:
    """A walk over the cases of one input, cut by cut, so that runs can be
    judged while the rest of the input is still being walked.

    ``cases`` is T, or -1 when T is not a plain count (the input is then
    judged whole).  Each :meth:`next_cut` returns the next cut ``(offset,
    cases before it, line)``: first case 1's first token, then the first
    token of a case at least ``unit_bytes`` after the previous cut, last the
    end of the input ``(length, T, line)``; None once the walk has met
    anything unusual (``unusual`` is then True: the cases from the last cut
    on are judged as one run, which reports whatever is wrong) or has
    returned the end.
    """
    cdef const unsigned char[::1] data
    cdef Walk w
    cdef int game
    cdef readonly int64_t cases
    cdef int64_t case
    cdef Py_ssize_t last_cut
    cdef readonly bint unusual
    cdef bint finished

    def __init__(self, const unsigned char[::1] data, int game):
        self.data = data
        self.game = game
        self.w.data = &data[0] if data.shape[0] else NULL
        self.w.pos = 0
        self.w.end = data.shape[0]
        self.w.line = 1
        self.w.unusual = False
        self.case = 0
        self.last_cut = 0
        self.unusual = False
        self.finished = False
        self.cases = -1
        if skip_space(&self.w):
            self.cases = read_count(&self.w)
            if self.cases > LARGEST_COUNT:
                self.cases = -1
        if self.cases <= 0:
            self.finished = True

    def next_cut(self, int64_t unit_bytes):
        cdef Walk* w = &self.w
        if self.finished:
            return None
        if w.unusual:
            return self._stop()
        while self.case < self.cases:
            if not skip_space(w):
                return self._stop()      # fewer cases than T, or a "\\r"
            if self.case == 0 or w.pos - self.last_cut >= unit_bytes:
                cut = (w.pos, self.case, w.line)
                self.last_cut = w.pos
                self._pass_case()        # anything amiss stops the next call
                return cut
            self._pass_case()
            if w.unusual:
                return self._stop()
        # After T cases, nothing but white space may follow.
        if skip_space(w) or w.unusual:
            return self._stop()
        self.finished = True
        return (w.end, self.cases, w.line)

    cdef object _stop(self):
        self.unusual = True
        self.finished = True
        return None

    cdef void _pass_case(self):
        """Read case ``self.case``'s header and pass its tokens (``w.unusual``
        set when anything is amiss)."""
        cdef Walk* w = &self.w
        cdef int64_t size, moves, skip
        cdef bint passed
        self.case += 1
        if self.game == HAVANNAH:
            size = read_count(w)
            if size < 0 or not skip_space(w):
                w.unusual = True
                return
            moves = read_count(w)
            if moves < 0 or moves > LARGEST_COUNT:
                w.unusual = True
                return
            skip = 2 * moves
        else:
            size = read_count(w)
            if size < 0 or size > LARGEST_COUNT:
                w.unusual = True
                return
            skip = size
        with nogil:
            passed = skip_tokens(w, skip)
        if not passed:
            w.unusual = True


def case_cuts(const unsigned char[::1] data, int game, int64_t unit_bytes):
    """Runs of whole cases of about ``unit_bytes`` each, as a list of cuts
    ``(offset, cases before it, line)``: the first at case 1's first token,
    one at the first token of a case at least ``unit_bytes`` after the
    previous cut, the last at the end of the input (offset = its length,
    cases before it = T).  None when the walk meets anything unusual (see
    the module's text) or the input has no case.
    """
    walk = CaseWalk(data, game)
    cuts = []
    while True:
        cut = walk.next_cut(unit_bytes)
        if cut is None:
            return None
        cuts.append(cut)
        if cut[1] == walk.cases:         # the end
            return cuts
