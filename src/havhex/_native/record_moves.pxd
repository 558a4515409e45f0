# A game record's moves, as the reader hands them to the live boards'
# _replay: rows of four int32 (colour 1 = B, 2 = W; kind; two coordinates).
# The kinds are record_moves.h's (the reader's C decodes them); the reasons a replay stops at an illegal move are
# stated here once, for both boards and for the records facade.
cdef extern from "havhex/_native/record_moves.h" nogil:
    enum:
        SGF_CELL
        SGF_SWAP
        SGF_SWAP_PIECES
        SGF_SWAP_SIDES
        SGF_RESIGN
        SGF_FORFEIT
        SGF_PASS
        SGF_OFF_BOARD
        SGF_UNREADABLE

cdef enum:
    REPLAY_OCCUPIED = 1
    REPLAY_OFF_BOARD = 2
    REPLAY_SWAP_NOT_ALLOWED = 3
    REPLAY_OUT_OF_TURN = 4
    REPLAY_UNREADABLE = 5
    REPLAY_NOT_THIS_GAME = 6
    REPLAY_PASS = 7
    REPLAY_OVER = 8
