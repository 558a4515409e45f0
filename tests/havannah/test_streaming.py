"""Cases judged while they are read.

With more than one thread, a worker starts on a case as soon as its header is
read, and judges each move once the reader has stored it.  These tests cut
cases short in every way the format can fail, and check that judging while
reading gives the very results and the very first fault that reading first
and judging after gives, from bytes, files and pipes.
"""
import os
import random

import pytest

import ref_havannah as ref
from conftest import write
from havhex import InputError
from havhex.havannah import _judge as havannah_engine
from havhex.havannah import format_results, judge_file, judge_text

SIZE = 60
MOVES = 4000


def _cases(seed, n_cases=3):
    rng = random.Random(seed)
    return [ref.random_game(rng, SIZE, MOVES) for _ in range(n_cases)]


def _text(cases, claimed=None, cut=None, replace=None):
    """The judge format for ``cases``.  ``claimed`` overrides case 1's M;
    ``cut`` (case, move) ends the input just before that move; ``replace``
    (case, move, line) puts ``line`` in place of that move."""
    lines = [str(len(cases))]
    for number, moves in enumerate(cases):
        count = claimed if claimed is not None and number == 1 else len(moves)
        lines.append(f"{SIZE} {count}")
        for index, (x, y) in enumerate(moves):
            if cut == (number, index):
                return "\n".join(lines) + "\n"
            if replace is not None and replace[:2] == (number, index):
                lines.append(replace[2])
            else:
                lines.append(f"{x} {y}")
    return "\n".join(lines) + "\n"


def _outcome(judge):
    try:
        return format_results(judge())
    except InputError as error:
        return f"error: {error}"


def _variants():
    cases = _cases(4)
    yield "whole", _text(cases)
    yield "off board mid-case", _text(cases, replace=(1, 2500, "999 1"))
    yield "bad token mid-case", _text(cases, replace=(1, 2500, "12 x"))
    repeat = cases[1][10]
    yield "repeat mid-case", _text(cases, replace=(1, 2500, f"{repeat[0]} {repeat[1]}"))
    yield "input ends mid-case", _text(cases, cut=(1, 2500))
    yield "M larger than the input", _text(cases, claimed=10 ** 6)
    yield "M smaller than given", _text(cases, claimed=MOVES - 5)


@pytest.mark.parametrize("name, text", list(_variants()), ids=lambda v: v if isinstance(v, str) and len(v) < 40 else "")
def test_judging_while_reading_matches_reading_first(name, text, tmp_path):
    path = write(tmp_path, "input.in", text)
    expected = _outcome(lambda: judge_text(text, threads=1))
    assert expected.startswith("error") == (name != "whole"), expected
    assert _outcome(lambda: judge_text(text, threads=2)) == expected
    assert _outcome(lambda: judge_file(str(path), threads=2)) == expected.replace(
        "<string>", str(path))
    with open(path, "rb") as stream:      # an open file: read where it stands
        assert _outcome(lambda: judge_file(stream, threads=2)) == expected.replace(
            "<string>", str(path))


def _engine_outcome(parsed):
    """Results and every field of the first fault."""
    return (parsed.n_cases, parsed.results(), parsed.err_code, parsed.err_status,
            parsed.err_field, parsed.err_line, parsed.err_value, parsed.err_x, parsed.err_y,
            parsed.err_size, parsed.err_token)


@pytest.mark.parametrize("chunk_size", [64, 1 << 20])
@pytest.mark.parametrize("name, text", list(_variants()), ids=lambda v: v if isinstance(v, str) and len(v) < 40 else "")
def test_reading_passed_from_worker_to_worker(name, text, chunk_size, tmp_path):
    """With threads, a worker with nothing to judge reads the next case.
    Here every reader stops after one case, so the reader's state (its
    buffer, line count, the case being read) passes between threads at
    every case: the results and the first fault stay those of one thread."""
    path = write(tmp_path, "input.in", text)
    expected = _engine_outcome(havannah_engine.parse_and_judge(text.encode(), 1))
    for source in ("bytes", "file"):
        parsed = havannah_engine.HavannahInput()
        parsed._hand_over_reading(True)
        if source == "bytes":
            parsed.judge(2, text.encode(), chunk_size)
        else:
            descriptor = os.open(path, os.O_RDONLY)
            try:
                parsed.judge(2, descriptor, chunk_size)
            finally:
                os.close(descriptor)
        assert _engine_outcome(parsed) == expected
        if os.cpu_count() > 1 and expected[0] >= 2:
            assert parsed._read_turns >= 2      # reading did pass on


@pytest.mark.parametrize("chunk_size", [7, 64, 4096])
def test_small_reads_interleave_with_judging(tmp_path, chunk_size):
    """Small read chunks make the reader slower than the workers, so they
    catch up with it and wait mid-case."""
    rng = random.Random(chunk_size)
    cells = sorted((x, y) for x in range(1, 600) for y in range(1, 600) if abs(x - y) < 300)
    games = [rng.sample(cells, 150_000) for _ in range(2)]
    text = f"{len(games)}\n" + "".join(
        "300 150000\n" + "".join(f"{x} {y}\n" for x, y in moves) for moves in games)
    path = write(tmp_path, "input.in", text)
    read_first = havannah_engine.parse_and_judge(text.encode(), 1)
    descriptor = os.open(path, os.O_RDONLY)
    try:
        parsed = havannah_engine.parse_and_judge(descriptor, 2, chunk_size)
    finally:
        os.close(descriptor)
    assert parsed.err_code == read_first.err_code == 0
    assert parsed.n_cases == 2
    assert parsed.results() == read_first.results()


def test_case_cut_short_is_never_judged_again(tmp_path):
    """Judging again after a fault (as the benchmarks do) skips the case the
    fault cut short instead of waiting for its missing moves."""
    cases = _cases(6)
    path = write(tmp_path, "input.in", _text(cases, cut=(2, 100)))
    descriptor = os.open(path, os.O_RDONLY)
    try:
        parsed = havannah_engine.parse_and_judge(descriptor, 2, 4096)
    finally:
        os.close(descriptor)
    assert parsed.err_code != 0 and parsed.n_cases == 2
    first = parsed.results()
    parsed.judge(2)
    parsed.judge(1)
    assert parsed.results() == first


def test_pipe_and_file_agree_under_threads(cli, tmp_path):
    """Standard input has no known size: its cases are judged once read."""
    text = _text(_cases(7, n_cases=4))
    path = write(tmp_path, "input.in", text)
    from_file = cli("havannah", "-j", "2", path)
    from_pipe = cli("havannah", "-j", "2", "-", stdin=text.encode())
    single = cli("havannah", path)
    assert from_file.returncode == from_pipe.returncode == single.returncode == 0
    assert from_file.stdout == from_pipe.stdout == single.stdout
    assert single.stdout.count(b"\n") == 4


@pytest.mark.not_under_sanitizers("caps the address space (RLIMIT_AS), which ASan's shadow memory exceeds")
def test_a_lying_header_under_a_memory_limit_reports_its_fault(tmp_path):
    """A case claiming far more moves than it gives makes a worker reserve
    room for the claim; when that room is refused, the fault that cuts the
    case short is still what is reported, as with one thread."""
    import subprocess
    import sys
    claimed = 8_000_000
    path = tmp_path / "lie.in"
    with open(path, "w") as out:
        out.write(f"1\n1000000 {claimed}\n")
        out.writelines(f"1000 {1000 + i}\n" for i in range(10))
        out.write(" " * (4 * claimed + 100))
    limit = ("import resource, runpy, sys\n"
             "resource.setrlimit(resource.RLIMIT_AS, (400 << 20, 400 << 20))\n"
             "sys.argv = ['havhex'] + sys.argv[1:]\n"
             "runpy.run_module('havhex', run_name='__main__')\n")
    outcomes = []
    for jobs in ("1", "2"):
        done = subprocess.run([sys.executable, "-c", limit, "havannah", "-j", jobs, str(path)],
                              capture_output=True, text=True)
        outcomes.append((done.returncode, done.stdout, done.stderr))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][0] == 1 and "input ends before the x of move 11" in outcomes[0][2]


@pytest.mark.not_under_sanitizers("caps the address space (RLIMIT_AS), which ASan's shadow memory exceeds")
def test_out_of_memory_under_threads_still_reads_to_the_first_fault(tmp_path):
    """When a worker is refused memory for a case's table, the rest of the
    input is still read, as with one thread, so that its first fault is known
    when memory is reported: whichever thread the refusal hit."""
    import subprocess
    import sys
    size, big = 1000, 1_500_000
    cells = ((x, y) for x in range(1, 2 * size) for y in range(1, 2 * size) if abs(x - y) < size)
    path = tmp_path / "big.in"
    with open(path, "w") as out:
        out.write("3\n3 2\n1 1\n2 2\n")
        out.write(f"{size} {big}\n")
        out.writelines(f"{x} {y}\n" for (x, y), _ in zip(cells, range(big)))
        out.write("3 2\n1 1\n9 9\n")
    # Room for the input and a case's moves, not for the big case's table
    # (2**22 slots of 16 bytes).  Each run has a process of its own: memory
    # an earlier run leaves to the allocator would shrink the next one's room
    # until the reader, not a worker, is refused.
    code = ("import resource, sys\n"
            "from havhex.havannah import _judge as havannah_engine\n"
            "import threading\n"
            "data = open(sys.argv[1], 'rb').read()\n"
            "size = int(open('/proc/self/statm').read().split()[0]) * resource.getpagesize()\n"
            "resource.setrlimit(resource.RLIMIT_AS, (size + (48 << 20), size + (48 << 20)))\n"
            "parsed = havannah_engine.HavannahInput()\n"
            "try:\n"
            "    parsed.judge(int(sys.argv[2]), data)\n"
            "    outcome = 'judged'\n"
            "except MemoryError:\n"
            "    outcome = 'out of memory'\n"
            "print(outcome, parsed.n_cases, parsed.err_code, parsed.err_line, parsed.err_x)\n")
    outcomes = []
    for threads in (1, 2, 2, 2):
        done = subprocess.run([sys.executable, "-c", code, str(path), str(threads)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        outcomes.append(done.stdout.strip())
    assert outcomes[0].startswith("out of memory 2 ") and outcomes[0].endswith(" 9"), outcomes
    assert outcomes[1:] == outcomes[:1] * 3


def test_a_refused_case_still_lets_the_input_be_read_to_its_fault():
    """Whichever thread is refused memory (here by a test hook), the input is
    read on to its first fault before memory is reported."""
    cases = _cases(7, n_cases=4)
    text = _text(cases, replace=(3, 100, "999 1"))
    one = havannah_engine.HavannahInput()
    one._refuse_memory_for(1)
    with pytest.raises(MemoryError):
        one.judge(1, text.encode())
    expected = _engine_outcome(one)[2:]
    assert expected[0] != 0                     # the off-board fault was read
    for attempt in range(30):
        parsed = havannah_engine.HavannahInput()
        parsed._refuse_memory_for(1)
        parsed._hand_over_reading(attempt % 2 == 0)
        with pytest.raises(MemoryError):
            parsed.judge(2, text.encode(), 4096)
        assert _engine_outcome(parsed)[2:] == expected


def test_judging_an_input_never_read_is_refused():
    with pytest.raises(RuntimeError):
        havannah_engine.HavannahInput().judge(2)


@pytest.mark.not_under_sanitizers("measures peak memory, which ASan inflates: it writes the "
                                   "shadow of the case's reserved coordinate storage")
def test_a_lying_header_costs_threads_no_more_memory_than_what_is_read(tmp_path):
    """A 2 GB sparse file whose header claims 4.9 * 10**8 moves gives 1,000
    moves and then zeros.  The claim is plausible for the file's size, so
    the case is opened to the workers while it is read; a worker's cell
    table must still follow the moves read, not the claim (which, cleared
    for 4.9 * 10**8 moves, is over a gigabyte).  Peak memory is measured on
    the CLI alone, so that the test's own process does not count."""
    import subprocess
    import sys

    if (os.cpu_count() or 1) < 2:
        pytest.skip("-j 2 runs one thread on one CPU: no worker judges while reading")
    claimed, given, total = 490_000_000, 1_000, 2 * 10 ** 9
    path = tmp_path / "lie.in"
    with open(path, "w") as out:
        out.write(f"1\n1000000000 {claimed}\n")
        # Stones two cells apart along a row: no two touch, nothing is won.
        out.writelines(f"1000000000 {500_000_000 + 2 * i}\n" for i in range(given))
        out.truncate(total)
    # The CLI is started from a small interpreter: a child forked from this
    # test process would count this process's memory in its peak.
    measure = ("import os, subprocess, sys\n"
               "child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL,\n"
               "                         stderr=subprocess.PIPE)\n"
               "stderr = child.stderr.read()\n"
               "_, status, usage = os.wait4(child.pid, 0)\n"
               "sys.stderr.buffer.write(stderr)\n"
               "print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)\n")
    done = subprocess.run([sys.executable, "-c", measure, sys.executable, "-m", "havhex",
                           "havannah", "-j", "2", str(path)], capture_output=True, text=True)
    status, peak_kb = map(int, done.stdout.split())
    stderr = done.stderr
    assert status == 1, stderr
    assert "Traceback" not in stderr and stderr.count("\n") == 1, stderr
    assert peak_kb < 200 * 1024, f"peak RSS {peak_kb / 1024:.0f} MB"
