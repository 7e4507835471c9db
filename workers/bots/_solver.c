/* The search bot's exact double-dummy solver for Cinch, compiled.
 *
 * Why C: the bot's strength comes from solving first-trick layouts exactly, tens of
 * thousands of positions a decision, and in Python that took up to seconds. This is the
 * same alpha-beta (workers/bots/search_bot.py, class Solver, documents the layout and the
 * search) over the same remapped 64-bit hands, about two orders of magnitude faster, so an
 * exact search fits the bots benchmark's per-decision bar.
 *
 * The Python side keeps everything that is not the inner search: the Layout, the trick in
 * progress, the root's MTD(f) driver and the fallback. A solver context lives in a capsule:
 *   new(points, trump, counting, noncounting_trumps) -> context
 *   search(context, h0, h1, h2, h3, leader, n, lead_blk, best_seat, best_key, tpts, tmask,
 *          rem, first, alpha, beta, limit) -> value, or None when the node limit
 *          was reached (the search is then abandoned)
 *   nodes(context) -> the nodes searched so far (trick starts and the root)
 * The transposition table keeps bounds across calls on one context, as the Python dict did.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

typedef struct {
    u64 h[4];
    int8_t leader;      /* -1: empty slot */
    int8_t lo, hi, hint;
} Entry;

typedef struct {
    int pts[64];
    int lead_order[64];
    u64 below[64];
    u64 block[4];
    u64 tb, counting, nct;
    int trump;
    long long nodes, limit;
    int exhausted;
    int last_best;
    Entry *tt;
    size_t cap, used;
} Ctx;

static inline int top_bit(u64 x) { return 63 - __builtin_clzll(x); }
static inline int bit_len(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline int popcount(u64 x) { return __builtin_popcountll(x); }

static int points_of(const Ctx *c, u64 m) {
    int total = 0;
    while (m) {
        total += c->pts[__builtin_ctzll(m)];
        m &= m - 1;
    }
    return total;
}

/* ------------------------------------------------------------------ transposition table */
static inline size_t slot_of(const Ctx *c, const u64 *h, int leader) {
    u64 x = h[0] * 0x9E3779B97F4A7C15ULL;
    x ^= (h[1] + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL;
    x ^= (h[2] + 0x8CB92BA72F3D8DD7ULL) * 0x94D049BB133111EBULL;
    x ^= (h[3] + (u64)leader * 0x2545F4914F6CDD1DULL) * 0xD6E8FEB86659FD93ULL;
    x ^= x >> 31;
    return (size_t)x & (c->cap - 1);
}

static Entry *tt_find(Ctx *c, const u64 *h, int leader, int insert) {
    size_t i = slot_of(c, h, leader);
    for (;;) {
        Entry *e = &c->tt[i];
        if (e->leader < 0) {
            if (!insert)
                return NULL;
            memcpy(e->h, h, sizeof e->h);
            e->leader = (int8_t)leader;
            c->used++;
            return e;
        }
        if (e->leader == leader && e->h[0] == h[0] && e->h[1] == h[1] && e->h[2] == h[2] && e->h[3] == h[3])
            return e;
        i = (i + 1) & (c->cap - 1);
    }
}

static int tt_grow(Ctx *c) {
    size_t old_cap = c->cap;
    Entry *old = c->tt;
    Entry *tt = malloc(sizeof(Entry) * old_cap * 2);
    if (!tt)
        return -1;
    for (size_t i = 0; i < old_cap * 2; i++)
        tt[i].leader = -1;
    c->tt = tt;
    c->cap = old_cap * 2;
    c->used = 0;
    for (size_t i = 0; i < old_cap; i++) {
        if (old[i].leader >= 0) {
            Entry *e = tt_find(c, old[i].h, old[i].leader, 1);
            e->lo = old[i].lo;
            e->hi = old[i].hi;
            e->hint = old[i].hint;
        }
    }
    free(old);
    return 0;
}

/* ------------------------------------------------------------------ the search */
static int play(Ctx *c, u64 *hands, int leader, int n, int lead_blk, int best_seat, int best_key, int tpts,
                u64 tmask, int rem, int first, int alpha, int beta, int hint);

static inline int key_of(const Ctx *c, int card, int lead_blk) {
    int b = card >> 4;
    if (b == c->trump)
        return 100 + (card & 15);
    return b == lead_blk ? (card & 15) : -1;
}

static int search(Ctx *c, u64 *hands, int leader, int n, int lead_blk, int best_seat, int best_key, int tpts,
                  u64 tmask, int rem, int first, int alpha, int beta) {
    if (c->nodes >= c->limit) {
        c->exhausted = 1;
        return 0;
    }
    c->nodes++;
    if (n != 0)
        return play(c, hands, leader, n, lead_blk, best_seat, best_key, tpts, tmask, rem, first, alpha, beta, -1);
    if (rem == 0)
        return 0;
    u64 h0 = hands[0], h1 = hands[1], h2 = hands[2], h3 = hands[3];
    u64 ns_t = (h0 | h2) & c->tb, ew_t = (h1 | h3) & c->tb;
    int lo_b, hi_b;
    /* only trumps count: the trumps of one side above all of the other's are its points */
    if (ns_t > ew_t) {
        int s = bit_len(ew_t);
        lo_b = points_of(c, ns_t >> s << s);
        hi_b = rem;
    } else {
        int s = bit_len(ns_t);
        lo_b = 0;
        hi_b = rem - points_of(c, ew_t >> s << s);
    }
    if (lo_b >= beta || lo_b == hi_b)
        return lo_b;
    if (hi_b <= alpha)
        return hi_b;
    if (!first && (h0 & (h0 - 1)) == 0) {
        /* last trick: one card each, no choice */
        int card = top_bit(hands[leader]);
        int lb = card >> 4;
        int bk = lb == c->trump ? 100 + (card & 15) : (card & 15);
        int bs = leader, tot = c->pts[card];
        for (int k = 1; k < 4; k++) {
            int s = (leader + k) & 3;
            int cc = top_bit(hands[s]);
            int key = key_of(c, cc, lb);
            if (key > bk) {
                bk = key;
                bs = s;
            }
            tot += c->pts[cc];
        }
        return (bs & 1) ? 0 : tot;
    }
    int lo = lo_b, hi = hi_b, hint = -1;
    Entry *e = tt_find(c, hands, leader, 0);
    if (e) {
        lo = e->lo;
        hi = e->hi;
        hint = e->hint;
        if (lo >= beta || lo == hi)
            return lo;
        if (hi <= alpha)
            return hi;
        if (lo > alpha)
            alpha = lo;
        if (hi < beta)
            beta = hi;
    }
    int a0 = alpha, b0 = beta;
    int v = play(c, hands, leader, 0, -1, -1, -2, 0, 0, rem, first, alpha, beta, hint);
    if (c->exhausted)
        return 0;
    if (v <= a0) {
        if (v < hi)
            hi = v;
    } else if (v >= b0) {
        if (v > lo)
            lo = v;
    } else {
        lo = hi = v;
    }
    if ((c->used + 1) * 2 > c->cap && tt_grow(c) < 0) {
        PyErr_NoMemory();
        c->exhausted = 2;
        return 0;
    }
    e = tt_find(c, hands, leader, 1);
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    e->hint = (int8_t)c->last_best;
    return v;
}

static int play(Ctx *c, u64 *hands, int leader, int n, int lead_blk, int best_seat, int best_key, int tpts,
                u64 tmask, int rem, int first, int alpha, int beta, int hint) {
    int hi_bound = rem + tpts;
    if (alpha >= hi_bound)
        return hi_bound;
    if (beta <= 0)
        return 0;
    int seat = (leader + n) & 3;
    u64 hand = hands[seat];
    u64 legal;
    if (n == 0) {
        legal = hand;
    } else if (lead_blk == c->trump) {
        legal = (hand & c->tb) ? (hand & c->tb) : hand;
    } else {
        legal = hand & c->block[lead_blk];
        legal = legal ? (legal | (hand & c->tb)) : hand;
    }
    int owed = 0;
    if (first) {
        int size = popcount(hand);
        if (size > 6)
            owed = size - 6;
    }
    int moves[16], scores[16], nm = 0;
    if (owed) {
        u64 spare = hand & c->nct;
        for (u64 m = legal; m; m &= m - 1) {
            int card = __builtin_ctzll(m);
            if (popcount(spare & ~(1ULL << card)) >= owed)
                moves[nm++] = card;
        }
    } else {
        u64 live = hands[0] | hands[1] | hands[2] | hands[3] | tmask;
        for (u64 m = legal; m; m &= m - 1) {
            int card = __builtin_ctzll(m);
            u64 x = live & c->below[card];
            if (x) {
                int nl = top_bit(x);
                if (((legal >> nl) & 1) && c->pts[nl] == c->pts[card])
                    continue; /* the same as the next lower card still out */
            }
            moves[nm++] = card;
        }
    }
    int maximizing = !(seat & 1);
    if (nm > 1) {
        /* move ordering, likely-best first: leads by a fixed order (high trumps, then low
           plain cards, counting ones last); follows by the trick's state */
        int partner_winning = best_seat == ((seat + 2) & 3);
        for (int i = 0; i < nm; i++) {
            int card = moves[i];
            int s;
            if (n == 0) {
                s = c->lead_order[card];
            } else {
                int key = key_of(c, card, lead_blk);
                int p = c->pts[card];
                if (partner_winning)
                    s = -p * 10 + (card & 15);
                else if (key > best_key)
                    s = n == 3 ? (-200 + key + p * 10) : (-200 - key);
                else
                    s = p * 10 + (card & 15);
            }
            scores[i] = s;
        }
        for (int i = 1; i < nm; i++) { /* stable insertion sort: ties stay lowest card first */
            int s = scores[i], card = moves[i], j = i - 1;
            while (j >= 0 && scores[j] > s) {
                scores[j + 1] = scores[j];
                moves[j + 1] = moves[j];
                j--;
            }
            scores[j + 1] = s;
            moves[j + 1] = card;
        }
        if (hint >= 0 && moves[0] != hint) {
            for (int i = 1; i < nm; i++) {
                if (moves[i] == hint) {
                    memmove(moves + 1, moves, sizeof(int) * i);
                    moves[0] = hint;
                    break;
                }
            }
        }
    }
    int best = maximizing ? -1 : 99;
    int best_move = moves[0];
    for (int i = 0; i < nm; i++) {
        int card = moves[i];
        u64 bit = 1ULL << card;
        u64 extras = 0;
        if (owed) {
            u64 spare = hand & c->nct & ~bit;
            for (int k = 0; k < owed; k++) {
                u64 low = spare & (~spare + 1);
                extras |= low;
                spare ^= low;
            }
        }
        int nlead, nbk, nbs;
        if (n == 0) {
            nlead = card >> 4;
            nbk = nlead == c->trump ? 100 + (card & 15) : (card & 15);
            nbs = seat;
        } else {
            int key = key_of(c, card, lead_blk);
            nlead = lead_blk;
            if (key > best_key) {
                nbk = key;
                nbs = seat;
            } else {
                nbk = best_key;
                nbs = best_seat;
            }
        }
        int p = c->pts[card];
        int v;
        hands[seat] = hand & ~(bit | extras);
        if (n == 3) {
            if (nbs & 1) {
                v = search(c, hands, nbs, 0, -1, -1, -2, 0, 0, rem - p, 0, alpha, beta);
            } else {
                int g = tpts + p;
                v = g + search(c, hands, nbs, 0, -1, -1, -2, 0, 0, rem - p, 0, alpha - g, beta - g);
            }
        } else {
            v = play(c, hands, leader, n + 1, nlead, nbs, nbk, tpts + p, tmask | bit, rem - p, first, alpha, beta,
                     -1);
        }
        hands[seat] = hand;
        if (c->exhausted)
            return 0;
        if (maximizing) {
            if (v > best) {
                best = v;
                best_move = card;
                if (v > alpha) {
                    alpha = v;
                    if (alpha >= beta)
                        break;
                }
            }
        } else if (v < best) {
            best = v;
            best_move = card;
            if (v < beta) {
                beta = v;
                if (alpha >= beta)
                    break;
            }
        }
    }
    c->last_best = best_move;
    return best;
}

/* ------------------------------------------------------------------ the module */
static void ctx_free(PyObject *capsule) {
    Ctx *c = PyCapsule_GetPointer(capsule, "cinch.solver");
    if (c) {
        free(c->tt);
        free(c);
    }
}

static Ctx *ctx_of(PyObject *capsule) { return PyCapsule_GetPointer(capsule, "cinch.solver"); }

static PyObject *py_new(PyObject *self, PyObject *args) {
    PyObject *points;
    int trump;
    unsigned long long counting, nct;
    if (!PyArg_ParseTuple(args, "OiKK", &points, &trump, &counting, &nct))
        return NULL;
    PyObject *seq = PySequence_Fast(points, "points must be a sequence of 64 ints");
    if (!seq)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != 64 || trump < 0 || trump > 3) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "points must hold 64 values and trump be 0..3");
        return NULL;
    }
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < 64; i++)
        c->pts[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
    Py_DECREF(seq);
    if (PyErr_Occurred()) {
        free(c);
        return NULL;
    }
    c->trump = trump;
    c->tb = 0xFFFFULL << (16 * trump);
    for (int s = 0; s < 4; s++)
        c->block[s] = 0xFFFFULL << (16 * s);
    for (int i = 0; i < 64; i++) {
        c->below[i] = ((1ULL << i) - 1) & c->block[i >> 4];
        c->lead_order[i] = (i >> 4) == trump ? -(i & 15) - 50 : (i & 15) - 20 - c->pts[i];
    }
    c->counting = counting;
    c->nct = nct;
    c->limit = 1LL << 62;
    c->last_best = -1;
    c->cap = 1 << 12;
    c->tt = malloc(sizeof(Entry) * c->cap);
    if (!c->tt) {
        free(c);
        return PyErr_NoMemory();
    }
    for (size_t i = 0; i < c->cap; i++)
        c->tt[i].leader = -1;
    PyObject *capsule = PyCapsule_New(c, "cinch.solver", ctx_free);
    if (!capsule) {
        free(c->tt);
        free(c);
    }
    return capsule;
}

static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *capsule;
    unsigned long long h[4], tmask;
    int leader, n, lead_blk, best_seat, best_key, tpts, rem, first, alpha, beta;
    long long limit;
    if (!PyArg_ParseTuple(args, "OKKKKiiiiiiKipiiL", &capsule, &h[0], &h[1], &h[2], &h[3], &leader, &n, &lead_blk,
                          &best_seat, &best_key, &tpts, &tmask, &rem, &first, &alpha, &beta, &limit))
        return NULL;
    Ctx *c = ctx_of(capsule);
    if (!c)
        return NULL;
    u64 hands[4] = {h[0], h[1], h[2], h[3]};
    c->limit = limit;
    c->exhausted = 0;
    int v = search(c, hands, leader & 3, n, lead_blk, best_seat, best_key, tpts, tmask, rem, first, alpha, beta);
    if (c->exhausted == 2)
        return NULL;
    if (c->exhausted)
        Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

static PyObject *py_nodes(PyObject *self, PyObject *capsule) {
    Ctx *c = ctx_of(capsule);
    if (!c)
        return NULL;
    return PyLong_FromLongLong(c->nodes);
}

static PyMethodDef methods[] = {
    {"new", py_new, METH_VARARGS, "A solver context for one trump layout: new(points, trump, counting, nct)."},
    {"search", py_search, METH_VARARGS, "Exact alpha-beta from a position; None when the node limit is reached."},
    {"nodes", py_nodes, METH_O, "Nodes the context has searched."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_solver", "The search bot's compiled solver.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__solver(void) { return PyModule_Create(&module); }
