/*
 * weights.c: fuzz target for othello_engine_load_weights_buffer(), the
 * parser of pattern weights files (src/eval/pattern/file.rs: magic, version, stages,
 * pattern masks, table sizes, a run-length coded payload, an FNV-1a 64
 * checksum).
 *
 * Input: one flag byte, then the file. With flag bit 0 set the harness
 * rewrites the last 8 bytes with the checksum of the bytes before them, so
 * that mutations reach the checks past the checksum; otherwise the file is
 * passed as it is. A load must return OK or INVALID_ARGUMENT (never crash
 * or panic); a failed load must leave the engine as it was (its evaluation,
 * and the result of a small fixed search); after a successful one the
 * engine must search with the trained evaluation and return a legal move.
 * (Built only when othello.h declares the call: see fuzz/run.sh.)
 */

#include "common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t i;
    for (i = 0; i < n; i++) {
        h = (h ^ p[i]) * 0x100000001b3ULL;
    }
    return h;
}

static othello_search_result fixed_search(othello_engine *e, const othello_board *b)
{
    othello_search_limits lim;
    othello_search_result r;
    othello_status st;
    othello_search_result_init(&r);
    othello_search_limits_init(&lim);
    lim.level = 2;
    othello_engine_clear(e);
    st = othello_engine_search(e, b, &lim, &r);
    FZ_CHECK(st == OTHELLO_STATUS_OK, "search: %d", (int)st);
    FZ_CHECK(othello_board_is_legal(b, r.move), "search: illegal move %d", r.move);
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static othello_engine *e;
    static othello_board *b;
    static othello_search_result before;
    uint8_t *file;
    size_t len;
    othello_status st;
    othello_evaluation eval;

    if (e == NULL) {
        /* Kept across inputs: loading is what is fuzzed, not creation. */
        e = othello_engine_new(1);
        b = othello_board_from_transcript("f5d6c3d3c4f4");
        FZ_CHECK(e != NULL && b != NULL, "setup");
    }
    if (size == 0) {
        return 0;
    }
    len = size - 1;
    file = malloc(len + 1);
    FZ_CHECK(file != NULL, "out of memory");
    memcpy(file, data + 1, len);
    if ((data[0] & 1) && len >= 8) {
        uint64_t sum = fnv1a(file, len - 8);
        int i;
        for (i = 0; i < 8; i++) {
            file[len - 8 + i] = (uint8_t)(sum >> (8 * i));
        }
    }
    /* Start each input from the built-in weights or from v1. */
    st = othello_engine_set_evaluation(e, data[0] & 2 ? OTHELLO_EVALUATION_TRAINED
                                                      : OTHELLO_EVALUATION_V1);
    FZ_CHECK(st == OTHELLO_STATUS_OK, "set_evaluation: %d", (int)st);
    eval = othello_engine_get_evaluation(e);
    before = fixed_search(e, b);

    st = othello_engine_load_weights_buffer(e, data[0] & 4 ? NULL : file,
                                            data[0] & 4 ? (len & 1) : len);
    fz_no_panic("load_weights_buffer");
    if (data[0] & 4) {
        /* NULL data: NULL_ARGUMENT unless the length is 0 (an empty file). */
        FZ_CHECK(st == OTHELLO_STATUS_NULL_ARGUMENT || st == OTHELLO_STATUS_INVALID_ARGUMENT,
                 "load(NULL, %zu) = %d", len & 1, (int)st);
    }
    if (st == OTHELLO_STATUS_OK) {
        othello_search_result r;
        othello_search_result_init(&r);
        FZ_CHECK(othello_engine_get_evaluation(e) == OTHELLO_EVALUATION_TRAINED,
                 "loaded weights are not the evaluation");
        r = fixed_search(e, b);
        FZ_CHECK(r.score > -10000 && r.score < 10000, "score %d with loaded weights", r.score);
    } else {
        othello_search_result r;
        othello_search_result_init(&r);
        FZ_CHECK(st == OTHELLO_STATUS_INVALID_ARGUMENT || st == OTHELLO_STATUS_NULL_ARGUMENT,
                 "load_weights_buffer: status %d", (int)st);
        FZ_CHECK(othello_last_status() == st, "last status");
        FZ_CHECK(othello_engine_get_evaluation(e) == eval, "a failed load changed the evaluation");
        r = fixed_search(e, b);
        FZ_CHECK(r.move == before.move && r.score == before.score && r.nodes == before.nodes,
                 "a failed load changed the search: move %d/%d score %d/%d", r.move,
                 before.move, r.score, before.score);
    }
    free(file);
    return 0;
}
