/* The solver's passes over one node's hands in 16-bit storage: regret matching and the
   DCFR update (included by solver.pyx, which keeps the float32 ones).

   Each pass is a plain loop over hands lo..hi-1 with one row per action: the rows never
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

#define OMAHA_MAX_ACTIONS 16

/* regret matching's probability: the positive part of x times inv, or uniform where the
   hand's positive regrets sum to 0 (inv == 0) */
#define OMAHA_SHARE(x, inv, uniform) ((inv) > 0.0 ? ((x) > 0.0 ? (x) : 0.0) * (inv) : (uniform))

/* inv[i] = 1 / (the sum of hand i's positive regrets), 0 where that sum is 0 */
OMAHA_INLINE void omaha_norms16_c(int c, const int16_t* const* q, double* OMAHA_RESTRICT inv,
                                  int lo, int hi) {
    for (int i = lo; i < hi; i++) {
        double total = 0.0;
        for (int a = 0; a < c; a++) {
            double x = q[a][i];
            total += x > 0.0 ? x : 0.0;
        }
        inv[i] = total > 0.0 ? 1.0 / total : 0.0;
    }
}

/* dst[i] = the probability of the action of row q at hand i, times reach[i] (if given) */
OMAHA_INLINE void omaha_share16(const int16_t* OMAHA_RESTRICT q,
                                const double* OMAHA_RESTRICT inv,
                                const double* OMAHA_RESTRICT reach,
                                double* OMAHA_RESTRICT dst, double uniform, int lo, int hi) {
    if (reach == 0) {
        for (int i = lo; i < hi; i++) {
            double x = q[i];
            dst[i] = OMAHA_SHARE(x, inv[i], uniform);
        }
    } else {
        for (int i = lo; i < hi; i++) {
            double x = q[i];
            dst[i] = OMAHA_SHARE(x, inv[i], uniform) * reach[i];
        }
    }
}

/* out[i] = the strategy's mean of the children's values rows[a][i] (two or three actions:
   the rows held in locals, so that the loop reads no pointer) */
OMAHA_INLINE void omaha_value16_c(int c, const int16_t* const* q, const double* const* rows,
                                  const double* OMAHA_RESTRICT inv,
                                  double* OMAHA_RESTRICT out, double uniform, int lo, int hi) {
    if (c == 2 || c == 3) {
        const int16_t* q0 = q[0];
        const int16_t* q1 = q[1];
        const int16_t* q2 = q[c - 1];
        const double* r0 = rows[0];
        const double* r1 = rows[1];
        const double* r2 = rows[c - 1];
        for (int i = lo; i < hi; i++) {
            double x0 = q0[i], x1 = q1[i], x2 = q2[i], w = inv[i];
            double v = OMAHA_SHARE(x0, w, uniform) * r0[i] + OMAHA_SHARE(x1, w, uniform) * r1[i];
            out[i] = c == 3 ? v + OMAHA_SHARE(x2, w, uniform) * r2[i] : v;
        }
        return;
    }
    for (int i = lo; i < hi; i++) {
        double v = 0.0;
        for (int a = 0; a < c; a++) {
            double x = q[a][i];
            v += OMAHA_SHARE(x, inv[i], uniform) * rows[a][i];
        }
        out[i] = v;
    }
}

/* One action's row: its new strategy sum's largest value (not stored yet), and its new
   regret (the old one discounted, plus the action's value over the node's) into `row`,
   whose largest size is returned in top_r. */
OMAHA_INLINE void omaha_regret16(const int16_t* OMAHA_RESTRICT q,
                                 const uint16_t* OMAHA_RESTRICT u,
                                 const double* OMAHA_RESTRICT own,
                                 const double* OMAHA_RESTRICT inv,
                                 const double* OMAHA_RESTRICT value,
                                 double* OMAHA_RESTRICT row, double ss, double pos, double neg,
                                 double uniform, int lo, int hi, double* top_r, double* top_s) {
    double most_r = top_r[0], most_s = top_s[0];
    for (int i = lo; i < hi; i++) {
        double x = q[i];
        double y = u[i] * ss + own[i] * OMAHA_SHARE(x, inv[i], uniform);
        most_s = fmax(most_s, y);
        x = x * (x > 0.0 ? pos : neg) + row[i] - value[i];
        row[i] = x;
        most_r = fmax(most_r, fabs(x));
    }
    top_r[0] = most_r;
    top_s[0] = most_s;
}

/* One action's row rounded into 16 bits: the strategy sum (from the old regret, read before
   it is overwritten) and the new regret in `row`, at steps 1/per_s and 1/per_r */
OMAHA_INLINE void omaha_store16(int16_t* OMAHA_RESTRICT q, uint16_t* OMAHA_RESTRICT u,
                                const double* OMAHA_RESTRICT own,
                                const double* OMAHA_RESTRICT inv,
                                const double* OMAHA_RESTRICT row, double ss, double per_s,
                                double per_r, double uniform, int lo, int hi) {
    for (int i = lo; i < hi; i++) {
        double x = q[i];
        double y = (u[i] * ss + own[i] * OMAHA_SHARE(x, inv[i], uniform)) * per_s;
        u[i] = (uint16_t)(int32_t)(y + 0.5);
        y = row[i] * per_r;
        int32_t r = (int32_t)(fabs(y) + 0.5);   /* to nearest, halves away from zero */
        q[i] = (int16_t)(y >= 0.0 ? r : -r);
    }
}

/* The hands are taken in chunks small enough that a chunk's rows stay in the first-level
   caches from one pass to the next: each row is read from memory once per kernel. */
#define OMAHA_CHUNK 512

/* The first pass of a node's update (hands lo..hi-1): inv from the old regrets, the node's
   values into out, the new regrets into rows, their largest size and the largest new
   strategy sum into top_r and top_s. */
OMAHA_INLINE void omaha_update16_first_c(int c, const int16_t* const* q,
                                         const uint16_t* const* u, double* const* rows,
                                         const double* own, double* inv, double* out,
                                         double ss, double pos, double neg, int lo, int hi,
                                         double* top_r, double* top_s) {
    double uniform = 1.0 / c;
    top_r[0] = 0.0;
    top_s[0] = 0.0;
    for (int start = lo; start < hi; start += OMAHA_CHUNK) {
        int end = hi - start > OMAHA_CHUNK ? start + OMAHA_CHUNK : hi;
        omaha_norms16_c(c, q, inv, start, end);
        omaha_value16_c(c, q, (const double* const*)rows, inv, out, uniform, start, end);
        for (int a = 0; a < c; a++)
            omaha_regret16(q[a], u[a], own, inv, out, rows[a], ss, pos, neg, uniform, start,
                           end, top_r, top_s);
    }
}

static OMAHA_FINITE void omaha_update16_first(int c, const int16_t* const* q,
                                              const uint16_t* const* u, double* const* rows,
                                              const double* own, double* inv, double* out,
                                              double ss, double pos, double neg, int lo,
                                              int hi, double* top_r, double* top_s) {
    if (c == 2)
        omaha_update16_first_c(2, q, u, rows, own, inv, out, ss, pos, neg, lo, hi, top_r, top_s);
    else if (c == 3)
        omaha_update16_first_c(3, q, u, rows, own, inv, out, ss, pos, neg, lo, hi, top_r, top_s);
    else
        omaha_update16_first_c(c, q, u, rows, own, inv, out, ss, pos, neg, lo, hi, top_r, top_s);
}

static OMAHA_FINITE void omaha_update16_second(int c, int16_t* const* q, uint16_t* const* u,
                                               const double* const* rows, const double* own,
                                               const double* inv, double ss, double per_s,
                                               double per_r, int lo, int hi) {
    double uniform = 1.0 / c;
    for (int start = lo; start < hi; start += OMAHA_CHUNK) {
        int end = hi - start > OMAHA_CHUNK ? start + OMAHA_CHUNK : hi;
        for (int a = 0; a < c; a++)
            omaha_store16(q[a], u[a], own, inv, rows[a], ss, per_s, per_r, uniform, start, end);
    }
}

/* inv[i] for hands lo..hi-1 (see omaha_norms16_c) */
static OMAHA_FINITE void omaha_norms16(int c, const int16_t* const* q, double* inv, int lo,
                                       int hi) {
    if (c == 2)
        omaha_norms16_c(2, q, inv, lo, hi);
    else if (c == 3)
        omaha_norms16_c(3, q, inv, lo, hi);
    else
        omaha_norms16_c(c, q, inv, lo, hi);
}

/* dst[i] = the probability of the action of row q at hand i times times[i] */
static OMAHA_FINITE void omaha_times16(const int16_t* q, const double* inv,
                                       const double* times, double* dst, double uniform,
                                       int lo, int hi) {
    omaha_share16(q, inv, times, dst, uniform, lo, hi);
}

/* Regret matching at a node into rows[a] (times reach if given), inv kept */
static OMAHA_FINITE void omaha_split16(int c, const int16_t* const* q, double* inv,
                                       const double* reach, double* const* rows, int lo,
                                       int hi) {
    double uniform = 1.0 / c;
    for (int start = lo; start < hi; start += OMAHA_CHUNK) {
        int end = hi - start > OMAHA_CHUNK ? start + OMAHA_CHUNK : hi;
        if (c == 2)
            omaha_norms16_c(2, q, inv, start, end);
        else if (c == 3)
            omaha_norms16_c(3, q, inv, start, end);
        else
            omaha_norms16_c(c, q, inv, start, end);
        for (int a = 0; a < c; a++)
            omaha_share16(q[a], inv, reach, rows[a], uniform, start, end);
    }
}

#endif
