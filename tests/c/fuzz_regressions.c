/*
 * fuzz_regressions.c: one test per bug the fuzz targets of fuzz/ found,
 * written before the fix (see docs/fuzzing.md). Each names
 * the target and what it found.
 *
 * Prints one line per failed check; exits 1 if any failed, else prints
 * "fuzz_regressions: N checks passed". The tests of bugs not fixed yet run
 * only when named: `fuzz_regressions out-of-memory` (in a build without
 * sanitizers: it limits the address space), `fuzz_regressions warm-exact`.
 */

#include "othello.h"

#define _POSIX_C_SOURCE 200809L

#include "check.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

static int progress_calls;

static void count_progress(const othello_search_progress *p, void *userdata)
{
    (void)p;
    (void)userdata;
    progress_calls++;
}

/* True when the thread's last error message contains `word`. */
static int last_error_mentions(const char *word)
{
    char buf[256];
    if (othello_last_error(buf, sizeof buf, NULL) != OTHELLO_STATUS_OK) {
        return 0;
    }
    return strstr(buf, word) != NULL;
}

/*
 * api target: a limits.struct_size that ends inside a field was accepted,
 * and the library read the caller's first bytes of that field over the
 * default's others. For `progress` that calls a pointer made of four bytes
 * of the caller's callback and four zero bytes: a crash. Such a size must be
 * INVALID_ARGUMENT; sizes on field boundaries (older, shorter versions of
 * the struct) keep working.
 */
static void test_struct_size_inside_a_field(void)
{
    static const size_t torn[] = {
        offsetof(othello_search_limits, progress) + 4,
        offsetof(othello_search_limits, time_limit_ms) + 4,
        offsetof(othello_search_limits, node_limit) + 1,
        offsetof(othello_search_limits, seed) + 7,
        offsetof(othello_search_limits, userdata) + 4,
        offsetof(othello_search_limits, level) + 2,
        offsetof(othello_search_limits, selectivity) + 1,
        offsetof(othello_search_limits, book) + 2,
        offsetof(othello_search_limits, threads) + 3,
        sizeof(othello_search_limits) - 1,
    };
    static const size_t whole[] = {
        offsetof(othello_search_limits, depth),
        offsetof(othello_search_limits, node_limit),
        offsetof(othello_search_limits, strategy),
        offsetof(othello_search_limits, randomness) + sizeof(int),
        offsetof(othello_search_limits, seed),
        offsetof(othello_search_limits, progress),
        offsetof(othello_search_limits, userdata),
        offsetof(othello_search_limits, selectivity),
        offsetof(othello_search_limits, book),
        offsetof(othello_search_limits, threads), /* the 0.2 struct */
        offsetof(othello_search_limits, threads) + sizeof(int),
        sizeof(othello_search_limits),
        sizeof(othello_search_limits) + 8,
    };
    othello_engine *e = othello_engine_new(1);
    othello_board *b = othello_board_new();
    othello_search_limits lim;
    othello_search_result r;
    size_t i;
    othello_search_result_init(&r);

    for (i = 0; i < sizeof torn / sizeof torn[0]; i++) {
        othello_search_limits_init(&lim);
        lim.level = 1;
        lim.progress = count_progress;
        lim.userdata = &lim;
        lim.struct_size = torn[i];
        progress_calls = 0;
        r.move = 99;
        CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_INVALID_ARGUMENT);
        CHECK(last_error_mentions("struct_size"));
        CHECK(progress_calls == 0 && r.move == 99);
        CHECK(othello_engine_analyze(e, b, &lim, NULL, 0, NULL) ==
              OTHELLO_STATUS_INVALID_ARGUMENT);
    }
    for (i = 0; i < sizeof whole / sizeof whole[0]; i++) {
        othello_search_limits_init(&lim);
        lim.level = 0; /* a search (levels from 1 play the start from the book) */
        lim.progress = count_progress;
        /* 999 threads is invalid: those searches pass only if the field
         * is left unread, as struct_size ends before it. */
        lim.threads = whole[i] > offsetof(othello_search_limits, threads) ? 2 : 999;
        lim.struct_size = whole[i];
        progress_calls = 0;
        CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK);
        CHECK(othello_board_is_legal(b, r.move));
        /* The callback is read only when struct_size covers it. */
        CHECK((progress_calls > 0) ==
              (whole[i] >= offsetof(othello_search_limits, progress) + sizeof lim.progress));
    }
    othello_board_free(b);
    othello_engine_free(e);
}

/*
 * api target (its engine sizes are kept small because of this): when the
 * transposition table cannot be allocated, othello_engine_new() aborts the
 * whole process ("memory allocation of N bytes failed") instead of
 * returning NULL as othello.h promises. 65536 MiB, the largest size
 * accepted, can never be allocated on a 24 GiB machine; here the address
 * space is limited to 1 GiB and 2048 MiB are asked for.
 */
static void test_engine_new_out_of_memory(void)
{
    struct rlimit lim = {(rlim_t)1 << 30, (rlim_t)1 << 30};
    othello_engine *e;
    CHECK(setrlimit(RLIMIT_AS, &lim) == 0);
    e = othello_engine_new(2048);
    CHECK(e == NULL);
    CHECK(othello_last_status() == OTHELLO_STATUS_OUT_OF_MEMORY);
    CHECK(last_error_mentions("2048 MiB"));
    othello_engine_free(e);
    /* A size that fits still works. */
    e = othello_engine_new(1);
    CHECK(e != NULL);
    othello_engine_free(e);
}

/*
 * api target: a second exact search of a position on the same engine
 * returned a move that does not reach the exact score it reported (here
 * b8, worth -2, with "exact score 0"; e2, h2 and h6 reach 0). The first
 * solve stores the root as solved with its best move; the second search's
 * depth-1 midgame iteration stores the root again, and Table::store
 * (src/search/table.rs) keeps the solved bounds but takes the midgame best move;
 * the solve then answers from the table and Solver::best_move returns that
 * move.
 */
static void test_warm_exact_search_move(void)
{
    static const char *const text =
        "OXXXXXXXOOOX-XX--OOOXXOOXOOXXXOO-OOXXO-OXXXXOOO--XXXOOXXX-OXOOOO X";
    othello_board *b = othello_board_from_string(text);
    othello_engine *e = othello_engine_new(1), *fresh = othello_engine_new(1);
    othello_search_limits lim;
    othello_search_result first, second;
    othello_move_score scores[64];
    size_t n = 0, i;
    int level;
    othello_search_result_init(&first);
    othello_search_result_init(&second);

    CHECK(b != NULL && e != NULL && fresh != NULL);
    othello_search_limits_init(&lim);
    lim.level = 12;
    CHECK(othello_engine_analyze(fresh, b, &lim, scores, 64, &n) == OTHELLO_STATUS_OK);
    for (level = 12; level >= 4; level -= 2) {
        lim.level = level;
        CHECK(othello_engine_search(e, b, &lim, level == 12 ? &first : &second) ==
              OTHELLO_STATUS_OK);
        if (level == 12) {
            continue;
        }
        CHECK(second.exact && second.score == first.score);
        /* The move reported reaches the score reported. */
        for (i = 0; i < n; i++) {
            if (scores[i].move == second.move) {
                CHECK(scores[i].exact && scores[i].score == second.score);
            }
        }
    }
    CHECK(first.exact && first.score == 0 && n == 7 && scores[0].score == 0);
    othello_engine_free(fresh);
    othello_engine_free(e);
    othello_board_free(b);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "out-of-memory") == 0) {
        test_engine_new_out_of_memory();
    } else if (argc > 1 && strcmp(argv[1], "warm-exact") == 0) {
        test_warm_exact_search_move();
    } else {
        test_struct_size_inside_a_field();
    }
    return check_summary("fuzz_regressions");
}
