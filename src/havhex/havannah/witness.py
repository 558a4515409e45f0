"""The witnesses of a Havannah win: a bridge's path, a fork's tree, a ring's
loop and the hexagons it encloses, for :func:`havhex.havannah.explain`.

The fast engine judges first; a :class:`Witness` is then built in Python,
only for a case with a win and only over the moves up to the winning one.
Cells are ints ``x * B + y`` with ``B = 2S + 1``: no key of a board hexagon
equals the key of an off-board neighbour, so neighbours are key offsets.  The
winning group (the one holding the winning move, where every new structure
lies) is numbered 0..g-1 in BFS order from the winning move (which is 0) and
stored as an ``array('i')`` of six neighbour ids per stone (-1: no stone), in
the order of :data:`havhex.havannah.geometry.NEIGHBOUR_STEPS`.
"""
from __future__ import annotations

from . import _rings
from .geometry import NEIGHBOUR_STEPS, corners, edge_of

# The annotations are for type checkers only: building a witness does not
# import typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array
    from typing import Dict, Iterable, List, Optional, Sequence, Tuple

    _JsonCell = List[int]

__all__ = ["Witness"]


class Witness:
    """The winning group after move ``n`` of ``flat`` (interleaved x, y
    of distinct hexagons on the board of base ``size``), whose move ``n``
    completes at least one structure; each method returns the witness of one
    kind, cells as ``[x, y]`` lists."""

    size: int
    n: int

    def __init__(self, size: int, flat: Sequence[int], n: int) -> None:
        from array import array
        self.size = size
        self.flat = flat
        self.n = n
        base = self.base = 2 * size + 1
        xs = flat[0:2 * n:2]
        ys = flat[1:2 * n:2]
        stones = {x * base + y for x, y in zip(xs, ys)}
        offsets = tuple(dx * base + dy for dx, dy in NEIGHBOUR_STEPS)
        start = xs[n - 1] * base + ys[n - 1]
        keys = [start]
        local: Dict[int, int] = {start: 0}
        adjacency = array("i")
        append = adjacency.append
        for key in keys:                      # BFS; keys grows while iterated
            for offset in offsets:
                other = key + offset
                if other in stones:
                    j = local.get(other)
                    if j is None:
                        j = local[other] = len(keys)
                        keys.append(other)
                    append(j)
                else:
                    append(-1)
        self.keys = keys
        self.local = local
        self.adjacency = adjacency

    def _cells(self, ids: Iterable[int]) -> List[_JsonCell]:
        base = self.base
        keys = self.keys
        return [[keys[i] // base, keys[i] % base] for i in ids]

    def _bfs(self, sources: Iterable[int]) -> Tuple[array[int], array[int]]:
        """Distances and parents from ``sources`` (-1: not reached)."""
        from array import array
        g = len(self.keys)
        adjacency = self.adjacency
        distance = array("i", [-1]) * g
        parent = array("i", [-1]) * g
        queue = list(sources)
        for s in queue:
            distance[s] = 0
        for u in queue:
            d = distance[u] + 1
            for j in adjacency[6 * u:6 * u + 6]:
                if j >= 0 and distance[j] < 0:
                    distance[j] = d
                    parent[j] = u
                    queue.append(j)
        return distance, parent

    @staticmethod
    def _trace(parent: Sequence[int], i: int) -> List[int]:
        """``i``, its parent, ... up to a source."""
        path = [i]
        while parent[i] >= 0:
            i = parent[i]
            path.append(i)
        return path

    def bridge(self) -> List[_JsonCell]:
        """Shortest corner-to-corner path: a BFS from all corners at once,
        each stone labelled with its nearest corner; the best edge between
        two labels closes the path."""
        from array import array
        base = self.base
        corner_stones = [self.local[key] for key in (x * base + y for x, y in corners(self.size))
                         if key in self.local]
        g = len(self.keys)
        adjacency = self.adjacency
        distance = array("i", [-1]) * g
        parent = array("i", [-1]) * g
        label = array("i", [-1]) * g
        for number, corner in enumerate(corner_stones):
            distance[corner] = 0
            label[corner] = number
        queue = list(corner_stones)
        best: Optional[int]
        ends: Optional[Tuple[int, int]]
        best, ends = None, None
        for u in queue:
            du = distance[u]
            if best is not None and 2 * du >= best:
                break
            for j in adjacency[6 * u:6 * u + 6]:
                if j < 0:
                    continue
                if distance[j] < 0:
                    distance[j] = du + 1
                    parent[j] = u
                    label[j] = label[u]
                    queue.append(j)
                elif label[j] != label[u] and (best is None or du + distance[j] + 1 < best):
                    best, ends = du + distance[j] + 1, (u, j)
        if TYPE_CHECKING:
            # A bridge joins two corners: some edge joins two labels.
            assert ends is not None
        u, j = ends
        return self._cells(self._trace(parent, u)[::-1] + self._trace(parent, j))

    def fork(self) -> List[_JsonCell]:
        """Three shortest branches from the stone whose distances to its
        three nearest edges have the smallest sum (an optimal Steiner tree
        for three edges): one BFS per edge the group touches."""
        size = self.size
        base = self.base
        by_edge: Dict[int, List[int]] = {}
        for i, key in enumerate(self.keys):
            edge = edge_of(size, *divmod(key, base))
            if edge is not None:
                by_edge.setdefault(edge, []).append(i)
        edges = sorted(by_edge)
        searches = [self._bfs(by_edge[edge]) for edge in edges]
        distances = [distance for distance, _ in searches]
        best: Optional[int]
        chosen: Optional[List[int]]
        best, centre, chosen = None, 0, None
        for v in range(len(self.keys)):
            ranked = sorted((distance[v], number) for number, distance in enumerate(distances))
            total = ranked[0][0] + ranked[1][0] + ranked[2][0]
            if best is None or total < best:
                best, centre, chosen = total, v, sorted(number for _, number in ranked[:3])
        if TYPE_CHECKING:
            # The group has stones: the first sets the best.
            assert chosen is not None
        first, second, third = (searches[number][1] for number in chosen)
        ids = self._trace(first, centre)[::-1]
        ids += self._trace(second, centre)[1:]
        ids += self._trace(third, centre)[1:]
        ids = list(dict.fromkeys(ids))
        return self._cells(ids)

    def loop(self) -> Optional[List[_JsonCell]]:
        """The winning move joins two runs of its stone neighbours (around
        the circle) that were already one group: the loop is the move plus a
        shortest path between the runs avoiding it.  Each pair of runs is
        tried with one early-stopping BFS per run; the shortest loop wins."""
        from array import array
        adjacency = self.adjacency
        around = adjacency[0:6]
        runs: List[List[int]] = []
        run_of: Dict[int, int] = {}
        for k in range(6):
            if around[k] >= 0 and around[k - 1] < 0:
                run: List[int] = []
                while around[k % 6] >= 0:
                    run.append(around[k % 6])
                    k += 1
                for i in run:
                    run_of[i] = len(runs)
                runs.append(run)
        g = len(self.keys)
        best: Optional[List[int]] = None
        for number, run in enumerate(runs[:-1]):
            parent = array("i", [-1]) * g
            seen = bytearray(g)
            seen[0] = 1
            for i in run:
                seen[i] = 1
            queue = list(run)
            found: Optional[int] = None
            for u in queue:
                for j in adjacency[6 * u:6 * u + 6]:
                    if j >= 0 and not seen[j]:
                        seen[j] = 1
                        parent[j] = u
                        if run_of.get(j, number) != number:
                            found = j
                            break
                        queue.append(j)
                if found is not None:
                    break
            if found is not None:
                path = self._trace(parent, found)
                if best is None or len(path) < len(best):
                    best = path
        if best is None:
            return None     # no loop through the move: a flower completed at its centre
        return self._cells([0] + best[::-1])

    def enclosed_runs(self) -> List[List[int]]:
        from array import array
        runs = _rings.enclosed_runs(self.size, array("i", self.flat[0:2 * self.n]))
        return [[x, first, last] for x, first, last in runs]
