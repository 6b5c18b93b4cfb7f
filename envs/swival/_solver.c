/* Exact win/draw/loss solver for Swival; loaded by envs/swival/solver.py.
 *
 * It mirrors envs/swival/rules.py (keep the two in step):
 *   - Each player's counters are a 24-bit board: bit ring*8 + k, ring 0 outer,
 *     1 middle (the one that swivels), 2 inner. A line is one spoke: bits k,
 *     8+k and 16+k.
 *   - Position = (me, op), `me` to move.
 *     - If me has a line, me wins (it takes the win action).
 *     - Else, if the board is full, the game is a draw.
 *     - Else me places a counter on an empty cell and may then swivel the
 *       middle ring one step left (k -> k-1) or right (k -> k+1). The swivel
 *       is allowed only if me had a counter before placing, and either me
 *       already has a middle counter or the placed cell is on the middle ring.
 *       A swivel turns both players' middle counters.
 *
 * Search: negamax alpha-beta over {-1, 0, 1}. The transposition table holds
 * lower/upper bounds in 2-entry buckets (depth-preferred + always-replace), and
 * a generation counter gives each solve a fresh table without clearing it.
 * Move generation:
 *   - skips a move that gives the opponent a line (it loses);
 *   - returns a win at once for a move that makes a line the opponent cannot
 *     break (it cannot swivel, or the line survives both swivels), unless that
 *     move fills the board (then it is a draw);
 *   - tries the moves that make a line first.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef uint32_t u32;
typedef uint64_t u64;

#define FULLB 0xFFFFFFu
#define MIDM 0xFF00u
#define ABORT 9      /* sw_solve: the time limit ran out */
#define NO_TABLE (-2) /* sw_solve: the table could not be allocated */
#define DEFAULT_LOG2 20

static inline int has_line(u32 b) { return (b & (b >> 8) & (b >> 16) & 0xFFu) != 0; }

/* Turn the middle ring: d = 0 none, 1 left (k -> k-1), 2 right (k -> k+1). */
static inline u32 swivel(u32 b, int d) {
    if (!d) return b;
    u32 m = (b >> 8) & 0xFF;
    if (d == 1) m = (m >> 1) | ((m & 1) << 7);
    else m = ((m << 1) & 0xFF) | (m >> 7);
    return (b & ~MIDM) | (m << 8);
}

/* ---------- transposition table ---------- */
typedef struct { u64 key; int8_t lo, hi; uint8_t depth; uint8_t gen; } Entry;
static Entry *tt = NULL;
static u64 tt_mask = 0;
static uint8_t gen = 1;

/* Allocate a table of 2**log2size entries (16 bytes each). 0 on success, -1 on failure. */
int sw_init(int log2size) {
    if (log2size < 1 || log2size > 40) return -1;
    if (tt) { free(tt); tt = NULL; }
    u64 n = (u64)1 << log2size;
    tt = (Entry *)calloc(n, sizeof(Entry));
    if (!tt) return -1;
    tt_mask = (n - 1) & ~(u64)1; /* buckets of 2 */
    return 0;
}

/* Forget every stored result (cheaply: entries of older generations are ignored). */
void sw_new_generation(void) {
    gen++;
    if (gen == 0) {
        gen = 1;
        if (tt) memset(tt, 0, (tt_mask + 2) * sizeof(Entry));
    }
}

static inline u64 hash(u64 k) { k ^= k >> 31; k *= 0x9E3779B97F4A7C15ull; k ^= k >> 29; return k; }

static inline Entry *tt_probe(u64 key) {
    Entry *b = &tt[hash(key) & tt_mask];
    if (b[0].gen == gen && b[0].key == key) return &b[0];
    if (b[1].gen == gen && b[1].key == key) return &b[1];
    return NULL;
}

static inline void tt_store(u64 key, int lo, int hi, int depth) {
    Entry *b = &tt[hash(key) & tt_mask];
    Entry *e;
    if (b[0].gen == gen && b[0].key == key) e = &b[0];
    else if (b[1].gen == gen && b[1].key == key) e = &b[1];
    else if (b[0].gen != gen || depth >= b[0].depth) { b[1] = b[0]; e = &b[0]; }
    else e = &b[1];
    e->key = key; e->lo = (int8_t)lo; e->hi = (int8_t)hi; e->depth = (uint8_t)depth; e->gen = gen;
}

/* ---------- time limit ---------- */
static u64 nodes;
static double deadline;
static int aborted;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int check_abort(void) {
    if (aborted) return 1;
    if ((nodes & 4095) == 0 && now() > deadline) aborted = 1;
    return aborted;
}

/* Nodes visited by the last sw_solve. */
u64 sw_nodes(void) { return nodes; }

/* ---------- move generation ---------- */
typedef struct { u32 m, o; } Move;

/* After my move to (m2, o2), where m2 has a line, o2 has none and the board is
 * not full: true if the opponent cannot break my line, so I win next turn. */
static inline int unbreakable(u32 m2, u32 o2) {
    u32 empty = ~(m2 | o2) & FULLB;
    int opp_can_swivel = o2 != 0 && ((o2 & MIDM) || (empty & MIDM));
    if (!opp_can_swivel) return 1;
    return has_line(swivel(m2, 1)) && has_line(swivel(m2, 2));
}

/* Fills mv with the moves worth searching (line-making moves first, otherwise
 * in cell order) and returns their number; sets *quick_win and returns 0 when
 * a move wins at once. */
static int gen_moves(u32 me, u32 op, Move *mv, int *quick_win) {
    u32 empty = ~(me | op) & FULLB;
    Move rest[72];
    int n = 0, nrest = 0;
    int me_mid = (me & MIDM) != 0;
    *quick_win = 0;
    while (empty) {
        int c = __builtin_ctz(empty);
        empty &= empty - 1;
        u32 bit = 1u << c;
        int nd = (me != 0 && (me_mid || (c >= 8 && c < 16))) ? 3 : 1;
        for (int d = 0; d < nd; d++) {
            u32 m2 = swivel(me | bit, d), o2 = swivel(op, d);
            if (has_line(o2)) continue; /* the opponent wins at once */
            if (has_line(m2)) {
                if ((m2 | o2) != FULLB && unbreakable(m2, o2)) { *quick_win = 1; return 0; }
                mv[n].m = m2; mv[n].o = o2; n++;
            } else {
                rest[nrest].m = m2; rest[nrest].o = o2; nrest++;
            }
        }
    }
    memcpy(mv + n, rest, nrest * sizeof(Move));
    return n + nrest;
}

/* ---------- search ---------- */
static int search(u32 me, u32 op, int alpha, int beta) {
    nodes++;
    if (has_line(me)) return 1;
    u32 occ = me | op;
    if (occ == FULLB) return 0;
    if (check_abort()) return 0;
    int depth = 24 - __builtin_popcount(occ);
    u64 key = ((u64)me << 24) | op;
    Entry *e = tt_probe(key);
    if (e) {
        if (e->lo == e->hi) return e->lo;
        if (e->lo >= beta) return e->lo;
        if (e->hi <= alpha) return e->hi;
        if (e->lo > alpha) alpha = e->lo;
        if (e->hi < beta) beta = e->hi;
    }
    int alpha0 = alpha;
    Move mv[72];
    int quick_win;
    int n = gen_moves(me, op, mv, &quick_win);
    if (quick_win) { tt_store(key, 1, 1, depth); return 1; }
    if (n == 0) { tt_store(key, -1, -1, depth); return -1; } /* every move hands over a line */
    int best = -1;
    for (int i = 0; i < n; i++) {
        int v = -search(mv[i].o, mv[i].m, -beta, -alpha);
        if (aborted) return 0;
        if (v > best) best = v;
        if (best > alpha) alpha = best;
        if (alpha >= beta) break;
    }
    if (best <= alpha0) tt_store(key, -1, best, depth);
    else if (best >= beta) tt_store(key, best, 1, depth);
    else tt_store(key, best, best, depth);
    return best;
}

/* Exact value for the side to move: 1 win, 0 draw, -1 loss; ABORT (9) if
 * `seconds` ran out, NO_TABLE (-2) if no table could be allocated. Results of
 * the current generation are reused; call sw_new_generation() for a fresh one. */
int sw_solve(u32 me, u32 op, double seconds) {
    if (!tt && sw_init(DEFAULT_LOG2) != 0) return NO_TABLE;
    nodes = 0;
    aborted = 0;
    deadline = now() + seconds;
    int v = search(me & FULLB, op & FULLB, -1, 1);
    return aborted ? ABORT : v;
}
