# cython: language_level=3
"""The trees of the batched search (havhex.search.BatchSearch): one tree a
game, each in its own stretch of one pool, searched one simulation a tree
at a time so that every tree's leaf goes to one call of the user's
evaluator.

A node's fields sit side by side, and a node's children side by side in
the tree's own stretch of the pool: an expansion writes one run of memory,
and a selection's scan of the children reads one.

A node is the position after its move.  ``value`` sums the values backed
up through the node, each in [-1, 1] from the view of the node's mover
(the player who made the move into it); ``raw`` is the evaluator's value
of the position when the node was a leaf, from the view of the player to
move there (the Gumbel rule's mixed value needs it).  The players
alternate at every move (both games' swaps included), so a value turns
sign at every level.

Proofs use the codes of the sequential search (mcts.pxd): a move that ends
the game is PROVEN_WIN for its mover; a node is PROVEN_LOSS for its mover
once a child is PROVEN_WIN for its own, PROVEN_WIN once every child is
PROVEN_LOSS.  A proven node is valued exactly (+1, -1, a draw 0), never by
the evaluator.

The selection rules (``Rule``):

* PUCT (AlphaZero): the child maximising
  q + c(N) * prior * sqrt(N) / (1 + n), with c(N) = c_init +
  log((N + c_base + 1) / c_base), N the node's visits and n the child's; a
  child never visited takes the node's own mean (from the mover to play)
  as its q.
* Gumbel (Gumbel MuZero): at the root, the considered moves (the top of
  Gumbel noise plus log prior) are visited by sequential halving (the
  table of ``Rule.visits_table`` says how many visits the next simulation's
  move must have); below the root, the child maximising pi'(a) - n(a) /
  (1 + sum n), pi' the softmax of log prior plus sigma(completed q),
  sigma(q) = (c_visit + max n) * c_scale * q, q rescaled from [-1, 1] to
  [0, 1], and children never visited completed by the node's mixed value.
"""
from libc.math cimport INFINITY, exp, isfinite, log, sqrt
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from havhex._native.mcts cimport DRAWN, PROVEN_LOSS, PROVEN_WIN, UNPROVEN


cdef enum:
    RULE_PUCT = 0
    RULE_GUMBEL = 1


# Children with fewer visits than this read 1 / n and 1 / (1 + n) from
# tables (a division per child would be most of the selection's time).
cdef enum:
    TABLED_VISITS = 4096


cdef struct Rule:
    int kind                # RULE_PUCT or RULE_GUMBEL
    const float* inverse    # [n] 1 / n (0 for n = 0), n < TABLED_VISITS
    const float* spread     # [n] 1 / (1 + n)
    float c_init            # PUCT's constants (AlphaZero's pb_c_init, pb_c_base)
    float c_base
    float c_visit           # Gumbel's sigma: (c_visit + max n) * c_scale * q
    float c_scale
    const int32_t* visits_table     # Gumbel: [m * table_length + k] the visits of the move
    int32_t table_length            # simulation k takes when m moves are considered
    int32_t max_considered


cdef struct BatchNode:
    int32_t first_child     # -1: a leaf
    int32_t n_children
    int32_t move            # the game's move id of the move into the node
    uint32_t visits
    float value             # the sum of the values backed up, the mover's view
    float prior             # the probability the evaluator gave the move
    float raw               # the evaluator's value of the leaf, the view of the player to move
    uint8_t proven


cdef struct Nodes:
    BatchNode* node              # the pool: a node's fields side by side (its children's too)


cdef inline bint nodes_open(Nodes* a, int64_t capacity) noexcept nogil:
    """Room for ``capacity`` nodes; False without memory (then nodes_close)."""
    a.node = <BatchNode*>malloc(<size_t>capacity * sizeof(BatchNode))
    return a.node != NULL


cdef inline void nodes_close(Nodes* a) noexcept nogil:
    free(a.node)
    a.node = NULL


cdef inline void node_set(Nodes* a, int32_t i, int32_t move, float prior) noexcept nogil:
    a.node[i].first_child = -1
    a.node[i].n_children = 0
    a.node[i].move = move
    a.node[i].visits = 0
    a.node[i].value = 0
    a.node[i].prior = prior
    a.node[i].raw = 0
    a.node[i].proven = UNPROVEN


cdef inline void children_set(Nodes* a, int32_t first, int32_t n, const int32_t* moves,
                              float prior) noexcept nogil:
    """``n`` new leaves from ``first``, the moves ``moves``, each of
    ``prior``: one run of whole nodes."""
    cdef int32_t k
    cdef BatchNode* child = a.node + first
    for k in range(n):
        child[k].first_child = -1
        child[k].n_children = 0
        child[k].move = moves[k]
        child[k].visits = 0
        child[k].value = 0
        child[k].prior = prior
        child[k].raw = 0
        child[k].proven = UNPROVEN


cdef inline float node_mean(const Nodes* a, int32_t i) noexcept nogil:
    """The node's mean value for its mover (0 before any visit)."""
    return a.node[i].value / a.node[i].visits if a.node[i].visits else 0.0


cdef inline int32_t puct_child(const Nodes* a, int32_t node, const Rule* r) noexcept nogil:
    """PUCT's child of ``node`` (which has children): a child proven won
    at once, a child proven lost only when all are."""
    cdef int32_t k, first = a.node[node].first_child
    cdef int32_t n_children = a.node[node].n_children, best = 0
    cdef const BatchNode* child = a.node + first
    cdef float parent_visits = a.node[node].visits
    cdef float unvisited_q = -node_mean(a, node)
    cdef float scale = (r.c_init + <float>log((parent_visits + r.c_base + 1.0) / r.c_base)) * \
        <float>sqrt(parent_visits)
    cdef float q, score, best_score = -INFINITY
    cdef uint32_t n
    for k in range(n_children):
        n = child[k].visits
        if n < TABLED_VISITS:
            q = child[k].value * r.inverse[n] if n else unvisited_q
            score = q + scale * child[k].prior * r.spread[n]
        else:
            score = child[k].value / n + scale * child[k].prior / (1.0 + n)
        if child[k].proven:
            if child[k].proven == PROVEN_WIN:
                return first + k
            if child[k].proven == PROVEN_LOSS:
                score = -1e30
        if score > best_score:
            best_score = score
            best = k
    return first + best


cdef inline float sigma(const Rule* r, float max_visits, float q) noexcept nogil:
    """Gumbel's monotone transform of a value q in [-1, 1] (rescaled to [0, 1])."""
    return (r.c_visit + max_visits) * r.c_scale * (0.5 * q + 0.5)


cdef inline float mixed_value(const Nodes* a, int32_t node, float* max_visits,
                              float* max_q) noexcept nogil:
    """The Gumbel rule's value for the children of ``node`` never visited,
    from the view of the player to move at ``node``: the evaluator's value
    of the node blended with its visited children's values weighted by
    their priors; also the children's most visits (``max_visits``) and the
    most of their completed values (``max_q``: the mixed value among them)."""
    cdef int32_t i, first = a.node[node].first_child
    cdef int32_t end = first + a.node[node].n_children
    cdef float weighted = 0, weights = 0, most = 0, visits_sum = 0, mixed, best = -1, q
    cdef uint32_t n
    cdef bint unvisited = False
    for i in range(first, end):
        n = a.node[i].visits
        if n:
            q = a.node[i].value / n
            weighted += a.node[i].prior * q
            weights += a.node[i].prior
            visits_sum += n
            if n > most:
                most = n
            if q > best:
                best = q
        else:
            unvisited = True
    max_visits[0] = most
    if weights <= 0:
        mixed = a.node[node].raw
    else:
        mixed = (a.node[node].raw + visits_sum * (weighted / weights)) / (visits_sum + 1.0)
    if unvisited and mixed > best:
        best = mixed
    max_q[0] = best
    return mixed


cdef inline float completed_weight(const Nodes* a, int32_t i, const Rule* r, float max_visits,
                                   float shift, float mixed_factor) noexcept nogil:
    """A child's unnormalised improved probability, prior * exp(sigma(q) -
    ``shift``), q its mean (visited) or the mixed value
    (``mixed_factor`` is exp(sigma(mixed) - shift), the same for every
    child never visited).  ``shift``, the most sigma of the children,
    keeps every exponent at most 0 (no overflow, whatever the visits)."""
    cdef uint32_t n = a.node[i].visits
    if a.node[i].proven == PROVEN_LOSS:
        return 0.0
    if n:
        return a.node[i].prior * <float>exp(sigma(r, max_visits, a.node[i].value / n) - shift)
    return a.node[i].prior * mixed_factor


cdef inline int32_t gumbel_child(const Nodes* a, int32_t node, const Rule* r) noexcept nogil:
    """The Gumbel rule's child below the root: the most of pi'(a) -
    n(a) / (1 + sum n)."""
    cdef int32_t i, first = a.node[node].first_child
    cdef int32_t end = first + a.node[node].n_children, best = first
    cdef float max_visits = 0, max_q = 0, total = 0, visits_sum = 0, score
    cdef float best_score = -INFINITY
    cdef float mixed = mixed_value(a, node, &max_visits, &max_q)
    cdef float shift = sigma(r, max_visits, max_q)
    cdef float mixed_factor = <float>exp(sigma(r, max_visits, mixed) - shift)
    for i in range(first, end):
        if a.node[i].proven == PROVEN_WIN:
            return i
        total += completed_weight(a, i, r, max_visits, shift, mixed_factor)
        visits_sum += a.node[i].visits
    if total <= 0:
        total = 1
    for i in range(first, end):
        score = completed_weight(a, i, r, max_visits, shift, mixed_factor) / total - \
            a.node[i].visits / (1.0 + visits_sum)
        if a.node[i].proven == PROVEN_LOSS:
            score = -1e30
        if score > best_score:
            best_score = score
            best = i
    return best


cdef inline int32_t gumbel_root_child(const Nodes* a, int32_t root, const Rule* r,
                                      const float* gumbel, int32_t k) noexcept nogil:
    """The Gumbel rule's child of the root for its ``k``-th simulation
    (counted from 0): among the considered children (``gumbel`` finite for
    them, -inf for the others) whose visits are the table's for ``k``, the
    most of g + log prior + sigma(completed q); a child proven won at
    once.  When no considered child has those visits (proven losses left
    out), the considered child with the fewest."""
    cdef int32_t i, first = a.node[root].first_child
    cdef int32_t end = first + a.node[root].n_children, best = -1
    cdef int32_t m = 0
    cdef uint32_t wanted
    cdef uint32_t fewest = 0xFFFFFFFF
    cdef float max_visits = 0, max_q = 0, score, best_score = -INFINITY
    cdef float mixed = mixed_value(a, root, &max_visits, &max_q)
    cdef float q
    for i in range(first, end):
        if a.node[i].proven == PROVEN_WIN:
            return i
        m += isfinite(gumbel[i - first])
    m = min(m, r.max_considered)
    wanted = <uint32_t>r.visits_table[m * r.table_length
                                      + (k if k < r.table_length else r.table_length - 1)]
    for i in range(first, end):
        if not isfinite(gumbel[i - first]) or a.node[i].proven == PROVEN_LOSS:
            continue
        if a.node[i].visits != wanted:
            if a.node[i].visits < fewest:
                fewest = a.node[i].visits
            continue
        q = a.node[i].value / a.node[i].visits if a.node[i].visits else mixed
        score = gumbel[i - first] + <float>log(a.node[i].prior) + sigma(r, max_visits, q)
        if score > best_score:
            best_score = score
            best = i
    if best >= 0:
        return best
    for i in range(first, end):
        if isfinite(gumbel[i - first]) and a.node[i].proven != PROVEN_LOSS and a.node[i].visits == fewest:
            return i
    # Every considered child is lost: the first child not lost, or any.
    for i in range(first, end):
        if a.node[i].proven != PROVEN_LOSS:
            return i
    return first


cdef inline void backup_value(Nodes* a, const int32_t* path, int32_t depth, float value) noexcept nogil:
    """A simulation's value, from the view of the mover into the walk's
    last node, up the walk ``path[0..depth)``: turned at every level."""
    cdef int32_t d, i
    for d in range(depth - 1, -1, -1):
        i = path[d]
        a.node[i].visits += 1
        a.node[i].value += value
        value = -value


cdef inline uint8_t verdict_of(const Nodes* a, int32_t node) noexcept nogil:
    """What ``node``'s children prove of it (UNPROVEN: nothing yet)."""
    cdef int32_t i, first = a.node[node].first_child
    cdef int32_t end = first + a.node[node].n_children
    cdef bint all_lost = first >= 0 and a.node[node].n_children > 0
    if first < 0:
        return UNPROVEN
    for i in range(first, end):
        if a.node[i].proven == PROVEN_WIN:
            return PROVEN_LOSS
        if a.node[i].proven != PROVEN_LOSS:
            all_lost = False
    return PROVEN_WIN if all_lost else UNPROVEN


cdef inline void prove_path(Nodes* a, const int32_t* path, int32_t depth) noexcept nogil:
    """Back a proof up the walk, from the deepest node, until a node
    proves nothing new."""
    cdef int32_t d, i
    cdef uint8_t verdict
    for d in range(depth - 1, -1, -1):
        i = path[d]
        if a.node[i].proven != UNPROVEN:
            continue
        verdict = verdict_of(a, i)
        if verdict == UNPROVEN:
            return
        a.node[i].proven = verdict


cdef inline float proven_value(uint8_t proven) noexcept nogil:
    """A proven node's exact value for its mover."""
    if proven == PROVEN_WIN:
        return 1.0
    if proven == PROVEN_LOSS:
        return -1.0
    return 0.0


cdef union FloatBits:
    float number
    uint32_t bits


cdef inline float exp_nonpositive(float x) noexcept nogil:
    """e ** x for x <= 0 (0 below -87), within 2e-7 of it relatively:
    2 ** i times a polynomial of the rest, in floats and with no call, so
    that a loop of them is vectorised (a softmax takes one a child)."""
    cdef float t, y, p
    cdef float log2_e = 1.4426950408889634, ln_2 = 0.6931471805599453, half = 0.5
    cdef float c2 = 0.5, c3 = 0.16666667, c4 = 0.041666668, c5 = 0.008333334
    cdef float c6 = 0.0013888889, one = 1.0, floor_x = -87.0
    cdef int32_t i
    cdef FloatBits scale
    x = max(x, floor_x)
    t = x * log2_e
    i = -<int32_t>(half - t)            # t rounded to the nearest (t <= 0)
    y = (t - <float>i) * ln_2           # in [-0.35, 0.35]
    p = one + y * (one + y * (c2 + y * (c3 + y * (c4 + y * (c5 + y * c6)))))
    scale.bits = <uint32_t>(i + 127) << 23
    return p * scale.number


cdef inline void softmax_priors(Nodes* a, int32_t first, int32_t n, const float* logits,
                                const int32_t* actions) noexcept nogil:
    """The children ``first..first+n`` take the softmax of their actions'
    ``logits`` as priors.  A logit that is not a number counts as minus
    infinity; when no logit is finite and below plus infinity (or all are
    minus infinity) the priors are uniform: no evaluator's answer can
    leave a node without a move to take."""
    cdef int32_t k
    cdef float x, top = -INFINITY, total = 0, lowest = -3.0e38
    cdef BatchNode* child = a.node + first
    for k in range(n):
        x = logits[actions[k]]
        # A NaN, and minus infinity, weigh nothing (the lowest float stands
        # for both, and its exponential is 0).
        x = x if x >= lowest else lowest
        child[k].prior = x
        top = max(top, x)
    if not isfinite(top) or top == lowest:
        for k in range(n):
            child[k].prior = 1.0 / n
        return
    for k in range(n):
        x = exp_nonpositive(child[k].prior - top)
        child[k].prior = x
        total += x
    total = 1.0 / total
    for k in range(n):
        child[k].prior *= total
