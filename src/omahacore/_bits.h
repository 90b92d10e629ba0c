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

#endif
