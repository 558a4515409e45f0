"""The engine's review of a game (havhex.records.review): a move that throws
a won game away is the one that loses the most, the moves the search itself
prefers lose little, the figures are win rates, and a review of
simulations is the same each time.  The page and the command line are
tests/cli/test_analyse_cli.py."""
import xml.etree.ElementTree as ET

import pytest

import solver
from havhex import InputError, records
from havhex.draw.review import analysis_svg, rate_label
from havhex.havannah import Board as HavannahBoard
from havhex.hex import Board as HexBoard
from havhex.records.review import (DEFAULT_THRESHOLD, analyse_game, analyse_record,
                                   review_json, review_text)
from havhex.search import Search

SVG = "{http://www.w3.org/2000/svg}"
# Red's first stone in a corner and Blue's answer next to the centre leave
# Red, to move on Hex 4x4, as many winning moves as losing ones.
OPENING = [(0, 3), (1, 1)]


def _best_play(board, moves, table):
    """``moves`` played on ``board``, then both sides playing on: the
    winner by a winning move (the solver's), the loser by its first legal
    move, until the game is over."""
    board = board.copy()
    for move in moves:
        board.play(move)
    played = list(moves)
    while not board.is_over:
        winning = solver.winning_moves(board, table)
        move = winning[0] if winning else board.legal_moves()[0]
        board.play(move)
        played.append(move)
    return played


@pytest.fixture(scope="module")
def thrown_away():
    """A Hex 4x4 game in which Red, winning after the opening, plays a
    move that loses (move 3), then both sides play best: ``(moves,
    blunder)``."""
    board = HexBoard(4)
    for move in OPENING:
        board.play(move)
    table = {}
    assert solver.value(board, table) == solver.WIN
    winning = solver.winning_moves(board, table)
    blunder = next(move for move in board.legal_moves() if move not in winning)
    return _best_play(HexBoard(4), OPENING + [blunder], table), len(OPENING) + 1


def test_the_move_that_throws_a_won_game_away_loses_the_most(thrown_away):
    moves, blunder = thrown_away
    review = analyse_game(HexBoard(4), moves, simulations=2000, seed=3)
    assert [move.number for move in review.moves] == list(range(1, len(moves) + 1))
    worst = review.biggest_losses()[0]
    assert worst.number == blunder, [(m.number, round(m.loss, 3)) for m in review.moves]
    assert worst.flagged and worst.loss > 0.5
    assert worst.before > 0.5 > worst.after and worst.best_move != worst.move
    # After it the game is decided and played out best: no move loses.
    assert not any(move.flagged for move in review.moves[blunder:])
    # Blue won on the board, and the curve ends there.
    assert review.winner == "blue" and review.curve[-1] == 0.0
    assert review.final is None and review.illegal is None


def _in_unit_range(review):
    for move in review.moves:
        assert 0.0 <= move.before <= 1.0 and 0.0 <= move.after <= 1.0, move
        assert -1.0 <= move.loss <= 1.0
    assert all(0.0 <= chance <= 1.0 for chance in review.curve)


@pytest.fixture
def examples():
    from pathlib import Path

    folder = Path(__file__).resolve().parents[2] / "examples"
    if not folder.is_dir():
        pytest.skip("the examples are not beside the tests (installed package)")
    return folder


@pytest.mark.parametrize("name", ["hex-games.sgf", "havannah-games.hgf"])
def test_the_figures_are_win_rates_of_every_move(name, examples):
    for record, replayed in zip(records.read(examples / name), records.replay(examples / name)):
        review = analyse_record(record, simulations=300, seed=1)
        _in_unit_range(review)
        # Every move up to the win, counted as the replay counts them.
        assert len(review.moves) == (replayed.win.move if replayed.win else replayed.moves)
        assert len(review.curve) == len(review.moves) + 1


def _own_moves(board, count, simulations, seed):
    """``count`` moves of the search playing both sides from ``board``."""
    board = board.copy()
    search = Search(board, seed=seed)
    moves = []
    for _ in range(count):
        move = search.run(simulations=simulations).best_move
        board.play(move)
        search.play(board.moves[-1])
        moves.append(move)
        if board.is_over:
            break
    return moves


@pytest.mark.parametrize("seed", [5, 6])
def test_the_moves_the_search_prefers_lose_little(seed):
    # The search's own moves, reviewed by the same search: each is its best
    # move, never flagged, and a move's loss compares rates of one kind, so
    # that they lose about nothing.  (The best move's rate in one position
    # against the best reply's in the next would lose 0.08 to 0.1 a move
    # here: a search favours the player to move.)
    moves = _own_moves(HexBoard(9), 12, 3000, seed=seed)
    review = analyse_game(HexBoard(9), moves, simulations=3000, seed=seed)
    assert [move.best_move for move in review.moves] == moves
    assert review.flagged() == ()
    losses = sorted(move.loss for move in review.moves
                    if move.proven_before is None and move.proven_after is None)
    assert len(losses) >= 8 and losses[len(losses) // 2] < 0.05, losses


def test_the_search_s_own_move_is_not_flagged(thrown_away):
    moves, _ = thrown_away
    review = analyse_game(HexBoard(4), moves, simulations=300, seed=1, threshold=0.01)
    own = [move for move in review.moves if move.move == move.best_move]
    assert own and not any(move.flagged for move in own)


def test_a_review_of_simulations_is_the_same_each_time(thrown_away):
    moves, _ = thrown_away

    def reviewed(seed):
        review = analyse_game(HexBoard(4), moves, simulations=300, seed=seed)
        return [move.to_dict() for move in review.moves], review.curve

    assert reviewed(7) == reviewed(7)
    assert reviewed(7) != reviewed(8)


def test_the_review_stops_at_an_illegal_move():
    review = analyse_game(HexBoard(3), [(0, 0), (1, 1), (1, 1), (2, 2)], simulations=50)
    assert [move.number for move in review.moves] == [1, 2]
    assert review.illegal[0] == 3 and "taken" in review.illegal[1]
    assert review.final is not None and len(review.curve) == 3


def test_moves_played_on_after_the_win_are_left_out():
    # Red joins top and bottom down the first column in move 5.
    moves = [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2), (1, 1)]
    review = analyse_game(HexBoard(3), moves, simulations=50)
    assert len(review.moves) == 5 and review.unreviewed == 2
    assert review.winner == "red" and review.moves[-1].after == 1.0
    assert review.moves[-1].proven_after == "win"
    assert "2 moves played on after it are not reviewed" in review_text(review, "game")


def test_a_record_s_letters_resignations_and_passes():
    record = next(records.read(b"(;FF[4]GM[11]SZ[3];B[a1];W[pass];B[b1];W[c1];B[resign])"))
    review = analyse_record(record, simulations=50)
    # The pass and the resignation put nothing on the board: not reviewed.
    assert [(move.number, move.player, move.colour, move.name) for move in review.moves] == \
        [(1, "B", "red", "a1"), (2, "B", "blue", "b1"), (3, "W", "red", "c1")]


def test_a_record_s_fault_names_its_file_and_line():
    data = b"\n(;FF[4]GM[11]SZ[2]AB[a1][b1][a2]PL[B];B[b2])"
    record = next(records.read(data))
    with pytest.raises(InputError) as caught:
        analyse_record(record, simulations=10)
    assert (caught.value.source, caught.value.line) == ("<bytes>", 2)


@pytest.mark.parametrize("threshold", [0, -0.1, 1.5, "0.1", True])
def test_a_threshold_beyond_a_win_rate_is_refused(threshold):
    with pytest.raises(ValueError, match="threshold"):
        analyse_game(HexBoard(3), [(0, 0)], simulations=10, threshold=threshold)


def test_the_threshold_says_what_is_flagged(thrown_away):
    moves, _ = thrown_away
    strict = analyse_game(HexBoard(4), moves, simulations=300, seed=1, threshold=1.0)
    loose = analyse_game(HexBoard(4), moves, simulations=300, seed=1, threshold=0.01)
    for review, threshold in [(strict, 1.0), (loose, 0.01)]:
        assert all(move.flagged == (move.loss >= threshold and move.move != move.best_move)
                   for move in review.moves)
    assert len(loose.flagged()) > len(strict.flagged())
    assert DEFAULT_THRESHOLD == 0.15


def test_the_json_of_a_review_names_what_the_replay_names():
    import json

    record = next(records.read(b"(;FF[4]GM[11]SZ[3];B[b2];W[a3];B[c1])"))
    lines = review_json(analyse_record(record, simulations=50), record).splitlines()
    objects = [json.loads(line) for line in lines]
    assert [o["move"] for o in objects] == [1, 2, 3]
    assert objects[0]["file"] == "<bytes>" and objects[0]["record"] == 1
    assert objects[0]["game"] == "hex" and objects[0]["size"] == [3, 3]
    assert objects[1]["player"] == "W" and objects[1]["colour"] == "blue"
    assert objects[1]["played"] == [2, 0] and objects[1]["played_name"] == "a3"


def _rates_shown(svg):
    root = ET.fromstring(svg.encode())
    return [text.text for text in root.iter(f"{SVG}text")
            if "rate" in (text.get("class") or "").split()]


def test_the_picture_of_an_analysis_shows_each_searched_cell():
    board = HexBoard(5)
    for move in [(2, 2), (1, 3)]:
        board.play(move)
    analysis = Search(board, seed=2).run(simulations=2000)
    searched = [entry for entry in analysis.moves if entry[1] or entry[3]]
    shown = _rates_shown(analysis_svg(board, analysis))
    assert shown == [rate_label(rate, proven) for _, _, rate, proven in searched]
    assert len(_rates_shown(analysis_svg(board, analysis, top=3))) == 3


def test_a_proven_move_is_marked_on_its_cell():
    # Red to move wins at once in the middle of the column it holds.
    board = HexBoard(3)
    for move in [(0, 1), (0, 2), (2, 1), (1, 2)]:
        board.play(move)
    analysis = Search(board, seed=1).run(simulations=200)
    assert analysis.proven == "win"
    svg = analysis_svg(board, analysis)
    assert "W" in _rates_shown(svg)
    assert ET.fromstring(svg.encode()).find(f"{SVG}title") is not None


def test_the_picture_of_an_analysis_of_havannah():
    board = HavannahBoard(3)
    board.play((2, 2))
    analysis = Search(board, seed=2).run(simulations=500)
    shown = _rates_shown(analysis_svg(board, analysis, top=5))
    assert len(shown) == 5 and all(label.isdigit() or label in "WL" for label in shown)
