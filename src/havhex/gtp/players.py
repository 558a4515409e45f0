"""The players behind ``havhex gtp``'s ``genmove``: a uniform random
player and a UCT search whose leaves are judged by the boards' C playouts.

A player has ``genmove(board, time_left=None) -> move``: the move (as the
live board takes it: a cell or the swap) for the player to move on
``board``, a live Hex or Havannah board that is not over; the player leaves
``board`` as it found it.  ``time_left`` is the seconds its side has left on
a game clock (None: no clock).
"""
import math
import random
import time
from array import array

__all__ = ["RandomPlayer", "MctsPlayer", "DEFAULT_SIMULATIONS"]

DEFAULT_SIMULATIONS = 1000
# Under a game clock a move takes at most this share of the time left, and
# the clock's last second is kept for the arbiter's margin and the pipes.
_CLOCK_SHARE = 1 / 20
_CLOCK_RESERVE = 0.5
_EMPTY = array("i")


class RandomPlayer:
    """Uniform over the legal actions (the swap among them when it is
    legal); ``seed`` makes its choices repeatable."""

    def __init__(self, seed=None):
        self.seed = seed
        self._random = random.Random(seed)

    def __repr__(self):
        return f"RandomPlayer(seed={self.seed!r})"

    def genmove(self, board, time_left=None):
        actions = board.legal_actions()
        if not len(actions):
            raise ValueError("no legal move: the game is over")
        return board.move_of(actions[self._random.randrange(len(actions))])


class _Node:
    """One position of the tree.  ``visits``/``wins`` count the playouts
    through it, won by the player who moved into it; ``untried`` holds the
    legal actions not yet expanded (the board's ``array`` of ints)."""

    __slots__ = ("action", "visits", "wins", "children", "untried")

    def __init__(self, action, untried):
        self.action = action
        self.visits = 0
        self.wins = 0.0
        self.children = []
        self.untried = untried


class MctsPlayer:
    """Monte Carlo tree search (UCT): each simulation walks down the tree by
    the UCB1 rule, adds one node, and plays the rest of the game out at
    random with the board's C playout (``board.playout(seed)``).

    The budget is ``simulations`` per move or ``seconds`` per move (both
    None: DEFAULT_SIMULATIONS); under a game clock a move also takes at
    most a twentieth of the time left.  ``exploration`` is UCB1's constant.
    The move played is the most visited.  The player never resigns: a game
    ends when it is won.
    """

    def __init__(self, simulations=None, seconds=None, seed=None, exploration=1.0):
        if simulations is not None and simulations < 1:
            raise ValueError(f"simulations must be at least 1, not {simulations}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be more than 0, not {seconds}")
        if simulations is None and seconds is None:
            simulations = DEFAULT_SIMULATIONS
        self.simulations = simulations
        self.seconds = seconds
        self.seed = seed
        self.exploration = exploration
        self._random = random.Random(seed)
        self.last_simulations = 0      # of the last genmove, for reports

    def __repr__(self):
        return (f"MctsPlayer(simulations={self.simulations!r}, seconds={self.seconds!r}, "
                f"seed={self.seed!r}, exploration={self.exploration!r})")

    def _deadline(self, start, time_left):
        seconds = self.seconds
        if time_left is not None:
            share = max(0.0, time_left - _CLOCK_RESERVE) * _CLOCK_SHARE
            seconds = share if seconds is None else min(seconds, share)
        return None if seconds is None else start + seconds

    def genmove(self, board, time_left=None):
        start = time.perf_counter()
        deadline = self._deadline(start, time_left)
        actions = board.legal_actions()
        if not len(actions):
            raise ValueError("no legal move: the game is over")
        if len(actions) == 1:
            self.last_simulations = 0
            return board.move_of(actions[0])
        root = _Node(-1, actions)
        limit = self.simulations if self.simulations is not None else 1 << 62
        self.last_simulations = self._search(board, root, limit, deadline)
        best = max(root.children, key=lambda child: child.visits)
        return board.move_of(best.action)

    def _search(self, board, root, limit, deadline):
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
            # actions are all expanded.
            while not node.untried and node.children:
                scale = c2 * log(node.visits)
                best, best_value = None, -1.0
                for child in node.children:
                    visits = child.visits
                    value = child.wins / visits + sqrt(scale / visits)
                    if value > best_value:
                        best, best_value = child, value
                node = best
                position.play_action(node.action)
                path.append(node)
            # One new node, unless the walk ended at a finished game.
            if node.untried:
                # A random untried action, swapped to the end and popped.
                untried = node.untried
                last = len(untried) - 1
                pick = randbelow(last + 1) if last else 0
                action = untried[pick]
                untried[pick] = untried[last]
                untried.pop()
                position.play_action(action)
                child = _Node(action, _EMPTY if position.is_over else position.legal_actions())
                node.children.append(child)
                node = child
                path.append(node)
            winner = position.playout(seed + done)
            if winner is None:
                score = 0.5
            else:
                # 1 when the leaf's mover won.
                score = 1.0 if (winner == mover) == (len(path) % 2 == 0) else 0.0
            # Up the tree: the mover into a node alternates with depth.
            for node in reversed(path):
                node.visits += 1
                node.wins += score
                score = 1.0 - score
            done += 1
        return done

