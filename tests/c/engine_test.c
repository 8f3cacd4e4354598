/*
 * engine_test.c: the search API of othello.h from C.
 *
 *  - bad arguments: NULL handles, invalid limits (each naming its field),
 *    a struct_size that was never initialised;
 *  - game over, forced pass, the one-shot best move;
 *  - the progress callback with its userdata, analyze and its buffers;
 *  - stop from another thread, BUSY on a second concurrent search, the time
 *    limit, determinism with a seed;
 *  - the opening book: the built-in one and its moves, a book move from a
 *    search (and none when the limits or the engine say no), randomness
 *    among book moves, loading a book file (argv[1]) or bad bytes;
 *  - threads: 1 by default, out of range (257, -1, INT_MIN) invalid and
 *    named, not read from a 0.2 struct (struct_size ending before it), the
 *    same exact scores with 2 threads (and one per core) as with 1, a
 *    midgame search and a stop from another thread with 3;
 *  - a small match: engine level 4 against the 1986 program's lookahead 4,
 *    both colours, seeded openings; the engine must win clearly.
 *
 * Prints one line per failed check; exits 1 if any failed, else prints
 * "engine_test: N checks passed".
 */

#include "othello.h"

#include "check.h"

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/* True when the thread's last error message contains `word`. */
static int last_error_mentions(const char *word)
{
    char buf[256];
    size_t n = 0;
    if (othello_last_error(buf, sizeof buf, &n) != OTHELLO_STATUS_OK) {
        return 0;
    }
    return strstr(buf, word) != NULL;
}

static void test_bad_arguments(void)
{
    othello_engine *e = othello_engine_new(1);
    othello_board *b = othello_board_new();
    othello_search_limits lim;
    othello_search_result r;
    othello_search_result_init(&r);
    CHECK(e != NULL && b != NULL);
    othello_search_limits_init(&lim);
    CHECK(lim.struct_size == sizeof lim);

    CHECK(othello_engine_search(NULL, b, &lim, &r) == OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(othello_engine_search(e, NULL, &lim, &r) == OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(othello_engine_search(e, b, &lim, NULL) == OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(othello_engine_new((size_t)1 << 20) == NULL);
    CHECK(othello_last_status() == OTHELLO_STATUS_INVALID_ARGUMENT);

    lim.level = 61;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(last_error_mentions("level"));
    othello_search_limits_init(&lim);
    lim.time_limit_ms = -1;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(last_error_mentions("time_limit_ms"));
    othello_search_limits_init(&lim);
    lim.strategy = (othello_strategy)99;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(last_error_mentions("strategy"));
    othello_search_limits_init(&lim);
    lim.level = -1;
    lim.depth = 0;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(last_error_mentions("depth"));
    othello_search_limits_init(&lim);
    lim.randomness = 65;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(last_error_mentions("randomness"));
    othello_search_limits_init(&lim);
    CHECK(lim.selectivity == -1);
    lim.selectivity = 6;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(last_error_mentions("selectivity"));
    lim.selectivity = -2;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(last_error_mentions("selectivity"));
    for (int s = -1; s <= 5; s++) {
        lim.selectivity = s;
        lim.level = 4;
        CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK);
        CHECK(othello_board_is_legal(b, r.move));
    }
    othello_search_limits_init(&lim);
    lim.strategy = OTHELLO_STRATEGY_CLASSIC;
    lim.classic_depth = 10;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(last_error_mentions("classic_depth"));
    memset(&lim, 0, sizeof lim);
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(last_error_mentions("struct_size"));

    /* The result: init sets its size; without it (or shorter than 1.0's
     * fields) the search refuses, writing nothing. */
    {
        othello_search_result sentinel;
        othello_search_limits_init(&lim);
        lim.level = 2;
        memset(&r, 0x5A, sizeof r);
        othello_search_result_init(&r);
        CHECK(r.struct_size == sizeof r && r.pv_len == 0 && r.nodes == 0 && !r.from_book);
        memset(&r, 0, sizeof r);
        sentinel = r;
        CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
        CHECK(last_error_mentions("othello_search_result_init"));
        CHECK(memcmp(&r, &sentinel, sizeof r) == 0);
        r.struct_size = offsetof(othello_search_result, from_book);
        CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
        r.struct_size = (size_t)1 << 20;
        CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
        /* A later header's larger struct: 1.0's fields written, the size kept. */
        r.struct_size = sizeof r + 16;
        CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK);
        CHECK(r.struct_size == sizeof r + 16 && othello_board_is_legal(b, r.move));
        /* Set-up by size: NULL, a size short of 1.0's struct, and an
         * older program's size (1.0's, here all of it) that must be filled
         * no further. */
        CHECK(othello_search_result_init_(NULL, sizeof r) == OTHELLO_STATUS_NULL_ARGUMENT);
        CHECK(othello_search_limits_init_(NULL, sizeof lim) == OTHELLO_STATUS_NULL_ARGUMENT);
        CHECK(othello_search_result_init_(&r, offsetof(othello_search_result, from_book)) ==
              OTHELLO_STATUS_INVALID_ARGUMENT);
        CHECK(othello_search_limits_init_(&lim, offsetof(othello_search_limits, clock_increment_ms)) ==
              OTHELLO_STATUS_INVALID_ARGUMENT);
        CHECK(last_error_mentions("struct_size"));
        {
            struct {
                othello_search_limits l;
                unsigned char later[16];
            } newer;
            memset(&newer, 0x5A, sizeof newer);
            CHECK(othello_search_limits_init_(&newer.l, sizeof newer) == OTHELLO_STATUS_OK);
            /* A newer program's larger struct: this library's part filled,
             * the size it filled recorded, the rest left alone. */
            CHECK(newer.l.struct_size == sizeof newer.l && newer.l.level == 10);
            CHECK(newer.later[0] == 0x5A && newer.later[15] == 0x5A);
        }
        othello_search_result_init(&r);
    }

    /* NULL limits mean the defaults; a valid search leaves the board alone. */
    {
        char before[80], after[80];
        othello_board_to_string(b, before, sizeof before, NULL);
        othello_search_limits_init(&lim);
        lim.level = 3;
        lim.book = 0; /* the start is in the book: search it */
        CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK);
        CHECK(othello_board_is_legal(b, r.move));
        CHECK(r.pv_len >= 1 && r.pv[0] == r.move);
        CHECK(r.depth == 3 && !r.exact && !r.stopped && r.nodes > 0);
        othello_board_to_string(b, after, sizeof after, NULL);
        CHECK(strcmp(before, after) == 0);
    }

    othello_engine_stop(NULL);
    CHECK(othello_engine_clear(NULL) == OTHELLO_STATUS_NULL_ARGUMENT);
    othello_engine_free(NULL);
    CHECK(othello_engine_clear(e) == OTHELLO_STATUS_OK);
    othello_engine_free(e);
    othello_board_free(b);
}

static void test_game_over_and_pass(void)
{
    othello_engine *e = othello_engine_new(1);
    othello_search_result r;
    int move = 123;
    othello_search_result_init(&r);
    /* Black alone on the board: nobody can move. */
    othello_board *over = othello_board_from_string(
        "X--------------------------------------------------------------- X");
    /* White to move with no move; black has c1. */
    othello_board *pass = othello_board_from_string(
        "XO-------------------------------------------------------------- O");
    CHECK(over != NULL && pass != NULL);
    CHECK(othello_board_mobility(pass, OTHELLO_COLOR_WHITE) == 0);
    CHECK(othello_board_mobility(pass, OTHELLO_COLOR_BLACK) == 1);
    CHECK(othello_board_mobility(pass, OTHELLO_COLOR_EMPTY) == -1);
    CHECK(othello_board_mobility(NULL, OTHELLO_COLOR_BLACK) == -1);
    CHECK(othello_engine_search(e, over, NULL, &r) == OTHELLO_STATUS_GAME_OVER);
    CHECK(othello_board_best_move(over, 3, &move) == OTHELLO_STATUS_GAME_OVER);
    CHECK(move == 123);
    CHECK(othello_engine_search(e, pass, NULL, &r) == OTHELLO_STATUS_OK);
    CHECK(r.move == OTHELLO_PASS);
    CHECK(othello_board_best_move(pass, 3, &move) == OTHELLO_STATUS_OK);
    CHECK(move == OTHELLO_PASS);
    CHECK(othello_board_best_move(pass, 61, &move) == OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(othello_board_best_move(pass, 3, NULL) == OTHELLO_STATUS_NULL_ARGUMENT);
    othello_board_free(over);
    othello_board_free(pass);
    othello_engine_free(e);
}

struct progress_log {
    int calls;
    int last_depth;
    int increasing;
};

static void on_progress(const othello_search_progress *p, void *userdata)
{
    struct progress_log *log = userdata;
    if (p->struct_size != sizeof *p || p->depth <= log->last_depth || p->pv_len < 1 ||
        p->pv[0] != p->best_move) {
        log->increasing = 0;
    }
    log->last_depth = p->depth;
    log->calls++;
}

static void test_progress_and_analyze(void)
{
    othello_engine *e = othello_engine_new(4);
    othello_board *b = othello_board_from_transcript("f5d6c3d3c4f4f6f3e6e7");
    othello_search_limits lim;
    othello_search_result r;
    othello_move_score scores[32];
    struct progress_log log = {0, 0, 1};
    size_t n = 0;
    othello_search_result_init(&r);
    othello_search_limits_init(&lim);
    lim.level = 6;
    lim.book = 0;
    lim.progress = on_progress;
    lim.userdata = &log;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK);
    /* One call an iteration: depths 1, 2, 4 and 6. */
    CHECK(log.calls == 4 && log.increasing && log.last_depth == 6);

    size_t legal = othello_board_legal_moves(b, NULL, 0);
    CHECK(othello_engine_analyze(e, b, &lim, NULL, 0, &n) == OTHELLO_STATUS_OK);
    CHECK(n == legal);
    n = 0;
    CHECK(othello_engine_analyze(e, b, &lim, scores, 1, &n) ==
          OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == legal);
    lim.node_limit = 1; /* the first node already reaches the limit */
    n = 999;
    CHECK(othello_engine_analyze(e, b, &lim, scores, 32, &n) == OTHELLO_STATUS_STOPPED);
    CHECK(n == 999);
    lim.node_limit = 0;
    CHECK(othello_engine_analyze(e, b, &lim, scores, 32, &n) == OTHELLO_STATUS_OK);
    CHECK(n == legal);
    for (size_t i = 0; i < n; i++) {
        CHECK(othello_board_is_legal(b, scores[i].move));
        if (i > 0) {
            CHECK(scores[i - 1].score >= scores[i].score);
        }
    }
    othello_board_free(b);
    othello_engine_free(e);
}

struct search_job {
    othello_engine *engine;
    othello_board *board;
    othello_search_limits limits;
    othello_search_result result;
    othello_status status;
};

static void *run_search(void *arg)
{
    struct search_job *job = arg;
    othello_search_result_init(&job->result);
    job->status = othello_engine_search(job->engine, job->board, &job->limits, &job->result);
    return NULL;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void test_stop_busy_and_time(void)
{
    struct search_job job;
    pthread_t thread;
    othello_search_result r;
    double start;
    othello_search_result_init(&r);
    job.engine = othello_engine_new(8);
    job.board = othello_board_new();
    othello_search_limits_init(&job.limits);
    job.limits.level = 60;
    job.limits.book = 0;

    start = now_ms();
    CHECK(pthread_create(&thread, NULL, run_search, &job) == 0);
    sleep_ms(200);
    /* A second search on the same engine while the first runs: BUSY. */
    CHECK(othello_engine_search(job.engine, job.board, NULL, &r) == OTHELLO_STATUS_BUSY);
    CHECK(othello_engine_clear(job.engine) == OTHELLO_STATUS_BUSY);
    othello_engine_stop(job.engine);
    pthread_join(thread, NULL);
    CHECK(now_ms() - start < 5000);
    CHECK(job.status == OTHELLO_STATUS_OK);
    CHECK(job.result.stopped);
    CHECK(othello_board_is_legal(job.board, job.result.move));

    /* The stop does not carry over to the next search. */
    othello_search_limits_init(&job.limits);
    job.limits.level = 2;
    job.limits.book = 0;
    CHECK(othello_engine_search(job.engine, job.board, &job.limits, &r) == OTHELLO_STATUS_OK);
    CHECK(!r.stopped && r.depth == 2);

    othello_search_limits_init(&job.limits);
    job.limits.level = 60;
    job.limits.book = 0;
    job.limits.time_limit_ms = 300;
    start = now_ms();
    CHECK(othello_engine_search(job.engine, job.board, &job.limits, &r) == OTHELLO_STATUS_OK);
    CHECK(now_ms() - start < 3000);
    CHECK(othello_board_is_legal(job.board, r.move));

    othello_board_free(job.board);
    othello_engine_free(job.engine);
}

/* FFO endgame #1: black to move, 14 empties, g8 alone worth +18. */
static const char *const ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

/* The exact score `scores` (n moves) gives `move`, or -999. */
static int score_of(const othello_move_score *scores, size_t n, int move)
{
    for (size_t i = 0; i < n; i++) {
        if (scores[i].move == move) {
            return scores[i].score;
        }
    }
    return -999;
}

static void test_threads(void)
{
    othello_engine *e = othello_engine_new(16);
    othello_board *b = othello_board_from_string(ffo1);
    othello_search_limits lim;
    othello_search_result one, r;
    othello_search_result_init(&one);
    othello_search_result_init(&r);
    othello_move_score scores[32], scores2[32];
    size_t n = 0, n2 = 0;
    CHECK(e != NULL && b != NULL);

    othello_search_limits_init(&lim);
    CHECK(lim.threads == 1);
    static const int bad[] = {257, -1, INT_MIN, INT_MAX};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        lim.threads = bad[i];
        r.move = 99;
        CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
        CHECK(last_error_mentions("limits.threads"));
        CHECK(r.move == 99);
        CHECK(othello_engine_analyze(e, b, &lim, scores, 32, &n) ==
              OTHELLO_STATUS_INVALID_ARGUMENT);
        CHECK(last_error_mentions("limits.threads"));
    }

    /* One thread: the exact scores of every move, and the solve. */
    othello_search_limits_init(&lim);
    lim.level = 10;
    CHECK(othello_engine_analyze(e, b, &lim, scores, 32, &n) == OTHELLO_STATUS_OK);
    CHECK(n == 8 && scores[0].exact && scores[0].score == 18);
    othello_engine_clear(e);
    CHECK(othello_engine_search(e, b, &lim, &one) == OTHELLO_STATUS_OK);
    CHECK(one.exact && one.score == 18 && one.move == scores[0].move);

    /* A program built against 0.2 passes the struct as it ended before
     * threads: the field is not read (999 would be invalid), one thread
     * searches, to the same node count from a cleared engine. */
    othello_search_limits_init(&lim);
    lim.level = 10;
    lim.struct_size = offsetof(othello_search_limits, threads);
    lim.threads = 999;
    othello_engine_clear(e);
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK);
    CHECK(r.exact && r.score == one.score && r.move == one.move && r.nodes == one.nodes);
    CHECK(othello_engine_analyze(e, b, &lim, scores2, 32, &n2) == OTHELLO_STATUS_OK && n2 == n);

    /* Two threads, and one per core: the same exact score, with a move
     * that reaches it; the same exact score for every move. */
    for (int threads = 2; threads >= 0; threads -= 2) {
        othello_search_limits_init(&lim);
        lim.level = 10;
        lim.threads = threads;
        othello_engine_clear(e);
        CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK);
        CHECK(r.exact && !r.stopped && r.score == one.score);
        CHECK(score_of(scores, n, r.move) == r.score);
        CHECK(r.pv_len >= 1 && r.pv[0] == r.move);
        othello_engine_clear(e);
        CHECK(othello_engine_analyze(e, b, &lim, scores2, 32, &n2) == OTHELLO_STATUS_OK);
        CHECK(n2 == n);
        for (size_t i = 0; i < n2; i++) {
            CHECK(scores2[i].exact && score_of(scores, n, scores2[i].move) == scores2[i].score);
        }
    }

    /* A midgame search with 3 threads: a legal move at the depth asked. */
    othello_board *start = othello_board_new();
    othello_search_limits_init(&lim);
    lim.level = 6;
    lim.book = 0;
    lim.threads = 3;
    CHECK(othello_engine_search(e, start, &lim, &r) == OTHELLO_STATUS_OK);
    CHECK(!r.stopped && r.depth == 6 && othello_board_is_legal(start, r.move));

    /* A stop from another thread ends every thread of a deep search. */
    {
        struct search_job job;
        pthread_t thread;
        double t0 = now_ms();
        job.engine = e;
        job.board = start;
        othello_search_limits_init(&job.limits);
        job.limits.level = 60;
        job.limits.book = 0;
        job.limits.threads = 3;
        CHECK(pthread_create(&thread, NULL, run_search, &job) == 0);
        sleep_ms(200);
        CHECK(othello_engine_search(e, start, NULL, &r) == OTHELLO_STATUS_BUSY);
        othello_engine_stop(e);
        pthread_join(thread, NULL);
        CHECK(now_ms() - t0 < 5000);
        CHECK(job.status == OTHELLO_STATUS_OK && job.result.stopped);
        CHECK(othello_board_is_legal(start, job.result.move));
        /* The engine searches again, to the end. */
        CHECK(othello_engine_search(e, start, &lim, &r) == OTHELLO_STATUS_OK);
        CHECK(!r.stopped && r.depth == 6);
    }
    othello_board_free(start);
    othello_board_free(b);
    othello_engine_free(e);
}

static void test_seeded_randomness(void)
{
    othello_board *b = othello_board_from_transcript("f5f6e6f4e3");
    othello_search_limits lim;
    int distinct = 0, first = -2;
    othello_search_limits_init(&lim);
    lim.level = 3;
    lim.book = 0;
    lim.randomness = 8;
    for (unsigned seed = 0; seed < 10; seed++) {
        othello_engine *e1 = othello_engine_new(1), *e2 = othello_engine_new(1);
        othello_search_result r1, r2;
        othello_search_result_init(&r1);
        othello_search_result_init(&r2);
        lim.seed = seed;
        CHECK(othello_engine_search(e1, b, &lim, &r1) == OTHELLO_STATUS_OK);
        CHECK(othello_engine_search(e2, b, &lim, &r2) == OTHELLO_STATUS_OK);
        CHECK(r1.move == r2.move);
        if (first == -2) {
            first = r1.move;
        } else if (r1.move != first) {
            distinct = 1;
        }
        othello_engine_free(e1);
        othello_engine_free(e2);
    }
    CHECK(distinct);
    othello_board_free(b);
}

/* Plays one game; returns the final disc difference from black's view. */
static int play_game(othello_engine *e, const othello_search_limits *black,
                     const othello_search_limits *white, unsigned opening_seed)
{
    othello_board *b = othello_board_new();
    othello_search_limits random;
    othello_search_limits_init(&random);
    random.strategy = OTHELLO_STRATEGY_RANDOM;
    while (!othello_board_is_game_over(b)) {
        othello_search_result r;
        othello_search_result_init(&r);
        const othello_search_limits *lim =
            othello_board_side_to_move(b) == OTHELLO_COLOR_BLACK ? black : white;
        if (othello_board_move_number(b) <= 4) {
            random.seed = opening_seed * 16 + (unsigned)othello_board_move_number(b);
            lim = &random;
        }
        CHECK(othello_engine_search(e, b, lim, &r) == OTHELLO_STATUS_OK);
        if (r.move == OTHELLO_PASS) {
            CHECK(othello_board_pass(b) == OTHELLO_STATUS_OK);
        } else {
            CHECK(othello_board_play(b, r.move, NULL, 0, NULL) == OTHELLO_STATUS_OK);
        }
    }
    int diff = othello_board_count(b, OTHELLO_COLOR_BLACK) - othello_board_count(b, OTHELLO_COLOR_WHITE);
    othello_board_free(b);
    return diff;
}

static void test_match_against_classic(void)
{
    othello_engine *e = othello_engine_new(8);
    othello_search_limits engine, classic;
    int wins = 0, losses = 0;
    othello_search_limits_init(&engine);
    engine.level = 4;
    othello_search_limits_init(&classic);
    classic.strategy = OTHELLO_STRATEGY_CLASSIC;
    classic.classic_depth = 4;
    for (unsigned opening = 0; opening < 3; opening++) {
        int as_black = play_game(e, &engine, &classic, opening);
        int as_white = -play_game(e, &classic, &engine, opening);
        wins += (as_black > 0) + (as_white > 0);
        losses += (as_black < 0) + (as_white < 0);
    }
    printf("match: engine level 4 vs classic 4: %d wins, %d losses of 6\n", wins, losses);
    CHECK(wins >= 5 && losses <= 1);
    othello_engine_free(e);
}

static void test_book(const char *book_path)
{
    othello_engine *e = othello_engine_new(4);
    othello_board *b = othello_board_new();
    othello_search_limits lim;
    othello_search_result r;
    othello_move_score moves[64];
    size_t n = 0;
    int distinct = 0;
    othello_search_result_init(&r);

    CHECK(othello_engine_get_book(e) == OTHELLO_BOOK_BUILTIN);
    /* The four first moves are one up to symmetry: one value. */
    CHECK(othello_engine_book_moves(e, b, NULL, 0, &n) == OTHELLO_STATUS_OK && n == 4);
    CHECK(othello_engine_book_moves(e, b, moves, 2, &n) == OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(othello_engine_book_moves(e, b, moves, 64, &n) == OTHELLO_STATUS_OK && n == 4);
    for (size_t i = 0; i < n; i++) {
        CHECK(othello_board_is_legal(b, moves[i].move) && !moves[i].exact);
        CHECK(moves[i].score == moves[0].score);
    }
    othello_search_limits_init(&lim);
    CHECK(lim.book == -1);
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK);
    CHECK(r.from_book && r.nodes == 0 && r.depth == 0 && othello_board_is_legal(b, r.move));
    CHECK(r.pv_len >= 2 && r.pv[0] == r.move && r.score == moves[0].score);
    /* Randomness picks among the book's near-best moves with the seed. */
    lim.randomness = 2;
    for (unsigned seed = 0; seed < 12; seed++) {
        othello_search_result again;
        othello_search_result_init(&again);
        lim.seed = seed;
        CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK);
        CHECK(othello_engine_search(e, b, &lim, &again) == OTHELLO_STATUS_OK);
        CHECK(r.from_book && again.move == r.move);
        distinct |= r.move != moves[0].move;
    }
    CHECK(distinct);
    lim.randomness = 0;
    /* Level 0, explicit limits and book = 0 search. */
    lim.level = 0;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK);
    CHECK(!r.from_book && r.nodes > 0);
    lim.level = 4;
    lim.book = 0;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK);
    CHECK(!r.from_book && r.nodes > 0 && r.depth == 4);
    lim.book = 2;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(last_error_mentions("limits.book"));
    lim.book = 1;
    lim.level = 0;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK && r.from_book);
    /* A level by a time limit alone searches; with a clock, or told to
     * (book = 1), it plays from the book. */
    lim.level = 4;
    lim.book = -1;
    lim.time_limit_ms = 5000;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK && !r.from_book && r.nodes > 0);
    lim.book = 1;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK && r.from_book);
    lim.book = -1;
    lim.clock_remaining_ms = 60000;
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK && r.from_book);
    othello_search_limits_init(&lim);

    /* No book: nothing to look up, every level searches. */
    CHECK(othello_engine_set_book(e, OTHELLO_BOOK_NONE) == OTHELLO_STATUS_OK);
    CHECK(othello_engine_get_book(e) == OTHELLO_BOOK_NONE);
    n = 9;
    CHECK(othello_engine_book_moves(e, b, moves, 64, &n) == OTHELLO_STATUS_OK && n == 0);
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK && !r.from_book);
    CHECK(othello_engine_set_book(e, OTHELLO_BOOK_LOADED) == OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(othello_engine_set_book(e, (othello_book)7) == OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(othello_engine_set_book(NULL, OTHELLO_BOOK_NONE) == OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(othello_engine_get_book(NULL) == OTHELLO_BOOK_NONE);
    CHECK(othello_engine_set_book(e, OTHELLO_BOOK_BUILTIN) == OTHELLO_STATUS_OK);

    /* Bad books are refused and the engine keeps its book. */
    {
        static const uint8_t junk[] = "OTHBOOK\0 this is not a book";
        CHECK(othello_engine_load_book_buffer(e, junk, sizeof junk) ==
              OTHELLO_STATUS_INVALID_ARGUMENT);
        CHECK(last_error_mentions("book"));
        CHECK(othello_engine_load_book_buffer(e, NULL, 3) == OTHELLO_STATUS_NULL_ARGUMENT);
        CHECK(othello_engine_load_book(e, NULL) == OTHELLO_STATUS_NULL_ARGUMENT);
        CHECK(othello_engine_load_book(e, "/nonexistent/book.bin") ==
              OTHELLO_STATUS_INVALID_ARGUMENT);
        CHECK(othello_engine_get_book(e) == OTHELLO_BOOK_BUILTIN);
        CHECK(othello_engine_book_moves(NULL, b, moves, 64, &n) == OTHELLO_STATUS_NULL_ARGUMENT);
        CHECK(othello_engine_book_moves(e, NULL, moves, 64, &n) == OTHELLO_STATUS_NULL_ARGUMENT);
    }
    /* The built-in book's file loads, and answers as the built-in one. */
    CHECK(othello_engine_load_book(e, book_path) == OTHELLO_STATUS_OK);
    CHECK(othello_engine_get_book(e) == OTHELLO_BOOK_LOADED);
    CHECK(othello_engine_book_moves(e, b, moves, 64, &n) == OTHELLO_STATUS_OK && n == 4);
    /* Other sizes have no book. */
    {
        othello_board *ten = othello_board_new_sized(10);
        lim.level = 2;
        CHECK(othello_engine_book_moves(e, ten, moves, 64, &n) == OTHELLO_STATUS_OK && n == 0);
        CHECK(othello_engine_search(e, ten, &lim, &r) == OTHELLO_STATUS_OK && !r.from_book);
        othello_board_free(ten);
    }
    othello_board_free(b);
    othello_engine_free(e);
}

/* Pondering: bad arguments get their status and change nothing; the
 * expected reply is legal; the search after it (the pondered one, at
 * once) and after another reply stay exact; a running ponder makes no
 * call BUSY, is ended by stop, by the next search, and by free. */
static void test_ponder(void)
{
    othello_engine *e = othello_engine_new(8);
    othello_board *b = othello_board_from_string(ffo1);
    othello_board *over = othello_board_from_string(
        "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX X");
    othello_search_limits lim, bad;
    othello_search_result r;
    int expected = -7;
    othello_search_result_init(&r);
    othello_search_limits_init(&lim);
    othello_search_limits_init(&bad);
    bad.level = 61;
    CHECK(othello_engine_ponder(NULL, b, &lim, &expected) == OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(othello_engine_ponder(e, NULL, &lim, &expected) == OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(othello_engine_ponder(e, b, &bad, &expected) == OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(last_error_mentions("limits.level"));
    CHECK(othello_engine_ponder(e, over, &lim, &expected) == OTHELLO_STATUS_GAME_OVER);
    CHECK(expected == -7);

    /* After g8 (+18), white's reply; +18 again after the best one. */
    int g8 = -1;
    CHECK(othello_square_parse("g8", &g8) == OTHELLO_STATUS_OK);
    CHECK(othello_board_play(b, g8, NULL, 0, NULL) == OTHELLO_STATUS_OK);
    CHECK(othello_engine_ponder(e, b, &lim, &expected) == OTHELLO_STATUS_OK);
    CHECK(othello_board_is_legal(b, expected));
    CHECK(othello_engine_ponder(e, b, NULL, NULL) == OTHELLO_STATUS_OK);
    othello_board *hit = othello_board_clone(b);
    CHECK(othello_board_play(hit, expected, NULL, 0, NULL) == OTHELLO_STATUS_OK);
    CHECK(othello_engine_search(e, hit, &lim, &r) == OTHELLO_STATUS_OK);
    CHECK(r.exact && !r.stopped && r.score >= 18 && othello_board_is_legal(hit, r.move));
    int moves[64];
    size_t n = othello_board_legal_moves(b, moves, 64);
    CHECK(n >= 2);
    for (size_t i = 0; i < n; i++) {
        othello_board *reply = othello_board_clone(b);
        othello_engine *fresh = othello_engine_new(1);
        othello_search_result want;
        othello_search_result_init(&want);
        CHECK(othello_engine_ponder(e, b, &lim, NULL) == OTHELLO_STATUS_OK);
        CHECK(othello_board_play(reply, moves[i], NULL, 0, NULL) == OTHELLO_STATUS_OK);
        if (!othello_board_is_game_over(reply)) {
            CHECK(othello_engine_search(e, reply, &lim, &r) == OTHELLO_STATUS_OK);
            CHECK(othello_engine_search(fresh, reply, &lim, &want) == OTHELLO_STATUS_OK);
            CHECK(r.exact && want.exact && r.score == want.score);
        }
        othello_engine_free(fresh);
        othello_board_free(reply);
    }

    /* A long ponder: the getters and setters still answer, stop ends it. */
    othello_board *start = othello_board_new();
    othello_search_limits_init(&lim);
    lim.level = 60;
    lim.book = 0;
    lim.clock_remaining_ms = 3600 * 1000;
    CHECK(othello_engine_ponder(e, start, &lim, &expected) == OTHELLO_STATUS_OK);
    CHECK(othello_board_is_legal(start, expected));
    sleep_ms(20);
    CHECK(othello_engine_get_evaluation(e) == othello_engine_get_evaluation(e));
    othello_engine_stop(e);
    CHECK(othello_engine_ponder(e, start, &lim, NULL) == OTHELLO_STATUS_OK);
    sleep_ms(20);
    othello_search_limits_init(&lim);
    lim.level = 2;
    lim.book = 0;
    CHECK(othello_engine_search(e, start, &lim, &r) == OTHELLO_STATUS_OK);
    CHECK(!r.stopped && r.depth == 2);
    lim.level = 60;
    lim.clock_remaining_ms = 3600 * 1000;
    CHECK(othello_engine_ponder(e, start, &lim, NULL) == OTHELLO_STATUS_OK);
    othello_engine_free(e); /* while pondering */
    othello_board_free(start);
    othello_board_free(hit);
    othello_board_free(over);
    othello_board_free(b);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: engine_test BOOK_FILE\n");
        return 2;
    }
    test_book(argv[1]);
    test_bad_arguments();
    test_game_over_and_pass();
    test_progress_and_analyze();
    test_stop_busy_and_time();
    test_seeded_randomness();
    test_threads();
    test_match_against_classic();
    test_ponder();
    return check_summary("engine_test");
}
