"""Search.play into a reply its tree had proven lost without expanding it
(a reply that stops one of two threats): the new root is searched again and
its analysis names the move that wins, in both games."""
from havhex.havannah.board import Board as HavannahBoard
from havhex.hex.board import Board as HexBoard
from havhex.search import Search


def test_a_hex_double_threat_is_played_out_after_the_block():
    board = HexBoard(3)
    for move in ["b1", "a1"]:
        board.play(move)
    search = Search(board, seed=3)
    analysis = search.run(simulations=2000)
    assert analysis.proven == "win" and analysis.best_move == (1, 1)    # b2
    search.play((1, 1))
    board.play((1, 1))
    # Blue's two blocks were expanded as proven losses with no children.
    assert {move for move, _, _, proven in search.analysis().moves
            if proven == "loss"} >= {(2, 0), (2, 1)}
    search.play((2, 1))                 # b3: a3 still wins
    board.play((2, 1))
    analysis = search.run(simulations=10)
    assert analysis.proven == "win" and analysis.best_move == (2, 0)
    board.play(analysis.best_move)
    assert board.winner == "red"


def test_a_havannah_double_threat_is_played_out_after_the_block():
    # Base 3: White's (5, 3) leaves two cells that each win at once (a
    # brute force found the position); Black blocks one of them.
    board = HavannahBoard(3)
    for move in [(3, 1), (2, 2), (5, 4), (1, 2)]:
        board.play(move)
    search = Search(board, seed=2)
    analysis = search.run(simulations=20000)
    assert analysis.proven == "win"
    board.play(analysis.best_move)
    search.play(analysis.best_move)
    blocks = [move for move, visits, _, proven in search.analysis().moves
              if proven == "loss" and not visits]
    assert blocks, "the blocks were expanded as proven losses"
    board.play(blocks[0])
    search.play(blocks[0])
    analysis = search.run(simulations=10)
    assert analysis.proven == "win"
    board.play(analysis.best_move)
    assert board.winner == "white"
