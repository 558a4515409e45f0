# The exact solver's driver, included by each game's search module after
# mcts_driver.pxi, over the same game kernels (game_play, game_undo,
# game_candidates, game_player, game_open, ...): depth-first proof-number
# search (df-pn, Nagai 2002) with the 1 + epsilon trick of Pawlewicz and
# Lew (2007), its numbers kept in the fixed table of proof_table.pxd.
#
# The numbers are the mover's (negamax form): phi, the proof number of "the
# player to move wins", delta that of "the player to move loses".  Of a
# node whose children c are the positions after each candidate move,
#     phi = min over c of delta(c),      delta = sum over c of phi(c);
# a proven win is (0, infinite), a proven loss (infinite, 0).  A child not
# yet searched counts (1, 1).
#
# The game's candidates carry its knowledge: a move that wins at once
# proves the node, two threats to win at once disprove it, and one threat
# leaves only the reply to it.
#
# Draws (a full Havannah board without a winner) count for one fixed
# player, the defender, so that a proof is a proof of a win: a first pass
# takes player 1 as the defender; only when a draw was met and the answer
# could hang on it does a second pass take player 0, and the two answers
# together tell a win from a draw.  The defender's key is mixed into every
# table key, so the passes never read each other's numbers.

from havhex._native.proof_table cimport *

# How often (in nodes) a solve looks at the clock and the cancel flag: often
# enough that a Ctrl-C stops it at once even where each node searches the
# chains of a large Hex board.
cdef enum:
    STOP_POLL = 63

# The most work an entry counts.
cdef uint64_t WORK_MAX = 0xFFFFFFFF


cdef struct Prover:
    ProofTable table
    uint64_t* keys          # per move id, two keys: the move by player 0, by player 1
    int32_t* moves          # per depth, n_ids slots: the candidates of the node there
    int32_t n_ids
    int32_t max_depth
    uint64_t position_key   # the position's key, the root's being 0
    uint64_t defender_key   # mixed into every key: which player a draw favours
    uint8_t defender
    uint8_t draws_seen[2]   # per defender: whether a draw was ever scored
    uint8_t stopped
    int64_t nodes           # nodes expanded since the prover was made
    int64_t node_limit      # stop when ``nodes`` reaches it (-1: none)
    int64_t deadline_us     # stop at this time (-1: none)
    const int* cancel


cdef inline uint32_t add_capped(uint64_t total) noexcept nogil:
    return <uint32_t>total if total < PN_INFINITE else PN_INFINITE - 1


cdef inline bint should_stop(Prover* p) noexcept nogil:
    if p.stopped:
        return True
    if p.node_limit >= 0 and p.nodes >= p.node_limit:
        p.stopped = 1
    elif (p.nodes & STOP_POLL) == 0:
        if cancel_requested(p.cancel) or (p.deadline_us >= 0 and monotonic_us() >= p.deadline_us):
            p.stopped = 1
    return p.stopped


cdef inline void score_finished(Prover* p, uint64_t key, uint8_t result,
                                uint8_t mover_after) noexcept nogil:
    """The entry of a position a move has just finished: won by the player
    who moved (``result`` 1), or drawn (2), which the defender wins."""
    if result == 2:
        p.draws_seen[p.defender] = 1
        if mover_after == p.defender:
            table_store(&p.table, key, 0, PN_INFINITE, 1, -1)
            return
    table_store(&p.table, key, PN_INFINITE, 0, 1, -1)


cdef void dfpn(Prover* p, State* s, int32_t depth, uint32_t max_phi,
                uint32_t max_delta) noexcept nogil:
    """Search the position of ``s`` until its phi reaches ``max_phi`` or its
    delta ``max_delta`` (or the solve stops); its numbers go to the table."""
    cdef int32_t* moves = p.moves + <int64_t>depth * p.n_ids
    cdef uint8_t player = game_player(s)
    cdef uint8_t verdict = EXPAND_OPEN
    cdef uint64_t key = p.position_key ^ p.defender_key
    cdef uint64_t move_key, total
    cdef int64_t start = p.nodes
    cdef int64_t child_max_phi, child_max_delta
    cdef int32_t n, k, best = -1
    cdef uint32_t phi = 1, delta = 1, child_phi, child_delta, best_phi = 1, second
    cdef bint infinite
    cdef uint8_t result
    cdef ProofEntry* entry
    p.nodes += 1
    should_stop(p)
    n = game_solver_candidates(s, moves, &verdict)
    if verdict == EXPAND_WIN:
        table_store(&p.table, key, 0, PN_INFINITE, 1, moves[0])
        return
    if verdict == EXPAND_LOST:
        table_store(&p.table, key, PN_INFINITE, 0, 1, -1)
        return
    if n == 0:
        # No move and no result: a full board the game did not end on
        # counts as drawn.
        p.draws_seen[p.defender] = 1
        if player == p.defender:
            table_store(&p.table, key, 0, PN_INFINITE, 1, -1)
        else:
            table_store(&p.table, key, PN_INFINITE, 0, 1, -1)
        return
    while True:
        phi = PN_INFINITE
        second = PN_INFINITE
        total = 0
        infinite = False
        best = 0
        for k in range(n):
            entry = table_find(&p.table, key ^ p.keys[2 * moves[k] + player])
            if entry != NULL:
                child_phi = entry.phi
                child_delta = entry.delta
            else:
                child_phi = 1
                child_delta = 1
            if child_phi >= PN_INFINITE:
                infinite = True
            total += child_phi
            if child_delta < phi:
                second = phi
                phi = child_delta
                best_phi = child_phi
                best = k
            elif child_delta < second:
                second = child_delta
        delta = PN_INFINITE if infinite else add_capped(total)
        if phi >= max_phi or delta >= max_delta or p.stopped:
            break
        # The best child runs until it is no longer the best by more than
        # a quarter (1 + epsilon), or its phi spends the node's delta.
        child_max_phi = <int64_t>max_delta - delta + best_phi
        if child_max_phi > PN_INFINITE:
            child_max_phi = PN_INFINITE
        child_max_delta = <int64_t>second + second // 4 + 1
        if child_max_delta > max_phi:
            child_max_delta = max_phi
        move_key = p.keys[2 * moves[best] + player]
        result = game_play(s, moves[best])
        p.position_key ^= move_key
        if result:
            score_finished(p, p.position_key ^ p.defender_key, result, game_player(s))
        else:
            dfpn(p, s, depth + 1, <uint32_t>child_max_phi, <uint32_t>child_max_delta)
        p.position_key ^= move_key
        game_undo(s)
        if should_stop(p):
            # The child's numbers are in the table: one more pass of the
            # loop would only read them; the node's own are stored below
            # from the last pass (still sound as estimates).
            break
    total = <uint64_t>(p.nodes - start)
    if total > WORK_MAX:
        total = WORK_MAX
    table_store(&p.table, key, phi, delta, <uint32_t>total, moves[best])


cdef class SolverCore:
    """The solver of one game's position: the position (walked by ``play``
    and ``undo``), its table and its counts.  Made by havhex.search.solve,
    which checks what it gives here."""
    cdef State state
    cdef Prover prover
    cdef bint opened
    cdef int cancel_flag
    cdef list walked        # the move ids played since the root

    def __dealloc__(self):
        table_close(&self.prover.table)
        free(self.prover.keys)
        free(self.prover.moves)
        if self.opened:
            game_solver_close(&self.state)
            game_close(&self.state)

    def __init__(self, board, int64_t table_bytes, uint64_t root_key):
        """The solver of ``board`` (a live board of this game, not over)
        with a table of at most ``table_bytes``; ``root_key`` is the
        position's key, unique to the board's shape, rule and stones (the
        caller's), so that one table serves many positions."""
        cdef Prover* p = &self.prover
        if p.table.buckets != NULL:
            raise TypeError("a SolverCore is initialised once")
        if table_bytes < <int64_t>sizeof(ProofBucket):
            raise ValueError(f"the table needs at least {sizeof(ProofBucket)} bytes")
        if not table_open(&p.table, table_bytes):
            raise MemoryError(f"no memory for a table of {table_bytes} bytes")
        p.cancel = &self.cancel_flag
        self.reset(board, root_key)

    def reset(self, board, uint64_t root_key):
        """Solve ``board`` (as ``__init__`` takes it) from now on, the
        table kept: its entries are keyed by position, whatever the root."""
        cdef int32_t n_ids, k
        cdef Prover* p = &self.prover
        if self.opened:
            game_solver_close(&self.state)
            game_close(&self.state)
            self.opened = False
        n_ids = game_open(&self.state, board)
        self.opened = True
        if not game_solver_open(&self.state):
            raise MemoryError("no memory for the solver")
        if n_ids != p.n_ids:
            free(p.keys)
            free(p.moves)
            p.n_ids = n_ids
            # Every move id at most once, the swaps included, and the root.
            p.max_depth = n_ids + 1
            p.keys = <uint64_t*>malloc(<size_t>n_ids * 2 * sizeof(uint64_t))
            p.moves = <int32_t*>malloc(<size_t>(p.max_depth + 1) * n_ids * sizeof(int32_t))
            if p.keys == NULL or p.moves == NULL:
                p.n_ids = 0
                raise MemoryError("no memory for the solver")
            for k in range(2 * n_ids):
                p.keys[k] = splitmix64_mix(<uint64_t>0x9E3779B97F4A7C15 + <uint64_t>k)
        p.position_key = root_key
        self.walked = []

    def _prove(self):
        with nogil:
            dfpn(&self.prover, &self.state, 0, PN_INFINITE, PN_INFINITE)

    def _cancel(self):
        request_cancel(&self.cancel_flag)

    cdef ProofEntry* _pass(self, uint8_t defender, int64_t node_limit, int64_t deadline_us):
        """One pass from the current position with ``defender`` winning
        draws: the position's entry (NULL if the table lost it)."""
        cdef Prover* p = &self.prover
        cdef ProofEntry* entry
        p.defender = defender
        # Each pass keys its own entries: their numbers mean different things.
        p.defender_key = <uint64_t>0xD1B54A32D192ED03 if defender == 0 else 0
        p.stopped = 0
        p.node_limit = node_limit
        p.deadline_us = deadline_us
        self.cancel_flag = 0
        entry = table_find(&p.table, p.position_key ^ p.defender_key)
        if entry == NULL or (entry.phi != 0 and entry.delta != 0):
            run_interruptibly(self._prove, self._cancel)
            entry = table_find(&p.table, p.position_key ^ p.defender_key)
        return entry

    def solve(self, int64_t max_nodes=-1, double seconds=-1.0):
        """Who wins the current position with best play: ``(result, move)``,
        ``result`` "win", "loss" or "draw" for the player to move, or
        "unknown" when ``max_nodes`` more nodes (-1: no limit) or
        ``seconds`` (negative: none) ran out first; ``move`` a move that
        wins (or draws), else None.  Ctrl-C stops it."""
        cdef Prover* p = &self.prover
        cdef uint8_t mover = game_player(&self.state)
        cdef int64_t node_limit = p.nodes + max_nodes if max_nodes >= 0 else -1
        cdef int64_t deadline_us = monotonic_us() + <int64_t>(seconds * 1e6) if seconds >= 0 else -1
        cdef ProofEntry* entry
        cdef ProofEntry* other
        entry = self._pass(1, node_limit, deadline_us)
        if entry == NULL or (entry.phi != 0 and entry.delta != 0):
            return "unknown", None
        # Player 1 wins draws: a proof for player 0 is a win, and so is one
        # for player 1 where no draw was ever scored.
        if (entry.phi == 0) == (mover == 0) or not p.draws_seen[1]:
            if entry.phi == 0:
                return "win", game_move_object(&self.state, entry.move)
            return "loss", None
        # Player 1 wins or draws: a pass where player 0 wins draws tells.
        other = self._pass(0, node_limit, deadline_us)
        if other == NULL or (other.phi != 0 and other.delta != 0):
            return "unknown", None
        if mover == 1:
            if other.phi == 0:
                return "win", game_move_object(&self.state, other.move)
            entry = table_find(&p.table, p.position_key ^ <uint64_t>0)
            return "draw", (game_move_object(&self.state, entry.move)
                            if entry != NULL and entry.phi == 0 else None)
        if other.phi == 0:
            return "draw", game_move_object(&self.state, other.move)
        return "loss", None

    def play(self, move):
        """Walk to the position after ``move`` (legal, checked by the
        caller); True when it ends the game."""
        cdef int32_t move_id = game_move_id(&self.state, move)
        cdef uint8_t player = game_player(&self.state)
        cdef uint8_t result = game_play(&self.state, move_id)
        self.prover.position_key ^= self.prover.keys[2 * move_id + player]
        self.walked.append(move_id)
        return result != 0

    def undo(self):
        """Walk back the last ``play``."""
        cdef int32_t move_id
        if not self.walked:
            raise IndexError("nothing to take back")
        move_id = self.walked.pop()
        game_undo(&self.state)
        self.prover.position_key ^= self.prover.keys[2 * move_id + game_player(&self.state)]

    def entry(self, move):
        """The numbers of the position after ``move`` from the current one,
        as the first pass keeps them: ``(phi, delta, work)`` for the player
        who moves there, or None when the table does not hold it."""
        cdef int32_t move_id = game_move_id(&self.state, move)
        cdef uint64_t key = (self.prover.position_key
                             ^ self.prover.keys[2 * move_id + game_player(&self.state)])
        cdef ProofEntry* found = table_find(&self.prover.table, key)
        if found == NULL:
            return None
        return found.phi, found.delta, found.work

    def clear(self):
        """Forget every entry (the counts stay)."""
        table_clear(&self.prover.table)
        self.prover.draws_seen[0] = 0
        self.prover.draws_seen[1] = 0

    @property
    def nodes(self):
        """Nodes expanded since the solver was made."""
        return self.prover.nodes

    @property
    def stored(self):
        """Entries the table holds."""
        return self.prover.table.stored

    @property
    def replaced(self):
        """Entries the table gave up for others."""
        return self.prover.table.replaced

    @property
    def capacity(self):
        """Entries the table can hold."""
        return table_capacity(&self.prover.table)

    @property
    def infinite(self):
        return PN_INFINITE
