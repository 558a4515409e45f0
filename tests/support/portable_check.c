/* Runs every function of havhex/_native/portable.h (and the line scan of
 * lines.h) and prints "ok" when each gives what it promises.
 * tests/packaging/test_portable.py builds it twice: with the GCC/Clang forms, and with
 * HAVHEX_PLAIN_C, the C11/POSIX forms that other compilers take. */
#include <Python.h>
#include "havhex/_native/portable.h"
#include "havhex/_native/lines.h"
#include <stdio.h>
#include <string.h>

static int failures = 0;

#define CHECK(condition)                                          \
    do {                                                          \
        if (!(condition)) {                                       \
            printf("failed, line %d: %s\n", __LINE__, #condition); \
            failures++;                                           \
        }                                                         \
    } while (0)

static HAVHEX_THREAD_LOCAL int thread_value = 3;

int main(void) {
    int64_t counter = 5;
    int32_t small = -1;
    uint32_t count = 0xFFFFFFFEu;
    int flag = 0, k;
    void *table = NULL;
    unsigned char *block;
    unsigned char line[128];
    const size_t huge = (size_t)1 << 21;
    int64_t before, after;
#if !defined(_WIN32)
    int fds[2];
    char got[4];
#endif

    CHECK(havhex_fetch_add(&counter, 2) == 5 && counter == 7);
    CHECK(havhex_load_acquire(&counter) == 7 && havhex_load_relaxed(&counter) == 7);
    havhex_store_release(&counter, 9);
    CHECK(counter == 9);
    havhex_store_relaxed(&counter, 11);
    CHECK(counter == 11);
    CHECK(!havhex_compare_exchange(&counter, 10, 1) && counter == 11);
    CHECK(havhex_compare_exchange(&counter, 11, 1) && counter == 1);
    CHECK(havhex_load_acquire32(&small) == -1);
    havhex_store_release32(&small, 4);
    CHECK(small == 4);
    CHECK(!havhex_compare_exchange32(&small, -1, 7) && small == 4);
    CHECK(havhex_compare_exchange32(&small, 4, -2) && small == -2);
    havhex_count_add(&count, 3);
    CHECK(havhex_count_load(&count) == 0xFFFFFFFEu + 3u && count == 1);
    havhex_flag_store(&flag, 1);
    CHECK(havhex_flag_load(&flag) == 1);
    havhex_pointer_store_release(&table, &counter);
    CHECK(havhex_pointer_load_acquire(&table) == (void *)&counter);
    CHECK(havhex_pointer_exchange(&table, &flag) == (void *)&counter && table == (void *)&flag);
    CHECK(!havhex_pointer_compare_exchange(&table, &counter, NULL) && table == (void *)&flag);
    CHECK(havhex_pointer_compare_exchange(&table, &flag, NULL) && table == NULL);
    CHECK(thread_value == 3);

    block = havhex_aligned_alloc(huge, 3 * huge);
    CHECK(block != NULL && ((uintptr_t)block & (huge - 1)) == 0);
    if (block != NULL) {
        havhex_advise_huge_pages(block, 2 * huge);
        memset(block, 1, 3 * huge);
        HAVHEX_PREFETCH(block + 4096);
        CHECK(block[3 * huge - 1] == 1);
    }
    havhex_aligned_free(block);
    block = havhex_aligned_alloc(HAVHEX_MALLOC_ALIGNMENT, 10);
    CHECK(block != NULL);
    havhex_aligned_free(block);

    for (k = 0; k < 32; k++)
        CHECK(havhex_ctz32((uint32_t)1 << k | (uint32_t)1 << 31) == k);
    for (k = 0; k < 64; k++)
        CHECK(havhex_ctz64((uint64_t)1 << k | (uint64_t)1 << 63) == k);

    before = havhex_monotonic_us();
    havhex_sleep_us(2000);
    after = havhex_monotonic_us();
    CHECK(after - before >= 1000 && after - before < 10000000);

    memset(line, 'x', sizeof line);
    memcpy(line, "\n12 34\n5 6\n", 11);
    CHECK(havhex_separators64(line)
          == ((1ull << 0) | (1ull << 3) | (1ull << 6) | (1ull << 8) | (1ull << 10)));

#if !defined(_WIN32)
    CHECK(pipe(fds) == 0);
    CHECK(havhex_poll_readable(fds[0], 10) == 0);
    CHECK(write(fds[1], "ab", 2) == 2);
    CHECK(havhex_poll_readable(fds[0], 10) == 1);
    CHECK(havhex_read(fds[0], got, sizeof got) == 2 && got[0] == 'a' && got[1] == 'b');
    close(fds[1]);
    CHECK(havhex_poll_readable(fds[0], 10) == 1);
    CHECK(havhex_read(fds[0], got, sizeof got) == 0);
    close(fds[0]);
#endif

    printf(failures ? "failed\n" : "ok\n");
    return failures != 0;
}
