"""Both readers give the same cases and the same first fault (its line, its
token, its message) whether the input is in memory or streamed from a
descriptor through a read chunk of 1, 2, 3 or 7 bytes, where every token and
every line break may be split between two reads.

The in-memory read takes the fast paths (whole "X Y" lines, a pair of short
numbers); a tiny chunk never buffers enough for them, so every token goes
through the general tokenizer.  Inputs end in white space often enough that
the fast paths see the 32 bytes they need.
"""
import os

from hypothesis import HealthCheck, example, given, settings, strategies as st

# Each game's faults in words.  The names are those the tests' source has
# always used: derandomized Hypothesis seeds its examples from that source.
from havhex.havannah import _faults as havannah
from havhex.hex import _faults as hex_judge
from havhex.havannah import _judge as havannah_engine
from havhex.hex import _judge as hex_engine

CHUNK_SIZES = (1, 2, 3, 7)

SEPARATORS = st.sampled_from([" ", "\n", "\r\n", "\r", "\t", "  ", "\n\n", " \n", "\r\r\n"])
# Tokens that break the format, or stretch it (leading zeros, a sign); a
# surrogate stands for a byte that is not UTF-8 (surrogateescape).
ODD_TOKENS = st.sampled_from([
    "x", "1x", "\x00", "1\x001", "\udcff\udcfe1", "\u00e9", "-1", "+2", "-", "1.5",
    "000000000000000002", "0000000000000000002", "99999999999999999999", "1" * 60,
])
PADDING = st.sampled_from(["", " " * 40, "\n" * 33, " \n" * 30, "\r\n" * 20])


def _token(draw, good):
    """``good``, or now and then a token that breaks the format."""
    return draw(ODD_TOKENS) if draw(st.integers(0, 19)) == 0 else good


@st.composite
def havannah_inputs(draw):
    n_cases = draw(st.integers(0, 2))
    tokens = [_token(draw, str(max(n_cases + draw(st.sampled_from([-1, 0, 0, 0, 1])), 0)))]
    for _ in range(n_cases):
        size = draw(st.integers(2, 4))
        count = draw(st.integers(0, 8))
        tokens += [_token(draw, str(size)), _token(draw, str(count))]
        last = 2 * size - 1
        cells = [(x, y) for x in range(1, last + 1) for y in range(1, last + 1)
                 if abs(x - y) < size]
        for _ in range(count):
            x, y = draw(st.sampled_from(cells)) if draw(st.integers(0, 15)) else (1, last)
            tokens += [_token(draw, str(x)), _token(draw, str(y))]
    return _joined(draw, tokens)


@st.composite
def hex_inputs(draw):
    n_cases = draw(st.integers(0, 2))
    tokens = [_token(draw, str(max(n_cases + draw(st.sampled_from([-1, 0, 0, 0, 1])), 0)))]
    for _ in range(n_cases):
        size = draw(st.integers(1, 3))
        tokens.append(_token(draw, str(size)))
        for _ in range(size):
            length = size if draw(st.integers(0, 5)) else draw(st.integers(0, size + 2))
            cells = "RB." if draw(st.integers(0, 5)) else "RB.x\x00\u00e9\udcff"
            tokens.append("".join(draw(st.sampled_from(cells)) for _ in range(length)) or ".")
    return _joined(draw, tokens)


def _joined(draw, tokens):
    text = "".join(token + draw(SEPARATORS) for token in tokens)
    if draw(st.integers(0, 4)) == 0:
        text = text[:draw(st.integers(0, len(text)))]      # cut anywhere
    return (text + draw(PADDING)).encode("utf-8", "surrogateescape")


def _havannah_snapshot(parsed):
    cases = []
    for case in range(parsed.n_cases):
        coords = list(parsed.case_coords(case))
        lines = [parsed.move_line(case, move) for move in range(len(coords) // 2)]
        cases.append((parsed.case_size(case), coords, lines))
    reason = havannah._fault_reason(parsed) if parsed.err_code else None
    return cases, parsed.err_line, reason, parsed.err_token


def _hex_snapshot(parsed):
    cases = [parsed.board(case) for case in range(parsed.n_cases)]
    reason = hex_judge._fault_reason(parsed) if parsed.err_code else None
    return cases, parsed.err_line, reason, parsed.err_token


def _streamed(parse, data, chunk_size):
    """``parse`` reading ``data`` from a pipe (which holds these small inputs
    whole) through ``chunk_size`` bytes at a time."""
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, data)
        os.close(write_end)
        write_end = -1
        return parse(read_end, chunk_size=chunk_size)
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)


SETTINGS = settings(max_examples=300, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(havannah_inputs())
# x and y of a move on two lines, then the input ends before the next x: the
# line is y's (the last token read), however the lines were read.
@example(b"1\n3 2\n1\n2" + b" " * 40)
@example(b"1\n3 2\n1\n2\n" + b"\n" * 40)
@example(b"1\n3 3\n1 1\n2\n2\n" + b" " * 40)
@example(b"1\n3 2\n1\r\n2" + b" " * 40)
def test_havannah_reads_alike_in_memory_and_through_tiny_chunks(data):
    whole = _havannah_snapshot(havannah_engine.parse(data))
    for chunk_size in CHUNK_SIZES:
        assert _havannah_snapshot(_streamed(havannah_engine.parse, data, chunk_size)) == whole, chunk_size


@SETTINGS
@given(hex_inputs())
@example(b"1\n2\nRB\n.RRRRRRRRRRRR\n" + b" " * 40)
@example(b"1\n2\nRB\n..\n" + b"\xff\xfe" * 30)
def test_hex_reads_alike_in_memory_and_through_tiny_chunks(data):
    whole = _hex_snapshot(hex_engine.parse(data))
    for chunk_size in CHUNK_SIZES:
        assert _hex_snapshot(_streamed(hex_engine.parse, data, chunk_size)) == whole, chunk_size


def test_the_inputs_reach_the_faults_and_the_fast_paths():
    """The strategies make inputs the tests above can fail on: faults of
    every kind, and whole cases, as the in-memory fast paths read them."""
    reasons = set()
    counts = {"moves": 0, "boards": 0}

    @settings(max_examples=300, deadline=None, derandomize=True, database=None)
    @given(havannah_inputs(), hex_inputs())
    def collect(havannah_data, hex_data):
        parsed = havannah_engine.parse(havannah_data)
        counts["moves"] += parsed.n_moves
        if parsed.err_code:
            reasons.add("havannah: " + havannah._fault_reason(parsed).split(" ", 2)[0])
        parsed = hex_engine.parse(hex_data)
        counts["boards"] += parsed.n_cases
        if parsed.err_code:
            reasons.add("hex: " + hex_judge._fault_reason(parsed).split(" ", 2)[0])

    collect()
    assert counts["moves"] > 200 and counts["boards"] > 100, counts
    assert {"havannah: input", "havannah: expected", "havannah: the", "havannah: move",
            "havannah: unexpected", "hex: input", "hex: expected", "hex: row",
            "hex: unexpected"} <= reasons, reasons
