"""The records take everything game-specific from the games' descriptors
(havhex.descriptor.RecordFormat): the built-in formats agree with the
compiled reader and the boards; a game registered with a record format is
read, replayed and written like a built-in one; a game without one is
refused with a reason; and no module of havhex.records names a game."""
import ast
import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest

from havhex import InputError, games, records
from havhex.descriptor import Descriptor, EngineWords, RecordFormat
from havhex.records import game as record_game
from havhex.records import runs

BUILT_IN = ("hex", "havannah")
RECORDS = Path(__file__).resolve().parents[2] / "src" / "havhex" / "records"


def read_one(data, **options):
    found = list(records.read(data, **options))
    assert len(found) == 1, found
    return found[0]


def root(game, size):
    """A record's root that says ``game`` and its size as the match writes it."""
    return f"(;FF[4]{games.get(game).records.root(size)}"


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_cell_named_by_the_format_reads_back_as_itself(game):
    descriptor = games.get(game)
    form = descriptor.records
    assert form.notation in record_game.NOTATIONS
    size = 4
    cells = [move for move in descriptor.new_board(size).legal_moves()
             if not isinstance(move, str)]
    assert len(cells) == form.cells(descriptor.record_size(size))
    names = [form.cell_name(descriptor.record_size(size), cell) for cell in cells]
    letters = form.letters * len(cells)
    text = root(game, size) + "".join(f";{letter}[{name}]" for letter, name in zip(letters, names))
    read = read_one((text + ")").encode(), game=game)
    assert read.game == game and read.size == descriptor.record_size(size)
    assert [move for _, move in read.moves] == cells


@pytest.mark.parametrize("game", BUILT_IN)
def test_gm_and_the_extensions_say_the_game(game, tmp_path):
    form = games.get(game).records
    if form.gm is not None:
        assert read_one(f"(;FF[4]GM[{form.gm}]SZ[4])".encode()).game == game
    assert form.implied_by
    for extension in form.implied_by:
        path = tmp_path / f"record{extension.upper()}"
        path.write_bytes(b"(;FF[4]SZ[4])")
        assert read_one(path).game == game
        assert record_game.implied_game(path) == game
        assert record_game.EXTENSIONS[extension] == game
    assert record_game.implied_game("record.sgf") is None
    assert record_game.implied_game("record") is None


def test_a_record_that_says_no_game_is_refused_naming_how_records_say_it():
    with pytest.raises(InputError, match=r"GM\[1\] is not a game havhex replays "
                                         r"\(Hex is GM\[11\].*\.hgf is Havannah"):
        read_one(b"(;FF[4]GM[1]SZ[4])")
    with pytest.raises(InputError, match=r"no GM\[\] to say the game .*\.hsgf is Hex"):
        read_one(b"(;FF[4]SZ[4])")


@pytest.mark.parametrize("game", BUILT_IN)
def test_the_first_player_moves_first_and_wins_as_its_letter(game):
    """A win by the first player's letter is a win of the descriptor's first
    player on the board (Hex's B is red, Havannah's W is white)."""
    descriptor = games.get(game)
    form = descriptor.records
    cells = {"hex": [(0, 0), (0, 1), (1, 0)], "havannah": [(1, 1), (3, 3), (1, 2)]}[game]
    size = descriptor.record_size(2)
    moves = "".join(f";{form.letters[k % 2]}[{form.cell_name(size, cell)}]"
                    for k, cell in enumerate(cells))
    replay = next(records.replay((root(game, 2) + moves + ")").encode(), game=game))
    assert replay.win.player == form.letters[0] and replay.win.move == 3
    assert replay.board().winner == descriptor.players[0]
    assert replay.win.kinds == (form.win_kinds or ("bridge",))


def test_the_sizes_a_record_may_give_are_the_boards():
    from havhex.havannah.board import MAX_BOARD_SIZE
    from havhex.hex.board import MAX_CELLS

    largest = read_one(f"(;SZ[{MAX_BOARD_SIZE}])".encode(), game="havannah", max_cells=None)
    assert largest.size == MAX_BOARD_SIZE
    for size in (1, MAX_BOARD_SIZE + 1):
        with pytest.raises(InputError, match=f"side is 2 to {MAX_BOARD_SIZE}"):
            read_one(f"(;SZ[{size}])".encode(), game="havannah", max_cells=None)
    with pytest.raises(InputError, match=r"needs SZ\[\]"):
        read_one(b"(;FF[4])", game="havannah")
    # Hex's bound is the board's: rows x cols with their padding.
    side = max(n for n in range(1, 40000) if (n + 2) * (n + 1) + 4 <= MAX_CELLS)
    assert read_one(f"(;GM[11]SZ[{side}])".encode(), max_cells=None).size == (side, side)
    for value in ("0", "0:3", f"{side + 1}", f"{side}:{2 * side}"):
        with pytest.raises(InputError, match=f"a Hex board has 1 to {MAX_CELLS} cells"):
            read_one(f"(;GM[11]SZ[{value}])".encode(), max_cells=None)
    assert read_one(b"(;GM[11]SZ[3:5])").size == (5, 3)
    assert read_one(b"(;GM[11])").size == (11, 11)      # the SGF Hex default
    with pytest.raises(InputError, match=r"no SZ\[\]: a Hex board of 121 cells"):
        read_one(b"(;GM[11])", max_cells=100)


def toy(records=None):
    """A game of its own that the records layer never heard of."""
    return Descriptor(
        name="toy", title="Toy", players=("first", "second"), swap_move="swap",
        default_size=3, min_size=1, max_size=9, new_board=lambda *arguments: None,
        board_size=lambda board: 3, win_reason=lambda kinds: "line",
        engines={"havhex": EngineWords(("first", "second"), lambda size, move: "a1",
                                       lambda size, text: (0, 0))},
        records=records)


@pytest.fixture
def registry(monkeypatch):
    """The registry, as it is again after the test."""
    monkeypatch.setattr(games, "_found", dict(games._found))
    return games


def test_a_game_without_records_is_refused_with_the_reason(registry):
    registry.register(toy())
    for read in (lambda: records.read(b"(;SZ[3])", game="toy"),
                 lambda: records.replay(b"(;SZ[3])", game="toy")):
        with pytest.raises(ValueError, match="game 'toy' has no record format havhex reads"):
            read()
    # A format in no notation the reader knows is refused alike.
    registry.register(toy(RecordFormat(".toy", ("B", "W"), lambda size: f"SZ[{size}]",
                                       lambda size, move: "a1")), replace=True)
    with pytest.raises(ValueError, match="'toy' has no record format havhex reads"):
        records.read(b"(;SZ[3])", game="toy")
    with pytest.raises(ValueError, match="a game's name"):
        records.read(b"(;SZ[3])", game=11)
    with pytest.raises(ValueError, match="no game 'chess'"):
        records.read(b"(;SZ[3])", game="chess")


def twin():
    """Hex under another name, GM[] code and extension: a plugged-in game
    whose records use a notation the reader knows."""
    hex_game = games.get("hex")
    form = hex_game.records
    return Descriptor(
        name="twin", title="Twin", players=hex_game.players, swap_move=hex_game.swap_move,
        default_size=5, min_size=1, max_size=20, new_board=hex_game.new_board,
        board_size=hex_game.board_size, win_reason=hex_game.win_reason,
        engines=hex_game.engines, record_size=hex_game.record_size,
        records=RecordFormat(".twin", ("B", "W"), lambda size: f"GM[999]SZ[{size}]",
                             form.cell_name, gm="999", implied_by=(".twin",),
                             notation="sgf-hex", read_size=form.read_size, cells=form.cells,
                             win_kinds=("twin-chain",)))


def test_a_registered_game_is_read_replayed_and_written_by_its_format(registry, tmp_path):
    registry.register(twin())
    text = b"(;FF[4]GM[999]SZ[2]RE[B+];B[a1];W[b1];B[a2])"
    game = read_one(text)
    assert game.game == "twin" and game.size == (2, 2)
    assert records.write(game) == text.decode() + "\n"
    replay = next(records.replay(text))
    assert replay.win.kinds == ("twin-chain",) and replay.win.player == "B"
    assert pickle.loads(pickle.dumps(game)) == game
    path = tmp_path / "game.twin"
    path.write_bytes(b"(;SZ[2];B[a1])")
    assert read_one(path).game == "twin"
    assert record_game.EXTENSIONS[".twin"] == "twin"
    assert ".twin" in runs.RECORD_EXTENSIONS
    assert runs.record_files([str(tmp_path)]) == [str(path)]
    # Without setup_board its records take no setup stones.
    refused = next(records.replay(b"(;GM[999]SZ[2]AB[a1];W[b1])"))
    assert refused.illegal == (0, "the setup stones: setup stones (AB[]/AW[]) on a Twin "
                                  "record are not supported")


def test_the_old_names_follow_the_registry():
    with pytest.warns(DeprecationWarning, match=r"havhex\.games\.names\(\)"):
        names = record_game.GAMES
    assert sorted(names) == sorted(BUILT_IN)
    with pytest.warns(DeprecationWarning):
        assert record_game.HEX_GM == b"11"
    with pytest.warns(DeprecationWarning):
        assert record_game.HEX_DEFAULT_SIZE == 11
    assert record_game.EXTENSIONS == {".hgf": "havannah", ".hsgf": "hex"}
    assert runs.RECORD_EXTENSIONS == (".sgf", ".hgf", ".hsgf")
    assert record_game.cells_of("havannah", 3) == 19 and record_game.cells_of("hex", (2, 5)) == 10
    for name in ("CHESS_GM", "NOTHING"):
        with pytest.raises(AttributeError):
            getattr(record_game, name)


def test_importing_the_records_imports_no_game_and_reads_no_installed_games():
    code = ("import sys\n"
            "import havhex.records, havhex.records.runs, havhex.records.units\n"
            "print(sorted(m for m in sys.modules if m.startswith(('havhex.hex', "
            "'havhex.havannah', 'importlib.metadata')) or m.endswith('descriptor')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def _docstrings(tree):
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def test_no_module_of_the_records_names_a_game():
    """Docstrings and comments may speak of the games; code takes them from
    the registry."""
    faults = []
    for path in sorted(RECORDS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in BUILT_IN \
                    and id(node) not in docstrings:
                faults.append(f"{path.name}:{node.lineno}: {node.value!r}")
            if isinstance(node, ast.ImportFrom):
                module = "." * node.level + (node.module or "")
                if re.match(r"(havhex|\.\.)\.?(hex|havannah)\b", module):
                    faults.append(f"{path.name}:{node.lineno}: from {module}")
    for path in sorted(RECORDS.glob("*.pyx")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"""["'](hex|havannah)["']""", line):
                faults.append(f"{path.name}:{number}: {line.strip()}")
    assert faults == []
