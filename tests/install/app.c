/*
 * app.c: a program built against the INSTALLED othello library by
 * tests/install.rs, through pkg-config (shared and static) and through CMake
 * (pkg_check_modules). It checks that header and library agree, plays a
 * whole game, engine against engine, and prints the result.
 */

#include <stdio.h>
#include <string.h>

#include <othello.h>

int main(void)
{
    if (strcmp(othello_version(), OTHELLO_VERSION_STRING) != 0) {
        fprintf(stderr, "header %s, library %s\n", OTHELLO_VERSION_STRING, othello_version());
        return 1;
    }
    othello_board *b = othello_board_new();
    othello_engine *e = othello_engine_new(1);
    if (b == NULL || e == NULL) {
        fprintf(stderr, "cannot allocate\n");
        return 1;
    }
    othello_search_limits lim;
    othello_search_limits_init(&lim);
    lim.level = 2;
    int turns = 0;
    while (!othello_board_is_game_over(b)) {
        othello_search_result r;
        othello_search_result_init(&r);
        othello_status st = othello_engine_search(e, b, &lim, &r);
        if (st == OTHELLO_STATUS_OK) {
            st = r.move == OTHELLO_PASS ? othello_board_pass(b) : othello_board_play(b, r.move, NULL, 0, NULL);
        }
        if (st != OTHELLO_STATUS_OK) {
            char msg[256];
            othello_last_error(msg, sizeof msg, NULL);
            fprintf(stderr, "turn %d: %s\n", turns + 1, msg);
            return 1;
        }
        turns++;
    }
    char transcript[128];
    othello_board_transcript(b, transcript, sizeof transcript, NULL);
    printf("othello %s: %d turns, black %d, white %d\n", othello_version(), turns,
           othello_board_count(b, OTHELLO_COLOR_BLACK), othello_board_count(b, OTHELLO_COLOR_WHITE));
    printf("transcript %s\n", transcript);
    othello_engine_free(e);
    othello_board_free(b);
    return 0;
}
