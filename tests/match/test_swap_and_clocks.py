"""Each engine family on its own terms: benzene's swap (the stone keeps
its colour, the players exchange colours) against havhex's (the stone goes
to the swapper), checked on both engines' boards after the swap; and each
family's clock commands, a refusal of one seen and kept, never a lost
game."""
import json

import pytest

from havhex.hex.board import Board as HexBoard
from havhex.match.arbiter import Clock, play_game
from havhex.match.dialects import DIALECTS
from havhex.match.engines import ClockSettings, EngineSpec, make_player
from havhex.match.output import summary

from engine_commands import fixture_command

pytestmark = pytest.mark.not_under_sanitizers("engine processes and timing")

BENZENE = DIALECTS["benzene"]


def engine(*flags, dialect="havhex", name=None):
    return make_player(EngineSpec(fixture_command("--dialect", dialect, *flags),
                                  dialect=dialect, name=name or dialect), "hex")


def _commands(log):
    """The commands an engine read, without their ids."""
    commands = []
    for line in log.read_text().splitlines():
        words = line.split(None, 1)
        commands.append(words[1] if len(words) == 2 and words[0].isdigit() else line)
    return commands


def test_benzenes_swap_exchanges_the_colours_and_mirrors_the_cells():
    # Before the swap: seat 0 black, cells as havhex names them.
    assert BENZENE.play("hex", 5, 0, (2, 3)) == "play black d3"
    assert BENZENE.play("hex", 5, 1, "swap-pieces") == "play white swap-pieces"
    # After it: seat 0 plays white and seat 1 black, on havhex's board
    # mirrored (havhex's swap-pieces put the stone on c4, benzene's stays
    # on d3: a move havhex names c4 is benzene's d3).
    assert BENZENE.play("hex", 5, 0, (1, 4), swapped=True) == "play white b5"
    assert BENZENE.genmove("hex", 1, swapped=True) == "genmove black"
    assert BENZENE.parse_cell("hex", 5, "b5", swapped=True) == (1, 4)
    assert BENZENE.parse_result("B+", "hex", swapped=True) == 1
    assert BENZENE.parse_result("W+", "hex", swapped=True) == 0
    assert BENZENE.parse_result("B+", "hex") == 0
    # havhex's own swap keeps every word.
    havhex = DIALECTS["havhex"]
    assert havhex.play("hex", 5, 0, (1, 4), swapped=True) == "play red e2"
    assert not havhex.exchanges_colours and BENZENE.exchanges_colours


def test_benzenes_board_is_read_from_its_showboard():
    board = HexBoard(5, swap=True)
    for move in [(2, 3), "swap-pieces", (1, 4), (0, 0)]:
        board.play(move)
    expected = BENZENE.engine_board("hex", 5, board.moves)
    # The first stone stays black on d3; the next is white, mirrored.
    assert expected == {"d3": 0, "b5": 1, "a1": 0}
    shown = ("\n  0\n  a  b  c  d  e  \n 1\\B  .  .  .  .\\1\n  2\\.  .  .  .  .\\2\n"
             "   3\\.  .  .  B  .\\3\n    4\\.  .  .  .  .\\4\n     5\\.  W  .  .  .\\5\n"
             "        a  b  c  d  e  ")
    assert BENZENE.read_board("hex", 5, shown) == expected
    assert BENZENE.read_board("hex", 5, "\n" + "c3 swap-pieces") is None
    assert BENZENE.read_board("hex", 6, shown) is None
    assert DIALECTS["havhex"].engine_board("hex", 5, board.moves) is None


@pytest.mark.parametrize("benzene_seat", [0, 1])
def test_a_swap_game_against_a_benzene_engine_is_one_board_on_both_sides(benzene_seat):
    """The second player swaps at once; every move after it reaches the
    benzene engine in its terms: it takes them all, its board is the
    arbiter's (its showboard, read after the game), and its claim of the
    winner agrees with havhex's judge."""
    for seed in range(4):
        players = [engine("--swap-at", "2", "--seed", str(seed)),
                   engine("--swap-at", "2", "--seed", str(seed + 10), dialect="benzene")]
        if benzene_seat == 0:
            players.reverse()
        try:
            for player in players:
                player.start(timeout=30)
            result = play_game("hex", 5, players, swap=True)
            assert result.moves[1] == "swap-pieces"
            assert result.reason == "connection", result.detail
            assert not result.claim_disagrees and result.claims[benzene_seat] == result.winner
            board = HexBoard(5, swap=True)
            for move in result.moves:
                board.play(move)
            benzene = players[benzene_seat]
            assert benzene.check_board(board) is None
            shown = benzene._ask("showboard", None).text
            assert BENZENE.read_board("hex", 5, shown) == \
                BENZENE.engine_board("hex", 5, result.moves)
            assert result.notes == []
        finally:
            for player in players:
                player.close()


def test_a_benzene_engine_that_swaps_as_havhex_does_is_flagged():
    """An engine that says benzene's words but moves the stone as havhex
    does (and takes moves of any colour, as MoHex's play does) would play
    on another board without a word: the check after the swap finds it."""
    players = [engine("--seed", "1"),
               engine("--swap-at", "2", "--mirror-swap", "--seed", "2", dialect="benzene",
                      name="mirror")]
    try:
        for player in players:
            player.start(timeout=30)
        result = play_game("hex", 5, players, swap=True)
    finally:
        for player in players:
            player.close()
    assert result.moves[1] == "swap-pieces" and len(result.moves) == 3
    assert (result.winner, result.reason) == (0, "illegal move")
    assert result.detail.startswith("board disagrees after the swap"), result.detail


def test_a_swap_match_on_the_command_line_against_a_benzene_engine(tmp_path, engine_command,
                                                                  capsys):
    from havhex import cli

    def spec(*flags, name):
        return ["--engine", "cmd=" + " ".join(engine_command(*flags)), f"name={name}"]

    argv = ["match", "hex", "--size", "5", "--swap", "--games", "8",
            *spec("--swap-at", "2", "--seed", "3", name="H"),
            *spec("--dialect", "benzene", "--swap-at", "2", "--seed", "4", name="MoHexLike"),
            "--jsonl", str(tmp_path / "m.jsonl")]
    assert cli.main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("8 games: 8 connection"), out
    assert "claimed another result" not in out
    lines = [json.loads(line) for line in (tmp_path / "m.jsonl").read_text().splitlines()]
    assert all(line["moves"][1] == "swap-pieces" for line in lines)


def test_benzene_is_told_its_time_left_in_two_arguments(tmp_path):
    log = tmp_path / "commands.log"
    player = engine("--log", str(log), "--seed", "1", dialect="benzene")
    try:
        player.start(timeout=30)
        player.new_game(5, clock=ClockSettings(base=20, increment=0.5))
        assert player.genmove(0, 10, time_left=19.5)
    finally:
        player.close()
    sent = _commands(log)
    assert "param_game game_time 20" in sent
    assert "time_left black 19.5" in sent
    assert player.notes == []


def test_a_refused_time_left_is_tried_in_another_form_then_noted(tmp_path):
    log = tmp_path / "commands.log"
    player = engine("--log", str(log), "--seed", "1", "--refuse", "time_left")
    try:
        player.start(timeout=30)
        player.new_game(5, clock=ClockSettings(base=20))
        for seat in (0, 1, 0):
            assert player.genmove(seat, 10, time_left=15.0)
    finally:
        player.close()
    sent = _commands(log)
    # GTP's three arguments, then benzene's two, each once: then no more.
    assert [command for command in sent if command.startswith("time_left")] == \
        ["time_left red 15 0", "time_left red 15"]
    assert any("took no form of time_left" in note for note in player.notes)


def test_a_refused_clock_is_noted_and_the_game_played(tmp_path):
    players = [engine("--refuse", "time_settings", "--seed", "1", name="R"),
               engine("--seed", "2", name="S")]
    try:
        for player in players:
            player.start(timeout=30)
        result = play_game("hex", 5, players, clock=Clock(per_move=5))
    finally:
        for player in players:
            player.close()
    assert result.reason == "connection"
    assert result.notes and result.notes[0].startswith("R: refused 'time_settings 0 5 1'")
    assert result.to_dict()["notes"] == result.notes
    assert f"note, 1 game: {result.notes[0]}" in summary([result], ["R", "S"])
