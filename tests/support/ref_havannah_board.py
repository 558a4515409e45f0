"""Literal reference for the two-player Havannah board, straight from the
definitions, for clarity rather than speed.

After every move the mover's structures are looked for on the whole board:

* bridge: a group (stones joined through neighbours) holding two corners;
* fork: a group touching three edges (corners belong to no edge);
* ring, official rule: some cell that cannot reach the board's outside
  without crossing the player's other stones, whatever it holds;
* ring, contest rule: some EMPTY cell that cannot reach the outside without
  crossing the player's stones.

A cell reaches the outside when a path of neighbours leads from it to a
border cell (a border cell touches the outside) through cells that are
not the player's.  Flood fill from the border over the cells that are not
the player's finds them all at once: a cell not the player's is cut off
when the flood misses it; a stone of the player's (which itself does not
count as crossing) is cut off when it is not on the border and none of
its neighbours is reached.

Standard library only; the geometry is ref_havannah's.
"""
from collections import deque

from functools import lru_cache

from ref_havannah import _adjacency, border_cells, corners, edge_of

PLAYERS = ("white", "black")
KIND_ORDER = ("bridge", "fork", "ring")


def cut_off_cells(size, stones, player):
    """The cells that cannot reach the outside without crossing ``player``'s
    other stones (``stones`` maps cell -> player)."""
    adjacency = _adjacency(size)
    border = border_cells(size)
    reached = set()
    queue = deque()
    for cell in border:
        if stones.get(cell) != player:
            reached.add(cell)
            queue.append(cell)
    while queue:
        cell = queue.popleft()
        for other in adjacency[cell]:
            if other not in reached and stones.get(other) != player:
                reached.add(other)
                queue.append(other)
    cut = set()
    for cell, around in adjacency.items():
        if stones.get(cell) != player:
            if cell not in reached:
                cut.add(cell)
        elif cell not in border and not any(other in reached for other in around):
            cut.add(cell)
    return cut


def has_ring(size, stones, player, rule):
    cut = cut_off_cells(size, stones, player)
    if rule == "official":
        return bool(cut)
    return any(cell not in stones for cell in cut)


@lru_cache(maxsize=None)
def _edges(size):
    """Cell -> its edge (0..5), for the cells on an edge (corners are on none)."""
    return {cell: edge_of(size, cell) for cell in _adjacency(size)
            if edge_of(size, cell) is not None}


def own_groups(size, own):
    """The groups of the stones ``own`` (a set): lists of cells, by flood fill."""
    adjacency = _adjacency(size)
    seen = set()
    found = []
    for start in own:
        if start in seen:
            continue
        seen.add(start)
        group = [start]
        for cell in group:          # grows while it is walked
            for other in adjacency[cell]:
                if other in own and other not in seen:
                    seen.add(other)
                    group.append(other)
        found.append(group)
    return found


def kinds_of(size, stones, player, rule):
    own = {cell for cell, owner in stones.items() if owner == player}
    corner_set = set(corners(size))
    edges = _edges(size)
    bridge = fork = False
    for group in own_groups(size, own):
        bridge = bridge or len(corner_set.intersection(group)) >= 2
        fork = fork or len({edges[cell] for cell in group if cell in edges}) >= 3
    ring = has_ring(size, stones, player, rule)
    return tuple(kind for kind, present in zip(KIND_ORDER, (bridge, fork, ring)) if present)


class RefBoard:
    """Two players alternate, white first; the first move that completes a
    structure wins; a full board without one is a draw.  ``swap=True``:
    black's first move may be "swap" (white's stone becomes black's, white
    moves again)."""

    def __init__(self, size, rule="official", swap=False):
        self.size = size
        self.rule = rule
        self.swap = swap
        self.stones = {}
        self.moves = []
        self.winner = None
        self.winning_move = None

    @property
    def to_move(self):
        return PLAYERS[len(self.moves) % 2]

    @property
    def is_over(self):
        return self.winner is not None or len(self.stones) == len(_adjacency(self.size))

    def legal_moves(self):
        if self.is_over:
            return []
        moves = sorted(cell for cell in _adjacency(self.size) if cell not in self.stones)
        if self.swap and len(self.moves) == 1:
            moves.append("swap")
        return moves

    def play(self, move):
        assert move in self.legal_moves(), move
        player = self.to_move
        self.moves.append(move)
        if move == "swap":
            (cell,) = self.stones
            self.stones[cell] = "black"
            return ()
        self.stones[move] = player
        kinds = kinds_of(self.size, self.stones, player, self.rule)
        if kinds:
            self.winner = player
            self.winning_move = len(self.moves) - 1
        return kinds

    def array(self):
        """Rows x-1, columns y-1: 0 empty, 1 white, 2 black, -1 off the board."""
        side = 2 * self.size - 1
        rows = [[-1] * side for _ in range(side)]
        for cell in _adjacency(self.size):
            owner = self.stones.get(cell)
            rows[cell[0] - 1][cell[1] - 1] = 0 if owner is None else PLAYERS.index(owner) + 1
        return rows
