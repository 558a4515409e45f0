# cython: language_level=3, auto_pickle=False
"""The compiled core of :class:`havhex.hex.Batch`: n Hex games stepped
together, each on its own arrays, the GIL released (see havhex._batch for
the part both games share, and _batch_kernels.pxi for the kernels).

The games follow pgx's ``hex`` (and EnvPool's ``Hex-v1``, its C++ port):
action ``r * cols + c`` puts a stone on row r, column c, action
``rows * cols`` swaps pieces (legal only as the second move); the first
mover (pgx's black, havhex's Red) joins the top and bottom rows.
"""
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memset

from havhex._native.neighbours cimport run_starts
from havhex._native.portable cimport byte_shift, prefetch_line
from havhex._native.random cimport Xoshiro, random_below, xoshiro_next, xoshiro_seed
from havhex._native.unionfind cimport uf_find

cdef enum:
    FIRST_SIDE = 1
    SECOND_SIDE = 2
    BOTH_SIDES = 3
    SIZE_UNIT = 4

cdef enum:
    NEXT_STEP = 0
    SAME_STEP = 1
    DISABLED = 2

# Cells a board may have: the union-find keeps four times a group's size in
# an int32, and the random draws are 32-bit.
MAX_CELLS = 1 << 28

# The index of the lowest set bit of a 6-bit mask (portable, one load).
cdef uint8_t LOWEST_BIT[64]
LOWEST_BIT[0] = 0
for _mask in range(1, 64):
    LOWEST_BIT[_mask] = (_mask & -_mask).bit_length() - 1


include "_batch_kernels.pxi"


cdef class HexCore:
    """The games' state and the kernels' entry points (see havhex._batch
    for what each method does)."""
    cdef State st
    cdef public bint illegal_raises  # illegal="raise": ValueError, not pgx's loss
    cdef int32_t* around
    cdef uint8_t* sides
    cdef uint8_t* start_stones
    cdef int32_t* start_parent
    cdef object blocks              # keeps the fields' memory alive
    cdef object call_inputs         # keeps one call's arrays alive while it runs
    cdef int64_t n
    cdef uint64_t seed
    cdef readonly int num_actions
    cdef readonly tuple observation_shape

    def __cinit__(self):
        memset(&self.st, 0, sizeof(State))

    def __init__(self, int64_t n, int32_t rows, int32_t cols, bint swap, dict blocks):
        """``blocks``: the fields' memory by name (havhex._batch_core.Block),
        each checked here for its size before a pointer is taken."""
        cdef int32_t cells
        cdef int32_t r, c, k, cell, nr, nc
        # Round the cell: up, up-right, right, down, down-left, left.
        cdef int dr[6]
        cdef int dc[6]
        if self.st.games != NULL:
            raise TypeError("a HexCore is initialised once")
        if n < 1 or rows < 1 or cols < 1 or <int64_t>rows * cols > MAX_CELLS:
            raise ValueError("n >= 1 and a board of 1 to MAX_CELLS cells")
        cells = rows * cols
        dr[:] = [-1, -1, 0, 1, 1, 0]
        dc[:] = [0, 1, 1, 0, -1, -1]
        self.n = n
        self.num_actions = cells + 1
        self.observation_shape = (rows, cols, 4)
        self.blocks = blocks
        self.st.shape.rows = rows
        self.st.shape.cols = cols
        self.st.shape.cells = cells
        self.st.shape.swap = swap
        self.st.shape.shift_own = byte_shift(0)
        self.st.shape.shift_opp = byte_shift(1)
        self.st.shape.colour_word = (<uint32_t>1) << byte_shift(2)
        self.st.shape.swap_word = (<uint32_t>1) << byte_shift(3)
        self.around = <int32_t*>malloc(6 * cells * sizeof(int32_t))
        self.sides = <uint8_t*>malloc(2 * cells)
        self.st.games = <HexGame*>malloc(n * sizeof(HexGame))
        self.st.stones = <uint8_t*>malloc(n * (cells + 1))
        self.st.parent = <int32_t*>malloc(n * cells * sizeof(int32_t))
        # Zeroed: a step run before any check plays action 0, in range.
        self.st.actions = <int32_t*>calloc(n, sizeof(int32_t))
        if (self.around == NULL or self.sides == NULL or self.st.games == NULL
                or self.st.stones == NULL or self.st.parent == NULL or self.st.actions == NULL):
            raise MemoryError(f"no memory for a batch of {n} Hex games")
        for r in range(rows):
            for c in range(cols):
                cell = r * cols + c
                for k in range(6):
                    nr = r + dr[k]
                    nc = c + dc[k]
                    self.around[6 * cell + k] = (nr * cols + nc if 0 <= nr < rows and 0 <= nc < cols
                                                 else cells)
                self.sides[cell] = (FIRST_SIDE if r == 0 else 0) | (SECOND_SIDE if r == rows - 1 else 0)
                self.sides[cells + cell] = ((FIRST_SIDE if c == 0 else 0)
                                            | (SECOND_SIDE if c == cols - 1 else 0))
        self.st.shape.around = self.around
        self.st.shape.sides = self.sides
        self.st.f.observation = _pointer(blocks["observation"], n * cells * 4)
        self.st.f.mask = _pointer(blocks["legal_action_mask"], n * (cells + 1))
        self.st.f.current_player = <int32_t*>_pointer(blocks["current_player"], n * 4)
        self.st.f.rewards = <float*>_pointer(blocks["rewards"], n * 8)
        self.st.f.terminated = _pointer(blocks["terminated"], n)
        self.st.f.final_observation = _pointer(blocks["final_observation"], n * cells * 4)
        self.st.f.final_mask = _pointer(blocks["final_mask"], n)
        self.st.f.winner = <int8_t*>_pointer(blocks["winner"], n)

    def __dealloc__(self):
        free(self.around)
        free(self.sides)
        free(self.st.games)
        free(self.st.stones)
        free(self.st.parent)
        free(self.st.actions)
        free(self.st.starts)
        free(self.start_stones)
        free(self.start_parent)

    def reseed(self, uint64_t seed):
        """Game i draws from stream i of ``seed``: the same games however
        the batch is split over threads."""
        cdef int64_t i
        for i in range(self.n):
            xoshiro_seed(&self.st.games[i].rng, seed, <uint64_t>i)

    def check_step(self, actions, int mode):
        """Copy ``actions`` (int32 or int64, shape (n,)) in and check every
        one for ``mode``, the autoreset mode, before any game changes;
        ValueError naming the first bad game.  The parts read the copy:
        the caller's array may change while they run."""
        cdef const int32_t[::1] a32
        cdef const int64_t[::1] a64
        cdef int64_t i, bad = -1, value = 0
        cdef int64_t limit = self.num_actions
        cdef int32_t* copy = self.st.actions
        cdef uint32_t out = 0
        cdef bint narrow = actions.dtype.itemsize == 4
        if not 0 <= mode <= DISABLED:
            raise ValueError(f"an autoreset mode from 0 to 2, got {mode}")
        if actions.shape[0] != self.n:
            raise ValueError(f"one action a game: shape ({self.n},)")
        # The copy and the range check in loops without an early exit, which
        # the compiler vectorises; the first bad game is looked for only
        # when there is one.  (Unsigned, a negative action is out of range.)
        if narrow:
            a32 = actions
            with nogil:
                memcpy(copy, &a32[0], self.n * sizeof(int32_t))
                for i in range(self.n):
                    out |= <uint32_t>copy[i] >= <uint32_t>limit
        else:
            a64 = actions
            with nogil:
                for i in range(self.n):
                    out |= <uint64_t>a64[i] >= <uint64_t>limit
                    copy[i] = <int32_t>a64[i]
        if out:
            for i in range(self.n):
                value = a32[i] if narrow else a64[i]
                if not 0 <= value < limit:
                    bad = i
                    break
        if bad >= 0:
            raise ValueError(f"game {bad}: action {value} is out of range [0, {limit})")
        if self.illegal_raises:
            with nogil:
                for i in range(self.n):
                    # A game that has ended takes no action (next-step ignores
                    # it; disabled refuses it below).
                    if not self.st.games[i].over and not legal(&self.st, i, copy[i]):
                        bad = i
                        break
            if bad >= 0:
                raise ValueError(f"game {bad}: action {copy[bad]} is not legal (illegal=\"raise\")")
        if mode == DISABLED:
            for i in range(self.n):
                if self.st.games[i].over:
                    raise ValueError(f"game {i} has ended: reset it before stepping "
                                     f"(autoreset='disabled')")
        self.st.mode = mode

    def step_part(self, int64_t lo, int64_t hi):
        if not 0 <= lo <= hi <= self.n:
            raise ValueError("step_part out of range")
        with nogil:
            step_games(&self.st, lo, hi)

    def check_reset(self, const uint8_t[::1] mask):
        """The games the next reset_part calls reset: where ``mask`` (uint8,
        shape (n,)) is not 0."""
        if mask.shape[0] != self.n:
            raise ValueError(f"a mask of shape ({self.n},) is wanted")
        self.call_inputs = mask
        self.st.reset_mask = &mask[0]

    def reset_part(self, int64_t lo, int64_t hi):
        if not 0 <= lo <= hi <= self.n or self.st.reset_mask == NULL:
            raise ValueError("reset_part without check_reset, or out of range")
        with nogil:
            reset_games(&self.st, lo, hi)

    def check_sample(self, int32_t[::1] out):
        """The array the next sample_part calls write to."""
        if out.shape[0] != self.n:
            raise ValueError(f"an out array of shape ({self.n},) is wanted")
        self.call_inputs = out
        self.st.sampled = &out[0]

    def sample_part(self, int64_t lo, int64_t hi):
        if not 0 <= lo <= hi <= self.n or self.st.sampled == NULL:
            raise ValueError("sample_part without check_sample, or out of range")
        with nogil:
            sample_games(&self.st, lo, hi)

    def set_starts(self, stones, steps):
        """The start positions resets draw from: ``stones`` (k, cells) uint8
        codes (0 empty, 1 Red, 2 Blue) and ``steps`` (k moves since the empty
        board, a swap included: its parity names the colour to move), as
        the caller checked them against the rules; none when k is 0.  Each
        is checked again here for what indexes memory (the codes, the
        steps, the lone red stone a swap would move); the forests are built
        by placing the stones."""
        cdef const uint8_t[:, ::1] s = stones
        cdef int64_t k = s.shape[0], j
        cdef int32_t cells = self.st.shape.cells, c, count, first
        cdef int64_t step
        cdef Start* starts = NULL
        cdef uint8_t* copies = NULL
        cdef int32_t* forests = NULL
        if s.shape[1] != cells or len(steps) != k:
            raise ValueError(f"positions of {cells} cells and one step count each are wanted")
        for j in range(k):
            count = 0
            first = -1
            for c in range(cells):
                if s[j, c] > 2:
                    raise ValueError(f"position {j}: a cell holds {s[j, c]}, not 0, 1 or 2")
                if s[j, c]:
                    count += 1
                    first = c
            step = steps[j]
            if not count <= step <= count + 1 or (step == 1 and not (count == 1 and s[j, first] == 1)):
                raise ValueError(f"position {j}: {step} moves cannot have left {count} stones")
        if k:
            starts = <Start*>malloc(k * sizeof(Start))
            copies = <uint8_t*>malloc(k * (cells + 1))
            forests = <int32_t*>malloc(k * cells * sizeof(int32_t))
            if starts == NULL or copies == NULL or forests == NULL:
                free(starts)
                free(copies)
                free(forests)
                raise MemoryError(f"no memory for {k} start positions")
            memset(copies, 0, k * (cells + 1))
            for j in range(k):
                starts[j].steps = <int32_t>steps[j]
                # The stone a swap moves: only one stone, Red's, after one move.
                starts[j].first_cell = -1
                for c in range(cells):
                    if s[j, c]:
                        if starts[j].steps == 1:
                            starts[j].first_cell = c
                        place(&self.st.shape, copies + j * (cells + 1), forests + j * cells,
                              c, s[j, c] - 1)
        free(self.st.starts)
        free(self.start_stones)
        free(self.start_parent)
        self.st.starts = starts
        self.start_stones = copies
        self.start_parent = forests
        self.st.start_stones = copies
        self.st.start_parent = forests
        self.st.n_starts = <int32_t>k

    def start_games(self, const int64_t[::1] games, stones, steps):
        """Game ``games[j]`` from position j of ``stones`` (as
        :meth:`set_starts` takes them, checked by the caller), now; the
        starts later resets draw from are kept."""
        cdef int64_t j, k = games.shape[0]
        cdef Start* kept = self.st.starts
        cdef uint8_t* kept_stones = self.start_stones
        cdef int32_t* kept_parent = self.start_parent
        cdef int32_t kept_count = self.st.n_starts
        for j in range(k):
            if not 0 <= games[j] < self.n:
                raise IndexError(f"game {games[j]} is not in the batch of {self.n}")
        # The positions become the starts for the time of this call.
        self.st.starts = NULL
        self.start_stones = NULL
        self.start_parent = NULL
        self.st.n_starts = 0
        try:
            self.set_starts(stones, steps)
            if self.st.n_starts != k:
                raise ValueError(f"{self.st.n_starts} positions for {k} games")
            for j in range(k):
                clear_outcome(&self.st, games[j])
                self.st.f.final_mask[games[j]] = 0
                restart_at(&self.st, games[j], j)
        finally:
            free(self.st.starts)
            free(self.start_stones)
            free(self.start_parent)
            self.st.starts = kept
            self.start_stones = kept_stones
            self.start_parent = kept_parent
            self.st.start_stones = kept_stones
            self.st.start_parent = kept_parent
            self.st.n_starts = kept_count

    def cells(self, int64_t i):
        """Game ``i``'s cells as bytes (0 empty, 1 Red, 2 Blue) and the
        colour to move (1 Red, 2 Blue), for pictures."""
        cdef int32_t cells = self.st.shape.cells
        if not 0 <= i < self.n:
            raise IndexError(f"game {i} is not in the batch of {self.n}")
        return ((<char*>self.st.stones)[i * (cells + 1):i * (cells + 1) + cells],
                1 + (self.st.games[i].steps & 1))

    def stones(self):
        """The games' cells (n, cells) as bytes (0 empty, 1 Red, 2 Blue) and
        their steps, for tests and pictures."""
        cdef int32_t cells = self.st.shape.cells
        cdef int64_t i
        return (b"".join((<char*>self.st.stones)[i * (cells + 1):i * (cells + 1) + cells]
                         for i in range(self.n)),
                [self.st.games[i].steps for i in range(self.n)])


cdef uint8_t* _pointer(block, Py_ssize_t size) except NULL:
    """The first byte of a field's memory (a havhex._batch_core.Block of
    ``size`` bytes).  Its buffer is read-only to Python; the core alone
    writes it, through this pointer."""
    cdef const uint8_t[::1] flat = block
    if flat.shape[0] != size:
        raise ValueError(f"a field of {size} bytes is wanted, got {flat.shape[0]}")
    return <uint8_t*>&flat[0]
