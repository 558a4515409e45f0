/* The Havannah reader's fastest path: runs of "X Y" lines with SSSE3.
 *
 * read_regular_moves (in havannah/_moves.pxi) calls havhex_read_lines when the CPU
 * has SSSE3 and uses its portable loop otherwise.  Both accept exactly the
 * same lines: after a line feed, 1 to 7 digits, one space, 1 to 7 digits,
 * an optional "\r", and a line feed; anything else ends the run, untouched,
 * for the general tokenizer.
 *
 * The line feeds and spaces come from a 64-byte scan, so a line's start never
 * waits for the previous line's digits.  A line is at most 16 bytes from its
 * first digit: one load holds both numbers, a shuffle chosen by their lengths
 * right-aligns each in its own 8 bytes, and three multiply-adds turn 16
 * digits into two numbers.
 */
#ifndef HAVHEX_LINES_H
#define HAVHEX_LINES_H

#include <stdint.h>
#include <string.h>

/* Every x86-64 CPU has SSE2; MSVC says so with _M_X64, not __SSE2__. */
#if defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64)
#define HAVHEX_SSE2 1
#include <emmintrin.h>
#endif

/* Bit i set when p[i] is a space or a line feed, for i < 64: both line
 * readers (this one and the portable loop's SeparatorScan) find lines so. */
static inline uint64_t havhex_separators64(const unsigned char* p) {
#if defined(HAVHEX_SSE2)
    const __m128i space = _mm_set1_epi8(32), feed = _mm_set1_epi8(10);
    uint64_t bits = 0;
    int k;
    for (k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i*)(p + 16 * k));
        __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, feed));
        bits |= (uint64_t)(uint32_t)_mm_movemask_epi8(hit) << (16 * k);
    }
    return bits;
#else
    uint64_t bits = 0;
    int i;
    for (i = 0; i < 64; i++)
        bits |= (uint64_t)(p[i] == 32 || p[i] == 10) << i;
    return bits;
#endif
}

#if defined(__x86_64__) && defined(__GNUC__)
#define HAVHEX_HAVE_SSSE3_PATH 1
#include <immintrin.h>

/* Shuffle controls by (x digits, y digits), 1 to 7 each: 0x80 gives a zero. */
static unsigned char havhex_line_shuffle[8][8][16] __attribute__((aligned(16)));
static int havhex_ssse3_ready = 0;

/* Called once, at import, before any thread reads. */
static inline void havhex_lines_init(void) {
    int x_digits, y_digits, k;
    for (x_digits = 1; x_digits < 8; x_digits++) {
        for (y_digits = 1; y_digits < 8; y_digits++) {
            unsigned char* control = havhex_line_shuffle[x_digits][y_digits];
            memset(control, 0x80, 16);
            for (k = 0; k < x_digits; k++)
                control[8 - x_digits + k] = (unsigned char)k;
            for (k = 0; k < y_digits; k++)
                control[16 - y_digits + k] = (unsigned char)(x_digits + 1 + k);
        }
    }
    havhex_ssse3_ready = __builtin_cpu_supports("ssse3") ? 1 : 0;
}

static inline int havhex_lines_available(void) {
    return havhex_ssse3_ready;
}

/* Read up to max_moves lines from the line break at *at.  No separator is
 * looked for at or past limit, and no byte at or past limit + 16 is read.
 * Stores the moves, leaves *at on the break ending the last line read (or
 * where it was), returns the count. */
__attribute__((target("ssse3")))
static inline int64_t havhex_read_lines(const unsigned char** at, const unsigned char* limit,
                                 int64_t max_moves, int64_t size, int32_t* coords) {
    const unsigned char* p = *at;
    const unsigned char* base = p;
    const unsigned char* space;
    const unsigned char* feed;
    uint64_t bits;
    int64_t moves = 0;
    const int64_t last = 2 * size - 1;
    const __m128i zeros = _mm_set1_epi8('0'), nines = _mm_set1_epi8(9);
    const __m128i tens = _mm_set1_epi16(0x010A);       /* bytes 10, 1 */
    const __m128i hundreds = _mm_set1_epi32(0x00010064); /* words 100, 1 */
    const __m128i ten_thousands = _mm_set_epi32(0, 10000, 0, 10000);

#define HAVHEX_NEXT_SEPARATOR(found)                                     \
    do {                                                                 \
        while (bits == 0) {                                              \
            if (base + 128 > limit)                                      \
                goto done;                                               \
            base += 64;                                                  \
            bits = havhex_separators64(base);                        \
        }                                                                \
        (found) = base + __builtin_ctzll(bits);                          \
        bits &= bits - 1;                                                \
    } while (0)

    if (p + 64 > limit)
        return 0;
    bits = havhex_separators64(base);
    HAVHEX_NEXT_SEPARATOR(feed);
    if (!((feed == p && p[0] == 10) || (feed == p + 1 && p[0] == 13 && p[1] == 10)))
        return 0;
    while (moves < max_moves) {
        const unsigned char* start = feed + 1;
        const unsigned char* y_end;
        uint64_t x_digits, y_digits;
        uint32_t digit_bits, wanted;
        __m128i digits, numbers;
        int64_t x, y;
        HAVHEX_NEXT_SEPARATOR(space);
        if (space[0] != 32)
            break;
        HAVHEX_NEXT_SEPARATOR(feed);
        if (feed[0] != 10)
            break;
        y_end = feed[-1] == 13 ? feed - 1 : feed;
        x_digits = (uint64_t)(space - start);
        y_digits = (uint64_t)(y_end - (space + 1));
        if (x_digits - 1 > 6 || y_digits - 1 > 6)
            break;
        digits = _mm_sub_epi8(_mm_loadu_si128((const __m128i*)start), zeros);
        /* Every byte of both numbers a digit (0 to 9 after the subtraction). */
        digit_bits = (uint32_t)_mm_movemask_epi8(
            _mm_cmpeq_epi8(_mm_min_epu8(digits, nines), digits));
        wanted = ((1u << x_digits) - 1) | (((1u << y_digits) - 1) << (x_digits + 1));
        if ((digit_bits & wanted) != wanted)
            break;
        digits = _mm_shuffle_epi8(
            digits, _mm_load_si128((const __m128i*)havhex_line_shuffle[x_digits][y_digits]));
        numbers = _mm_madd_epi16(_mm_maddubs_epi16(digits, tens), hundreds);
        /* Four numbers of four digits: x high, x low, y high, y low. */
        numbers = _mm_add_epi64(_mm_mul_epu32(numbers, ten_thousands),
                                _mm_srli_epi64(numbers, 32));
        x = _mm_cvtsi128_si64(numbers);
        y = _mm_cvtsi128_si64(_mm_unpackhi_epi64(numbers, numbers));
        if (x < 1 || x > last || y < 1 || y > last || x - y > size - 1 || y - x > size - 1)
            break;
        coords[2 * moves] = (int32_t)x;
        coords[2 * moves + 1] = (int32_t)y;
        p = y_end;
        moves++;
    }
done:
#undef HAVHEX_NEXT_SEPARATOR
    *at = p;
    return moves;
}

#else
#define HAVHEX_HAVE_SSSE3_PATH 0
static inline void havhex_lines_init(void) {}
static inline int havhex_lines_available(void) { return 0; }
static inline int64_t havhex_read_lines(const unsigned char** at, const unsigned char* limit,
                                        int64_t max_moves, int64_t size, int32_t* coords) {
    (void)at; (void)limit; (void)max_moves; (void)size; (void)coords;
    return 0;
}
#endif

#endif
