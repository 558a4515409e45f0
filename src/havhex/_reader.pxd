# cython: language_level=3
"""Byte-level tokenizer shared by both judges' input formats.

The reader works on one in-memory buffer, or streams a file descriptor through a
fixed chunk so that memory does not grow with the file.  It never builds a Python
object per token and runs without the GIL.  Line numbers are tracked for errors.
"""
from libc.stdint cimport int64_t
from libc.string cimport memcpy

cdef extern from "<unistd.h>" nogil:
    ssize_t read(int fd, void* buf, size_t count)

cdef extern from "<errno.h>" nogil:
    int errno
    int EINTR

# Status codes returned by the token readers.
cdef enum:
    TOKEN_OK = 0
    TOKEN_MISSING = 1      # end of input where a token was expected
    TOKEN_NOT_INTEGER = 2
    TOKEN_TOO_LARGE = 3
    TOKEN_IO_ERROR = 4


cdef struct Reader:
    const unsigned char* data
    Py_ssize_t pos
    Py_ssize_t end
    int fd                   # -1 when the whole input is already in ``data``
    unsigned char* chunk     # owned buffer for streaming from ``fd``
    Py_ssize_t chunk_size
    int64_t line             # 1-based line of the next unread byte
    int64_t token_line       # line where the last token started
    int io_errno
    # Text of the last bad token, for the error message (NUL-terminated).
    char bad_token[48]


cdef inline bint reader_refill(Reader* r) noexcept nogil:
    """Make at least one more byte available; False at end of input or on error."""
    cdef ssize_t got
    if r.fd < 0 or r.io_errno != 0:
        return False
    while True:
        got = read(r.fd, r.chunk, <size_t>r.chunk_size)
        if got < 0:
            if errno == EINTR:
                continue
            r.io_errno = errno
            return False
        break
    r.data = r.chunk
    r.pos = 0
    r.end = got
    return got > 0


cdef inline int reader_peek(Reader* r) noexcept nogil:
    """Next byte without consuming it, or -1 at the end of input."""
    if r.pos == r.end and not reader_refill(r):
        return -1
    return r.data[r.pos]


cdef inline bint is_space(int c) noexcept nogil:
    return c == 32 or c == 10 or c == 13 or c == 9 or c == 11 or c == 12


cdef inline int reader_skip_space(Reader* r) noexcept nogil:
    """Consume white space; return the next byte (not consumed) or -1."""
    cdef int c
    while True:
        if r.pos == r.end and not reader_refill(r):
            return -1
        c = r.data[r.pos]
        if c == 10:
            r.line += 1
        elif not is_space(c):
            return c
        r.pos += 1


cdef inline void reader_keep_bad_token(Reader* r, int negative, int n_digits,
                                       int64_t value) noexcept nogil:
    """Rebuild the bad token's text: what was parsed, then the rest of the token."""
    cdef int length = 0
    cdef int i
    cdef char digits[24]
    cdef int c
    if negative:
        r.bad_token[length] = 45
        length += 1
    for i in range(n_digits):
        digits[n_digits - 1 - i] = <char>(48 + value % 10)
        value //= 10
    for i in range(n_digits):
        if length < 40:
            r.bad_token[length] = digits[i]
            length += 1
    while True:
        c = reader_peek(r)
        if c < 0 or is_space(c):
            break
        if length < 40:
            r.bad_token[length] = <char>c
            length += 1
        elif length == 40:
            r.bad_token[length] = 46
            r.bad_token[length + 1] = 46
            r.bad_token[length + 2] = 46
            length += 3
        r.pos += 1
    r.bad_token[length] = 0


cdef inline int reader_int(Reader* r, int64_t* out) noexcept nogil:
    """Read one decimal integer token (optional sign, at most 18 digits)."""
    cdef int c = reader_skip_space(r)
    cdef int negative = 0
    cdef int n_digits = 0
    cdef int64_t value = 0
    if c < 0:
        # token_line keeps the last token's line: the input ends after it.
        return TOKEN_IO_ERROR if r.io_errno else TOKEN_MISSING
    r.token_line = r.line
    if c == 45 or c == 43:           # '-' or '+'
        negative = c == 45
        r.pos += 1
    while True:
        if r.pos == r.end and not reader_refill(r):
            break
        c = r.data[r.pos]
        if c < 48 or c > 57:
            break
        if n_digits == 18:
            reader_keep_bad_token(r, negative, n_digits, value)
            return TOKEN_TOO_LARGE
        value = value * 10 + (c - 48)
        n_digits += 1
        r.pos += 1
    if r.io_errno:
        return TOKEN_IO_ERROR
    if n_digits == 0 or (r.pos < r.end and not is_space(r.data[r.pos])):
        reader_keep_bad_token(r, negative, n_digits, value)
        return TOKEN_NOT_INTEGER
    out[0] = -value if negative else value
    return TOKEN_OK
