/*
 * othello.c: the console game "OTHELLO v1.1.8" by Jonathan Dubman (1986),
 * recreated on the othello library. Everything the game knows about the
 * rules and about playing well comes from include/othello.h; this file is
 * only the user interface of the original: its board, prompts, messages and
 * commands, plus "stats" (listed but never written in 1986), "undo",
 * "redo" and "book".
 *
 * Coordinates. The original prints column numbers 1-8 across and row letters
 * A-H down, and takes moves as row letter then column digit ("D3"). The
 * library numbers squares row * 8 + col with a1 = 0, and names them column
 * letter then row number. Both put the same square in the same place on the
 * screen, so the original's "D3" (row D, column 3) is the library's square
 * 3 * 8 + 2 = 26, named "c4". With --standard the game shows and takes the
 * library's names instead (columns a-h across, rows 1-8 down, "f5").
 *
 * Board sizes. The original was written around a BOARDSIZE constant; with
 * --size N the game is played on an NxN board (N even, 4..16) through the
 * library's sized boards: rows A-P down and columns 1-16 across (moves like
 * "J10"), or with --standard columns a-p across and rows 1-16 down ("j10").
 * From 10x10 on, every column is three characters wide so that two-digit
 * labels line up over their squares.
 *
 * The human plays X (black), the computer O (white). Skill levels 0-9 are the
 * original's own lookahead (OTHELLO_STRATEGY_CLASSIC), so the computer picks
 * exactly the moves the 1986 program picked; --engine LEVEL plays the
 * library's real engine instead (--threads N: on N threads), and
 * --clock SECONDS (or m:ss, h:mm:ss) gives it a game clock, which "stats"
 * shows after every move; 0 is no clock, as GUIs write a game without one:
 * the level decides. --ponder lets the engine think while the human does.
 *
 * The opening book (the library's, 8x8 only) is on unless --no-book or
 * "book off": "suggest" then gives the book's best move and its value while
 * the game is in the book, and the engine (not the 1986 levels, which play
 * as they did) plays book moves from level 1 up.
 *
 * Bugs of the original fixed here: the game ends only when neither side can
 * move (not at the first pass), nothing is read uninitialised, "auto" reads
 * a whole line, and every prompt ends the game cleanly at end of input.
 *
 * Build and play: make -C examples play
 */

#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "othello.h"

#define GAME_VERSION "1.1.8"

/* Input lines longer than this are refused as a whole. */
#define LINE_CAP 256

/* Room for a square name in either notation ("P16" and its NUL). */
#define NAME_CAP 4

/* Room for a board string of any size (256 squares, space, side, NUL). */
#define BOARD_TEXT_CAP 260

/* Who chooses a side's moves. */
typedef struct {
    othello_strategy strategy; /* OTHELLO_STRATEGY_CLASSIC or _ENGINE */
    int level;                 /* classic depth 0..9, or engine level 0..60 */
} player;

/* One turn of the game, as "log" and "stats" show it. */
typedef struct {
    othello_color side;
    int square; /* OTHELLO_PASS for a pass */
    int taken;  /* discs flipped */
    int x_count, o_count;
} turn;

typedef struct {
    othello_board *board;
    othello_engine *engine;
    char start[BOARD_TEXT_CAP]; /* board string of the first position, for replays */
    int size;        /* squares per side (8 unless --size) */
    bool standard;   /* standard notation (f5) instead of the original's (E6) */
    bool seeded;     /* --seed given: random tie-breaking from `seed` */
    uint64_t seed;
    player computer; /* plays O */
    player stand_in; /* plays X once "auto" is on */
    bool autoplay;
    bool book;       /* the opening book: suggest and the engine play from it */
    int threads;     /* limits.threads of the engine's searches (--threads) */
    int64_t clock_ms; /* the engine's game clock for O (--clock), -1 for none */
    bool ponder;     /* the engine thinks on the human's time (--ponder) */
    int mistakes;
    /* The last search, for "stats". */
    bool searched;
    othello_color searched_for;
    player searched_with;
    othello_search_result last;
} game;

/* ------------------------------------------------------------------------ */
/* Leaving                                                                   */

static void game_free(game *g)
{
    othello_engine_free(g->engine);
    othello_board_free(g->board);
    g->engine = NULL;
    g->board = NULL;
}

/* "quit", or end of input at any prompt (then the cursor is still on the
 * prompt's line). */
static void leave(game *g, bool at_eof)
{
    printf("%sBye!\n", at_eof ? "\n" : "");
    game_free(g);
    exit(EXIT_SUCCESS);
}

/* A library call failed where it cannot: report it and stop. */
static void fail(game *g, const char *what, othello_status st)
{
    char detail[256];
    if (othello_last_error(detail, sizeof detail, NULL) != OTHELLO_STATUS_OK) {
        detail[0] = '\0';
    }
    fflush(stdout);
    fprintf(stderr, "othello: %s: %s (%s)\n", what, othello_status_message(st), detail);
    game_free(g);
    exit(EXIT_FAILURE);
}

/* ------------------------------------------------------------------------ */
/* Input                                                                     */

/*
 * Reads one line of stdin into `buf` (capacity LINE_CAP), without the
 * newline and without surrounding white space. A line too long for the
 * buffer is read to its end and reported through *too_long. Control bytes
 * (NUL included) become '?', so the result is always a plain C string.
 * Returns false at end of input when no byte was read.
 */
static bool read_line(char *buf, bool *too_long)
{
    size_t len = 0;
    int c;
    bool any = false;
    *too_long = false;
    while ((c = getchar()) != EOF) {
        any = true;
        if (c == '\n') {
            break;
        }
        if (len + 1 < LINE_CAP) {
            buf[len++] = (c == '\0' || (iscntrl(c) && !isspace(c))) ? '?' : (char)c;
        } else {
            *too_long = true;
        }
    }
    buf[len] = '\0';
    if (!any) {
        return false;
    }
    while (len > 0 && isspace((unsigned char)buf[len - 1])) {
        buf[--len] = '\0';
    }
    size_t lead = 0;
    while (isspace((unsigned char)buf[lead])) {
        lead++;
    }
    memmove(buf, buf + lead, len - lead + 1);
    return true;
}

/* Prints `prompt` and reads the answer; end of input leaves the game. */
static void ask(game *g, const char *prompt, char *buf, bool *too_long)
{
    fputs(prompt, stdout);
    fflush(stdout);
    if (!read_line(buf, too_long)) {
        leave(g, true);
    }
}

static bool same_word(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) {
            return false;
        }
    }
    return *a == *b;
}

/* The rest of `line` after its first word when that is `word` (lower case;
 * the line in either case), without the spaces between; else NULL. */
static const char *after_word(const char *line, const char *word)
{
    size_t n = strlen(word);
    for (size_t i = 0; i < n; i++) {
        if (tolower((unsigned char)line[i]) != word[i]) {
            return NULL;
        }
    }
    if (line[n] != '\0' && !isspace((unsigned char)line[n])) {
        return NULL;
    }
    const char *rest = line + n;
    while (isspace((unsigned char)*rest)) {
        rest++;
    }
    return rest;
}

/* A yes/no answer: its first letter decides, anything else is the default. */
static bool yes_no(const char *answer, bool default_yes)
{
    switch (answer[0]) {
    case 'y':
    case 'Y':
        return true;
    case 'n':
    case 'N':
        return false;
    default:
        return default_yes;
    }
}

/* A whole decimal number in lo..hi, or -1. */
static int parse_level(const char *text, int lo, int hi)
{
    if (!isdigit((unsigned char)text[0])) {
        return -1;
    }
    char *end;
    long v = strtol(text, &end, 10);
    if (*end != '\0' || v < lo || v > hi) {
        return -1;
    }
    return (int)v;
}

/* ------------------------------------------------------------------------ */
/* Squares in the notation of the game                                       */

/* The name of `square` in the game's notation: "D3" or, standard, "c4"
 * ("J10" and "j10" on bigger boards). */
static const char *square_text(const game *g, int square, char out[NAME_CAP])
{
    if (g->standard) {
        if (othello_square_name_sized(g->size, square, out, NAME_CAP) != OTHELLO_STATUS_OK) {
            strcpy(out, "??");
        }
    } else {
        /* Row letter, column number (1..16). */
        int col = square % g->size + 1;
        out[0] = (char)('A' + square / g->size);
        if (col >= 10) {
            out[1] = '1';
            out[2] = (char)('0' + col - 10);
            out[3] = '\0';
        } else {
            out[1] = (char)('0' + col);
            out[2] = '\0';
        }
    }
    return out;
}

/* The width of the longest square name on the board: 2, or 3 from 10x10. */
static int name_width(const game *g)
{
    return g->size >= 10 ? 3 : 2;
}

/* The square a typed move names, or -1 when it names none. */
static int parse_square(const game *g, const char *text)
{
    if (g->standard) {
        int square;
        return othello_square_parse_sized(g->size, text, &square) == OTHELLO_STATUS_OK ? square
                                                                                        : -1;
    }
    /* A row letter, then the column number without leading zero. */
    size_t len = strlen(text);
    if (len < 2 || len > 3 || text[1] == '0' || !isdigit((unsigned char)text[1]) ||
        (len == 3 && !isdigit((unsigned char)text[2]))) {
        return -1;
    }
    int row = tolower((unsigned char)text[0]) - 'a';
    int col = atoi(text + 1) - 1;
    if (row < 0 || row >= g->size || col < 0 || col >= g->size) {
        return -1;
    }
    return row * g->size + col;
}

/* ------------------------------------------------------------------------ */
/* The board                                                                 */

static int count(const game *g, othello_color c)
{
    return othello_board_count(g->board, c);
}

/* Board layout: every column `cell_width` characters wide (2, or 3 from
 * 10x10 so that two-digit numbers line up), row labels `row_label_width`
 * wide (2 for the standard notation's row numbers from 10x10). */
static int cell_width(const game *g)
{
    return g->size >= 10 ? 3 : 2;
}

static int row_label_width(const game *g)
{
    return g->standard && g->size >= 10 ? 2 : 1;
}

static void print_column_labels(const game *g)
{
    printf("%*s", row_label_width(g), "");
    for (int col = 0; col < g->size; col++) {
        if (g->standard) {
            printf("%*c", cell_width(g), 'a' + col);
        } else {
            printf("%*d", cell_width(g), col + 1);
        }
    }
}

/* The label of `row`, left of the board (right-aligned) or right of it. */
static void print_row_label(const game *g, int row, bool left)
{
    if (g->standard && left) {
        printf("%*d", row_label_width(g), row + 1);
    } else if (g->standard) {
        printf("%d", row + 1);
    } else {
        putchar('A' + row);
    }
}

/* The original's printboard: the grid with its labels, the score and who is
 * ahead on the first row, and `message` (the last event) on the second. */
static void print_board(const game *g, const char *message)
{
    int you = count(g, OTHELLO_COLOR_BLACK);
    int me = count(g, OTHELLO_COLOR_WHITE);
    print_column_labels(g);
    printf("     You: %2d  Me: %2d    ", you, me);
    if (you == me) {
        printf("We are tied.\n");
    } else {
        int lead = you > me ? you - me : me - you;
        printf("%s ahead by %d piece%s.\n", you > me ? "You are" : "I am", lead,
               lead == 1 ? "" : "s");
    }
    for (int row = 0; row < g->size; row++) {
        print_row_label(g, row, true);
        for (int col = 0; col < g->size; col++) {
            char disc;
            switch (othello_board_get(g->board, row * g->size + col)) {
            case OTHELLO_COLOR_BLACK:
                disc = 'X';
                break;
            case OTHELLO_COLOR_WHITE:
                disc = 'O';
                break;
            default:
                disc = '-';
                break;
            }
            printf("%*c", cell_width(g), disc);
        }
        putchar(' ');
        print_row_label(g, row, false);
        if (row == 1 && message != NULL) {
            printf("     %s", message);
        }
        putchar('\n');
    }
    print_column_labels(g);
    putchar('\n');
}

/* ------------------------------------------------------------------------ */
/* Texts                                                                     */

static void instructions(const game *g)
{
    /* The original's suggested openings D3, C4, F5, E6 (on 8x8), in the
     * game's notation: the four first moves, around the centre. */
    int n = g->size, h = g->size / 2;
    const int openings[] = {(h - 1) * n + h - 2, (h - 2) * n + h - 1, (h + 1) * n + h,
                            h * n + h + 1};
    char names[4][NAME_CAP];
    for (int i = 0; i < 4; i++) {
        square_text(g, openings[i], names[i]);
    }
    printf("\n"
           "Othello is played on %s %dx%d board by two players, X and O. You are X and\n"
           "I am O. Each move places one piece on an empty square, and it must capture:\n"
           "the new piece and another of yours have to enclose one or more of my pieces\n"
           "in a straight line (across, down or diagonally), with no gap. Every piece\n"
           "so enclosed, in every direction at once, turns to your side. If you cannot\n"
           "capture anything you must pass; when neither of us can move, the game is\n"
           "over and whoever has more pieces wins.\n"
           "\n",
           n == 8 ? "an" : "a", n, n);
    if (g->standard) {
        printf("Type a move as its column letter then its row number, like %s.\n", names[0]);
    } else {
        printf("Type a move as its row letter then its column number, like %s.\n", names[0]);
    }
    printf("The four possible first moves are %s, %s, %s and %s. Type help to see\n"
           "the other commands.\n"
           "\n",
           names[0], names[1], names[2], names[3]);
}

static void help(const game *g)
{
    if (g->size != 8) {
        /* The first, a middle and the last square of this board. */
        char a[NAME_CAP], b[NAME_CAP], c[NAME_CAP];
        int n = g->size;
        square_text(g, 0, a);
        square_text(g, (n / 2) * n + n / 2 - 1, b);
        square_text(g, n * n - 1, c);
        printf("Type a move as %s: %s, %s, %s, etc.\n",
               g->standard ? "column letter and row number" : "row letter and column number", a,
               b, c);
    } else if (g->standard) {
        printf("Type a move as column letter and row number: a1, f5, h8, etc.\n");
    } else {
        printf("Type a move as row letter and column number: A1, B6, F2, etc.\n");
    }
    printf("You are X. A move goes on an empty square and must enclose a line of O's.\n"
           "\n"
           "help, ?             list these commands\n"
           "quit, stop          quit the game\n"
           "instructions        see the instructions again\n"
           "printboard          see the board again\n"
           "suggest             let the computer make a suggestion\n"
           "auto                let the computer finish the game\n"
           "log                 print a log of all the moves so far, with other info\n"
           "stats               print numerous statistics on the game so far\n"
           "undo                take back your last move and my reply\n"
           "redo                replay a move taken back by undo\n"
           "book on, book off   use the opening book for suggest and --engine (now %s)\n",
           g->book ? "on" : "off");
}

static const char *player_text(const player *p, char *buf, size_t len)
{
    if (p->strategy == OTHELLO_STRATEGY_CLASSIC) {
        snprintf(buf, len, "1986 lookahead %d", p->level);
    } else {
        snprintf(buf, len, "engine level %d", p->level);
    }
    return buf;
}

/* ------------------------------------------------------------------------ */
/* Replaying the history for "log", "stats" and "undo"                      */

/*
 * The turns played so far, replayed from the first position on a scratch
 * board to recover what the history does not store (who, how many taken,
 * the counts after). Returns a malloc'ed array of *n turns (NULL when none).
 */
static turn *replay(game *g, size_t *n)
{
    size_t needed = 0;
    othello_status st = othello_board_history(g->board, NULL, 0, &needed);
    if (st != OTHELLO_STATUS_OK && st != OTHELLO_STATUS_BUFFER_TOO_SMALL) {
        fail(g, "history", st);
    }
    *n = needed;
    if (needed == 0) {
        return NULL;
    }
    int *squares = malloc(needed * sizeof *squares);
    turn *turns = malloc(needed * sizeof *turns);
    othello_board *scratch = othello_board_from_string(g->start);
    if (squares == NULL || turns == NULL || scratch == NULL) {
        free(squares);
        free(turns);
        othello_board_free(scratch);
        fail(g, "replay", othello_last_status());
    }
    st = othello_board_history(g->board, squares, needed, n);
    for (size_t i = 0; st == OTHELLO_STATUS_OK && i < *n; i++) {
        turn *t = &turns[i];
        size_t flipped = 0;
        t->side = othello_board_side_to_move(scratch);
        t->square = squares[i];
        if (squares[i] == OTHELLO_PASS) {
            st = othello_board_pass(scratch);
        } else {
            st = othello_board_play(scratch, squares[i], NULL, 0, &flipped);
        }
        t->taken = (int)flipped;
        t->x_count = othello_board_count(scratch, OTHELLO_COLOR_BLACK);
        t->o_count = othello_board_count(scratch, OTHELLO_COLOR_WHITE);
    }
    othello_board_free(scratch);
    free(squares);
    if (st != OTHELLO_STATUS_OK) {
        free(turns);
        fail(g, "replay", st);
    }
    return turns;
}

/* The original's log: one line per turn, with running totals taken. */
static void print_log(game *g)
{
    size_t n;
    turn *turns = replay(g, &n);
    int total[3] = {0, 0, 0};
    if (n == 0) {
        printf("No moves yet.\n");
    }
    for (size_t i = 0; i < n; i++) {
        const turn *t = &turns[i];
        char mark = t->side == OTHELLO_COLOR_BLACK ? 'X' : 'O';
        printf("%2zu: ", i + 1);
        if (t->square == OTHELLO_PASS) {
            printf("%c forced to pass...\n", mark);
            continue;
        }
        char name[NAME_CAP];
        total[t->side] += t->taken;
        printf("%c at %-*s taking %2d  ", mark, name_width(g), square_text(g, t->square, name),
               t->taken);
        if (t->x_count > t->o_count) {
            printf("X ahead by %2d", t->x_count - t->o_count);
        } else if (t->o_count > t->x_count) {
            printf("O ahead by %2d", t->o_count - t->x_count);
        } else {
            printf("Tie so far   ");
        }
        printf("  Total taken = %2d\n", total[t->side]);
    }
    free(turns);
}

/* The legal moves `side` would have in the current position, whoever is to
 * move (0 for both once the game is over). */
static int mobility(game *g, othello_color side)
{
    int moves = othello_board_mobility(g->board, side);
    if (moves < 0) {
        fail(g, "board mobility", othello_last_status());
    }
    return moves;
}

/* The last search's line of "stats". */
static void print_last_search(const game *g)
{
    if (!g->searched) {
        printf("  Last search: none yet\n");
        return;
    }
    const othello_search_result *r = &g->last;
    char move[NAME_CAP], who[40];
    if (r->move == OTHELLO_PASS) {
        strcpy(move, "--");
    } else {
        square_text(g, r->move, move);
    }
    if (r->from_book) {
        printf("  Last search (%s for %c): move %s from the opening book, value %+d\n",
               player_text(&g->searched_with, who, sizeof who),
               g->searched_for == OTHELLO_COLOR_BLACK ? 'X' : 'O', move, r->score);
        return;
    }
    printf("  Last search (%s for %c): move %s, depth %d, score %+d%s, %" PRIu64
           " nodes, %" PRIu64 " ms\n",
           player_text(&g->searched_with, who, sizeof who),
           g->searched_for == OTHELLO_COLOR_BLACK ? 'X' : 'O', move, r->depth, r->score,
           r->exact ? " (exact)"
           : g->searched_with.strategy == OTHELLO_STRATEGY_CLASSIC ? " (1986 points)"
                                                                  : " (estimate, discs)",
           r->nodes, r->elapsed_ms);
}

/* "stats": what the original's help promised and never printed. */
static void print_stats(game *g)
{
    enum { MOVES, PASSES, DISCS, MOBILITY, TAKEN, CORNERS, EDGES, ROWS };
    static const char *const labels[ROWS] = {
        "Moves made", "Passes", "Discs on board", "Mobility (legal moves)",
        "Pieces taken in total", "Corners held", "Edges held (not corners)",
    };
    int value[ROWS][3] = {{0}};
    int biggest[3] = {0, 0, 0};
    int biggest_at[3] = {-1, -1, -1};
    size_t n;
    turn *turns = replay(g, &n);
    for (size_t i = 0; i < n; i++) {
        const turn *t = &turns[i];
        if (t->square == OTHELLO_PASS) {
            value[PASSES][t->side]++;
            continue;
        }
        value[MOVES][t->side]++;
        value[TAKEN][t->side] += t->taken;
        if (t->taken > biggest[t->side]) {
            biggest[t->side] = t->taken;
            biggest_at[t->side] = t->square;
        }
    }
    free(turns);
    for (int sq = 0; sq < g->size * g->size; sq++) {
        othello_color c = othello_board_get(g->board, sq);
        int row = sq / g->size, col = sq % g->size, last = g->size - 1;
        bool row_edge = row == 0 || row == last, col_edge = col == 0 || col == last;
        if (c == OTHELLO_COLOR_EMPTY) {
            continue;
        }
        if (row_edge && col_edge) {
            value[CORNERS][c]++;
        } else if (row_edge || col_edge) {
            value[EDGES][c]++;
        }
    }
    for (othello_color c = OTHELLO_COLOR_BLACK; c <= OTHELLO_COLOR_WHITE; c++) {
        value[DISCS][c] = count(g, c);
        value[MOBILITY][c] = mobility(g, c);
    }

    printf("Statistics after %zu turn%s (%d empty squares):\n", n, n == 1 ? "" : "s",
           count(g, OTHELLO_COLOR_EMPTY));
    printf("  %-26s %8s %8s\n", "", "You (X)", "Me (O)");
    for (int r = 0; r < ROWS; r++) {
        printf("  %-26s %8d %8d\n", labels[r], value[r][OTHELLO_COLOR_BLACK],
               value[r][OTHELLO_COLOR_WHITE]);
    }
    printf("  %-26s", "Biggest single capture");
    for (othello_color c = OTHELLO_COLOR_BLACK; c <= OTHELLO_COLOR_WHITE; c++) {
        char cell[16], name[NAME_CAP];
        if (biggest_at[c] < 0) {
            snprintf(cell, sizeof cell, "-");
        } else {
            snprintf(cell, sizeof cell, "%d at %s", biggest[c], square_text(g, biggest_at[c], name));
        }
        printf(" %8s", cell);
    }
    printf("\n");
    print_last_search(g);
    if (g->clock_ms >= 0 && g->computer.strategy == OTHELLO_STRATEGY_ENGINE) {
        printf("  Engine's clock: %" PRId64 ".%03d s left\n", g->clock_ms / 1000, (int)(g->clock_ms % 1000));
    }
}

/* ------------------------------------------------------------------------ */
/* Moves                                                                     */

/* The move `p` chooses for the side to move. */
/* The limits of `p`'s search in the current position; true when they
 * carry the engine's clock. */
static bool limits_for(const game *g, const player *p, othello_search_limits *lim)
{
    othello_search_limits_init(lim);
    lim->strategy = p->strategy;
    if (p->strategy == OTHELLO_STRATEGY_CLASSIC) {
        lim->classic_depth = p->level;
    } else {
        lim->level = p->level;
        /* On: as the library's levels have it, from level 1 up. */
        lim->book = g->book ? -1 : 0;
        lim->threads = g->threads;
    }
    bool clocked = p == &g->computer && p->strategy == OTHELLO_STRATEGY_ENGINE && g->clock_ms >= 0;
    if (clocked) {
        lim->clock_remaining_ms = g->clock_ms;
    }
    if (g->seeded) {
        /* Same seed, same game; a different draw at every move. */
        lim->randomness = 1;
        lim->seed = g->seed * UINT64_C(0x9E3779B97F4A7C15) +
                    (uint64_t)othello_board_move_number(g->board);
    }
    return clocked;
}

static int choose(game *g, const player *p)
{
    othello_search_limits lim;
    bool clocked = limits_for(g, p, &lim);
    othello_status st;
    othello_search_result_init(&g->last);
    st = othello_engine_search(g->engine, g->board, &lim, &g->last);
    if (st != OTHELLO_STATUS_OK) {
        fail(g, "search", st);
    }
    if (clocked) {
        int64_t spent = (int64_t)g->last.elapsed_ms;
        g->clock_ms = spent < g->clock_ms ? g->clock_ms - spent : 0;
    }
    g->searched = true;
    g->searched_for = othello_board_side_to_move(g->board);
    g->searched_with = *p;
    return g->last.move;
}

/* The book's best move in the current position, into *best; false when the
 * position is not in the book (or the board is not 8x8). */
static bool book_best(game *g, othello_move_score *best)
{
    othello_move_score moves[64];
    size_t n = 0;
    othello_status st = othello_engine_book_moves(g->engine, g->board, moves, 64, &n);
    if (st != OTHELLO_STATUS_OK) {
        fail(g, "book moves", st);
    }
    if (n == 0) {
        return false;
    }
    *best = moves[0];
    return true;
}

/* "suggest": the book's best move and its value (discs, from X's side)
 * while the book is on and knows the position, else the computer's choice. */
static void suggest(game *g)
{
    char name[NAME_CAP];
    othello_move_score best;
    if (g->book && book_best(g, &best)) {
        printf("I suggest moving at %s (book move, %+d)\n", square_text(g, best.move, name),
               best.score);
        return;
    }
    int square = choose(g, &g->computer);
    printf("I suggest moving at %s\n", square_text(g, square, name));
}

/* "book on", "book off", or "book" alone to ask. */
static void book_command(game *g, const char *args)
{
    if (same_word(args, "on")) {
        g->book = true;
    } else if (same_word(args, "off")) {
        g->book = false;
    } else if (args[0] != '\0') {
        printf("Type book on or book off.\n");
        return;
    }
    printf("The opening book is %s%s.\n", g->book ? "on" : "off",
           g->book && g->size != 8 ? " (it knows only the 8x8 board)" : "");
}

/* Plays `square` for the side to move and shows the board with what it took. */
static void play(game *g, int square)
{
    othello_color side = othello_board_side_to_move(g->board);
    size_t taken = 0;
    othello_status st = othello_board_play(g->board, square, NULL, 0, &taken);
    if (st != OTHELLO_STATUS_OK) {
        fail(g, "play", st);
    }
    char message[40];
    snprintf(message, sizeof message, "%c just took %zu piece%s",
             side == OTHELLO_COLOR_BLACK ? 'X' : 'O', taken, taken == 1 ? "" : "s");
    print_board(g, message);
}

/* The computer's turn, for O, or for X once "auto" is on. */
static void computer_turn(game *g, othello_color side)
{
    const player *p = side == OTHELLO_COLOR_WHITE ? &g->computer : &g->stand_in;
    int square = choose(g, p);
    char name[NAME_CAP];
    printf("\n%s moves at %s\n", side == OTHELLO_COLOR_WHITE ? "Computer" : "Nonplayer",
           square_text(g, square, name));
    play(g, square);
    /* --ponder: the engine thinks while the human does, until its next
     * search (or anything else that uses it). */
    if (g->ponder && p == &g->computer && !g->autoplay && p->strategy == OTHELLO_STRATEGY_ENGINE &&
        !othello_board_is_game_over(g->board)) {
        othello_search_limits lim;
        limits_for(g, p, &lim);
        othello_engine_ponder(g->engine, g->board, &lim, NULL);
    }
}

/* "undo": takes back the turns up to and including the human's last move,
 * so the computer's reply and any passes go with it. */
static bool undo(game *g)
{
    size_t n;
    turn *turns = replay(g, &n);
    size_t back = 0;
    for (size_t i = n; i-- > 0;) {
        if (turns[i].side == OTHELLO_COLOR_BLACK && turns[i].square != OTHELLO_PASS) {
            back = n - i;
            break;
        }
    }
    free(turns);
    if (back == 0) {
        printf("Nothing to undo.\n");
        return false;
    }
    for (size_t i = 0; i < back; i++) {
        othello_status st = othello_board_undo(g->board);
        if (st != OTHELLO_STATUS_OK) {
            fail(g, "undo", st);
        }
    }
    print_board(g, "You took back your move");
    return true;
}

/* "redo": replays the human's move taken back, then the turns after it up to
 * the next position where the human has a move to choose. */
static bool redo(game *g)
{
    if (!othello_board_can_redo(g->board)) {
        printf("Nothing to redo.\n");
        return false;
    }
    do {
        othello_status st = othello_board_redo(g->board);
        if (st != OTHELLO_STATUS_OK) {
            fail(g, "redo", st);
        }
    } while (othello_board_can_redo(g->board) &&
             (othello_board_side_to_move(g->board) != OTHELLO_COLOR_BLACK ||
              othello_board_must_pass(g->board)));
    print_board(g, "Your move is replayed");
    return true;
}

/* "auto": the computer takes over X at a level asked for. */
static void start_auto(game *g)
{
    int hi = g->computer.strategy == OTHELLO_STRATEGY_CLASSIC ? 9 : 60;
    char line[LINE_CAP];
    bool too_long;
    for (;;) {
        ask(g, "Enter skill level of computer's opponent: ", line, &too_long);
        int level = too_long ? -1 : parse_level(line, 0, hi);
        if (level >= 0) {
            g->stand_in.strategy = g->computer.strategy;
            g->stand_in.level = level;
            g->autoplay = true;
            return;
        }
        printf("Valid values are between 0 and %d.\n", hi);
    }
}

/*
 * The human's turn: reads commands until a move is played, the position
 * changes (undo, redo) or "auto" takes over. Every wrong line is a mistake;
 * the first and then every fifth one points to help, as in the original.
 */
static void human_turn(game *g)
{
    char line[LINE_CAP];
    const char *args;
    bool too_long;
    for (;;) {
        ask(g, "Move: ", line, &too_long);
        if (line[0] == '\0' && !too_long) {
            continue;
        }
        if (same_word(line, "help") || same_word(line, "?")) {
            help(g);
        } else if (same_word(line, "quit") || same_word(line, "stop")) {
            leave(g, false);
        } else if (same_word(line, "instructions")) {
            instructions(g);
        } else if (same_word(line, "printboard")) {
            print_board(g, "Reprint of Board");
        } else if (same_word(line, "suggest")) {
            suggest(g);
        } else if ((args = after_word(line, "book")) != NULL) {
            book_command(g, args);
        } else if (same_word(line, "auto")) {
            start_auto(g);
            return;
        } else if (same_word(line, "log")) {
            print_log(g);
        } else if (same_word(line, "stats")) {
            print_stats(g);
        } else if (same_word(line, "undo")) {
            if (undo(g)) {
                return;
            }
        } else if (same_word(line, "redo")) {
            if (redo(g)) {
                return;
            }
        } else {
            int square = too_long ? -1 : parse_square(g, line);
            if (square >= 0 && othello_board_is_legal(g->board, square)) {
                play(g, square);
                return;
            }
            printf(g->mistakes % 5 == 0 ? "Illegal move - type help for command list\n"
                                        : "Illegal move\n");
            g->mistakes++;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* The game                                                                  */

static void play_game(game *g)
{
    for (;;) {
        if (othello_board_is_game_over(g->board)) {
            break;
        }
        othello_color side = othello_board_side_to_move(g->board);
        if (othello_board_must_pass(g->board)) {
            othello_status st = othello_board_pass(g->board);
            if (st != OTHELLO_STATUS_OK) {
                fail(g, "pass", st);
            }
            if (side == OTHELLO_COLOR_BLACK) {
                printf("Player is forced to pass.\n");
                print_board(g, "X is forced to pass.");
            } else {
                printf("Computer is forced to pass.\n\n");
                print_board(g, "O was forced to pass");
            }
        } else if (side == OTHELLO_COLOR_BLACK && !g->autoplay) {
            human_turn(g);
        } else {
            computer_turn(g, side);
        }
    }

    int you = count(g, OTHELLO_COLOR_BLACK);
    int me = count(g, OTHELLO_COLOR_WHITE);
    printf("\nThe Game is Over.\n\n");
    printf("FINAL TALLY\n");
    printf("You:  %d\n", you);
    printf("Me:   %d\n\n", me);
    if (you > me) {
        printf("You win.\n");
    } else if (me > you) {
        printf("I win.\n");
        printf("One more in the bag for Artificial Intelligence.\n");
    } else {
        printf("A tie.\n");
    }
}

/* ------------------------------------------------------------------------ */
/* Command line                                                              */

static void usage(FILE *out)
{
    fprintf(out,
            "usage: othello [--engine LEVEL] [--standard] [--seed N] [--size N] [--no-book]\n"
            "               [--threads N] [--clock SECONDS] [--ponder]\n"
            "\n"
            "OTHELLO v" GAME_VERSION " by Jonathan Dubman (1986), on the othello library.\n"
            "You play X against the computer's O; type help during the game.\n"
            "\n"
            "  --engine LEVEL  the computer plays the library's engine at LEVEL 0..60\n"
            "                  instead of the 1986 lookahead (skill 0..9); the skill\n"
            "                  question is then not asked\n"
            "  --standard      standard notation: columns a-h across, rows 1-8 down,\n"
            "                  moves typed like f5 (default: the original's, rows A-H\n"
            "                  down, columns 1-8 across, moves like D3)\n"
            "  --seed N        vary the computer's play, reproducibly: the same N and\n"
            "                  the same moves give the same game (ties broken at random;\n"
            "                  the engine picks among moves within a disc of the best)\n"
            "  --size N        play on an NxN board, N even from 4 to 16 (default 8):\n"
            "                  rows A-P down and columns 1-16 across (moves like J10),\n"
            "                  or with --standard columns a-p and rows 1-16 (j10)\n"
            "  --no-book       start with the opening book off (the book command turns\n"
            "                  it on and off during the game); when on, suggest gives\n"
            "                  the book's move while the game is in the book, and the\n"
            "                  engine plays book moves from level 1 up (the 1986 skill\n"
            "                  levels never do)\n"
            "  --threads N     the engine (--engine) searches on N threads, 0..256\n"
            "                  (default 1; 0: one per core): faster on several cores;\n"
            "                  the 1986 skill levels ignore it\n"
            "  --clock SECONDS the engine (--engine) plays on a game clock of SECONDS\n"
            "                  (or m:ss, h:mm:ss; up to 24:00:00) for all its moves: it\n"
            "                  spends a share on each and never runs out (the level\n"
            "                  caps its effort; 60: as much as the clock allows); stats\n"
            "                  shows the time left after every move; 0 (or 0:00) is no\n"
            "                  clock, as a GUI writes it: the level decides\n"
            "  --ponder        the engine (--engine) thinks while you do, on the reply\n"
            "                  it expects: its next move comes sooner, or better on a\n"
            "                  clock (a second core helps)\n"
            "  --help          show this text\n");
}

/* The value of option `name` at argv[*i]: "--name VALUE" or "--name=VALUE". */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
    size_t len = strlen(name);
    const char *arg = argv[*i];
    if (strncmp(arg, name, len) != 0) {
        return NULL;
    }
    if (arg[len] == '=') {
        return arg + len + 1;
    }
    if (arg[len] == '\0' && *i + 1 < argc) {
        return argv[++*i];
    }
    if (arg[len] == '\0') {
        fprintf(stderr, "othello: %s needs a value\n", name);
        usage(stderr);
        exit(2);
    }
    return NULL;
}

static bool parse_u64(const char *text, uint64_t *out)
{
    if (!isdigit((unsigned char)text[0])) {
        return false;
    }
    char *end;
    unsigned long long v = strtoull(text, &end, 10);
    if (*end != '\0') {
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

/* A --clock value, "90", "1:30" or "0:01:30", in seconds up to a day; -1
 * when it is none of these. */
static int64_t parse_clock(const char *text)
{
    int64_t total = 0;
    int parts = 0;
    const char *p = text;
    for (;;) {
        size_t n = strspn(p, "0123456789");
        if (n == 0 || n > 5 || ++parts > 3) {
            return -1;
        }
        total = total * 60 + strtol(p, NULL, 10);
        p += n;
        if (*p == '\0') {
            break;
        }
        if (*p++ != ':') {
            return -1;
        }
    }
    return total <= 86400 ? total : -1;
}

static void parse_args(game *g, int argc, char **argv, bool *engine_given)
{
    const char *value;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            exit(EXIT_SUCCESS);
        } else if (strcmp(argv[i], "--standard") == 0) {
            g->standard = true;
        } else if (strcmp(argv[i], "--no-book") == 0) {
            g->book = false;
        } else if (strcmp(argv[i], "--ponder") == 0) {
            g->ponder = true;
        } else if ((value = option_value(argc, argv, &i, "--engine")) != NULL) {
            int level = parse_level(value, 0, 60);
            if (level < 0) {
                fprintf(stderr, "othello: --engine wants a level 0..60, not '%s'\n", value);
                exit(2);
            }
            g->computer.strategy = OTHELLO_STRATEGY_ENGINE;
            g->computer.level = level;
            *engine_given = true;
        } else if ((value = option_value(argc, argv, &i, "--size")) != NULL) {
            int size = parse_level(value, OTHELLO_SIZE_MIN, OTHELLO_SIZE_MAX);
            if (size < 0 || size % 2 != 0) {
                fprintf(stderr,
                        "othello: --size wants an even number from %d to %d, not '%s'\n",
                        OTHELLO_SIZE_MIN, OTHELLO_SIZE_MAX, value);
                exit(2);
            }
            g->size = size;
        } else if ((value = option_value(argc, argv, &i, "--seed")) != NULL) {
            if (!parse_u64(value, &g->seed)) {
                fprintf(stderr, "othello: --seed wants a number, not '%s'\n", value);
                exit(2);
            }
            g->seeded = true;
        } else if ((value = option_value(argc, argv, &i, "--clock")) != NULL) {
            int64_t secs = parse_clock(value);
            if (secs < 0) {
                fprintf(stderr,
                        "othello: --clock wants seconds, m:ss or h:mm:ss up to 24:00:00 (0: no "
                        "clock), not '%s'\n",
                        value);
                exit(2);
            }
            /* As GUIs write a game without a clock: the level decides. */
            g->clock_ms = secs > 0 ? secs * 1000 : -1;
        } else if ((value = option_value(argc, argv, &i, "--threads")) != NULL) {
            int threads = parse_level(value, 0, 256);
            if (threads < 0) {
                fprintf(stderr, "othello: --threads wants a number 0..256, not '%s'\n", value);
                exit(2);
            }
            g->threads = threads;
        } else {
            fprintf(stderr, "othello: unknown argument '%s'\n", argv[i]);
            usage(stderr);
            exit(2);
        }
    }
}

int main(int argc, char **argv)
{
    game g = {0};
    bool engine_given = false;
    g.size = 8;
    g.book = true;
    g.threads = 1;
    g.clock_ms = -1;
    g.computer.strategy = OTHELLO_STRATEGY_CLASSIC;
    parse_args(&g, argc, argv, &engine_given);

    printf("OTHELLO v%s\nby Jonathan Dubman (1986)\nrecreated on the othello library %s\n",
           GAME_VERSION, othello_version());

    char line[LINE_CAP];
    bool too_long;
    ask(&g, "Do you want instructions? (Y/N) [No] ", line, &too_long);
    if (yes_no(line, false)) {
        instructions(&g);
    }
    ask(&g, "Do you want to go first (Y/N) [Yes] ", line, &too_long);
    bool first = yes_no(line, true);
    if (!engine_given) {
        for (;;) {
            ask(&g, "Skill level 0 (easy,fast) to 9 (hard,slow) [0] ", line, &too_long);
            int level = line[0] == '\0' ? 0 : too_long ? -1 : parse_level(line, 0, 9);
            if (level >= 0) {
                g.computer.level = level;
                break;
            }
            printf("Valid values are between 0 and 9.\n");
        }
    } else {
        printf("Skill level: the library's engine at level %d\n", g.computer.level);
    }

    /* The engine's table matters for the real engine only. */
    g.engine = othello_engine_new(g.computer.strategy == OTHELLO_STRATEGY_ENGINE ? 16 : 1);
    g.board = othello_board_new_sized(g.size);
    if (g.engine == NULL || g.board == NULL) {
        fail(&g, "start", othello_last_status());
    }
    othello_status st = othello_board_to_string(g.board, g.start, sizeof g.start, NULL);
    if (st != OTHELLO_STATUS_OK) {
        fail(&g, "board string", st);
    }
    if (!first) {
        /* The original lets O open from the same start: hand the first move
         * over in the board string. */
        g.start[g.size * g.size + 1] = 'O';
        othello_board_free(g.board);
        g.board = othello_board_from_string(g.start);
        if (g.board == NULL) {
            fail(&g, "board from string", othello_last_status());
        }
    }

    printf("\n");
    print_board(&g, "Beginning new game");
    play_game(&g);
    game_free(&g);
    return EXIT_SUCCESS;
}
