"""``havhex solve GAME``: every opening of a small board, or positions of
game records, as text or JSON Lines; the answers agree with brute force
(tests/support/solver.py); bad input is one line naming the file, status
1; usage errors status 2.  The solver itself: tests/search/test_solve.py."""
import json

import pytest

import needs
import solver
from conftest import one_error_line, write
from havhex.hex import Board as HexBoard

RESULT = {solver.WIN: "win", solver.LOSS: "loss", solver.DRAW: "draw"}
# Two Hex 4x4 games: one won by Red down column b in move 7, one of four
# moves, not over.
GAMES = ("(;FF[4]GM[11]SZ[4];B[b1];W[a2];B[b2];W[c1];B[b3];W[d1];B[b4])\n"
         "(;FF[4]GM[11]SZ[4];B[b2];W[c3];B[b3];W[c2])\n")


def _ok(done):
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def _name(move):
    return "abcd"[move[1]] + str(move[0] + 1)


def test_every_opening_of_hex_3x3_agrees_with_brute_force(cli):
    lines = _ok(cli("solve", "hex", "--openings", "all", "--size", "3", "--format", "json"))
    answers = [json.loads(line) for line in lines.splitlines()]
    assert len(answers) == 9
    for answer in answers:
        board = HexBoard(3)
        column, row = "abc".index(answer["opening"][0]), int(answer["opening"][1:]) - 1
        board.play((row, column))
        value = solver.value(board)
        assert answer["result"] == RESULT[value]
        assert answer["to_move"] == "blue"
        assert answer["winner"] == ("blue" if value == solver.WIN else "red")
        if value == solver.WIN:
            assert answer["move"] in {_name(m) for m in solver.winning_moves(board)}
        assert answer["nodes"] >= 1 and answer["seconds"] >= 0


def test_text_a_line_per_opening(cli):
    lines = _ok(cli("solve", "hex", "--openings", "all", "--size", "4")).splitlines()
    assert len(lines) == 16
    assert lines[0].startswith("opening a1: ")
    losses = [line for line in lines if "red wins (blue to move loses)" in line]
    # The first player's winning openings of 4x4: the short diagonal.
    assert sorted(line.split(":")[0][8:] for line in losses) == ["a4", "b3", "c2", "d1"]


@pytest.mark.parametrize("before", [0, 1, 2, 3])
def test_record_positions_before_the_end(cli, tmp_path, before):
    path = write(tmp_path, "games.sgf", GAMES)
    lines = _ok(cli("solve", "hex", "--before", str(before), "--format", "json", path))
    answers = [json.loads(line) for line in lines.splitlines()]
    assert [(a["file"], a["record"]) for a in answers] == [(str(path), 1), (str(path), 2)]
    for answer, (moves, total) in zip(answers, [(GAMES.split("\n")[0], 7),
                                               (GAMES.split("\n")[1], 4)]):
        board = HexBoard(4)
        cells = [part[2:4] for part in moves.split(";")[2:]]
        for cell in cells[:total - before]:
            board.play((int(cell[1]) - 1, "abcd".index(cell[0])))
        assert answer["moves"] == total - before
        if board.is_over:
            assert answer["result"] == "loss" and answer["nodes"] == 0
        else:
            assert answer["result"] == RESULT[solver.value(board)]


def test_havannah_little_golem_records(cli):
    folder = needs.shared("records", "littlegolem-havannah", need="records")
    files = sorted(folder.glob("*.hgf"))[:3]
    lines = _ok(cli("solve", "havannah", "--before", "2", "--seconds", "1", "--format",
                    "json", *map(str, files)))
    answers = [json.loads(line) for line in lines.splitlines()]
    assert len(answers) == 3
    assert {a["to_move"] for a in answers} <= {"white", "black"}
    assert all(a["result"] in ("win", "loss", "draw", "unknown") for a in answers)
    assert all(a["seconds"] < 5 for a in answers)


def test_an_illegal_move_is_one_line_naming_the_file(cli, tmp_path):
    path = write(tmp_path, "bad.sgf", "(;FF[4]GM[11]SZ[3];B[a1];W[a1])\n")
    err = one_error_line(cli("solve", "hex", path))
    assert str(path) in err and ":1:" in err


def test_output_file_only_when_every_position_is_solved(cli, tmp_path):
    out = tmp_path / "out.txt"
    bad = write(tmp_path, "bad.sgf", GAMES + "(;FF[4]GM[11]SZ[3];B[a1];W[a1])\n")
    one_error_line(cli("solve", "hex", "-o", str(out), bad))
    assert not out.exists()
    good = write(tmp_path, "good.sgf", GAMES)
    _ok(cli("solve", "hex", "-o", str(out), good))
    assert len(out.read_text().splitlines()) == 2


@pytest.mark.parametrize("words, message", [
    (["hex", "--openings", "all"], "needs --size N"),
    (["hex", "--size", "4"], "only with --openings"),
    (["chess", "--openings", "all", "--size", "4"], "invalid choice"),
    (["hex", "--openings", "all", "--size", "4", "x.sgf"], "not allowed with record files"),
    (["hex", "--openings", "all", "--size", "4", "--before", "2"], "not allowed with --openings"),
    ([], "required: GAME"),
])
def test_usage_errors(cli, words, message):
    done = cli("solve", *words)
    assert done.returncode == 2
    assert message in done.stderr.decode()


def test_a_size_off_the_game_is_refused(cli):
    err = one_error_line(cli("solve", "havannah", "--openings", "all", "--size", "1"))
    assert "takes 2 to" in err
