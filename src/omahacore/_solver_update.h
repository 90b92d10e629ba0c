/* The solver's passes over one node's hands in 16-bit storage: regret matching and the
   DCFR update (included by solver.pyx, which keeps the float32 ones).

   Each pass is a plain loop over a node's hands with one row per action: the rows never
   overlap (restrict), and the node's action count is a constant in the copies made for two
   and three actions, so that the compiler can vectorize them. The largest regret and
   strategy sum are maxima over finite values: the kernels are compiled without signed zeros
   and infinities so that GCC may vectorize those maxima too (nothing here reads a NaN or
   the sign of a zero). */

#ifndef OMAHA_SOLVER_UPDATE_H
#define OMAHA_SOLVER_UPDATE_H

#include <math.h>
#include <stdint.h>

#if defined(__GNUC__) && !defined(__clang__)
#define OMAHA_FINITE \
    __attribute__((optimize("no-signed-zeros", "finite-math-only", "no-trapping-math")))
#else
#define OMAHA_FINITE
#endif
#if defined(_MSC_VER)
#define OMAHA_RESTRICT __restrict
#define OMAHA_INLINE static __forceinline
#else
#define OMAHA_RESTRICT __restrict__
#define OMAHA_INLINE static inline __attribute__((always_inline)) OMAHA_FINITE
#endif

/* The entry type of the per-hand rows (reaches, values, normalizers): float32, to halve the
   memory traffic of these passes. It must be the type of solver.pyx's row_t: switch the two
   together. The kernels compute in it (the 16-bit inputs convert to it exactly; the largest
   regret and strategy sum are taken over the very values that are rounded into 16 bits, so
   the rounding stays within range); the callers' scalars arrive as double and are rounded
   once. */
typedef float omaha_row_t;

/* regret matching's probability: the positive part of x times inv, or uniform where the
   hand's positive regrets sum to 0 (inv == 0). The one statement: solver.pyx's _share is
   this macro too, over doubles. */
#define OMAHA_SHARE(x, inv, uniform) \
    ((inv) > 0.0f ? ((x) > 0.0f ? (x) : 0.0f) * (inv) : (uniform))
/* the larger of two finite values, and a finite value's size (no library call: any type) */
#define OMAHA_MAX(a, b) ((a) > (b) ? (a) : (b))
#define OMAHA_ABS(x) ((x) < 0.0f ? -(x) : (x))

/* f(c, ...) with the action count c a constant in the copies for two and three actions
   (the common nodes, whose loops the compiler then unrolls and vectorizes), any c else */
#define OMAHA_BY_COUNT(c, f, ...) \
    do { \
        if ((c) == 2) f(2, __VA_ARGS__); \
        else if ((c) == 3) f(3, __VA_ARGS__); \
        else f((c), __VA_ARGS__); \
    } while (0)

/* The hands are taken in chunks small enough that a chunk's rows stay in the first-level
   caches from one pass to the next, each row read from memory once per kernel; a chunk's
   normalizers live on the stack. In the passes, hand i of the chunk is entry off + i of
   the node's rows and entry i of `inv`. */
#define OMAHA_CHUNK 512

/* inv[i] = 1 / (the sum of hand i's positive regrets), 0 where that sum is 0 */
OMAHA_INLINE void omaha_norms16_c(int c, const int16_t* const* q, int off, int n,
                                  omaha_row_t* OMAHA_RESTRICT inv) {
    for (int i = 0; i < n; i++) {
        omaha_row_t total = 0.0f;   /* exact: at most 16 x 32767 */
        for (int a = 0; a < c; a++) {
            omaha_row_t x = q[a][off + i];
            total += x > 0.0f ? x : 0.0f;
        }
        inv[i] = total > 0.0f ? 1.0f / total : 0.0f;
    }
}


/* dst[i] = the probability of the action of row q at hand i, times reach[i] if given (q,
   reach and dst start at the chunk's first hand) */
OMAHA_INLINE void omaha_share16(const int16_t* OMAHA_RESTRICT q,
                                const omaha_row_t* OMAHA_RESTRICT inv,
                                const omaha_row_t* OMAHA_RESTRICT reach,
                                omaha_row_t* OMAHA_RESTRICT dst, omaha_row_t uniform, int n) {
    if (reach == 0) {
        for (int i = 0; i < n; i++) {
            omaha_row_t x = q[i];
            dst[i] = OMAHA_SHARE(x, inv[i], uniform);
        }
    } else {
        for (int i = 0; i < n; i++) {
            omaha_row_t x = q[i];
            dst[i] = OMAHA_SHARE(x, inv[i], uniform) * reach[i];
        }
    }
}

/* out[off + i] = the strategy's mean of the children's values rows[a][off + i] (two or
   three actions: the rows held in locals, so that the loop reads no pointer) */
OMAHA_INLINE void omaha_value16_c(int c, const int16_t* const* q,
                                  const omaha_row_t* const* rows, int off, int n,
                                  const omaha_row_t* OMAHA_RESTRICT inv,
                                  omaha_row_t* OMAHA_RESTRICT out, omaha_row_t uniform) {
    if (c == 2 || c == 3) {
        const int16_t* q0 = q[0] + off;
        const int16_t* q1 = q[1] + off;
        const int16_t* q2 = q[c - 1] + off;
        const omaha_row_t* r0 = rows[0] + off;
        const omaha_row_t* r1 = rows[1] + off;
        const omaha_row_t* r2 = rows[c - 1] + off;
        out += off;
        for (int i = 0; i < n; i++) {
            omaha_row_t x0 = q0[i], x1 = q1[i], x2 = q2[i], w = inv[i];
            omaha_row_t v = (OMAHA_SHARE(x0, w, uniform) * r0[i]
                             + OMAHA_SHARE(x1, w, uniform) * r1[i]);
            out[i] = c == 3 ? v + OMAHA_SHARE(x2, w, uniform) * r2[i] : v;
        }
        return;
    }
    for (int i = 0; i < n; i++) {
        omaha_row_t v = 0.0f;
        for (int a = 0; a < c; a++) {
            omaha_row_t x = q[a][off + i];
            v += OMAHA_SHARE(x, inv[i], uniform) * rows[a][off + i];
        }
        out[off + i] = v;
    }
}

/* One action's row (all pointers at the chunk's first hand): the largest new strategy sum
   (not stored yet) into top_s, and the new regret (the old one discounted, plus the
   action's value over the node's) into `row`, its largest size into top_r. */
OMAHA_INLINE void omaha_regret16(const int16_t* OMAHA_RESTRICT q,
                                 const uint16_t* OMAHA_RESTRICT u,
                                 const omaha_row_t* OMAHA_RESTRICT own,
                                 const omaha_row_t* OMAHA_RESTRICT inv,
                                 const omaha_row_t* OMAHA_RESTRICT value,
                                 omaha_row_t* OMAHA_RESTRICT row, omaha_row_t ss,
                                 omaha_row_t pos, omaha_row_t neg, omaha_row_t uniform, int n,
                                 omaha_row_t* top_r, omaha_row_t* top_s) {
    omaha_row_t most_r = top_r[0], most_s = top_s[0];
    for (int i = 0; i < n; i++) {
        omaha_row_t x = q[i];
        omaha_row_t y = u[i] * ss + own[i] * OMAHA_SHARE(x, inv[i], uniform);
        most_s = OMAHA_MAX(most_s, y);
        x = x * (x > 0.0f ? pos : neg) + row[i] - value[i];
        row[i] = x;
        most_r = OMAHA_MAX(most_r, OMAHA_ABS(x));
    }
    top_r[0] = most_r;
    top_s[0] = most_s;
}

/* One action's row rounded into 16 bits (pointers at the chunk's first hand): the strategy
   sum (from the old regret, read before it is overwritten) and the new regret in `row`, at
   steps 1/per_s and 1/per_r */
OMAHA_INLINE void omaha_store16(int16_t* OMAHA_RESTRICT q, uint16_t* OMAHA_RESTRICT u,
                                const omaha_row_t* OMAHA_RESTRICT own,
                                const omaha_row_t* OMAHA_RESTRICT inv,
                                const omaha_row_t* OMAHA_RESTRICT row, omaha_row_t ss,
                                omaha_row_t per_s, omaha_row_t per_r, omaha_row_t uniform,
                                int n) {
    for (int i = 0; i < n; i++) {
        omaha_row_t x = q[i];
        /* the sum as omaha_regret16 formed it (at most top_s), then scaled */
        omaha_row_t y = u[i] * ss + own[i] * OMAHA_SHARE(x, inv[i], uniform);
        y = y * per_s;
        u[i] = (uint16_t)(int32_t)(y + 0.5f);
        y = row[i] * per_r;
        int32_t r = (int32_t)(OMAHA_ABS(y) + 0.5f);   /* to nearest, halves away from zero */
        q[i] = (int16_t)(y >= 0.0f ? r : -r);
    }
}

/* The first pass of a node's update (hands lo..hi-1): the node's values into out, the new
   regrets into rows, their largest size and the largest new strategy sum into top_r and
   top_s. */
OMAHA_INLINE void omaha_update16_first_c(int c, const int16_t* const* q,
                                         const uint16_t* const* u,
                                         omaha_row_t* const* rows, const omaha_row_t* own,
                                         omaha_row_t* out, double ss, double pos, double neg,
                                         int lo, int hi, double* top_r, double* top_s) {
    omaha_row_t uniform = (omaha_row_t)(1.0 / c);
    omaha_row_t inv[OMAHA_CHUNK];
    omaha_row_t most_r = 0.0f, most_s = 0.0f;
    for (int off = lo; off < hi; off += OMAHA_CHUNK) {
        int n = hi - off > OMAHA_CHUNK ? OMAHA_CHUNK : hi - off;
        omaha_norms16_c(c, q, off, n, inv);
        omaha_value16_c(c, q, (const omaha_row_t* const*)rows, off, n, inv, out, uniform);
        for (int a = 0; a < c; a++)
            omaha_regret16(q[a] + off, u[a] + off, own + off, inv, out + off, rows[a] + off,
                           (omaha_row_t)ss, (omaha_row_t)pos, (omaha_row_t)neg, uniform, n,
                           &most_r, &most_s);
    }
    top_r[0] = most_r;
    top_s[0] = most_s;
}

static OMAHA_FINITE void omaha_update16_first(int c, const int16_t* const* q,
                                              const uint16_t* const* u,
                                              omaha_row_t* const* rows,
                                              const omaha_row_t* own, omaha_row_t* out,
                                              double ss, double pos, double neg, int lo,
                                              int hi, double* top_r, double* top_s) {
    OMAHA_BY_COUNT(c, omaha_update16_first_c, q, u, rows, own, out, ss, pos, neg, lo, hi,
                   top_r, top_s);
}

/* The second pass (hands lo..hi-1): the new regrets in rows and the new strategy sums
   rounded into 16 bits; the normalizers of the old regrets computed again, a chunk at a
   time, rather than kept in memory between the passes. */
OMAHA_INLINE void omaha_update16_second_c(int c, int16_t* const* q, uint16_t* const* u,
                                          const omaha_row_t* const* rows,
                                          const omaha_row_t* own, double ss, double per_s,
                                          double per_r, int lo, int hi) {
    omaha_row_t uniform = (omaha_row_t)(1.0 / c);
    omaha_row_t inv[OMAHA_CHUNK];
    for (int off = lo; off < hi; off += OMAHA_CHUNK) {
        int n = hi - off > OMAHA_CHUNK ? OMAHA_CHUNK : hi - off;
        omaha_norms16_c(c, (const int16_t* const*)q, off, n, inv);
        for (int a = 0; a < c; a++)
            omaha_store16(q[a] + off, u[a] + off, own + off, inv, rows[a] + off,
                          (omaha_row_t)ss, (omaha_row_t)per_s, (omaha_row_t)per_r, uniform, n);
    }
}

static OMAHA_FINITE void omaha_update16_second(int c, int16_t* const* q, uint16_t* const* u,
                                               const omaha_row_t* const* rows,
                                               const omaha_row_t* own,
                                               double ss, double per_s, double per_r, int lo,
                                               int hi) {
    OMAHA_BY_COUNT(c, omaha_update16_second_c, q, u, rows, own, ss, per_s, per_r, lo, hi);
}

/* inv[i] for hands lo..hi-1 (see omaha_norms16_c), kept in memory by the caller */
static OMAHA_FINITE void omaha_norms16(int c, const int16_t* const* q, omaha_row_t* inv,
                                       int lo, int hi) {
    OMAHA_BY_COUNT(c, omaha_norms16_c, q, lo, hi - lo, inv + lo);
}

/* dst[i] = the probability of the action of row q at hand i times times[i], hands lo..hi-1
   (inv from omaha_norms16) */
static OMAHA_FINITE void omaha_times16(const int16_t* q, const omaha_row_t* inv,
                                       const omaha_row_t* times, omaha_row_t* dst,
                                       double uniform, int lo, int hi) {
    omaha_share16(q + lo, inv + lo, times + lo, dst + lo, (omaha_row_t)uniform, hi - lo);
}

/* Regret matching at a node into rows[a] (times reach if given), hands lo..hi-1 */
static OMAHA_FINITE void omaha_split16(int c, const int16_t* const* q,
                                       const omaha_row_t* reach, omaha_row_t* const* rows,
                                       int lo, int hi) {
    omaha_row_t uniform = (omaha_row_t)(1.0 / c);
    omaha_row_t inv[OMAHA_CHUNK];
    for (int off = lo; off < hi; off += OMAHA_CHUNK) {
        int n = hi - off > OMAHA_CHUNK ? OMAHA_CHUNK : hi - off;
        OMAHA_BY_COUNT(c, omaha_norms16_c, q, off, n, inv);
        for (int a = 0; a < c; a++)
            omaha_share16(q[a] + off, inv, reach ? reach + off : 0, rows[a] + off, uniform, n);
    }
}

#endif
