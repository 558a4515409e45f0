"""The names of records before 0.2 (issue 35: *game* is which game, a
*record* one game's record) still work for one release, each with a
DeprecationWarning in Python and a warning line on the command line, and
give what the new names give."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from havhex import records
from havhex.draw import draw_record

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HEX_GAMES = EXAMPLES / "hex-games.sgf"


def test_records_game_is_record_with_a_warning():
    with pytest.warns(DeprecationWarning, match="records.Record"):
        old = records.Game
    assert old is records.Record
    with pytest.warns(DeprecationWarning, match="records.Record"):
        from havhex.records.game import Game
    assert Game is records.Record


def test_kind_is_game_and_replay_game_is_record_with_a_warning():
    replayed = next(records.replay(HEX_GAMES))
    record = replayed.record
    assert isinstance(record, records.Record) and record.game == "hex"
    with pytest.warns(DeprecationWarning, match="Record.game"):
        assert record.kind == "hex"
    with pytest.warns(DeprecationWarning, match="Replay.record"):
        assert replayed.game is record


def test_the_json_record_keeps_the_old_keys_for_one_release():
    first = next(records.replay(HEX_GAMES)).to_dict()
    assert first["record"] == first["game"] == 1 and first["kind"] == "hex"
    assert list(first)[:4] == ["file", "record", "game", "kind"]


def test_draw_record_takes_the_old_keywords_with_a_warning():
    new = draw_record(str(HEX_GAMES), record=2, game="hex")
    with pytest.warns(DeprecationWarning, match="record=N"):
        assert draw_record(str(HEX_GAMES), game=2) == new
    with pytest.warns(DeprecationWarning, match="game="):
        assert draw_record(str(HEX_GAMES), 2, kind="hex") == new


def run(*args):
    return subprocess.run([sys.executable, "-m", "havhex", *args], capture_output=True,
                          text=True)


def test_the_old_options_work_with_a_warning_line():
    text = HEX_GAMES.read_bytes()
    new = subprocess.run([sys.executable, "-m", "havhex", "replay", "--quiet", "--game", "hex",
                          "-"], input=text, capture_output=True)
    old = subprocess.run([sys.executable, "-m", "havhex", "replay", "--quiet", "--kind", "hex",
                          "-"], input=text, capture_output=True)
    assert new.returncode == old.returncode == 0 and new.stdout == old.stdout
    assert new.stderr == b""
    assert old.stderr.decode() == "havhex: warning: --kind is deprecated: use --game\n"
    drawn = run("draw", "record", str(HEX_GAMES), "--record", "2")
    old_drawn = run("draw", "record", str(HEX_GAMES), "--game", "2")
    assert drawn.returncode == old_drawn.returncode == 0 and drawn.stdout == old_drawn.stdout
    assert old_drawn.stderr == ("havhex: warning: --game N is deprecated for a record's "
                                "number: use --record N\n")
    assert json.loads(run("replay", "--quiet", "--format", "json",
                          str(HEX_GAMES)).stdout.splitlines()[0])["record"] == 1


@pytest.mark.parametrize("args, error", [
    (["replay", "--game", "2"], "argument --game: invalid choice: '2'"),
    (["draw", "record", str(HEX_GAMES), "--game", "0"], "argument --game: must be at least 1"),
    (["replay", "--game", "chess"], "argument --game: invalid choice: 'chess'"),
])
def test_a_number_is_a_record_number_for_draw_only(args, error):
    done = run(*args)
    assert done.returncode == 2 and error in done.stderr.splitlines()[-1]
