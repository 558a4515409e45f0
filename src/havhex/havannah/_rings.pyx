# cython: language_level=3
"""The exact ring witness: the empty hexagons a position cuts off from the
board's exterior."""
from libc.stdint cimport int32_t, int64_t
from libc.stdlib cimport free, malloc, qsort

from havhex._native.unionfind cimport uf_find, uf_union

cdef int64_t LOW32 = 0xFFFFFFFF


# --------------------------------------------------------------------------
# Exact ring witness: empty hexagons cut off from the board's exterior.
# Empty cells are grouped into runs along each row x; runs of neighbouring rows
# touch when their y ranges overlap by the hex adjacency.  Rows without stones,
# and runs reaching the row's ends, belong to the exterior.  Memory and time
# follow the number of stones, not the board.
# --------------------------------------------------------------------------

cdef int compare_keys(const void* a, const void* b) noexcept nogil:
    cdef int64_t ka = (<const int64_t*>a)[0]
    cdef int64_t kb = (<const int64_t*>b)[0]
    return (ka > kb) - (ka < kb)


cdef struct EmptyRun:
    int64_t x
    int64_t first
    int64_t last


cdef int64_t row_low(int64_t x, int64_t size) noexcept nogil:
    return x - size + 1 if x > size else 1


cdef int64_t row_high(int64_t x, int64_t size) noexcept nogil:
    return x + size - 1 if x + size - 1 < 2 * size - 1 else 2 * size - 1


def enclosed_runs(int64_t size, const int32_t[::1] coords):
    """Empty hexagons that cannot reach the exterior, as (x, first_y, last_y) runs.

    ``coords`` holds distinct on-board stones as interleaved x, y.
    """
    cdef int64_t n = coords.shape[0] // 2
    cdef int64_t* keys = <int64_t*>malloc(<size_t>(n if n else 1) * sizeof(int64_t))
    # At most one run before each stone plus one per row.
    cdef EmptyRun* runs = <EmptyRun*>malloc(<size_t>(2 * n + 1) * sizeof(EmptyRun))
    cdef int32_t* parent = <int32_t*>malloc(<size_t>(2 * n + 2) * sizeof(int32_t))
    cdef int64_t i, j, x, y, low, high, previous_y, n_runs = 0
    cdef int64_t row_start, prev_row_start = 0, prev_row_end = 0, prev_x = -10
    cdef int64_t a, b, exterior, run_index
    if keys == NULL or runs == NULL or parent == NULL:
        free(keys)
        free(runs)
        free(parent)
        raise MemoryError()
    result = []
    try:
        with nogil:
            for i in range(n):
                keys[i] = (<int64_t>coords[2 * i] << 32) | coords[2 * i + 1]
            qsort(keys, <size_t>n, sizeof(int64_t), compare_keys)
            # Node 0 is the exterior; run k is node k + 1.
            exterior = 0
            parent[0] = -1
            i = 0
            while i < n:
                x = keys[i] >> 32
                low = row_low(x, size)
                high = row_high(x, size)
                row_start = n_runs
                previous_y = low - 1
                while i < n and (keys[i] >> 32) == x:
                    y = keys[i] & LOW32
                    if y > previous_y + 1:
                        runs[n_runs].x = x
                        runs[n_runs].first = previous_y + 1
                        runs[n_runs].last = y - 1
                        n_runs += 1
                    previous_y = y
                    i += 1
                if previous_y < high:
                    runs[n_runs].x = x
                    runs[n_runs].first = previous_y + 1
                    runs[n_runs].last = high
                    n_runs += 1
                for j in range(row_start, n_runs):
                    parent[j + 1] = -1
                    # A run at the row's end holds a border hexagon; the rows
                    # above and below without stones are exterior entirely.
                    if (runs[j].first == low or runs[j].last == high
                            or prev_x != x - 1 or x == 1 or x == 2 * size - 1):
                        uf_union(parent, <int32_t>(j + 1), 0)
                # Runs of the previous row (x - 1) touch run [a, b] of this
                # row when they overlap [a - 1, b]: (x, y) neighbours
                # (x - 1, y) and (x - 1, y - 1).
                if prev_x == x - 1:
                    a = prev_row_start
                    for j in range(row_start, n_runs):
                        while a < prev_row_end and runs[a].last < runs[j].first - 1:
                            a += 1
                        b = a
                        while b < prev_row_end and runs[b].first <= runs[j].last:
                            uf_union(parent, <int32_t>(j + 1), <int32_t>(b + 1))
                            b += 1
                # The previous row's runs also meet the exterior when this row
                # is not x + 1 of theirs (handled above, symmetric case):
                if prev_x >= 1 and prev_x != x - 1:
                    for j in range(prev_row_start, prev_row_end):
                        uf_union(parent, <int32_t>(j + 1), 0)
                prev_x = x
                prev_row_start = row_start
                prev_row_end = n_runs
            # The last row with stones has an empty row (or the border) after it.
            for j in range(prev_row_start, prev_row_end):
                uf_union(parent, <int32_t>(j + 1), 0)
        exterior = uf_find(parent, 0)
        for run_index in range(n_runs):
            if uf_find(parent, <int32_t>(run_index + 1)) != exterior:
                result.append((runs[run_index].x, runs[run_index].first,
                               runs[run_index].last))
    finally:
        free(keys)
        free(runs)
        free(parent)
    return result
