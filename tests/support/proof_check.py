"""The proof trees' checker: a plain walk over a tree on the live board,
independent of the solver that wrote it (it knows the board's rules and
nothing else)."""


def check_proof(board, proof, winner):
    """Check a proof tree on ``board`` with the board's rules alone: at
    ``winner``'s turns one legal move, at the loser's every legal move,
    and every leaf a game ``winner`` has won.  AssertionError at the first
    fault, naming the moves that lead to it."""
    walk = board.copy()

    def visit(node, path):
        if walk.is_over:
            if walk.winner != winner:
                raise AssertionError(f"after {path}: the game ends won by {walk.winner!r}")
            if node.children:
                raise AssertionError(f"after {path}: moves after the end")
            return
        legal = list(walk.legal_moves())
        moves = [child.move for child in node.children]
        if walk.to_move == winner:
            if len(moves) != 1 or moves[0] not in legal:
                raise AssertionError(f"after {path}: the winner needs one legal move, "
                                     f"given {moves}")
        elif sorted(map(repr, moves)) != sorted(map(repr, legal)):
            raise AssertionError(f"after {path}: the loser's moves are not all answered")
        for child in node.children:
            walk.play(child.move)
            visit(child, path + [child.move])
            walk.undo()

    visit(proof, [])
