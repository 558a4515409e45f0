"""The GTP engine against hostile input (issue 36): ids past what Python
converts, lines past MAX_LINE, failures that must quote no more than a few
words, loadsgf on what is no record file or a record that breaks the
rules, and SIGINT while the engine waits for a command."""
import io
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

from havhex.gtp import ProtocolError, parse_command, parse_response
from havhex.gtp.players import RandomPlayer
from havhex.gtp.server import MAX_LINE, Engine


def answers(output):
    """The answers of an engine's output, each checked to be whole GTP."""
    assert output.endswith("\n\n") or output == "", output[-200:]
    texts = output[:-2].split("\n\n") if output else []
    return [parse_response(text) for text in texts]


def served(engine, data):
    stdout = io.StringIO()
    engine.serve(io.BytesIO(data), stdout)
    return answers(stdout.getvalue())


@pytest.fixture
def hex_engine():
    return Engine("hex", size=5, player=RandomPlayer(1))


# ---------------------------------------------------------------------------
# Ids (M5)
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("digits", [101, 4301, 100_000])
def test_an_id_of_too_many_digits_is_a_protocol_error(digits):
    with pytest.raises(ProtocolError, match="more than 100 digits"):
        parse_command("9" * digits + " name")


def test_an_id_of_100_digits_is_an_id():
    assert parse_command("9" * 100 + " name").id == int("9" * 100)


@pytest.mark.parametrize("digits", [101, 4301, 60_000])
def test_an_engine_answers_an_id_too_long_without_it(hex_engine, digits):
    text = hex_engine.handle("7" * digits + " name")
    assert text == "? the id has more than 100 digits\n\n"
    assert hex_engine.handle("8 name") == "=8 havhex\n\n"


# ---------------------------------------------------------------------------
# Lines past MAX_LINE, failures that quote a few words (M8)
# ---------------------------------------------------------------------------

def test_a_line_too_long_is_one_failure_with_its_id(hex_engine):
    data = (b"7 play red " + b"a" * (3 * MAX_LINE) + b"\n8 name\n"
            + b"name" + b" " * (MAX_LINE - 4) + b"\n"         # exactly MAX_LINE bytes
            + b"name" + b" " * (MAX_LINE - 3) + b"\n"         # one byte more
            + b"\x00" * (5 * MAX_LINE))                       # no newline, then the end
    got = served(hex_engine, data)
    assert [(response.ok, response.id) for response in got] == [
        (False, 7), (True, 8), (True, None), (False, None), (False, None)]
    assert got[0].text == ("the line is longer than 65536 bytes: "
                           "'7 play red aaaaaaaaaaaaa'...")
    assert got[1].text == got[2].text == "havhex"
    assert all(len(response.text) < 80 for response in got)


def test_a_line_too_long_repeats_no_id_it_cannot_see_whole(hex_engine):
    # The id runs past the start kept of the line: it is not repeated.
    got = served(hex_engine, b"1" * (2 * MAX_LINE) + b" name\n")
    assert [(response.ok, response.id) for response in got] == [(False, None)]


@pytest.mark.parametrize("stdin", [
    lambda data: io.StringIO(data.decode()),
    lambda data: data.decode().splitlines(keepends=True),
    lambda data: data.splitlines(keepends=True),
])
def test_every_kind_of_input_has_the_limit(hex_engine, stdin):
    data = b"3 name " + b"x" * MAX_LINE + b"\n4 name\n"
    stdout = io.StringIO()
    hex_engine.serve(stdin(data), stdout)
    got = answers(stdout.getvalue())
    assert [(response.ok, response.id) for response in got] == [(False, 3), (True, 4)]


@pytest.mark.parametrize("game, line", [
    ("hex", "play red a" + "9" * 50_000),
    ("hex", "play red " + "z" * 50_000),
    ("hex", "play " + "x" * 50_000 + " a1"),
    ("hex", "loadsgf /" + "x" * 50_000),
    ("hex", "boardsize " + "9" * 50_000),
    ("hex", "time -m " + "9" * 50_000),
    ("hex", "param_game " + "x" * 50_000),
    ("havannah", "play white A" + "9" * 50_000),
    ("havannah", "play white " + "Z" * 50_000),
    ("havannah", "genmove " + "w" * 50_000),
])
def test_a_failure_quotes_a_few_words(game, line):
    engine = Engine(game, size=4, player=RandomPlayer(1))
    text = engine.handle(line)
    assert text.startswith("?") and len(text) < 200, text[:300]


# ---------------------------------------------------------------------------
# loadsgf (M7)
# ---------------------------------------------------------------------------

def test_loadsgf_does_not_wait_on_a_fifo(tmp_path, hex_engine):
    fifo = tmp_path / "game.sgf"
    os.mkfifo(fifo)
    answered = []
    reader = threading.Thread(target=lambda: answered.append(
        hex_engine.handle(f"loadsgf {fifo}")), daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():
        # Let the engine go (an end of file) before failing.
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(10)
        pytest.fail("loadsgf waited on a FIFO")
    assert answered == [f"? cannot load '{fifo}': not a regular file (loadsgf reads no "
                        f"pipe, device or terminal)\n\n"]


def test_loadsgf_reads_no_commands_from_standard_input():
    process = subprocess.Popen(
        [sys.executable, "-m", "havhex", "gtp", "hex", "--player", "random"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdin.write(b"1 loadsgf /dev/stdin\n")
    process.stdin.flush()
    # The next commands come while loadsgf would be reading.
    time.sleep(0.5)
    out, err = process.communicate(b"2 play red a1\n3 history\n", timeout=60)
    assert process.returncode == 0 and err == b""
    got = answers(out.decode())
    assert [(response.ok, response.id) for response in got] == [
        (False, 1), (True, 2), (True, 3)]
    assert got[2].text == "a1"


@pytest.mark.parametrize("path", ["/dev/zero", "/dev/null", "/"])
def test_loadsgf_reads_only_regular_files(hex_engine, path):
    if not os.path.exists(path):
        pytest.skip(f"no {path} here")
    assert hex_engine.handle(f"loadsgf {path}").startswith(f"? cannot load '{path}': ")


def test_loadsgf_refuses_a_file_too_large(tmp_path, hex_engine, monkeypatch):
    from havhex.gtp import _load
    record = tmp_path / "game.sgf"
    record.write_bytes(b"(;FF[4]GM[11]SZ[5];B[a1]" + b" " * 200 + b")")
    monkeypatch.setattr(_load, "MAX_RECORD_BYTES", 100)
    assert hex_engine.handle(f"loadsgf {record}") == \
        f"? cannot load '{record}': larger than 100 bytes\n\n"


@pytest.mark.parametrize("record, why", [
    (b"(;FF[4]GM[11]SZ[5];B[a1];B[b1])", "move 2 is illegal: played out of turn"),
    (b"(;FF[4]GM[11]SZ[5];W[a1])", "move 1 is illegal: played out of turn"),
    (b"(;FF[4]GM[11]SZ[5];B[a1];W[a1])", "move 2 is illegal: the cell is occupied"),
    (b"(;FF[4]GM[11]SZ[5];B[a1];W[f9])", "move 2 is illegal: the cell is off the board"),
    (b"(;FF[4]GM[11]SZ[5];B[a1];W[b1];B[swap-pieces])", "move 3 is illegal: the swap"),
    (b"(;FF[4]GM[11]SZ[2];B[a1];W[b1];B[a2];W[b2])", "the game is won at move 3"),
])
def test_loadsgf_checks_the_record_as_replay_does(tmp_path, hex_engine, record, why):
    path = tmp_path / "game.sgf"
    path.write_bytes(record)
    ok = hex_engine.handle("play red e5")
    assert ok == "=\n\n"
    text = hex_engine.handle(f"loadsgf {path}")
    assert text.startswith(f"? cannot load '{path}': {why}"), text
    # A refused record leaves the board as it was.
    assert hex_engine.board.moves == ((4, 4),)


def test_loadsgf_of_a_position_before_a_fault(tmp_path, hex_engine):
    path = tmp_path / "game.sgf"
    path.write_bytes(b"(;FF[4]GM[11]SZ[5];B[a1];W[b1];W[c1])")
    assert hex_engine.handle(f"loadsgf {path} 3") == "=\n\n"
    assert hex_engine.board.moves == ((0, 0), (0, 1))
    won = tmp_path / "won.sgf"
    won.write_bytes(b"(;FF[4]GM[11]SZ[2];B[a1];W[b1];B[a2];W[b2])")
    assert hex_engine.handle(f"loadsgf {won} 4") == "=\n\n"
    assert hex_engine.board.winner == "red"


@pytest.mark.parametrize("content", [
    b"root:x:0:0:secret-words:/root:/bin/bash\n",
    b"(;FF[4]GM[secret-words]SZ[5];B[a1])",
    b"(;FF[4]GM[11]SZ[secret-words];B[a1])",
    b"(;FF[4]GM[11]SZ[5]AB[secret-words];B[a1])",
    b"(;FF[4]GM[11]SZ[5];B[a1];W[secret-words])",
    b"(;FF[4]GM[11]SZ[5];B[a1]\x00secret-words)",
    b"(;FF[4]GM[11]SZ[5];B[a1];W[b2]secret-words",
])
def test_loadsgf_never_shows_what_a_file_holds(tmp_path, hex_engine, content):
    path = tmp_path / "notes.txt"
    path.write_bytes(content)
    text = hex_engine.handle(f"loadsgf {path}")
    assert text.startswith(f"? cannot load '{path}': ")
    reason = text[len(f"? cannot load '{path}': "):]
    assert "secret" not in reason and "root" not in reason, reason


def test_loadsgf_quotes_a_long_path_shortly(hex_engine):
    text = hex_engine.handle("loadsgf /" + "x" * 4000)
    assert text.startswith("? cannot load '/xxx") and len(text) < 200


# ---------------------------------------------------------------------------
# The process: SIGINT (M13), memory (M8), the ids and lines over pipes
# ---------------------------------------------------------------------------

def _engine_process(*args):
    return subprocess.Popen(
        [sys.executable, "-m", "havhex", "gtp", "hex", "--player", "random", *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _answered(process, line):
    process.stdin.write(line)
    process.stdin.flush()
    answer = process.stdout.readline()
    assert process.stdout.readline() == b"\n"
    return answer


@pytest.mark.parametrize("then_close", [False, True])
def test_sigint_to_an_idle_engine_ends_it_with_130(then_close):
    # A Ctrl-C in a shell reaches the controller too, which closes the
    # engine's input as it dies: the interrupt then lands after the end of
    # the input, in the engine's clean-up.
    for _ in range(5):
        process = _engine_process()
        assert _answered(process, b"name\n") == b"= havhex\n"
        time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        if not then_close:
            time.sleep(0.3)
        out, err = process.communicate(timeout=30)
        assert (process.returncode, out, err) == (130, b"", b"")


def _peak_rss_kib(chunks):
    """The peak resident memory (KiB) of a ``havhex gtp`` fed ``chunks``
    then ``name``, its exit status and its output."""
    process = _engine_process()
    output = []
    reading = threading.Thread(target=lambda: output.append(process.stdout.read()))
    reading.start()
    for chunk in chunks:
        process.stdin.write(chunk)
    process.stdin.write(b"\nname\n")
    process.stdin.close()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    reading.join(30)
    err = process.stderr.read()
    process.stdout.close()
    process.stderr.close()
    return usage.ru_maxrss, process.returncode, output[0], err


@pytest.mark.not_under_sanitizers("measures the peak resident size (ASan keeps freed memory)")
@pytest.mark.skipif(not hasattr(os, "wait4"), reason="os.wait4 gives a child's peak memory")
def test_memory_stays_bounded_whatever_a_line_holds():
    megabyte = b"a" * (1 << 20)
    nul = b"\x00" * (1 << 20)
    baseline, status, output, err = _peak_rss_kib([b"name"])
    assert (status, err) == (0, b"")
    # A line of 100 MB, then 300 MB of NUL bytes with no newline.
    peak, status, output, err = _peak_rss_kib([b"play red "] + [megabyte] * 100)
    assert (status, err) == (0, b"")
    assert [response.ok for response in answers(output.decode())] == [False, True]
    assert peak < baseline + 16 * 1024, (baseline, peak)
    peak, status, output, err = _peak_rss_kib([nul] * 300)
    assert (status, err) == (0, b"")
    assert peak < baseline + 16 * 1024, (baseline, peak)


def test_long_ids_and_lines_over_pipes():
    process = subprocess.run(
        [sys.executable, "-m", "havhex", "gtp", "havannah", "--player", "random"],
        input=(b"9" * 5000 + b" name\n" + b"5 play white " + b"A" * 200_000 + b"\n"
               + b"6 play white " + b"9" * 100_000 + b"\n7 name\n"),
        capture_output=True, timeout=60)
    assert process.returncode == 0 and process.stderr == b""
    got = answers(process.stdout.decode())
    assert [(response.ok, response.id) for response in got] == [
        (False, None), (False, 5), (False, 6), (True, 7)]
    assert len(process.stdout) < 500
