"""Exact game values by brute force, the search tests' reference: a
negamax over the live boards' Python API (copy, play, undo, winner) with a
table of positions seen, for boards small enough to solve outright."""

WIN, DRAW, LOSS = 1, 0, -1


def value(board, table=None):
    """The result with best play for the player to move on ``board``:
    WIN, DRAW or LOSS (a finished game: LOSS for the player to move, whose
    opponent just won, or DRAW)."""
    if table is None:
        table = {}
    return _value(board.copy(), table)


def _key(board):
    # The move count too: whether a swap is legal depends on it.
    return board.hash, len(board), board.to_move


def _value(board, table):
    if board.is_over:
        return LOSS if board.winner is not None else DRAW
    key = _key(board)
    found = table.get(key)
    if found is not None:
        return found
    best = LOSS
    for move in board.legal_moves():
        board.play(move)
        result = -_value(board, table)
        board.undo()
        if result > best:
            best = result
            if best == WIN:
                break
    table[key] = best
    return best


def winning_moves(board, table=None):
    """The moves after which the opponent loses with best play."""
    if table is None:
        table = {}
    board = board.copy()
    found = []
    for move in board.legal_moves():
        board.play(move)
        if _value(board, table) == LOSS:
            found.append(move)
        board.undo()
    return found


def wins_within(board, plies):
    """Whether the player to move can force a win within ``plies`` moves
    (their own and the opponent's, ``plies`` odd counts theirs last)."""
    return _within(board.copy(), plies, {})


def _within(board, plies, table):
    # True: the mover forces a win within ``plies``.
    if plies <= 0 or board.is_over:
        return False
    key = _key(board) + (plies,)
    found = table.get(key)
    if found is not None:
        return found
    result = False
    for move in board.legal_moves():
        kinds = board.play(move)
        if board.is_over and board.winner is not None:
            result = True
        elif not board.is_over and plies >= 3:
            result = all(_reply_loses(board, reply, plies - 1, table)
                         for reply in board.legal_moves())
        board.undo()
        if result:
            break
    table[key] = result
    return result


def _reply_loses(board, reply, plies, table):
    board.play(reply)
    try:
        if board.is_over:
            return False            # the reply won (or drew)
        return _within(board, plies - 1, table)
    finally:
        board.undo()
