"""Fuzzing the game-record readers: havhex.records.read and replay.

Whatever the bytes (noise, records mutated by a careless or hostile writer,
deep nesting, huge numbers, billion-cell sizes, unterminated values), each
reading either yields games or raises one clean :class:`havhex.InputError`:
never another exception, never a crash, never a hang, never memory beyond
what the content needs.  To hold the last three to account, the inputs are
read in a worker process with its address space capped (on Linux, outside
the sanitizer build) and each example under a time limit; a worker that
dies, runs out of memory or overruns fails the example.

Every reading also checks what it yields: games whose attributes can all be
read, that ``records.write`` writes and reads back the same, replays whose
JSON record has the documented keys, and read and replay agreeing on the
number of games or on the fault.  ``HAVHEX_FUZZ_EXAMPLES`` sets the number
of examples (see fuzzing.py).
"""
import json
import os
import select
import struct
import subprocess
import sys

import pytest

from conftest import SANITIZED
from sgf_names import column_letters
from fuzzing import EXAMPLES, MAX_MESSAGE, SETTINGS, bytes_mutated, given, settings, st

# The worker's address space: the interpreter and the package take some
# 100 MB of it; the inputs here name boards of at most a few million cells,
# so a reader that needs more is holding what the content does not call for.
MEMORY_CAP = 1 << 30
EXAMPLE_SECONDS = 120         # per example, every reading of it together
READINGS = (("read", None, None), ("read", "hex", None), ("read", "havannah", None),
            ("replay", None, "official"), ("replay", "havannah", "official"),
            ("replay", "havannah", "contest"), ("replay", "hex", "official"))

WORKER = r'''
import hashlib, io, json, os, struct, sys
cap = int(sys.argv[1])
if cap:
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
from havhex import InputError, records

REPLAY_KEYS = {"game", "kind", "size", "moves", "win", "recorded", "end", "flags"}
FLAGS = {"played-on", "result-disagrees", "illegal", "no-result"}
ENDS = {"structure", "resign", "forfeit", "none"}
ROUND_TRIP_BYTES = 200000      # the writer's round trip on inputs up to this size


def same_games(first, second):
    # The writer adds FF[4] (and GM[11] to Hex) where a root has none, and
    # leaves out properties whose names hold no capital letter.
    def facts(game):
        properties = {k: v for k, v in game.properties.items()
                      if k not in ("FF", "GM") and k.isalpha() and k.isupper()}
        return (game.game, game.size, game.moves, game.setup, game.result, game.recorded,
                properties)
    return len(first) == len(second) and all(facts(a) == facts(b) for a, b in zip(first, second))


def fault(error, when):
    return [when, str(error), error.line, error.reason, error.source]


def games_of(data, game):
    # Games are counted and digested one by one (a list of a million would
    # weigh on the worker's memory, not the reader's).
    digest = hashlib.sha1()
    count = 0
    kept = [] if len(data) <= ROUND_TRIP_BYTES else None
    try:
        games = records.read(data, game=game)
    except InputError as error:
        return fault(error, "fault")
    for g in games:
        (g.source, g.index, g.line, g.moves, g.setup, g.result, g.recorded, g.properties, repr(g))
        digest.update(json.dumps([g.game, g.size]).encode())
        count += 1
        if kept is not None:
            kept.append(g)
    if kept:
        written = io.BytesIO()          # bytes in each game's charset
        records.write(kept, written)
        again = list(records.read(written.getvalue(), game="havannah"))
        if not same_games(again, kept):
            raise AssertionError("records.write then read gives other games")
    return ["games", [count, digest.hexdigest()]]


def replays_of(data, game, rule):
    digest = hashlib.sha1()
    count = 0
    try:
        replays = records.replay(data, rule=rule, game=game)
    except InputError as error:
        return fault(error, "fault")
    for r in replays:
        record = r.to_dict()
        json.dumps(record)
        problems = []
        if not REPLAY_KEYS <= set(record):
            problems.append(f"keys {sorted(REPLAY_KEYS - set(record))} missing")
        elif not set(record["flags"]) <= FLAGS or record["end"] not in ENDS:
            problems.append("unknown flags or end")
        elif record["win"] is not None and not (record["win"]["player"] in ("B", "W")
                                                and 1 <= record["win"]["move"] <= record["moves"]):
            problems.append("a win outside the moves")
        if problems:
            raise AssertionError(f"replay record {record}: {problems}")
        digest.update(json.dumps([record["kind"], record["size"]]).encode())
        count += 1
    return ["replays", [count, digest.hexdigest()]]


def reading(data, how, game, rule):
    # A fault before the first game is the file's (its syntax); a fault while
    # the games are read or replayed is one game's.
    try:
        if how == "read":
            return games_of(data, game)
        return replays_of(data, game, rule)
    except InputError as error:
        return fault(error, "game fault")
    except BaseException as error:
        return ["error", type(error).__name__, repr(error)[:400]]


out = sys.stdout.buffer
source = sys.stdin.buffer
readings = json.loads(sys.argv[2])
while True:
    head = source.read(4)
    if len(head) < 4:
        break
    (size,) = struct.unpack("<I", head)
    data = source.read(size)
    answers = [reading(data, how, game, rule) for how, game, rule in readings]
    out.write(json.dumps(answers).encode() + b"\n")
    out.flush()
'''


class Worker:
    """A process that reads the inputs it is sent, every way of READINGS."""

    def __init__(self):
        cap = 0 if SANITIZED or not sys.platform.startswith("linux") else MEMORY_CAP
        self.process = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(cap), json.dumps(READINGS)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})

    def ask(self, data):
        """The outcome of each reading of ``data``; fails the test on a crash
        or a hang (and leaves the worker dead, for a new one to start)."""
        try:
            self.process.stdin.write(struct.pack("<I", len(data)) + data)
            self.process.stdin.flush()
        except BrokenPipeError:
            pass
        ready, _, _ = select.select([self.process.stdout], [], [], EXAMPLE_SECONDS)
        if not ready:
            self.stop()
            pytest.fail(f"no answer in {EXAMPLE_SECONDS} s (a hang?) for {shown(data)}")
        line = self.process.stdout.readline()
        if not line:
            self.process.wait()
            error = self.process.stderr.read().decode(errors="replace")[-2000:]
            pytest.fail(f"the worker died (status {self.process.returncode}) on "
                        f"{shown(data)}:\n{error}")
        return json.loads(line)

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            stream.close()


@pytest.fixture(scope="module")
def worker():
    if sys.platform == "win32":
        pytest.skip("the worker's time limit waits on a pipe with select(), which Windows lacks")
    box = {}

    def get():
        if "worker" not in box or not box["worker"].alive():
            box["worker"] = Worker()
        return box["worker"]

    yield get
    if "worker" in box:
        box["worker"].stop()


def shown(data):
    return repr(data[:300]) + (f"... ({len(data)} bytes)" if len(data) > 300 else "")


def line_count(data):
    # The readers count lines by their LF bytes.
    return 1 + data.count(b"\n")


def check(data, answers):
    """Every reading gave games or one clean fault; read and replay agree."""
    by_reading = dict(zip(READINGS, answers))
    for (how, game, rule), answer in by_reading.items():
        where = f"{how}(game={game!r}, rule={rule!r}) of {shown(data)}"
        assert answer[0] != "error", f"{where}: {answer[1]}: {answer[2]}"
        if answer[0] in ("fault", "game fault"):
            text, line, reason, source = answer[1:]
            assert "\n" not in text and "\r" not in text and text.isprintable(), (where, text)
            assert len(text) <= MAX_MESSAGE, (where, text[:200])
            assert reason and source == "<bytes>", (where, text)
            assert isinstance(line, int) and 1 <= line <= line_count(data), (where, text)
            assert text == f"{source}:{line}: {reason}", (where, text)
    for game in (None, "havannah", "hex"):
        read = by_reading[("read", game, None)]
        replayed = by_reading[("replay", game, "official")]
        if read[0] == "fault":
            assert replayed == read, f"read faults but replay gives {replayed}: {shown(data)}"
        elif read[0] == "games" and replayed[0] == "replays":
            # The same number of games, of the same kinds and sizes.
            assert replayed[1] == read[1], shown(data)


def fuzz(worker, data):
    check(data, worker().ask(data))


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

# Sizes: small boards, and sizes so far past every limit that a mutation
# (a digit lost) leaves them there.  The boards in between are legal but take
# up to gigabytes, which is what they need: test_size_limits checks the
# limits themselves.
SIZES = ("1", "2", "3", "5", "8", "11", "19", "2:7", "7:2", "30:3", "1:1", "0", "-1", "",
         " 5 ", "05", "3:", ":3", "3:4:5", "a", "11x11", "1e3", "999999999999",
         "1000000000000:1", "1:1000000000000", "99999999:99999999", "4294967297",
         "18446744073709551617", "9" * 300, "1:" + "9" * 40)
VALUES = ("a1", "A1", "k11", "aa3", "zz1", "aaa1", "a0", "a-1", "a01", "1a", "a", "1", "",
          " ", "a 1", "swap", "swap-pieces", "SWAP-SIDES", "resign", "forfeit", "pass", "tt",
          "a" * 60 + "1", "a" + "9" * 60, "z" * 20 + "9" * 20, "\x00", "\xe9", "a1\x00")
PROPERTIES = ("FF[4]", "FF[3]", "GM[11]", "GM[1]", "GM[]", "GM[011]", "RU[LG]", "RE[B+]",
              "RE[W+Resign]", "RE[B]", "RE[W]", "RE[0]", "RE[?]", "RE[]", "CA[UTF-8]",
              "CA[ISO-8859-1]", "CA[nonsense]", "PB[Jos\xe9]", "PW[a\\]b]", "C[x\\\\]",
              "AB[a1][b2]", "AW[c3]", "AB[zz99]", "AE[a1]", "PL[W]", "PL[B]", "SO[littlegolem]",
              "XX[1][2][3]", "Bad[1]", "b[a1]")


@st.composite
def game_trees(draw):
    """A game tree with a root, a main line and maybe variations, as text."""
    root = draw(st.lists(st.sampled_from(PROPERTIES), max_size=5))
    if draw(st.integers(0, 4)):
        root.append(f"SZ[{draw(st.sampled_from(SIZES))}]")
    size = draw(st.integers(1, 12))
    nodes = []
    for _ in range(draw(st.integers(0, 12))):
        letter = draw(st.sampled_from("BW"))
        if draw(st.integers(0, 3)):
            value = f"{column_letters(draw(st.integers(0, size)))}{draw(st.integers(0, size + 1))}"
        else:
            value = draw(st.sampled_from(VALUES))
        extra = draw(st.sampled_from(("", "", "", "C[hm]", "BL[30]", "LB[a1:x]")))
        nodes.append(f";{letter}[{value}]{extra}")
    text = f"(;{''.join(root)}{''.join(nodes)}"
    for _ in range(draw(st.integers(0, 2))):
        text += "(" + draw(game_trees_small()) + ")"
    return text + ")"


@st.composite
def game_trees_small(draw):
    moves = draw(st.lists(st.sampled_from(VALUES), max_size=3))
    return "".join(f";{draw(st.sampled_from('BW'))}[{value}]" for value in moves) or ";"


@st.composite
def records(draw):
    """A collection of game trees, then mutated: bytes changed, brackets and
    parentheses added or taken away, cut short, junk inserted."""
    trees = draw(st.lists(game_trees(), min_size=0, max_size=4))
    separator = draw(st.sampled_from(("", "\n", "\r\n", " \n\t", "\r")))
    data = bytearray(separator.join(trees).encode("latin-1"))
    if draw(st.integers(0, 5)) == 0:
        data[0:0] = b"\xef\xbb\xbf"
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(data)))
        kind = draw(st.integers(0, 5))
        if kind == 0:
            data[at:at] = draw(st.sampled_from((b"(", b")", b"[", b"]", b";", b"\\", b"((((", b"))",
                                                b"[[", b"]]", b"(;", b";;", b"\\]")))
        elif kind == 1 and data:
            del data[min(at, len(data) - 1)]
        elif kind == 2:
            del data[at:]
        elif kind == 3:
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif kind == 4:
            data[at:at] = draw(st.sampled_from((b"9" * 40, b"(;GM[11]SZ[999999999])",
                                                b"(;SZ[4];W[a1])", b"\x00", b"\xff\xfe")))
        else:
            data[at:at] = draw(st.sampled_from((b"(", b";", b"B[a1]"))) * draw(
                st.sampled_from((2, 10, 1000)))
    return bytes_mutated(draw, bytes(data))


def raw_bytes():
    prefixes = st.sampled_from((b"", b"(", b"(;", b"(;FF[4]GM[11]SZ[11]", b"(;FF[4]SZ[5]RU[LG]",
                                b"(;GM[11];B[", b"\xef\xbb\xbf(;"))
    noise = st.one_of(st.binary(max_size=300),
                      st.text(alphabet="()[];\\BWGMSZ019az:+- \n\r\t\x00", max_size=300)
                      .map(lambda text: text.encode()))
    return st.tuples(prefixes, noise).map(lambda pair: pair[0] + pair[1])


# ---------------------------------------------------------------------------
# The tests
# ---------------------------------------------------------------------------

@settings(max_examples=max(1, EXAMPLES), **SETTINGS)
@given(data=records())
def test_mutated_records(worker, data):
    fuzz(worker, data)


@settings(max_examples=max(1, EXAMPLES), **SETTINGS)
@given(data=raw_bytes())
def test_raw_bytes(worker, data):
    fuzz(worker, data)


@settings(max_examples=max(1, EXAMPLES // 3), **SETTINGS)
@given(data=st.lists(game_trees(), min_size=1, max_size=3).map(
    lambda trees: "\n".join(trees).encode("latin-1")))
def test_unmutated_records(worker, data):
    fuzz(worker, data)


MILLION = 10 ** 6
MANY = 200000       # moves or values: each one costs the reader some Python work
GAMES = 50000       # a game costs more (objects, a board each): ~0.1 ms a replay
HOSTILE = {
    "deep nesting": b"(" * MILLION + b";B[a1]" + b")" * MILLION,
    "deep nesting, then a game": b"(;GM[11]SZ[3]" + b"(;B[a1]" * MANY + b")" * MANY + b")",
    "deep nesting never closed": b"(;GM[11]SZ[3]" + b"(;" * MILLION,
    "closing parentheses": b")" * MILLION,
    "a billion columns": b"(;FF[4]GM[11]SZ[1000000000:1];B[a1])",
    "just too many cells": b"(;FF[4]GM[11]SZ[23171];B[a1])",
    "SZ[999999999]": b"(;FF[4]GM[11]SZ[999999999];B[a1])",
    "Havannah SZ[999999999]": b"(;FF[4]SZ[999999999];W[a1])",
    "a huge number of digits": b"(;FF[4]GM[11]SZ[" + b"9" * MILLION + b"];B[a1])",
    "a huge cell": b"(;FF[4]GM[11]SZ[11];B[" + b"z" * MILLION + b"9" * MILLION + b"])",
    "an unterminated value": b"(;FF[4]GM[11]SZ[11];B[a1" + b"a" * MILLION,
    "an escape at the end": b"(;FF[4]GM[11]SZ[11]C[" + b"\\" * 999999,
    "escapes all the way": b"(;FF[4]GM[11]SZ[11]C[" + b"\\]" * MILLION + b"];B[a1])",
    "many games": b"(;GM[11]SZ[2];B[a1])" * GAMES,
    "many moves": b"(;GM[11]SZ[11]" + b";B[a1]" * MANY + b")",
    "many values": b"(;GM[11]SZ[11]AB" + b"[a1]" * MANY + b")",
    "many variations": b"(;GM[11]SZ[3];B[a1]" + b"(;W[b2])" * MILLION + b")",
    "binary junk": bytes(range(256)) * 4000,
    "NUL bytes": b"\x00" * MILLION,
    "a byte order mark alone": b"\xef\xbb\xbf",
    "nothing": b"",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_inputs(worker, name):
    fuzz(worker, HOSTILE[name])


def test_size_limits():
    """The largest boards are refused before any board is made: Hex's of
    more than 2**29 padded cells, Havannah's past MAX_BOARD_SIZE."""
    from havhex import InputError
    from havhex import records as reader
    from havhex.havannah.board import MAX_BOARD_SIZE

    for data, game in ((b"(;FF[4]GM[11]SZ[23171];B[a1])", None),
                       (b"(;FF[4]GM[11]SZ[2:178956970];B[a1])", None),
                       (b"(;FF[4]SZ[%d];W[a1])" % (MAX_BOARD_SIZE + 1), "havannah")):
        with pytest.raises(InputError, match="SZ"):
            list(reader.replay(data, game=game))


def test_a_collection_of_small_games_takes_memory_in_proportion():
    """A file of many tiny games is read game after game: what the reader
    holds at its peak grows at most a few times as fast as the file (a 2.5 MB
    file of 100,000 games may not cost a hundred megabytes).  tracemalloc
    counts what Python allocates, the same on every run."""
    import tracemalloc

    from havhex import records as reader

    data = b"(;FF[4]GM[11]SZ[2];B[a1])" * 100000
    list(reader.read(data[:1000]))                # modules loaded before the count
    tracemalloc.start()
    try:
        games = 0
        for _ in reader.read(data):
            games += 1
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert games == 100000
    assert peak <= 8 * len(data) + (16 << 20), \
        f"reading {len(data) / 2**20:.1f} MB of games took {peak / 2**20:.0f} MB at the peak"


@pytest.mark.parametrize("data", [b"(;GM[\x0011])", b"(;GM[1\n1])", b"(;GM[11]SZ[\n0])",
                                  b"(;GM[11]SZ[\t0:\r3])"])
def test_a_fault_shows_a_bad_value_on_one_printable_line(data):
    """A value quoted in a fault has its control bytes escaped: the fault is
    one printable line whatever the record holds."""
    from havhex import InputError
    from havhex import records as reader

    with pytest.raises(InputError) as caught:
        list(reader.read(data))
    text = str(caught.value)
    assert text.isprintable() and len(text) <= MAX_MESSAGE, repr(text)


def _capped():
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


@settings(max_examples=max(2, EXAMPLES // 12), **SETTINGS)
@given(data=st.one_of(records(), raw_bytes()), suffix=st.sampled_from((".sgf", ".hgf")),
       jobs=st.sampled_from((1, 2)))
def test_cli(tmp_path_factory, data, suffix, jobs):
    """``havhex replay`` prints what the API gives, or the API's fault as one
    line ``havhex: FILE:LINE: reason`` with exit status 1 and no output."""
    from havhex import InputError
    from havhex import records as reader

    path = tmp_path_factory.mktemp("cli") / f"record{suffix}"
    path.write_bytes(data)
    limit = _capped if sys.platform.startswith("linux") and not SANITIZED else None
    done = subprocess.run([sys.executable, "-m", "havhex", "replay", "--quiet", "--format", "json",
                           "-j", str(jobs), str(path)], capture_output=True, timeout=EXAMPLE_SECONDS,
                          preexec_fn=limit, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    try:
        wanted = [replay.to_dict() for replay in reader.replay(str(path))]
    except InputError as error:
        assert (done.returncode, done.stdout, done.stderr.decode(errors="replace")) == (
            1, b"", f"havhex: {error}\n"), shown(data)
        return
    assert done.returncode == 0 and done.stderr == b"", (done.stderr[-500:], shown(data))
    printed = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(printed) == len(wanted), shown(data)
    for got, record in zip(printed, wanted):
        assert got["file"] == str(path)
        assert {key: got[key] for key in record} == json.loads(json.dumps(record)), shown(data)


def _read_facts(source, game):
    """The games of a reading, or its fault: ``("games", [...])`` or
    ``("fault", line, reason)``, the games before a fault included."""
    from havhex import InputError
    from havhex import records as reader

    facts = []
    try:
        for g in reader.read(source, game=game, max_cells=None):
            facts.append((g.index, g.line, g.game, g.size, g.moves, g.properties))
    except InputError as error:
        return ("fault", facts, error.line, error.reason)
    return ("games", facts)


@settings(max_examples=max(2, EXAMPLES // 4), **SETTINGS)
@given(data=st.one_of(records(), raw_bytes()), piece=st.sampled_from((1, 2, 3, 5, 64, 4096)),
       game=st.sampled_from((None, "hex", "havannah")))
def test_a_file_read_in_pieces_reads_as_its_bytes(tmp_path_factory, data, piece, game):
    """A file is read in checked pieces: whatever the size of a piece, it
    gives the games of its bytes read whole, in order, and the same fault at
    the same line after them."""
    from havhex.records import game as game_module

    path = tmp_path_factory.mktemp("pieces") / "record.sgf"
    path.write_bytes(data)
    whole = _read_facts(data, game)
    saved = game_module.PIECE_BYTES
    game_module.PIECE_BYTES = piece
    try:
        pieces = _read_facts(path, game)
        loaded = game_module.load(path)[0]
    finally:
        game_module.PIECE_BYTES = saved
    assert pieces == whole, shown(data)
    # The bytes load gives (for -j and the cluster) read as the file does.
    assert _read_facts(loaded, game) == whole, shown(data)
