"""examples/alphazero: the small AlphaZero loop runs a few iterations on
the smallest boards (Hex 3x3, Havannah base 2): training lowers the loss on
the positions self-play gave, the games it writes replay as records, and
the evaluation plays whole games against both opponents."""
import importlib.util
from pathlib import Path

import pytest

import needs
from havhex import records

needs.module("numpy")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "alphazero" / "alphazero.py"


def load():
    if not EXAMPLE.is_file():
        pytest.skip("examples/ is not beside the tests (installed package)")
    spec = importlib.util.spec_from_file_location("alphazero_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game, size, extension", [("hex", 3, ".sgf"), ("havannah", 2, ".hgf")])
def test_the_loop_learns_and_its_games_replay(tmp_path, game, size, extension):
    example = load()
    rows = example.run([game, "--size", str(size), "--games", "64", "--simulations", "8",
                        "--iterations", "3", "--evaluate-every", "3", "--eval-games", "12",
                        "--eval-simulations", "8", "--engine-playouts", "8", "--hidden", "32",
                        "--out", str(tmp_path)])
    assert len(rows) == 3
    for row in rows:
        assert row["loss_after"] < row["loss_before"], row
    assert 0 <= rows[-1]["win_random"] <= 1 and 0 <= rows[-1]["win_engine"] <= 1
    games = list(records.replay((tmp_path / f"games{extension}").read_bytes(), game=game))
    assert len(games) == 64
    assert all(replayed.illegal is None and replayed.win is not None or replayed.end == "none"
               for replayed in games)
    assert (tmp_path / "strength.svg").read_text().startswith("<svg")
    assert (tmp_path / "log.csv").read_text().count("\n") == 4
