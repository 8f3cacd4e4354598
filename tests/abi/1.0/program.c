/*
 * tests/abi/1.0/program.c: a 1.0 game, the run-time half of the ABI promise.
 *
 * docs/guide.md, "Versions and the ABI promise": from 1.0 on, a program
 * built against the x.y header runs with every x.z library, z >= y. This
 * program is that promise for 1.0, tested: tests/abi.rs compiles it once
 * against the frozen 1.0 header beside it (tests/abi/1.0/othello.h), links
 * it to the library as built and runs it. It calls every function the 1.0
 * header declares, error paths included, and checks the results as a 1.0
 * game would, relying only on what the 1.0 header and docs/guide.md promise:
 * no node counts, no engine moves or midgame scores (an engine may get
 * stronger), only exact scores that plain minimax over the public board API
 * confirms, and the documented statuses, neutral values and buffer rules.
 *
 * Never edit it after 1.0.0 is released, except to fix a bug in the program
 * itself (a check that the 1.0 documentation does not support): new checks
 * go into the program of the version that adds what they check.
 *
 * Prints "FAIL file:line: ..." for each failed check, then
 * "abi 1.0 program: N checks passed" and exits 0, or the number of failures
 * and exits 1. Runs in well under 5 seconds in an optimised build.
 */

#define _POSIX_C_SOURCE 200809L

#include "othello.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------------------ */
/* Checks (main thread only: other threads record, the main thread checks)   */

static long checks_run;
static long checks_failed;
static othello_status primed_status;

static int check_at(const char *file, int line, int ok, const char *expr)
{
    checks_run++;
    if (!ok) {
        checks_failed++;
        printf("FAIL %s:%d: %s\n", file, line, expr);
        fflush(stdout);
    }
    return ok;
}

#define CHECK(cond) check_at(__FILE__, __LINE__, (cond) ? 1 : 0, #cond)

/*
 * Makes this thread's last status a known failure other than `want`, so
 * that a check can tell whether the call under test set it (on failure) or
 * left it alone (on success: "Successful calls do not clear it").
 */
static void prime_last_error(othello_status want)
{
    char name[4];
    int square = 0;
    if (want != OTHELLO_STATUS_PARSE_ERROR) {
        (void)othello_square_parse("??", &square);
    } else {
        (void)othello_square_name(-1, name, sizeof name);
    }
    primed_status = othello_last_status();
}

/* The last status is `want` and the last error a non-empty message. */
static int last_error_is(othello_status want, char *text, size_t len)
{
    size_t n = 0;
    text[0] = '\0';
    return othello_last_status() == want &&
           othello_last_error(text, len, &n) == OTHELLO_STATUS_OK && n > 0 &&
           strlen(text) == n;
}

static int check_status_at(const char *file, int line, const char *expr, othello_status got,
                           othello_status want)
{
    char text[512] = "";
    int ok = got == want;
    if (ok && want != OTHELLO_STATUS_OK) {
        ok = last_error_is(want, text, sizeof text);
    } else if (ok) {
        ok = othello_last_status() == primed_status;
    }
    checks_run++;
    if (!ok) {
        checks_failed++;
        (void)othello_last_error(text, sizeof text, NULL);
        printf("FAIL %s:%d: %s returned %d (%s), want %d (%s); last status %d, last error "
               "\"%s\"\n",
               file, line, expr, (int)got, othello_status_message(got), (int)want,
               othello_status_message(want), (int)othello_last_status(), text);
        fflush(stdout);
    }
    return ok;
}

/* A call returning a status returns `want` and sets the last error
 * accordingly (or, for OK, leaves it alone). An expression: 1 if it held. */
#define CHECK_STATUS(call, want)                                                   \
    (prime_last_error(want),                                                       \
     check_status_at(__FILE__, __LINE__, #call, (call), (want)))
#define CHECK_OK(call) CHECK_STATUS(call, OTHELLO_STATUS_OK)

static int check_fails_at(const char *file, int line, const char *expr, int ok,
                          othello_status want)
{
    char text[512];
    return check_at(file, line, ok && last_error_is(want, text, sizeof text), expr);
}

/* A call returning a neutral value (or NULL) on failure: `cond` holds and
 * the last status is `want`, with a message. */
#define CHECK_FAILS(cond, want)                                                    \
    (prime_last_error(want),                                                       \
     check_fails_at(__FILE__, __LINE__, #cond " (failing with " #want ")",        \
                    (cond) ? 1 : 0, (want)))

/* A call returning a board fails with `want`: NULL (freed if not). */
#define CHECK_NO_BOARD(call, want)                                                 \
    do {                                                                           \
        othello_board *nb_;                                                        \
        prime_last_error(want);                                                    \
        nb_ = (call);                                                              \
        check_fails_at(__FILE__, __LINE__, #call " == NULL", nb_ == NULL, (want)); \
        othello_board_free(nb_);                                                   \
    } while (0)

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

#define TEXT_MAX 800 /* a board string or transcript of any size, with its NUL */
#define SQUARES_MAX (OTHELLO_SIZE_MAX * OTHELLO_SIZE_MAX)

static const char *const start8 =
    "---------------------------OX------XO--------------------------- X";

/* A game from the start with two passes (black's at 42 empties, white's
 * at 6); it ends 26-37 with one square empty. */
static const char *const game_with_passes =
    "e6d6c4f4c6c7g4b6f5f6b8c8b7a8g6a7a6a5h6f7f3c5e7f2b4c3d2b2g7g8e8h8g5f8a1e3g1"
    "a4g3b5h7h2d3d7b3a2d8b1h4a3c1e2d1c2e1f1h3g2h5";

/* White to move, 9 empties. Its game tree (10,661 games) has passes, and
 * games that end with squares empty (they go to the winner). */
static const char *const endgame9 =
    "-OOOOOO-X-XXXOXXXXXXOXX-XXOXOXXXXOXXOX-OXXXXXXX-X-X-XXXXXX-OOOOO O";

/* A middle game position: 50 empties, black to move. */
static const char *const midgame_moves = "f5d6c3d3c4f4f6f3e6e7";

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void sleep_ms(long ms)
{
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

static othello_color opponent(othello_color c)
{
    return c == OTHELLO_COLOR_BLACK ? OTHELLO_COLOR_WHITE : OTHELLO_COLOR_BLACK;
}

/* The board string of `b` into `text` (TEXT_MAX), "" if it fails. */
static void board_text(const othello_board *b, char *text)
{
    if (othello_board_to_string(b, text, TEXT_MAX, NULL) != OTHELLO_STATUS_OK) {
        text[0] = '\0';
    }
}

static void transcript_text(const othello_board *b, char *text)
{
    if (othello_board_transcript(b, text, TEXT_MAX, NULL) != OTHELLO_STATUS_OK) {
        text[0] = '\0';
    }
}

/* Same position, side to move, history and move number. */
static int same_game(const othello_board *a, const othello_board *b)
{
    char ta[TEXT_MAX], tb[TEXT_MAX];
    int ha[SQUARES_MAX * 2], hb[SQUARES_MAX * 2];
    size_t na = 0, nb = 0;
    board_text(a, ta);
    board_text(b, tb);
    if (ta[0] == '\0' || strcmp(ta, tb) != 0 ||
        othello_board_move_number(a) != othello_board_move_number(b)) {
        return 0;
    }
    if (othello_board_history(a, ha, SQUARES_MAX * 2, &na) != OTHELLO_STATUS_OK ||
        othello_board_history(b, hb, SQUARES_MAX * 2, &nb) != OTHELLO_STATUS_OK) {
        return 0;
    }
    return na == nb && memcmp(ha, hb, na * sizeof ha[0]) == 0;
}

/* Counts one failed play/pass/undo inside minimax (checked by callers). */
static int minimax_errors;

/*
 * The final disc difference from black's view with perfect play from `b`,
 * by plain minimax over the public board API: the empty squares go to the
 * winner (docs/guide.md, "Scores"). `b` is left as it was.
 */
static int minimax_black(othello_board *b)
{
    int moves[SQUARES_MAX];
    size_t n, i;
    int best;
    int black_moves;
    if (othello_board_is_game_over(b)) {
        int diff = othello_board_count(b, OTHELLO_COLOR_BLACK) -
                   othello_board_count(b, OTHELLO_COLOR_WHITE);
        int empty = othello_board_count(b, OTHELLO_COLOR_EMPTY);
        return diff > 0 ? diff + empty : diff < 0 ? diff - empty : 0;
    }
    black_moves = othello_board_side_to_move(b) == OTHELLO_COLOR_BLACK;
    n = othello_board_legal_moves(b, moves, SQUARES_MAX);
    if (n == 0) {
        if (othello_board_pass(b) != OTHELLO_STATUS_OK) {
            minimax_errors++;
            return 0;
        }
        best = minimax_black(b);
        if (othello_board_undo(b) != OTHELLO_STATUS_OK) {
            minimax_errors++;
        }
        return best;
    }
    best = black_moves ? -1000 : 1000;
    for (i = 0; i < n; i++) {
        int v;
        if (othello_board_play(b, moves[i], NULL, 0, NULL) != OTHELLO_STATUS_OK) {
            minimax_errors++;
            continue;
        }
        v = minimax_black(b);
        if (othello_board_undo(b) != OTHELLO_STATUS_OK) {
            minimax_errors++;
        }
        if (black_moves ? v > best : v < best) {
            best = v;
        }
    }
    return best;
}

/* The exact score of `b` from the side to move's view, as the engine gives
 * it. Works on a clone, so `b` may be const. */
static int exact_score(const othello_board *b)
{
    othello_board *copy = othello_board_clone(b);
    int v;
    if (copy == NULL) {
        minimax_errors++;
        return -9999;
    }
    v = minimax_black(copy);
    if (othello_board_side_to_move(b) == OTHELLO_COLOR_WHITE) {
        v = -v;
    }
    othello_board_free(copy);
    return v;
}

/* The exact score after `move` (or a pass) from the mover's view. */
static int exact_score_of_move(const othello_board *b, int move)
{
    othello_board *copy = othello_board_clone(b);
    int v;
    if (copy == NULL ||
        (move == OTHELLO_PASS ? othello_board_pass(copy)
                              : othello_board_play(copy, move, NULL, 0, NULL)) !=
            OTHELLO_STATUS_OK) {
        minimax_errors++;
        othello_board_free(copy);
        return -9999;
    }
    v = -exact_score(copy);
    othello_board_free(copy);
    return v;
}

static othello_search_limits limits_at(int level, int book)
{
    othello_search_limits lim;
    othello_search_limits_init(&lim);
    lim.level = level;
    lim.book = book;
    return lim;
}

/* ------------------------------------------------------------------------ */
/* Version, messages, last error                                             */

static void test_version_and_messages(void)
{
    const char *v = othello_version();
    int number = othello_version_number();
    int major = -1, minor = -1, patch = -1;

    /* The library is 1.x, at least as new as this header (never compare
     * the strings: a later 1.x library must pass). */
    CHECK(number / 10000 == OTHELLO_VERSION_MAJOR);
    CHECK(number >= OTHELLO_VERSION_NUMBER);
    CHECK(OTHELLO_VERSION_NUMBER == OTHELLO_VERSION_MAJOR * 10000 + OTHELLO_VERSION_MINOR * 100 +
                                        OTHELLO_VERSION_PATCH);
    CHECK(v != NULL);
    if (v != NULL) {
        CHECK(sscanf(v, "%d.%d.%d", &major, &minor, &patch) == 3);
        CHECK(major * 10000 + minor * 100 + patch == number);
        CHECK(othello_version() == v || strcmp(othello_version(), v) == 0);
    }

    for (int s = OTHELLO_STATUS_OK; s <= OTHELLO_STATUS_OUT_OF_MEMORY; s++) {
        const char *m = othello_status_message((othello_status)s);
        CHECK(m != NULL && m[0] != '\0');
    }
    {
        static const int unknown[] = {-5, 9999}; /* a generic text */
        for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
            const char *m = othello_status_message((othello_status)unknown[i]);
            CHECK(m != NULL && m[0] != '\0');
        }
    }
}

static void test_last_error_buffers(void)
{
    char buf[256], small[4];
    size_t n = 0, len;
    int square = 5;

    CHECK_STATUS(othello_square_parse("z9", &square), OTHELLO_STATUS_PARSE_ERROR);
    CHECK(square == 5); /* out-parameters are written only on success */

    /* The message's length, by a size query; the call changes nothing. */
    CHECK(othello_last_error(NULL, 0, &n) == OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n >= 2);
    len = n - 1;
    CHECK(othello_last_status() == OTHELLO_STATUS_PARSE_ERROR);
    memset(small, '#', sizeof small);
    n = 0;
    CHECK(len < sizeof small ||
          (othello_last_error(small, sizeof small, &n) == OTHELLO_STATUS_BUFFER_TOO_SMALL &&
           n == len + 1 && small[0] == '#'));
    CHECK(othello_last_error(NULL, 5, &n) == OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(othello_last_status() == OTHELLO_STATUS_PARSE_ERROR);
    memset(buf, '#', sizeof buf);
    CHECK(len < sizeof buf);
    CHECK(othello_last_error(buf, len + 1, &n) == OTHELLO_STATUS_OK);
    CHECK(n == len && strlen(buf) == len);
    CHECK(othello_last_error(buf, sizeof buf, NULL) == OTHELLO_STATUS_OK);
    CHECK(othello_last_status() == OTHELLO_STATUS_PARSE_ERROR);
    /* A later failure replaces it; a success keeps it. */
    CHECK_STATUS(othello_board_undo(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(othello_last_status() == OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_OK(othello_square_parse("a1", &square));
    CHECK(square == 0 && othello_last_status() != OTHELLO_STATUS_OK);
}

struct thread_errors {
    othello_status fresh_status;
    size_t fresh_length;
    othello_status own_status;
};

static void *fresh_thread(void *arg)
{
    struct thread_errors *t = arg;
    char buf[32];
    size_t n = 99;
    t->fresh_status = othello_last_status();
    buf[0] = '#';
    t->fresh_length = othello_last_error(buf, sizeof buf, &n) == OTHELLO_STATUS_OK &&
                              buf[0] == '\0'
                          ? n
                          : 99;
    (void)othello_board_redo(NULL);
    t->own_status = othello_last_status();
    return NULL;
}

/* The last error is per thread. */
static void test_last_error_threads(void)
{
    pthread_t thread;
    struct thread_errors t = {OTHELLO_STATUS_PANIC, 99, OTHELLO_STATUS_OK};
    othello_board *b = othello_board_new();
    CHECK_STATUS(othello_board_undo(b), OTHELLO_STATUS_NOTHING_TO_UNDO);
    CHECK(pthread_create(&thread, NULL, fresh_thread, &t) == 0);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK(t.fresh_status == OTHELLO_STATUS_OK && t.fresh_length == 0);
    CHECK(t.own_status == OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(othello_last_status() == OTHELLO_STATUS_NOTHING_TO_UNDO);
    othello_board_free(b);
}

/* ------------------------------------------------------------------------ */
/* Squares                                                                   */

static void test_squares(void)
{
    char name[8];
    int square = -7;

    for (int sq = 0; sq < 64; sq++) {
        int back = -1;
        CHECK(othello_square_name(sq, name, 3) == OTHELLO_STATUS_OK);
        CHECK(strlen(name) == 2 && name[0] == 'a' + sq % 8 && name[1] == '1' + sq / 8);
        CHECK(othello_square_parse(name, &back) == OTHELLO_STATUS_OK && back == sq);
    }
    CHECK_OK(othello_square_parse("H8", &square));
    CHECK(square == 63);
    CHECK_OK(othello_square_parse("e4", &square));
    CHECK(square == 28);

    square = -7;
    CHECK_STATUS(othello_square_parse("i1", &square), OTHELLO_STATUS_PARSE_ERROR);
    CHECK_STATUS(othello_square_parse("a9", &square), OTHELLO_STATUS_PARSE_ERROR);
    CHECK_STATUS(othello_square_parse("a0", &square), OTHELLO_STATUS_PARSE_ERROR);
    CHECK_STATUS(othello_square_parse("", &square), OTHELLO_STATUS_PARSE_ERROR);
    CHECK_STATUS(othello_square_parse("a10", &square), OTHELLO_STATUS_PARSE_ERROR);
    CHECK_STATUS(othello_square_parse("pass", &square), OTHELLO_STATUS_PARSE_ERROR);
    CHECK(square == -7);
    CHECK_STATUS(othello_square_parse(NULL, &square), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_square_parse("a1", NULL), OTHELLO_STATUS_NULL_ARGUMENT);

    CHECK_STATUS(othello_square_name(-1, name, sizeof name), OTHELLO_STATUS_INVALID_SQUARE);
    CHECK_STATUS(othello_square_name(64, name, sizeof name), OTHELLO_STATUS_INVALID_SQUARE);
    CHECK_STATUS(othello_square_name(0, name, 2), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(othello_square_name(0, NULL, 0), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(othello_square_name(0, NULL, 3), OTHELLO_STATUS_NULL_ARGUMENT);

    /* Every size: names round trip; the 8x8 names are the same. */
    for (int size = OTHELLO_SIZE_MIN; size <= OTHELLO_SIZE_MAX; size += 2) {
        int round_trip = 1;
        for (int sq = 0; sq < size * size; sq++) {
            int back = -1;
            char expect[16];
            snprintf(expect, sizeof expect, "%c%d", 'a' + sq % size, sq / size + 1);
            if (othello_square_name_sized(size, sq, name, 4) != OTHELLO_STATUS_OK ||
                strcmp(name, expect) != 0 ||
                othello_square_parse_sized(size, name, &back) != OTHELLO_STATUS_OK ||
                back != sq) {
                round_trip = 0;
            }
        }
        CHECK(round_trip);
        CHECK_STATUS(othello_square_name_sized(size, size * size, name, 4),
                     OTHELLO_STATUS_INVALID_SQUARE);
    }
    CHECK_OK(othello_square_parse_sized(10, "J10", &square));
    CHECK(square == 99);
    CHECK_OK(othello_square_parse_sized(16, "p16", &square));
    CHECK(square == 255);
    CHECK_OK(othello_square_parse_sized(8, "h8", &square));
    CHECK(square == 63);
    CHECK_OK(othello_square_name_sized(10, 99, name, 4));
    CHECK(strcmp(name, "j10") == 0);
    square = -7;
    CHECK_STATUS(othello_square_parse_sized(6, "g1", &square), OTHELLO_STATUS_PARSE_ERROR);
    CHECK_STATUS(othello_square_parse_sized(6, "a7", &square), OTHELLO_STATUS_PARSE_ERROR);
    CHECK_STATUS(othello_square_parse_sized(10, "a01", &square), OTHELLO_STATUS_PARSE_ERROR);
    CHECK_STATUS(othello_square_parse_sized(8, "j10", &square), OTHELLO_STATUS_PARSE_ERROR);
    CHECK_STATUS(othello_square_parse_sized(7, "a1", &square), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(othello_square_parse_sized(0, "a1", &square), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(square == -7);
    CHECK_STATUS(othello_square_parse_sized(10, NULL, &square), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_square_parse_sized(10, "a1", NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_square_name_sized(5, 0, name, 4), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(othello_square_name_sized(6, 36, name, 4), OTHELLO_STATUS_INVALID_SQUARE);
    CHECK_STATUS(othello_square_name_sized(6, -1, name, 4), OTHELLO_STATUS_INVALID_SQUARE);
    CHECK_STATUS(othello_square_name_sized(10, 99, name, 3), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(othello_square_name_sized(10, 99, NULL, 4), OTHELLO_STATUS_NULL_ARGUMENT);
}

/* ------------------------------------------------------------------------ */
/* The board                                                                 */

static void test_board_start(void)
{
    othello_board *b = othello_board_new();
    othello_board *from_text;
    char text[TEXT_MAX];
    int moves[64], flips[64], history[4];
    size_t n = 0;

    CHECK(b != NULL);
    if (b == NULL) {
        return;
    }
    CHECK(othello_board_size(b) == 8);
    CHECK(othello_board_side_to_move(b) == OTHELLO_COLOR_BLACK);
    CHECK(othello_board_get(b, 27) == OTHELLO_COLOR_WHITE); /* d4 */
    CHECK(othello_board_get(b, 36) == OTHELLO_COLOR_WHITE); /* e5 */
    CHECK(othello_board_get(b, 28) == OTHELLO_COLOR_BLACK); /* e4 */
    CHECK(othello_board_get(b, 35) == OTHELLO_COLOR_BLACK); /* d5 */
    CHECK(othello_board_get(b, 0) == OTHELLO_COLOR_EMPTY);
    CHECK(othello_board_count(b, OTHELLO_COLOR_BLACK) == 2);
    CHECK(othello_board_count(b, OTHELLO_COLOR_WHITE) == 2);
    CHECK(othello_board_count(b, OTHELLO_COLOR_EMPTY) == 60);
    CHECK(othello_board_mobility(b, OTHELLO_COLOR_BLACK) == 4);
    CHECK(othello_board_mobility(b, OTHELLO_COLOR_WHITE) == 4);
    CHECK(othello_board_move_number(b) == 1);
    CHECK(!othello_board_can_undo(b) && !othello_board_can_redo(b));
    CHECK(!othello_board_must_pass(b) && !othello_board_is_game_over(b));

    /* Legal moves, ascending: d3 c4 f5 e6. */
    CHECK(othello_board_legal_moves(b, NULL, 0) == 4);
    CHECK(othello_board_legal_moves(b, moves, 2) == 4 && moves[0] == 19 && moves[1] == 26);
    CHECK(othello_board_legal_moves(b, moves, 64) == 4);
    CHECK(moves[0] == 19 && moves[1] == 26 && moves[2] == 37 && moves[3] == 44);
    CHECK(othello_board_is_legal(b, 37) && !othello_board_is_legal(b, 0));
    CHECK(!othello_board_is_legal(b, 27) && !othello_board_is_legal(b, 64));
    CHECK(!othello_board_is_legal(b, -1));

    /* The board string, with its size query. */
    n = 0;
    CHECK_STATUS(othello_board_to_string(b, NULL, 0, &n), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 67);
    memset(text, '#', sizeof text);
    n = 0;
    CHECK_STATUS(othello_board_to_string(b, text, 66, &n), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 67 && text[0] == '#'); /* no partial result */
    CHECK_OK(othello_board_to_string(b, text, 67, &n));
    CHECK(n == 66 && strcmp(text, start8) == 0);
    CHECK_OK(othello_board_to_string(b, text, sizeof text, NULL));

    /* The transcript of no moves is "". */
    n = 5;
    CHECK_STATUS(othello_board_transcript(b, NULL, 0, &n), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 1);
    CHECK_OK(othello_board_transcript(b, text, 1, &n));
    CHECK(n == 0 && text[0] == '\0');
    n = 5;
    CHECK_OK(othello_board_history(b, NULL, 0, &n));
    CHECK(n == 0);

    /* Previews and plays: f5 flips e5. */
    n = 0;
    CHECK_OK(othello_board_flips(b, 37, NULL, 0, &n));
    CHECK(n == 1);
    CHECK_OK(othello_board_flips(b, 37, flips, 64, &n));
    CHECK(n == 1 && flips[0] == 36);
    n = 0;
    CHECK_STATUS(othello_board_play(b, 37, flips, 0, &n), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 1 && othello_board_move_number(b) == 1); /* not played */
    board_text(b, text);
    CHECK(strcmp(text, start8) == 0);

    /* Bad squares and bad moves change nothing. */
    CHECK_FAILS(othello_board_get(b, 64) == OTHELLO_COLOR_EMPTY, OTHELLO_STATUS_INVALID_SQUARE);
    CHECK_FAILS(othello_board_get(b, -1) == OTHELLO_COLOR_EMPTY, OTHELLO_STATUS_INVALID_SQUARE);
    CHECK_STATUS(othello_board_play(b, 64, NULL, 0, NULL), OTHELLO_STATUS_INVALID_SQUARE);
    CHECK_STATUS(othello_board_play(b, -1, NULL, 0, NULL), OTHELLO_STATUS_INVALID_SQUARE);
    CHECK_STATUS(othello_board_play(b, 1000, NULL, 0, NULL), OTHELLO_STATUS_INVALID_SQUARE);
    CHECK_STATUS(othello_board_flips(b, 64, NULL, 0, &n), OTHELLO_STATUS_INVALID_SQUARE);
    CHECK_STATUS(othello_board_play(b, 0, NULL, 0, NULL), OTHELLO_STATUS_ILLEGAL_MOVE);
    CHECK_STATUS(othello_board_play(b, 27, NULL, 0, NULL), OTHELLO_STATUS_ILLEGAL_MOVE);
    CHECK_STATUS(othello_board_flips(b, 0, flips, 64, &n), OTHELLO_STATUS_ILLEGAL_MOVE);
    CHECK_STATUS(othello_board_pass(b), OTHELLO_STATUS_CANNOT_PASS);
    CHECK_STATUS(othello_board_undo(b), OTHELLO_STATUS_NOTHING_TO_UNDO);
    CHECK_STATUS(othello_board_redo(b), OTHELLO_STATUS_NOTHING_TO_REDO);
    CHECK_FAILS(othello_board_count(b, (othello_color)-1) == -1, OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_FAILS(othello_board_mobility(b, OTHELLO_COLOR_EMPTY) == -1,
                OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_FAILS(!othello_board_is_legal(b, 64), OTHELLO_STATUS_INVALID_SQUARE);
    board_text(b, text);
    CHECK(strcmp(text, start8) == 0 && othello_board_move_number(b) == 1);

    /* f5, then d6: history, undo, redo. */
    CHECK_OK(othello_board_play(b, 37, flips, 64, &n));
    CHECK(n == 1 && flips[0] == 36);
    CHECK(othello_board_side_to_move(b) == OTHELLO_COLOR_WHITE);
    CHECK(othello_board_count(b, OTHELLO_COLOR_BLACK) == 4);
    CHECK(othello_board_count(b, OTHELLO_COLOR_WHITE) == 1);
    CHECK_OK(othello_board_play(b, 43, NULL, 0, NULL));
    CHECK(othello_board_move_number(b) == 3);
    n = 0;
    CHECK_STATUS(othello_board_history(b, history, 1, &n), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 2);
    CHECK_OK(othello_board_history(b, history, 4, &n));
    CHECK(n == 2 && history[0] == 37 && history[1] == 43);
    CHECK_OK(othello_board_history(b, history, 4, NULL));
    CHECK_OK(othello_board_transcript(b, text, sizeof text, &n));
    CHECK(n == 4 && strcmp(text, "f5d6") == 0);
    n = 0;
    CHECK_STATUS(othello_board_transcript(b, text, 4, &n), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 5);
    CHECK_OK(othello_board_undo(b));
    CHECK(othello_board_can_undo(b) && othello_board_can_redo(b));
    CHECK(othello_board_side_to_move(b) == OTHELLO_COLOR_WHITE);
    CHECK_OK(othello_board_redo(b));
    CHECK(!othello_board_can_redo(b) && othello_board_move_number(b) == 3);
    CHECK_OK(othello_board_undo(b));
    CHECK_OK(othello_board_play(b, 45, NULL, 0, NULL)); /* f6: a new move clears redo */
    CHECK(!othello_board_can_redo(b));
    CHECK_STATUS(othello_board_redo(b), OTHELLO_STATUS_NOTHING_TO_REDO);

    /* Board strings: the start in other spellings, and malformed ones. */
    from_text = othello_board_from_string(
        "  ...........................ox......xo........................... x\n");
    CHECK(from_text != NULL);
    board_text(from_text, text);
    CHECK(strcmp(text, start8) == 0);
    othello_board_free(from_text);
    from_text = othello_board_from_string(
        "---------------------------WB------*W--------------------------- B");
    CHECK(from_text != NULL);
    board_text(from_text, text);
    CHECK(strcmp(text, start8) == 0);
    CHECK(othello_board_move_number(from_text) == 1 && !othello_board_can_undo(from_text));
    othello_board_free(from_text);
    {
        static const char *const malformed[] = {
            "",
            /* 63 squares */
            "--------------------------OX------XO--------------------------- X",
            /* no side to move */
            "---------------------------OX------XO---------------------------",
            /* a bad side to move */
            "---------------------------OX------XO--------------------------- Z",
            /* a bad square */
            "---------------------------OX------XQ--------------------------- X",
        };
        for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
            CHECK_NO_BOARD(othello_board_from_string(malformed[i]), OTHELLO_STATUS_PARSE_ERROR);
        }
    }
    CHECK_NO_BOARD(othello_board_from_string(NULL), OTHELLO_STATUS_NULL_ARGUMENT);

    othello_board_free(b);
}

/* NULL handles: NULL_ARGUMENT, or the documented neutral value. */
static void test_board_null(void)
{
    othello_board *b = othello_board_new();
    int ints[4];
    size_t n = 9;

    othello_board_free(NULL);
    CHECK_NO_BOARD(othello_board_clone(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_FAILS(othello_board_size(NULL) == -1, OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_FAILS(othello_board_side_to_move(NULL) == OTHELLO_COLOR_EMPTY,
                OTHELLO_STATUS_NULL_ARGUMENT);
    /* The header names INVALID_SQUARE here, the conventions NULL_ARGUMENT. */
    prime_last_error(OTHELLO_STATUS_OK);
    CHECK(othello_board_get(NULL, 0) == OTHELLO_COLOR_EMPTY);
    CHECK(othello_last_status() == OTHELLO_STATUS_NULL_ARGUMENT ||
          othello_last_status() == OTHELLO_STATUS_INVALID_SQUARE);
    CHECK_FAILS(othello_board_count(NULL, OTHELLO_COLOR_BLACK) == -1, OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_FAILS(othello_board_mobility(NULL, OTHELLO_COLOR_BLACK) == -1,
                OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_FAILS(!othello_board_is_legal(NULL, 19), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_FAILS(!othello_board_can_undo(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_FAILS(!othello_board_can_redo(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_FAILS(!othello_board_must_pass(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_FAILS(!othello_board_is_game_over(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_FAILS(othello_board_move_number(NULL) == -1, OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_FAILS(othello_board_legal_moves(NULL, ints, 4) == 0, OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_FAILS(othello_board_legal_moves(b, NULL, 4) == 0, OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_board_flips(NULL, 19, ints, 4, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_board_flips(b, 19, NULL, 4, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_board_play(NULL, 19, NULL, 0, NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_board_play(b, 19, NULL, 4, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_board_pass(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_board_undo(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_board_redo(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_board_history(NULL, ints, 4, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_board_history(b, NULL, 4, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_board_to_string(NULL, NULL, 0, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_board_to_string(b, NULL, 67, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_board_transcript(NULL, NULL, 0, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_board_transcript(b, NULL, 10, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(n == 9);
    CHECK_NO_BOARD(othello_board_from_transcript(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_NO_BOARD(othello_board_from_transcript_sized(10, NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(othello_board_move_number(b) == 1);
    othello_board_free(b);
}

/* A pass: white has no move, black has c1. Then the game ends. */
static void test_pass_and_game_over(void)
{
    othello_board *b = othello_board_from_string(
        "XO-------------------------------------------------------------- O");
    othello_board *over = othello_board_from_string(
        "X--------------------------------------------------------------- X");
    int history[4];
    size_t n = 0;
    othello_status s;
    char text[TEXT_MAX];

    CHECK(b != NULL && over != NULL);
    if (b == NULL || over == NULL) {
        othello_board_free(b);
        othello_board_free(over);
        return;
    }
    CHECK(othello_board_side_to_move(b) == OTHELLO_COLOR_WHITE);
    CHECK(othello_board_must_pass(b) && !othello_board_is_game_over(b));
    CHECK(othello_board_legal_moves(b, history, 4) == 0);
    CHECK(othello_board_mobility(b, OTHELLO_COLOR_WHITE) == 0);
    CHECK(othello_board_mobility(b, OTHELLO_COLOR_BLACK) == 1);
    CHECK(!othello_board_is_legal(b, 2));
    CHECK_STATUS(othello_board_play(b, 2, NULL, 0, NULL), OTHELLO_STATUS_ILLEGAL_MOVE);
    CHECK_OK(othello_board_pass(b));
    CHECK(othello_board_side_to_move(b) == OTHELLO_COLOR_BLACK);
    CHECK(othello_board_move_number(b) == 2);
    CHECK_OK(othello_board_history(b, history, 4, &n));
    CHECK(n == 1 && history[0] == OTHELLO_PASS);
    CHECK_OK(othello_board_transcript(b, text, sizeof text, &n));
    CHECK(n == 0); /* passes are left out */
    CHECK_STATUS(othello_board_pass(b), OTHELLO_STATUS_CANNOT_PASS);
    CHECK_OK(othello_board_undo(b));
    CHECK(othello_board_side_to_move(b) == OTHELLO_COLOR_WHITE && othello_board_must_pass(b));
    CHECK_OK(othello_board_redo(b));
    CHECK_OK(othello_board_play(b, 2, NULL, 0, NULL)); /* c1 flips b1 */
    CHECK(othello_board_count(b, OTHELLO_COLOR_BLACK) == 3);
    CHECK(othello_board_count(b, OTHELLO_COLOR_WHITE) == 0);
    CHECK(othello_board_is_game_over(b) && !othello_board_must_pass(b));
    CHECK_STATUS(othello_board_pass(b), OTHELLO_STATUS_GAME_OVER);
    s = othello_board_play(b, 3, NULL, 0, NULL);
    CHECK(s == OTHELLO_STATUS_GAME_OVER || s == OTHELLO_STATUS_ILLEGAL_MOVE);
    CHECK(othello_board_legal_moves(b, history, 4) == 0);
    CHECK(othello_board_move_number(b) == 3);
    CHECK_OK(othello_board_transcript(b, text, sizeof text, &n));
    CHECK(strcmp(text, "c1") == 0); /* the moves since the board string */

    CHECK(othello_board_is_game_over(over) && !othello_board_must_pass(over));
    CHECK_STATUS(othello_board_pass(over), OTHELLO_STATUS_GAME_OVER);
    othello_board_free(b);
    othello_board_free(over);
}

/* Transcripts (passes implied and recorded) and clones. */
static void test_transcripts_and_clones(void)
{
    othello_board *b = othello_board_from_transcript(game_with_passes);
    othello_board *copy, *again;
    char text[TEXT_MAX], before[TEXT_MAX];
    int history[128];
    size_t n = 0, passes = 0;

    CHECK(b != NULL);
    if (b == NULL) {
        return;
    }
    CHECK(othello_board_is_game_over(b));
    CHECK(othello_board_count(b, OTHELLO_COLOR_EMPTY) == 1);
    CHECK_OK(othello_board_history(b, history, 128, &n));
    for (size_t i = 0; i < n; i++) {
        passes += history[i] == OTHELLO_PASS;
    }
    CHECK(n == 61 && passes == 2);
    CHECK(othello_board_move_number(b) == 62);
    CHECK_OK(othello_board_transcript(b, text, sizeof text, &n));
    CHECK(n == strlen(game_with_passes) && strcmp(text, game_with_passes) == 0);

    /* Upper case and spaces; the same game. */
    again = othello_board_from_transcript(" E6 d6C4\tf4 c6c7g4b6f5f6b8c8b7a8g6a7a6a5h6f7f3c5e7"
                                          "f2b4c3d2b2g7g8e8h8g5f8a1e3g1a4g3b5h7h2d3d7b3a2d8b1"
                                          "h4a3c1e2d1c2e1f1h3g2h5 ");
    CHECK(again != NULL && same_game(again, b));
    othello_board_free(again);
    again = othello_board_from_transcript_sized(8, game_with_passes);
    CHECK(again != NULL && same_game(again, b));
    othello_board_free(again);
    again = othello_board_from_transcript("");
    CHECK(again != NULL && othello_board_move_number(again) == 1);
    othello_board_free(again);

    CHECK_NO_BOARD(othello_board_from_transcript("f5f5"), OTHELLO_STATUS_PARSE_ERROR);
    CHECK_NO_BOARD(othello_board_from_transcript("f5d6z9"), OTHELLO_STATUS_PARSE_ERROR);
    CHECK_NO_BOARD(othello_board_from_transcript("a1"), OTHELLO_STATUS_PARSE_ERROR);
    CHECK_NO_BOARD(othello_board_from_transcript_sized(7, "d3"), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_NO_BOARD(othello_board_from_transcript_sized(10, "f5"), OTHELLO_STATUS_PARSE_ERROR);

    /* A clone has the history; it and the original then go their ways. */
    CHECK_OK(othello_board_undo(b));
    CHECK_OK(othello_board_undo(b));
    copy = othello_board_clone(b);
    CHECK(copy != NULL && same_game(copy, b));
    CHECK(othello_board_can_redo(copy) == othello_board_can_redo(b));
    board_text(b, before);
    if (copy != NULL) {
        int moves[64];
        size_t k = othello_board_legal_moves(copy, moves, 64);
        CHECK(k > 0);
        if (k > 0) {
            CHECK_OK(othello_board_play(copy, moves[k - 1], NULL, 0, NULL));
        }
        CHECK(!same_game(copy, b));
        board_text(b, text);
        CHECK(strcmp(text, before) == 0 && othello_board_can_redo(b));
        CHECK(othello_board_move_number(copy) == othello_board_move_number(b) + 1);
    }
    othello_board_free(b); /* the clone outlives it */
    if (copy != NULL) {
        CHECK_OK(othello_board_undo(copy));
        CHECK(othello_board_move_number(copy) == 60);
    }
    othello_board_free(copy);
}

/* ------------------------------------------------------------------------ */
/* Games played by the engine                                                */

struct game_stats {
    int turns;
    int passes;
    int book_moves;
    int exact_checked;
};

/*
 * One turn: the engine's search for the side to move, checked, then played
 * (a move with its flips checked against the board, or a pass). Exact
 * results at `exact_at` empties or fewer (the level's exact limit, from
 * docs/guide.md's level table) must equal minimax. Returns 0 to stop.
 */
static int engine_turn(othello_engine *e, othello_board *b, const othello_search_limits *lim,
                       int exact_at, struct game_stats *stats)
{
    char before[TEXT_MAX], after[TEXT_MAX];
    int preview[SQUARES_MAX], flips[SQUARES_MAX];
    size_t n_preview = 0, n_flips = 0;
    othello_search_result r;
    othello_color me = othello_board_side_to_move(b), them = opponent(me);
    int mine = othello_board_count(b, me), theirs = othello_board_count(b, them);
    int empties = othello_board_count(b, OTHELLO_COLOR_EMPTY);
    int ok = 1;

    board_text(b, before);
    othello_search_result_init(&r);
    if (!CHECK_OK(othello_engine_search(e, b, lim, &r))) {
        return 0;
    }
    board_text(b, after);
    CHECK(strcmp(before, after) == 0); /* the board is not changed */
    CHECK(r.struct_size == sizeof r && !r.stopped);
    stats->turns++;
    if (othello_board_must_pass(b)) {
        stats->passes++;
        CHECK(r.move == OTHELLO_PASS);
        return CHECK_OK(othello_board_pass(b));
    }
    if (!CHECK(othello_board_is_legal(b, r.move))) {
        return 0;
    }
    CHECK(r.pv_len >= 1 && r.pv_len <= OTHELLO_PV_MAX && r.pv[0] == r.move);
    if (r.from_book) {
        stats->book_moves++;
        CHECK(r.depth == 0 && r.nodes == 0);
    }
    if (empties <= exact_at) {
        stats->exact_checked++;
        CHECK(r.exact && r.score == exact_score(b));
        CHECK(exact_score_of_move(b, r.move) == r.score);
    }

    CHECK_OK(othello_board_flips(b, r.move, preview, SQUARES_MAX, &n_preview));
    CHECK_OK(othello_board_play(b, r.move, flips, SQUARES_MAX, &n_flips));
    CHECK(n_flips >= 1 && n_flips == n_preview &&
          memcmp(flips, preview, n_flips * sizeof flips[0]) == 0);
    CHECK(othello_board_count(b, me) == mine + (int)n_flips + 1);
    CHECK(othello_board_count(b, them) == theirs - (int)n_flips);
    CHECK(othello_board_count(b, OTHELLO_COLOR_EMPTY) == empties - 1);
    CHECK(othello_board_get(b, r.move) == me);
    for (size_t i = 0; i < n_flips; i++) {
        if (othello_board_get(b, flips[i]) != me || (i > 0 && flips[i - 1] >= flips[i])) {
            ok = 0;
        }
    }
    CHECK(ok); /* every flip is now the mover's, listed ascending */
    return 1;
}

/*
 * After a game: the transcript, the board string, undo to the start and
 * redo to the end all give the same game back.
 */
static void check_round_trips(othello_board *b, const char *start_text)
{
    char text[TEXT_MAX], final_text[TEXT_MAX], moves[TEXT_MAX];
    int size = othello_board_size(b);
    size_t n_history = 0, undone = 0, redone = 0;
    othello_board *replay, *from_text;

    board_text(b, final_text);
    CHECK(strlen(final_text) == (size_t)(size * size + 2));
    CHECK_OK(othello_board_history(b, NULL, 0, &n_history));
    CHECK((int)n_history == othello_board_move_number(b) - 1);

    CHECK_OK(othello_board_transcript(b, moves, sizeof moves, NULL));
    replay = size == 8 ? othello_board_from_transcript(moves)
                       : othello_board_from_transcript_sized(size, moves);
    CHECK(replay != NULL && same_game(replay, b));
    othello_board_free(replay);

    from_text = othello_board_from_string(final_text);
    CHECK(from_text != NULL);
    if (from_text != NULL) {
        board_text(from_text, text);
        CHECK(strcmp(text, final_text) == 0);
        CHECK(othello_board_size(from_text) == size);
        CHECK(othello_board_move_number(from_text) == 1 && !othello_board_can_undo(from_text));
        transcript_text(from_text, text);
        CHECK(strcmp(text, "") == 0);
    }
    othello_board_free(from_text);

    while (othello_board_can_undo(b) && undone <= n_history) {
        if (othello_board_undo(b) != OTHELLO_STATUS_OK) {
            break;
        }
        undone++;
    }
    CHECK(undone == n_history);
    board_text(b, text);
    CHECK(strcmp(text, start_text) == 0 && othello_board_move_number(b) == 1);
    CHECK_STATUS(othello_board_undo(b), OTHELLO_STATUS_NOTHING_TO_UNDO);
    while (othello_board_can_redo(b) && redone <= n_history) {
        if (othello_board_redo(b) != OTHELLO_STATUS_OK) {
            break;
        }
        redone++;
    }
    CHECK(redone == n_history);
    board_text(b, text);
    CHECK(strcmp(text, final_text) == 0);
    CHECK_STATUS(othello_board_redo(b), OTHELLO_STATUS_NOTHING_TO_REDO);
    CHECK(othello_board_is_game_over(b));
}

/* A whole game of `size` by engine `e` at `level` against itself. */
static void play_game(othello_engine *e, int size, int level, int book)
{
    othello_board *b = size == 8 ? othello_board_new() : othello_board_new_sized(size);
    othello_search_limits lim = limits_at(level, book);
    struct game_stats stats = {0, 0, 0, 0};
    othello_search_result r;
    char start_text[TEXT_MAX];

    CHECK(b != NULL && othello_board_size(b) == size);
    if (b == NULL) {
        return;
    }
    board_text(b, start_text);
    while (!othello_board_is_game_over(b) && stats.turns < 2 * size * size) {
        if (!engine_turn(e, b, &lim, 2 * level, &stats)) {
            break;
        }
    }
    CHECK(othello_board_is_game_over(b));
    CHECK(stats.turns >= size * size - 4 - othello_board_count(b, OTHELLO_COLOR_EMPTY));
    /* The last move was searched at 2 * level empties or fewer, unless the
     * game ended with more empty squares than that. */
    CHECK(stats.exact_checked >= 1 || othello_board_count(b, OTHELLO_COLOR_EMPTY) >= 2 * level);
    CHECK(book == 0 ? stats.book_moves == 0 : size != 8 || stats.book_moves >= 1);
    CHECK(size == 8 || stats.book_moves == 0); /* the book knows 8x8 only */
    othello_search_result_init(&r);
    r.move = 77;
    CHECK_STATUS(othello_engine_search(e, b, &lim, &r), OTHELLO_STATUS_GAME_OVER);
    CHECK(r.move == 77);
    check_round_trips(b, start_text);
    othello_board_free(b);
}

static void test_games(void)
{
    othello_engine *e = othello_engine_new(4);
    CHECK(e != NULL);
    if (e == NULL) {
        return;
    }
    for (int level = 1; level <= 3; level++) {
        play_game(e, 8, level, 0);
        play_game(e, 8, level, 1);
    }
    CHECK_OK(othello_engine_clear(e));
    play_game(e, 6, 2, -1);
    play_game(e, 10, 1, -1);
    play_game(e, 8, 1, -1);
    othello_engine_free(e);
}

/* Boards of other sizes: the start, bad sizes, squares off the board,
 * and 4x4 solved: white wins 11-3, by 10 with the 2 empty squares
 * (docs/guide.md, "Board sizes"), as minimax says. */
static void test_sizes(void)
{
    othello_board *six = othello_board_new_sized(6);
    othello_board *ten = othello_board_new_sized(10);
    othello_board *eight = othello_board_new_sized(OTHELLO_SIZE_MAX / 2);
    othello_board *four = othello_board_new_sized(OTHELLO_SIZE_MIN);
    othello_board *from_text;
    othello_engine *e = othello_engine_new(1);
    othello_move_score scores[8];
    othello_search_limits lim = limits_at(6, -1); /* exact at 12 empties */
    othello_search_result r;
    char text[TEXT_MAX];
    int moves[16];
    size_t n = 0;

    CHECK(six != NULL && ten != NULL && eight != NULL && four != NULL && e != NULL);
    if (six == NULL || ten == NULL || eight == NULL || four == NULL || e == NULL) {
        goto done;
    }
    board_text(eight, text);
    CHECK(strcmp(text, start8) == 0);
    CHECK(othello_board_size(six) == 6 && othello_board_size(ten) == 10);
    CHECK(othello_board_get(six, 14) == OTHELLO_COLOR_WHITE); /* c3 */
    CHECK(othello_board_get(six, 21) == OTHELLO_COLOR_WHITE); /* d4 */
    CHECK(othello_board_get(six, 15) == OTHELLO_COLOR_BLACK); /* d3 */
    CHECK(othello_board_get(six, 20) == OTHELLO_COLOR_BLACK); /* c4 */
    CHECK(othello_board_count(ten, OTHELLO_COLOR_EMPTY) == 96);
    CHECK(othello_board_legal_moves(ten, NULL, 0) == 4);
    CHECK(othello_board_get(ten, 44) == OTHELLO_COLOR_WHITE); /* e5 */
    CHECK(othello_board_get(ten, 55) == OTHELLO_COLOR_WHITE); /* f6 */
    CHECK(othello_board_to_string(six, text, sizeof text, &n) == OTHELLO_STATUS_OK && n == 38);
    from_text = othello_board_from_string(text);
    CHECK(from_text != NULL && othello_board_size(from_text) == 6 && same_game(from_text, six));
    othello_board_free(from_text);
    CHECK_FAILS(othello_board_get(six, 36) == OTHELLO_COLOR_EMPTY, OTHELLO_STATUS_INVALID_SQUARE);
    CHECK_STATUS(othello_board_play(six, 36, NULL, 0, NULL), OTHELLO_STATUS_INVALID_SQUARE);
    CHECK_STATUS(othello_board_flips(ten, 100, NULL, 0, &n), OTHELLO_STATUS_INVALID_SQUARE);
    CHECK(!othello_board_is_legal(six, 36));
    CHECK_OK(othello_square_parse_sized(10, "e4", &moves[0]));
    CHECK(othello_board_is_legal(ten, moves[0])); /* e4 flips e5 */
    CHECK_OK(othello_board_play(ten, moves[0], NULL, 0, &n));
    CHECK(n == 1);
    CHECK_OK(othello_board_transcript(ten, text, sizeof text, NULL));
    CHECK(strcmp(text, "e4") == 0);
    CHECK_NO_BOARD(othello_board_new_sized(3), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_NO_BOARD(othello_board_new_sized(5), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_NO_BOARD(othello_board_new_sized(0), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_NO_BOARD(othello_board_new_sized(-8), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_NO_BOARD(othello_board_from_string("------OX--XO---- XX"), OTHELLO_STATUS_PARSE_ERROR);

    /* 4x4 solved. */
    CHECK(othello_board_legal_moves(four, moves, 16) == 4);
    CHECK(exact_score(four) == -10 && minimax_errors == 0);
    CHECK_OK(othello_engine_analyze(e, four, &lim, scores, 8, &n));
    CHECK(n == 4);
    for (size_t i = 0; i < n && i < 8; i++) {
        CHECK(scores[i].exact && scores[i].score == -10);
    }
    othello_search_result_init(&r);
    CHECK_OK(othello_engine_search(e, four, &lim, &r));
    CHECK(r.exact && r.score == -10 && othello_board_is_legal(four, r.move) && !r.from_book);
done:
    othello_board_free(six);
    othello_board_free(ten);
    othello_board_free(eight);
    othello_board_free(four);
    othello_engine_free(e);
}

/* ------------------------------------------------------------------------ */
/* The engine: errors, strategies, limits                                    */

static void test_engine_errors(void)
{
    othello_engine *e = othello_engine_new(0);
    othello_board *b = othello_board_new();
    othello_board *pass = othello_board_from_string(
        "XO-------------------------------------------------------------- O");
    othello_board *over = othello_board_from_string(
        "X--------------------------------------------------------------- X");
    othello_search_limits lim, zero;
    othello_search_result r, sentinel;
    othello_move_score scores[4];
    othello_engine *huge;
    size_t n = 7;
    int move = 77;

    CHECK(e != NULL && b != NULL && pass != NULL && over != NULL);
    if (e == NULL || b == NULL || pass == NULL || over == NULL) {
        goto done;
    }
    /* Above 65536 MiB in 1.0; a later 1.x may allow more, and then runs
     * out of memory. */
    huge = othello_engine_new(SIZE_MAX);
    CHECK(huge == NULL && (othello_last_status() == OTHELLO_STATUS_INVALID_ARGUMENT ||
                           othello_last_status() == OTHELLO_STATUS_OUT_OF_MEMORY));
    othello_engine_free(huge);
    othello_engine_free(NULL);
    othello_engine_stop(NULL);
    CHECK_STATUS(othello_search_limits_init_(NULL, sizeof(othello_search_limits)),
                 OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_search_result_init_(NULL, sizeof(othello_search_result)),
                 OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_clear(NULL), OTHELLO_STATUS_NULL_ARGUMENT);

    othello_search_limits_init(&lim);
    CHECK(lim.struct_size == sizeof lim && lim.level == 10 && lim.node_limit == 0);
    CHECK(lim.time_limit_ms == 0 && lim.strategy == OTHELLO_STRATEGY_ENGINE);
    CHECK(lim.randomness == 0 && lim.seed == 0 && lim.progress == NULL);
    CHECK(lim.selectivity == -1 && lim.book == -1 && lim.threads == 1);
    CHECK(lim.clock_remaining_ms == -1 && lim.clock_increment_ms == 0);
    memset(&r, 0x5a, sizeof r);
    othello_search_result_init(&r);
    CHECK(r.struct_size == sizeof r && r.move == 0 && r.pv_len == 0 && !r.stopped);

    /* A result that was never initialised is refused, and not written. */
    memset(&r, 0, sizeof r);
    memcpy(&sentinel, &r, sizeof r);
    lim.level = 1;
    CHECK_STATUS(othello_engine_search(e, b, &lim, &r), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(memcmp(&r, &sentinel, sizeof r) == 0);
    /* So are limits that were never initialised. */
    othello_search_result_init(&r);
    memset(&zero, 0, sizeof zero);
    CHECK_STATUS(othello_engine_search(e, b, &zero, &r), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(othello_engine_search(NULL, b, &lim, &r), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_search(e, NULL, &lim, &r), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_search(e, b, &lim, NULL), OTHELLO_STATUS_NULL_ARGUMENT);

    /* Fields out of range (never valid: a later 1.x may widen a range or
     * add enum values at the end, but not below). */
    lim.level = -2;
    CHECK_STATUS(othello_engine_search(e, b, &lim, &r), OTHELLO_STATUS_INVALID_ARGUMENT);
    lim = limits_at(-1, 0);
    lim.depth = -1;
    CHECK_STATUS(othello_engine_search(e, b, &lim, &r), OTHELLO_STATUS_INVALID_ARGUMENT);
    lim = limits_at(2, 0);
    lim.time_limit_ms = -1;
    CHECK_STATUS(othello_engine_search(e, b, &lim, &r), OTHELLO_STATUS_INVALID_ARGUMENT);
    lim = limits_at(2, 0);
    lim.strategy = (othello_strategy)-1;
    CHECK_STATUS(othello_engine_search(e, b, &lim, &r), OTHELLO_STATUS_INVALID_ARGUMENT);
    lim = limits_at(2, 0);
    lim.randomness = -1;
    CHECK_STATUS(othello_engine_search(e, b, &lim, &r), OTHELLO_STATUS_INVALID_ARGUMENT);
    lim = limits_at(2, 0);
    lim.selectivity = -2;
    CHECK_STATUS(othello_engine_search(e, b, &lim, &r), OTHELLO_STATUS_INVALID_ARGUMENT);
    lim = limits_at(2, -2);
    CHECK_STATUS(othello_engine_search(e, b, &lim, &r), OTHELLO_STATUS_INVALID_ARGUMENT);
    lim = limits_at(2, 0);
    lim.threads = -1;
    CHECK_STATUS(othello_engine_search(e, b, &lim, &r), OTHELLO_STATUS_INVALID_ARGUMENT);
    lim = limits_at(2, 0);
    lim.clock_increment_ms = -1;
    CHECK_STATUS(othello_engine_search(e, b, &lim, &r), OTHELLO_STATUS_INVALID_ARGUMENT);
    lim = limits_at(2, 0);
    lim.strategy = OTHELLO_STRATEGY_CLASSIC;
    lim.classic_depth = -1;
    CHECK_STATUS(othello_engine_search(e, b, &lim, &r), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(r.struct_size == sizeof r && r.pv_len == 0); /* nothing written */

    /* Game over; a forced pass; the defaults (NULL limits). */
    lim = limits_at(2, 0);
    CHECK_STATUS(othello_engine_search(e, over, &lim, &r), OTHELLO_STATUS_GAME_OVER);
    CHECK_OK(othello_engine_search(e, pass, NULL, &r));
    CHECK(r.move == OTHELLO_PASS);
    othello_search_result_init(&r);
    CHECK_OK(othello_engine_search(e, b, NULL, &r));
    CHECK(othello_board_is_legal(b, r.move));

    /* Analyze: the same errors, a pass, game over, buffers. */
    CHECK_STATUS(othello_engine_analyze(NULL, b, &lim, scores, 4, &n),
                 OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_analyze(e, NULL, &lim, scores, 4, &n),
                 OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_analyze(e, b, &lim, NULL, 4, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    lim.level = -2;
    CHECK_STATUS(othello_engine_analyze(e, b, &lim, scores, 4, &n),
                 OTHELLO_STATUS_INVALID_ARGUMENT);
    lim.level = 2;
    CHECK(n == 7);
    CHECK_STATUS(othello_engine_analyze(e, over, &lim, scores, 4, &n), OTHELLO_STATUS_GAME_OVER);
    CHECK_OK(othello_engine_analyze(e, pass, &lim, scores, 4, &n));
    CHECK(n == 0);
    CHECK_STATUS(othello_engine_analyze(e, b, &lim, scores, 3, &n),
                 OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 4);
    n = 0;
    CHECK_OK(othello_engine_analyze(e, b, &lim, NULL, 0, &n));
    CHECK(n == 4);
    CHECK_OK(othello_engine_analyze(e, b, NULL, scores, 4, NULL));

    /* The one-shot best move. */
    CHECK_OK(othello_board_best_move(b, 1, &move));
    CHECK(othello_board_is_legal(b, move));
    CHECK_OK(othello_board_best_move(pass, 1, &move));
    CHECK(move == OTHELLO_PASS);
    move = 77;
    CHECK_STATUS(othello_board_best_move(over, 1, &move), OTHELLO_STATUS_GAME_OVER);
    CHECK_STATUS(othello_board_best_move(b, -100, &move), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(othello_board_best_move(b, -1, &move), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(othello_board_best_move(NULL, 1, &move), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_board_best_move(b, 1, NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(move == 77);
    CHECK_OK(othello_engine_clear(e));
done:
    othello_board_free(b);
    othello_board_free(pass);
    othello_board_free(over);
    othello_engine_free(e);
}

/* The structs that carry a struct_size grow in later 1.x versions: the
 * library must then write no more than this program's (1.0) size of them. */
struct guarded_limits {
    othello_search_limits lim;
    unsigned char guard[64];
};
struct guarded_result {
    othello_search_result r;
    unsigned char guard[64];
};
_Static_assert(offsetof(struct guarded_limits, guard) == sizeof(othello_search_limits),
               "the guard follows the limits");
_Static_assert(offsetof(struct guarded_result, guard) == sizeof(othello_search_result),
               "the guard follows the result");

static int guard_intact(const unsigned char *guard, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (guard[i] != 0xa5) {
            return 0;
        }
    }
    return 1;
}

static void test_struct_sizes(void)
{
    struct guarded_limits limits;
    struct guarded_result result;
    othello_engine *e = othello_engine_new(1);
    othello_board *b = othello_board_from_transcript(midgame_moves);

    memset(&limits, 0xa5, sizeof limits);
    othello_search_limits_init(&limits.lim);
    CHECK(limits.lim.struct_size == sizeof limits.lim);
    CHECK(guard_intact(limits.guard, sizeof limits.guard));
    memset(&result, 0xa5, sizeof result);
    othello_search_result_init(&result.r);
    CHECK(result.r.struct_size == sizeof result.r);
    CHECK(guard_intact(result.guard, sizeof result.guard));
    limits.lim.level = 2;
    limits.lim.book = 0;
    CHECK_OK(othello_engine_search(e, b, &limits.lim, &result.r));
    CHECK(result.r.struct_size == sizeof result.r && othello_board_is_legal(b, result.r.move));
    CHECK(guard_intact(result.guard, sizeof result.guard));
    CHECK(guard_intact(limits.guard, sizeof limits.guard));
    othello_board_free(b);
    othello_engine_free(e);
}

/* The other strategies play legal moves; GREEDY flips the most discs;
 * RANDOM repeats itself with the same seed. Node and time limits. */
static void test_strategies_and_limits(void)
{
    othello_engine *e = othello_engine_new(2);
    othello_engine *other = othello_engine_new(1);
    othello_board *b = othello_board_from_transcript(midgame_moves);
    othello_search_limits lim;
    othello_search_result r, again;
    int moves[64];
    size_t n, most = 0, flipped = 0;
    double t0;

    CHECK(e != NULL && other != NULL && b != NULL);
    if (e == NULL || other == NULL || b == NULL) {
        goto done;
    }
    othello_search_result_init(&r);
    othello_search_result_init(&again);
    n = othello_board_legal_moves(b, moves, 64);
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        (void)othello_board_flips(b, moves[i], NULL, 0, &k);
        most = k > most ? k : most;
    }

    othello_search_limits_init(&lim);
    lim.strategy = OTHELLO_STRATEGY_GREEDY;
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK(othello_board_is_legal(b, r.move) && !r.from_book);
    CHECK(othello_board_flips(b, r.move, NULL, 0, &flipped) == OTHELLO_STATUS_OK &&
          flipped == most);
    lim.strategy = OTHELLO_STRATEGY_CORNERS;
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK(othello_board_is_legal(b, r.move));
    lim.strategy = OTHELLO_STRATEGY_CLASSIC;
    lim.classic_depth = 2;
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK(othello_board_is_legal(b, r.move) && r.depth == 2);
    lim.strategy = OTHELLO_STRATEGY_RANDOM;
    lim.seed = 12345;
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK_OK(othello_engine_search(other, b, &lim, &again));
    CHECK(othello_board_is_legal(b, r.move) && again.move == r.move && r.score == 0);

    /* Explicit limits: a midgame depth, no solve. */
    lim = limits_at(-1, 0);
    lim.depth = 3;
    lim.exact_empties = 0;
    lim.wld_empties = 0;
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK(othello_board_is_legal(b, r.move) && r.depth == 3 && !r.exact && !r.stopped);

    /* Randomness with a seed: the same move from the same fresh engines. */
    lim = limits_at(2, 0);
    lim.randomness = 4;
    lim.seed = 99;
    CHECK_OK(othello_engine_clear(e));
    CHECK_OK(othello_engine_clear(other));
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK_OK(othello_engine_search(other, b, &lim, &again));
    CHECK(othello_board_is_legal(b, r.move) && r.move == again.move);

    /* A node limit ends a deep search early, with a legal move. */
    lim = limits_at(60, 0);
    lim.node_limit = 2000;
    t0 = now_ms();
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK(r.stopped && othello_board_is_legal(b, r.move));
    /* A time limit, and a clock: within them. */
    lim = limits_at(60, 0);
    lim.time_limit_ms = 100;
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK(othello_board_is_legal(b, r.move) && r.elapsed_ms <= 1000);
    lim = limits_at(60, -1);
    lim.clock_remaining_ms = 600;
    lim.clock_increment_ms = 0;
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK(othello_board_is_legal(b, r.move) && r.elapsed_ms <= 1000);
    CHECK(now_ms() - t0 < 3000);

    /* Two threads: a legal move at the depth asked. */
    lim = limits_at(4, 0);
    lim.threads = 2;
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK(othello_board_is_legal(b, r.move) && r.depth == 4 && !r.stopped);
done:
    othello_board_free(b);
    othello_engine_free(e);
    othello_engine_free(other);
}

/* ------------------------------------------------------------------------ */
/* Exact scores, against minimax                                             */

static void test_exact_scores(void)
{
    othello_engine *e = othello_engine_new(4);
    othello_board *b = othello_board_from_string(endgame9);
    othello_move_score scores[16];
    othello_search_limits lim;
    othello_search_result r;
    int moves[16], values[16], best = -1000;
    size_t n_moves = 0, n = 0;
    int sorted = 1, match = 1;

    CHECK(e != NULL && b != NULL);
    if (e == NULL || b == NULL) {
        goto done;
    }
    CHECK(othello_board_count(b, OTHELLO_COLOR_EMPTY) == 9);
    n_moves = othello_board_legal_moves(b, moves, 16);
    CHECK(n_moves >= 2 && n_moves <= 16);
    for (size_t i = 0; i < n_moves; i++) {
        values[i] = exact_score_of_move(b, moves[i]);
        best = values[i] > best ? values[i] : best;
    }
    CHECK(minimax_errors == 0);
    CHECK(exact_score(b) == best);

    /* Analyze, explicitly exact: every move, best first, minimax's score. */
    lim = limits_at(-1, 0);
    lim.depth = 1;
    lim.exact_empties = 60;
    CHECK_OK(othello_engine_analyze(e, b, &lim, scores, 16, &n));
    CHECK(n == n_moves);
    for (size_t i = 0; i < n && i < 16; i++) {
        int found = 0;
        for (size_t k = 0; k < n_moves; k++) {
            if (moves[k] == scores[i].move) {
                found = 1;
                match &= scores[i].exact && scores[i].score == values[k];
            }
        }
        match &= found;
        sorted &= i == 0 || scores[i - 1].score >= scores[i].score;
    }
    CHECK(match && sorted && scores[0].score == best);

    /* Level 5 solves 10 empties exactly (docs/guide.md, Levels); so does
     * level 10, and on two threads. */
    for (int level = 5; level <= 10; level += 5) {
        for (int threads = 1; threads <= 2; threads++) {
            lim = limits_at(level, 0);
            lim.threads = threads;
            othello_search_result_init(&r);
            CHECK_OK(othello_engine_clear(e));
            CHECK_OK(othello_engine_search(e, b, &lim, &r));
            CHECK(r.exact && r.wld && r.score == best && !r.stopped);
            CHECK(exact_score_of_move(b, r.move) == best);
        }
    }
    lim = limits_at(5, 0);
    n = 0;
    CHECK_OK(othello_engine_analyze(e, b, &lim, scores, 16, &n));
    CHECK(n == n_moves && scores[0].exact && scores[0].score == best);
    {
        int move = -7;
        CHECK_OK(othello_board_best_move(b, 5, &move));
        CHECK(othello_board_is_legal(b, move) && exact_score_of_move(b, move) == best);
    }
    CHECK(minimax_errors == 0);
done:
    othello_board_free(b);
    othello_engine_free(e);
}

/* ------------------------------------------------------------------------ */
/* Progress, analyze in the middle game, and a stop                          */

struct progress_log {
    const othello_board *board;
    int calls;
    int last_depth;
    uint64_t last_elapsed;
    int ok;
};

static void on_progress(const othello_search_progress *p, void *userdata)
{
    struct progress_log *log = userdata;
    log->calls++;
    if (p == NULL ||
        p->struct_size < offsetof(othello_search_progress, elapsed_ms) + sizeof(uint64_t)) {
        log->ok = 0;
        return;
    }
    if (p->depth <= log->last_depth || p->elapsed_ms < log->last_elapsed ||
        !othello_board_is_legal(log->board, p->best_move) || (p->pv_len > 0 && p->pv == NULL)) {
        log->ok = 0;
    }
    for (size_t i = 0; i < p->pv_len && p->pv != NULL; i++) {
        if (p->pv[i] < OTHELLO_PASS || p->pv[i] > 63) {
            log->ok = 0;
        }
    }
    log->last_depth = p->depth;
    log->last_elapsed = p->elapsed_ms;
}

static void test_progress_and_analyze(void)
{
    othello_engine *e = othello_engine_new(4);
    othello_board *b = othello_board_from_transcript(midgame_moves);
    struct progress_log log = {NULL, 0, 0, 0, 1};
    othello_search_limits lim = limits_at(6, 0);
    othello_search_result r;
    othello_move_score scores[32], kept;
    size_t n = 0, legal;
    int ok = 1;

    CHECK(e != NULL && b != NULL);
    if (e == NULL || b == NULL) {
        goto done;
    }
    log.board = b;
    lim.progress = on_progress;
    lim.userdata = &log;
    othello_search_result_init(&r);
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK(log.calls >= 1 && log.ok);
    CHECK(log.last_depth == r.depth && r.depth == 6 && !r.exact);
    CHECK(othello_board_is_legal(b, r.move));

    legal = othello_board_legal_moves(b, NULL, 0);
    lim.progress = NULL;
    CHECK_OK(othello_engine_analyze(e, b, &lim, scores, 32, &n));
    CHECK(n == legal);
    for (size_t i = 0; i < n && i < 32; i++) {
        ok &= othello_board_is_legal(b, scores[i].move) && !scores[i].exact;
        ok &= i == 0 || (scores[i - 1].score >= scores[i].score &&
                         scores[i - 1].move != scores[i].move);
    }
    CHECK(ok);
    /* A node limit ends the analysis: STOPPED, nothing written. */
    lim = limits_at(10, 0);
    lim.node_limit = 1;
    kept = scores[0];
    n = 999;
    CHECK_STATUS(othello_engine_analyze(e, b, &lim, scores, 32, &n), OTHELLO_STATUS_STOPPED);
    CHECK(n == 999 && kept.move == scores[0].move && kept.score == scores[0].score &&
          kept.exact == scores[0].exact);
done:
    othello_board_free(b);
    othello_engine_free(e);
}

struct long_search {
    othello_engine *engine;
    const othello_board *board;
    othello_search_limits limits;
    othello_search_result result;
    othello_status status;
    atomic_int iterations;
    atomic_int done;
};

static void count_iteration(const othello_search_progress *p, void *userdata)
{
    struct long_search *job = userdata;
    (void)p;
    atomic_fetch_add(&job->iterations, 1);
}

static void *run_long_search(void *arg)
{
    struct long_search *job = arg;
    othello_search_result_init(&job->result);
    job->status = othello_engine_search(job->engine, job->board, &job->limits, &job->result);
    atomic_store(&job->done, 1);
    return NULL;
}

/* Waits up to `ms` for `flag`; true if it was set. */
static int wait_for(atomic_int *flag, double ms)
{
    double t0 = now_ms();
    while (atomic_load(flag) == 0) {
        if (now_ms() - t0 > ms) {
            return 0;
        }
        sleep_ms(1);
    }
    return 1;
}

/* Level 60 from the start (book off) runs until stopped from this thread;
 * meanwhile the engine is BUSY for everything that would change it. */
static void test_stop_from_another_thread(void)
{
    struct long_search job;
    pthread_t thread;
    othello_board *b = othello_board_new();
    othello_search_result r;
    othello_move_score scores[4];
    size_t n = 3;
    int expected = -7;
    double t0 = now_ms();

    job.engine = othello_engine_new(16);
    job.board = b;
    job.limits = limits_at(60, 0);
    job.limits.progress = count_iteration;
    job.limits.userdata = &job;
    job.status = OTHELLO_STATUS_PANIC;
    atomic_init(&job.iterations, 0);
    atomic_init(&job.done, 0);
    CHECK(job.engine != NULL && b != NULL);
    if (job.engine == NULL || b == NULL) {
        othello_engine_free(job.engine);
        othello_board_free(b);
        return;
    }
    CHECK(pthread_create(&thread, NULL, run_long_search, &job) == 0);
    CHECK(wait_for(&job.iterations, 3000)); /* the search has begun */
    sleep_ms(100);
    CHECK(atomic_load(&job.done) == 0);
    othello_search_result_init(&r);
    CHECK_STATUS(othello_engine_search(job.engine, b, NULL, &r), OTHELLO_STATUS_BUSY);
    CHECK_STATUS(othello_engine_analyze(job.engine, b, NULL, scores, 4, &n), OTHELLO_STATUS_BUSY);
    CHECK_STATUS(othello_engine_clear(job.engine), OTHELLO_STATUS_BUSY);
    CHECK_STATUS(othello_engine_ponder(job.engine, b, NULL, &expected), OTHELLO_STATUS_BUSY);
    CHECK_STATUS(othello_engine_set_book(job.engine, OTHELLO_BOOK_NONE), OTHELLO_STATUS_BUSY);
    CHECK_STATUS(othello_engine_set_evaluation(job.engine, OTHELLO_EVALUATION_V1),
                 OTHELLO_STATUS_BUSY);
    CHECK_STATUS(othello_engine_book_moves(job.engine, b, scores, 4, &n), OTHELLO_STATUS_BUSY);
    CHECK_FAILS(othello_engine_get_book(job.engine) == OTHELLO_BOOK_NONE, OTHELLO_STATUS_BUSY);
    CHECK_FAILS(othello_engine_get_evaluation(job.engine) == OTHELLO_EVALUATION_V1,
                OTHELLO_STATUS_BUSY);
    CHECK(n == 3 && expected == -7);

    othello_engine_stop(job.engine);
    if (!wait_for(&job.done, 4500)) {
        /* Freeing the engine under a running search is not allowed: give up. */
        CHECK(!"the stopped search returned within 4.5 s");
        printf("abi 1.0 program: %ld of %ld checks FAILED (a search did not stop)\n",
               checks_failed, checks_run);
        exit(1);
    }
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK(now_ms() - t0 < 5000);
    CHECK(job.status == OTHELLO_STATUS_OK && job.result.stopped);
    CHECK(othello_board_is_legal(b, job.result.move));
    CHECK(job.result.struct_size == sizeof job.result);

    /* The stop does not carry over; the engine is as it was. */
    CHECK(othello_engine_get_book(job.engine) == OTHELLO_BOOK_BUILTIN);
    CHECK(othello_engine_get_evaluation(job.engine) == OTHELLO_EVALUATION_TRAINED);
    job.limits = limits_at(2, 0);
    othello_search_result_init(&r);
    CHECK_OK(othello_engine_search(job.engine, b, &job.limits, &r));
    CHECK(!r.stopped && r.depth == 2 && othello_board_is_legal(b, r.move));
    othello_engine_stop(job.engine); /* no search: no effect */
    CHECK_OK(othello_engine_search(job.engine, b, &job.limits, &r));
    CHECK(!r.stopped);
    othello_engine_free(job.engine);
    othello_board_free(b);
}

/* ------------------------------------------------------------------------ */
/* Pondering                                                                 */

/* Plays `move` (or a pass) on a clone of `b`. */
static othello_board *after_move(const othello_board *b, int move)
{
    othello_board *next = othello_board_clone(b);
    if (next != NULL && (move == OTHELLO_PASS ? othello_board_pass(next)
                                              : othello_board_play(next, move, NULL, 0, NULL)) !=
                            OTHELLO_STATUS_OK) {
        othello_board_free(next);
        return NULL;
    }
    return next;
}

/* The expected reply: legal for the opponent, or a pass when it must. */
static int is_expected_reply(const othello_board *after, int expected)
{
    return othello_board_must_pass(after) ? expected == OTHELLO_PASS
                                          : othello_board_is_legal(after, expected);
}

static void test_ponder(void)
{
    othello_engine *e = othello_engine_new(8);
    othello_board *start = othello_board_new();
    othello_board *end = othello_board_from_string(endgame9);
    othello_board *over = othello_board_from_string(
        "X--------------------------------------------------------------- X");
    othello_board *after = NULL, *reply = NULL;
    othello_search_limits lim = limits_at(3, 0), bad = limits_at(-2, 0);
    othello_search_result r;
    othello_move_score scores[8];
    size_t n = 0;
    int expected = -7;

    CHECK(e != NULL && start != NULL && end != NULL && over != NULL);
    if (e == NULL || start == NULL || end == NULL || over == NULL) {
        goto done;
    }
    CHECK_STATUS(othello_engine_ponder(NULL, start, &lim, &expected), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_ponder(e, NULL, &lim, &expected), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_ponder(e, start, &bad, &expected), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(othello_engine_ponder(e, over, &lim, &expected), OTHELLO_STATUS_GAME_OVER);
    CHECK(expected == -7);

    /* The middle game: the engine moves, ponders, and the expected reply
     * comes; the search of its position is the pondering's. */
    othello_search_result_init(&r);
    CHECK_OK(othello_engine_search(e, start, &lim, &r));
    after = after_move(start, r.move);
    CHECK(after != NULL);
    if (after == NULL) {
        goto done;
    }
    CHECK_OK(othello_engine_ponder(e, after, &lim, &expected));
    CHECK(is_expected_reply(after, expected));
    reply = after_move(after, expected);
    CHECK(reply != NULL);
    if (reply == NULL) {
        goto done;
    }
    othello_search_result_init(&r);
    CHECK_OK(othello_engine_search(e, reply, &lim, &r));
    CHECK(othello_board_is_legal(reply, r.move) && r.depth == 3 && !r.stopped);
    othello_board_free(after);
    othello_board_free(reply);
    after = reply = NULL;

    /* The endgame: scores stay exact after the expected reply and after
     * another one. */
    lim = limits_at(10, 0);
    othello_search_result_init(&r);
    CHECK_OK(othello_engine_search(e, end, &lim, &r));
    CHECK(r.exact && r.score == exact_score(end));
    after = after_move(end, r.move);
    CHECK(after != NULL);
    if (after == NULL) {
        goto done;
    }
    expected = -7;
    CHECK_OK(othello_engine_ponder(e, after, &lim, &expected));
    CHECK(is_expected_reply(after, expected));
    reply = after_move(after, expected);
    CHECK(reply != NULL);
    if (reply != NULL && !othello_board_is_game_over(reply) && !othello_board_must_pass(reply)) {
        othello_search_result_init(&r);
        CHECK_OK(othello_engine_search(e, reply, &lim, &r));
        CHECK(r.exact && !r.stopped && r.score == exact_score(reply));
    }
    othello_board_free(reply);
    reply = NULL;
    CHECK_OK(othello_engine_ponder(e, after, &lim, NULL));
    if (!othello_board_must_pass(after)) {
        int moves[32];
        size_t k = othello_board_legal_moves(after, moves, 32);
        reply = k > 0 ? after_move(after, moves[k - 1]) : NULL;
        if (reply != NULL && !othello_board_is_game_over(reply) &&
            !othello_board_must_pass(reply)) {
            othello_search_result_init(&r);
            CHECK_OK(othello_engine_search(e, reply, &lim, &r));
            CHECK(r.exact && r.score == exact_score(reply));
        }
    }
    CHECK(minimax_errors == 0);

    /* A long ponder: getters answer meanwhile; stop ends it; free ends
     * another. */
    lim = limits_at(60, 0);
    CHECK_OK(othello_engine_ponder(e, start, &lim, &expected));
    CHECK(othello_board_is_legal(start, expected));
    CHECK(othello_engine_get_book(e) == OTHELLO_BOOK_BUILTIN);
    CHECK(othello_engine_get_evaluation(e) == OTHELLO_EVALUATION_TRAINED);
    CHECK_OK(othello_engine_book_moves(e, start, scores, 8, &n));
    CHECK(n == 4);
    othello_engine_stop(e);
    lim = limits_at(2, 0);
    othello_search_result_init(&r);
    CHECK_OK(othello_engine_search(e, start, &lim, &r));
    CHECK(!r.stopped && r.depth == 2);
    lim = limits_at(60, 0);
    CHECK_OK(othello_engine_ponder(e, start, &lim, NULL));
    sleep_ms(10);
done:
    othello_engine_free(e); /* while pondering */
    othello_board_free(after);
    othello_board_free(reply);
    othello_board_free(start);
    othello_board_free(end);
    othello_board_free(over);
}

/* ------------------------------------------------------------------------ */
/* The opening book and the evaluation                                       */

static void test_book(void)
{
    static const uint8_t garbage[] = "this is not an opening book, nor anything else";
    othello_engine *e = othello_engine_new(2);
    othello_board *b = othello_board_new();
    othello_board *ten = othello_board_new_sized(10);
    othello_move_score moves[64];
    othello_search_limits lim = limits_at(3, -1);
    othello_search_result r;
    size_t n = 0;
    int ok = 1, listed = 0;

    CHECK(e != NULL && b != NULL && ten != NULL);
    if (e == NULL || b == NULL || ten == NULL) {
        goto done;
    }
    CHECK(othello_engine_get_book(e) == OTHELLO_BOOK_BUILTIN);
    CHECK_OK(othello_engine_book_moves(e, b, NULL, 0, &n));
    CHECK(n == 4);
    n = 0;
    CHECK_STATUS(othello_engine_book_moves(e, b, moves, 3, &n), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 4);
    CHECK_OK(othello_engine_book_moves(e, b, moves, 64, &n));
    CHECK(n == 4);
    for (size_t i = 0; i < n && i < 64; i++) {
        ok &= othello_board_is_legal(b, moves[i].move) && !moves[i].exact;
        ok &= i == 0 || moves[i - 1].score >= moves[i].score;
    }
    CHECK(ok);
    CHECK_OK(othello_engine_book_moves(e, b, moves, 64, NULL));

    /* A search from the book: a book move, no nodes. */
    othello_search_result_init(&r);
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    for (size_t i = 0; i < n && i < 64; i++) {
        listed |= moves[i].move == r.move;
    }
    CHECK(r.from_book && listed && r.nodes == 0 && r.depth == 0 && r.score == moves[0].score);
    CHECK(r.pv_len >= 1 && r.pv[0] == r.move);
    lim.book = 0;
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK(!r.from_book && r.depth == 3 && othello_board_is_legal(b, r.move));
    lim.book = -1;
    /* Other sizes have no book. */
    n = 9;
    CHECK_OK(othello_engine_book_moves(e, ten, moves, 64, &n));
    CHECK(n == 0);

    /* No book. */
    CHECK_OK(othello_engine_set_book(e, OTHELLO_BOOK_NONE));
    CHECK(othello_engine_get_book(e) == OTHELLO_BOOK_NONE);
    n = 9;
    CHECK_OK(othello_engine_book_moves(e, b, moves, 64, &n));
    CHECK(n == 0);
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK(!r.from_book && othello_board_is_legal(b, r.move));
    CHECK_STATUS(othello_engine_set_book(e, OTHELLO_BOOK_LOADED), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(othello_engine_set_book(e, (othello_book)-1), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(othello_engine_get_book(e) == OTHELLO_BOOK_NONE);
    CHECK_OK(othello_engine_set_book(e, OTHELLO_BOOK_BUILTIN));
    CHECK(othello_engine_get_book(e) == OTHELLO_BOOK_BUILTIN);

    /* Books that cannot be read are refused; the engine keeps its book. */
    CHECK_STATUS(othello_engine_load_book(e, "/nonexistent/othello-abi-1.0/book.bin"),
                 OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(othello_engine_load_book_buffer(e, garbage, sizeof garbage),
                 OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(othello_engine_load_book_buffer(e, garbage, 0), OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(othello_engine_get_book(e) == OTHELLO_BOOK_BUILTIN);
    CHECK_OK(othello_engine_book_moves(e, b, moves, 64, &n));
    CHECK(n == 4);
    CHECK_OK(othello_engine_set_book(e, OTHELLO_BOOK_NONE));
    CHECK_STATUS(othello_engine_load_book_buffer(e, garbage, sizeof garbage),
                 OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(othello_engine_get_book(e) == OTHELLO_BOOK_NONE);

    CHECK_STATUS(othello_engine_set_book(NULL, OTHELLO_BOOK_NONE), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_FAILS(othello_engine_get_book(NULL) == OTHELLO_BOOK_NONE, OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_load_book(NULL, "book.bin"), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_load_book(e, NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_load_book_buffer(NULL, garbage, sizeof garbage),
                 OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_load_book_buffer(e, NULL, 10), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_book_moves(NULL, b, moves, 64, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_book_moves(e, NULL, moves, 64, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_book_moves(e, b, NULL, 4, &n), OTHELLO_STATUS_NULL_ARGUMENT);
done:
    othello_board_free(b);
    othello_board_free(ten);
    othello_engine_free(e);
}

static void test_evaluation(void)
{
    static const uint8_t garbage[] = "these are not pattern weights";
    othello_engine *e = othello_engine_new(2);
    othello_board *b = othello_board_from_transcript(midgame_moves);
    othello_search_limits lim = limits_at(3, 0);
    othello_search_result r;

    CHECK(e != NULL && b != NULL);
    if (e == NULL || b == NULL) {
        goto done;
    }
    CHECK(othello_engine_get_evaluation(e) == OTHELLO_EVALUATION_TRAINED);
    CHECK_OK(othello_engine_set_evaluation(e, OTHELLO_EVALUATION_V1));
    CHECK(othello_engine_get_evaluation(e) == OTHELLO_EVALUATION_V1);
    othello_search_result_init(&r);
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK(othello_board_is_legal(b, r.move) && r.depth == 3);

    /* Weights that cannot be read are refused; the evaluation stays. */
    CHECK_STATUS(othello_engine_load_weights(e, "/nonexistent/othello-abi-1.0/weights.bin"),
                 OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(othello_engine_load_weights_buffer(e, garbage, sizeof garbage),
                 OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK_STATUS(othello_engine_load_weights_buffer(e, garbage, 0),
                 OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(othello_engine_get_evaluation(e) == OTHELLO_EVALUATION_V1);
    CHECK_STATUS(othello_engine_set_evaluation(e, (othello_evaluation)-1),
                 OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(othello_engine_get_evaluation(e) == OTHELLO_EVALUATION_V1);
    CHECK_OK(othello_engine_set_evaluation(e, OTHELLO_EVALUATION_TRAINED));
    CHECK(othello_engine_get_evaluation(e) == OTHELLO_EVALUATION_TRAINED);
    CHECK_STATUS(othello_engine_load_weights_buffer(e, garbage, sizeof garbage),
                 OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(othello_engine_get_evaluation(e) == OTHELLO_EVALUATION_TRAINED);
    CHECK_OK(othello_engine_search(e, b, &lim, &r));
    CHECK(othello_board_is_legal(b, r.move) && r.depth == 3);

    CHECK_STATUS(othello_engine_set_evaluation(NULL, OTHELLO_EVALUATION_V1),
                 OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_FAILS(othello_engine_get_evaluation(NULL) == OTHELLO_EVALUATION_V1,
                OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_load_weights(NULL, "weights.bin"), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_load_weights(e, NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_load_weights_buffer(NULL, garbage, sizeof garbage),
                 OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK_STATUS(othello_engine_load_weights_buffer(e, NULL, 10), OTHELLO_STATUS_NULL_ARGUMENT);
done:
    othello_board_free(b);
    othello_engine_free(e);
}

/* ------------------------------------------------------------------------ */

int main(void)
{
    /* Before any call has failed: OK and the empty message. */
    {
        char buf[8];
        size_t n = 99;
        memset(buf, '#', sizeof buf);
        CHECK(othello_last_status() == OTHELLO_STATUS_OK);
        CHECK(othello_last_error(buf, sizeof buf, &n) == OTHELLO_STATUS_OK);
        CHECK(n == 0 && buf[0] == '\0');
    }
    test_version_and_messages();
    test_last_error_buffers();
    test_last_error_threads();
    test_squares();
    test_board_start();
    test_board_null();
    test_pass_and_game_over();
    test_transcripts_and_clones();
    test_sizes();
    test_engine_errors();
    test_struct_sizes();
    test_strategies_and_limits();
    test_exact_scores();
    test_progress_and_analyze();
    test_stop_from_another_thread();
    test_ponder();
    test_book();
    test_evaluation();
    test_games();

    if (checks_failed != 0) {
        printf("abi 1.0 program: %ld of %ld checks FAILED\n", checks_failed, checks_run);
        return 1;
    }
    printf("abi 1.0 program: %ld checks passed\n", checks_run);
    return 0;
}
