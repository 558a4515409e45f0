/* The SGF scanner: one game tree at a time, its main line only.
 *
 * SGF (FF[4]) is  Collection = GameTree+,  GameTree = "(" Node+ GameTree* ")",
 * Node = ";" Property*,  Property = Ident Value+,  Value = "[" text "]" with
 * "\" escaping the byte after it.  The scanner walks the bytes once, with no
 * recursion (nesting depth is a counter), and keeps what a replay needs as
 * offsets into the buffer: every value of the root node, and the colour and
 * value of each move (B[], W[]) on the main line, which follows the first
 * variation wherever the tree branches.  Other trees are checked for syntax
 * and skipped.  Decoding a move's value into a cell is the job of
 * sgf_decode_move (_native/move_names.h), once the root has given the game and the board size.
 *
 * Memory grows with the root's values and the main line's moves, nothing else.
 */
#ifndef HAVHEX_RECORDS_SGF_H
#define HAVHEX_RECORDS_SGF_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Move values and their names (sgf_decode_move, sgf_is_space...): the live
 * boards read cell names with them too. */
#include "havhex/_native/move_names.h"

enum sgf_fault {
    SGF_OK = 0,
    SGF_NOT_A_TREE,          /* a byte other than "(" where a game must start */
    SGF_NO_NODE,             /* "(" not followed by ";" */
    SGF_BAD_BYTE,            /* a byte that starts no token inside a tree */
    SGF_NO_VALUE,            /* a property name without "[value]" */
    SGF_UNTERMINATED_VALUE,  /* "[" without its "]" */
    SGF_UNCLOSED_TREE,       /* the input ends inside a tree */
    SGF_EMPTY,               /* no game at all */
    SGF_NO_MEMORY,
    SGF_NUL                  /* a NUL byte inside a value: a record is text, and an
                              * endless run of zeros must fail at its first byte */
};

/* A value: the byte range inside its brackets (escapes still in). */
typedef struct {
    int64_t name_start, name_stop;   /* the property's name (letters only kept by the caller) */
    int64_t start, stop;
} sgf_value;

/* A move on the main line: its colour ('B' or 'W') and its value. */
typedef struct {
    int64_t start, stop;
    int32_t colour;
    int32_t node;                    /* the node's number on the main line, root = 0 */
} sgf_move;

typedef struct {
    const unsigned char *data;
    int64_t size;
    int64_t pos;
    int64_t line;                    /* the line of data[pos] (1-based) */
    /* The game last scanned. */
    int64_t game_start, game_stop, game_line;
    sgf_value *root;
    int64_t n_root, root_capacity;
    sgf_move *moves;
    int64_t n_moves, moves_capacity;
    int keep_nothing;                /* only find where games end (no root, no moves) */
    /* A fault: its kind and where. */
    int fault;
    int64_t fault_at, fault_line;
} sgf_scanner;

/* `at_start`: data begins the file, where a byte order mark may stand (a
 * piece of a file read in pieces begins elsewhere). */
static inline void sgf_init(sgf_scanner *s, const unsigned char *data, int64_t size,
                            int64_t first_line, int at_start) {
    memset(s, 0, sizeof(*s));
    s->data = data;
    s->size = size;
    s->line = first_line;
    /* A UTF-8 byte order mark is not part of the tree. */
    if (at_start && size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF)
        s->pos = 3;
}

static inline void sgf_free(sgf_scanner *s) {
    free(s->root);
    free(s->moves);
    s->root = NULL;
    s->moves = NULL;
}

static inline int sgf_fail(sgf_scanner *s, int fault) {
    s->fault = fault;
    s->fault_at = s->pos;
    s->fault_line = s->line;
    return -1;
}

static inline void sgf_skip_space(sgf_scanner *s) {
    while (s->pos < s->size && sgf_is_space(s->data[s->pos])) {
        if (s->data[s->pos] == '\n')
            s->line++;
        s->pos++;
    }
}

static inline int sgf_grow(void **items, int64_t *capacity, size_t item_size) {
    int64_t grown = *capacity ? 2 * *capacity : 64;
    void *bigger = realloc(*items, (size_t)grown * item_size);
    if (bigger == NULL)
        return -1;
    *items = bigger;
    *capacity = grown;
    return 0;
}

/* Past one "[...]" at data[pos] == '['; the value's range goes to *start, *stop. */
static inline int sgf_value_at(sgf_scanner *s, int64_t *start, int64_t *stop) {
    const unsigned char *data = s->data;
    int64_t i = s->pos + 1, line = s->line;
    int64_t opened_at = s->pos, opened_line = s->line;
    *start = i;
    while (i < s->size) {
        unsigned char c = data[i];
        if (c == ']') {
            *stop = i;
            s->pos = i + 1;
            s->line = line;
            return 0;
        }
        if (c == '\\') {
            i++;
            if (i < s->size) {
                c = data[i];
                if (c == '\n')
                    line++;
            }
        } else if (c == '\n') {
            line++;
        }
        if (c == 0 && i < s->size) {
            s->pos = i;
            s->line = line;
            return sgf_fail(s, SGF_NUL);
        }
        i++;
    }
    s->pos = opened_at;
    s->line = opened_line;
    return sgf_fail(s, SGF_UNTERMINATED_VALUE);
}

/* Scans the next game tree.  1: a game (its root values and main-line moves
 * in the scanner); 0: the input ends (no further tree); -1: a fault. */
static inline int sgf_next_game(sgf_scanner *s) {
    const unsigned char *data = s->data;
    int64_t depth = 0, main_depth = 0, node = -1;
    int main_closed = 0;
    s->n_root = 0;
    s->n_moves = 0;
    sgf_skip_space(s);
    if (s->pos >= s->size)
        return 0;
    if (data[s->pos] != '(')
        return sgf_fail(s, SGF_NOT_A_TREE);
    s->game_start = s->pos;
    s->game_line = s->line;
    for (;;) {
        sgf_skip_space(s);
        if (s->pos >= s->size)
            return sgf_fail(s, SGF_UNCLOSED_TREE);
        unsigned char c = data[s->pos];
        if (c == '(') {
            depth++;
            if (!main_closed && depth == main_depth + 1)
                main_depth = depth;
            s->pos++;
            sgf_skip_space(s);
            if (s->pos >= s->size)
                return sgf_fail(s, SGF_UNCLOSED_TREE);
            if (data[s->pos] != ';')
                return sgf_fail(s, SGF_NO_NODE);
        } else if (c == ')') {
            if (depth == main_depth)
                main_closed = 1;
            depth--;
            s->pos++;
            if (depth == 0) {
                s->game_stop = s->pos;
                return 1;
            }
        } else if (c == ';') {
            int on_main = !s->keep_nothing && !main_closed && depth == main_depth;
            if (on_main)
                node++;
            s->pos++;
            /* The node's properties. */
            for (;;) {
                sgf_skip_space(s);
                if (s->pos >= s->size || !sgf_is_letter(data[s->pos]))
                    break;
                int64_t name_start = s->pos;
                while (s->pos < s->size && sgf_is_letter(data[s->pos]))
                    s->pos++;
                int64_t name_stop = s->pos;
                sgf_skip_space(s);
                if (s->pos >= s->size || data[s->pos] != '[')
                    return sgf_fail(s, SGF_NO_VALUE);
                /* A move is a one-letter name B or W (FF[3] allowed lower-case
                 * letters inside names, which do not count). */
                int colour = 0;
                if (on_main) {
                    int upper = 0, which = 0;
                    for (int64_t k = name_start; k < name_stop; k++) {
                        if (data[k] >= 'A' && data[k] <= 'Z') {
                            upper++;
                            which = data[k];
                        }
                    }
                    if (upper == 1 && (which == 'B' || which == 'W'))
                        colour = which;
                }
                while (s->pos < s->size && data[s->pos] == '[') {
                    int64_t start, stop;
                    if (sgf_value_at(s, &start, &stop) < 0)
                        return -1;
                    if (colour) {
                        if (s->n_moves == s->moves_capacity &&
                                sgf_grow((void **)&s->moves, &s->moves_capacity, sizeof(sgf_move)) < 0)
                            return sgf_fail(s, SGF_NO_MEMORY);
                        sgf_move *m = &s->moves[s->n_moves++];
                        m->start = start;
                        m->stop = stop;
                        m->colour = colour;
                        m->node = (int32_t)(node < INT32_MAX ? node : INT32_MAX);
                    } else if (on_main && node == 0) {
                        if (s->n_root == s->root_capacity &&
                                sgf_grow((void **)&s->root, &s->root_capacity, sizeof(sgf_value)) < 0)
                            return sgf_fail(s, SGF_NO_MEMORY);
                        sgf_value *v = &s->root[s->n_root++];
                        v->name_start = name_start;
                        v->name_stop = name_stop;
                        v->start = start;
                        v->stop = stop;
                    }
                    sgf_skip_space(s);
                }
            }
        } else {
            return sgf_fail(s, SGF_BAD_BYTE);
        }
    }
}

/* Every x86-64 CPU has SSE2; MSVC says so with _M_X64 (or, for 32-bit x86
 * built for SSE2, _M_IX86_FP), not __SSE2__. */
#if defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64) || \
    (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#define SGF_BLOCK_WALK 1
#include <emmintrin.h>
#endif

/* Whether sgf_pass_blocks passes over anything here (it does with SSE2). */
static inline int sgf_block_walk_available(void) {
#if defined(SGF_BLOCK_WALK)
    return 1;
#else
    return 0;
#endif
}

/* From `i`, in or between values (not after an escape), past each block of
 * 16 bytes that holds no "(", ")" or "\": there only brackets and line ends
 * count, and after the block the walk is where its last bracket leaves it
 * ("[" opens a value or is text inside one; "]" closes one, or is a stray
 * byte between values), so neither the bytes nor the brackets are walked
 * one by one.  Returns the start of the first block that holds one of those
 * bytes (or of the last bytes, fewer than 16). */
static inline int64_t sgf_pass_blocks(const unsigned char *data, int64_t i, int64_t size,
                                      int *in_value, int64_t *line) {
#if defined(SGF_BLOCK_WALK)
    const __m128i open_bracket = _mm_set1_epi8('['), close_bracket = _mm_set1_epi8(']');
    const __m128i escape = _mm_set1_epi8('\\'), feed = _mm_set1_epi8('\n');
    /* "(" and ")" differ in their lowest bit only. */
    const __m128i paren = _mm_set1_epi8(')'), low_bit = _mm_set1_epi8(1);
    while (i + 16 <= size) {
        __m128i block = _mm_loadu_si128((const __m128i *)(data + i));
        __m128i stop = _mm_or_si128(_mm_cmpeq_epi8(_mm_or_si128(block, low_bit), paren),
                                    _mm_cmpeq_epi8(block, escape));
        if (_mm_movemask_epi8(stop))
            break;
        unsigned opens = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(block, open_bracket));
        unsigned closes = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(block, close_bracket));
        unsigned feeds = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(block, feed));
        /* The last bracket holds the highest bit of the two masks, which
         * never share one: "[" is last exactly when its mask is larger. */
        if (opens | closes)
            *in_value = opens > closes;
        for (; feeds; feeds &= feeds - 1)
            (*line)++;
        i += 16;
    }
#else
    (void)data; (void)size; (void)in_value; (void)line;
#endif
    return i;
}

/* Where to cut a collection between games, for parallel work: walks only
 * brackets, parentheses, escapes and line ends (no property is looked at),
 * and from `start` (where a game may begin, on line `first_line`), after
 * each `every` bytes notes the next point where a tree closes at depth 0,
 * with the games since `start` and the line there.  It checks no syntax: each
 * range is then read by sgf_next_game, which finds any fault, and a range
 * that reads without one closes where the next begins.  With `blocks`, it
 * passes over what sgf_pass_blocks can; without, it walks every byte (the
 * tests compare the two).  Returns the cuts written (at most `capacity`). */
static inline int64_t sgf_find_cuts(const unsigned char *data, int64_t size, int64_t start,
                                    int64_t first_line, int64_t every,
                                    int64_t *offsets, int64_t *games_before, int64_t *lines,
                                    int64_t capacity, int blocks) {
    int64_t depth = 0, games = 0, line = first_line, n = 0, next = start + every;
    int64_t i = start;
    int64_t bytewise_until = blocks && sgf_block_walk_available() ? start : INT64_MAX;
    int in_value = 0;
    while (i < size && n < capacity) {
        unsigned char c;
        if (i >= bytewise_until) {
            i = sgf_pass_blocks(data, i, size, &in_value, &line);
            /* The block there holds a byte that needs the byte walk. */
            bytewise_until = i + 16;
            if (i >= size)
                break;
            /* Where the blocks leave the walk inside a value, it goes on
             * as after that value's "[". */
            c = in_value ? '[' : data[i];
            i -= in_value;
            in_value = 0;
        } else {
            c = data[i];
        }
        if (c == '[') {
            /* A value: to its unescaped "]". */
            i++;
            while (i < size && data[i] != ']') {
                if (data[i] == '\\' && i + 1 < size) {
                    if (data[i + 1] == '\n')
                        line++;
                    i += 2;
                    continue;
                }
                if (data[i] == '\n')
                    line++;
                i++;
            }
        } else if (c == '(') {
            depth++;
        } else if (c == ')') {
            if (depth > 0 && --depth == 0) {
                games++;
                if (i + 1 >= next && i + 1 < size) {
                    offsets[n] = i + 1;
                    games_before[n] = games;
                    lines[n] = line;
                    n++;
                    next = i + 1 + every;
                }
            }
        } else if (c == '\n') {
            line++;
        }
        i++;
    }
    return n;
}

#endif
