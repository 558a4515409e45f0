# cython: language_level=3
"""Random numbers for the boards' playouts and hash keys, shared by both games.

splitmix64 turns a seed (and a stream number) into well-mixed 64-bit words;
xoshiro256** is the generator a playout draws from.  A playout numbered i of
a run seeded s owns the stream (s, i), so a run's results do not depend on
how its playouts are shared among threads.
"""
from libc.stdint cimport uint32_t, uint64_t


cdef struct Rng:
    uint64_t s0
    uint64_t s1
    uint64_t s2
    uint64_t s3


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """splitmix64's finaliser: a bijection whose outputs of consecutive
    inputs look independent (also the boards' Zobrist keys)."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t splitmix64_next(uint64_t* state) noexcept nogil:
    state[0] += <uint64_t>0x9E3779B97F4A7C15
    return mix64(state[0])


cdef inline void rng_seed(Rng* rng, uint64_t seed, uint64_t stream) noexcept nogil:
    """The generator of stream ``stream`` of ``seed``: the stream number is
    mixed on its own first, so (s, i) and (s + 1, i - 1) start far apart."""
    cdef uint64_t state = seed ^ mix64(stream + <uint64_t>0x6A09E667F3BCC909)
    rng.s0 = splitmix64_next(&state)
    rng.s1 = splitmix64_next(&state)
    rng.s2 = splitmix64_next(&state)
    rng.s3 = splitmix64_next(&state)


cdef inline uint64_t rotl64(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    """xoshiro256**: the next 64-bit word."""
    cdef uint64_t result = rotl64(rng.s1 * 5, 7) * 9
    cdef uint64_t t = rng.s1 << 17
    rng.s2 ^= rng.s0
    rng.s3 ^= rng.s1
    rng.s1 ^= rng.s2
    rng.s0 ^= rng.s3
    rng.s2 ^= t
    rng.s3 = rotl64(rng.s3, 45)
    return result


cdef inline uint32_t rng_below(Rng* rng, uint32_t bound) noexcept nogil:
    """A uniform integer in [0, bound), bound >= 1: Lemire's multiply and
    shift on 32 bits, with the rejection that removes its small bias."""
    cdef uint64_t product = (rng_next(rng) >> 32) * <uint64_t>bound
    cdef uint32_t low = <uint32_t>product
    cdef uint32_t threshold
    if low < bound:
        threshold = (<uint32_t>(-bound)) % bound
        while low < threshold:
            product = (rng_next(rng) >> 32) * <uint64_t>bound
            low = <uint32_t>product
    return <uint32_t>(product >> 32)
