/*
 * The C side of bench/eval_speed.py's batch comparison: a plain C loop that calls a peer's
 * compiled evaluator once per hand over a whole numpy array and times itself, so the peer's
 * batch rate is measured without any Python in the loop (felt's numba batch has none either).
 *
 * Built at bench time with the system cc into a shared library and called once per batch through
 * ctypes.  The evaluator is passed in as a function pointer taken from the peer's own shared
 * library (phevaluator's evaluate_5cards / evaluate_7cards), so no peer code is copied here.
 */

#include <stdint.h>
#include <time.h>

typedef int (*eval5_fn)(int, int, int, int, int);
typedef int (*eval7_fn)(int, int, int, int, int, int, int);

static double seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: as the Python side times */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Evaluate n five-card rows of `hands` (row-major uint8) into `out`; return the seconds taken. */
double loop5(void *fn, const uint8_t *hands, int64_t n, uint16_t *out) {
    eval5_fn eval = (eval5_fn)fn;
    double start = seconds();
    for (int64_t i = 0; i < n; i++) {
        const uint8_t *h = hands + 5 * i;
        out[i] = (uint16_t)eval(h[0], h[1], h[2], h[3], h[4]);
    }
    return seconds() - start;
}

/* Evaluate n seven-card rows of `hands` (row-major uint8) into `out`; return the seconds taken. */
double loop7(void *fn, const uint8_t *hands, int64_t n, uint16_t *out) {
    eval7_fn eval = (eval7_fn)fn;
    double start = seconds();
    for (int64_t i = 0; i < n; i++) {
        const uint8_t *h = hands + 7 * i;
        out[i] = (uint16_t)eval(h[0], h[1], h[2], h[3], h[4], h[5], h[6]);
    }
    return seconds() - start;
}
