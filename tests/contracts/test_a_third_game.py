"""A third game plugs in with one package and one registry line.

The toy game of tests/support/toy_game.py (a 3x3 connection game in plain
Python) is installed the way a user's package would be: a distribution
whose entry point in the group ``havhex.games`` names its descriptor (here
a ``.dist-info`` folder on the path, which is what pip writes).  Then
``havhex match`` referees two ``havhex gtp`` engines playing it at random,
and writes its results, the .dat table and the JSON Lines file, with no
file of src/ knowing the game.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import toy_game
from havhex import contract, games

SUPPORT = Path(__file__).resolve().parents[1] / "support"

pytestmark = pytest.mark.not_under_sanitizers("engine processes")


@pytest.fixture
def installed(tmp_path):
    """The environment of a process in which the toy game is installed."""
    info = tmp_path / "site" / "havhex_toy-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: havhex-toy\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[havhex.games]\ntoy = toy_game:DESCRIPTOR\n")
    path = [str(tmp_path / "site"), str(SUPPORT), os.environ.get("PYTHONPATH", "")]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, path))}


def test_the_toy_board_meets_the_board_contract():
    board = toy_game.Board(3)
    assert isinstance(board, contract.Board)
    for name, is_method in contract.members().items():
        assert callable(getattr(board, name)) == is_method, name


def replayed(moves, size=3, swap=True):
    """The toy board after ``moves`` (as the JSON Lines file gives them)."""
    board = toy_game.Board(size, swap)
    for move in moves:
        board.play(move if isinstance(move, str) else tuple(move))
    return board


def test_a_match_of_the_toy_game_between_two_havhex_gtp_engines(tmp_path, installed):
    engine = [sys.executable, "-m", "havhex", "gtp", "toy", "--player", "random"]
    argv = [sys.executable, "-m", "havhex", "match", "toy", "--size", "3", "--swap",
            "--engine", f"cmd={subprocess.list2cmdline(engine + ['--seed', '1'])}", "name=A",
            "--engine", f"cmd={subprocess.list2cmdline(engine + ['--seed', '2'])}", "name=B",
            "--games", "8", "--openings", "plies=1",
            "--jsonl", str(tmp_path / "m.jsonl"), "--dat", str(tmp_path / "m.dat")]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=300, env=installed,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("8 games: "), done.stdout
    lines = [json.loads(line) for line in (tmp_path / "m.jsonl").read_text().splitlines()]
    assert [line["index"] for line in lines] == list(range(1, 9))
    for line in lines:
        assert line["game"] == "toy" and line["size"] == 3 and line["names"] in (
            ["A", "B"], ["B", "A"])
        # The arbiter's result is the toy board's: the moves, replayed here
        # on a board of the test's own, end where the result says.
        board = replayed(line["moves"])
        assert board.is_over
        if line["reason"] == "connection":
            assert board.winner == toy_game.PLAYERS[line["winner"]]
        else:
            assert line["reason"] == "board full" and line["winner"] is None
            assert board.winner is None
    table = [row.split("\t") for row in (tmp_path / "m.dat").read_text().splitlines()
             if not row.startswith("#")]
    assert len(table) == 8
    assert [int(row[0]) for row in table] == list(range(1, 9))
    assert "# Game: toy" in (tmp_path / "m.dat").read_text()


def test_the_installed_game_is_found_by_name_and_listed(installed):
    code = ("from havhex import games; print(games.names()); "
            "print(games.get('toy').title, games.built_in('toy'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=installed, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["('havannah', 'hex', 'toy')", "Toy False"]


def test_an_unknown_game_names_the_games_there_are():
    with pytest.raises(games.UnknownGame, match="havannah, hex"):
        games.get("chess")


def test_registering_in_the_program_needs_a_free_name():
    with pytest.raises(ValueError, match="registered already"):
        games.register(games.get("hex"))
    with pytest.raises(TypeError):
        games.register("toy")


def test_a_built_in_games_judge_is_its_descriptors():
    """The registry finds a built-in game's judge without its descriptor
    (a judge run's start-up): the same module the descriptor names."""
    for name in games.BUILT_IN:
        assert games.judge_module(name) is games.get(name).judge_module()
    assert games.judge_module(name).FILE_JUDGE is games.get(name).file_judge()
    with pytest.raises(ValueError):
        games.judge_module("chess")
