"""The players behind ``havhex gtp``'s ``genmove``: the search in C
(:class:`SearchPlayer`, the default), a uniform random player and a plain
UCT search in Python whose leaves are judged by the boards' C playouts
(:class:`MctsPlayer`, weaker, kept for tests).

A player has ``genmove(board, time_left=None) -> move``: the move (as the
live board takes it: a cell or the swap) for the player to move on
``board``, a live Hex or Havannah board that is not over; the player leaves
``board`` as it found it.  ``time_left`` is the seconds its side has left on
a game clock (None: no clock).
"""
from __future__ import annotations

import math
import random
import time
from array import array

# The annotations are for type checkers only: at run time they import
# nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, Dict, List, Optional, Sequence, Tuple

__all__ = ["RandomPlayer", "MctsPlayer", "SearchPlayer", "DEFAULT_SIMULATIONS",
           "DEFAULT_SEARCH_SIMULATIONS", "DEFAULT_PLAYER_NODES"]

DEFAULT_SIMULATIONS = 1000
# Under a game clock a move takes at most this share of the time left, and
# the clock's last second is kept for the arbiter's margin and the pipes.
_CLOCK_SHARE = 1 / 20
_CLOCK_RESERVE = 0.5
_EMPTY = array("i")


class RandomPlayer:
    """Uniform over the legal actions (the swap among them when it is
    legal); ``seed`` makes its choices repeatable."""

    seed: Optional[int]

    def __init__(self, seed: Optional[int] = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def __repr__(self) -> str:
        return f"RandomPlayer(seed={self.seed!r})"

    def genmove(self, board: Any, time_left: Optional[float] = None) -> Any:
        actions = board.legal_actions()
        if not len(actions):
            raise ValueError("no legal move: the game is over")
        return board.move_of(actions[self._random.randrange(len(actions))])


class _Node:
    """One position of the tree.  ``visits``/``wins`` count the playouts
    through it, won by the player who moved into it; ``untried`` holds the
    legal actions not yet expanded (the board's ``array`` of ints), None
    until they are first needed."""

    __slots__ = ("action", "visits", "wins", "mean", "spread", "children", "untried")

    action: int
    visits: int
    wins: float
    mean: float
    spread: float
    children: List[_Node]
    untried: Optional[array[int]]

    def __init__(self, action: int, untried: Optional[array[int]]) -> None:
        self.action = action
        self.visits = 0
        self.wins = 0.0
        self.mean = 0.0       # wins / visits
        self.spread = 0.0     # 1 / sqrt(visits), UCB1's factor
        self.children = []
        self.untried = untried


class _Budget:
    """A searching player's budget a move: the ``simulations`` and the
    ``seconds`` its constructor chose, else ``_default_simulations``; a
    controller's clock replaces it (:meth:`set_move_time`)."""

    _default_simulations: ClassVar[int]
    simulations: Optional[int]
    seconds: Optional[float]
    chosen_budget: bool
    _chosen: Tuple[Optional[int], Optional[float]]

    def _take_budget(self, simulations: Optional[int], seconds: Optional[float]) -> None:
        if simulations is not None and simulations < 1:
            raise ValueError(f"simulations must be at least 1, not {simulations}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be more than 0, not {seconds}")
        # A budget nobody chose gives way to a controller's clock.
        self.chosen_budget = simulations is not None or seconds is not None
        # The constructor's budget, which a clock replaces.
        self._chosen = (simulations, seconds)
        if simulations is None and seconds is None:
            simulations = self._default_simulations
        self.simulations = simulations
        self.seconds = seconds

    def set_move_time(self, seconds: Optional[float]) -> None:
        """A controller's clock gives a move ``seconds``, which replaces
        the last clock's: the search runs until then, or until the
        ``simulations`` chosen (a clock replaces a time a move, and caps a
        count).  None, no clock: the constructor's budget again."""
        simulations, own_seconds = self._chosen
        if seconds is None:
            if simulations is None and own_seconds is None:
                simulations = self._default_simulations
            self.simulations, self.seconds = simulations, own_seconds
        else:
            self.simulations, self.seconds = simulations, seconds


class MctsPlayer(_Budget):
    """Monte Carlo tree search (UCT): each simulation walks down the tree by
    the UCB1 rule, adds one node, and plays the rest of the game out at
    random with the board's C playout (``board.playout(seed)``).

    The budget is ``simulations`` per move or ``seconds`` per move (both
    None: DEFAULT_SIMULATIONS).  A controller's time for a move
    (:meth:`set_move_time`) replaces ``seconds`` and the default, and caps
    ``simulations``; under a game clock a move also takes at most a
    twentieth of the time left.  ``exploration`` is UCB1's constant;
    its default is below the textbook's sqrt(2), since random playouts
    tell moves apart by a few percent and a wide search spreads its
    visits too thin to see that.
    The move played is the most visited.  Before the search, a move that
    wins at once is played, and so is the one cell where the opponent
    would win at once (with several such cells, the search chooses among
    them): random playouts see a threat late.  The player never resigns:
    a game ends when it is won.
    """

    _default_simulations = DEFAULT_SIMULATIONS
    seed: Optional[int]
    exploration: float
    last_simulations: int

    def __init__(self, simulations: Optional[int] = None, seconds: Optional[float] = None,
                 seed: Optional[int] = None, exploration: float = 0.5) -> None:
        self._take_budget(simulations, seconds)
        self.seed = seed
        self.exploration = exploration
        self._random = random.Random(seed)
        self.last_simulations = 0      # of the last genmove, for reports

    def __repr__(self) -> str:
        return (f"MctsPlayer(simulations={self.simulations!r}, seconds={self.seconds!r}, "
                f"seed={self.seed!r}, exploration={self.exploration!r})")

    def _deadline(self, start: float, time_left: Optional[float]) -> Optional[float]:
        seconds = self.seconds
        if time_left is not None:
            share = max(0.0, time_left - _CLOCK_RESERVE) * _CLOCK_SHARE
            seconds = share if seconds is None else min(seconds, share)
        return None if seconds is None else start + seconds

    def genmove(self, board: Any, time_left: Optional[float] = None) -> Any:
        start = time.perf_counter()
        deadline = self._deadline(start, time_left)
        actions = board.legal_actions()
        if not len(actions):
            raise ValueError("no legal move: the game is over")
        if len(actions) == 1:
            self.last_simulations = 0
            return board.move_of(actions[0])
        forced = _forced(board, actions)
        if len(forced) == 1:
            self.last_simulations = 0
            return board.move_of(forced[0])
        if forced:
            actions = array("i", forced)
        root = _Node(-1, actions)
        limit = self.simulations if self.simulations is not None else 1 << 62
        self.last_simulations = self._search(board, root, limit, deadline)
        best = max(root.children, key=lambda child: child.visits)
        return board.move_of(best.action)

    def _search(self, board: Any, root: _Node, limit: int, deadline: Optional[float]) -> int:
        """Run simulations from ``root`` (the position of ``board``) until
        ``limit`` of them or the ``deadline``; the count run."""
        randbelow = self._random.randrange
        seed = self._random.getrandbits(62)
        log, sqrt = math.log, math.sqrt
        c2 = self.exploration * self.exploration
        # Who moves into a node alternates with its depth (a swap is a move
        # of the player who swaps): depth 1 is the player to move at the root.
        mover = board.to_move
        done = 0
        while done < limit:
            if deadline is not None and not done & 31 and done and time.perf_counter() > deadline:
                break
            position = board.copy()
            node = root
            path = [root]
            # Down the tree: UCB1 among the children of a node whose
            # actions are all expanded.  A node's actions are listed when
            # the walk first passes it, not when it is made: most nodes are
            # leaves that never are, and their arrays would be most of the
            # tree's memory.
            while True:
                untried = node.untried
                if untried is None:
                    untried = node.untried = (_EMPTY if position.is_over
                                              else position.legal_actions())
                if untried or not node.children:
                    break
                # UCB1, mean + c sqrt(ln N / n), with the child's part of
                # the root kept on the child: one multiply a child here.
                scale = sqrt(c2 * log(node.visits))
                best, best_value = None, -1.0
                for child in node.children:
                    value = child.mean + scale * child.spread
                    if value > best_value:
                        best, best_value = child, value
                # A node with children has a best one: best is not None.
                node = best  # type: ignore[assignment]
                position.play_action(node.action)
                path.append(node)
            # One new node, unless the walk ended at a finished game.
            if untried:
                # A random untried action, swapped to the end and popped.
                last = len(untried) - 1
                pick = randbelow(last + 1) if last else 0
                action = untried[pick]
                untried[pick] = untried[last]
                untried.pop()
                position.play_action(action)
                child = _Node(action, None)
                node.children.append(child)
                path.append(child)
            winner = position.playout(seed + done)
            if winner is None:
                score = 0.5
            else:
                # 1 when the leaf's mover won.
                score = 1.0 if (winner == mover) == (len(path) % 2 == 0) else 0.0
            # Up the tree: the mover into a node alternates with depth.
            for node in reversed(path):
                visits = node.visits = node.visits + 1
                wins = node.wins = node.wins + score
                node.mean = wins / visits
                node.spread = visits ** -0.5
                score = 1.0 - score
            done += 1
        return done


def _forced(board: Any, actions: Sequence[int]) -> List[int]:
    """The actions the search need not weigh: ``[a]`` for a cell that wins
    at once; else the cells where the opponent's stone would win at once
    (empty: no such cell)."""
    mover = board.to_move
    cells = []
    for action in actions:
        if isinstance(board.move_of(action), str):
            continue                    # the swap wins nothing at once
        cells.append(action)
        trial = board.copy()
        trial.play_action(action)
        if trial.winner == mover:
            return [action]
    # The opponent cannot move twice in a row: it moves after a stone of
    # ours, put on two cells in turn so that every cell is tried as theirs.
    threats = []
    for ours in cells[:2]:
        after = board.copy()
        after.play_action(ours)
        for action in cells:
            if action == ours or action in threats:
                continue
            trial = after.copy()
            trial.play_action(action)
            if trial.is_over and trial.winner not in (None, mover):
                threats.append(action)
    return threats


# SearchPlayer's budget when nobody chose one (no clock, no --simulations or
# --seconds): about a tenth of a second on Hex 11 or Havannah 8.
DEFAULT_SEARCH_SIMULATIONS = 10_000
# SearchPlayer's node bound: a node is 32 bytes, so 4M nodes hold 128 MB, a
# share of a small machine's memory.  A move of a tenth of a second adds a
# few hundred thousand nodes and one of a second a few million on Hex 11
# (docs/engine.md), so the bound binds only long thinking, where a full
# pool stops the tree's growth, not the search.
DEFAULT_PLAYER_NODES = 4_000_000
# The moves a game clock is shared over: the empty cells over this, at
# least _CLOCK_MOVES (a game ends long before its board fills).
_EMPTY_PER_MOVE = 4
_CLOCK_MOVES = 10
# A tree kept across a move that holds more than this share of the pool
# leaves too little room to grow: the search starts afresh instead.
_KEPT_SHARE = 0.75
# The share of a move's budget the solver has near the end (SearchPlayer's endgame).
_SOLVER_SHARE = 1 / 3


def _setting(board: Any) -> Tuple[Any, ...]:
    """What makes two boards the same game, apart from their moves."""
    return (type(board), getattr(board, "rows", None), getattr(board, "cols", None),
            getattr(board, "size", None), getattr(board, "rule", None),
            getattr(board, "swap", None))


class SearchPlayer(_Budget):
    """The search in C (:class:`havhex.search.Search`: UCT with RAVE,
    proofs, a bounded node pool) as a player.

    One search is kept across ``genmove`` calls: when the board it is given
    extends the position of the last call (the same game, the moves since
    played after it), the search follows those moves and keeps the subtree
    under them; any other board starts a fresh search.  A node pool of at
    most ``max_nodes`` nodes (32 bytes each) is the player's memory bound;
    following a move frees the nodes not under it, and a kept tree filling
    more than three quarters of the pool is dropped for a fresh one.

    The budget is ``simulations`` or ``seconds`` a move (both None:
    DEFAULT_SEARCH_SIMULATIONS); a controller's time for a move
    (:meth:`set_move_time`) replaces ``seconds`` and the default and caps
    ``simulations``.  Under a game clock (``time_left``) a move takes at
    most the time left, less ``reserve`` seconds for the arbiter's margin
    and the pipes, shared over the moves the game may still need (a quarter
    of the empty cells, at least 10).  A search stops early when it proves
    the root: a proven win is played by a move proven to win.  Otherwise
    the move played is the most visited.  It never resigns.

    ``threads`` threads search the one tree (see :class:`havhex.search.Search`).
    ``exploration``, ``rave``, ``first_play`` and ``expand_visits`` are the
    search's; ``rave_reference`` the move's simulations at which RAVE's k
    is ``rave``, past which k grows with the square of the simulations the
    move is expected to run (its budget, or its seconds at the rate of the
    last move): None (the default) takes the game's
    (``Descriptor.rave_reference``: Havannah's grows, Hex's stays), 0
    keeps k at ``rave``.  ``endgame`` (0: off) is the count of empty
    cells from which the exact solver (:func:`havhex.search.solve`) has
    the first third of each move's budget (its seconds, else as many nodes
    as simulations): a win it proves is played by its winning move
    (``last_solution``), anything else leaves the search the rest.  UCT's exploration is
    off by default: RAVE and the games' priors explore, and matches measured
    exploration 0 over 0.2 (docs/engine.md); ``last_analysis`` is the
    :class:`havhex.search.Analysis` of the last genmove or :meth:`analyse`.
    """

    _default_simulations = DEFAULT_SEARCH_SIMULATIONS
    seed: Optional[int]
    max_nodes: int
    reserve: float
    last_simulations: int
    last_analysis: Any

    def __init__(self, simulations: Optional[int] = None, seconds: Optional[float] = None,
                 seed: Optional[int] = None, max_nodes: int = DEFAULT_PLAYER_NODES, *,
                 reserve: float = 0.5, exploration: float = 0.0, rave: float = 1000.0,
                 first_play: float = 1.0, expand_visits: int = 2, threads: int = 1,
                 rave_reference: Optional[float] = None, endgame: int = 0) -> None:
        self._take_budget(simulations, seconds)
        if isinstance(endgame, bool) or not isinstance(endgame, int) or endgame < 0:
            raise ValueError(f"endgame must be an int of at least 0, not {endgame!r}")
        self.endgame = endgame
        self._solver: Any = None
        self.last_solution: Any = None
        if rave_reference is not None and not (isinstance(rave_reference, (int, float))
                                               and rave_reference >= 0):
            raise ValueError(f"rave_reference must be a number of at least 0, "
                             f"not {rave_reference!r}")
        self.rave_reference = rave_reference
        self._rate: Optional[float] = None     # the last move's simulations a second
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
            raise ValueError(f"max_nodes must be a positive int, not {max_nodes!r}")
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive int, not {threads!r}")
        if not reserve >= 0:
            raise ValueError(f"reserve must be at least 0, not {reserve}")
        self.seed = seed
        self.max_nodes = max_nodes
        self.reserve = reserve
        self._tuning: Dict[str, Any] = {"exploration": exploration, "rave": rave,
                                        "first_play": first_play,
                                        "expand_visits": expand_visits, "threads": threads}
        self._random = random.Random(seed)
        self._search: Any = None
        self._setting: Tuple[Any, ...] = ()
        self._moves: Tuple[Any, ...] = ()
        self.last_simulations = 0
        self.last_analysis = None
        self.restarts = 0       # fresh searches, for tests and logs

    def __repr__(self) -> str:
        return (f"SearchPlayer(simulations={self.simulations!r}, seconds={self.seconds!r}, "
                f"seed={self.seed!r}, max_nodes={self.max_nodes!r}, "
                f"threads={self.threads!r})")

    @property
    def threads(self) -> int:
        """The threads that search."""
        threads: int = self._tuning["threads"]
        return threads

    @property
    def nodes(self) -> int:
        """The nodes the kept tree holds (0: no search yet)."""
        return 0 if self._search is None else int(self._search.nodes)

    def _budget(self, board: Any, time_left: Optional[float]) -> Optional[float]:
        """The seconds this move may take (None: no limit but simulations)."""
        seconds = self.seconds
        if time_left is not None:
            moves = max(_CLOCK_MOVES, len(board.legal_actions()) // _EMPTY_PER_MOVE)
            share = max(0.0, time_left - self.reserve) / moves
            seconds = share if seconds is None else min(seconds, share)
        return seconds

    def _follow(self, board: Any) -> Any:
        """The kept search moved on to ``board``'s position, or a fresh one."""
        from ..search import Search

        search = self._search
        moves = tuple(board.moves)
        known = self._moves
        if (search is not None and _setting(board) == self._setting
                and moves[:len(known)] == known):
            try:
                for move in moves[len(known):]:
                    search.play(move)
            except Exception:
                search = None
            else:
                if search.board.hash != board.hash:
                    search = None           # set-up stones the moves do not show
                elif search.nodes > _KEPT_SHARE * search.max_nodes:
                    search = None
        else:
            search = None
        if search is None:
            search = Search(board, self.max_nodes, self._random.getrandbits(63),
                            **self._tuning)
            self.restarts += 1
        self._search, self._setting, self._moves = search, _setting(board), moves
        return search

    def analyse(self, board: Any, seconds: Optional[float] = None,
                time_left: Optional[float] = None) -> Any:
        """Search ``board``'s position (the kept tree, moved on to it) for
        ``seconds``, or the move's budget, and return the
        :class:`havhex.search.Analysis` of the whole tree."""
        start = time.perf_counter()
        if board.is_over:
            raise ValueError("no legal move: the game is over")
        search = self._follow(board)
        limit = self.simulations
        if seconds is None:
            seconds = self._budget(board, time_left)
        else:
            limit = None
        if seconds is not None:
            # Following the moves took part of the move's time.
            seconds = max(1e-3, seconds - (time.perf_counter() - start))
        search.rave = self._rave_for(board, limit, seconds)
        analysis = search.run(simulations=limit, seconds=seconds)
        self.last_analysis = analysis
        self.last_simulations = analysis.simulations
        if analysis.seconds > 0.005 and analysis.proven is None:
            self._rate = analysis.simulations / analysis.seconds
        return analysis

    def _solve(self, board: Any, seconds: Optional[float]) -> Any:
        """The solver's answer for ``board`` within its share of the move."""
        from ..search import Solver

        if self._solver is None:
            self._solver = Solver()
        if seconds is not None:
            solution = self._solver.solve(board, seconds=seconds * _SOLVER_SHARE)
        else:
            solution = self._solver.solve(board, max_nodes=max(
                1, int((self.simulations or self._default_simulations) * _SOLVER_SHARE)))
        self.last_solution = solution
        return solution

    def _rave_for(self, board: Any, limit: Optional[int], seconds: Optional[float]) -> float:
        """RAVE's k for a move of at most ``limit`` simulations and
        ``seconds`` (see the class's text)."""
        from ..search import game_of

        k: float = self._tuning["rave"]
        reference = self.rave_reference
        if reference is None:
            reference = game_of(board).rave_reference
        if not reference or k <= 0:
            return k
        expected: Optional[float] = None
        if seconds is not None and self._rate is not None:
            expected = self._rate * seconds
        if limit is not None:
            expected = limit if expected is None else min(expected, limit)
        if expected is None:
            return k
        return k * max(1.0, expected / reference) ** 2

    def genmove(self, board: Any, time_left: Optional[float] = None) -> Any:
        if board.is_over or not len(board.legal_actions()):
            raise ValueError("no legal move: the game is over")
        if len(board.legal_actions()) == 1:
            self.last_simulations = 0
            return board.move_of(board.legal_actions()[0])
        self.last_solution = None
        if self.endgame and len(board.legal_actions()) <= self.endgame:
            start = time.perf_counter()
            seconds = self._budget(board, time_left)
            solution = self._solve(board, seconds)
            if solution.result == "win":
                self._follow(board)
                self._search.play(solution.move)
                self._moves = self._moves + (self._search.board.moves[-1],)
                self.last_simulations = 0
                return solution.move
            if seconds is not None:
                # The search has what the solver left of the move's time.
                analysis = self.analyse(board, seconds=max(
                    1e-3, seconds - (time.perf_counter() - start)))
            else:
                analysis = self.analyse(board, time_left=time_left)
        else:
            analysis = self.analyse(board, time_left=time_left)
        # The moves are ranked proven wins first, then by visits: a proven
        # win is played by a move that wins.
        move = analysis.best_move
        self._search.play(move)
        self._moves = self._moves + (self._search.board.moves[-1],)
        return move
