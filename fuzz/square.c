/*
 * square.c: fuzz target for othello_square_parse(), the square-name parser
 * (`a1`..`h8`, either case), against the reference grammar, with the round
 * trip through othello_square_name(). The input is the text (up to its first
 * NUL, as C passes it).
 */

#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    size_t len;
    int sq = -7, want;
    othello_status st;
    char name[3];

    FZ_CHECK(text != NULL, "out of memory");
    memcpy(text, data, size);
    text[size] = '\0';
    len = strlen(text);
    want = ref_utf8_valid((const uint8_t *)text, len) ? ref_parse_square((const uint8_t *)text, len)
                                                      : -1;
    st = othello_square_parse(text, &sq);
    fz_no_panic("square_parse");
    if (want < 0) {
        FZ_CHECK(st == OTHELLO_STATUS_PARSE_ERROR, "square_parse(\"%s\") = %d, want PARSE_ERROR",
                 text, (int)st);
        FZ_CHECK(othello_last_status() == OTHELLO_STATUS_PARSE_ERROR, "last status");
        FZ_CHECK(sq == -7, "a failed square_parse wrote *square");
    } else {
        FZ_CHECK(st == OTHELLO_STATUS_OK && sq == want, "square_parse(\"%s\") = %d, %d; want %d",
                 text, (int)st, sq, want);
        st = othello_square_name(sq, name, sizeof name);
        FZ_CHECK(st == OTHELLO_STATUS_OK && name[0] == (text[0] | 0x20) && name[1] == text[1] &&
                     name[2] == '\0',
                 "square_name(%d) = %s for \"%s\"", sq, name, text);
    }
    free(text);
    return 0;
}
