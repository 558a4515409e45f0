# The batched search's driver (havhex.search.BatchSearch), included by each
# game's search module after mcts_driver.pxi, over the same State and
# kernels (game_play, game_undo, game_candidates, game_evaluate; see
# mcts_driver.pxi) and these, which speak the game's batch (its actions,
# its observation):
#
#   game_set_observed(s, obs, swap)   the State of one observation of the
#                                     game's Batch; True when that position
#                                     is already won (no search)
#   game_observe(s, obs, mask)        the State's observation and legal
#                                     actions, laid out as the Batch's
#   game_action(s, move)              a move id's action
#   game_batch_sizes(s, &a, &b)       the actions and the observation bytes
#   batch_mode(s)                     the State made ready for the batch's
#                                     rules and observations (False without
#                                     memory)
#
# One step of the search walks every tree down to a leaf (select_part),
# then the leaves' observations go to the user's evaluator in one call
# (Python), then each tree takes its answer (finish_part): expansion with
# the priors, and the value backed up.  The trees are searched in parts
# over threads (havhex._batch_core.Runner), each tree by one thread, each
# with its own random numbers: the results do not depend on the split.

from libc.math cimport INFINITY, isfinite
from libc.stdint cimport int8_t

from havhex._native.batch_tree cimport *
from havhex._native.random cimport xoshiro_next


cdef inline float outcome_value(uint8_t winner, uint8_t player) noexcept nogil:
    """A finished game's value for ``player``: ``winner`` 0 or 1, 2 a draw."""
    if winner == 2:
        return 0.0
    return 1.0 if winner == player else -1.0


cdef class BatchSearchCore:
    """B trees over the positions of B observations of a game's batch: the
    compiled part of :class:`havhex.search.BatchSearch` (see there)."""
    cdef State* states
    cdef int32_t opened
    cdef Xoshiro* rngs
    cdef Nodes nodes
    cdef Rule rule
    cdef readonly int32_t n_trees, n_actions, observation_bytes
    cdef int32_t n_ids, max_depth, capacity
    cdef bint playouts                  # leaves valued by the game's playouts, not an evaluator
    cdef uint8_t swap_option
    cdef int32_t* used                  # [b] nodes tree b holds
    cdef int32_t* paths                 # [b * max_depth + d]
    cdef int32_t* depth
    cdef int32_t* played
    cdef int32_t* candidates            # [b * n_ids + k] the pending leaf's moves
    cdef int32_t* candidate_actions
    cdef int32_t* n_candidates
    cdef uint8_t* expandable            # [b] the pending leaf gets its children
    cdef uint8_t* pending               # [b] the tree waits for the evaluator
    cdef uint8_t* idle                  # [b] not searched: over, proven, or left out
    cdef uint8_t* owner                 # [b * n_ids] a playout's scratch
    cdef float* gumbel                  # [b * n_ids] the root children's noise (-inf: not considered)
    cdef int32_t* visits_table
    cdef int32_t* action_of             # [move id] its action; -1: ask game_action (the swap)
    cdef float* inverse                 # Rule's tables
    cdef float* spread
    cdef int32_t max_considered
    cdef double gumbel_scale
    cdef uint8_t* obs_rows              # the evaluator's inputs, one row a tree (see set_buffers)
    cdef uint8_t* mask_rows
    cdef const float* logits            # one step's answers (see finish_part)
    cdef const float* values
    cdef const int32_t* row_of
    cdef const uint8_t* observed        # begin's input
    cdef const uint8_t* searched
    cdef object buffers                 # keeps the arrays behind the pointers alive
    cdef object inputs                  # keeps begin's and answer's arrays alive

    def __cinit__(self):
        self.states = NULL
        self.rngs = NULL
        self.used = NULL
        self.paths = NULL
        self.depth = NULL
        self.played = NULL
        self.candidates = NULL
        self.candidate_actions = NULL
        self.n_candidates = NULL
        self.expandable = NULL
        self.pending = NULL
        self.idle = NULL
        self.owner = NULL
        self.gumbel = NULL
        self.visits_table = NULL
        self.inverse = NULL
        self.spread = NULL
        self.action_of = NULL

    def __dealloc__(self):
        cdef int32_t k
        nodes_close(&self.nodes)
        for k in range(self.opened):
            game_close(&self.states[k])
        free(self.states)
        free(self.rngs)
        free(self.used)
        free(self.paths)
        free(self.depth)
        free(self.played)
        free(self.candidates)
        free(self.candidate_actions)
        free(self.n_candidates)
        free(self.expandable)
        free(self.pending)
        free(self.idle)
        free(self.owner)
        free(self.gumbel)
        free(self.visits_table)
        free(self.inverse)
        free(self.spread)
        free(self.action_of)

    def __init__(self, board, int32_t n_trees, int64_t capacity, int rule, double c_init,
                 double c_base, double c_visit, double c_scale, uint64_t seed, bint playouts,
                 visits_table, int32_t max_considered, double gumbel_scale):
        """``n_trees`` trees of ``capacity`` nodes each, over positions of
        ``board``'s game, size and rule (an empty board, checked by the
        caller; its swap option is the batch's)."""
        cdef int32_t k, n_ids = 0
        cdef size_t trees
        if self.states != NULL:
            raise TypeError("a BatchSearchCore is initialised once")
        if n_trees < 1 or capacity < 1 or <int64_t>n_trees * capacity > 0x7FFFFFFF:
            raise ValueError("at least one tree of one node, and at most 2**31 - 1 nodes in all")
        trees = <size_t>n_trees
        self.states = <State*>calloc(trees, sizeof(State))
        self.rngs = <Xoshiro*>calloc(trees, sizeof(Xoshiro))
        if self.states == NULL or self.rngs == NULL:
            raise MemoryError(f"no memory for {n_trees} trees")
        for k in range(n_trees):
            n_ids = game_open(&self.states[k], board)
            self.opened = k + 1
            if not batch_mode(&self.states[k]):
                raise MemoryError(f"no memory for {n_trees} trees")
            xoshiro_seed(&self.rngs[k], seed, <uint64_t>k)
        game_batch_sizes(&self.states[0], &self.n_actions, &self.observation_bytes)
        self.n_trees = n_trees
        self.n_ids = n_ids
        self.max_depth = n_ids + 4
        self.capacity = <int32_t>capacity
        self.playouts = playouts
        self.swap_option = board.swap
        self.used = <int32_t*>calloc(trees, sizeof(int32_t))
        self.paths = <int32_t*>malloc(trees * self.max_depth * sizeof(int32_t))
        self.depth = <int32_t*>calloc(trees, sizeof(int32_t))
        self.played = <int32_t*>calloc(trees, sizeof(int32_t))
        self.candidates = <int32_t*>malloc(trees * n_ids * sizeof(int32_t))
        self.candidate_actions = <int32_t*>malloc(trees * n_ids * sizeof(int32_t))
        self.n_candidates = <int32_t*>calloc(trees, sizeof(int32_t))
        self.expandable = <uint8_t*>calloc(trees, 1)
        self.pending = <uint8_t*>calloc(trees, 1)
        self.idle = <uint8_t*>malloc(trees)
        self.owner = <uint8_t*>calloc(trees * n_ids, 1)
        self.gumbel = <float*>malloc(trees * n_ids * sizeof(float))
        if (self.used == NULL or self.paths == NULL or self.depth == NULL or self.played == NULL
                or self.candidates == NULL or self.candidate_actions == NULL
                or self.n_candidates == NULL or self.expandable == NULL or self.pending == NULL
                or self.idle == NULL or self.owner == NULL or self.gumbel == NULL):
            raise MemoryError(f"no memory for {n_trees} trees")
        memset(self.idle, 1, trees)
        if not nodes_open(&self.nodes, <int64_t>n_trees * capacity):
            raise MemoryError(f"no memory for {n_trees} trees of {capacity} nodes")
        # One row for each number of moves considered, 0 to max_considered.
        table = [value for row in visits_table for value in row]
        if len(table) != (max_considered + 1) * len(visits_table[0]):
            raise ValueError("a row of the visits' table for each number of moves considered")
        self.visits_table = <int32_t*>malloc(max(1, len(table)) * sizeof(int32_t))
        if self.visits_table == NULL:
            raise MemoryError("no memory for the visits' table")
        for k in range(len(table)):
            self.visits_table[k] = table[k]
        # The actions of the cells, looked up (game_action divides); the
        # swap's depends on the position.
        self.action_of = <int32_t*>malloc(<size_t>n_ids * sizeof(int32_t))
        if self.action_of == NULL:
            raise MemoryError("no memory for the search's tables")
        for k in range(n_ids):
            self.action_of[k] = game_action(&self.states[0], k) if k < n_ids - 2 else -1
        self.inverse = <float*>malloc(TABLED_VISITS * sizeof(float))
        self.spread = <float*>malloc(TABLED_VISITS * sizeof(float))
        if self.inverse == NULL or self.spread == NULL:
            raise MemoryError("no memory for the search's tables")
        self.inverse[0] = 0
        for k in range(TABLED_VISITS):
            if k:
                self.inverse[k] = 1.0 / k
            self.spread[k] = 1.0 / (1.0 + k)
        self.rule.inverse = self.inverse
        self.rule.spread = self.spread
        self.rule.kind = rule
        self.rule.c_init = c_init
        self.rule.c_base = c_base
        self.rule.c_visit = c_visit
        self.rule.c_scale = c_scale
        self.rule.visits_table = self.visits_table
        self.rule.table_length = len(visits_table[0])
        self.rule.max_considered = max_considered
        self.max_considered = max_considered
        self.gumbel_scale = gumbel_scale

    @property
    def capacity_per_tree(self):
        return self.capacity

    def set_buffers(self, unsigned char[:, ::1] observations, unsigned char[:, ::1] masks):
        """The arrays the leaves' observations and legal actions are written
        to, one row a tree (kept alive here)."""
        if (observations.shape[0] != self.n_trees or observations.shape[1] != self.observation_bytes
                or masks.shape[0] != self.n_trees or masks.shape[1] != self.n_actions):
            raise ValueError("buffers of one row a tree are wanted")
        # The observations are written a word at a time (a row's bytes are
        # a multiple of 4).
        if (<size_t>&observations[0, 0]) % 8:
            raise ValueError("the observations' buffer must be aligned to 8 bytes")
        self.obs_rows = &observations[0, 0]
        self.mask_rows = &masks[0, 0]
        self.buffers = (observations, masks)

    # ---- one search ------------------------------------------------------

    def begin(self, const unsigned char[:, ::1] observations, const unsigned char[::1] searched):
        """Each tree's root: the position of its row of ``observations``
        (the batch's layout, bytes), searched when ``searched`` says so;
        the trees' old nodes are dropped.  The roots are valued by the
        first step."""
        if (observations.shape[0] != self.n_trees or observations.shape[1] != self.observation_bytes
                or searched.shape[0] != self.n_trees):
            raise ValueError("one observation and one flag a tree are wanted")
        self.observed = &observations[0, 0]
        self.searched = &searched[0]
        self.inputs = (observations, searched)

    def begin_part(self, int64_t lo, int64_t hi):
        cdef int64_t b
        with nogil:
            for b in range(lo, hi):
                self._begin_one(<int32_t>b)

    cdef void _begin_one(self, int32_t b) noexcept nogil:
        cdef State* s = &self.states[b]
        cdef int32_t root = b * self.capacity
        cdef bint over = game_set_observed(s, self.observed + <size_t>b * self.observation_bytes,
                                           self.swap_option)
        node_set(&self.nodes, root, -1, 1.0)
        self.used[b] = 1
        self.pending[b] = 0
        self.idle[b] = over or not self.searched[b]

    def select_part(self, int64_t lo, int64_t hi):
        """Each tree's walk to a leaf: its observation written for the
        evaluator (``pending``), or, when the leaf is proven or the
        playouts value it, its value backed up at once."""
        cdef int64_t b
        with nogil:
            for b in range(lo, hi):
                if not self.idle[b]:
                    self._select_one(<int32_t>b)

    cdef void _select_one(self, int32_t b) noexcept nogil:
        cdef State* s = &self.states[b]
        cdef Nodes* a = &self.nodes
        cdef int32_t root = b * self.capacity
        cdef int32_t* path = self.paths + <size_t>b * self.max_depth
        cdef int32_t* moves = self.candidates + <size_t>b * self.n_ids
        cdef int32_t node = root, child, depth = 1, played = 0, n, first, k
        cdef uint8_t result, verdict = EXPAND_OPEN, winner
        cdef float value
        path[0] = root
        while a.node[node].first_child >= 0 and a.node[node].proven == UNPROVEN:
            if self.rule.kind == RULE_GUMBEL:
                if node == root:
                    child = gumbel_root_child(a, root, &self.rule,
                                              self.gumbel + <size_t>b * self.n_ids,
                                              <int32_t>a.node[root].visits - 1)
                else:
                    child = gumbel_child(a, node, &self.rule)
            else:
                child = puct_child(a, node, &self.rule)
            result = game_play(s, a.node[child].move)
            played += 1
            path[depth] = child
            depth += 1
            node = child
            if result and a.node[node].proven == UNPROVEN:
                a.node[node].proven = PROVEN_WIN if result == 1 else DRAWN
        self.depth[b] = depth
        self.played[b] = played
        if a.node[node].proven == UNPROVEN:
            n = game_candidates(s, moves, &verdict)
            if n == 0:
                a.node[node].proven = DRAWN          # no move left and no winner
            elif verdict == EXPAND_WIN or verdict == EXPAND_LOST:
                # Proven by the expansion itself: its children are made (the
                # root's result names the winning move), with even priors.
                first = self._reserve(b, n)
                if first >= 0:
                    children_set(a, first, n, moves, 1.0 / n)
                    for k in range(n):
                        a.node[first + k].proven = (PROVEN_WIN if verdict == EXPAND_WIN
                                                    else PROVEN_LOSS)
                    a.node[node].n_children = n
                    a.node[node].first_child = first
                a.node[node].proven = PROVEN_LOSS if verdict == EXPAND_WIN else PROVEN_WIN
            else:
                self.n_candidates[b] = n
                self.expandable[b] = self.used[b] + n <= self.capacity
                if self.playouts:
                    if self.expandable[b]:
                        first = self._reserve(b, n)
                        children_set(a, first, n, moves, 1.0 / n)
                        a.node[node].n_children = n
                        a.node[node].first_child = first
                    winner = game_evaluate(s, &self.rngs[b], self.owner + <size_t>b * self.n_ids)
                    memset(self.owner + <size_t>b * self.n_ids, 0, <size_t>self.n_ids)
                    value = outcome_value(winner, game_player(s))
                    a.node[node].raw = value
                    self._close(b, -value, node == root)
                    return
                for k in range(n):
                    self.candidate_actions[<size_t>b * self.n_ids + k] = (
                        self.action_of[moves[k]] if self.action_of[moves[k]] >= 0
                        else game_action(s, moves[k]))
                game_observe(s, self.obs_rows + <size_t>b * self.observation_bytes,
                             self.mask_rows + <size_t>b * self.n_actions)
                self.pending[b] = 1
                return
        prove_path(a, path, depth)
        self._close(b, proven_value(a.node[node].proven), False)

    cdef int32_t _reserve(self, int32_t b, int32_t n) noexcept nogil:
        """The first of ``n`` new nodes of tree ``b``, or -1 when its pool
        is full."""
        cdef int32_t first
        if self.used[b] + n > self.capacity:
            return -1
        first = b * self.capacity + self.used[b]
        self.used[b] += n
        return first

    cdef void _close(self, int32_t b, float value, bint root_expanded) noexcept nogil:
        """The walk's end: ``value`` (the leaf's mover's view) backed up,
        proofs too, the moves taken back; the root's noise drawn when the
        root was just expanded under the Gumbel rule."""
        cdef int32_t* path = self.paths + <size_t>b * self.max_depth
        cdef int32_t k, depth = self.depth[b]
        cdef Nodes* a = &self.nodes
        backup_value(a, path, depth, value)
        prove_path(a, path, depth)
        for k in range(self.played[b]):
            game_undo(&self.states[b])
        self.played[b] = 0
        if root_expanded and self.rule.kind == RULE_GUMBEL:
            self._draw_considered(b)
        if a.node[path[0]].proven != UNPROVEN:
            self.idle[b] = 1

    cdef void _draw_considered(self, int32_t b) noexcept nogil:
        """The Gumbel rule's root: noise g for each child, and the
        ``max_considered`` children of most g + log prior considered (the
        others' g set to minus infinity)."""
        cdef Nodes* a = &self.nodes
        cdef int32_t root = b * self.capacity
        cdef int32_t first = a.node[root].first_child, n = a.node[root].n_children, k, j, keep, kept
        cdef float* g = self.gumbel + <size_t>b * self.n_ids
        cdef double u
        cdef float threshold, top, x
        if first < 0:
            return
        for k in range(n):
            # u in (0, 1): -log(-log(u)) is a standard Gumbel draw.
            u = ((xoshiro_next(&self.rngs[b]) >> 11) + 0.5) * (1.0 / 9007199254740992.0)
            g[k] = <float>(self.gumbel_scale * -log(-log(u)))
        keep = min(self.max_considered, n)
        if keep >= n:
            return
        # The keep-th largest score, by selection of the largest one at a
        # time (keep is small: 16 by default), every score a float made by
        # the one expression.
        threshold = INFINITY
        for j in range(keep):
            top = -INFINITY
            for k in range(n):
                x = g[k] + <float>log(a.node[first + k].prior)
                if top < x < threshold:
                    top = x
            threshold = top
        # Above the threshold all are kept; at it, the first ones until
        # ``keep`` (equal scores: no noise, even priors).
        kept = 0
        for k in range(n):
            kept += g[k] + <float>log(a.node[first + k].prior) > threshold
        for k in range(n):
            x = g[k] + <float>log(a.node[first + k].prior)
            if x < threshold:
                g[k] = -INFINITY
            elif x == threshold:
                if kept < keep:
                    kept += 1
                else:
                    g[k] = -INFINITY

    def pending_rows(self, int32_t[::1] rows):
        """The trees waiting for the evaluator, in order, into ``rows``;
        their number."""
        cdef int32_t b, count = 0
        for b in range(self.n_trees):
            if self.pending[b]:
                rows[count] = b
                count += 1
        return count

    def answer(self, const float[:, ::1] logits, const float[::1] values,
               const int32_t[::1] row_of):
        """One step's answers for finish_part: row ``row_of[b]`` of
        ``logits`` (actions) and ``values`` (the player to move's view) is
        tree b's (checked by the caller)."""
        if logits.shape[1] != self.n_actions or row_of.shape[0] != self.n_trees:
            raise ValueError("logits of one column an action and one row index a tree are wanted")
        self.logits = &logits[0, 0] if logits.shape[0] else NULL
        self.values = &values[0] if values.shape[0] else NULL
        self.row_of = &row_of[0]
        # The parts read them after this call returns.
        self.inputs = (logits, values, row_of)

    def finish_part(self, int64_t lo, int64_t hi):
        cdef int64_t b
        with nogil:
            for b in range(lo, hi):
                if self.pending[b]:
                    self._finish_one(<int32_t>b)

    cdef void _finish_one(self, int32_t b) noexcept nogil:
        cdef Nodes* a = &self.nodes
        cdef int32_t* path = self.paths + <size_t>b * self.max_depth
        cdef int32_t node = path[self.depth[b] - 1]
        cdef int32_t root = b * self.capacity
        cdef int32_t row = self.row_of[b], n = self.n_candidates[b], first, k
        cdef int32_t* moves = self.candidates + <size_t>b * self.n_ids
        cdef float value = self.values[row]
        self.pending[b] = 0
        # A value that is not a number counts as a draw; the others are
        # held to [-1, 1].
        if not value == value:
            value = 0
        value = min(1.0, max(-1.0, value))
        a.node[node].raw = value
        if self.expandable[b]:
            first = self._reserve(b, n)
            children_set(a, first, n, moves, 0)
            softmax_priors(a, first, n, self.logits + <size_t>row * self.n_actions,
                           self.candidate_actions + <size_t>b * self.n_ids)
            a.node[node].n_children = n
            a.node[node].first_child = first
        self._close(b, -value, node == root and self.expandable[b])

    def add_noise(self, const float[:, ::1] noise, double fraction):
        """The PUCT rule's exploration: each root child's prior becomes
        (1 - fraction) * prior + fraction * noise[b, action] (Dirichlet
        noise, drawn by the caller)."""
        cdef int32_t b, i, first
        cdef Nodes* a = &self.nodes
        if noise.shape[0] != self.n_trees or noise.shape[1] != self.n_actions:
            raise ValueError("noise of one row a tree and one column an action is wanted")
        for b in range(self.n_trees):
            first = a.node[b * self.capacity].first_child
            if first < 0:
                continue
            for i in range(first, first + a.node[b * self.capacity].n_children):
                a.node[i].prior = <float>((1.0 - fraction) * a.node[i].prior
                                     + fraction * noise[b, game_action(&self.states[b], a.node[i].move)])

    @property
    def idle_count(self):
        cdef int32_t b, count = 0
        for b in range(self.n_trees):
            count += self.idle[b]
        return count

    def results(self, float[:, ::1] visits, float[:, ::1] improved, float[::1] values,
                int32_t[::1] actions, int8_t[::1] proven):
        """Each tree's root: its children's visits and (Gumbel) improved
        policy by action, its value for the player to move, the action the
        rule chooses (-1: none, the root never expanded), and ``proven``
        (1 the player to move wins with best play, -1 loses, 0 unknown)."""
        cdef int32_t b, i, first, root, best
        cdef Nodes* a = &self.nodes
        cdef float max_visits, max_q, mixed, shift, factor, total, w
        cdef float* g
        with nogil:
            for b in range(self.n_trees):
                root = b * self.capacity
                first = a.node[root].first_child
                values[b] = -node_mean(a, root)
                proven[b] = (1 if a.node[root].proven == PROVEN_LOSS
                             else -1 if a.node[root].proven == PROVEN_WIN else 0)
                actions[b] = -1
                if first < 0:
                    continue
                best = -1
                mixed = mixed_value(a, root, &max_visits, &max_q)
                shift = sigma(&self.rule, max_visits, max_q)
                factor = <float>exp(sigma(&self.rule, max_visits, mixed) - shift)
                total = 0
                for i in range(first, first + a.node[root].n_children):
                    visits[b, game_action(&self.states[b], a.node[i].move)] = a.node[i].visits
                    if self.rule.kind == RULE_GUMBEL:
                        w = completed_weight(a, i, &self.rule, max_visits, shift, factor)
                        improved[b, game_action(&self.states[b], a.node[i].move)] = w
                        total += w
                if self.rule.kind == RULE_GUMBEL and total > 0:
                    for i in range(first, first + a.node[root].n_children):
                        improved[b, game_action(&self.states[b], a.node[i].move)] /= total
                g = self.gumbel + <size_t>b * self.n_ids
                for i in range(first, first + a.node[root].n_children):
                    if best < 0 or self._root_better(i, best, g + (i - first), g + (best - first),
                                                     max_visits, mixed):
                        best = i
                actions[b] = game_action(&self.states[b], a.node[best].move)

    cdef bint _root_better(self, int32_t i, int32_t j, const float* g_i, const float* g_j,
                           float max_visits, float mixed) noexcept nogil:
        """Whether root child ``i`` is a better move to play than ``j``: a
        proven win first, a proven loss last; then, under PUCT, the more
        visits (then the higher prior); under Gumbel, a considered child
        first, the more visits, then the most g + log prior + sigma(q)."""
        cdef Nodes* a = &self.nodes
        cdef int rank_i = 2 if a.node[i].proven == PROVEN_WIN else (0 if a.node[i].proven == PROVEN_LOSS else 1)
        cdef int rank_j = 2 if a.node[j].proven == PROVEN_WIN else (0 if a.node[j].proven == PROVEN_LOSS else 1)
        cdef bint considered_i, considered_j
        if rank_i != rank_j:
            return rank_i > rank_j
        if self.rule.kind == RULE_GUMBEL and rank_i == 1:
            considered_i = isfinite(g_i[0])
            considered_j = isfinite(g_j[0])
            if considered_i != considered_j:
                return considered_i
        if a.node[i].visits != a.node[j].visits:
            return a.node[i].visits > a.node[j].visits
        if self.rule.kind == RULE_GUMBEL and rank_i == 1 and isfinite(g_i[0]):
            return (g_i[0] + log(a.node[i].prior) + sigma(&self.rule, max_visits,
                                                     a.node[i].value / a.node[i].visits if a.node[i].visits else mixed)
                    > g_j[0] + log(a.node[j].prior) + sigma(&self.rule, max_visits,
                                                       a.node[j].value / a.node[j].visits if a.node[j].visits else mixed))
        return a.node[i].prior > a.node[j].prior

    def nodes_used(self):
        return [self.used[b] for b in range(self.n_trees)]
