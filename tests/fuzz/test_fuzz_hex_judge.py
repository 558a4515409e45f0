"""Fuzzing the Hex judge input's reader (see fuzzing.py for the tests and
their oracle)."""
from fuzzing import Reader, folder, fuzz_tests, st  # noqa: F401  (folder: a fixture)

import ref_hex as ref
from havhex.hex import _judge as hex_engine
from havhex import hex as hx

REFERENCE_SIZE = 7          # the literal reference judge is quick up to here


def judge_chunked(descriptor, threads, chunk_size, source):
    parsed = hx._checked(hex_engine.parse(descriptor, chunk_size), source)
    parsed.judge(threads)
    return hx._results(parsed)


def explain_answers(data, threads):
    return [str(explanation.result) for explanation in hx.explain_text(data, threads=threads)]


def reference(text):
    boards = ref.parse_input(text)
    if any(len(rows) > REFERENCE_SIZE for rows in boards):
        return None
    return ref.judge_text(text)


@st.composite
def boards(draw):
    """N x N rows of R, B and .: random fills, and positions of real games
    (which exercise the win and last-move logic more than noise does)."""
    size = draw(st.integers(1, REFERENCE_SIZE if draw(st.integers(0, 4)) else 40))
    rng = draw(st.randoms(use_true_random=False))
    if size > REFERENCE_SIZE or draw(st.booleans()):
        weights = draw(st.sampled_from(((1, 1, 1), (1, 1, 0), (5, 5, 1), (1, 0, 3))))
        return ref.random_fill(rng, size, weights)
    return ref.random_game_position(rng, size, stop=draw(st.sampled_from(("any", "win", "past")))).rows


def valid_lines():
    def lines(rows_of_cases):
        out = [[str(len(rows_of_cases))]]
        for rows in rows_of_cases:
            out.append([str(len(rows))])
            out.extend([row] for row in rows)
        return out
    return st.lists(boards(), max_size=3).map(lines)


HEX = Reader(
    name="hex",
    judge_text=lambda data, threads: hx.judge_text(data, threads=threads),
    judge_file=lambda file, threads: hx.judge_file(file, threads=threads),
    judge_chunked=judge_chunked,
    explain_answers=explain_answers,
    reference=reference,
    format_results=hx.format_results,
    cli=("hex",),
    valid_lines=valid_lines(),
)

test_structured_inputs, test_raw_bytes, test_valid_inputs, test_cli = fuzz_tests(HEX)
