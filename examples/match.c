/*
 * match.c: the computer against itself, as the Connect-4 program of the
 * seeds lets two of its levels play each other.
 *
 *   match engine:4 classic:4 --games 20 --seed 1
 *
 * Two players, each a strategy and a level, play N games. The games come in
 * pairs: each pair starts from the same opening (a few random moves drawn
 * from the seed) with the colours swapped, so neither player gains from the
 * opening or from moving first. It prints a line per game and the total from
 * the first player's side: wins, draws, losses and the average disc
 * difference. The same arguments always give the same games, unless
 * --threads gives the engine players more than one thread each.
 *
 * The engine players play from the library's opening book (or the one of
 * --book-file) as its levels do by default, from level 1 up: --book,
 * --book1 and --book2 turn it on or off for both players or one; the
 * summary tells how many book moves each played.
 *
 * Build and run: make -C examples match && target/examples/match --help
 */

#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "othello.h"

typedef struct {
    char name[32]; /* as typed, for the output */
    othello_strategy strategy;
    int level;
    othello_engine *engine;
    int book;       /* limits.book: -1 the level's default, 0 off, 1 on */
    int book_moves; /* book moves played in the whole match */
    int threads;    /* limits.threads of an engine player's searches */
} player;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: match PLAYER1 PLAYER2 [--games N] [--seed S] [--opening-moves K]\n"
            "             [--book on|off] [--book1 on|off] [--book2 on|off] [--book-file FILE]\n"
            "             [--threads N]\n"
            "\n"
            "Plays N games between two players (default 10), in pairs from the same\n"
            "opening with the colours swapped, and prints W/D/L and the average disc\n"
            "difference from PLAYER1's side.\n"
            "\n"
            "PLAYER is one of:\n"
            "  engine:L    the library's alpha-beta engine at level L (0..60)\n"
            "  classic:D   the 1986 program's lookahead at skill level D (0..9)\n"
            "  corners     the 1986 rule: discs flipped plus a square bonus\n"
            "  greedy      the move flipping the most discs\n"
            "  random      a random legal move\n"
            "\n"
            "  --games N          number of games, 1..10000 (default 10)\n"
            "  --seed S           seed of the openings and of the random player\n"
            "                     (default 1): the same seed replays the same match\n"
            "  --opening-moves K  random moves before the players take over, 0..20\n"
            "                     (default 4)\n"
            "  --book on|off      the opening book of both engine players: on, every\n"
            "                     level plays book moves, 0 included; off, none does\n"
            "                     (default: the levels' own setting, on from level 1)\n"
            "  --book1 on|off     the same for PLAYER1 only\n"
            "  --book2 on|off     the same for PLAYER2 only\n"
            "  --book-file FILE   both engines play from the book in FILE (written by\n"
            "                     othello-book) instead of the library's built-in one\n"
            "  --threads N        threads of each engine player's searches, 0..256\n"
            "                     (default 1; 0: one per core); with more than one the\n"
            "                     same seed may no longer replay the same games\n"
            "  --help             show this text\n");
}

static bool parse_int(const char *text, int lo, int hi, int *out)
{
    if (!isdigit((unsigned char)text[0])) {
        return false;
    }
    char *end;
    long v = strtol(text, &end, 10);
    if (*end != '\0' || v < lo || v > hi) {
        return false;
    }
    *out = (int)v;
    return true;
}

/* "engine:4", "classic:2", "greedy"... into `p`; false if malformed. */
static bool parse_player(const char *text, player *p)
{
    static const struct {
        const char *name;
        othello_strategy strategy;
        int max_level; /* -1: takes no level */
    } kinds[] = {
        {"engine", OTHELLO_STRATEGY_ENGINE, 60},   {"classic", OTHELLO_STRATEGY_CLASSIC, 9},
        {"corners", OTHELLO_STRATEGY_CORNERS, -1}, {"greedy", OTHELLO_STRATEGY_GREEDY, -1},
        {"random", OTHELLO_STRATEGY_RANDOM, -1},
    };
    const char *colon = strchr(text, ':');
    size_t len = colon ? (size_t)(colon - text) : strlen(text);
    if (strlen(text) >= sizeof p->name) {
        return false;
    }
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (strlen(kinds[i].name) != len || strncmp(text, kinds[i].name, len) != 0) {
            continue;
        }
        p->strategy = kinds[i].strategy;
        p->level = 0;
        p->book = -1;
        p->book_moves = 0;
        p->threads = 1;
        if (kinds[i].max_level < 0 ? colon != NULL
                                   : !colon || !parse_int(colon + 1, 0, kinds[i].max_level,
                                                          &p->level)) {
            return false;
        }
        strcpy(p->name, text);
        return true;
    }
    return false;
}

static void die(const char *what, othello_status st)
{
    char detail[256];
    othello_last_error(detail, sizeof detail, NULL);
    fprintf(stderr, "match: %s: %s (%s)\n", what, othello_status_message(st), detail);
    exit(EXIT_FAILURE);
}

/* "on" 1, "off" 0, else -1. */
static int on_off(const char *text)
{
    return strcmp(text, "on") == 0 ? 1 : strcmp(text, "off") == 0 ? 0 : -1;
}

/* Whether `p` plays from its engine's book. */
static bool uses_book(const player *p)
{
    return p->strategy == OTHELLO_STRATEGY_ENGINE && (p->book == 1 || (p->book == -1 && p->level >= 1));
}

/* Plays the move `p` chooses (or the pass it must make). */
static void play_turn(othello_board *b, player *p, uint64_t seed)
{
    othello_search_limits lim;
    othello_search_limits_init(&lim);
    lim.strategy = p->strategy;
    if (p->strategy == OTHELLO_STRATEGY_ENGINE) {
        lim.level = p->level;
        lim.book = p->book;
        lim.threads = p->threads;
    } else if (p->strategy == OTHELLO_STRATEGY_CLASSIC) {
        lim.classic_depth = p->level;
    }
    lim.seed = seed;
    othello_search_result r;
    othello_search_result_init(&r);
    othello_status st = othello_engine_search(p->engine, b, &lim, &r);
    if (st != OTHELLO_STATUS_OK) {
        die("search", st);
    }
    p->book_moves += r.from_book;
    st = r.move == OTHELLO_PASS ? othello_board_pass(b) : othello_board_play(b, r.move, NULL, 0, NULL);
    if (st != OTHELLO_STATUS_OK) {
        die("play", st);
    }
}

/* The opening of pair `pair`: `moves` random moves from the start, drawn
 * with the library's random strategy. */
static othello_board *opening(uint64_t seed, int pair, int moves, othello_engine *e)
{
    othello_board *b = othello_board_new();
    if (b == NULL) {
        die("new board", othello_last_status());
    }
    player chance = {"random", OTHELLO_STRATEGY_RANDOM, 0, e, 0, 0, 1};
    for (int i = 0; i < moves && !othello_board_is_game_over(b); i++) {
        play_turn(b, &chance, seed * 1000003u + (uint64_t)pair * 64u + (uint64_t)i);
    }
    return b;
}

int main(int argc, char **argv)
{
    player players[2];
    int n_players = 0, games = 10, opening_moves = 4, threads = 1;
    int book[2] = {-1, -1}; /* --book, --book1, --book2 */
    const char *book_file = NULL;
    uint64_t seed = 1;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return EXIT_SUCCESS;
        } else if (strcmp(arg, "--games") == 0 && value) {
            if (!parse_int(value, 1, 10000, &games)) {
                fprintf(stderr, "match: --games wants 1..10000, not '%s'\n", value);
                return 2;
            }
            i++;
        } else if (strcmp(arg, "--seed") == 0 && value) {
            char *end;
            unsigned long long v = strtoull(value, &end, 10);
            if (!isdigit((unsigned char)value[0]) || *end != '\0') {
                fprintf(stderr, "match: --seed wants a number, not '%s'\n", value);
                return 2;
            }
            seed = (uint64_t)v;
            i++;
        } else if (strcmp(arg, "--opening-moves") == 0 && value) {
            if (!parse_int(value, 0, 20, &opening_moves)) {
                fprintf(stderr, "match: --opening-moves wants 0..20, not '%s'\n", value);
                return 2;
            }
            i++;
        } else if ((strcmp(arg, "--book") == 0 || strcmp(arg, "--book1") == 0 ||
                    strcmp(arg, "--book2") == 0) &&
                   value) {
            int on = on_off(value);
            if (on < 0) {
                fprintf(stderr, "match: %s wants on or off, not '%s'\n", arg, value);
                return 2;
            }
            if (strcmp(arg, "--book2") != 0) {
                book[0] = on;
            }
            if (strcmp(arg, "--book1") != 0) {
                book[1] = on;
            }
            i++;
        } else if (strcmp(arg, "--book-file") == 0 && value) {
            book_file = value;
            i++;
        } else if (strcmp(arg, "--threads") == 0 && value) {
            if (!parse_int(value, 0, 256, &threads)) {
                fprintf(stderr, "match: --threads wants 0..256, not '%s'\n", value);
                return 2;
            }
            i++;
        } else if (arg[0] != '-' && n_players < 2 && parse_player(arg, &players[n_players])) {
            n_players++;
        } else {
            fprintf(stderr, "match: bad argument '%s'\n", arg);
            usage(stderr);
            return 2;
        }
    }
    if (n_players != 2) {
        fprintf(stderr, "match: two players are needed\n");
        usage(stderr);
        return 2;
    }

    /* One engine per player, so each keeps its own table through a game. */
    for (int i = 0; i < 2; i++) {
        players[i].book = book[i];
        players[i].threads = threads;
        players[i].engine = othello_engine_new(16);
        if (players[i].engine == NULL) {
            die("new engine", othello_last_status());
        }
        if (book_file != NULL &&
            othello_engine_load_book(players[i].engine, book_file) != OTHELLO_STATUS_OK) {
            char detail[256];
            othello_last_error(detail, sizeof detail, NULL);
            fprintf(stderr, "match: --book-file %s: %s\n", book_file, detail);
            for (int j = 0; j <= i; j++) {
                othello_engine_free(players[j].engine);
            }
            return 2;
        }
    }

    int wins = 0, draws = 0, losses = 0;
    long diff_total = 0;
    othello_board *start = NULL;
    for (int g = 0; g < games; g++) {
        int pair = g / 2;
        /* player1 has black in the first game of a pair, white in the second */
        int black = g % 2 == 0 ? 0 : 1;
        if (g % 2 == 0) {
            othello_board_free(start);
            start = opening(seed, pair, opening_moves, players[0].engine);
        }
        othello_board *b = othello_board_clone(start);
        if (b == NULL) {
            die("clone", othello_last_status());
        }
        for (int i = 0; i < 2; i++) {
            othello_engine_clear(players[i].engine);
        }
        while (!othello_board_is_game_over(b)) {
            int mover = othello_board_side_to_move(b) == OTHELLO_COLOR_BLACK ? black : 1 - black;
            play_turn(b, &players[mover], seed + (uint64_t)othello_board_move_number(b));
        }

        char moves[128];
        othello_status st = othello_board_transcript(start, moves, sizeof moves, NULL);
        if (st != OTHELLO_STATUS_OK) {
            die("transcript", st);
        }
        int x = othello_board_count(b, OTHELLO_COLOR_BLACK);
        int o = othello_board_count(b, OTHELLO_COLOR_WHITE);
        int diff = black == 0 ? x - o : o - x; /* player1's discs minus player2's */
        diff_total += diff;
        wins += diff > 0;
        draws += diff == 0;
        losses += diff < 0;
        printf("game %3d  opening %-10s  %s (X) %2d - %2d %s (O)\n", g + 1,
               moves[0] != '\0' ? moves : "-",
               players[black].name, x, o, players[1 - black].name);
        othello_board_free(b);
    }
    othello_board_free(start);

    printf("\n%s vs %s, %d game%s, seed %" PRIu64, players[0].name, players[1].name, games,
           games == 1 ? "" : "s", seed);
    if (threads == 0) {
        printf(", engines on one thread per core");
    } else if (threads > 1) {
        printf(", engines on %d threads", threads);
    }
    printf("\n");
    printf("W/D/L for %s: %d/%d/%d  (%.1f%%)\n", players[0].name, wins, draws, losses,
           100.0 * (wins + 0.5 * draws) / games);
    printf("average disc difference for %s: %+.2f\n", players[0].name, (double)diff_total / games);
    printf("book moves:");
    for (int i = 0; i < 2; i++) {
        const player *p = &players[i];
        printf("%s %s %d (%s)", i == 0 ? "" : ",", p->name, p->book_moves,
               uses_book(p) ? (book_file != NULL ? book_file : "built-in book")
               : p->strategy == OTHELLO_STRATEGY_ENGINE ? "book off"
                                                        : "no book");
    }
    printf("\n");

    for (int i = 0; i < 2; i++) {
        othello_engine_free(players[i].engine);
    }
    return EXIT_SUCCESS;
}
