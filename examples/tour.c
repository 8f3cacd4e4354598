/*
 * tour.c: the othello C API in one page.
 *
 * A new board, its legal moves, a move with the list of discs it flips,
 * undo and redo, the board string and the transcript, a failed call and its
 * error message, the engine's best move, and cleaning up. Every call that
 * can fail is checked: a library function reports failure through its
 * othello_status (0 = OK) or a NULL handle, and othello_last_error() says why.
 *
 * Build and run: make -C examples tour && target/examples/tour
 */

#include <stdio.h>
#include <stdlib.h>

#include "othello.h"

/* Stops the program when a call that should succeed does not. */
static void check(othello_status st, const char *what)
{
    if (st != OTHELLO_STATUS_OK) {
        char detail[256];
        othello_last_error(detail, sizeof detail, NULL);
        fprintf(stderr, "tour: %s: %s (%s)\n", what, othello_status_message(st), detail);
        exit(EXIT_FAILURE);
    }
}

/* Prints squares by name: "d3 c4 f5 e6". */
static void print_squares(const char *label, const int *squares, size_t n)
{
    printf("%s", label);
    for (size_t i = 0; i < n; i++) {
        char name[3];
        check(othello_square_name(squares[i], name, sizeof name), "square name");
        printf(" %s", name);
    }
    printf("\n");
}

/* Prints the board as a grid, a1 top left, and whose turn it is. */
static void print_board(const othello_board *b)
{
    printf("  a b c d e f g h\n");
    for (int row = 0; row < 8; row++) {
        printf("%d", row + 1);
        for (int col = 0; col < 8; col++) {
            othello_color c = othello_board_get(b, row * 8 + col);
            printf(" %c", c == OTHELLO_COLOR_BLACK ? 'X' : c == OTHELLO_COLOR_WHITE ? 'O' : '-');
        }
        printf("\n");
    }
    printf("%s to move, black %d, white %d\n",
           othello_board_side_to_move(b) == OTHELLO_COLOR_BLACK ? "black (X)" : "white (O)",
           othello_board_count(b, OTHELLO_COLOR_BLACK), othello_board_count(b, OTHELLO_COLOR_WHITE));
}

int main(void)
{
    printf("othello library %s (header %s)\n", othello_version(), OTHELLO_VERSION_STRING);

    /* 1. A new game: the standard start, black to move. */
    othello_board *b = othello_board_new();
    if (b == NULL) {
        check(othello_last_status(), "new board");
    }
    print_board(b);

    /* 2. Legal moves: the call returns how many there are and fills the
     *    array with up to `cap` of them. 64 always suffices. */
    int moves[64];
    size_t n = othello_board_legal_moves(b, moves, 64);
    print_squares("legal moves:", moves, n);

    /* 3. Play a move by square index (row * 8 + col); the library fills in
     *    the discs it flipped. Names parse either case. */
    int f5;
    check(othello_square_parse("F5", &f5), "parse f5");
    int flips[64];
    size_t n_flips = 0;
    check(othello_board_play(b, f5, flips, 64, &n_flips), "play f5");
    print_squares("f5 flipped:", flips, n_flips);

    /* 4. A wrong move fails without changing anything, and says why. */
    othello_status st = othello_board_play(b, 0, NULL, 0, NULL);
    char why[256];
    othello_last_error(why, sizeof why, NULL);
    printf("a1 now: %s (%s)\n", othello_status_message(st), why);

    /* 5. Two more moves, then undo and redo: the board keeps its history. */
    int d6, c3;
    check(othello_square_parse("d6", &d6), "parse d6");
    check(othello_square_parse("c3", &c3), "parse c3");
    check(othello_board_play(b, d6, NULL, 0, NULL), "play d6");
    check(othello_board_play(b, c3, NULL, 0, NULL), "play c3");
    printf("move number %d\n", othello_board_move_number(b));
    check(othello_board_undo(b), "undo");
    check(othello_board_undo(b), "undo");
    printf("after two undos: move number %d, can redo: %s\n", othello_board_move_number(b),
           othello_board_can_redo(b) ? "yes" : "no");
    check(othello_board_redo(b), "redo");
    printf("after a redo: move number %d\n", othello_board_move_number(b));

    /* 6. Text forms: the board string (64 squares a1..h8, a space, the side
     *    to move) and the transcript of the moves played. */
    char text[128];
    check(othello_board_to_string(b, text, sizeof text, NULL), "board string");
    printf("board string: %s\n", text);
    check(othello_board_transcript(b, text, sizeof text, NULL), "transcript");
    printf("transcript: %s\n", text);

    /* A game can start from either form; here a copy from the transcript. */
    othello_board *copy = othello_board_from_transcript(text);
    if (copy == NULL) {
        check(othello_last_status(), "from transcript");
    }
    printf("the copy from the transcript is at move %d\n", othello_board_move_number(copy));
    othello_board_free(copy);

    /* 7. The best move: the one-shot call, then an engine kept for a game,
     *    with limits initialised first and changed field by field. */
    int best;
    check(othello_board_best_move(b, 4, &best), "best move");
    print_squares("best move at level 4:", &best, 1);

    othello_engine *e = othello_engine_new(16);
    if (e == NULL) {
        check(othello_last_status(), "new engine");
    }
    othello_search_limits lim;
    othello_search_limits_init(&lim);
    lim.level = 6;
    othello_search_result r;
    othello_search_result_init(&r);
    check(othello_engine_search(e, b, &lim, &r), "search");
    printf("level 6: score %+d discs (%s), depth %d, %llu nodes\n", r.score,
           r.exact ? "exact" : "estimate", r.depth, (unsigned long long)r.nodes);
    print_squares("principal variation:", r.pv, r.pv_len);

    /* The 1986 program's choice from the same position, at its skill 2. */
    lim.strategy = OTHELLO_STRATEGY_CLASSIC;
    lim.classic_depth = 2;
    check(othello_engine_search(e, b, &lim, &r), "classic search");
    print_squares("the 1986 program at skill 2 plays:", &r.move, 1);

    /* 8. Free what was made. */
    othello_engine_free(e);
    othello_board_free(b);
    printf("done\n");
    return EXIT_SUCCESS;
}
