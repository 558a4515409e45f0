"""Who wins with perfect play: an exact solver for Hex and Havannah
positions.

>>> from havhex.hex import Board
>>> from havhex.search import solve
>>> board = Board(3)
>>> _ = board.play((1, 1))
>>> solution = solve(board)
>>> solution.result, solution.winner
('loss', 'red')

The solver is a depth-first proof-number search (df-pn) in C over the live
boards' own kernels (both Havannah ring rules, the swap), its numbers kept
in a transposition table of a size the caller sets (``memory``, bytes),
never more.  Each game brings its knowledge: in Havannah the moves that win
at once and the only replies to a threat to win at once; in Hex, besides,
chains of bridges and edge templates that win for their owner whatever the
opponent does (a position is won once the mover has one, or one that needs
a single more stone) and whose cells are the only moves against them.

A :class:`Solver` keeps its table from one position to the next, so
positions of one game share what was proven.  ``seconds`` and
``max_nodes`` bound a solve: when either runs out first the result is
``"unknown"``.  Ctrl-C stops a solve within milliseconds.

With ``proof=True`` the solution carries its proof tree: the winner's one
move at each of their turns, every legal move of the loser at each of
theirs, down to the end of the game, so that anyone can check it with the
board alone (the tests' checker does).
"""
from __future__ import annotations

import hashlib
import time

from .._checks import integer
from ..errors import InputError
from ._module import _search_module, game_of

# The annotations are for type checkers only: at run time they import
# nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Tuple

__all__ = ["solve", "Solver", "Solution", "ProofNode", "ProofTooLarge", "DEFAULT_MEMORY"]

DEFAULT_MEMORY = 64 << 20
# A proof tree holds every reply of the loser to the end of the game: past
# this many nodes it is not written (ProofTooLarge).
DEFAULT_MAX_PROOF_NODES = 1_000_000
# The principal variation's longest walk, and the nodes it may solve
# afresh, in all, where the table does not hold a position.
_MAX_VARIATION = 1000
_VARIATION_BUDGET = 20_000
_RESULTS = ("win", "loss", "draw", "unknown")


class ProofTooLarge(InputError):
    """The proof tree asked for has more nodes than its bound."""


class ProofNode:
    """A node of a proof tree: the ``move`` that led here (None at the
    root) and the positions after it, ``children``: one at the winner's
    turns, one per legal move at the loser's, none once the game is over."""

    __slots__ = ("move", "children")

    def __init__(self, move: Any, children: Tuple[ProofNode, ...] = ()) -> None:
        self.move = move
        self.children = children

    def __repr__(self) -> str:
        return f"ProofNode({self.move!r}, {len(self.children)} children)"

    def size(self) -> int:
        """The nodes of the tree below and with this one."""
        total, stack = 0, [self]
        while stack:
            node = stack.pop()
            total += 1
            stack.extend(node.children)
        return total

    def to_json(self) -> Dict[str, Any]:
        """The tree as nested dicts: ``{"move": ..., "children": [...]}``,
        moves as the board's ``moves`` list them (a cell a list)."""
        return {"move": list(self.move) if isinstance(self.move, tuple) else self.move,
                "children": [child.to_json() for child in self.children]}


class Solution:
    """What the solver found for a position.

    ``result`` is the player to move's: ``"win"``, ``"loss"``, ``"draw"``
    or ``"unknown"`` (the limits ran out first); ``to_move`` and ``winner``
    are colours as the board names them (``winner`` None for a draw or
    when unknown; with Hex's "swap-sides" still to come it is the colour
    the winning player holds now).  ``move`` wins (or draws) for the
    player to move, else None.  ``principal_variation`` is the winner's
    moves and the loser's longest resistance as the table knows it;
    ``nodes`` and ``seconds`` are this solve's; ``proof`` the proof tree
    when asked for.
    """

    __slots__ = ("result", "to_move", "winner", "move", "nodes", "seconds",
                 "principal_variation", "proof")

    def __init__(self, result: str, to_move: str, winner: Optional[str], move: Any, nodes: int,
                 seconds: float, principal_variation: Tuple[Any, ...],
                 proof: Optional[ProofNode]) -> None:
        self.result = result
        self.to_move = to_move
        self.winner = winner
        self.move = move
        self.nodes = nodes
        self.seconds = seconds
        self.principal_variation = principal_variation
        self.proof = proof

    def __repr__(self) -> str:
        return (f"Solution(result={self.result!r}, winner={self.winner!r}, move={self.move!r}, "
                f"nodes={self.nodes}, seconds={self.seconds:.3f})")


def _root_key(board: Any) -> int:
    """The position's key for the table: the board's own hash mixed with
    its game, shape, rule and swap option, so that positions of other
    boards never share an entry."""
    shape = repr((type(board).__module__, getattr(board, "rows", None),
                  getattr(board, "cols", None), getattr(board, "size", None),
                  getattr(board, "rule", None), getattr(board, "swap", None)))
    mixed = int.from_bytes(hashlib.blake2b(shape.encode(), digest_size=8).digest(), "little")
    return (int(board.hash) ^ mixed) & ((1 << 64) - 1)


def _limit(value: Any, name: str, kind: type) -> Any:
    if value is None:
        return None
    if kind is int:
        number: Any = integer(value, name)
    else:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{name} must be a number, not {type(value).__name__}")
        number = float(value)
    if not number >= 0:
        raise ValueError(f"{name} must be >= 0, not {value!r}")
    return number


class Solver:
    """An exact solver with one table of at most ``memory`` bytes, kept
    from one position to the next (of either game; each game has its
    own)."""

    def __init__(self, memory: int = DEFAULT_MEMORY) -> None:
        memory = integer(memory, "memory")
        if memory < 1024:
            raise ValueError(f"memory must be at least 1024 bytes, not {memory}")
        self._memory = memory
        self._cores: Dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"Solver(memory={self._memory})"

    @property
    def memory(self) -> int:
        return self._memory

    def entries(self) -> int:
        """The table entries in use, over the games solved."""
        return int(sum(core.stored for core in self._cores.values()))

    def _core(self, board: Any) -> Any:
        descriptor = game_of(board)
        core = self._cores.get(descriptor.name)
        if core is None:
            core = _search_module(board).SolverCore(board, self._memory, _root_key(board))
            self._cores[descriptor.name] = core
        else:
            core.reset(board, _root_key(board))
        return core

    def solve(self, board: Any, *, seconds: Optional[float] = None,
              max_nodes: Optional[int] = None, proof: bool = False,
              max_proof_nodes: int = DEFAULT_MAX_PROOF_NODES) -> Solution:
        """Solve ``board`` (a live Hex or Havannah board; left as it is).

        ``seconds`` and ``max_nodes`` bound the search (None: no bound);
        ``proof`` asks for the proof tree of a decided position, which
        must have at most ``max_proof_nodes`` nodes (ProofTooLarge).
        """
        seconds = _limit(seconds, "seconds", float)
        max_nodes = _limit(max_nodes, "max_nodes", int)
        max_proof_nodes = integer(max_proof_nodes, "max_proof_nodes")
        started = time.perf_counter()
        game_of(board)          # TypeError for anything but a live board
        if board.is_over:
            winner = board.winner
            result = "draw" if winner is None else "win" if winner == board.to_move else "loss"
            return Solution(result, board.to_move, winner, None, 0, 0.0, (),
                            ProofNode(None) if proof else None)
        core = self._core(board)
        before = core.nodes
        result, move = core.solve(-1 if max_nodes is None else max_nodes,
                                  -1.0 if seconds is None else seconds)
        nodes = core.nodes - before
        winner = (board.to_move if result == "win" else _other(board) if result == "loss"
                  else None)
        variation = _variation(core, board) if result in ("win", "loss") else ()
        tree = None
        if proof and result in ("win", "loss"):
            tree = _proof(core, board, max_proof_nodes)
        return Solution(result, board.to_move, winner, move, nodes,
                        time.perf_counter() - started, variation, tree)


def _other(board: Any) -> str:
    """The colour that is not to move."""
    first, second = game_of(board).players
    return second if board.to_move == first else first


def solve(board: Any, *, seconds: Optional[float] = None, max_nodes: Optional[int] = None,
          memory: int = DEFAULT_MEMORY, proof: bool = False,
          max_proof_nodes: int = DEFAULT_MAX_PROOF_NODES) -> Solution:
    """Who wins ``board`` with perfect play: :meth:`Solver.solve` with a
    new table of ``memory`` bytes."""
    return Solver(memory).solve(board, seconds=seconds, max_nodes=max_nodes, proof=proof,
                                max_proof_nodes=max_proof_nodes)


def _winning_move(core: Any) -> Any:
    """The current position's winning move for the player to move (who
    wins it: the proof's own positions), solved again if the table lost
    it."""
    result, move = core.solve(-1, -1.0)
    if result != "win":
        raise AssertionError(f"a position of the proof is a {result} for its winner")
    return move


def _variation(core: Any, board: Any) -> Tuple[Any, ...]:
    """The winner's moves and the loser's replies of most work, as far as
    the table knows them, solving afresh at most ``_VARIATION_BUDGET``
    nodes in all (the winner is to move at even plies)."""
    walk = board.copy()
    moves: List[Any] = []
    budget_end = core.nodes + _VARIATION_BUDGET
    winner_to_move = core.solve(0, 0.0)[0] == "win"
    try:
        while not walk.is_over and len(moves) < _MAX_VARIATION:
            left = budget_end - core.nodes
            if winner_to_move:
                result, move = core.solve(max(left, 0), -1.0)
                if result != "win":
                    break
            else:
                move = _longest_reply(core, walk, budget_end)
                if move is None:
                    break
            moves.append(move)
            walk.play(move)
            core.play(move)
            winner_to_move = not winner_to_move
    finally:
        for _ in moves:
            core.undo()
    return tuple(moves)


def _longest_reply(core: Any, walk: Any, budget_end: int) -> Any:
    """The loser's reply whose proof took the most work, as the table
    holds it; else the first reply the winner is found to win against
    before the solver's node count reaches ``budget_end`` (positions the
    knowledge decided unsearched)."""
    move, most = None, -1
    for candidate in walk.legal_moves():
        entry = core.entry(candidate)
        if entry is not None and entry[0] == 0 and entry[2] > most:
            move, most = candidate, entry[2]
    if move is not None:
        return move
    for candidate in walk.legal_moves():
        left = budget_end - core.nodes
        if left <= 0:
            break
        ended = core.play(candidate)
        try:
            if not ended and core.solve(left, -1.0)[0] == "win":
                return candidate
        finally:
            core.undo()
    return None


def _proof(core: Any, board: Any, limit: int) -> ProofNode:
    """The proof tree of the current position of ``core`` (``board``'s),
    decided: the winner's winning moves, the loser's every move."""
    walk = board.copy()
    count = [0]

    def node(move: Any, winner_to_move: bool) -> ProofNode:
        count[0] += 1
        if count[0] > limit:
            raise ProofTooLarge(f"the proof tree has more than {limit} nodes")
        if walk.is_over:
            return ProofNode(move)
        if winner_to_move:
            replies = [_winning_move(core)]
        else:
            replies = list(walk.legal_moves())
        children = []
        for reply in replies:
            walk.play(reply)
            core.play(reply)
            try:
                children.append(node(reply, not winner_to_move))
            finally:
                core.undo()
                walk.undo()
        return ProofNode(move, tuple(children))

    result = core.solve(-1, -1.0)[0]
    return node(None, result == "win")
