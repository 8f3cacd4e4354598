/*
 * api.c: fuzz target for the C API as a C program calls it.
 *
 * The input is decoded into a sequence of calls on three board slots and two
 * engine slots (a slot may be empty: calls then get NULL). Each board slot
 * has a model: the reference position, the history of turns with the
 * position before each, the redo list. After every call the harness checks
 *
 *  - the status against the set of failures the call's arguments allow
 *    (computed from the model and the header's rules; no failure allowed
 *    means it must succeed), and that othello_last_status() agrees;
 *  - that a failed call left the board unchanged (board string, transcript
 *    and move number taken before and after) and wrote no out-parameter
 *    (buffers filled with a sentinel), except the size needed on
 *    BUFFER_TOO_SMALL;
 *  - the board against its model through every read-only call: the board
 *    string, each square, counts adding to 64, legal moves and mobility
 *    against the reference move generator, pass and game-over, history,
 *    transcript, move number, undo/redo availability;
 *  - search results: a legal move (OTHELLO_PASS exactly when the side must
 *    pass), a legal principal variation starting with it, `stopped` only when
 *    a limit or a stop could have caused it, exact scores against a reference
 *    solver when few squares are empty, the node limit kept, the same result
 *    from a cleared and from a fresh engine (with one thread: more may
 *    differ from run to run).
 *
 * Searches are kept tiny (level <= 2, small explicit depths, or a node limit;
 * mostly one thread, sometimes 2 or 3, sometimes an invalid count)
 * so that an execution stays fast; limits that would make a long search are
 * not sent. Any PANIC status is a failure.
 */

#define _POSIX_C_SOURCE 200809L

#include "common.h"

#include <time.h>

#define N_BOARDS 3
#define N_ENGINES 2
#define SENTINEL_INT 0x5A5A5A5A
#define SENTINEL_SIZE ((size_t)0xA5A5A5A5A5A5A5A5u)

#define ST(s) (1u << (s))

typedef struct {
    othello_board *h;
    ref_pos initial;
    ref_pos pos;
    int turns[REF_MAX_TURNS];
    ref_pos before[REF_MAX_TURNS];
    int n_turns;
    int redo[REF_MAX_TURNS];
    int n_redo;
} board_slot;

typedef struct {
    othello_engine *h;
    size_t hash_mb;
} engine_slot;

static board_slot boards[N_BOARDS];
static engine_slot engines[N_ENGINES];

/* Calls that allocate a large table (othello_board_best_move's 16 MiB, an
 * engine's default 64 MiB) cost milliseconds: a few per input. */
static int heavy_left;

static int heavy(void) { return heavy_left > 0 ? heavy_left-- : 0; }

/* ------------------------------------------------------------- statuses */

/* `got` must be OK when `allowed` is 0, else one of the `allowed` statuses
 * (OK among them only if ST(OTHELLO_STATUS_OK) is in the mask, for a failure
 * that may or may not happen); a failure must also be the thread's last
 * status, with a message. */
static void expect_status(othello_status got, unsigned allowed, const char *what)
{
    fz_no_panic(what);
    FZ_CHECK(got >= 0 && got < 32, "%s: unknown status %d", what, (int)got);
    if (allowed == 0) {
        FZ_CHECK(got == OTHELLO_STATUS_OK, "%s: status %d, want OK", what, (int)got);
        return;
    }
    FZ_CHECK((allowed & ST(got)) != 0, "%s: status %d, want one of mask 0x%x", what, (int)got,
             allowed);
    if (got == OTHELLO_STATUS_OK) {
        return;
    }
    FZ_CHECK(othello_last_status() == got, "%s: last status %d, returned %d", what,
             (int)othello_last_status(), (int)got);
    {
        size_t n = 0;
        FZ_CHECK(othello_last_error(NULL, 0, &n) == OTHELLO_STATUS_BUFFER_TOO_SMALL && n > 1,
                 "%s: the failure has no message", what);
    }
}

/* After a call returning NULL or a neutral value: the last status is one of
 * `allowed` (a nonzero mask). */
static void expect_last(unsigned allowed, const char *what)
{
    othello_status s = othello_last_status();
    fz_no_panic(what);
    FZ_CHECK((allowed & ST(s)) != 0 && s != OTHELLO_STATUS_OK,
             "%s: last status %d, want one of mask 0x%x", what, (int)s, allowed);
}

/* Sets the thread's last status to a known value, to see whether a call
 * changes it. */
static void set_last_status_null(void) { (void)othello_board_undo(NULL); }

/* ---------------------------------------------------------------- models */

typedef struct {
    char board[67];
    char transcript[160];
    int move_number;
} snap;

static void take_snap(const othello_board *b, snap *s)
{
    size_t n = 0;
    othello_status st;
    fz_board_string(b, s->board);
    st = othello_board_transcript(b, s->transcript, sizeof s->transcript, &n);
    FZ_CHECK(st == OTHELLO_STATUS_OK, "transcript: status %d", (int)st);
    s->move_number = othello_board_move_number(b);
}

static void expect_same_snap(const othello_board *b, const snap *before, const char *what)
{
    snap after;
    take_snap(b, &after);
    FZ_CHECK(strcmp(before->board, after.board) == 0, "%s changed the board:\n %s\n %s", what,
             before->board, after.board);
    FZ_CHECK(strcmp(before->transcript, after.transcript) == 0,
             "%s changed the transcript: %s -> %s", what, before->transcript, after.transcript);
    FZ_CHECK(before->move_number == after.move_number, "%s changed the move number", what);
}

static void model_reset(board_slot *s, const ref_pos *initial)
{
    s->initial = *initial;
    s->pos = *initial;
    s->n_turns = 0;
    s->n_redo = 0;
}

/* Records a turn (square, or OTHELLO_PASS) played on the model. */
static void model_push(board_slot *s, int turn)
{
    FZ_CHECK(s->n_turns < REF_MAX_TURNS, "history longer than %d turns", REF_MAX_TURNS);
    s->before[s->n_turns] = s->pos;
    s->turns[s->n_turns++] = turn;
    if (turn == OTHELLO_PASS) {
        ref_pass(&s->pos);
    } else {
        ref_play(&s->pos, turn);
    }
}

/* The transcript the model expects: the squares of its turns. */
static size_t model_transcript(const board_slot *s, char *out)
{
    size_t n = 0;
    int i;
    for (i = 0; i < s->n_turns; i++) {
        if (s->turns[i] != OTHELLO_PASS) {
            ref_square_name(s->turns[i], out + n);
            n += 2;
        }
    }
    out[n] = '\0';
    return n;
}

/* The whole board against its model. */
static void check_slot(const board_slot *s)
{
    char tr[160], want_tr[160];
    int hist[REF_MAX_TURNS];
    size_t n = SENTINEL_SIZE, want_n;
    othello_status st;
    int i;

    if (s->h == NULL) {
        return;
    }
    fz_check_position(s->h, &s->pos);
    FZ_CHECK(othello_board_move_number(s->h) == s->n_turns + 1, "move number %d, want %d",
             othello_board_move_number(s->h), s->n_turns + 1);
    FZ_CHECK(othello_board_can_undo(s->h) == (s->n_turns > 0), "can_undo");
    FZ_CHECK(othello_board_can_redo(s->h) == (s->n_redo > 0), "can_redo");
    st = othello_board_history(s->h, hist, REF_MAX_TURNS, &n);
    FZ_CHECK(st == OTHELLO_STATUS_OK && n == (size_t)s->n_turns, "history: %d, n %zu", (int)st,
             n);
    for (i = 0; i < s->n_turns; i++) {
        FZ_CHECK(hist[i] == s->turns[i], "history[%d] = %d, want %d", i, hist[i], s->turns[i]);
    }
    want_n = model_transcript(s, want_tr);
    st = othello_board_transcript(s->h, tr, sizeof tr, &n);
    FZ_CHECK(st == OTHELLO_STATUS_OK && n == want_n && strcmp(tr, want_tr) == 0,
             "transcript %s, want %s", tr, want_tr);
    /* The header promises that 121 bytes always hold a transcript. */
    FZ_CHECK(want_n + 1 <= 121, "a transcript of %zu bytes: more than the 121 promised",
             want_n + 1);
    /* Colours outside the enum. */
    FZ_CHECK(othello_board_count(s->h, (othello_color)3) == -1, "count of colour 3");
    expect_last(ST(OTHELLO_STATUS_INVALID_ARGUMENT), "count(3)");
    FZ_CHECK(othello_board_mobility(s->h, OTHELLO_COLOR_EMPTY) == -1, "mobility of EMPTY");
    expect_last(ST(OTHELLO_STATUS_INVALID_ARGUMENT), "mobility(EMPTY)");
    FZ_CHECK(othello_board_get(s->h, 64) == OTHELLO_COLOR_EMPTY, "get(64)");
    expect_last(ST(OTHELLO_STATUS_INVALID_SQUARE), "get(64)");
    FZ_CHECK(!othello_board_is_legal(s->h, -1), "is_legal(-1)");
}

static void free_board(board_slot *s)
{
    othello_board_free(s->h);
    fz_no_panic("board_free");
    s->h = NULL;
}

static void put_board(board_slot *s, othello_board *h, const ref_pos *initial)
{
    free_board(s);
    s->h = h;
    model_reset(s, initial);
}

/* ------------------------------------------------------------ arguments */

static board_slot *pick_board(fz_input *in) { return &boards[fz_u8(in) % N_BOARDS]; }

static engine_slot *pick_engine(fz_input *in) { return &engines[fz_u8(in) % N_ENGINES]; }

/* A square: mostly a legal move of the slot, else anything. */
static int pick_square(fz_input *in, const board_slot *s)
{
    static const int extreme[8] = {-1, 64, 65, -2, INT_MIN, INT_MAX, 100, -64};
    uint8_t v = fz_u8(in);
    if (v < 128 && s->h != NULL) {
        uint64_t legal = ref_moves(&s->pos);
        int n = ref_popcount(legal), k, sq;
        if (n > 0) {
            k = v % n;
            for (sq = 0; sq < 64; sq++) {
                if ((legal >> sq & 1) && k-- == 0) {
                    return sq;
                }
            }
        }
        return v % 64;
    }
    if (v < 240) {
        return v % 64;
    }
    return extreme[v % 8];
}

/* An int buffer of the input's choosing: NULL or not, and a capacity. */
typedef struct {
    int storage[80];
    int *ptr;
    size_t cap;
} int_buf;

static void pick_int_buf(fz_input *in, int_buf *b)
{
    uint8_t v = fz_u8(in);
    int i;
    for (i = 0; i < 80; i++) {
        b->storage[i] = SENTINEL_INT;
    }
    switch (v & 3) {
    case 0:
        b->ptr = NULL;
        b->cap = 0;
        break;
    case 1:
        b->ptr = NULL;
        b->cap = v & 4 ? SIZE_MAX : (size_t)1 + (v >> 3);
        break;
    default:
        b->ptr = b->storage;
        b->cap = (size_t)(v >> 2) % 40;
        break;
    }
}

/* Checks an int buffer after a call: `n_written` ints equal `want`, every
 * other slot untouched. */
static void check_int_buf(const int_buf *b, const int *want, size_t n_written, const char *what)
{
    size_t i;
    for (i = 0; i < 80; i++) {
        if (i < n_written) {
            FZ_CHECK(b->storage[i] == want[i], "%s: item %zu is %d, want %d", what, i,
                     b->storage[i], want[i]);
        } else {
            FZ_CHECK(b->storage[i] == SENTINEL_INT, "%s: wrote past its result at %zu", what, i);
        }
    }
}

/* ------------------------------------------------------------ board ops */

static void op_new(fz_input *in)
{
    board_slot *s = pick_board(in);
    ref_pos start;
    othello_board *b = othello_board_new();
    FZ_CHECK(b != NULL, "board_new returned NULL");
    fz_no_panic("board_new");
    ref_start(&start);
    put_board(s, b, &start);
}

/* othello_board_new_sized(), where the header has the sized API: a valid
 * size gives its start position (8x8 goes into a slot, with the model; the
 * others are checked by their counts and freed), any other size NULL. */
static void op_new_sized(fz_input *in)
{
#ifdef OTHELLO_SIZE_MAX
    static const int sizes[16] = {8, 8, 4, 6, 10, 12, 14, 16, 0, 2, 3, 5, 17, 18, -8, INT_MIN};
    uint8_t v = fz_u8(in);
    int size = v & 0x80 ? (int)fz_u32(in) : sizes[v & 15];
    othello_board *b = othello_board_new_sized(size);
    fz_no_panic("new_sized");
    if (size < OTHELLO_SIZE_MIN || size > OTHELLO_SIZE_MAX || size % 2 != 0) {
        FZ_CHECK(b == NULL, "new_sized(%d) is not NULL", size);
        expect_last(ST(OTHELLO_STATUS_INVALID_ARGUMENT), "new_sized");
        return;
    }
    FZ_CHECK(b != NULL, "new_sized(%d) is NULL", size);
    FZ_CHECK(othello_board_size(b) == size, "size %d of new_sized(%d)", othello_board_size(b),
             size);
    FZ_CHECK(othello_board_count(b, OTHELLO_COLOR_BLACK) == 2 &&
                 othello_board_count(b, OTHELLO_COLOR_WHITE) == 2 &&
                 othello_board_count(b, OTHELLO_COLOR_EMPTY) == size * size - 4 &&
                 othello_board_legal_moves(b, NULL, 0) == 4 &&
                 othello_board_move_number(b) == 1,
             "the start of new_sized(%d)", size);
    if (size == 8) {
        board_slot *s = pick_board(in);
        ref_pos start;
        ref_start(&start);
        put_board(s, b, &start);
        check_slot(s);
    } else {
        othello_board_free(b);
    }
#else
    (void)fz_u8(in);
#endif
}

static void op_clone(fz_input *in)
{
    board_slot *src = pick_board(in);
    board_slot *dst = pick_board(in);
    othello_board *c;
    board_slot copy;
    if (src->h == NULL) {
        (void)othello_square_parse("zz", NULL); /* another last status */
        c = othello_board_clone(NULL);
        FZ_CHECK(c == NULL, "clone(NULL)");
        expect_last(ST(OTHELLO_STATUS_NULL_ARGUMENT), "clone(NULL)");
        return;
    }
    c = othello_board_clone(src->h);
    FZ_CHECK(c != NULL, "clone returned NULL");
    fz_no_panic("clone");
    copy = *src;
    if (dst == src) {
        othello_board_free(src->h);
    } else {
        free_board(dst);
    }
    *dst = copy;
    dst->h = c;
    if (dst != src) {
        /* The source is still there, its own game. */
        check_slot(src);
    }
    check_slot(dst);
}

static void op_free(fz_input *in)
{
    board_slot *s = pick_board(in);
    free_board(s);
    othello_board_free(NULL);
}

/* play (mutating) or flips (a preview). */
static void op_play(fz_input *in, int mutate)
{
    board_slot *s = pick_board(in);
    int sq = pick_square(in, s);
    int_buf buf;
    size_t n = SENTINEL_SIZE;
    size_t *n_ptr;
    unsigned allowed = 0;
    uint64_t flips = 0;
    int want[64], n_want = 0, i;
    othello_status st;
    snap before;

    pick_int_buf(in, &buf);
    n_ptr = fz_u8(in) & 1 ? NULL : &n;
    if (s->h == NULL) {
        allowed |= ST(OTHELLO_STATUS_NULL_ARGUMENT);
    }
    if (sq < 0 || sq > 63) {
        allowed |= ST(OTHELLO_STATUS_INVALID_SQUARE);
    }
    if (s->h != NULL && sq >= 0 && sq <= 63) {
        if (ref_game_over(&s->pos)) {
            allowed |= ST(OTHELLO_STATUS_GAME_OVER);
        }
        flips = ref_flips(&s->pos, sq);
        if (flips == 0) {
            allowed |= ST(OTHELLO_STATUS_ILLEGAL_MOVE);
        }
        for (i = 0; i < 64; i++) {
            if (flips >> i & 1) {
                want[n_want++] = i;
            }
        }
    }
    if (buf.ptr == NULL && buf.cap > 0) {
        allowed |= ST(OTHELLO_STATUS_NULL_ARGUMENT);
    }
    if (flips != 0 && buf.ptr != NULL && buf.cap < (size_t)n_want) {
        allowed |= ST(OTHELLO_STATUS_BUFFER_TOO_SMALL);
    }
    if (s->h != NULL) {
        take_snap(s->h, &before);
    }
    if (mutate) {
        st = othello_board_play(s->h, sq, buf.ptr, buf.cap, n_ptr);
    } else {
        st = othello_board_flips(s->h, sq, buf.ptr, buf.cap, n_ptr);
    }
    expect_status(st, allowed, mutate ? "play" : "flips");
    if (st == OTHELLO_STATUS_OK) {
        FZ_CHECK(n_ptr == NULL || n == (size_t)n_want, "play: n_flips %zu, want %d", n, n_want);
        check_int_buf(&buf, want, buf.ptr != NULL ? (size_t)n_want : 0, "flips");
        if (mutate) {
            model_push(s, sq);
            s->n_redo = 0;
        }
    } else {
        if (st == OTHELLO_STATUS_BUFFER_TOO_SMALL) {
            FZ_CHECK(n_ptr == NULL || n == (size_t)n_want, "BUFFER_TOO_SMALL: n %zu, want %d", n,
                     n_want);
        } else {
            FZ_CHECK(n == SENTINEL_SIZE, "a failed play wrote n_flips");
        }
        check_int_buf(&buf, want, 0, "failed play");
        if (s->h != NULL) {
            expect_same_snap(s->h, &before, mutate ? "a failed play" : "flips");
        }
    }
    if (!mutate && s->h != NULL) {
        expect_same_snap(s->h, &before, "flips");
    }
    check_slot(s);
}

static void op_pass(fz_input *in)
{
    board_slot *s = pick_board(in);
    unsigned allowed = 0;
    othello_status st;
    snap before;
    if (s->h == NULL) {
        allowed = ST(OTHELLO_STATUS_NULL_ARGUMENT);
    } else if (ref_game_over(&s->pos)) {
        allowed = ST(OTHELLO_STATUS_GAME_OVER);
    } else if (ref_moves(&s->pos) != 0) {
        allowed = ST(OTHELLO_STATUS_CANNOT_PASS);
    }
    if (s->h != NULL) {
        take_snap(s->h, &before);
    }
    st = othello_board_pass(s->h);
    expect_status(st, allowed, "pass");
    if (st == OTHELLO_STATUS_OK) {
        model_push(s, OTHELLO_PASS);
        s->n_redo = 0;
    } else if (s->h != NULL) {
        expect_same_snap(s->h, &before, "a failed pass");
    }
    check_slot(s);
}

static void op_undo_redo(fz_input *in)
{
    board_slot *s = pick_board(in);
    int redo = fz_u8(in) & 1;
    unsigned allowed = 0;
    othello_status st;
    snap before;
    if (s->h == NULL) {
        allowed = ST(OTHELLO_STATUS_NULL_ARGUMENT);
    } else if (!redo && s->n_turns == 0) {
        allowed = ST(OTHELLO_STATUS_NOTHING_TO_UNDO);
    } else if (redo && s->n_redo == 0) {
        allowed = ST(OTHELLO_STATUS_NOTHING_TO_REDO);
    }
    if (s->h != NULL) {
        take_snap(s->h, &before);
    }
    st = redo ? othello_board_redo(s->h) : othello_board_undo(s->h);
    expect_status(st, allowed, redo ? "redo" : "undo");
    if (st == OTHELLO_STATUS_OK) {
        if (redo) {
            int turn = s->redo[--s->n_redo];
            FZ_CHECK(turn == OTHELLO_PASS ? ref_must_pass(&s->pos) : ref_flips(&s->pos, turn) != 0,
                     "redo replays an illegal turn %d", turn);
            model_push(s, turn);
        } else {
            s->n_turns--;
            s->pos = s->before[s->n_turns];
            s->redo[s->n_redo++] = s->turns[s->n_turns];
        }
    } else if (s->h != NULL) {
        expect_same_snap(s->h, &before, redo ? "a failed redo" : "a failed undo");
    }
    check_slot(s);
}

/* Plays up to N random turns through the API: reaches endgames quickly. */
static void op_walk(fz_input *in)
{
    board_slot *s = pick_board(in);
    int steps = fz_u8(in) % 64, i;
    uint32_t seed = fz_u32(in);
    if (s->h == NULL) {
        return;
    }
    for (i = 0; i < steps && !ref_game_over(&s->pos); i++) {
        uint64_t legal = ref_moves(&s->pos);
        othello_status st;
        seed = seed * 1103515245u + 12345u;
        if (legal == 0) {
            st = othello_board_pass(s->h);
            expect_status(st, 0, "walk: pass");
            model_push(s, OTHELLO_PASS);
        } else {
            int k = (int)((seed >> 16) % (uint32_t)ref_popcount(legal)), sq;
            for (sq = 0; sq < 64; sq++) {
                if ((legal >> sq & 1) && k-- == 0) {
                    break;
                }
            }
            st = othello_board_play(s->h, sq, NULL, 0, NULL);
            expect_status(st, 0, "walk: play");
            model_push(s, sq);
        }
        s->n_redo = 0;
    }
    check_slot(s);
}

/* ------------------------------------------------------------ text ops */

/* to_string or transcript into a buffer of the input's choosing. */
static void op_text_out(fz_input *in)
{
    board_slot *s = pick_board(in);
    int transcript = fz_u8(in) & 1;
    uint8_t v = fz_u8(in);
    char buf[200], want[160];
    size_t len, n = SENTINEL_SIZE, want_len = 0, i;
    size_t *n_ptr = v & 1 ? NULL : &n;
    char *ptr = v & 2 ? NULL : buf;
    unsigned allowed = 0;
    othello_status st;

    len = v & 4 ? (size_t)(v >> 3) * 5 : (size_t)(v >> 3);
    if (v == 0xFF) {
        len = SIZE_MAX;
    }
    if (ptr != NULL && len > sizeof buf) {
        len = sizeof buf;
    }
    memset(buf, '#', sizeof buf);
    if (s->h == NULL) {
        allowed |= ST(OTHELLO_STATUS_NULL_ARGUMENT);
    } else {
        if (transcript) {
            want_len = model_transcript(s, want);
        } else {
            ref_to_string(&s->pos, want);
            want_len = 66;
        }
    }
    if (ptr == NULL && len > 0) {
        allowed |= ST(OTHELLO_STATUS_NULL_ARGUMENT);
    }
    if (s->h != NULL && len < want_len + 1) {
        allowed |= ST(OTHELLO_STATUS_BUFFER_TOO_SMALL);
    }
    st = transcript ? othello_board_transcript(s->h, ptr, len, n_ptr)
                    : othello_board_to_string(s->h, ptr, len, n_ptr);
    expect_status(st, allowed, transcript ? "transcript" : "to_string");
    if (st == OTHELLO_STATUS_OK) {
        FZ_CHECK(memcmp(buf, want, want_len + 1) == 0, "text out: %.*s, want %s",
                 (int)want_len, buf, want);
        FZ_CHECK(n_ptr == NULL || n == want_len, "text out: n %zu, want %zu", n, want_len);
        for (i = want_len + 1; i < sizeof buf; i++) {
            FZ_CHECK(buf[i] == '#', "text out wrote past the NUL at %zu", i);
        }
    } else {
        if (st == OTHELLO_STATUS_BUFFER_TOO_SMALL) {
            FZ_CHECK(n_ptr == NULL || n == want_len + 1, "BUFFER_TOO_SMALL: n %zu, want %zu", n,
                     want_len + 1);
        } else {
            FZ_CHECK(n == SENTINEL_SIZE, "a failed text call wrote n");
        }
        for (i = 0; i < sizeof buf; i++) {
            FZ_CHECK(buf[i] == '#', "a failed text call wrote the buffer at %zu", i);
        }
    }
    check_slot(s);
}

static void op_history(fz_input *in)
{
    board_slot *s = pick_board(in);
    int_buf buf;
    size_t n = SENTINEL_SIZE;
    size_t *n_ptr;
    unsigned allowed = 0;
    othello_status st;

    pick_int_buf(in, &buf);
    n_ptr = fz_u8(in) & 1 ? NULL : &n;
    if (s->h == NULL) {
        allowed |= ST(OTHELLO_STATUS_NULL_ARGUMENT);
    }
    if (buf.ptr == NULL && buf.cap > 0) {
        allowed |= ST(OTHELLO_STATUS_NULL_ARGUMENT);
    }
    if (s->h != NULL && buf.ptr != NULL && buf.cap < (size_t)s->n_turns) {
        allowed |= ST(OTHELLO_STATUS_BUFFER_TOO_SMALL);
    }
    st = othello_board_history(s->h, buf.ptr, buf.cap, n_ptr);
    expect_status(st, allowed, "history");
    if (st == OTHELLO_STATUS_OK) {
        FZ_CHECK(n_ptr == NULL || n == (size_t)s->n_turns, "history: n %zu", n);
        check_int_buf(&buf, s->turns, buf.ptr != NULL ? (size_t)s->n_turns : 0, "history");
    } else {
        FZ_CHECK(st != OTHELLO_STATUS_BUFFER_TOO_SMALL || n_ptr == NULL ||
                     n == (size_t)s->n_turns,
                 "history BUFFER_TOO_SMALL: n %zu", n);
        FZ_CHECK(st == OTHELLO_STATUS_BUFFER_TOO_SMALL || n == SENTINEL_SIZE,
                 "a failed history wrote n");
        check_int_buf(&buf, s->turns, 0, "failed history");
    }
    /* legal_moves writes min(n, cap) and returns n. */
    {
        uint64_t legal = s->h != NULL ? ref_moves(&s->pos) : 0;
        int want[64], k = 0, sq;
        size_t got;
        for (sq = 0; sq < 64; sq++) {
            if (legal >> sq & 1) {
                want[k++] = sq;
            }
        }
        pick_int_buf(in, &buf);
        got = othello_board_legal_moves(s->h, buf.ptr, buf.cap);
        fz_no_panic("legal_moves");
        if (s->h == NULL || (buf.ptr == NULL && buf.cap > 0)) {
            FZ_CHECK(got == 0, "legal_moves on bad arguments returned %zu", got);
            expect_last(ST(OTHELLO_STATUS_NULL_ARGUMENT), "legal_moves");
            check_int_buf(&buf, want, 0, "failed legal_moves");
        } else {
            FZ_CHECK(got == (size_t)k, "legal_moves returned %zu, want %d", got, k);
            check_int_buf(&buf, want,
                          buf.ptr != NULL ? (buf.cap < (size_t)k ? buf.cap : (size_t)k) : 0,
                          "legal_moves");
        }
    }
}

/* Text from the input: a slot's own text (board string or transcript),
 * mutated, or raw bytes. NUL-terminated in `out` (capacity 256); returns its
 * length. */
static size_t pick_text(fz_input *in, const board_slot *s, int transcript, char *out)
{
    uint8_t mode = fz_u8(in);
    size_t len = 0, i;
    if ((mode & 3) != 0 && s->h != NULL) {
        if (transcript) {
            len = model_transcript(s, out);
        } else {
            ref_to_string(&s->pos, out);
            len = 66;
        }
        /* Up to three mutations. */
        for (i = 0; i < (size_t)(mode >> 2 & 3); i++) {
            uint8_t kind = fz_u8(in), at = fz_u8(in), val = fz_u8(in);
            size_t pos = len > 0 ? at % (len + 1) : 0;
            switch (kind % 6) {
            case 0: /* truncate */
                len = pos;
                break;
            case 1: /* replace a byte */
                if (pos < len) {
                    out[pos] = (char)(val == 0 ? ' ' : val);
                }
                break;
            case 2: /* insert whitespace */
                if (len < 250) {
                    static const char spaces[] = " \t\n\r\v\f";
                    memmove(out + pos + 1, out + pos, len - pos);
                    out[pos] = spaces[val % 6];
                    len++;
                }
                break;
            case 3: /* flip the case of a byte */
                if (pos < len && ((out[pos] | 0x20) >= 'a' && (out[pos] | 0x20) <= 'z')) {
                    out[pos] ^= 0x20;
                }
                break;
            case 4: /* delete a byte */
                if (pos < len) {
                    memmove(out + pos, out + pos + 1, len - pos - 1);
                    len--;
                }
                break;
            default: /* insert a byte */
                if (len < 250) {
                    memmove(out + pos + 1, out + pos, len - pos);
                    out[pos] = (char)(val == 0 ? 'x' : val);
                    len++;
                }
                break;
            }
        }
    } else {
        size_t want = fz_u8(in);
        for (i = 0; i < want && fz_more(in) && len < 250; i++) {
            uint8_t c = fz_u8(in);
            out[len++] = (char)(c == 0 ? ' ' : c);
        }
    }
    out[len] = '\0';
    return len;
}

static void op_from_text(fz_input *in)
{
    board_slot *src = pick_board(in);
    board_slot *dst = pick_board(in);
    int transcript = fz_u8(in) & 1;
    char text[256];
    size_t len = pick_text(in, src, transcript, text);
    othello_board *b;
    if (fz_u8(in) == 0xFF) {
        b = transcript ? othello_board_from_transcript(NULL) : othello_board_from_string(NULL);
        FZ_CHECK(b == NULL, "from_*(NULL)");
        expect_last(ST(OTHELLO_STATUS_NULL_ARGUMENT), "from_*(NULL)");
        return;
    }
    if (transcript) {
        static ref_game g, strict_game;
        int strict = ref_parse_transcript((const uint8_t *)text, len, &strict_game, 0);
        int ok = ref_parse_transcript((const uint8_t *)text, len, &g, 1);
        set_last_status_null();
        b = othello_board_from_transcript(text);
        fz_no_panic("from_transcript");
        FZ_CHECK(b != NULL || !strict, "from_transcript(\"%s\") rejects a documented transcript",
                 text);
        FZ_CHECK(b == NULL || ok, "from_transcript(\"%s\") accepts a malformed transcript",
                 text);
        if (b == NULL) {
            expect_last(ST(OTHELLO_STATUS_PARSE_ERROR), "from_transcript");
        } else {
            ref_pos start;
            int i;
            ref_start(&start);
            put_board(dst, b, &start);
            for (i = 0; i < g.n_turns; i++) {
                model_push(dst, g.turns[i]);
            }
            check_slot(dst);
        }
    } else {
        ref_pos p, strict_pos;
        int strict = ref_parse_board((const uint8_t *)text, len, &strict_pos, 0);
        int ok = ref_parse_board((const uint8_t *)text, len, &p, 1);
        set_last_status_null();
        b = othello_board_from_string(text);
        fz_no_panic("from_string");
        FZ_CHECK(b != NULL || !strict, "from_string(\"%s\") rejects a documented board string",
                 text);
#ifdef OTHELLO_SIZE_MAX
        if (b != NULL && !ok) {
            /* A board of another size: outside the 8x8 models. */
            FZ_CHECK(othello_board_size(b) != 8, "from_string(\"%s\") accepts a malformed "
                                                 "board string", text);
            othello_board_free(b);
            return;
        }
#endif
        FZ_CHECK(b == NULL || ok, "from_string(\"%s\") accepts a malformed board string", text);
        if (b == NULL) {
            expect_last(ST(OTHELLO_STATUS_PARSE_ERROR), "from_string");
        } else {
            put_board(dst, b, &p);
            check_slot(dst);
        }
    }
}

static void op_square(fz_input *in)
{
    uint8_t v = fz_u8(in);
    if (v & 1) {
        uint8_t raw[3];
        int sq = SENTINEL_INT, want;
        othello_status st;
        raw[0] = fz_u8(in);
        raw[1] = fz_u8(in);
        raw[2] = '\0';
        /* Length 0, 1 or 2: stops at the first NUL. */
        want = ref_parse_square(raw, strlen((const char *)raw));
        if (!ref_utf8_valid(raw, strlen((const char *)raw))) {
            want = -1;
        }
        if (v & 2) {
            st = othello_square_parse((const char *)raw, NULL);
            expect_status(st, ST(OTHELLO_STATUS_NULL_ARGUMENT) | ST(OTHELLO_STATUS_PARSE_ERROR),
                          "square_parse(NULL out)");
            return;
        }
        st = othello_square_parse(v & 4 ? (const char *)raw : NULL, &sq);
        if (!(v & 4)) {
            expect_status(st, ST(OTHELLO_STATUS_NULL_ARGUMENT), "square_parse(NULL)");
            FZ_CHECK(sq == SENTINEL_INT, "failed square_parse wrote *square");
            return;
        }
        expect_status(st, want < 0 ? ST(OTHELLO_STATUS_PARSE_ERROR) : 0, "square_parse");
        FZ_CHECK(st == OTHELLO_STATUS_OK ? sq == want : sq == SENTINEL_INT, "square_parse: %d",
                 sq);
    } else {
        static const int extreme[4] = {-1, 64, INT_MIN, INT_MAX};
        int sq = v & 2 ? extreme[v >> 2 & 3] : (int)(fz_u8(in) % 64);
        size_t len = fz_u8(in) % 6;
        char buf[8], want[3];
        char *ptr = v & 4 ? NULL : buf;
        unsigned allowed = 0;
        othello_status st;
        memset(buf, '#', sizeof buf);
        if (sq < 0 || sq > 63) {
            allowed |= ST(OTHELLO_STATUS_INVALID_SQUARE);
        }
        if (ptr == NULL && len > 0) {
            allowed |= ST(OTHELLO_STATUS_NULL_ARGUMENT);
        }
        if (len < 3) {
            allowed |= ST(OTHELLO_STATUS_BUFFER_TOO_SMALL);
        }
        st = othello_square_name(sq, ptr, len);
        expect_status(st, allowed, "square_name");
        if (st == OTHELLO_STATUS_OK) {
            ref_square_name(sq, want);
            FZ_CHECK(memcmp(buf, want, 3) == 0 && buf[3] == '#', "square_name(%d)", sq);
        } else {
            FZ_CHECK(memcmp(buf, "########", 8) == 0, "a failed square_name wrote");
        }
    }
}

static void op_errors(fz_input *in)
{
    uint8_t v = fz_u8(in);
    char buf[300];
    size_t n = SENTINEL_SIZE, full = 0, len = (size_t)fz_u8(in) + (v & 1 ? 40 : 0);
    othello_status before = othello_last_status(), st;
    int32_t code = v & 0x10 ? (int32_t)fz_u32(in) : (int32_t)(fz_u8(in) % 20) - 2;
    const char *msg = othello_status_message((othello_status)code);
    FZ_CHECK(msg != NULL && msg[0] != '\0', "status_message");
    memset(buf, '#', sizeof buf);
    FZ_CHECK(othello_last_error(NULL, 0, &full) == OTHELLO_STATUS_BUFFER_TOO_SMALL, "size query");
    st = othello_last_error(v & 2 ? NULL : buf, v & 2 ? (v & 4 ? len : 0) : len,
                            v & 8 ? NULL : &n);
    if (v & 2) {
        FZ_CHECK(st == ((v & 4) && len > 0 ? OTHELLO_STATUS_NULL_ARGUMENT
                                           : OTHELLO_STATUS_BUFFER_TOO_SMALL),
                 "last_error(NULL, ...) = %d", (int)st);
    } else if (len < full) {
        FZ_CHECK(st == OTHELLO_STATUS_BUFFER_TOO_SMALL, "last_error into %zu: %d", len, (int)st);
        FZ_CHECK((v & 8) || n == full, "last_error: size needed %zu, want %zu", n, full);
        FZ_CHECK(buf[0] == '#', "a failed last_error wrote");
    } else {
        FZ_CHECK(st == OTHELLO_STATUS_OK && strlen(buf) + 1 == full, "last_error");
        FZ_CHECK((v & 8) || n + 1 == full, "last_error: n %zu", n);
    }
    FZ_CHECK(othello_last_status() == before, "last_error changed the last status");
    FZ_CHECK(strcmp(othello_version(), OTHELLO_VERSION_STRING) == 0, "version");
}

/* ----------------------------------------------------------- engine ops */

static void op_engine(fz_input *in)
{
    engine_slot *s = pick_engine(in);
    uint8_t v = fz_u8(in);
    switch (v % 4) {
    case 0: {
        static const size_t sizes[8] = {1, 1, 2, 3, 0, 65537, SIZE_MAX, (size_t)1 << 40};
        size_t mb = sizes[v >> 2 & 7];
        othello_engine *e;
        if (mb == 0 && !heavy()) {
            mb = 1;
        }
        e = othello_engine_new(mb);
        fz_no_panic("engine_new");
        if (mb > 65536) {
            FZ_CHECK(e == NULL, "engine_new(%zu) is not NULL", mb);
            expect_last(ST(OTHELLO_STATUS_INVALID_ARGUMENT), "engine_new");
        } else {
            FZ_CHECK(e != NULL, "engine_new(%zu) is NULL", mb);
            othello_engine_free(s->h);
            s->h = e;
            s->hash_mb = mb;
        }
        break;
    }
    case 1:
        othello_engine_free(s->h);
        fz_no_panic("engine_free");
        s->h = NULL;
        othello_engine_free(NULL);
        break;
    case 2:
        set_last_status_null();
        (void)othello_square_parse("zz", NULL); /* some other status */
        othello_engine_clear(s->h);
        fz_no_panic("engine_clear");
        if (s->h == NULL) {
            expect_last(ST(OTHELLO_STATUS_NULL_ARGUMENT), "engine_clear(NULL)");
        }
        break;
    default:
        /* A stop while idle: no effect on a later search (checked there). */
        othello_engine_stop(s->h);
        fz_no_panic("engine_stop");
        break;
    }
}

/* Limits from the input, with what the library sees of them. */
typedef struct {
    othello_search_limits lim;  /* what the caller passes */
    othello_search_limits eff;  /* what the library reads of it */
    int use_null;               /* pass NULL for the limits */
    int torn;                   /* struct_size ends inside a field */
    int invalid;                /* a field the library must reject */
    int cheap;                  /* a search is bounded to a small cost */
    int cheap_analysis;         /* an analysis is bounded to a small cost */
    int may_stop;               /* a limit or a stop may end a search early */
    int limited;                /* a node or time limit is set */
} limits_case;

typedef struct {
    const ref_pos *pos;
    othello_engine *engine;
    int stop_after;             /* calls before stopping; < 0: never */
    int calls;
} progress_ctx;

static void check_line(const ref_pos *start, const int *pv, size_t n, const char *what)
{
    ref_pos p = *start;
    size_t i;
    for (i = 0; i < n; i++) {
        if (ref_moves(&p) == 0 && !ref_game_over(&p)) {
            ref_pass(&p);
        }
        FZ_CHECK(pv[i] >= 0 && pv[i] < 64 && ref_flips(&p, pv[i]) != 0,
                 "%s: move %zu (%d) of the principal variation is illegal", what, i, pv[i]);
        ref_play(&p, pv[i]);
    }
}

static void on_progress(const othello_search_progress *p, void *userdata)
{
    progress_ctx *ctx = userdata;
    FZ_CHECK(p != NULL, "progress: NULL");
    FZ_CHECK(p->pv_len <= 64 && (p->pv_len == 0 || p->pv != NULL), "progress: pv_len %zu",
             p->pv_len);
    if (ctx == NULL) {
        return; /* userdata beyond the caller's struct_size */
    }
    ctx->calls++;
    FZ_CHECK(p->best_move == OTHELLO_PASS ? ref_moves(ctx->pos) == 0
                                          : p->best_move >= 0 && p->best_move < 64 &&
                                                ref_flips(ctx->pos, p->best_move) != 0,
             "progress: best move %d", p->best_move);
    if (p->pv_len > 0 && p->pv[0] != OTHELLO_PASS) {
        check_line(ctx->pos, p->pv, p->pv_len, "progress");
    }
    if (ctx->stop_after >= 0 && ctx->calls > ctx->stop_after) {
        othello_engine_stop(ctx->engine);
    }
}

/* The end offsets of the fields of othello_search_limits: a struct_size that
 * is none of these (and smaller than the struct) cuts a field in two. */
static int is_field_end(size_t size)
{
    static const size_t ends[] = {
        offsetof(othello_search_limits, level) + sizeof(int),
        offsetof(othello_search_limits, depth) + sizeof(int),
        offsetof(othello_search_limits, exact_empties) + sizeof(int),
        offsetof(othello_search_limits, wld_empties) + sizeof(int),
        offsetof(othello_search_limits, node_limit),
        offsetof(othello_search_limits, node_limit) + sizeof(uint64_t),
        offsetof(othello_search_limits, time_limit_ms) + sizeof(int64_t),
        offsetof(othello_search_limits, strategy) + sizeof(int32_t),
        offsetof(othello_search_limits, classic_depth) + sizeof(int),
        offsetof(othello_search_limits, randomness) + sizeof(int),
        offsetof(othello_search_limits, seed),
        offsetof(othello_search_limits, seed) + sizeof(uint64_t),
        offsetof(othello_search_limits, progress) + sizeof(othello_progress_fn),
        offsetof(othello_search_limits, userdata) + sizeof(void *),
        offsetof(othello_search_limits, selectivity) + sizeof(int),
        offsetof(othello_search_limits, book) + sizeof(int),
        offsetof(othello_search_limits, threads) + sizeof(int),
    };
    size_t i;
    for (i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        if (size == ends[i]) {
            return 1;
        }
    }
    return size >= sizeof(othello_search_limits);
}

static void pick_limits(fz_input *in, limits_case *c, progress_ctx *ctx, int empties)
{
    static const int levels[16] = {0, 1, 2, 1, 2, 0, -1, -1, -1, -1, 61, -2, INT_MIN, INT_MAX,
                                   7, 60};
    static const int64_t times[8] = {0, 0, 0, 0, 1, INT64_MAX, -1, INT64_MIN};
    static const int odd_ints[8] = {-1, INT_MIN, INT_MAX, 61, 65, 10, 100, -60};
    static const int strategies[16] = {0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 4, 5, -1, INT_MIN, INT_MAX,
                                       99};
    /* offsetof(..., threads): the whole struct of othello.h 0.2. */
    static const size_t sizes[16] = {0, 4, 8, offsetof(othello_search_limits, threads), 12, 13,
                                     16, 28, 36, 60, 68, 72, 76, 81, 4096, 65537};
    /* Threads when asked for (else 1): few, to keep searches cheap, or
     * invalid. 0 (one per core) is left out: many on a big machine. */
    static const int thread_counts[8] = {2, 3, 2, 3, -1, 257, INT_MIN, INT_MAX};
    uint8_t a = fz_u8(in), b = fz_u8(in), d = fz_u8(in), e = fz_u8(in);
    othello_search_limits *l = &c->lim;
    size_t size, full = sizeof(othello_search_limits);
    int engine_strategy;

    memset(c, 0, sizeof *c);
    othello_search_limits_init(l);
    FZ_CHECK(l->struct_size == full && l->level == 10 && l->node_limit == 0 &&
                 l->progress == NULL,
             "limits_init");
    l->level = levels[a & 15];
    if (l->level == -1) {
        uint8_t x = fz_u8(in);
        l->depth = x & 0x80 ? odd_ints[x & 7] : 1 + (x & 3);
        x = fz_u8(in);
        l->exact_empties = x & 0x80 ? odd_ints[x & 7] : (x & 63);
        x = fz_u8(in);
        l->wld_empties = x & 0x80 ? odd_ints[x & 7] : (x & 63);
    }
    switch (a >> 4 & 3) {
    case 0:
        l->node_limit = 0;
        break;
    case 1:
        l->node_limit = 1 + fz_u16(in) % 4000;
        break;
    case 2:
        l->node_limit = 1 + (fz_u8(in) & 15);
        break;
    default:
        l->node_limit = UINT64_MAX;
        break;
    }
    l->time_limit_ms = times[a >> 6 & 1 ? 0 : b & 7];
    l->strategy = (othello_strategy)strategies[b >> 3 & 15];
    l->classic_depth = d & 0x80 ? odd_ints[d & 7] : (d & 3);
    l->randomness = d & 0x40 ? odd_ints[d >> 3 & 7] : (d >> 3 & 7) * (d & 0x20 ? 9 : 1);
    l->seed = fz_u64(in);
    if ((a & 0x80) && (b & 0x80)) {
        l->threads = thread_counts[fz_u8(in) & 7];
    }
    ctx->stop_after = -1;
    ctx->calls = 0;
    if (e & 1) {
        l->progress = on_progress;
        l->userdata = ctx;
        ctx->stop_after = e & 2 ? (e >> 2 & 3) : -1;
    }
    c->use_null = (e & 0xF0) == 0xF0;
    if ((e & 0xE0) == 0xC0) {
        l->struct_size = sizes[e >> 1 & 15];
    }

    /* What the library reads: the defaults overlaid with the caller's first
     * struct_size bytes. */
    size = l->struct_size;
    othello_search_limits_init(&c->eff);
    if (c->use_null) {
        size = full;
    } else if (size < offsetof(othello_search_limits, level) + sizeof(int) || size > 65536) {
        c->invalid = 1;
    } else {
        c->torn = !is_field_end(size);
        memcpy(&c->eff, l, size < full ? size : full);
        c->eff.struct_size = full;
    }
    /* A struct_size that cuts a field must be rejected: the library cannot
     * know what the caller meant, and a torn pointer would be called. */
    c->invalid |= c->torn;
    if (!c->use_null) {
        const othello_search_limits *f = &c->eff;
        if (f->level == -1) {
            c->invalid |= f->depth < 1 || f->depth > 60 || f->exact_empties < 0 ||
                          f->exact_empties > 60 || f->wld_empties < 0 || f->wld_empties > 60;
        } else {
            c->invalid |= f->level < 0 || f->level > 60;
        }
        c->invalid |= f->time_limit_ms < 0 || f->randomness < 0 || f->randomness > 64 ||
                      f->classic_depth < 0 || f->classic_depth > 9 || f->strategy < 0 ||
                      f->strategy > 4 || f->threads < 0 || f->threads > 256;
    }
    {
        const othello_search_limits *f = &c->eff;
        int engine_cheap;
        engine_strategy = f->strategy == OTHELLO_STRATEGY_ENGINE;
        c->limited = f->node_limit != 0 || f->time_limit_ms != 0;
        c->may_stop = engine_strategy &&
                      (c->limited || (f->progress != NULL && ctx->stop_after >= 0));
        if (f->node_limit > 0 && f->node_limit <= 5000) {
            engine_cheap = 1;
        } else if (f->level == -1) {
            engine_cheap = f->depth <= 4 && (empties > f->exact_empties || empties <= 10) &&
                           (empties > f->wld_empties || empties <= 12);
        } else {
            engine_cheap = f->level <= 2 || empties <= 8;
        }
        c->cheap_analysis = c->invalid || engine_cheap;
        if (c->invalid) {
            c->cheap = 1;
        } else if (!engine_strategy) {
            c->cheap = f->strategy != OTHELLO_STRATEGY_CLASSIC || f->classic_depth <= 3;
        } else {
            c->cheap = engine_cheap;
        }
    }
}

static unsigned limits_errors(const limits_case *c)
{
    return c->invalid ? ST(OTHELLO_STATUS_INVALID_ARGUMENT) : 0;
}

static void op_search(fz_input *in)
{
    engine_slot *es = pick_engine(in);
    board_slot *bs = pick_board(in);
    uint8_t out_kind = fz_u8(in);
    int out_null = out_kind == 0xFF;
    /* 0xFE: a result whose struct_size is fuzzed, not sizeof. */
    size_t out_size = out_kind == 0xFE ? fz_u16(in) : sizeof(othello_search_result);
    size_t out_min = offsetof(othello_search_result, from_book) + sizeof(bool);
    limits_case c;
    progress_ctx ctx;
    othello_search_result r;
    othello_search_result sentinel;
    unsigned allowed = 0;
    othello_status st;
    snap before;
    int empties = bs->h != NULL ? ref_count(&bs->pos, '-') : 60;

    pick_limits(in, &c, &ctx, empties);
    if (!c.cheap) {
        return;
    }
    ctx.pos = &bs->pos;
    ctx.engine = es->h;
    memset(&r, 0xA5, sizeof r);
    r.struct_size = out_size;
    sentinel = r;
    if (es->h == NULL || bs->h == NULL || out_null) {
        allowed |= ST(OTHELLO_STATUS_NULL_ARGUMENT);
    }
    if (!out_null && out_size < out_min) {
        allowed |= ST(OTHELLO_STATUS_INVALID_ARGUMENT);
    }
    allowed |= limits_errors(&c);
    if (bs->h != NULL && ref_game_over(&bs->pos)) {
        allowed |= ST(OTHELLO_STATUS_GAME_OVER);
    }
    if (bs->h != NULL) {
        take_snap(bs->h, &before);
    }
    char board_text[67] = "(none)";
    if (bs->h != NULL) {
        ref_to_string(&bs->pos, board_text);
    }
    fz_note("search: engine %s, board %s (%d empties), out %s, limits %s: struct_size %zu%s, "
            "level %d, depth %d, exact %d, wld %d, nodes %llu, time %lld, strategy %d, "
            "classic %d, randomness %d, threads %d, progress %s, stop after %d",
            es->h ? "set" : "NULL", board_text, empties, out_null ? "NULL" : "set",
            c.use_null ? "NULL" : "set", c.lim.struct_size, c.torn ? " (torn)" : "", c.lim.level,
            c.lim.depth, c.lim.exact_empties, c.lim.wld_empties,
            (unsigned long long)c.lim.node_limit, (long long)c.lim.time_limit_ms,
            (int)c.lim.strategy, c.lim.classic_depth, c.lim.randomness, c.lim.threads,
            c.lim.progress ? "set" : "NULL", ctx.stop_after);
    st = othello_engine_search(es->h, bs->h, c.use_null ? NULL : &c.lim, out_null ? NULL : &r);
    expect_status(st, allowed, "search");
    if (bs->h != NULL) {
        expect_same_snap(bs->h, &before, "search");
    }
    if (st != OTHELLO_STATUS_OK) {
        FZ_CHECK(memcmp(&r, &sentinel, sizeof r) == 0, "a failed search wrote its result");
        return;
    }
    FZ_CHECK(r.struct_size == out_size, "search changed struct_size %zu", r.struct_size);
    if (out_size < sizeof r) {
        /* Nothing past the caller's struct_size is written; what it covers
         * is checked below only when it is the whole struct. */
        FZ_CHECK(memcmp((char *)&r + out_size, (char *)&sentinel + out_size,
                        sizeof r - out_size) == 0,
                 "search wrote past struct_size %zu", out_size);
        return;
    }
    if (ref_moves(&bs->pos) == 0) {
        FZ_CHECK(r.move == OTHELLO_PASS, "search: move %d when the side must pass", r.move);
    } else {
        FZ_CHECK(r.move >= 0 && r.move < 64 && ref_flips(&bs->pos, r.move) != 0,
                 "search: illegal move %d (stopped %d)", r.move, (int)r.stopped);
    }
    FZ_CHECK(r.pv_len <= OTHELLO_PV_MAX, "search: pv_len %zu", r.pv_len);
    if (r.pv_len > 0) {
        FZ_CHECK(r.pv[0] == r.move, "search: pv starts with %d, move %d", r.pv[0], r.move);
        if (r.move != OTHELLO_PASS) {
            check_line(&bs->pos, r.pv, r.pv_len, "search");
        }
    }
    FZ_CHECK(!r.stopped || c.may_stop, "search: stopped without a limit or a stop");
    /* "About this many nodes": a search may pass the limit by a few nodes
     * (one is seen: a node counted after the stop), not run away. With
     * more threads, the limit is on all of them together, and each adds
     * its nodes to the count every few thousand. */
    if (c.eff.strategy == OTHELLO_STRATEGY_ENGINE && c.eff.node_limit > 0 &&
        c.eff.node_limit < UINT64_MAX / 2) {
        uint64_t slack = c.eff.threads > 1 ? 8192 * (uint64_t)c.eff.threads : 0;
        FZ_CHECK(r.nodes <= c.eff.node_limit + c.eff.node_limit / 16 + 16 + slack,
                 "search: %llu nodes, limit %llu, %d threads", (unsigned long long)r.nodes,
                 (unsigned long long)c.eff.node_limit, c.eff.threads);
    }
    /* Exact and win/loss/draw results against the reference solver. With
     * randomness N the move may be up to N discs worse than the best, and
     * the score is the chosen move's. */
    if (c.eff.strategy == OTHELLO_STRATEGY_ENGINE && !r.stopped && r.move != OTHELLO_PASS &&
        empties <= 10 && (r.exact || r.wld)) {
        int want = ref_solve(&bs->pos, -65, 65), got;
        ref_pos q = bs->pos;
        ref_play(&q, r.move);
        got = -ref_solve(&q, -65, 65);
        if (r.exact) {
            FZ_CHECK(r.score == got, "search: exact score %d, reference %d for move %d", r.score,
                     got, r.move);
            FZ_CHECK(got >= want - c.eff.randomness, "search: move %d scores %d, best %d", r.move,
                     got, want);
        } else if (c.eff.randomness == 0) {
            FZ_CHECK((r.score > 0) == (want > 0) && (r.score < 0) == (want < 0),
                     "search: win/loss/draw score %d, reference %d", r.score, want);
            FZ_CHECK((got > 0) == (want > 0) && (got < 0) == (want < 0),
                     "search: move %d scores %d, best %d", r.move, got, want);
        }
    }
    /* Sometimes the engine ponders after the search, on the position of
     * its move, until the next call on it (a search of the same position
     * then takes the pondering over: the checks above hold for it too). */
    if (r.move != OTHELLO_PASS && (fz_u8(in) & 7) == 0) {
        othello_board *after = othello_board_clone(bs->h);
        int expected = -7;
        FZ_CHECK(after != NULL, "clone for ponder");
        if (after != NULL && othello_board_play(after, r.move, NULL, 0, NULL) == OTHELLO_STATUS_OK) {
            ref_pos q = bs->pos;
            ref_play(&q, r.move);
            st = othello_engine_ponder(es->h, after, c.use_null ? NULL : &c.lim, &expected);
            expect_status(st, ref_game_over(&q) ? ST(OTHELLO_STATUS_GAME_OVER) : 0, "ponder");
            if (st == OTHELLO_STATUS_OK) {
                FZ_CHECK(ref_moves(&q) == 0 ? expected == OTHELLO_PASS
                                            : expected >= 0 && expected < 64 &&
                                                  ref_flips(&q, expected) != 0,
                         "ponder: expected reply %d", expected);
            }
        }
        othello_board_free(after);
        return;
    }
    /* The same search from a cleared engine and from a fresh one agree
     * (one thread: more may differ in the move among equal ones, the line
     * and the nodes). */
    if (!c.may_stop && c.eff.strategy == OTHELLO_STRATEGY_ENGINE && (fz_u8(in) & 3) == 0 &&
        c.eff.threads == 1 &&
        (es->hash_mb != 0 || heavy())) {
        othello_search_result r1, r2;
        othello_engine *fresh = othello_engine_new(es->hash_mb);
        othello_search_result_init(&r1);
        othello_search_result_init(&r2);
        FZ_CHECK(fresh != NULL, "engine_new");
        othello_engine_clear(es->h);
        st = othello_engine_search(es->h, bs->h, c.use_null ? NULL : &c.lim, &r1);
        expect_status(st, 0, "search after clear");
        st = othello_engine_search(fresh, bs->h, c.use_null ? NULL : &c.lim, &r2);
        expect_status(st, 0, "search on a fresh engine");
        FZ_CHECK(r1.move == r2.move && r1.score == r2.score && r1.depth == r2.depth &&
                     r1.exact == r2.exact && r1.nodes == r2.nodes && r1.pv_len == r2.pv_len &&
                     memcmp(r1.pv, r2.pv, r1.pv_len * sizeof(int)) == 0,
                 "cleared and fresh engines differ: move %d/%d score %d/%d nodes %llu/%llu",
                 r1.move, r2.move, r1.score, r2.score, (unsigned long long)r1.nodes,
                 (unsigned long long)r2.nodes);
        othello_engine_free(fresh);
    }
}

static void op_analyze(fz_input *in)
{
    engine_slot *es = pick_engine(in);
    board_slot *bs = pick_board(in);
    uint8_t v = fz_u8(in);
    limits_case c;
    progress_ctx ctx;
    othello_move_score storage[40], sentinel[40];
    othello_move_score *out = v & 1 ? NULL : storage;
    size_t cap = v & 1 ? (v & 2 ? (size_t)(v >> 2) : 0) : (size_t)(v >> 2) % 40;
    size_t n = SENTINEL_SIZE, i;
    size_t *n_ptr = fz_u8(in) & 1 ? NULL : &n;
    unsigned allowed = 0;
    othello_status st;
    int count = 0;
    int empties = bs->h != NULL ? ref_count(&bs->pos, '-') : 60;

    pick_limits(in, &c, &ctx, empties);
    if (!c.cheap_analysis) {
        return;
    }
    ctx.pos = &bs->pos;
    ctx.engine = es->h;
    memset(storage, 0xA5, sizeof storage);
    memcpy(sentinel, storage, sizeof storage);
    if (es->h == NULL || bs->h == NULL || (out == NULL && cap > 0)) {
        allowed |= ST(OTHELLO_STATUS_NULL_ARGUMENT);
    }
    allowed |= limits_errors(&c);
    if (bs->h != NULL) {
        count = ref_popcount(ref_moves(&bs->pos));
        if (ref_game_over(&bs->pos)) {
            allowed |= ST(OTHELLO_STATUS_GAME_OVER);
        }
        if (out != NULL && cap < (size_t)count) {
            allowed |= ST(OTHELLO_STATUS_BUFFER_TOO_SMALL);
        }
    }
    /* A limit that may end the analysis before every move is scored. */
    if (c.limited && out != NULL && allowed == 0) {
        allowed |= ST(OTHELLO_STATUS_STOPPED) | ST(OTHELLO_STATUS_OK);
    }
    st = othello_engine_analyze(es->h, bs->h, c.use_null ? NULL : &c.lim, out, cap, n_ptr);
    expect_status(st, allowed, "analyze");
    if (st == OTHELLO_STATUS_OK) {
        FZ_CHECK(n_ptr == NULL || n == (size_t)count, "analyze: n %zu, want %d", n, count);
        if (out == NULL) {
            return;
        }
        for (i = 0; i < (size_t)count; i++) {
            const othello_move_score *m = &storage[i];
            FZ_CHECK(m->move >= 0 && m->move < 64 && ref_flips(&bs->pos, m->move) != 0,
                     "analyze: illegal move %d", m->move);
            FZ_CHECK(i == 0 || m->score <= storage[i - 1].score, "analyze: not best first");
            if (m->exact && empties <= 10) {
                ref_pos q = bs->pos;
                ref_play(&q, m->move);
                FZ_CHECK(m->score == -ref_solve(&q, -65, 65), "analyze: exact score of %d",
                         m->move);
            }
        }
        FZ_CHECK(memcmp(storage + count, sentinel + count,
                        (40 - (size_t)count) * sizeof storage[0]) == 0,
                 "analyze wrote past its result");
    } else {
        FZ_CHECK(st != OTHELLO_STATUS_BUFFER_TOO_SMALL || n_ptr == NULL || n == (size_t)count,
                 "analyze BUFFER_TOO_SMALL: n %zu, want %d", n, count);
        FZ_CHECK(st == OTHELLO_STATUS_BUFFER_TOO_SMALL || n == SENTINEL_SIZE,
                 "a failed analyze wrote n");
        FZ_CHECK(memcmp(storage, sentinel, sizeof storage) == 0, "a failed analyze wrote out");
    }
    check_slot(bs);
}

static void op_best_move(fz_input *in)
{
    static const int levels[8] = {0, 1, 2, 0, -1, 61, INT_MIN, INT_MAX};
    board_slot *bs = pick_board(in);
    uint8_t v = fz_u8(in);
    int level = levels[v & 7];
    int move = SENTINEL_INT;
    unsigned allowed = 0;
    othello_status st;
    if (!heavy()) {
        return;
    }
    if (bs->h == NULL || (v & 8)) {
        allowed |= ST(OTHELLO_STATUS_NULL_ARGUMENT);
    }
    if (level < 0 || level > 60) {
        allowed |= ST(OTHELLO_STATUS_INVALID_ARGUMENT);
    }
    if (bs->h != NULL && ref_game_over(&bs->pos)) {
        allowed |= ST(OTHELLO_STATUS_GAME_OVER);
    }
    st = othello_board_best_move(bs->h, level, v & 8 ? NULL : &move);
    expect_status(st, allowed, "best_move");
    if (st == OTHELLO_STATUS_OK) {
        FZ_CHECK(ref_moves(&bs->pos) == 0 ? move == OTHELLO_PASS
                                          : move >= 0 && move < 64 &&
                                                ref_flips(&bs->pos, move) != 0,
                 "best_move: %d", move);
    } else {
        FZ_CHECK(move == SENTINEL_INT, "a failed best_move wrote *move");
    }
}

/* ---------------------------------------------------------------- entry */

/* OTHELLO_FUZZ_PROFILE=1: the time spent per operation, printed at exit (to
 * keep executions fast). */
static int profile_on = -1;
static double profile_total[18];
static long profile_count[18];
static struct timespec profile_t0;

static void profile_print(void)
{
    int i;
    for (i = 0; i < 18; i++) {
        fprintf(stderr, "op %2d: %8ld calls, %10.3f ms, %8.4f ms/call\n", i, profile_count[i],
                profile_total[i], profile_count[i] ? profile_total[i] / profile_count[i] : 0.0);
    }
}

static void profile_start(void)
{
    if (profile_on < 0) {
        profile_on = getenv("OTHELLO_FUZZ_PROFILE") != NULL;
        if (profile_on) {
            atexit(profile_print);
        }
    }
    if (profile_on) {
        clock_gettime(CLOCK_MONOTONIC, &profile_t0);
    }
}

static void profile_stop(int op)
{
    struct timespec t;
    if (!profile_on) {
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &t);
    profile_total[op] +=
        (t.tv_sec - profile_t0.tv_sec) * 1e3 + (t.tv_nsec - profile_t0.tv_nsec) / 1e6;
    profile_count[op]++;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_input in = {data, size, 0};
    ref_pos start;
    int i, ops = 0;

    ref_start(&start);
    for (i = 0; i < N_BOARDS; i++) {
        boards[i].h = NULL;
        model_reset(&boards[i], &start);
    }
    boards[0].h = othello_board_new();
    for (i = 0; i < N_ENGINES; i++) {
        engines[i].h = NULL;
        engines[i].hash_mb = 1;
    }
    engines[0].h = othello_engine_new(1);

    heavy_left = 1;
    while (fz_more(&in) && ops++ < 200) {
        uint8_t op = fz_u8(&in) % 18;
        fz_context[0] = '\0';
        profile_start();
        switch (op) {
        case 0: op_new(&in); break;
        case 1: op_clone(&in); break;
        case 2: op_free(&in); break;
        case 3: op_play(&in, 1); break;
        case 4: op_play(&in, 0); break;
        case 5: op_pass(&in); break;
        case 6: op_undo_redo(&in); break;
        case 7: op_walk(&in); break;
        case 8: op_text_out(&in); break;
        case 9: op_history(&in); break;
        case 10: op_from_text(&in); break;
        case 11: op_square(&in); break;
        case 12: op_errors(&in); break;
        case 13: op_engine(&in); break;
        case 14: op_search(&in); break;
        case 15: op_analyze(&in); break;
        case 16: op_best_move(&in); break;
        default: op_new_sized(&in); break;
        }
        profile_stop(op);
    }

    for (i = 0; i < N_BOARDS; i++) {
        check_slot(&boards[i]);
        free_board(&boards[i]);
    }
    for (i = 0; i < N_ENGINES; i++) {
        othello_engine_free(engines[i].h);
        engines[i].h = NULL;
    }
    return 0;
}
