"""What the SGF Hex specification (FF[4], GM[11], red-bean.com/sgf/hex.html)
states, each as a small record read by havhex.records: board sizes, cell
names, case, the special moves, setup stones, results, collections,
variations and text values.  Expected values are worked out here from the
specification's rules, not taken from the reader."""
import pytest

from havhex import InputError
from havhex import records

SPECIAL = ("swap-pieces", "swap-sides", "resign", "forfeit", "pass")


def games(text, **options):
    data = text.encode("latin-1") if isinstance(text, str) else text
    return list(records.read(data, **options))


def game(text, **options):
    found = games(text, **options)
    assert len(found) == 1, found
    return found[0]


def replayed(text, **options):
    data = text.encode("latin-1") if isinstance(text, str) else text
    found = list(records.replay(data, **options))
    assert len(found) == 1, found
    return found[0]


def column(letters):
    """The 0-based column of SGF Hex column letters, as the specification
    counts them: a..z, then aa..az, ba.., ..., zz, then aaa."""
    value = 0
    for letter in letters.lower():
        value = value * 26 + ord(letter) - ord("a") + 1
    return value - 1


# ---------------------------------------------------------------------------
# Board size
# ---------------------------------------------------------------------------

def test_sz_n_is_a_square_board():
    g = game("(;FF[4]GM[11]SZ[5];B[a1];W[e5])")
    assert g.game == "hex"
    assert g.size == (5, 5)
    assert g.moves == (("B", (0, 0)), ("W", (4, 4)))


def test_the_default_size_is_eleven():
    g = game("(;FF[4]GM[11];B[k11])")
    assert g.size == (11, 11)
    assert g.moves == (("B", (10, 10)),)


def test_sz_columns_colon_rows_is_a_board_of_that_many_columns_and_rows():
    # SZ[cols:rows]: 4 columns (a..d) and 2 rows (1..2).
    g = game("(;FF[4]GM[11]SZ[4:2];B[d2];W[a1])")
    assert g.size == (2, 4)
    assert g.moves == (("B", (1, 3)), ("W", (0, 0)))
    board = g.board()
    assert (board.rows, board.cols) == (2, 4)


def test_on_a_non_square_board_a_cell_past_the_rows_is_kept_raw_and_illegal():
    # b4 is column b, row 4: on 4 columns x 2 rows it is off the board.
    g = game("(;FF[4]GM[11]SZ[4:2];B[b4])")
    assert g.moves == (("B", "b4"),)
    r = replayed("(;FF[4]GM[11]SZ[4:2];B[a1];W[b4])")
    assert "illegal" in r.flags
    assert r.illegal[0] == 2


def test_a_board_of_one_cell():
    # The minimum size of a row or a column is 1: one stone wins for Black.
    r = replayed("(;FF[4]GM[11]SZ[1];B[a1])")
    assert r.win is not None and (r.win.move, r.win.player) == (1, "B")


# ---------------------------------------------------------------------------
# Cells
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["a1", "g5", "d11", "G5", "D11", "aA27", "AB6", "z3",
                                  "aa1", "az2", "ba30", "AD30"])
def test_cells_are_column_letters_then_row_number(name):
    letters = name.rstrip("0123456789")
    row = int(name[len(letters):]) - 1
    g = game(f"(;FF[4]GM[11]SZ[60];B[{name}])")
    assert g.moves == (("B", (row, column(letters))),)


def test_the_column_after_zz_is_aaa():
    assert column("zz") == 701 and column("aaa") == 702
    g = game("(;FF[4]GM[11]SZ[703:2];B[zz1];W[aaa2])")
    assert g.size == (2, 703)
    assert g.moves == (("B", (0, 701)), ("W", (1, 702)))


def test_values_are_case_insensitive():
    lower = game("(;FF[4]GM[11]SZ[11];B[f6];W[swap-pieces];B[e5];W[resign])")
    upper = game("(;FF[4]GM[11]SZ[11];B[F6];W[SWAP-PIECES];B[E5];W[Resign])")
    assert lower.moves == upper.moves == (("B", (5, 5)), ("W", "swap-pieces"),
                                          ("B", (4, 4)), ("W", "resign"))


def test_the_specifications_example_moves():
    g = game("(;FF[4]GM[11];B[e4];W[F9])")
    assert g.moves == (("B", (3, 4)), ("W", (8, 5)))


# ---------------------------------------------------------------------------
# Players and special moves
# ---------------------------------------------------------------------------

def test_black_moves_first_and_joins_top_and_bottom():
    # Black down column a (rows 1 to 3), White along row 3 too late.
    r = replayed("(;FF[4]GM[11]SZ[3]RE[B+];B[a1];W[b1];B[a2];W[b2];B[a3])")
    assert r.win is not None
    assert (r.win.move, r.win.player, r.win.kinds) == (5, "B", ("chain",))
    assert r.end == "structure" and r.recorded == "B" and r.flags == ()


def test_white_joins_left_and_right():
    # White along row 2 (columns a to c); Black's column b stops at row 2.
    r = replayed("(;FF[4]GM[11]SZ[3]RE[W+];B[b1];W[a2];B[c1];W[c2];B[a3];W[b2])")
    assert r.win is not None
    assert (r.win.move, r.win.player, r.win.kinds) == (6, "W", ("chain",))
    assert r.recorded == "W" and r.flags == ()


@pytest.mark.parametrize("special", SPECIAL)
def test_special_moves_are_read_as_their_names(special):
    g = game(f"(;FF[4]GM[11]SZ[5];B[c3];W[{special}])")
    assert g.moves == (("B", (2, 2)), ("W", special))


def test_swap_pieces_mirrors_the_first_stone_in_the_long_diagonal():
    # B[c2] is (row 1, col 2); after the swap a white stone (the board's
    # blue, 2 in to_array) stands on b3 = (row 2, col 1), and Black moves.
    r = replayed("(;FF[4]GM[11]SZ[5];B[c2];W[swap-pieces];B[a1])")
    assert r.moves == 3 and r.flags == ("no-result",)
    board = r.board()
    assert board.moves == ((1, 2), "swap-pieces", (0, 0))
    stones = board.to_array()
    assert (stones[2][1], stones[1][2], stones[0][0]) == (2, 0, 1)


def test_swap_sides_keeps_the_stone_and_white_moves_next():
    # The letters name colours, so after the swap White (now the first
    # player) moves: two W moves in a row.  Column a is White's, which joins
    # left and right, so nobody wins here.
    r = replayed("(;FF[4]GM[11]SZ[3];B[b2];W[swap-sides];W[a1];B[b1];W[a2];B[c1];W[a3])")
    assert r.moves == 7
    assert r.win is None and "illegal" not in r.flags
    board = r.board()
    assert board.sides_swapped
    assert board.moves == ((1, 1), "swap-sides", (0, 0), (0, 1), (1, 0), (0, 2), (2, 0))


def test_swap_sides_then_black_top_to_bottom_wins_for_black():
    # Black: b1, b2, b3 = (0, 1), (1, 1), (2, 1), top to bottom at move 6.
    r = replayed("(;FF[4]GM[11]SZ[3]RE[B+];B[b1];W[swap-sides];W[a1];B[b2];W[c1];B[b3])")
    assert r.win is not None and (r.win.move, r.win.player) == (6, "B")
    assert r.recorded == "B" and r.flags == ()


def test_a_swap_as_the_second_move_is_allowed_elsewhere_illegal():
    assert "illegal" not in replayed("(;FF[4]GM[11]SZ[5];B[c3];W[swap-pieces])").flags
    late = replayed("(;FF[4]GM[11]SZ[5];B[c3];W[a1];B[swap-pieces])")
    assert "illegal" in late.flags and late.illegal[0] == 3


def test_resign_ends_the_game_and_is_not_counted():
    r = replayed("(;FF[4]GM[11]SZ[5]RE[B+Resign];B[c3];W[a1];B[c4];W[resign])")
    assert r.moves == 3 and r.win is None
    assert r.end == "resign" and r.recorded == "B"


def test_forfeit_ends_the_game_and_is_not_counted():
    r = replayed("(;FF[4]GM[11]SZ[5]RE[W+F];B[c3];W[a1];B[forfeit])")
    assert r.moves == 2 and r.win is None
    assert r.end == "forfeit" and r.recorded == "W"


def test_pass_is_not_counted():
    r = replayed("(;FF[4]GM[11]SZ[3];B[b2];W[a1];B[pass])")
    assert r.moves == 2
    assert r.win is None and r.end == "none"


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("value, winner", [
    ("B+", "B"), ("W+", "W"), ("B+R", "B"), ("W+Resign", "W"), ("B+T", "B"),
    ("W+Time", "W"), ("B+F", "B"), ("W+Forfeit", "W"), ("0", None), ("Draw", None),
    ("?", None), ("Void", None),
])
def test_results(value, winner):
    g = game(f"(;FF[4]GM[11]SZ[3]RE[{value}];B[a1])")
    assert g.result == value
    assert g.recorded == winner


def test_no_result_is_flagged():
    r = replayed("(;FF[4]GM[11]SZ[3];B[a1];W[b1];B[a2];W[b2];B[a3])")
    assert r.recorded is None and "no-result" in r.flags


def test_a_result_the_board_contradicts_is_flagged():
    r = replayed("(;FF[4]GM[11]SZ[3]RE[W+];B[a1];W[b1];B[a2];W[b2];B[a3])")
    assert "result-disagrees" in r.flags


def test_moves_after_the_win_are_flagged_played_on():
    r = replayed("(;FF[4]GM[11]SZ[3]RE[B+];B[a1];W[b1];B[a2];W[b2];B[a3];W[c3])")
    assert r.win.move == 5 and r.moves == 6 and "played-on" in r.flags


# ---------------------------------------------------------------------------
# Setup
# ---------------------------------------------------------------------------

def test_ab_aw_place_setup_stones():
    g = game("(;FF[4]GM[11]SZ[4]AB[a1][b2]AW[c3];W[d4])")
    assert sorted(g.setup) == sorted((("B", (0, 0)), ("B", (1, 1)), ("W", (2, 2))))
    assert g.moves == (("W", (3, 3)),)


@pytest.mark.parametrize("value", ["d1", "a4", "swap-pieces", "resign", "", "1a"])
def test_a_setup_stone_off_the_board_is_an_input_error_with_the_games_line(value):
    data = f"(;FF[4]GM[11]SZ[3]C[ok])\n\n(;FF[4]GM[11]SZ[3]AB[a1][{value}]AW[b2];B[c3])".encode()
    first, second = records.read(data)
    assert first.setup == ()
    with pytest.raises(InputError) as caught:
        second.setup
    assert caught.value.line == 3
    assert str(caught.value).startswith("<bytes>:3: a setup stone (AB[]/AW[]) is not a cell")
    replay = list(records.replay(data))[1]
    assert replay.illegal[0] == 0 and "illegal" in replay.flags


def test_setup_stones_count_towards_the_win():
    # Black's a1 and a2 are set up; a3 completes column a.
    r = replayed("(;FF[4]GM[11]SZ[3]AB[a1][a2]AW[c1][c2];B[a3])")
    assert r.win is not None and (r.win.move, r.win.player) == (1, "B")


def test_a_setup_the_board_cannot_reach_spoils_only_its_own_game():
    # The specification puts no limit on AB[]/AW[]: two black stones and one
    # white with Black to move is a well-formed record.  Whatever the replay
    # makes of it, the next game of the collection is replayed.
    data = (b"(;FF[4]GM[11]SZ[3]AB[a1][a2]AW[c1];B[a3])\n"
            b"(;FF[4]GM[11]SZ[3]RE[B+];B[a1];W[b1];B[a2];W[b2];B[a3])\n")
    found = list(records.replay(data))
    assert len(found) == 2
    assert found[1].win == records.Win(5, "B", ("chain",))


# ---------------------------------------------------------------------------
# Collections and variations
# ---------------------------------------------------------------------------

def test_a_collection_holds_games_in_order():
    text = ("(;FF[4]GM[11]SZ[3];B[a1])\n"
            "(;FF[4]GM[11]SZ[4];B[b2];W[c3])\n"
            "\n"
            "(;FF[4]GM[11]SZ[5]RE[W+];B[e5])\n")
    found = games(text)
    assert [g.index for g in found] == [1, 2, 3]
    assert [g.line for g in found] == [1, 2, 4]
    assert [g.size for g in found] == [(3, 3), (4, 4), (5, 5)]
    assert [len(g.moves) for g in found] == [1, 2, 1]
    assert [r.record.index for r in records.replay(text.encode())] == [1, 2, 3]


def test_variations_follow_the_main_line():
    g = game("(;FF[4]GM[11]SZ[3];B[a1](;W[b1];B[a2](;W[c1])(;W[c2]))(;W[c3];B[b2]))")
    assert g.moves == (("B", (0, 0)), ("W", (0, 1)), ("B", (1, 0)), ("W", (0, 2)))


def test_whitespace_between_nodes_and_properties():
    g = game("(\n ;FF[4] GM[11]\n SZ[3]\n ; B[a1]\n ;\tW[b1] )")
    assert g.moves == (("B", (0, 0)), ("W", (0, 1)))


# ---------------------------------------------------------------------------
# Text values
# ---------------------------------------------------------------------------

def test_escaped_bracket_and_backslash_in_text():
    g = game(r"(;FF[4]GM[11]SZ[3]PB[Ann \] Bo]PW[C:\\games\\]GC[x\]\\y];B[a1])")
    assert g.properties["PB"] == ("Ann ] Bo",)
    assert g.properties["PW"] == ("C:\\games\\",)
    assert g.properties["GC"] == ("x]\\y",)
    assert g.moves == (("B", (0, 0)),)


def test_latin1_bytes_in_a_player_name():
    data = b"(;FF[4]GM[11]SZ[3]PB[Jos\xe9 Pe\xf1a]PW[M\xfcller];B[a1])"
    g = game(data)
    assert g.properties["PB"] == ("Jos\u00e9 Pe\u00f1a",)
    assert g.properties["PW"] == ("M\u00fcller",)


def test_utf8_player_names_stay_utf8():
    data = "(;FF[4]GM[11]SZ[3]PB[Jos\u00e9]PW[\u674e];B[a1])".encode("utf-8")
    g = game(data)
    assert g.properties["PB"] == ("Jos\u00e9",)
    assert g.properties["PW"] == ("\u674e",)


def test_unknown_properties_are_kept_not_fatal():
    g = game("(;FF[4]GM[11]SZ[3]XY[one][two]AP[HexGui:0.9];B[a1]C[nice]ZZ[?])")
    assert g.properties["XY"] == ("one", "two")
    assert g.moves == (("B", (0, 0)),)


# ---------------------------------------------------------------------------
# What is not SGF
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["hello", "(;FF[4]GM[11]SZ[3];B[a1]", "(;FF[4]GM[11]SZ[3];B[a1)",
                                  ";B[a1])", "(;FF[4]GM[11]SZ[3];B[a1]))"])
def test_broken_syntax_is_an_input_error(text):
    with pytest.raises(InputError):
        games(text)


def test_swap_pieces_whose_mirror_is_off_a_non_square_board_is_illegal():
    # 4 columns x 2 rows: d1 is (row 0, col 3); its mirror (3, 0) has no row 3.
    r = replayed("(;FF[4]GM[11]SZ[4:2];B[d1];W[swap-pieces])")
    assert "illegal" in r.flags and r.illegal[0] == 2
    # On the same board b1's mirror (1, 0) = a2 exists: the swap is legal.
    r = replayed("(;FF[4]GM[11]SZ[4:2];B[b1];W[swap-pieces])")
    assert "illegal" not in r.flags
    assert r.board().moves == ((0, 1), "swap-pieces")
