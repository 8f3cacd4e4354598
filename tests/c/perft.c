/*
 * perft.c: counts the leaves of the game tree from the start position through
 * the C API (othello_board_legal_moves / _play / _undo, and _pass / _undo when
 * the side to move must pass) and compares them with the known values.
 *
 * A pass counts as a ply; a finished game is a leaf at any depth.
 *
 * Usage: perft [MAX_DEPTH]   (default 7; checks every depth 1..MAX_DEPTH)
 * Exits 0 if every count matches, 1 on a mismatch or an API failure,
 * 2 on a bad argument.
 */

#include "othello.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Leaves at depth 1, 2, ...: the published values (1..8 are also checked by
 * the Rust core's own perft test). */
static const uint64_t EXPECTED[] = {4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288};
#define MAX_KNOWN_DEPTH ((int)(sizeof EXPECTED / sizeof EXPECTED[0]))
#define DEFAULT_DEPTH 7

static long g_api_errors;

static void api_error(const char *call, othello_status s)
{
    char msg[256];
    size_t n = 0;
    if (othello_last_error(msg, sizeof msg, &n) != OTHELLO_STATUS_OK) {
        strcpy(msg, "(no message)");
    }
    if (g_api_errors < 10) {
        printf("perft: %s failed: %s (%d): %s\n", call, othello_status_message(s), (int)s, msg);
    }
    g_api_errors++;
}

static uint64_t perft(othello_board *b, int depth)
{
    int moves[64];
    size_t n, i;
    uint64_t leaves = 0;
    othello_status s;

    if (depth == 0 || othello_board_is_game_over(b)) {
        return 1;
    }
    if (othello_board_must_pass(b)) {
        s = othello_board_pass(b);
        if (s != OTHELLO_STATUS_OK) {
            api_error("othello_board_pass", s);
            return 0;
        }
        leaves = perft(b, depth - 1);
        s = othello_board_undo(b);
        if (s != OTHELLO_STATUS_OK) {
            api_error("othello_board_undo (of a pass)", s);
        }
        return leaves;
    }
    n = othello_board_legal_moves(b, moves, 64);
    if (n == 0 || n > 64) {
        printf("perft: othello_board_legal_moves gave %zu moves with no pass due\n", n);
        g_api_errors++;
        return 0;
    }
    for (i = 0; i < n; i++) {
        s = othello_board_play(b, moves[i], NULL, 0, NULL);
        if (s != OTHELLO_STATUS_OK) {
            api_error("othello_board_play", s);
            continue;
        }
        leaves += perft(b, depth - 1);
        s = othello_board_undo(b);
        if (s != OTHELLO_STATUS_OK) {
            api_error("othello_board_undo", s);
            return leaves;
        }
    }
    return leaves;
}

int main(int argc, char **argv)
{
    int max_depth = DEFAULT_DEPTH, depth, failures = 0;
    othello_board *b;
    char before[80], after[80];

    if (argc > 2) {
        fprintf(stderr, "usage: %s [MAX_DEPTH (1..%d)]\n", argv[0], MAX_KNOWN_DEPTH);
        return 2;
    }
    if (argc == 2) {
        char *end = NULL;
        long d = strtol(argv[1], &end, 10);
        if (end == argv[1] || *end != '\0' || d < 1 || d > MAX_KNOWN_DEPTH) {
            fprintf(stderr, "perft: depth must be 1..%d, got \"%s\"\n", MAX_KNOWN_DEPTH,
                    argv[1]);
            return 2;
        }
        max_depth = (int)d;
    }

    b = othello_board_new();
    if (b == NULL) {
        printf("perft: othello_board_new returned NULL\n");
        return 1;
    }
    if (othello_board_to_string(b, before, sizeof before, NULL) != OTHELLO_STATUS_OK) {
        printf("perft: othello_board_to_string failed\n");
        othello_board_free(b);
        return 1;
    }

    for (depth = 1; depth <= max_depth; depth++) {
        clock_t t0 = clock();
        uint64_t got = perft(b, depth);
        double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
        uint64_t want = EXPECTED[depth - 1];
        int ok = got == want;
        printf("perft(%d) = %llu, expected %llu: %s (%.3f s)\n", depth, (unsigned long long)got,
               (unsigned long long)want, ok ? "ok" : "MISMATCH", secs);
        if (!ok) {
            failures++;
        }
        /* The walk undoes everything it plays: back at the start, no history. */
        if (othello_board_to_string(b, after, sizeof after, NULL) != OTHELLO_STATUS_OK ||
            strcmp(before, after) != 0 || othello_board_move_number(b) != 1 ||
            othello_board_can_undo(b)) {
            printf("perft: the board is not back at the start after depth %d\n", depth);
            failures++;
        }
    }
    othello_board_free(b);

    if (g_api_errors != 0) {
        printf("perft: %ld API calls failed\n", g_api_errors);
        failures++;
    }
    if (failures != 0) {
        printf("perft: FAILED\n");
        return 1;
    }
    printf("perft: depths 1..%d ok\n", max_depth);
    return 0;
}
