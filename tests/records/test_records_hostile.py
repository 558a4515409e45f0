"""Game records read as a hostile user would feed them: endless and binary
input, boards declared far beyond their moves, charsets that are no text
encoding, writes that fail, names that are not UTF-8, moves after a
resignation.

Each input that must fail fails at its first bad byte with one line (CLI)
or one InputError naming the file and the line (API); memory is measured in
a subprocess (its peak resident size), with bounds far below what reading
the declared board or the endless input would take.
"""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import one_error_line, write
from endless import PRODUCER, TIMEOUT, finish, on_endless_pipe
from havhex import InputError, records

# Runs argv[1] (Python) on standard input and prints the peak resident size
# in MB as the last line: Linux's VmHWM, which is this program's alone
# (ru_maxrss keeps the high-water mark of the process it was forked from).
MEASURED = """
import os, resource, sys
exec(sys.argv[1])
if os.path.exists("/proc/self/status"):
    with open("/proc/self/status") as status:
        peak = [int(line.split()[1]) for line in status if line.startswith("VmHWM:")][0]
    print(peak / 1024)
else:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(peak / (1 << 20) if sys.platform == "darwin" else peak / 1024)
"""

# Peak memory an endless input may cost: the interpreter and the package
# take some 15 MB; reading on would take gigabytes.
ENDLESS_MB = 60
# Peak memory one of the D11 records may cost: the boards they declare
# take 450 MB to 2.5 GB.
DECLARED_MB = 80


def _havhex(*args):
    return [sys.executable, "-m", "havhex", *args]


# name: (head, body repeated forever, the message after "havhex: <stdin>:")
ENDLESS = {
    "zeros": (b"", b"\0", "1: not an SGF game tree: a game starts with '(': " + "'" + "\\x00" * 10
              + "'..."),
    "yes": (b"", b"y\n", "1: not an SGF game tree: a game starts with '(': 'y\\ny\\ny\\ny\\ny\\ny\\n'"),
    "zeros-in-a-value": (b"(;FF[4]GM[11]C[", b"\0",
                         "1: a NUL byte inside a property value (a record is text)"),
    "zeros-in-a-tree": (b"(;FF[4]GM[11]SZ[3]\n;B[a1]\n", b"\0",
                        "3: unexpected byte inside a game tree: '" + "\\x00" * 10 + "'..."),
    "binary": (b"(;FF[4]GM[11]SZ[3];B[a1]", bytes(range(256)),
               "1: unexpected byte inside a game tree: '\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07"
               "\\x08\\t\\n'..."),
}


@pytest.mark.parametrize("command", [["replay"], ["replay", "-j", "2"], ["draw", "record"]])
@pytest.mark.parametrize("name", ENDLESS)
def test_an_endless_record_fails_at_its_first_bad_byte(name, command):
    head, body, message = ENDLESS[name]
    process = on_endless_pipe(_havhex(*command, "-"), head, body)
    assert one_error_line(process) == f"havhex: <stdin>:{message}\n"


@pytest.mark.not_under_sanitizers("measures the peak resident size")
@pytest.mark.parametrize("name", ENDLESS)
def test_an_endless_record_is_read_in_bounded_memory(name):
    head, body, message = ENDLESS[name]
    code = ("from havhex import records, InputError\n"
            "try:\n    list(records.read('-'))\nexcept InputError as error:\n    print(error)\n")
    process = on_endless_pipe([sys.executable, "-c", MEASURED, code], head, body)
    assert process.returncode == 0, process.stderr.decode()
    error, peak = process.stdout.decode().splitlines()
    assert error == f"<stdin>:{message}"
    assert float(peak) < ENDLESS_MB


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
@pytest.mark.parametrize("command", [["replay"], ["replay", "--format", "json"],
                                     ["draw", "record"]])
def test_dev_zero_fails_at_once(command):
    process = finish(subprocess.Popen(_havhex(*command, "/dev/zero"), stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE), "/dev/zero")
    assert one_error_line(process).startswith(
        "havhex: /dev/zero:1: not an SGF game tree: a game starts with '('")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_dev_zero_is_an_input_error_of_the_api():
    with pytest.raises(InputError) as caught:
        list(records.read("/dev/zero"))
    assert (caught.value.source, caught.value.line) == ("/dev/zero", 1)
    with pytest.raises(InputError):
        list(records.replay("/dev/zero"))


def test_the_games_before_a_fault_are_read_first(tmp_path):
    good = b"(;FF[4]GM[11]SZ[2];B[a1];W[b1];B[a2])\n"
    path = write(tmp_path, "mixed.sgf", good * 3 + b"(;FF[4]GM[11]C[a\0b])\n" + good)
    games = records.read(path)
    assert [next(games).index for _ in range(3)] == [1, 2, 3]
    with pytest.raises(InputError) as caught:
        next(games)
    assert (caught.value.line, caught.value.reason) == (
        4, "a NUL byte inside a property value (a record is text)")


@pytest.mark.parametrize("piece", [1, 2, 3, 7, 64])
def test_pieces_of_any_size_read_as_the_whole(tmp_path, monkeypatch, piece):
    """A game, a value, a name or the byte order mark cut by a read is read
    on, not taken for a fault."""
    from havhex.records import game as game_module

    data = ("\ufeff(;FF[4]GM[11]SZ[3]PB[Jos\\]\u00e9]\n;B[a1]\n;W[b1]\n;B[a2];W[b2];B[a3])\n\n"
            "(;FF[4]GM[11]SZ[2];B[a1];W[b1];B[a2])\n").encode()
    path = write(tmp_path, "cut.sgf", data)
    whole = [(game.line, game.moves, game.properties) for game in records.read(data)]
    monkeypatch.setattr(game_module, "PIECE_BYTES", piece)
    pieces = [(game.line, game.moves, game.properties) for game in records.read(path)]
    assert pieces == whole
    assert [game.index for game in records.read(path)] == [1, 2]
    assert game_module.load(path) == (data, str(path))


def test_ctrl_c_while_reading_is_one_keyboard_interrupt():
    """Ctrl-C while a record is read from a pipe that has stopped giving
    bytes: the reader stops at once, with one KeyboardInterrupt."""
    code = ("import sys\nfrom havhex import records\nprint('reading', flush=True)\n"
            "list(records.read('-'))\n")
    producer = subprocess.Popen([sys.executable, "-c", PRODUCER, b"(;FF[4]GM[11]SZ[3];B[a1]".hex(),
                                 ""], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        reader = subprocess.Popen([sys.executable, "-c", code], stdin=producer.stdout,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        producer.stdout.close()
        assert reader.stdout.readline() == b"reading\n"
        time.sleep(0.3)
        reader.send_signal(signal.SIGINT)
        started = time.monotonic()
        process = finish(reader, "interrupted read")
        assert time.monotonic() - started < 5
    finally:
        producer.kill()
        producer.wait()
    err = process.stderr.decode()
    assert process.returncode != 0
    assert err.count("Traceback") == 1 and err.count("KeyboardInterrupt") == 1, err


# The records of issue 23's D11: 29, 35 and 22 bytes declaring boards of
# 529 million, 170 million and 48 million cells.
DECLARED = {
    "hex-square.sgf": (b"(;FF[4]GM[11]SZ[23000];B[a1])", 529_000_000),
    "hex-thin.sgf": (b"(;FF[4]GM[11]SZ[170000000:1];B[a1])", 170_000_000),
    "havannah.hgf": (b"(;FF[4]SZ[4000];W[a1])", 47_988_001),
}


@pytest.mark.not_under_sanitizers("measures the peak resident size")
@pytest.mark.parametrize("name", DECLARED)
def test_a_declared_board_beyond_max_cells_is_flagged_not_allocated(tmp_path, name):
    data, cells = DECLARED[name]
    path = write(tmp_path, name, data)
    code = ("import json, sys\nfrom havhex import records\n"
            f"print(json.dumps([r.to_dict(witness=True) for r in records.replay({str(path)!r})]))\n")
    process = subprocess.run([sys.executable, "-c", MEASURED, code], capture_output=True,
                             timeout=TIMEOUT)
    assert process.returncode == 0, process.stderr.decode()
    printed, peak = process.stdout.decode().splitlines()
    (record,) = json.loads(printed)
    assert record["flags"] == ["illegal", "no-result"]
    assert record["illegal"]["move"] == 0
    assert f"{cells:,} cells, more than the 1,000,000 allowed" in record["illegal"]["reason"]
    assert record["moves"] == 1 and record["win"] is None
    assert float(peak) < DECLARED_MB


@pytest.mark.parametrize("name", DECLARED)
def test_a_declared_board_beyond_max_cells_on_the_command_line(tmp_path, cli, name):
    data, cells = DECLARED[name]
    path = write(tmp_path, name, data)
    done = cli("replay", "--format", "json", "--quiet", path)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert record["illegal"]["move"] == 0 and "illegal" in record["flags"]
    refused = one_error_line(cli("draw", "record", path))
    assert refused.startswith(f"havhex: {path}:1: SZ[")
    assert f"{cells:,} cells, more than the 1,000,000 allowed" in refused
    with pytest.raises(InputError) as caught:
        list(records.read(path))
    assert (caught.value.source, caught.value.line) == (str(path), 1)


def test_max_cells_is_configurable(tmp_path, cli):
    game = b"(;FF[4]GM[11]SZ[3]RE[B+];B[a1];W[b1];B[a2];W[b2];B[a3])"
    path = write(tmp_path, "three.sgf", b"(;FF[4]GM[11]SZ[2];B[a1])\n" + game)
    small, three = records.replay(path, max_cells=8)
    assert small.illegal is None and three.illegal[0] == 0
    assert "9 cells, more than the 8 allowed" in three.illegal[1]
    assert [replayed.win for replayed in records.replay(path, max_cells=9)][1].move == 5
    assert next(records.replay(path, max_cells=None)).illegal is None
    with pytest.raises(InputError) as caught:
        list(records.read(path, max_cells=8))
    assert caught.value.line == 2
    for bad in (0, -1, 2.5, True, "9"):
        with pytest.raises(ValueError):
            records.read(path, max_cells=bad)
    lines = cli("replay", "--max-cells", "8", path).stdout.decode().splitlines()
    assert "illegal move 0: SZ[3]: a Hex board of 9 cells" in lines[1]
    assert "illegal" not in cli("replay", "--max-cells", "9", path).stdout.decode()
    assert cli("draw", "record", "--record", "2", "--max-cells", "9", path).returncode == 0
    one_error_line(cli("draw", "record", "--record", "2", "--max-cells", "8", path))


def test_a_collection_goes_on_after_a_board_beyond_max_cells(tmp_path, cli):
    good = b"(;FF[4]GM[11]SZ[2]RE[B+];B[a1];W[b1];B[a2])\n"
    path = write(tmp_path, "mixed.sgf", good + DECLARED["hex-square.sgf"][0] + b"\n" + good)
    for jobs in ("1", "2"):
        done = cli("replay", "-j", jobs, "--quiet", path)
        assert done.returncode == 0, done.stderr
        lines = done.stdout.decode().splitlines()
        assert len(lines) == 3 and "B won in move 3" in lines[2] and "[illegal" in lines[1]


# D19: how a record ends, and which move a message names.
def _replayed(text):
    return next(records.replay(text.encode()))


def test_moves_after_a_resignation_are_flagged_played_on():
    replayed = _replayed("(;FF[4]GM[11]SZ[3]RE[B+];B[a1];W[resign];W[b1];B[a2])")
    assert replayed.end == "resign" and replayed.moves == 3
    assert replayed.flags == ("played-on",)
    assert replayed.win is None and replayed.illegal is None
    forfeit = _replayed("(;FF[4]GM[11]SZ[3]RE[W+];B[a1];B[forfeit];W[b1])")
    assert (forfeit.end, forfeit.flags) == ("forfeit", ("played-on",))
    plain = _replayed("(;FF[4]GM[11]SZ[3]RE[B+];B[a1];W[resign])")
    assert (plain.end, plain.flags) == ("resign", ())


def test_a_resignation_after_an_illegal_move_still_ends_the_game():
    replayed = _replayed("(;FF[4]GM[11]SZ[3]RE[W+];B[a1];W[a1];B[resign])")
    assert replayed.end == "resign" and replayed.illegal == (2, "the cell is occupied")


def test_a_pass_is_read_and_not_counted():
    # Hex 2x2: B joins top and bottom with a1 and a2, its third stone.
    won = _replayed("(;FF[4]GM[11]SZ[2]RE[B+];B[a1];W[b1];B[pass];W[pass];B[a2])")
    assert won.illegal is None and won.moves == 3
    assert won.win == records.Win(3, "B", ("chain",))
    assert won.flags == ()


def test_the_flagged_move_is_counted_as_moves_are():
    replayed = _replayed("(;FF[4]GM[11]SZ[3]RE[B+];B[a1];W[b1];B[pass];W[pass];B[a1])")
    assert replayed.illegal == (3, "the cell is occupied")
    assert replayed.moves == 3 and "illegal" in replayed.flags


def test_the_board_of_a_replay_goes_past_passes():
    replayed = _replayed("(;FF[4]GM[11]SZ[2]RE[B+];B[a1];W[b1];B[pass];W[pass];B[a2])")
    assert replayed.board().winner == "red"


# New users: the JSON record's file, .hgf on standard input, the summary.
def test_to_dict_names_the_file(tmp_path):
    path = write(tmp_path, "one.sgf", b"(;FF[4]GM[11]SZ[2];B[a1];W[b1];B[a2])")
    record = next(records.replay(path)).to_dict()
    assert list(record)[:2] == ["file", "record"] and record["file"] == str(path)
    assert next(records.replay(path.read_bytes())).to_dict()["file"] == "<bytes>"


HGF = b"(;FF[4]EV[havannah.in.size4]PB[a]PW[b]SZ[4]RE[B];W[d4];B[c3];W[resign])"


def test_an_hgf_on_standard_input_with_kind(cli, tmp_path):
    refused = one_error_line(cli("replay", "-", stdin=HGF))
    assert "no GM[]" in refused
    done = cli("replay", "--game", "havannah", "-", stdin=HGF)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().startswith("<stdin> game 1: havannah 4, 2 moves")
    path = write(tmp_path, "game.hgf", HGF)
    assert done.stdout.replace(b"<stdin>", str(path).encode()) == cli("replay", path).stdout
    drawn = cli("draw", "record", "--game", "havannah", "-", stdin=HGF)
    assert drawn.returncode == 0 and b"<svg" in drawn.stdout
    assert cli("replay", "-j", "2", "--game", "havannah", "-", stdin=HGF).stdout == done.stdout


def test_the_summary_counts_one_game_in_the_singular(tmp_path, cli):
    path = write(tmp_path, "one.sgf", b"(;FF[4]GM[11]SZ[2];B[a1];W[b1];B[a2])")
    assert cli("replay", path).stderr.decode().startswith("replayed 1 file: 1 game, 3 moves")
    both = write(tmp_path, "two.sgf", path.read_bytes() * 2)
    assert cli("replay", both).stderr.decode().startswith("replayed 1 file: 2 games, 6 moves")


# D8: CA[] charsets that are no text encoding of ASCII are refused cleanly.
BAD_CHARSETS = ["idna", "punycode", "rot13", "UTF-16", "utf-32", "base64", "hex", "zlib",
                "no-such-charset", "x" * 300]


def _with_charset(charset, name="Jos\u00e9"):
    return f"(;FF[4]GM[11]SZ[2]CA[{charset}]PB[{name}];B[a1];W[b1];B[a2])".encode()


@pytest.mark.parametrize("charset", BAD_CHARSETS)
def test_a_charset_that_cannot_carry_a_record_is_not_used(tmp_path, cli, charset):
    game = next(records.read(_with_charset(charset)))
    assert game.properties["PB"] == ("Jos\u00e9",)      # read as UTF-8
    assert game.properties["CA"] == (charset,)
    assert records.write(game).encode() == _with_charset(charset).replace(
        b";B[a1]", b";B[a1]") + b"\n"
    path = tmp_path / "written.sgf"
    records.write([game], path)
    assert next(records.read(path)) == game
    drawn = cli("draw", "record", write(tmp_path, "drawn.sgf", _with_charset(charset)))
    assert drawn.returncode == 0 and drawn.stderr == b""
    assert "Jos\u00e9 (Red)" in drawn.stdout.decode()


def test_a_charset_holding_nul_is_a_clean_fault(tmp_path, cli):
    data = b"(;FF[4]GM[11]SZ[2]CA[utf\0-8];B[a1])"
    with pytest.raises(InputError):
        next(records.read(data))
    path = write(tmp_path, "nul.sgf", data)
    assert "NUL" in one_error_line(cli("draw", "record", path))
    from havhex.records.game import text_codec

    assert text_codec("utf\0-8") is None and text_codec("latin-1") == "iso8859-1"


# D9: a failed write leaves the old file; the mode stays.
@pytest.mark.parametrize("charset", ["US-ASCII", "cp1252"])
def test_a_write_that_fails_leaves_the_old_file(tmp_path, charset):
    # The UTF-8 bytes of the name hold bytes that are no character of the
    # charset: read as U+FFFD, which the charset cannot write.
    game = next(records.read(_with_charset(charset, "\u674e")))
    path = write(tmp_path, "old.sgf", b"the old file")
    os.chmod(path, 0o640)
    with pytest.raises(ValueError, match="cannot be written in its charset"):
        records.write([game], path)
    assert path.read_bytes() == b"the old file"
    assert sorted(os.listdir(tmp_path)) == ["old.sgf"]
    good = next(records.read(_with_charset("latin-1")))
    records.write([good], path)
    assert path.read_bytes() == _with_charset("latin-1") + b"\n"
    assert os.stat(path).st_mode & 0o777 == 0o640
    assert sorted(os.listdir(tmp_path)) == ["old.sgf"]


def test_a_write_to_a_missing_folder_fails_before_anything(tmp_path):
    game = next(records.read(_with_charset("utf-8")))
    with pytest.raises(OSError):
        records.write([game], tmp_path / "absent" / "out.sgf")
    assert os.listdir(tmp_path) == []


def test_utf16_round_trips():
    game = next(records.read(_with_charset("UTF-16", "\u674e \u2603")))
    text = records.write(game)
    assert next(records.read(text.encode())) == game


# D10: a file name that is not UTF-8.
@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="names are bytes on POSIX only")
def test_a_name_that_is_not_utf8_is_shown_with_replacement_characters(tmp_path, cli):
    folder = os.fsencode(tmp_path)
    name = os.path.join(folder, b"caf\xe9.sgf")
    with open(name, "wb") as stream:
        stream.write(b"(;FF[4]GM[11]SZ[2];B[a1];W[b1];B[a2])")
    shown = str(tmp_path / "caf\ufffd.sgf")
    assert next(records.replay(os.fsdecode(name))).to_dict()["file"] == shown
    done = subprocess.run(_havhex("replay", "--format", "json", name), capture_output=True,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8", "LC_ALL": "C.UTF-8"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["file"] == shown
    out = os.path.join(folder, b"out.json")
    done = subprocess.run(_havhex("replay", "-j", "2", "--format", "json", "-o", out, name),
                          capture_output=True)
    assert done.returncode == 0, done.stderr
    with open(out, "rb") as stream:
        assert json.loads(stream.read().decode("utf-8"))["file"] == shown
    # Text output gives the name's own bytes (tests/cli/test_output_names.py).
    text = subprocess.run(_havhex("replay", "--quiet", name), capture_output=True)
    assert text.returncode == 0 and text.stdout.startswith(name + b" game 1")


def test_a_move_after_a_pass_that_the_boards_cannot_follow_says_so():
    replayed = _replayed("(;FF[4]GM[11]SZ[3]RE[B+];B[a1];W[pass];B[b2])")
    assert replayed.illegal == (2, "played out of turn (after a pass, which does not hand the "
                                   "turn over on the boards)")
    plain = _replayed("(;FF[4]GM[11]SZ[3]RE[B+];B[a1];B[b2])")
    assert plain.illegal == (2, "played out of turn")
