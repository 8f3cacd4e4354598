/*
 * api_test.c: checks the C API of the othello library against the contract
 * stated in include/othello.h, through that header only.
 *
 *  - a whole game played through the API (first legal move, pass when it must),
 *    with disc counts, flips, undo to the start and redo to the end;
 *  - every kind of bad input, for the exact status, the last error and an
 *    unchanged game (board string + transcript + history + move number);
 *  - a position where a side must pass: pass, undo and redo of the pass;
 *  - parsing, buffers, status messages, version, per-thread last error.
 *
 * Prints one line per failed check; exits 1 if any failed, else prints
 * "api_test: N checks passed".
 */

#include "othello.h"

#include "check.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef __STDC_NO_THREADS__
#include <threads.h>
#endif

static const char *status_name(othello_status s)
{
    switch (s) {
    case OTHELLO_STATUS_OK: return "OK";
    case OTHELLO_STATUS_NULL_ARGUMENT: return "NULL_ARGUMENT";
    case OTHELLO_STATUS_INVALID_SQUARE: return "INVALID_SQUARE";
    case OTHELLO_STATUS_ILLEGAL_MOVE: return "ILLEGAL_MOVE";
    case OTHELLO_STATUS_CANNOT_PASS: return "CANNOT_PASS";
    case OTHELLO_STATUS_GAME_OVER: return "GAME_OVER";
    case OTHELLO_STATUS_NOTHING_TO_UNDO: return "NOTHING_TO_UNDO";
    case OTHELLO_STATUS_NOTHING_TO_REDO: return "NOTHING_TO_REDO";
    case OTHELLO_STATUS_BUFFER_TOO_SMALL: return "BUFFER_TOO_SMALL";
    case OTHELLO_STATUS_PARSE_ERROR: return "PARSE_ERROR";
    case OTHELLO_STATUS_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case OTHELLO_STATUS_BUSY: return "BUSY";
    case OTHELLO_STATUS_PANIC: return "PANIC";
    case OTHELLO_STATUS_STOPPED: return "STOPPED";
    case OTHELLO_STATUS_OUT_OF_MEMORY: return "OUT_OF_MEMORY";
    default: return "(unknown status)";
    }
}

/*
 * Sets this thread's last error to a known status other than `avoid`, so that
 * a check afterwards can tell whether the call under test set it (on failure)
 * or left it alone (on success: "Successful calls do not clear it").
 */
static othello_status prime_last_error(othello_status avoid)
{
    char buf[4];
    if (avoid != OTHELLO_STATUS_INVALID_SQUARE) {
        (void)othello_square_name(-7, buf, sizeof buf);
        return OTHELLO_STATUS_INVALID_SQUARE;
    }
    (void)othello_square_name(0, buf, 1);
    return OTHELLO_STATUS_BUFFER_TOO_SMALL;
}

/* After a failure: last status is `want` and last error is a non-empty text. */
static void check_last_error_set(int line, const char *expr, othello_status want)
{
    char text[512];
    size_t n = 0;
    othello_status last = othello_last_status();
    check_at(__FILE__, line, last == want, "%s: othello_last_status() is %s, want %s", expr,
             status_name(last), status_name(want));
    memset(text, 0, sizeof text);
    check_at(__FILE__, line,
             othello_last_error(text, sizeof text, &n) == OTHELLO_STATUS_OK && n != 0 &&
                 strlen(text) == n,
             "%s: othello_last_error() is not a non-empty message", expr);
}

/* After a success: the last status is still the primed one. */
static void check_last_error_kept(int line, const char *expr, othello_status primed)
{
    othello_status last = othello_last_status();
    check_at(__FILE__, line, last == primed,
             "%s: succeeded but changed othello_last_status() from %s to %s", expr,
             status_name(primed), status_name(last));
}

static void check_status_at(int line, const char *expr, othello_status got, othello_status want,
                            othello_status primed)
{
    if (!check_at(__FILE__, line, got == want, "%s returned %s (%d), want %s (%d)", expr,
                  status_name(got), (int)got, status_name(want), (int)want)) {
        return;
    }
    if (want == OTHELLO_STATUS_OK) {
        check_last_error_kept(line, expr, primed);
    } else {
        check_last_error_set(line, expr, want);
    }
}

/* The call returns exactly `want` and sets (or, for OK, keeps) the last error. */
#define EXPECT_STATUS(call, want)                                                  \
    do {                                                                           \
        othello_status primed_ = prime_last_error(want);                           \
        othello_status got_ = (call);                                              \
        check_status_at(__LINE__, #call, got_, (want), primed_);                   \
    } while (0)

static void check_value_at(int line, const char *expr, long long got, long long want,
                           othello_status want_status, othello_status primed)
{
    if (!check_at(__FILE__, line, got == want, "%s returned %lld, want %lld", expr, got, want)) {
        return;
    }
    if (want_status == OTHELLO_STATUS_OK) {
        check_last_error_kept(line, expr, primed);
    } else {
        check_last_error_set(line, expr, want_status);
    }
}

/*
 * A call returning a value (colour, count, bool): it returns `want`, and fails
 * with `want_status` (the neutral-value case) or, for OK, does not fail.
 */
#define EXPECT_VALUE(call, want, want_status)                                      \
    do {                                                                           \
        othello_status primed_ = prime_last_error(want_status);                    \
        long long got_ = (long long)(call);                                        \
        check_value_at(__LINE__, #call, got_, (long long)(want), (want_status),    \
                       primed_);                                                   \
    } while (0)

/* A handle-returning call fails: NULL, with `want_status` as the last error. */
#define EXPECT_NULL_HANDLE(call, want_status)                                      \
    do {                                                                           \
        othello_board *h_;                                                         \
        (void)prime_last_error(want_status);                                       \
        h_ = (call);                                                               \
        if (check_at(__FILE__, __LINE__, h_ == NULL, "%s did not return NULL",     \
                     #call)) {                                                     \
            check_last_error_set(__LINE__, #call, (want_status));                  \
        } else {                                                                   \
            othello_board_free(h_);                                                \
        }                                                                          \
    } while (0)

/* ------------------------------------------------------------------------ */
/* Snapshots of a game, to prove that failed calls change nothing            */

#define MAX_TURNS 256

typedef struct {
    int ok;
    char board[80];
    char transcript[300];
    int move_number;
    int history[MAX_TURNS];
    size_t n_history;
    int can_undo;
    int can_redo;
    othello_color side;
} snapshot;

static snapshot take(const othello_board *b)
{
    snapshot s;
    size_t n = 0;
    memset(&s, 0, sizeof s);
    s.ok = othello_board_to_string(b, s.board, sizeof s.board, &n) == OTHELLO_STATUS_OK &&
           n == 66 &&
           othello_board_transcript(b, s.transcript, sizeof s.transcript, &n) ==
               OTHELLO_STATUS_OK &&
           othello_board_history(b, s.history, MAX_TURNS, &s.n_history) == OTHELLO_STATUS_OK;
    s.move_number = othello_board_move_number(b);
    s.can_undo = othello_board_can_undo(b);
    s.can_redo = othello_board_can_redo(b);
    s.side = othello_board_side_to_move(b);
    return s;
}

/* Same position and history (the undo/redo flags are not compared). */
static int same_game(const snapshot *a, const snapshot *b)
{
    return a->ok && b->ok && strcmp(a->board, b->board) == 0 &&
           strcmp(a->transcript, b->transcript) == 0 && a->move_number == b->move_number &&
           a->n_history == b->n_history &&
           memcmp(a->history, b->history, a->n_history * sizeof a->history[0]) == 0 &&
           a->side == b->side;
}

static int same_all(const snapshot *a, const snapshot *b)
{
    return same_game(a, b) && a->can_undo == b->can_undo && a->can_redo == b->can_redo;
}

static void expect_same_at(int line, const char *what, const snapshot *now, const snapshot *want)
{
    check_at(__FILE__, line, same_all(now, want),
             "%s: game changed or unreadable:\n    now  [%s] \"%s\" move %d undo %d redo %d"
             "\n    want [%s] \"%s\" move %d undo %d redo %d",
             what, now->board, now->transcript, now->move_number, now->can_undo, now->can_redo,
             want->board, want->transcript, want->move_number, want->can_undo, want->can_redo);
}

#define EXPECT_UNCHANGED(b, before)                                                \
    do {                                                                           \
        snapshot now_ = take(b);                                                   \
        expect_same_at(__LINE__, "unchanged " #b, &now_, &(before));               \
    } while (0)

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */

#define START_STRING "---------------------------OX------XO--------------------------- X"

#define SQ_D3 19
#define SQ_C4 26
#define SQ_D4 27
#define SQ_E4 28
#define SQ_D5 35
#define SQ_E5 36
#define SQ_F5 37
#define SQ_E6 44

#define SENTINEL 0x5a5a5a5a

static void fill_ints(int *a, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        a[i] = SENTINEL;
    }
}

static int ints_untouched(const int *a, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (a[i] != SENTINEL) {
            return 0;
        }
    }
    return 1;
}

static int chars_untouched(const char *a, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (a[i] != '#') {
            return 0;
        }
    }
    return 1;
}

static othello_color opponent_of(othello_color c)
{
    return c == OTHELLO_COLOR_BLACK ? OTHELLO_COLOR_WHITE : OTHELLO_COLOR_BLACK;
}

/* Counts add up, and agree with othello_board_get and the board string. */
static void check_counts(int line, const othello_board *b)
{
    snapshot s = take(b);
    int black = othello_board_count(b, OTHELLO_COLOR_BLACK);
    int white = othello_board_count(b, OTHELLO_COLOR_WHITE);
    int empty = othello_board_count(b, OTHELLO_COLOR_EMPTY);
    int nb = 0, nw = 0, ne = 0, agree = 1;
    int sq;
    for (sq = 0; sq < 64; sq++) {
        othello_color c = othello_board_get(b, sq);
        char want = c == OTHELLO_COLOR_BLACK ? 'X' : c == OTHELLO_COLOR_WHITE ? 'O' : '-';
        if (c == OTHELLO_COLOR_BLACK) {
            nb++;
        } else if (c == OTHELLO_COLOR_WHITE) {
            nw++;
        } else if (c == OTHELLO_COLOR_EMPTY) {
            ne++;
        } else {
            agree = 0;
        }
        if (s.board[sq] != want) {
            agree = 0;
        }
    }
    check_at(__FILE__, line, s.ok, "board readable");
    check_at(__FILE__, line,
             black >= 0 && white >= 0 && empty >= 0 && black + white + empty == 64,
             "counts add up to 64");
    check_at(__FILE__, line, black == nb && white == nw && empty == ne,
             "othello_board_count agrees with othello_board_get");
    check_at(__FILE__, line, agree, "othello_board_get agrees with the board string");
    check_at(__FILE__, line,
             s.board[64] == ' ' &&
                 s.board[65] == (s.side == OTHELLO_COLOR_BLACK ? 'X' : 'O') &&
                 s.board[66] == '\0',
             "board string ends with the side to move");
}

/* ------------------------------------------------------------------------ */
/* (a) A whole game through the API                                          */

static snapshot g_plies[MAX_TURNS];

static void test_full_game(void)
{
    othello_board *b = othello_board_new();
    othello_board *replay;
    othello_board *copy;
    snapshot start, end, now;
    int ply = 0, passes = 0, tested_small = 0;
    int sq;
    size_t i, n;
    char transcript[300];

    CHECK(b != NULL);
    if (b == NULL) {
        return;
    }
    start = take(b);
    CHECK(start.ok);
    CHECK(strcmp(start.board, START_STRING) == 0);
    CHECK(start.transcript[0] == '\0');
    CHECK(start.n_history == 0);
    CHECK(start.move_number == 1);
    CHECK(!start.can_undo && !start.can_redo);
    CHECK(start.side == OTHELLO_COLOR_BLACK);
    EXPECT_VALUE(othello_board_get(b, SQ_D4), OTHELLO_COLOR_WHITE, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_get(b, SQ_E5), OTHELLO_COLOR_WHITE, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_get(b, SQ_D5), OTHELLO_COLOR_BLACK, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_get(b, SQ_E4), OTHELLO_COLOR_BLACK, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_get(b, 0), OTHELLO_COLOR_EMPTY, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_count(b, OTHELLO_COLOR_BLACK), 2, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_count(b, OTHELLO_COLOR_WHITE), 2, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_count(b, OTHELLO_COLOR_EMPTY), 60, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_must_pass(b), 0, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_is_game_over(b), 0, OTHELLO_STATUS_OK);
    {
        int moves[64];
        fill_ints(moves, 64);
        EXPECT_VALUE(othello_board_legal_moves(b, moves, 64), 4, OTHELLO_STATUS_OK);
        CHECK(moves[0] == SQ_D3 && moves[1] == SQ_C4 && moves[2] == SQ_F5 && moves[3] == SQ_E6);
        CHECK(ints_untouched(moves + 4, 60));
    }

    g_plies[0] = start;
    while (!othello_board_is_game_over(b)) {
        othello_color side = othello_board_side_to_move(b);
        othello_color other = opponent_of(side);
        int before_side = othello_board_count(b, side);
        int before_other = othello_board_count(b, other);
        int moves[64];
        size_t nmoves;

        if (ply >= 100) {
            check_at(__FILE__, __LINE__, 0, "game too long: more than 100 turns");
            break;
        }
        check_counts(__LINE__, b);
        CHECK(side == OTHELLO_COLOR_BLACK || side == OTHELLO_COLOR_WHITE);
        fill_ints(moves, 64);
        nmoves = othello_board_legal_moves(b, moves, 64);
        CHECK(nmoves <= 64);

        if (othello_board_must_pass(b)) {
            snapshot before = take(b);
            CHECK(nmoves == 0);
            for (sq = 0; sq < 64; sq++) {
                CHECK(!othello_board_is_legal(b, sq));
            }
            /* Any move is illegal while a pass is due. */
            for (sq = 0; sq < 64; sq++) {
                if (othello_board_get(b, sq) == OTHELLO_COLOR_EMPTY) {
                    EXPECT_STATUS(othello_board_play(b, sq, NULL, 0, NULL),
                                  OTHELLO_STATUS_ILLEGAL_MOVE);
                    break;
                }
            }
            EXPECT_UNCHANGED(b, before);
            EXPECT_STATUS(othello_board_pass(b), OTHELLO_STATUS_OK);
            passes++;
            CHECK(othello_board_side_to_move(b) == other);
            CHECK(othello_board_count(b, side) == before_side);
            CHECK(othello_board_count(b, other) == before_other);
            now = take(b);
            CHECK(strncmp(now.board, before.board, 64) == 0);
            CHECK(strcmp(now.transcript, before.transcript) == 0);
            CHECK(now.n_history == before.n_history + 1 &&
                  now.history[now.n_history - 1] == OTHELLO_PASS);
        } else {
            int m, preview[64], got[64];
            size_t np = 999, ng = 999, k;
            int ascending = 1, membership = 1;
            snapshot before = take(b);

            CHECK(nmoves > 0);
            if (nmoves == 0) {
                break;
            }
            for (k = 1; k < nmoves; k++) {
                if (moves[k - 1] >= moves[k]) {
                    ascending = 0;
                }
            }
            CHECK(ascending);
            CHECK(ints_untouched(moves + nmoves, 64 - nmoves));
            for (sq = 0; sq < 64; sq++) {
                int listed = 0;
                for (k = 0; k < nmoves; k++) {
                    if (moves[k] == sq) {
                        listed = 1;
                    }
                }
                if ((othello_board_is_legal(b, sq) ? 1 : 0) != listed) {
                    membership = 0;
                }
            }
            CHECK(membership);
            EXPECT_STATUS(othello_board_pass(b), OTHELLO_STATUS_CANNOT_PASS);
            EXPECT_UNCHANGED(b, before);

            m = moves[0];
            fill_ints(preview, 64);
            EXPECT_STATUS(othello_board_flips(b, m, preview, 64, &np), OTHELLO_STATUS_OK);
            CHECK(np >= 1 && np <= 18);
            if (np < 1 || np > 18) {
                break;
            }
            for (k = 1; k < np; k++) {
                CHECK(preview[k - 1] < preview[k]);
            }
            for (k = 0; k < np; k++) {
                CHECK(othello_board_get(b, preview[k]) == other);
            }
            CHECK(ints_untouched(preview + np, 64 - np));
            {
                size_t count_only = 999;
                EXPECT_STATUS(othello_board_flips(b, m, NULL, 0, &count_only), OTHELLO_STATUS_OK);
                CHECK(count_only == np);
                EXPECT_STATUS(othello_board_flips(b, m, preview, 64, NULL), OTHELLO_STATUS_OK);
            }

            /* A buffer one too small: BUFFER_TOO_SMALL, size needed, not played. */
            if (np >= 2 || !tested_small) {
                int small[64];
                size_t need = 999;
                fill_ints(small, 64);
                EXPECT_STATUS(othello_board_play(b, m, small, np - 1, &need),
                              OTHELLO_STATUS_BUFFER_TOO_SMALL);
                CHECK(need == np);
                CHECK(ints_untouched(small, 64));
                EXPECT_UNCHANGED(b, before);
                need = 999;
                EXPECT_STATUS(othello_board_flips(b, m, small, np - 1, &need),
                              OTHELLO_STATUS_BUFFER_TOO_SMALL);
                CHECK(need == np);
                CHECK(ints_untouched(small, 64));
                EXPECT_STATUS(othello_board_play(b, m, small, np - 1, NULL),
                              OTHELLO_STATUS_BUFFER_TOO_SMALL);
                CHECK(ints_untouched(small, 64));
                EXPECT_UNCHANGED(b, before);
                if (np >= 2) {
                    tested_small = 2;
                } else if (!tested_small) {
                    tested_small = 1;
                }
            }

            fill_ints(got, 64);
            EXPECT_STATUS(othello_board_play(b, m, got, 64, &ng), OTHELLO_STATUS_OK);
            CHECK(ng == np);
            CHECK(memcmp(got, preview, np * sizeof got[0]) == 0);
            CHECK(ints_untouched(got + np, 64 - np));
            CHECK(othello_board_get(b, m) == side);
            for (k = 0; k < np; k++) {
                CHECK(othello_board_get(b, preview[k]) == side);
            }
            CHECK(othello_board_count(b, side) == before_side + (int)np + 1);
            CHECK(othello_board_count(b, other) == before_other - (int)np);
            CHECK(othello_board_side_to_move(b) == other);
            now = take(b);
            CHECK(now.n_history == before.n_history + 1 && now.history[now.n_history - 1] == m);
            {
                char name[3];
                CHECK(othello_square_name(m, name, sizeof name) == OTHELLO_STATUS_OK);
                CHECK(strlen(now.transcript) == strlen(before.transcript) + 2 &&
                      strncmp(now.transcript, before.transcript, strlen(before.transcript)) ==
                          0 &&
                      strcmp(now.transcript + strlen(before.transcript), name) == 0);
            }
        }
        ply++;
        g_plies[ply] = take(b);
        CHECK(g_plies[ply].ok);
        CHECK(g_plies[ply].move_number == ply + 1);
        CHECK(g_plies[ply].n_history == (size_t)ply);
        CHECK(g_plies[ply].can_undo && !g_plies[ply].can_redo);
    }
    CHECK(tested_small == 2);

    /* The end of the game. */
    end = take(b);
    check_counts(__LINE__, b);
    CHECK(ply >= 9);
    CHECK(end.move_number == ply + 1);
    CHECK(end.n_history == (size_t)ply);
    n = 0;
    for (i = 0; i < end.n_history; i++) {
        if (end.history[i] == OTHELLO_PASS) {
            n++;
        }
    }
    CHECK(n == (size_t)passes);
    CHECK(strlen(end.transcript) == 2 * (size_t)(ply - passes));
    EXPECT_VALUE(othello_board_legal_moves(b, NULL, 0), 0, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_must_pass(b), 0, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_is_game_over(b), 1, OTHELLO_STATUS_OK);
    EXPECT_STATUS(othello_board_pass(b), OTHELLO_STATUS_GAME_OVER);
    EXPECT_UNCHANGED(b, end);
    for (sq = 0; sq < 64; sq++) {
        if (othello_board_get(b, sq) == OTHELLO_COLOR_EMPTY) {
            int flips[64];
            size_t nf = 999;
            EXPECT_STATUS(othello_board_play(b, sq, flips, 64, &nf), OTHELLO_STATUS_GAME_OVER);
            EXPECT_STATUS(othello_board_flips(b, sq, flips, 64, &nf), OTHELLO_STATUS_GAME_OVER);
            CHECK(nf == 999);
            CHECK(!othello_board_is_legal(b, sq));
        }
    }
    EXPECT_UNCHANGED(b, end);
    printf("api_test: game of %d turns (%d passes), black %d white %d, transcript %s\n", ply,
           passes, othello_board_count(b, OTHELLO_COLOR_BLACK),
           othello_board_count(b, OTHELLO_COLOR_WHITE), end.transcript);

    /* 121 bytes always suffice for the transcript. */
    n = 0;
    EXPECT_STATUS(othello_board_transcript(b, transcript, 121, &n), OTHELLO_STATUS_OK);
    CHECK(n == strlen(end.transcript));

    /* Replaying the transcript gives the same game, passes included. */
    replay = othello_board_from_transcript(end.transcript);
    CHECK(replay != NULL);
    if (replay != NULL) {
        snapshot r = take(replay);
        expect_same_at(__LINE__, "from_transcript(transcript)", &r, &end);
        othello_board_free(replay);
    }

    /* A clone is equal and independent. */
    copy = othello_board_clone(b);
    CHECK(copy != NULL);
    if (copy != NULL) {
        snapshot c = take(copy);
        expect_same_at(__LINE__, "clone", &c, &end);
        EXPECT_STATUS(othello_board_undo(copy), OTHELLO_STATUS_OK);
        CHECK(othello_board_can_redo(copy));
        EXPECT_UNCHANGED(b, end);
        othello_board_free(copy);
    }

    /* Undo all the way back to the start. */
    for (i = (size_t)ply; i > 0; i--) {
        EXPECT_STATUS(othello_board_undo(b), OTHELLO_STATUS_OK);
        now = take(b);
        check_at(__FILE__, __LINE__, same_game(&now, &g_plies[i - 1]),
                 "after undo to turn %d: [%s] \"%s\", want [%s] \"%s\"", (int)i, now.board,
                 now.transcript, g_plies[i - 1].board, g_plies[i - 1].transcript);
        CHECK(now.can_redo);
        CHECK(now.can_undo == (i > 1));
    }
    now = take(b);
    CHECK(same_game(&now, &start));
    CHECK(!now.can_undo && now.can_redo);
    EXPECT_STATUS(othello_board_undo(b), OTHELLO_STATUS_NOTHING_TO_UNDO);
    EXPECT_UNCHANGED(b, now);

    /* Redo all the way forward. */
    for (i = 1; i <= (size_t)ply; i++) {
        EXPECT_STATUS(othello_board_redo(b), OTHELLO_STATUS_OK);
        now = take(b);
        check_at(__FILE__, __LINE__, same_game(&now, &g_plies[i]),
                 "after redo to turn %d: [%s] \"%s\", want [%s] \"%s\"", (int)i, now.board,
                 now.transcript, g_plies[i].board, g_plies[i].transcript);
        CHECK(now.can_undo);
        CHECK(now.can_redo == (i < (size_t)ply));
    }
    now = take(b);
    expect_same_at(__LINE__, "after redo to the end", &now, &end);
    EXPECT_STATUS(othello_board_redo(b), OTHELLO_STATUS_NOTHING_TO_REDO);
    EXPECT_UNCHANGED(b, end);

    /* Undo one turn, play it again: the redo list is cleared. */
    EXPECT_STATUS(othello_board_undo(b), OTHELLO_STATUS_OK);
    CHECK(othello_board_can_redo(b));
    if (othello_board_must_pass(b)) {
        EXPECT_STATUS(othello_board_pass(b), OTHELLO_STATUS_OK);
    } else {
        int first = -1;
        CHECK(othello_board_legal_moves(b, &first, 1) >= 1);
        EXPECT_STATUS(othello_board_play(b, first, NULL, 0, NULL), OTHELLO_STATUS_OK);
    }
    CHECK(!othello_board_can_redo(b));
    EXPECT_STATUS(othello_board_redo(b), OTHELLO_STATUS_NOTHING_TO_REDO);
    EXPECT_UNCHANGED(b, end);

    othello_board_free(b);
}

/* ------------------------------------------------------------------------ */
/* (b) Bad input                                                             */

static void test_null_handles(void)
{
    othello_board *b = othello_board_new();
    snapshot before;
    int ints[8];
    size_t n = 777;
    int square = 777;
    char buf[128];

    CHECK(b != NULL);
    if (b == NULL) {
        return;
    }
    before = take(b);

    othello_board_free(NULL); /* accepted and ignored */
    EXPECT_NULL_HANDLE(othello_board_clone(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_NULL_HANDLE(othello_board_from_string(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_NULL_HANDLE(othello_board_from_transcript(NULL), OTHELLO_STATUS_NULL_ARGUMENT);

    EXPECT_VALUE(othello_board_side_to_move(NULL), OTHELLO_COLOR_EMPTY,
                 OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_VALUE(othello_board_get(NULL, 0), OTHELLO_COLOR_EMPTY, OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_VALUE(othello_board_get(NULL, SQ_D4), OTHELLO_COLOR_EMPTY,
                 OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_VALUE(othello_board_count(NULL, OTHELLO_COLOR_BLACK), -1,
                 OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_VALUE(othello_board_count(NULL, OTHELLO_COLOR_EMPTY), -1,
                 OTHELLO_STATUS_NULL_ARGUMENT);
    fill_ints(ints, 8);
    EXPECT_VALUE(othello_board_legal_moves(NULL, ints, 8), 0, OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(ints_untouched(ints, 8));
    EXPECT_VALUE(othello_board_legal_moves(NULL, NULL, 0), 0, OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_VALUE(othello_board_is_legal(NULL, SQ_F5), 0, OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_VALUE(othello_board_can_undo(NULL), 0, OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_VALUE(othello_board_can_redo(NULL), 0, OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_VALUE(othello_board_must_pass(NULL), 0, OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_VALUE(othello_board_is_game_over(NULL), 0, OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_VALUE(othello_board_move_number(NULL), -1, OTHELLO_STATUS_NULL_ARGUMENT);

    n = 777;
    fill_ints(ints, 8);
    EXPECT_STATUS(othello_board_flips(NULL, SQ_F5, ints, 8, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(n == 777 && ints_untouched(ints, 8));
    EXPECT_STATUS(othello_board_play(NULL, SQ_F5, ints, 8, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(n == 777 && ints_untouched(ints, 8));
    EXPECT_STATUS(othello_board_play(NULL, SQ_F5, NULL, 0, NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(othello_board_pass(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(othello_board_undo(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(othello_board_redo(NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(othello_board_history(NULL, ints, 8, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(n == 777 && ints_untouched(ints, 8));
    EXPECT_STATUS(othello_board_history(NULL, NULL, 0, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(n == 777);

    memset(buf, '#', sizeof buf);
    EXPECT_STATUS(othello_board_to_string(NULL, buf, sizeof buf, &n),
                  OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(n == 777 && chars_untouched(buf, sizeof buf));
    EXPECT_STATUS(othello_board_transcript(NULL, buf, sizeof buf, &n),
                  OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(n == 777 && chars_untouched(buf, sizeof buf));

    /* NULL out-params and buffers with a valid board. */
    EXPECT_STATUS(othello_board_to_string(b, NULL, 67, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(n == 777);
    EXPECT_STATUS(othello_board_to_string(b, NULL, 0, &n), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 67);
    n = 777;
    EXPECT_STATUS(othello_board_transcript(b, NULL, 121, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(n == 777);
    EXPECT_STATUS(othello_board_transcript(b, NULL, 0, &n), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n >= 1 && n != 777);
    n = 777;
    EXPECT_STATUS(othello_board_flips(b, SQ_F5, NULL, 8, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(n == 777);
    EXPECT_STATUS(othello_board_play(b, SQ_F5, NULL, 8, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(n == 777);
    EXPECT_UNCHANGED(b, before);
    EXPECT_STATUS(othello_board_history(b, NULL, 8, &n), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(n == 777);
    /* "A list pointer may be NULL when its capacity is 0": only then. */
    EXPECT_VALUE(othello_board_legal_moves(b, NULL, 8), 0, OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(othello_square_parse(NULL, &square), OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(square == 777);
    EXPECT_STATUS(othello_square_parse("a1", NULL), OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(othello_square_name(0, NULL, 3), OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_STATUS(othello_square_name(0, NULL, 0), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    EXPECT_STATUS(othello_square_name(0, NULL, 3), OTHELLO_STATUS_NULL_ARGUMENT);
    EXPECT_UNCHANGED(b, before);

    /* NULL size out-params are allowed. */
    EXPECT_STATUS(othello_board_to_string(b, buf, sizeof buf, NULL), OTHELLO_STATUS_OK);
    CHECK(strcmp(buf, START_STRING) == 0);
    EXPECT_STATUS(othello_board_transcript(b, buf, sizeof buf, NULL), OTHELLO_STATUS_OK);
    CHECK(buf[0] == '\0');
    EXPECT_STATUS(othello_board_history(b, ints, 8, NULL), OTHELLO_STATUS_OK);
    EXPECT_STATUS(othello_board_flips(b, SQ_F5, NULL, 0, NULL), OTHELLO_STATUS_OK);
    EXPECT_UNCHANGED(b, before);

    /* othello_last_error: NULL buffer, and it never changes the last error. */
    {
        othello_status primed = prime_last_error(OTHELLO_STATUS_OK);
        char small[4];
        size_t len = 0, len2 = 0;
        n = 777;
        CHECK(othello_last_error(NULL, 10, &n) == OTHELLO_STATUS_NULL_ARGUMENT);
        CHECK(n == 777);
        CHECK(othello_last_status() == primed);
        CHECK(othello_last_error(NULL, 0, &n) == OTHELLO_STATUS_BUFFER_TOO_SMALL);
        CHECK(n > 1 && n != 777);
        CHECK(othello_last_status() == primed);
        CHECK(othello_last_error(buf, sizeof buf, &len) == OTHELLO_STATUS_OK);
        CHECK(len > 3 && strlen(buf) == len);
        memset(small, '#', sizeof small);
        CHECK(othello_last_error(small, sizeof small, &len2) == OTHELLO_STATUS_BUFFER_TOO_SMALL);
        CHECK(len2 == len + 1);
        CHECK(chars_untouched(small, sizeof small));
        CHECK(othello_last_status() == primed);
        CHECK(othello_last_error(small, sizeof small, NULL) == OTHELLO_STATUS_BUFFER_TOO_SMALL);
        CHECK(othello_last_error(buf, len + 1, NULL) == OTHELLO_STATUS_OK);
        CHECK(strlen(buf) == len);
        CHECK(othello_last_status() == primed);
    }

    othello_board_free(b);
}

static void test_bad_squares_on(othello_board *b)
{
    static const int bad[] = {-1, 64, 1000, -1000, 65, INT_MIN, INT_MAX};
    snapshot before = take(b);
    size_t i;
    CHECK(before.ok);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int sq = bad[i];
        int flips[64];
        size_t n = 777;
        char name[8];
        fill_ints(flips, 64);
        EXPECT_STATUS(othello_board_play(b, sq, flips, 64, &n), OTHELLO_STATUS_INVALID_SQUARE);
        EXPECT_STATUS(othello_board_play(b, sq, NULL, 0, NULL), OTHELLO_STATUS_INVALID_SQUARE);
        EXPECT_STATUS(othello_board_flips(b, sq, flips, 64, &n), OTHELLO_STATUS_INVALID_SQUARE);
        CHECK(n == 777 && ints_untouched(flips, 64));
        EXPECT_VALUE(othello_board_is_legal(b, sq), 0, OTHELLO_STATUS_INVALID_SQUARE);
        EXPECT_VALUE(othello_board_get(b, sq), OTHELLO_COLOR_EMPTY, OTHELLO_STATUS_INVALID_SQUARE);
        memset(name, '#', sizeof name);
        EXPECT_STATUS(othello_square_name(sq, name, sizeof name), OTHELLO_STATUS_INVALID_SQUARE);
        CHECK(chars_untouched(name, sizeof name));
        EXPECT_UNCHANGED(b, before);
    }
}

static void test_illegal_squares_on(othello_board *b)
{
    snapshot before = take(b);
    int moves[64];
    size_t nmoves = othello_board_legal_moves(b, moves, 64), k;
    int sq, illegal = 0;
    CHECK(before.ok && nmoves > 0);
    for (sq = 0; sq < 64; sq++) {
        int listed = 0, flips[64];
        size_t n = 777;
        for (k = 0; k < nmoves; k++) {
            if (moves[k] == sq) {
                listed = 1;
            }
        }
        if (listed) {
            continue;
        }
        illegal++;
        fill_ints(flips, 64);
        EXPECT_STATUS(othello_board_play(b, sq, flips, 64, &n), OTHELLO_STATUS_ILLEGAL_MOVE);
        EXPECT_STATUS(othello_board_flips(b, sq, flips, 64, &n), OTHELLO_STATUS_ILLEGAL_MOVE);
        CHECK(n == 777 && ints_untouched(flips, 64));
        EXPECT_VALUE(othello_board_is_legal(b, sq), 0, OTHELLO_STATUS_OK);
    }
    CHECK(illegal == 64 - (int)nmoves);
    EXPECT_STATUS(othello_board_pass(b), OTHELLO_STATUS_CANNOT_PASS);
    EXPECT_UNCHANGED(b, before);
}

static void test_bad_moves(void)
{
    othello_board *b = othello_board_new();
    othello_board *mid = othello_board_from_transcript("f5d6c3d3c4f4f6");
    snapshot before;
    CHECK(b != NULL && mid != NULL);
    if (b == NULL || mid == NULL) {
        othello_board_free(b);
        othello_board_free(mid);
        return;
    }
    before = take(b);

    /* At the start: occupied (d4 white, e4 black) and empty-but-flipless squares. */
    EXPECT_STATUS(othello_board_play(b, SQ_D4, NULL, 0, NULL), OTHELLO_STATUS_ILLEGAL_MOVE);
    EXPECT_STATUS(othello_board_play(b, SQ_E4, NULL, 0, NULL), OTHELLO_STATUS_ILLEGAL_MOVE);
    EXPECT_STATUS(othello_board_play(b, 0, NULL, 0, NULL), OTHELLO_STATUS_ILLEGAL_MOVE);
    EXPECT_STATUS(othello_board_play(b, 63, NULL, 0, NULL), OTHELLO_STATUS_ILLEGAL_MOVE);
    EXPECT_STATUS(othello_board_pass(b), OTHELLO_STATUS_CANNOT_PASS);
    EXPECT_STATUS(othello_board_undo(b), OTHELLO_STATUS_NOTHING_TO_UNDO);
    EXPECT_STATUS(othello_board_redo(b), OTHELLO_STATUS_NOTHING_TO_REDO);
    EXPECT_UNCHANGED(b, before);

    test_bad_squares_on(b);
    test_illegal_squares_on(b);
    test_bad_squares_on(mid);
    test_illegal_squares_on(mid);

    /* Invalid colours to othello_board_count. */
    EXPECT_VALUE(othello_board_count(b, (othello_color)3), -1, OTHELLO_STATUS_INVALID_ARGUMENT);
    EXPECT_VALUE(othello_board_count(b, (othello_color)-1), -1, OTHELLO_STATUS_INVALID_ARGUMENT);
    EXPECT_VALUE(othello_board_count(b, (othello_color)1000), -1,
                 OTHELLO_STATUS_INVALID_ARGUMENT);
    EXPECT_VALUE(othello_board_count(mid, (othello_color)INT32_MIN), -1,
                 OTHELLO_STATUS_INVALID_ARGUMENT);
    EXPECT_UNCHANGED(b, before);

    /* Redo with nothing undone after a move; undo/redo of that move. */
    EXPECT_STATUS(othello_board_play(b, SQ_F5, NULL, 0, NULL), OTHELLO_STATUS_OK);
    {
        snapshot after = take(b);
        EXPECT_STATUS(othello_board_redo(b), OTHELLO_STATUS_NOTHING_TO_REDO);
        EXPECT_UNCHANGED(b, after);
        EXPECT_STATUS(othello_board_undo(b), OTHELLO_STATUS_OK);
        {
            snapshot undone = take(b);
            CHECK(same_game(&undone, &before));
            CHECK(!undone.can_undo && undone.can_redo);
            EXPECT_STATUS(othello_board_undo(b), OTHELLO_STATUS_NOTHING_TO_UNDO);
            EXPECT_UNCHANGED(b, undone);
        }
        EXPECT_STATUS(othello_board_redo(b), OTHELLO_STATUS_OK);
        EXPECT_UNCHANGED(b, after);
    }

    othello_board_free(b);
    othello_board_free(mid);
}

static void test_buffers(void)
{
    othello_board *b = othello_board_from_transcript("f5d6c3");
    snapshot before;
    char buf[200];
    int ints[64];
    size_t n;

    CHECK(b != NULL);
    if (b == NULL) {
        return;
    }
    before = take(b);
    CHECK(strcmp(before.transcript, "f5d6c3") == 0);
    CHECK(before.move_number == 4);

    /* Board string: 66 characters, 67 bytes. */
    {
        static const size_t lens[] = {0, 1, 2, 10, 65, 66};
        size_t i;
        for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
            memset(buf, '#', sizeof buf);
            n = 777;
            EXPECT_STATUS(othello_board_to_string(b, buf, lens[i], &n),
                          OTHELLO_STATUS_BUFFER_TOO_SMALL);
            CHECK(n == 67);
            CHECK(chars_untouched(buf, sizeof buf));
        }
        EXPECT_STATUS(othello_board_to_string(b, buf, 66, NULL), OTHELLO_STATUS_BUFFER_TOO_SMALL);
        CHECK(chars_untouched(buf, sizeof buf));
        EXPECT_STATUS(othello_board_to_string(b, buf, 67, &n), OTHELLO_STATUS_OK);
        CHECK(n == 66 && strlen(buf) == 66 && strcmp(buf, before.board) == 0);
        CHECK(buf[67] == '#');
    }

    /* Transcript: "f5d6c3" is 6 characters, 7 bytes. */
    memset(buf, '#', sizeof buf);
    n = 777;
    EXPECT_STATUS(othello_board_transcript(b, buf, 6, &n), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 7 && chars_untouched(buf, sizeof buf));
    n = 777;
    EXPECT_STATUS(othello_board_transcript(b, buf, 0, &n), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 7 && chars_untouched(buf, sizeof buf));
    EXPECT_STATUS(othello_board_transcript(b, buf, 1, NULL), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(chars_untouched(buf, sizeof buf));
    EXPECT_STATUS(othello_board_transcript(b, buf, 7, &n), OTHELLO_STATUS_OK);
    CHECK(n == 6 && strcmp(buf, "f5d6c3") == 0 && buf[7] == '#');

    /* History: 3 turns. */
    fill_ints(ints, 64);
    n = 777;
    EXPECT_STATUS(othello_board_history(b, ints, 2, &n), OTHELLO_STATUS_BUFFER_TOO_SMALL);
    CHECK(n == 3 && ints_untouched(ints, 64));
    n = 777;
    EXPECT_STATUS(othello_board_history(b, NULL, 0, &n), OTHELLO_STATUS_OK);
    CHECK(n == 3);
    EXPECT_STATUS(othello_board_history(b, ints, 3, &n), OTHELLO_STATUS_OK);
    CHECK(n == 3 && ints[0] == SQ_F5 && ints[1] == 43 /* d6 */ && ints[2] == 18 /* c3 */);
    CHECK(ints_untouched(ints + 3, 61));

    /* Legal moves: the count, and only the first `cap` written. */
    {
        int all[64], part[64];
        size_t total, k;
        fill_ints(all, 64);
        total = othello_board_legal_moves(b, all, 64);
        CHECK(total >= 3);
        EXPECT_VALUE(othello_board_legal_moves(b, NULL, 0), total, OTHELLO_STATUS_OK);
        fill_ints(part, 64);
        EXPECT_VALUE(othello_board_legal_moves(b, part, 2), total, OTHELLO_STATUS_OK);
        CHECK(part[0] == all[0] && part[1] == all[1] && ints_untouched(part + 2, 62));
        fill_ints(part, 64);
        EXPECT_VALUE(othello_board_legal_moves(b, part, 0), total, OTHELLO_STATUS_OK);
        CHECK(ints_untouched(part, 64));
        for (k = 0; k < total; k++) {
            CHECK(othello_board_is_legal(b, all[k]));
        }
    }

    /* Flips buffer of capacity 0 (not NULL): too small, move not played. */
    {
        int moves[64], flips[64];
        size_t need = 777;
        CHECK(othello_board_legal_moves(b, moves, 64) >= 1);
        fill_ints(flips, 64);
        EXPECT_STATUS(othello_board_play(b, moves[0], flips, 0, &need),
                      OTHELLO_STATUS_BUFFER_TOO_SMALL);
        CHECK(need >= 1 && need <= 18 && ints_untouched(flips, 64));
    }
    EXPECT_UNCHANGED(b, before);

    /* Square names: 3 bytes needed. */
    {
        char name[8];
        memset(name, '#', sizeof name);
        EXPECT_STATUS(othello_square_name(0, name, 2), OTHELLO_STATUS_BUFFER_TOO_SMALL);
        EXPECT_STATUS(othello_square_name(0, name, 0), OTHELLO_STATUS_BUFFER_TOO_SMALL);
        CHECK(chars_untouched(name, sizeof name));
        EXPECT_STATUS(othello_square_name(0, name, 3), OTHELLO_STATUS_OK);
        CHECK(strcmp(name, "a1") == 0 && name[3] == '#');
    }

    /* An empty transcript: "" needs 1 byte. */
    {
        othello_board *s = othello_board_new();
        CHECK(s != NULL);
        if (s != NULL) {
            memset(buf, '#', sizeof buf);
            n = 777;
            EXPECT_STATUS(othello_board_transcript(s, buf, 0, &n), OTHELLO_STATUS_BUFFER_TOO_SMALL);
            CHECK(n == 1 && chars_untouched(buf, sizeof buf));
            EXPECT_STATUS(othello_board_transcript(s, buf, 1, &n), OTHELLO_STATUS_OK);
            CHECK(n == 0 && buf[0] == '\0' && buf[1] == '#');
            othello_board_free(s);
        }
    }

    othello_board_free(b);
}

static void test_square_names(void)
{
    static const char *const garbage[] = {
        "", "a", "a0", "a9", "i1", "A10", "1a", " a1", "a1 ", "zz", "h9", "@1", "`1",
        "a:", "\xc3\xa9", "\xc3\xa9" "1", "\xff\xfe", "pass", "--", "a\tb",
    };
    size_t i;
    int sq;
    for (sq = 0; sq < 64; sq++) {
        char name[3], upper[3];
        int back = -5;
        EXPECT_STATUS(othello_square_name(sq, name, sizeof name), OTHELLO_STATUS_OK);
        CHECK(name[0] == 'a' + sq % 8 && name[1] == '1' + sq / 8 && name[2] == '\0');
        EXPECT_STATUS(othello_square_parse(name, &back), OTHELLO_STATUS_OK);
        CHECK(back == sq);
        upper[0] = (char)(name[0] - 'a' + 'A');
        upper[1] = name[1];
        upper[2] = '\0';
        back = -5;
        EXPECT_STATUS(othello_square_parse(upper, &back), OTHELLO_STATUS_OK);
        CHECK(back == sq);
    }
    for (i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
        int out = 777;
        EXPECT_STATUS(othello_square_parse(garbage[i], &out), OTHELLO_STATUS_PARSE_ERROR);
        CHECK(out == 777);
    }
}

static void test_parse_board_strings(void)
{
    static const char *const garbage[] = {
        "",
        "X",
        "   ",
        /* 64 squares without the side to move */
        "---------------------------OX------XO---------------------------",
        /* no space before the side */
        "---------------------------OX------XO---------------------------X",
        /* 63 squares */
        "--------------------------OX------XO--------------------------- X",
        /* 65 squares */
        "----------------------------OX------XO--------------------------- X",
        /* a bad square character */
        "---------------------------OX------XQ--------------------------- X",
        "---------------------------OX------XO-------------------------- 0 X",
        /* bad side to move */
        "---------------------------OX------XO--------------------------- Y",
        "---------------------------OX------XO--------------------------- -",
        "---------------------------OX------XO--------------------------- XO",
        "---------------------------OX------XO--------------------------- X O",
        /* not UTF-8 / not ASCII */
        "---------------------------OX------XO-----------------------\xff--- X",
        "---------------------------OX------XO---------------------\xc3\xa9--- X",
        "---------------------------OX------XO--------------------------- \xc3\x97",
        "f5d6c3",
    };
    size_t i;
    othello_board *b;

    for (i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
        EXPECT_NULL_HANDLE(othello_board_from_string(garbage[i]), OTHELLO_STATUS_PARSE_ERROR);
    }

    /* Accepted spellings of the start position. */
    {
        static const char *const good[] = {
            START_STRING,
            "  " START_STRING "\n",
            "...........................ox......xo........................... x",
            "...........................WB......BW........................... B",
            "---------------------------O*------*O---------------------------\t*",
        };
        for (i = 0; i < sizeof good / sizeof good[0]; i++) {
            b = othello_board_from_string(good[i]);
            CHECK(b != NULL);
            if (b != NULL) {
                snapshot s = take(b);
                CHECK(s.ok && strcmp(s.board, START_STRING) == 0);
                CHECK(s.move_number == 1 && s.n_history == 0 && s.transcript[0] == '\0');
                CHECK(!s.can_undo && !s.can_redo);
                othello_board_free(b);
            }
        }
    }

    /* A round trip of a middle-game position: no history, white to move. */
    {
        othello_board *mid = othello_board_from_transcript("f5d6c3d3c4");
        CHECK(mid != NULL);
        if (mid != NULL) {
            snapshot m = take(mid);
            b = othello_board_from_string(m.board);
            CHECK(b != NULL);
            if (b != NULL) {
                snapshot s = take(b);
                CHECK(strcmp(s.board, m.board) == 0);
                CHECK(s.side == OTHELLO_COLOR_WHITE);
                CHECK(s.move_number == 1 && s.n_history == 0 && s.transcript[0] == '\0');
                CHECK(othello_board_undo(b) == OTHELLO_STATUS_NOTHING_TO_UNDO);
                othello_board_free(b);
            }
            othello_board_free(mid);
        }
    }
}

static void test_parse_transcripts(void)
{
    static const char *const garbage[] = {
        "f5d",          /* odd length */
        "f5zz",         /* not a square */
        "f5f5",         /* occupied */
        "a1",           /* flips nothing */
        "f5d6c3d3c4c4", /* occupied later on */
        "f5 d",
        "f5d6-",
        "f5\xff\xff",
        "\xc3\xa9" "f5",
        "i9",
        "f5d6pass",
    };
    size_t i;
    othello_board *b;

    for (i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
        EXPECT_NULL_HANDLE(othello_board_from_transcript(garbage[i]), OTHELLO_STATUS_PARSE_ERROR);
    }

    b = othello_board_from_transcript("");
    CHECK(b != NULL);
    if (b != NULL) {
        snapshot s = take(b);
        CHECK(strcmp(s.board, START_STRING) == 0 && s.move_number == 1 && !s.can_undo);
        othello_board_free(b);
    }
    b = othello_board_from_transcript(" F5 d6\tC3\n");
    CHECK(b != NULL);
    if (b != NULL) {
        snapshot s = take(b);
        CHECK(strcmp(s.transcript, "f5d6c3") == 0 && s.move_number == 4);
        CHECK(s.n_history == 3 && s.history[0] == SQ_F5);
        othello_board_free(b);
    }
}

static void test_pass_scenario(void)
{
    /* a1 white, b1 black, black to move: black has no move (nothing to
     * outflank), white has c1 (flipping b1). After c1 black has no disc. */
    static const char *const text =
        "OX-------------------------------------------------------------- X";
    othello_board *b = othello_board_from_string(text);
    snapshot start, passed, played;
    int ints[8];
    size_t n;

    CHECK(b != NULL);
    if (b == NULL) {
        return;
    }
    start = take(b);
    CHECK(start.ok && strcmp(start.board, text) == 0);
    CHECK(start.side == OTHELLO_COLOR_BLACK);
    EXPECT_VALUE(othello_board_must_pass(b), 1, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_is_game_over(b), 0, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_legal_moves(b, ints, 8), 0, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_is_legal(b, 2), 0, OTHELLO_STATUS_OK);
    EXPECT_STATUS(othello_board_play(b, 2, NULL, 0, NULL), OTHELLO_STATUS_ILLEGAL_MOVE);
    EXPECT_STATUS(othello_board_flips(b, 2, NULL, 0, NULL), OTHELLO_STATUS_ILLEGAL_MOVE);
    EXPECT_STATUS(othello_board_play(b, 0, NULL, 0, NULL), OTHELLO_STATUS_ILLEGAL_MOVE);
    EXPECT_STATUS(othello_board_undo(b), OTHELLO_STATUS_NOTHING_TO_UNDO);
    EXPECT_STATUS(othello_board_redo(b), OTHELLO_STATUS_NOTHING_TO_REDO);
    EXPECT_UNCHANGED(b, start);

    /* The pass. */
    EXPECT_STATUS(othello_board_pass(b), OTHELLO_STATUS_OK);
    passed = take(b);
    CHECK(passed.side == OTHELLO_COLOR_WHITE);
    CHECK(strncmp(passed.board, text, 64) == 0 && passed.board[65] == 'O');
    CHECK(passed.move_number == 2);
    CHECK(passed.n_history == 1 && passed.history[0] == OTHELLO_PASS);
    CHECK(passed.transcript[0] == '\0');
    CHECK(passed.can_undo && !passed.can_redo);
    EXPECT_VALUE(othello_board_must_pass(b), 0, OTHELLO_STATUS_OK);
    fill_ints(ints, 8);
    EXPECT_VALUE(othello_board_legal_moves(b, ints, 8), 1, OTHELLO_STATUS_OK);
    CHECK(ints[0] == 2);
    n = 777;
    EXPECT_STATUS(othello_board_history(b, ints, 1, &n), OTHELLO_STATUS_OK);
    CHECK(n == 1 && ints[0] == OTHELLO_PASS);
    /* White has a move: it cannot pass. */
    EXPECT_STATUS(othello_board_pass(b), OTHELLO_STATUS_CANNOT_PASS);
    EXPECT_UNCHANGED(b, passed);

    /* Undo and redo the pass. */
    EXPECT_STATUS(othello_board_undo(b), OTHELLO_STATUS_OK);
    {
        snapshot s = take(b);
        CHECK(same_game(&s, &start));
        CHECK(!s.can_undo && s.can_redo);
        EXPECT_VALUE(othello_board_must_pass(b), 1, OTHELLO_STATUS_OK);
    }
    EXPECT_STATUS(othello_board_redo(b), OTHELLO_STATUS_OK);
    EXPECT_UNCHANGED(b, passed);
    EXPECT_STATUS(othello_board_redo(b), OTHELLO_STATUS_NOTHING_TO_REDO);
    EXPECT_UNCHANGED(b, passed);

    /* A new pass clears the redo list. */
    EXPECT_STATUS(othello_board_undo(b), OTHELLO_STATUS_OK);
    CHECK(othello_board_can_redo(b));
    EXPECT_STATUS(othello_board_pass(b), OTHELLO_STATUS_OK);
    EXPECT_UNCHANGED(b, passed);

    /* White plays c1: black has no disc left, the game is over. */
    n = 777;
    fill_ints(ints, 8);
    EXPECT_STATUS(othello_board_play(b, 2, ints, 8, &n), OTHELLO_STATUS_OK);
    CHECK(n == 1 && ints[0] == 1);
    played = take(b);
    CHECK(strncmp(played.board, "OOO---", 6) == 0);
    CHECK(played.move_number == 3);
    CHECK(played.n_history == 2 && played.history[0] == OTHELLO_PASS && played.history[1] == 2);
    CHECK(strcmp(played.transcript, "c1") == 0);
    EXPECT_VALUE(othello_board_is_game_over(b), 1, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_must_pass(b), 0, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_count(b, OTHELLO_COLOR_BLACK), 0, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_count(b, OTHELLO_COLOR_WHITE), 3, OTHELLO_STATUS_OK);
    EXPECT_VALUE(othello_board_count(b, OTHELLO_COLOR_EMPTY), 61, OTHELLO_STATUS_OK);
    EXPECT_STATUS(othello_board_pass(b), OTHELLO_STATUS_GAME_OVER);
    EXPECT_STATUS(othello_board_play(b, 3, NULL, 0, NULL), OTHELLO_STATUS_GAME_OVER);
    EXPECT_STATUS(othello_board_flips(b, 3, NULL, 0, NULL), OTHELLO_STATUS_GAME_OVER);
    EXPECT_UNCHANGED(b, played);

    /* Undo both turns, redo both. */
    EXPECT_STATUS(othello_board_undo(b), OTHELLO_STATUS_OK);
    {
        snapshot s = take(b);
        CHECK(same_game(&s, &passed));
    }
    EXPECT_STATUS(othello_board_undo(b), OTHELLO_STATUS_OK);
    {
        snapshot s = take(b);
        CHECK(same_game(&s, &start));
    }
    EXPECT_STATUS(othello_board_undo(b), OTHELLO_STATUS_NOTHING_TO_UNDO);
    EXPECT_STATUS(othello_board_redo(b), OTHELLO_STATUS_OK);
    {
        snapshot s = take(b);
        CHECK(same_game(&s, &passed) && s.can_redo);
    }
    EXPECT_STATUS(othello_board_redo(b), OTHELLO_STATUS_OK);
    EXPECT_UNCHANGED(b, played);
    othello_board_free(b);

    /* A game over with empty squares from a board string: black alone. */
    b = othello_board_from_string(
        "X--------------------------------------------------------------- O");
    CHECK(b != NULL);
    if (b != NULL) {
        snapshot s = take(b);
        EXPECT_VALUE(othello_board_is_game_over(b), 1, OTHELLO_STATUS_OK);
        EXPECT_VALUE(othello_board_must_pass(b), 0, OTHELLO_STATUS_OK);
        EXPECT_VALUE(othello_board_legal_moves(b, NULL, 0), 0, OTHELLO_STATUS_OK);
        EXPECT_STATUS(othello_board_pass(b), OTHELLO_STATUS_GAME_OVER);
        EXPECT_STATUS(othello_board_play(b, 1, NULL, 0, NULL), OTHELLO_STATUS_GAME_OVER);
        EXPECT_STATUS(othello_board_play(b, 63, NULL, 0, NULL), OTHELLO_STATUS_GAME_OVER);
        EXPECT_STATUS(othello_board_flips(b, 1, NULL, 0, NULL), OTHELLO_STATUS_GAME_OVER);
        EXPECT_STATUS(othello_board_undo(b), OTHELLO_STATUS_NOTHING_TO_UNDO);
        EXPECT_UNCHANGED(b, s);
        othello_board_free(b);
    }
}

/* ------------------------------------------------------------------------ */
/* Messages, version, per-thread last error                                  */

static void test_messages_and_version(void)
{
    const char *msgs[13];
    static const int unknown[] = {13, 14, 100, -1, INT_MIN, INT_MAX};
    int s, t;
    size_t i;
    char expect[64];
    const char *v;

    for (s = 0; s <= 12; s++) {
        msgs[s] = othello_status_message((othello_status)s);
        CHECK(msgs[s] != NULL);
        if (msgs[s] == NULL) {
            return;
        }
        CHECK(msgs[s][0] != '\0');
    }
    for (s = 0; s <= 12; s++) {
        for (t = s + 1; t <= 12; t++) {
            CHECK(strcmp(msgs[s], msgs[t]) != 0);
        }
    }
    for (i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *m = othello_status_message((othello_status)unknown[i]);
        CHECK(m != NULL);
        if (m != NULL) {
            CHECK(m[0] != '\0');
            for (s = 0; s <= 12; s++) {
                CHECK(strcmp(m, msgs[s]) != 0);
            }
        }
    }

    v = othello_version();
    CHECK(v != NULL);
    if (v != NULL) {
        CHECK(strcmp(v, OTHELLO_VERSION_STRING) == 0);
        snprintf(expect, sizeof expect, "%d.%d.%d", OTHELLO_VERSION_MAJOR, OTHELLO_VERSION_MINOR,
                 OTHELLO_VERSION_PATCH);
        CHECK(strcmp(v, expect) == 0);
        CHECK(othello_version() == v || strcmp(othello_version(), v) == 0);
    }
    CHECK(OTHELLO_VERSION_NUMBER == OTHELLO_VERSION_MAJOR * 10000 +
                                        OTHELLO_VERSION_MINOR * 100 + OTHELLO_VERSION_PATCH);
    CHECK(othello_version_number() == OTHELLO_VERSION_NUMBER);
}

#ifndef __STDC_NO_THREADS__
static int fresh_thread(void *arg)
{
    int *result = (int *)arg;
    char buf[64];
    size_t n = 777;
    /* A new thread has no failed call yet. */
    result[0] = othello_last_status() == OTHELLO_STATUS_OK;
    memset(buf, '#', sizeof buf);
    result[1] = othello_last_error(buf, sizeof buf, &n) == OTHELLO_STATUS_OK && n == 0 &&
                buf[0] == '\0';
    /* Its failures are its own. */
    result[2] = othello_board_undo(NULL) == OTHELLO_STATUS_NULL_ARGUMENT &&
                othello_last_status() == OTHELLO_STATUS_NULL_ARGUMENT;
    return 0;
}

static void test_threads(void)
{
    thrd_t t;
    int result[3] = {0, 0, 0};
    othello_board *b = othello_board_new();
    CHECK(b != NULL);
    /* This thread's last error is NOTHING_TO_UNDO... */
    CHECK(othello_board_undo(b) == OTHELLO_STATUS_NOTHING_TO_UNDO);
    CHECK(thrd_create(&t, fresh_thread, result) == thrd_success);
    CHECK(thrd_join(t, NULL) == thrd_success);
    CHECK(result[0]);
    CHECK(result[1]);
    CHECK(result[2]);
    /* ...and stays so, whatever the other thread did. */
    CHECK(othello_last_status() == OTHELLO_STATUS_NOTHING_TO_UNDO);
    othello_board_free(b);
}
#endif

/* ------------------------------------------------------------------------ */

int main(void)
{
    /* Before any failure: OK and the empty string. */
    {
        char buf[16];
        size_t n = 777;
        memset(buf, '#', sizeof buf);
        CHECK(othello_last_status() == OTHELLO_STATUS_OK);
        CHECK(othello_last_error(buf, sizeof buf, &n) == OTHELLO_STATUS_OK);
        CHECK(n == 0 && buf[0] == '\0' && buf[1] == '#');
        n = 777;
        CHECK(othello_last_error(buf, 0, &n) == OTHELLO_STATUS_BUFFER_TOO_SMALL);
        CHECK(n == 1);
        /* The primer used by every status check works. */
        CHECK(prime_last_error(OTHELLO_STATUS_OK) == OTHELLO_STATUS_INVALID_SQUARE);
        CHECK(othello_last_status() == OTHELLO_STATUS_INVALID_SQUARE);
        CHECK(prime_last_error(OTHELLO_STATUS_INVALID_SQUARE) == OTHELLO_STATUS_BUFFER_TOO_SMALL);
        CHECK(othello_last_status() == OTHELLO_STATUS_BUFFER_TOO_SMALL);
    }

    test_messages_and_version();
    test_full_game();
    test_null_handles();
    test_bad_moves();
    test_buffers();
    test_square_names();
    test_parse_board_strings();
    test_parse_transcripts();
    test_pass_scenario();
#ifndef __STDC_NO_THREADS__
    test_threads();
#endif

    return check_summary("api_test");
}
