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

#define OMAHA_MAX_ACTIONS 16

/* regret matching's probability: the positive part of x times inv, or uniform where the
   hand's positive regrets sum to 0 (inv == 0) */
#define OMAHA_SHARE(x, inv, uniform) ((inv) > 0.0 ? ((x) > 0.0 ? (x) : 0.0) * (inv) : (uniform))

/* The hands are taken in chunks small enough that a chunk's rows stay in the first-level
   caches from one pass to the next, each row read from memory once per kernel; a chunk's
   normalizers live on the stack. In the passes, hand i of the chunk is entry off + i of
   the node's rows and entry i of `inv`. */
#define OMAHA_CHUNK 512

/* inv[i] = 1 / (the sum of hand i's positive regrets), 0 where that sum is 0 */
OMAHA_INLINE void omaha_norms16_c(int c, const int16_t* const* q, int off, int n,
                                  double* OMAHA_RESTRICT inv) {
    for (int i = 0; i < n; i++) {
        double total = 0.0;
        for (int a = 0; a < c; a++) {
            double x = q[a][off + i];
            total += x > 0.0 ? x : 0.0;
        }
        inv[i] = total > 0.0 ? 1.0 / total : 0.0;
    }
}

/* dst[i] = the probability of the action of row q at hand i, times reach[i] if given (q,
   reach and dst start at the chunk's first hand) */
OMAHA_INLINE void omaha_share16(const int16_t* OMAHA_RESTRICT q,
                                const double* OMAHA_RESTRICT inv,
                                const double* OMAHA_RESTRICT reach,
                                double* OMAHA_RESTRICT dst, double uniform, int n) {
    if (reach == 0) {
        for (int i = 0; i < n; i++) {
            double x = q[i];
            dst[i] = OMAHA_SHARE(x, inv[i], uniform);
        }
    } else {
        for (int i = 0; i < n; i++) {
            double x = q[i];
            dst[i] = OMAHA_SHARE(x, inv[i], uniform) * reach[i];
        }
    }
}

/* out[off + i] = the strategy's mean of the children's values rows[a][off + i] (two or
   three actions: the rows held in locals, so that the loop reads no pointer) */
OMAHA_INLINE void omaha_value16_c(int c, const int16_t* const* q, const double* const* rows,
                                  int off, int n, const double* OMAHA_RESTRICT inv,
                                  double* OMAHA_RESTRICT out, double uniform) {
    if (c == 2 || c == 3) {
        const int16_t* q0 = q[0] + off;
        const int16_t* q1 = q[1] + off;
        const int16_t* q2 = q[c - 1] + off;
        const double* r0 = rows[0] + off;
        const double* r1 = rows[1] + off;
        const double* r2 = rows[c - 1] + off;
        out += off;
        for (int i = 0; i < n; i++) {
            double x0 = q0[i], x1 = q1[i], x2 = q2[i], w = inv[i];
            double v = OMAHA_SHARE(x0, w, uniform) * r0[i] + OMAHA_SHARE(x1, w, uniform) * r1[i];
            out[i] = c == 3 ? v + OMAHA_SHARE(x2, w, uniform) * r2[i] : v;
        }
        return;
    }
    for (int i = 0; i < n; i++) {
        double v = 0.0;
        for (int a = 0; a < c; a++) {
            double x = q[a][off + i];
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
                                 const double* OMAHA_RESTRICT own,
                                 const double* OMAHA_RESTRICT inv,
                                 const double* OMAHA_RESTRICT value,
                                 double* OMAHA_RESTRICT row, double ss, double pos, double neg,
                                 double uniform, int n, double* top_r, double* top_s) {
    double most_r = top_r[0], most_s = top_s[0];
    for (int i = 0; i < n; i++) {
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

/* One action's row rounded into 16 bits (pointers at the chunk's first hand): the strategy
   sum (from the old regret, read before it is overwritten) and the new regret in `row`, at
   steps 1/per_s and 1/per_r */
OMAHA_INLINE void omaha_store16(int16_t* OMAHA_RESTRICT q, uint16_t* OMAHA_RESTRICT u,
                                const double* OMAHA_RESTRICT own,
                                const double* OMAHA_RESTRICT inv,
                                const double* OMAHA_RESTRICT row, double ss, double per_s,
                                double per_r, double uniform, int n) {
    for (int i = 0; i < n; i++) {
        double x = q[i];
        double y = (u[i] * ss + own[i] * OMAHA_SHARE(x, inv[i], uniform)) * per_s;
        u[i] = (uint16_t)(int32_t)(y + 0.5);
        y = row[i] * per_r;
        int32_t r = (int32_t)(fabs(y) + 0.5);   /* to nearest, halves away from zero */
        q[i] = (int16_t)(y >= 0.0 ? r : -r);
    }
}

/* The first pass of a node's update (hands lo..hi-1): the node's values into out, the new
   regrets into rows, their largest size and the largest new strategy sum into top_r and
   top_s. */
OMAHA_INLINE void omaha_update16_first_c(int c, const int16_t* const* q,
                                         const uint16_t* const* u, double* const* rows,
                                         const double* own, double* out, double ss,
                                         double pos, double neg, int lo, int hi,
                                         double* top_r, double* top_s) {
    double uniform = 1.0 / c;
    double inv[OMAHA_CHUNK];
    top_r[0] = 0.0;
    top_s[0] = 0.0;
    for (int off = lo; off < hi; off += OMAHA_CHUNK) {
        int n = hi - off > OMAHA_CHUNK ? OMAHA_CHUNK : hi - off;
        omaha_norms16_c(c, q, off, n, inv);
        omaha_value16_c(c, q, (const double* const*)rows, off, n, inv, out, uniform);
        for (int a = 0; a < c; a++)
            omaha_regret16(q[a] + off, u[a] + off, own + off, inv, out + off, rows[a] + off,
                           ss, pos, neg, uniform, n, top_r, top_s);
    }
}

static OMAHA_FINITE void omaha_update16_first(int c, const int16_t* const* q,
                                              const uint16_t* const* u, double* const* rows,
                                              const double* own, double* out, double ss,
                                              double pos, double neg, int lo, int hi,
                                              double* top_r, double* top_s) {
    if (c == 2)
        omaha_update16_first_c(2, q, u, rows, own, out, ss, pos, neg, lo, hi, top_r, top_s);
    else if (c == 3)
        omaha_update16_first_c(3, q, u, rows, own, out, ss, pos, neg, lo, hi, top_r, top_s);
    else
        omaha_update16_first_c(c, q, u, rows, own, out, ss, pos, neg, lo, hi, top_r, top_s);
}

/* The second pass (hands lo..hi-1): the new regrets in rows and the new strategy sums
   rounded into 16 bits; the normalizers of the old regrets computed again, a chunk at a
   time, rather than kept in memory between the passes. */
OMAHA_INLINE void omaha_update16_second_c(int c, int16_t* const* q, uint16_t* const* u,
                                          const double* const* rows, const double* own,
                                          double ss, double per_s, double per_r, int lo,
                                          int hi) {
    double uniform = 1.0 / c;
    double inv[OMAHA_CHUNK];
    for (int off = lo; off < hi; off += OMAHA_CHUNK) {
        int n = hi - off > OMAHA_CHUNK ? OMAHA_CHUNK : hi - off;
        omaha_norms16_c(c, (const int16_t* const*)q, off, n, inv);
        for (int a = 0; a < c; a++)
            omaha_store16(q[a] + off, u[a] + off, own + off, inv, rows[a] + off, ss, per_s,
                          per_r, uniform, n);
    }
}

static OMAHA_FINITE void omaha_update16_second(int c, int16_t* const* q, uint16_t* const* u,
                                               const double* const* rows, const double* own,
                                               double ss, double per_s, double per_r, int lo,
                                               int hi) {
    if (c == 2)
        omaha_update16_second_c(2, q, u, rows, own, ss, per_s, per_r, lo, hi);
    else if (c == 3)
        omaha_update16_second_c(3, q, u, rows, own, ss, per_s, per_r, lo, hi);
    else
        omaha_update16_second_c(c, q, u, rows, own, ss, per_s, per_r, lo, hi);
}

/* inv[i] for hands lo..hi-1 (see omaha_norms16_c), kept in memory by the caller */
static OMAHA_FINITE void omaha_norms16(int c, const int16_t* const* q, double* inv, int lo,
                                       int hi) {
    if (c == 2)
        omaha_norms16_c(2, q, lo, hi - lo, inv + lo);
    else if (c == 3)
        omaha_norms16_c(3, q, lo, hi - lo, inv + lo);
    else
        omaha_norms16_c(c, q, lo, hi - lo, inv + lo);
}

/* dst[i] = the probability of the action of row q at hand i times times[i], hands lo..hi-1
   (inv from omaha_norms16) */
static OMAHA_FINITE void omaha_times16(const int16_t* q, const double* inv,
                                       const double* times, double* dst, double uniform,
                                       int lo, int hi) {
    omaha_share16(q + lo, inv + lo, times + lo, dst + lo, uniform, hi - lo);
}

/* Regret matching at a node into rows[a] (times reach if given), hands lo..hi-1 */
static OMAHA_FINITE void omaha_split16(int c, const int16_t* const* q, const double* reach,
                                       double* const* rows, int lo, int hi) {
    double uniform = 1.0 / c;
    double inv[OMAHA_CHUNK];
    for (int off = lo; off < hi; off += OMAHA_CHUNK) {
        int n = hi - off > OMAHA_CHUNK ? OMAHA_CHUNK : hi - off;
        if (c == 2)
            omaha_norms16_c(2, q, off, n, inv);
        else if (c == 3)
            omaha_norms16_c(3, q, off, n, inv);
        else
            omaha_norms16_c(c, q, off, n, inv);
        for (int a = 0; a < c; a++)
            omaha_share16(q[a] + off, inv, reach ? reach + off : 0, rows[a] + off, uniform, n);
    }
}

#endif
