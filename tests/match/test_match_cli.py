"""`havhex match` on the command line, with the fixture engines: a match
runs to its summary (nothing with --quiet), bad options are the usage line
and one error line, status 2, a missing
engine one line and status 1, and a match killed with SIGKILL resumes
losing at most the games in flight."""
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from havhex import cli
from havhex.match.output import DAT_COLUMNS
from havhex.records import replay


def main(argv):
    """``havhex match`` with the words ``argv`` after it; the exit status."""
    return cli.main(["match", *argv])

pytestmark = pytest.mark.not_under_sanitizers("engine processes and timing")


def _engine(engine_command, *flags, name=None):
    words = [f"cmd={subprocess.list2cmdline(engine_command(*flags))}"]
    if name:
        words.append(f"name={name}")
    return ["--engine", *words]


def test_a_match_runs_and_writes_everything(tmp_path, engine_command, capsys):
    records = tmp_path / "games"
    argv = ["hex", "--size", "6", *_engine(engine_command, "--seed", "1", name="A"),
            *_engine(engine_command, "--seed", "2", "--illegal", name="B"), "--games", "4",
            "--st", "5", "--records", str(records), "--dat", str(tmp_path / "m.dat"),
            "--jsonl", str(tmp_path / "m.jsonl"), "--openings", "plies=2"]
    assert main(argv) == 0
    out = capsys.readouterr()
    assert out.err == ""
    assert "4 games: 4 illegal move" in out.out
    assert "A: 4 W 0 D 0 L" in out.out and "A vs B: 4-0-0" in out.out
    lines = [json.loads(line) for line in (tmp_path / "m.jsonl").read_text().splitlines()]
    assert [line["index"] for line in lines] == [1, 2, 3, 4]
    assert all(line["names"][line["engines"].index(1)] == "B" for line in lines)
    assert [line["opening"] for line in lines] == [2, 2, 2, 2]
    dat = (tmp_path / "m.dat").read_text().splitlines()
    assert sum(1 for line in dat if not line.startswith("#")) == 4
    files = sorted(records.iterdir())
    assert len(files) == 4
    for path, line in zip(files, lines):
        (replayed,) = list(replay(str(path)))
        assert replayed.recorded == "BW"[line["winner"]]
        assert replayed.end == "forfeit"


def test_quiet_prints_nothing_when_the_match_runs(tmp_path, engine_command, capsys):
    argv = ["hex", "--size", "5", *_engine(engine_command, "--seed", "1"),
            *_engine(engine_command, "--seed", "2"), "--games", "2",
            "--jsonl", str(tmp_path / "m.jsonl")]
    assert main(argv + ["--quiet"]) == 0
    assert capsys.readouterr() == ("", "")
    assert len((tmp_path / "m.jsonl").read_text().splitlines()) == 2
    # Without it the same match prints its summary.
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("2 games: ")


def _gogui_table(lines):
    """``(settings, columns, rows)`` of a .dat file's lines, read as gogui's
    table reader reads them: ``# Key: value`` settings up to a line ``#``,
    the columns' names on the comment after it, every other line a row."""
    settings, columns, rows = {}, None, []
    settings_read = False
    for line in lines:
        if line.startswith("#"):
            comment = line[1:].strip()
            if settings_read:
                assert columns is None, f"a second line of names: {line!r}"
                columns = comment.split("\t")
            elif comment == "":
                settings_read = True
            else:
                key, colon, value = comment.partition(":")
                assert colon, f"neither a setting nor the line '#': {line!r}"
                settings[key.strip()] = value.strip()
        else:
            rows.append(line.split("\t"))
    return settings, columns, rows


def test_the_dat_file_starts_as_the_docs_show(tmp_path, engine_command, capsys):
    page = Path(__file__).resolve().parents[2] / "docs" / "matches.md"
    if not page.is_file():
        pytest.skip("the docs are not beside the tests (installed package)")
    argv = ["hex", "--size", "5", *_engine(engine_command, "--seed", "1", name="A"),
            *_engine(engine_command, "--seed", "2", name="B"), "--games", "2", "--quiet",
            "--dat", str(tmp_path / "m.dat")]
    assert main(argv) == 0
    written = _gogui_table((tmp_path / "m.dat").read_text().splitlines())
    text = page.read_text(encoding="utf-8")
    start = text.index("The start of `match.dat`")
    block = text[text.index("```text\n", start) + len("```text\n"):]
    shown = _gogui_table(block[:block.index("```")].splitlines())
    # The same settings in the same order, the same columns, rows of them.
    assert list(shown[0]) == list(written[0])
    assert shown[1] == written[1] == list(DAT_COLUMNS)
    assert len(written[2]) == 2 and len(shown[2]) >= 2
    assert all(len(row) == len(DAT_COLUMNS) for row in written[2] + shown[2])
    assert written[0]["Black"] == "A" and written[0]["Game"] == "hex"


def test_havannah_match_between_dialects(tmp_path, engine_command, capsys):
    argv = ["havannah", "--size", "4",
            *_engine(engine_command, "--game", "havannah", "--seed", "3"),
            *_engine(engine_command, "--game", "havannah", "--dialect", "morat", "--seed", "4",
                     name="M"),
            "--games", "4", "--rule", "contest", "--records", str(tmp_path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("4 games: ")
    for path in sorted(tmp_path.glob("*.hgf")):
        (replayed,) = list(replay(str(path), rule="contest"))
        assert replayed.end == "structure" or replayed.win is None


@pytest.mark.parametrize("argv, words", [
    (["hex"], "--size"),
    (["chess", "--size", "5"], "chess"),
    (["hex", "--size", "5", "--engine", "cmd=x"], "--engine: expected twice or more"),
    (["hex", "--size", "5", "--engine", "cmd=x", "--engine", "cmd=y", "--st", "-1"], "--st"),
    (["hex", "--size", "5", "--engine", "cmd=x", "--engine", "cmd=y", "--tc", "1+x"], "--tc"),
    (["hex", "--size", "5", "--engine", "cmd=x", "--engine", "bogus=1"], "bogus"),
    (["hex", "--size", "5", "--engine", "cmd=x", "--engine", "cmd=y", "--openings", "ten"],
     "--openings"),
    (["hex", "--size", "5", "--engine", "cmd=x", "--engine", "cmd=y", "--sprt", "elo0=5",
      "elo1=1", "alpha=0.05", "beta=0.05"], "elo0"),
    (["hex", "--size", "5", "--engine", "cmd=x", "--engine", "cmd=y", "--resume"], "--jsonl"),
])
def test_bad_options_are_a_usage_error_and_status_2(argv, words, capsys):
    assert main(argv) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("usage: havhex match [-h] --size N --engine SPEC ")
    assert lines[1].startswith("havhex: error: ") and words in lines[1]


def test_a_missing_engine_is_one_line_and_status_1(tmp_path, engine_command, capsys):
    missing = tmp_path / "no-such-engine"
    argv = ["hex", "--size", "5", "--engine", f"cmd={missing}", "name=X",
            *_engine(engine_command), "--jsonl", str(tmp_path / "m.jsonl")]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "engine X" in err and "no-such-engine" in err
    assert not (tmp_path / "m.jsonl").exists()     # nothing half-written


def test_a_bad_openings_file_is_one_line_and_status_1(tmp_path, engine_command, capsys):
    openings = tmp_path / "open.sgf"
    openings.write_text("(;FF[4]GM[11]SZ[9];B[c3])\n")
    argv = ["hex", "--size", "5", *_engine(engine_command), *_engine(engine_command),
            "--openings", f"file={openings}"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "open.sgf" in err


def test_killed_match_resumes_losing_only_games_in_flight(tmp_path, engine_command):
    jsonl = tmp_path / "m.jsonl"
    argv = [sys.executable, "-m", "havhex", "match", "hex", "--size", "5",
            *_engine(engine_command, "--seed", "1", "--slow", "0.01"),
            *_engine(engine_command, "--seed", "2"), "--games", "24", "--concurrency", "2",
            "--jsonl", str(jsonl), "--dat", str(tmp_path / "m.dat"), "--records",
            str(tmp_path / "games")]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and process.poll() is None:
            if jsonl.exists() and jsonl.read_text().count("\n") >= 4:
                break
            time.sleep(0.01)
        assert process.poll() is None, process.stderr.read().decode()
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait()
        process.stderr.close()
    done_before = {json.loads(line)["index"] for line in jsonl.read_text().splitlines(True)
                   if line.endswith("\n")}
    assert 4 <= len(done_before) < 24
    resumed = subprocess.run(argv + ["--resume"], capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.startswith("24 games: ")
    lines = jsonl.read_text().splitlines()
    indices = [json.loads(line)["index"] for line in lines]
    assert sorted(indices) == list(range(1, 25))     # every game once, every line whole
    # The games done before the kill were not played again.
    assert set(indices[:len(done_before)]) == done_before
    dat_rows = [line for line in (tmp_path / "m.dat").read_text().splitlines()
                if not line.startswith("#")]
    assert sorted(int(row.split("\t")[0]) for row in dat_rows) == list(range(1, 25))


@pytest.mark.parametrize("flags, reason", [(("--crash-after", "1"), "disconnects"),
                                           (("--hang-after", "1"), "on time")])
def test_a_dead_engine_is_restarted_for_the_next_game(tmp_path, engine_command, capsys, flags,
                                                     reason):
    argv = ["hex", "--size", "5", *_engine(engine_command, "--seed", "1", name="A"),
            *_engine(engine_command, "--seed", "2", *flags, name="B"), "--games", "4",
            "--st", "0.3", "--jsonl", str(tmp_path / "m.jsonl")]
    started = time.monotonic()
    assert main(argv) == 0
    assert time.monotonic() - started < 30
    out = capsys.readouterr().out
    assert f"4 games: 4 {reason}" in out and "A: 4 W 0 D 0 L" in out


@pytest.mark.parametrize("game, size, other", [("hex", 5, None), ("havannah", 4, None),
                                               ("havannah", 4, "fixture"), ("hex", 5, "havhex"),
                                               ("havannah", 4, "havhex")])
def test_morat_matches_run_to_the_end(tmp_path, morat, engine_command, capsys, game, size,
                                      other):
    # morat against itself, against havhex gtp, and (Havannah) against a
    # fixture engine in havhex's dialect; every record replays to the
    # arbiter's result and
    # morat's own `winner` agrees with havhex's official-rule judge.
    first = ["--engine", f"cmd={subprocess.list2cmdline(morat.command(game))}", "name=morat"]
    if other is None:
        second = ["--engine", f"cmd={subprocess.list2cmdline(morat.command(game))}",
                  "name=morat2"]
    elif other == "havhex":
        command = [sys.executable, "-m", "havhex", "gtp", game, "--player", "mcts",
                   "--simulations", "200", "--seed", "3"]
        second = ["--engine", f"cmd={subprocess.list2cmdline(command)}", "name=havhex"]
    else:
        second = _engine(engine_command, "--game", game, "--seed", "5", name="fixture")
    records = tmp_path / "games"
    argv = [game, "--size", str(size), *first, *second, "--games", "2", "--st", "0.05",
            "--margin", "0.5", "--records", str(records), "--jsonl", str(tmp_path / "m.jsonl")]
    assert main(argv) == 0
    assert capsys.readouterr().out.startswith("2 games: ")
    lines = [json.loads(line) for line in (tmp_path / "m.jsonl").read_text().splitlines()]
    assert len(lines) == 2
    for line, path in zip(lines, sorted(records.iterdir())):
        assert line["reason"] in ("connection", "ring", "bridge", "fork", "board full"), line
        (replayed,) = list(replay(str(path)))
        assert replayed.win is not None and replayed.win.move == len(line["moves"])
        letters = "BW" if game == "hex" else "WB"
        assert replayed.win.player == letters[line["winner"]]
        assert not line["claim_disagrees"], line["claims"]
        morat_seats = [seat for seat in (0, 1)
                       if line["names"][seat].startswith("morat")]
        assert any(line["claims"][str(seat)] == line["winner"] for seat in morat_seats)


def test_sprt_stops_a_match_on_the_command_line(tmp_path, engine_command, capsys):
    argv = ["hex", "--size", "5", *_engine(engine_command, "--seed", "1", name="A"),
            *_engine(engine_command, "--seed", "2", "--nonsense", name="B"), "--games", "500",
            "--sprt", "elo0=0", "elo1=100", "alpha=0.05", "beta=0.05",
            "--jsonl", str(tmp_path / "m.jsonl")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    played = len((tmp_path / "m.jsonl").read_text().splitlines())
    assert 2 <= played < 50
    assert out.startswith(f"{played} games: {played} illegal move")
    assert "SPRT elo0=0 elo1=100 alpha=0.05 beta=0.05" in out and "H1 accepted" in out


def test_swap_with_an_engine_that_has_none_is_one_line_and_status_1(tmp_path, engine_command,
                                                                    capsys):
    argv = ["hex", "--size", "5", *_engine(engine_command),
            *_engine(engine_command, "--dialect", "morat", name="M"), "--swap", "--quiet"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "swap" in err and "M" in err


# Faults of the match itself (issue 36): each is one line and a non-zero
# status, and no output file holds a game the others do not, or is cut.

def _jsonl_indices(path):
    return [json.loads(line)["index"] for line in path.read_text().splitlines()]


def test_a_record_that_cannot_be_written_stops_the_match_with_one_line(tmp_path, engine_command,
                                                                       capsys):
    records = tmp_path / "games"
    (records / "game00002.sgf").mkdir(parents=True)     # in the way of game 2's record
    argv = ["hex", "--size", "5", *_engine(engine_command, "--seed", "1"),
            *_engine(engine_command, "--seed", "2"), "--games", "6", "--records", str(records),
            "--jsonl", str(tmp_path / "m.jsonl"), "--dat", str(tmp_path / "m.dat")]
    assert main(argv) == 1
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.count("\n") == 1 and "game00002.sgf" in out.err, out.err
    # Game 2 is in no file; the JSON Lines file and the table agree.
    assert _jsonl_indices(tmp_path / "m.jsonl") == [1]
    rows = [line for line in (tmp_path / "m.dat").read_text().splitlines()
            if not line.startswith("#")]
    assert [row.split("\t")[0] for row in rows] == ["1"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_disk_stops_the_match_with_one_line(tmp_path, engine_command, capsys):
    argv = ["hex", "--size", "5", *_engine(engine_command, "--seed", "1"),
            *_engine(engine_command, "--seed", "2"), "--games", "4", "--jsonl", "/dev/full"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "/dev/full" in err and "space" in err, err


def test_a_bad_dat_leaves_an_existing_jsonl_as_it_was(tmp_path, engine_command, capsys):
    jsonl = tmp_path / "m.jsonl"
    jsonl.write_text("kept\n")
    (tmp_path / "dat").mkdir()
    argv = ["hex", "--size", "5", *_engine(engine_command), *_engine(engine_command),
            "--jsonl", str(jsonl), "--dat", str(tmp_path / "dat")]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "dat" in err
    assert jsonl.read_text() == "kept\n"
    # A file the match would have made is not left behind either.
    fresh = tmp_path / "new.jsonl"
    assert main(argv[:-4] + ["--jsonl", str(fresh), "--dat", str(tmp_path / "dat")]) == 1
    assert not fresh.exists()


@pytest.mark.parametrize("game, size", [("hex", "0"), ("hex", "129"), ("havannah", "1"),
                                        ("havannah", "65")])
def test_a_size_out_of_the_games_bounds_is_a_usage_error(game, size, capsys):
    assert main([game, "--size", size, "--engine", "cmd=x", "--engine", "cmd=y"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and "--size" in lines[1]


@pytest.mark.parametrize("option", [["--st", "3e6"], ["--tc", "3e6+1"], ["--tc", "10+3e6"],
                                    ["--margin", "2e6"], ["--margin", "nan"],
                                    ["--margin", "inf"], ["--st", "1e300"]])
def test_a_clock_past_the_arbiters_bound_is_a_usage_error(option, capsys):
    assert main(["hex", "--size", "5", "--engine", "cmd=x", "--engine", "cmd=y", *option]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and option[0] in lines[1]


def test_resume_refuses_the_file_of_another_match(tmp_path, engine_command, capsys):
    jsonl = tmp_path / "m.jsonl"
    first = ["hex", "--size", "4", *_engine(engine_command, "--seed", "1", name="A"),
             *_engine(engine_command, "--seed", "2", name="B"), "--games", "4",
             "--jsonl", str(jsonl), "--quiet"]
    assert main(first) == 0
    kept = jsonl.read_text()
    for other in (["--size", "5"], ["--games", "8"], ["--st", "2"], ["--swap"]):
        argv = list(first) + other + ["--resume"]
        if other[0] == "--size":
            argv[2] = other[1]
            argv = argv[:-3] + ["--resume"]
        assert main(argv) == 1, other
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "another match" in err, err
    renamed = [word.replace("name=A", "name=C") for word in first]
    assert main(renamed + ["--resume"]) == 1
    assert "another match" in capsys.readouterr().err
    assert jsonl.read_text() == kept
    # The same match resumes: nothing is left to play.
    assert main(first + ["--resume"]) == 0


def test_resume_refuses_an_older_file_of_another_size(tmp_path, engine_command, capsys):
    # A file written before each line named its match: game, size, rule,
    # swap and the engines' given names are compared.
    jsonl = tmp_path / "m.jsonl"
    line = {"index": 1, "game": "hex", "size": 4, "engines": [0, 1], "names": ["A", "B"],
            "winner": 0, "reason": "connection", "moves": [[0, 0]]}
    jsonl.write_text(json.dumps(line) + "\n")
    argv = ["hex", "--size", "9", *_engine(engine_command, name="A"),
            *_engine(engine_command, name="B"), "--jsonl", str(jsonl), "--resume"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "another match" in err and "size 4" in err


def _wait_for(predicate, seconds=30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


def _running(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")
@pytest.mark.parametrize("sign, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_to_the_match_kills_its_engines(tmp_path, engine_command, sign, status):
    pids = [tmp_path / "a.pid", tmp_path / "b.pid"]
    jsonl = tmp_path / "m.jsonl"
    # Engine A hangs in its third genmove, as a busy engine does: it reads
    # no more commands, so no end of its input ends it.
    argv = [sys.executable, "-m", "havhex", "match", "hex", "--size", "7",
            *_engine(engine_command, "--seed", "1", "--hang-after", "2", "--pid-file", pids[0]),
            *_engine(engine_command, "--seed", "2", "--pid-file", pids[1]),
            "--games", "100", "--st", "60", "--jsonl", str(jsonl)]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert _wait_for(lambda: all(path.exists() and path.read_text() for path in pids))
        engines = [int(path.read_text()) for path in pids]
        assert all(_running(pid) for pid in engines)
        time.sleep(0.3)
        process.send_signal(sign)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    err = process.stderr.read().decode()
    process.stderr.close()
    assert process.returncode == status, err
    assert err.count("\n") == 1, err
    assert _wait_for(lambda: not any(_running(pid) for pid in engines), 10), engines
    # Every line written is whole: --resume goes on from it.
    for line in jsonl.read_text().splitlines(True):
        assert line.endswith("\n") and json.loads(line)["reason"]
