"""GtpPlayer against the fixture engines of tests/support/gtp_engines:
a correct engine plays through, and each misbehaviour is raised as the
kind the arbiter scores."""
import os
import shlex
import sys
import time

import pytest

from havhex.hex.board import Board as HexBoard
from havhex.havannah.board import Board as HavannahBoard
from havhex.match.engines import (CallablePlayer, ClockSettings, CommandRefused, EngineFailure,
                                  EngineSpec, GtpPlayer, make_player)

from engine_commands import fixture_command


def start(*flags, game="hex", dialect=None, **spec):
    player = GtpPlayer(EngineSpec(fixture_command(*flags, "--game", game), dialect=dialect,
                                  **spec), game)
    player.start(timeout=30)
    return player


def new_board(game, size):
    return HexBoard(size) if game == "hex" else HavannahBoard(size)


def self_play(player, game, size, plies, timeout=10):
    """The engine plays both seats ``plies`` moves (or to the end) on a
    havhex board; returns the board."""
    board = new_board(game, size)
    player.new_game(size, clock=None)
    for ply in range(plies):
        if board.is_over:
            break
        seat = ply % 2
        move = player.parse_move(player.genmove(seat, timeout), board)
        board.play(move)
    return board


@pytest.mark.parametrize("game,size", [("hex", 5), ("havannah", 4)])
@pytest.mark.parametrize("dialect", ["havhex", "morat", "benzene"])
def test_a_correct_engine_plays_whole_games(game, size, dialect):
    if dialect == "benzene" and game == "havannah":
        return
    player = start("--dialect", dialect, "--seed", 3, game=game, dialect=dialect)
    try:
        assert player.alive and player.dialect.name == dialect
        assert player.name == "fixture-random 1.0" and player.version == "1.0"
        assert "genmove" in player.commands
        board = self_play(player, game, size, 200)
        assert board.is_over
        # The fixture claims the last mover won, which is havhex's winner.
        claim = player.claimed_winner(5)
        winner = board.winner
        assert claim == (0 if winner in ("red", "white") else 1)
        # A second game on the same process, after clear_board.
        board = self_play(player, game, size, 4)
        assert len(board.moves) == 4
    finally:
        player.close()
    assert not player.alive


def test_the_arbiter_forwards_moves_in_the_dialects_words(tmp_path):
    player = start("--dialect", "benzene", dialect="benzene")
    try:
        player.new_game(5, swap=True)
        board = HexBoard(5, swap=True)
        player.play(0, (0, 2))
        board.play((0, 2))
        move = player.parse_move(player.genmove(1, 10), board)
        board.play(move)
        with pytest.raises(CommandRefused):
            player.play(1, (4, 4))  # out of turn: seat 0 is to move
        with pytest.raises(CommandRefused):
            player.play(0, board.moves[-1] if board.moves[-1] != "swap-pieces" else (0, 2))
        assert player.alive
    finally:
        player.close()


def test_detection_from_name_and_commands():
    for name, expected in [("morat-hex", "morat"), ("MoHex", "benzene"), ("x", "havhex")]:
        player = start("--dialect", expected, "--name", name)
        try:
            assert player.dialect.name == expected
        finally:
            player.close()


def test_illegal_cell_is_a_value_error_for_the_arbiter():
    player = start("--illegal")
    try:
        player.new_game(5)
        with pytest.raises(ValueError):
            player.parse_move(player.genmove(0, 10), HexBoard(5))
    finally:
        player.close()


def test_occupied_cell_parses_and_the_board_refuses_it():
    player = start("--occupied")
    try:
        player.new_game(5)
        board = HexBoard(5)
        board.play((2, 2))
        player.play(0, (2, 2))
        move = player.parse_move(player.genmove(1, 10), board)
        assert move == (2, 2)
        with pytest.raises(ValueError):
            board.play(move)
    finally:
        player.close()


def test_swap_at_move_three_is_read_as_the_swap_and_refused_by_the_board():
    player = start("--swap-at", 3, "--dialect", "benzene", dialect="benzene")
    try:
        board = HexBoard(5, swap=True)
        player.new_game(5, swap=True)
        for seat in (0, 1):
            board.play(player.parse_move(player.genmove(seat, 10), board))
        move = player.parse_move(player.genmove(0, 10), board)
        assert move == "swap-pieces"
        with pytest.raises(ValueError):
            board.play(move)
    finally:
        player.close()


def test_wrong_colour_shows_as_a_refused_play():
    player = start("--wrong-colour")
    try:
        board = HexBoard(5)
        player.new_game(5)
        board.play(player.parse_move(player.genmove(0, 10), board))
        with pytest.raises(CommandRefused):
            player.play(1, next(cell for cell in board.legal_moves() if cell != "swap-pieces"))
    finally:
        player.close()


def test_nonsense_is_a_value_error_and_garbage_a_protocol_failure():
    player = start("--nonsense")
    try:
        player.new_game(5)
        text = player.genmove(0, 10)
        assert text == "banana"
        with pytest.raises(ValueError):
            player.parse_move(text, HexBoard(5))
    finally:
        player.close()
    player = start("--garbled")
    player.new_game(5)
    with pytest.raises(EngineFailure) as failure:
        player.genmove(0, 10)
    assert failure.value.kind == "protocol"
    assert not player.alive


def test_a_hanging_engine_is_on_time_within_the_timeout_and_killed():
    player = start("--hang-after", 1)
    player.new_game(5)
    player.genmove(0, 10)
    process = player.process
    began = time.monotonic()
    with pytest.raises(EngineFailure) as failure:
        player.genmove(1, 0.5)
    took = time.monotonic() - began
    assert failure.value.kind == "on time"
    assert 0.45 <= took < 5
    assert process.poll() is not None and not player.alive
    # restart() gives a fresh process that answers again.
    player.restart()
    try:
        player.new_game(5)
        assert player.parse_move(player.genmove(0, 10), HexBoard(5))
    finally:
        player.close()


def test_a_crashing_engine_disconnects():
    player = start("--crash-after", 2)
    try:
        player.new_game(5)
        player.genmove(0, 10)
        player.genmove(1, 10)
        with pytest.raises(EngineFailure) as failure:
            player.genmove(0, 10)
        assert failure.value.kind == "disconnects"
        assert not player.alive
        with pytest.raises(EngineFailure) as failure:
            player.play(0, (0, 0))
        assert failure.value.kind == "disconnects"
    finally:
        player.close()


def test_a_false_claim_names_the_loser():
    player = start("--false-claim", "--seed", 5)
    try:
        board = self_play(player, "hex", 5, 200)
        winner = 0 if board.winner == "red" else 1
        assert player.claimed_winner(5) == 1 - winner
    finally:
        player.close()


def test_a_command_that_does_not_start_disconnects():
    player = GtpPlayer(EngineSpec(["/nonexistent/engine-binary"]), "hex")
    with pytest.raises(EngineFailure) as failure:
        player.start()
    assert failure.value.kind == "disconnects"


def test_an_engine_that_exits_at_once_disconnects():
    player = GtpPlayer(EngineSpec(fixture_command("--no-such-flag")), "hex")
    with pytest.raises(EngineFailure) as failure:
        player.start(timeout=30)
    assert failure.value.kind == "disconnects"


def test_stderr_goes_to_the_file_named(tmp_path):
    log = tmp_path / "engine.log"
    player = GtpPlayer(EngineSpec(fixture_command("--no-such-flag"), stderr=str(log)), "hex")
    with pytest.raises(EngineFailure):
        player.start(timeout=30)
    assert "no-such-flag" in log.read_text()


def test_time_and_init_commands_are_sent(tmp_path):
    player = start("--dialect", "morat", dialect="morat", init=["showboard"])
    try:
        player.new_game(5, clock=ClockSettings(base=10, increment=0.5))
        assert player.parse_move(player.genmove(0, 10, time_left=9.0), HexBoard(5))
    finally:
        player.close()
    player = GtpPlayer(EngineSpec(fixture_command(), init=["no_such_command"]), "hex")
    with pytest.raises(CommandRefused):
        player.start(timeout=30)
    player.close()


def test_engine_spec_from_options():
    spec = EngineSpec.from_options(["cmd=morat-hex --x 'a b'", "name=A", "dialect=morat",
                                    "dir=/tmp", "stderr=e.log", "init=verbose 0",
                                    "init=time -m 1"])
    assert spec.command == ("morat-hex", "--x", "a b")
    assert (spec.name, spec.dialect, spec.cwd, spec.stderr) == ("A", "morat", "/tmp", "e.log")
    assert spec.init == ("verbose 0", "time -m 1")
    spec = EngineSpec.from_options(["proto=gtp", "cmd=mohex", "arg=--seed", "arg=1 2"])
    assert spec.command == ("mohex", "--seed", "1 2")
    for words, message in [(["name=A"], "cmd="), (["cmd=x", "colour=red"], "colour=red"),
                           (["cmd=x", "dialect=gnugo"], "gnugo"), (["cmd=x", "name=A", "name=B"],
                                                                   "twice"),
                           (["cmd="], "no value"), (["cmd='unclosed"], "cmd="),
                           (["cmd=x", "proto=uci"], "gtp only")]:
        with pytest.raises(ValueError, match=message):
            EngineSpec.from_options(words)


def test_callable_players():
    def first_free(board, seat, time_left):
        return next(move for move in board.legal_moves() if not isinstance(move, str))

    for game, size in [("hex", 4), ("havannah", 3)]:
        player = make_player(EngineSpec(player=first_free), game)
        assert isinstance(player, CallablePlayer) and player.name == "first_free"
        player.new_game(size)
        board = new_board(game, size)
        # One callable plays both seats: its board takes each move it gives
        # (the arbiter forwards a move to the other player only).
        while not board.is_over:
            move = player.parse_move(player.genmove(len(board.moves) % 2, 1.0), board)
            board.play(move)
            assert player.board.moves == board.moves
        assert board.winner is not None

    def broken(board, seat, time_left):
        raise RuntimeError("network failed")

    player = make_player(EngineSpec(player=broken, name="net"), "hex")
    player.new_game(4)
    with pytest.raises(EngineFailure) as failure:
        player.genmove(0, 1.0)
    assert failure.value.kind == "disconnects" and "network failed" in str(failure.value)
    with pytest.raises(ValueError):
        player.parse_move("z9", HexBoard(4))
    assert player.parse_move("B2", HexBoard(4)) == (1, 1)
    assert player.parse_move("resign", HexBoard(4)) == "resign"


def test_crlf_line_ends_and_multi_line_answers_read_as_gtp():
    player = start("--crlf", "--dialect", "morat", "--seed", 2)
    try:
        assert "genmove" in player.commands and len(player.commands) > 5
        board = self_play(player, "hex", 5, 200)
        assert board.is_over
        assert player.claimed_winner(5) == (0 if board.winner == "red" else 1)
    finally:
        player.close()


def test_a_chatty_stderr_neither_blocks_nor_leaks_into_answers(tmp_path):
    # ~2 kB of stderr per command: without a reader a pipe would fill
    # (64 kB) within a game and the engine would stall.
    for stderr in (None, str(tmp_path / "chatty.log")):
        player = start("--chatty", "--seed", 4, stderr=stderr)
        try:
            for _ in range(3):
                board = self_play(player, "hex", 6, 200)
                assert board.is_over
        finally:
            player.close()
    assert (tmp_path / "chatty.log").stat().st_size > 64 * 1024


# benzene has no Havannah; havhex gtp names Havannah cells as the records
# do whatever its colours, which morat's cells are not.
@pytest.mark.parametrize("game,size,colours", [
    ("hex", 5, "havhex"), ("hex", 5, "benzene"), ("hex", 5, "morat"), ("havannah", 3, "havhex"),
])
def test_havhex_gtp_speaks_each_dialect(game, size, colours):
    """havhex's own engine (``havhex gtp``) under each dialect's colour
    words: the swap, cells both ways and its final claim agree with the
    board.  Its name says havhex, so the dialect is told, as a user of
    ``--colours`` tells it."""
    colours_dialect = colours
    command = [sys.executable, "-m", "havhex", "gtp", game, "--player", "random",
               "--seed", "7", "--colours", colours]
    player = GtpPlayer(EngineSpec(command, dialect=colours_dialect), game)
    player.start(timeout=60)
    try:
        assert player.name.startswith("havhex")
        # havhex gtp's swap is havhex's under every --colours (the stone
        # goes to the swapper); benzene's exchanges the players' colours,
        # which --colours does not mimic: no swap under benzene's words.
        swap = player.dialect.swap_word(game) is not None and not player.dialect.exchanges_colours
        board = HexBoard(size, swap=swap) if game == "hex" else HavannahBoard(size, swap=swap)
        player.new_game(size, swap=swap)
        first = (size // 2, 0) if game == "hex" else (size, size)
        board.play(first)
        player.play(0, first)
        if swap:
            board.play("swap-pieces" if game == "hex" else "swap")
            player.play(1, board.moves[-1])
        while not board.is_over:
            board.play(player.parse_move(player.genmove(len(board.moves) % 2, 30), board))
        assert player.claimed_winner(10) == {"red": 0, "white": 0}.get(board.winner, 1)
    finally:
        player.close()


@pytest.mark.parametrize("flags", [["--no-ids"], ["--blank-lines"], ["--no-ids", "--crlf"]])
def test_answers_without_ids_or_after_blank_lines_are_gtp(flags):
    player = start(*flags, "--seed", 6)
    try:
        board = self_play(player, "hex", 5, 200)
        assert board.is_over
        assert player.claimed_winner(5) == (0 if board.winner == "red" else 1)
    finally:
        player.close()


def test_an_engine_that_answers_twice_is_a_protocol_failure():
    player = start("--double-answer")
    player.new_game(5)
    player.genmove(0, 10)
    player.genmove(1, 10)   # answered twice: its next answer is the spare one
    with pytest.raises(EngineFailure) as failure:
        player.genmove(0, 10)
    assert failure.value.kind == "protocol" and "command" in str(failure.value)
    assert not player.alive


@pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX's")
def test_a_hung_engine_under_a_wrapper_script_is_killed_with_it(tmp_path):
    pid_file = tmp_path / "engine.pid"
    inner = shlex.join(fixture_command("--hang-after", 0, "--pid-file", pid_file))
    # The shell stays the engine's parent (not exec'd): killing only it
    # would leave the engine hanging.
    player = GtpPlayer(EngineSpec(["/bin/sh", "-c", f"{inner}; true"]), "hex")
    player.start(timeout=30)
    player.new_game(5)
    with pytest.raises(EngineFailure) as failure:
        player.genmove(0, 0.5)
    assert failure.value.kind == "on time"
    pid = int(pid_file.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and running(pid):
        time.sleep(0.05)
    if running(pid):
        pytest.fail(f"the engine under the wrapper (pid {pid}) still runs")


def running(pid):
    """Whether process ``pid`` runs (a zombie waiting for its reaper does
    not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return True


def test_castro_is_told_its_grid_coordinates():
    player = start("--dialect", "castro", "--name", "castro", "--seed", 8, game="havannah")
    try:
        assert player.dialect.name == "castro"
        board = HavannahBoard(4, swap=True)
        player.new_game(4, swap=True)
        # (2, 5) is e2 on morat's grid and E2 = (3, 5) in Little Golem's
        # names: an engine left in its other system refuses or misplaces it.
        board.play((2, 5))
        player.play(0, (2, 5))
        board.play("swap")
        player.play(1, "swap")
        while not board.is_over:
            board.play(player.parse_move(player.genmove(len(board.moves) % 2, 10), board))
        assert player.claimed_winner(5) == (0 if board.winner == "white" else 1)
    finally:
        player.close()


def test_a_forwarded_play_goes_with_the_next_command_and_its_refusal_with_it():
    """forward() sends the play in the same write as the engine's next
    command: a legal one is on the engine's board by then, and a refused one
    raises CommandRefused from that command, with both answers read (the
    command after it gets its own answer, not a stale one)."""
    player = start("--dialect", "benzene", dialect="benzene")
    try:
        player.new_game(5)
        board = HexBoard(5)
        player.forward(0, (0, 2))
        board.play((0, 2))
        move = player.parse_move(player.genmove(1, 10), board)
        assert move != (0, 2)
        board.play(move)
        player.forward(1, (4, 4))   # out of turn: seat 0 is to move
        with pytest.raises(CommandRefused) as refused:
            player.genmove(0, 10)
        assert refused.value.command.split()[0] == "play"
        # The engine answered that genmove too (its move is on its own
        # board): the commands after it get their own answers, each id its
        # own, so the next genmove is a cell, not a stale answer.
        assert isinstance(player.parse_move(player.genmove(1, 10), board), tuple)
        assert player.alive
    finally:
        player.close()


def test_two_forwards_in_a_row_each_reach_the_engine_once():
    """A forward with a play still pending sends that play first, once: the
    engine takes both moves, and its next move is on neither cell."""
    player = start("--dialect", "benzene", dialect="benzene")
    try:
        player.new_game(5)
        board = HexBoard(5)
        for seat, cell in ((0, (0, 2)), (1, (3, 3))):
            player.forward(seat, cell)
            board.play(cell)
        move = player.parse_move(player.genmove(0, 10), board)
        board.play(move)        # legal on the arbiter's board: not a cell taken
        # In turn for the engine too: nothing was played twice.
        player.play(1, next(cell for cell in board.legal_moves() if cell != "swap-pieces"))
    finally:
        player.close()
