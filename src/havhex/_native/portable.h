/* The platform-specific calls of both engines, behind small functions.
 *
 * The engines are C99 with a few things that each platform spells its own
 * way: atomics, thread-local storage, aligned memory, huge pages, a monotonic
 * clock, a short sleep, reading a descriptor and waiting for it, bit scans and
 * prefetch.  Each has a GCC/Clang, an MSVC and a plain C (or POSIX) form here,
 * so the package builds with GCC, Clang and MSVC; where a platform lacks a
 * fast path (huge pages, prefetch) the fallback changes speed, never results.
 *
 * Include it after Python.h, as Cython's output does: Python.h sets the
 * feature macros (_POSIX_C_SOURCE, _GNU_SOURCE...) under which the C library
 * declares posix_memalign, clock_gettime, nanosleep and madvise.
 */
#ifndef HAVHEX_PORTABLE_H
#define HAVHEX_PORTABLE_H

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(_MSC_VER)
#  include <intrin.h>
#endif

#if defined(_WIN32)
#  ifndef WIN32_LEAN_AND_MEAN
#    define WIN32_LEAN_AND_MEAN
#  endif
#  ifndef NOMINMAX
#    define NOMINMAX
#  endif
#  include <windows.h>
#  include <fcntl.h>
#  include <io.h>
#  include <malloc.h>
#else
#  include <poll.h>
#  include <sys/mman.h>
#  include <time.h>
#  include <unistd.h>
#  if defined(__APPLE__)
#    include <mach/mach_time.h>
#  endif
#endif

/* GCC and Clang (and compilers that pass for them) take the builtins below.
 * Defining HAVHEX_PLAIN_C makes them take the C11/POSIX forms instead, so that
 * those can be compiled and run here too. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(HAVHEX_PLAIN_C)
#  define HAVHEX_GNU 1
#endif

/* ---- Atomics ---------------------------------------------------------
 * The shared counters are plain int64_t (and int, and pointer) fields of
 * Cython structs, and Cython has no _Atomic.  The GCC/Clang __atomic
 * builtins are defined on plain objects, so they come first; C11's
 * <stdatomic.h> wants _Atomic objects, so its form (for a C11 compiler with
 * neither the builtins nor MSVC's intrinsics) reaches the same field through
 * an _Atomic pointer, which has the plain type's layout wherever the type is
 * lock-free; MSVC uses its Interlocked functions and volatile accesses (on
 * x64 a volatile access is atomic and ordered as acquire/release loads and
 * stores need; elsewhere a 64-bit access goes through Interlocked). */
#if defined(HAVHEX_GNU)
#  define HAVHEX_ATOMICS_GNU 1
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L && !defined(__STDC_NO_ATOMICS__)
#  include <stdatomic.h>
#  define HAVHEX_ATOMICS_C11 1
#elif defined(_MSC_VER)
#  define HAVHEX_ATOMICS_MSVC 1
#  if defined(_M_X64) || defined(_M_AMD64)
#    define HAVHEX_MSVC_X64 1
#  endif
#else
#  error "havhex needs atomics: GCC/Clang builtins, C11 <stdatomic.h> or MSVC"
#endif

#if defined(HAVHEX_ATOMICS_C11)
#  define HAVHEX_C11_I64(pointer) ((_Atomic int64_t *)(pointer))
#  define HAVHEX_C11_INT(pointer) ((_Atomic int *)(pointer))
#  define HAVHEX_C11_PTR(pointer) ((void *_Atomic *)(pointer))
#endif

static inline int64_t havhex_load_relaxed(const int64_t *pointer) {
#if defined(HAVHEX_ATOMICS_GNU)
    return __atomic_load_n(pointer, __ATOMIC_RELAXED);
#elif defined(HAVHEX_ATOMICS_C11)
    return atomic_load_explicit(HAVHEX_C11_I64(pointer), memory_order_relaxed);
#elif defined(HAVHEX_MSVC_X64)
    return *(volatile const int64_t *)pointer;
#else
    return InterlockedCompareExchange64((volatile LONG64 *)pointer, 0, 0);
#endif
}

static inline int64_t havhex_load_acquire(const int64_t *pointer) {
#if defined(HAVHEX_ATOMICS_GNU)
    return __atomic_load_n(pointer, __ATOMIC_ACQUIRE);
#elif defined(HAVHEX_ATOMICS_C11)
    return atomic_load_explicit(HAVHEX_C11_I64(pointer), memory_order_acquire);
#elif defined(HAVHEX_MSVC_X64)
    int64_t value = *(volatile const int64_t *)pointer;
    _ReadWriteBarrier();
    return value;
#else
    return InterlockedCompareExchange64((volatile LONG64 *)pointer, 0, 0);
#endif
}

static inline void havhex_store_relaxed(int64_t *pointer, int64_t value) {
#if defined(HAVHEX_ATOMICS_GNU)
    __atomic_store_n(pointer, value, __ATOMIC_RELAXED);
#elif defined(HAVHEX_ATOMICS_C11)
    atomic_store_explicit(HAVHEX_C11_I64(pointer), value, memory_order_relaxed);
#elif defined(HAVHEX_MSVC_X64)
    *(volatile int64_t *)pointer = value;
#else
    InterlockedExchange64((volatile LONG64 *)pointer, value);
#endif
}

static inline void havhex_store_release(int64_t *pointer, int64_t value) {
#if defined(HAVHEX_ATOMICS_GNU)
    __atomic_store_n(pointer, value, __ATOMIC_RELEASE);
#elif defined(HAVHEX_ATOMICS_C11)
    atomic_store_explicit(HAVHEX_C11_I64(pointer), value, memory_order_release);
#elif defined(HAVHEX_MSVC_X64)
    _ReadWriteBarrier();
    *(volatile int64_t *)pointer = value;
#else
    InterlockedExchange64((volatile LONG64 *)pointer, value);
#endif
}

/* The value before the addition; no ordering (counters and tickets). */
static inline int64_t havhex_fetch_add(int64_t *pointer, int64_t amount) {
#if defined(HAVHEX_ATOMICS_GNU)
    return __atomic_fetch_add(pointer, amount, __ATOMIC_RELAXED);
#elif defined(HAVHEX_ATOMICS_C11)
    return atomic_fetch_add_explicit(HAVHEX_C11_I64(pointer), amount, memory_order_relaxed);
#else
    return InterlockedExchangeAdd64((volatile LONG64 *)pointer, amount);
#endif
}

/* Set *pointer to wanted if it holds expected; 1 when it did. */
static inline int havhex_compare_exchange(int64_t *pointer, int64_t expected, int64_t wanted) {
#if defined(HAVHEX_ATOMICS_GNU)
    return __atomic_compare_exchange_n(pointer, &expected, wanted, 0,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
#elif defined(HAVHEX_ATOMICS_C11)
    return atomic_compare_exchange_strong_explicit(HAVHEX_C11_I64(pointer), &expected, wanted,
                                                   memory_order_acq_rel, memory_order_acquire);
#else
    return InterlockedCompareExchange64((volatile LONG64 *)pointer, wanted, expected) == expected;
#endif
}

/* An int flag written by one thread and looked at by others, unordered. */
static inline int havhex_flag_load(const int *pointer) {
#if defined(HAVHEX_ATOMICS_GNU)
    return __atomic_load_n(pointer, __ATOMIC_RELAXED);
#elif defined(HAVHEX_ATOMICS_C11)
    return atomic_load_explicit(HAVHEX_C11_INT(pointer), memory_order_relaxed);
#else
    return *(volatile const int *)pointer;
#endif
}

static inline void havhex_flag_store(int *pointer, int value) {
#if defined(HAVHEX_ATOMICS_GNU)
    __atomic_store_n(pointer, value, __ATOMIC_RELAXED);
#elif defined(HAVHEX_ATOMICS_C11)
    atomic_store_explicit(HAVHEX_C11_INT(pointer), value, memory_order_relaxed);
#else
    *(volatile int *)pointer = value;
#endif
}

/* 32-bit forms for the search tree's nodes, which several threads read
 * and update at once.  A child block is published by a release store of
 * its parent's first_child and claimed by a compare-exchange; the counters
 * take "counted" additions: a relaxed load and a relaxed store, no locked
 * instruction, so two threads adding at once may lose one addition (a
 * visit or a win in a hundred thousand, which the statistics absorb) where
 * a locked addition would cost more than the search gains. */
#if defined(HAVHEX_ATOMICS_C11)
#  define HAVHEX_C11_I32(pointer) ((_Atomic int32_t *)(pointer))
#  define HAVHEX_C11_U32(pointer) ((_Atomic uint32_t *)(pointer))
#endif

static inline int32_t havhex_load_acquire32(const int32_t *pointer) {
#if defined(HAVHEX_ATOMICS_GNU)
    return __atomic_load_n(pointer, __ATOMIC_ACQUIRE);
#elif defined(HAVHEX_ATOMICS_C11)
    return atomic_load_explicit(HAVHEX_C11_I32(pointer), memory_order_acquire);
#else
    int32_t value = *(volatile const int32_t *)pointer;
    _ReadWriteBarrier();
    return value;
#endif
}

static inline void havhex_store_release32(int32_t *pointer, int32_t value) {
#if defined(HAVHEX_ATOMICS_GNU)
    __atomic_store_n(pointer, value, __ATOMIC_RELEASE);
#elif defined(HAVHEX_ATOMICS_C11)
    atomic_store_explicit(HAVHEX_C11_I32(pointer), value, memory_order_release);
#else
    _ReadWriteBarrier();
    *(volatile int32_t *)pointer = value;
#endif
}

/* Sets *pointer to wanted if it holds expected; 1 when it did. */
static inline int havhex_compare_exchange32(int32_t *pointer, int32_t expected, int32_t wanted) {
#if defined(HAVHEX_ATOMICS_GNU)
    return __atomic_compare_exchange_n(pointer, &expected, wanted, 0,
                                       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
#elif defined(HAVHEX_ATOMICS_C11)
    return atomic_compare_exchange_strong_explicit(HAVHEX_C11_I32(pointer), &expected, wanted,
                                                   memory_order_acq_rel, memory_order_acquire);
#else
    return InterlockedCompareExchange((volatile LONG *)pointer, wanted, expected) == expected;
#endif
}

static inline uint32_t havhex_count_load(const uint32_t *pointer) {
#if defined(HAVHEX_ATOMICS_GNU)
    return __atomic_load_n(pointer, __ATOMIC_RELAXED);
#elif defined(HAVHEX_ATOMICS_C11)
    return atomic_load_explicit(HAVHEX_C11_U32(pointer), memory_order_relaxed);
#else
    return *(volatile const uint32_t *)pointer;
#endif
}

static inline void havhex_count_add(uint32_t *pointer, uint32_t amount) {
#if defined(HAVHEX_ATOMICS_GNU)
    __atomic_store_n(pointer, __atomic_load_n(pointer, __ATOMIC_RELAXED) + amount,
                     __ATOMIC_RELAXED);
#elif defined(HAVHEX_ATOMICS_C11)
    atomic_store_explicit(HAVHEX_C11_U32(pointer),
                          atomic_load_explicit(HAVHEX_C11_U32(pointer), memory_order_relaxed)
                          + amount, memory_order_relaxed);
#else
    *(volatile uint32_t *)pointer = *(volatile const uint32_t *)pointer + amount;
#endif
}

/* A pointer published with release and read with acquire.  Macros, so that
 * a field of any pointer type passes without a cast at the call. */
static inline void *havhex_pointer_load_acquire(void *const *pointer) {
#if defined(HAVHEX_ATOMICS_GNU)
    return __atomic_load_n(pointer, __ATOMIC_ACQUIRE);
#elif defined(HAVHEX_ATOMICS_C11)
    return atomic_load_explicit(HAVHEX_C11_PTR(pointer), memory_order_acquire);
#else
    return InterlockedCompareExchangePointer((PVOID volatile *)pointer, NULL, NULL);
#endif
}

static inline void havhex_pointer_store_release(void **pointer, void *value) {
#if defined(HAVHEX_ATOMICS_GNU)
    __atomic_store_n(pointer, value, __ATOMIC_RELEASE);
#elif defined(HAVHEX_ATOMICS_C11)
    atomic_store_explicit(HAVHEX_C11_PTR(pointer), value, memory_order_release);
#else
    InterlockedExchangePointer((PVOID volatile *)pointer, value);
#endif
}

/* A pointer taken and replaced in one step (acquire and release): the
 * value it held. */
static inline void *havhex_pointer_exchange(void **pointer, void *value) {
#if defined(HAVHEX_ATOMICS_GNU)
    return __atomic_exchange_n(pointer, value, __ATOMIC_ACQ_REL);
#elif defined(HAVHEX_ATOMICS_C11)
    return atomic_exchange_explicit(HAVHEX_C11_PTR(pointer), value, memory_order_acq_rel);
#else
    return InterlockedExchangePointer((PVOID volatile *)pointer, value);
#endif
}

/* Sets *pointer = wanted if it holds expected; true when it did. */
static inline int havhex_pointer_compare_exchange(void **pointer, void *expected, void *wanted) {
#if defined(HAVHEX_ATOMICS_GNU)
    return __atomic_compare_exchange_n(pointer, &expected, wanted, 0, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE);
#elif defined(HAVHEX_ATOMICS_C11)
    return atomic_compare_exchange_strong_explicit(HAVHEX_C11_PTR(pointer), &expected, wanted,
                                                   memory_order_acq_rel, memory_order_acquire);
#else
    return InterlockedCompareExchangePointer((PVOID volatile *)pointer, wanted, expected)
           == expected;
#endif
}

#define HAVHEX_POINTER_LOAD_ACQUIRE(pointer) \
    havhex_pointer_load_acquire((void *const *)(pointer))
#define HAVHEX_POINTER_STORE_RELEASE(pointer, value) \
    havhex_pointer_store_release((void **)(pointer), (void *)(value))

/* ---- Thread-local storage -------------------------------------------- */
#if defined(_MSC_VER)
#  define HAVHEX_THREAD_LOCAL __declspec(thread)
#elif defined(HAVHEX_GNU)
#  define HAVHEX_THREAD_LOCAL __thread
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#  define HAVHEX_THREAD_LOCAL _Thread_local
#else
#  error "havhex needs thread-local storage"
#endif

/* ---- Memory ----------------------------------------------------------
 * size bytes aligned to alignment (a power of two, at least sizeof(void *)),
 * or NULL; released by havhex_aligned_free only (on Windows free() cannot
 * release it).  HAVHEX_MALLOC_ALIGNMENT or less is malloc's own block,
 * except on Windows. */
#define HAVHEX_MALLOC_ALIGNMENT (2 * sizeof(void *))

static inline void *havhex_aligned_alloc(size_t alignment, size_t size) {
    if (size == 0)
        size = 1;
#if defined(_WIN32)
    return _aligned_malloc(size, alignment);
#else
    if (alignment <= HAVHEX_MALLOC_ALIGNMENT)
        return malloc(size);
#  if defined(_POSIX_VERSION) && _POSIX_VERSION >= 200112L
    {
        void *block = NULL;
        return posix_memalign(&block, alignment, size) == 0 ? block : NULL;
    }
#  elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
    if (size > SIZE_MAX - (alignment - 1))
        return NULL;
    return aligned_alloc(alignment, (size + alignment - 1) & ~(alignment - 1));
#  else
#    error "havhex needs posix_memalign, C11 aligned_alloc or _aligned_malloc"
#  endif
#endif
}

static inline void havhex_aligned_free(void *block) {
#if defined(_WIN32)
    _aligned_free(block);
#else
    free(block);
#endif
}

/* 1 where havhex_advise_huge_pages can do something: only then is a large
 * block worth aligning to a huge page. */
#if !defined(_WIN32) && defined(MADV_HUGEPAGE)
#  define HAVHEX_HUGE_PAGE_ADVICE 1
#else
#  define HAVHEX_HUGE_PAGE_ADVICE 0
#endif

/* Ask for huge pages over [start, start + length) (huge-page aligned).
 * Advice only: refused or unknown, nothing else changes. */
static inline void havhex_advise_huge_pages(void *start, size_t length) {
#if HAVHEX_HUGE_PAGE_ADVICE
    (void)madvise(start, length, MADV_HUGEPAGE);
#else
    (void)start;
    (void)length;
#endif
}

/* Bring the cache line at address in for reading: a hint, nothing where the
 * compiler has no form of it. */
#if defined(HAVHEX_GNU)
#  define HAVHEX_PREFETCH(address) __builtin_prefetch((const void *)(address), 0, 3)
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_AMD64) || defined(_M_IX86))
#  define HAVHEX_PREFETCH(address) _mm_prefetch((const char *)(address), _MM_HINT_T0)
#else
#  define HAVHEX_PREFETCH(address) ((void)(address))
#endif

/* ---- Bits ------------------------------------------------------------
 * The index of the lowest set bit; bits must not be 0. */
static inline int havhex_ctz32(uint32_t bits) {
#if defined(HAVHEX_GNU)
    return __builtin_ctz(bits);
#elif defined(_MSC_VER)
    unsigned long index;
    _BitScanForward(&index, bits);
    return (int)index;
#else
    int index = 0;
    while (!(bits & 1u)) {
        bits >>= 1;
        index++;
    }
    return index;
#endif
}

static inline int havhex_ctz64(uint64_t bits) {
#if defined(HAVHEX_GNU)
    return __builtin_ctzll(bits);
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_AMD64) || defined(_M_ARM64))
    unsigned long index;
    _BitScanForward64(&index, bits);
    return (int)index;
#else
    return (uint32_t)bits ? havhex_ctz32((uint32_t)bits) : 32 + havhex_ctz32((uint32_t)(bits >> 32));
#endif
}

/* ---- Time ------------------------------------------------------------
 * Microseconds on a clock that only moves forward (for durations). */
static inline int64_t havhex_monotonic_us(void) {
#if defined(_WIN32)
    LARGE_INTEGER now, frequency;
    QueryPerformanceFrequency(&frequency);
    QueryPerformanceCounter(&now);
    return (int64_t)(now.QuadPart / frequency.QuadPart * 1000000
                     + now.QuadPart % frequency.QuadPart * 1000000 / frequency.QuadPart);
#elif defined(__APPLE__)
    /* mach_absolute_time exists on every macOS a wheel targets;
     * clock_gettime only from 10.12. */
    mach_timebase_info_data_t base;
    mach_timebase_info(&base);
    return (int64_t)(mach_absolute_time() * base.numer / base.denom / 1000);
#else
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
#endif
}

/* Let other threads run for about this long.  Windows sleeps in whole timer
 * ticks, each many times longer than the waits of a few microseconds the
 * engines make while another thread reads: there a short wait yields. */
static inline void havhex_sleep_us(unsigned int microseconds) {
#if defined(_WIN32)
    if (microseconds < 1000) {
        if (!SwitchToThread())
            Sleep(0);
    } else {
        Sleep(microseconds / 1000);
    }
#else
    struct timespec pause;
    pause.tv_sec = (time_t)(microseconds / 1000000);
    pause.tv_nsec = (long)(microseconds % 1000000) * 1000;
    (void)nanosleep(&pause, NULL);
#endif
}

/* ---- Descriptors -----------------------------------------------------
 * read(2): bytes read, 0 at the end, -1 with errno.  On Windows the
 * descriptor is switched to binary mode first: the C runtime's text mode
 * would turn "\r\n" into "\n" and stop at a Ctrl-Z, and the readers count
 * lines and report bytes as they are in the file. */
static inline ptrdiff_t havhex_read(int fd, void *buffer, size_t count) {
#if defined(_WIN32)
    (void)_setmode(fd, _O_BINARY);
    return _read(fd, buffer, count > INT_MAX ? INT_MAX : (unsigned int)count);
#else
    return read(fd, buffer, count);
#endif
}

/* Wait up to timeout_ms for fd to have data (or its end, or an error) to
 * read: 1 when a read would not block, 0 when the wait ran out or was
 * interrupted.  Where the system cannot tell (on Windows, anything but a
 * pipe), 1: the read then blocks as it would have. */
static inline int havhex_poll_readable(int fd, int timeout_ms) {
#if defined(_WIN32)
    HANDLE handle = (HANDLE)_get_osfhandle(fd);
    DWORD available = 0;
    if (handle == INVALID_HANDLE_VALUE || GetFileType(handle) != FILE_TYPE_PIPE)
        return 1;
    if (!PeekNamedPipe(handle, NULL, 0, NULL, &available, NULL) || available > 0)
        return 1;   /* a broken pipe is the end of the input: the read says so */
    Sleep((DWORD)timeout_ms);
    return 0;
#else
    struct pollfd entry;
    int ready;
    entry.fd = fd;
    entry.events = POLLIN;
    entry.revents = 0;
    ready = poll(&entry, 1, timeout_ms);
    return ready > 0 || (ready < 0 && errno != EINTR);
#endif
}

#endif
