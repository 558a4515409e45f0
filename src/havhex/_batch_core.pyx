# cython: language_level=3, auto_pickle=False
"""What both games' batch cores share in compiled code: the memory of the
fields, which Python may read but never write, and the runner of a batch's
calls, which splits a call over threads and lets one call in at a time.

Why compiled: Python raises a KeyboardInterrupt between any two bytecodes
of the main thread, so a call coordinated in Python can be cut between
handing parts to its threads and waiting for them, or just after a wait
has succeeded, and then return while a thread still writes, or wait for a
part that never comes.  Here the hand-out, the caller's own part and the
waits are C: an interrupt that arrives meanwhile is raised by the first
bytecode after the call, once every part has finished.  The busy flag is
set and cleared in the same C, so no interrupt can leave it set.
"""
from cpython.buffer cimport PyBUF_WRITABLE, PyBuffer_FillInfo
from cpython.pythread cimport (
    WAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock, PyThread_free_lock,
    PyThread_release_lock, PyThread_type_lock,
)
from libc.stdint cimport int64_t
from libc.stdlib cimport calloc, free

from havhex._native.portable cimport compare_exchange, store_release

import _thread

from havhex._threads import pthread_sigmask as _block_signals

if _block_signals is not None:
    from havhex._threads import _STOPPING_SIGNALS, SIG_BLOCK

__all__ = ["Block", "Runner"]


cdef class Block:
    """``size`` zeroed bytes that a core writes through its own pointer.
    Its buffer is read-only: NumPy arrays made on it (``numpy.frombuffer``)
    refuse writes, and refuse ``flags.writeable = True``, as NumPy asks the
    base for a writable buffer before it sets that flag.  No method hands
    out a writable view."""
    cdef char* data
    cdef readonly Py_ssize_t size

    def __init__(self, Py_ssize_t size):
        if self.data != NULL:
            raise TypeError("a Block is initialised once")
        if size < 0:
            raise ValueError(f"a block of {size} bytes")
        # One byte at least: an empty field still has an address.
        self.data = <char*>calloc(<size_t>max(size, 1), 1)
        if self.data == NULL:
            raise MemoryError(f"no memory for a field of {size} bytes")
        self.size = size

    def __dealloc__(self):
        free(self.data)

    def __getbuffer__(self, Py_buffer* view, int flags):
        if flags & PyBUF_WRITABLE:
            raise BufferError("a batch's fields are read-only: copy one to change it")
        PyBuffer_FillInfo(view, self, self.data, self.size, 1, flags)

    def __releasebuffer__(self, Py_buffer* view):
        pass


cdef class Runner:
    """Runs a batch's calls one at a time, each split into ``parts``
    (``((lo, hi), ...)``, the games of each): the first on the calling
    thread, each other on a worker thread kept for the batch (starting a
    thread a step would cost a good part of the step).  Each worker waits
    on a lock of its own for a part and says it is done on another.

    ``start()`` starts the workers (or none, and stops those it started,
    when one cannot start); ``stop()`` lets them end.  The workers hold the
    runner, not the batch: the batch's finaliser stops them."""
    cdef PyThread_type_lock* go
    cdef PyThread_type_lock* done
    cdef readonly int workers
    cdef int allocated, started
    cdef bint stopping
    cdef int64_t busy
    cdef tuple parts
    cdef object part
    cdef object error

    def __init__(self, tuple parts):
        cdef int k
        if self.parts is not None:
            raise TypeError("a Runner is initialised once")
        if len(parts) < 1:
            raise ValueError("a runner needs a part")
        self.parts = tuple((int(lo), int(hi)) for lo, hi in parts)
        self.workers = len(parts) - 1
        self.go = <PyThread_type_lock*>calloc(max(self.workers, 1), sizeof(PyThread_type_lock))
        self.done = <PyThread_type_lock*>calloc(max(self.workers, 1), sizeof(PyThread_type_lock))
        if self.go == NULL or self.done == NULL:
            raise MemoryError("no memory for a batch's threads")
        for k in range(self.workers):
            self.go[k] = PyThread_allocate_lock()
            self.done[k] = PyThread_allocate_lock()
            if self.go[k] == NULL or self.done[k] == NULL:
                self.allocated = k + 1
                raise MemoryError("no lock for a batch's threads")
            # Both held: a worker waits for go, the caller for done.
            PyThread_acquire_lock(self.go[k], WAIT_LOCK)
            PyThread_acquire_lock(self.done[k], WAIT_LOCK)
        self.allocated = self.workers

    def __dealloc__(self):
        # Only once no worker runs: each holds the runner while it lives.
        cdef int k
        if self.go != NULL and self.done != NULL:
            for k in range(self.allocated):
                if self.go[k] != NULL:
                    PyThread_free_lock(self.go[k])
                if self.done[k] != NULL:
                    PyThread_free_lock(self.done[k])
        free(self.go)
        free(self.done)

    def start(self):
        """Start the workers.  When one cannot start, those that did are
        stopped and the error raised: no thread is left waiting."""
        try:
            while self.started < self.workers:
                _thread.start_new_thread(self._work, (self.started,))
                self.started += 1
        except BaseException:
            self.stop()
            raise

    def stop(self):
        """Let the workers end (each ends once it sees the flag)."""
        cdef int k
        if self.stopping:
            return
        self.stopping = True
        for k in range(self.started):
            PyThread_release_lock(self.go[k])

    def _work(self, int k):
        cdef PyThread_type_lock go = self.go[k]
        cdef PyThread_type_lock done = self.done[k]
        if _block_signals is not None:
            # The stopping signals go to the main thread, whose waits they
            # cut short there (see havhex._threads).
            _block_signals(SIG_BLOCK, _STOPPING_SIGNALS)
        while True:
            with nogil:
                PyThread_acquire_lock(go, WAIT_LOCK)
            if self.stopping:
                return
            lo, hi = self.parts[k + 1]
            try:
                self.part(lo, hi)
            except BaseException as error:      # handed to the calling thread
                self.error = error
            PyThread_release_lock(done)

    def call(self, check, tuple args, part):
        """``check(*args)`` (None: nothing), then ``part(lo, hi)`` over
        every part (None: nothing), while no other call of this runner
        runs: another thread's call meanwhile raises RuntimeError at once.
        An error in check stops the call before any part runs; an error in
        a part is raised once every part has finished.  Returns what check
        returned."""
        cdef object answer = None
        if not compare_exchange(&self.busy, 0, 1):
            raise RuntimeError("another thread is in a call of this batch: a batch takes "
                               "one call at a time (give each thread a batch of its own, "
                               "or a lock around the calls)")
        try:
            if check is not None:
                answer = check(*args)
            if part is not None:
                self._run(part)
        finally:
            store_release(&self.busy, 0)
        return answer

    cdef _run(self, part):
        cdef int k
        cdef object first_error = None
        if self.workers == 0:
            lo, hi = self.parts[0]
            part(lo, hi)
            return
        if self.started < self.workers or self.stopping:
            raise RuntimeError("the batch's threads are not running")
        self.part = part
        self.error = None
        for k in range(self.workers):
            PyThread_release_lock(self.go[k])
        lo, hi = self.parts[0]
        try:
            part(lo, hi)
        except BaseException as error:
            first_error = error
        # Every worker is waited for, whatever happened here: the arrays
        # they write must not change after the call returns.  The wait
        # takes no signal: an interrupt waits for the end of the call.
        with nogil:
            for k in range(self.workers):
                PyThread_acquire_lock(self.done[k], WAIT_LOCK)
        self.part = None
        error, self.error = self.error, None
        if first_error is not None:
            raise first_error
        if error is not None:
            raise error
