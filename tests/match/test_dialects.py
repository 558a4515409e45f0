"""The engine families' words: cells both ways, colours, board sizes,
swap, time and result commands, and detection from name and commands."""
import pytest

from havhex.havannah.board import Board as HavannahBoard
from havhex.havannah.board import name_of_cell as havannah_name
from havhex.hex.board import Board as HexBoard
from havhex.hex.board import name_of_cell as hex_name
from havhex.match.dialects import DIALECTS, detect
from havhex.match.engines import ClockSettings


def havannah_cells(size):
    return [(x, y) for x in range(1, 2 * size) for y in range(1, 2 * size)
            if abs(x - y) <= size - 1]


@pytest.mark.parametrize("dialect", sorted(name for name in DIALECTS
                                            if "hex" in DIALECTS[name].games))
@pytest.mark.parametrize("size", [1, 5, 11, 19, 27])
def test_hex_cells_are_havhex_names_for_every_family(dialect, size):
    words = DIALECTS[dialect]
    for row in range(size):
        for col in range(size):
            name = words.cell_name("hex", size, (row, col))
            assert name == hex_name((row, col))
            assert words.parse_cell("hex", size, name) == (row, col)
            assert words.parse_cell("hex", size, name.upper()) == (row, col)


@pytest.mark.parametrize("size", [2, 4, 8, 10])
def test_havhex_havannah_cells_are_the_records_names(size):
    words = DIALECTS["havhex"]
    board = HavannahBoard(size)
    for cell in havannah_cells(size):
        name = words.cell_name("havannah", size, cell)
        assert name == havannah_name(size, cell) == board.cell_name(cell)
        assert words.parse_cell("havannah", size, name) == cell
        assert words.parse_cell("havannah", size, name.lower()) == cell


@pytest.mark.parametrize("size", [3, 4, 8, 10])
def test_morat_havannah_cells_cover_its_array_less_two_corners(size):
    words = DIALECTS["morat"]
    names = {words.cell_name("havannah", size, cell) for cell in havannah_cells(size)}
    assert len(names) == 3 * size * (size - 1) + 1
    # morat's own board: column letter x, row number y + 1 over the
    # (2N-1) x (2N-1) array, on the board when |x - y| < N.
    theirs = {f"{chr(ord('a') + x)}{y + 1}" for x in range(2 * size - 1)
              for y in range(2 * size - 1) if abs(x - y) < size}
    assert names == theirs
    for name in names:
        cell = words.parse_cell("havannah", size, name)
        assert words.cell_name("havannah", size, cell) == name


@pytest.mark.parametrize("game,size,text", [
    ("hex", 5, "f1"), ("hex", 5, "a6"), ("hex", 5, "a0"), ("hex", 5, "1a"), ("hex", 5, ""),
    ("hex", 5, "a1 b2"), ("hex", 5, "pass"), ("hex", 5, "ä1"), ("hex", 5, "a١"),
    ("havannah", 4, "a5"), ("havannah", 4, "h1"), ("havannah", 4, "d0"), ("havannah", 4, "h7"), ("havannah", 4, "z"),
])
def test_unparseable_or_off_board_words_raise_value_error(game, size, text):
    for name, words in DIALECTS.items():
        if game in words.games:
            with pytest.raises(ValueError):
                words.parse_cell(game, size, text)


def test_colours_and_board_sizes():
    assert [DIALECTS[name].colour("hex", 0) for name in ("havhex", "morat", "benzene")] == \
        ["red", "white", "black"]
    assert DIALECTS["havhex"].colour("havannah", 1) == "black"
    assert DIALECTS["benzene"].boardsize("hex", 11) == "boardsize 11 11"
    assert DIALECTS["morat"].boardsize("hex", 11) == "boardsize 11"
    assert DIALECTS["morat"].play("havannah", 4, 1, (2, 3)) == "play black b3"
    assert DIALECTS["benzene"].play("hex", 11, 0, (2, 3)) == "play black d3"
    assert DIALECTS["havhex"].genmove("hex", 1) == "genmove blue"


def test_the_families_play_the_games_their_descriptors_give_them_words_for():
    assert [name for name in sorted(DIALECTS) if "havannah" in DIALECTS[name].games] == \
        ["castro", "havhex", "morat"]
    assert [name for name in sorted(DIALECTS) if "hex" in DIALECTS[name].games] == \
        ["benzene", "havhex", "morat"]
    with pytest.raises(ValueError, match="castro engines do not play hex"):
        DIALECTS["castro"].cell_name("hex", 5, (0, 0))


def test_swap_words_and_setup():
    assert DIALECTS["benzene"].cell_name("hex", 11, "swap-pieces") == "swap-pieces"
    assert DIALECTS["benzene"].swap_setup(True, "hex") == ["param_game allow_swap 1"]
    assert DIALECTS["castro"].swap_setup(False, "havannah") == ["swap 0"]
    assert DIALECTS["havhex"].parse_cell("havannah", 4, "swap") == "swap"
    assert DIALECTS["havhex"].parse_cell("hex", 4, "Swap-Pieces") == "swap-pieces"
    assert DIALECTS["morat"].swap_word("hex") is None
    with pytest.raises(ValueError):
        DIALECTS["morat"].cell_name("hex", 11, "swap-pieces")
    with pytest.raises(ValueError):
        DIALECTS["morat"].parse_cell("hex", 11, "swap")


def test_time_commands_go_only_where_the_engine_takes_them():
    per_move = ClockSettings(per_move=0.5)
    game = ClockSettings(base=60, increment=0.25)
    morat = DIALECTS["morat"]
    assert morat.time_commands("hex", per_move, {"time"}) == ["time -g 0 -m 0.5 -f 0"]
    assert morat.time_commands("hex", game, {"time"}) == ["time -g 60 -m 0.25 -f 1"]
    assert morat.move_time_commands("hex", 0, game, 10.0, {"time"}) == ["time -r 9.75"]
    assert morat.time_commands("hex", per_move, set()) == []
    havhex = DIALECTS["havhex"]
    both = {"time_settings", "time_left"}
    assert havhex.time_commands("hex", per_move, both) == ["time_settings 0 0.5 1"]
    assert havhex.time_commands("hex", game, both) == ["time_settings 60 0 0"]
    assert havhex.move_time_commands("hex", 1, game, 12.5, both) == ["time_left blue 12.5 0"]
    assert havhex.move_time_commands("hex", 1, per_move, 12.5, both) == []
    assert havhex.time_commands("hex", game, set()) == []
    assert DIALECTS["benzene"].time_commands("hex", per_move, {"param_mohex"}) == \
        ["param_mohex max_time 0.5"]


@pytest.mark.parametrize("dialect,text,seat", [
    ("benzene", "B+", 0), ("benzene", "W+", 1), ("benzene", "cannot score", None),
    ("morat", "white", 0), ("morat", "black", 1), ("morat", "unknown", None),
    ("morat", "draw", None), ("morat", "white_or_draw", None),
    ("havhex", "R+", 0), ("havhex", "B+", 1), ("havhex", "red", 0), ("havhex", "", None),
])
def test_claimed_results(dialect, text, seat):
    assert DIALECTS[dialect].parse_result(text, "hex") == seat


def test_havannah_results_use_havannah_colours():
    assert DIALECTS["havhex"].parse_result("black", "havannah") == 1
    assert DIALECTS["havhex"].parse_result("W+", "havannah") == 0


@pytest.mark.parametrize("name,commands,expected", [
    ("morat-hex", {"winner", "time"}, "morat"),
    ("morat-havannah", set(), "morat"),
    ("MoHex", {"final_score"}, "benzene"),
    ("Wolve", set(), "benzene"),
    ("castro", set(), "castro"),
    ("havhex", {"final_score", "winner"}, "havhex"),
    ("someone", {"param_game", "final_score"}, "benzene"),
    ("someone", {"winner", "all_legal"}, "morat"),
    ("someone", {"final_score"}, "havhex"),
    ("", set(), "havhex"),
])
def test_detect(name, commands, expected):
    assert detect(name, commands).name == expected


def test_every_hex_name_plays_on_havhex_boards():
    """The names the dialects write are the names havhex's boards read."""
    board = HexBoard(6)
    name = DIALECTS["benzene"].cell_name("hex", 6, (4, 2))
    board.play(name)
    assert board.moves == ((4, 2),)


def test_castro_is_put_in_grid_coordinates():
    assert DIALECTS["castro"].setup("havannah") == ["gridcoords"]
    assert DIALECTS["morat"].setup("havannah") == []
