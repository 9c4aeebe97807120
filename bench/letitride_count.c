/* The peer of bench/letitride_speed.py: Let It Ride Poker's exact optimal return at felt's
 * minimum table (pays 1000/200/50/11/8/5/3/2/1 to 1, no payout limit binding), counted
 * independently of felt: every three-card hand, every first community card, every second, each
 * five-card hand classified by its own rank counts (51,979,200 classifications), the second
 * wager ridden on four cards when its own expectation is positive, the first on three when its
 * own is (the wagers are independent without a binding limit; ties take back).
 *
 * Prints the total result over every deal in units of one wager, and how many of the 22,100
 * three-card hands let the first wager ride.  Build: cc -O2 -o letitride_count letitride_count.c
 */
#include <stdio.h>

static const int PAYS[10] = {1000, 200, 50, 11, 8, 5, 3, 2, 1, -1};

/* The pay line (0 royal flush .. 8 a pair of tens or better, 9 loses) of five cards 0-51
 * (rank = card / 4, two = 0 .. ace = 12; suit = card % 4). */
static int line_of(const int *c) {
    int count[13] = {0};
    int mask = 0, flush = 1;
    for (int i = 0; i < 5; i++) {
        count[c[i] >> 2]++;
        mask |= 1 << (c[i] >> 2);
        if ((c[i] & 3) != (c[0] & 3)) flush = 0;
    }
    int pairs = 0, trips = 0, quads = 0, high_pair = 0;
    for (int r = 0; r < 13; r++) {
        if (count[r] == 2) { pairs++; if (r >= 8) high_pair = 1; }
        if (count[r] == 3) trips++;
        if (count[r] == 4) quads++;
    }
    int straight = 0;
    if (!pairs && !trips && !quads) {
        int low = __builtin_ctz(mask), top = 31 - __builtin_clz(mask);
        straight = (top - low == 4) || mask == 0x100F; /* A-2-3-4-5 */
    }
    if (straight && flush) return (mask == 0x1F00) ? 0 : 1;
    if (quads) return 2;
    if (trips && pairs) return 3;
    if (flush) return 4;
    if (straight) return 5;
    if (trips) return 6;
    if (pairs == 2) return 7;
    if (pairs == 1 && high_pair) return 8;
    return 9;
}

int main(void) {
    long long total = 0; /* units of one wager over every deal */
    int first_rides = 0;
    int c[5];
    for (c[0] = 0; c[0] < 52; c[0]++)
    for (c[1] = c[0] + 1; c[1] < 52; c[1]++)
    for (c[2] = c[1] + 1; c[2] < 52; c[2]++) {
        long long three = 0;  /* one wager's result over the 2,352 completions */
        long long second = 0; /* the second wager's, played best, over them */
        for (c[3] = 0; c[3] < 52; c[3]++) {
            if (c[3] == c[0] || c[3] == c[1] || c[3] == c[2]) continue;
            long long four = 0;
            for (c[4] = 0; c[4] < 52; c[4]++) {
                if (c[4] == c[0] || c[4] == c[1] || c[4] == c[2] || c[4] == c[3]) continue;
                four += PAYS[line_of(c)];
            }
            three += four;
            if (four > 0) second += four;
        }
        /* the third wager always; the second where it pays; the first where it pays */
        total += three + second + (three > 0 ? three : 0);
        first_rides += three > 0;
    }
    printf("total result %lld units; first rides on %d of 22100 three-card hands\n", total,
           first_rides);
    return 0;
}
