"""The pictures' and the page's writers on hostile text: records whose
players' names, other properties and moves hold markup, comment and script
openers, characters XML 1.0 forbids, noncharacters and line separators.

Every SVG must parse as XML (xml.etree), every page as HTML5 with no parse
error at all (html5lib in strict mode), and the page's steps must read back
from its JSON as the game replayed them.  ``HAVHEX_FUZZ_EXAMPLES`` sets the
number of examples (see tests/fuzz/fuzzing.py).  The same kind of page in a
browser is tests/draw/test_page_browser.py.
"""
import json
import xml.etree.ElementTree as ET

import needs
from fuzzing import EXAMPLES, SETTINGS
from hypothesis import given, settings
from hypothesis import strategies as st

from havhex import InputError
from havhex import _svg as svg
from havhex.draw import draw_record
from havhex.draw.page import game_page, game_steps, position_svg

html5lib = needs.module("html5lib")

PIECES = ("<!--", "-->", "<script>", "</script>", "</SCRIPT", "<![CDATA[", "]]>", "&", "&amp;",
          "&#0;", "<", ">", '"', "'", "\\", "]", "\u2028", "\u2029", "\x00", "\x01", "\x0b",
          "\x0c", "\x1b", "\x7f", "\x85", "\x9f", "\ufdd0", "\ufffe", "\uffff", "\U0010fffe",
          "\r", "\r\n", "\t", "<?xml", "<!DOCTYPE", "\ufeff")
hostile = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4),
                             st.characters(min_codepoint=0, max_codepoint=0x10ffff,
                                           exclude_categories=())),
                   max_size=8).map("".join)
SVG = "{http://www.w3.org/2000/svg}"


def well_formed_svg(text):
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    return root


def strict_page(text):
    """The page parsed as HTML5 with every parse error an exception; its
    steps' JSON."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    tree = parser.parse(text.encode("utf-8"))
    scripts = tree.findall(".//script")
    assert [s.get("id") for s in scripts] == ["havhex-steps", None]
    assert "show(current)" in scripts[1].text
    return json.loads(scripts[0].text)


def sgf_value(text):
    return text.replace("\\", "\\\\").replace("]", "\\]")


@settings(max_examples=EXAMPLES, **SETTINGS)
@given(black=hostile, white=hostile, name=hostile, comment=hostile, move=hostile)
def test_hex_records_with_hostile_text(tmp_path_factory, black, white, name, comment, move):
    text = (f"(;FF[4]GM[11]SZ[3]PB[{sgf_value(black)}]PW[{sgf_value(white)}]"
            f"GN[{sgf_value(name)}]C[{sgf_value(comment)}];B[a1];W[{sgf_value(move)}];B[b2])")
    path = tmp_path_factory.mktemp("page") / "game.sgf"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    try:
        picture = draw_record(path)
    except InputError as error:
        # A record the reader refuses: one line, and no page either.
        assert "\n" not in str(error)
        return
    well_formed_svg(picture)
    data = strict_page(draw_record(path, html=True))
    assert data["steps"][0][0] == "Red 0,0"
    assert len(data["steps"]) in (1, 2, 3)


@settings(max_examples=EXAMPLES, **SETTINGS)
@given(heading=hostile, move=hostile, kind=st.sampled_from(["havannah", "hex"]))
def test_game_pages_with_hostile_text(heading, move, kind):
    first = (2, 2) if kind == "havannah" else (0, 0)
    game = game_steps(kind, 3, [first, move], heading=heading)
    # Text that is no move: the replay stops before it, and says so.  (A
    # cell's name, such as "b1", is a move like any other.)
    if game.illegal is None:
        assert len(game.steps) == 2
    else:
        assert len(game.steps) == 1 and game.illegal[0] == 2
    root = well_formed_svg(position_svg(game))
    assert root.find(f"{SVG}title").text.startswith(svg.fit_text(heading).replace("\r\n", "\n")
                                                    .replace("\r", "\n"))
    data = strict_page(game_page(game, 0))
    assert (data["illegal"] or "").startswith("move 2 is illegal" if game.illegal else "")
    assert len(data["steps"]) == len(game.steps)
