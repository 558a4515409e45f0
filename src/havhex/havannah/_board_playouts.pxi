# The playouts of havannah/_board.pyx (included there, after BoardCore):
# the nogil kernels that play random games to the end, and PlayoutRun, the
# shared state of one playouts() call.

include "_playout_kernel.pxi"


cdef struct PlayoutJob:
    const Position* start
    const char* start_block
    const int32_t* start_free
    int32_t swap_cell
    uint64_t seed
    int64_t n_playouts
    int64_t next_playout        # claimed in chunks by the threads
    int64_t chunk               # playouts a thread claims at once
    int cancel                  # set (request_cancel) to stop every thread soon


cdef bint run_job(PlayoutJob* job, int64_t* wins) noexcept nogil:
    """Playouts claimed by chunks until none is left; False without memory."""
    cdef Playground g
    cdef Xoshiro rng
    cdef int64_t first, i, stop
    # This thread's own copies of what every playout reads, the job's
    # read-only fields only: the claim counter and the cancel flag, which
    # other threads write atomically, share their cache line and are read
    # atomically where they are read.
    cdef const Position* start = job.start
    cdef const char* start_block = job.start_block
    cdef const int32_t* start_free = job.start_free
    cdef int32_t swap_cell = job.swap_cell
    cdef uint64_t seed = job.seed
    if not playground_open(&g, start):
        return False
    while not cancel_requested(&job.cancel):
        first = fetch_add(&job.next_playout, job.chunk)
        if first >= job.n_playouts:
            break
        stop = min(first + job.chunk, job.n_playouts)
        for i in range(first, stop):
            # Playout i draws from stream i of the seed: the same result
            # whichever thread plays it.
            xoshiro_seed(&rng, seed, <uint64_t>i)
            wins[play_out(&g, start, start_block, start_free, swap_cell, &rng)] += 1
    playground_close(&g)
    return True


# Playouts of at least this many cell steps run on a worker thread while the
# calling thread waits for Ctrl-C; shorter runs, over within a fraction of a
# second, are played here, where a thread's start and hand-over would weigh
# on them.
cdef int64_t LARGE_RUN = 1 << 23


cdef class PlayoutRun:
    """The playouts of one playouts() call: a snapshot of the position (the
    board may change while the threads play) and the shared claim counter."""
    cdef PlayoutJob job
    cdef Position start
    cdef char* block
    cdef int32_t* free_cells
    cdef int64_t wins[3]        # draws, white's, black's
    cdef bint large             # worth a thread while the caller waits for Ctrl-C

    def __cinit__(self, BoardCore board, int64_t n, seed):
        cdef int32_t i, k = 0
        cdef size_t n_bytes = block_bytes(board.position.n_slots)
        if board.block == NULL:
            _unmade()
        self.block = <char*>malloc(n_bytes)
        self.free_cells = <int32_t*>malloc(<size_t>(board.position.n_empty + 1) * sizeof(int32_t))
        if self.block == NULL or self.free_cells == NULL:
            raise MemoryError("no memory for the playouts")
        memcpy(self.block, board.block, n_bytes)
        self.start = board.position
        point_into(&self.start, self.block)
        for i in range(self.start.n_slots):
            if self.start.cells[i] == EMPTY:
                self.free_cells[k] = i
                k += 1
        self.job.start = &self.start
        self.job.start_block = self.block
        self.job.start_free = self.free_cells
        self.job.swap_cell = board.log[0].cell if board._swap_legal() else -1
        self.job.seed = <uint64_t>(seed & 0xFFFFFFFFFFFFFFFF)
        self.job.n_playouts = n
        self.job.next_playout = 0
        self.job.cancel = 0
        # 64 playouts a claim on small boards, fewer (down to one) as a
        # playout grows, so that a few playouts of a huge board still spread
        # over the threads, and a cancel (looked at between claims) is seen
        # within some 2**16 cell steps (one playout, past that many cells).
        self.job.chunk = max(1, min(64, (1 << 16) // (board.position.n_empty + 16)))
        self.large = <double>n * (board.position.n_empty + 16) >= LARGE_RUN

    def __dealloc__(self):
        free(self.block)
        free(self.free_cells)

    cdef int64_t pieces(self):
        """The claims the run makes: no more threads than these can share it."""
        return (self.job.n_playouts + self.job.chunk - 1) // self.job.chunk

    def work(self):
        """Play claimed playouts until none is left (or the run is
        cancelled), adding the wins to the run's."""
        cdef int64_t wins[3]
        cdef bint done
        wins[0] = wins[1] = wins[2] = 0
        with nogil:
            done = run_job(&self.job, wins)
        if not done:
            raise MemoryError("no memory for the playouts")
        self.wins[0] += wins[0]
        self.wins[1] += wins[1]
        self.wins[2] += wins[2]

    def cancel(self):
        """Ask every thread to stop after its current chunk of playouts."""
        request_cancel(&self.job.cancel)
