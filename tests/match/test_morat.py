"""morat, a real third-party engine, against havhex's judges: its cells
in both games, its colours, and its own verdict.

The dialect's Havannah mapping (morat's column letter and row number over
its (2N-1) x (2N-1) array, havhex's (x, y)) is checked by playing whole
games into morat and asking ``winner`` after every move: it must say
``unknown`` until the move that wins on havhex's official-rule board and
name that board's winner then, for games won by a fork, a bridge and a
ring, and for the flower (a ring under the official rule only).  A mapping
that is not a symmetry of the board moves stones off it or changes who
touches which edge, and these games then disagree."""
import random

import pytest

from havhex.havannah.board import Board as HavannahBoard
from havhex.hex.board import Board as HexBoard
from havhex.match.engines import EngineSpec, GtpPlayer

SEATS = {"white": 0, "black": 1, "red": 0, "blue": 1}


@pytest.fixture
def player(morat, request):
    game = request.param
    engine = GtpPlayer(EngineSpec(morat.command(game)), game)
    engine.start(timeout=30)
    yield engine
    engine.close()


def play_through(engine, board, moves):
    """Play ``moves`` on havhex's board and into morat, asking morat's
    verdict after each; returns the kinds of the last move."""
    kinds = ()
    engine.new_game(board.size if hasattr(board, "size") else board.rows)
    for ply, move in enumerate(moves):
        kinds = board.play(move)
        engine.play(ply % 2, move)
        claim = engine.claimed_winner(10)
        if board.is_over:
            assert claim == SEATS.get(board.winner), (board.moves, kinds)
            break
        assert claim is None, f"morat sees a win at move {ply + 1} of {board.moves}"
    return kinds


def random_game(board, rng):
    moves = []
    scratch = board.copy()
    while not scratch.is_over:
        move = rng.choice(scratch.legal_moves())
        scratch.play(move)
        moves.append(move)
    return moves


@pytest.mark.parametrize("player", ["havannah"], indirect=True)
def test_morat_names_havhex_cells_and_winners_in_havannah(player):
    assert player.dialect.name == "morat" and player.name.startswith("morat-havannah")
    rng = random.Random(25)
    wins = set()
    for game in range(120):
        size = (3, 4, 5)[game % 3]
        board = HavannahBoard(size, rule="official")
        kinds = play_through(player, board, random_game(board, rng))
        wins.update(kinds)
        if game >= 30 and wins >= {"fork", "bridge", "ring"}:
            break
    assert wins >= {"fork", "bridge", "ring"}


@pytest.mark.parametrize("player", ["havannah"], indirect=True)
def test_morat_agrees_on_a_bridge_a_fork_and_the_flower(player):
    size = 4
    # White's moves, with black answering far away on cells white never takes.
    positions = {
        # Corners (1, 1) and (1, 4) along the edge x = 1.
        "bridge": [(1, 1), (1, 2), (1, 3), (1, 4)],
        # Edges y = 1, x = 1 and x - y = 3 (no corner) joined through (2, 2).
        "fork": [(3, 1), (2, 2), (2, 1), (1, 2), (3, 2), (4, 2), (5, 2)],
        # Six stones round a seventh: a ring under the official rule only.
        "ring": [(4, 4), (5, 5), (4, 5), (3, 4), (3, 3), (4, 3), (5, 4)],
    }
    replies = [(7, 7), (7, 6), (6, 7), (7, 5), (6, 6), (5, 7), (6, 5)]
    for kind, white in positions.items():
        board = HavannahBoard(size, rule="official")
        moves = [move for pair in zip(white, replies) for move in pair]
        kinds = play_through(player, board, moves)
        assert kind in kinds and board.winner == "white", (kind, kinds)
        assert board.winning_move == 2 * len(white) - 2  # 0-based: white's last
    contest = HavannahBoard(size, rule="contest")
    for move in [move for pair in zip(positions["ring"], replies) for move in pair]:
        contest.play(move)
    assert contest.winner is None


@pytest.mark.parametrize("player", ["hex"], indirect=True)
def test_morat_names_havhex_cells_and_winners_in_hex(player):
    assert player.dialect.name == "morat" and player.dialect.colour("hex", 0) == "white"
    rng = random.Random(11)
    winners = set()
    for game in range(30):
        board = HexBoard((3, 5, 8)[game % 3])
        play_through(player, board, random_game(board, rng))
        winners.add(board.winner)
    assert winners == {"red", "blue"}


@pytest.mark.parametrize("player", ["hex", "havannah"], indirect=True)
def test_morat_genmove_answers_are_legal_moves(player):
    from havhex.match.engines import ClockSettings
    game = player.game
    board = HexBoard(5) if game == "hex" else HavannahBoard(4)
    size = 5 if game == "hex" else 4
    player.new_game(size, clock=ClockSettings(per_move=0.05))
    while not board.is_over and len(board.moves) < 12:
        move = player.parse_move(player.genmove(len(board.moves) % 2, 10), board)
        board.play(move)
    assert len(board.moves) >= 5


def test_a_failed_build_fails_clearly(tmp_path, monkeypatch):
    import morat as morat_support
    import needs
    needs.shared("engines", "morat", need="engines")
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "Makefile").write_text("morat-hex morat-havannah:\n\t@echo no compiler today >&2; false\n")
    monkeypatch.setenv("HAVHEX_MORAT_DIR", str(broken))
    with pytest.raises(pytest.fail.Exception, match="no compiler today"):
        morat_support.build(tmp_path)
