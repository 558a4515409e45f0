"""Text from a record in the pictures and the page: a move or a name that
looks like markup, or holds a character XML 1.0 forbids, leaves the SVG
well-formed XML and the page's script whole (its JSON read back as written).
Random such text is tests/fuzz/test_fuzz_pages.py; the page in a browser is
tests/draw/test_page_browser.py."""
import html.parser
import json
import xml.etree.ElementTree as ET

import pytest

from conftest import one_error_line, write
from havhex import _svg as svg
from havhex.draw import draw_record

HOSTILE = ["<!--<script>", "</script>", "</SCRIPT >", "<script><!--", "]]>", "&amp;",
           "a\u2028b\u2029c", "\x7f", "<!--", "-->", "<\\/script>"]
FORBIDDEN = ["\x00", "\x01", "\x08", "\x0b", "\x0c", "\x1b", "\x1f", "\ufffe", "\uffff",
             "\ud800", "\udfff", "\x80", "\x9f", "\ufdd0", "\U0001fffe", "\U0010ffff"]


class Scripts(html.parser.HTMLParser):
    """The text of each <script> element as an HTML parser splits the page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.scripts = []
        self.inside = False

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.inside = True
            self.scripts.append("")

    def handle_endtag(self, tag):
        if tag == "script":
            self.inside = False

    def handle_data(self, data):
        if self.inside:
            self.scripts[-1] += data


@pytest.mark.parametrize("text", HOSTILE + FORBIDDEN)
def test_script_json_is_ascii_without_markup(text):
    value = {"steps": [[text, [[0, "red"]]]], text[:1] or "k": text}
    out = svg.script_json(value)
    assert out.isascii()
    assert not set(out) & set("<>&\x7f")
    assert not any(c in out for c in FORBIDDEN if c.isascii())
    back = json.loads(out)
    assert back == json.loads(json.dumps(
        {"steps": [[svg.fit_text(text), [[0, "red"]]]],
         svg.fit_text(text[:1] or "k"): svg.fit_text(text)}))


@pytest.mark.parametrize("text", FORBIDDEN)
def test_escape_replaces_what_xml_forbids(text):
    escaped = svg.escape(f"a{text}b")
    assert escaped == "a\ufffdb"
    ET.fromstring(f'<t a="{escaped}">{escaped}</t>'.encode("utf-8"))


def test_escape_keeps_what_xml_allows():
    allowed = "tab\tnewline\ncr\r \u00a0é\u2028\ufffd\U0001f600\ue000\ud7ff"
    assert svg.escape(allowed) == allowed
    assert svg.escape('<a b="c">&') == "&lt;a b=&quot;c&quot;&gt;&amp;"


def hostile_record(move, name):
    # W[...] is Blue's second move: a move no board takes, so the replay
    # stops there and its text is in the page's "illegal" line.
    return (f"(;FF[4]GM[11]SZ[3]PB[{name}]PW[{name}x];B[a1];W[{move}];B[a2])").encode(
        "utf-8", "surrogatepass")


@pytest.mark.parametrize("move", ["<!--<script>", "</script>", "<script><!--"])
def test_a_move_that_looks_like_markup_keeps_the_page_script_whole(tmp_path, cli, move):
    path = write(tmp_path, "game.sgf", hostile_record(move, "</script><!--"))
    done = cli("draw", "record", path, "--html")
    assert done.returncode == 0, done.stderr
    page = done.stdout.decode("utf-8")
    parser = Scripts()
    parser.feed(page)
    parser.close()
    # The steps' JSON and the stepping script, each its own element.
    assert len(parser.scripts) == 2, parser.scripts
    data = json.loads(parser.scripts[0])
    assert data["steps"][0][0] == "Red 0,0"
    assert move in data["illegal"]
    assert "function" in parser.scripts[1] and "show(current)" in parser.scripts[1]


@pytest.mark.parametrize("character", ["\x01", "\x1b", "\ufffe", "\uffff", "\x0c"])
def test_a_forbidden_character_in_a_name_leaves_the_svg_well_formed(tmp_path, character):
    path = write(tmp_path, "game.sgf", hostile_record("c1", f"Ann{character}<&>"))
    text = draw_record(path)
    root = ET.fromstring(text.encode("utf-8"))
    title = root.find("{http://www.w3.org/2000/svg}title").text
    assert "Ann\ufffd<&> (Red)" in title
    page = draw_record(path, html=True)
    assert character not in page and "Ann\ufffd&lt;&amp;&gt;" in page


def test_a_failed_draw_leaves_the_old_output(tmp_path, cli):
    out = write(tmp_path, "page.html", "the old page\n")
    bad = write(tmp_path, "bad.sgf", "(;FF[4]GM[11]SZ[3];B[a1]")
    one_error_line(cli("draw", "record", bad, "--html", "-o", out))
    assert out.read_text() == "the old page\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.sgf", "page.html"]
    # And a good one replaces it whole.
    good = write(tmp_path, "good.sgf", "(;FF[4]GM[11]SZ[3];B[a1];W[c1])")
    done = cli("draw", "record", good, "--html", "-o", out)
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.sgf", "good.sgf", "page.html"]
