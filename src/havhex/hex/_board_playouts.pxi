# The playouts of hex/_board.pyx (included there, after BoardCore): the
# nogil kernels that play random games to the end, and PlayoutRun, the
# shared state of one playouts() call.

include "_playout_kernel.pxi"


cdef struct PlayoutJob:
    Geometry g
    PlayoutStart start
    uint64_t seed
    int64_t n_playouts
    int64_t next_playout      # claimed in chunks by the threads
    int64_t chunk             # playouts a thread claims at once
    int cancel                # set (request_cancel) to stop every thread soon


cdef int run_job(PlayoutJob* job, int64_t* red_wins) noexcept nogil:
    """Playouts claimed by chunks until none is left or the job is
    cancelled; adds Red's wins.  Returns -1 when out of memory."""
    cdef PlayoutScratch scratch
    cdef Xoshiro rng
    cdef int64_t first, i, stop
    # This thread's own copies of what every playout reads: the claim
    # counter that the threads write shares their cache line.
    cdef Geometry g = job.g
    cdef PlayoutStart start = job.start
    scratch.stones = <uint8_t*>malloc(job.g.padded)
    scratch.order = <int32_t*>malloc((job.start.n_empty + 1) * sizeof(int32_t))
    scratch.stack = <int32_t*>malloc(job.g.padded * sizeof(int32_t))
    if scratch.stones == NULL or scratch.order == NULL or scratch.stack == NULL:
        free(scratch.stones)
        free(scratch.order)
        free(scratch.stack)
        return -1
    while not cancel_requested(&job.cancel):
        first = fetch_add(&job.next_playout, job.chunk)
        if first >= job.n_playouts:
            break
        stop = min(first + job.chunk, job.n_playouts)
        for i in range(first, stop):
            # Playout i draws from stream i of the seed: the same result
            # whichever thread plays it.
            xoshiro_seed(&rng, job.seed, <uint64_t>i)
            if playout(&g, &start, &scratch, &rng) == RED:
                red_wins[0] += 1
    free(scratch.stones)
    free(scratch.order)
    free(scratch.stack)
    return 0


# Playouts of at least this many cell steps run on a worker thread while the
# calling thread waits for Ctrl-C; shorter runs, over within a fraction of a
# second, are played here, where a thread's start and hand-over would weigh
# on them.
cdef int64_t LARGE_RUN = 1 << 23


cdef class PlayoutRun:
    """The playouts of one call: a copy of the position's stones and empty
    cells (the board may change, or go, while threads play) and the shared
    claim counter.  Each thread keeps it alive while it plays."""
    cdef PlayoutJob job
    cdef uint8_t* stones
    cdef int32_t* empty
    cdef int64_t red
    cdef bint large             # worth a thread while the caller waits for Ctrl-C

    def __cinit__(self, BoardCore board, int64_t n, seed):
        cdef int32_t row, col, cell, n_empty = 0
        if board.parent == NULL:
            _unmade()
        self.job.g = board.g
        self.job.seed = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
        self.job.n_playouts = n
        self.job.next_playout = 0
        self.job.cancel = 0
        # 64 playouts a claim on small boards, fewer (down to one) as a
        # playout grows, so that a few playouts of a huge board still spread
        # over the threads, and a cancel (looked at between claims) is seen
        # within some 2**16 cell steps (one playout, past that many cells).
        self.job.chunk = max(1, min(64, (1 << 16) // (board.g.rows * board.g.cols + 16)))
        self.large = <double>n * (board.g.rows * board.g.cols + 16) >= LARGE_RUN
        if board.winner_code:
            self.red = n if board.winner_code == RED else 0
            self.job.n_playouts = 0
            return
        self.stones = <uint8_t*>malloc(board.g.padded)
        self.empty = <int32_t*>malloc((board.g.rows * board.g.cols + 1) * sizeof(int32_t))
        if self.stones == NULL or self.empty == NULL:
            raise MemoryError("no memory for the playouts")
        memcpy(self.stones, board.stones, board.g.padded)
        for row in range(board.g.rows):
            for col in range(board.g.cols):
                cell = (row + 1) * board.g.width + col
                if self.stones[cell] == EMPTY:
                    self.empty[n_empty] = cell
                    n_empty += 1
        self.job.start.stones = self.stones
        self.job.start.empty = self.empty
        self.job.start.n_empty = n_empty
        self.job.start.mover = board.mover
        self.job.start.swap_cell = board._swap_cell()
        self.job.start.swap_mirror = (board._mirror(self.job.start.swap_cell)
                                      if self.job.start.swap_cell >= 0 else -1)

    def __dealloc__(self):
        free(self.stones)
        free(self.empty)

    cdef int64_t pieces(self):
        """The claims the run makes: no more threads than these can share it."""
        return (self.job.n_playouts + self.job.chunk - 1) // self.job.chunk

    def work(self):
        """Play claimed playouts until none is left (or the run is
        cancelled), adding Red's wins to the run's."""
        cdef int64_t red = 0
        cdef int status
        with nogil:
            status = run_job(&self.job, &red)
        if status:
            raise MemoryError("no memory for the playouts")
        self.red += red

    def cancel(self):
        """Ask every thread to stop after its current playout."""
        request_cancel(&self.job.cancel)
