"""``havhex analyse [FILE ...]``: the review of game records as text, JSON
Lines and the stepping page with its win-rate curve; bad input is one line
naming the file, status 1, and nothing written; Ctrl-C stops it cleanly.
What the review finds is tests/search/test_review.py."""
import json
import os
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest

import needs
from conftest import one_error_line, write

# Red wins down the first column of Hex 3x3 in move 5, Blue having played
# away from it; then a second game, of four moves.
GAMES = ("(;FF[4]GM[11]SZ[3]RE[B+];B[a1];W[c1];B[a2];W[c2];B[a3])\n"
         "(;FF[4]GM[11]SZ[4];B[b2];W[c3];B[b3];W[c2])\n")
HAVANNAH = "(;FF[4]SZ[3]RU[LG];W[b2];B[c3];W[a1];B[resign])\n"
FAST = ["--simulations", "200"]
KEYS = {"file", "record", "game", "size", "move", "player", "colour", "played", "played_name",
        "before", "after", "loss", "proven_before", "proven_after", "best", "best_name",
        "principal_variation", "simulations", "flagged"}
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def games(tmp_path):
    return write(tmp_path, "games.sgf", GAMES)


def _ok(done):
    assert done.returncode == 0, done.stderr.decode()
    assert done.stderr == b""
    return done.stdout.decode()


def test_text_a_line_per_move_and_the_moves_that_lose_most(cli, games):
    text = _ok(cli("analyse", *FAST, games))
    reports = text.split(f"{games} game ")[1:]
    assert len(reports) == 2
    first = reports[0].splitlines()
    assert first[0] == "1: hex 3x3, 5 moves reviewed; Red wins in move 5"
    rows = [line for line in first if re.match(r" +\d+  ", line)]
    assert [int(row.split()[0]) for row in rows] == [1, 2, 3, 4, 5]
    assert rows[0].split()[1:4] == ["B", "red", "a1"]
    assert first[-1].startswith(("* loses at least 0.15; the most: move ",
                                 "no move loses 0.15"))
    assert reports[1].splitlines()[0] == "2: hex 4x4, 4 moves reviewed"


def test_json_lines_one_object_a_move(cli, games):
    lines = _ok(cli("analyse", *FAST, "--format", "json", games)).splitlines()
    objects = [json.loads(line) for line in lines]
    assert [(o["record"], o["move"]) for o in objects] == \
        [(1, 1), (1, 2), (1, 3), (1, 4), (1, 5), (2, 1), (2, 2), (2, 3), (2, 4)]
    for found in objects:
        assert set(found) == KEYS
        assert found["file"] == str(games) and found["game"] == "hex"
        assert 0 <= found["before"] <= 1 and 0 <= found["after"] <= 1
        assert found["loss"] == pytest.approx(found["before"] - found["after"], abs=2e-4)
        # A position already proven is not searched.
        assert found["simulations"] == 200 or found["proven_before"] is not None
    assert objects[1]["player"] == "W" and objects[1]["colour"] == "blue"
    assert objects[1]["played"] == [0, 2] and objects[1]["played_name"] == "c1"
    # Red's fifth move wins: proven.
    assert (objects[4]["after"], objects[4]["proven_after"]) == (1.0, "win")


def test_a_record_and_a_havannah_game(cli, tmp_path, games):
    lines = _ok(cli("analyse", *FAST, "--format", "json", "--record", "2", games)).splitlines()
    assert {json.loads(line)["record"] for line in lines} == {2}
    path = write(tmp_path, "game.hgf", HAVANNAH)
    objects = [json.loads(line)
               for line in _ok(cli("analyse", *FAST, "--format", "json", path)).splitlines()]
    assert [(o["game"], o["size"], o["player"], o["colour"]) for o in objects] == \
        [("havannah", 3, "W", "white"), ("havannah", 3, "B", "black"),
         ("havannah", 3, "W", "white")]


def test_the_same_review_each_time_with_a_seed(cli, games):
    first = _ok(cli("analyse", *FAST, "--seed", "4", "--format", "json", games))
    assert _ok(cli("analyse", *FAST, "--seed", "4", "--format", "json", games)) == first
    assert _ok(cli("analyse", *FAST, "--seed", "5", "--format", "json", games)) != first


def test_the_page_has_the_curve_a_point_a_move(cli, games, tmp_path):
    out = tmp_path / "review.html"
    done = cli("analyse", *FAST, "--html", "--record", "1", games, "-o", out)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"", b"")
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and 'data-moves="5"' in page
    curve = re.search(r'<svg id="review-curve".*?</svg>', page, re.S).group(0)
    root = ET.fromstring(curve)
    points = root.find(f"{SVG}polyline").get("points").split()
    # The start and the position after each of the five moves.
    assert len(points) == 6
    # Red won: the curve ends at the top, Red's side.
    assert float(points[-1].split(",")[1]) == pytest.approx(10.0)
    review = json.loads(re.search(r'<script type="application/json" id="havhex-review">'
                                  r'(.*?)</script>', page, re.S).group(1))
    assert len(review["x"]) == len(review["texts"]) == len(review["candidates"]) == 6
    assert review["texts"][5].startswith("Move 5, Red a3: Red's win rate")
    flagged = [element for element in root.iter(f"{SVG}circle")
               if element.get("class") == "flagged"]
    assert len(flagged) == sum("; flagged" in text for text in review["texts"])
    # Self-contained: nothing is fetched.
    assert not re.search(r'\b(src|href)="(https?:)?//', page)


def test_the_page_is_of_one_game(cli, games, tmp_path):
    out = tmp_path / "review.html"
    err = one_error_line(cli("analyse", *FAST, "--html", games, "-o", out))
    assert err == "havhex: --html draws one game, and the files hold 2 games: choose one " \
                  "with --record N\n"
    assert not out.exists()


def test_a_broken_record_is_one_line_naming_it(cli, tmp_path, games):
    broken = write(tmp_path, "broken.sgf", "(;FF[4]GM[11]SZ[3];B[a1]\n;W[b")
    out = tmp_path / "out.txt"
    err = one_error_line(cli("analyse", *FAST, games, broken, "-o", out))
    assert err.startswith(f"havhex: {broken}:2: ")
    assert not out.exists()
    err = one_error_line(cli("analyse", *FAST, tmp_path / "missing.sgf"))
    assert err == f"havhex: {tmp_path / 'missing.sgf'}: cannot open: No such file or directory\n"
    err = one_error_line(cli("analyse", *FAST, "--record", "3", games))
    assert err == f"havhex: {games}: there is no game #3 (the file holds 2 games)\n"


def test_a_board_no_record_sets_up_names_its_line(cli, tmp_path):
    path = write(tmp_path, "setup.sgf", "\n\n(;FF[4]GM[11]SZ[2]AB[a1][b1][a2]PL[B];B[b2])")
    assert one_error_line(cli("analyse", *FAST, path)).startswith(f"havhex: {path}:3: ")


def test_an_illegal_move_ends_the_review_not_the_run(cli, tmp_path):
    path = write(tmp_path, "illegal.sgf", "(;FF[4]GM[11]SZ[3];B[a1];W[b1];B[b1];W[c3])")
    text = _ok(cli("analyse", *FAST, path))
    assert "2 moves reviewed; move 3 is illegal" in text.splitlines()[0]


@pytest.mark.parametrize("words, message", [
    (["--seconds", "1", "--simulations", "5"], "argument --simulations: not allowed with"),
    (["--threshold", "2"], "argument --threshold: expected a number above 0 and at most 1"),
    (["--html", "--format", "json"], "argument --format: not allowed with argument --html"),
    (["--record", "0"], "argument --record: must be at least 1"),
    (["--game", "chess"], "argument --game: invalid choice"),
])
def test_usage_errors(cli, games, words, message):
    done = cli("analyse", *words, games)
    lines = done.stderr.decode().splitlines()
    assert done.returncode == 2 and done.stdout == b""
    assert lines[0].startswith("usage: havhex analyse") and message in lines[1], lines


def test_ctrl_c_stops_it_and_writes_nothing(tmp_path):
    # A long review: a second a position of Hex 11, stopped in its first.
    path = write(tmp_path, "long.sgf", "(;FF[4]GM[11]SZ[11];B[f6];W[e7];B[d8];W[c9])")
    out = tmp_path / "out.txt"
    child = subprocess.Popen([sys.executable, "-m", "havhex", "analyse", "--seconds", "5",
                              str(path), "-o", str(out)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    time.sleep(1.5)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    stdout, stderr = child.communicate(timeout=30)
    assert child.returncode == 130, stderr
    assert time.monotonic() - sent < 2.0
    assert (stdout, stderr) == (b"", b"")
    assert sorted(os.listdir(tmp_path)) == ["long.sgf"]


def test_little_golem_records(cli):
    folder = needs.shared("records", "littlegolem-havannah", need="records")
    # Two games of base 4, the collection's smallest board.
    small = sorted(path for path in folder.glob("*.hgf") if b"SZ[4]" in path.read_bytes())[:2]
    assert len(small) == 2, folder
    lines = _ok(cli("analyse", "--simulations", "100", "--format", "json", *small)).splitlines()
    objects = [json.loads(line) for line in lines]
    assert {o["file"] for o in objects} == {str(path) for path in small}
    assert all(o["game"] == "havannah" and 0 <= o["before"] <= 1 for o in objects)
