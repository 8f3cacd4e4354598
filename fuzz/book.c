/*
 * book.c: fuzz target for othello_engine_load_book_buffer(), the parser of
 * opening book files (src/book.rs: magic, version, board side, count, then
 * sorted canonical positions with their legal moves and values).
 *
 * Input: one flag byte, then the file. With flag bit 0 set the harness
 * writes a valid header (magic, version 1, side 8, reserved 0) over the
 * first 24 bytes, keeping the input's count, so that mutations reach the
 * positions; bit 1 starts from no book instead of the built-in one; bit 2
 * passes NULL. A load must return OK, INVALID_ARGUMENT or NULL_ARGUMENT
 * (never crash or panic); a failed load leaves the engine's book as it
 * was; after a successful one the engine's book is LOADED, its moves in
 * the positions of a fixed line are legal and best first, and a level-2
 * search plays a legal move, from the book only when the book knows it.
 */

#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The positions checked: the start and after each move of this line. */
static const char *const line = "f5d6c3d3c4f4f6f3e6e7";

/* The book moves of `b`: legal, exact false, best first; their number. */
static size_t check_moves(othello_engine *e, const othello_board *b)
{
    othello_move_score moves[64];
    size_t n = 99, i;
    othello_status st = othello_engine_book_moves(e, b, moves, 64, &n);
    FZ_CHECK(st == OTHELLO_STATUS_OK, "book_moves: %d", (int)st);
    FZ_CHECK(n <= 64, "book_moves: %zu moves", n);
    for (i = 0; i < n; i++) {
        FZ_CHECK(othello_board_is_legal(b, moves[i].move), "book move %d illegal", moves[i].move);
        FZ_CHECK(!moves[i].exact && moves[i].score >= -64 && moves[i].score <= 64,
                 "book value %d", moves[i].score);
        FZ_CHECK(i == 0 || moves[i].score <= moves[i - 1].score, "book moves not best first");
    }
    return n;
}

/* The book's moves along the line (a fingerprint of the engine's book). */
static size_t fingerprint(othello_engine *e)
{
    othello_board *b = othello_board_new();
    size_t total = 0, i, len = strlen(line);
    FZ_CHECK(b != NULL, "board");
    for (i = 0; i <= len; i += 2) {
        othello_search_limits lim;
        othello_search_result r;
        size_t n = check_moves(e, b);
        othello_status st;
        othello_search_result_init(&r);
        total = total * 65 + n;
        othello_search_limits_init(&lim);
        lim.level = 2;
        st = othello_engine_search(e, b, &lim, &r);
        FZ_CHECK(st == OTHELLO_STATUS_OK, "search: %d", (int)st);
        FZ_CHECK(othello_board_is_legal(b, r.move), "search: illegal move %d", r.move);
        FZ_CHECK(r.from_book == (n > 0), "from_book %d with %zu book moves", r.from_book, n);
        if (i < len) {
            char sq[3] = {line[i], line[i + 1], 0};
            int m = -1;
            FZ_CHECK(othello_square_parse(sq, &m) == OTHELLO_STATUS_OK, "square");
            FZ_CHECK(othello_board_play(b, m, NULL, 0, NULL) == OTHELLO_STATUS_OK, "play");
        }
    }
    othello_board_free(b);
    return total;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static othello_engine *e;
    uint8_t *file;
    size_t len, before;
    othello_status st;
    othello_book book;

    if (e == NULL) {
        /* Kept across inputs: loading is what is fuzzed, not creation. */
        e = othello_engine_new(1);
        FZ_CHECK(e != NULL, "setup");
    }
    if (size == 0) {
        return 0;
    }
    len = size - 1;
    file = malloc(len + 1);
    FZ_CHECK(file != NULL, "out of memory");
    memcpy(file, data + 1, len);
    if ((data[0] & 1) && len >= 24) {
        static const uint8_t head[16] = {'O', 'T', 'H', 'B', 'O', 'O', 'K', 0,
                                         1,   0,   0,   0,   8,   0,   0,   0};
        memcpy(file, head, sizeof head);
        memset(file + 20, 0, 4);
    }
    st = othello_engine_set_book(e, data[0] & 2 ? OTHELLO_BOOK_NONE : OTHELLO_BOOK_BUILTIN);
    FZ_CHECK(st == OTHELLO_STATUS_OK, "set_book: %d", (int)st);
    book = othello_engine_get_book(e);
    before = fingerprint(e);

    st = othello_engine_load_book_buffer(e, data[0] & 4 ? NULL : file, len);
    fz_no_panic("load_book_buffer");
    if (st == OTHELLO_STATUS_OK) {
        FZ_CHECK(othello_engine_get_book(e) == OTHELLO_BOOK_LOADED, "loaded book not in use");
        (void)fingerprint(e);
    } else {
        FZ_CHECK(st == OTHELLO_STATUS_INVALID_ARGUMENT || st == OTHELLO_STATUS_NULL_ARGUMENT,
                 "load_book_buffer: status %d", (int)st);
        FZ_CHECK(!(data[0] & 4) || st == OTHELLO_STATUS_NULL_ARGUMENT, "NULL data: %d", (int)st);
        FZ_CHECK(othello_last_status() == st, "last status");
        FZ_CHECK(othello_engine_get_book(e) == book, "a failed load changed the book");
        FZ_CHECK(fingerprint(e) == before, "a failed load changed the book's moves");
    }
    free(file);
    return 0;
}
