/*
 * transcript.c: fuzz target for othello_board_from_transcript(), the
 * transcript parser, against the reference grammars of common.h (which
 * play the moves with the reference rules, passes implied): a documented
 * transcript must be accepted, one outside the lenient grammar rejected. An accepted transcript
 * must give the reference position and history; its canonical form (from
 * othello_board_transcript()) must parse back to the same game; undoing
 * every turn must reach the start and redoing them the end again. The input
 * is the text (up to its first NUL).
 */

#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_history(const othello_board *b, const ref_game *g)
{
    int hist[REF_MAX_TURNS];
    size_t n = 0;
    int i;
    FZ_CHECK(othello_board_history(b, hist, REF_MAX_TURNS, &n) == OTHELLO_STATUS_OK &&
                 n == (size_t)g->n_turns,
             "history: %zu turns, want %d", n, g->n_turns);
    for (i = 0; i < g->n_turns; i++) {
        FZ_CHECK(hist[i] == g->turns[i], "turn %d: %d, want %d", i, hist[i], g->turns[i]);
    }
    FZ_CHECK(othello_board_move_number(b) == g->n_turns + 1, "move number");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ref_game want, strict_game;
    int strict;
    char *text = malloc(size + 1);
    char canon[200], want_canon[200];
    size_t len, n = 0, k = 0;
    int ok, i;
    othello_board *b, *again;
    ref_pos start;

    FZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data, size);
    text[size] = '\0';
    len = strlen(text);
    strict = ref_parse_transcript((const uint8_t *)text, len, &strict_game, 0);
    ok = ref_parse_transcript((const uint8_t *)text, len, &want, 1);
    FZ_CHECK(!strict || ok, "the reference grammars disagree");
    (void)othello_board_undo(NULL); /* the last status is now NULL_ARGUMENT */
    b = othello_board_from_transcript(text);
    fz_no_panic("from_transcript");
    FZ_CHECK(b != NULL || !strict, "from_transcript(\"%s\") rejects a documented transcript",
             text);
    FZ_CHECK(b == NULL || ok, "from_transcript(\"%s\") accepts a malformed transcript", text);
    if (b == NULL) {
        FZ_CHECK(othello_last_status() == OTHELLO_STATUS_PARSE_ERROR, "last status %d",
                 (int)othello_last_status());
        free(text);
        return 0;
    }
    fz_check_position(b, &want.pos);
    check_history(b, &want);

    /* The canonical transcript: lower case, passes left out. */
    for (i = 0; i < want.n_turns; i++) {
        if (want.turns[i] != OTHELLO_PASS) {
            ref_square_name(want.turns[i], want_canon + k);
            k += 2;
        }
    }
    want_canon[k] = '\0';
    FZ_CHECK(othello_board_transcript(b, canon, sizeof canon, &n) == OTHELLO_STATUS_OK &&
                 n == k && strcmp(canon, want_canon) == 0,
             "transcript %s, want %s", canon, want_canon);
    again = othello_board_from_transcript(canon);
    FZ_CHECK(again != NULL, "the transcript %s does not parse back", canon);
    fz_check_position(again, &want.pos);
    check_history(again, &want);
    othello_board_free(again);

    /* Undo to the start, redo to the end. */
    for (i = 0; i < want.n_turns; i++) {
        FZ_CHECK(othello_board_undo(b) == OTHELLO_STATUS_OK, "undo %d", i);
    }
    FZ_CHECK(othello_board_undo(b) == OTHELLO_STATUS_NOTHING_TO_UNDO, "undo past the start");
    ref_start(&start);
    fz_check_position(b, &start);
    for (i = 0; i < want.n_turns; i++) {
        FZ_CHECK(othello_board_redo(b) == OTHELLO_STATUS_OK, "redo %d", i);
    }
    FZ_CHECK(othello_board_redo(b) == OTHELLO_STATUS_NOTHING_TO_REDO, "redo past the end");
    fz_check_position(b, &want.pos);
    check_history(b, &want);
    othello_board_free(b);
    free(text);
    return 0;
}
