"""Deterministic generators for the benchmark inputs (never committed as files).

Run as a script to write one input:  python bench/generate.py KIND OUT [SEED]
KIND is one of: havannah-random, havannah-chains, havannah-loop, havannah-scale,
hex-games, hex-rows, hex-big.
"""
import random
import sys

NEIGHBOURS = ((1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0))


def on_board(size, x, y):
    last = 2 * size - 1
    return 1 <= x <= last and 1 <= y <= last and abs(x - y) <= size - 1


def random_cells(rng, size, count):
    """``count`` distinct cells drawn uniformly from the board."""
    last = 2 * size - 1
    seen = set()
    cells = []
    randint = rng.randint
    while len(cells) < count:
        x = randint(1, last)
        y = randint(1, last)
        if abs(x - y) < size and (x, y) not in seen:
            seen.add((x, y))
            cells.append((x, y))
    return cells


def wandering_chains(rng, size, count):
    """Long random walks from random edge cells: they end in bridges and forks."""
    seen = set()
    cells = []
    last = 2 * size - 1
    while len(cells) < count:
        x, y = rng.choice(((1, rng.randint(1, size)), (rng.randint(1, size), 1),
                           (last, rng.randint(size, last)), (rng.randint(size, last), last)))
        for _ in range(rng.randint(size // 2, 4 * size)):
            if len(cells) >= count:
                break
            if (x, y) not in seen:
                seen.add((x, y))
                cells.append((x, y))
            dx, dy = rng.choice(NEIGHBOURS)
            if on_board(size, x + dx, y + dy):
                x, y = x + dx, y + dy
    return cells


def big_loop(rng, size, count):
    """One closed loop of ``count`` stones around the centre, in random order:
    the ring is completed by whichever of its stones comes last."""
    # A hexagonal ring of radius r around the centre has 6r cells.
    radius = max(1, count // 6)
    while radius >= size:
        radius -= 1
    centre = size
    cells = []
    x, y = centre - radius, centre - radius
    for dx, dy in ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)):
        for _ in range(radius):
            cells.append((x, y))
            x, y = x + dx, y + dy
    rng.shuffle(cells)
    return cells[:count]


def havannah_text(cases):
    lines = [str(len(cases))]
    for size, cells in cases:
        lines.append(f"{size} {len(cells)}")
        lines.extend(f"{x} {y}" for x, y in cells)
    return "\n".join(lines) + "\n"


def havannah_input(kind, seed=2012):
    rng = random.Random(seed)
    if kind == "havannah-scale":
        return havannah_text([(10**5, random_cells(rng, 10**5, 10**6)) for _ in range(4)])
    make = {"havannah-random": random_cells, "havannah-chains": wandering_chains,
            "havannah-loop": big_loop}[kind]
    return havannah_text([(3000, make(rng, 3000, 10000 if kind != "havannah-loop" else 9996))
                          for _ in range(20)])


# ---------------------------------------------------------------------------
# Hex
# ---------------------------------------------------------------------------

def hex_game_board(rng, n):
    """A random legal game played until one side connects (or the board fills)."""
    board = [["."] * n for _ in range(n)]
    parent = list(range(n * n + 4))  # + top, bottom, left, right

    def find(a):
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    top, bottom, left, right = n * n, n * n + 1, n * n + 2, n * n + 3
    cells = [(i, j) for i in range(n) for j in range(n)]
    rng.shuffle(cells)
    colour = rng.choice("RB")
    for i, j in cells:
        board[i][j] = colour
        here = i * n + j
        for di, dj in ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)):
            a, b = i + di, j + dj
            if 0 <= a < n and 0 <= b < n and board[a][b] == colour:
                parent[find(here)] = find(a * n + b)
        if colour == "R":
            if i == 0:
                parent[find(here)] = find(top)
            if i == n - 1:
                parent[find(here)] = find(bottom)
            if find(top) == find(bottom):
                break
        else:
            if j == 0:
                parent[find(here)] = find(left)
            if j == n - 1:
                parent[find(here)] = find(right)
            if find(left) == find(right):
                break
        colour = "B" if colour == "R" else "R"
    return ["".join(row) for row in board]


def hex_text(boards):
    lines = [str(len(boards))]
    for rows in boards:
        lines.append(str(len(rows)))
        lines.extend(rows)
    return "\n".join(lines) + "\n"


def hex_input(kind, seed=2013):
    rng = random.Random(seed)
    if kind == "hex-rows":
        return hex_text([[("B" if i % 2 == 0 else "R") * 100 for i in range(100)]
                         for _ in range(100)])
    if kind == "hex-games":
        return hex_text([hex_game_board(rng, 100) for _ in range(100)])
    if kind == "hex-big":
        return hex_text([hex_game_board(rng, 2000)])
    raise ValueError(kind)


def generate(kind, seed=None):
    if kind.startswith("havannah"):
        return havannah_input(kind, *([seed] if seed is not None else []))
    return hex_input(kind, *([seed] if seed is not None else []))


if __name__ == "__main__":
    kind, out = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else None
    with open(out, "w") as handle:
        handle.write(generate(kind, seed))
