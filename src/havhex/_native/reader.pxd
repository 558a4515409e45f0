# cython: language_level=3
"""Byte-level tokenizer shared by both judges' input formats.

The reader works on one in-memory buffer, or streams a file descriptor through a
fixed chunk so that memory does not grow with the file.  It never builds a Python
object per token and runs without the GIL.  Line numbers are tracked for errors.

No token is read further than it can be valid: a number ends at its 19th digit
(NUMBER_DIGITS_MAX), a bad token after its first BAD_TOKEN_KEPT bytes (kept for
the message), so that an input that never ends (/dev/zero, an endless line of
digits) is refused after a bounded read.  Only white space, which separates
tokens, is read for as long as it lasts.
"""
from libc.stdint cimport int64_t, uint64_t
from libc.string cimport memcpy

from havhex._native.cancel cimport ECANCELED, wait_readable
from havhex._native.portable cimport ctz64, read_fd

cdef extern from "havhex/_native/lines.h":
    # Bit i set when p[i] is a space or a line feed, for i < 64.
    uint64_t separators64 "havhex_separators64"(const unsigned char* p) noexcept nogil

cdef extern from "<errno.h>" nogil:
    int errno
    int EINTR

# Status codes returned by the token readers.
cdef enum:
    TOKEN_OK = 0
    TOKEN_MISSING = 1      # end of input where a token was expected
    TOKEN_NOT_INTEGER = 2
    TOKEN_TOO_LONG = 3     # a number of more than NUMBER_DIGITS_MAX digits
    TOKEN_IO_ERROR = 4

cdef enum:
    # The longest number token, sign aside: every valid number (at most 10
    # digits) fits with leading zeros to spare, and every 18-digit value fits
    # in an int64_t.  The rule is the token's length, never its value.
    NUMBER_DIGITS_MAX = 18
    # Bytes of a bad token kept for its message: more than the message shows
    # (errors.TOKEN_SHOWN), so that the message knows when to say "...".
    BAD_TOKEN_KEPT = 48


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
    int64_t* bytes_counter   # optional: bytes read so far, for progress displays
    # Size of the whole input in bytes, or -1 when unknown (a pipe), and the
    # bytes before ``data[0]``: together they bound what is still to come.
    int64_t input_size
    int64_t data_offset
    bint after_cr            # the last byte consumed was "\r" (for line counting)
    # The first bytes of the last bad token, for the error message; any byte,
    # NUL included, may be among them.
    unsigned char bad_token[BAD_TOKEN_KEPT]
    int bad_length


cdef inline bint reader_refill(Reader* r) noexcept nogil:
    """Make at least one more byte available; False at end of input or on error."""
    cdef Py_ssize_t got
    if r.fd < 0 or r.io_errno != 0:
        return False
    while True:
        if not wait_readable(r.fd):
            r.io_errno = ECANCELED
            return False
        got = read_fd(r.fd, r.chunk, <size_t>r.chunk_size)
        if got < 0:
            if errno == EINTR:
                continue
            r.io_errno = errno
            return False
        break
    r.data_offset += r.end
    r.data = r.chunk
    r.pos = 0
    r.end = got
    if r.bytes_counter != NULL:
        r.bytes_counter[0] += got
    return got > 0


cdef inline int64_t reader_remaining(const Reader* r) noexcept nogil:
    """Bytes still to come, or -1 when the input's size is unknown."""
    if r.input_size < 0:
        return -1
    return r.input_size - r.data_offset - r.pos


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
    cdef Py_ssize_t pos
    while True:
        if r.pos == r.end and not reader_refill(r):
            return -1
        # Scan the buffered bytes with a local index; the common case is one
        # separator between two tokens.
        pos = r.pos
        while pos < r.end:
            c = r.data[pos]
            # A line ends at "\n", "\r\n" or a lone "\r".
            if c == 10:
                if not r.after_cr:
                    r.line += 1
                r.after_cr = False
            elif c == 13:
                r.line += 1
                r.after_cr = True
            elif not is_space(c):
                r.after_cr = False
                r.pos = pos
                return c
            else:
                r.after_cr = False
            pos += 1
        r.pos = pos


cdef inline void reader_keep_bad_token(Reader* r, int sign, int n_digits,
                                       int64_t value) noexcept nogil:
    """Keep the bad token's first bytes: what was parsed (``sign``, "+",
    "-" or 0 for none, then the digits), then more of the token, up to
    BAD_TOKEN_KEPT bytes in all.  Reads no further than that, so a token
    that never ends is reported at once."""
    cdef int length = 0
    cdef int i
    cdef int c
    if sign:
        r.bad_token[length] = <unsigned char>sign
        length += 1
    # n_digits <= NUMBER_DIGITS_MAX, so sign and digits fit in the buffer.
    for i in range(n_digits):
        r.bad_token[length + n_digits - 1 - i] = <unsigned char>(48 + value % 10)
        value //= 10
    length += n_digits
    while length < BAD_TOKEN_KEPT:
        c = reader_peek(r)
        if c < 0 or is_space(c):
            break
        r.bad_token[length] = <unsigned char>c
        length += 1
        r.pos += 1
    r.bad_length = length


cdef inline int swar_digits(const unsigned char* p, int64_t* value) noexcept nogil:
    """Count the leading digits among 8 bytes and convert them, 8 at a time.

    Subtracting '0' from every byte marks non-digits by a non-zero high
    nibble; borrows only run towards later bytes, past the first non-digit.
    """
    cdef uint64_t chunk, marks
    cdef int n
    memcpy(&chunk, p, 8)
    chunk -= 0x3030303030303030ULL
    marks = swar_marks(chunk)
    n = 8 if marks == 0 else ctz64(marks) >> 3
    if n == 0:
        value[0] = 0
        return 0
    value[0] = swar_value(chunk, n)
    return n


cdef inline uint64_t swar_marks(uint64_t chunk) noexcept nogil:
    """For 8 bytes minus '0' each: a high nibble set in each non-digit byte
    (and possibly in bytes after it, where a borrow ran)."""
    return (chunk | (chunk + 0x0606060606060606ULL)) & 0xF0F0F0F0F0F0F0F0ULL


cdef inline int64_t swar_value(uint64_t chunk, int n) noexcept nogil:
    """The number written by the first ``n`` (1 to 8) bytes of ``chunk``,
    digits minus '0' each."""
    # Move the n digits to the top bytes (leading zeros below), then combine
    # pairs, quads and octets with three multiplications.
    cdef uint64_t shifted = chunk << (8 * (8 - n))
    shifted = ((shifted & 0x0F0F0F0F0F0F0F0FULL) * 2561) >> 8
    shifted = ((shifted & 0x00FF00FF00FF00FFULL) * 6553601) >> 16
    shifted = ((shifted & 0x0000FFFF0000FFFFULL) * 42949672960001ULL) >> 32
    return <int64_t>shifted


cdef struct SeparatorScan:
    # The spaces and line feeds of a buffer, in order, 64 bytes at a time:
    # finding where a line ends then costs no dependency on its digits.
    const unsigned char* base
    const unsigned char* stop     # no block is read at or past this
    uint64_t bits                 # separators of [base, base + 64) not yet given


cdef inline void separators_start(SeparatorScan* scan, const unsigned char* at,
                                  const unsigned char* stop) noexcept nogil:
    scan.base = at
    scan.stop = stop
    scan.bits = separators64(at) if at + 64 <= stop else 0


cdef inline const unsigned char* separators_next(SeparatorScan* scan) noexcept nogil:
    """The next space or line feed, or NULL past the scanned bytes."""
    while scan.bits == 0:
        if scan.base + 128 > scan.stop:
            return NULL
        scan.base += 64
        scan.bits = separators64(scan.base)
    cdef const unsigned char* found = scan.base + ctz64(scan.bits)
    scan.bits &= scan.bits - 1
    return found


cdef inline int reader_int(Reader* r, int64_t* out) noexcept nogil:
    """Read one decimal integer token: an optional sign, then 1 to
    NUMBER_DIGITS_MAX digits; a longer run of digits is TOKEN_TOO_LONG at
    the digit beyond."""
    cdef int c = reader_skip_space(r)
    cdef int sign = 0
    cdef int n_digits = 0
    cdef int64_t value = 0
    cdef const unsigned char* p
    cdef unsigned int digit
    if c < 0:
        # token_line keeps the last token's line: the input ends after it.
        return TOKEN_IO_ERROR if r.io_errno else TOKEN_MISSING
    r.token_line = r.line
    if c == 45 or c == 43:           # '-' or '+'
        sign = c
        r.pos += 1
    if r.end - r.pos > NUMBER_DIGITS_MAX + 1:
        # Fast path: the token and the byte after it are buffered, because a
        # valid token has at most NUMBER_DIGITS_MAX digits; no refill checks
        # per byte.
        p = r.data + r.pos
        n_digits = swar_digits(p, &value)
        if n_digits == 8:
            while True:
                digit = p[n_digits] - 48
                if digit > 9 or n_digits == NUMBER_DIGITS_MAX:
                    break
                value = value * 10 + digit
                n_digits += 1
        r.pos += n_digits
        c = p[n_digits]
        if n_digits == 0 or not is_space(c):
            reader_keep_bad_token(r, sign, n_digits, value)
            return (TOKEN_TOO_LONG if (n_digits == NUMBER_DIGITS_MAX and 48 <= c <= 57)
                    else TOKEN_NOT_INTEGER)
        out[0] = -value if sign == 45 else value
        return TOKEN_OK
    while True:
        if r.pos == r.end and not reader_refill(r):
            break
        c = r.data[r.pos]
        if c < 48 or c > 57:
            break
        if n_digits == NUMBER_DIGITS_MAX:
            reader_keep_bad_token(r, sign, n_digits, value)
            return TOKEN_TOO_LONG
        value = value * 10 + (c - 48)
        n_digits += 1
        r.pos += 1
    if r.io_errno:
        return TOKEN_IO_ERROR
    if n_digits == 0 or (r.pos < r.end and not is_space(r.data[r.pos])):
        reader_keep_bad_token(r, sign, n_digits, value)
        return TOKEN_NOT_INTEGER
    out[0] = -value if sign == 45 else value
    return TOKEN_OK


cdef inline int skip_short_space(const unsigned char* p, int* newlines) noexcept nogil:
    """Length of a run of at most two white-space bytes at ``p`` (-1 if longer)."""
    cdef int n = 0
    while is_space(p[n]):
        # As in reader_skip_space; p[-1] is a digit, never "\r".
        if p[n] == 13 or (p[n] == 10 and (n == 0 or p[n - 1] != 13)):
            newlines[0] += 1
        n += 1
        if n > 2:
            return -1
    return n


cdef inline bint reader_fast_pair(Reader* r, int64_t* x, int64_t* y,
                                  int64_t* x_line) noexcept nogil:
    """Read "x y" when both are plain numbers of at most 7 digits, each after
    at most two white-space bytes, all within the buffer.  Returns False,
    consuming nothing, for anything else: the caller then uses reader_int,
    which also produces the error messages.  Gives x's line in ``x_line``
    and, as two reader_int calls would, leaves token_line on y's line."""
    cdef const unsigned char* p
    cdef int newlines = 0, x_newlines, n
    cdef int64_t value
    if r.end - r.pos < 32:
        return False
    p = r.data + r.pos
    n = skip_short_space(p, &newlines)
    if n <= 0:
        return False
    p += n
    x_newlines = newlines
    n = swar_digits(p, &value)
    if n == 0 or n == 8 or not is_space(p[n]):
        return False
    x[0] = value
    p += n
    n = skip_short_space(p, &newlines)
    if n <= 0:
        return False
    p += n
    n = swar_digits(p, &value)
    if n == 0 or n == 8 or not is_space(p[n]):
        return False
    y[0] = value
    r.pos = (p + n) - r.data
    x_line[0] = r.line + x_newlines
    r.line += newlines
    r.token_line = r.line
    return True


cdef enum:
    END_CLEAN = 0
    END_TRAILING = 1        # data after the last case; its text in bad_token
    END_IO_ERROR = 2


cdef inline int reader_at_end(Reader* r) noexcept nogil:
    """After the last case: nothing but white space may remain."""
    if reader_skip_space(r) >= 0:
        r.token_line = r.line
        reader_keep_bad_token(r, 0, 0, 0)
        return END_TRAILING
    return END_IO_ERROR if r.io_errno else END_CLEAN
