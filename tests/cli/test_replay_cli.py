"""``havhex replay``: lines, JSON keys, the summary, -j, folders and faults."""
import json
import random

import pytest

import ref_hex_board
from conftest import one_error_line, write
from havhex.cli import main
from havhex.records import run as replay_module

GAME_A = "(;FF[4]GM[11]SZ[2]RE[B+]PB[Ann];B[a1];W[b1];B[a2];W[b2])\n"
GAME_B = "(;FF[4]GM[11]SZ[3]RE[W+R];B[a1];W[a1];B[resign])\n"
KEYS = {"file", "game", "kind", "size", "moves", "win", "recorded", "end", "flags"}


def test_text_lines_and_summary(tmp_path, cli):
    path = write(tmp_path, "two.sgf", GAME_A + GAME_B)
    done = cli("replay", path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines == [
        f"{path} game 1: hex 2x2, 4 moves, B won in move 3 (chain), recorded B, "
        f"ended by structure [played-on]",
        f"{path} game 2: hex 3x3, 2 moves, no win, recorded W, ended by resign, "
        f"illegal move 2: the cell is occupied [illegal]",
    ]
    assert done.stderr.decode() == (
        "replayed 1 file: 2 games, 6 moves, 1 won on the board; 1 played-on, "
        "0 result-disagrees, 1 illegal, 0 no-result\n")
    quiet = cli("replay", "--quiet", path)
    assert quiet.stdout == done.stdout and quiet.stderr == b""


def test_json_records_carry_the_documented_keys_and_the_witness(tmp_path, cli):
    path = write(tmp_path, "two.sgf", GAME_A + GAME_B)
    done = cli("replay", "--format", "json", "--quiet", path)
    first, second = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert KEYS <= set(first) and KEYS <= set(second)
    assert first["file"] == str(path) and first["record"] == first["game"] == 1 and first["kind"] == "hex"
    assert first["size"] == [2, 2] and first["moves"] == 4
    assert first["win"] == {"move": 3, "player": "B", "kinds": ["chain"]}
    assert first["recorded"] == "B" and first["end"] == "structure"
    assert first["flags"] == ["played-on"]
    assert first["witness"]["winner"] == "red"
    assert first["witness"]["chain"] == [[0, 0], [1, 0]]
    assert second["win"] is None and "witness" not in second
    assert second["flags"] == ["illegal"] and second["illegal"] == {
        "move": 2, "reason": "the cell is occupied"}


def test_a_folder_stands_for_its_records_in_name_order(tmp_path, cli):
    write(tmp_path, "b.sgf", GAME_B)
    write(tmp_path, "a.SGF", GAME_A)
    write(tmp_path, "notes.txt", "not a record")
    done = cli("replay", "--quiet", tmp_path)
    names = [line.split(" game ")[0] for line in done.stdout.decode().splitlines()]
    assert names == [str(tmp_path / "a.SGF"), str(tmp_path / "b.sgf")]


def test_broken_syntax_is_one_line_and_nothing_written(tmp_path, cli):
    good = write(tmp_path, "good.sgf", GAME_A)
    bad = write(tmp_path, "bad.sgf", GAME_A + "\n(;GM[11]SZ[3];B[a1]\n;W[b2")
    out = tmp_path / "out.txt"
    error = one_error_line(cli("replay", "-o", out, good, bad))
    assert error == f"havhex: {bad}:4: a property value that is never closed (no ']')\n"
    assert not out.exists()
    error = one_error_line(cli("replay", write(tmp_path, "junk.sgf", b"\x00\xffjunk")))
    assert error.startswith(f"havhex: {tmp_path / 'junk.sgf'}:1: not an SGF game tree")
    error = one_error_line(cli("replay", write(tmp_path, "go.sgf", "(;GM[1];B[aa])")))
    assert "GM[1] is not a game havhex replays" in error
    error = one_error_line(cli("replay", write(tmp_path, "big.sgf", "(;GM[11]SZ[999999999])")))
    assert "SZ[999999999]" in error
    error = one_error_line(cli("replay", tmp_path / "missing.sgf"))
    assert error.startswith(f"havhex: {tmp_path / 'missing.sgf'}: cannot open")


def many_games(count, seed):
    rng = random.Random(seed)
    texts = []
    for number in range(count):
        game = ref_hex_board.Game(5, 5, swap=True)
        letters = []
        while game.winner is None:
            legal = [m for m in game.legal_moves() if m not in ref_hex_board.SWAPS]
            letters.append("B" if game.to_move == "red" else "W")
            game.play(rng.choice(legal))
        body = "".join(f";{letter}[{chr(97 + col)}{row + 1}]"
                       for letter, (row, col) in zip(letters, game.moves))
        texts.append(f"(;FF[4]GM[11]SZ[5]C[game {number}\n\\]escaped];{body[1:]})\n")
    return "".join(texts)


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_jobs_give_the_same_output_when_files_are_cut(tmp_path, monkeypatch, output_format):
    """-j 2 over a file cut into many units (a small unit size here) and a
    second file: the same bytes as -j 1."""
    first = write(tmp_path, "many.sgf", many_games(300, 5))
    second = write(tmp_path, "two.sgf", GAME_A + GAME_B)
    monkeypatch.setattr(replay_module, "UNIT_BYTES", 2000)
    outputs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        assert main(["replay", "--quiet", "-j", jobs, "--format", output_format,
                     "-o", str(out), str(first), str(second)]) == 0
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    lines = outputs[0].decode().splitlines()
    assert len(lines) == 302
    if output_format == "json":
        assert [json.loads(line)["game"] for line in lines[:300]] == list(range(1, 301))


def test_jobs_report_a_fault_in_a_later_unit(tmp_path, monkeypatch):
    text = many_games(100, 6) + "(;GM[11]SZ[5];B[a1]"
    bad = write(tmp_path, "bad.sgf", text)
    monkeypatch.setattr(replay_module, "UNIT_BYTES", 2000)
    out = tmp_path / "out"
    assert main(["replay", "-j", "2", "-o", str(out), str(bad)]) == 1
    assert not out.exists()
