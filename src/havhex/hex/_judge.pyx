# cython: language_level=3
"""Hex engine: reader for the judge format and the position kernel.

Flow: ``parse`` turns bytes (or a file descriptor) into padded boards,
``HexInput.judge`` runs ``judge_board`` over every case with the GIL released,
``HexInput.explain`` runs one case again and keeps the witnesses (chains).

Board layout, one byte per cell: a case of side N is stored with row stride
W = N + 1 between one empty padding row above and one below, so cell (i, j)
sits at (i + 1) * W + j and byte (i + 1) * W + N separates two rows.  Every
neighbour of a real cell is then a valid index and an off-board neighbour reads
as empty, so the kernels need no bounds checks.  Neighbours of (i, j)
(docs/conventions.md, Hex: neighbours): (i-1, j), (i-1, j+1), (i, j-1),
(i, j+1), (i+1, j-1), (i+1, j), that is the offsets -W, -W+1, -1, +1, W-1, +W.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

from havhex._native.reader cimport (
    Reader, TOKEN_IO_ERROR, TOKEN_OK, reader_int, reader_peek, reader_refill, reader_skip_space,
)
from havhex._native.cancel cimport cancelled, watch_cancel
from havhex._native.faults cimport (
    FAULT_ENGINE_FIRST, FAULT_NO_MEMORY, FAULT_NONE, FAULT_TOKEN, FAULT_TRAILING, fault_at_end,
    fault_cancelled, fault_set, fault_token,
)
from havhex._native.unionfind cimport uf_find, uf_link, uf_union
from havhex._native.portable cimport fetch_add
from havhex.hex._cells cimport BLUE, COLOUR, EMPTY, RED
from cpython.exc cimport PyErr_CheckSignals

# Cell bytes: the colour in bits 0-1 (_cells.pxd); the second side of each
# colour as a flag (set on stones only), so a search knows it has arrived
# without a division.
cdef enum:
    RED_SINK = 4          # last row: Red's second side
    BLUE_SINK = 8         # last column: Blue's second side
    CODE_SPACE = 0xFE     # white space ends a row token
    CODE_BAD = 0xFF

# Search marks (one byte per cell of the scratch).
cdef enum:
    SEEN = 1              # reached by the chain search
    ON_CHAIN = 2          # on the first winning chain (the unit flow)
    IN_SEEN = 4           # residual search reached the stone's entry node
    OUT_SEEN = 8          # ... and its exit node

# Verdicts and reasons.
cdef enum:
    NOBODY_WINS = 0
    RED_WINS = 1
    BLUE_WINS = 2
    IMPOSSIBLE = 3
cdef enum:
    REASON_NONE = 0
    REASON_COUNTS = 1
    REASON_BOTH_CONNECTED = 2
    REASON_LOSER_MOVED_LAST = 3
    REASON_NO_SINGLE_LAST_MOVE = 4

cdef enum:
    # Scratch indices are int32 and a search state is 2 * cell + side, so
    # 2 * (N + 2) * (N + 1) must stay below 2**31.
    MAX_BOARD_SIZE = 30000

# What the reader expected when it failed (for messages).
cdef enum:
    FIELD_T = 0
    FIELD_N = 1
    FIELD_END = 2

# The faults of this format besides those of both (_native/faults.pxd).
cdef enum:
    ERR_T_RANGE = FAULT_ENGINE_FIRST
    ERR_N_SMALL
    ERR_N_LARGE
    ERR_ROW_MISSING
    ERR_ROW_LENGTH
    ERR_ROW_CHAR

include "havhex/_native/engine_input.pxi"

# The codes and the limit as the facade reads them, so that they are stated once.
FAULT_CODES = (FAULT_TOKEN, ERR_T_RANGE, ERR_N_SMALL, ERR_N_LARGE, ERR_ROW_MISSING, ERR_ROW_LENGTH,
               ERR_ROW_CHAR, FAULT_TRAILING, FAULT_NO_MEMORY)
VERDICT_CODES = (NOBODY_WINS, RED_WINS, BLUE_WINS, IMPOSSIBLE)
REASON_CODES = (REASON_COUNTS, REASON_BOTH_CONNECTED, REASON_LOSER_MOVED_LAST,
                REASON_NO_SINGLE_LAST_MOVE)
COLOUR_CODES = (RED, BLUE)
MAX_SIZE = MAX_BOARD_SIZE

cdef uint8_t CODE[256]
memset(CODE, CODE_BAD, 256)
CODE[ord(".")] = EMPTY
CODE[ord("R")] = RED
CODE[ord("B")] = BLUE
for _c in (32, 9, 10, 11, 12, 13):
    CODE[_c] = CODE_SPACE


cdef inline int64_t board_cells(int64_t n) noexcept nogil:
    return (n + 2) * (n + 1)


include "_rows.pxi"
include "_sides.pxi"
include "_flow.pxi"
include "_verdict.pxi"


# --------------------------------------------------------------------------
# Parsed input
# --------------------------------------------------------------------------

cdef class _CaseCounter:
    cdef int64_t next_case


cdef class HexInput(EngineInput):
    """Cases of one input as padded boards, plus the first fault if any."""
    cdef readonly int64_t n_cases
    cdef readonly int64_t n_judged       # progress, read while workers judge
    cdef int64_t case_capacity
    cdef int64_t* sizes
    cdef int64_t* offsets         # first byte of each case's padded board
    cdef int64_t* header_lines
    cdef uint8_t* cells
    cdef int64_t cells_used
    cdef int64_t cells_capacity
    cdef CaseResult* verdicts
    # The context of a fault (EngineInput.fault: its value is T or N as read).
    cdef readonly int64_t err_size      # N of the case with a bad row
    cdef readonly int64_t err_row       # 1-based row
    cdef readonly int64_t err_column    # 1-based column of a bad character
    cdef readonly int64_t err_length    # characters in a row of the wrong length

    def __dealloc__(self):
        self._free_verdicts()
        free(self.sizes)
        free(self.offsets)
        free(self.header_lines)
        free(self.cells)

    cdef void _free_verdicts(self) noexcept:
        cdef int64_t case
        if self.verdicts != NULL:
            for case in range(self.n_cases):
                free(self.verdicts[case].last_moves)
            free(self.verdicts)
            self.verdicts = NULL

    def case_size(self, int64_t case):
        self._check_case(case)
        return self.sizes[case]

    def header_line(self, int64_t case):
        self._check_case(case)
        return self.header_lines[case]

    def board(self, int64_t case):
        """The rows of one case as strings of B, R and '.'."""
        self._check_case(case)
        cdef int64_t n = self.sizes[case]
        cdef int64_t i, j
        cdef const uint8_t* b = self.cells + self.offsets[case]
        cdef bytearray row
        rows = []
        for i in range(n):
            row = bytearray(n)
            for j in range(n):
                row[j] = b".RB"[b[(i + 1) * (n + 1) + j] & COLOUR]
            rows.append(row.decode("ascii"))
        return rows

    cdef _check_case(self, int64_t case):
        if not 0 <= case < self.n_cases:
            raise IndexError(case)

    # ---- building --------------------------------------------------------

    cdef bint _add_case(self, int64_t n, int64_t offset, int64_t line) noexcept nogil:
        cdef int64_t capacity
        cdef void* grown
        if self.n_cases == self.case_capacity:
            capacity = self.case_capacity * 2 if self.case_capacity else 16
            grown = realloc(self.sizes, <size_t>capacity * sizeof(int64_t))
            if grown == NULL:
                return False
            self.sizes = <int64_t*>grown
            grown = realloc(self.offsets, <size_t>capacity * sizeof(int64_t))
            if grown == NULL:
                return False
            self.offsets = <int64_t*>grown
            grown = realloc(self.header_lines, <size_t>capacity * sizeof(int64_t))
            if grown == NULL:
                return False
            self.header_lines = <int64_t*>grown
            self.case_capacity = capacity
        self.sizes[self.n_cases] = n
        self.offsets[self.n_cases] = offset
        self.header_lines[self.n_cases] = line
        self.n_cases += 1
        return True

    cdef bint _reserve_cells(self, int64_t needed) noexcept nogil:
        """Room for ``needed`` bytes of boards.  Boards grow one row at a time,
        so memory follows the rows actually read, never the N announced."""
        cdef int64_t capacity
        cdef void* grown
        if needed <= self.cells_capacity:
            return True
        capacity = self.cells_capacity * 2 if self.cells_capacity else 4096
        while capacity < needed:
            capacity *= 2
        grown = realloc(self.cells, <size_t>capacity)
        if grown == NULL:
            return False
        self.cells = <uint8_t*>grown
        self.cells_capacity = capacity
        return True

    cdef int _begin_board(self, int64_t n) noexcept nogil:
        """Reserve and clear the padding row above a new board."""
        if not self._reserve_cells(self.cells_used + (n + 1)):
            return fault_set(&self.fault, FAULT_NO_MEMORY, 0, 0)
        memset(self.cells + self.cells_used, 0, <size_t>(n + 1))
        return FAULT_NONE

    cdef int _end_board(self, int64_t n, int64_t line) noexcept nogil:
        cdef int64_t start = self.cells_used
        cdef int64_t bottom = start + (n + 1) * (n + 1)
        if not self._reserve_cells(bottom + n + 1):
            return fault_set(&self.fault, FAULT_NO_MEMORY, line, 0)
        memset(self.cells + bottom, 0, <size_t>(n + 1))
        if not self._add_case(n, start, line):
            return fault_set(&self.fault, FAULT_NO_MEMORY, line, 0)
        self.cells_used = start + board_cells(n)
        return FAULT_NONE

    cdef int _read_row(self, Reader* r, int64_t n, int64_t row) noexcept nogil:
        """One row token into the board being built; a fault names the row."""
        cdef int64_t done = 0
        cdef Py_ssize_t used
        cdef uint8_t* dest
        cdef int c
        if (row & (POLL_ROWS - 1)) == 0 and cancelled():
            return fault_cancelled(&self.fault, r, FIELD_END)
        if not self._reserve_cells(self.cells_used + (row + 2) * (n + 1)):
            return fault_set(&self.fault, FAULT_NO_MEMORY, r.token_line, 0)
        dest = self.cells + self.cells_used + (row + 1) * (n + 1)
        self.err_row = row + 1
        self.err_size = n
        c = reader_skip_space(r)
        if c < 0:
            if r.io_errno:
                return fault_token(&self.fault, r, TOKEN_IO_ERROR, FIELD_END)
            return fault_set(&self.fault, ERR_ROW_MISSING, r.token_line, 0)
        r.token_line = r.line
        while done <= n:
            if r.pos == r.end and not reader_refill(r):
                break
            used = scan_row(r.data + r.pos, r.end - r.pos, dest, done, n)
            r.pos += used
            done += used
            if r.pos < r.end:
                break
        if r.io_errno:
            return fault_token(&self.fault, r, TOKEN_IO_ERROR, FIELD_END)
        if done <= n and r.pos < r.end and CODE[r.data[r.pos]] == CODE_BAD:
            self.err_column = done + 1
            keep_bad_character(r)
            self.fault.token_kept = True
            return fault_set(&self.fault, ERR_ROW_CHAR, r.token_line, 0)
        if done != n:
            self.err_length = done      # n + 1 for a row longer than n
            return fault_set(&self.fault, ERR_ROW_LENGTH, r.token_line, 0)
        finish_row(dest, n, row == n - 1)
        return FAULT_NONE

    cdef int _parse(self, Reader* r) noexcept nogil:
        """Read the whole judge format; stop at the first fault (recorded)."""
        cdef int64_t n_cases, case, n, row, header_line
        cdef int status
        status = reader_int(r, &n_cases)
        if status != TOKEN_OK:
            return fault_token(&self.fault, r, status, FIELD_T)
        if n_cases < 0:
            return fault_set(&self.fault, ERR_T_RANGE, r.token_line, n_cases)
        for case in range(n_cases):
            status = reader_int(r, &n)
            if status != TOKEN_OK:
                return fault_token(&self.fault, r, status, FIELD_N)
            header_line = r.token_line
            if n < 1:
                return fault_set(&self.fault, ERR_N_SMALL, header_line, n)
            if n > MAX_BOARD_SIZE:
                return fault_set(&self.fault, ERR_N_LARGE, header_line, n)
            if self._begin_board(n) != FAULT_NONE:
                return self.fault.code
            for row in range(n):
                if self._read_row(r, n, row) != FAULT_NONE:
                    return self.fault.code
            if self._end_board(n, header_line) != FAULT_NONE:
                return self.fault.code
        return fault_at_end(&self.fault, r, FIELD_END)

    # ---- judging ----------------------------------------------------------

    cdef int _judge_worker(self, int64_t* next_case) noexcept nogil:
        """Take cases from the shared counter until none is left."""
        cdef Scratch scratch
        cdef int64_t case
        cdef int status = 0
        memset(&scratch, 0, sizeof(Scratch))
        while True:
            case = fetch_add(next_case, 1)
            if case >= self.n_cases or cancelled():
                break
            if judge_board(self.cells + self.offsets[case], self.sizes[case], &scratch,
                           &self.verdicts[case], NULL) != 0:
                status = -1
                break
            fetch_add(&self.n_judged, 1)
        scratch_free(&scratch)
        return status

    def _run_worker(self, _CaseCounter counter):
        cdef int status
        with nogil:
            watch_cancel(&self.cancel_flag)
            status = self._judge_worker(&counter.next_case)
            watch_cancel(NULL)
        if status != 0:
            raise MemoryError("havhex: out of memory while judging")

    def progress(self):
        """(bytes read, cases read, cases judged) so far, for a display that
        polls from another thread while this input is read and judged."""
        return self.bytes_read, self.n_cases, self.n_judged

    def judge(self, int threads=1):
        """Judge every case; ``threads`` workers share the cases dynamically."""
        self.n_judged = 0
        self._free_verdicts()
        self.verdicts = <CaseResult*>calloc(<size_t>(self.n_cases if self.n_cases else 1),
                                            sizeof(CaseResult))
        if self.verdicts == NULL:
            raise MemoryError()
        counter = _CaseCounter()
        from havhex._threads import run_workers

        run_workers(lambda: self._run_worker(counter), min(threads, self.n_cases))

    cdef list _cells(self, int64_t n, const int32_t* cells, int64_t count):
        """Padded cell indices as (row, col) pairs.  A chain can hold
        millions of cells: signals are looked at on the way, so that an
        interrupt need not wait for the whole list."""
        cdef int64_t w = n + 1
        cdef int64_t k
        cdef list pairs = []
        # One int object per row and column number, shared by the pairs:
        # a million pairs then free (after Ctrl-C too) without a million
        # ints scattered in memory.
        cdef list numbers = list(range(n + 1)) if count > n else None
        if numbers is None:
            for k in range(count):
                pairs.append((cells[k] // w - 1, cells[k] % w))
            return pairs
        cdef int64_t row, column
        for k in range(count):
            if (k & 0xFFFF) == 0xFFFF:
                PyErr_CheckSignals()
            row = cells[k] // w - 1
            column = cells[k] % w
            if 0 <= row <= n and 0 <= column <= n:     # no bounds checks here
                pairs.append((numbers[row], numbers[column]))
            else:
                pairs.append((row, column))
        return pairs

    def verdict_codes(self):
        """(status codes, reason codes) of every case, as bytes."""
        if self.verdicts == NULL:
            raise RuntimeError("judge() has not run")
        cdef bytearray statuses = bytearray(self.n_cases)
        cdef bytearray reasons = bytearray(self.n_cases)
        cdef int64_t case
        for case in range(self.n_cases):
            statuses[case] = self.verdicts[case].status
            reasons[case] = self.verdicts[case].reason
        return bytes(statuses), bytes(reasons)

    def last_moves(self, int64_t case):
        """Possible last moves of a case as (row, col), in chain order (empty
        unless somebody wins).  ``judge`` finds only the verdicts, so this
        judges the case again, keeping them."""
        self._check_case(case)
        cdef Scratch scratch
        cdef CaseResult verdict
        cdef int status
        memset(&scratch, 0, sizeof(Scratch))
        memset(&verdict, 0, sizeof(CaseResult))
        try:
            with nogil:
                status = judge_board_fast(self.cells + self.offsets[case], self.sizes[case],
                                          &scratch, &verdict, True)
            if status != 0:
                raise MemoryError("havhex: out of memory while judging")
            return self._cells(self.sizes[case], verdict.last_moves, verdict.n_last_moves)
        finally:
            scratch_free(&scratch)
            free(verdict.last_moves)

    def explain(self, int64_t case):
        """Judge one case again, keeping the witnesses.

        Returns (status, reason, red stones, blue stones, last moves, chains);
        chains is a list of (colour code, [(row, col), ...]): the winner's
        chain for a win or for "loser-moved-last", Red's then Blue's for
        "both-connected", two stone-disjoint chains for "no-single-last-move".
        """
        self._check_case(case)
        cdef Scratch scratch
        cdef CaseResult verdict
        cdef Witness witness
        cdef int status
        cdef int64_t n = self.sizes[case]
        cdef int k
        memset(&scratch, 0, sizeof(Scratch))
        memset(&witness, 0, sizeof(Witness))
        memset(&verdict, 0, sizeof(CaseResult))
        try:
            with nogil:
                watch_cancel(&self.cancel_flag)
                status = judge_board(self.cells + self.offsets[case], n, &scratch,
                                     &verdict, &witness)
                watch_cancel(NULL)
            if status != 0:
                raise MemoryError("havhex: out of memory while judging")
            chains = [(witness.colour[k], self._cells(n, witness.chain[k], witness.length[k]))
                      for k in range(witness.n_chains)]
            return (verdict.status, verdict.reason, verdict.red, verdict.blue,
                    self._cells(n, verdict.last_moves, verdict.n_last_moves), chains)
        finally:
            scratch_free(&scratch)
            witness_free(&witness)
            free(verdict.last_moves)


def parse(source, Py_ssize_t chunk_size=1 << 20, HexInput into=None):
    """Parse the judge format from a bytes-like object or a file descriptor.

    Never raises for bad input: the returned object holds the complete cases
    before the first fault and describes that fault (``err_code``).
    """
    cdef HexInput parsed = HexInput() if into is None else into
    parsed.read_source(source, chunk_size)
    return parsed


def from_rows(list rows):
    """One case from a list of N row ``bytes``; faults are recorded (line 0)
    like ``parse`` records them."""
    cdef HexInput parsed = HexInput()
    cdef int64_t n = len(rows)
    cdef int64_t i
    cdef Py_ssize_t used, end
    cdef const unsigned char[::1] view
    cdef uint8_t* dest
    parsed.err_size = n
    if n < 1 or n > MAX_BOARD_SIZE:
        fault_set(&parsed.fault, ERR_N_SMALL if n < 1 else ERR_N_LARGE, 0, n)
        return parsed
    if parsed._begin_board(n) != FAULT_NONE:
        raise MemoryError()
    for i in range(n):
        view = rows[i]
        if not parsed._reserve_cells((i + 2) * (n + 1)):
            raise MemoryError()
        dest = parsed.cells + (i + 1) * (n + 1)
        used = 0
        if view.shape[0]:
            with nogil:
                used = scan_row(&view[0], view.shape[0], dest, 0, n)
        parsed.err_row = i + 1
        if used <= n and used < view.shape[0]:
            parsed.err_column = used + 1
            character = bytes(view[used:used + 1])
            if character[0] >= 0xC0:
                end = used + 1
                while end < view.shape[0] and end < used + 4 and 0x80 <= view[end] <= 0xBF:
                    end += 1
                character = bytes(view[used:end])
            parsed.fault_token = character
            fault_set(&parsed.fault, ERR_ROW_CHAR, 0, 0)
            return parsed
        if used != n:
            parsed.err_length = used
            fault_set(&parsed.fault, ERR_ROW_LENGTH, 0, 0)
            return parsed
        finish_row(dest, n, i == n - 1)
    if parsed._end_board(n, 0) != FAULT_NONE:
        raise MemoryError()
    return parsed
