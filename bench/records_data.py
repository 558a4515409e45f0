"""Collections of random Hex games in SGF, for the records benchmarks (never
committed as files: a run writes them into its temporary folder).

    python bench/records_data.py OUT [GAMES] [SEED] [--size N] [--swaps SHARE]

writes GAMES (default 100000) complete games on an N x N board (default 11)
as one SGF FF[4] collection ``(;FF[4]GM[11]SZ[11]RE[B+];B[f6];W[c2]...)(;...)``,
one game per line.  Each game plays uniformly random legal moves until one
side connects: the cells are shuffled and played in that order on
:class:`havhex.hex.Board`, which says at which move the game is won, and the
game stops there.  ``RE[]`` names the real winner; the letters name colours
(B = the board's red, first to move, top to bottom; W = blue).

A share of the games (``--swaps``, default 0.1, half of each kind) has White
answer Black's first stone with a swap, as the SGF Hex specification writes it:

* ``W[swap-pieces]``: Black's stone goes to its mirror image in the long
  diagonal and turns white; Black moves next, so the letters keep alternating.
* ``W[swap-sides]``: the players exchange colours and White moves next, so
  the record holds two W moves in a row (``;B[c2];W[swap-sides];W[d4]``).

The swap is always the second move, where the specification says it normally
is and the records reader allows it, so no ``RU[]`` is written (the
specification gives ``RU[]`` no values for it).
"""
import argparse
import random
import sys
import time
from pathlib import Path

from havhex import games

SWAP_PIECES = "swap-pieces"
SWAP_SIDES = "swap-sides"


def random_games(count, seed=2014, size=11, swaps=0.1):
    """Yield ``count`` random complete games as ``(moves, winner)``: moves a
    list of ``(letter, move)`` with move a cell ``(row, col)`` or a swap, in
    the order played; winner ``"B"`` or ``"W"``."""
    from havhex.hex import Board

    rng = random.Random(seed)
    cells = [(row, col) for row in range(size) for col in range(size)]
    for _ in range(count):
        order = cells[:]
        rng.shuffle(order)
        swap = None
        if swaps and rng.random() < swaps:
            swap = SWAP_PIECES if rng.random() < 0.5 else SWAP_SIDES
        board = Board(size, swap=swap is not None)
        play = board.play
        moves = []
        letters = "BW"
        if swap is not None:
            first = order[0]
            play(first)
            play(swap)
            moves += [("B", first), ("W", swap)]
            rest = order[1:]
            if swap == SWAP_PIECES:
                # The first stone's cell is free again and its mirror taken.
                mirror = (first[1], first[0])
                if mirror != first:
                    rest[rest.index(mirror)] = first
            else:
                letters = "WB"                 # White, the first player now, moves
        else:
            rest = order
        parity = 0
        for cell in rest:
            moves.append((letters[parity], cell))
            parity ^= 1
            if play(cell):
                break
        yield moves, "B" if board.winner == "red" else "W"


def collection(count, seed=2014, size=11, swaps=0.1):
    """The SGF text of :func:`random_games`' games, one game per line."""
    cell_name = games.get("hex").records.cell_name
    names = {(row, col): cell_name(size, (row, col)) for row in range(size) for col in range(size)}
    names[SWAP_PIECES] = SWAP_PIECES
    names[SWAP_SIDES] = SWAP_SIDES
    tokens = {(letter, move): f";{letter}[{name}]" for move, name in names.items()
              for letter in "BW"}
    head = f"(;FF[4]GM[11]SZ[{size}]"
    lines = []
    for moves, winner in random_games(count, seed, size, swaps):
        lines.append(f"{head}RE[{winner}+]{''.join(map(tokens.__getitem__, moves))})")
    lines.append("")
    return "\n".join(lines)


def write(path, count, seed=2014, size=11, swaps=0.1):
    """Write the collection to ``path`` (created or replaced); returns the path."""
    path = Path(path)
    path.write_text(collection(count, seed, size, swaps), encoding="ascii")
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("games", nargs="?", type=int, default=100_000)
    parser.add_argument("seed", nargs="?", type=int, default=2014)
    parser.add_argument("--size", type=int, default=11)
    parser.add_argument("--swaps", type=float, default=0.1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    write(args.out, args.games, args.seed, args.size, args.swaps)
    print(f"{args.games} games in {time.perf_counter() - start:.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
