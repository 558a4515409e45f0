# Included by _judge.pyx (one extension, no import between the parts): the
# scheduling of -j, where the reader publishes cases and workers judge them:
# which case a worker takes (claim_case), when a worker with nothing to judge
# reads on (read_turn, enough_read), and a worker's loop (work_cases).
#
# The functions take the HavannahInput as ``self``: they are its own, but a
# class body cannot be split across files.


cdef struct WorkerNote:
    # What one worker is judging, for the reader's choice (enough_read).
    # All fields are read by other threads, with relaxed atomic loads: they
    # only feed an estimate.
    int64_t busy              # 1 while judging
    int64_t n_moves           # moves of the case
    int64_t played            # moves judged so far, every PROGRESS_STEP
    int64_t started           # now_us() when the case was taken


cdef enum:
    CLAIM_NOT_YET = -1        # no case to take until more is read
    CLAIM_NONE_LEFT = -2


cdef int64_t claim_case(HavannahInput self) noexcept nogil:
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


cdef bint read_turn(HavannahInput self) noexcept nogil:
    """Read whole cases if no other worker is reading, until this worker
    had better judge what it read (enough_read).  False if it did not
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
        if self.hand_over_reading or enough_read(self):
            break
    store_release(&self.reader_busy, 0)
    return True


cdef void read_rest(HavannahInput self) noexcept nogil:
    """Read to the end of the input (or its first fault), whoever judges."""
    while not load_acquire(&self.parse_done):
        if not read_turn(self):
            sleep_us(20)


cdef bint enough_read(HavannahInput self) noexcept nogil:
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


cdef int work_cases(HavannahInput self, uint64_t seed) noexcept nogil:
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
        number = claim_case(self)
        if number == CLAIM_NONE_LEFT or cancelled():
            break
        if number == CLAIM_NOT_YET:
            if not read_turn(self):
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
