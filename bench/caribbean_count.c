/* The peer of bench/caribbean_speed.py: an exact count of Caribbean Stud Poker's
 * 19,933,230,517,200 deals under the optimal bet/fold decision, written independently of felt
 * and by a different method.
 *
 * felt sweeps the hands in increasing value keeping running counts; this program instead builds,
 * once, for every set T of one to four cards the sorted list of the values of the five-card
 * hands holding T, and answers "how many hands holding T are valued below x" by binary search.
 * For a player hand P (one per suit class, weighted by the class's size) and an up card u, the
 * dealer hands (u and four cards avoiding P) below x number, by inclusion-exclusion over the
 * subsets S of P, sum (-1)^|S| below(S + {u}, x), the four-card S adding 1 when the hand S + {u}
 * is itself below x.  Asked at the qualifier (A-K-4-3-2: searched once per set, the same for
 * every P), at P's value and just above it (walking on from P's value past the hands equal to it).
 *
 * Hand values come from its own evaluator (category, then the ranks by count and rank), ranked
 * densely.  Minimum pay table: bet pays 100/50/20/7/5/4/3/2/1/1 to 1.
 *
 * Build: cc -O2 -o caribbean_count caribbean_count.c    Run: ./caribbean_count
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HANDS 2598960
#define DEALER 163185LL

static int64_t binom[53][7];
static uint16_t value[HANDS];    /* by colex index; 1 = lowest */
static int category[8000];       /* by value: 0 high card .. 8 straight flush, 9 royal */
static uint8_t cards_of[HANDS][5];
static uint16_t *list[5];        /* list[k]: sets of k cards, each C(52-k, 5-k) values long */
static int64_t list_len[5];

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* category * 16^5 + the five ranks ordered by (count, rank), highest first */
static int key_of(const uint8_t *c, int *cat_out) {
    int count[13] = {0}, suit0 = c[0] & 3, flush = 1;
    for (int i = 0; i < 5; i++) {
        count[c[i] >> 2]++;
        if ((c[i] & 3) != suit0) flush = 0;
    }
    int order[5], n = 0;
    for (int times = 4; times >= 1; times--)
        for (int r = 12; r >= 0; r--)
            if (count[r] == times)
                for (int k = 0; k < times; k++) order[n++] = r;
    int distinct = count[order[0]] == 1;
    int straight = distinct && order[0] - order[4] == 4;
    if (distinct && order[0] == 12 && order[1] == 3) { /* A-5-4-3-2 */
        straight = 1;
        order[0] = 3; order[1] = 2; order[2] = 1; order[3] = 0; order[4] = 0;
    }
    int top = count[order[0]], second = n > 1 ? count[order[top]] : 0, cat;
    if (straight && flush) cat = 8;
    else if (top == 4) cat = 7;
    else if (top == 3 && second == 2) cat = 6;
    else if (flush) cat = 5;
    else if (straight) cat = 4;
    else if (top == 3) cat = 3;
    else if (top == 2 && second == 2) cat = 2;
    else if (top == 2) cat = 1;
    else cat = 0;
    if (cat == 8 && order[0] == 12) cat = 9;
    *cat_out = cat;
    int key = cat;
    for (int i = 0; i < 5; i++) key = key * 16 + order[i];
    return key;
}

static int64_t colex(const int *c, int k) {
    int64_t x = 0;
    for (int i = 0; i < k; i++) x += binom[c[i]][i + 1];
    return x;
}

/* hands in the sorted list l (of len values) valued below x */
static int64_t below(const uint16_t *l, int64_t len, int x) {
    int64_t lo = 0, hi = len;
    while (lo < hi) {
        int64_t mid = (lo + hi) >> 1;
        if (l[mid] < x) lo = mid + 1; else hi = mid;
    }
    return lo;
}

static int insert(const int *s, int k, int u, int *out) { /* s + {u}, ascending */
    int n = 0, done = 0;
    for (int i = 0; i < k; i++) {
        if (!done && u < s[i]) { out[n++] = u; done = 1; }
        out[n++] = s[i];
    }
    if (!done) out[n++] = u;
    return n;
}

int main(void) {
    for (int n = 0; n < 53; n++) {
        binom[n][0] = 1;
        for (int k = 1; k < 7; k++) binom[n][k] = n ? binom[n - 1][k - 1] + binom[n - 1][k] : 0;
    }
    /* every hand in colex order, its key, then dense values */
    static int keys[HANDS], sorted[HANDS], cats[HANDS];
    int64_t h = 0;
    for (int e = 4; e < 52; e++) for (int d = 3; d < e; d++) for (int c = 2; c < d; c++)
        for (int b = 1; b < c; b++) for (int a = 0; a < b; a++, h++) {
            uint8_t *x = cards_of[h];
            x[0] = a; x[1] = b; x[2] = c; x[3] = d; x[4] = e;
            keys[h] = key_of(x, &cats[h]);
        }
    memcpy(sorted, keys, sizeof keys);
    qsort(sorted, HANDS, sizeof(int), cmp_int);
    int distinct = 0;
    for (int i = 0; i < HANDS; i++)
        if (i == 0 || sorted[i] != sorted[i - 1]) sorted[distinct++] = sorted[i];
    for (int64_t i = 0; i < HANDS; i++) {
        int v = (int)((int *)bsearch(&keys[i], sorted, distinct, sizeof(int), cmp_int) - sorted) + 1;
        value[i] = (uint16_t)v;
        category[v] = cats[i];
    }
    int ak432[5] = {1, 4, 8, 44, 48}; /* 2d 3c 4c Kc Ac */
    int q = value[colex(ak432, 5)];
    fprintf(stderr, "%d distinct hand values; A-K-4-3-2 is value %d\n", distinct, q);

    /* the sorted value lists: hands taken in increasing value, appended to each subset's list */
    static int by_value[HANDS];
    {
        static int64_t start[8002];
        for (int64_t i = 0; i < HANDS; i++) start[value[i] + 1]++;
        for (int v = 0; v < 8001; v++) start[v + 1] += start[v];
        for (int64_t i = 0; i < HANDS; i++) by_value[start[value[i]]++] = (int)i;
    }
    int64_t *fill[5];
    for (int k = 1; k <= 4; k++) {
        list_len[k] = binom[52 - k][5 - k];
        list[k] = malloc(sizeof(uint16_t) * binom[52][k] * list_len[k]);
        fill[k] = calloc(binom[52][k], sizeof(int64_t));
    }
    for (int64_t r = 0; r < HANDS; r++) {
        int64_t i = by_value[r];
        for (int mask = 1; mask < 31; mask++) {
            int s[5], k = 0;
            for (int j = 0; j < 5; j++) if (mask >> j & 1) s[k++] = cards_of[i][j];
            if (k > 4) continue;
            int64_t idx = colex(s, k);
            list[k][idx * list_len[k] + fill[k][idx]++] = value[i];
        }
    }

    /* each list's count below the qualifier, the same for every player hand */
    int32_t *below_q[5];
    for (int k = 1; k <= 4; k++) {
        below_q[k] = malloc(sizeof(int32_t) * binom[52][k]);
        for (int64_t idx = 0; idx < binom[52][k]; idx++)
            below_q[k][idx] = (int32_t)below(list[k] + idx * list_len[k], list_len[k], q);
    }

    /* the player hands, one per suit class */
    static const int64_t pays[10] = {1, 1, 2, 3, 4, 5, 7, 20, 50, 100};
    int64_t nq_total = 0, win_by[10] = {0}, push_total = 0, lose_total = 0, fold_total = 0;
    int64_t net = 0, classes = 0, hands_seen = 0;
    for (int64_t i = 0; i < HANDS; i++) {
        int m[4] = {0};
        for (int j = 0; j < 5; j++) m[cards_of[i][j] & 3] |= 1 << (cards_of[i][j] >> 2);
        if (!(m[0] >= m[1] && m[1] >= m[2] && m[2] >= m[3])) continue;
        int fixing = 1, run = 1;
        for (int s = 1; s < 4; s++) {
            if (m[s] == m[s - 1]) fixing *= ++run; else run = 1;
        }
        int64_t weight = 24 / fixing;
        classes++;
        hands_seen += weight;
        int p[5];
        for (int j = 0; j < 5; j++) p[j] = cards_of[i][j];
        int v = value[i], cat = category[v];
        int64_t k = pays[cat];
        int subset[31][5], size[31]; /* the subsets of P but P itself, ascending */
        for (int mask = 0; mask < 31; mask++) {
            size[mask] = 0;
            for (int j = 0; j < 5; j++) if (mask >> j & 1) subset[mask][size[mask]++] = p[j];
        }
        for (int u = 0; u < 52; u++) {
            if (u == p[0] || u == p[1] || u == p[2] || u == p[3] || u == p[4]) continue;
            int64_t n[3] = {0, 0, 0};
            int xs[3] = {q, v, v + 1};
            for (int mask = 0; mask < 31; mask++) {
                int t[6], sz = size[mask];
                int tn = insert(subset[mask], sz, u, t);
                int sign = (sz & 1) ? -1 : 1;
                if (sz <= 3) {
                    int64_t idx = colex(t, tn);
                    const uint16_t *l = list[tn] + idx * list_len[tn];
                    int64_t at_q = below_q[tn][idx], at_v = below(l, list_len[tn], v);
                    int64_t upto = at_v; /* then past the (few) hands of value exactly v */
                    while (upto < list_len[tn] && l[upto] <= v) upto++;
                    n[0] += sign * at_q;
                    n[1] += sign * at_v;
                    n[2] += sign * upto;
                } else {
                    int tv = value[colex(t, 5)];
                    for (int z = 0; z < 3; z++) n[z] += sign * (tv < xs[z]);
                }
            }
            int64_t a = n[0], lo = n[1] > a ? n[1] : a, hi = n[2] > a ? n[2] : a;
            int64_t win = lo - a, push = hi - lo, lose = DEALER - hi;
            int64_t bet = a + win * (1 + 2 * k) - 3 * lose;
            if (bet > -DEALER) {
                nq_total += weight * a;
                win_by[cat] += weight * win;
                push_total += weight * push;
                lose_total += weight * lose;
                net += weight * bet;
            } else {
                fold_total += weight * DEALER;
                net -= weight * DEALER;
            }
        }
    }
    int64_t deals = nq_total + push_total + lose_total + fold_total;
    for (int c = 0; c < 10; c++) deals += win_by[c];
    printf("classes %lld hands %lld deals %lld\n", (long long)classes, (long long)hands_seen,
           (long long)deals);
    const char *names[10] = {"high card", "one pair", "two pair", "three of a kind", "straight",
                             "flush", "full house", "four of a kind", "straight flush",
                             "royal flush"};
    for (int c = 9; c >= 0; c--) printf("win %s %lld\n", names[c], (long long)win_by[c]);
    printf("dealer does not qualify %lld\npush %lld\nfold %lld\ndealer wins %lld\n",
           (long long)nq_total, (long long)push_total, (long long)fold_total,
           (long long)lose_total);
    printf("total result %lld antes\n", (long long)net);
    return 0;
}
