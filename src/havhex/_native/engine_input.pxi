# Included by both engines' _judge.pyx: what an input of either game keeps
# besides its cases, namely the fault record, the cancel flag and the reader
# over the source.
#
# A .pxd declares a cdef class only for a module of its own, and _native is
# cimported, not built: so the class body is included, and each engine
# compiles it from this one source.  The nogil parts (the fault helpers, the
# reader) are inline functions in the .pxd files cimported here.

from libc.stdint cimport int64_t
from libc.string cimport memset

from havhex._native.cancel cimport request_cancel, watch_cancel
from havhex._native.faults cimport FAULT_NO_MEMORY, FAULT_NONE, FAULT_TOKEN, FAULT_TRAILING, Fault
from havhex._native.reader cimport (
    NUMBER_DIGITS_MAX, TOKEN_IO_ERROR, TOKEN_MISSING, TOKEN_NOT_INTEGER, TOKEN_TOO_LONG, Reader,
)

import os

# The reader's statuses and digit limit, and the faults both formats share,
# as the facades and havhex.errors read them.
TOKEN_CODES = (TOKEN_MISSING, TOKEN_NOT_INTEGER, TOKEN_TOO_LONG, TOKEN_IO_ERROR)
MAX_NUMBER_DIGITS = NUMBER_DIGITS_MAX
SHARED_FAULT_CODES = (FAULT_TOKEN, FAULT_TRAILING, FAULT_NO_MEMORY)


cdef int64_t bytes_ahead(int descriptor):
    """Bytes from the descriptor's position to the end of its regular file,
    or -1 (a pipe, a terminal, anything whose size is not known)."""
    import stat
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            return -1
        return max(status.st_size - os.lseek(descriptor, 0, os.SEEK_CUR), 0)
    except OSError:
        return -1


cdef class EngineInput:
    """The first fault of an input (``err_*``), the flag that cancels the
    work on it, and the reader over its source while it is read."""
    cdef Fault fault
    cdef bytes fault_token              # the token of the fault, once the reader is closed
    cdef int cancel_flag                # set by cancel(), polled by the work
    cdef int64_t bytes_read             # progress, read while other threads work
    cdef Reader reader
    cdef object reader_owner            # what ``reader`` points into

    @property
    def err_code(self):
        """0, or the code of the first fault (the engine's FAULT_CODES)."""
        return self.fault.code

    @property
    def err_status(self):
        """The reader's status (TOKEN_CODES) for a bad token."""
        return self.fault.status

    @property
    def err_field(self):
        """What the reader expected where a token was at fault."""
        return self.fault.field

    @property
    def err_line(self):
        return self.fault.line

    @property
    def err_value(self):
        return self.fault.value

    @property
    def err_io_errno(self):
        return self.fault.io_errno

    @property
    def err_token(self):
        """The bytes at fault (a bad token, a bad character, trailing data)."""
        return self.fault_token

    def cancel(self):
        """Make the compiled work on this input (in any thread) stop within
        milliseconds, leaving meaningless results; for a caller that is
        leaving by an exception (havhex._threads.run_interruptibly)."""
        request_cancel(&self.cancel_flag)

    cdef int _parse(self, Reader* r) noexcept nogil:
        """Read the whole input from ``r``, stopping at the first fault
        (recorded); each engine reads its own format."""
        return FAULT_NONE

    cdef read_source(self, source, Py_ssize_t chunk_size):
        """Read the whole source (see open_reader), up to its first fault,
        without the GIL and under this input's cancel flag."""
        self.open_reader(source, chunk_size)
        try:
            with nogil:
                watch_cancel(&self.cancel_flag)
                self._parse(&self.reader)
                watch_cancel(NULL)
        finally:
            self.close_reader()

    cdef open_reader(self, source, Py_ssize_t chunk_size):
        """Point ``reader`` at bytes, or at a file descriptor read through a
        chunk of ``chunk_size`` bytes (counted in ``bytes_read``)."""
        cdef Reader* reader = &self.reader
        cdef const unsigned char[::1] view
        cdef bytearray chunk
        memset(reader, 0, sizeof(Reader))
        reader.line = 1
        reader.token_line = 1
        if isinstance(source, int):
            chunk = bytearray(chunk_size)
            reader.fd = source
            reader.chunk = <unsigned char*>chunk
            reader.chunk_size = chunk_size
            reader.bytes_counter = &self.bytes_read
            reader.input_size = bytes_ahead(source)
            self.reader_owner = chunk
        else:
            view = source
            reader.fd = -1
            reader.data = &view[0] if view.shape[0] else NULL
            reader.end = view.shape[0]
            reader.input_size = view.shape[0]
            self.bytes_read = view.shape[0]
            self.reader_owner = view

    cdef close_reader(self):
        """Keep the fault's token, then let the reader's memory go."""
        if self.fault.token_kept:
            self.fault_token = bytes(self.reader.bad_token[:self.reader.bad_length])
        memset(&self.reader, 0, sizeof(Reader))
        self.reader_owner = None
