"""havhex gtp's default player (the search in C) against morat through
havhex match: a few games at a short time, each legal to its end and
recorded.  No strength is asserted: the strength figures are the matches'
in docs/engine.md, never a test's.  Skips without ../shared/engines, as the
other morat tests."""
import json
import subprocess
import sys

import pytest

from havhex.cli import main
from havhex.records import replay

FINISHES = ("connection", "ring", "bridge", "fork", "board full", "resign")


@pytest.mark.parametrize("game, size", [("hex", 7), ("havannah", 4)])
def test_the_search_plays_morat_legally_and_the_games_are_recorded(tmp_path, morat, capsys,
                                                                   game, size):
    ours = [sys.executable, "-m", "havhex", "gtp", game, "--seed", "5"]
    theirs = morat.command(game)
    records = tmp_path / "games"
    argv = [game, "--size", str(size),
            "--engine", f"cmd={subprocess.list2cmdline(ours)}", "name=havhex",
            "--engine", f"cmd={subprocess.list2cmdline(theirs)}", "name=morat", "dialect=morat",
            "--games", "2", "--openings", "plies=2", "--st", "0.05", "--margin", "0.5",
            "--records", str(records), "--jsonl", str(tmp_path / "m.jsonl"), "--quiet"]
    assert main(["match", *argv]) == 0
    lines = [json.loads(line) for line in (tmp_path / "m.jsonl").read_text().splitlines()]
    assert len(lines) == 2
    assert {tuple(line["names"]) for line in lines} == {("havhex", "morat"),
                                                        ("morat", "havhex")}
    for line, path in zip(lines, sorted(records.iterdir())):
        # No illegal move, no crash, no time loss: a game won or drawn on the board.
        assert line["reason"] in FINISHES, line
        (replayed,) = list(replay(str(path)))
        if line["winner"] is not None:
            assert replayed.win is not None and replayed.win.move == len(line["moves"])
        assert not line["claim_disagrees"], line["claims"]
    capsys.readouterr()
