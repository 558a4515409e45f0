# cython: language_level=3
"""The search tree both games' searches share (havhex/hex/_search.pyx,
havhex/havannah/_search.pyx): a pool of fixed-size nodes in one array, and
the kernels that read and update it without knowing the game.

A node is the position after its move.  Its statistics are those of the
player who made that move (``mover``), so a parent picks the child whose
mover, itself to move, does best.  A node's children sit side by side in
the pool, ``n_children`` of them from ``first_child``; a node that has none
yet (a leaf) holds -1 there.  The pool only grows (a bump allocator): when
the next block of children does not fit, the leaf stays a leaf and the
search goes on valuing it, so the tree never holds more than ``capacity``
nodes.  Moving the root slides the kept subtree to the front of the pool
(``tree_keep``), so the space the rest of the old tree held is free again.

Scores are counted in halves (a win 2, a draw 1) as integers: exact at any
count.

Several threads may search one tree at once, each with its own position.
A simulation counts its visit to each node on the way down (``enter``) and
its result on the way back (``backup``): until it returns, the visit
stands as a loss (a virtual loss), which steers the other threads to other
moves.  The counters take unlocked additions (``count_add``: a lost
addition now and then, never a torn one); a leaf is expanded by the one
thread that claims it (``first_child`` from -1 to EXPANDING by a
compare-exchange), which writes the block and then publishes it by a
release store of ``first_child``; the others value the leaf by a playout
meanwhile.  The pool grows by a compare-exchange of ``used``.  A thread
reads a node's children only after an acquire load of ``first_child``
saw them (``children_of``).

Proofs (MCTS-solver): ``proven`` says the game from the node is decided
with best play, for the node's mover.  The player to move at a node is its
children's mover, so a node is PROVEN_LOSS for its mover as soon as one
child is PROVEN_WIN for the child's mover, and PROVEN_WIN once every child
is PROVEN_LOSS for theirs; a move that wins at once makes its node
PROVEN_WIN.  DRAWN marks a finished game without a winner.

The selection (``select_child``), the backup (``backup``, ``prove``) and
the pool (``tree_reserve``, ``tree_keep``) are apart from how a leaf is
valued: each game's module expands and values leaves with its own board
kernels and calls these.
"""
from libc.math cimport log, sqrt
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc

from havhex._native.portable cimport (
    compare_exchange32, count_add, count_load, load_acquire32, store_release32)


cdef enum:
    EXPANDING = -2          # first_child while one thread writes the children

cdef enum:
    UNPROVEN = 0
    PROVEN_WIN = 1          # the node's mover wins with best play
    PROVEN_LOSS = 2         # the node's mover loses with best play
    DRAWN = 3               # the game ended in a draw at this node


cdef struct Node:
    int32_t first_child     # the first of the children in the pool; -1: a leaf
    int32_t n_children
    int32_t move            # the game's move id of the move into the node
    uint32_t visits
    uint32_t wins2          # the mover's wins times two (a draw counts one)
    uint32_t amaf_visits    # the simulations that played this move later (AMAF)
    uint32_t amaf_wins2
    uint8_t proven
    uint8_t mover           # who made the move: 0 the first player, 1 the second
    uint16_t know           # the game's prior for the move (game_knowledge; 0: none)


cdef struct Params:
    double exploration      # UCT's constant c of c * sqrt(ln N / (n + 1)); 0: none
    double rave             # k of RAVE's beta = sqrt(k / (3n + k)); 0: no RAVE
    double first_play       # the value of a child with no visits and no AMAF
    uint32_t expand_visits  # a leaf's visits before it gets children


# Children with fewer visits than this read RAVE's weight and UCT's
# 1 / sqrt(n + 1) from tables made once (the selection's square roots
# would otherwise be most of its time).
cdef enum:
    TABLED_VISITS = 4096
    KNOWN_VISITS = 1000     # a child's visits past which its prior is dropped


cdef struct Tree:
    Node* nodes
    int32_t capacity        # the user's bound on the nodes
    int32_t used
    Params params
    double* beta            # [n]: sqrt(k / (3n + k)), RAVE's weight after n visits
    double* spread          # [n]: 1 / sqrt(n + 1)


cdef inline bint tree_open(Tree* t, int32_t capacity, uint8_t root_mover,
                           const Params* params) noexcept nogil:
    """A pool of ``capacity`` nodes (at least one) holding only the root
    (``root_mover`` moved into it), searched with ``params``; False
    without memory."""
    cdef int32_t n
    t.params = params[0]
    t.nodes = <Node*>malloc(<size_t>capacity * sizeof(Node))
    t.beta = <double*>malloc(TABLED_VISITS * sizeof(double))
    t.spread = <double*>malloc(TABLED_VISITS * sizeof(double))
    if t.nodes == NULL or t.beta == NULL or t.spread == NULL:
        tree_close(t)
        return False
    for n in range(TABLED_VISITS):
        t.beta[n] = sqrt(t.params.rave / (3.0 * n + t.params.rave)) if t.params.rave > 0 else 0.0
        t.spread[n] = 1.0 / sqrt(n + 1.0)
    t.capacity = capacity
    tree_reset(t, root_mover)
    return True


cdef inline void tree_close(Tree* t) noexcept nogil:
    free(t.nodes)
    free(t.beta)
    free(t.spread)
    t.nodes = NULL
    t.beta = NULL
    t.spread = NULL
    t.used = 0


cdef inline void node_clear(Node* node, int32_t move, uint8_t mover) noexcept nogil:
    node.first_child = -1
    node.n_children = 0
    node.move = move
    node.visits = 0
    node.wins2 = 0
    node.amaf_visits = 0
    node.amaf_wins2 = 0
    node.proven = UNPROVEN
    node.mover = mover
    node.know = 0


cdef inline void tree_reset(Tree* t, uint8_t root_mover) noexcept nogil:
    """Only a fresh root, node 0."""
    node_clear(&t.nodes[0], -1, root_mover)
    t.used = 1


cdef inline int32_t tree_reserve(Tree* t, int32_t n) noexcept nogil:
    """The first of ``n`` fresh nodes side by side, or -1 when the pool has
    no room for them."""
    cdef int32_t first
    if n <= 0:
        return -1
    while True:
        first = load_acquire32(&t.used)
        if n > t.capacity - first:
            return -1
        if compare_exchange32(&t.used, first, first + n):
            return first


cdef inline int32_t children_of(const Node* node) noexcept nogil:
    """The first child of ``node`` once its block is published, else -1
    (a leaf, or one being expanded)."""
    cdef int32_t first = load_acquire32(&node.first_child)
    return first if first >= 0 else -1


cdef inline void enter(Node* node) noexcept nogil:
    """A simulation walks into ``node``: its visit counts now, as a loss
    until the backup adds its result (the virtual loss)."""
    count_add(&node.visits, 1)


cdef inline double child_value(const Tree* t, const Node* child, double explore) noexcept nogil:
    """How good ``child`` looks to its mover: its mean blended with its AMAF
    mean by RAVE's schedule, plus UCT's exploration (``explore``: the
    constant times sqrt(ln N) of the parent's N visits)."""
    cdef const Params* p = &t.params
    cdef double value, beta, mean
    cdef uint32_t visits = count_load(&child.visits)
    cdef uint32_t amaf_visits = count_load(&child.amaf_visits)
    cdef double n = visits
    if p.rave > 0 and amaf_visits:
        mean = count_load(&child.amaf_wins2) / (2.0 * amaf_visits)
        if visits:
            beta = (t.beta[visits] if visits < TABLED_VISITS
                    else sqrt(p.rave / (3.0 * n + p.rave)))
            value = beta * mean + (1.0 - beta) * (count_load(&child.wins2) / (2.0 * n))
        else:
            value = mean
    elif visits:
        value = count_load(&child.wins2) / (2.0 * n)
    else:
        value = p.first_play
    if explore > 0:
        value += explore * (t.spread[visits] if visits < TABLED_VISITS
                            else 1.0 / sqrt(n + 1.0))
    # The game's prior, a hundredth of ``know`` fading as 1 / sqrt(n + 1):
    # it orders the moves nothing has told apart yet, and gives way to the
    # child's own results (morat's knowledge term).
    if child.know and visits < KNOWN_VISITS:
        value += 0.01 * child.know * t.spread[visits]
    return value


cdef inline int32_t select_child(const Tree* t, const Node* parent) noexcept nogil:
    """The child to walk into (the parent has children): the best by
    ``child_value``; a child lost for its mover only when all are."""
    cdef int32_t i, best = parent.first_child
    cdef int32_t end = parent.first_child + parent.n_children
    cdef double value, best_value = -1e300
    cdef double explore = (t.params.exploration * sqrt(log(count_load(&parent.visits) + 1.0))
                           if t.params.exploration > 0 else 0.0)
    cdef const Node* child
    for i in range(parent.first_child, end):
        child = &t.nodes[i]
        if child.proven == PROVEN_WIN:
            return i
        if child.proven == PROVEN_LOSS:
            value = -1e200
        else:
            value = child_value(t, child, explore)
        if value > best_value:
            best_value = value
            best = i
    return best


cdef inline uint32_t score_for(uint8_t mover, uint8_t outcome) noexcept nogil:
    """Half-wins of ``mover`` when the game ended with ``outcome`` (0 the
    first player won, 1 the second, 2 a draw)."""
    if outcome == 2:
        return 1
    return 2 if outcome == mover else 0


cdef inline void backup(Tree* t, const int32_t* path, int32_t depth, uint8_t outcome,
                        const uint8_t* owner) noexcept nogil:
    """One simulation's result up the walk ``path[0..depth)``: each node's
    wins (its visit counted on the way down, by ``enter``), and (RAVE) the
    AMAF counts of the children of each node whose move the same player
    played later in the simulation (``owner[move]``: 0 nobody, else the
    player plus one)."""
    cdef int32_t d, i, first, end
    cdef Node* node
    cdef Node* child
    cdef uint32_t score[2]
    score[0] = score_for(0, outcome)
    score[1] = score_for(1, outcome)
    for d in range(depth - 1, -1, -1):
        node = &t.nodes[path[d]]
        count_add(&node.wins2, score[node.mover])
        first = children_of(node)
        if t.params.rave > 0 and first >= 0:
            end = first + node.n_children
            for i in range(first, end):
                child = &t.nodes[i]
                if owner[child.move] == child.mover + 1:
                    count_add(&child.amaf_visits, 1)
                    count_add(&child.amaf_wins2, score[child.mover])


cdef inline uint8_t children_verdict(const Tree* t, const Node* node) noexcept nogil:
    """What the children prove of ``node`` (UNPROVEN: nothing yet)."""
    cdef int32_t i
    cdef int32_t first = children_of(node)
    cdef int32_t end = first + node.n_children
    cdef bint all_lost = first >= 0 and node.n_children > 0
    if first < 0:
        return UNPROVEN
    for i in range(first, end):
        if t.nodes[i].proven == PROVEN_WIN:
            return PROVEN_LOSS
        if t.nodes[i].proven != PROVEN_LOSS:
            all_lost = False
    return PROVEN_WIN if all_lost else UNPROVEN


cdef inline void prove(Tree* t, const int32_t* path, int32_t depth) noexcept nogil:
    """Back a proof up the walk: from the deepest node, each parent takes
    what its children prove, until one proves nothing new."""
    cdef int32_t d
    cdef Node* node
    cdef uint8_t verdict
    for d in range(depth - 1, -1, -1):
        node = &t.nodes[path[d]]
        if node.proven != UNPROVEN or children_of(node) < 0:
            if node.proven == UNPROVEN:
                return
            continue
        verdict = children_verdict(t, node)
        if verdict == UNPROVEN:
            return
        node.proven = verdict


cdef enum:
    # The nodes one proof_length call may walk; past them a proof counts
    # as this long (longer than any game).
    PROOF_WALK = 200000
    LONG_PROOF = 1 << 30


cdef inline int32_t proof_length(const Tree* t, int32_t index, int64_t* budget) noexcept nogil:
    """The plies after node ``index``'s move until the game ends along the
    tree's proof of it, the winner taking its shortest win and the loser
    resisting longest (0: the move itself ended the game).  A node lost
    without children was lost by its parent's expansion: the opponent wins
    with the next move.  Not proven: 0.  ``budget`` counts the nodes
    walked, and a proof past it counts as LONG_PROOF."""
    cdef const Node* node = &t.nodes[index]
    cdef int32_t first = children_of(node)
    cdef int32_t i, length, found
    budget[0] -= 1
    if budget[0] < 0:
        return LONG_PROOF
    if node.proven == PROVEN_WIN:
        if first < 0:
            return 0
        # The opponent to move: every reply is lost, and it takes the longest.
        found = 0
        for i in range(first, first + node.n_children):
            if t.nodes[i].proven == PROVEN_LOSS:
                length = proof_length(t, i, budget)
                if length > found:
                    found = length
        return found + 1 if found < LONG_PROOF else LONG_PROOF
    if node.proven == PROVEN_LOSS:
        if first < 0:
            return 1
        found = LONG_PROOF
        for i in range(first, first + node.n_children):
            if t.nodes[i].proven == PROVEN_WIN:
                length = proof_length(t, i, budget)
                if length < found:
                    found = length
        return found + 1 if found < LONG_PROOF else LONG_PROOF
    return 0


cdef inline int proof_rank(const Node* node) noexcept nogil:
    return 2 if node.proven == PROVEN_WIN else (0 if node.proven == PROVEN_LOSS else 1)


cdef inline bint better_move(const Tree* t, int32_t a, int32_t b) noexcept nogil:
    """Whether child ``a`` is a better move to play than its sibling ``b``:
    a proven win first, the shortest first; a proven loss last, the one
    that resists longest first; else the more visits, then the more
    wins."""
    cdef const Node* x = &t.nodes[a]
    cdef const Node* y = &t.nodes[b]
    cdef int rank_x = proof_rank(x), rank_y = proof_rank(y)
    cdef int64_t budget_x = PROOF_WALK, budget_y = PROOF_WALK
    cdef int32_t length_x, length_y
    if rank_x != rank_y:
        return rank_x > rank_y
    if rank_x != 1:
        length_x = proof_length(t, a, &budget_x)
        length_y = proof_length(t, b, &budget_y)
        if length_x != length_y:
            return length_x < length_y if rank_x == 2 else length_x > length_y
    if x.visits != y.visits:
        return x.visits > y.visits
    return x.wins2 > y.wins2


cdef inline int32_t best_child(const Tree* t, const Node* node) noexcept nogil:
    """The move to play from ``node`` (by ``better_move``); -1 without children."""
    cdef int32_t i, best = -1
    cdef int32_t end = node.first_child + node.n_children
    if node.first_child < 0:
        return -1
    for i in range(node.first_child, end):
        if best < 0 or better_move(t, i, best):
            best = i
    return best


cdef inline int32_t find_child(const Tree* t, const Node* node, int32_t move) noexcept nogil:
    cdef int32_t i
    if node.first_child < 0:
        return -1
    for i in range(node.first_child, node.first_child + node.n_children):
        if t.nodes[i].move == move:
            return i
    return -1


cdef inline bint tree_keep(Tree* t, int32_t keep) noexcept nogil:
    """Make node ``keep`` the root, keeping its subtree and freeing the
    rest: the kept nodes slide to the front of the pool in their order.

    A node's children are made after it, so they sit after it, and
    ``keep`` comes first among the kept nodes: each kept node moves down
    (never up), and moving them in order overwrites only nodes already
    moved or dropped.  A block of children is kept whole or dropped whole,
    so blocks stay side by side.  False without memory for the two
    scratch arrays (the tree is then left as it was)."""
    cdef int32_t used = t.used
    cdef int32_t* new_index = <int32_t*>malloc(<size_t>used * sizeof(int32_t))
    cdef int32_t* stack = <int32_t*>malloc(<size_t>used * sizeof(int32_t))
    cdef int32_t i, top = 0, kept = 0, node
    cdef Node* n
    if new_index == NULL or stack == NULL:
        free(new_index)
        free(stack)
        return False
    for i in range(used):
        new_index[i] = -1
    # Mark the subtree (-2), depth first.
    new_index[keep] = -2
    stack[top] = keep
    top += 1
    while top:
        top -= 1
        n = &t.nodes[stack[top]]
        if n.first_child >= 0:
            for i in range(n.first_child, n.first_child + n.n_children):
                new_index[i] = -2
                stack[top] = i
                top += 1
    # Nothing before ``keep`` is in its subtree.
    for i in range(keep, used):
        if new_index[i] == -2:
            new_index[i] = kept
            kept += 1
    for i in range(keep, used):
        node = new_index[i]
        if node >= 0:
            t.nodes[node] = t.nodes[i]
            if t.nodes[node].first_child >= 0:
                t.nodes[node].first_child = new_index[t.nodes[node].first_child]
    t.used = kept
    free(new_index)
    free(stack)
    return True


# What a game's expansion found (its candidates' ``verdict``).
cdef enum:
    EXPAND_OPEN = 0         # the legal moves, nothing proven
    EXPAND_WIN = 1          # one move, which wins at once
    EXPAND_FORCED = 2       # the opponent threatens to win at once: the one move that stops it
    EXPAND_LOST = 3         # threats at several cells: each listed move stops one and loses
