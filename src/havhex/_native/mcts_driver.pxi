# The search's driver, included by each game's search module
# (havhex/hex/_search.pyx, havhex/havannah/_search.pyx) after the game has
# defined its State and these kernels over it:
#
#   game_player(s)                the player to move, 0 or 1
#   game_play(s, move)            play a move id; 0 the game goes on, 1 the
#                                 mover won, 2 a draw
#   game_undo(s)                  take the last played move back
#   game_candidates(s, out, &v)   the moves a new node gets, and what they
#                                 prove (EXPAND_*)
#   game_knowledge(s, move)       the prior of a new child's move (Node.know),
#                                 from the position before it (0: none)
#   game_evaluate(s, rng, owner)  the leaf's value by a playout: 0 or 1 the
#                                 winner, 2 a draw; owner[move] marks who
#                                 played each move of the playout (player + 1)
#   game_open(s, board)           the State of a live board (Python level),
#                                 returning how many move ids there are
#   game_close(s)                 frees what game_open took
#   game_move_id / game_move_object   a board's move to its id and back
#
# A simulation is four kernels in turn: descend (selection), expand,
# evaluate (the game's playout, which a later part may replace by a network
# call) and backup; the game is included, not called through pointers, so
# the compiler sees one loop.

from havhex._native.portable cimport compare_exchange32, fetch_add, store_release32
from havhex._threads import run_shared

# More threads than this would only share the cores (and each holds a copy
# of the position).
MAX_THREADS = 256


cdef struct Walk:
    int32_t* path           # the nodes of this simulation's walk, root first
    int32_t* moves          # the candidates of a node being expanded
    uint8_t* owner          # per move id: who played it in this simulation (player + 1)
    int32_t n_ids


cdef inline void mark_finished(Node* node, uint8_t result) noexcept nogil:
    """A move that ended the game: a win for its mover, or a draw."""
    if node.proven == UNPROVEN:
        node.proven = PROVEN_WIN if result == 1 else DRAWN


cdef bint expand(Tree* t, State* s, Node* node, Walk* w, Xoshiro* rng) noexcept nogil:
    """Give ``node`` (the position of ``s``) its children, with what the
    game's candidates prove; False when another thread is expanding it or
    the pool has no room (it stays a leaf)."""
    cdef uint8_t verdict = EXPAND_OPEN
    cdef int32_t n, first, k, pick, held
    cdef uint8_t mover = game_player(s)
    if not compare_exchange32(&node.first_child, -1, EXPANDING):
        return False
    n = game_candidates(s, w.moves, &verdict)
    first = tree_reserve(t, n) if n > 0 else -1
    if first < 0:
        store_release32(&node.first_child, -1)
        return False
    # In a random order: among children of equal value the first is taken.
    for k in range(n - 1, 0, -1):
        pick = <int32_t>random_below(rng, <uint32_t>(k + 1))
        held = w.moves[k]
        w.moves[k] = w.moves[pick]
        w.moves[pick] = held
    for k in range(n):
        node_clear(&t.nodes[first + k], w.moves[k], mover)
        if verdict == EXPAND_OPEN:
            t.nodes[first + k].know = game_knowledge(s, w.moves[k])
        if verdict == EXPAND_WIN:
            t.nodes[first + k].proven = PROVEN_WIN
        elif verdict == EXPAND_LOST:
            t.nodes[first + k].proven = PROVEN_LOSS
    # The block is written before the node points at it: the release store
    # publishes it to the threads that see the pointer.
    node.n_children = n
    store_release32(&node.first_child, first)
    return True


cdef inline int32_t descend(Tree* t, State* s, Walk* w, int32_t* depth) noexcept nogil:
    """Selection: from the root down the best children to a leaf or a
    proven node, playing their moves on ``s``; the moves played."""
    cdef int32_t index = 0, played = 0
    cdef Node* node = &t.nodes[0]
    cdef uint8_t result
    w.path[0] = 0
    depth[0] = 1
    enter(node)
    while children_of(node) >= 0 and node.proven == UNPROVEN:
        index = select_child(t, node)
        node = &t.nodes[index]
        enter(node)
        result = game_play(s, node.move)
        w.owner[node.move] = node.mover + 1
        played += 1
        w.path[depth[0]] = index
        depth[0] += 1
        if result:
            mark_finished(node, result)
    return played


cdef void simulate(Tree* t, State* s, Walk* w, Xoshiro* rng) noexcept nogil:
    """One simulation: select, expand, evaluate, back up, and the moves
    taken back."""
    cdef int32_t depth = 0, index, k
    cdef int32_t played = descend(t, s, w, &depth)
    cdef Node* node = &t.nodes[w.path[depth - 1]]
    cdef uint8_t outcome, result
    # (The walk has counted its visit to the leaf already.)
    if node.proven == UNPROVEN and (depth == 1
                                    or count_load(&node.visits) >= t.params.expand_visits):
        if expand(t, s, node, w, rng):
            prove(t, w.path, depth)
            if node.proven == UNPROVEN:
                index = select_child(t, node)
                node = &t.nodes[index]
                enter(node)
                result = game_play(s, node.move)
                w.owner[node.move] = node.mover + 1
                played += 1
                w.path[depth] = index
                depth += 1
                if result:
                    mark_finished(node, result)
    if node.proven == PROVEN_WIN:
        outcome = node.mover
    elif node.proven == PROVEN_LOSS:
        outcome = 1 - node.mover
    elif node.proven == DRAWN:
        outcome = 2
    else:
        outcome = game_evaluate(s, rng, w.owner)
    backup(t, w.path, depth, outcome, w.owner)
    prove(t, w.path, depth)
    for k in range(played):
        game_undo(s)
    memset(w.owner, 0, <size_t>w.n_ids)


cdef int64_t run_simulations(Tree* t, State* s, Walk* w, Xoshiro* rng, int64_t* started,
                             int64_t limit, int64_t deadline_us, const int* cancel) noexcept nogil:
    """One thread's simulations until the threads have started ``limit`` of
    them in all (``started``, shared; -1: no limit), the clock passes
    ``deadline_us`` (-1: none), the root is proven or ``cancel`` is set;
    the number this thread ran."""
    cdef int64_t done = 0
    while True:
        if t.nodes[0].proven == PROVEN_WIN or t.nodes[0].proven == PROVEN_LOSS:
            break
        if cancel_requested(cancel):
            break
        if deadline_us >= 0 and (done & 7) == 0 and monotonic_us() >= deadline_us:
            break
        if limit >= 0 and fetch_add(started, 1) >= limit:
            break
        simulate(t, s, w, rng)
        done += 1
    return done


cdef object _proof_word(uint8_t proven):
    """A child's proof, for the player to move at its parent (its mover)."""
    if proven == PROVEN_WIN:
        return "win"
    if proven == PROVEN_LOSS:
        return "loss"
    return None


cdef class SearchCore:
    """One search tree over a copy of a live board's position, searched by
    one thread or several, each with its own copy: the compiled part of
    :class:`havhex.search.Search` (see there)."""
    cdef State* states          # per thread
    cdef Walk* walks            # per thread
    cdef Xoshiro* rngs          # per thread
    cdef int32_t n_threads, opened, next_thread
    cdef Tree tree
    cdef int cancel_flag
    cdef int64_t limit, deadline_us, started, done

    def __cinit__(self):
        self.tree.nodes = NULL
        self.tree.beta = NULL
        self.tree.spread = NULL
        self.states = NULL
        self.walks = NULL
        self.rngs = NULL

    def __dealloc__(self):
        cdef int32_t k
        tree_close(&self.tree)
        if self.walks != NULL:
            for k in range(self.n_threads):
                free(self.walks[k].path)
                free(self.walks[k].moves)
                free(self.walks[k].owner)
        for k in range(self.opened):
            game_close(&self.states[k])
        free(self.states)
        free(self.walks)
        free(self.rngs)

    def __init__(self, board, int64_t max_nodes, uint64_t seed, double exploration,
                 double rave, double first_play, uint32_t expand_visits, int32_t threads=1):
        """The search of ``board`` (checked by the caller: a live board of
        this game, not over) with a pool of ``max_nodes`` nodes, by
        ``threads`` threads."""
        cdef int32_t n_ids = 0, k
        cdef Params params
        cdef Walk* w
        if self.states != NULL:
            raise TypeError("a SearchCore is initialised once")
        if not 1 <= max_nodes <= MAX_NODES:
            raise ValueError(f"max_nodes must be from 1 to {MAX_NODES}, not {max_nodes}")
        if not 1 <= threads <= MAX_THREADS:
            raise ValueError(f"threads must be from 1 to {MAX_THREADS}, not {threads}")
        self.states = <State*>calloc(<size_t>threads, sizeof(State))
        self.walks = <Walk*>calloc(<size_t>threads, sizeof(Walk))
        self.rngs = <Xoshiro*>calloc(<size_t>threads, sizeof(Xoshiro))
        if self.states == NULL or self.walks == NULL or self.rngs == NULL:
            raise MemoryError("no memory for the search's threads")
        self.n_threads = threads
        for k in range(threads):
            n_ids = game_open(&self.states[k], board)
            self.opened = k + 1
            w = &self.walks[k]
            w.n_ids = n_ids
            w.path = <int32_t*>malloc(<size_t>(n_ids + 4) * sizeof(int32_t))
            w.moves = <int32_t*>malloc(<size_t>(n_ids + 4) * sizeof(int32_t))
            w.owner = <uint8_t*>calloc(<size_t>n_ids, 1)
            if w.path == NULL or w.moves == NULL or w.owner == NULL:
                raise MemoryError("no memory for the search")
            xoshiro_seed(&self.rngs[k], seed, <uint64_t>k)
        params.exploration = exploration
        params.rave = rave
        params.first_play = first_play
        params.expand_visits = expand_visits
        if not tree_open(&self.tree, <int32_t>max_nodes, 1 - game_player(&self.states[0]),
                         &params):
            raise MemoryError(f"no memory for a pool of {max_nodes} nodes")

    def run(self, int64_t simulations, double seconds):
        """Simulations until ``simulations`` of them (-1: no limit) or
        ``seconds`` (negative: no limit) or a proof of the root, on every
        thread; the number run.  Ctrl-C stops it after the current
        simulations."""
        self.limit = simulations
        self.deadline_us = monotonic_us() + <int64_t>(seconds * 1e6) if seconds >= 0 else -1
        self.started = 0
        self.done = 0
        self.next_thread = 0
        self.cancel_flag = 0
        if self.n_threads == 1:
            run_interruptibly(self._work, self._cancel)
        else:
            run_shared(self._work, self._cancel, self.n_threads, True)
        return self.done

    def _work(self):
        """One thread's share of ``run``: its own position, walk and random
        numbers, the tree shared."""
        cdef int32_t k = self.next_thread
        cdef int64_t done
        # (Under the GIL: each thread takes the next copy.)
        self.next_thread = k + 1
        with nogil:
            done = run_simulations(&self.tree, &self.states[k], &self.walks[k], &self.rngs[k],
                                   &self.started, self.limit, self.deadline_us,
                                   &self.cancel_flag)
        self.done += done

    def _cancel(self):
        request_cancel(&self.cancel_flag)

    def play(self, move):
        """The root moves on by ``move`` (as the board's ``moves`` list
        it; legal, checked by the caller): its subtree is kept, the rest of
        the pool freed."""
        cdef int32_t move_id = game_move_id(&self.states[0], move)
        cdef int32_t k
        cdef int32_t child = find_child(&self.tree, &self.tree.nodes[0], move_id)
        cdef uint8_t result
        if child < 0 or not tree_keep(&self.tree, child):
            tree_reset(&self.tree, game_player(&self.states[0]))
        elif self.tree.nodes[0].first_child < 0:
            # A leaf proven by its parent's expansion (a reply that stops one
            # of two threats) knows its result, not the move that wins: as
            # the root it is searched again, and its expansion proves it anew
            # with the winning move among its children.
            self.tree.nodes[0].proven = UNPROVEN
        result = game_play(&self.states[0], move_id)
        for k in range(1, self.n_threads):
            game_play(&self.states[k], move_id)
        if result:
            mark_finished(&self.tree.nodes[0], result)

    @property
    def nodes(self):
        """The nodes the tree holds now (the root among them)."""
        return self.tree.used

    @property
    def threads(self):
        return self.n_threads

    @property
    def max_nodes(self):
        return self.tree.capacity

    @property
    def rave(self):
        return self.tree.params.rave

    def set_rave(self, double k):
        """RAVE's k from the next simulation on (its weights' table made anew)."""
        cdef int32_t n
        self.tree.params.rave = k
        for n in range(TABLED_VISITS):
            self.tree.beta[n] = sqrt(k / (3.0 * n + k)) if k > 0 else 0.0

    def root(self):
        """``(visits, wins of the player to move, proven)``: the root's
        counts, with ``proven`` "win", "loss" or None for the player to move."""
        cdef Node* root = &self.tree.nodes[0]
        cdef double wins = root.visits - root.wins2 / 2.0
        return root.visits, wins, _proof_word(PROVEN_LOSS if root.proven == PROVEN_WIN else
                                              PROVEN_WIN if root.proven == PROVEN_LOSS else UNPROVEN)

    def children(self):
        """The root's children, best first: ``(move, visits, wins,
        amaf_visits, amaf_wins, proven, proof_plies)`` for the player to
        move (``proof_plies`` None when not proven)."""
        cdef Node* root = &self.tree.nodes[0]
        cdef list found = []
        cdef int32_t i
        cdef int64_t budget
        cdef Node* child
        if root.first_child < 0:
            return found
        order = sorted(range(root.first_child, root.first_child + root.n_children),
                       key=self._rank, reverse=True)
        # The best by better_move first, as principal_variation starts:
        # proven wins shortest first, proven losses longest first.
        i = best_child(&self.tree, root)
        order.remove(i)
        order.insert(0, i)
        for i in order:
            child = &self.tree.nodes[i]
            budget = PROOF_WALK
            plies = (proof_length(&self.tree, i, &budget)
                     if child.proven == PROVEN_WIN or child.proven == PROVEN_LOSS else None)
            found.append((game_move_object(&self.states[0], child.move), child.visits,
                          child.wins2 / 2.0, child.amaf_visits, child.amaf_wins2 / 2.0,
                          _proof_word(child.proven),
                          None if plies is None or plies >= LONG_PROOF else plies))
        return found

    def _rank(self, int32_t index):
        cdef Node* child = &self.tree.nodes[index]
        return (2 if child.proven == PROVEN_WIN else 0 if child.proven == PROVEN_LOSS else 1,
                child.visits, child.wins2)

    def principal_variation(self):
        """The moves from the root down the best children, while they have
        been visited (or are proven)."""
        cdef list moves = []
        cdef int32_t index = best_child(&self.tree, &self.tree.nodes[0])
        cdef Node* node
        while index >= 0:
            node = &self.tree.nodes[index]
            if node.visits == 0 and node.proven == UNPROVEN:
                break
            moves.append(game_move_object(&self.states[0], node.move))
            index = best_child(&self.tree, node)
        return moves
