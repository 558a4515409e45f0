"""``havhex gtp`` as a subprocess over pipes: a scripted session through
every command, a whole game between two engines refereed here, usage
errors, and input that is not text."""
import os
import re
from pathlib import Path
import subprocess
import sys

import pytest

from havhex.gtp import parse_response
from havhex.havannah.board import Board as HavannahBoard
from havhex.hex.board import Board as HexBoard


class Pipe:
    """One ``havhex gtp`` process, asked one command at a time."""

    def __init__(self, *args):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "havhex", "gtp", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})

    def ask(self, line):
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()
        return self.read_answer(line)

    def read_answer(self, line=None):
        lines = []
        while True:
            raw = self.process.stdout.readline()
            assert raw, f"the engine ended while answering {line!r}"
            text = raw.decode().rstrip("\n")
            if text == "":
                if lines:
                    break
                continue
            lines.append(text)
        return parse_response("\n".join(lines))

    def ok(self, line):
        response = self.ask(line)
        assert response.ok, (line, response)
        return response.text

    def close(self):
        self.process.stdin.close()
        code = self.process.wait(timeout=30)
        error = self.process.stderr.read().decode()
        self.process.stdout.close()
        self.process.stderr.close()
        return code, error


@pytest.fixture
def engines():
    started = []

    def start(*args):
        pipe = Pipe(*args)
        started.append(pipe)
        return pipe
    yield start
    for pipe in started:
        if pipe.process.poll() is None:
            pipe.process.kill()
            pipe.process.wait()
        for stream in (pipe.process.stdin, pipe.process.stdout, pipe.process.stderr):
            if not stream.closed:
                stream.close()


def test_a_scripted_session(tmp_path, engines):
    record = tmp_path / "game.sgf"
    record.write_text("(;FF[4]GM[11]SZ[5];B[c3];W[d2];B[b4])")
    engine = engines("hex", "--size", "5", "--swap", "--player", "random", "--seed", "4")
    assert engine.ok("protocol_version") == "2"
    assert engine.ok("name") == "havhex"
    assert engine.ok("version")
    assert engine.ok("known_command swap-pieces") == "true"
    assert "loadsgf" in engine.ok("list_commands").split("\n")
    assert engine.ask("7 boardsize 6").id == 7
    engine.ok("clear_board")
    engine.ok("play red b2")
    engine.ok("play blue swap-pieces")
    move = engine.ok("genmove red")
    assert engine.ok("history") == f"b2 swap-pieces {move}"
    engine.ok("undo")
    assert engine.ok("history") == "b2 swap-pieces"
    assert "R red" in engine.ok("showboard")
    assert len(engine.ok("all_legal_moves").split()) == 35
    assert engine.ok("final_score") == "cannot score"
    assert engine.ok("winner") == "unknown"
    assert "final_score" in engine.ok("hexgui-analyze_commands")
    engine.ok("time -m 0.1")
    engine.ok("param_game allow_swap 1")
    engine.ok(f"loadsgf {record}")
    assert engine.ok("history") == "c3 d2 b4"
    engine.ok(f"loadsgf {record} 2")
    assert engine.ok("history") == "c3"
    failure = engine.ask("play red z99")
    assert not failure.ok and failure.text.startswith("illegal move")
    assert engine.ask("dance").text == "unknown command"
    assert engine.ok("quit") == ""
    code, error = engine.close()
    assert (code, error) == (0, "")


@pytest.mark.parametrize("game, size, colours, second_player", [
    ("hex", "6", "havhex", "random"), ("hex", "5", "benzene", "mcts"),
    ("hex", "5", "morat", "mcts"), ("havannah", "4", "havhex", "random"),
    ("havannah", "4", "morat", "mcts")])
def test_a_whole_game_between_two_engines(engines, game, size, colours, second_player):
    first = engines(game, "--size", size, "--player", "random", "--seed", "1",
                    "--colours", colours)
    budget = ["--simulations", "50"] if second_player == "mcts" else []
    second = engines(game, "--size", size, "--player", second_player, *budget,
                     "--seed", "2", "--colours", colours)
    words = {"havhex": ("red", "blue") if game == "hex" else ("white", "black"),
             "benzene": ("black", "white"), "morat": ("white", "black")}[colours]
    board = HexBoard(int(size)) if game == "hex" else HavannahBoard(int(size))
    seats = (first, second)
    seat = 0
    while not board.is_over:
        move = seats[seat].ok(f"genmove {words[seat]}")
        board.play(move)
        seats[1 - seat].ok(f"play {words[seat]} {move}")
        seat = 1 - seat
    if board.winner is None:
        expected_score, expected_winner = "0", "draw"
    else:
        colours_of_board = ("red", "blue") if game == "hex" else ("white", "black")
        word = words[colours_of_board.index(board.winner)]
        expected_score, expected_winner = word[0].upper() + "+", word
    for engine in seats:
        assert engine.ok("final_score") == expected_score
        assert engine.ok("winner") == expected_winner
        assert engine.ok(f"genmove {words[seat]}") == "resign"
        assert engine.ok("history").split() == [board.cell_name(m) for m in board.moves]
    for engine in seats:
        code, error = engine.close()     # end of input ends the engine
        assert (code, error) == (0, "")


def test_bad_input_is_answered_and_survived(engines):
    engine = engines("havannah", "--size", "3", "--player", "random", "--seed", "1")
    engine.process.stdin.write(b"\xff\xfe\x00 name\n\tplay\twhite\tZ9\n")
    engine.process.stdin.flush()
    assert engine.read_answer().text == "unknown command"
    assert engine.read_answer().text.startswith("illegal move")
    assert not engine.ask("boardsize 99999").ok
    assert engine.ok("name") == "havhex"
    code, error = engine.close()
    assert code == 0 and "Traceback" not in error


def test_answers_to_raw_lines():
    process = subprocess.run(
        [sys.executable, "-m", "havhex", "gtp", "hex", "--player", "random", "--seed", "1"],
        input=b"1 name\r\n\n# comment\n\xff\n2 play red a1\n3 play red a2\n4\nquit\nname\n",
        capture_output=True, timeout=60)
    assert process.returncode == 0
    assert process.stdout == (b"=1 havhex\n\n? unknown command\n\n=2\n\n"
                              b"?3 illegal move: it is blue's turn\n\n?4 unknown command\n\n"
                              b"=\n\n")
    assert process.stderr == b""


@pytest.mark.parametrize("args", [
    [], ["go"], ["hex", "--size", "0"], ["hex", "--size", "x"], ["hex", "--size", "129"],
    ["havannah", "--size", "1"], ["hex", "--rule", "fun"], ["hex", "--colours", "pink"],
    ["hex", "--simulations", "5", "--seconds", "1"], ["hex", "--seconds", "0"],
    ["hex", "--seconds", "nan"], ["hex", "--player", "random", "--simulations", "5"],
    ["hex", "--seed", "-1"], ["hex", "--fly"],
])
def test_usage_errors(cli, args):
    process = cli("gtp", *args, stdin=b"name\n")
    assert process.returncode == 2
    assert process.stdout == b""
    lines = process.stderr.decode().splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("usage: havhex gtp ")
    assert lines[1].startswith("havhex: error: ")


def test_help(cli):
    process = cli("gtp", "--help")
    assert process.returncode == 0
    assert b"--colours" in process.stdout


def test_a_closed_stdout_ends_quietly():
    process = subprocess.Popen(
        [sys.executable, "-m", "havhex", "gtp", "hex", "--player", "random"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()
    _, error = process.communicate(b"name\n" * 2000, timeout=60)
    assert process.returncode == 0
    assert b"Traceback" not in error


def test_the_session_in_the_docs_is_the_output(cli):
    page = Path(__file__).resolve().parents[2] / "docs" / "matches.md"
    if not page.is_file():
        pytest.skip("the docs are not beside the tests (installed package)")
    text = page.read_text(encoding="utf-8")
    block = text[text.index("$ printf '"):]
    block = block[:block.index("```")]
    command, shown = block.split("\n", 1)
    script = command[len("$ printf '"):command.index("' |")]
    words = command[command.index("| havhex ") + len("| havhex "):].split()
    process = cli(*words, stdin=script.encode().decode("unicode_escape").encode())
    assert process.returncode == 0
    assert process.stdout.decode() == shown


def test_verbose_reports_each_genmove_on_stderr(cli):
    process = cli("gtp", "hex", "--size", "5", "--simulations", "64", "--seed", "1",
                  "--verbose", stdin=b"genmove red\nplay blue a1\ngenmove red\n")
    assert process.returncode == 0
    moves = [line[2:] for line in process.stdout.decode().split("\n") if line.startswith("= ")]
    lines = process.stderr.decode().splitlines()
    assert len(lines) == 2 and len(moves) == 2
    for line, move in zip(lines, moves):
        assert re.fullmatch(rf"havhex gtp: genmove red {move}: [0-9.]+ s, 64 simulations, "
                            r"[0-9]+ simulations/s", line), line
