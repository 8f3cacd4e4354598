/*
 * sizes_test.c: board sizes 4x4 to 16x16 through the C API (othello.h only).
 *
 *  - othello_board_new_sized() with every valid size and many invalid ones
 *    (NULL, INVALID_ARGUMENT, a detail message);
 *  - the start position, the board string and the size of every board;
 *  - squares out of range for the size (36 on 6x6, 100 on 10x10, ...): the
 *    exact status, the last error, and an unchanged board;
 *  - board strings of the wrong length, square names and transcripts of
 *    each size, buffers too small for a 16x16 board string;
 *  - a game on every size played by the engine to its end, with undo back
 *    to the start and redo to the end, and the transcript replayed;
 *  - an exact solve on 6x6 against the engine's analysis.
 *
 * Prints one line per failed check; exits 1 if any failed, else prints
 * "sizes_test: N checks passed".
 */

#include "othello.h"

#include "check.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The last call failed with `want` and left a non-empty detail message. */
static void check_failed(int line, othello_status want)
{
    char text[512];
    size_t n = 0;
    othello_status last = othello_last_status();
    check_at(__FILE__, line, last == want, "othello_last_status() is %d, want %d", (int)last,
             (int)want);
    check_at(__FILE__, line,
             othello_last_error(text, sizeof text, &n) == OTHELLO_STATUS_OK && n > 0 &&
                 strlen(text) == n,
             "a detail message after the failure");
}

#define CHECK_FAILED(want) check_failed(__LINE__, (want))

static const int SIZES[] = {4, 6, 8, 10, 12, 14, 16};
#define N_SIZES ((int)(sizeof SIZES / sizeof SIZES[0]))

/* Big enough for any board string (256 + 2 + NUL) or transcript. */
#define TEXT_CAP 1024

static void board_text(const othello_board *b, char *buf)
{
    size_t n = 0;
    CHECK(othello_board_to_string(b, buf, TEXT_CAP, &n) == OTHELLO_STATUS_OK);
    CHECK(strlen(buf) == n);
}

static void transcript_text(const othello_board *b, char *buf)
{
    size_t n = 0;
    CHECK(othello_board_transcript(b, buf, TEXT_CAP, &n) == OTHELLO_STATUS_OK);
    CHECK(strlen(buf) == n);
}

static void test_new_sized(void)
{
    static const int invalid[] = {INT_MIN, -16, -8, -4, -1, 0, 1, 2, 3, 5, 7, 9, 11,
                                  13, 15, 17, 18, 20, 32, 64, 256, INT_MAX};
    for (int i = 0; i < N_SIZES; i++) {
        int size = SIZES[i];
        othello_board *b = othello_board_new_sized(size);
        char text[TEXT_CAP];
        int moves[8];
        CHECK(b != NULL);
        if (b == NULL) {
            continue;
        }
        CHECK(othello_board_size(b) == size);
        board_text(b, text);
        CHECK(strlen(text) == (size_t)(size * size + 2));
        CHECK(text[size * size] == ' ' && text[size * size + 1] == 'X');
        CHECK(othello_board_count(b, OTHELLO_COLOR_EMPTY) == size * size - 4);
        CHECK(othello_board_count(b, OTHELLO_COLOR_BLACK) == 2);
        CHECK(othello_board_count(b, OTHELLO_COLOR_WHITE) == 2);
        CHECK(othello_board_side_to_move(b) == OTHELLO_COLOR_BLACK);
        CHECK(othello_board_legal_moves(b, moves, 8) == 4);
        CHECK(othello_board_mobility(b, OTHELLO_COLOR_WHITE) == 4);
        CHECK(othello_board_move_number(b) == 1);
        {
            /* The centre: white upper-left and lower-right, as d4 e5. */
            int h = size / 2;
            CHECK(othello_board_get(b, (h - 1) * size + h - 1) == OTHELLO_COLOR_WHITE);
            CHECK(othello_board_get(b, h * size + h) == OTHELLO_COLOR_WHITE);
            CHECK(othello_board_get(b, (h - 1) * size + h) == OTHELLO_COLOR_BLACK);
            CHECK(othello_board_get(b, h * size + h - 1) == OTHELLO_COLOR_BLACK);
        }
        {
            othello_board *copy = othello_board_from_string(text);
            char back[TEXT_CAP];
            CHECK(copy != NULL);
            if (copy != NULL) {
                CHECK(othello_board_size(copy) == size);
                board_text(copy, back);
                CHECK(strcmp(back, text) == 0);
                othello_board_free(copy);
            }
        }
        othello_board_free(b);
    }
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
        CHECK(othello_board_new_sized(invalid[i]) == NULL);
        CHECK_FAILED(OTHELLO_STATUS_INVALID_ARGUMENT);
    }
    /* 8 is the standard board. */
    {
        othello_board *a = othello_board_new_sized(8);
        othello_board *b = othello_board_new();
        char ta[TEXT_CAP], tb[TEXT_CAP];
        board_text(a, ta);
        board_text(b, tb);
        CHECK(strcmp(ta, tb) == 0);
        othello_board_free(a);
        othello_board_free(b);
    }
    CHECK(othello_board_size(NULL) == -1);
    CHECK_FAILED(OTHELLO_STATUS_NULL_ARGUMENT);
}

static void test_squares_out_of_range(void)
{
    for (int i = 0; i < N_SIZES; i++) {
        int size = SIZES[i];
        int n = size * size;
        othello_board *b = othello_board_new_sized(size);
        const int bad[] = {n, n + 1, -1, INT_MIN, INT_MAX, 256, 1000};
        char before[TEXT_CAP], after[TEXT_CAP];
        int flips[8];
        size_t n_flips = 777;
        board_text(b, before);
        for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
            if (bad[k] >= 0 && bad[k] < n) {
                continue; /* 256 is a square of 16x16 */
            }
            CHECK(othello_board_get(b, bad[k]) == OTHELLO_COLOR_EMPTY);
            CHECK_FAILED(OTHELLO_STATUS_INVALID_SQUARE);
            CHECK(!othello_board_is_legal(b, bad[k]));
            CHECK_FAILED(OTHELLO_STATUS_INVALID_SQUARE);
            CHECK(othello_board_flips(b, bad[k], flips, 8, &n_flips) ==
                  OTHELLO_STATUS_INVALID_SQUARE);
            CHECK(othello_board_play(b, bad[k], flips, 8, &n_flips) ==
                  OTHELLO_STATUS_INVALID_SQUARE);
            CHECK_FAILED(OTHELLO_STATUS_INVALID_SQUARE);
            CHECK(n_flips == 777);
        }
        /* The last square is on the board (empty, not a legal move). */
        CHECK(othello_board_get(b, n - 1) == OTHELLO_COLOR_EMPTY);
        CHECK(othello_board_play(b, n - 1, NULL, 0, NULL) == OTHELLO_STATUS_ILLEGAL_MOVE);
        board_text(b, after);
        CHECK(strcmp(before, after) == 0);
        CHECK(othello_board_move_number(b) == 1);
        othello_board_free(b);
    }
    /* The example: 36 is off the 6x6 board, 35 (f6) is its last. */
    {
        othello_board *b = othello_board_new_sized(6);
        char name[4];
        CHECK(othello_board_is_legal(b, 36) == false);
        CHECK_FAILED(OTHELLO_STATUS_INVALID_SQUARE);
        CHECK(othello_square_name_sized(6, 36, name, sizeof name) ==
              OTHELLO_STATUS_INVALID_SQUARE);
        CHECK(othello_square_name_sized(6, 35, name, sizeof name) == OTHELLO_STATUS_OK);
        CHECK(strcmp(name, "f6") == 0);
        othello_board_free(b);
    }
}

static void test_strings_of_the_wrong_length(void)
{
    static const int lengths[] = {0, 1, 15, 17, 35, 37, 63, 65, 99, 101, 143, 145,
                                  195, 197, 255, 257, 300};
    char text[TEXT_CAP];
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        int len = lengths[i];
        memset(text, '-', (size_t)len);
        strcpy(text + len, " X");
        CHECK(othello_board_from_string(text) == NULL);
        CHECK_FAILED(OTHELLO_STATUS_PARSE_ERROR);
    }
    for (int i = 0; i < N_SIZES; i++) {
        int n = SIZES[i] * SIZES[i];
        othello_board *b;
        /* The right length: accepted, even empty, in either side. */
        memset(text, '.', (size_t)n);
        strcpy(text + n, "\tO\n");
        b = othello_board_from_string(text);
        CHECK(b != NULL);
        if (b != NULL) {
            CHECK(othello_board_size(b) == SIZES[i]);
            CHECK(othello_board_side_to_move(b) == OTHELLO_COLOR_WHITE);
            CHECK(othello_board_is_game_over(b));
            othello_board_free(b);
        }
        /* No side, a bad side, a bad square. */
        text[n] = '\0';
        CHECK(othello_board_from_string(text) == NULL);
        CHECK_FAILED(OTHELLO_STATUS_PARSE_ERROR);
        strcpy(text + n, " Y");
        CHECK(othello_board_from_string(text) == NULL);
        CHECK_FAILED(OTHELLO_STATUS_PARSE_ERROR);
        strcpy(text + n, " X");
        text[n / 2] = 'Q';
        CHECK(othello_board_from_string(text) == NULL);
        CHECK_FAILED(OTHELLO_STATUS_PARSE_ERROR);
    }
    /* A 16x16 board string needs 259 bytes. */
    {
        othello_board *b = othello_board_new_sized(16);
        size_t n = 0;
        CHECK(othello_board_to_string(b, text, 258, &n) == OTHELLO_STATUS_BUFFER_TOO_SMALL);
        CHECK(n == 259);
        CHECK(othello_board_to_string(b, NULL, 0, &n) == OTHELLO_STATUS_BUFFER_TOO_SMALL);
        CHECK(n == 259);
        CHECK(othello_board_to_string(b, text, 259, &n) == OTHELLO_STATUS_OK);
        CHECK(n == 258);
        othello_board_free(b);
    }
}

static void test_names_and_transcripts(void)
{
    for (int i = 0; i < N_SIZES; i++) {
        int size = SIZES[i];
        for (int sq = 0; sq < size * size; sq++) {
            char name[4], upper[4];
            int back = -5;
            CHECK(othello_square_name_sized(size, sq, name, sizeof name) == OTHELLO_STATUS_OK);
            CHECK(name[0] == 'a' + sq % size && atoi(name + 1) == sq / size + 1);
            CHECK(othello_square_parse_sized(size, name, &back) == OTHELLO_STATUS_OK);
            CHECK(back == sq);
            strcpy(upper, name);
            upper[0] = (char)(upper[0] - 'a' + 'A');
            CHECK(othello_square_parse_sized(size, upper, &back) == OTHELLO_STATUS_OK);
            CHECK(back == sq);
        }
    }
    {
        int sq = 777;
        char name[4];
        CHECK(othello_square_parse_sized(6, "g1", &sq) == OTHELLO_STATUS_PARSE_ERROR);
        CHECK(othello_square_parse_sized(6, "a7", &sq) == OTHELLO_STATUS_PARSE_ERROR);
        CHECK(othello_square_parse_sized(10, "a01", &sq) == OTHELLO_STATUS_PARSE_ERROR);
        CHECK(othello_square_parse_sized(16, "q1", &sq) == OTHELLO_STATUS_PARSE_ERROR);
        CHECK(othello_square_parse_sized(16, "a17", &sq) == OTHELLO_STATUS_PARSE_ERROR);
        CHECK(othello_square_parse_sized(7, "a1", &sq) == OTHELLO_STATUS_INVALID_ARGUMENT);
        CHECK(othello_square_parse_sized(6, NULL, &sq) == OTHELLO_STATUS_NULL_ARGUMENT);
        CHECK(othello_square_parse_sized(6, "a1", NULL) == OTHELLO_STATUS_NULL_ARGUMENT);
        CHECK(sq == 777);
        CHECK(othello_square_parse_sized(16, "P16", &sq) == OTHELLO_STATUS_OK && sq == 255);
        CHECK(othello_square_name_sized(10, 99, name, 3) == OTHELLO_STATUS_BUFFER_TOO_SMALL);
        CHECK(othello_square_name_sized(10, 99, name, 4) == OTHELLO_STATUS_OK);
        CHECK(strcmp(name, "j10") == 0);
        CHECK(othello_square_name_sized(18, 0, name, 4) == OTHELLO_STATUS_INVALID_ARGUMENT);
        /* The 8x8 functions keep their 8x8 names. */
        CHECK(othello_square_parse("a10", &sq) == OTHELLO_STATUS_PARSE_ERROR);
    }
    /* Transcripts: bad sizes and moves. */
    CHECK(othello_board_from_transcript_sized(5, "") == NULL);
    CHECK_FAILED(OTHELLO_STATUS_INVALID_ARGUMENT);
    CHECK(othello_board_from_transcript_sized(6, NULL) == NULL);
    CHECK_FAILED(OTHELLO_STATUS_NULL_ARGUMENT);
    CHECK(othello_board_from_transcript_sized(6, "g1") == NULL);
    CHECK_FAILED(OTHELLO_STATUS_PARSE_ERROR);
    CHECK(othello_board_from_transcript_sized(6, "a1") == NULL);
    CHECK_FAILED(OTHELLO_STATUS_PARSE_ERROR);
    CHECK(othello_board_from_transcript_sized(10, "e4 1") == NULL);
    CHECK_FAILED(OTHELLO_STATUS_PARSE_ERROR);
    {
        othello_board *b = othello_board_from_transcript_sized(10, " E4\n");
        char text[TEXT_CAP];
        CHECK(b != NULL);
        if (b != NULL) {
            transcript_text(b, text);
            CHECK(strcmp(text, "e4") == 0);
            CHECK(othello_board_move_number(b) == 2);
            othello_board_free(b);
        }
    }
}

/* Plays a whole game on `size` with the engine at level 1, then undoes it to
 * the start and redoes it to the end; the transcript replays to the same
 * board. */
static void test_game(othello_engine *e, int size)
{
    othello_board *b = othello_board_new_sized(size);
    othello_search_limits lim;
    char start[TEXT_CAP], end[TEXT_CAP], text[TEXT_CAP], transcript[TEXT_CAP];
    int turns = 0;
    othello_search_limits_init(&lim);
    lim.level = 1;
    board_text(b, start);
    while (!othello_board_is_game_over(b)) {
        othello_search_result r;
        size_t n_flips = 0;
        int before = othello_board_count(b, OTHELLO_COLOR_EMPTY);
        othello_search_result_init(&r);
        CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK);
        if (r.move == OTHELLO_PASS) {
            CHECK(othello_board_must_pass(b));
            CHECK(othello_board_pass(b) == OTHELLO_STATUS_OK);
        } else {
            CHECK(r.move >= 0 && r.move < size * size);
            CHECK(othello_board_is_legal(b, r.move));
            CHECK(othello_board_play(b, r.move, NULL, 0, &n_flips) == OTHELLO_STATUS_OK);
            CHECK(n_flips > 0);
            CHECK(othello_board_count(b, OTHELLO_COLOR_EMPTY) == before - 1);
        }
        turns++;
        if (turns > size * size * 2) {
            CHECK(!"the game does not end");
            break;
        }
    }
    CHECK(othello_board_count(b, OTHELLO_COLOR_BLACK) + othello_board_count(b, OTHELLO_COLOR_WHITE) +
              othello_board_count(b, OTHELLO_COLOR_EMPTY) ==
          size * size);
    CHECK(othello_board_pass(b) == OTHELLO_STATUS_GAME_OVER);
    CHECK(othello_board_move_number(b) == turns + 1);
    board_text(b, end);
    transcript_text(b, transcript);
    {
        othello_board *replay = othello_board_from_transcript_sized(size, transcript);
        CHECK(replay != NULL);
        if (replay != NULL) {
            board_text(replay, text);
            CHECK(strcmp(text, end) == 0);
            CHECK(othello_board_move_number(replay) == turns + 1);
            othello_board_free(replay);
        }
    }
    while (othello_board_can_undo(b)) {
        CHECK(othello_board_undo(b) == OTHELLO_STATUS_OK);
    }
    board_text(b, text);
    CHECK(strcmp(text, start) == 0);
    CHECK(othello_board_undo(b) == OTHELLO_STATUS_NOTHING_TO_UNDO);
    while (othello_board_can_redo(b)) {
        CHECK(othello_board_redo(b) == OTHELLO_STATUS_OK);
    }
    board_text(b, text);
    CHECK(strcmp(text, end) == 0);
    othello_board_free(b);
}

static void test_solve_6x6(othello_engine *e)
{
    /* A 6x6 position with 12 empties (the first legal move at each turn):
     * the exact score equals the best of the analysed moves. */
    othello_board *b = othello_board_new_sized(6);
    othello_search_limits lim;
    othello_search_result r;
    othello_move_score scores[36];
    size_t n = 0;
    othello_search_result_init(&r);
    while (!othello_board_is_game_over(b) &&
           (othello_board_must_pass(b) || othello_board_count(b, OTHELLO_COLOR_EMPTY) > 12)) {
        int first;
        if (othello_board_must_pass(b)) {
            CHECK(othello_board_pass(b) == OTHELLO_STATUS_OK);
        } else {
            CHECK(othello_board_legal_moves(b, &first, 1) > 0);
            CHECK(othello_board_play(b, first, NULL, 0, NULL) == OTHELLO_STATUS_OK);
        }
    }
    CHECK(!othello_board_is_game_over(b));
    othello_search_limits_init(&lim);
    lim.level = 10; /* exact at 20 empties and fewer */
    CHECK(othello_engine_search(e, b, &lim, &r) == OTHELLO_STATUS_OK);
    CHECK(r.exact && r.wld && !r.stopped);
    CHECK(othello_engine_analyze(e, b, &lim, scores, 36, &n) == OTHELLO_STATUS_OK);
    CHECK(n == othello_board_legal_moves(b, NULL, 0));
    CHECK(n > 0 && scores[0].exact && scores[0].score == r.score);
    for (size_t i = 1; i < n; i++) {
        CHECK(scores[i].score <= scores[i - 1].score);
    }
    {
        int move = -2;
        CHECK(othello_board_best_move(b, 10, &move) == OTHELLO_STATUS_OK);
        CHECK(othello_board_is_legal(b, move));
    }
    othello_board_free(b);
}

int main(void)
{
    othello_engine *e = othello_engine_new(4);
    test_new_sized();
    test_squares_out_of_range();
    test_strings_of_the_wrong_length();
    test_names_and_transcripts();
    for (int i = 0; i < N_SIZES; i++) {
        test_game(e, SIZES[i]);
    }
    test_solve_6x6(e);
    othello_engine_free(e);
    return check_summary("sizes_test");
}
