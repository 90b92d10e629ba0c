/* Portable bit helpers for the compiled modules (MSVC has no __builtin_popcount or prefetch). */
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

/* The index of the highest set bit of ``x`` (``x`` must not be 0). */
static inline int omaha_highest_bit32(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return 31 - __builtin_clz(x);
#else
    int bit = 0;
    while (x >>= 1)
        bit++;
    return bit;
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


/* Zero the first 108 floats of an observation row with 16-byte stores: a short memset is a
   `rep stos` here, whose start-up costs more than the stores themselves. */
#if defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2)
#include <emmintrin.h>
static inline void omaha_zero_108_floats(float* p) {
    const __m128 z = _mm_setzero_ps();
    _mm_storeu_ps(p + 0, z); _mm_storeu_ps(p + 4, z); _mm_storeu_ps(p + 8, z);
    _mm_storeu_ps(p + 12, z); _mm_storeu_ps(p + 16, z); _mm_storeu_ps(p + 20, z);
    _mm_storeu_ps(p + 24, z); _mm_storeu_ps(p + 28, z); _mm_storeu_ps(p + 32, z);
    _mm_storeu_ps(p + 36, z); _mm_storeu_ps(p + 40, z); _mm_storeu_ps(p + 44, z);
    _mm_storeu_ps(p + 48, z); _mm_storeu_ps(p + 52, z); _mm_storeu_ps(p + 56, z);
    _mm_storeu_ps(p + 60, z); _mm_storeu_ps(p + 64, z); _mm_storeu_ps(p + 68, z);
    _mm_storeu_ps(p + 72, z); _mm_storeu_ps(p + 76, z); _mm_storeu_ps(p + 80, z);
    _mm_storeu_ps(p + 84, z); _mm_storeu_ps(p + 88, z); _mm_storeu_ps(p + 92, z);
    _mm_storeu_ps(p + 96, z); _mm_storeu_ps(p + 100, z); _mm_storeu_ps(p + 104, z);
}
#else
#include <string.h>
static inline void omaha_zero_108_floats(float* p) { memset(p, 0, 108 * sizeof(float)); }
#endif

#endif
