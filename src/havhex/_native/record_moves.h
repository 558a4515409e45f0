/* The kinds of a game record's move, as the SGF reader (records/sgf.h)
 * decodes them and the live boards' _replay plays them. */
#ifndef HAVHEX_RECORD_MOVES_H
#define HAVHEX_RECORD_MOVES_H

enum sgf_move_kind {
    SGF_CELL = 0,
    SGF_SWAP,            /* Little Golem's pie rule */
    SGF_SWAP_PIECES,
    SGF_SWAP_SIDES,
    SGF_RESIGN,
    SGF_FORFEIT,
    SGF_PASS,
    SGF_OFF_BOARD,       /* a cell outside this board */
    SGF_UNREADABLE       /* neither a cell nor a special move */
};

#endif
