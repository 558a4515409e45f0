"""havhex.gtp.players.SearchPlayer: the tree kept across genmoves, proven
wins played, the clock kept, the node bound held; and the engine's analysis
commands (candidates, candidate_rates) with it.  No strength is asserted
here: that is the matches' (docs/engine.md)."""
import time

import pytest

from havhex import games
from havhex.gtp.players import MctsPlayer, RandomPlayer, SearchPlayer
from havhex.gtp.server import Engine
from havhex.havannah.board import Board as HavannahBoard
from havhex.hex.board import Board as HexBoard


def hex_position(size, moves):
    board = HexBoard(size)
    for move in moves:
        board.play(move)
    return board


def test_the_tree_is_kept_across_genmoves_and_dropped_for_another_game():
    board = HexBoard(7)
    player = SearchPlayer(simulations=20000, seed=1)
    board.play(player.genmove(board))
    # The reply the search expects: the subtree under it is the most searched.
    board.play(player.last_analysis.principal_variation[1])
    player.simulations = 1
    player.genmove(board)
    # One simulation more, yet the root's moves hold the kept tree's visits
    # (a fresh tree would hold one).
    assert sum(visits for _, visits, _, _ in player.last_analysis.moves) > 2
    assert player.restarts == 1
    # A board whose moves do not extend the last: a fresh search.
    other = hex_position(7, ["b2"])
    player.genmove(other)
    assert player.restarts == 2
    assert sum(visits for _, visits, _, _ in player.last_analysis.moves) <= 1
    # Another game, or another size, with no moves: fresh too.
    player.genmove(HavannahBoard(4))
    player.genmove(HexBoard(5))
    assert player.restarts == 4


def test_the_board_is_left_as_it_was_and_a_finished_game_has_no_move():
    board = hex_position(5, ["c3", "b2"])
    move = SearchPlayer(simulations=200, seed=3).genmove(board)
    assert board.moves == ((2, 2), (1, 1)) and move in board.legal_moves()
    done = hex_position(2, ["a1", "b1", "a2"])
    with pytest.raises(ValueError):
        SearchPlayer(simulations=20, seed=1).genmove(done)


@pytest.mark.parametrize("seed", range(5))
def test_a_proven_win_is_played_by_a_winning_move(seed):
    # Red (to move) holds a1 a2 a3 on 4x4 and Blue threatens nothing yet:
    # a4 wins at once, and the search proves it.
    board = hex_position(4, ["a1", "d1", "a2", "d2", "a3", "c2"])
    player = SearchPlayer(simulations=5000, seed=seed)
    move = player.genmove(board)
    assert player.last_analysis.proven == "win"
    board.play(move)
    assert board.winner == "red"


@pytest.mark.parametrize("seed", range(3))
def test_a_win_in_three_is_proven_and_played_to_the_end(seed):
    # Red (to move) on 3x3 with b1 and b2: b3 wins at once; after a2 Red
    # still has two ways to finish; the player plays its proof through.
    board = hex_position(3, ["b1", "a1", "b2", "a3"])
    red = SearchPlayer(simulations=20000, seed=seed)
    blue = SearchPlayer(simulations=2000, seed=seed + 10)
    while not board.is_over:
        player = red if board.to_move == "red" else blue
        board.play(player.genmove(board))
        if player is red:
            assert red.last_analysis is None or red.last_analysis.proven in ("win", None)
    assert board.winner == "red"


@pytest.mark.parametrize("seed", range(4))
def test_a_double_threat_kept_in_the_tree_is_won_after_the_block(seed):
    # Red (b1) finds the stone that threatens to win on two cells; Blue
    # blocks one, and the reply Red's tree holds for that block is a proven
    # leaf with no children: Red must still play the other cell.
    blocks = {"b2": "b3", "a3": "b2"}
    board = hex_position(3, ["b1", "a1"])
    player = SearchPlayer(simulations=2000, seed=seed)
    first = board.cell_name(player.genmove(board))
    assert first in blocks and player.last_analysis.proven == "win"
    board.play(first)
    board.play(blocks[first])
    board.play(player.genmove(board))
    assert board.winner == "red"
    assert player.restarts == 1


def test_a_move_clock_is_kept():
    board = HexBoard(11)
    player = SearchPlayer(seed=1)
    player.set_move_time(0.05)
    for _ in range(4):
        start = time.perf_counter()
        board.play(player.genmove(board))
        # Generous for a loaded machine; the search itself stops at 0.05 s.
        assert time.perf_counter() - start < 0.5
    assert player.seconds == 0.05 and player.simulations is None
    player.set_move_time(None)
    assert (player.seconds, player.simulations) == (None, 10_000)


def test_a_game_clock_is_shared_over_the_moves_left():
    board = HexBoard(11)
    player = SearchPlayer(seed=1, seconds=30)
    start = time.perf_counter()
    player.genmove(board, time_left=3.0)
    # (3 - 0.5) s over a quarter of 121 empty cells: about 0.08 s.
    assert time.perf_counter() - start < 0.6
    assert player.last_analysis.seconds < 0.2
    start = time.perf_counter()
    player.genmove(hex_position(11, ["f6"]), time_left=0.4)
    # Under the reserve: the least search, no time of the reserve's.
    assert time.perf_counter() - start < 0.3


def test_the_node_bound_is_held():
    board = HexBoard(9)
    player = SearchPlayer(simulations=2000, seed=2, max_nodes=3000)
    highest = 0
    while not board.is_over and len(board) < 30:
        board.play(player.genmove(board))
        highest = max(highest, player.last_analysis.nodes)
        assert player.nodes <= 3000
    # The pool filled, and the search went on within it.
    assert highest == 3000
    with pytest.raises(ValueError):
        SearchPlayer(max_nodes=0)
    with pytest.raises(ValueError):
        SearchPlayer(simulations=0)


def test_a_kept_tree_that_fills_the_pool_is_dropped(monkeypatch):
    from havhex.gtp import players

    board = HexBoard(7)
    player = SearchPlayer(simulations=500, seed=2, max_nodes=100_000)
    for _ in range(3):
        board.play(player.genmove(board))
    assert player.restarts == 1
    # Any kept tree is then "too full": each genmove starts afresh.
    monkeypatch.setattr(players, "_KEPT_SHARE", 0.0)
    for _ in range(3):
        board.play(player.genmove(board))
    assert player.restarts == 4


def test_candidates_list_the_searched_moves():
    engine = Engine("hex", size=5, player=SearchPlayer(simulations=4000, seed=1))
    assert engine.handle("play red c3") == "=\n\n"
    answer = engine.handle("candidates 0.05 4")
    assert answer.startswith("=\n")
    lines = answer.strip().split("\n")[1:]
    assert 1 <= len(lines) <= 4
    for line in lines:
        words = line.split()
        assert len(words) in (3, 4)
        assert words[0] in [engine._move_name(move) for move in engine.board.legal_moves()]
        assert int(words[1]) >= 0 and 0.0 <= float(words[2]) <= 1.0
    visits = [int(line.split()[1]) for line in lines]
    assert visits == sorted(visits, reverse=True)
    # The analysis leaves the game as it was.
    assert engine.board.moves == ((2, 2),)


def test_candidates_show_a_proven_win_and_candidate_rates_pairs():
    engine = Engine("hex", size=4, player=SearchPlayer(simulations=3000, seed=1))
    for move in ["a1", "d1", "a2", "d2", "a3", "c2"]:
        engine.handle(f"play {'red' if len(engine.board) % 2 == 0 else 'blue'} {move}")
    first = engine.handle("candidates").strip().split("\n")[1]
    assert first.split()[0] == "a4" and first.split()[-1] == "win"
    pairs = engine.handle("candidate_rates 0.05").strip()[2:].split()
    assert len(pairs) % 2 == 0 and pairs[pairs.index("a4") + 1] == "W"


def test_the_analysis_commands_are_declared_to_hexgui_with_a_search_player():
    engine = Engine("havannah", size=4, player=SearchPlayer(simulations=500, seed=1))
    listed = engine.handle("hexgui-analyze_commands").strip()[2:].split("\n")
    kinds = {line.split("/")[2]: line.split("/")[0] for line in listed}
    assert kinds["candidates"] == "string" and kinds["candidate_rates"] == "pspairs"
    for command in kinds:
        assert engine.handle(f"known_command {command}") == "= true\n\n"
    # Havannah's cells by their names, each with a percentage.
    words = engine.handle("candidate_rates").strip()[2:].split()
    assert words and all(label.isdigit() or label in "WL" for label in words[1::2])


@pytest.mark.parametrize("player", [RandomPlayer(1), MctsPlayer(simulations=10, seed=1)])
def test_the_analysis_commands_need_a_player_that_analyses(player):
    engine = Engine("hex", size=5, player=player)
    assert "candidates" not in engine.handle("hexgui-analyze_commands")
    assert engine.handle("candidates").startswith("? candidates: this player does not analyse")


@pytest.mark.parametrize("command", ["candidates 0", "candidates -1", "candidates x",
                                     "candidates 1e9", "candidates 1 2 3", "candidates 1 x",
                                     "candidate_rates 1 2", "candidate_rates nan"])
def test_the_analysis_commands_refuse_bad_arguments(command):
    engine = Engine("hex", size=5, player=SearchPlayer(simulations=50, seed=1))
    assert engine.handle(command).startswith("? ")


def test_the_analysis_of_a_finished_game_fails():
    engine = Engine("hex", size=2, player=SearchPlayer(simulations=50, seed=1))
    for line in ["play red a1", "play blue b1", "play red a2"]:
        engine.handle(line)
    assert engine.handle("candidates") == "? the game is over\n\n"


@pytest.mark.parametrize("game, grows", [("havannah", True), ("hex", False)])
def test_raves_k_follows_the_moves_simulations_by_game(game, grows):
    """Havannah's k grows with the square of the move's simulations past
    the game's reference; Hex's stays the player's."""
    descriptor = games.get(game)
    board = descriptor.new_board(4 if game == "havannah" else 5,
                                 descriptor.rules[0] if descriptor.rules else None, False)
    reference = descriptor.rave_reference
    assert (reference is not None) == grows
    simulations = 2 * int(reference or 1000)
    player = SearchPlayer(simulations=simulations, seed=1, rave=1000.0)
    player.genmove(board)
    k = player._search.rave
    assert k == (4000.0 if grows else 1000.0)
    # Below the reference k stays; 0 turns the schedule off.
    player = SearchPlayer(simulations=500, seed=1, rave=1000.0)
    player.genmove(board)
    assert player._search.rave == 1000.0
    player = SearchPlayer(simulations=simulations, seed=1, rave=1000.0, rave_reference=0)
    player.genmove(board)
    assert player._search.rave == 1000.0


@pytest.mark.parametrize("size, opening", [(4, (1, 2)), (4, (0, 3)), (5, (2, 2))])
def test_the_endgame_solver_plays_a_proven_win(size, opening):
    # Blue to move after a winning opening of Red: a lost position for
    # Blue, so Red's replies come from the solver as proven wins once its
    # share of the move (a third of 200 simulations, as nodes) is enough;
    # before that ("unknown") the search plays.
    import solver as brute

    board = hex_position(size, [])
    board.play(opening)
    red = SearchPlayer(simulations=200, seed=3, endgame=size * size)
    blue = SearchPlayer(simulations=200, seed=4)
    played_by_solver = 0
    while not board.is_over:
        player = red if board.to_move == "red" else blue
        move = player.genmove(board)
        if player is red and red.last_solution is not None:
            assert red.last_solution.result in ("win", "unknown")
        if player is red and red.last_solution is not None and red.last_solution.result == "win":
            assert red.last_solution.move == move
            if size == 4:
                assert move in brute.winning_moves(board)
            played_by_solver += 1
        board.play(move)
    assert played_by_solver >= 1
    if size == 4:
        assert board.winner == "red"


def test_the_endgame_solver_is_off_by_default_and_checked():
    board = hex_position(3, [(0, 0)])
    player = SearchPlayer(simulations=50, seed=1)
    player.genmove(board)
    assert player.last_solution is None
    with pytest.raises(ValueError):
        SearchPlayer(endgame=-1)
