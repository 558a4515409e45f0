# cython: language_level=3
"""The platform-specific calls of both engines, declared once.

portable.h gives each a GCC/Clang, an MSVC and a plain C (or POSIX) form, so
that the engines build with GCC, Clang and MSVC; the engines call these names,
never a compiler's builtins or a system's own calls (tests/packaging/test_portable.py
checks).
"""
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

cdef extern from "havhex/_native/portable.h" nogil:
    # Atomics on plain fields that other threads read or write.  A release
    # store publishes what was written before it to the acquire loads that
    # see it; the relaxed forms only make the access itself whole.
    int64_t load_acquire "havhex_load_acquire"(const int64_t* pointer) noexcept
    int64_t load_relaxed "havhex_load_relaxed"(const int64_t* pointer) noexcept
    void store_release "havhex_store_release"(int64_t* pointer, int64_t value) noexcept
    void store_relaxed "havhex_store_relaxed"(int64_t* pointer, int64_t value) noexcept
    # The value before the addition (a ticket, or a counter's old value).
    int64_t fetch_add "havhex_fetch_add"(int64_t* pointer, int64_t amount) noexcept
    # Sets ``pointer[0] = wanted`` if it holds ``expected``; true when it did.
    bint compare_exchange "havhex_compare_exchange"(int64_t* pointer, int64_t expected,
                                                    int64_t wanted) noexcept
    void* pointer_load_acquire "havhex_pointer_load_acquire"(void** pointer) noexcept
    void pointer_store_release "havhex_pointer_store_release"(void** pointer,
                                                              void* value) noexcept
    # The pointer's old value, ``value`` left in its place.
    void* pointer_exchange "havhex_pointer_exchange"(void** pointer, void* value) noexcept
    # Sets ``pointer[0] = wanted`` if it holds ``expected``; true when it did.
    bint pointer_compare_exchange "havhex_pointer_compare_exchange"(
        void** pointer, void* expected, void* wanted) noexcept

    # The search tree's 32-bit fields (see portable.h): a child block
    # published and claimed, and counters whose concurrent additions may
    # lose one.
    int32_t load_acquire32 "havhex_load_acquire32"(const int32_t* pointer) noexcept
    void store_release32 "havhex_store_release32"(int32_t* pointer, int32_t value) noexcept
    bint compare_exchange32 "havhex_compare_exchange32"(int32_t* pointer, int32_t expected,
                                                        int32_t wanted) noexcept
    uint32_t count_load "havhex_count_load"(const uint32_t* pointer) noexcept
    void count_add "havhex_count_add"(uint32_t* pointer, uint32_t amount) noexcept

    # Memory that only aligned_free releases (free() cannot, on Windows).
    void* aligned_alloc "havhex_aligned_alloc"(size_t alignment, size_t size) noexcept
    void aligned_free "havhex_aligned_free"(void* block) noexcept
    # malloc's own alignment: aligned_alloc gives malloc's block where it can.
    size_t MALLOC_ALIGNMENT "HAVHEX_MALLOC_ALIGNMENT"
    # True where request_huge_pages can do something (Linux's MADV_HUGEPAGE).
    bint HUGE_PAGE_ADVICE "HAVHEX_HUGE_PAGE_ADVICE"
    void request_huge_pages "havhex_advise_huge_pages"(void* start, size_t length) noexcept
    # A hint to bring a cache line in; nothing where the compiler has none.
    void prefetch_line "HAVHEX_PREFETCH"(const void* address) noexcept

    # The index of the lowest set bit; ``bits`` must not be 0.
    int ctz32 "havhex_ctz32"(uint32_t bits) noexcept
    int ctz64 "havhex_ctz64"(uint64_t bits) noexcept

    # Microseconds on a clock that only moves forward.
    int64_t monotonic_us "havhex_monotonic_us"() noexcept
    # Let other threads run for about this long.
    void sleep_us "havhex_sleep_us"(unsigned int microseconds) noexcept

    # read(2) on a descriptor, in binary mode: bytes read, 0 at the end, -1
    # with errno set.
    Py_ssize_t read_fd "havhex_read"(int fd, void* buffer, size_t count) noexcept


cdef inline int byte_shift(int byte) noexcept nogil:
    """The shift that puts a 1 in byte ``byte`` of a 32-bit word as stored
    in memory, whatever the machine's byte order (the batches write a
    cell's planes a word at a time)."""
    cdef uint32_t word = 0
    cdef int shift = 0
    (<unsigned char*>&word)[byte] = 1
    while (word >> shift) != 1:
        shift += 1
    return shift
