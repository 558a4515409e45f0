/* The names of a game record's moves, read and written: SGF Hex's cells
 * ("a1": column letters, then the row from 1), Little Golem's Havannah cells
 * ("A1": the row letter, then the place along it) and the special moves.
 * The SGF reader (records/sgf.h) decodes a record's moves with it, the live
 * boards the names users write, and the writer names cells with it: one
 * mapping for all three.
 */
#ifndef HAVHEX_MOVE_NAMES_H
#define HAVHEX_MOVE_NAMES_H

#include <stdint.h>
#include <string.h>

static inline int sgf_is_space(unsigned char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f';
}

static inline int sgf_is_letter(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* Move values.  A move decodes to a kind (record_moves.h) and, for a cell, two
 * coordinates in the live board's own system: Hex (row, col) from 0,
 * Havannah (x, y).
 */
#include "havhex/_native/record_moves.h"


enum { SGF_HEX = 1, SGF_HAVANNAH = 2 };

/* Case-insensitive equality of data[start:stop] with a lower-case word. */
static inline int sgf_is_word(const unsigned char *data, int64_t start, int64_t stop, const char *word) {
    int64_t n = (int64_t)strlen(word);
    if (stop - start != n)
        return 0;
    for (int64_t k = 0; k < n; k++) {
        unsigned char c = data[start + k];
        if (c >= 'A' && c <= 'Z')
            c = (unsigned char)(c - 'A' + 'a');
        if (c != (unsigned char)word[k])
            return 0;
    }
    return 1;
}

/* Letters then digits, e.g. "aa27": the letters as a base-26 number with
 * a = 0, z = 25, aa = 26 (SGF Hex's columns), the digits as a number from 1.
 * Values beyond a cap read as the cap: no board is that large. */
#define SGF_COORDINATE_CAP 1000000000LL

static inline int sgf_letters_digits(const unsigned char *data, int64_t start, int64_t stop,
                              int64_t *letters, int64_t *number) {
    int64_t k = start, column = 0, value = 0;
    if (k >= stop || !sgf_is_letter(data[k]))
        return -1;
    while (k < stop && sgf_is_letter(data[k])) {
        unsigned char c = data[k] | 0x20;
        column = column * 26 + (c - 'a' + 1);
        if (column > SGF_COORDINATE_CAP)
            column = SGF_COORDINATE_CAP;
        k++;
    }
    if (k >= stop || data[k] < '0' || data[k] > '9')
        return -1;
    while (k < stop && data[k] >= '0' && data[k] <= '9') {
        value = value * 10 + (data[k] - '0');
        if (value > SGF_COORDINATE_CAP)
            value = SGF_COORDINATE_CAP;
        k++;
    }
    if (k != stop)
        return -1;
    *letters = column - 1;
    *number = value;
    return 0;
}

/* The move data[start:stop] on a board of the given game and size (Hex:
 * rows x cols; Havannah: base `rows`, cols unused); the kind, and a cell in
 * *a, *b. */
static inline int sgf_decode_move(const unsigned char *data, int64_t start, int64_t stop, int game,
                           int64_t rows, int64_t cols, int32_t *a, int32_t *b) {
    int64_t letters, number;
    *a = 0;
    *b = 0;
    while (start < stop && sgf_is_space(data[start]))
        start++;
    while (stop > start && sgf_is_space(data[stop - 1]))
        stop--;
    if (sgf_letters_digits(data, start, stop, &letters, &number) == 0) {
        if (game == SGF_HEX) {
            /* A letter names the column, a number the row (from 1, top). */
            if (number < 1 || number > rows || letters >= cols)
                return SGF_OFF_BOARD;
            *a = (int32_t)(number - 1);
            *b = (int32_t)letters;
            return SGF_CELL;
        }
        /* Little Golem: the letter is the row r, the number counts along it
         * from the board's left edge; rows past the middle start further in. */
        int64_t size = rows, r = letters, c = number - 1;
        if (number < 1 || r > 2 * size - 2)
            return SGF_OFF_BOARD;
        if (r >= size)
            c += r + 1 - size;
        int64_t x = c + 1, y = r + 1;
        if (x < 1 || x > 2 * size - 1 || x - y > size - 1 || y - x > size - 1)
            return SGF_OFF_BOARD;
        *a = (int32_t)x;
        *b = (int32_t)y;
        return SGF_CELL;
    }
    if (sgf_is_word(data, start, stop, "swap"))
        return SGF_SWAP;
    if (sgf_is_word(data, start, stop, "swap-pieces"))
        return SGF_SWAP_PIECES;
    if (sgf_is_word(data, start, stop, "swap-sides"))
        return SGF_SWAP_SIDES;
    if (sgf_is_word(data, start, stop, "resign"))
        return SGF_RESIGN;
    if (sgf_is_word(data, start, stop, "forfeit"))
        return SGF_FORFEIT;
    if (sgf_is_word(data, start, stop, "pass") || stop == start)
        return SGF_PASS;     /* FF[3] wrote a pass as an empty value */
    return SGF_UNREADABLE;
}

/* The name of a cell (the inverse of sgf_decode_move's) into out, which
 * has room for 32 bytes; returns its length.  Hex: (a, b) = (row, col) from
 * 0, the column's letters (a..z, aa...) then the row from 1.  Havannah:
 * (a, b) = (x, y) on the board of base `size`, the upper-case letters of
 * the row r = y - 1, then the place c + 1 along it, c = x - 1 less the
 * cells the rows past the middle start further in. */
static inline int sgf_cell_name(int game, int64_t size, int64_t a, int64_t b, char *out) {
    int64_t letters_of, number;
    char reversed[24];
    int n = 0, k = 0;
    if (game == SGF_HEX) {
        letters_of = b;
        number = a + 1;
    } else {
        int64_t r = b - 1, c = a - 1;
        if (r >= size)
            c -= r + 1 - size;
        letters_of = r;
        number = c + 1;
    }
    /* Bijective base 26: a..z, aa..zz, aaa... */
    letters_of += 1;
    while (letters_of > 0 && n < 12) {
        int64_t digit = (letters_of - 1) % 26;
        reversed[n++] = (char)((game == SGF_HEX ? 'a' : 'A') + digit);
        letters_of = (letters_of - 1) / 26;
    }
    while (n > 0)
        out[k++] = reversed[--n];
    if (number < 0) {
        out[k++] = '-';
        number = -number;
    }
    n = 0;
    do {
        reversed[n++] = (char)('0' + number % 10);
        number /= 10;
    } while (number > 0 && n < 20);
    while (n > 0)
        out[k++] = reversed[--n];
    out[k] = 0;
    return k;
}

#endif
