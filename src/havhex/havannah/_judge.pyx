# cython: language_level=3
"""Havannah engine: reader for the judge format and the first-win kernel.

Flow: ``parse`` turns bytes (or a file descriptor) into flat move arrays,
``judge`` runs the kernel over every case, ``enclosed_empty`` is the exact,
slow-but-sure ring witness.  Python objects stay outside the ``nogil`` blocks.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort, realloc
from libc.string cimport memcpy, memset

from havhex._native.reader cimport (
    END_IO_ERROR, END_TRAILING, NUMBER_DIGITS_MAX, Reader, TOKEN_IO_ERROR, TOKEN_MISSING,
    TOKEN_NOT_INTEGER, TOKEN_OK, TOKEN_TOO_LONG, SeparatorScan, reader_at_end, reader_fast_pair,
    reader_int, reader_remaining, separators_next, separators_start, swar_marks, swar_value,
)
from havhex._native.cancel cimport ECANCELED, cancel_requested, cancelled, request_cancel, watch_cancel
from havhex._native.unionfind cimport uf_find, uf_hang, uf_link
from havhex._native.portable cimport (
    aligned_alloc, aligned_free, compare_exchange, ctz32, fetch_add, HUGE_PAGE_ADVICE,
    load_acquire, load_relaxed, MALLOC_ALIGNMENT, monotonic_us, pointer_load_acquire,
    pointer_store_release, prefetch_line, request_huge_pages, sleep_us, store_release,
    store_relaxed,
)

import os

cdef extern from *:
    """
    /* The next multiplier after a bad one: a splitmix64 step, odd. */
    static inline uint64_t havhex_next_multiplier(uint64_t previous) {
        uint64_t z = previous + 0x9E3779B97F4A7C15ULL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return (z ^ (z >> 31)) | 1;
    }
    """
    uint64_t havhex_next_multiplier(uint64_t previous) noexcept nogil

# Kinds of winning structure, as bits; the judge prints them in this order.
cdef enum:
    KIND_BRIDGE = 1
    KIND_FORK = 2
    KIND_RING = 4

cdef enum:
    MAX_SIZE = 1 << 30
    # Union-find indices are int32 and one slot is reserved.
    MAX_MOVES = 2147483646

# What the reader expected when it failed (for messages).
cdef enum Field:
    FIELD_T, FIELD_S, FIELD_M, FIELD_X, FIELD_Y, FIELD_END

# Error kinds.
cdef enum:
    ERR_NONE = 0
    ERR_TOKEN = 1          # reader status in err_status
    ERR_T_RANGE = 2
    ERR_S_RANGE = 3
    ERR_M_RANGE = 4
    ERR_OFF_BOARD = 5
    ERR_TRAILING = 6
    ERR_NO_MEMORY = 7

# The codes as the facade reads them, so that they are stated once.
FAULT_CODES = (ERR_TOKEN, ERR_T_RANGE, ERR_S_RANGE, ERR_M_RANGE, ERR_OFF_BOARD, ERR_TRAILING,
               ERR_NO_MEMORY)
TOKEN_CODES = (TOKEN_MISSING, TOKEN_NOT_INTEGER, TOKEN_TOO_LONG, TOKEN_IO_ERROR)
MAX_NUMBER_DIGITS = NUMBER_DIGITS_MAX

include "_geometry.pxi"


class HavannahError(Exception):
    """Internal carrier; the facade turns it into ``havhex.InputError``."""


include "_celltable.pxi"
include "_kernel.pxi"
include "_moves.pxi"


# --------------------------------------------------------------------------
# Scheduling: the reader publishes cases, workers judge them (-j).
# --------------------------------------------------------------------------

cdef enum:
    # Old case tables are kept until the end (a worker may still read one);
    # doubling from 64 entries, this many generations is never reached.
    MAX_TABLE_GENERATIONS = 58


cdef inline int64_t now_us() noexcept nogil:
    return monotonic_us()


cdef struct WorkerNote:
    # What one worker is judging, for the reader's choice (_enough_read).
    # All fields are read by other threads, with relaxed atomic loads: they
    # only feed an estimate.
    int64_t busy              # 1 while judging
    int64_t n_moves           # moves of the case
    int64_t played            # moves judged so far, every PROGRESS_STEP
    int64_t started           # now_us() when the case was taken


cdef enum:
    CLAIM_NOT_YET = -1        # no case to take until more is read
    CLAIM_NONE_LEFT = -2


cdef class HavannahInput:
    """Cases of one input, their verdicts, and the first fault if any."""
    cdef CaseData** cases               # published table, replaced when full
    cdef int64_t table_capacity
    cdef void* retired[MAX_TABLE_GENERATIONS]
    cdef int n_retired
    cdef int64_t n_open                 # cases in the table, in input order
    cdef int64_t n_ready                # complete cases: the first n_ready
    cdef bint stream_cases              # open a case to workers as it is read
    # The input, when any worker with nothing to judge reads the next case.
    cdef Reader reader
    cdef object reader_owner            # what ``reader`` points into
    cdef bint shared_reading            # workers read in turn (_read_turn)
    cdef int64_t reader_busy            # 1 while a worker reads
    cdef int64_t n_cases_claimed        # T, once read
    cdef int64_t n_cases_read           # cases whose header is read
    cdef bint count_read
    cdef int64_t parse_done
    cdef int64_t next_case              # shared by the workers
    cdef WorkerNote* notes              # one per worker while judge() reads in turn
    cdef int64_t n_notes
    cdef int64_t next_note
    cdef int64_t last_read_us           # time the last case took to read
    cdef bint hand_over_reading         # tests: stop reading after every case
    cdef int64_t read_turns             # times a worker took the reader
    cdef int64_t refuse_memory_for      # tests: this case is refused memory (-1: none)
    cdef object hash_multiplier         # tests: the cell table's multiplier (None: random)
    cdef int64_t table_reseeds          # tests: totals of the workers' Scratch counters
    cdef int64_t table_growths
    cdef int64_t table_probe_steps
    cdef CaseData* partial              # the moves read of a case cut by a fault
    cdef int64_t bytes_read             # progress, read while other threads work
    cdef int64_t n_judged
    cdef bint judged
    cdef int cancel_flag                # set by cancel(), polled by the work
    # Parse fault: ERR_* code and its context.
    cdef public int err_code
    cdef public int err_status
    cdef public int err_field
    cdef public int64_t err_line
    cdef public int64_t err_value
    cdef public int64_t err_x
    cdef public int64_t err_y
    cdef public int64_t err_size
    cdef public int err_io_errno
    cdef public bytes err_token
    cdef int err_token_pending

    def __cinit__(self):
        self.refuse_memory_for = -1

    def __dealloc__(self):
        cdef int64_t i
        for i in range(self.n_ready):
            case_free(self.cases[i])
        free(self.cases)
        for i in range(self.n_retired):
            free(self.retired[i])
        case_free(self.partial)
        free(self.notes)

    def partial_duplicate(self):
        """In the case cut short by the fault: the first repeated hexagon as
        (move index, first index, x, y, line), or None.  A repeat before the
        fault is the earlier fault."""
        cdef CaseData* case = self.partial
        cdef int64_t i
        if case == NULL:
            return None
        seen = {}
        for i in range(case.n_moves):
            cell = (case.coords[2 * i], case.coords[2 * i + 1])
            if cell in seen:
                return i, seen[cell], cell[0], cell[1], case_line(case, i)
            seen[cell] = i
        return None

    @property
    def n_cases(self):
        return self.n_ready

    @property
    def n_moves(self):
        cdef int64_t i, total = 0
        for i in range(self.n_ready):
            total += self.cases[i].n_moves
        return total

    cdef CaseData* _case(self, int64_t case) except NULL:
        if not 0 <= case < self.n_ready:
            raise IndexError(case)
        return self.cases[case]

    def case_size(self, int64_t case):
        return self._case(case).size

    def case_moves(self, int64_t case):
        """Moves of one case as a list of (x, y)."""
        cdef CaseData* data = self._case(case)
        cdef int64_t i
        return [(data.coords[2 * i], data.coords[2 * i + 1]) for i in range(data.n_moves)]

    def case_coords(self, int64_t case, n_moves=None):
        """The first ``n_moves`` moves (default all) of one case as an
        ``array('i')`` of interleaved x, y: one copy, no object per move."""
        cdef CaseData* data = self._case(case)
        cdef int64_t n = data.n_moves if n_moves is None else min(max(<int64_t>n_moves, 0), data.n_moves)
        from array import array
        coords = array("i", bytes(<size_t>(2 * n) * sizeof(int32_t)))
        cdef int32_t[::1] view = coords
        if n:
            memcpy(&view[0], data.coords, <size_t>(2 * n) * sizeof(int32_t))
        return coords

    def move_line(self, int64_t case, int64_t move):
        cdef CaseData* data = self._case(case)
        if not 0 <= move < data.n_moves:
            raise IndexError(move)
        return case_line(data, move)

    cdef bint _append(self, CaseData* case) noexcept nogil:
        """Append a case to the table; workers see it once n_open covers it."""
        cdef CaseData** table = self.cases
        cdef int64_t capacity
        if self.n_open == self.table_capacity:
            if self.n_retired == MAX_TABLE_GENERATIONS:
                return False
            capacity = self.table_capacity * 2 if self.table_capacity else 64
            table = <CaseData**>malloc(<size_t>capacity * sizeof(CaseData*))
            if table == NULL:
                return False
            if self.n_open:
                memcpy(table, self.cases, <size_t>self.n_open * sizeof(CaseData*))
            if self.cases != NULL:
                self.retired[self.n_retired] = self.cases
                self.n_retired += 1
            self.table_capacity = capacity
        table[self.n_open] = case
        pointer_store_release(<void**>&self.cases, table)
        store_release(&self.n_open, self.n_open + 1)
        return True

    cdef bint _publish(self, CaseData* case) noexcept nogil:
        """Append a complete case."""
        if not self._append(case):
            return False
        store_release(&self.n_ready, self.n_ready + 1)
        return True

    cdef int _parse(self, Reader* r) noexcept nogil:
        """Read the whole judge format; stop at the first fault (recorded)."""
        cdef int status = STEP_MORE
        while status == STEP_MORE:
            status = self._read_step(r)
        store_release(&self.parse_done, 1)
        return status

    cdef int _read_step(self, Reader* r) noexcept nogil:
        """Read on: the case count first, then one case a call, then the end.
        STEP_MORE while there is more to read, ERR_NONE at a sound end, or
        the code of the fault (recorded)."""
        cdef int status, end
        if cancelled():
            r.io_errno = ECANCELED
            return self._token_fault(r, TOKEN_IO_ERROR, FIELD_END)
        if not self.count_read:
            status = reader_int(r, &self.n_cases_claimed)
            if status != TOKEN_OK:
                return self._token_fault(r, status, FIELD_T)
            if self.n_cases_claimed < 0:
                return self._fault(ERR_T_RANGE, r.token_line, self.n_cases_claimed)
            self.count_read = True
            return STEP_MORE
        if self.n_cases_read < self.n_cases_claimed:
            self.n_cases_read += 1
            status = self._read_case(r)
            return STEP_MORE if status == ERR_NONE else status
        end = reader_at_end(r)
        if end == END_TRAILING:
            self.err_token_pending = 1
            return self._fault(ERR_TRAILING, r.token_line, 0)
        if end == END_IO_ERROR:
            return self._token_fault(r, TOKEN_IO_ERROR, FIELD_END)
        return ERR_NONE

    cdef int _read_case(self, Reader* r) noexcept nogil:
        """Read one case: its header, then its moves."""
        cdef int64_t size, n_moves, cells, remaining
        cdef CaseData* case = NULL
        cdef MoveFault fault
        cdef int status
        cdef bint streamed
        status = reader_int(r, &size)
        if status != TOKEN_OK:
            return self._token_fault(r, status, FIELD_S)
        if size < 2 or size > MAX_SIZE:
            return self._fault(ERR_S_RANGE, r.token_line, size)
        status = reader_int(r, &n_moves)
        if status != TOKEN_OK:
            return self._token_fault(r, status, FIELD_M)
        cells = 3 * size * (size - 1) + 1
        if n_moves < 0 or n_moves > cells or n_moves > MAX_MOVES:
            self.err_size = size
            return self._fault(ERR_M_RANGE, r.token_line, n_moves)
        case = <CaseData*>calloc(1, sizeof(CaseData))
        if case == NULL:
            return self._fault(ERR_NO_MEMORY, r.token_line, 0)
        case.size = size
        case.n_claimed = n_moves
        case.first_line = r.token_line + 1
        case.duplicate = -1
        # When the input left can hold the claimed moves (each takes at
        # least 4 bytes), room for all of them is made at once: the
        # coordinates then never move, so workers may judge the case
        # while it is read (a worker's table grows with the moves read).
        # Otherwise memory grows with the moves read, never ahead of them:
        # a header can claim memory only as far as the input left could
        # hold its moves.
        streamed = False
        remaining = reader_remaining(r)
        # (Where that much memory is refused, the moves are read as they
        # come, as for a pipe.)
        if 0 < n_moves <= remaining // 4 and case_grow_to(case, n_moves):
            if self.stream_cases:
                if not self._append(case):
                    case_free(case)
                    return self._fault(ERR_NO_MEMORY, r.token_line, 0)
                streamed = True
        status = read_moves(r, case, n_moves, &fault)
        if status != ERR_NONE:
            self.partial = case
            if status == ERR_TOKEN:
                self.err_value = fault.value
                return self._token_fault(r, fault.token_status, fault.field)
            if status == ERR_OFF_BOARD:
                self.err_x = fault.x
                self.err_y = fault.y
                self.err_size = size
            return self._fault(status, fault.line, fault.value)
        if streamed:
            store_release(&self.n_ready, self.n_ready + 1)
        elif not self._publish(case):
            case_free(case)
            return self._fault(ERR_NO_MEMORY, r.token_line, 0)
        return ERR_NONE

    cdef int _fault(self, int code, int64_t line, int64_t value) noexcept nogil:
        self.err_code = code
        self.err_line = line
        self.err_value = value
        return code

    cdef int _token_fault(self, Reader* r, int status, int field) noexcept nogil:
        self.err_code = ERR_TOKEN
        self.err_status = status
        self.err_field = field
        self.err_line = r.token_line
        self.err_io_errno = r.io_errno
        self.err_token_pending = 1
        return ERR_TOKEN

    # ---- judging ----------------------------------------------------------

    cdef int64_t _claim_case(self) noexcept nogil:
        """Take the next case read (or being read): its number, CLAIM_NOT_YET
        while it is not read yet, or CLAIM_NONE_LEFT."""
        cdef int64_t number, done
        while True:
            # parse_done first: once it is set, n_open is final.
            done = load_acquire(&self.parse_done)
            number = load_acquire(&self.next_case)
            if number < load_acquire(&self.n_open):
                if compare_exchange(&self.next_case, number, number + 1):
                    return number
                continue
            return CLAIM_NONE_LEFT if done else CLAIM_NOT_YET

    cdef bint _read_turn(self) noexcept nogil:
        """Read whole cases if no other worker is reading, until this worker
        had better judge what it read (_enough_read).  False if it did not
        read."""
        cdef int status
        cdef int64_t started
        if (not self.shared_reading or load_acquire(&self.parse_done)
                or not compare_exchange(&self.reader_busy, 0, 1)):
            return False
        self.read_turns += 1
        while not load_acquire(&self.parse_done):
            started = now_us()
            status = self._read_step(&self.reader)
            if status != STEP_MORE:
                store_release(&self.parse_done, 1)
                break
            self.last_read_us = now_us() - started
            if self.hand_over_reading or self._enough_read():
                break
        store_release(&self.reader_busy, 0)
        return True

    cdef void _read_rest(self) noexcept nogil:
        """Read to the end of the input (or its first fault), whoever judges."""
        while not load_acquire(&self.parse_done):
            if not self._read_turn():
                sleep_us(20)

    cdef bint _enough_read(self) noexcept nogil:
        """Whether the reader should stop and judge the case it just read.

        Reading on pays while no case waits (nothing to judge), or while
        another worker will finish its case about as soon as the next case
        can be read: that worker then finds a case ready, and this one takes
        the case waiting now.  Otherwise the reader would leave a case
        waiting that it could be judging.  With four large cases on two
        threads, reading everything first made one thread judge the last
        case alone."""
        cdef int64_t w, played, now
        cdef double remaining
        cdef WorkerNote* note
        if load_acquire(&self.next_case) >= load_acquire(&self.n_open):
            return False
        now = now_us()
        for w in range(self.n_notes):
            note = &self.notes[w]
            if not load_relaxed(&note.busy):
                continue
            played = load_relaxed(&note.played)
            if played > 0:
                remaining = (<double>(now - load_relaxed(&note.started))
                             * (load_relaxed(&note.n_moves) - played) / played)
                if remaining <= 1.5 * self.last_read_us:
                    return False
        return True

    cdef int _work(self, uint64_t seed) noexcept nogil:
        """Take cases until none is left; when none is read yet, read."""
        cdef Scratch scratch
        cdef MoveFeed feed
        cdef int64_t number
        cdef CaseData* case
        cdef WorkerNote* note = NULL
        cdef int64_t played = 0             # the note of a worker nobody watches
        cdef int status = 0
        if self.notes != NULL:
            note = &self.notes[fetch_add(&self.next_note, 1) % self.n_notes]
        memset(&scratch, 0, sizeof(Scratch))
        while True:
            number = self._claim_case()
            if number == CLAIM_NONE_LEFT or cancelled():
                break
            if number == CLAIM_NOT_YET:
                if not self._read_turn():
                    sleep_us(20)
                continue
            case = (<CaseData**>pointer_load_acquire(<void**>&self.cases))[number]
            feed.n_read = &case.n_moves
            feed.n_ready = &self.n_ready
            feed.parse_done = &self.parse_done
            feed.number = number
            feed.played = &played
            feed.cancel = &self.cancel_flag
            if note != NULL:
                store_relaxed(&note.n_moves, case.n_claimed)
                store_relaxed(&note.played, 0)
                store_relaxed(&note.started, now_us())
                store_relaxed(&note.busy, 1)
                feed.played = &note.played
            if number == self.refuse_memory_for:
                status = JUDGE_NO_MEMORY
            else:
                status = judge_case(case.size, case.coords, case.n_claimed, seed, &scratch,
                                    &case.kinds, &case.move, &case.duplicate, &feed)
            if note != NULL:
                store_relaxed(&note.busy, 0)
            if status == JUDGE_NO_MEMORY:
                # Room is made for the moves a case holds.  A case still
                # being read may claim more than it holds: if it ends cut
                # short, its fault is what the reader reports, not memory.
                if feed_wait(&feed, case.n_claimed) >= 0:
                    break
                status = 0
                continue
            status = 0
            fetch_add(&self.n_judged, 1)
        fetch_add(&self.table_reseeds, scratch.reseeds)
        fetch_add(&self.table_growths, scratch.growths)
        fetch_add(&self.table_probe_steps, scratch.probe_steps)
        scratch_free(&scratch)
        return status

    def _hand_over_reading(self, bint wanted):
        """Tests: with threads > 1, make every reader stop after each case,
        so that reading passes from worker to worker."""
        self.hand_over_reading = wanted

    def _hash_with(self, multiplier):
        """Tests: hash cells with this odd multiplier instead of a random
        one, so that probe chains can be laid out by hand."""
        self.hash_multiplier = multiplier

    @property
    def _table_work(self):
        """Tests: (rebuilds with a fresh multiplier, rebuilds to grow, probe
        steps) of the cell tables, totalled over every judge() so far."""
        return self.table_reseeds, self.table_growths, self.table_probe_steps

    def _refuse_memory_for(self, int64_t case):
        """Tests: judging ``case`` fails as if its table were refused."""
        self.refuse_memory_for = case

    @property
    def _read_turns(self):
        """Tests: how many times a worker took the reader."""
        return self.read_turns

    def cancel(self):
        """Make the compiled work on this input (in any thread) stop within
        milliseconds, leaving meaningless results; for a caller that is
        leaving by an exception (havhex._threads.run_interruptibly)."""
        request_cancel(&self.cancel_flag)

    def _worker(self, uint64_t seed):
        cdef int status
        with nogil:
            watch_cancel(&self.cancel_flag)
            status = self._work(seed)
            watch_cancel(NULL)
        if status != 0:
            raise MemoryError("out of memory while judging")

    def judge(self, int threads=1, source=None, Py_ssize_t chunk_size=1 << 20):
        """Judge every case on ``threads`` workers sharing the cases.

        With ``source`` (bytes or a file descriptor), the input is read here:
        with one thread first, with more by whichever worker has nothing to
        judge (_read_turn), and a worker starts on a case as soon as its
        header is read.
        """
        if source is not None and load_acquire(&self.parse_done):
            raise RuntimeError("this input was read already")
        if source is None and not load_acquire(&self.parse_done):
            raise RuntimeError("nothing was read: give a source, or use parse()")
        # Judging again (benchmarks do) starts the shared counters afresh.
        self.next_case = 0
        self.n_judged = 0
        self.judged = True
        cdef uint64_t seed = (int.from_bytes(os.urandom(8), "little")
                              if self.hash_multiplier is None else self.hash_multiplier)
        started = []
        threads = min(threads, os.cpu_count() or 1)

        try:
            if threads > 1:
                from havhex._threads import Worker

                if source is not None:
                    # Any worker with nothing to judge reads on (_read_turn),
                    # and workers start on a case as soon as its header is read.
                    _open_reader(self, source, chunk_size)
                    self.shared_reading = True
                    self.stream_cases = True
                    self.notes = <WorkerNote*>calloc(threads, sizeof(WorkerNote))
                    if self.notes == NULL:
                        raise MemoryError("out of memory while judging")
                    self.n_notes = threads
                    self.next_note = 0
                # The calling thread is one of the ``threads`` workers: a
                # thread more than the cores would evict the others' tables
                # from the caches.
                for _ in range(threads - 1):
                    worker = Worker(lambda: self._worker(seed))
                    started.append(worker)      # joined below even if start is interrupted
                    worker.start()
            if source is not None and not self.shared_reading:
                _parse_into(self, source, chunk_size)
            try:
                self._worker(seed)
            except MemoryError:
                # As with one thread, the input is still read to its end, so
                # that a fault in it is known, before memory is reported.
                if self.shared_reading:
                    with nogil:
                        watch_cancel(&self.cancel_flag)
                        self._read_rest()
                        watch_cancel(NULL)
                raise
        finally:
            store_release(&self.parse_done, 1)
            for worker in started:
                worker.join()
            if self.shared_reading:
                _close_reader(self)
                self.shared_reading = False
            free(self.notes)
            self.notes = NULL
            self.n_notes = 0
        for worker in started:
            worker.outcome()

    def progress(self):
        """(bytes read, cases read, cases judged) so far; safe to call from
        another thread while this input is being judged."""
        return (load_acquire(&self.bytes_read), load_acquire(&self.n_ready),
                load_acquire(&self.n_judged))

    def result(self, int64_t case):
        """(kinds bitmask, 1-based winning move or 0, duplicate move index or -1)."""
        cdef CaseData* data = self._case(case)
        if not self.judged:
            raise RuntimeError("judge() has not run")
        return data.kinds, data.move, data.duplicate

    def results(self):
        """Kinds bitmasks (bytes), winning moves (list), and the first duplicate
        as (case, move index) or None."""
        if not self.judged:
            raise RuntimeError("judge() has not run")
        cdef int64_t i
        kinds = bytearray(self.n_ready)
        moves = [0] * self.n_ready
        duplicate = None
        for i in range(self.n_ready):
            kinds[i] = self.cases[i].kinds
            moves[i] = self.cases[i].move
            if duplicate is None and self.cases[i].duplicate >= 0:
                duplicate = (i, self.cases[i].duplicate)
        return bytes(kinds), moves, duplicate

    def first_played(self, int64_t case, int64_t move):
        """Index of the earlier move on the same hexagon as ``move``."""
        cdef CaseData* data = self._case(case)
        cdef int64_t i
        if not 0 <= move < data.n_moves:
            raise IndexError(move)
        for i in range(move):
            if (data.coords[2 * i] == data.coords[2 * move] and
                    data.coords[2 * i + 1] == data.coords[2 * move + 1]):
                return i
        return -1


cdef int64_t _bytes_ahead(int descriptor):
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


cdef _open_reader(HavannahInput parsed, source, Py_ssize_t chunk_size):
    """Point ``parsed.reader`` at bytes, or at a file descriptor read through
    a chunk of ``chunk_size`` bytes; ``parsed.reader_owner`` keeps the
    memory alive."""
    cdef Reader* reader = &parsed.reader
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
        reader.bytes_counter = &parsed.bytes_read
        reader.input_size = _bytes_ahead(source)
        parsed.reader_owner = chunk
    else:
        view = source
        reader.fd = -1
        reader.data = &view[0] if view.shape[0] else NULL
        reader.end = view.shape[0]
        reader.input_size = view.shape[0]
        parsed.reader_owner = view


cdef _close_reader(HavannahInput parsed):
    if parsed.err_token_pending:
        parsed.err_token = bytes(parsed.reader.bad_token[:parsed.reader.bad_length])
    memset(&parsed.reader, 0, sizeof(Reader))
    parsed.reader_owner = None


cdef _parse_into(HavannahInput parsed, source, Py_ssize_t chunk_size):
    _open_reader(parsed, source, chunk_size)
    try:
        with nogil:
            watch_cancel(&parsed.cancel_flag)
            parsed._parse(&parsed.reader)
            watch_cancel(NULL)
    finally:
        _close_reader(parsed)


def parse(source, Py_ssize_t chunk_size=1 << 20):
    """Parse the judge format from a bytes-like object or a file descriptor.

    Never raises for bad input: the returned object holds the complete cases
    before the first fault and describes that fault (``err_code``).
    """
    cdef HavannahInput parsed = HavannahInput()
    _parse_into(parsed, source, chunk_size)
    return parsed


# Inputs in memory below this many bytes are judged in the calling thread:
# they take milliseconds, less than handing them to a worker thread would add.
WAIT_ON_A_WORKER_FROM = 1 << 20


def parse_and_judge(source, int threads=1, Py_ssize_t chunk_size=1 << 20, progress=None):
    """Parse and judge in one pass: with threads > 1, judging overlaps reading.

    ``progress``, if given, is called about ten times a second with
    ``(bytes read, cases read, cases judged)`` while the work runs in a thread.
    A file (a descriptor) or a large input is read and judged on a worker
    thread while this one waits, so that an interrupt here stops the work
    (``HavannahInput.cancel``) and is raised at once.
    """
    cdef HavannahInput parsed = HavannahInput()
    if (progress is None and isinstance(source, (bytes, bytearray))
            and len(source) < WAIT_ON_A_WORKER_FROM):
        parsed.judge(threads, source, chunk_size)
        return parsed
    from havhex._threads import run_interruptibly

    report = None if progress is None else (lambda: progress(*parsed.progress()))
    run_interruptibly(lambda: parsed.judge(threads, source, chunk_size), parsed.cancel,
                      report, 0.1 if progress is not None else 0.05)
    return parsed


ctypedef fused coordinate_t:
    int32_t
    int64_t


def from_moves(int64_t size, const coordinate_t[::1] coords):
    """One case from interleaved x, y coordinates.

    Moves off the board are recorded as a fault (``err_code``), like ``parse``.
    """
    cdef HavannahInput parsed = HavannahInput()
    cdef int64_t n = coords.shape[0] // 2
    cdef int64_t i, x, y
    cdef CaseData* case = <CaseData*>calloc(1, sizeof(CaseData))
    if case == NULL:
        raise MemoryError()
    case.size = size
    case.n_claimed = n
    case.duplicate = -1
    case.capacity = n
    case.coords = <int32_t*>malloc(<size_t>(2 * n + 2) * sizeof(int32_t))
    if case.coords == NULL:
        case_free(case)
        raise MemoryError()
    with nogil:
        for i in range(n):
            x = coords[2 * i]
            y = coords[2 * i + 1]
            if not on_board(x, y, size):
                parsed.err_x = x
                parsed.err_y = y
                parsed.err_size = size
                parsed._fault(ERR_OFF_BOARD, 0, i + 1)
                break
            case.coords[2 * i] = <int32_t>x
            case.coords[2 * i + 1] = <int32_t>y
        case.n_moves = n
    if parsed.err_code or not parsed._publish(case):
        case_free(case)
        if not parsed.err_code:
            raise MemoryError()
    parsed.parse_done = 1
    return parsed
