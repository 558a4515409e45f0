"""What draw draws of a game comes from the game's descriptor (its
``pictures``, havhex.descriptor.Pictures): the limits, the page's hexagons
and style, the pictures of a case; a game without pictures is refused by
name."""
import ast
import importlib
from pathlib import Path

import pytest

from conftest import write
from havhex import InputError, games
from havhex import draw
from havhex.descriptor import Descriptor, EngineWords, Pictures
from havhex.draw import page
from havhex.draw.page import game_page, game_steps, position_svg
from havhex.havannah import picture as havannah_picture
from havhex.hex import picture as hex_picture

GAMES = ("havannah", "hex")
DRAW = Path(__file__).resolve().parents[2] / "src" / "havhex" / "draw"


@pytest.fixture
def registry(monkeypatch):
    """games.register for this test only."""
    monkeypatch.setattr(games, "_found", dict(games._found))
    return games.register


def toy(name, pictures=None):
    """A game on Hex's boards, described with ``pictures``."""
    hex_game = games.get("hex")
    words = EngineWords(hex_game.players, hex_game.engines["havhex"].cell_name,
                        hex_game.engines["havhex"].parse_cell)
    return Descriptor(name=name, title=name.capitalize(), players=hex_game.players,
                      swap_move=hex_game.swap_move, default_size=3, min_size=1, max_size=9,
                      new_board=hex_game.new_board, board_size=hex_game.board_size,
                      win_reason=hex_game.win_reason, engines={"havhex": words},
                      records=hex_game.records, pictures=pictures)


def pictures_without_cases(pictures):
    """``pictures`` as a game has them that draws no case of a judge."""
    given = {slot: getattr(pictures, slot) for slot in Pictures.__slots__}
    for slot in ("svg_max", "text_max", "header", "case_tokens", "draw_case"):
        del given[slot]
    return Pictures(**given)


def test_draw_names_no_game():
    """No game's name as a string and no import of a game's package: what
    draw knows of a game is its descriptor's."""
    sources = sorted(DRAW.glob("*.py"))
    if not sources:
        pytest.skip(f"the package's sources are not at {DRAW}")
    found = []
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in GAMES:
                found.append(f"{path.name}:{node.lineno}: {node.value!r}")
            elif isinstance(node, ast.ImportFrom):
                named = (node.module or "").split(".") + [alias.name for alias in node.names]
                if set(named) & set(GAMES):
                    found.append(f"{path.name}:{node.lineno}: from {node.module} import ...")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if set(alias.name.split(".")) & set(GAMES):
                        found.append(f"{path.name}:{node.lineno}: import {alias.name}")
    assert found == []


@pytest.mark.parametrize("name", GAMES)
def test_each_game_describes_its_pictures(name):
    pictures = games.get(name).pictures
    assert isinstance(pictures, Pictures)
    module = importlib.import_module(pictures.module)
    assert module.__name__ == f"havhex.{name}.picture"
    for export in pictures.exports:
        owner = draw if export in draw.__all__ else page
        assert export in owner.__all__, export
        assert getattr(owner, export) is getattr(module, export), export


def test_the_limits_are_the_picture_modules():
    havannah, hex_game = games.get("havannah").pictures, games.get("hex").pictures
    assert (havannah.svg_max, havannah.text_max) == (None, havannah_picture.HAVANNAH_TEXT_MAX)
    assert (hex_game.svg_max, hex_game.text_max) == (hex_picture.HEX_SVG_MAX,
                                                     hex_picture.HEX_TEXT_MAX)


def test_draw_takes_the_limits_from_the_descriptor(tmp_path, monkeypatch):
    path = str(write(tmp_path, "s4.in", "1\n4 2\n1 1\n4 4\n"))
    assert draw.draw_command("havannah", path, 1, as_text=True)
    monkeypatch.setattr(games.get("havannah").pictures, "text_max", 3)
    with pytest.raises(InputError, match=r"case #1 has S = 4: the text view is for boards "
                                         r"up to S = 3 \(draw it as SVG instead\)"):
        draw.draw_command("havannah", path, 1, as_text=True)
    # An SVG of any size, until the descriptor bounds it.
    assert draw.draw_command("havannah", path, 1).startswith("<?xml")
    monkeypatch.setattr(games.get("havannah").pictures, "svg_max", 3)
    with pytest.raises(InputError, match=r"the picture is for boards up to S = 3$"):
        draw.draw_command("havannah", path, 1)


def test_the_page_draws_with_the_descriptors_hooks(monkeypatch):
    pictures = games.get("hex").pictures
    monkeypatch.setattr(pictures, "style", lambda: ".toy-style{}")
    monkeypatch.setattr(pictures, "size_text", lambda size: "toy-sized")
    game = game_steps("hex", 3, [(0, 0), (1, 1)])
    assert game.descriptor is games.get("hex")
    svg = position_svg(game)
    assert ".toy-style{}" in svg and "Hex toy-sized; 2 moves" in svg
    assert ".toy-style{}" in game_page(game)


def test_a_game_with_pictures_draws_its_records_not_its_cases(registry, tmp_path):
    registry(toy("toyhex", pictures_without_cases(games.get("hex").pictures)))
    game = game_steps("toyhex", 3, [("B", (0, 1)), ("W", (1, 1)), ("B", (1, 0)),
                                    ("W", (2, 2)), ("B", (2, 0))])
    assert (game.game, game.winner, game.answer) == ("toyhex", "red", "a chain in move 5")
    assert game.heading == "Toyhex game"
    assert 'data-game="toyhex"' in game_page(game)
    path = str(write(tmp_path, "one.in", "1\n2\nR.\n..\n"))
    with pytest.raises(InputError, match=r"^Toyhex has no pictures of a case: "
                                         r"draw havannah or hex$"):
        draw.draw_command("toyhex", path, 1)


def test_a_game_without_pictures_is_refused(registry, tmp_path):
    registry(toy("plain"))
    path = str(write(tmp_path, "one.in", "1\n2\nR.\n..\n"))
    with pytest.raises(InputError, match=r"^Plain has no pictures: draw havannah or hex$"):
        draw.draw_command("plain", path, 1)
    with pytest.raises(InputError, match=r"^Plain has no pictures: draw havannah or hex$"):
        game_steps("plain", 2, [])
    with pytest.raises(InputError, match=r"^unknown game 'nogame': draw havannah or hex$"):
        draw.draw_command("nogame", path, 1)
    with pytest.raises(InputError, match=r"^unknown game 'nogame': draw havannah or hex$"):
        game_steps("nogame", 2, [])
