"""Fuzzing the Havannah judge input's reader (see fuzzing.py for the tests
and their oracle)."""
from fuzzing import Reader, folder, fuzz_tests, st  # noqa: F401  (folder: a fixture)

import ref_havannah as ref
from havhex import havannah
from havhex.havannah import _judge as havannah_engine

HUGE_SIZES = (2 ** 30, 2 ** 21 + 1, 10 ** 6)
REFERENCE_SIZE = 6          # the literal reference judge is quick up to here


def judge_chunked(descriptor, threads, chunk_size, source):
    return havannah._judge_parsed(havannah_engine.parse_and_judge(descriptor, threads, chunk_size),
                                  source)


def explain_answers(data, threads):
    return [explanation.answer for explanation in havannah.explain_text(data, threads=threads)]


def reference(text):
    cases = ref.parse_input(text)
    if any(size > REFERENCE_SIZE for size, _ in cases):
        return None
    return ref.judge_text(text)


@st.composite
def cells(draw, size):
    x = draw(st.integers(1, 2 * size - 1))
    return x, draw(st.integers(max(1, x - size + 1), min(2 * size - 1, x + size - 1)))


@st.composite
def cases(draw):
    """(S, distinct moves): small boards the reference can judge, full ones,
    and huge boards with moves near their corners and edges."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        size = draw(st.sampled_from(HUGE_SIZES))
        corner = draw(st.sampled_from(((1, 1), (1, size), (size, 2 * size - 1),
                                       (2 * size - 1, 2 * size - 1), (2 * size - 1, size),
                                       (size, 1), (size, size))))
        near = st.tuples(st.integers(-3, 3), st.integers(-3, 3)).map(
            lambda d: (corner[0] + d[0], corner[1] + d[1]))
        moves = draw(st.lists(st.one_of(near, cells(size)), max_size=12, unique=True)
                     .map(lambda ms: [m for m in ms if ref.on_board(size, m)]))
        return size, moves
    size = draw(st.integers(2, REFERENCE_SIZE if kind < 5 else 12))
    board = 3 * size * (size - 1) + 1
    moves = draw(st.lists(cells(size), max_size=min(board, 30), unique=True))
    return size, moves


def valid_lines():
    def lines(games):
        out = [[str(len(games))]]
        for size, moves in games:
            out.append([str(size), str(len(moves))])
            out.extend([str(x), str(y)] for x, y in moves)
        return out
    return st.lists(cases(), max_size=3).map(lines)


HAVANNAH = Reader(
    name="havannah",
    judge_text=lambda data, threads: havannah.judge_text(data, threads=threads),
    judge_file=lambda file, threads: havannah.judge_file(file, threads=threads),
    judge_chunked=judge_chunked,
    explain_answers=explain_answers,
    reference=reference,
    format_results=havannah.format_results,
    cli=("havannah",),
    valid_lines=valid_lines(),
)

test_structured_inputs, test_raw_bytes, test_valid_inputs, test_cli = fuzz_tests(HAVANNAH)
