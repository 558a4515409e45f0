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
    Reader, TOKEN_OK, SeparatorScan, reader_fast_pair, reader_int, reader_remaining,
    separators_next, separators_start, swar_marks, swar_value,
)
from havhex._native.cancel cimport cancel_requested, cancelled, watch_cancel
from havhex._native.faults cimport (
    FAULT_ENGINE_FIRST, FAULT_NO_MEMORY, FAULT_NONE, FAULT_TOKEN, FAULT_TRAILING, fault_at_end,
    fault_cancelled, fault_set, fault_token,
)
from havhex._native.unionfind cimport uf_find, uf_hang, uf_union
from havhex._native.random cimport splitmix64_next
from havhex._native.portable cimport (
    aligned_alloc, aligned_free, compare_exchange, ctz32, fetch_add, HUGE_PAGE_ADVICE,
    load_acquire, load_relaxed, MALLOC_ALIGNMENT, monotonic_us, pointer_compare_exchange,
    pointer_exchange, pointer_load_acquire, pointer_store_release, prefetch_line,
    request_huge_pages, sleep_us, store_release, store_relaxed,
)
from havhex.havannah._structure cimport (
    KIND_BRIDGE, KIND_FORK, KIND_RING, run_starts, structure_kinds,
)

import os


cdef inline uint64_t next_multiplier(uint64_t previous) noexcept nogil:
    """The next multiplier after a bad one: a splitmix64 step, odd."""
    return splitmix64_next(&previous) | 1


cdef enum:
    MAX_BOARD_SIZE = 1 << 30
    # Union-find indices are int32 and one slot is reserved.
    MAX_MOVES = 2147483646

# What the reader expected when it failed (for messages).
cdef enum Field:
    FIELD_T, FIELD_S, FIELD_M, FIELD_X, FIELD_Y, FIELD_END

# The faults of this format besides those of both (_native/faults.pxd).
cdef enum:
    ERR_T_RANGE = FAULT_ENGINE_FIRST
    ERR_S_RANGE
    ERR_M_RANGE
    ERR_OFF_BOARD

include "havhex/_native/engine_input.pxi"

# The codes and the limit as the facade reads them, so that they are stated once.
FAULT_CODES = (FAULT_TOKEN, ERR_T_RANGE, ERR_S_RANGE, ERR_M_RANGE, ERR_OFF_BOARD, FAULT_TRAILING,
               FAULT_NO_MEMORY)
KIND_BITS = (KIND_BRIDGE, KIND_FORK, KIND_RING)
MAX_SIZE = MAX_BOARD_SIZE
MAX_CASE_MOVES = MAX_MOVES

include "_geometry.pxi"


include "_celltable.pxi"
include "_kernel.pxi"
include "_moves.pxi"


cdef enum:
    # Old case tables are kept until the end (a worker may still read one);
    # doubling from 64 entries, this many generations is never reached.
    MAX_TABLE_GENERATIONS = 58


# The clock of the scheduling (_schedule.pxi).
cdef inline int64_t now_us() noexcept nogil:
    return monotonic_us()


cdef class HavannahInput(EngineInput):
    """Cases of one input, their verdicts, and the first fault if any."""
    cdef CaseData** cases               # published table, replaced when full
    cdef int64_t table_capacity
    cdef void* retired[MAX_TABLE_GENERATIONS]
    cdef int n_retired
    cdef int64_t n_open                 # cases in the table, in input order
    cdef int64_t n_ready                # complete cases: the first n_ready
    cdef bint stream_cases              # open a case to workers as it is read
    # The input (``reader``) is read by any worker with nothing to judge.
    cdef bint shared_reading            # workers read in turn (read_turn)
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
    cdef int64_t n_judged
    cdef bint judged
    # The context of a fault (EngineInput.fault) that needs more than a value.
    cdef readonly int64_t err_x
    cdef readonly int64_t err_y
    cdef readonly int64_t err_size

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
        STEP_MORE while there is more to read, FAULT_NONE at a sound end, or
        the code of the fault (recorded)."""
        cdef int status
        if cancelled():
            return fault_cancelled(&self.fault, r, FIELD_END)
        if not self.count_read:
            status = reader_int(r, &self.n_cases_claimed)
            if status != TOKEN_OK:
                return fault_token(&self.fault, r, status, FIELD_T)
            if self.n_cases_claimed < 0:
                return fault_set(&self.fault, ERR_T_RANGE, r.token_line, self.n_cases_claimed)
            self.count_read = True
            return STEP_MORE
        if self.n_cases_read < self.n_cases_claimed:
            self.n_cases_read += 1
            status = self._read_case(r)
            return STEP_MORE if status == FAULT_NONE else status
        return fault_at_end(&self.fault, r, FIELD_END)

    cdef int _read_case(self, Reader* r) noexcept nogil:
        """Read one case: its header, then its moves."""
        cdef int64_t size, n_moves, cells, remaining
        cdef CaseData* case = NULL
        cdef int64_t off_board[2]
        cdef int status
        cdef bint streamed
        status = reader_int(r, &size)
        if status != TOKEN_OK:
            return fault_token(&self.fault, r, status, FIELD_S)
        if size < 2 or size > MAX_BOARD_SIZE:
            return fault_set(&self.fault, ERR_S_RANGE, r.token_line, size)
        status = reader_int(r, &n_moves)
        if status != TOKEN_OK:
            return fault_token(&self.fault, r, status, FIELD_M)
        cells = 3 * size * (size - 1) + 1
        if n_moves < 0 or n_moves > cells or n_moves > MAX_MOVES:
            self.err_size = size
            return fault_set(&self.fault, ERR_M_RANGE, r.token_line, n_moves)
        case = <CaseData*>calloc(1, sizeof(CaseData))
        if case == NULL:
            return fault_set(&self.fault, FAULT_NO_MEMORY, r.token_line, 0)
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
        if 0 < n_moves <= remaining // 4 and case_reserve(case, n_moves):
            if self.stream_cases:
                if not self._append(case):
                    case_free(case)
                    return fault_set(&self.fault, FAULT_NO_MEMORY, r.token_line, 0)
                streamed = True
        status = read_moves(r, case, n_moves, &self.fault, off_board)
        if status != FAULT_NONE:
            self.partial = case
            if status == ERR_OFF_BOARD:
                self.err_x = off_board[0]
                self.err_y = off_board[1]
                self.err_size = size
            return status
        if streamed:
            store_release(&self.n_ready, self.n_ready + 1)
        elif not self._publish(case):
            case_free(case)
            return fault_set(&self.fault, FAULT_NO_MEMORY, r.token_line, 0)
        return FAULT_NONE

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

    cdef int _work(self, uint64_t seed) noexcept nogil:
        # The worker's loop (_schedule.pxi) is reached through this method, a
        # call through the type's table that the compiler does not inline:
        # so the loop, with the kernel inlined into it, stays a function of
        # its own, laid out for the kernel alone, rather than part of the
        # Python wrapper below.
        return work_cases(self, seed)

    def _worker(self, uint64_t seed):
        cdef int status
        with nogil:
            watch_cancel(&self.cancel_flag)
            status = self._work(seed)
            if status != 0 and self.shared_reading:
                # As with one thread, the input is still read to its end, so
                # that a fault in it is known, before memory is reported.
                read_rest(self)
            watch_cancel(NULL)
        if status != 0:
            raise MemoryError("out of memory while judging")

    def _reading_ends(self):
        """Whatever happens, no worker waits for more to be read."""
        store_release(&self.parse_done, 1)

    def judge(self, int threads=1, source=None, Py_ssize_t chunk_size=1 << 20):
        """Judge every case on ``threads`` workers sharing the cases.

        With ``source`` (bytes or a file descriptor), the input is read here:
        with one thread first, with more by whichever worker has nothing to
        judge (read_turn), and a worker starts on a case as soon as its
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
        threads = min(threads, os.cpu_count() or 1)
        from havhex._threads import run_workers

        try:
            if source is not None and threads > 1:
                # Any worker with nothing to judge reads on (read_turn),
                # and workers start on a case as soon as its header is read.
                self.open_reader(source, chunk_size)
                self.shared_reading = True
                self.stream_cases = True
                self.notes = <WorkerNote*>calloc(threads, sizeof(WorkerNote))
                if self.notes == NULL:
                    raise MemoryError("out of memory while judging")
                self.n_notes = threads
                self.next_note = 0
            elif source is not None:
                self.read_source(source, chunk_size)
            run_workers(lambda: self._worker(seed), threads, self._reading_ends)
        finally:
            store_release(&self.parse_done, 1)
            if self.shared_reading:
                self.close_reader()
                self.shared_reading = False
            free(self.notes)
            self.notes = NULL
            self.n_notes = 0

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


def parse(source, Py_ssize_t chunk_size=1 << 20):
    """Parse the judge format from a bytes-like object or a file descriptor.

    Never raises for bad input: the returned object holds the complete cases
    before the first fault and describes that fault (``err_code``).
    """
    cdef HavannahInput parsed = HavannahInput()
    parsed.read_source(source, chunk_size)
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
    case.coords_bytes = <size_t>(2 * n + 2) * sizeof(int32_t)
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
                fault_set(&parsed.fault, ERR_OFF_BOARD, 0, i + 1)
                break
            case.coords[2 * i] = <int32_t>x
            case.coords[2 * i + 1] = <int32_t>y
        case.n_moves = n
    if parsed.fault.code or not parsed._publish(case):
        case_free(case)
        if not parsed.fault.code:
            raise MemoryError()
    parsed.parse_done = 1
    return parsed


include "_schedule.pxi"
