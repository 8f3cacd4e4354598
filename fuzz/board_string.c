/*
 * board_string.c: fuzz target for othello_board_from_string(), the board
 * string parser, against the reference grammars of common.h: a documented
 * board string must be accepted, one outside the lenient grammar rejected
 * (unless it is a board of another size, where the header has the sized
 * API). An accepted string must give the reference position (checked
 * through every read-only call), no history, and survive the round trip
 * through othello_board_to_string(). The input is the text (up to its
 * first NUL).
 */

#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    char out[67], tr[8];
    size_t len, n = 0;
    ref_pos want, strict_pos;
    int strict, lenient;
    othello_board *b, *again;

    FZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data, size);
    text[size] = '\0';
    len = strlen(text);
    strict = ref_parse_board((const uint8_t *)text, len, &strict_pos, 0);
    lenient = ref_parse_board((const uint8_t *)text, len, &want, 1);
    FZ_CHECK(!strict || lenient, "the reference grammars disagree");
    (void)othello_board_undo(NULL); /* the last status is now NULL_ARGUMENT */
    b = othello_board_from_string(text);
    fz_no_panic("from_string");
    FZ_CHECK(b != NULL || !strict, "from_string(\"%s\") rejects a documented board string",
             text);
    if (b == NULL) {
        FZ_CHECK(othello_last_status() == OTHELLO_STATUS_PARSE_ERROR, "last status %d",
                 (int)othello_last_status());
        free(text);
        return 0;
    }
    if (!lenient) {
#ifdef OTHELLO_SIZE_MAX
        /* A board of another size (the sized API). */
        int side = othello_board_size(b);
        FZ_CHECK(side != 8 && side >= OTHELLO_SIZE_MIN && side <= OTHELLO_SIZE_MAX,
                 "from_string(\"%s\") accepts a malformed board string (size %d)", text, side);
        FZ_CHECK(othello_board_count(b, OTHELLO_COLOR_BLACK) +
                         othello_board_count(b, OTHELLO_COLOR_WHITE) +
                         othello_board_count(b, OTHELLO_COLOR_EMPTY) ==
                     side * side,
                 "counts of a %dx%d board", side, side);
        othello_board_free(b);
        free(text);
        return 0;
#else
        FZ_CHECK(0, "from_string(\"%s\") accepts a malformed board string", text);
#endif
    }
    fz_check_position(b, &want);
    FZ_CHECK(othello_board_move_number(b) == 1 && !othello_board_can_undo(b) &&
                 !othello_board_can_redo(b),
             "a parsed board has a history");
    FZ_CHECK(othello_board_transcript(b, tr, sizeof tr, &n) == OTHELLO_STATUS_OK && n == 0,
             "a parsed board has a transcript");
    FZ_CHECK(othello_board_undo(b) == OTHELLO_STATUS_NOTHING_TO_UNDO, "undo on a parsed board");
    fz_board_string(b, out);
    again = othello_board_from_string(out);
    FZ_CHECK(again != NULL, "the board string %s does not parse back", out);
    fz_check_position(again, &want);
    othello_board_free(again);
    othello_board_free(b);
    free(text);
    return 0;
}
