/*
 * stress.c: many threads on the library at once, for a bounded time.
 *
 *   stress [SECONDS [SEED]]     (default 5 s, seed 1)
 *
 * Shared, read-only during the run: a pool of positions (boards: only
 * `const othello_board *` calls on them, from every thread at once) and
 * three shared engines. The threads:
 *
 *  - searchers (4): searches and analyses on a random shared engine and
 *    position with random limits (levels, time and node limits, the classic
 *    strategies, a progress callback that stops its own search; a third of
 *    them on 2 or 3 threads, stopped and cleared like the others): a second
 *    search on a busy engine must get OTHELLO_STATUS_BUSY (and that must be
 *    the thread's own last status), anything else a legal move (even when
 *    stopped), a principal variation starting with it, and an exact score
 *    equal to the one computed before the threads started;
 *    A sixth of their calls ponder instead (othello_engine_ponder() on
 *    the position with random limits, left running for the next call on the
 *    engine, a stop or the end to end): the expected reply must be legal.
 *  - stoppers (2): othello_engine_stop() on a random shared engine at random
 *    moments;
 *  - cloners (2): clone shared boards, play on the clones, pass them through
 *    a queue to be freed by whichever cloner comes next (boards moving
 *    between threads), parse positions back from their strings;
 *  - an owner: creates private engines, searches with fixed limits and
 *    compares with the moves computed before the threads started (engines
 *    must not disturb each other), frees them, while everything else runs;
 *  - a BUSY checker: a search on its own engine whose progress callback
 *    waits until the checker has seen BUSY from a second search, from an
 *    analysis and from clear, then stops it: the search must return stopped
 *    with a legal move;
 *  - players (2): games on boards of their own, by random calls (moves,
 *    passes, undo, redo, book lookups on the shared engines, searches on an
 *    engine of their own, string round trips), each call and what it
 *    answered logged. After the run every player's log is replayed on one
 *    thread, on fresh boards and a fresh engine: every answer (but a book
 *    lookup that found its shared engine BUSY) and every game, move for
 *    move, must be the same.
 *
 * An alarm ends the process if the threads do not finish within SECONDS +
 * 60 s (a hang). Prints counts and "stress: N checks passed", or one line
 * per failed check and exits 1. Built by tests/stress.rs under AddressSanitizer
 * + UBSan (leaks included) and, where it works, ThreadSanitizer.
 */

#define _POSIX_C_SOURCE 200809L

#include "othello.h"

#include "check.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define N_POSITIONS 16
#define N_ENDGAMES 6 /* the last N_ENDGAMES positions: 10..14 empties */
#define N_SHARED_ENGINES 3
#define N_SEARCHERS 4
#define N_STOPPERS 2
#define N_CLONERS 2
#define QUEUE_CAP 8
#define FIXED_LEVEL 4
#define N_PLAYERS 2
#define PLAYER_BOARDS 3
#define LOG_CAP (1 << 18)

static atomic_long n_search_ok, n_search_stopped, n_busy, n_analyze_ok, n_analyze_stopped;
static atomic_long n_threaded, n_ponders;
static atomic_long n_stops, n_clones, n_private_engines, n_busy_rounds, n_parses;
static atomic_long n_player_calls;

/* ------------------------------------------------------------- shared state */

static othello_board *positions[N_POSITIONS];
static char position_strings[N_POSITIONS][67];
static int exact_score[N_POSITIONS];   /* endgames: the exact score */
static int fixed_move[N_POSITIONS];    /* FIXED_LEVEL from a fresh engine */
static int fixed_score[N_POSITIONS];
static othello_engine *shared_engines[N_SHARED_ENGINES];
static double deadline;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int running(void) { return now_s() < deadline; }

/* xorshift64*: each thread its own. */
static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

static int below(uint64_t *s, int n) { return (int)(next_rand(s) % (uint64_t)n); }

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

/* The move is what the board allows: a legal square, or OTHELLO_PASS when
 * the side to move has none. */
static int move_ok(const othello_board *b, int move)
{
    if (move == OTHELLO_PASS) {
        return othello_board_legal_moves(b, NULL, 0) == 0;
    }
    return othello_board_is_legal(b, move);
}

/* ------------------------------------------------------------ positions */

/* Plays random moves from the start until `empties` squares are empty and
 * the side to move has a move. */
static othello_board *random_position(uint64_t *rng, int empties)
{
    for (;;) {
        othello_board *b = othello_board_new();
        int moves[64];
        while (othello_board_count(b, OTHELLO_COLOR_EMPTY) > empties &&
               !othello_board_is_game_over(b)) {
            size_t n = othello_board_legal_moves(b, moves, 64);
            if (n == 0) {
                othello_board_pass(b);
            } else {
                othello_board_play(b, moves[below(rng, (int)n)], NULL, 0, NULL);
            }
        }
        if (!othello_board_is_game_over(b) && othello_board_legal_moves(b, NULL, 0) > 0) {
            return b;
        }
        othello_board_free(b);
    }
}

static void setup_positions(uint64_t seed)
{
    static const int midgame_empties[N_POSITIONS - N_ENDGAMES] = {60, 58, 55, 52, 48,
                                                                  44, 40, 36, 30, 24};
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 1;
    othello_engine *e;
    othello_search_limits lim;
    othello_search_result r;
    int i;
    othello_search_result_init(&r);

    for (i = 0; i < N_POSITIONS; i++) {
        int empties = i < N_POSITIONS - N_ENDGAMES ? midgame_empties[i]
                                                   : 10 + (i - (N_POSITIONS - N_ENDGAMES)) % 5;
        positions[i] = random_position(&rng, empties);
        CHECK(othello_board_to_string(positions[i], position_strings[i], 67, NULL) ==
              OTHELLO_STATUS_OK);
    }
    /* Before any thread: exact scores, and the moves of a fresh engine. */
    for (i = 0; i < N_POSITIONS; i++) {
        e = othello_engine_new(2);
        othello_search_limits_init(&lim);
        lim.level = FIXED_LEVEL;
        CHECK(othello_engine_search(e, positions[i], &lim, &r) == OTHELLO_STATUS_OK);
        fixed_move[i] = r.move;
        fixed_score[i] = r.score;
        if (i >= N_POSITIONS - N_ENDGAMES) {
            othello_engine_clear(e);
            lim.level = 60;
            CHECK(othello_engine_search(e, positions[i], &lim, &r) == OTHELLO_STATUS_OK);
            CHECK(r.exact && !r.stopped);
            exact_score[i] = r.score;
        }
        othello_engine_free(e);
    }
}

/* -------------------------------------------------------------- searchers */

typedef struct {
    const othello_engine *engine;
    int stop_after; /* progress calls before it stops its own search */
    int calls;
} progress_state;

static void on_progress(const othello_search_progress *p, void *userdata)
{
    progress_state *s = userdata;
    CHECK(p != NULL && p->pv_len <= OTHELLO_PV_MAX && (p->pv_len == 0 || p->pv != NULL));
    if (s != NULL && ++s->calls >= s->stop_after) {
        othello_engine_stop(s->engine);
    }
}

static void random_limits(uint64_t *rng, int pos, othello_search_limits *lim,
                          progress_state *ps, othello_engine *e)
{
    othello_search_limits_init(lim);
    lim->seed = next_rand(rng);
    switch (below(rng, 6)) {
    case 0: /* a shallow fixed level */
        lim->level = 1 + below(rng, 4);
        break;
    case 1: /* deeper, bounded by time */
        lim->level = 6 + below(rng, 20);
        lim->time_limit_ms = 1 + below(rng, 80);
        break;
    case 2: /* a node limit */
        lim->level = 8 + below(rng, 20);
        lim->node_limit = 1 + (uint64_t)below(rng, 200000);
        break;
    case 3: /* the 1986 program and the simple rules */
        lim->strategy = (othello_strategy)(1 + below(rng, 4));
        lim->classic_depth = below(rng, 3);
        lim->randomness = below(rng, 2);
        break;
    case 4: /* an exact solve (endgames), time-bounded */
        lim->level = pos >= N_POSITIONS - N_ENDGAMES ? 60 : 3;
        lim->time_limit_ms = 2000;
        break;
    default: /* randomness, a callback that stops the search itself */
        lim->level = 3 + below(rng, 6);
        lim->time_limit_ms = 200;
        lim->randomness = below(rng, 4);
        ps->engine = e;
        ps->stop_after = 1 + below(rng, 4);
        ps->calls = 0;
        lim->progress = on_progress;
        lim->userdata = ps;
        break;
    }
    /* Helper threads, stopped and cleared from other threads like the
     * rest (the classic strategies ignore them). */
    lim->threads = below(rng, 3) == 0 ? 2 + below(rng, 2) : 1;
}

static void *searcher(void *arg)
{
    uint64_t rng = (uint64_t)(uintptr_t)arg * 7919 + 17;
    while (running()) {
        int pos = below(&rng, N_POSITIONS);
        othello_engine *e = shared_engines[below(&rng, N_SHARED_ENGINES)];
        const othello_board *b = positions[pos];
        othello_search_limits lim;
        othello_search_result r;
        progress_state ps;
        othello_status st;
        othello_search_result_init(&r);

        random_limits(&rng, pos, &lim, &ps, e);
        if (below(&rng, 6) == 0) {
            int expected = -2;
            lim.progress = NULL;
            st = othello_engine_ponder(e, b, &lim, &expected);
            if (st == OTHELLO_STATUS_BUSY) {
                atomic_fetch_add(&n_busy, 1);
                CHECK(othello_last_status() == OTHELLO_STATUS_BUSY);
                sleep_us(below(&rng, 200));
            } else {
                CHECK(st == OTHELLO_STATUS_OK);
                atomic_fetch_add(&n_ponders, 1);
                /* The reply of the side to move in b. */
                CHECK(expected == OTHELLO_PASS ? othello_board_legal_moves(b, NULL, 0) == 0
                                               : othello_board_is_legal(b, expected));
            }
            continue;
        }
        if (below(&rng, 5) == 0) {
            othello_move_score scores[64];
            size_t n = 0;
            lim.progress = NULL;
            if (lim.time_limit_ms == 0 && lim.node_limit == 0) {
                lim.time_limit_ms = 100;
            }
            st = othello_engine_analyze(e, b, &lim, scores, 64, &n);
            if (st == OTHELLO_STATUS_OK) {
                size_t i;
                atomic_fetch_add(&n_analyze_ok, 1);
                CHECK(n == othello_board_legal_moves(b, NULL, 0));
                for (i = 0; i < n; i++) {
                    CHECK(othello_board_is_legal(b, scores[i].move));
                    CHECK(i == 0 || scores[i].score <= scores[i - 1].score);
                }
            } else if (st == OTHELLO_STATUS_BUSY) {
                atomic_fetch_add(&n_busy, 1);
                CHECK(othello_last_status() == OTHELLO_STATUS_BUSY);
                sleep_us(below(&rng, 200));
            } else {
                CHECK(st == OTHELLO_STATUS_STOPPED);
                CHECK(othello_last_status() == OTHELLO_STATUS_STOPPED);
                atomic_fetch_add(&n_analyze_stopped, 1);
            }
            continue;
        }
        if (below(&rng, 50) == 0) {
            othello_engine_clear(e); /* BUSY (ignored) while a search runs */
            continue;
        }
        st = othello_engine_search(e, b, &lim, &r);
        if (st == OTHELLO_STATUS_BUSY) {
            atomic_fetch_add(&n_busy, 1);
            CHECK(othello_last_status() == OTHELLO_STATUS_BUSY);
            sleep_us(below(&rng, 200)); /* let the searches have the cores */
            continue;
        }
        CHECK(st == OTHELLO_STATUS_OK);
        if (st != OTHELLO_STATUS_OK) {
            continue;
        }
        atomic_fetch_add(r.stopped ? &n_search_stopped : &n_search_ok, 1);
        if (lim.threads > 1 && lim.strategy == OTHELLO_STRATEGY_ENGINE) {
            atomic_fetch_add(&n_threaded, 1);
        }
        CHECK(move_ok(b, r.move));
        CHECK(r.pv_len <= OTHELLO_PV_MAX);
        CHECK(r.pv_len == 0 || r.pv[0] == r.move);
        if (r.exact && !r.stopped && lim.randomness == 0 &&
            lim.strategy == OTHELLO_STRATEGY_ENGINE && pos >= N_POSITIONS - N_ENDGAMES) {
            CHECK(r.score == exact_score[pos]);
        }
    }
    return NULL;
}

/* --------------------------------------------------------------- stoppers */

static void *stopper(void *arg)
{
    uint64_t rng = (uint64_t)(uintptr_t)arg * 104729 + 3;
    while (running()) {
        sleep_us(below(&rng, 3000));
        othello_engine_stop(shared_engines[below(&rng, N_SHARED_ENGINES)]);
        atomic_fetch_add(&n_stops, 1);
    }
    return NULL;
}

/* ---------------------------------------------------------------- cloners */

static othello_board *queue[QUEUE_CAP];
static int queue_len;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;

static void *cloner(void *arg)
{
    uint64_t rng = (uint64_t)(uintptr_t)arg * 15485863 + 5;
    while (running()) {
        int pos = below(&rng, N_POSITIONS);
        othello_board *c = othello_board_clone(positions[pos]);
        othello_board *old = NULL;
        char text[67];
        int moves[64], i;

        CHECK(c != NULL);
        if (c == NULL) {
            continue;
        }
        atomic_fetch_add(&n_clones, 1);
        CHECK(othello_board_to_string(c, text, sizeof text, NULL) == OTHELLO_STATUS_OK);
        CHECK(strcmp(text, position_strings[pos]) == 0);
        for (i = 0; i < 6 && !othello_board_is_game_over(c); i++) {
            size_t n = othello_board_legal_moves(c, moves, 64);
            if (n == 0) {
                CHECK(othello_board_pass(c) == OTHELLO_STATUS_OK);
            } else {
                CHECK(othello_board_play(c, moves[below(&rng, (int)n)], NULL, 0, NULL) ==
                      OTHELLO_STATUS_OK);
            }
        }
        CHECK(othello_board_count(c, OTHELLO_COLOR_BLACK) +
                  othello_board_count(c, OTHELLO_COLOR_WHITE) +
                  othello_board_count(c, OTHELLO_COLOR_EMPTY) ==
              64);
        /* The shared board is unchanged by all this. */
        CHECK(othello_board_to_string(positions[pos], text, sizeof text, NULL) ==
              OTHELLO_STATUS_OK);
        CHECK(strcmp(text, position_strings[pos]) == 0);
        {
            othello_board *parsed = othello_board_from_string(position_strings[pos]);
            CHECK(parsed != NULL);
            othello_board_free(parsed);
            atomic_fetch_add(&n_parses, 1);
        }
        /* Hand the clone over; free the one another thread left. */
        pthread_mutex_lock(&queue_lock);
        if (queue_len == QUEUE_CAP || (queue_len > 0 && below(&rng, 2) == 0)) {
            old = queue[--queue_len];
        }
        queue[queue_len++] = c;
        pthread_mutex_unlock(&queue_lock);
        othello_board_free(old);
    }
    return NULL;
}

/* ------------------------------------------------------------------ owner */

static void *owner(void *arg)
{
    uint64_t rng = (uint64_t)(uintptr_t)arg;
    while (running()) {
        othello_engine *e = othello_engine_new(2);
        int k;
        CHECK(e != NULL);
        if (e == NULL) {
            continue;
        }
        atomic_fetch_add(&n_private_engines, 1);
        for (k = 0; k < 3 && running(); k++) {
            int pos = below(&rng, N_POSITIONS);
            othello_search_limits lim;
            othello_search_result r;
            othello_search_result_init(&r);
            othello_search_limits_init(&lim);
            lim.level = FIXED_LEVEL;
            othello_engine_clear(e);
            CHECK(othello_engine_search(e, positions[pos], &lim, &r) == OTHELLO_STATUS_OK);
            CHECK(!r.stopped);
            CHECK(r.move == fixed_move[pos] && r.score == fixed_score[pos]);
        }
        othello_engine_free(e);
    }
    return NULL;
}

/* ------------------------------------------------------------ BUSY checker */

typedef struct {
    othello_engine *engine;
    const othello_board *board;
    othello_search_result result;
    othello_status status;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int started;  /* the search reached its first progress call */
    int released; /* the checker is done: the callback may return */
} busy_job;

static void busy_progress(const othello_search_progress *p, void *userdata)
{
    busy_job *job = userdata;
    (void)p;
    pthread_mutex_lock(&job->lock);
    if (!job->started) {
        job->started = 1;
        pthread_cond_broadcast(&job->cond);
        while (!job->released) {
            pthread_cond_wait(&job->cond, &job->lock);
        }
    }
    pthread_mutex_unlock(&job->lock);
}

static void *busy_search(void *arg)
{
    busy_job *job = arg;
    othello_search_limits lim;
    othello_search_limits_init(&lim);
    lim.level = 30;
    lim.book = 0; /* a book move would return before the callback runs */
    lim.time_limit_ms = 5000;
    lim.progress = busy_progress;
    lim.userdata = job;
    othello_search_result_init(&job->result);
    job->status = othello_engine_search(job->engine, job->board, &lim, &job->result);
    return NULL;
}

static void *busy_checker(void *arg)
{
    uint64_t rng = (uint64_t)(uintptr_t)arg;
    othello_engine *e = othello_engine_new(1);
    CHECK(e != NULL);
    while (e != NULL && running()) {
        busy_job job;
        pthread_t t;
        othello_search_result r;
        othello_search_result_init(&r);
        int pos = below(&rng, N_POSITIONS - N_ENDGAMES); /* a midgame: no quick solve */

        memset(&job, 0, sizeof job);
        job.engine = e;
        job.board = positions[pos];
        pthread_mutex_init(&job.lock, NULL);
        pthread_cond_init(&job.cond, NULL);
        CHECK(pthread_create(&t, NULL, busy_search, &job) == 0);
        pthread_mutex_lock(&job.lock);
        while (!job.started) {
            pthread_cond_wait(&job.cond, &job.lock);
        }
        pthread_mutex_unlock(&job.lock);

        /* The search is running (its callback waits): everything else on
         * this engine is BUSY, and that is this thread's last status. */
        CHECK(othello_engine_search(e, positions[pos], NULL, &r) == OTHELLO_STATUS_BUSY);
        CHECK(othello_last_status() == OTHELLO_STATUS_BUSY);
        {
            othello_move_score scores[64];
            CHECK(othello_engine_analyze(e, positions[pos], NULL, scores, 64, NULL) ==
                  OTHELLO_STATUS_BUSY);
        }
        (void)othello_square_parse("z9", NULL);
        CHECK(othello_engine_clear(e) == OTHELLO_STATUS_BUSY);
        CHECK(othello_last_status() == OTHELLO_STATUS_BUSY);
        othello_engine_stop(e);

        pthread_mutex_lock(&job.lock);
        job.released = 1;
        pthread_cond_broadcast(&job.cond);
        pthread_mutex_unlock(&job.lock);
        CHECK(pthread_join(t, NULL) == 0);
        CHECK(job.status == OTHELLO_STATUS_OK);
        CHECK(job.result.stopped);
        CHECK(move_ok(positions[pos], job.result.move));
        pthread_mutex_destroy(&job.lock);
        pthread_cond_destroy(&job.cond);
        atomic_fetch_add(&n_busy_rounds, 1);
    }
    othello_engine_free(e);
    return NULL;
}

/* ----------------------------------------------------------------- players */

enum { OP_PLAY, OP_UNDO, OP_REDO, OP_BOOK, OP_SEARCH, OP_STRING, OP_RESTART };

typedef struct {
    uint8_t board, op;
    int16_t arg;
    othello_status status;
    uint64_t answer; /* a hash of what the call gave back */
} logged_call;

typedef struct {
    uint64_t seed;
    logged_call *log;
    size_t len;
    uint64_t games[PLAYER_BOARDS]; /* each board's final history, hashed */
} player_log;

static player_log player_logs[N_PLAYERS];

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001B3ULL; }

static uint64_t mix_ints(uint64_t h, const int *v, size_t n)
{
    size_t i;
    h = mix(h, n);
    for (i = 0; i < n; i++) {
        h = mix(h, (uint64_t)(int64_t)v[i]);
    }
    return h;
}

static uint64_t game_hash(const othello_board *b)
{
    int turns[200];
    size_t n = 0;
    char text[80];
    uint64_t h = 0xcbf29ce484222325ULL;
    CHECK(othello_board_history(b, turns, 200, &n) == OTHELLO_STATUS_OK);
    CHECK(othello_board_to_string(b, text, sizeof text, NULL) == OTHELLO_STATUS_OK);
    h = mix_ints(h, turns, n);
    for (n = 0; text[n] != '\0'; n++) {
        h = mix(h, (uint64_t)text[n]);
    }
    return h;
}

/* Makes call `c` (its board, operation and argument set) on `boards` with
 * `own` (the player's engine) and `book` (a shared engine); fills in its
 * status and answer. */
static void make_call(logged_call *c, othello_board **boards, othello_engine *own,
                      const othello_engine *book)
{
    othello_board *b = boards[c->board];
    uint64_t h = 0xcbf29ce484222325ULL;
    int flips[64];
    size_t n = 0;
    switch (c->op) {
    case OP_PLAY:
        if (c->arg == OTHELLO_PASS) {
            c->status = othello_board_pass(b);
        } else {
            c->status = othello_board_play(b, c->arg, flips, 64, &n);
            h = mix_ints(h, flips, c->status == OTHELLO_STATUS_OK ? n : 0);
        }
        break;
    case OP_UNDO:
        c->status = othello_board_undo(b);
        break;
    case OP_REDO:
        c->status = othello_board_redo(b);
        break;
    case OP_RESTART: /* a new game: every turn undone */
        c->status = OTHELLO_STATUS_OK;
        while (othello_board_undo(b) == OTHELLO_STATUS_OK) {
            h = mix(h, 1);
        }
        break;
    case OP_BOOK: {
        othello_move_score moves[64];
        size_t i;
        c->status = othello_engine_book_moves(book, b, moves, 64, &n);
        for (i = 0; c->status == OTHELLO_STATUS_OK && i < n; i++) {
            h = mix(mix(h, (uint64_t)moves[i].move), (uint64_t)(int64_t)moves[i].score);
        }
        break;
    }
    case OP_SEARCH: {
        othello_search_limits lim;
        othello_search_result r;
        othello_search_result_init(&r);
        othello_search_limits_init(&lim);
        lim.level = 1 + c->arg % 3;
        c->status = othello_engine_search(own, b, &lim, &r);
        if (c->status == OTHELLO_STATUS_OK) {
            h = mix(mix(mix(h, (uint64_t)r.move), (uint64_t)(int64_t)r.score), r.nodes);
        }
        break;
    }
    default: { /* OP_STRING: the board string read back is the same board */
        char text[80];
        othello_board *copy;
        c->status = othello_board_to_string(b, text, sizeof text, NULL);
        copy = othello_board_from_string(text);
        CHECK(copy != NULL);
        if (copy != NULL) {
            char again[80];
            CHECK(othello_board_to_string(copy, again, sizeof again, NULL) == OTHELLO_STATUS_OK);
            CHECK(strcmp(text, again) == 0);
            othello_board_free(copy);
        }
        for (n = 0; text[n] != '\0'; n++) {
            h = mix(h, (uint64_t)text[n]);
        }
        break;
    }
    }
    c->answer = h;
}

static void *player(void *arg)
{
    player_log *pl = arg;
    uint64_t rng = pl->seed;
    othello_board *boards[PLAYER_BOARDS];
    othello_engine *own = othello_engine_new(1);
    int i;
    CHECK(own != NULL);
    for (i = 0; i < PLAYER_BOARDS; i++) {
        boards[i] = othello_board_new();
    }
    while (own != NULL && running() && pl->len < LOG_CAP) {
        logged_call *c = &pl->log[pl->len++];
        othello_board *b;
        int moves[64];
        size_t n;
        c->board = (uint8_t)below(&rng, PLAYER_BOARDS);
        b = boards[c->board];
        {
            static const uint8_t ops[12] = {OP_PLAY, OP_PLAY,   OP_PLAY, OP_PLAY,   OP_PLAY,   OP_PLAY,
                                            OP_UNDO, OP_REDO,   OP_BOOK, OP_SEARCH, OP_STRING, OP_STRING};
            c->op = ops[below(&rng, 12)];
        }
        c->arg = (int16_t)below(&rng, 64);
        if (c->op == OP_PLAY && othello_board_is_game_over(b)) {
            c->op = OP_RESTART;
        } else if (c->op == OP_PLAY) {
            n = othello_board_legal_moves(b, moves, 64);
            c->arg = (int16_t)(n == 0 ? OTHELLO_PASS : moves[below(&rng, (int)n)]);
        }
        make_call(c, boards, own, shared_engines[c->board % N_SHARED_ENGINES]);
        atomic_fetch_add(&n_player_calls, 1);
    }
    for (i = 0; i < PLAYER_BOARDS; i++) {
        pl->games[i] = game_hash(boards[i]);
        othello_board_free(boards[i]);
    }
    othello_engine_free(own);
    return NULL;
}

/* Replays a player's log on one thread: the same answers, the same games. */
static void replay(const player_log *pl)
{
    othello_board *boards[PLAYER_BOARDS];
    othello_engine *own = othello_engine_new(1);
    othello_engine *book = othello_engine_new(1);
    size_t k, differ = 0;
    int i;
    for (i = 0; i < PLAYER_BOARDS; i++) {
        boards[i] = othello_board_new();
    }
    for (k = 0; k < pl->len; k++) {
        logged_call c = pl->log[k];
        make_call(&c, boards, own, book);
        if (pl->log[k].op == OP_BOOK && pl->log[k].status == OTHELLO_STATUS_BUSY) {
            continue; /* its shared engine was searching: nothing to compare */
        }
        if (c.status != pl->log[k].status || c.answer != pl->log[k].answer) {
            if (differ++ < 5) {
                check_at(__FILE__, __LINE__, 0, "call %zu (op %d on board %d, arg %d) answered %d/%llx, "
                         "%d/%llx on replay", k, c.op, c.board, c.arg, pl->log[k].status,
                         (unsigned long long)pl->log[k].answer, c.status, (unsigned long long)c.answer);
            }
        }
    }
    CHECK(differ == 0);
    for (i = 0; i < PLAYER_BOARDS; i++) {
        CHECK(game_hash(boards[i]) == pl->games[i]);
        othello_board_free(boards[i]);
    }
    othello_engine_free(own);
    othello_engine_free(book);
}

/* ------------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 5.0;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    pthread_t threads[N_SEARCHERS + N_STOPPERS + N_CLONERS + N_PLAYERS + 2];
    int n_threads = 0, i;
    double start;

    if (seconds <= 0) {
        seconds = 5.0;
    }
    alarm((unsigned)seconds + 60); /* a hang kills the process */
    setup_positions(seed);
    for (i = 0; i < N_SHARED_ENGINES; i++) {
        shared_engines[i] = othello_engine_new((size_t)(1 + i));
        CHECK(shared_engines[i] != NULL);
    }
    start = now_s();
    deadline = start + seconds;
    for (i = 0; i < N_SEARCHERS; i++) {
        CHECK(pthread_create(&threads[n_threads++], NULL, searcher,
                             (void *)(uintptr_t)(seed * 100 + i)) == 0);
    }
    for (i = 0; i < N_STOPPERS; i++) {
        CHECK(pthread_create(&threads[n_threads++], NULL, stopper,
                             (void *)(uintptr_t)(seed * 100 + 10 + i)) == 0);
    }
    for (i = 0; i < N_CLONERS; i++) {
        CHECK(pthread_create(&threads[n_threads++], NULL, cloner,
                             (void *)(uintptr_t)(seed * 100 + 20 + i)) == 0);
    }
    CHECK(pthread_create(&threads[n_threads++], NULL, owner, (void *)(uintptr_t)(seed * 100 + 30)) ==
          0);
    CHECK(pthread_create(&threads[n_threads++], NULL, busy_checker,
                         (void *)(uintptr_t)(seed * 100 + 40)) == 0);
    for (i = 0; i < N_PLAYERS; i++) {
        player_logs[i].seed = seed * 100 + 50 + (uint64_t)i;
        player_logs[i].log = calloc(LOG_CAP, sizeof(logged_call));
        CHECK(player_logs[i].log != NULL);
        CHECK(pthread_create(&threads[n_threads++], NULL, player, &player_logs[i]) == 0);
    }
    for (i = 0; i < n_threads; i++) {
        CHECK(pthread_join(threads[i], NULL) == 0);
    }

    for (i = 0; i < N_PLAYERS; i++) {
        replay(&player_logs[i]);
        free(player_logs[i].log);
    }
    for (i = 0; i < queue_len; i++) {
        othello_board_free(queue[i]);
    }
    for (i = 0; i < N_SHARED_ENGINES; i++) {
        othello_engine_free(shared_engines[i]);
    }
    for (i = 0; i < N_POSITIONS; i++) {
        othello_board_free(positions[i]);
    }
    printf("stress: %d threads for %.1f s (seed %llu): searches %ld completed + %ld stopped "
           "(%ld of them on 2-3 threads), %ld BUSY, analyses %ld + %ld stopped, %ld ponders, %ld stop calls, "
           "%ld clones, %ld parses, %ld private engines, %ld BUSY rounds, %ld player calls replayed\n",
           n_threads, now_s() - start, (unsigned long long)seed, atomic_load(&n_search_ok),
           atomic_load(&n_search_stopped), atomic_load(&n_threaded), atomic_load(&n_busy),
           atomic_load(&n_analyze_ok),
           atomic_load(&n_analyze_stopped), atomic_load(&n_ponders), atomic_load(&n_stops), atomic_load(&n_clones),
           atomic_load(&n_parses), atomic_load(&n_private_engines),
           atomic_load(&n_busy_rounds), atomic_load(&n_player_calls));
    CHECK(atomic_load(&n_threaded) > 0 || seconds < 1); /* the helpers ran */
    CHECK(atomic_load(&n_ponders) > 0 || seconds < 1);
    return check_summary("stress");
}
