"""What a match writes: records that `havhex replay` reads back with the
arbiter's outcome, gogui-twogtp's .dat, JSON Lines, the summary."""
import json
import subprocess
import sys

from havhex.match.arbiter import Clock, GameResult, play_game
from havhex.match.output import (DAT_COLUMNS, DatWriter, JsonlWriter, _elo, read_jsonl,
                                 record_text, result_text, summary, write_record)
from havhex.match.stats import Sprt
from havhex.records import replay
from match_fakes import EngineFailure, first_free, havannah_player, hex_player, seeded_random


def _games():
    """Results of every kind of end, in both games."""
    results = []
    for seed in range(3):
        results.append(play_game("hex", 6, (hex_player(seeded_random(seed)),
                                            hex_player(seeded_random(seed + 50)))))
        results.append(play_game("havannah", 4, (havannah_player(seeded_random(seed)),
                                                 havannah_player(seeded_random(seed + 50)))))
    results.append(play_game("hex", 5, (hex_player(first_free),
                                        hex_player(lambda board, seat: "resign"))))
    results.append(play_game("hex", 5, (hex_player(lambda board, seat: "z77"),
                                        hex_player(first_free))))
    results.append(play_game("havannah", 3, (havannah_player(first_free),
                                             havannah_player(lambda b, s: EngineFailure(
                                                 "disconnects")))))
    results.append(play_game("havannah", 3, (havannah_player(lambda b, s: 0.2),
                                             havannah_player(first_free)),
                             clock=Clock(per_move=0.01, margin=0.01)))
    results.append(play_game("hex", 5, (hex_player(first_free), hex_player(
        lambda b, s: "swap-pieces" if len(b) == 1 else first_free(b, s))), swap=True))
    for index, result in enumerate(results, 1):
        result.index = index
        result.names = (f"first {index}", "second]\\")
        result.versions = ("1.0", "")
    return results


def _winner_letter(result):
    letters = ("B", "W") if result.game == "hex" else ("W", "B")
    return letters[result.winner]


def test_records_replay_to_the_arbiters_result(tmp_path):
    results = _games()
    reasons = {result.reason for result in results}
    assert {"connection", "resign", "illegal move", "disconnects", "on time"} <= reasons
    assert reasons & {"ring", "bridge", "fork"}
    for result in results:
        path = write_record(result, str(tmp_path))
        assert path.endswith(".sgf" if result.game == "hex" else ".hgf")
        (replayed,) = list(replay(path, rule=result.rule))
        game = replayed.record
        assert game.game == result.game
        letters = ("B", "W") if result.game == "hex" else ("W", "B")
        assert game.properties["P" + letters[0]] == (f"first {result.index} 1.0",)
        assert game.properties["P" + letters[1]] == ("second]\\",)
        assert replayed.recorded == _winner_letter(result)
        assert replayed.illegal is None and "result-disagrees" not in replayed.flags
        assert replayed.moves == len(result.moves)
        if result.reason in ("connection", "ring", "bridge", "fork"):
            assert replayed.end == "structure"
            assert replayed.win.player == _winner_letter(result)
            assert replayed.win.move == len(result.moves)
            if result.game == "havannah":
                assert result.reason in replayed.win.kinds
        else:
            assert replayed.win is None
            assert replayed.end == ("resign" if result.reason == "resign" else "forfeit")


def test_havhex_replay_command_reads_the_records(tmp_path):
    results = _games()
    for result in results:
        write_record(result, str(tmp_path))
    files = sorted(str(path) for path in tmp_path.iterdir())
    done = subprocess.run([sys.executable, "-m", "havhex", "replay", "--format", "json", *files],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == len(results)
    for result, line in zip(results, lines):
        assert line["recorded"] == _winner_letter(result)


def test_result_text():
    result = GameResult("havannah", 4, winner=None, reason="board full")
    assert result_text(result) == "0"
    result = GameResult("havannah", 4, winner=0, reason="on time")
    assert result_text(result) == "W+Time"
    result = GameResult("hex", 4, winner=1, reason="resign")
    assert result_text(result) == "W+Resign"
    result = GameResult("hex", 4, winner=0, reason="connection")
    assert result_text(result) == "B+"
    assert "RE[B+]" in record_text(result)


def test_dat_has_gogui_twogtp_columns(tmp_path):
    results = _games()[:4]
    results[1].engines = (1, 0)
    results[0].claims = {0: 0, 1: None}
    path = tmp_path / "match.dat"
    writer = DatWriter(str(path), [("Black", "A"), ("White", "B")])
    for result in results:
        writer.add(result)
    writer.close()
    lines = path.read_text().splitlines()
    assert lines[:3] == ["# Black: A", "# White: B", "#"]
    assert lines[3] == "#" + "\t".join(DAT_COLUMNS)
    rows = [line.split("\t") for line in lines[4:]]
    assert [len(row) for row in rows] == [len(DAT_COLUMNS)] * 4
    first = dict(zip(DAT_COLUMNS, rows[0]))
    assert first["GAME"] == "1" and first["ALT"] == "0" and first["LEN"] == str(len(results[0].moves))
    assert first["RES_B"] == "B+" and first["RES_W"] == "?"
    assert first["RES_R"] == f"{'BW'[results[0].winner]}+"
    assert first["ERR"] == "0"
    assert dict(zip(DAT_COLUMNS, rows[1]))["ALT"] == "1"
    # Appending (a resumed match) adds rows, not a second header.
    writer = DatWriter(str(path), [("Black", "A")], append=True)
    writer.add(results[0])
    writer.close()
    assert path.read_text().count("#GAME") == 1
    assert len(path.read_text().splitlines()) == len(lines) + 1


def test_jsonl_round_trip_and_a_cut_last_line(tmp_path):
    results = _games()
    path = tmp_path / "match.jsonl"
    writer = JsonlWriter(str(path))
    for result in results:
        writer.add(result)
    writer.close()
    again = read_jsonl(str(path))
    assert [r.to_dict() for r in again] == [r.to_dict() for r in results]
    # A kill in the middle of a line leaves a line without its end: skipped.
    with open(path, "a") as stream:
        stream.write('{"index": 99, "game": "hex"')
    assert [r.index for r in read_jsonl(str(path))] == [r.index for r in results]
    assert read_jsonl(str(tmp_path / "absent.jsonl")) == []


def test_summary_counts_per_engine_and_pair():
    results = []
    for index, (engines, winner) in enumerate([((0, 1), 0), ((1, 0), 1), ((0, 1), None),
                                               ((1, 0), 0)], 1):
        results.append(GameResult("hex", 5, winner=winner,
                                  reason="connection" if winner is not None else "board full",
                                  engines=engines, index=index))
    text = summary(results, ["A", "B"], Sprt(0, 10), None)
    # A: won game 1 (first), game 2 (second), drew 3, lost 4 (second).
    assert "A: 2 W 1 D 1 L (moving first 1-1-0, second 1-0-1)" in text
    assert "A vs B: 2-1-1" in text
    assert "SPRT elo0=0 elo1=10" in text and "no decision" in text


def test_an_even_score_is_elo_plus_zero():
    # -400 log10(1) is -0.0, and a difference just below 0 rounds to it.
    results = [GameResult("hex", 5, winner=winner, reason="connection", engines=(0, 1),
                          index=index) for index, winner in enumerate((0, 1), 1)]
    line = summary(results, ["A", "B"]).splitlines()[-2]
    assert line.startswith("A vs B: 1-0-1, Elo +0.0 [-"), line
    assert "-0.0" not in summary(results, ["A", "B"])
    assert [_elo(value) for value in (-0.0, 0.0, -0.04, 0.04, -0.05, 12.34)] == [
        "+0.0", "+0.0", "+0.0", "+0.0", "-0.1", "+12.3"]


def _paired_games(winners, openings=None):
    """Games of engines 0 and 1, the seats reversed in each pair."""
    return [GameResult("hex", 5, winner=None if winner is None else
                       (winner if index % 2 else 1 - winner),
                       reason="connection" if winner is not None else "board full",
                       engines=(0, 1) if index % 2 else (1, 0), index=index,
                       opening_index=(index - 1) // 2 if openings is None else openings[index - 1])
            for index, winner in enumerate(winners, 1)]


def test_summary_says_a_one_sided_bound_and_counts_pairs():
    # Engine 0 wins all ten games, five pairs of an opening.
    text = summary(_paired_games([0] * 10), ["A", "B"])
    assert "A vs B: 10-0-0, Elo above +166.2 (95%, every game won), LOS" in text
    assert "A vs B: 5 pairs of an opening, Ptnml(0-2) [0, 0, 0, 0, 5] (DD 0, WL 0), " \
           "Elo above " in text
    assert "inf" not in text and "-0.0" not in text
    # Each pair split (one win each): even pairs, Elo 0 both ways.
    text = summary(_paired_games([0, 1] * 5), ["A", "B"])
    assert "Ptnml(0-2) [0, 0, 5, 0, 0] (DD 0, WL 5), Elo +0.0 [" in text
    text = summary(_paired_games([1] * 6), ["A", "B"])
    assert "A vs B: 0-0-6, Elo below -" in text and "every game lost" in text


class _Terminal:
    def __init__(self, tty):
        self.tty, self.text = tty, ""

    def isatty(self):
        return self.tty

    def write(self, text):
        self.text += text

    def flush(self):
        pass


def test_progress_line_only_on_a_terminal():
    from havhex.match.output import Progress

    terminal = _Terminal(True)
    progress = Progress(10, terminal)
    progress.update(3, "game 3: connection")
    assert terminal.text.endswith("3/10 game 3: connection") and terminal.text.startswith("\r")
    progress.close()
    assert terminal.text.endswith("\r\x1b[K")
    pipe = _Terminal(False)
    progress = Progress(10, pipe)
    progress.update(3, "x")
    progress.close()
    assert pipe.text == ""
