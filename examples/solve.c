/*
 * solve.c: the exact score and best move of endgame positions.
 *
 *   solve tests/data/fforum-1-19.obf
 *   echo '<64 squares> X' | solve
 *
 * Each input line is a position as a board string (64 squares a1..h8 of X, O
 * or -, a space, the side to move X or O), optionally followed, as in .obf
 * files, by "; " and scored moves ("G8:+18; H1:+12; ..."). The engine solves
 * it to the end (level -1: a midgame depth of 6 to order moves, exact from 60
 * empties) and prints the best move, the exact score (final disc difference
 * for the side to move, empties to the winner), the time and the nodes; when
 * the line lists scores, whether the best of them agrees. --threads N
 * searches with N threads (0: one per core); the scores stay exact.
 *
 * Exit status: 0 when every score agrees, 1 on a disagreement, 2 on bad
 * input or arguments.
 *
 * Build and run: make -C examples solve && target/examples/solve --help
 */

#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "othello.h"

#define LINE_CAP 1024

static void usage(FILE *out)
{
    fprintf(out,
            "usage: solve [--depth N] [--max N] [--threads N] [FILE...]\n"
            "\n"
            "Solves positions exactly, one a line, from each FILE or from standard\n"
            "input (none given, or -). A line is a board string (64 squares a1..h8 of\n"
            "X, O or -, a space, the side to move) optionally followed by '; ' and\n"
            "scored moves as in .obf files ('G8:+18; H1:+12;'), whose best score is\n"
            "then checked. Blank lines and lines starting with # or %% are skipped.\n"
            "\n"
            "  --depth N    midgame depth used to order moves, 1..20 (default 6)\n"
            "  --max N      stop after N positions\n"
            "  --threads N  search with N threads, 0..256 (default 1; 0: one per\n"
            "               core): faster on several cores, the same exact scores\n"
            "  --help       show this text\n"
            "\n"
            "Exit status: 0 all scores agree, 1 a score disagrees, 2 bad input.\n");
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

/* The best score among the ".obf" move list `moves` ("G8:+18; H1:+12;"),
 * into *best; false when it lists none. A pass is written "PS:+4". */
static bool best_listed_score(const char *moves, int *best)
{
    bool any = false;
    const char *p = moves;
    while ((p = strchr(p, ':')) != NULL) {
        char *end;
        long v = strtol(p + 1, &end, 10);
        if (end != p + 1 && (!any || v > *best)) {
            *best = (int)v;
            any = true;
        }
        p = end != p + 1 ? end : p + 1;
    }
    return any;
}

typedef struct {
    int positions, checked, agreed, failed;
    uint64_t nodes, ms;
} totals;

/* Solves one line; `where` names it in messages. Returns false on bad input. */
static bool solve_line(othello_engine *e, const othello_search_limits *lim, char *line,
                       const char *where, totals *t)
{
    char *moves = strchr(line, ';');
    if (moves != NULL) {
        *moves++ = '\0';
    }
    othello_board *b = othello_board_from_string(line);
    if (b == NULL) {
        char detail[256];
        othello_last_error(detail, sizeof detail, NULL);
        fprintf(stderr, "solve: %s: %s\n", where, detail);
        return false;
    }
    othello_search_result r;
    othello_search_result_init(&r);
    othello_status st = othello_engine_search(e, b, lim, &r);
    int empties = othello_board_count(b, OTHELLO_COLOR_EMPTY);
    char side = othello_board_side_to_move(b) == OTHELLO_COLOR_BLACK ? 'X' : 'O';
    othello_board_free(b);
    t->positions++;
    printf("#%-3d %c %2d empties  ", t->positions, side, empties);
    if (st == OTHELLO_STATUS_GAME_OVER) {
        printf("game over\n");
        return true;
    }
    if (st != OTHELLO_STATUS_OK) {
        char detail[256];
        othello_last_error(detail, sizeof detail, NULL);
        fprintf(stderr, "solve: %s: search failed: %s\n", where, detail);
        return false;
    }
    char name[3] = "ps";
    if (r.move != OTHELLO_PASS) {
        othello_square_name(r.move, name, sizeof name);
    }
    t->nodes += r.nodes;
    t->ms += r.elapsed_ms;
    printf("best %s  score %+3d%s  %8.3f s  %12" PRIu64 " nodes", name, r.score,
           r.exact ? "" : " (not exact)", r.elapsed_ms / 1000.0, r.nodes);
    int expected;
    if (moves != NULL && best_listed_score(moves, &expected)) {
        bool ok = r.exact && r.score == expected;
        t->checked++;
        t->agreed += ok;
        t->failed += !ok;
        printf("  file %+3d %s", expected, ok ? "ok" : "MISMATCH");
    }
    printf("\n");
    fflush(stdout);
    return true;
}

/* Solves every position of `in`, up to `max` in all. */
static bool solve_stream(othello_engine *e, const othello_search_limits *lim, FILE *in,
                         const char *name, int max, totals *t)
{
    char line[LINE_CAP];
    int number = 0;
    bool ok = true;
    while (t->positions < max && fgets(line, sizeof line, in) != NULL) {
        number++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            fprintf(stderr, "solve: %s:%d: line too long\n", name, number);
            int c;
            while ((c = fgetc(in)) != EOF && c != '\n') {
            }
            ok = false;
            continue;
        }
        const char *p = line;
        while (isspace((unsigned char)*p)) {
            p++;
        }
        if (*p == '\0' || *p == '#' || *p == '%') {
            continue;
        }
        char where[600];
        snprintf(where, sizeof where, "%s:%d", name, number);
        ok = solve_line(e, lim, line, where, t) && ok;
    }
    return ok;
}

int main(int argc, char **argv)
{
    int depth = 6, max = 1 << 30, threads = 1, n_files = 0;
    /* The file names, in order; at most argc - 1 of them. */
    const char **files = calloc((size_t)argc, sizeof *files);
    if (files == NULL) {
        perror("solve");
        return EXIT_FAILURE;
    }
    for (int i = 1; i < argc; i++) {
        bool is_depth = strcmp(argv[i], "--depth") == 0;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout);
            free(files);
            return EXIT_SUCCESS;
        } else if (is_depth || strcmp(argv[i], "--max") == 0) {
            if (i + 1 >= argc ||
                !parse_int(argv[i + 1], 1, is_depth ? 20 : 1 << 30, is_depth ? &depth : &max)) {
                fprintf(stderr, "solve: %s wants a number\n", argv[i]);
                free(files);
                return 2;
            }
            i++;
        } else if (strcmp(argv[i], "--threads") == 0) {
            if (i + 1 >= argc || !parse_int(argv[i + 1], 0, 256, &threads)) {
                fprintf(stderr, "solve: --threads wants a number 0..256\n");
                free(files);
                return 2;
            }
            i++;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "solve: unknown option '%s'\n", argv[i]);
            usage(stderr);
            free(files);
            return 2;
        } else {
            files[n_files++] = argv[i];
        }
    }
    if (n_files == 0) {
        files[n_files++] = "-";
    }

    othello_engine *e = othello_engine_new(64);
    if (e == NULL) {
        fprintf(stderr, "solve: no engine: %s\n", othello_status_message(othello_last_status()));
        free(files);
        return EXIT_FAILURE;
    }
    /* Exact from the first move: the midgame search only orders moves. */
    othello_search_limits lim;
    othello_search_limits_init(&lim);
    lim.level = -1;
    lim.depth = depth;
    lim.exact_empties = 60;
    lim.wld_empties = 60;
    lim.threads = threads;

    totals t = {0};
    bool ok = true;
    for (int i = 0; i < n_files; i++) {
        if (strcmp(files[i], "-") == 0) {
            ok = solve_stream(e, &lim, stdin, "stdin", max, &t) && ok;
            continue;
        }
        FILE *in = fopen(files[i], "r");
        if (in == NULL) {
            perror(files[i]);
            ok = false;
            continue;
        }
        ok = solve_stream(e, &lim, in, files[i], max, &t) && ok;
        fclose(in);
    }
    othello_engine_free(e);
    free(files);

    printf("%d position%s solved in %.3f s, %" PRIu64 " nodes", t.positions,
           t.positions == 1 ? "" : "s", t.ms / 1000.0, t.nodes);
    if (t.checked > 0) {
        printf("; %d of %d agree with the file", t.agreed, t.checked);
    }
    printf("\n");
    if (!ok) {
        return 2;
    }
    return t.failed > 0 ? 1 : 0;
}
