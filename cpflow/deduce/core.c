/* The search of cpflow.deduce.search, compiled: the same rules (cpflow.deduce.rules, all of
 * them: paths never touch themselves, every node is covered), the same branching order, the
 * same budget, in C and without the interpreter's lock (models/forced.md, "The compiled core").
 *
 * A board is numbered as rules.Graph numbers it: nodes 0..n-1, edges 0..m-1 sorted by their
 * two nodes, colours 0..k-1 (a node's banned colours are a bit set of `words` 64-bit words).
 * A state is one block of memory (a frame): edge states, node colours, banned colours,
 * degrees, undecided edges, chain ends, nodes looked at since the chamber rule last held.
 * The search keeps a stack of frames; a frame waiting on the stack holds its parent's state
 * and the move (an edge in or out) to make on it when it is taken. A rule that finds no way
 * on returns NO_WAY (rules.Contradiction) and records its number (`broken`); the caller drops
 * the frame. The rules are numbered as the rule book's rows (cpflow.deduce.rulebook.RULES).
 *
 * Python sees one type, Search(n, edges, need, colour, pairs, scan, seconds), with
 * run(budget, seconds), branches, held (the bytes of its frames), refuted and broken, and rules(), the rules'
 * names by number;
 * see cpflow/deduce/compiled.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

enum { UNDECIDED = 0, IN = 1, OUT = 2 };
enum { NONE = -1 };
enum { OK = 0, NO_WAY = 1, LATE = 2 }; /* what a rule returns; LATE: past the start's time */
enum { DONE = 0, SOLVED = 1, EXHAUSTED = 2, TIMED_OUT = 3 }; /* what run() returns */
/* The rules, numbered as the rule book's rows (tests/test_compiled.py holds them to it). */
enum Rule { RULE_DEGREE, RULE_BRANCH, RULE_COLOUR, RULE_TOUCH, RULE_LOOP, RULE_CORNER, RULE_DEAD_TURN, RULE_CHAMBER,
            RULE_REACH, RULE_COUNT };
static const char *const RULE_NAMES[RULE_COUNT] = {"degree", "branch", "colour", "touch", "loop",
                                                   "corner", "dead turn", "chamber", "reach"};

#define TRY(x)                     \
    do {                           \
        const int tried_ = (x);    \
        if (tried_ != OK)          \
            return tried_;         \
    } while (0)

/* The board: fixed for the search. */
typedef struct {
    int n, m, k, words; /* words: 64-bit words of a node's banned colours */
    int widest;         /* the most neighbours a node has (up to 255: degrees are bytes) */
    int32_t *ends;        /* edge e joins ends[2e] and ends[2e+1] */
    int32_t *first;       /* node i's neighbours are near[first[i]..first[i+1]) */
    int32_t *near, *via;  /* a neighbour, and the edge to it */
    uint8_t *need;        /* path edges a node has: 1 at an endpoint, else 2 */
    int32_t *pairs;       /* colour c's endpoints: pairs[2c], pairs[2c+1] */
    int32_t *scan;        /* the order in which nodes are branched on */
    /* The dead turns (rules.DeadTurns), in room linear in the edges: turn (p, a, z) is dead when a and
     * z are neighbours or another node blocks the pair; node a's blocked pairs are (a, block_other[t])
     * for t in block_first[a]..[a+1), their blockers block_by[2t] and block_by[2t+1] (-1: none) */
    uint8_t *turning; /* 1: some turn through the node is dead */
    int32_t *block_first, *block_other, *block_by;
} Board;

/* A frame's fields, pointing into its block. */
typedef struct {
    uint8_t *state, *degree, *free;
    int16_t *colour;
    int32_t *other;
    uint64_t *banned;
    int32_t *head; /* [0]: the scan's first place with an open node; [1]: a move waits (1/0); [2]: its edge;
                      [3]: IN or OUT */
} State;

typedef struct {
    Board b;
    size_t size;           /* bytes a frame */
    char *frames;          /* the stack of frames */
    int top, capacity;     /* the top frame's index, frames allocated */
    long long branches;
    int32_t *queue;        /* nodes to look at again (rules.Partial.queue), once each */
    uint8_t *queued;
    int queued_count;
    int32_t *stack, *region, *starts, *mark; /* scratch for painting and flooding */
    int32_t *open_near, *open_via;           /* scratch for local(): a node's undecided edges */
    /* the nodes looked at since the chamber rule last held (none between frames: every settle
     * ends with it), or all of them at the start */
    int32_t *dirty_list;
    uint8_t *dirty, *listed;
    int dirty_count, all_dirty;
    int32_t *seen, *reached, *last;
    int32_t mark_stamp, seen_stamp; /* marks above a flood's base are this flood's */
    /* a path entering a node from x: x's neighbours and blocked pairs, marked turn_stamp */
    int32_t *turn_near, *turn_blocked, *turn_by, turn_stamp;
    double start_ends;              /* when settling the start must end (the reach rule looks) */
    int broken;                     /* the rule that last found no way on (enum Rule) */
} Core;

static State frame(Core *s, int index) {
    const int n = s->b.n, m = s->b.m;
    char *p = s->frames + (size_t)index * s->size;
    State f;
    f.banned = (uint64_t *)p;
    f.other = (int32_t *)(p + 8 * (size_t)n * (size_t)s->b.words);
    f.head = f.other + n;
    f.colour = (int16_t *)(f.head + 4);
    f.state = (uint8_t *)(f.colour + n);
    f.degree = f.state + m;
    f.free = f.degree + n;
    return f;
}

static size_t frame_size(int n, int m, int words) {
    size_t bytes = 8 * (size_t)n * (size_t)words + 4 * ((size_t)n + 4) + (size_t)m + 4 * (size_t)n;
    return (bytes + 7) & ~(size_t)7;
}

static double now(void);

/* -- moves (rules.Partial.join, cut, ban, paint, _corner) ----------------------------------- */

static void look_again(Core *s, int i) {
    if (!s->queued[i]) {
        s->queued[i] = 1;
        s->queue[s->queued_count++] = i;
    }
}

static void forget_dirty(Core *s) {
    while (s->dirty_count)
        s->dirty[s->dirty_list[--s->dirty_count]] = 0;
}

/* After a rule found no way on: the frame is dropped, and what was queued for it. */
static void forget_queue(Core *s) {
    while (s->queued_count)
        s->queued[s->queue[--s->queued_count]] = 0;
    forget_dirty(s);
}

/* A rule found no way on: NO_WAY, and which rule it was. */
static int no_way(Core *s, enum Rule rule) {
    s->broken = rule;
    return NO_WAY;
}

static int is_near(const Board *b, int i, int j) {
    for (int x = b->first[i]; x < b->first[i + 1]; x++)
        if (b->near[x] == j)
            return 1;
    return 0;
}

/* The two neighbours a path through p joins (p has two edges in). */
static void through(const Board *b, const State *f, int p, int *a, int *c) {
    int found = 0;
    for (int x = b->first[p]; x < b->first[p + 1] && found < 2; x++)
        if (f->state[b->via[x]] == IN)
            (found++ ? c : a)[0] = b->near[x];
}

static int is_banned(const Core *s, const State *f, int node, int c) {
    return f->banned[(size_t)node * s->b.words + (c >> 6)] >> (c & 63) & 1;
}

static int cut(Core *s, State *f, int e) {
    const int i = s->b.ends[2 * e], j = s->b.ends[2 * e + 1];
    if (f->colour[i] != NONE && f->colour[i] == f->colour[j])
        return no_way(s, RULE_TOUCH); /* neighbours of one colour must be consecutive */
    f->state[e] = OUT;
    f->free[i]--;
    f->free[j]--;
    look_again(s, i);
    look_again(s, j);
    return OK;
}

static int ban(Core *s, State *f, int node, int c) {
    if (f->colour[node] == c)
        return no_way(s, RULE_CORNER);
    if (!is_banned(s, f, node, c)) {
        f->banned[(size_t)node * s->b.words + (c >> 6)] |= (uint64_t)1 << (c & 63);
        look_again(s, node);
    }
    return OK;
}

static int paint(Core *s, State *f, int node, int c) {
    const Board *b = &s->b;
    if (f->colour[node] == c)
        return OK;
    if (f->colour[node] != NONE || is_banned(s, f, node, c))
        return no_way(s, f->colour[node] != NONE ? RULE_COLOUR : RULE_CORNER);
    int top = 0;
    s->stack[top++] = node;
    f->colour[node] = (int16_t)c;
    while (top) {
        const int i = s->stack[--top];
        look_again(s, i);
        if (f->degree[i] == 2) { /* the nodes beside both its neighbours cannot take c */
            int a, z;
            through(b, f, i, &a, &z);
            for (int x = b->first[a]; x < b->first[a + 1]; x++) {
                const int q = b->near[x];
                if (q != i && is_near(b, z, q))
                    TRY(ban(s, f, q, c));
            }
        }
        for (int x = b->first[i]; x < b->first[i + 1]; x++) {
            const int j = b->near[x], e = b->via[x];
            if (f->colour[j] == c && f->state[e] == OUT)
                return no_way(s, RULE_TOUCH); /* touching itself */
            if (f->state[e] == IN && f->colour[j] == NONE) {
                if (is_banned(s, f, j, c))
                    return no_way(s, RULE_CORNER);
                f->colour[j] = (int16_t)c;
                s->stack[top++] = j;
            }
        }
    }
    return OK;
}

/* A path turning at p: a node q beside both its neighbours joins neither. */
static int corner(Core *s, State *f, int p) {
    const Board *b = &s->b;
    int a, z;
    through(b, f, p, &a, &z);
    for (int x = b->first[a]; x < b->first[a + 1]; x++) {
        const int q = b->near[x];
        if (q == p || !is_near(b, z, q))
            continue;
        for (int y = b->first[q]; y < b->first[q + 1]; y++) {
            const int j = b->near[y], e = b->via[y];
            if (j != a && j != z)
                continue;
            if (f->state[e] == IN)
                return no_way(s, RULE_CORNER);
            if (f->state[e] == UNDECIDED)
                TRY(cut(s, f, e));
        }
        if (f->colour[p] != NONE)
            TRY(ban(s, f, q, f->colour[p]));
    }
    return OK;
}

static int join(Core *s, State *f, int e) {
    const Board *b = &s->b;
    const int i = b->ends[2 * e], j = b->ends[2 * e + 1];
    const int a = f->other[i], z = f->other[j];
    if (a == j)
        return no_way(s, RULE_LOOP); /* a loop */
    f->state[e] = IN;
    f->degree[i]++;
    f->degree[j]++;
    f->free[i]--;
    f->free[j]--;
    if (f->degree[i] > b->need[i] || f->degree[j] > b->need[j])
        return no_way(s, RULE_BRANCH);
    const int ci = f->colour[i], cj = f->colour[j];
    if (ci != cj) {
        if (ci != NONE && cj != NONE)
            return no_way(s, RULE_COLOUR); /* two colours on one path */
        TRY(ci == NONE ? paint(s, f, i, cj) : paint(s, f, j, ci));
    }
    f->other[a] = z;
    f->other[z] = a;
    look_again(s, i);
    look_again(s, j);
    look_again(s, a);
    look_again(s, z);
    if (f->degree[i] == 2)
        TRY(corner(s, f, i));
    if (f->degree[j] == 2)
        TRY(corner(s, f, j));
    return OK;
}

/* -- rules (rules.Partial._local, _regions, _reach) ---------------------------------------- */

/* A path enters a node from x: mark x's neighbours and blocked pairs for is_dead. */
static void mark_turns(Core *s, int x) {
    const Board *b = &s->b;
    if (s->turn_stamp == INT32_MAX) {
        memset(s->turn_near, 0, sizeof(int32_t) * (size_t)b->n);
        memset(s->turn_blocked, 0, sizeof(int32_t) * (size_t)b->n);
        s->turn_stamp = 0;
    }
    const int32_t stamp = ++s->turn_stamp;
    for (int u = b->first[x]; u < b->first[x + 1]; u++)
        s->turn_near[b->near[u]] = stamp;
    for (int t = b->block_first[x]; t < b->block_first[x + 1]; t++) {
        const int z = b->block_other[t];
        s->turn_blocked[z] = stamp;
        s->turn_by[2 * z] = b->block_by[2 * t];
        s->turn_by[2 * z + 1] = b->block_by[2 * t + 1];
    }
}

/* Whether the path that entered p from the node last marked cannot leave it to z (rules.DeadTurns.is_dead). */
static int is_dead(const Core *s, int p, int z) {
    const int32_t stamp = s->turn_stamp;
    return s->turn_near[z] == stamp ||
           (s->turn_blocked[z] == stamp && (s->turn_by[2 * z] != p || s->turn_by[2 * z + 1] >= 0));
}

/* The degree, colour, loop and dead-turn rules on queued nodes until none is queued. */
static int local(Core *s, State *f) {
    const Board *b = &s->b;
    int32_t *near = s->open_near, *via = s->open_via;
    while (s->queued_count) {
        const int i = s->queue[--s->queued_count];
        s->queued[i] = 0;
        if (!s->dirty[i]) {
            s->dirty[i] = 1;
            s->dirty_list[s->dirty_count++] = i;
        }
        if (!f->free[i]) {
            if (f->degree[i] < b->need[i])
                return no_way(s, RULE_DEGREE);
            continue;
        }
        int open = 0;
        for (int x = b->first[i]; x < b->first[i + 1]; x++)
            if (f->state[b->via[x]] == UNDECIDED) {
                near[open] = b->near[x];
                via[open++] = b->via[x];
            }
        const int wanted = b->need[i] - f->degree[i];
        if (wanted == 0) {
            for (int u = 0; u < open; u++)
                TRY(cut(s, f, via[u]));
        } else if (wanted > open) {
            return no_way(s, RULE_DEGREE);
        } else if (wanted == open) {
            for (int u = 0; u < open; u++)
                if (f->state[via[u]] == UNDECIDED)
                    TRY(join(s, f, via[u]));
        } else {
            if (f->degree[i] == 1 && b->turning[i]) {
                int entered = -1, dead = 0;
                for (int x = b->first[i]; x < b->first[i + 1]; x++)
                    if (f->state[b->via[x]] == IN)
                        entered = b->near[x];
                mark_turns(s, entered);
                for (int u = 0; u < open; u++)
                    if (f->state[via[u]] == UNDECIDED && is_dead(s, i, near[u])) {
                        TRY(cut(s, f, via[u])); /* the path cannot turn that way here */
                        dead = 1;
                    }
                if (dead)
                    continue;
            }
            const int ci = f->colour[i], end = f->degree[i] ? f->other[i] : -1;
            for (int u = 0; u < open; u++) {
                const int j = near[u], e = via[u];
                if (f->state[e] != UNDECIDED)
                    continue;
                const int cj = f->colour[j];
                if (ci != NONE && cj != NONE) {
                    if (ci != cj) {
                        TRY(cut(s, f, e));
                    } else {
                        TRY(join(s, f, e));
                        break; /* i changed: look again */
                    }
                } else if (j == end) {
                    TRY(cut(s, f, e));
                } else if ((cj != NONE && is_banned(s, f, i, cj)) || (ci != NONE && is_banned(s, f, j, ci))) {
                    TRY(cut(s, f, e)); /* joining would give a node a colour it cannot take */
                }
            }
        }
    }
    return OK;
}

/* A base above every mark in use, for up to `used` new marks (all marks cleared near overflow). */
static int32_t fresh(int32_t *stamp, int32_t *marks, int n, int used) {
    if (*stamp > INT32_MAX - used - 2) {
        memset(marks, 0, sizeof(int32_t) * (size_t)n);
        *stamp = 0;
    }
    return *stamp;
}

/* The chamber rule over the regions within or beside nodes looked at since it last held;
 * *painted says whether it coloured anything. A flood stops at a region's second colour. */
static int chambers(Core *s, State *f, int *painted) {
    const Board *b = &s->b;
    const int n = b->n;
    int starts = 0;
    if (s->all_dirty) {
        for (int i = 0; i < n; i++)
            s->starts[starts++] = i;
        s->all_dirty = 0;
    } else {
        for (int d = 0; d < s->dirty_count; d++) {
            const int i = s->dirty_list[d];
            for (int x = b->first[i] - 1; x < b->first[i + 1]; x++) { /* i, then its neighbours */
                const int j = x < b->first[i] ? i : b->near[x];
                if (!s->listed[j]) {
                    s->listed[j] = 1;
                    s->starts[starts++] = j;
                }
            }
        }
        for (int w = 0; w < starts; w++)
            s->listed[s->starts[w]] = 0;
    }
    forget_dirty(s);
    const int32_t base = fresh(&s->mark_stamp, s->mark, n, n);
    int32_t flood = base;
    *painted = 0;
    for (int w = 0; w < starts; w++) {
        const int start = s->starts[w];
        if (f->colour[start] != NONE || s->mark[start] > base)
            continue;
        s->mark_stamp = ++flood;
        int size = 0, top = 0, colour = NONE, two = 0;
        s->region[size++] = start;
        s->stack[top++] = start;
        s->mark[start] = flood;
        while (top && !two) {
            const int i = s->stack[--top];
            for (int x = b->first[i]; x < b->first[i + 1]; x++) {
                if (f->state[b->via[x]] == OUT)
                    continue;
                const int j = b->near[x], cj = f->colour[j];
                if (cj == NONE) {
                    if (s->mark[j] <= base) {
                        s->mark[j] = flood;
                        s->region[size++] = j;
                        s->stack[top++] = j;
                    } else if (s->mark[j] != flood) {
                        two = 1; /* an earlier flood's region, which stopped at two colours */
                    }
                } else if (f->degree[j] < b->need[j]) {
                    if (colour == NONE)
                        colour = cj;
                    else if (colour != cj)
                        two = 1;
                }
            }
        }
        if (two)
            continue;
        if (colour == NONE)
            return no_way(s, RULE_CHAMBER); /* no path can reach these nodes */
        for (int r = 0; r < size; r++)
            TRY(paint(s, f, s->region[r], colour));
        *painted = 1;
    }
    return OK;
}

/* Each open colour's endpoints meet through nodes it may take; a node only one colour reaches
 * takes it, a node none reaches is a dead end. */
static int reach(Core *s, State *f, int *painted) {
    const Board *b = &s->b;
    const int n = b->n;
    memset(s->reached, 0, sizeof(int32_t) * (size_t)n);
    *painted = 0;
    for (int c = 0; c < b->k; c++) {
        const int a = b->pairs[2 * c], z = b->pairs[2 * c + 1];
        if (f->other[a] == z)
            continue; /* done */
        if (now() > s->start_ends)
            return LATE; /* a board of thousands of colours takes long */
        const int32_t seen = fresh(&s->seen_stamp, s->seen, n, 1) + 1;
        s->seen_stamp = seen;
        int top = 0;
        s->seen[a] = seen;
        s->stack[top++] = a;
        while (top) {
            const int i = s->stack[--top];
            for (int x = b->first[i]; x < b->first[i + 1]; x++) {
                const int j = b->near[x];
                if (s->seen[j] == seen || f->state[b->via[x]] == OUT)
                    continue;
                if (f->colour[j] == c || (f->colour[j] == NONE && !is_banned(s, f, j, c))) {
                    s->seen[j] = seen;
                    s->stack[top++] = j;
                    if (f->colour[j] == NONE) {
                        s->reached[j]++;
                        s->last[j] = c;
                    }
                }
            }
        }
        if (s->seen[z] != seen)
            return no_way(s, RULE_REACH); /* the colour's endpoints cannot meet */
    }
    for (int i = 0; i < n; i++) {
        if (f->colour[i] != NONE)
            continue;
        if (!s->reached[i])
            return no_way(s, RULE_REACH);
        if (s->reached[i] == 1) {
            TRY(paint(s, f, i, s->last[i]));
            *painted = 1;
        }
    }
    return OK;
}

/* Apply the rules until none applies (rules.Partial.settle); the reach rule only when asked. */
static int settle(Core *s, State *f, int with_reach) {
    for (;;) {
        int painted;
        TRY(local(s, f));
        TRY(chambers(s, f, &painted));
        if (painted)
            continue;
        if (!with_reach)
            return OK;
        TRY(reach(s, f, &painted));
        if (!painted)
            return OK;
    }
}

/* -- dead turns (rules.DeadTurns) ---------------------------------------------------------- */

/* A pair of a small node's neighbours (a < z), the node q of two to four neighbours beside both,
 * and the pair's place k among q's pairs (x < y in q's list: (0,1) (0,2) (0,3) (1,2) (1,3) (2,3),
 * so that with four neighbours the other two are pair 5 - k). */
typedef struct {
    int32_t a, z, q, k;
} Beside;

static int by_pair(const void *one, const void *other) {
    const Beside *x = one, *y = other;
    if (x->a != y->a)
        return x->a < y->a ? -1 : 1;
    if (x->z != y->z)
        return x->z < y->z ? -1 : 1;
    return (x->q > y->q) - (x->q < y->q);
}

/* Whether place t is its pair's first in the sorted pairs. */
static int opens(const Beside *all, int t) {
    return t == 0 || all[t - 1].a != all[t].a || all[t - 1].z != all[t].z;
}

static int degree_of(const Board *b, int i) {
    return b->first[i + 1] - b->first[i];
}

/* The small nodes' pairs, sorted by pair; *count of them, and each node's six places into them. */
static Beside *pairs_beside(const Board *b, int *count, int32_t *six) {
    int total = 0;
    for (int q = 0; q < b->n; q++) {
        const int d = degree_of(b, q);
        if (b->need[q] == 2 && d >= 2 && d <= 4)
            total += d * (d - 1) / 2;
    }
    Beside *all = malloc(sizeof(Beside) * ((size_t)total + 1));
    if (!all)
        return NULL;
    int w = 0;
    for (int q = 0; q < b->n; q++) {
        const int d = degree_of(b, q), f0 = b->first[q];
        if (b->need[q] != 2 || d < 2 || d > 4)
            continue;
        for (int x = 0, k = 0; x < d; x++)
            for (int y = x + 1; y < d; y++, k++)
                all[w++] = (Beside){b->near[f0 + x], b->near[f0 + y], q, k};
    }
    qsort(all, (size_t)total, sizeof(Beside), by_pair);
    for (int t = 0; t < total; t++)
        if (degree_of(b, all[t].q) == 4)
            six[6 * all[t].q + all[t].k] = t;
    *count = total;
    return all;
}

/* Each pair's blockers (rules._blockers), spread through a worklist of (blocker, pair's first
 * place in `all`); by[2g], by[2g+1] for the pair starting at place g. */
static int spread_blocks(const Board *b, const Beside *all, int total, const int32_t *six, const int32_t *start,
                         int32_t *by) {
    int32_t *work = malloc(sizeof(int32_t) * (6 * (size_t)total + 2));
    if (!work)
        return -1;
    int top = 0;
    for (int t = 0; t < total; t++) {
        const Beside *p = &all[t];
        if (degree_of(b, p->q) < 4) { /* cut from the pair, q has fewer than two edges left */
            work[top++] = p->q;
            work[top++] = start[t];
        } else if (is_near(b, p->a, p->z)) { /* its turn through the pair is dead: it blocks the other two */
            work[top++] = p->q;
            work[top++] = start[six[6 * p->q + 5 - p->k]];
        }
    }
    while (top) {
        const int g = work[--top], q = work[--top];
        if (by[2 * g] == q || by[2 * g + 1] >= 0)
            continue;
        const int second = by[2 * g] >= 0;
        by[2 * g + second] = q;
        for (int t = g; t < total && all[t].a == all[g].a && all[t].z == all[g].z; t++) {
            const int m = all[t].q; /* the nodes of four whose turn through the pair dies now */
            if (degree_of(b, m) == 4 && (second ? m == by[2 * g] : m != q)) {
                work[top++] = m;
                work[top++] = start[six[6 * m + 5 - all[t].k]];
            }
        }
    }
    free(work);
    return 0;
}

/* Whether some turn through each node is dead (rules._turning); the blocked pairs as each
 * node's lists (Board.block_first). */
static int list_blocks(Board *b, const Beside *all, int total, const int32_t *by, int32_t *mark) {
    const int n = b->n;
    b->turning = calloc((size_t)n + 1, 1);
    b->block_first = calloc((size_t)n + 2, sizeof(int32_t));
    if (!b->turning || !b->block_first)
        return -1;
    int blocked = 0;
    for (int t = 0; t < total; t++)
        if (opens(all, t) && by[2 * t] >= 0) {
            b->block_first[all[t].a + 2]++;
            b->block_first[all[t].z + 2]++;
            blocked++;
        }
    for (int i = 0; i < n; i++)
        b->block_first[i + 2] += b->block_first[i + 1];
    b->block_other = malloc(sizeof(int32_t) * (2 * (size_t)blocked + 1));
    b->block_by = malloc(sizeof(int32_t) * (4 * (size_t)blocked + 2));
    if (!b->block_other || !b->block_by)
        return -1;
    for (int t = 0; t < total; t++) {
        if (!opens(all, t) || by[2 * t] < 0)
            continue;
        const int ends[2] = {all[t].a, all[t].z};
        for (int side = 0; side < 2; side++) {
            const int w = b->block_first[ends[side] + 1]++;
            b->block_other[w] = ends[1 - side];
            b->block_by[2 * w] = by[2 * t];
            b->block_by[2 * w + 1] = by[2 * t + 1];
        }
        /* the nodes beside both, no endpoints, with a blocker other than themselves */
        for (int u = b->first[all[t].a]; u < b->first[all[t].a + 1]; u++)
            mark[b->near[u]] = t + 1;
        for (int u = b->first[all[t].z]; u < b->first[all[t].z + 1]; u++) {
            const int p = b->near[u];
            if (mark[p] == t + 1 && b->need[p] == 2 && (by[2 * t] != p || by[2 * t + 1] >= 0))
                b->turning[p] = 1;
        }
    }
    for (int p = 0; p < n; p++) { /* a turn between two neighbours */
        if (b->need[p] != 2 || b->turning[p])
            continue;
        for (int u = b->first[p]; u < b->first[p + 1]; u++)
            mark[b->near[u]] = -(p + 1);
        for (int u = b->first[p]; u < b->first[p + 1] && !b->turning[p]; u++)
            for (int v = b->first[b->near[u]]; v < b->first[b->near[u] + 1] && !b->turning[p]; v++)
                b->turning[p] = mark[b->near[v]] == -(p + 1);
    }
    return 0;
}

/* The dead turns as the board's blocked pairs and turning nodes, in room linear in the edges. */
static int find_dead_turns(Board *b) {
    const int n = b->n;
    int total = 0, ok = -1;
    int32_t *six = malloc(sizeof(int32_t) * (6 * (size_t)n + 1)), *start = NULL, *by = NULL;
    int32_t *mark = calloc((size_t)n + 1, sizeof(int32_t));
    Beside *all = six && mark ? pairs_beside(b, &total, six) : NULL;
    if (all) {
        start = malloc(sizeof(int32_t) * ((size_t)total + 1));
        by = malloc(sizeof(int32_t) * (2 * (size_t)total + 2));
    }
    if (start && by) {
        for (int t = 0; t < total; t++) { /* each place's pair starts where */
            start[t] = opens(all, t) ? t : start[t - 1];
            by[2 * t] = by[2 * t + 1] = -1;
        }
        ok = spread_blocks(b, all, total, six, start, by) || list_blocks(b, all, total, by, mark) ? -1 : 0;
    }
    free(six);
    free(mark);
    free(all);
    free(start);
    free(by);
    return ok;
}

/* -- the search (search.Search.solutions) ------------------------------------------------- */

static double now(void) {
    struct timespec t;
#ifdef CLOCK_MONOTONIC
    clock_gettime(CLOCK_MONOTONIC, &t);
#else
    timespec_get(&t, TIME_UTC); /* C11, where POSIX clocks are missing (Windows) */
#endif
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The first undecided edge of the first node in the scan with one: no node before the frame's
 * place has one (decisions are only ever added), so the search starts there. */
static int first_open(const Board *b, const State *f) {
    for (int w = f->head[0]; w < b->n; w++) {
        const int i = b->scan[w];
        if (f->free[i])
            for (int x = b->first[i]; x < b->first[i + 1]; x++)
                if (f->state[b->via[x]] == UNDECIDED) {
                    f->head[0] = w;
                    return b->via[x];
                }
    }
    f->head[0] = b->n;
    return -1;
}

static int is_complete(const Board *b, const State *f) {
    for (int i = 0; i < b->n; i++)
        if (f->degree[i] != b->need[i])
            return 0;
    return 1;
}

/* Each colour's path from its first endpoint, as node numbers into `paths` (n of them). */
static void read_paths(const Board *b, const State *f, int32_t *paths) {
    int w = 0;
    for (int c = 0; c < b->k; c++) {
        int i = b->pairs[2 * c], previous = -1;
        paths[w++] = i;
        while (i != b->pairs[2 * c + 1]) {
            int step = -1;
            for (int x = b->first[i]; x < b->first[i + 1] && step < 0; x++)
                if (f->state[b->via[x]] == IN && b->near[x] != previous)
                    step = b->near[x];
            previous = i;
            i = step;
            paths[w++] = i;
        }
    }
}

static int grow(Core *s) {
    if (s->top + 1 < s->capacity)
        return 0;
    const int capacity = 2 * s->capacity;
    char *frames = realloc(s->frames, s->size * (size_t)capacity);
    if (!frames)
        return -1;
    s->frames = frames;
    s->capacity = capacity;
    return 0;
}

/* Go on searching: SOLVED (its paths in `paths`), DONE (no more solutions), EXHAUSTED (after
 * `budget` more branches), TIMED_OUT (after `seconds`, and one branch when `seconds` > 0: a
 * passed deadline stops the search before it branches, as in Python), or -1 (out of memory). */
static int run(Core *s, long long budget, double seconds, int32_t *paths) {
    const Board *b = &s->b;
    const long long began = s->branches, limit = s->branches + budget;
    const double end = now() + seconds;
    while (s->top >= 0) {
        State f = frame(s, s->top);
        if (f.head[1]) {
            f.head[1] = 0;
            int way = f.head[3] == IN ? join(s, &f, f.head[2]) : cut(s, &f, f.head[2]);
            if (way == OK)
                way = settle(s, &f, 0); /* the reach rule costs more than it saves here */
            if (way != OK) {
                forget_queue(s);
                s->top--;
                continue;
            }
        }
        const int e = first_open(b, &f);
        if (e < 0) {
            s->top--;
            if (is_complete(b, &f)) {
                read_paths(b, &f, paths);
                return SOLVED;
            }
            continue;
        }
        if (s->branches >= limit)
            return EXHAUSTED;
        if ((s->branches > began || seconds <= 0) && now() > end)
            return TIMED_OUT; /* given time, one branch at least: every such call goes on */
        if (grow(s))
            return -1;
        s->branches++;
        f = frame(s, s->top);
        memcpy(s->frames + (size_t)(s->top + 1) * s->size, f.banned, s->size);
        State in = frame(s, s->top + 1);
        f.head[1] = in.head[1] = 1;
        f.head[2] = in.head[2] = e;
        f.head[3] = OUT;
        in.head[3] = IN;
        s->top++;
    }
    return DONE;
}

/* -- Python ---------------------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD Core core;
    int busy;
} SearchObject;

static void core_free(Core *s) {
    Board *b = &s->b;
    void *blocks[] = {b->ends,    b->first,   b->near,  b->via,    b->need,   b->pairs,  b->scan,
                      b->turning, b->block_first, b->block_other, b->block_by, s->turn_near, s->turn_blocked, s->turn_by, s->frames, s->queue,  s->queued, s->stack,
                      s->region,  s->starts,  s->mark,  s->seen,   s->reached, s->last,
                      s->dirty_list, s->dirty, s->listed, s->open_near, s->open_via};
    for (size_t x = 0; x < sizeof blocks / sizeof blocks[0]; x++)
        free(blocks[x]);
    memset(s, 0, sizeof *s);
}

static void Search_dealloc(SearchObject *self) {
    core_free(&self->core);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static void *copy_of(const Py_buffer *view, size_t bytes) {
    void *p = malloc(bytes ? bytes : 1);
    if (p && bytes)
        memcpy(p, view->buf, bytes);
    return p;
}

/* Number the board as the arguments give it and settle its start; ValueError on a start the
 * rules already refute (the Python side's Contradiction). */
static int setup(Core *s, int n, const Py_buffer *edges, const Py_buffer *need, const Py_buffer *colour,
                 const Py_buffer *pairs, const Py_buffer *scan) {
    Board *b = &s->b;
    const int m = (int)(edges->len / 8), k = (int)(pairs->len / 8);
    b->n = n;
    b->m = m;
    b->k = k;
    b->ends = copy_of(edges, 8 * (size_t)m);
    b->need = copy_of(need, (size_t)n);
    b->pairs = copy_of(pairs, 8 * (size_t)k);
    b->scan = copy_of(scan, 4 * (size_t)n);
    b->first = calloc((size_t)n + 1, sizeof(int32_t));
    b->near = malloc(sizeof(int32_t) * (2 * (size_t)m + 1));
    b->via = malloc(sizeof(int32_t) * (2 * (size_t)m + 1));
    s->queue = malloc(sizeof(int32_t) * ((size_t)n + 1));
    s->queued = calloc((size_t)n + 1, 1);
    s->stack = malloc(sizeof(int32_t) * ((size_t)n + 1));
    s->region = malloc(sizeof(int32_t) * ((size_t)n + 1));
    s->starts = malloc(sizeof(int32_t) * ((size_t)n + 1));
    s->mark = calloc((size_t)n + 1, sizeof(int32_t));
    s->seen = calloc((size_t)n + 1, sizeof(int32_t));
    s->reached = calloc((size_t)n + 1, sizeof(int32_t));
    s->last = calloc((size_t)n + 1, sizeof(int32_t));
    s->dirty_list = malloc(sizeof(int32_t) * ((size_t)n + 1));
    s->dirty = calloc((size_t)n + 1, 1);
    s->listed = calloc((size_t)n + 1, 1);
    s->all_dirty = 1;
    b->words = k / 64 + 1;
    s->size = frame_size(n, m, b->words);
    s->capacity = 16;
    s->frames = calloc((size_t)s->capacity, s->size);
    if (!(b->ends && b->need && b->pairs && b->scan && b->first && b->near && b->via && s->queue && s->queued &&
          s->stack && s->region && s->starts && s->mark && s->seen && s->reached && s->last && s->frames &&
          s->dirty_list && s->dirty && s->listed))
        return -1;
    for (int e = 0; e < 2 * m; e++)
        if (b->ends[e] < 0 || b->ends[e] >= n)
            return -2;
    for (int e = 0; e < 2 * m; e++)
        b->first[b->ends[e] + 1]++;
    for (int i = 0; i < n; i++) {
        if (b->first[i + 1] > 255)
            return -2; /* a node's degree and undecided edges are bytes */
        if (b->first[i + 1] > b->widest)
            b->widest = b->first[i + 1];
    }
    for (int i = 0; i < n; i++)
        b->first[i + 1] += b->first[i];
    s->open_near = malloc(sizeof(int32_t) * ((size_t)b->widest + 1));
    s->open_via = malloc(sizeof(int32_t) * ((size_t)b->widest + 1));
    s->turn_near = calloc((size_t)n + 1, sizeof(int32_t));
    s->turn_blocked = calloc((size_t)n + 1, sizeof(int32_t));
    s->turn_by = malloc(sizeof(int32_t) * (2 * (size_t)n + 2));
    if (!(s->open_near && s->open_via && s->turn_near && s->turn_blocked && s->turn_by))
        return -1;
    for (int i = 0; i < n; i++)
        if (b->need[i] != 1 && b->need[i] != 2)
            return -2;
    for (int c = 0; c < 2 * k; c++)
        if (b->pairs[c] < 0 || b->pairs[c] >= n)
            return -2;
    for (int w = 0; w < n; w++) { /* the scan is every node once */
        if (b->scan[w] < 0 || b->scan[w] >= n || s->queued[b->scan[w]])
            return -2;
        s->queued[b->scan[w]] = 1;
    }
    memset(s->queued, 0, (size_t)n);
    int32_t *fill = calloc((size_t)n + 1, sizeof(int32_t));
    if (!fill)
        return -1;
    for (int e = 0; e < m; e++) /* in edge order, as rules.Graph.adjacent */
        for (int side = 0; side < 2; side++) {
            const int i = b->ends[2 * e + side], j = b->ends[2 * e + 1 - side];
            b->near[b->first[i] + fill[i]] = j;
            b->via[b->first[i] + fill[i]++] = e;
        }
    free(fill);
    if (find_dead_turns(b))
        return -1;
    State f = frame(s, 0);
    for (int i = 0; i < n; i++) {
        int32_t given; /* -1: not yet known */
        memcpy(&given, (const char *)colour->buf + 4 * (size_t)i, sizeof given);
        if (given < NONE || given >= k)
            return -2;
        f.colour[i] = (int16_t)given;
        f.other[i] = i;
        f.free[i] = (uint8_t)(b->first[i + 1] - b->first[i]);
        s->queued[i] = 1;
        s->queue[s->queued_count++] = i;
    }
    f.head[0] = 0;
    return 0;
}

static PyObject *Search_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"n", "edges", "need", "colour", "pairs", "scan", "seconds", NULL};
    int n;
    double seconds = -1;
    Py_buffer edges, need, colour, pairs, scan;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iy*y*y*y*y*|d", names, &n, &edges, &need, &colour, &pairs, &scan,
                                     &seconds))
        return NULL;
    SearchObject *self = NULL;
    const char *wrong = NULL;
    if (n < 1 || need.len != n || colour.len != 4 * (Py_ssize_t)n || scan.len != 4 * (Py_ssize_t)n || edges.len % 8 ||
        pairs.len % 8 || pairs.len / 8 > INT16_MAX)
        wrong = "a board of n >= 1 nodes and under 32,768 colours, as cpflow.deduce.compiled numbers it";
    else if ((self = (SearchObject *)type->tp_alloc(type, 0)) != NULL) {
        const int made = setup(&self->core, n, &edges, &need, &colour, &pairs, &scan);
        if (made == -1)
            PyErr_NoMemory();
        else if (made == -2)
            wrong = "a node off the board or of over 255 neighbours, a colour not among the pairs', a need other than "
                    "1 or 2, or a scan that is not every node once";
        if (made) {
            Py_CLEAR(self);
        }
    }
    PyBuffer_Release(&edges);
    PyBuffer_Release(&need);
    PyBuffer_Release(&colour);
    PyBuffer_Release(&pairs);
    PyBuffer_Release(&scan);
    if (wrong)
        PyErr_SetString(PyExc_ValueError, wrong);
    if (!self)
        return NULL;
    Core *s = &self->core;
    State f = frame(s, 0);
    int settled;
    s->start_ends = seconds < 0 ? HUGE_VAL : now() + seconds;
    Py_BEGIN_ALLOW_THREADS
    settled = settle(s, &f, 1);
    Py_END_ALLOW_THREADS
    if (settled == LATE) {
        Py_DECREF(self);
        PyErr_SetString(PyExc_TimeoutError, "settling the start ran out of time");
        return NULL;
    }
    if (settled != OK) {
        forget_queue(s);
        s->top = -1;
        self->busy = -1; /* refuted */
    }
    return (PyObject *)self;
}

static PyObject *Search_run(SearchObject *self, PyObject *args) {
    long long budget;
    double seconds;
    if (!PyArg_ParseTuple(args, "Ld", &budget, &seconds))
        return NULL;
    if (self->busy > 0) {
        PyErr_SetString(PyExc_RuntimeError, "the search is running in another thread");
        return NULL;
    }
    Core *s = &self->core;
    PyObject *paths = PyBytes_FromStringAndSize(NULL, 4 * (Py_ssize_t)s->b.n);
    if (!paths)
        return NULL;
    int status = DONE;
    if (self->busy == 0) {
        self->busy = 1;
        int32_t *out = (int32_t *)PyBytes_AS_STRING(paths);
        Py_BEGIN_ALLOW_THREADS
        status = run(s, budget, seconds, out);
        Py_END_ALLOW_THREADS
        self->busy = 0;
    }
    if (status < 0) {
        Py_DECREF(paths);
        return PyErr_NoMemory();
    }
    if (status != SOLVED) {
        Py_DECREF(paths);
        return Py_BuildValue("iO", status, Py_None);
    }
    return Py_BuildValue("iN", status, paths);
}

static PyObject *Search_branches(SearchObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(self->core.branches);
}

static PyObject *Search_held(SearchObject *self, void *closure) {
    (void)closure;
    return PyLong_FromSize_t(self->core.size * (size_t)self->core.capacity);
}

static PyObject *Search_refuted(SearchObject *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(self->busy < 0);
}

static PyObject *Search_broken(SearchObject *self, void *closure) {
    (void)closure;
    if (self->busy >= 0)
        Py_RETURN_NONE;
    return PyLong_FromLong(self->core.broken);
}

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)Search_run, METH_VARARGS,
     "run(budget, seconds) -> (status, paths): 0 no more solutions, 1 solved (paths: int32 node numbers, "
     "colour by colour from its first endpoint), 2 out of branches, 3 out of time."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"branches", (getter)Search_branches, NULL, "branches taken so far", NULL},
    {"held", (getter)Search_held, NULL, "bytes the stack of frames holds", NULL},
    {"refuted", (getter)Search_refuted, NULL, "whether settling the start found no way on", NULL},
    {"broken", (getter)Search_broken, NULL, "the number of the rule that refuted the start (rules()), or None", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "cpflow.deduce._core.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search(n, edges, need, colour, pairs, scan, seconds=-1): the start settled (TimeoutError "
              "after `seconds`, when given), ready to run.",
    .tp_new = Search_new,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

/* The rules' names by number: the rule book's, so that Python can name what the core meets. */
static PyObject *rules(PyObject *module, PyObject *unused) {
    (void)module;
    (void)unused;
    PyObject *names = PyTuple_New(RULE_COUNT);
    if (!names)
        return NULL;
    for (int r = 0; r < RULE_COUNT; r++) {
        PyObject *name = PyUnicode_FromString(RULE_NAMES[r]);
        if (!name) {
            Py_DECREF(names);
            return NULL;
        }
        PyTuple_SET_ITEM(names, r, name);
    }
    return names;
}

static PyMethodDef module_methods[] = {
    {"rules", rules, METH_NOARGS, "rules() -> the rules' names, by the numbers the core gives them (`broken`)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_core", "cpflow's compiled search", -1, module_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m)
        return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
