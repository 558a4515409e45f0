"""Deterministic generators for the benchmark inputs (never committed as files).

Run as a script to write one input:  python bench/generate.py KIND OUT [SEED]
KIND is one of: havannah-random, havannah-chains, havannah-loop, havannah-scale,
hex-games, hex-rows, hex-big, hex-snake-4999, hex-snake-10000, hex-snakes-100mb.
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


def snake_board(n, colour="R", first_turn="right"):
    """A board whose only winning chain winds back and forth across it, so
    that the chain (and the set of possible last moves) is as long as it can
    be: about N*N/2 stones, every one of them on every winning chain.

    For Red: the even rows are red, the odd rows blue but for one red stone
    that joins the red rows above and below it, alternately at the right and
    at the left end (``first_turn`` says where the first one is).  Once a
    red row has been joined from above, the chain needs only one more stone
    per row to reach the bottom: the last rows keep just that, so the counts
    stay within one; any blue surplus becomes empty cells of the last row.
    Blue's snake is Red's transposed, colours swapped (the hex grid's
    neighbourhood is symmetric under transposition).  Returns the rows.
    """
    if n < 3:
        raise ValueError("a snake needs N >= 3")
    red, blue = "R", "B"
    turns_right = first_turn == "right"
    rows = []
    for r in range(n):
        if r % 2 == 0:
            rows.append(red * n)
        else:
            right = ((r // 2) % 2 == 0) == turns_right
            rows.append(blue * (n - 1) + red if right else red + blue * (n - 1))
    # The connector row above the last full red row, and which end it is at.
    last_even = n - 1 if (n - 1) % 2 == 0 else n - 2
    above = last_even - 1
    right = rows[above].endswith(red)
    single = blue * (n - 1) + red if right else red + blue * (n - 1)
    for r in range(last_even, n):
        rows[r] = single
    reds = sum(row.count(red) for row in rows)
    blues = sum(row.count(blue) for row in rows)
    surplus = blues - reds
    assert -1 <= surplus < n - 1, (n, reds, blues)
    if surplus > 0:
        last = rows[n - 1]
        # The last row holds N - 1 blue stones and the surplus is below N.
        if right:
            rows[n - 1] = "." * surplus + last[surplus:]
        else:
            rows[n - 1] = last[:1] + "." * surplus + last[1 + surplus:]
    if colour == "B":
        flat = "".join(rows).translate(str.maketrans("RB", "BR"))
        rows = [flat[j::n] for j in range(n)]
    return rows


# The inputs of the snake benchmarks: (N, colour, first turn) per case.  The
# 100 MB input mixes both colours, both turns and both parities of N.
SNAKES = {
    "hex-snake-4999": [(4999, "R", "right")],
    "hex-snake-10000": [(10000, "R", "right")],
    "hex-snakes-100mb": [(5000, "R", "right"), (4999, "B", "left"),
                         (5001, "R", "left"), (5000, "B", "right")],
}


def hex_input(kind, seed=2013):
    if kind in SNAKES:
        # Snakes are fixed shapes; the seed only shuffles the order of the cases.
        cases = list(SNAKES[kind])
        random.Random(seed).shuffle(cases)
        return hex_text([snake_board(n, colour, turn) for n, colour, turn in cases])

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
