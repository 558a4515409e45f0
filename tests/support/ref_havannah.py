"""Literal pure-Python reference judge for "Havannah" (Code Jam 2012 R3 B).

Written straight from the statement (../shared/spec/havannah.txt beside the
repository) and the notes beside it (NOTES.md there), for clarity
rather than speed.  It is the oracle the test-suite checks the fast engine
against, so every function here does the obvious thing over the whole board.

Coordinates: a hexagon is (x, y) with 1 <= x, y <= 2S-1 and |x - y| <= S-1.
Neighbours, clockwise from twelve o'clock (docs/conventions.md):
(x+1, y+1), (x, y+1), (x-1, y), (x-1, y-1), (x, y-1), (x+1, y).

Standard library only.
"""

from collections import deque
from functools import lru_cache

__all__ = [
    "NEIGHBOURS",
    "KIND_ORDER",
    "board_cells",
    "on_board",
    "neighbours",
    "border_cells",
    "corners",
    "edge_of",
    "groups",
    "enclosed_empty",
    "kinds_now",
    "kinds_without_ring",
    "first_win",
    "format_answer",
    "parse_input",
    "judge_text",
    "random_game",
    "wandering_game",
]

# The six neighbour offsets, clockwise from twelve o'clock.
NEIGHBOURS = ((1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0))

# Output order of the names when several kinds are completed at once.
KIND_ORDER = ("bridge", "fork", "ring")


# --------------------------------------------------------------------------
# The board
# --------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _board(size):
    if size < 2:
        raise ValueError("board size S must be at least 2, got %r" % (size,))
    n = 2 * size - 1
    return frozenset(
        (x, y)
        for x in range(1, n + 1)
        for y in range(1, n + 1)
        if abs(x - y) <= size - 1
    )


def board_cells(size):
    """Set of all hexagons (x, y) of the board with S = size."""
    return set(_board(size))


def on_board(size, cell):
    x, y = cell
    return 1 <= x <= 2 * size - 1 and 1 <= y <= 2 * size - 1 and abs(x - y) <= size - 1


def neighbours(size, cell):
    """The on-board neighbours of cell, clockwise from twelve o'clock."""
    x, y = cell
    result = []
    for dx, dy in NEIGHBOURS:
        other = (x + dx, y + dy)
        if on_board(size, other):
            result.append(other)
    return result


@lru_cache(maxsize=None)
def _adjacency(size):
    return {cell: tuple(neighbours(size, cell)) for cell in _board(size)}


@lru_cache(maxsize=None)
def border_cells(size):
    """Hexagons with fewer than six on-board neighbours (corners and edges)."""
    adj = _adjacency(size)
    return frozenset(cell for cell, nbrs in adj.items() if len(nbrs) < 6)


def corners(size):
    """The six corner hexagons, as listed in the statement."""
    s = size
    return [(1, 1), (1, s), (s, 1), (s, 2 * s - 1), (2 * s - 1, s), (2 * s - 1, 2 * s - 1)]


def edge_of(size, cell):
    """Edge id 0..5 of a hexagon, or None (interior cells and corners).

    Edges, going round the board from corner (1, 1):
      0: x = 1          (between (1, 1) and (1, S))
      1: y - x = S-1    (between (1, S) and (S, 2S-1))
      2: y = 2S-1       (between (S, 2S-1) and (2S-1, 2S-1))
      3: x = 2S-1       (between (2S-1, 2S-1) and (2S-1, S))
      4: x - y = S-1    (between (2S-1, S) and (S, 1))
      5: y = 1          (between (S, 1) and (1, 1))
    A corner belongs to neither of its two edges.
    """
    if not on_board(size, cell):
        raise ValueError("cell %r is not on the board of size %d" % (cell, size))
    if cell in corners(size):
        return None
    x, y = cell
    s = size
    conditions = [
        x == 1,
        y - x == s - 1,
        y == 2 * s - 1,
        x == 2 * s - 1,
        x - y == s - 1,
        y == 1,
    ]
    hits = [i for i, hit in enumerate(conditions) if hit]
    assert len(hits) <= 1, (size, cell, hits)  # a non-corner lies on at most one edge
    return hits[0] if hits else None


# --------------------------------------------------------------------------
# Structures
# --------------------------------------------------------------------------

def groups(size, stones):
    """Connected groups (list of sets) of the given stones, found by BFS."""
    stones = set(stones)
    seen = set()
    result = []
    for start in sorted(stones):
        if start in seen:
            continue
        group = {start}
        seen.add(start)
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            for other in neighbours(size, cell):
                if other in stones and other not in seen:
                    seen.add(other)
                    group.add(other)
                    queue.append(other)
        result.append(group)
    return result


def enclosed_empty(size, stones):
    """Empty hexagons that cannot reach the outside of the board.

    Flood fill over the empty hexagons, starting from every empty hexagon on
    the border of the board (an empty border hexagon always touches the
    outside).  Whatever empty hexagon the flood does not reach is enclosed.
    """
    stones = set(stones)
    adj = _adjacency(size)
    empty = set(adj) - stones
    reached = set()
    queue = deque()
    for cell in border_cells(size):
        if cell in empty:
            reached.add(cell)
            queue.append(cell)
    while queue:
        cell = queue.popleft()
        for other in adj[cell]:
            if other in empty and other not in reached:
                reached.add(other)
                queue.append(other)
    return frozenset(empty - reached)


def _bridge_and_fork(size, stones):
    """(bridge, fork): some group holds >= 2 corners / touches >= 3 edges."""
    corner_set = set(corners(size))
    bridge = False
    fork = False
    for group in groups(size, stones):
        if len(group & corner_set) >= 2:
            bridge = True
        edges = {edge_of(size, cell) for cell in group} - {None}
        if len(edges) >= 3:
            fork = True
    return bridge, fork


def kinds_now(size, stones):
    """Names among ("bridge", "fork", "ring") present among these stones."""
    stones = set(stones)
    bridge, fork = _bridge_and_fork(size, stones)
    ring = len(enclosed_empty(size, stones)) > 0
    present = {"bridge": bridge, "fork": fork, "ring": ring}
    return tuple(name for name in KIND_ORDER if present[name])


def kinds_without_ring(size, stones):
    """Like kinds_now but never looks for rings (bridge and fork only)."""
    bridge, fork = _bridge_and_fork(size, set(stones))
    present = {"bridge": bridge, "fork": fork}
    return tuple(name for name in ("bridge", "fork") if present[name])


def _could_close_ring(size, stones, move):
    """Necessary condition for `move` to create an enclosed empty hexagon.

    Used only when first_win(..., prune=True).  If the new stone has at most
    one neighbour among the earlier stones, its other neighbours form an
    unbroken arc of empty or off-board hexagons around it, so any path to
    the outside that went through the new hexagon can walk round it instead
    (an on-board hexagon next to an off-board one is itself on the border).
    Hence no empty hexagon becomes enclosed.  The test-suite also checks
    prune=True against prune=False on random games.
    """
    own = sum(1 for other in neighbours(size, move) if other in stones)
    return own >= 2


def first_win(size, moves, prune=False):
    """First winning move of a sequence of moves of one player.

    Returns (kinds, k): the kinds present right after move k (1-based), k
    being the first move after which any kind is present; or ((), None).

    prune=False (the default) is fully literal: kinds_now over the whole
    board after every move.  prune=True skips the whole-board ring flood
    after moves that touch fewer than two earlier stones (they cannot close
    a ring, see _could_close_ring); bridges and forks are still checked
    literally after every move.  Only needed for big boards.
    """
    stones = set()
    for k, move in enumerate(moves, start=1):
        move = tuple(move)
        if not on_board(size, move):
            raise ValueError("move %d %r is not on the board of size %d" % (k, move, size))
        if move in stones:
            raise ValueError("move %d %r is played twice" % (k, move))
        if prune and not _could_close_ring(size, stones, move):
            stones.add(move)
            # Nothing was present before this move, and it closes no ring.
            kinds = kinds_without_ring(size, stones)
        else:
            stones.add(move)
            kinds = kinds_now(size, stones)
        if kinds:
            return kinds, k
    return (), None


# --------------------------------------------------------------------------
# Judge format
# --------------------------------------------------------------------------

def format_answer(case_number, kinds, move_number):
    if not kinds:
        return "Case #%d: none" % case_number
    ordered = [name for name in KIND_ORDER if name in kinds]
    return "Case #%d: %s in move %d" % (case_number, "-".join(ordered), move_number)


def parse_input(text):
    """List of (S, moves) from a whole input file in the judge format."""
    tokens = text.split()
    pos = 0

    def take():
        nonlocal pos
        value = int(tokens[pos])
        pos += 1
        return value

    cases = []
    for _ in range(take()):
        size = take()
        m = take()
        moves = []
        for _ in range(m):
            x = take()
            y = take()
            moves.append((x, y))
        cases.append((size, moves))
    return cases


def judge_text(text, prune=False):
    """The exact output lines (list of str) for a whole input file."""
    lines = []
    for number, (size, moves) in enumerate(parse_input(text), start=1):
        kinds, k = first_win(size, moves, prune=prune)
        lines.append(format_answer(number, kinds, k))
    return lines


# --------------------------------------------------------------------------
# Random games
# --------------------------------------------------------------------------

def random_game(rng, size, n_moves=None):
    """Distinct uniformly random board cells; n_moves random if None."""
    cells = sorted(_board(size))
    if n_moves is None:
        n_moves = rng.randint(0, len(cells))
    n_moves = min(n_moves, len(cells))
    return rng.sample(cells, n_moves)


def wandering_game(rng, size, n_moves, p_adjacent=0.85):
    """Random game whose stones mostly touch earlier stones.

    Each new stone is, with probability p_adjacent, an empty neighbour of a
    random earlier stone; otherwise (or when that stone has no empty
    neighbour) a uniformly random empty cell.  Such games build bridges,
    forks and rings far more often than uniform ones.
    """
    cells = sorted(_board(size))
    n_moves = min(n_moves, len(cells))
    played = []
    taken = set()
    while len(played) < n_moves:
        move = None
        if played and rng.random() < p_adjacent:
            base = rng.choice(played)
            free = [c for c in neighbours(size, base) if c not in taken]
            if free:
                move = rng.choice(free)
        if move is None:
            move = rng.choice([c for c in cells if c not in taken])
        played.append(move)
        taken.add(move)
    return played
