/*
 * The classic hard player's ISMCTS in C: the twin of tui_domino/ai/classic_search.py
 * (search_python), step for step. It reads the caller's Mersenne Twister state (the list of
 * random.Random.getstate()[1]), draws from it exactly as random.random() does, call for call
 * where the Python code calls it, and writes the state back, so both give the same move, the
 * same statistics and the same generator state afterwards. Floating point is done in the same
 * order with the same libm functions (log, sqrt, tanh); build without contracting a*b+c.
 *
 * A compact move is tile*2 (left end, or the centre of an empty line), tile*2+1 (right end),
 * -1 to draw, -2 to pass. Tiles are 0..27 as in tui_domino.rules.dominoes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define DRAW_M (-1)
#define PASS_M (-2)
#define DRAWN 64
#define NO_END 7
#define NTILES 28
#define MAXMOVES 64

/* -- the tiles ---------------------------------------------------------------------------- */

static uint32_t NUM[8];
static int PIPS[NTILES], TA[NTILES], TB[NTILES];

static void init_tables(void)
{
    int i = 0;
    memset(NUM, 0, sizeof NUM);
    for (int a = 0; a < 7; a++)
        for (int b = a; b < 7; b++, i++) {
            TA[i] = a;
            TB[i] = b;
            PIPS[i] = a + b;
            NUM[a] |= 1u << i;
            NUM[b] |= 1u << i;
        }
}

static inline int ctz32(uint32_t m)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(m);
#else
    int n = 0;
    while (!(m & 1u)) { m >>= 1; n++; }
    return n;
#endif
}

static inline int popcount32(uint32_t m)
{
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcount(m);
#else
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
#endif
}

static inline int pips_of(uint32_t m)
{
    int s = 0;
    while (m) { s += PIPS[ctz32(m)]; m &= m - 1; }
    return s;
}

/* -- random.random(), exactly ---------------------------------------------------------- */

#define MT_N 624
#define MT_M 397

typedef struct { uint32_t mt[MT_N]; int index; } MT;

static uint32_t genrand_uint32(MT *s)
{
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    uint32_t y;
    uint32_t *mt = s->mt;
    if (s->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1u];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1u];
        }
        y = (mt[MT_N - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1u];
        s->index = 0;
    }
    y = mt[s->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

static inline double rnd(MT *s)
{
    uint32_t a = genrand_uint32(s) >> 5, b = genrand_uint32(s) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* int(random() * n) */
static inline int pick(MT *s, int n) { return (int)(rnd(s) * n); }

/* -- the search's parameters and the round being played out -------------------------- */

typedef struct {
    int me;
    uint32_t hand, hidden;
    int opp_size, left, right, forced, reserve, pts[2];
    double ucb_c, win, scale, greedy;
    int block, split_draws;
    int has_match, totals[2], target;
    /* the sampler: a weighted pool, or nested groups */
    Py_ssize_t npool;
    uint32_t *pool;
    double *cum;
    double *erratic, erratic_all; /* the chance he plays at random: per pool hand, or for all */
    int ngroups;
    int *group_n, *group_len;
    int (*group_tiles)[NTILES];
    int hidden_tiles[NTILES], nhidden;
} Params;

typedef struct {
    uint32_t hands[2];
    int left, right, p, forced;
    int bz[NTILES], bp, nbz, reserve;
    int points[2], winner, over;
} Round;

static int legal_moves(uint32_t hand, int left, int right, int forced, int can_draw, int *out)
{
    int n = 0;
    uint32_t m;
    if (left == NO_END) {
        if (forced >= 0) { out[0] = forced * 2; return 1; }
        for (m = hand; m; m &= m - 1) out[n++] = ctz32(m) * 2;
        return n;
    }
    for (m = hand & NUM[left]; m; m &= m - 1) out[n++] = ctz32(m) * 2;
    for (m = hand & NUM[right]; m; m &= m - 1) out[n++] = ctz32(m) * 2 + 1;
    if (n) return n;
    out[0] = can_draw ? DRAW_M : PASS_M;
    return 1;
}

static inline int round_legal(const Round *r, int *out)
{
    return legal_moves(r->hands[r->p], r->left, r->right, r->forced,
                       r->nbz - r->bp > r->reserve, out);
}

static inline void round_end(Round *r, int winner, int points)
{
    r->over = 1;
    r->winner = winner;
    if (winner >= 0) r->points[winner] += points;
}

static void round_check_blocked(Round *r)
{
    uint32_t ends;
    int p0, p1;
    if (r->nbz - r->bp > r->reserve) return;
    ends = NUM[r->left] | NUM[r->right];
    if ((r->hands[0] & ends) || (r->hands[1] & ends)) return;
    p0 = pips_of(r->hands[0]);
    p1 = pips_of(r->hands[1]);
    if (p0 < p1) round_end(r, 0, p1 - p0);
    else if (p1 < p0) round_end(r, 1, p0 - p1);
    else round_end(r, -1, 0);
}

static inline int round_draw(Round *r, MT *s)
{
    int bp = r->bp;
    int j = bp + pick(s, r->nbz - bp);
    int t = r->bz[j];
    r->bz[j] = r->bz[bp];
    r->bz[bp] = t;
    r->bp = bp + 1;
    return t;
}

static void round_play(Round *r, int m, MT *s)
{
    int p = r->p, t, a, b;
    uint32_t hand;
    if (m == DRAW_M) {
        r->hands[p] |= 1u << round_draw(r, s);
        round_check_blocked(r);
        return;
    }
    if (m == PASS_M) {
        r->p = 1 - p;
        round_check_blocked(r);
        return;
    }
    t = m >> 1;
    a = TA[t];
    b = TB[t];
    hand = r->hands[p] & ~(1u << t);
    r->hands[p] = hand;
    r->forced = -1;
    if (r->left == NO_END) {
        r->left = a;
        r->right = b;
    } else if (m & 1) {
        r->right = (a == r->right) ? b : a;
    } else {
        r->left = (b == r->left) ? a : b;
    }
    if (!hand) {
        round_end(r, p, pips_of(r->hands[1 - p]));
        return;
    }
    r->p = 1 - p;
    round_check_blocked(r);
}

static void blocking_choice(uint32_t opts, int left, int right, uint32_t other, int block,
                            int *tile, int *side)
{
    int best = -1;
    *tile = *side = 0;
    for (; opts; opts &= opts - 1) {
        int t = ctz32(opts), a = TA[t], b = TB[t], v = PIPS[t], sc;
        if (a == left || b == left) {
            sc = (other & (NUM[b == left ? a : b] | NUM[right])) ? v : v + block;
            if (sc > best) { best = sc; *tile = t; *side = 0; }
        }
        if (a == right || b == right) {
            sc = (other & (NUM[left] | NUM[a == right ? b : a])) ? v : v + block;
            if (sc > best) { best = sc; *tile = t; *side = 1; }
        }
    }
}

static inline int nth_bit(uint32_t m, int k)
{
    while (k--) m &= m - 1;
    return ctz32(m);
}

static void round_playout(Round *r, const Params *P, int erratic, MT *s)
{
    while (!r->over) {
        int p = r->p, left = r->left, right = r->right, t, side = -1, a, b;
        uint32_t hand = r->hands[p], fit;
        if (left == NO_END) {
            if (r->forced >= 0) {
                round_play(r, r->forced * 2, s);
            } else {
                round_play(r, nth_bit(hand, pick(s, popcount32(hand))) * 2, s);
            }
            continue;
        }
        fit = hand & (NUM[left] | NUM[right]);
        if (!fit) {
            round_play(r, r->nbz - r->bp > r->reserve ? DRAW_M : PASS_M, s);
            continue;
        }
        if ((fit & (fit - 1)) == 0) {
            t = ctz32(fit);
        } else if (P->greedy != 0.0 && p != erratic && rnd(s) < P->greedy) {
            if (P->block) {
                blocking_choice(fit, left, right, r->hands[1 - p], P->block, &t, &side);
            } else {
                uint32_t m;
                int bv = -1;
                t = 0;
                for (m = fit; m; m &= m - 1) {
                    int u = ctz32(m);
                    if (PIPS[u] > bv) { bv = PIPS[u]; t = u; }
                }
            }
        } else {
            t = nth_bit(fit, pick(s, popcount32(fit)));
        }
        a = TA[t];
        b = TB[t];
        if (side < 0) {
            if (a == left || b == left)
                side = ((a == right || b == right) && rnd(s) < 0.5) ? 1 : 0;
            else
                side = 1;
        }
        round_play(r, t * 2 + side, s);
    }
}

static double reward(const Params *P, const Round *r)
{
    int me = P->me, m;
    double w;
    if (P->has_match) {
        int n0 = P->totals[0] + r->points[0], n1 = P->totals[1] + r->points[1];
        if ((n0 > n1 ? n0 : n1) >= P->target && n0 != n1)
            return ((n0 > n1) == (me == 0)) ? 1.0 : -1.0;
    }
    m = r->points[me] - r->points[1 - me];
    w = r->winner < 0 ? 0.0 : (r->winner == me ? P->win : -P->win);
    return w + (1.0 - P->win) * tanh(m / P->scale);
}

static uint32_t deal(const Params *P, MT *s, int *erratic)
{
    uint32_t chosen = 0;
    int free_[NTILES], nfree, g, k, i;
    double q;
    if (P->npool) {
        double x = rnd(s) * P->cum[P->npool - 1];
        Py_ssize_t lo = 0, hi = P->npool;
        while (lo < hi) {
            Py_ssize_t mid = (lo + hi) / 2;
            if (x < P->cum[mid]) hi = mid; else lo = mid + 1;
        }
        if (lo > P->npool - 1) lo = P->npool - 1;
        q = P->erratic ? P->erratic[lo] : P->erratic_all;
        *erratic = q > 0.0 && rnd(s) < q;
        return P->pool[lo];
    }
    for (g = 0; g < P->ngroups; g++) {
        nfree = 0;
        for (k = 0; k < P->group_len[g]; k++) {
            int t = P->group_tiles[g][k];
            if (!(chosen >> t & 1u)) free_[nfree++] = t;
        }
        if (nfree < P->group_n[g]) {
            nfree = 0;
            for (k = 0; k < P->nhidden; k++) {
                int t = P->hidden_tiles[k];
                if (!(chosen >> t & 1u)) free_[nfree++] = t;
            }
        }
        for (k = 0; k < P->group_n[g]; k++) {
            if (nfree <= 0) break; /* cannot happen: the masks leave enough tiles */
            i = pick(s, nfree);
            chosen |= 1u << free_[i];
            free_[i] = free_[nfree - 1];
            nfree--;
        }
    }
    q = P->erratic_all;
    *erratic = q > 0.0 && rnd(s) < q;
    return chosen;
}

/* -- the tree ------------------------------------------------------------------------------ */

typedef struct {
    double w;
    int32_t n, avail, first, next;
    int16_t move;
    int8_t player;
} Node;

typedef struct { Node *v; Py_ssize_t len, cap; } Tree;

static int32_t tree_new(Tree *t, int move, int player)
{
    Node *nd;
    if (t->len == t->cap) {
        Py_ssize_t cap = t->cap ? t->cap * 2 : 4096;
        Node *v = (Node *)realloc(t->v, (size_t)cap * sizeof(Node));
        if (!v) return -1;
        t->v = v;
        t->cap = cap;
    }
    nd = &t->v[t->len];
    nd->w = 0.0;
    nd->n = 0;
    nd->avail = 1;
    nd->first = -1;
    nd->next = -1;
    nd->move = (int16_t)move;
    nd->player = (int8_t)player;
    return (int32_t)t->len++;
}

static inline int32_t child_of(const Tree *t, int32_t node, int move)
{
    int32_t c = t->v[node].first;
    while (c >= 0 && t->v[c].move != move) c = t->v[c].next;
    return c;
}

/* A new child ``move`` of ``node`` for ``player``: its index, or -1 out of memory. */
static int32_t tree_add(Tree *t, int32_t node, int move, int player)
{
    int32_t c = tree_new(t, move, player);
    if (c < 0) return -1;
    t->v[c].next = t->v[node].first;
    t->v[node].first = c;
    return c;
}

/* The child ``key`` of ``node`` in *out, made for ``player`` when there is none (as
   ``classic_search._step``): 1 if it was made now, 0 if it was there, -1 out of memory. */
static int tree_step(Tree *t, int32_t node, int key, int player, int32_t *out)
{
    int32_t c = child_of(t, node, key);
    if (c >= 0) { *out = c; return 0; }
    c = tree_add(t, node, key, player);
    if (c < 0) return -1;
    *out = c;
    return 1;
}

/* One more availability for each child already made of the moves ``legal`` at ``node``. */
static void count_available(Tree *t, int32_t node, const int *legal, int nlegal)
{
    for (int k = 0; k < nlegal; k++) {
        int32_t c = child_of(t, node, legal[k]);
        if (c >= 0) t->v[c].avail++;
    }
}

/* -- the Python entry point ------------------------------------------------------------- */

/* The largest number of points (of the round so far, a match total, a match target) and of
   pips (the playout's bonus for blocking) taken: classic_search.LIMIT. Sums of two fit an int. */
#define LIMIT 1000000000LL
#define FULL ((1u << NTILES) - 1u)

/* The int o in *v: 0; 1 when it is too large for a long long; -1 (a TypeError naming it) when
   it is no int (an int's subclass is none: as classic_search._int). */
static int as_ll(PyObject *o, const char *name, long long *v)
{
    int overflow;
    /* exact types only: a subclass's methods are Python code, which must not run here */
    if (!PyLong_CheckExact(o) && !PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.200s", name, Py_TYPE(o)->tp_name);
        return -1;
    }
    *v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (*v == -1 && PyErr_Occurred()) return -1;
    return overflow ? 1 : 0;
}

/* The int o, from lo to hi, in *v; else -1 with a TypeError or a ValueError naming it (as
   classic_search._int). */
static int int_in(PyObject *o, const char *name, long long lo, long long hi, const char *what,
                  long long *v)
{
    int r = as_ll(o, name, v);
    if (r < 0) return -1;
    if (r > 0 || *v < lo || *v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be %lld to %lld%s, not %R", name, lo, hi, what, o);
        return -1;
    }
    return 0;
}

/* The number (float or int) o in *x; else -1 with a TypeError or a ValueError naming it (as
   classic_search._real). */
static int real(PyObject *o, const char *name, double *x)
{
    if (!PyFloat_CheckExact(o) && !PyLong_CheckExact(o) && !PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be a number, not %.200s", name,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    *x = PyFloat_AsDouble(o);
    if (*x == -1.0 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s is too large for a float", name);
        return -1;
    }
    return 0;
}

/* A probability, 0 to 1, in *x (as classic_search._chance). */
static int chance(PyObject *o, const char *name, double *x)
{
    if (real(o, name, x) < 0) return -1;
    if (!(*x >= 0.0 && *x <= 1.0)) {
        PyErr_Format(PyExc_ValueError, "%s must be 0 to 1, not %R", name, o);
        return -1;
    }
    return 0;
}

static int value_error(const char *msg)
{
    PyErr_SetString(PyExc_ValueError, msg);
    return -1;
}

/* The arguments of search(). The sequences (pool, cum, erratic, gtiles and each of its
   groups, gcounts) are tuples made from what was passed (``as_tuples``): reading a number can
   run Python code (an int subclass's __float__), which could change a list while it is read,
   but not a tuple of our own. */
typedef struct {
    PyObject *me, *hand, *hidden, *opp_size, *left, *right, *forced, *reserve, *points[2];
    PyObject *pool, *cum, *erratic, *erratic_all, *gtiles, *gcounts;
    PyObject *ucb_c, *win, *scale, *greedy, *block;
    int split_draws;
    PyObject *totals[2], *target, *mt, *iterations, *deadline, *stop, *clock;
    PyObject *mt_in;  /* the generator's state as passed, a tuple (mt: the list it goes back in) */
} Args;

/* Replaces each sequence of *a by a tuple of its items (new references, freed by
   free_tuples); gtiles' groups too. 0, or -1 with a TypeError naming the argument. */
static int as_tuples(Args *a)
{
    PyObject **seqs[] = {&a->pool, &a->cum, &a->erratic, &a->gtiles, &a->gcounts};
    const char *names[] = {"pool", "cum", "erratic", "groups", "groups' counts"};
    size_t j;
    Py_ssize_t g;
    for (j = 0; j < sizeof seqs / sizeof *seqs; j++) {
        PyObject *t;
        if (!PyList_Check(*seqs[j]) && !PyTuple_Check(*seqs[j])) {
            PyErr_Format(PyExc_TypeError, "%s must be a list or a tuple, not %.200s", names[j],
                         Py_TYPE(*seqs[j])->tp_name);
            *seqs[j] = NULL;
            return -1;
        }
        t = PySequence_Tuple(*seqs[j]);
        *seqs[j] = t;
        if (!t) return -1;
    }
    for (g = 0; g < PyTuple_GET_SIZE(a->gtiles); g++) {
        PyObject *lst = PyTuple_GET_ITEM(a->gtiles, g), *t;
        if (!PyList_Check(lst) && !PyTuple_Check(lst)) {
            PyErr_Format(PyExc_TypeError, "groups[%zd] must be a list, not %.200s", g,
                         Py_TYPE(lst)->tp_name);
            return -1;
        }
        t = PySequence_Tuple(lst);
        if (!t) return -1;
        PyTuple_SET_ITEM(a->gtiles, g, t);  /* our own tuple: its old item ... */
        Py_DECREF(lst);                     /* ... was a reference of ours too */
    }
    a->mt_in = PySequence_Tuple(a->mt);
    return a->mt_in ? 0 : -1;
}

static void free_tuples(Args *a)
{
    Py_CLEAR(a->pool);
    Py_CLEAR(a->cum);
    Py_CLEAR(a->erratic);
    Py_CLEAR(a->gtiles);
    Py_CLEAR(a->gcounts);
    Py_CLEAR(a->mt_in);
}

static void free_params(Params *P)
{
    PyMem_Free(P->pool);
    PyMem_Free(P->cum);
    PyMem_Free(P->erratic);
    PyMem_Free(P->group_tiles);
    PyMem_Free(P->group_n);
    PyMem_Free(P->group_len);
}

/* *P, *mt, *iterations and *deadline from the arguments, every one checked first: the checks
   of classic_search.check in the same order with the same messages (a ValueError for a value
   out of range, a TypeError for one of the wrong type), and those of the generator's state,
   which only this entry point takes. 0, or -1 with the exception set (then free_params(P)
   still frees what was taken). */
static int load(const Args *a, Params *P, MT *mt, long long *iterations, double *deadline)
{
    long long v, total;
    double x, prev;
    Py_ssize_t n, i;
    int g, k;
    uint32_t m;
    char name[64];

    if (int_in(a->me, "me", 0, 1, "", &v) < 0) return -1;
    P->me = (int)v;
    if (int_in(a->hand, "hand", 0, FULL, " (a mask of the 28 tiles)", &v) < 0) return -1;
    P->hand = (uint32_t)v;
    if (!P->hand) return value_error("hand is empty: there is no move to choose");
    if (int_in(a->hidden, "hidden", 0, FULL, " (a mask of the 28 tiles)", &v) < 0) return -1;
    P->hidden = (uint32_t)v;
    if (P->hand & P->hidden) return value_error("hand and hidden share tiles");
    P->nhidden = 0;
    for (m = P->hidden; m; m &= m - 1) P->hidden_tiles[P->nhidden++] = ctz32(m);
    if (int_in(a->opp_size, "opp_size", 1, P->nhidden, " (the hidden tiles)", &v) < 0)
        return -1;
    P->opp_size = (int)v;
    if (int_in(a->left, "left", 0, NO_END, "", &v) < 0) return -1;
    P->left = (int)v;
    if (int_in(a->right, "right", 0, NO_END, "", &v) < 0) return -1;
    P->right = (int)v;
    if ((P->left == NO_END) != (P->right == NO_END)) {
        PyErr_Format(PyExc_ValueError,
                     "the ends must both be 0 to 6 or both %d (an empty line), not %d and %d",
                     NO_END, P->left, P->right);
        return -1;
    }
    if (int_in(a->forced, "forced", -1, NTILES - 1, "", &v) < 0) return -1;
    P->forced = (int)v;
    if (P->forced >= 0 && (!(P->hand >> P->forced & 1u) || P->left != NO_END)) {
        PyErr_Format(PyExc_ValueError,
                     "forced must be -1 or a tile of the hand on an empty line, not %d",
                     P->forced);
        return -1;
    }
    if (int_in(a->reserve, "reserve", 0, P->nhidden - P->opp_size, " (the bazaar)", &v) < 0)
        return -1;
    P->reserve = (int)v;
    for (k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "points[%d]", k);
        if (int_in(a->points[k], name, 0, LIMIT, "", &v) < 0) return -1;
        P->pts[k] = (int)v;
    }

    /* the sampler */
    n = PyTuple_GET_SIZE(a->pool);
    if (PyTuple_GET_SIZE(a->cum) != n)
        return value_error("the pool and its weights differ in length");
    if (PyTuple_GET_SIZE(a->erratic) && PyTuple_GET_SIZE(a->erratic) != n)
        return value_error("the pool and its erratic chances differ in length");
    if (PyTuple_GET_SIZE(a->gtiles) != PyTuple_GET_SIZE(a->gcounts))
        return value_error("the groups' tiles and their counts differ in length");
    if ((n != 0) == (PyTuple_GET_SIZE(a->gtiles) != 0))
        return value_error("the sampler must deal from a pool or from groups, one of the two");
    P->npool = n;
    if (n) {
        P->pool = (uint32_t *)PyMem_Malloc((size_t)n * sizeof(uint32_t));
        P->cum = (double *)PyMem_Malloc((size_t)n * sizeof(double));
        if (!P->pool || !P->cum) { PyErr_NoMemory(); return -1; }
    }
    for (i = 0; i < n; i++) {
        PyObject *o = PyTuple_GET_ITEM(a->pool, i);
        int r;
        snprintf(name, sizeof name, "pool[%zd]", i);
        r = as_ll(o, name, &v);
        if (r < 0) return -1;
        if (r > 0 || v < 0 || v > FULL || ((uint32_t)v & ~P->hidden)
            || popcount32((uint32_t)v) != P->opp_size) {
            PyErr_Format(PyExc_ValueError, "pool[%zd] must be a hand of %d hidden tiles, not %R",
                         i, P->opp_size, o);
            return -1;
        }
        P->pool[i] = (uint32_t)v;
    }
    prev = 0.0;
    for (i = 0; i < n; i++) {
        PyObject *o = PyTuple_GET_ITEM(a->cum, i);
        snprintf(name, sizeof name, "cum[%zd]", i);
        if (real(o, name, &x) < 0) return -1;
        if (!(isfinite(x) && x >= prev)) {
            PyErr_Format(PyExc_ValueError,
                         "cum must be finite, non-negative and non-decreasing: cum[%zd] is %R",
                         i, o);
            return -1;
        }
        P->cum[i] = prev = x;
    }
    if (PyTuple_GET_SIZE(a->erratic)) {
        P->erratic = (double *)PyMem_Malloc((size_t)n * sizeof(double));
        if (!P->erratic) { PyErr_NoMemory(); return -1; }
        for (i = 0; i < n; i++) {
            snprintf(name, sizeof name, "erratic[%zd]", i);
            if (chance(PyTuple_GET_ITEM(a->erratic, i), name, &P->erratic[i]) < 0) return -1;
        }
    }
    if (chance(a->erratic_all, "erratic_all", &P->erratic_all) < 0) return -1;
    n = PyTuple_GET_SIZE(a->gtiles);
    if (n > NTILES) {
        PyErr_Format(PyExc_ValueError, "there must be at most %d groups, not %zd", NTILES, n);
        return -1;
    }
    P->ngroups = (int)n;
    if (n) {
        P->group_tiles = PyMem_Malloc((size_t)n * sizeof *P->group_tiles);
        P->group_n = PyMem_Malloc((size_t)n * sizeof(int));
        P->group_len = PyMem_Malloc((size_t)n * sizeof(int));
        if (!P->group_tiles || !P->group_n || !P->group_len) { PyErr_NoMemory(); return -1; }
    }
    total = 0;
    for (g = 0; g < P->ngroups; g++) {
        PyObject *lst = PyTuple_GET_ITEM(a->gtiles, g);  /* a tuple: as_tuples */
        uint32_t seen = 0;
        snprintf(name, sizeof name, "a tile of groups[%d]", g);
        for (i = 0; i < PyTuple_GET_SIZE(lst); i++) {
            PyObject *o = PyTuple_GET_ITEM(lst, i);
            int r = as_ll(o, name, &v);
            if (r < 0) return -1;
            if (r > 0 || v < 0 || v >= NTILES || !(P->hidden >> v & 1u) || (seen >> v & 1u)) {
                PyErr_Format(PyExc_ValueError,
                             "groups[%d] must list distinct hidden tiles: %R is not one", g, o);
                return -1;
            }
            seen |= 1u << v;
            P->group_tiles[g][i] = (int)v; /* i < NTILES: the tiles are distinct */
        }
        P->group_len[g] = (int)i;
        snprintf(name, sizeof name, "groups[%d]'s count", g);
        if (int_in(PyTuple_GET_ITEM(a->gcounts, g), name, 1, P->opp_size, "", &v) < 0)
            return -1;
        P->group_n[g] = (int)v;
        total += v;
    }
    if (P->ngroups && total != P->opp_size) {
        PyErr_Format(PyExc_ValueError,
                     "the groups' counts must add up to opp_size (%d), not %lld", P->opp_size,
                     total);
        return -1;
    }

    /* the constants */
    if (real(a->ucb_c, "ucb_c", &P->ucb_c) < 0) return -1;
    if (!(isfinite(P->ucb_c) && P->ucb_c >= 0.0)) {
        PyErr_Format(PyExc_ValueError, "ucb_c must be finite and at least 0, not %R", a->ucb_c);
        return -1;
    }
    if (chance(a->win, "win", &P->win) < 0) return -1;
    if (real(a->scale, "scale", &P->scale) < 0) return -1;
    if (!(isfinite(P->scale) && P->scale > 0.0)) {
        PyErr_Format(PyExc_ValueError, "scale must be finite and above 0, not %R", a->scale);
        return -1;
    }
    if (chance(a->greedy, "greedy", &P->greedy) < 0) return -1;
    if (int_in(a->block, "block", 0, LIMIT, "", &v) < 0) return -1;
    P->block = (int)v;
    P->split_draws = a->split_draws;
    for (k = 0; k < 2; k++) {
        snprintf(name, sizeof name, "match totals[%d]", k);
        if (int_in(a->totals[k], name, 0, LIMIT, "", &v) < 0) return -1;
        P->totals[k] = (int)v;
    }
    /* no match: a target of 0 and no totals */
    {
        int r = as_ll(a->target, "match target", &v);
        if (r < 0) return -1;
        if (r > 0 || v || P->totals[0] || P->totals[1]) {
            if (int_in(a->target, "match target", 1, LIMIT, "", &v) < 0) return -1;
        }
        P->target = (int)v;
        P->has_match = P->target > 0;
    }

    /* the generator: the list of random.Random.getstate()[1] */
    if (PyTuple_GET_SIZE(a->mt_in) != MT_N + 1)
        return value_error("a Mersenne Twister state has 625 numbers");
    for (k = 0; k < MT_N; k++) {
        PyObject *o = PyTuple_GET_ITEM(a->mt_in, k);
        int r = as_ll(o, "a number of the Mersenne Twister state", &v);
        if (r < 0) return -1;
        if (r > 0 || v < 0 || v > 0xFFFFFFFFLL) {
            PyErr_Format(PyExc_ValueError,
                         "the Mersenne Twister state's numbers must be 0 to 4294967295, not %R",
                         o);
            return -1;
        }
        mt->mt[k] = (uint32_t)v;
    }
    if (int_in(PyTuple_GET_ITEM(a->mt_in, MT_N), "the Mersenne Twister index", 0, MT_N, "",
               &v) < 0)
        return -1;
    mt->index = (int)v;
    /* Its 19,937 bits of state (the top bit of the first number and all of the others) all
       zero: the generator gives nothing but zeros. */
    for (k = 1; k < MT_N && !mt->mt[k]; k++) {}
    if (k == MT_N && !(mt->mt[0] & 0x80000000u))
        return value_error("a Mersenne Twister state of zeros");

    /* the budget */
    if (int_in(a->iterations, "iterations", 0, LLONG_MAX, "", iterations) < 0) return -1;
    if (real(a->deadline, "deadline", deadline) < 0) return -1;
    if (isnan(*deadline)) return value_error("deadline must be a time or inf, not nan");
    if (a->stop != Py_None && !PyCallable_Check(a->stop)) {
        PyErr_SetString(PyExc_TypeError, "stop must be callable or None");
        return -1;
    }
    if (!PyCallable_Check(a->clock)) {
        PyErr_SetString(PyExc_TypeError, "clock must be callable");
        return -1;
    }
    return 0;
}

/* One iteration of the search: a deal of the hidden tiles, a path down the tree, a playout,
   the reward backed up. Pure C, run without the GIL. 0, or -1 when memory ran out. */
static int iterate(Tree *tree, const Params *P, MT *mt)
{
    Round r;
    int32_t node = 0, path[1024];
    int npath = 0, erratic = 0, legal[MAXMOVES], nlegal, untried[MAXMOVES], nuntried;
    int key = 0, who, stepped, k;
    double rw;
    {
        uint32_t h = deal(P, mt, &erratic);
        r.hands[P->me] = P->hand;
        r.hands[1 - P->me] = h;
        r.left = P->left;
        r.right = P->right;
        r.p = P->me;
        r.forced = P->forced;
        r.nbz = 0;
        for (k = 0; k < P->nhidden; k++)
            if (!(h >> P->hidden_tiles[k] & 1u)) r.bz[r.nbz++] = P->hidden_tiles[k];
        r.bp = 0;
        r.reserve = P->reserve;
        r.points[0] = P->pts[0];
        r.points[1] = P->pts[1];
        r.winner = -1;
        r.over = 0;
    }
    while (!r.over && npath < 1024) {
        nlegal = round_legal(&r, legal);
        /* Our draw (a chance node: he knows what he drew) or his random reply: followed
           without UCB, the child keyed by the tile drawn or the move. */
        who = r.p;
        stepped = 1;
        if (P->split_draws && legal[0] == DRAW_M && r.p == P->me) {
            round_play(&r, DRAW_M, mt);
            key = DRAWN + r.bz[r.bp - 1];
        } else if (erratic && r.p != P->me) {
            key = legal[pick(mt, nlegal)];
            count_available(tree, node, legal, nlegal);
            round_play(&r, key, mt);
        } else {
            stepped = 0;
        }
        if (stepped) {
            int32_t c;
            int made = tree_step(tree, node, key, who, &c);
            if (made < 0) return -1;
            path[npath++] = c;
            if (made) break;
            node = c;
            continue;
        }
        nuntried = 0;
        for (k = 0; k < nlegal; k++)
            if (child_of(tree, node, legal[k]) < 0) untried[nuntried++] = legal[k];
        if (nuntried) {
            int m = untried[pick(mt, nuntried)];
            int32_t c;
            count_available(tree, node, legal, nlegal);
            c = tree_add(tree, node, m, r.p);
            if (c < 0) return -1;
            round_play(&r, m, mt);
            path[npath++] = c;
            break;
        }
        {
            int32_t best = -1;
            int bm = 0;
            double bv = -INFINITY;
            for (k = 0; k < nlegal; k++) {
                int32_t c = child_of(tree, node, legal[k]);
                Node *nd = &tree->v[c];
                double v;
                nd->avail++;
                v = nd->w / nd->n + P->ucb_c * sqrt(log((double)nd->avail) / nd->n);
                if (v > bv) { bv = v; best = c; bm = legal[k]; }
            }
            round_play(&r, bm, mt);
            path[npath++] = best;
            node = best;
        }
    }
    if (!r.over) round_playout(&r, P, erratic ? 1 - P->me : -1, mt);
    rw = reward(P, &r);
    for (k = 0; k < npath; k++) {
        Node *nd = &tree->v[path[k]];
        nd->n++;
        nd->w += nd->player == P->me ? rw : -rw;
    }
    return 0;
}

/* Whether the search must stop now: the clock past the deadline, or stop() true. 1 or 0;
   -1 with the exception set. Called with the GIL. */
static int time_is_up(const Args *a, double deadline)
{
    PyObject *now = PyObject_CallNoArgs(a->clock);
    double t;
    if (!now) return -1;
    t = PyFloat_AsDouble(now);
    Py_DECREF(now);
    if (t == -1.0 && PyErr_Occurred()) return -1;
    if (t > deadline) return 1;
    if (a->stop != Py_None) {
        PyObject *o = PyObject_CallNoArgs(a->stop);
        int yes;
        if (!o) return -1;
        yes = PyObject_IsTrue(o);
        Py_DECREF(o);
        return yes;
    }
    return 0;
}

#define BATCH 16  /* iterations between two looks at the clock, run without the GIL */

static PyObject *search(PyObject *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = {
        "me", "hand", "hidden", "opp_size", "left", "right", "forced", "reserve", "points0",
        "points1", "pool", "cum", "erratic", "erratic_all", "groups", "group_counts", "ucb_c",
        "win", "scale", "greedy", "block", "split_draws", "total0", "total1", "target", "mt",
        "iterations", "deadline", "stop", "clock", NULL};
    Params P;
    MT mt;
    Args a;
    Tree tree = {NULL, 0, 0};
    long long iterations;
    double deadline;
    int root_moves[MAXMOVES], nroot;
    long long it = 0;
    int k;
    PyObject *result = NULL, *stats = NULL;
    (void)self;

    memset(&P, 0, sizeof P);
    memset(&a, 0, sizeof a);
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOOOOOOOOOOOOOOOOOOpOOOO!OOOO", kwlist,
                                     &a.me, &a.hand, &a.hidden, &a.opp_size, &a.left, &a.right,
                                     &a.forced, &a.reserve, &a.points[0], &a.points[1],
                                     &a.pool, &a.cum, &a.erratic, &a.erratic_all,
                                     &a.gtiles, &a.gcounts,
                                     &a.ucb_c, &a.win, &a.scale, &a.greedy, &a.block,
                                     &a.split_draws, &a.totals[0], &a.totals[1], &a.target,
                                     &PyList_Type, &a.mt, &a.iterations, &a.deadline, &a.stop,
                                     &a.clock))
        return NULL;
    if (as_tuples(&a) < 0) goto done;
    if (load(&a, &P, &mt, &iterations, &deadline) < 0) goto done;
    nroot = legal_moves(P.hand, P.left, P.right, P.forced,
                        P.nhidden - P.opp_size > P.reserve, root_moves);
    stats = PyDict_New();
    if (!stats) goto done;
    if (nroot == 1) {
        result = Py_BuildValue("(iO)", root_moves[0], stats);
        goto done;
    }
    if (tree_new(&tree, 0, 1 - P.me) < 0) { PyErr_NoMemory(); goto done; }

    while (it < iterations) {
        int failed = 0;
        if (it) {
            int up = time_is_up(&a, deadline);
            if (up < 0) goto done;
            if (up) break;
        }
        /* The search itself touches no Python object: other threads (the screen's event
           loop) run meanwhile. */
        Py_BEGIN_ALLOW_THREADS
        for (k = 0; k < BATCH && it < iterations; k++, it++)
            if (iterate(&tree, &P, &mt) < 0) { failed = 1; break; }
        Py_END_ALLOW_THREADS
        if (failed) { PyErr_NoMemory(); goto done; }
    }

    {
        int best_m = root_moves[0];
        int32_t bn = -1;
        double bmean = 0.0;
        for (k = 0; k < nroot; k++) {
            int32_t c = child_of(&tree, 0, root_moves[k]);
            int32_t n = c >= 0 ? tree.v[c].n : 0;
            double mean = (c >= 0 && n) ? tree.v[c].w / n : 0.0;
            if (c >= 0) {
                PyObject *key = PyLong_FromLong(root_moves[k]);
                PyObject *val = Py_BuildValue("(id)", (int)n, mean);
                int bad = !key || !val || PyDict_SetItem(stats, key, val) < 0;
                Py_XDECREF(key);
                Py_XDECREF(val);
                if (bad) goto done;
            }
            if (k == 0 || n > bn || (n == bn && mean > bmean)) {
                bn = n;
                bmean = mean;
                best_m = root_moves[k];
            }
        }
        result = Py_BuildValue("(iO)", best_m, stats);
    }

done:
    if (result) {
        /* hand the generator's state back */
        for (k = 0; k < MT_N; k++) {
            PyObject *v = PyLong_FromUnsignedLong(mt.mt[k]);
            if (!v || PyList_SetItem(a.mt, k, v) < 0) { Py_CLEAR(result); break; }
        }
        if (result) {
            PyObject *v = PyLong_FromLong(mt.index);
            if (!v || PyList_SetItem(a.mt, MT_N, v) < 0) Py_CLEAR(result);
        }
    }
    Py_XDECREF(stats);
    free(tree.v);
    free_params(&P);
    free_tuples(&a);
    return result;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))search, METH_VARARGS | METH_KEYWORDS,
     "search(*, me, hand, ...) -> (move, {move: (visits, mean)}): see "
     "tui_domino.ai.classic_search."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_classic_search",
    "The classic hard player's ISMCTS in C (tui_domino.ai.classic_search's twin).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__classic_search(void)
{
    init_tables();
    return PyModule_Create(&module);
}
