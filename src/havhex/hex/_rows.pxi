# Included by _judge.pyx (one extension, no import between the parts): the row reader.

# --------------------------------------------------------------------------
# Rows
# --------------------------------------------------------------------------

cdef inline Py_ssize_t scan_row(const unsigned char* src, Py_ssize_t avail,
                                uint8_t* dest, int64_t done, int64_t n) noexcept nogil:
    """Translate row characters into cell codes; stop at white space, at a bad
    byte, or after the row's character n + 1 (the row is too long then: no
    more of it is read, so a row that never ends is reported at once).

    ``done`` (at most n) characters of the row were stored before.  Returns
    the number of bytes consumed, all row characters.
    """
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t store = n - done
    cdef uint8_t code
    if store > avail:
        store = avail
    while i < store:
        code = CODE[src[i]]
        if code > BLUE:
            return i
        dest[done + i] = code
        i += 1
    if i < avail and CODE[src[i]] <= BLUE:
        i += 1                  # character n + 1: counted, never stored
    return i


cdef inline void finish_row(uint8_t* row, int64_t n, bint last) noexcept nogil:
    """Separator byte, and the second-side flags of the last column and row."""
    cdef int64_t j
    row[n] = EMPTY
    if row[n - 1]:
        row[n - 1] |= BLUE_SINK
    if last:
        for j in range(n):
            if row[j]:
                row[j] |= RED_SINK


cdef inline void keep_bad_character(Reader* r) noexcept nogil:
    """Copy the bad byte under the reader (with its UTF-8 continuation bytes)."""
    cdef int length = 0
    cdef int c = reader_peek(r)
    while c >= 0 and length < 4:
        r.bad_token[length] = <unsigned char>c
        length += 1
        r.pos += 1
        c = reader_peek(r)
        if c < 0x80 or c > 0xBF:       # not a continuation byte
            break
    r.bad_length = length
