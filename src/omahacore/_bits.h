/* Portable bit helpers for the evaluator (MSVC has no __builtin_popcount or prefetch). */
#ifndef OMAHACORE_BITS_H
#define OMAHACORE_BITS_H
#include <stdint.h>

static inline int omaha_popcount32(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
#endif
}

/* A hint to start loading a cache line early; a no-op where the compiler has none. */
#if defined(__GNUC__) || defined(__clang__)
#define omaha_prefetch(p) __builtin_prefetch((const void*)(p))
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
#include <xmmintrin.h>
#define omaha_prefetch(p) _mm_prefetch((const char*)(p), _MM_HINT_T0)
#else
#define omaha_prefetch(p) ((void)0)
#endif


/* The high 64 bits of x * n as a 128-bit product (n below 2**32); the low 64 are x * n. */
static inline uint32_t omaha_mul_hi(uint64_t x, uint32_t n) {
#if defined(__SIZEOF_INT128__)
    return (uint32_t)(((unsigned __int128)x * n) >> 64);   /* one multiply instruction */
#else
    return (uint32_t)(((x >> 32) * n + (((uint64_t)(uint32_t)x * n) >> 32)) >> 32);
#endif
}

#endif
