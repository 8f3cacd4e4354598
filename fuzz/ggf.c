/*
 * ggf.c: fuzz target for the GGF game reader of the NBoard protocol program
 * (parse_ggf() in examples/nboard.c, whose code it includes, its main()
 * renamed), on the input text up to its first NUL:
 *
 *  - a refused game leaves a reason in `why` (one line of it is sent);
 *  - an accepted game is an 8x8 board that the reference rules of common.h
 *    agree with (board string, counts adding up to 64, legal moves, pass,
 *    game over), whose history is as long as its move number says, holds
 *    squares and passes only, a pass only where the side to move had no
 *    move, and no more turns than a game can have; the history is the
 *    record's moves (B[..], W[..]), each played by the colour the record
 *    gives it, with passes left out of the record before them;
 *  - replaying the game gives the same position: from the standard start
 *    its transcript (othello_board_transcript) read back with
 *    othello_board_from_transcript(); from another position (a BO[...] of
 *    the game) the transcript's moves played on that position, passes
 *    implied; a pass that ends the record is played after them.
 */

#define main nboard_program_main
#include "../examples/nboard.c"
#undef main

#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_MAX_TURNS 256

static const char FZ_START[] = "---------------------------OX------XO--------------------------- X";

/* The board string of `b` checked against the reference rules. */
static void fz_check_board(const othello_board *b, char text[67])
{
    ref_pos p;
    int i;
    FZ_CHECK(b != NULL, "no board");
    fz_board_string(b, text);
    for (i = 0; i < 64; i++) {
        FZ_CHECK(text[i] == 'X' || text[i] == 'O' || text[i] == '-', "board string %s", text);
        p.cell[i] = text[i];
    }
    p.side = text[65];
    FZ_CHECK(p.side == 'X' || p.side == 'O', "side in %s", text);
    fz_check_position(b, &p);
}

/* Plays the transcript `moves` on `b`, a pass implied before a move when
 * the side to move has none. */
static void fz_replay(othello_board *b, const char *moves)
{
    size_t i, n = strlen(moves);
    FZ_CHECK(n % 2 == 0, "transcript %s", moves);
    for (i = 0; i < n; i += 2) {
        char name[3] = {moves[i], moves[i + 1], '\0'};
        int sq;
        FZ_CHECK(othello_square_parse(name, &sq) == OTHELLO_STATUS_OK, "transcript %s", moves);
        if (othello_board_must_pass(b)) {
            FZ_CHECK(othello_board_pass(b) == OTHELLO_STATUS_OK, "implied pass");
        }
        FZ_CHECK(othello_board_play(b, sq, NULL, 0, NULL) == OTHELLO_STATUS_OK,
                 "move %s of the transcript %s", name, moves);
    }
}

/* The moves a game record gives, in order: 'B' or 'W' and the square (-1
 * for a pass). Only for a record parse_ggf() accepted: "(;", then
 * properties TAG[value] (`\` escapes the next character) among spaces and
 * `;`, then ")". Their number, or -1 when there are too many. */
static int fz_record_moves(const char *p, char *colors, int *squares, int cap)
{
    int n = 0;
    p = strstr(p, "(;");
    FZ_CHECK(p != NULL, "no \"(;\" in an accepted game");
    p += 2;
    for (;;) {
        char tag[16], value[256];
        size_t t = 0, v = 0;
        while (isspace((unsigned char)*p) || *p == ';') {
            p++;
        }
        if (*p == ')') {
            return n;
        }
        while (*p != '[') {
            FZ_CHECK(*p != '\0', "an accepted record ends inside a property");
            if (t + 1 < sizeof tag) {
                tag[t++] = *p;
            }
            p++;
        }
        tag[t] = '\0';
        p++;
        while (*p != ']') {
            if (*p == '\\' && p[1] != '\0') {
                p++;
            }
            FZ_CHECK(*p != '\0', "an accepted record ends inside a value");
            if (v + 1 < sizeof value) {
                value[v++] = *p;
            }
            p++;
        }
        value[v] = '\0';
        p++;
        if (strcmp(tag, "B") == 0 || strcmp(tag, "W") == 0) {
            char *slash = strchr(value, '/');
            int sq;
            if (n == cap) {
                return -1;
            }
            if (slash != NULL) {
                *slash = '\0';
            }
            if (othello_square_parse(value, &sq) != OTHELLO_STATUS_OK) {
                sq = OTHELLO_PASS; /* PA and the other names of a pass */
            }
            colors[n] = tag[0];
            squares[n] = sq;
            n++;
        }
    }
}

/* The turns of the history against the record's moves: each move of the
 * record is played by the colour that the record gives it (a pass left out
 * of the record is a turn of the other colour before it). */
static void fz_check_record(const char *text, const othello_board *first, const int *hist,
                            size_t n_hist)
{
    char colors[MAX_GGF_MOVES];
    int squares[MAX_GGF_MOVES], n, i;
    size_t t = 0;
    char side = othello_board_side_to_move(first) == OTHELLO_COLOR_BLACK ? 'B' : 'W';
    n = fz_record_moves(text, colors, squares, MAX_GGF_MOVES);
    FZ_CHECK(n >= 0, "more than %d moves accepted", MAX_GGF_MOVES);
    for (i = 0; i < n; i++) {
        FZ_CHECK(t < n_hist, "record move %d: the history has %zu turns", i + 1, n_hist);
        if (squares[i] != OTHELLO_PASS && hist[t] == OTHELLO_PASS) {
            side = side == 'B' ? 'W' : 'B'; /* an implied pass */
            t++;
            FZ_CHECK(t < n_hist, "record move %d: the history has %zu turns", i + 1, n_hist);
        }
        FZ_CHECK(hist[t] == squares[i], "record move %d: %c %d, turn %zu of the history: %d",
                 i + 1, colors[i], squares[i], t + 1, hist[t]);
        FZ_CHECK(colors[i] == side, "record move %d (%c %d) was played by %c", i + 1, colors[i],
                 squares[i], side);
        side = side == 'B' ? 'W' : 'B';
        t++;
    }
    FZ_CHECK(t == n_hist, "%d record moves, %zu turns", n, n_hist);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    char why[256], board[67], start[67], again_text[67], transcript[200];
    int hist[FZ_MAX_TURNS];
    size_t n_hist = 0, n = 0, i;
    othello_board *b, *first, *again;

    FZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data, size);
    text[size] = '\0';
    fz_note("parse_ggf(\"%.400s\")", text);
    memset(why, 0, sizeof why);
    struct game_clock clock;
    b = parse_ggf(text, &clock, why, sizeof why);
    fz_no_panic("parse_ggf");
    if (b == NULL) {
        FZ_CHECK(why[0] != '\0', "a refused game and no reason");
        FZ_CHECK(memchr(why, '\0', sizeof why) != NULL, "the reason is not terminated");
        free(text);
        return 0;
    }

    /* A clock it kept is one of times: never negative, never NaN. */
    for (int side = 0; side < 2; side++) {
        double left = clock_left(&clock, side);
        FZ_CHECK(clock.known[side] ? left >= 0 : left == -1, "a clock's time left");
    }

    /* The position reached, its history. */
    fz_check_board(b, board);
    FZ_CHECK(othello_board_history(b, hist, FZ_MAX_TURNS, &n_hist) == OTHELLO_STATUS_OK,
             "history");
    FZ_CHECK(n_hist <= 2 * 60, "%zu turns", n_hist);
    FZ_CHECK(othello_board_move_number(b) == (int)n_hist + 1, "move number %d, %zu turns",
             othello_board_move_number(b), n_hist);

    /* Back to the first position, turn by turn: each pass was forced. */
    first = othello_board_clone(b);
    FZ_CHECK(first != NULL, "clone");
    for (i = n_hist; i-- > 0;) {
        FZ_CHECK(othello_board_undo(first) == OTHELLO_STATUS_OK, "undo turn %zu", i + 1);
        if (hist[i] == OTHELLO_PASS) {
            FZ_CHECK(othello_board_must_pass(first), "turn %zu: a pass with moves left", i + 1);
        } else {
            FZ_CHECK(hist[i] >= 0 && hist[i] < 64 && othello_board_is_legal(first, hist[i]),
                     "turn %zu: %d", i + 1, hist[i]);
        }
    }
    FZ_CHECK(othello_board_undo(first) == OTHELLO_STATUS_NOTHING_TO_UNDO, "undo past the start");
    fz_check_board(first, start);
    fz_check_record(text, first, hist, n_hist);

    /* The transcript, replayed. */
    FZ_CHECK(othello_board_transcript(b, transcript, sizeof transcript, &n) == OTHELLO_STATUS_OK,
             "transcript");
    FZ_CHECK(strlen(transcript) == n && n <= 120, "transcript of %zu characters", n);
    if (strcmp(start, FZ_START) == 0) {
        again = othello_board_from_transcript(transcript);
        FZ_CHECK(again != NULL, "the transcript %s does not parse back", transcript);
    } else {
        again = othello_board_from_string(start);
        FZ_CHECK(again != NULL, "the start %s does not parse back", start);
        fz_replay(again, transcript);
    }
    if (n_hist > 0 && hist[n_hist - 1] == OTHELLO_PASS) {
        FZ_CHECK(othello_board_pass(again) == OTHELLO_STATUS_OK, "the last pass of %s",
                 transcript);
    }
    fz_check_board(again, again_text);
    FZ_CHECK(strcmp(again_text, board) == 0, "the transcript %s replayed gives\n %s\nnot\n %s",
             transcript, again_text, board);
    FZ_CHECK(othello_board_move_number(again) == (int)n_hist + 1, "replayed move number");

    othello_board_free(again);
    othello_board_free(first);
    othello_board_free(b);
    free(text);
    return 0;
}
