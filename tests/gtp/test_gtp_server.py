"""havhex.gtp.server.Engine: every command, the colour words of each
dialect, failures as GTP failures, random lines never crashing it."""
import io
import random

import pytest

from havhex.gtp import parse_command, parse_response
from havhex.gtp.players import RandomPlayer
from havhex import games
from havhex.gtp.server import COLOURS, COMMANDS, Engine
from havhex.havannah.board import Board as HavannahBoard
from havhex.hex.board import Board as HexBoard


def ask(engine, line):
    """The Response to ``line``, checking that the answer is whole GTP."""
    text = engine.handle(line)
    assert text is not None and text.endswith("\n\n") and "\n\n" not in text[:-2], text
    return parse_response(text[:-2])


def ok(engine, line):
    response = ask(engine, line)
    assert response.ok, (line, response)
    return response.text


def fails(engine, line):
    response = ask(engine, line)
    assert not response.ok, (line, response)
    return response.text


@pytest.fixture
def hex_engine():
    return Engine("hex", size=5, player=RandomPlayer(1))


@pytest.fixture
def havannah_engine():
    return Engine("havannah", size=4, player=RandomPlayer(1))


def test_administrative_commands(hex_engine):
    assert ok(hex_engine, "protocol_version") == "2"
    assert ok(hex_engine, "name") == "havhex"
    assert ok(hex_engine, "version")
    assert ok(hex_engine, "known_command genmove") == "true"
    assert ok(hex_engine, "known_command fly") == "false"
    assert ok(hex_engine, "known_command") == "false"


@pytest.mark.parametrize("game", ["hex", "havannah"])
def test_list_commands_are_known_and_answered(game):
    engine = Engine(game, player=RandomPlayer(2))
    listed = ok(engine, "list_commands").split("\n")
    assert tuple(listed) == COMMANDS[game]
    for name in ("protocol_version", "boardsize", "play", "genmove", "undo", "showboard",
                 "quit", "final_score", "all_legal_moves", "hexgui-analyze_commands",
                 "winner", "all_legal", "history", "time", "loadsgf", "param_game"):
        assert name in listed
        assert ok(engine, f"known_command {name}") == "true"
    assert ("swap-pieces" in listed) == (game == "hex")


def test_ids_are_repeated(hex_engine):
    assert hex_engine.handle("17 name") == "=17 havhex\n\n"
    assert hex_engine.handle("18 fly") == "?18 unknown command\n\n"
    assert hex_engine.handle("19") == "?19 unknown command\n\n"
    assert hex_engine.handle("   # nothing") is None
    assert hex_engine.handle("") is None


def test_play_genmove_and_the_board_agree(hex_engine):
    ok(hex_engine, "play red c3")
    move = ok(hex_engine, "genmove blue")
    assert hex_engine.board.moves[0] == (2, 2)
    assert hex_engine.board.cell_name(hex_engine.board.moves[1]) == move
    assert ok(hex_engine, "history") == f"c3 {move}"
    legal = ok(hex_engine, "all_legal_moves").split()
    assert len(legal) == 23 and "c3" not in legal and move not in legal
    assert ok(hex_engine, "all_legal").split() == legal


def test_turns_are_kept(hex_engine):
    assert "turn" in fails(hex_engine, "play blue a1")
    assert "turn" in fails(hex_engine, "genmove blue")
    assert hex_engine.board.moves == ()


@pytest.mark.parametrize("line, reason", [
    ("play red z9", "illegal move"),
    ("play red a0", "illegal move"),
    ("play red pass", "illegal move"),
    ("play red resign", "illegal move"),
    ("play red swap-pieces", "illegal move"),
    ("play green a1", "not a colour"),
    ("play red", "play takes"),
    ("play", "play takes"),
    ("genmove", "genmove takes"),
    ("boardsize", "boardsize takes"),
    ("boardsize x", "not a number"),
    ("boardsize 0", "unacceptable size"),
    (f"boardsize {games.get('hex').max_size + 1}", "unacceptable size"),
    ("boardsize 99999999999999999999", "not a number"),
    ("boardsize \u0663", "not a number"),
    ("boardsize 3 4 5", "boardsize takes"),
    ("undo", "cannot undo"),
    ("param_game allow_swap 2", "takes 0 or 1"),
    ("param_game fly 1", "unknown parameter"),
    ("time -m", "time takes"),
    ("time -m x", "not a number of seconds"),
    ("time -m -1", "not a number of seconds"),
    ("time -m nan", "not a number of seconds"),
    ("time_left red", "time_left takes"),
    ("time_settings 1 2", "time_settings takes"),
    ("loadsgf", "loadsgf takes"),
    ("loadsgf -", "takes a file"),
    ("loadsgf /nonexistent/game.sgf", "cannot load"),
])
def test_failures_are_gtp_failures(hex_engine, line, reason):
    assert reason in fails(hex_engine, line)
    assert hex_engine.board.moves == ()


def test_an_occupied_cell_is_illegal(hex_engine):
    ok(hex_engine, "play r a1")
    assert "illegal move" in fails(hex_engine, "play b a1")


def test_boardsize_square_and_rectangle():
    engine = Engine("hex", player=RandomPlayer(3))
    assert (engine.board.rows, engine.board.cols) == (11, 11)
    ok(engine, "boardsize 7")
    assert (engine.board.rows, engine.board.cols) == (7, 7)
    ok(engine, "boardsize 9 9")     # benzene's form
    assert (engine.board.rows, engine.board.cols) == (9, 9)
    ok(engine, "boardsize 4 3")     # width (columns), then height (rows)
    assert (engine.board.rows, engine.board.cols) == (3, 4)
    ok(engine, "play r d3")
    picture = ok(engine, "showboard")
    assert [line.split() for line in picture.split("\n") if line.startswith("3 ")] == [
        ["3", ".", ".", ".", "R", "3"]]


def test_havannah_boardsize():
    engine = Engine("havannah", player=RandomPlayer(3))
    assert engine.board.size == 8
    ok(engine, "boardsize 5")
    assert engine.board.size == 5
    ok(engine, "boardsize 6 6")
    assert engine.board.size == 6
    fails(engine, "boardsize 6 7")
    fails(engine, "boardsize 1")


def test_clear_board_and_undo(hex_engine):
    ok(hex_engine, "play r a1")
    ok(hex_engine, "genmove b")
    ok(hex_engine, "undo")
    assert hex_engine.board.moves == ((0, 0),)
    ok(hex_engine, "clear_board")
    assert hex_engine.board.moves == ()
    assert hex_engine.board.rows == 5


def test_showboard_is_one_answer(hex_engine, havannah_engine):
    ok(hex_engine, "play r b2")
    text = hex_engine.handle("showboard")
    assert text.startswith("=\n") and text.endswith("\n\n") and "\n\n" not in text[:-2]
    assert " R " in text
    assert ok(havannah_engine, "showboard")


def test_swap_pieces_as_a_move_and_as_a_command():
    engine = Engine("hex", size=5, swap=True, player=RandomPlayer(1))
    ok(engine, "play r b1")
    ok(engine, "play b swap-pieces")
    assert engine.board.moves == ((0, 1), "swap-pieces")
    assert engine.board.to_move == "red"
    ok(engine, "undo")
    ok(engine, "swap-pieces")
    assert engine.board.moves == ((0, 1), "swap-pieces")
    assert "illegal move" in fails(engine, "swap-pieces")
    ok(engine, "undo")
    assert ok(engine, "all_legal_moves").split()[-1] == "swap-pieces"
    assert "swap-sides" not in ok(engine, "all_legal_moves")
    assert "the swap is swap-pieces" in fails(engine, "play b swap-sides")


def test_swap_needs_the_pie_rule(hex_engine):
    ok(hex_engine, "play r b1")
    assert "illegal move" in fails(hex_engine, "play b swap-pieces")
    ok(hex_engine, "param_game allow_swap 1")
    assert ok(hex_engine, "param_game") == "[bool] allow_swap 1"
    assert hex_engine.board.moves == ((0, 1),)
    ok(hex_engine, "play b swap-pieces")
    assert "cannot turn the swap off" in fails(hex_engine, "param_game allow_swap 0")
    assert hex_engine.board.swap


def test_havannah_swap(havannah_engine):
    ok(havannah_engine, "swap 1")
    ok(havannah_engine, "play w B2")
    ok(havannah_engine, "play b swap")
    assert havannah_engine.board.moves == ((2, 2), "swap")
    assert ok(havannah_engine, "history") == "B2 swap"


@pytest.mark.parametrize("colours, first, second", [
    ("havhex", ["red", "r", "RED", "R"], ["blue", "b", "Blue"]),
    ("benzene", ["black", "b", "B", "red"], ["white", "w", "W", "blue"]),
    ("morat", ["white", "w", "red"], ["black", "b", "blue"]),
])
def test_hex_colour_words(colours, first, second):
    engine = Engine("hex", size=4, player=RandomPlayer(1), colours=colours)
    for word in first:
        ok(engine, f"play {word} a1")
        ok(engine, "undo")
        assert "turn" in fails(engine, f"genmove {second[0]}")
    ok(engine, f"play {first[0]} a1")
    for word in second:
        ok(engine, f"genmove {word}")
        ok(engine, "undo")
        assert "turn" in fails(engine, f"play {first[0]} b1")


def test_havhex_hex_colours_refuse_black_and_white():
    engine = Engine("hex", size=4, player=RandomPlayer(1))
    assert "not a colour" in fails(engine, "play white a1")
    assert "not a colour" in fails(engine, "play w a1")


@pytest.mark.parametrize("colours", sorted(COLOURS))
@pytest.mark.parametrize("game", ["hex", "havannah"])
def test_a_full_game_ends_with_the_boards_winner(game, colours):
    engine = Engine(game, size=4, player=RandomPlayer(5), colours=colours)
    first, second = COLOURS[colours][game]
    assert ok(engine, "final_score") == "cannot score"
    assert ok(engine, "winner") == "unknown"
    turn = 0
    while not engine.board.is_over:
        move = ok(engine, f"genmove {(first, second)[turn]}")
        assert move not in ("resign", "pass")
        turn = 1 - turn
    board = engine.board
    assert ok(engine, "genmove " + first) == "resign"
    assert "game is over" in fails(engine, f"play {(first, second)[turn]} a1")
    assert ok(engine, "all_legal_moves") == ""
    if board.winner is None:
        assert ok(engine, "final_score") == "0"
        assert ok(engine, "winner") == "draw"
        return
    seat = ("red", "blue").index(board.winner) if game == "hex" else \
        ("white", "black").index(board.winner)
    assert ok(engine, "winner") == (first, second)[seat]
    assert ok(engine, "final_score") == (first, second)[seat][0].upper() + "+"
    # The replayed game agrees: the same moves on a fresh board.
    fresh = HexBoard(4) if game == "hex" else HavannahBoard(4)
    for name in ok(engine, "history").split():
        fresh.play(name)
    assert fresh.winner == board.winner


def test_havannah_rule_decides_the_engines_rings():
    # A ring around an enclosed stone of the other player counts under
    # both rules; around an empty cell only under the official one.
    assert Engine("havannah", rule="contest").board.rule == "contest"
    assert Engine("havannah").board.rule == "official"
    with pytest.raises(ValueError):
        Engine("havannah", rule="fun")
    with pytest.raises(ValueError):
        Engine("go")
    with pytest.raises(ValueError):
        Engine("hex", colours="purple")


def test_hexgui_analyze_commands_name_known_commands(hex_engine):
    for line in ok(hex_engine, "hexgui-analyze_commands").split("\n"):
        kind, label, command = line.split("/")
        assert kind in ("none", "string", "plist")
        assert ok(hex_engine, f"known_command {command.split()[0]}") == "true"


def test_a_clock_caps_a_chosen_count():
    from havhex.gtp.players import MctsPlayer
    player = MctsPlayer(simulations=50, seed=1)
    engine = Engine("hex", size=4, player=player)
    ok(engine, "time -m 0.25")
    assert (player.seconds, player.simulations) == (0.25, 50)
    ok(engine, "time_settings 0 10 1")
    assert (player.seconds, player.simulations) == (pytest.approx(9.8), 50)
    ok(engine, "time_settings 0 0.1 1")
    assert player.seconds == pytest.approx(0.098)
    ok(engine, "time_settings 0 0 0")
    assert (player.seconds, player.simulations) == (None, 50)


def test_time_commands_set_the_budget():
    from havhex.gtp.players import MctsPlayer
    player = MctsPlayer(seed=1)
    engine = Engine("hex", size=4, player=player)
    ok(engine, "time -m 0.25")
    assert (player.seconds, player.simulations) == (0.25, None)
    ok(engine, "time_left red 30 0")
    assert engine.time_left == [30.0, None]
    ok(engine, "time_settings 0 2 4")
    assert player.seconds == pytest.approx(0.49)
    ok(engine, "time -g 60")
    assert engine.time_left == [60.0, 60.0]
    ok(engine, "genmove red")
    assert 0 < engine.time_left[0] < 60.0 and engine.time_left[1] == 60.0
    # A new game starts with the game's clock again.
    ok(engine, "clear_board")
    assert engine.time_left == [60.0, 60.0]
    ok(engine, "time_settings 0 1 1")
    ok(engine, "boardsize 5")
    assert engine.time_left == [None, None]


def test_quit_ends_serve():
    engine = Engine("hex", size=3, player=RandomPlayer(1))
    stdout = io.StringIO()
    engine.serve(io.StringIO("1 name\n\n# comment\nquit\nname\n"), stdout)
    assert stdout.getvalue() == "=1 havhex\n\n=\n\n"
    assert engine.finished


def test_serve_reads_bytes_and_ends_at_eof():
    engine = Engine("hex", size=3, player=RandomPlayer(1))
    stdout = io.StringIO()
    engine.serve(io.BytesIO(b"name\n\xff\xfeplay\nprotocol_version"), stdout)
    assert stdout.getvalue() == "= havhex\n\n? unknown command\n\n= 2\n\n"
    assert not engine.finished


def _record(tmp_path, game, moves, size):
    from havhex.records import read
    if game == "hex":
        names = "".join(f";{'BW'[i % 2]}[{HexBoard(size).cell_name(m) if not isinstance(m, str) else m}]"
                        for i, m in enumerate(moves))
        text = f"(;FF[4]GM[11]SZ[{size}]{names})"
        path = tmp_path / "game.sgf"
    else:
        board = HavannahBoard(size)
        names = "".join(f";{'WB'[i % 2]}[{board.cell_name(m) if not isinstance(m, str) else m}]"
                        for i, m in enumerate(moves))
        text = f"(;FF[4]SZ[{size}]{names})"
        path = tmp_path / "game.hgf"
    path.write_text(text)
    assert next(read(path)).game == game
    return path


def test_loadsgf_hex(tmp_path, hex_engine):
    path = _record(tmp_path, "hex", [(0, 0), (1, 1), (2, 2)], 6)
    ok(hex_engine, f"loadsgf {path}")
    assert hex_engine.board.moves == ((0, 0), (1, 1), (2, 2))
    assert hex_engine.board.rows == 6
    ok(hex_engine, f"loadsgf {path} 3")
    assert hex_engine.board.moves == ((0, 0), (1, 1))
    ok(hex_engine, f"loadsgf {path} 1")
    assert hex_engine.board.moves == ()
    ok(hex_engine, "genmove r")


def test_loadsgf_hex_with_a_swap(tmp_path, hex_engine):
    path = _record(tmp_path, "hex", [(0, 1), "swap-pieces", (3, 3)], 5)
    ok(hex_engine, f"loadsgf {path}")
    assert hex_engine.board.moves == ((0, 1), "swap-pieces", (3, 3))


def test_loadsgf_havannah(tmp_path, havannah_engine):
    path = _record(tmp_path, "havannah", [(1, 1), (2, 2), (3, 3)], 5)
    ok(havannah_engine, f"loadsgf {path}")
    assert havannah_engine.board.moves == ((1, 1), (2, 2), (3, 3))
    assert havannah_engine.board.size == 5


def test_loadsgf_refuses_the_other_game_and_broken_files(tmp_path, hex_engine):
    path = _record(tmp_path, "havannah", [(1, 1)], 4)
    ok(hex_engine, "play r a1")
    assert "cannot load" in fails(hex_engine, f"loadsgf {path}")
    broken = tmp_path / "broken.sgf"
    broken.write_bytes(b"(;FF[4]GM[11]SZ[5];B[a1];W[a1])")
    fails(hex_engine, f"loadsgf {broken}")
    garbage = tmp_path / "garbage.sgf"
    garbage.write_bytes(b"\x00\x01 not sgf")
    assert "cannot load" in fails(hex_engine, f"loadsgf {garbage}")
    assert hex_engine.board.moves == ((0, 0),)


def test_loadsgf_of_a_shared_record():
    import needs
    folder = needs.shared("records", "littlegolem-havannah", need="records")
    path = sorted(folder.glob("*.hgf"))[0]
    from havhex.records import replay
    result = next(replay(path))
    engine = Engine("havannah", player=RandomPlayer(1))
    ok(engine, f"loadsgf {path}")
    assert len(engine.board.moves) == result.moves
    assert engine.board.size == result.record.size


WORDS = ["play", "genmove", "boardsize", "undo", "showboard", "final_score", "winner",
         "all_legal_moves", "history", "param_game", "allow_swap", "swap", "swap-pieces",
         "time", "-m", "-g", "time_left", "time_settings", "loadsgf", "clear_board",
         "known_command", "list_commands", "red", "blue", "white", "black", "r", "b", "w",
         "a1", "b2", "c3", "A1", "e5", "z99", "0", "1", "3", "5", "-1", "1e9", "nan",
         "\t", "#", "\x00", "\x7f", "\u0663", "é", "pass", "resign", "quit", "hexgui-analyze_commands"]


@pytest.mark.parametrize("game", ["hex", "havannah"])
def test_random_lines_get_well_formed_answers(game):
    rng = random.Random(25)
    engine = Engine(game, size=4, swap=True, player=RandomPlayer(3))
    answered = 0
    for _ in range(3000):
        line = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(0, 5)))
        if rng.random() < 0.2:
            line = f"{rng.randrange(100)} {line}"
        if "quit" in line:
            continue
        if "boardsize" in line:
            line = line.replace("1e9", "4")
        text = engine.handle(line)
        if text is None:
            continue
        answered += 1
        assert text.endswith("\n\n") and "\n\n" not in text[:-2], (line, text)
        response = parse_response(text[:-2])
        assert response.id == parse_command(line).id
        # No bug surfaced as the engine's last-resort failure.
        assert "internal error" not in response.text, (line, text)
    assert answered > 2000


def _rows(picture):
    """The board's rows of a showboard picture, by their first word."""
    return {line.split()[0]: line.split()[1:] for line in picture.split("\n")[1:]
            if line.split() and line.split()[-1] == line.split()[0]}


def test_hex_showboard_names_rows_and_columns_as_moves_do(hex_engine):
    ok(hex_engine, "play red c3")
    ok(hex_engine, "play blue e1")
    picture = ok(hex_engine, "showboard")
    lines = picture.split("\n")
    assert lines[0] == "red to move; 2 moves, the last e1"
    assert lines[1].split() == ["a", "b", "c", "d", "e"]
    rows = _rows(picture)
    assert rows["1"] == [".", ".", ".", ".", "B", "1"]
    assert rows["3"] == [".", ".", "R", ".", ".", "3"]
    assert sorted(rows) == ["1", "2", "3", "4", "5"]
    assert "R red" in lines[-1] and "B blue" in lines[-1]


def test_hex_showboard_of_many_columns_and_after_the_swap():
    engine = Engine("hex", size=3, swap=True, player=RandomPlayer(1))
    ok(engine, "boardsize 30 2")
    ok(engine, "play red ab2")
    picture = ok(engine, "showboard").split("\n")
    # Columns past z are two letters, written one above the other.
    first, second = picture[1].split(), picture[2].split()
    assert second[26:28] == ["a", "b"] and first[:2] == ["a", "a"]
    assert _rows("\n".join(picture))["2"][27] == "R"
    ok(engine, "boardsize 5")
    ok(engine, "play red b3")
    ok(engine, "play blue swap-pieces")
    # swap-pieces: the stone, mirrored, is blue's.
    assert _rows(ok(engine, "showboard"))["2"] == [".", ".", "B", ".", ".", "2"]


def test_havannah_showboard_draws_both_players_and_names_the_colours(havannah_engine):
    for line in ("play white A1", "play black B2", "play white D7", "play black G1"):
        ok(havannah_engine, line)
    picture = ok(havannah_engine, "showboard")
    rows = _rows(picture)
    assert rows["A"] == ["W", ".", ".", ".", "A"]
    assert rows["B"] == [".", "B", ".", ".", ".", "B"]
    assert rows["D"] == [".", ".", ".", ".", ".", ".", "W", "D"]
    assert rows["G"] == ["B", ".", ".", ".", "G"]
    assert picture.split("\n")[0] == "white to move; 4 moves, the last G1"
    assert "W white  B black" in picture.split("\n")[-1]


def test_showboard_speaks_the_engines_colour_words():
    engine = Engine("hex", size=4, colours="benzene", player=RandomPlayer(1))
    ok(engine, "play black a1")
    picture = ok(engine, "showboard").split("\n")
    assert picture[0] == "white to move; 1 move, the last a1"
    assert picture[-1] == "here red is black and blue is white (colours benzene)"
    engine = Engine("havannah", size=2, player=RandomPlayer(1))
    # Every cell of base 2 but the centre is a corner: A1 and A2 make a bridge.
    for move in ("A1", "B2", "A2"):
        ok(engine, f"play {'wb'[len(engine.board.moves) % 2]} {move}")
    assert ok(engine, "showboard").split("\n")[0].startswith("white wins")


@pytest.mark.parametrize("game, first, second, cell", [
    ("hex", "red", "blue", "c2"), ("havannah", "white", "black", "C2")])
def test_an_illegal_cell_is_named_as_moves_name_it(game, first, second, cell):
    engine = Engine(game, size=4, player=RandomPlayer(1))
    ok(engine, f"play {first} {cell.upper() if game == 'hex' else cell}")
    assert fails(engine, f"play {second} {cell}") == f"illegal move: {cell} is taken"
    reason = fails(engine, f"play {second} z99")
    assert reason.startswith("illegal move: 'z99' is not a cell of this board") and \
        "(" not in reason.split("board")[0]


def test_time_settings_replaces_the_last_clock():
    from havhex.gtp.players import MctsPlayer
    player = MctsPlayer(seconds=1, seed=1)
    engine = Engine("hex", size=4, player=player)
    ok(engine, "time_settings 0 0.1 1")
    assert (player.seconds, player.simulations) == (pytest.approx(0.098), None)
    # A longer clock lifts the shorter one's time, and replaces --seconds.
    ok(engine, "time_settings 0 10 1")
    assert player.seconds == pytest.approx(9.8)
    ok(engine, "time_settings 0 0 0")
    assert (player.seconds, player.simulations) == (1, None)
    ok(engine, "time -m 0.3")
    ok(engine, "time_settings 0 1 0")       # GTP's "no time limits"
    assert (player.seconds, player.simulations) == (1, None)
    default = MctsPlayer(seed=1)
    engine = Engine("hex", size=4, player=default)
    ok(engine, "time_settings 0 2 4")
    assert (default.seconds, default.simulations) == (pytest.approx(0.49), None)
    ok(engine, "time_settings 0 0 0")
    assert (default.seconds, default.simulations) == (None, 1000)
    ok(engine, "time -m 0.5")
    ok(engine, "time -m 0")
    assert (default.seconds, default.simulations) == (None, 1000)
    ok(engine, "time_settings 30 5 1")      # main time: a game clock, no time a move
    assert (default.seconds, default.simulations, engine.time_left) == (None, 1000, [30, 30])


def test_a_new_clock_gives_the_search_its_time():
    from havhex.gtp.players import MctsPlayer
    import time
    engine = Engine("hex", size=11, player=MctsPlayer(seconds=0.2, seed=1))

    def seconds_a_move():
        started = time.perf_counter()
        ok(engine, "genmove red")
        elapsed = time.perf_counter() - started
        ok(engine, "undo")
        return elapsed

    ok(engine, "time_settings 0 0.05 1")
    assert seconds_a_move() < 0.15
    ok(engine, "time_settings 0 0.5 1")
    assert seconds_a_move() > 0.35
    ok(engine, "time_settings 0 0 0")
    assert 0.15 < seconds_a_move() < 0.35
