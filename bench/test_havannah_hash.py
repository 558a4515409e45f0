"""Havannah cell table: structured inputs under many hash multipliers.

The table hashes a cell's packed key (x << b | y) by multiply-shift with a
random odd multiplier.  For a few multipliers, structured inputs fall into long
probe runs.  This benchmark draws multipliers and, for each, judges every
structured family beside uniformly random moves in the same run, and reports
the worst ratio of a family's time to the uniform moves' time, against the
goal WORST_ALLOWED (printed with -s, and in the benchmark's extra_info); the
ratio is not asserted (see WORST_ALLOWED).

Run:  python -m pytest bench/test_havannah_hash.py --benchmark-only
(1,000 multipliers, a few minutes).  With --benchmark-disable (CI) it draws
SEEDS_QUICK multipliers so that it stays under a minute.
"""
import random
import time
from array import array

from havhex.havannah import _judge as havannah_engine

SEEDS_FULL = 1000
SEEDS_QUICK = 25
# A family is timed this many times for a seed and its best time kept; a
# ratio above RECHECK_ABOVE is timed RECHECK_ROUNDS more times (the machine
# is shared: one slow round is not the multiplier's doing).
ROUNDS = 2
RECHECK_ABOVE = 2.0
RECHECK_ROUNDS = 5
CONFIRM_ROUNDS = 15
# The goal of issue 16: no family slower than this many times uniform moves.
# Reported against the worst ratio, not asserted: a ratio of two timings on a
# shared machine (CI) varies with its load, and a benchmark that fails on a
# busy moment says nothing of the table.
WORST_ALLOWED = 3.0
MOVES = 1 << 17     # a table of 2**19 slots (4 MB): beyond the caches, planned ahead


def _coords(cells):
    return array("i", [c for cell in cells for c in cell])


def _on_board(size, x, y):
    last = 2 * size - 1
    return 1 <= x <= last and 1 <= y <= last and abs(x - y) <= size - 1


def _uniform(rng):
    size = 3000
    last = 2 * size - 1
    seen = set()
    while len(seen) < MOVES:
        x, y = rng.randint(1, last), rng.randint(1, last)
        if abs(x - y) < size:
            seen.add((x, y))
    cells = list(seen)
    rng.shuffle(cells)
    return size, cells


def _block(size, side):
    centre = size - side // 2
    return [(centre + i, centre + j) for i in range(side) for j in range(side)]


def _rows(size, length, gap, along_x):
    """Lines of ``length`` cells, ``gap`` apart, along y (rows) or x (columns)."""
    n_lines = MOVES // length
    start = size - length // 2
    cells = []
    for line in range(n_lines):
        fixed = size - (n_lines * gap) // 2 + line * gap
        for t in range(length):
            cells.append((start + t, fixed) if along_x else (fixed, start + t))
    return cells


def _diagonals(size, length, gap):
    n_lines = MOVES // length
    cells = []
    for line in range(n_lines):
        offset = (line - n_lines // 2) * gap
        for t in range(length):
            x = size - length // 2 + t
            cells.append((x, x + offset))
    return cells


def _lattice(size, x_step, y_step, x_count):
    """x_count x (MOVES / x_count) points, x_step and y_step apart."""
    y_count = MOVES // x_count
    x0 = size - (x_count * x_step) // 2
    y0 = size - (y_count * y_step) // 2
    return [(x0 + i * x_step, y0 + j * y_step) for i in range(x_count) for j in range(y_count)]


def _high_bits(size):
    """Keys that differ only above bit 44: x = k * 2**13 on one row y = S."""
    return [(k << 13, size) for k in range(1, MOVES + 1)]


def _key_progression(size, rng):
    """Cells whose keys x << b | y step by one random stride."""
    bits = (2 * size - 1).bit_length()
    stride = rng.randrange(3, 1 << (bits + 4)) | 1
    key = (size << bits) | size
    cells = []
    while len(cells) < MOVES:
        x, y = key >> bits, key & ((1 << bits) - 1)
        if _on_board(size, x, y):
            cells.append((x, y))
        key += stride
        if (key >> bits) >= 2 * size:
            key = (1 << bits) | (key & ((1 << bits) - 1))
    return list(dict.fromkeys(cells))


def families():
    """(name, board side, coords): none wins (no stone touches an edge, no
    loop closes), so every move is played."""
    rng = random.Random(16)
    side = int(MOVES ** 0.5)
    return [
        ("block", 3000, _coords(_block(3000, side))),
        ("rows", 1 << 12, _coords(_rows(1 << 12, 4096, 2, along_x=False))),
        ("columns", 1 << 12, _coords(_rows(1 << 12, 4096, 2, along_x=True))),
        ("diagonals", 1 << 12, _coords(_diagonals(1 << 12, 2048, 2))),
        ("lattice x 2^8", 1 << 30, _coords(_lattice(1 << 30, 1 << 8, 1, 512))),
        ("lattice y 2^8", 1 << 30, _coords(_lattice(1 << 30, 1, 1 << 8, 512))),
        ("lattice 2^8 x 2^8", 1 << 30, _coords(_lattice(1 << 30, 1 << 8, 1 << 8, 512))),
        ("lattice 3 x 5", 1 << 20, _coords(_lattice(1 << 20, 3, 5, 512))),
        ("high bits", 1 << 30, _coords(_high_bits(1 << 30))),
        ("key progression", 1 << 20, _coords(_key_progression(1 << 20, rng))),
    ]


def _best_time(parsed, multiplier, rounds):
    best = float("inf")
    for _ in range(rounds):
        parsed._hash_with(multiplier)
        start = time.perf_counter()
        parsed.judge()
        best = min(best, time.perf_counter() - start)
    return best


def _ratios(inputs, uniform, multiplier, rounds):
    base = _best_time(uniform, multiplier, rounds)
    return {name: _best_time(parsed, multiplier, rounds) / base
            for name, parsed in inputs.items()}, base


def test_worst_multiplier_against_uniform_moves(benchmark):
    seeds = SEEDS_QUICK if benchmark.disabled else SEEDS_FULL
    size, cells = _uniform(random.Random(2026))
    uniform = havannah_engine.from_moves(size, _coords(cells))
    inputs = {}
    for name, side, coords in families():
        parsed = havannah_engine.from_moves(side, coords)
        assert parsed.err_code == 0, name
        inputs[name] = parsed
    draw = random.Random(1016)
    multipliers = [draw.getrandbits(64) | 1 for _ in range(seeds)]
    worst = {}                       # family -> (ratio, multiplier)
    uniform_seconds = []

    def run():
        for multiplier in multipliers:
            ratios, base = _ratios(inputs, uniform, multiplier, ROUNDS)
            uniform_seconds.append(base)
            if max(ratios.values()) > RECHECK_ABOVE:
                ratios, _ = _ratios(inputs, uniform, multiplier, RECHECK_ROUNDS)
            for name, ratio in ratios.items():
                if ratio > worst.get(name, (0, 0))[0]:
                    worst[name] = (ratio, multiplier)

    benchmark.pedantic(run, rounds=1, iterations=1)
    # A multiplier that really lays a family out in long runs is slow every
    # time; one that only met a loaded moment of the machine is not.  So a
    # family over the limit is timed again, longer, under the same multiplier,
    # and both figures are reported.
    first_over = {}
    for name, (ratio, multiplier) in list(worst.items()):
        if ratio > WORST_ALLOWED:
            first_over[name] = ratio
            again, _ = _ratios({name: inputs[name]}, uniform, multiplier, CONFIRM_ROUNDS)
            worst[name] = (again[name], multiplier)
    for name, parsed in inputs.items():
        kinds, moves, duplicate = parsed.results()
        assert moves == [0] and duplicate is None, name     # every move played
    name, (ratio, multiplier) = max(worst.items(), key=lambda item: item[1][0])
    uniform_seconds.sort()
    benchmark.extra_info["multipliers"] = seeds
    benchmark.extra_info["uniform ns/move (median)"] = round(
        uniform_seconds[len(uniform_seconds) // 2] / MOVES * 1e9, 1)
    benchmark.extra_info["worst ratio"] = round(ratio, 2)
    benchmark.extra_info["goal"] = f"at most {WORST_ALLOWED}"
    benchmark.extra_info["worst family"] = name
    benchmark.extra_info["worst multiplier"] = hex(multiplier)
    for family, (family_ratio, _) in sorted(worst.items()):
        benchmark.extra_info[f"worst {family}"] = round(family_ratio, 2)
    for family, ratio_first in sorted(first_over.items()):
        benchmark.extra_info[f"first timing of {family}"] = round(ratio_first, 2)
    print(f"\nworst of {seeds} multipliers: {name} {ratio:.2f}x uniform, "
          f"multiplier {multiplier:#x} "
          f"({'within' if ratio <= WORST_ALLOWED else 'OVER'} the goal of {WORST_ALLOWED}x)")
    for family, (family_ratio, family_multiplier) in sorted(worst.items()):
        print(f"  {family:20} {family_ratio:6.2f}  {family_multiplier:#x}")
    for family, ratio_first in sorted(first_over.items()):
        print(f"  {family}: {ratio_first:.2f}x at first, {worst[family][0]:.2f}x timed again")
    assert ratio > 0
