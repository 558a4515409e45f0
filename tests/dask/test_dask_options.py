"""The Dask options' usage errors, the case walk that cuts large inputs, and
InputError across a process boundary: none of these needs Dask installed."""
import pickle
import random
import sys

import pytest

from havhex import InputError, havannah, hex
from havhex._boundaries import HAVANNAH, HEX, case_cuts
from havhex.cli import main


def usage_error(cli, *args):
    done = cli(*args)
    assert done.returncode == 2 and done.stdout == b""
    lines = done.stderr.decode().splitlines()
    assert lines[0].startswith("usage: havhex ") and len(lines) == 2
    return lines[1]


@pytest.mark.parametrize("command", ["havannah", "hex", "replay"])
def test_the_dask_options_are_checked_as_usage_errors(cli, command):
    assert "--cluster: not allowed with argument --scheduler" in usage_error(
        cli, command, "--scheduler", "h:1", "--cluster", "local:2", "x")
    for value in ("local", "local:", "local:0", "remote:2", "local:-1", "local:x"):
        assert "argument --cluster: expected local:N" in usage_error(
            cli, command, "--cluster", value, "x")
    for value in ("garbage", "tcp://", "host:", ":8786", "tcp://host:port", "host:70000",
                  "://host:1", " host:1"):
        assert "argument --scheduler: expected a scheduler address" in usage_error(
            cli, command, "--scheduler", value, "x")
    assert "--ship: needs --scheduler or --cluster" in usage_error(cli, command, "--ship", "x")
    assert "-j/--jobs: not allowed with --scheduler" in usage_error(
        cli, command, "-j", "2", "--scheduler", "h:1", "x")
    assert "argument --scheduler: expected one argument" in usage_error(
        cli, command, "x", "--scheduler")
    shown = cli(command, "--help").stdout.decode()
    assert "--scheduler ADDRESS" in shown and "--cluster local:N" in shown and "--ship" in shown


def test_the_local_cluster_is_capped_at_four_workers_a_core(cli):
    import os

    limit = 4 * (os.cpu_count() or 1)
    for value in (f"local:{limit + 1}", "local:99999999999999999999", "local:" + "9" * 5000):
        line = usage_error(cli, "hex", "--cluster", value, "x")
        assert f"argument --cluster: expected local:N with N at most {limit} (4 per core)" \
            in line
        assert len(line) < 200
    # The limit itself is taken (the run then fails on the missing file, or
    # on a missing Dask: not a usage error).
    assert cli("hex", "--cluster", f"local:{limit}", "--ship", "/nonexistent/x").returncode == 1


def test_the_dask_extra_installs_what_the_docs_use():
    """docs/dask.md turns a bag into a dataframe: the extra brings pandas
    (dask's dataframe extra) besides the bag and distributed."""
    import importlib.metadata
    import re

    try:
        requires = importlib.metadata.requires("havhex") or []
    except importlib.metadata.PackageNotFoundError:     # run from a source tree
        pytest.fail("havhex is not installed (pip install -e .)")
    extra = [r for r in requires if re.search(r"""extra\s*==\s*["']dask["']""", r)]
    dask = [r for r in extra if re.match(r"dask\[", r)]
    assert dask, extra
    extras = set(re.match(r"dask\[([^\]]*)\]", dask[0]).group(1).replace(" ", "").split(","))
    assert {"bag", "dataframe"} <= extras
    assert any(r.startswith("distributed") for r in extra)


def test_without_dask_the_options_say_what_to_install(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "distributed", None)     # import fails
    output = tmp_path / "out.txt"
    assert main(["hex", "--scheduler", "h:1", "-o", str(output), "x"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("havhex: havhex.dask needs Dask") and 'havhex[dask]' in err
    assert err.count("\n") == 1 and not output.exists()


def test_input_error_pickles_with_its_parts():
    for error in (InputError("bad row", "in.txt", 7), InputError("no place"),
                  InputError("a file", "x.in")):
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is InputError
        assert (again.reason, again.source, again.line, str(again)) == \
            (error.reason, error.source, error.line, str(error))


# ---------------------------------------------------------------------------
# The case walk
# ---------------------------------------------------------------------------

def havannah_text(rng, cases, ragged):
    pieces = [f"{cases}\n"]
    for _ in range(cases):
        size = rng.randint(2, 6)
        last = 2 * size - 1
        cells = [(x, y) for x in range(1, last + 1) for y in range(1, last + 1)
                 if abs(x - y) <= size - 1]
        rng.shuffle(cells)
        moves = cells[:rng.randint(0, 25)]
        pieces.append(f"{size} {len(moves)}\n")
        for x, y in moves:
            if ragged:
                between = rng.choice([" ", "  ", "\t", "\n"])
                after = rng.choice([" ", "\n", "\x0b\n", "\x0c"])
                pieces.append(f"{x}{between}{y}{after}")
            else:
                pieces.append(f"{x} {y}\n")
    return "".join(pieces)


def hex_text(rng, cases, ragged):
    pieces = [f"{cases}\n"]
    for _ in range(cases):
        n = rng.randint(1, 6)
        pieces.append(str(n) + (rng.choice(["\n", " "]) if ragged else "\n"))
        for _ in range(n):
            row = "".join(rng.choice("RB..") for _ in range(n))
            pieces.append(row + (rng.choice([" ", "\n", "\n\n"]) if ragged else "\n"))
    return "".join(pieces)


@pytest.mark.parametrize("game", ["havannah", "hex"])
@pytest.mark.parametrize("ragged", [False, True])
def test_runs_of_cases_judged_alone_give_the_whole_files_answers(game, ragged):
    rng = random.Random(f"{game}{ragged}")
    module, make, code = ((havannah, havannah_text, HAVANNAH) if game == "havannah"
                          else (hex, hex_text, HEX))
    for trial in range(20):
        data = make(rng, rng.randint(1, 60), ragged).encode()
        whole = [str(result) for result in module.judge_text(data)]
        cuts = case_cuts(data, code, rng.randint(1, 300))
        assert cuts is not None
        assert cuts[0][1] == 0 and cuts[-1][:2] == (len(data), len(whole))
        assert [cases for _, cases, _ in cuts] == sorted(set(cases for _, cases, _ in cuts))
        parts = []
        for (start, before, line), (stop, after, _) in zip(cuts, cuts[1:]):
            assert line == data[:start].count(b"\n") + 1
            run = b"%d\n" % (after - before) + data[start:stop]
            parts += [str(result) for result in module.judge_text(run)]
        assert parts == whole


@pytest.mark.parametrize("text", [
    b"", b"0\n", b"-1\n", b"x\n", b"2\n2 1\n1 1\n",              # no case, bad T, short
    b"1\n2 1\r\n1 1\n", b"1\n2 1\n1 1\n5\n",                      # "\r", trailing data
    b"1\n2 -1\n", b"1\n2 1x\n1 1\n", b"1\n2 99999999999999999999\n1 1\n",
])
def test_the_walk_gives_up_on_anything_unusual(text):
    assert case_cuts(text, HAVANNAH, 1) is None


def test_the_walk_gives_up_on_unusual_hex_inputs():
    for text in (b"1\n2\nRB\n", b"1\n-2\nR\n", b"1\n1\nR\n.\n", b"2\n1\r\nR\n1\nB\n"):
        assert case_cuts(text, HEX, 1) is None
    assert case_cuts(b"2\n1\nR\n1\nB\n", HEX, 1) == [(2, 0, 2), (6, 1, 4), (10, 2, 6)]


def test_the_client_judges_while_connecting_only_what_a_worker_would_hold(tmp_path):
    """The files judged by the client while it connects: regular files the
    plan would not cut, in order, up to a worker's largest unit in all
    (each waits, judged, for its turn to be written)."""
    from havhex import dask as hdask
    from havhex._cluster.run import _wanted_here

    def sized(name, size):
        path = tmp_path / name
        with open(path, "wb") as stream:
            stream.truncate(size)       # sparse: no disk, the size is all that is asked
        return str(path)

    small = 2 * hdask.UNIT_BYTES_MIN
    fitting = hdask.UNIT_BYTES_MAX // small
    wanted = _wanted_here()
    assert [wanted(sized(f"f{n}", small)) for n in range(fitting + 1)] == [True] * fitting + [False]
    wanted = _wanted_here()
    assert not wanted(sized("large", small + 1))
    assert not wanted("-") and not wanted(str(tmp_path))
    assert wanted(sized("tiny", 10))


def test_the_judges_tasks_shrink_as_the_plan_nears_its_end(tmp_path):
    """Files the plan does not cut go together while much is left to plan,
    and alone at the end, so that no worker's last task holds a quarter of
    its share while the others wait; the plan covers every file once, in
    order."""
    from havhex import dask as hdask

    size = hdask.UNIT_BYTES_MIN + hdask.UNIT_BYTES_MIN // 2
    files = []
    for number in range(40):
        path = tmp_path / f"f{number:02d}.in"
        with open(path, "wb") as stream:
            stream.truncate(size)       # sparse: the plan only looks at sizes
        files.append(str(path))
    tasks = [units for kind, units in hdask.plan_judge(files, "havannah", False, 2)
             if kind == "task"]
    assert [index for units in tasks for index, _ in units] == list(range(40))
    counts = [len(units) for units in tasks]
    assert counts == sorted(counts, reverse=True)
    assert counts[0] >= 4 and counts[-4:] == [1, 1, 1, 1]


def test_a_large_file_is_cut_into_runs_that_shrink(monkeypatch, tmp_path):
    """The runs of one large input get smaller as the walk nears its end,
    down to UNIT_BYTES_MIN."""
    from havhex import dask as hdask

    monkeypatch.setattr(hdask, "UNIT_BYTES_MIN", 2000)
    monkeypatch.setattr(hdask, "UNIT_BYTES_MAX", 1 << 30)
    data = havannah_text(random.Random(7), 3000, False).encode()
    path = tmp_path / "large.in"
    path.write_bytes(data)
    tasks = [units for kind, units in hdask.plan_judge([str(path)], "havannah", False, 2)
             if kind == "task"]
    sizes = [unit[5] - unit[4] for units in tasks for _, unit in units]
    assert all(unit[0] == "range" for units in tasks for _, unit in units)
    assert sum(sizes) == len(data) - len(b"3000\n")
    assert sizes[0] >= len(data) // 9 and sizes[0] > 5 * sizes[-2]
    assert all(later <= earlier + 300 for earlier, later in zip(sizes, sizes[1:]))


def test_the_client_replays_the_first_record_files_while_connecting(tmp_path):
    """replay's client hands the first record files to a worker process of
    its own machine before it imports Dask: regular files a plan for two
    workers would not cut, in order, up to twice REPLAY_UNIT_BYTES and a
    quarter of the run's bytes in all; none with --ship.  The rest of the
    plan follows with the file numbers shifted."""
    from havhex import dask as hdask
    from havhex._cluster.run import _ReplayedMeanwhile

    games = b"(;GM[11]SZ[3];B[a1];W[b2];B[a2];W[b3];B[a3])\n"
    files = []
    for number, size in enumerate((1, 1, 2 * hdask.REPLAY_UNIT_BYTES, 1)):
        path = tmp_path / f"g{number}.sgf"
        path.write_bytes(games * max(1, size // len(games)))
        files.append(str(path))

    def meanwhile(ship=False, names=files):
        return _ReplayedMeanwhile(names, ship, "official", "text", None, None)

    replayed = meanwhile()
    try:
        # The third file would pass the bound: it and all after it are the cluster's.
        assert len(replayed.tickets) == 2
        plan = list(replayed.plan(2))
        assert [item[:2] for item in plan[:2]] == [("started", 0), ("started", 1)]
        later = [index for kind, units in plan[2:] for index, _ in units]
        assert later == sorted(later) and set(later) == {2, 3}
        for _, _, ticket in plan[:2]:
            [(status, (text, counts))] = ticket.result()
            assert status == "ok" and counts[0] == 1 and text.count("\n") == 1
    finally:
        replayed.close()
    shipped = meanwhile(ship=True)
    assert shipped.pool is None and shipped.tickets == []
    piped = meanwhile(names=["-", *files])
    assert piped.pool is None and piped.tickets == []
    # One large file alone is the cluster's to cut and share.
    alone = meanwhile(names=[files[2]])
    assert alone.pool is None and alone.tickets == []
