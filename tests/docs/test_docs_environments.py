"""docs/environments.md says what the batches do: its plane tables name the
batches' planes in order, its pictures are the planes a real batch writes
(drawn again here and compared), and its Python examples run as they stand."""
import re
import sys
from pathlib import Path

import pytest

import needs
import planes_svg

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "environments.md"


def _page():
    if not PAGE.is_file():
        pytest.skip("docs/ is not beside the tests (installed package)")
    return PAGE.read_text(encoding="utf-8")


def _plane_table(text, heading):
    start = text.index(f"### {heading}\n")
    end = text.index("\n#", start + 1)
    return re.findall(r"^\| (\d+) \| `(\w+)` \|", text[start:end], re.M)


@pytest.mark.parametrize("game, heading", [("hex", "Hex"), ("havannah", "Havannah")])
def test_the_plane_tables_are_the_batchs_planes(game, heading):
    needs.module("numpy")
    import importlib

    batch = importlib.import_module(f"havhex.{game}.batch")
    rows = _plane_table(_page(), heading)
    assert [int(k) for k, _ in rows] == list(range(len(batch.PLANES)))
    assert tuple(name for _, name in rows) == tuple(batch.PLANES)
    made = batch.Batch(1, 3, seed=0)
    assert made.observation_shape[-1] == len(batch.PLANES)


@pytest.mark.parametrize("name", sorted(planes_svg.PICTURES))
def test_the_pictures_are_the_planes_a_batch_writes(name):
    needs.module("numpy")
    _page()
    path = ROOT / "docs" / name
    assert f"]({name})" in _page(), f"docs/environments.md does not show {name}"
    assert path.is_file(), f"docs/{name} is missing: python tests/support/planes_svg.py"
    assert path.read_text(encoding="utf-8") == planes_svg.PICTURES[name](), \
        f"docs/{name} is not what the batch writes now: python tests/support/planes_svg.py {name}"


def test_the_pictures_show_stones_where_the_batch_has_them():
    """The drawing itself: as many True cells in each plane's panel as the
    observation has (so that a picture of nothing could not pass)."""
    np = needs.module("numpy")
    from havhex.hex.batch import PLANES

    observation = planes_svg.hex_observation()
    svg = planes_svg.draw(observation, PLANES, "t", 0.5)
    assert svg.count('class="on"') == int(observation.sum())
    assert svg.count("<polygon") == observation.size
    assert int(observation[..., 0].sum()) + int(observation[..., 1].sum()) == \
        len(planes_svg.HEX_MOVES)
    assert np.any(observation[..., 0]) and np.any(observation[..., 1])


def _python_blocks(text):
    return re.findall(r"^```python\n(.*?)^```$", text, re.M | re.S)


# The blocks that use an adapter import it; the others need NumPy alone.
ADAPTERS = re.compile(r"^(?:import|from) (?:gymnasium|pettingzoo|havhex\.gymnasium|havhex\.pettingzoo)\b",
                      re.M)


def test_the_batch_examples_hold():
    """The blocks of the batches alone run with NumPy only, and each value
    their comments show is what the line gives (tests/docs/test_readme.py's
    claims)."""
    needs.module("numpy")
    from test_readme import _check_examples

    blocks = [block for block in _python_blocks(_page()) if not ADAPTERS.search(block)]
    assert blocks, "docs/environments.md shows no batch made by itself"
    text = "".join(f"```python\n{block}```\n" for block in blocks)
    assert _check_examples(PAGE, text) >= 4


def test_the_examples_run(capsys):
    needs.module("gymnasium")
    needs.module("pettingzoo")
    blocks = _python_blocks(_page())
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), {"__name__": "__docs__"})
    output = capsys.readouterr().out
    played = re.search(r"^(\d+) games played$", output, re.M)
    assert played and int(played.group(1)) > 100, output
    assert "winner" in output


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))
