"""A proven win is never lost: games of SearchPlayer against SearchPlayer
on small boards of both games, each player noting the moves at which its
search proved its win; whoever proved a win wins the game (a proven loss
promises nothing: the opponent may go wrong), and on boards small enough
the exact solver agrees with every proof, won or lost."""
import pytest

import solver
from havhex.gtp.players import SearchPlayer
from havhex.havannah import Board as HavannahBoard
from havhex.hex import Board as HexBoard

GAMES = [
    ("hex 4", lambda: HexBoard(4), True),
    ("hex 5", lambda: HexBoard(5), False),
    ("hex 4 swap", lambda: HexBoard(4, swap=True), False),
    ("havannah 3", lambda: HavannahBoard(3), True),
    ("havannah 3 contest", lambda: HavannahBoard(3, rule="contest"), True),
    ("havannah 4", lambda: HavannahBoard(4), False),
]


@pytest.mark.parametrize("name, make, exact", GAMES, ids=[case[0] for case in GAMES])
def test_a_proven_win_is_never_lost(name, make, exact):
    proofs = wins = 0
    for game in range(6):
        board = make()
        # Unequal budgets, so that the stronger side proves its wins early
        # and the weaker one still proves some late.
        players = {0: SearchPlayer(simulations=200 + 1800 * (game % 2), seed=2 * game),
                   1: SearchPlayer(simulations=2000 - 1800 * (game % 2), seed=2 * game + 1)}
        won = set()
        seat = 0
        while not board.is_over:
            player = players[seat]
            colour = board.to_move
            move = player.genmove(board)
            analysis = player.last_analysis
            if player.last_simulations and analysis.proven is not None:
                proofs += 1
                if analysis.proven == "win":
                    won.add(colour)
                if exact:
                    value = solver.value(board)
                    assert value == (solver.WIN if analysis.proven == "win" else solver.LOSS), (
                        board.moves, analysis)
            board.play(move)
            seat = 1 - seat
        for colour in won:
            assert board.winner == colour, (name, game, board.moves, colour)
        wins += len(won)
    assert proofs and wins, "no search proved a win: the test tests nothing"
