"""The stepping page (``havhex draw --html``) in a real headless Chromium:
load it, press the keys and the buttons, read the state back from the DOM,
take screenshots.

Chromium comes from the system's packages (Debian: ``apt-get install
chromium``), driven over its DevTools pipe by tests/support/chromium.py.
Without it these tests skip, unless HAVHEX_REQUIRE names ``browser`` (as
.ci/run does), which makes a missing browser a failure (see
tests/support/needs.py).
"""
import collections

import pytest

import needs
import chromium
from havhex.draw.page import game_page, game_steps

# The page is Python and JavaScript, and Chromium no part of what the
# sanitizers check; under them the screenshots' decoding alone takes minutes.
pytestmark = pytest.mark.not_under_sanitizers(
    "the page's browser tests run in their own .ci/run stage, on the normal build")
BLACK_STONE = (38, 38, 38)      # .cell.stone.black's fill, #262626
WHITE_STONE = (251, 250, 245)   # .cell.stone.white's fill, #fbfaf5
RED_STONE = (215, 38, 61)       # .cell.red's fill, #d7263d


@pytest.fixture(scope="module")
def browser():
    executable = chromium.find()
    if executable is None:
        needs.missing("browser", f"no Chromium found (looked for {', '.join(chromium.NAMES)} "
                                 "and HAVHEX_CHROMIUM; apt-get install chromium)")
    with chromium.Browser.start(executable, width=800, height=640) as running:
        yield running


def open_page(browser, tmp_path, game, move=None, name="game.html"):
    path = tmp_path / name
    path.write_text(game_page(game, move), encoding="utf-8")
    return browser.open(path.as_uri(), width=800, height=640)


STATE = """(function () {
  var root = document.getElementById("havhex-game");
  var cells = Array.prototype.slice.call(document.querySelectorAll("#board .cell"));
  var numbers = Array.prototype.slice.call(document.querySelectorAll("#board .num"));
  return {
    move: Number(root.getAttribute("data-move")),
    structure: root.getAttribute("data-structure"),
    status: document.getElementById("status").textContent,
    stones: cells.filter(function (c) { return c.hasAttribute("data-stone"); }).map(function (c) {
      var a = c.getAttribute("data-x") !== null ? ["data-x", "data-y"] : ["data-row", "data-col"];
      return [Number(c.getAttribute(a[0])), Number(c.getAttribute(a[1])),
              c.getAttribute("data-stone"), c.getAttribute("class")];
    }),
    marked: cells.filter(function (c) {
      return /\\b(bridge|fork|ring|chain)\\b/.test(c.getAttribute("class"));
    }).length,
    numbers: numbers.filter(function (t) { return t.style.display !== "none"; }).map(
      function (t) { return Number(t.textContent); }).sort(function (a, b) { return a - b; }),
    structureShown: Array.prototype.slice.call(document.querySelectorAll("#board .structure"))
      .map(function (g) { return getComputedStyle(g).display !== "none"; }),
    disabled: ["first", "prev", "next", "last"].filter(function (id) {
      return document.getElementById(id).disabled; })
  };
})()"""


def state(page):
    return page.evaluate(STATE)


def check_position(game, seen):
    """The DOM's state is the game's position after ``seen["move"]`` moves."""
    move = seen["move"]
    expected = {game.cells[i]: colour for i, colour in enumerate(game.stones(move)) if colour}
    assert {(x, y): colour for x, y, colour, _ in seen["stones"]} == expected
    won = game.win is not None and move >= game.win
    assert seen["structure"] == ("shown" if won else "hidden")
    assert all(shown == won for shown in seen["structureShown"])
    assert (seen["marked"] > 0) == won
    assert seen["numbers"] == sorted(number for _, number, first, leaves in game.numbers()
                                     if first <= move and (leaves is None or move < leaves))
    assert len(seen["numbers"]) == len(expected)
    assert seen["status"].startswith("Start" if move == 0 else f"Move {move} of {len(game.steps)}")
    assert ("wins" in seen["status"]) == won


def colours(png):
    width, height, rows = chromium.png_pixels(png)
    assert (width, height) == (800, 640)
    return collections.Counter(pixel for row in rows for pixel in row)


def havannah_game():
    """White builds a bridge at move 7 of S = 4 after Black's swap, and the
    game goes on for two moves."""
    moves = [(2, 2), "swap", (1, 1), (5, 5), (2, 1), (6, 6), (3, 1), (7, 7), (4, 1),
             (5, 2), (6, 3)]
    game = game_steps("havannah", 4, moves, heading="a bridge after a swap")
    assert game.win == 9 and game.winner == "white" and len(game.steps) == 11
    return game


def test_keys_step_through_a_havannah_game(browser, tmp_path):
    game = havannah_game()
    page = open_page(browser, tmp_path, game)
    seen = state(page)
    assert seen["move"] == 9            # opened at the winning move
    check_position(game, seen)
    at_win = page.screenshot()

    page.press("Home")
    seen = state(page)
    assert seen["move"] == 0 and seen["stones"] == [] and seen["disabled"] == ["first", "prev"]
    check_position(game, seen)
    empty = page.screenshot()

    page.press("ArrowLeft")             # nothing before the start
    assert state(page)["move"] == 0
    for move in range(1, 4):
        page.press("ArrowRight")
        seen = state(page)
        assert seen["move"] == move
        check_position(game, seen)
    # The swap made the first stone Black's.
    assert [(x, y, c) for x, y, c, _ in seen["stones"]] == [(1, 1, "white"), (2, 2, "black")]

    page.press("End")
    seen = state(page)
    assert seen["move"] == 11 and seen["disabled"] == ["next", "last"]
    check_position(game, seen)
    page.press("ArrowRight")            # nothing after the end
    assert state(page)["move"] == 11
    for move in (10, 9, 8):
        page.press("ArrowLeft")
        seen = state(page)
        assert seen["move"] == move
        check_position(game, seen)
    before_win = page.screenshot()

    # The pictures: the empty board has no stones' colours, the positions do,
    # and the structure's path is drawn at the win and not the move before.
    empty_colours, win_colours, before_colours = (colours(png) for png in (empty, at_win,
                                                                           before_win))
    assert len(empty_colours) > 20            # a board, not a blank page
    # (A few pixels of the text's edges may have a stone's colour.)
    assert empty_colours[BLACK_STONE] < 50 and empty_colours[WHITE_STONE] < 50
    assert win_colours[BLACK_STONE] > 500 and win_colours[WHITE_STONE] > 500
    bridge_path = (163, 59, 0)                # .bridge-path's stroke, #a33b00 (its opacity mixes it)
    assert sum(n for c, n in win_colours.items() if _near(c, bridge_path, 60)) > \
        2 * sum(n for c, n in before_colours.items() if _near(c, bridge_path, 60))
    (tmp_path / "at-win.png").write_bytes(at_win)


def _near(colour, target, distance):
    return sum(abs(a - b) for a, b in zip(colour, target)) <= distance


def test_buttons_step_through_a_hex_game(browser, tmp_path):
    # Red joins the top and bottom rows of a 3 x 4 board in move 5, after
    # Blue's swap-pieces; one more move is played on.
    moves = [(0, 2), "swap-pieces", (0, 1), (0, 0), (1, 1), (1, 0), (2, 1), (2, 3)]
    game = game_steps("hex", (3, 4), moves, heading="hex")
    assert game.win == 7 and game.winner == "red"
    page = open_page(browser, tmp_path, game, move=0)
    assert state(page)["move"] == 0
    for button, move in (("next", 1), ("next", 2), ("last", 8), ("prev", 7), ("prev", 6),
                         ("first", 0), ("next", 1)):
        page.click(f"#{button}")
        seen = state(page)
        assert seen["move"] == move, button
        check_position(game, seen)
    page.click("#last")
    png = page.screenshot()
    (tmp_path / "hex.png").write_bytes(png)
    assert colours(png)[RED_STONE] > 500


def test_little_golem_records(browser, tmp_path, cli):
    """``havhex draw record FILE --html`` on real games: the page opens at
    the replay's winning move, and every position stepped to is the game's."""
    folder = needs.shared("records", "littlegolem-havannah", need="records")
    from havhex import records

    checked = {"win": 0, "none": 0}
    for path in sorted(folder.glob("*.hgf")):
        replayed = next(records.replay(path))
        key = "win" if replayed.win else "none"
        if checked[key] == 3:
            if min(checked.values()) == 3:
                break
            continue
        out = tmp_path / (path.stem + ".html")
        done = cli("draw", "record", path, "--html", "-o", out)
        assert done.returncode == 0, done.stderr
        page = browser.open(out.as_uri(), width=800, height=640)
        seen = state(page)
        assert seen["move"] == (replayed.win.move if replayed.win else replayed.moves)
        assert (seen["structure"] == "shown") == (replayed.win is not None)
        record = replayed.record
        game = game_steps("havannah", record.size, record.moves, board=record.board())
        check_position(game, seen)
        for key_name in ("Home", "ArrowRight", "ArrowRight", "ArrowRight", "End", "ArrowLeft"):
            page.press(key_name)
            check_position(game, state(page))
        page.press("End")
        seen = state(page)
        # One stone a move, but for a swap, which takes none.
        swaps = sum(move == "swap" for _, move in record.moves)
        assert len(seen["stones"]) == replayed.moves - swaps
        counts = colours(page.screenshot())
        assert counts[BLACK_STONE] > 500 and counts[WHITE_STONE] > 500
        checked[key] += 1
    assert checked == {"win": 3, "none": 3}


def test_an_sgf_hex_record(browser, tmp_path, cli):
    """A Hex record with Blue's swap-pieces, through the command line."""
    from test_draw_record import SWAP_GAME

    path = tmp_path / "swap.sgf"
    path.write_text(SWAP_GAME, encoding="utf-8")
    out = tmp_path / "swap.html"
    done = cli("draw", "record", path, "--html", "--move", "1", "-o", out)
    assert done.returncode == 0, done.stderr
    page = browser.open(out.as_uri(), width=800, height=640)
    seen = state(page)
    assert seen["move"] == 1 and [s[:3] for s in seen["stones"]] == [[0, 2, "red"]]
    page.press("ArrowRight")            # the swap: Red's stone leaves for its mirror, Blue's
    seen = state(page)
    assert seen["move"] == 2 and [s[:3] for s in seen["stones"]] == [[2, 0, "blue"]]
    page.press("End")
    seen = state(page)
    assert seen["move"] == 8 and seen["structure"] == "shown"
    assert sorted(s[:2] for s in seen["stones"] if "chain" in s[3].split()) == \
        [[2, 0], [2, 1], [2, 2]]
    assert "Blue wins" in seen["status"]


def test_a_page_of_hostile_text_still_steps(browser, tmp_path, cli):
    """A record whose names and last move open comments and scripts and hold
    characters XML forbids: the page opens, its buttons step, and the
    status shows the move's text as written."""
    move = "<!--<script>"
    record = ("(;FF[4]GM[11]SZ[3]PB[</script><!--\x01]PW[<script>\ufffe]GN[-->&amp;]"
              f";B[a1];W[c1];B[a2];W[{move}])")
    path = tmp_path / "hostile.sgf"
    path.write_text(record, encoding="utf-8")
    out = tmp_path / "hostile.html"
    done = cli("draw", "record", path, "--html", "-o", out)
    assert done.returncode == 0, done.stderr
    page = browser.open(out.as_uri(), width=800, height=640)
    seen = state(page)
    assert seen["move"] == 3 and seen["disabled"] == ["next", "last"]
    assert "move 4 is illegal" in seen["status"] and move in seen["status"]
    for button, expected in (("first", 0), ("next", 1), ("next", 2), ("prev", 1), ("last", 3)):
        page.click(f"#{button}")
        seen = state(page)
        assert seen["move"] == expected, button
        assert len(seen["stones"]) == expected
    title = page.evaluate("document.title")
    assert "</script><!--\ufffd (Red)" in title and "<script>\ufffd (Blue)" in title


REVIEW_STATE = """(function () {
  var marker = document.getElementById("review-marker");
  return {
    move: Number(document.getElementById("havhex-game").getAttribute("data-move")),
    marker: marker.getAttribute("x1"),
    said: document.getElementById("review-move").textContent,
    labels: Array.prototype.slice.call(document.querySelectorAll("#board .candidates .rate"))
      .map(function (t) { return t.textContent; }),
    outlined: document.querySelectorAll("#board .candidates .best").length
  };
})()"""


def test_a_reviewed_game_s_curve_and_candidates_follow_the_page(browser, tmp_path):
    """``havhex analyse --html``'s page: the curve's marker, the words under
    it and the candidates on the board are those of the move shown, by key
    or by a click on the curve."""
    from havhex import records
    from havhex.draw import record_steps
    from havhex.draw.review import review_page
    from havhex.records.review import analyse_record

    record = next(records.read(b"(;FF[4]GM[11]SZ[3];B[a1];W[c1];B[a2];W[c2];B[a3])"))
    review = analyse_record(record, simulations=200, seed=1)
    path = tmp_path / "review.html"
    path.write_text(review_page(record_steps(record), review, 0), encoding="utf-8")
    page = browser.open(path.as_uri(), width=800, height=900)
    data = page.evaluate('JSON.parse(document.getElementById("havhex-review").textContent)')

    def check(move):
        seen = page.evaluate(REVIEW_STATE)
        assert seen["move"] == move
        assert seen["marker"] == data["x"][move] and seen["said"] == data["texts"][move]
        assert seen["labels"] == [candidate[3] for candidate in data["candidates"][move]]
        assert seen["outlined"] == sum(candidate[5] for candidate in data["candidates"][move])

    check(0)
    assert page.evaluate(REVIEW_STATE)["labels"]        # the start has candidates
    for key, move in (("ArrowRight", 1), ("ArrowRight", 2), ("End", 5), ("Home", 0)):
        page.press(key)
        check(move)
    assert page.evaluate(REVIEW_STATE)["said"].startswith("Start: Red's win rate ")
    # A click on the curve at move 3's abscissa shows move 3.
    x, y = page.evaluate(f"""(function () {{
      var r = document.getElementById("review-curve").getBoundingClientRect();
      return [r.x + {float(data["x"][3])} / {data["width"]} * r.width, r.y + r.height / 2];
    }})()""")
    for kind in ("mousePressed", "mouseReleased"):
        page.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left",
                                               "clickCount": 1})
    check(3)
    (tmp_path / "review.png").write_bytes(page.screenshot())
