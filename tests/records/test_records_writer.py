"""havhex.records.write: SGF text that reads back as the same games.

Records are generated here as text (random sizes, properties with escapes
and non-ASCII text, setup stones, cells on and off the board, special moves,
unreadable values), read, written, and read again: the games must be equal
(kind, size, moves, setup, properties), and writing them again must give
the same text."""
import io

import pytest

import needs
from conftest import CONFORMANCE
from sgf_names import column_letters
from havhex import games, records
from havhex.records import writer

hypothesis = needs.module("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

RECORDS = CONFORMANCE.parent / "records" / "littlegolem-havannah"
SETTINGS = dict(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SPECIAL = ("swap", "swap-pieces", "swap-sides", "resign", "forfeit", "pass", "Resign", "SWAP")
# Properties the generator leaves alone: the reader gives them meaning (moves,
# setup, the game, the board, the charset) and they are drawn separately.
RESERVED = {"B", "W", "AB", "AW", "FF", "GM", "SZ", "CA"}


def escaped(text):
    return text.replace("\\", "\\\\").replace("]", "\\]")


texts = st.text(alphabet=st.one_of(
    st.characters(min_codepoint=32, max_codepoint=126),
    st.sampled_from("]\\\n\t\u00e9\u00fc\u00df\u674e\u2603")), max_size=20)
names = st.text(alphabet="ABCDEHIJKLMNOPQRTUVXYZ", min_size=1, max_size=3).filter(
    lambda name: name not in RESERVED)


@st.composite
def hex_cell_names(draw, rows, cols, on_board=True):
    if on_board:
        row, col = draw(st.integers(0, rows - 1)), draw(st.integers(0, cols - 1))
    else:
        row, col = draw(st.sampled_from([(rows, 0), (0, cols), (rows + 5, cols + 30)]))
    name = f"{column_letters(col)}{row + 1}"
    return name.upper() if draw(st.booleans()) else name


@st.composite
def havannah_cell_names(draw, size, on_board=True):
    r = draw(st.integers(0, 2 * size - 2)) if on_board else 2 * size - 1 + draw(st.integers(0, 3))
    length = size + r if r < size else max(1, 3 * size - 2 - r)
    n = draw(st.integers(1, length)) if on_board else length + draw(st.integers(1, 5))
    name = f"{column_letters(r)}{n}"
    return name.upper() if draw(st.booleans()) else name


@st.composite
def records_text(draw):
    """One game tree: (text, kind)."""
    kind = draw(st.sampled_from(("hex", "havannah")))
    root = ["FF[4]"]
    if kind == "hex":
        rows = draw(st.integers(1, 12))
        cols = draw(st.one_of(st.just(rows), st.integers(1, 40)))
        root.append("GM[11]")
        if rows == cols == 11 and draw(st.booleans()):
            pass                                  # the default size, no SZ[]
        else:
            root.append(f"SZ[{cols}]" if rows == cols else f"SZ[{cols}:{rows}]")
        cell = lambda on=True: hex_cell_names(rows, cols, on)  # noqa: E731
        setup = draw(st.lists(st.tuples(st.sampled_from("BW"), st.integers(0, rows - 1),
                                        st.integers(0, cols - 1)), max_size=4))
        taken = {}
        for letter, row, col in setup:
            taken.setdefault((row, col), letter)
        for letter in "BW":
            cells = [f"[{column_letters(col)}{row + 1}]" for (row, col), owner in taken.items()
                     if owner == letter]
            if cells:
                root.append(f"A{letter}" + "".join(cells))
    else:
        size = draw(st.integers(2, 16))
        root.append(f"SZ[{size}]")
        if draw(st.booleans()):
            root.append("RU[LG]")
        cell = lambda on=True: havannah_cell_names(size, on)  # noqa: E731
    if draw(st.booleans()):
        root.append(f"RE[{escaped(draw(st.sampled_from(('B+', 'W+', 'B', 'W', 'B+Resign', '0', '?', ''))))}]")
    for name, values in draw(st.dictionaries(names, st.lists(texts, min_size=1, max_size=3),
                                             max_size=4)).items():
        root.append(name + "".join(f"[{escaped(value)}]" for value in values))
    moves = draw(st.lists(st.one_of(
        cell(), cell(), cell(), cell(False), st.sampled_from(SPECIAL),
        st.text(alphabet="abz19-_ ]\\\u00e9", min_size=1, max_size=6)), max_size=30))
    body = "".join(f";{draw(st.sampled_from('BW'))}[{escaped(move)}]" for move in moves)
    return f"(;{''.join(root)}{body})", kind


def read_text(text):
    return list(records.read(text.encode("utf-8"), game="havannah"))


def same(first, second):
    assert first == second
    for a, b in zip(first, second):
        assert (a.game, a.size, a.moves, a.setup, a.properties, a.result, a.recorded) == \
               (b.game, b.size, b.moves, b.setup, b.properties, b.result, b.recorded)
        assert a.index == b.index


@settings(**SETTINGS)
@given(trees=st.lists(records_text(), min_size=1, max_size=3))
def test_written_games_read_back_the_same(trees):
    # game="havannah" names the game of the records without GM[]: the Havannah
    # ones (the Hex ones say GM[11]).
    games = read_text("\n".join(text for text, _ in trees))
    assert [game.game for game in games] == [kind for _, kind in trees]
    text = records.write(games)
    again = read_text(text)
    same(again, games)
    assert records.write(again) == text


@settings(**SETTINGS)
@given(tree=records_text())
def test_one_game_is_written_alone(tree):
    game, = read_text(tree[0])
    text = records.write(game)
    assert text == records.write([game]) and text.endswith(")\n")
    back, = read_text(text)
    same([back], [game])


def cell_namer(game):
    """The record format's namer of a game's cells, ``name(size, cell)``."""
    return games.get(game).records.cell_name


def test_cells_are_named_as_the_formats_name_them():
    hex_name, havannah_name = cell_namer("hex"), cell_namer("havannah")
    assert [hex_name(11, cell) for cell in ((0, 0), (10, 10), (2, 26), (0, 701), (4, 702))] \
        == ["a1", "k11", "aa3", "zz1", "aaa5"]
    # Base 3 (docs/records.md's example): rows a..e, the late rows shifted.
    named = {cell: havannah_name(3, cell)
             for cell in ((1, 1), (3, 1), (1, 3), (5, 3), (2, 4), (3, 5), (5, 5), (3, 3))}
    assert named == {(1, 1): "A1", (3, 1): "A3", (1, 3): "C1", (5, 3): "C5", (2, 4): "D1",
                     (3, 5): "E1", (5, 5): "E3", (3, 3): "C3"}


def test_naming_a_cell_on_no_board_raises():
    from havhex import InputError

    hex_name, havannah_name = cell_namer("hex"), cell_namer("havannah")
    for cell in ((0, -1), (-1, 0), (2 ** 63 - 1, 0), (0, 2 ** 63), (2 ** 29, 0), (0, -2 ** 70)):
        with pytest.raises(InputError):
            hex_name(11, cell)
    for size, cell in ((3, (1, 5)), (3, (5, 1)), (3, (0, 1)), (3, (6, 6)), (3, (1, -1)),
                       (2, (2 ** 63 - 1, 1)), (1, (1, 1)), (0, (1, 1)), (10 ** 6, (1, 1))):
        with pytest.raises(InputError):
            havannah_name(size, cell)
    for cell in ((1.0, 2), (True, 0), ("1", 2), (1, 2, 3), 5, None):
        with pytest.raises(TypeError):
            hex_name(11, cell)
        with pytest.raises(TypeError):
            havannah_name(3, cell)
    with pytest.raises(TypeError):
        havannah_name(3.0, (1, 1))
    # The last cells of the largest boards still have names.
    assert hex_name((1, 2 ** 27), (0, 2 ** 27)) and havannah_name(16384, (32767, 32767))


def test_the_old_cell_namers_warn_and_name_alike():
    with pytest.warns(DeprecationWarning, match=r"games\.get\('hex'\)\.records\.cell_name"):
        hex_name = writer.hex_cell_name
    with pytest.warns(DeprecationWarning, match="havannah"):
        havannah_name = writer.havannah_cell_name
    assert hex_name((2, 26)) == "aa3" and havannah_name(3, (2, 4)) == "D1"
    with pytest.raises(TypeError):
        havannah_name((2, 4))          # Little Golem's names need the size
    with pytest.raises(AttributeError):
        writer.chess_cell_name


def test_hex_games_say_ff4_and_gm11():
    game, = records.read(b"(;SZ[4];B[a1];W[d4])", game="hex")
    text = records.write(game)
    assert text == "(;FF[4]GM[11]SZ[4];B[a1];W[d4])\n"
    back, = records.read(text.encode())            # no game= needed now
    assert back.moves == game.moves and back.game == "hex"


def test_destinations(tmp_path):
    data = "(;FF[4]GM[11]SZ[3]PB[Jos\u00e9];B[a1])\n(;FF[4]GM[11]SZ[3]RE[W+];B[b2];W[swap-sides])\n"
    games = list(records.read(data.encode("utf-8")))
    text = records.write(games)
    path = tmp_path / "out.sgf"
    assert records.write(games, path) is None
    assert path.read_bytes() == text.encode("utf-8")
    assert list(records.read(path)) == games
    records.write(games, str(tmp_path / "str.sgf"))
    assert (tmp_path / "str.sgf").read_bytes() == text.encode("utf-8")
    binary, textual = io.BytesIO(), io.StringIO()
    records.write(games, binary)
    records.write(games, textual)
    assert binary.getvalue() == text.encode("utf-8") and textual.getvalue() == text
    with open(tmp_path / "opened.sgf", "w", encoding="utf-8") as stream:
        records.write(games, stream)
    assert (tmp_path / "opened.sgf").read_text(encoding="utf-8") == text
    with pytest.raises(TypeError):
        records.write(games, 42)
    with pytest.raises(TypeError):
        records.write(["(;B[a1])"])


def test_a_game_with_a_charset_is_written_in_it(tmp_path):
    data = b"(;FF[4]GM[11]CA[ISO-8859-1]SZ[3]PB[Jos\xe9];B[a1])"
    game, = records.read(data)
    assert game.properties["PB"] == ("Jos\u00e9",)
    path = tmp_path / "latin.sgf"
    records.write(game, path)
    assert b"Jos\xe9" in path.read_bytes()
    back, = records.read(path)
    assert back == game


def test_hex_swaps_and_the_generated_benchmark_games_round_trip():
    text = ("(;FF[4]GM[11]SZ[11]RE[W+];B[f8];W[swap-sides];W[i1];B[b5])\n"
            "(;FF[4]GM[11]SZ[11]RE[B+];B[c2];W[swap-pieces];B[k11])\n")
    games = list(records.read(text.encode()))
    assert records.write(games) == text


def test_little_golem_games_are_written_back_as_they_were():
    """Every Little Golem game reads back the same; the files whose bytes are
    ASCII come out byte for byte (the others' Latin-1 names become UTF-8)."""
    needs.shared("records", "littlegolem-havannah", need="records")
    identical = 0
    paths = sorted(RECORDS.glob("*.hgf"))
    for path in paths:
        data = path.read_bytes()
        games = list(records.read(path))
        text = records.write(games)
        assert list(records.read(text.encode("utf-8"), game="havannah")) == games, path.name
        if data.isascii():
            assert text.strip() == data.decode("ascii").strip(), path.name
            identical += 1
    assert len(paths) == 2146 and identical > 2000
