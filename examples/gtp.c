/*
 * gtp.c: the engine as a Go Text Protocol (GTP 2) program, as Othello
 * engines speak it (Edax's -gtp mode is the model).
 *
 * GoGui, Quarry and tournament scripts start a GTP engine as a child process
 * and send it one command a line on its standard input; each answer is
 * "=[id] result" or "?[id] message" on standard output, followed by an empty
 * line. A command may start with a number, its id, which the answer repeats;
 * text after '#' and empty lines are ignored. Commands:
 *
 *   protocol_version, name, version, known_command C, list_commands
 *   boardsize N          even N from 4 to 16: a new game on that board
 *                        ("? unacceptable size" otherwise)
 *   clear_board          a new game on the board of the current size
 *   komi K               accepted and ignored (Othello has no komi)
 *   play C V             C is b, black, w or white; V a square (d3, D3,
 *                        j10 on 10x10: columns a.. without a gap at i, as
 *                        Othello writes them) or pass
 *   genmove C            the engine's move for C, played on the board:
 *                        its square, or pass
 *   undo                 takes back the last play or genmove
 *   showboard            the board, row 1 at the top, X black, O white
 *   final_score          B+N, W+N or 0: the disc difference, the empty
 *                        squares to the side ahead (the score if the game
 *                        ended now)
 *   time_settings M B S  M seconds for the game, then B seconds for each S
 *                        moves (Canadian byo-yomi); B 0 is M alone; 0 0 0,
 *                        or S 0 with B > 0, is no time limit
 *   time_left C T S      C's time left: T seconds for S moves (S 0: T is
 *                        main time)
 *   list_games, set_game Othello   as Quarry asks them
 *   quit
 *
 * Whose turn it is, is fixed by the game: play and genmove for the colour
 * not to move get "? wrong color", with two exceptions, both passes the
 * rules make: when the side to move has no legal move, a move for the other
 * colour passes for it first (as Edax does; undo takes both back), and once
 * the game is over "play C pass" and "genmove C" (which answers pass) are
 * accepted for either colour and change nothing, so a GUI can end the game
 * with two passes. A pass by a side that has a move is an illegal move.
 *
 * It plays by the clock of time_settings and time_left (the library's game
 * clock, with --level capping the effort), and by --level alone otherwise.
 * Without time_left it counts its own thinking time against its clock.
 *
 * With --ponder it thinks on the opponent's time: after each genmove, on
 * the library's thread, until the next genmove.
 *
 *   gtp [--level N] [--hash MB] [--threads N] [--no-book] [--book-file FILE]
 *       [--weights FILE] [--ponder]
 *
 * Build: make -C examples gtp && target/examples/gtp
 */

#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "othello.h"

#define NAME "othello"
#define DEFAULT_LEVEL 10
/* The longest time, in seconds, a clock may hold: a year. */
#define MAX_SECONDS (366.0 * 86400)

static const char *const COMMANDS[] = {
    "protocol_version", "name",      "version",     "known_command", "list_commands", "boardsize",
    "clear_board",      "komi",      "play",        "genmove",       "undo",          "showboard",
    "final_score",      "time_settings", "time_left", "list_games",  "set_game",      "quit",
};
#define N_COMMANDS (sizeof COMMANDS / sizeof COMMANDS[0])

/* ------------------------------------------------------------------------
 * Answers: "=id text" or "?id text", then an empty line; a space after
 * the id even when the text is empty, as GNU Go and Edax write it. */

static void answer(bool ok, const char *id, const char *fmt, ...)
{
    char text[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    /* An empty line would end the answer early. */
    for (char *p = text; *p; p++) {
        if ((unsigned char)*p < 0x20 && *p != '\n') {
            *p = ' ';
        }
    }
    for (char *p = strstr(text, "\n\n"); p != NULL; p = strstr(p, "\n\n")) {
        p[1] = ' ';
    }
    printf("%c%s %s\n\n", ok ? '=' : '?', id, text);
    fflush(stdout);
}

/* The library's detail message of the last failure. */
static const char *last_error(void)
{
    static char text[256];
    if (othello_last_error(text, sizeof text, NULL) != OTHELLO_STATUS_OK) {
        snprintf(text, sizeof text, "%s", othello_status_message(othello_last_status()));
    }
    return text;
}

/* ------------------------------------------------------------------------
 * Parsing (as examples/nboard.c does) */

static bool parse_long(const char *text, long lo, long hi, long *out)
{
    if (text == NULL || *text == '\0') {
        return false;
    }
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi) {
        return false;
    }
    *out = v;
    return true;
}

/* Seconds, 0 .. MAX_SECONDS. */
static bool parse_seconds(const char *text, double *out)
{
    if (text == NULL || *text == '\0' || isspace((unsigned char)*text)) {
        return false;
    }
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno != 0 || *end != '\0' || !(v >= 0 && v <= MAX_SECONDS)) {
        return false;
    }
    *out = v;
    return true;
}

/* The next space-separated word of *p, NUL-terminated in place. */
static char *next_word(char **p)
{
    char *s = *p;
    while (*s == ' ') {
        s++;
    }
    if (*s == '\0') {
        *p = s;
        return NULL;
    }
    char *word = s;
    while (*s && *s != ' ') {
        s++;
    }
    if (*s) {
        *s++ = '\0';
    }
    *p = s;
    return word;
}

/* The arguments of a command into `args` (at most `max`); their number, or
 * max + 1 when there are more. */
static int split_args(char *p, char **args, int max)
{
    int n = 0;
    char *w;
    while ((w = next_word(&p)) != NULL) {
        if (n == max) {
            return max + 1;
        }
        args[n++] = w;
    }
    return n;
}

static bool same_text(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) {
            return false;
        }
    }
    return *a == *b;
}

/* b, black, w, white in any case; OTHELLO_COLOR_EMPTY otherwise. */
static othello_color parse_color(const char *text)
{
    if (same_text(text, "b") || same_text(text, "black")) {
        return OTHELLO_COLOR_BLACK;
    }
    if (same_text(text, "w") || same_text(text, "white")) {
        return OTHELLO_COLOR_WHITE;
    }
    return OTHELLO_COLOR_EMPTY;
}

static const char *color_name(othello_color c)
{
    return c == OTHELLO_COLOR_BLACK ? "black" : "white";
}

/* ------------------------------------------------------------------------
 * The clock of time_settings and time_left, per colour: main time, then
 * byo-yomi periods of `byo_time` seconds for `byo_stones` moves. */

struct clock {
    bool on;
    double byo_time;
    int byo_stones;
    /* per colour, black then white */
    double main_left[2];
    bool in_byo[2];
    double period_left[2];
    int stones_left[2];
};

static int side_of(othello_color c)
{
    return c == OTHELLO_COLOR_BLACK ? 0 : 1;
}

static void clock_set(struct clock *k, double main_time, double byo_time, int byo_stones)
{
    /* GTP: B > 0 with S 0 is no time limit; so is no time at all. */
    k->on = !((byo_time > 0 && byo_stones == 0) || (main_time == 0 && byo_time == 0));
    k->byo_time = byo_time;
    k->byo_stones = byo_stones;
    for (int i = 0; i < 2; i++) {
        k->main_left[i] = main_time;
        k->in_byo[i] = main_time == 0;
        k->period_left[i] = byo_time;
        k->stones_left[i] = byo_stones;
    }
}

/* The seconds the search may plan with for the rest of the game. The
 * library's clock never spends more than half of what it is given, so the
 * time of the current period alone always lasts. */
static double clock_pool(const struct clock *k, int side)
{
    if (k->in_byo[side]) {
        return k->period_left[side];
    }
    return k->main_left[side] + (k->byo_stones > 0 ? k->byo_time : 0);
}

/* Counts `seconds` of thinking and one move on `side`'s clock. */
static void clock_spend(struct clock *k, int side, double seconds)
{
    if (!k->in_byo[side]) {
        k->main_left[side] -= seconds;
        if (k->main_left[side] >= 0 || k->byo_stones == 0) {
            if (k->main_left[side] < 0) {
                k->main_left[side] = 0;
            }
            return;
        }
        /* Into byo-yomi with what the main time did not cover. */
        seconds = -k->main_left[side];
        k->main_left[side] = 0;
        k->in_byo[side] = true;
        k->period_left[side] = k->byo_time;
        k->stones_left[side] = k->byo_stones;
    }
    k->period_left[side] -= seconds;
    if (k->period_left[side] < 0) {
        k->period_left[side] = 0;
    }
    if (--k->stones_left[side] <= 0) {
        k->period_left[side] = k->byo_time;
        k->stones_left[side] = k->byo_stones;
    }
}

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ------------------------------------------------------------------------
 * The session */

struct session {
    othello_board *game;
    othello_engine *engine;
    int size;
    int level;
    bool book;
    bool ponder; /* think on the opponent's time after each genmove */
    int threads;
    struct clock clock;
    /* The library turns each accepted play or genmove made, for undo: 1, 2
     * with an implied pass, 0 for a pass after the end of the game. */
    unsigned char *turns;
    size_t n_turns, cap_turns;
};

static bool push_turns(struct session *s, unsigned char n)
{
    if (s->n_turns == s->cap_turns) {
        size_t cap = s->cap_turns ? 2 * s->cap_turns : 256;
        unsigned char *more = realloc(s->turns, cap);
        if (more == NULL) {
            return false;
        }
        s->turns = more;
        s->cap_turns = cap;
    }
    s->turns[s->n_turns++] = n;
    return true;
}

static bool new_game(struct session *s, int size)
{
    othello_board *b = othello_board_new_sized(size);
    if (b == NULL) {
        return false;
    }
    othello_board_free(s->game);
    s->game = b;
    s->size = size;
    s->n_turns = 0;
    othello_engine_clear(s->engine);
    return true;
}

/* A square name, or "pass". */
static const char *vertex_name(const struct session *s, int sq, char buf[4])
{
    if (sq == OTHELLO_PASS || othello_square_name_sized(s->size, sq, buf, 4) != OTHELLO_STATUS_OK) {
        return "pass";
    }
    return buf;
}

/* The turns that bring `color` to move, on `b`: none when it is to move,
 * one pass when the side to move has no move; -1 when it may not move. */
static int passes_before(const othello_board *b, othello_color color)
{
    if (othello_board_side_to_move(b) == color) {
        return 0;
    }
    return othello_board_must_pass(b) ? 1 : -1;
}

/* A copy of the game with `color` to move, after the pass the rules make
 * for the other side (counted in *passes): a refused move then leaves the
 * game as it was. NULL, with the answer given, when `color` may not move or
 * the copy fails. */
static othello_board *copy_to_move(struct session *s, const char *id, othello_color color, int *passes)
{
    *passes = passes_before(s->game, color);
    if (*passes < 0) {
        answer(false, id, "wrong color (%s is to move)", color_name(othello_board_side_to_move(s->game)));
        return NULL;
    }
    othello_board *next = othello_board_clone(s->game);
    if (next == NULL || (*passes == 1 && othello_board_pass(next) != OTHELLO_STATUS_OK)) {
        othello_board_free(next);
        answer(false, id, "%s", last_error());
        return NULL;
    }
    return next;
}

static void cmd_play(struct session *s, const char *id, char **args, int n)
{
    othello_color color = n == 2 ? parse_color(args[0]) : OTHELLO_COLOR_EMPTY;
    if (color == OTHELLO_COLOR_EMPTY) {
        answer(false, id, "syntax error (play <color> <vertex|pass>)");
        return;
    }
    int sq = OTHELLO_PASS;
    if (!same_text(args[1], "pass") && othello_square_parse_sized(s->size, args[1], &sq) != OTHELLO_STATUS_OK) {
        answer(false, id, "syntax error (invalid vertex %.20s)", args[1]);
        return;
    }
    if (othello_board_is_game_over(s->game)) {
        if (sq != OTHELLO_PASS) {
            answer(false, id, "illegal move (the game is over)");
        } else if (!push_turns(s, 0)) {
            answer(false, id, "out of memory");
        } else {
            answer(true, id, "");
        }
        return;
    }
    int passes;
    othello_board *next = copy_to_move(s, id, color, &passes);
    if (next == NULL) {
        return;
    }
    othello_status st = sq == OTHELLO_PASS ? othello_board_pass(next) : othello_board_play(next, sq, NULL, 0, NULL);
    if (st != OTHELLO_STATUS_OK) {
        othello_board_free(next);
        answer(false, id, "illegal move (%s)", last_error());
        return;
    }
    if (!push_turns(s, (unsigned char)(1 + passes))) {
        othello_board_free(next);
        answer(false, id, "out of memory");
        return;
    }
    othello_board_free(s->game);
    s->game = next;
    answer(true, id, "");
}

static void cmd_genmove(struct session *s, const char *id, char **args, int n)
{
    othello_color color = n == 1 ? parse_color(args[0]) : OTHELLO_COLOR_EMPTY;
    if (color == OTHELLO_COLOR_EMPTY) {
        answer(false, id, "syntax error (genmove <color>)");
        return;
    }
    if (othello_board_is_game_over(s->game)) {
        if (!push_turns(s, 0)) {
            answer(false, id, "out of memory");
            return;
        }
        answer(true, id, "pass");
        return;
    }
    int passes;
    othello_board *next = copy_to_move(s, id, color, &passes);
    if (next == NULL) {
        return;
    }
    othello_search_limits lim;
    othello_search_limits_init(&lim);
    lim.level = s->level;
    lim.book = s->book ? -1 : 0;
    lim.threads = s->threads;
    int side = side_of(color);
    if (s->clock.on) {
        lim.clock_remaining_ms = (int64_t)(clock_pool(&s->clock, side) * 1000);
    }
    double start = now_seconds();
    othello_search_result r;
    othello_search_result_init(&r);
    if (othello_engine_search(s->engine, next, &lim, &r) != OTHELLO_STATUS_OK) {
        othello_board_free(next);
        answer(false, id, "%s", last_error());
        return;
    }
    othello_status st = r.move == OTHELLO_PASS ? othello_board_pass(next)
                                               : othello_board_play(next, r.move, NULL, 0, NULL);
    if (st != OTHELLO_STATUS_OK || !push_turns(s, (unsigned char)(1 + passes))) {
        othello_board_free(next);
        answer(false, id, "%s", st != OTHELLO_STATUS_OK ? last_error() : "out of memory");
        return;
    }
    if (s->clock.on) {
        clock_spend(&s->clock, side, now_seconds() - start);
    }
    othello_board_free(s->game);
    s->game = next;
    char name[4];
    answer(true, id, "%s", vertex_name(s, r.move, name));
    if (s->ponder && !othello_board_is_game_over(s->game)) {
        /* Until the next genmove (or quit), on the reply it expects; a
         * failure only costs the pondering. */
        if (s->clock.on) {
            lim.clock_remaining_ms = (int64_t)(clock_pool(&s->clock, side) * 1000);
        }
        othello_engine_ponder(s->engine, s->game, &lim, NULL);
    }
}

static void cmd_undo(struct session *s, const char *id)
{
    if (s->n_turns == 0) {
        answer(false, id, "cannot undo");
        return;
    }
    unsigned char n = s->turns[--s->n_turns];
    for (unsigned char i = 0; i < n; i++) {
        othello_board_undo(s->game);
    }
    answer(true, id, "");
}

/* The final disc difference as GTP writes a score: B+N, W+N or 0. */
static void cmd_final_score(struct session *s, const char *id)
{
    int black = othello_board_count(s->game, OTHELLO_COLOR_BLACK);
    int white = othello_board_count(s->game, OTHELLO_COLOR_WHITE);
    int empties = othello_board_count(s->game, OTHELLO_COLOR_EMPTY);
    int diff = black - white;
    if (diff == 0) {
        answer(true, id, "0");
    } else {
        answer(true, id, "%c+%d", diff > 0 ? 'B' : 'W', (diff > 0 ? diff : -diff) + empties);
    }
}

static void cmd_showboard(struct session *s, const char *id)
{
    /* 18 lines of at most 3 * 16 + 8 characters, and the last line. */
    char text[1536];
    size_t len = 0;
    int size = s->size;
    len += (size_t)snprintf(text + len, sizeof text - len, "\n   ");
    for (int c = 0; c < size; c++) {
        len += (size_t)snprintf(text + len, sizeof text - len, " %c", 'a' + c);
    }
    for (int r = 0; r < size; r++) {
        len += (size_t)snprintf(text + len, sizeof text - len, "\n%3d", r + 1);
        for (int c = 0; c < size; c++) {
            othello_color d = othello_board_get(s->game, r * size + c);
            bool legal = othello_board_is_legal(s->game, r * size + c);
            char mark = d == OTHELLO_COLOR_BLACK ? 'X' : d == OTHELLO_COLOR_WHITE ? 'O' : legal ? '.' : '-';
            len += (size_t)snprintf(text + len, sizeof text - len, " %c", mark);
        }
        len += (size_t)snprintf(text + len, sizeof text - len, " %d", r + 1);
    }
    len += (size_t)snprintf(text + len, sizeof text - len, "\n   ");
    for (int c = 0; c < size; c++) {
        len += (size_t)snprintf(text + len, sizeof text - len, " %c", 'a' + c);
    }
    const char *state = othello_board_is_game_over(s->game) ? "game over"
                        : othello_board_side_to_move(s->game) == OTHELLO_COLOR_BLACK ? "black to move"
                                                                                      : "white to move";
    snprintf(text + len, sizeof text - len, "\nX (black) %d, O (white) %d, %s",
             othello_board_count(s->game, OTHELLO_COLOR_BLACK), othello_board_count(s->game, OTHELLO_COLOR_WHITE),
             state);
    answer(true, id, "%s", text);
}

static bool known(const char *name)
{
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (strcmp(name, COMMANDS[i]) == 0) {
            return true;
        }
    }
    return false;
}

/* One command, id and comment taken off; false to end the program. */
static bool handle(struct session *s, const char *id, const char *cmd, char *rest)
{
    char *args[4];
    int n = split_args(rest, args, 3);
    long v;
    double t[3];
    if (strcmp(cmd, "quit") == 0) {
        answer(true, id, "");
        return false;
    } else if (!known(cmd)) {
        answer(false, id, "unknown command");
    } else if (strcmp(cmd, "play") == 0) {
        cmd_play(s, id, args, n);
    } else if (strcmp(cmd, "genmove") == 0) {
        cmd_genmove(s, id, args, n);
    } else if (strcmp(cmd, "known_command") == 0) {
        if (n != 1) {
            answer(false, id, "syntax error (known_command <name>)");
        } else {
            answer(true, id, "%s", known(args[0]) ? "true" : "false");
        }
    } else if (strcmp(cmd, "time_settings") == 0) {
        long stones;
        if (n != 3 || !parse_seconds(args[0], &t[0]) || !parse_seconds(args[1], &t[1]) ||
            !parse_long(args[2], 0, 100000, &stones)) {
            answer(false, id, "syntax error (time_settings <main s> <byo-yomi s> <byo-yomi stones>)");
            return true;
        }
        clock_set(&s->clock, t[0], t[1], (int)stones);
        answer(true, id, "");
    } else if (strcmp(cmd, "time_left") == 0) {
        othello_color c = n == 3 ? parse_color(args[0]) : OTHELLO_COLOR_EMPTY;
        long stones;
        if (c == OTHELLO_COLOR_EMPTY || !parse_seconds(args[1], &t[0]) || !parse_long(args[2], 0, 100000, &stones)) {
            answer(false, id, "syntax error (time_left <color> <seconds> <stones>)");
            return true;
        }
        int side = side_of(c);
        s->clock.in_byo[side] = stones > 0;
        if (stones > 0) {
            s->clock.main_left[side] = 0;
            s->clock.period_left[side] = t[0];
            s->clock.stones_left[side] = (int)stones;
        } else {
            s->clock.main_left[side] = t[0];
        }
        answer(true, id, "");
    } else if (n > (strcmp(cmd, "boardsize") == 0 || strcmp(cmd, "komi") == 0 || strcmp(cmd, "set_game") == 0)) {
        /* The commands below take no argument, or these three one. */
        answer(false, id, "syntax error (too many arguments)");
    } else if (strcmp(cmd, "protocol_version") == 0) {
        answer(true, id, "2");
    } else if (strcmp(cmd, "name") == 0) {
        answer(true, id, NAME);
    } else if (strcmp(cmd, "version") == 0) {
        answer(true, id, "%s", othello_version());
    } else if (strcmp(cmd, "list_commands") == 0) {
        char text[512] = "";
        for (size_t i = 0; i < N_COMMANDS; i++) {
            strcat(text, COMMANDS[i]);
            strcat(text, i + 1 < N_COMMANDS ? "\n" : "");
        }
        answer(true, id, "%s", text);
    } else if (strcmp(cmd, "boardsize") == 0) {
        const char *digits = n == 1 ? args[0] + (args[0][0] == '-' || args[0][0] == '+') : "";
        if (*digits == '\0' || strspn(digits, "0123456789") != strlen(digits)) {
            answer(false, id, "syntax error (boardsize <size>)");
        } else if (!parse_long(args[0], OTHELLO_SIZE_MIN, OTHELLO_SIZE_MAX, &v) || v % 2 != 0 || !new_game(s, (int)v)) {
            answer(false, id, "unacceptable size");
        } else {
            answer(true, id, "");
        }
    } else if (strcmp(cmd, "clear_board") == 0) {
        if (!new_game(s, s->size)) {
            answer(false, id, "%s", last_error());
        } else {
            answer(true, id, "");
        }
    } else if (strcmp(cmd, "komi") == 0) {
        if (n != 1 || !parse_seconds(args[0][0] == '-' ? args[0] + 1 : args[0], &t[0])) {
            answer(false, id, "syntax error (komi <number>)");
        } else {
            answer(true, id, "");
        }
    } else if (strcmp(cmd, "undo") == 0) {
        cmd_undo(s, id);
    } else if (strcmp(cmd, "showboard") == 0) {
        cmd_showboard(s, id);
    } else if (strcmp(cmd, "final_score") == 0) {
        cmd_final_score(s, id);
    } else if (strcmp(cmd, "list_games") == 0) {
        answer(true, id, "Othello");
    } else if (n == 1 && same_text(args[0], "othello")) { /* set_game */
        answer(true, id, "");
    } else {
        answer(false, id, "unsupported game");
    }
    return true;
}

/* One input line as GTP 2 reads it: control characters other than tab
 * dropped, tabs as spaces, '#' to the end a comment; then an optional id.
 * False to end the program. */
static bool handle_line(struct session *s, char *line, size_t len)
{
    size_t w = 0;
    for (size_t i = 0; i < len && line[i] != '#'; i++) {
        unsigned char c = (unsigned char)line[i];
        if (c == '\t') {
            line[w++] = ' ';
        } else if (c >= 0x20 && c != 0x7f) {
            line[w++] = (char)c;
        }
    }
    line[w] = '\0';
    char *p = line;
    char *word = next_word(&p);
    if (word == NULL) {
        return true;
    }
    char id[24] = "";
    if (isdigit((unsigned char)*word)) {
        long v;
        if (!parse_long(word, 0, 999999999, &v)) {
            answer(false, "", "syntax error (an id is a number)");
            return true;
        }
        snprintf(id, sizeof id, "%ld", v);
        word = next_word(&p);
        if (word == NULL) {
            answer(false, id, "unknown command");
            return true;
        }
    }
    return handle(s, id, word, p);
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gtp [--level N] [--hash MB] [--threads N] [--no-book] [--book-file FILE]\n"
            "           [--weights FILE] [--ponder]\n"
            "\n"
            "The othello engine as a Go Text Protocol (GTP 2) program, as Othello\n"
            "engines speak it: commands on standard input (protocol_version, name,\n"
            "version, known_command, list_commands, boardsize 4..16, clear_board, komi,\n"
            "play, genmove, undo, showboard, final_score, time_settings, time_left,\n"
            "list_games, set_game, quit), answers on standard output.\n"
            "Add it to GoGui or Quarry as a GTP engine with this command line.\n"
            "\n"
            "It plays by the clock of time_settings and time_left, the level capping\n"
            "the effort (--level 60: the clock alone decides), and by the level\n"
            "otherwise.\n"
            "\n"
            "  --level N         engine level 1..60 (default 10)\n"
            "  --hash MB         transposition table size in MiB (default 64)\n"
            "  --threads N       search with N threads, 0..256 (default 1; 0: one per\n"
            "                    core)\n"
            "  --no-book         no opening book: every move is searched\n"
            "  --book-file FILE  play from the book in FILE (written by othello-book)\n"
            "                    instead of the library's built-in one\n"
            "  --weights FILE    evaluate with the weights in FILE (written by\n"
            "                    othello-train) instead of the built-in ones\n"
            "  --ponder          think on the opponent's time: after each genmove,\n"
            "                    search the reply it expects until the next one (a\n"
            "                    second core helps)\n"
            "  --help            show this text\n");
}

/* The program: engine.h says what it takes. */
int gtp_main(int argc, char **argv, char *first_line, size_t first_len)
{
    size_t hash_mb = 64;
    struct session s = {0};
    s.level = DEFAULT_LEVEL;
    s.book = true;
    s.threads = 1;
    const char *book_file = NULL;
    const char *weights_file = NULL;
    for (int i = 1; i < argc; i++) {
        long v;
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return EXIT_SUCCESS;
        } else if (strcmp(arg, "--level") == 0 && parse_long(value, 1, 60, &v)) {
            s.level = (int)v;
        } else if (strcmp(arg, "--hash") == 0 && parse_long(value, 1, 65536, &v)) {
            hash_mb = (size_t)v;
        } else if (strcmp(arg, "--threads") == 0 && parse_long(value, 0, 256, &v)) {
            s.threads = (int)v;
        } else if (strcmp(arg, "--book-file") == 0 && value != NULL) {
            book_file = value;
        } else if (strcmp(arg, "--weights") == 0 && value != NULL) {
            weights_file = value;
        } else if (strcmp(arg, "--no-book") == 0) {
            s.book = false;
            continue;
        } else if (strcmp(arg, "--ponder") == 0) {
            s.ponder = true;
            continue;
        } else {
            usage(stderr);
            return 2;
        }
        i++;
    }
    s.engine = othello_engine_new(hash_mb);
    if (s.engine == NULL || !new_game(&s, 8)) {
        fprintf(stderr, "gtp: %s\n", last_error());
        othello_engine_free(s.engine);
        return EXIT_FAILURE;
    }
    const char *failed = NULL, *file = NULL;
    if (book_file != NULL && othello_engine_load_book(s.engine, book_file) != OTHELLO_STATUS_OK) {
        failed = "--book-file";
        file = book_file;
    } else if (weights_file != NULL && othello_engine_load_weights(s.engine, weights_file) != OTHELLO_STATUS_OK) {
        failed = "--weights";
        file = weights_file;
    }
    if (failed != NULL) {
        fprintf(stderr, "gtp: %s %s: %s\n", failed, file, last_error());
        othello_engine_free(s.engine);
        othello_board_free(s.game);
        return 2;
    }

    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    bool more = first_line == NULL || handle_line(&s, first_line, first_len);
    while (more && (len = getline(&line, &cap, stdin)) != -1) {
        more = handle_line(&s, line, (size_t)len);
    }
    free(line);
    free(s.turns);
    othello_engine_free(s.engine);
    othello_board_free(s.game);
    return EXIT_SUCCESS;
}

/* Behind engine.c's front (othello-engine), the front has the main. */
#ifndef OTHELLO_ENGINE_FRONT
int main(int argc, char **argv)
{
    return gtp_main(argc, argv, NULL, 0);
}
#endif
