"""What a review finds in the engine's own games: the search's noise, which
the threshold of ``havhex analyse`` stands above (docs/engine.md,
"Reviewing a game").

    python bench/review_noise.py [--games 3] [--moves 40] [--simulations 10000]

Each game is two random moves, then the search playing both sides
(``--simulations`` a move, seeds from 100), reviewed by
havhex.records.review at its defaults (seed 0).  Printed per game size:
the moves reviewed whose result no search proved, how many of them were
the review's own move, their loss (mean, median, 95th percentile, most),
and how many reach 0.1 and 0.15; then the same losses measured the other
way, the best move's rate in a position against the best reply's in the
next, which a review does not use (a search favours the player to move).
"""
import argparse
import random
import statistics

from havhex.havannah import Board as HavannahBoard
from havhex.hex import Board as HexBoard
from havhex.records.review import analyse_game, best_rate
from havhex.search import Search

BOARDS = {"Hex 11": lambda: HexBoard(11), "Havannah 8": lambda: HavannahBoard(8)}


def own_game(make, number, moves, simulations):
    """Two random moves, then the search's, from ``make()``."""
    board = make()
    rng = random.Random(number)
    played = []
    for _ in range(2):
        played.append(rng.choice(board.legal_moves()))
        board.play(played[-1])
    search = Search(board, seed=100 + number)
    while not board.is_over and len(played) < moves:
        played.append(search.run(simulations=simulations).best_move)
        board.play(played[-1])
        search.play(board.moves[-1])
    return played


def losses(review):
    """The review's losses and the best-against-best ones, of the moves
    after the random opening whose results no search proved."""
    kept, other, own = [], [], 0
    moves = review.moves
    for index, move in enumerate(moves[2:], 2):
        if move.proven_before or move.proven_after:
            continue
        kept.append(move.loss)
        own += move.move == move.best_move
        following = moves[index + 1] if index + 1 < len(moves) else None
        if following is not None and following.proven_before is None:
            other.append(move.before - (1.0 - best_rate(following.analysis)))
    return kept, other, own


def summary(values):
    ordered = sorted(values)
    return (f"mean {statistics.mean(ordered):.3f}, median {statistics.median(ordered):.3f}, "
            f"95th percentile {ordered[int(0.95 * (len(ordered) - 1))]:.3f}, "
            f"most {ordered[-1]:.3f}; {sum(v >= 0.1 for v in ordered)} reach 0.1, "
            f"{sum(v >= 0.15 for v in ordered)} reach 0.15")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--simulations", type=int, default=10000)
    options = parser.parse_args()
    for name, make in BOARDS.items():
        kept, other, own = [], [], 0
        for number in range(options.games):
            moves = own_game(make, number, options.moves, options.simulations)
            found = losses(analyse_game(make(), moves))
            kept += found[0]
            other += found[1]
            own += found[2]
        print(f"{name}: {len(kept)} moves, {own} of them the review's own move")
        print(f"  loss: {summary(kept)}")
        print(f"  best against best: {summary(other)}")


if __name__ == "__main__":
    main()
