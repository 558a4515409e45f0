# cython: language_level=3
"""Random numbers for the live boards: splitmix64 to mix and seed,
xoshiro256** as the stream a playout draws from.

Both are small, fast and well studied; a playout needs speed and a stream
that is the same on every platform for a given seed, not cryptography.
"""
from libc.stdint cimport uint32_t, uint64_t


cdef inline uint64_t splitmix64_mix(uint64_t z) noexcept nogil:
    """A bijective 64-bit mix (splitmix64's output function): nearby inputs
    give unrelated outputs, so it also serves as a hash of small integers."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t splitmix64_next(uint64_t* state) noexcept nogil:
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    return splitmix64_mix(state[0])


cdef struct Xoshiro:
    uint64_t s[4]


cdef inline void xoshiro_seed(Xoshiro* rng, uint64_t seed, uint64_t stream) noexcept nogil:
    """The state for stream number ``stream`` of ``seed``: streams of one
    seed start from unrelated points, so that work split by stream gives the
    same results whatever the split."""
    cdef uint64_t state = seed ^ splitmix64_mix(stream + <uint64_t>0x632BE59BD9B4E019)
    cdef int k
    for k in range(4):
        rng.s[k] = splitmix64_next(&state)
    # splitmix64 is a bijection of a counter, so four outputs are never all zero.


cdef inline uint64_t rotl64(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t xoshiro_next(Xoshiro* rng) noexcept nogil:
    cdef uint64_t* s = rng.s
    cdef uint64_t result = rotl64(s[1] * 5, 7) * 9
    cdef uint64_t t = s[1] << 17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl64(s[3], 45)
    return result


cdef inline uint32_t random_below(Xoshiro* rng, uint32_t bound) noexcept nogil:
    """Uniform in [0, bound) for bound >= 1, without bias (Lemire's
    multiply-and-reject: one multiplication, a rejection almost never)."""
    cdef uint64_t product = (xoshiro_next(rng) >> 32) * bound
    cdef uint32_t low = <uint32_t>product
    cdef uint32_t threshold
    if low < bound:
        threshold = (-bound) % bound
        while low < threshold:
            product = (xoshiro_next(rng) >> 32) * bound
            low = <uint32_t>product
    return <uint32_t>(product >> 32)
