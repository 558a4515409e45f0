# cython: language_level=3
"""The fault record both engines keep for an input.

An engine reads until the first fault, records it here and stops: what went
wrong (``code``), on which line, a number that goes with it (``value``, the
engine says which), and for a token the reader could not take, the reader's
status, what was expected (``field``: the engine's own numbering) and the
I/O error if any.  The record is written without the GIL; the facade turns it
into the message.

The faults both formats can have are numbered here, once; each engine numbers
its own from FAULT_ENGINE_FIRST on.
"""
from libc.stdint cimport int64_t

from havhex._native.cancel cimport ECANCELED
from havhex._native.reader cimport (
    END_IO_ERROR, END_TRAILING, TOKEN_IO_ERROR, Reader, reader_at_end,
)

cdef enum:
    FAULT_NONE = 0
    FAULT_TOKEN = 1             # a token the reader could not take: ``status`` says why
    FAULT_TRAILING = 2          # data after the last case (its text is the token)
    FAULT_NO_MEMORY = 3
    FAULT_ENGINE_FIRST = 4      # the first code an engine gives its own faults


cdef struct Fault:
    int code                    # FAULT_NONE until the first fault
    int status                  # TOKEN_* of a FAULT_TOKEN
    int field                   # what the reader expected (the engine's numbering)
    int64_t line
    int64_t value
    int io_errno
    # The reader's bad_token is this fault's token: it is copied out when the
    # reader is closed (EngineInput.close_reader), while its buffer is alive.
    bint token_kept


cdef inline int fault_set(Fault* fault, int code, int64_t line, int64_t value) noexcept nogil:
    """Record a fault; returns its code, for the reader to return."""
    fault.code = code
    fault.line = line
    fault.value = value
    return code


cdef inline int fault_token(Fault* fault, const Reader* r, int status, int field) noexcept nogil:
    """Record a token the reader refused with ``status`` where it expected
    ``field``; the token, if any, is the reader's bad_token."""
    fault.code = FAULT_TOKEN
    fault.status = status
    fault.field = field
    fault.line = r.token_line
    fault.io_errno = r.io_errno
    fault.token_kept = True
    return FAULT_TOKEN


cdef inline int fault_cancelled(Fault* fault, Reader* r, int field) noexcept nogil:
    """Record a cancelled read, as the I/O fault ECANCELED."""
    r.io_errno = ECANCELED
    return fault_token(fault, r, TOKEN_IO_ERROR, field)


cdef inline int fault_at_end(Fault* fault, Reader* r, int field) noexcept nogil:
    """After the last case: FAULT_NONE when only white space remains, else
    the fault recorded (``field`` names the end of the input)."""
    cdef int end = reader_at_end(r)
    if end == END_TRAILING:
        fault.token_kept = True
        return fault_set(fault, FAULT_TRAILING, r.token_line, 0)
    if end == END_IO_ERROR:
        return fault_token(fault, r, TOKEN_IO_ERROR, field)
    return FAULT_NONE
