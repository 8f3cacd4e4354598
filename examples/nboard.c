/*
 * nboard.c: the engine as an NBoard protocol program.
 *
 * NBoard (the Othello GUI) and the tools that speak its protocol start an
 * engine as a child process and talk to it over its standard input and
 * output, one command a line. This program answers them with the othello
 * library's engine, so the library plays in those GUIs and tournament
 * managers. Protocol version 2 (version 1 is accepted):
 *
 *   nboard 2              -> set myname othello<depth>
 *   set depth N           -> set myname othello<N>   (engine level N, 1..60)
 *   set game GGF          the game to think about: board (BO), moves (B/W),
 *                         and its clock (TI, or TB and TW: time/increment/
 *                         extension, with each move's time after its
 *                         evaluation; a clock of nothing, such as TI[0:00],
 *                         is none: the depth decides; see "The game clock")
 *   set movetime S        think at most S seconds a move (0: no limit, the
 *                         default); not NBoard's, for match tools
 *   set contempt N        accepted and kept (centidiscs; see below)
 *   set book 0|1          the opening book off or on (default on, as the
 *                         library's levels play it: not by set movetime
 *                         alone, where searching plays better)
 *   set threads N         threads of every search, 0..256 (0: one per core;
 *                         default 1, or --threads N)
 *   set selectivity N     Multi-ProbCut setting of every search, 0..5 (0:
 *                         most cuts, 5: none), or -1 (the default: the
 *                         level's); not NBoard's, for match tools
 *   set ponder 0|1        think on the opponent's time after each go (off
 *                         unless --ponder); not NBoard's
 *   move MV[/EVAL[/TIME]] a move (or PA, a pass) added to the game
 *   go                    -> status thinking: depth N, clock T s left +
 *                            I s a move (or: no clock), then status,
 *                            nodestats and search lines while it thinks (a
 *                            book line for a book move), then
 *                            === MV/EVAL/TIME (not played)
 *   hint N                -> book PV EVAL 0 0 for the book's moves, best
 *                            first, then search MV EVAL 0 DEPTH for the
 *                            best others, deeper and deeper, N lines in
 *                            all at each depth, then an empty status line
 *   analyze               -> analysis K EVAL for each position of the game,
 *                            from the last (K = turns played before it)
 *   ping N                -> stops any search, then pong N
 *   learn                 -> learned (the library's book is read-only:
 *                            nothing is learned)
 *   quit, or end of input ends the program.
 *
 * Evaluations are in discs from the side to move's point of view (exact at
 * the end of the game); times are seconds; DEPTH is the midgame depth, or
 * the number of empty squares for an exact score. A line this program cannot
 * use is answered with "error <reason>" and otherwise ignored: no input makes
 * it stop. The library has no draw value, so "set contempt" changes nothing
 * in its play.
 *
 * The opening book (the library's built-in one, or the --book-file) answers
 * go and hint in the positions it knows, without searching; its lines are
 * NBoard's book hints, "book PV EVAL GAMES DEPTH", with 0 games and depth 0
 * (the library keeps neither for its book). --no-book or "set book 0"
 * turns it off. As the library's levels, a go under "set movetime" without
 * the game's clock searches instead of playing from the book: the time a
 * book move saves would not come back (docs/guide.md, "The opening book").
 *
 * Searches run on a second thread while this one reads the next commands:
 * "ping" and "quit" stop a running search at once (its result is still sent,
 * before the pong), any other command waits for the search to end.
 *
 *   nboard [--hash MB] [--threads N] [--no-book] [--book-file FILE]
 *          [--weights FILE] [--ponder]
 *                           (NBoard: add the engine with this command line)
 *
 * Build: make -C examples nboard && target/examples/nboard
 */

#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
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
#define MAX_GGF_MOVES 128
/* The longest time, in seconds, a clock or a move may have: a year. */
#define MAX_SECONDS (366.0 * 86400)
/* How often a stop request is repeated until the search ends (ns). */
#ifndef NBOARD_STOP_PAUSE_NS
#define NBOARD_STOP_PAUSE_NS (2 * 1000 * 1000)
#endif

/* ------------------------------------------------------------------------
 * Output: whole lines, flushed at once, from either thread. */

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

/* Where the replies go: standard output unless set (the fuzz target
 * fuzz/nboard.c, which includes this file, sends them to a memory stream). */
static FILE *reply_stream;

static void sendf(const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&out_lock);
    FILE *out = reply_stream != NULL ? reply_stream : stdout;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
    fflush(out);
    pthread_mutex_unlock(&out_lock);
}

/* "error <reason>": the line was not used. */
static void send_error(const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    /* Keep the reply on one line whatever the input held. */
    for (char *p = text; *p; p++) {
        if (*p == '\n' || *p == '\r' || (unsigned char)*p < 0x20) {
            *p = ' ';
        }
    }
    sendf("error %s", text);
}

/* The library's detail message of the last failure on this thread. */
static const char *last_error(void)
{
    static _Thread_local char text[256];
    if (othello_last_error(text, sizeof text, NULL) != OTHELLO_STATUS_OK) {
        snprintf(text, sizeof text, "%s", othello_status_message(othello_last_status()));
    }
    return text;
}

/* A move as NBoard writes it: "f5", or "PA" for a pass. */
static const char *move_name(int sq, char buf[3])
{
    if (sq == OTHELLO_PASS || othello_square_name(sq, buf, 3) != OTHELLO_STATUS_OK) {
        return "PA";
    }
    return buf;
}

/* ------------------------------------------------------------------------
 * Parsing helpers */

static bool parse_long(const char *text, long lo, long hi, long *out)
{
    if (text == NULL || *text == '\0') {
        return false;
    }
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || end == text || v < lo || v > hi) {
        return false;
    }
    *out = v;
    return true;
}

static bool parse_double(const char *text, double *out)
{
    if (text == NULL || *text == '\0' || isspace((unsigned char)*text)) {
        return false;
    }
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno != 0 || *end != '\0' || v != v) {
        return false;
    }
    *out = v;
    return true;
}

static bool is_pass_name(const char *s)
{
    static const char *const names[] = {"pa", "ps", "pass", "--", "-1"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        bool same = strlen(s) == n;
        for (size_t j = 0; same && j < n; j++) {
            same = tolower((unsigned char)s[j]) == names[i][j];
        }
        if (same) {
            return true;
        }
    }
    return false;
}

/* A move token, "f5", "F5/1.50/0.3" or "PA", into *sq (OTHELLO_PASS for a
 * pass) and *seconds (the time taken, 0 when not given). The evaluation and
 * time, when present, must be numbers, the time not negative. */
static bool parse_timed_move(const char *token, int *sq, double *seconds, char *why, size_t why_len)
{
    *seconds = 0;
    char text[64];
    if (strlen(token) >= sizeof text) {
        snprintf(why, why_len, "move too long");
        return false;
    }
    strcpy(text, token);
    char *extra = strchr(text, '/');
    if (extra != NULL) {
        *extra++ = '\0';
        char *time_part = strchr(extra, '/');
        if (time_part != NULL) {
            *time_part++ = '\0';
        }
        double v;
        if ((*extra != '\0' && !parse_double(extra, &v)) ||
            (time_part != NULL && *time_part != '\0' && (!parse_double(time_part, seconds) || !(*seconds >= 0 && *seconds <= MAX_SECONDS)))) {
            snprintf(why, why_len, "\"%s\": the evaluation and time after the move must be numbers", token);
            return false;
        }
    }
    if (is_pass_name(text)) {
        *sq = OTHELLO_PASS;
        return true;
    }
    if (othello_square_parse(text, sq) != OTHELLO_STATUS_OK) {
        snprintf(why, why_len, "\"%s\" is not a move (a1..h8 or PA)", text);
        return false;
    }
    return true;
}

static bool parse_move(const char *token, int *sq, char *why, size_t why_len)
{
    double seconds;
    return parse_timed_move(token, sq, &seconds, why, why_len);
}

/* ------------------------------------------------------------------------
 * The game clock, as GGF records it: TI[time/increment/extension] for both
 * sides (or TB[...] and TW[...] for each), times as seconds, m:ss or
 * h:mm:ss, any part empty for none, and the time each move took after its
 * evaluation. A side's time left is its time, less what its moves took,
 * plus an increment for each; once that is spent, the extension (GGS's
 * overtime) is added. GUIs write TI[0:00] (or TI[0]) for a game without a
 * clock: a clock of no time, no increment and no extension is none, and the
 * level decides. One of only an increment gives the coming move its
 * increment too, or the engine would have no time for its first move. */

struct game_clock {
    bool known[2];     /* black, white */
    double time[2];    /* seconds for the game */
    double increment[2];
    double extension[2];
    double used[2];    /* by the moves of the record so far */
    int moves[2];
};

static int clock_side(othello_color c)
{
    return c == OTHELLO_COLOR_BLACK ? 0 : 1;
}

/* "90", "1:30" or "0:01:30" into seconds. */
static bool parse_clock_time(const char *text, double *out)
{
    double total = 0;
    int parts = 0;
    const char *p = text;
    for (;;) {
        char piece[32];
        size_t n = strcspn(p, ":");
        if (n == 0 || n >= sizeof piece || ++parts > 3) {
            return false;
        }
        memcpy(piece, p, n);
        piece[n] = '\0';
        double v;
        if (!parse_double(piece, &v) || !(v >= 0 && v <= MAX_SECONDS)) {
            return false;
        }
        total = total * 60 + v;
        p += n;
        if (*p == '\0') {
            break;
        }
        p++;
    }
    if (total > MAX_SECONDS) {
        return false;
    }
    *out = total;
    return true;
}

/* A TI/TB/TW value, "time[/increment[/extension]]", for the sides in
 * `sides` (bit 0 black, bit 1 white). */
static bool parse_clock(const char *tag, const char *value, int sides, struct game_clock *clock, char *why,
                        size_t why_len)
{
    char text[96];
    double parts[3] = {0, 0, 0};
    if (strlen(value) >= sizeof text) {
        snprintf(why, why_len, "%s[%.20s...] is too long for a clock", tag, value);
        return false;
    }
    strcpy(text, value);
    char *rest = text;
    for (int i = 0; rest != NULL; i++) {
        char *slash = strchr(rest, '/');
        if (slash != NULL) {
            *slash = '\0';
        }
        if (i == 3) {
            snprintf(why, why_len, "%s[%.40s]: a clock is time/increment/extension, no more", tag, value);
            return false;
        }
        if (*rest != '\0' && !parse_clock_time(rest, &parts[i])) {
            snprintf(why, why_len, "%s[%.40s]: \"%.20s\" is not a time (seconds, m:ss or h:mm:ss)", tag, value,
                     rest);
            return false;
        }
        rest = slash != NULL ? slash + 1 : NULL;
    }
    for (int side = 0; side < 2; side++) {
        if (sides & (1 << side)) {
            clock->known[side] = parts[0] > 0 || parts[1] > 0 || parts[2] > 0;
            clock->time[side] = parts[0];
            clock->increment[side] = parts[1];
            clock->extension[side] = parts[2];
        }
    }
    return true;
}

/* The time left of `side`'s clock in seconds, or -1 when the game has none. */
static double clock_left(const struct game_clock *clock, int side)
{
    if (!clock->known[side]) {
        return -1;
    }
    int credited = clock->moves[side];
    if (clock->time[side] == 0 && clock->extension[side] == 0) {
        credited++; /* only an increment: the coming move's too */
    }
    double left = clock->time[side] - clock->used[side] + clock->increment[side] * credited;
    if (left <= 0) {
        left += clock->extension[side];
    }
    return left > 0 ? left : 0;
}

/* Plays `sq` (or passes) on `b`. When the side to move has no move but the
 * GUI sent the other side's move, the pass is implied. On failure `b` is
 * unchanged and `why` says what was wrong. */
static bool apply_move(othello_board **b, int sq, char *why, size_t why_len)
{
    char name[3];
    if (othello_board_is_game_over(*b)) {
        snprintf(why, why_len, "%s after the end of the game", move_name(sq, name));
        return false;
    }
    if (sq == OTHELLO_PASS) {
        if (othello_board_pass(*b) != OTHELLO_STATUS_OK) {
            snprintf(why, why_len, "cannot pass: %s", last_error());
            return false;
        }
        return true;
    }
    if (othello_board_must_pass(*b)) {
        othello_board *next = othello_board_clone(*b);
        if (next == NULL || othello_board_pass(next) != OTHELLO_STATUS_OK ||
            othello_board_play(next, sq, NULL, 0, NULL) != OTHELLO_STATUS_OK) {
            snprintf(why, why_len, "illegal move %s: %s", move_name(sq, name), last_error());
            othello_board_free(next);
            return false;
        }
        othello_board_free(*b);
        *b = next;
        return true;
    }
    if (othello_board_play(*b, sq, NULL, 0, NULL) != OTHELLO_STATUS_OK) {
        snprintf(why, why_len, "illegal move %s: %s", move_name(sq, name), last_error());
        return false;
    }
    return true;
}

/* ------------------------------------------------------------------------
 * GGF: "(;GM[Othello]PC[..]PB[..]PW[..]TY[8]BO[8 <64 squares> <side>]
 *        B[F5]W[D6/0.5/1.2]...;)". Squares in BO go a1..h8 by rows, `*`
 * black, `O` white, `-` empty; the side to move is `*` or `O`. Moves may be
 * PA (a pass); other properties are skipped. */

struct ggf_move {
    othello_color color;
    int square;
};

static othello_board *parse_ggf(const char *text, struct game_clock *clock, char *why, size_t why_len)
{
    struct game_clock record = {0};
    const char *p = text;
    while (isspace((unsigned char)*p)) {
        p++;
    }
    if (strncmp(p, "(;", 2) != 0) {
        snprintf(why, why_len, "a GGF game starts with \"(;\"");
        return NULL;
    }
    p += 2;
    char board_text[67] = {0};
    bool have_board = false, closed = false;
    struct ggf_move moves[MAX_GGF_MOVES];
    size_t n_moves = 0;
    char value[256];
    while (*p) {
        while (isspace((unsigned char)*p) || *p == ';') {
            p++;
        }
        if (*p == ')') {
            closed = true;
            p++;
            break;
        }
        if (*p == '\0') {
            break;
        }
        char tag[9];
        size_t t = 0;
        while (isupper((unsigned char)*p) && t < sizeof tag - 1) {
            tag[t++] = *p++;
        }
        tag[t] = '\0';
        if (t == 0 || *p != '[') {
            snprintf(why, why_len, "malformed GGF near \"%.20s\"", p);
            return NULL;
        }
        p++;
        size_t v = 0;
        bool long_value = false;
        while (*p && *p != ']') {
            if (*p == '\\' && p[1] != '\0') {
                p++;
            }
            if (v < sizeof value - 1) {
                value[v++] = *p;
            } else {
                long_value = true;
            }
            p++;
        }
        value[v] = '\0';
        if (*p != ']') {
            snprintf(why, why_len, "GGF property %s[ is not closed", tag);
            return NULL;
        }
        p++;
        if (strcmp(tag, "GM") == 0) {
            if (strcmp(value, "Othello") != 0 && strcmp(value, "othello") != 0) {
                snprintf(why, why_len, "GM[%.40s] is not an Othello game", value);
                return NULL;
            }
        } else if (strcmp(tag, "TY") == 0) {
            const char *d = value;
            while (*d && !isdigit((unsigned char)*d)) {
                d++;
            }
            if (strtol(d, NULL, 10) != 8) {
                snprintf(why, why_len, "TY[%.40s]: only 8x8 boards are supported", value);
                return NULL;
            }
        } else if (strcmp(tag, "BO") == 0) {
            if (long_value) {
                snprintf(why, why_len, "BO[...] is too long");
                return NULL;
            }
            const char *b = value;
            while (isspace((unsigned char)*b)) {
                b++;
            }
            if (b[0] != '8' || !isspace((unsigned char)b[1])) {
                snprintf(why, why_len, "BO[%.20s...]: only 8x8 boards are supported", value);
                return NULL;
            }
            b += 2;
            size_t squares = 0;
            char side = 0;
            for (; *b; b++) {
                char c = *b;
                if (isspace((unsigned char)c)) {
                    continue;
                }
                char mapped = c == '*' || c == 'X' || c == 'x' || c == 'B' ? 'X'
                            : c == 'O' || c == 'o' || c == 'W'             ? 'O'
                            : c == '-' || c == '.'                         ? '-'
                                                                           : 0;
                if (mapped == 0) {
                    snprintf(why, why_len, "BO[...]: '%c' is not a square (*, O or -)", c);
                    return NULL;
                }
                if (squares < 64) {
                    board_text[squares++] = mapped;
                } else if (side == 0 && mapped != '-') {
                    side = mapped;
                } else {
                    snprintf(why, why_len, "BO[...]: too many squares");
                    return NULL;
                }
            }
            if (squares < 64 || side == 0) {
                snprintf(why, why_len, "BO[...]: %zu squares%s; 64 and the side to move (* or O) needed",
                         squares, side ? "" : " and no side to move");
                return NULL;
            }
            board_text[64] = ' ';
            board_text[65] = side;
            board_text[66] = '\0';
            have_board = true;
        } else if (strcmp(tag, "B") == 0 || strcmp(tag, "W") == 0) {
            if (n_moves == MAX_GGF_MOVES) {
                snprintf(why, why_len, "too many moves");
                return NULL;
            }
            int sq;
            double took;
            char move_why[160];
            if (!parse_timed_move(value, &sq, &took, move_why, sizeof move_why)) {
                snprintf(why, why_len, "move %zu: %s", n_moves + 1, move_why);
                return NULL;
            }
            moves[n_moves].color = tag[0] == 'B' ? OTHELLO_COLOR_BLACK : OTHELLO_COLOR_WHITE;
            moves[n_moves].square = sq;
            n_moves++;
            record.used[clock_side(moves[n_moves - 1].color)] += took;
            record.moves[clock_side(moves[n_moves - 1].color)]++;
        } else if (strcmp(tag, "TI") == 0 || strcmp(tag, "TB") == 0 || strcmp(tag, "TW") == 0) {
            int sides = tag[1] == 'I' ? 3 : tag[1] == 'B' ? 1 : 2;
            if (!parse_clock(tag, value, sides, &record, why, why_len)) {
                return NULL;
            }
        }
        /* Every other property (PC, DT, PB, PW, RE, TM, KM, C, ...) is
         * about the players: skipped. */
    }
    if (!closed) {
        snprintf(why, why_len, "a GGF game ends with \")\"");
        return NULL;
    }
    while (isspace((unsigned char)*p)) {
        p++;
    }
    if (*p != '\0') {
        snprintf(why, why_len, "text after the end of the game: \"%.20s\"", p);
        return NULL;
    }
    othello_board *b = have_board ? othello_board_from_string(board_text) : othello_board_new();
    if (b == NULL) {
        snprintf(why, why_len, "BO[...]: %s", last_error());
        return NULL;
    }
    for (size_t i = 0; i < n_moves; i++) {
        char move_why[200], name[3];
        othello_color side = othello_board_side_to_move(b);
        if (moves[i].color != side && !othello_board_is_game_over(b) && othello_board_must_pass(b)) {
            /* A pass left out of the record. */
            othello_board_pass(b);
            side = othello_board_side_to_move(b);
        }
        if (moves[i].color != side) {
            snprintf(why, why_len, "move %zu (%s %s): %s is to move", i + 1,
                     moves[i].color == OTHELLO_COLOR_BLACK ? "B" : "W", move_name(moves[i].square, name),
                     side == OTHELLO_COLOR_BLACK ? "black" : "white");
            othello_board_free(b);
            return NULL;
        }
        if (moves[i].square != OTHELLO_PASS && othello_board_must_pass(b)) {
            /* Not for apply_move(), whose implied pass would give the move
             * to the other colour than the record says. */
            snprintf(why, why_len, "move %zu (%s %s): %s has no legal move", i + 1,
                     moves[i].color == OTHELLO_COLOR_BLACK ? "B" : "W", move_name(moves[i].square, name),
                     side == OTHELLO_COLOR_BLACK ? "black" : "white");
            othello_board_free(b);
            return NULL;
        }
        if (!apply_move(&b, moves[i].square, move_why, sizeof move_why)) {
            snprintf(why, why_len, "move %zu: %s", i + 1, move_why);
            othello_board_free(b);
            return NULL;
        }
    }
    if (clock != NULL) {
        *clock = record;
    }
    return b;
}

/* ------------------------------------------------------------------------
 * The session and its search thread */

enum job_kind { JOB_GO, JOB_HINT, JOB_ANALYZE };

struct session {
    othello_board *game;
    othello_engine *engine;
    int level;
    double contempt;
    int version;
    bool book; /* play and hint from the engine's opening book */
    int threads; /* limits.threads of every search */
    int selectivity; /* limits.selectivity of every search (-1: the level's) */
    double movetime; /* "set movetime": seconds a move, 0 for none */
    bool ponder; /* think on the opponent's time after each go */
    struct game_clock clock; /* from the game's GGF and the moves since */

    /* The job on the search thread: its own copy of the game. */
    bool running;
    pthread_t thread;
    atomic_bool done;
    atomic_bool cancel;
    atomic_bool answered; /* the job's answer is out: only the pondering is left */
    enum job_kind kind;
    othello_board *job_board;
    int hints;
};

static double seconds(uint64_t ms)
{
    return (double)ms / 1000.0;
}

/* A principal variation as NBoard writes it, "f5d6c3", into `out`
 * (2 * OTHELLO_PV_MAX + 1 bytes); its length. */
static size_t pv_text(const int *pv, size_t n, char *out)
{
    size_t len = 0;
    for (size_t i = 0; i < n && i < OTHELLO_PV_MAX; i++) {
        char name[3];
        memcpy(out + len, move_name(pv[i], name), 2);
        len += 2;
    }
    out[len] = '\0';
    return len;
}

/* A book hint: the book's line `pv` and its value. The library keeps no
 * game counts and no search depth for its book: both are sent as 0. */
static void send_book_line(const int *pv, size_t n, int score)
{
    char text[2 * OTHELLO_PV_MAX + 1];
    pv_text(pv, n, text);
    sendf("book %s %.2f 0 0", text, (double)score);
}

/* Progress of a "go" search: thinking output as for hints. */
static void on_progress(const othello_search_progress *p, void *userdata)
{
    struct session *s = userdata;
    if (atomic_load(&s->cancel)) {
        othello_engine_stop(s->engine);
        return;
    }
    char pv[2 * OTHELLO_PV_MAX + 1];
    size_t len = pv_text(p->pv, p->pv_len, pv);
    char name[3];
    sendf("nodestats %" PRIu64 " %.3f", p->nodes, seconds(p->elapsed_ms));
    sendf("search %s %.2f 0 %d", len > 0 ? pv : move_name(p->best_move, name), (double)p->score, p->depth);
    sendf("status thinking: %s %s%.0f at depth %d, %" PRIu64 " nodes", move_name(p->best_move, name),
          p->score >= 0 ? "+" : "", (double)p->score, p->depth, p->nodes);
}

static void limits_for(struct session *s, int level, othello_search_limits *lim, bool progress)
{
    othello_search_limits_init(lim);
    lim->level = level;
    lim->book = s->book ? -1 : 0; /* on: as the level plays it */
    lim->threads = s->threads;
    lim->selectivity = s->selectivity;
    if (progress) {
        lim->progress = on_progress;
        lim->userdata = s;
    }
}

/* The final disc difference for the side to move (empties to the winner). */
static int final_score(const othello_board *b)
{
    othello_color me = othello_board_side_to_move(b);
    othello_color you = me == OTHELLO_COLOR_BLACK ? OTHELLO_COLOR_WHITE : OTHELLO_COLOR_BLACK;
    int diff = othello_board_count(b, me) - othello_board_count(b, you);
    int empties = othello_board_count(b, OTHELLO_COLOR_EMPTY);
    return diff > 0 ? diff + empties : diff < 0 ? diff - empties : 0;
}

static void ponder_after(struct session *s, const othello_board *b, int move, const othello_search_limits *lim);

static void job_go(struct session *s)
{
    othello_board *b = s->job_board;
    if (othello_board_must_pass(b)) {
        sendf("=== PA");
        return;
    }
    othello_search_limits lim;
    limits_for(s, s->level, &lim, true);
    /* The level caps the effort; the time, when there is one, decides. */
    if (s->movetime > 0) {
        /* Rounded, not truncated: 1.001 s is 1,001 ms, though 1.001 * 1000
         * lies just below 1001 in binary. */
        lim.time_limit_ms = (int64_t)(s->movetime * 1000 + 0.5);
        if (lim.time_limit_ms < 1) {
            lim.time_limit_ms = 1;
        }
    }
    int side = clock_side(othello_board_side_to_move(b));
    double left = clock_left(&s->clock, side);
    if (left >= 0) {
        lim.clock_remaining_ms = (int64_t)(left * 1000);
        lim.clock_increment_ms = (int64_t)(s->clock.increment[side] * 1000);
    }
    /* What the search goes by, for the GUI's status bar. */
    char limit[64] = "";
    if (s->movetime > 0) {
        snprintf(limit, sizeof limit, ", at most %.3f s a move", s->movetime);
    }
    if (left < 0) {
        sendf("status thinking: depth %d%s, no clock", s->level, limit);
    } else {
        sendf("status thinking: depth %d%s, clock %.3f s left + %.3f s a move", s->level, limit,
              seconds((uint64_t)lim.clock_remaining_ms), seconds((uint64_t)lim.clock_increment_ms));
    }
    othello_search_result r;
    othello_search_result_init(&r);
    if (othello_engine_search(s->engine, b, &lim, &r) != OTHELLO_STATUS_OK) {
        send_error("go: %s", last_error());
        return;
    }
    if (r.from_book) {
        send_book_line(r.pv, r.pv_len, r.score);
    }
    char name[3];
    sendf("=== %s/%.2f/%.3f", move_name(r.move, name), (double)r.score, seconds(r.elapsed_ms));
    /* A ping now must not stop the pondering that starts here. */
    atomic_store(&s->answered, true);
    if (s->ponder) {
        if (lim.clock_remaining_ms >= 0) {
            /* The clock as it will stand at the next go. */
            int64_t spent = (int64_t)r.elapsed_ms - lim.clock_increment_ms;
            lim.clock_remaining_ms = lim.clock_remaining_ms > spent ? lim.clock_remaining_ms - spent : 0;
        }
        ponder_after(s, b, r.move, &lim);
    }
}

/* Thinks on the opponent's time after `move` in `b` under `lim` (the
 * next go's limits): the library's thread searches the reply it expects
 * until the next command that uses the engine. Silent: a failure only
 * costs the pondering. */
static void ponder_after(struct session *s, const othello_board *b, int move, const othello_search_limits *lim)
{
    othello_board *after = othello_board_clone(b);
    if (after == NULL) {
        return;
    }
    if (othello_board_play(after, move, NULL, 0, NULL) == OTHELLO_STATUS_OK && !othello_board_is_game_over(after)) {
        othello_engine_ponder(s->engine, after, lim, NULL);
    }
    othello_board_free(after);
}

/* The moves the book knows in `b` (none when it is off), best first, into
 * `moves` (64); their number, or -1 after an error sent for `what`. */
static int book_moves(struct session *s, const othello_board *b, othello_move_score moves[64],
                      const char *what)
{
    size_t n = 0;
    if (!s->book) {
        return 0;
    }
    if (othello_engine_book_moves(s->engine, b, moves, 64, &n) != OTHELLO_STATUS_OK) {
        send_error("%s: %s", what, last_error());
        return -1;
    }
    return (int)n;
}

/* The book's line from `b` that starts with `first`: `first`, then the
 * book's best move after it, and so on while the book knows the position.
 * Into `pv` (OTHELLO_PV_MAX); its length, or 0 after an error sent. */
static size_t book_line(struct session *s, const othello_board *b, int first, int *pv)
{
    othello_board *line = othello_board_clone(b);
    othello_move_score moves[64];
    size_t len = 0;
    int move = first;
    if (line == NULL) {
        send_error("hint: %s", last_error());
        return 0;
    }
    while (len < OTHELLO_PV_MAX && othello_board_play(line, move, NULL, 0, NULL) == OTHELLO_STATUS_OK) {
        pv[len++] = move;
        int n = book_moves(s, line, moves, "hint");
        if (n < 0) {
            len = 0;
        }
        if (n <= 0) {
            break;
        }
        move = moves[0].move;
    }
    othello_board_free(line);
    return len;
}

static bool among(const othello_move_score *moves, int n, int square)
{
    for (int i = 0; i < n; i++) {
        if (moves[i].move == square) {
            return true;
        }
    }
    return false;
}

static void job_hint(struct session *s)
{
    othello_board *b = s->job_board;
    othello_search_limits lim;
    int empties = othello_board_count(b, OTHELLO_COLOR_EMPTY);
    if (othello_board_must_pass(b)) {
        othello_search_result r;
        othello_search_result_init(&r);
        limits_for(s, s->level, &lim, false);
        if (othello_engine_search(s->engine, b, &lim, &r) != OTHELLO_STATUS_OK) {
            send_error("hint: %s", last_error());
            return;
        }
        sendf("search PA %.2f 0 %d", (double)r.score, r.exact ? empties : r.depth);
        return;
    }
    /* The book's moves first, as it values them: no search for them. */
    othello_move_score booked[64];
    int n_book = book_moves(s, b, booked, "hint");
    if (n_book < 0) {
        return;
    }
    for (int i = 0; i < n_book && i < s->hints; i++) {
        int pv[OTHELLO_PV_MAX];
        size_t len = book_line(s, b, booked[i].move, pv);
        if (len == 0) {
            return;
        }
        send_book_line(pv, len, booked[i].score);
    }
    int wanted = s->hints - n_book;
    if (wanted <= 0 || othello_board_legal_moves(b, NULL, 0) <= (size_t)n_book) {
        return;
    }
    /* The others deeper and deeper: levels 1, 2, ... up to the one set,
     * each scoring every move; stops early once the scores are exact. */
    othello_move_score scores[64];
    for (int level = 1; level <= s->level && !atomic_load(&s->cancel); level++) {
        size_t n = 0;
        limits_for(s, level, &lim, false);
        sendf("status thinking: hints at depth %d", level);
        if (othello_engine_analyze(s->engine, b, &lim, scores, 64, &n) != OTHELLO_STATUS_OK) {
            if (!atomic_load(&s->cancel)) {
                send_error("hint: %s", last_error());
            }
            return;
        }
        if (atomic_load(&s->cancel)) {
            return;
        }
        int sent = 0;
        for (size_t i = 0; i < n && sent < wanted; i++) {
            char name[3];
            if (among(booked, n_book, scores[i].move)) {
                continue;
            }
            sendf("search %s %.2f 0 %d", move_name(scores[i].move, name), (double)scores[i].score,
                  scores[i].exact ? empties : level);
            sent++;
        }
        if (n > 0 && scores[0].exact) {
            break;
        }
    }
}

/* Each position of the game, from the last back to the first (the engine's
 * table then already knows the endgame when it reaches the middle). */
static void job_analyze(struct session *s)
{
    othello_board *b = s->job_board;
    int turns = othello_board_move_number(b) - 1;
    for (int k = turns; k >= 0 && !atomic_load(&s->cancel); k--) {
        if (k < turns && othello_board_undo(b) != OTHELLO_STATUS_OK) {
            send_error("analyze: %s", last_error());
            return;
        }
        sendf("status analyzing: position %d of %d", turns - k + 1, turns + 1);
        int score;
        if (othello_board_is_game_over(b)) {
            score = final_score(b);
        } else {
            othello_search_limits lim;
            othello_search_result r;
            othello_search_result_init(&r);
            limits_for(s, s->level, &lim, false);
            if (othello_engine_search(s->engine, b, &lim, &r) != OTHELLO_STATUS_OK) {
                send_error("analyze: %s", last_error());
                return;
            }
            if (r.stopped) {
                return;
            }
            score = r.score;
        }
        sendf("analysis %d %.2f", k, (double)score);
    }
}

static void *search_thread(void *arg)
{
    struct session *s = arg;
    switch (s->kind) {
    case JOB_GO:
        job_go(s);
        break;
    case JOB_HINT:
        job_hint(s);
        break;
    case JOB_ANALYZE:
        job_analyze(s);
        break;
    }
    sendf("status");
    atomic_store(&s->done, true);
    return NULL;
}

/* Waits for the running job; with `stop`, stops it first. A stop request
 * is repeated until the job ends: the library ignores one that comes before
 * the search thread has called othello_engine_search(). */
static void finish_job(struct session *s, bool stop)
{
    if (!s->running) {
        return;
    }
    if (stop) {
        atomic_store(&s->cancel, true);
        const struct timespec pause = {0, NBOARD_STOP_PAUSE_NS};
        while (!atomic_load(&s->done)) {
            if (!atomic_load(&s->answered)) {
                othello_engine_stop(s->engine);
            }
            nanosleep(&pause, NULL);
        }
    }
    pthread_join(s->thread, NULL);
    othello_board_free(s->job_board);
    s->job_board = NULL;
    s->running = false;
}

static void start_job(struct session *s, enum job_kind kind, const char *what)
{
    if (kind != JOB_ANALYZE && othello_board_is_game_over(s->game)) {
        send_error("%s: the game is over", what);
        return;
    }
    s->job_board = othello_board_clone(s->game);
    if (s->job_board == NULL) {
        send_error("%s: %s", what, last_error());
        return;
    }
    s->kind = kind;
    atomic_store(&s->done, false);
    atomic_store(&s->cancel, false);
    atomic_store(&s->answered, false);
    if (pthread_create(&s->thread, NULL, search_thread, s) != 0) {
        send_error("%s: cannot start the search thread", what);
        othello_board_free(s->job_board);
        s->job_board = NULL;
        return;
    }
    s->running = true;
}

/* ------------------------------------------------------------------------
 * Commands */

static void set_name(const struct session *s)
{
    sendf("set myname " NAME "%d", s->level);
}

/* The next whitespace-separated word of *p, NUL-terminated in place. */
static char *next_word(char **p)
{
    char *s = *p;
    while (isspace((unsigned char)*s)) {
        s++;
    }
    if (*s == '\0') {
        *p = s;
        return NULL;
    }
    char *word = s;
    while (*s && !isspace((unsigned char)*s)) {
        s++;
    }
    if (*s) {
        *s++ = '\0';
    }
    *p = s;
    return word;
}

static char *rest_of(char *p)
{
    while (isspace((unsigned char)*p)) {
        p++;
    }
    size_t n = strlen(p);
    while (n > 0 && isspace((unsigned char)p[n - 1])) {
        p[--n] = '\0';
    }
    return p;
}

static void cmd_set(struct session *s, char *args)
{
    char *what = next_word(&args);
    char *value = rest_of(args);
    long v;
    if (what == NULL) {
        send_error("set: what? (depth, game, movetime, contempt, book, threads, selectivity, ponder)");
    } else if (strcmp(what, "depth") == 0) {
        if (!parse_long(value, 1, 60, &v)) {
            send_error("set depth: \"%.40s\" is not a depth 1..60", value);
            return;
        }
        s->level = (int)v;
        set_name(s);
    } else if (strcmp(what, "game") == 0) {
        char why[256];
        struct game_clock clock;
        othello_board *b = parse_ggf(value, &clock, why, sizeof why);
        if (b == NULL) {
            send_error("set game: %s", why);
            return;
        }
        othello_board_free(s->game);
        s->game = b;
        s->clock = clock;
    } else if (strcmp(what, "movetime") == 0) {
        double t;
        if (!parse_double(value, &t) || !(t >= 0 && t <= 86400)) {
            send_error("set movetime: \"%.40s\" is not a number of seconds 0..86400 (0: none)", value);
            return;
        }
        s->movetime = t;
    } else if (strcmp(what, "contempt") == 0) {
        double c;
        if (!parse_double(value, &c) || c < -6400 || c > 6400) {
            send_error("set contempt: \"%.40s\" is not a number of centidiscs", value);
            return;
        }
        s->contempt = c;
    } else if (strcmp(what, "book") == 0) {
        if (!parse_long(value, 0, 1, &v)) {
            send_error("set book: \"%.40s\" is not 0 (off) or 1 (on)", value);
            return;
        }
        s->book = v == 1;
    } else if (strcmp(what, "threads") == 0) {
        if (!parse_long(value, 0, 256, &v)) {
            send_error("set threads: \"%.40s\" is not 0..256 (0: one per core)", value);
            return;
        }
        s->threads = (int)v;
    } else if (strcmp(what, "selectivity") == 0) {
        if (!parse_long(value, -1, 5, &v)) {
            send_error("set selectivity: \"%.40s\" is not -1..5 (-1: the level's, 5: none)", value);
            return;
        }
        s->selectivity = (int)v;
    } else if (strcmp(what, "ponder") == 0) {
        if (!parse_long(value, 0, 1, &v)) {
            send_error("set ponder: \"%.40s\" is not 0 or 1", value);
            return;
        }
        s->ponder = v == 1;
        if (!s->ponder) {
            othello_engine_stop(s->engine);
        }
    } else {
        send_error("set %.40s: unknown setting", what);
    }
}

static void cmd_move(struct session *s, const char *token)
{
    int sq;
    char why[200];
    if (token == NULL || *token == '\0') {
        send_error("move: which move?");
        return;
    }
    double took;
    if (!parse_timed_move(token, &sq, &took, why, sizeof why)) {
        send_error("move: %s", why);
        return;
    }
    int side = clock_side(othello_board_side_to_move(s->game));
    bool must_pass = othello_board_must_pass(s->game);
    if (!apply_move(&s->game, sq, why, sizeof why)) {
        send_error("move: %s", why);
        return;
    }
    /* An implied pass gives the move to the other side. */
    if (must_pass && sq != OTHELLO_PASS) {
        side = 1 - side;
    }
    s->clock.used[side] += took;
    s->clock.moves[side]++;
}

/* One input line; false to end the program. */
static bool handle(struct session *s, char *line)
{
    char *p = line;
    char *cmd = next_word(&p);
    if (cmd == NULL) {
        return true; /* a blank line */
    }
    if (strcmp(cmd, "ping") == 0) {
        finish_job(s, true);
        char *n = next_word(&p);
        long v;
        if (n == NULL || !parse_long(n, LONG_MIN, LONG_MAX, &v) || next_word(&p) != NULL) {
            send_error("ping: a number is needed");
            return true;
        }
        sendf("pong %ld", v);
        return true;
    }
    if (strcmp(cmd, "quit") == 0) {
        finish_job(s, true);
        return false;
    }
    finish_job(s, false);
    long v;
    if (strcmp(cmd, "nboard") == 0) {
        char *version = next_word(&p);
        if (version == NULL || !parse_long(version, 1, 2, &v)) {
            send_error("nboard: protocol version %.20s is not supported (1 or 2)", version ? version : "?");
            return true;
        }
        s->version = (int)v;
        set_name(s);
    } else if (strcmp(cmd, "set") == 0) {
        cmd_set(s, p);
    } else if (strcmp(cmd, "move") == 0) {
        cmd_move(s, rest_of(p));
    } else if (strcmp(cmd, "go") == 0) {
        start_job(s, JOB_GO, "go");
    } else if (strcmp(cmd, "hint") == 0) {
        char *n = next_word(&p);
        if (n == NULL || !parse_long(n, 1, 1000, &v)) {
            send_error("hint: how many moves? (hint N, N >= 1)");
            return true;
        }
        s->hints = (int)v;
        start_job(s, JOB_HINT, "hint");
    } else if (strcmp(cmd, "analyze") == 0) {
        start_job(s, JOB_ANALYZE, "analyze");
    } else if (strcmp(cmd, "learn") == 0) {
        sendf("learned");
    } else {
        /* Protocol version 1 sent a bare move ("F5"). */
        int sq;
        char why[200];
        if (strlen(cmd) == 2 && next_word(&p) == NULL && parse_move(cmd, &sq, why, sizeof why)) {
            if (!apply_move(&s->game, sq, why, sizeof why)) {
                send_error("move: %s", why);
            }
            return true;
        }
        send_error("unknown command \"%.40s\"", cmd);
    }
    return true;
}

/* One line as read, `len` bytes (with its newline, if any) and a NUL after
 * them; false to end the program. */
static bool handle_input(struct session *s, char *line, size_t len)
{
    if (memchr(line, '\0', len) != NULL) {
        finish_job(s, false);
        send_error("a line with a NUL byte");
        return true;
    }
    return handle(s, line);
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: nboard [--hash MB] [--threads N] [--no-book] [--book-file FILE]\n"
            "              [--weights FILE] [--ponder]\n"
            "\n"
            "The othello engine as an NBoard protocol program: commands on standard\n"
            "input (nboard, set depth, set game, set movetime, set contempt, set book,\n"
            "set threads, set selectivity, set ponder, move, go, hint, analyze, ping,\n"
            "learn, quit),\n"
            "replies on standard output.\n"
            "Add it to NBoard or a tournament manager as an engine with this command\n"
            "line.\n"
            "\n"
            "It plays by the clock of the game the GUI sends (GGF's TI, or TB and TW:\n"
            "time/increment/extension, as seconds, m:ss or h:mm:ss; the extension\n"
            "once the time is spent). A clock of nothing (no time, increment or\n"
            "extension), such as TI[0:00], is no clock: set depth alone decides.\n"
            "go's first status line says which clock it plays by.\n"
            "\n"
            "  --hash MB         transposition table size in MiB (default 64)\n"
            "  --threads N       search with N threads, 0..256 (default 1; 0: one per\n"
            "                    core); set threads N changes it\n"
            "  --no-book         start with the opening book off (set book 1 turns it\n"
            "                    on): every move is searched\n"
            "  --book-file FILE  play from the book in FILE (written by othello-book)\n"
            "                    instead of the library's built-in one\n"
            "  --weights FILE    evaluate with the weights in FILE (written by\n"
            "                    othello-train) instead of the built-in ones\n"
            "  --ponder          think on the opponent's time: after each move, search\n"
            "                    the reply it expects until the next go (a second core\n"
            "                    helps); set ponder 0/1 changes it\n"
            "  --help            show this text\n");
}

/* The program: engine.h says what it takes. */
int nboard_main(int argc, char **argv, char *first_line, size_t first_len)
{
    size_t hash_mb = 64;
    bool book = true;
    bool ponder = false;
    int threads = 1;
    const char *book_file = NULL;
    const char *weights_file = NULL;
    for (int i = 1; i < argc; i++) {
        long v;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            return EXIT_SUCCESS;
        } else if (strcmp(argv[i], "--hash") == 0 && i + 1 < argc && parse_long(argv[i + 1], 1, 65536, &v)) {
            hash_mb = (size_t)v;
            i++;
        } else if (strcmp(argv[i], "--threads") == 0) {
            if (i + 1 >= argc || !parse_long(argv[i + 1], 0, 256, &v)) {
                fprintf(stderr, "nboard: --threads wants a number 0..256 (0: one per core)\n");
                return 2;
            }
            threads = (int)v;
            i++;
        } else if (strcmp(argv[i], "--no-book") == 0) {
            book = false;
        } else if (strcmp(argv[i], "--ponder") == 0) {
            ponder = true;
        } else if (strcmp(argv[i], "--book-file") == 0 && i + 1 < argc) {
            book_file = argv[++i];
        } else if (strcmp(argv[i], "--weights") == 0 && i + 1 < argc) {
            weights_file = argv[++i];
        } else {
            usage(stderr);
            return 2;
        }
    }
    /* A GUI that went away must not kill us while we write. */
    signal(SIGPIPE, SIG_IGN);

    struct session s = {0};
    s.level = DEFAULT_LEVEL;
    s.book = book;
    s.ponder = ponder;
    s.threads = threads;
    s.selectivity = -1;
    s.game = othello_board_new();
    s.engine = othello_engine_new(hash_mb);
    atomic_init(&s.done, true);
    atomic_init(&s.cancel, false);
    atomic_init(&s.answered, false);
    if (s.game == NULL || s.engine == NULL) {
        fprintf(stderr, "nboard: %s\n", last_error());
        return EXIT_FAILURE;
    }
    /* The files of the command line: the option whose file failed, if any. */
    const char *failed = NULL, *file = NULL;
    if (book_file != NULL && othello_engine_load_book(s.engine, book_file) != OTHELLO_STATUS_OK) {
        failed = "--book-file";
        file = book_file;
    } else if (weights_file != NULL &&
               othello_engine_load_weights(s.engine, weights_file) != OTHELLO_STATUS_OK) {
        failed = "--weights";
        file = weights_file;
    }
    if (failed != NULL) {
        fprintf(stderr, "nboard: %s %s: %s\n", failed, file, last_error());
        othello_engine_free(s.engine);
        othello_board_free(s.game);
        return 2;
    }

    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    bool more = first_line == NULL || handle_input(&s, first_line, first_len);
    while (more && (len = getline(&line, &cap, stdin)) != -1) {
        more = handle_input(&s, line, (size_t)len);
    }
    finish_job(&s, true);
    free(line);
    othello_engine_free(s.engine);
    othello_board_free(s.game);
    return EXIT_SUCCESS;
}

/* Behind engine.c's front (othello-engine), the front has the main. */
#ifndef OTHELLO_ENGINE_FRONT
int main(int argc, char **argv)
{
    return nboard_main(argc, argv, NULL, 0);
}
#endif
