"""``havhex draw record FILE [--record N] [--move K] [--html] [--rule R]``:
game records drawn at a move, or as the stepping page; their usage and
input errors.  The page in a browser is tests/draw/test_page_browser.py."""
import json
import re
import xml.etree.ElementTree as ET

import pytest

import needs
from conftest import one_error_line, write
from havhex import InputError, records
from havhex.draw import draw_record
from havhex.hex import Board as HexBoard

SVG = "{http://www.w3.org/2000/svg}"

# Red (SGF's Black) joins the top and bottom of a 3 x 3 board in move 5:
# a1 is (row 0, col 0), b2 (1, 1), a3 (2, 0); then Blue plays on.
HEX_GAME = "(;FF[4]GM[11]SZ[3]PB[Ann]PW[Bob]RE[B+];B[a1];W[c1];B[a2];W[c2];B[a3];W[c3])"
# Blue swaps Red's first stone to its mirror (swap-pieces) and builds a chain.
SWAP_GAME = "(;FF[4]GM[11]SZ[3];B[c1];W[swap-pieces];B[b2];W[a2];B[c2];W[b3];B[a1];W[c3])"
SETUP_GAME = "(;FF[4]GM[11]SZ[3]AB[b1][b2]AW[a1][a2]PL[B];B[b3])"


def cells(svg):
    root = ET.fromstring(svg.encode())
    return [e for e in root.iter(f"{SVG}path") if "cell" in e.get("class", "").split()]


def stones(svg):
    return {(int(e.get("data-row")), int(e.get("data-col"))): e.get("data-stone")
            for e in cells(svg) if e.get("data-stone")}


def chain(svg):
    return {(int(e.get("data-row")), int(e.get("data-col"))) for e in cells(svg)
            if "chain" in e.get("class").split()}


def test_a_hex_record_at_its_winning_move(tmp_path, cli):
    path = write(tmp_path, "game.sgf", HEX_GAME)
    done = cli("draw", "record", path)
    assert done.returncode == 0, done.stderr
    svg = done.stdout.decode()
    # The win is the replay's, the stones those of the board at it.
    assert next(records.replay(path)).win.move == 5
    assert stones(svg) == {(0, 0): "red", (0, 2): "blue", (1, 0): "red", (1, 2): "blue",
                           (2, 0): "red"}
    assert chain(svg) == {(0, 0), (1, 0), (2, 0)}
    title = ET.fromstring(svg.encode()).find(f"{SVG}title").text
    assert "game #1" in title and "Ann (Red)" in title and "Bob (Blue)" in title
    assert "move 5" in title


@pytest.mark.parametrize("move", range(7))
def test_each_move(tmp_path, cli, move):
    needs.module("numpy")
    path = write(tmp_path, "game.sgf", HEX_GAME)
    done = cli("draw", "record", path, "--move", move)
    assert done.returncode == 0, done.stderr
    svg = done.stdout.decode()
    board = HexBoard(3, swap=True)
    for _, cell in next(records.read(path)).moves[:move]:
        if not board.is_over:
            board.play(cell)
    array = board.to_array()
    expected = {(int(i), int(j)): ("red", "blue")[int(array[i, j]) - 1]
                for i, j in zip(*array.nonzero())}
    if move == 6:
        expected[(2, 2)] = "blue"           # played on after the win
    assert stones(svg) == expected
    assert bool(chain(svg)) == (move >= 5)


def test_swap_pieces_and_setup_stones(tmp_path):
    path = write(tmp_path, "swap.sgf", SWAP_GAME)
    svg = draw_record(path, move=2)
    # c1 is (row 0, col 2): its mirror (2, 0) takes Blue's stone.
    assert stones(svg) == {(2, 0): "blue"}
    assert next(records.replay(path)).win.move == 8
    assert chain(draw_record(path)) == {(2, 0), (2, 1), (2, 2)}
    path = write(tmp_path, "setup.sgf", SETUP_GAME)
    assert stones(draw_record(path, move=0)) == {(0, 1): "red", (1, 1): "red",
                                                 (0, 0): "blue", (1, 0): "blue"}
    svg = draw_record(path)
    assert stones(svg)[(2, 1)] == "red" and chain(svg) == {(0, 1), (1, 1), (2, 1)}


def test_the_game_of_a_collection(tmp_path, cli):
    second = "(;FF[4]GM[11]SZ[2];B[a1];W[b1];B[a2])"
    path = write(tmp_path, "two.sgf", HEX_GAME + "\n" + second)
    done = cli("draw", "record", path, "--record", "2", "--html")
    assert done.returncode == 0, done.stderr
    page = done.stdout.decode()
    assert 'data-move="3" data-moves="3" data-win="3"' in page
    assert "game #2" in page
    data = json.loads(re.search(r'id="havhex-steps">(.*?)</script>', page, re.S).group(1))
    assert [label for label, _ in data["steps"]] == ["Red 0,0", "Blue 0,1", "Red 1,0"]


def test_the_page_to_a_file_and_at_a_move(tmp_path, cli):
    path = write(tmp_path, "game.sgf", HEX_GAME)
    out = tmp_path / "page.html"
    done = cli("draw", "record", path, "--html", "--move", "2", "-o", out)
    assert done.returncode == 0 and done.stdout == b""
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert 'data-move="2" data-moves="6" data-win="5" data-structure="hidden"' in page


def test_standard_input(cli):
    done = cli("draw", "record", stdin=HEX_GAME.encode())
    assert done.returncode == 0 and "&lt;stdin&gt;" in done.stdout.decode()


@pytest.mark.parametrize("args, message", [
    (["draw", "record", "x.sgf", "--case", "2"], "argument --case: only with GAME havannah or hex"),
    (["draw", "record", "x.sgf", "--text"], "argument --text: only with GAME havannah or hex"),
    (["draw", "hex", "x.in", "--html"], "argument --html: only with GAME record"),
    (["draw", "havannah", "x.in", "--record", "1"], "argument --record: only with GAME record"),
    (["draw", "havannah", "x.in", "--move", "3"], "argument --move: only with GAME record"),
    (["draw", "hex", "x.in", "--rule", "contest"], "argument --rule: only with GAME record"),
    (["draw", "record", "x.sgf", "--record", "0"], "argument --record: must be at least 1"),
    (["draw", "record", "x.sgf", "--move", "x"], "argument --move: invalid int value"),
    (["draw", "record", "x.sgf", "--html=yes"], "argument --html: takes no value"),
    (["draw", "records", "x.sgf"], "argument GAME: invalid choice: 'records'"),
])
def test_usage_errors(cli, args, message):
    done = cli(*args)
    err = done.stderr.decode()
    assert done.returncode == 2 and done.stdout == b""
    assert err.startswith("usage: havhex draw") and f"havhex: error: {message}" in err


@pytest.mark.parametrize("text, args, line, reason", [
    ("(;FF[4]GM[11]SZ[3];B[a1", [], 1, r"never closed"),
    ("\n\nnot sgf at all", [], 3, r"not an SGF"),
    ("\n\n" + HEX_GAME, ["--move", "7"], 3, r"game #1 has 6 moves: there is no move 7"),
    (HEX_GAME, ["--record", "3"], None, r"there is no game #3 \(the file holds 1 game\)"),
])
def test_bad_records(tmp_path, cli, text, args, line, reason):
    path = write(tmp_path, "bad.sgf", text)
    err = one_error_line(cli("draw", "record", path, *args))
    where = re.escape(str(path)) + (f":{line}" if line else "")
    assert re.match(rf"havhex: {where}: .*{reason}", err), err


def test_a_board_beyond_the_pictures(tmp_path):
    path = write(tmp_path, "big.sgf", "(;FF[4]GM[11]SZ[201];B[a1])")
    with pytest.raises(InputError) as caught:
        draw_record(path)
    assert caught.value.line == 1 and "201" in caught.value.reason


def little_golem_files(count):
    folder = needs.shared("records", "littlegolem-havannah", need="records")
    return sorted(folder.glob("*.hgf"))[:count]


@pytest.mark.parametrize("rule", ["official", "contest"])
def test_little_golem_games(rule):
    """The pictures agree with the replay: the structure is drawn exactly
    when the game has a win, and at the winning move."""
    for path in little_golem_files(60):
        replayed = next(records.replay(path, rule))
        svg = draw_record(path, rule=rule)
        root = ET.fromstring(svg.encode())
        held = [e for e in root.iter(f"{SVG}path") if e.get("data-stone")]
        marked = [e for e in held if {"bridge", "fork", "ring"} & set(e.get("class").split())]
        assert bool(marked) == (replayed.win is not None), path.name
        drawn = replayed.win.move if replayed.win else replayed.moves
        assert f"move {drawn}" in root.find(f"{SVG}title").text
        if replayed.win is not None:
            assert len(held) == replayed.win.move - ("swap" in dict(replayed.record.moves[:2]
                                                                    ).values())
            winner = {"W": "white", "B": "black"}[replayed.win.player]
            assert {e.get("data-stone") for e in marked} == {winner}
