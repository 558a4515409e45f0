"""A Monte Carlo tree search over a live board, in C, for either game.

>>> from havhex.hex import Board
>>> from havhex.search import Search
>>> board = Board(3)
>>> for move in [(0, 1), (2, 2), (1, 1), (2, 1)]:
...     _ = board.play(move)
>>> analysis = Search(board, seed=1).run(simulations=200)
>>> analysis.best_move, analysis.proven, analysis.simulations
((2, 0), 'win', 1)

The search walks a tree held in one preallocated pool of ``max_nodes``
nodes (never more: a full pool stops the tree's growth, not the search),
chooses moves by UCT with RAVE (all-moves-as-first), values a new leaf by
a random game played by the board's own C playout, and proves what it can:
a move that wins at once, the only replies to a threat to win at once, and
proven wins and losses backed up the tree (MCTS-solver).  The rules are the
boards': each game's moves are played and taken back by its live board's
kernels (both Havannah ring rules, the swap).

A :class:`Search` keeps its own copy of the position; :meth:`Search.play`
moves it on by the move played in the game, keeping the subtree below it.
Ctrl-C stops a search within a simulation.

The game's part of the search is found through its descriptor
(``Descriptor.search``), so the names here are the same for every game.
"""
from __future__ import annotations

import math
import os
import time

from .._checks import integer
from ..errors import InputError
from ._module import _search_module, game_of

# The annotations are for type checkers only: at run time they import
# nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Optional, Tuple

    from ..descriptor import Descriptor

__all__ = ["Search", "Analysis", "BatchSearch", "BatchResult", "SelfPlayGames", "self_play",
           "DEFAULT_MAX_NODES", "game_of", "solve", "Solver", "Solution", "ProofNode",
           "ProofTooLarge", "DEFAULT_MEMORY"]

DEFAULT_MAX_NODES = 1_000_000
_SEED_MASK = (1 << 64) - 1


def _number(value: object, name: str, low: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}")
    number = float(value)
    if not (math.isfinite(number) and number >= low):
        raise ValueError(f"{name} must be a finite number of at least {low}, not {value!r}")
    return number


class Analysis:
    """What a search found, for the player to move at its root.

    ``best_move`` the move to play, as the board's ``play`` takes it;
    ``proven`` ``"win"`` or ``"loss"`` when the search proved the game's
    result with best play, else None; ``win_rate`` the estimated chance of
    winning (1.0 or 0.0 when proven); ``moves`` one
    ``(move, visits, win_rate, proven)`` per root move, best first;
    ``principal_variation`` the moves the search expects, from the root
    down; ``simulations`` and ``seconds`` what this run took; ``nodes`` the
    nodes the tree holds; ``proof_plies`` one per move of ``moves``: for a
    proven move, the moves (plies) after it until the game ends along the
    tree's proof, the winner taking its shortest win and the loser
    resisting longest (so a win of 3 is won within 3 more moves whatever
    the opponent plays), else None.

    A proven win is played by its shortest proof; in a lost position the
    best move is the one whose proof is longest, the move that resists
    longest by what the tree knows.
    """

    __slots__ = ("best_move", "proven", "win_rate", "moves", "principal_variation",
                 "simulations", "seconds", "nodes", "proof_plies")

    best_move: Any
    proven: Optional[str]
    win_rate: float
    moves: Tuple[Tuple[Any, int, float, Optional[str]], ...]
    principal_variation: Tuple[Any, ...]
    simulations: int
    seconds: float
    nodes: int
    proof_plies: Tuple[Optional[int], ...]

    def __init__(self, best_move: Any, proven: Optional[str], win_rate: float,
                 moves: Tuple[Tuple[Any, int, float, Optional[str]], ...],
                 principal_variation: Tuple[Any, ...], simulations: int, seconds: float,
                 nodes: int, proof_plies: Tuple[Optional[int], ...] = ()) -> None:
        self.best_move = best_move
        self.proven = proven
        self.win_rate = win_rate
        self.moves = moves
        self.principal_variation = principal_variation
        self.simulations = simulations
        self.seconds = seconds
        self.nodes = nodes
        self.proof_plies = proof_plies or (None,) * len(moves)

    def __repr__(self) -> str:
        return (f"Analysis(best_move={self.best_move!r}, proven={self.proven!r}, "
                f"win_rate={self.win_rate:.3f}, simulations={self.simulations}, "
                f"seconds={self.seconds:.3f}, nodes={self.nodes})")


def _rate(visits: int, wins: float, proven: Optional[str]) -> float:
    if proven == "win":
        return 1.0
    if proven == "loss":
        return 0.0
    return wins / visits if visits else 0.5


class Search:
    """A search of ``board`` (a live board of any game with a search, any
    rule, swap on or off, not over) in a pool of at most ``max_nodes``
    nodes; ``seed`` (an int) makes a search of simulations repeatable
    (None: a fresh one).

    The tuning: ``exploration`` UCT's constant (0: none, RAVE explores);
    ``rave`` the k of RAVE's weight sqrt(k / (3n + k)) on a child's
    all-moves-as-first mean after n visits (0: no RAVE); ``first_play``
    the value of a move nothing has been learnt of; ``expand_visits`` the
    visits a leaf takes before it gets its children.

    ``threads`` threads search the one tree at once, each on its own copy
    of the position: a simulation's visit counts as a loss until its
    result is in (a virtual loss), so the threads spread over the moves.
    With more than one thread a search is not repeatable, even with a
    seed: the threads' interleaving changes what each one sees.
    """

    def __init__(self, board: Any, max_nodes: int = DEFAULT_MAX_NODES,
                 seed: Optional[int] = None, *, exploration: float = 0.2,
                 rave: float = 1000.0, first_play: float = 1.0,
                 expand_visits: int = 2, threads: int = 1) -> None:
        module = _search_module(board)
        max_nodes = integer(max_nodes, "max_nodes")
        if not 1 <= max_nodes <= module.MAX_NODES:
            raise ValueError(f"max_nodes must be from 1 to {module.MAX_NODES}, not {max_nodes}")
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        seed = integer(seed, "seed")
        expand_visits = integer(expand_visits, "expand_visits")
        if not 1 <= expand_visits <= 1 << 30:
            raise ValueError(f"expand_visits must be from 1 to {1 << 30}, not {expand_visits}")
        threads = integer(threads, "threads")
        if not 1 <= threads <= module.MAX_THREADS:
            raise ValueError(f"threads must be from 1 to {module.MAX_THREADS}, not {threads}")
        exploration = _number(exploration, "exploration", 0.0)
        rave = _number(rave, "rave", 0.0)
        first_play = _number(first_play, "first_play", -1e9)
        if board.is_over:
            raise InputError("the game is over: there is nothing to search")
        self._board = board.copy()
        self._core = module.SearchCore(self._board, max_nodes, seed & _SEED_MASK, exploration,
                                       rave, first_play, expand_visits, threads)

    def __repr__(self) -> str:
        return f"<Search of {len(self._board)} moves, {self._core.nodes} nodes>"

    @property
    def board(self) -> Any:
        """A copy of the position the search is at."""
        return self._board.copy()

    @property
    def nodes(self) -> int:
        """The nodes the tree holds now."""
        nodes: int = self._core.nodes
        return nodes

    @property
    def threads(self) -> int:
        """The threads that search the tree."""
        threads: int = self._core.threads
        return threads

    @property
    def max_nodes(self) -> int:
        bound: int = self._core.max_nodes
        return bound

    @property
    def rave(self) -> float:
        """RAVE's k (0: no RAVE); set it between runs (the tree is kept)."""
        k: float = self._core.rave
        return k

    @rave.setter
    def rave(self, k: float) -> None:
        self._core.set_rave(_number(k, "rave", 0.0))

    def run(self, simulations: Optional[int] = None,
            seconds: Optional[float] = None) -> Analysis:
        """Search on (the tree grows from what earlier runs left) for
        ``simulations`` more simulations or ``seconds`` seconds, whichever
        comes first (at least one budget), or until the root is proven;
        the :class:`Analysis` of the whole tree."""
        if simulations is None and seconds is None:
            raise ValueError("run needs a budget: simulations, seconds or both")
        limit = -1
        if simulations is not None:
            limit = integer(simulations, "simulations")
            if limit < 1:
                raise ValueError(f"simulations must be at least 1, not {limit}")
        budget = -1.0
        if seconds is not None:
            budget = _number(seconds, "seconds", 0.0)
            if budget <= 0:
                raise ValueError(f"seconds must be more than 0, not {seconds!r}")
        if self._board.is_over:
            raise InputError("the game is over: there is nothing to search")
        start = time.perf_counter()
        done: int = self._core.run(limit, budget)
        return self._analysis(done, time.perf_counter() - start)

    def analysis(self) -> Analysis:
        """The :class:`Analysis` of the tree as it stands (no simulation)."""
        return self._analysis(0, 0.0)

    def _analysis(self, done: int, seconds: float) -> Analysis:
        visits, wins, proven = self._core.root()
        children = self._core.children()
        moves = tuple((move, n, _rate(n, won, status) if n or status else
                       (amaf_won / amaf_n if amaf_n else 0.5), status)
                      for move, n, won, amaf_n, amaf_won, status, _ in children)
        if moves:
            best = moves[0][0]
        else:
            # A pool too small for the root's children: any legal move.
            best = self._board.legal_moves()[0]
        return Analysis(best, proven, _rate(visits, wins, proven), moves,
                        tuple(self._core.principal_variation()), done, seconds,
                        self._core.nodes, tuple(child[6] for child in children))

    def play(self, move: Any) -> None:
        """The game went on by ``move`` (either player's, as the board's
        ``play`` takes it): the search's position follows, and the tree
        keeps the subtree under that move.  An illegal move raises as the
        board's ``play`` does, changing nothing."""
        self._board.play(move)
        self._core.play(self._board.moves[-1])


# The batched search and self-play use _module alone.
from .batch import BatchResult, BatchSearch  # noqa: E402
from .play import SelfPlayGames, self_play  # noqa: E402
from .solve import DEFAULT_MEMORY, ProofNode, ProofTooLarge, Solution, Solver, solve  # noqa: E402
