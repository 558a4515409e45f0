"""``havhex havannah|hex|replay --scheduler`` and the bag API on a real
LocalCluster: the same output, byte for byte, as the local run, the same
faults, and complete output when a worker dies mid-run."""
import json
import os
import random
import signal
import time
from pathlib import Path

import pytest

import needs
from conftest import one_error_line, run_cli

needs.module("distributed", need="dask")
needs.module("dask.bag", need="dask")

import havhex.dask as hdask  # noqa: E402
from havhex.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT.parent / "shared" / "records" / "littlegolem-havannah"


@pytest.fixture(scope="module")
def cluster():
    distributed = needs.module("distributed", need="dask")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as local:
        yield local


@pytest.fixture(scope="module")
def client(cluster):
    distributed = needs.module("distributed", need="dask")
    with distributed.Client(cluster, set_as_default=False) as connected:
        yield connected


def havannah_input(rng, cases, size_range=(2, 9), moves_range=(0, 60), spacing=None):
    """A random Havannah input: random distinct cells (wins of every kind
    come up on small boards).  ``spacing(rng)`` gives the white space
    between a move's x and y and after it (default one space, one line feed)."""
    lines = [f"{cases}"]
    pieces = []
    for _ in range(cases):
        size = rng.randint(*size_range)
        last = 2 * size - 1
        cells = [(x, y) for x in range(1, last + 1) for y in range(1, last + 1)
                 if abs(x - y) <= size - 1]
        rng.shuffle(cells)
        moves = cells[:rng.randint(moves_range[0], min(moves_range[1], len(cells)))]
        lines.append(f"{size} {len(moves)}")
        for x, y in moves:
            if spacing is None:
                lines.append(f"{x} {y}")
            else:
                between, after = spacing(rng)
                pieces.append(f"{x}{between}{y}{after}")
        if spacing is not None and pieces:
            lines[-1] += "\n" + "".join(pieces)
            pieces = []
    return "\n".join(lines) + "\n"


def hex_input(rng, cases, size_range=(1, 9)):
    """A random Hex input: boards with stone counts that make every answer
    (wins, Nobody wins, Impossible) come up."""
    lines = [f"{cases}"]
    for _ in range(cases):
        n = rng.randint(*size_range)
        lines.append(str(n))
        cells = ["."] * (n * n)
        order = list(range(n * n))
        rng.shuffle(order)
        stones = rng.randint(0, n * n)
        for number, cell in enumerate(order[:stones]):
            cells[cell] = "R" if number % 2 == 0 else "B"
        if rng.random() < 0.1 and stones:
            cells[order[0]] = "B"       # often impossible counts
        lines += ["".join(cells[row * n:(row + 1) * n]) for row in range(n)]
    return "\n".join(lines) + "\n"


@pytest.fixture
def rng():
    return random.Random(15)


def run_main(args, capsys, output):
    """``havhex ARGS -o OUTPUT`` in this process: (status, bytes written or
    None, stderr)."""
    capsys.readouterr()
    if output.exists():
        output.unlink()
    status = main([*map(str, args), "-o", str(output)])
    err = capsys.readouterr().err
    return status, (output.read_bytes() if output.exists() else None), err


def same_as_local(args, cluster, capsys, tmp_path, extra=()):
    local = run_main(args, capsys, tmp_path / "local.out")
    remote = run_main([*args, "--scheduler", cluster.scheduler_address, *extra], capsys,
                      tmp_path / "remote.out")
    assert remote == local
    return local


@pytest.fixture
def small_units(monkeypatch):
    """Runs of a few kilobytes, so that small test files are cut."""
    monkeypatch.setattr(hdask, "UNIT_BYTES_MIN", 2000)
    monkeypatch.setattr(hdask, "UNIT_BYTES_MAX", 4000)


def range_tasks(path, game):
    plan = list(hdask.plan_judge([str(path)], game, False, 2))
    return sum(1 for item in plan if item[0] == "task"
               for _, unit in item[1] if unit[0] == "range")


# ---------------------------------------------------------------------------
# Identical output
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["havannah", "hex"])
@pytest.mark.parametrize("output_format", ["text", "json"])
@pytest.mark.parametrize("ship", [False, True])
def test_conformance_files_give_the_local_output(game, output_format, ship, cluster, capsys,
                                                 tmp_path, conformance_dir):
    files = sorted((conformance_dir / game).glob("*.in"))
    assert files
    status, written, err = same_as_local(
        [game, "--format", output_format, *files], cluster, capsys, tmp_path,
        ["--ship"] if ship else [])
    assert status == 0 and err == "" and written


@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_generated_inputs_give_the_local_output(game, cluster, capsys, tmp_path, rng):
    make = havannah_input if game == "havannah" else hex_input
    files = []
    for number in range(12):
        files.append(tmp_path / f"in{number}.txt")
        files[-1].write_text(make(rng, rng.randint(1, 30)))
    for output_format in ("text", "json"):
        status, written, _ = same_as_local([game, "--format", output_format, *files],
                                           cluster, capsys, tmp_path)
        assert status == 0 and written.count(b"\n") >= 12


@pytest.mark.parametrize("game", ["havannah", "hex"])
@pytest.mark.parametrize("output_format", ["text", "json"])
def test_a_large_file_judged_in_byte_ranges_gives_the_local_output(
        game, output_format, small_units, cluster, capsys, tmp_path, rng):
    path = tmp_path / "large.in"
    path.write_text(havannah_input(rng, 300) if game == "havannah" else hex_input(rng, 300))
    assert range_tasks(path, game) > 5
    small = tmp_path / "small.in"
    small.write_text("1\n2 3\n1 1\n2 2\n1 2\n" if game == "havannah" else "1\n1\nR\n")
    status, written, err = same_as_local([game, "--format", output_format, small, path, small],
                                         cluster, capsys, tmp_path, ["--ship"])
    assert status == 0 and err == ""
    assert written.count(b"\n") == 302


def test_byte_ranges_follow_tokens_not_lines(small_units, cluster, capsys, tmp_path, rng):
    # Moves split over lines, several to a line, tabs: the runs still start
    # where the judge's cases start.
    def spacing(rng):
        return rng.choice([" ", "\n", "\t", "  "]), rng.choice(["\n", " ", "\n\n", "\t"])

    path = tmp_path / "ragged.in"
    path.write_text(havannah_input(rng, 200, spacing=spacing))
    assert range_tasks(path, "havannah") > 5
    status, _, _ = same_as_local(["havannah", path], cluster, capsys, tmp_path)
    assert status == 0


def test_a_file_with_carriage_returns_is_judged_whole(small_units, cluster, capsys, tmp_path,
                                                      rng):
    # The judges count "\r\n" and a lone "\r" as line ends: such a file is
    # one unit, judged as the local run judges it.
    path = tmp_path / "crlf.in"
    path.write_bytes(havannah_input(rng, 200).replace("\n", "\r\n").encode())
    assert range_tasks(path, "havannah") == 0
    status, written, _ = same_as_local(["havannah", path], cluster, capsys, tmp_path)
    assert status == 0 and written.count(b"\n") == 200
    # From the middle on: runs up to the first "\r", then one run.
    text = havannah_input(rng, 200)
    middle = text.index("\n", len(text) // 2) + 1
    path.write_bytes((text[:middle] + text[middle:].replace("\n", "\r\n")).encode())
    assert range_tasks(path, "havannah") > 3
    status, written, _ = same_as_local(["havannah", "--format", "json", path], cluster,
                                       capsys, tmp_path)
    assert status == 0 and written.count(b"\n") == 200


# ---------------------------------------------------------------------------
# Faults: the local message, nothing written
# ---------------------------------------------------------------------------

def havannah_case_lines(lines):
    """Index of each case's header line (one move a line)."""
    heads, at = [], 1
    while at < len(lines) and lines[at]:
        heads.append(at)
        at += 1 + int(lines[at].split()[1])
    return heads


def havannah_faults(rng):
    lines = havannah_input(rng, 120, size_range=(4, 9), moves_range=(5, 40)).split("\n")
    heads = havannah_case_lines(lines)
    late = heads[90]
    faulty = {}

    def variant(name, change):
        copy = list(lines)
        change(copy)
        faulty[name] = "\n".join(copy)

    variant("duplicate", lambda c: c.__setitem__(late + 4, c[late + 2]))
    variant("off-board", lambda c: c.__setitem__(late + 3, "99 99"))
    variant("bad token", lambda c: c.__setitem__(late + 2, "1 y"))
    variant("bad size", lambda c: c.__setitem__(late, "1 " + c[late].split()[1]))
    variant("more moves", lambda c: c.__setitem__(
        late, f"{c[late].split()[0]} {int(c[late].split()[1]) + 1}"))
    variant("fewer moves", lambda c: c.__setitem__(
        late, f"{c[late].split()[0]} {int(c[late].split()[1]) - 1}"))
    variant("trailing data", lambda c: c.append("7 7\n"))
    variant("T too large", lambda c: c.__setitem__(0, "121"))
    variant("T too small", lambda c: c.__setitem__(0, "119"))
    variant("early fault", lambda c: c.__setitem__(heads[3] + 1, "0 0"))
    faulty["carriage returns"] = "\r\n".join(lines).replace("1 1\r\n", "1 1\r\n1 1\r\n", 1)
    # Line feeds, then carriage returns from the middle on: runs up to the
    # first "\r", then the rest as one run, whose fault has the file's line.
    duplicate = faulty["duplicate"].split("\n")
    half = heads[60]
    faulty["late carriage returns"] = "\n".join(duplicate[:half]) + "\n" + \
        "\r\n".join(duplicate[half:])
    return faulty


def hex_faults(rng):
    lines = hex_input(rng, 150, size_range=(3, 9)).split("\n")
    heads, at = [], 1
    while at < len(lines) and lines[at]:
        heads.append(at)
        at += 1 + int(lines[at])
    late = heads[110]
    faulty = {}

    def variant(name, change):
        copy = list(lines)
        change(copy)
        faulty[name] = "\n".join(copy)

    variant("long row", lambda c: c.__setitem__(late + 2, c[late + 2] + "."))
    variant("bad character", lambda c: c.__setitem__(late + 1, "x" + c[late + 1][1:]))
    variant("size zero", lambda c: c.__setitem__(late, "0"))
    variant("missing row", lambda c: c.__delitem__(late + 1))
    faulty["carriage returns"] = faulty["long row"].replace("\n", "\r\n")
    return faulty


@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_a_bad_file_gives_the_local_message_and_writes_nothing(
        game, small_units, cluster, capsys, tmp_path, rng):
    good = tmp_path / "good.in"
    good.write_text(havannah_input(rng, 3) if game == "havannah" else hex_input(rng, 3))
    faults = havannah_faults(rng) if game == "havannah" else hex_faults(rng)
    for name, text in faults.items():
        bad = tmp_path / f"{name.replace(' ', '-')}.in"
        bad.write_text(text)
        for output_format in ("text", "json"):
            local = run_main([game, "--format", output_format, good, bad, good], capsys,
                             tmp_path / "local.out")
            assert local[0] == 1 and local[1] is None, (name, local)
            assert local[2].startswith(f"havhex: {bad}:"), (name, local)
            for ship in ([], ["--ship"]):
                remote = run_main([game, "--format", output_format, good, bad, good,
                                   "--scheduler", cluster.scheduler_address, *ship],
                                  capsys, tmp_path / "remote.out")
                assert remote == local, (name, output_format, ship)


def test_an_unreadable_input_gives_the_local_message(cluster, capsys, tmp_path):
    good = tmp_path / "good.in"
    good.write_text("1\n1\nR\n")
    for bad in (tmp_path / "missing.in", tmp_path):
        for ship in ([], ["--ship"]):
            status, written, err = same_as_local(["hex", good, bad], cluster, capsys,
                                                 tmp_path, ship)
            assert status == 1 and written is None and err.count("\n") == 1


def test_a_bad_file_from_the_command_line_prints_its_predecessors_then_one_line(
        cluster, tmp_path):
    good = tmp_path / "good.in"
    good.write_text("1\n1\nR\n")
    bad = tmp_path / "bad.in"
    bad.write_text("1\n2\nRR\nR\n")
    local = run_cli("hex", good, bad, good)
    remote = run_cli("hex", good, bad, good, "--scheduler", cluster.scheduler_address)
    assert remote.returncode == local.returncode == 1
    assert remote.stdout == local.stdout == b"Case #1: Red wins\n"
    assert remote.stderr == local.stderr and remote.stderr.count(b"\n") == 1


def test_standard_input_travels_to_the_workers(cluster, rng):
    text = havannah_input(rng, 20).encode()
    for args in (["havannah"], ["havannah", "-"], ["havannah", "--format", "json", "-"]):
        local = run_cli(*args, stdin=text)
        remote = run_cli(*args, "--scheduler", cluster.scheduler_address, stdin=text)
        assert (remote.returncode, remote.stdout, remote.stderr) == \
            (0, local.stdout, local.stderr)
    bad = text.replace(b"\n", b"\nx\n", 3)
    local = run_cli("havannah", stdin=bad)
    remote = run_cli("havannah", "--scheduler", cluster.scheduler_address, stdin=bad)
    assert remote.returncode == local.returncode == 1
    assert remote.stderr == local.stderr and remote.stderr.startswith(b"havhex: <stdin>:")


# ---------------------------------------------------------------------------
# replay
# ---------------------------------------------------------------------------

def test_replay_of_records_gives_the_local_output(cluster, capsys, tmp_path):
    collection = ROOT / "examples" / "hex-games.sgf"
    for output_format in ("text", "json"):
        status, written, err = same_as_local(["replay", "--format", output_format, collection],
                                             cluster, capsys, tmp_path)
        assert status == 0 and written and err.startswith("replayed 1 file")


def test_replay_takes_kind_and_max_cells_on_the_cluster(cluster, capsys, tmp_path):
    """--game and --max-cells reach the workers: a board beyond the bound is
    flagged at move 0 there as here, and the game of an .hgf on standard
    input is the one --game says."""
    record = tmp_path / "three.sgf"
    record.write_bytes(b"(;FF[4]GM[11]SZ[2];B[a1])\n(;FF[4]GM[11]SZ[3];B[a1])\n")
    for extra in (["--max-cells", "8"], []):
        status, written, err = same_as_local(["replay", *extra, record], cluster, capsys,
                                             tmp_path)
        assert status == 0 and (b"illegal move 0" in written) == bool(extra)
    hgf = b"(;FF[4]SZ[4]RE[B];W[d4];B[c3];W[resign])"
    local = run_cli("replay", "--game", "havannah", "-", stdin=hgf)
    remote = run_cli("replay", "--game", "havannah", "--scheduler", cluster.scheduler_address,
                     "-", stdin=hgf)
    assert (remote.returncode, remote.stdout) == (0, local.stdout)
    assert local.stdout.startswith(b"<stdin> game 1: havannah 4")


def test_replay_of_the_little_golem_records_gives_the_local_output(cluster, capsys, tmp_path):
    needs.shared("records", "littlegolem-havannah", need="records")
    for output_format in ("text", "json"):
        for ship in ([], ["--ship"]):
            status, written, err = same_as_local(
                ["replay", "--format", output_format, RECORDS], cluster, capsys, tmp_path, ship)
            assert status == 0 and err.startswith("replayed ")


def test_replay_of_a_large_collection_in_byte_ranges(monkeypatch, cluster, capsys, tmp_path):
    needs.shared("records", "littlegolem-havannah", need="records")
    monkeypatch.setattr(hdask, "REPLAY_UNIT_BYTES", 20000)
    collection = tmp_path / "all.hgf"
    collection.write_bytes(b"".join(path.read_bytes() for path in sorted(RECORDS.glob("*.hgf"))))
    for ship in (False, True):
        plan = list(hdask.plan_replay([str(collection)], ship, 2))
        assert len(plan) > 10
        status, written, err = same_as_local(["replay", "--format", "json", collection],
                                             cluster, capsys, tmp_path,
                                             ["--ship"] if ship else [])
        assert status == 0 and written.count(b"\n") > 1000


# ---------------------------------------------------------------------------
# The bag API
# ---------------------------------------------------------------------------

def json_lines(text):
    return [json.loads(line) for line in text.splitlines()]


def test_the_bag_holds_the_local_apis_records(small_units, client, tmp_path, rng,
                                              conformance_dir):
    from havhex import havannah, hex

    large = tmp_path / "large.in"
    large.write_text(havannah_input(rng, 150))
    files = sorted((conformance_dir / "havannah").glob("*.in")) + [large]
    local = [json.loads(json.dumps({"file": str(path), **explanation.to_dict()}))
             for path in files for explanation in havannah.iter_explain_file(path)]
    for ship in (False, True):
        bag = hdask.judge_files(files, "havannah", ship=ship)
        assert bag.npartitions > 3
        assert client.compute(bag).result() == local
        wins = bag.filter(lambda record: record["move"] is not None)
        assert client.compute(wins.count()).result() == sum(r["move"] is not None
                                                              for r in local)
    hex_files = sorted((conformance_dir / "hex").glob("*.in"))
    hex_local = [json.loads(json.dumps({"file": str(path), **explanation.to_dict()}))
                 for path in hex_files for explanation in hex.iter_explain_file(path)]
    assert client.compute(hdask.judge_files(hex_files, "hex")).result() == hex_local


def test_the_bag_writes_text_files_and_makes_a_dataframe(client, tmp_path, conformance_dir):
    files = sorted((conformance_dir / "hex").glob("*.in"))
    bag = hdask.judge_files(files, "hex")
    written = bag.map(json.dumps).to_textfiles(str(tmp_path / "part-*.jsonl"), compute=False)
    client.gather(client.compute(written))
    parts = sorted(tmp_path.glob("part-*.jsonl"), key=lambda p: int(p.stem.split("-")[1]))
    assert [json.loads(line) for part in parts for line in part.read_text().splitlines()] == \
        client.compute(bag).result()
    # The dask extra installs what to_dataframe() needs (docs/dask.md shows it).
    needs.module("dask.dataframe", need="dask")
    needs.module("pandas", need="dask")
    frame = bag.to_dataframe(meta={"file": str, "case": int, "answer": str})
    assert list(client.compute(frame).result()["case"]) == \
        [record["case"] for record in client.compute(bag).result()]


def test_the_bag_raises_the_first_fault(client, tmp_path):
    from havhex import InputError

    good = tmp_path / "good.in"
    good.write_text("1\n1\nR\n")
    bad = tmp_path / "bad.in"
    bad.write_text("2\n1\nR\n2\nRR\n")
    from havhex import hex

    with pytest.raises(InputError) as local:
        hex.judge_file(bad)
    with pytest.raises(InputError) as caught:
        client.compute(hdask.judge_files([good, bad], "hex")).result()
    assert type(caught.value) is InputError
    assert (caught.value.reason, caught.value.source, caught.value.line) == \
        (local.value.reason, str(bad), local.value.line)
    assert "input ends before row 2" in str(caught.value)


def test_the_bag_raises_the_first_fault_in_input_order(small_units, client, tmp_path, capsys):
    """The first file's fault comes last in time (a long case, then a bad
    move); the second file is missing and fails at once on its worker.
    The bag, like the command line, reports the first file's."""
    from havhex import InputError

    slow = tmp_path / "slow.in"
    case = long_havannah_case(300000)
    moves = int(case.split("\n", 1)[0].split()[1])
    slow.write_text("1\n" + case.replace(f" {moves}\n", f" {moves + 1}\n", 1)
                    + "\n0 0\n")
    missing = tmp_path / "missing.in"
    status, _, err = run_main(["havannah", slow, missing], capsys, tmp_path / "out.txt")
    assert status == 1 and err.startswith(f"havhex: {slow}:"), err
    for ship in (False, True):
        bag = hdask.judge_files([slow, missing], "havannah", ship=ship)
        assert bag.npartitions == 2
        with pytest.raises(InputError) as caught:
            client.compute(bag).result()
        assert f"havhex: {caught.value}\n" == err
        # Each partition from the first fault on raises it.
        with pytest.raises(InputError) as later:
            client.compute(bag.to_delayed()[1]).result()
        assert str(later.value) == str(caught.value)


def _release_readers(fifo):
    """Let a reader blocked opening ``fifo`` go (on the old code)."""
    try:
        descriptor = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return                          # nobody is blocked on it
    os.close(descriptor)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs: POSIX only")
@pytest.mark.parametrize("kind", ["hex file", "hex run", "record file", "record run"])
def test_a_file_that_became_a_fifo_after_planning_fails_that_file(kind, small_units, client,
                                                                    monkeypatch, tmp_path, rng):
    """The plan saw a regular file; by the time a worker opens it, it is a
    FIFO with no writer.  The worker fails that file at once (it would
    block opening it, and stay blocked for the next run)."""
    from havhex import InputError

    monkeypatch.setattr(hdask, "REPLAY_UNIT_BYTES", 4000)
    changed = tmp_path / ("changed.in" if kind.startswith("hex") else "changed.sgf")
    if kind == "hex file":
        changed.write_text("1\n1\nR\n")
    elif kind == "hex run":
        changed.write_text(hex_input(rng, 400))
    else:
        games = (ROOT / "examples" / "hex-games.sgf").read_bytes()
        changed.write_bytes(games * (1 if kind == "record file" else 40))
    if kind.startswith("hex"):
        bag = hdask.judge_files([changed], "hex")
        assert (range_tasks(changed, "hex") > 0) == (kind == "hex run")
    else:
        bag = hdask.replay_files([changed])
        assert (bag.npartitions > 1) == (kind == "record run")
    changed.unlink()
    os.mkfifo(changed)
    try:
        with pytest.raises(InputError) as caught:
            client.compute(bag).result(timeout=60)
    finally:
        _release_readers(changed)
    assert caught.value.source == str(changed)
    assert "not a regular file" in caught.value.reason


@pytest.mark.parametrize("one", ["x.in", b"x.in", Path("x.in")])
def test_one_path_instead_of_a_list_is_a_type_error(one):
    with pytest.raises(TypeError, match="list of paths"):
        hdask.judge_files(one, "hex")
    with pytest.raises(TypeError, match="list of paths"):
        hdask.replay_files(one)


def test_the_replay_bag_holds_the_commands_records(client, tmp_path, capsys):
    collection = ROOT / "examples" / "hex-games.sgf"
    status, written, _ = run_main(["replay", "--format", "json", collection], capsys,
                                  tmp_path / "local.out")
    assert status == 0
    assert client.compute(hdask.replay_files([collection])).result() == \
        json_lines(written.decode())


# ---------------------------------------------------------------------------
# Reaching the scheduler
# ---------------------------------------------------------------------------

def test_an_unreachable_scheduler_is_one_line_and_exit_1_quickly(tmp_path):
    import socket

    with socket.socket() as probe:       # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    output = tmp_path / "out.txt"
    started = time.monotonic()
    done = run_cli("hex", "-o", output, "--scheduler", f"tcp://127.0.0.1:{port}",
                   ROOT / "examples" / "hex.in")
    elapsed = time.monotonic() - started
    line = one_error_line(done).rstrip("\n")
    assert line.startswith(f"havhex: cannot reach the Dask scheduler at tcp://127.0.0.1:{port}")
    assert not output.exists()
    assert elapsed < hdask.CONNECT_TIMEOUT + 20


class _Server:
    """A TCP server on a free port of this machine, in a thread: an HTTP
    server (says nothing until asked, as the dashboard beside a scheduler)
    or one that answers any connection with ``greeting`` (as a proxy)."""

    def __init__(self, greeting=None):
        import http.server
        import socketserver
        import threading

        if greeting is None:
            self.server = http.server.ThreadingHTTPServer(
                ("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
        else:
            class Greeter(socketserver.BaseRequestHandler):
                def handle(self):
                    try:
                        self.request.sendall(greeting)
                        self.request.recv(1 << 16)
                    except OSError:
                        pass

            self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Greeter)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return f"tcp://127.0.0.1:{self.server.server_address[1]}"

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("greeting", [None, b"HTTP/1.1 502 Bad Gateway\r\n\r\n",
                                      b"\x08" + bytes(7) + b"garbage!", b"\x00" * 64])
def test_a_server_that_is_not_a_scheduler_is_one_line_and_exit_1_quickly(greeting, tmp_path):
    output = tmp_path / "out.txt"
    with _Server(greeting) as address:
        started = time.monotonic()
        done = run_cli("hex", "-o", output, "--scheduler", address,
                       ROOT / "examples" / "hex.in")
        elapsed = time.monotonic() - started
    line = one_error_line(done)
    assert line.startswith(f"havhex: cannot reach the Dask scheduler at {address}: "), line
    assert "Exception ignored" not in line and "EiB" not in line
    assert not output.exists()
    assert elapsed < hdask.CONNECT_TIMEOUT + 20


def test_the_probe_passes_a_real_scheduler(cluster):
    from havhex._cluster.client import probe

    probe(cluster.scheduler_address)
    probe(cluster.scheduler_address.replace("tcp://", ""))


def test_the_client_asks_the_numerical_libraries_for_one_thread(cluster, monkeypatch):
    """The command line's client sends tasks and takes results: the thread
    pools of the libraries Dask's import loads would take the workers'
    cores as they start.  A count the user set is kept."""
    from havhex._cluster.client import connect

    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(name, "")        # so that the session's value comes back after
        monkeypatch.delenv(name)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    client, _ = connect(cluster.scheduler_address)
    client.close()
    assert os.environ["OMP_NUM_THREADS"] == os.environ["MKL_NUM_THREADS"] == "1"
    assert os.environ["OPENBLAS_NUM_THREADS"] == "3"


def test_a_local_cluster_for_the_run(tmp_path):
    files = [ROOT / "examples" / "hex.in", ROOT / "examples" / "hex.in"]
    local = run_cli("hex", "--format", "json", *files)
    remote = run_cli("hex", "--format", "json", "--cluster", "local:2", *files)
    assert (remote.returncode, remote.stdout, remote.stderr) == (0, local.stdout, b"")


# ---------------------------------------------------------------------------
# A worker killed mid-run (last: the cluster restarts it)
# ---------------------------------------------------------------------------

def long_havannah_case(moves, size=100000):
    """One case of ``moves`` distinct cells in a scrambled order (no win:
    the cells are far from the corners and edges... or not; the answer is
    whatever the judge says, the same both ways)."""
    width = 1000
    step = 7919                      # prime, so i -> i * step % moves is a permutation
    lines = [f"{size} {moves}"]
    for i in range(moves):
        j = i * step % moves
        x = size // 2 + j // width
        lines.append(f"{x} {x + j % width - width // 2}")
    return "\n".join(lines)


def long_inputs(folder, copies=12):
    """``copies`` names of one input of three long cases (hard links)."""
    case = long_havannah_case(300000)
    first = folder / "long0.in"
    first.write_text(f"3\n{case}\n{case}\n{case}\n")
    files = [first]
    for number in range(1, copies):
        files.append(folder / f"long{number}.in")
        os.link(first, files[-1])
    return files


def _children(pid):
    import subprocess

    listed = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)],
                            capture_output=True, text=True).stdout
    return [int(word) for word in listed.split()]


def _cpu_seconds(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(") ", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (FileNotFoundError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
@pytest.mark.parametrize("phase", ["starting", "judging"])
@pytest.mark.parametrize("signal_name, status", [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_stops_a_local_cluster_run_at_once(phase, signal_name, status, tmp_path):
    """A signal while the cluster starts or while its workers judge: the
    run stops, its workers gone, nothing written, exit 130 (143) and no
    traceback, well before the four seconds Dask's close would wait for a
    busy worker (or the ten its exit hook waits for a cluster starting)."""
    import subprocess
    import sys

    files = long_inputs(tmp_path, copies=100)
    output = tmp_path / "out.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "havhex", "havannah", "--format", "json", "--cluster", "local:2",
         "-o", str(output), *map(str, files)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while len(_children(process.pid)) < 2 and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.1)
        if phase == "judging":
            while _cpu_seconds(_children(process.pid)) < 2 and time.monotonic() < deadline:
                assert process.poll() is None, process.communicate()
                time.sleep(0.1)
        workers = _children(process.pid)
        assert process.poll() is None, "the run ended before the signal"
        sent = time.monotonic()
        process.send_signal(getattr(signal, signal_name))
        out, err = process.communicate(timeout=60)
        elapsed = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert (process.returncode, out) == (status, b""), err.decode()
    assert b"Traceback" not in err and err.count(b"\n") <= 1, err.decode()
    assert not output.exists() and not list(tmp_path.glob("*.tmp*"))
    assert elapsed < 3, elapsed
    time.sleep(0.5)
    for pid in workers:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                assert stat.read().split(") ")[1][0] in "ZX", f"worker {pid} still runs"
        except FileNotFoundError:
            pass


def test_a_local_cluster_leaves_no_tracker_warning_after_an_interrupted_cleanup():
    """A Ctrl-C between the standard library's unlink of a semaphore and
    its unregistering (reproduced here by unlinking one directly) makes
    multiprocessing's resource tracker warn about a "leaked" semaphore at
    the exit, on the stderr of a local-cluster run; the tracker a local
    cluster starts keeps that to itself."""
    import subprocess
    import sys

    script = (
        "import multiprocessing, os\n"
        "from _multiprocessing import sem_unlink\n"
        "from havhex._cluster.client import connect\n"
        "client, cluster = connect(local_workers=1)\n"
        "lock = multiprocessing.get_context('spawn').Lock()\n"
        "sem_unlink(lock._semlock.name)\n"
        "os._exit(0)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, b""), done.stderr.decode()


def run_killing_a_worker(client, address, files, output):
    """``havhex havannah -o OUTPUT --scheduler ADDRESS FILES`` in a child
    process, killing (SIGKILL) the first worker seen busy with its tasks;
    returns (status, stdout, stderr)."""
    import subprocess
    import sys

    pids = client.run(os.getpid)
    run = subprocess.Popen([sys.executable, "-m", "havhex", "havannah", "-o", str(output),
                            "--scheduler", address, *map(str, files)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and time.monotonic() < deadline and run.poll() is None:
        busy = [worker for worker, tasks in client.processing().items() if tasks]
        if busy:
            time.sleep(0.2)          # into the task's judging
            killed = pids[busy[0]]
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.02)
    out, err = run.communicate(timeout=300)
    # None: the run ended before a worker was seen busy (the client judges
    # files itself while it connects, and on a loaded machine it may judge
    # them all): the caller runs it again.
    return None if killed is None else (run.returncode, out, err)


def test_a_worker_killed_mid_run_leaves_complete_identical_output(client, cluster, tmp_path):
    files = long_inputs(tmp_path, copies=24)
    local = run_cli("havannah", *files)
    assert local.returncode == 0 and local.stdout.count(b"\n") == 72
    output = tmp_path / "out.txt"
    for _ in range(3):
        done = run_killing_a_worker(client, cluster.scheduler_address, files, output)
        if done is not None:
            break
    assert done is not None, "three runs ended before a worker could be killed"
    assert done == (0, b"", b"")
    assert output.read_bytes() == local.stdout


def test_a_task_dask_gives_up_on_is_one_line_and_nothing_written(tmp_path):
    # With no retry allowed, the first worker lost with a task makes Dask
    # give up on it: the run says so in one line, and writes nothing.
    import dask
    import distributed

    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     dashboard_address=":0") as local, \
            distributed.Client(local, set_as_default=False) as connected:
        output = tmp_path / "out.txt"
        # Enough files that the cluster's share (after those the client
        # judges while it connects) keeps both workers busy for a while.
        done = run_killing_a_worker(connected, local.scheduler_address,
                                    long_inputs(tmp_path, copies=32), output)
    assert done is not None, "the run ended before a worker could be killed"
    status, out, err = done
    assert (status, out) == (1, b"")
    assert err.startswith(b"havhex: the Dask cluster could not finish the run: KilledWorker")
    assert err.count(b"\n") == 1 and b"Traceback" not in err
    assert not output.exists()
