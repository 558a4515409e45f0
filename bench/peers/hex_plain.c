/* A straightforward C judge for Kick Start 2013 Round B "Hex", the peer the
 * snake benchmarks compare havhex with: what a contestant would write in C,
 * linear in the board and nothing more.
 *
 *   cc -O2 -o hex_plain hex_plain.c && ./hex_plain < input > output
 *
 * Per case: read the N rows, count the stones, breadth-first search each
 * colour from its first side.  For a winner who may have moved last, the
 * position is possible exactly when one stone lies on every winning chain,
 * that is when there are no two stone-disjoint winning chains: a unit vertex
 * capacity flow.  The first search's path is one unit of flow; a second
 * breadth-first search over the residual graph (each stone split into an
 * entry and an exit) tells whether a second unit exists.
 *
 * Input is trusted (the contest format); it is a benchmark peer, not a judge.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n;
static char *board;      /* n * n cells, row-major */
static int *parent;      /* search parent of each cell, -1 at the first side */
static int *queue;       /* 2 * n * n entries */
static unsigned char *seen;

static int di[6] = {-1, -1, 0, 0, 1, 1};
static int dj[6] = {0, 1, -1, 1, -1, 0};

static int on_second_side(char colour, int i, int j) {
    return colour == 'R' ? i == n - 1 : j == n - 1;
}

/* Breadth-first search of `colour` from its first side; returns the cell on
 * the second side it reaches (parent[] leads back along the path), or -1. */
static int find_chain(char colour) {
    int head = 0, tail = 0, k, d;
    memset(seen, 0, (size_t)n * n);
    for (k = 0; k < n; k++) {
        int i = colour == 'R' ? 0 : k, j = colour == 'R' ? k : 0;
        int c = i * n + j;
        if (board[c] == colour) {
            seen[c] = 1;
            parent[c] = -1;
            queue[tail++] = c;
        }
    }
    while (head < tail) {
        int c = queue[head++], i = c / n, j = c % n;
        if (on_second_side(colour, i, j))
            return c;
        for (d = 0; d < 6; d++) {
            int a = i + di[d], b = j + dj[d];
            if (a < 0 || a >= n || b < 0 || b >= n)
                continue;
            int u = a * n + b;
            if (board[u] == colour && !seen[u]) {
                seen[u] = 1;
                parent[u] = c;
                queue[tail++] = u;
            }
        }
    }
    return -1;
}

/* Whether a second stone-disjoint chain exists beside the path ending at
 * `end`.  States: 2 * cell (entry), 2 * cell + 1 (exit).  Residual arcs:
 * entry -> exit of a stone off the path; entry of a path stone -> exit of
 * its path predecessor (the flow arc reversed);
 * exit -> entry of any neighbour stone; exit of a path stone -> its own
 * entry (the stone arc reversed).  The source feeds every first-side entry;
 * the exit of a second-side stone reaches the sink (the path's last stone
 * has no residual arc into its exit, so it is never reached). */
static int second_chain(char colour, int end) {
    unsigned char *on_path = (unsigned char *)calloc((size_t)n * n, 1);
    int head = 0, tail = 0, k, d, c, found = 0;
    if (!on_path) { fprintf(stderr, "out of memory\n"); exit(1); }
    for (c = end; c >= 0; c = parent[c])
        on_path[c] = 1;
    memset(seen, 0, (size_t)n * n);          /* bit 1: entry seen, bit 2: exit seen */
    for (k = 0; k < n; k++) {
        int i = colour == 'R' ? 0 : k, j = colour == 'R' ? k : 0;
        c = i * n + j;
        if (board[c] == colour) {
            seen[c] |= 1;
            queue[tail++] = 2 * c;
        }
    }
    while (head < tail && !found) {
        int state = queue[head++], cell = state >> 1;
        if ((state & 1) == 0) {
            int target;
            if (!on_path[cell])
                target = cell;                 /* stone arc */
            else if (parent[cell] >= 0)
                target = parent[cell];         /* reversed flow arc */
            else
                continue;                      /* its flow comes from the source */
            if (!(seen[target] & 2)) {
                seen[target] |= 2;
                queue[tail++] = 2 * target + 1;
            }
        } else {
            int i = cell / n, j = cell % n;
            if (on_second_side(colour, i, j)) {
                found = 1;
                break;
            }
            for (d = 0; d < 6; d++) {
                int a = i + di[d], b = j + dj[d];
                if (a < 0 || a >= n || b < 0 || b >= n)
                    continue;
                int u = a * n + b;
                if (board[u] != colour || (seen[u] & 1))
                    continue;
                seen[u] |= 1;
                queue[tail++] = 2 * u;
            }
            if (on_path[cell] && !(seen[cell] & 1)) {
                seen[cell] |= 1;
                queue[tail++] = 2 * cell;
            }
        }
    }
    free(on_path);
    return found;
}

static const char *judge(void) {
    long red = 0, blue = 0, k;
    for (k = 0; k < (long)n * n; k++) {
        red += board[k] == 'R';
        blue += board[k] == 'B';
    }
    if (labs(red - blue) > 1)
        return "Impossible";
    int red_end = find_chain('R');
    int blue_end = find_chain('B');
    if (red_end >= 0 && blue_end >= 0)
        return "Impossible";
    if (red_end < 0 && blue_end < 0)
        return "Nobody wins";
    char winner = red_end >= 0 ? 'R' : 'B';
    if ((winner == 'R' && red < blue) || (winner == 'B' && blue < red))
        return "Impossible";
    /* The flow: its first augmenting path is a breadth-first search again
     * (the other colour's search has overwritten parent[]). */
    int end = find_chain(winner);
    if (second_chain(winner, end))
        return "Impossible";
    return winner == 'R' ? "Red wins" : "Blue wins";
}

int main(void) {
    int t, c, i;
    if (scanf("%d", &t) != 1)
        return 1;
    for (c = 1; c <= t; c++) {
        if (scanf("%d", &n) != 1)
            return 1;
        size_t cells = (size_t)n * n;
        board = (char *)malloc(cells + n + 1);
        parent = (int *)malloc(cells * sizeof(int));
        queue = (int *)malloc(2 * cells * sizeof(int));
        seen = (unsigned char *)malloc(cells);
        if (!board || !parent || !queue || !seen) {
            fprintf(stderr, "out of memory\n");
            return 1;
        }
        for (i = 0; i < n; i++)
            if (scanf("%s", board + (size_t)i * n) != 1)
                return 1;
        printf("Case #%d: %s\n", c, judge());
        free(board);
        free(parent);
        free(queue);
        free(seen);
    }
    return 0;
}
