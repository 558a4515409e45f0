"""The Havannah reader's fast path (a move a line, found by scanning for
separators 64 bytes at a time) against its general tokenizer.

The same bytes are parsed whole, where the fast path reads every regular
line, and through a 64-byte read chunk, where the buffer never holds enough
for it and every token goes through the general path.  Cases, moves and the
first fault must agree, whatever irregular line sits wherever in a long run.
"""
import os
import random

import pytest

from havhex.havannah import _judge as havannah_engine

# Lines that break the "X Y" layout, or stretch it: each must give the same
# moves or the same fault by both paths.
IRREGULAR = [
    lambda rng, x, y: f"{x} {y}\r\n",
    lambda rng, x, y: f"{x}  {y}\n",
    lambda rng, x, y: f"{x}\t{y}\n",
    lambda rng, x, y: f" {x} {y}\n",
    lambda rng, x, y: f"{x} {y} \n",
    lambda rng, x, y: f"{x}\n{y}\n",
    lambda rng, x, y: f"{x} {y}\n\n",
    lambda rng, x, y: f"00{x} {y}\n",
    lambda rng, x, y: f"{x} 0000000{y}\n",
    lambda rng, x, y: f"+{x} {y}\n",
    lambda rng, x, y: f"{x} -{y}\n",
    lambda rng, x, y: f"{x} {y}x\n",
    lambda rng, x, y: f"{x}x {y}\n",
    lambda rng, x, y: f"{x} {y}\r",
    lambda rng, x, y: f"{x} {y}\r\r\n",
    lambda rng, x, y: f"{x} {y} {x}\n",
    lambda rng, x, y: f"{x}\n",
    lambda rng, x, y: f"{x} {y + 10 ** 7}\n",
    lambda rng, x, y: f"{x} {10 ** 7}\n",
    lambda rng, x, y: f"{x}{y}\n",
    lambda rng, x, y: f"{x} {y}\x00\n",
    lambda rng, x, y: f"{x} {y}\n" + " " * rng.randint(1, 70),
]


def _case_lines(rng, size, count, irregular_rate):
    last = 2 * size - 1
    lines = []
    seen = set()
    while len(lines) < count:
        x, y = rng.randint(1, last), rng.randint(1, last)
        if abs(x - y) >= size or (x, y) in seen:
            continue
        seen.add((x, y))
        if rng.random() < irregular_rate:
            lines.append(rng.choice(IRREGULAR)(rng, x, y))
        else:
            lines.append(f"{x} {y}\n")
    return lines


def _input(rng):
    cases = []
    for _ in range(rng.randint(1, 3)):
        # Sizes whose coordinates have from 1 to 7 digits.
        size = rng.choice([3, 40, 600, 9000, 120_000, 4_000_000, 5_000_000])
        count = min(rng.randint(0, 400), 3 * size * (size - 1))
        lines = _case_lines(rng, size, count, rng.choice([0.0, 0.002, 0.02, 0.2]))
        cases.append(f"{size} {count}\n" + "".join(lines))
    text = f"{len(cases)}\n" + "".join(cases)
    if rng.random() < 0.2:
        text = text.rstrip("\n")           # no final line break
    if rng.random() < 0.1:
        cut = rng.randint(0, len(text))
        text = text[:cut]                  # truncated anywhere
    return text.encode("latin-1")


def _snapshot(parsed):
    """Everything the reader produced: cases, moves, lines, the fault."""
    cases = []
    for case in range(parsed.n_cases):
        coords = list(parsed.case_coords(case))
        lines = [parsed.move_line(case, move) for move in range(len(coords) // 2)]
        cases.append((parsed.case_size(case), coords, lines))
    fault = (parsed.err_code, parsed.err_status, parsed.err_field, parsed.err_line,
             parsed.err_value, parsed.err_x, parsed.err_y, parsed.err_size, parsed.err_token)
    return cases, fault


@pytest.fixture(params=["ssse3", "portable"])
def line_reader(request):
    """Each test runs with both line readers: the SSSE3 one (where the CPU
    has it) and the portable loop."""
    wide = havannah_engine.set_wide_lines(request.param == "ssse3")
    if request.param == "ssse3" and not wide:
        pytest.skip("this CPU has no SSSE3: only the portable loop runs here")
    yield request.param
    havannah_engine.set_wide_lines(True)


def _through_small_chunks(data, tmp_path):
    path = tmp_path / "input.txt"
    path.write_bytes(data)
    descriptor = os.open(path, os.O_RDONLY)
    try:
        return havannah_engine.parse(descriptor, chunk_size=64)
    finally:
        os.close(descriptor)


@pytest.mark.parametrize("seed", range(6))
def test_fast_path_reads_what_the_general_path_reads(seed, tmp_path, line_reader):
    rng = random.Random(seed)
    fast_moves = 0
    for _ in range(60):
        data = _input(rng)
        whole = havannah_engine.parse(data)
        general = _through_small_chunks(data, tmp_path)
        assert _snapshot(whole) == _snapshot(general), data[:200]
        fast_moves += whole.n_moves
    assert fast_moves > 3_000       # long regular runs were read


def test_fast_path_stops_exactly_at_a_fault(tmp_path, line_reader):
    """A fault after a long regular run: the line and the move number."""
    size = 5_000_000
    lines = [f"{1000000 + i} {1000000 + i}\n" for i in range(300)]
    for position in (0, 1, 5, 63, 64, 65, 150, 299):
        for bad in ("1 2 3\n", "9999999 1\n", "12 x\n", "1\t2\n"):
            case = lines[:position] + [bad] + lines[position:]
            data = f"1\n{size} {len(case)}\n{''.join(case)}".encode()
            whole = havannah_engine.parse(data)
            general = _through_small_chunks(data, tmp_path)
            assert _snapshot(whole) == _snapshot(general)
            if bad == "9999999 1\n":
                assert whole.err_line == position + 3 and whole.err_value == position + 1
