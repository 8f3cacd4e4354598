/*
 * common.h: what the fuzz targets share.
 *
 *  - FZ_CHECK: a failed check prints where and why, then abort()s, which
 *    libFuzzer (and the standalone replayer) report as a crash;
 *  - fz_input: the byte string being decoded into calls;
 *  - a reference implementation of the rules on a plain 64-character board
 *    (slow, obviously correct), an exact solver for small endgames, and the
 *    reference grammars of square names, board strings and transcripts,
 *    written from docs/guide.md and othello.h, against which the library is compared.
 *
 * Everything is static: each target is one translation unit.
 */

#ifndef OTHELLO_FUZZ_COMMON_H
#define OTHELLO_FUZZ_COMMON_H

#include "othello.h"

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reference code needs no coverage feedback of its own (the library's
 * is what matters) and runs often: keep libFuzzer's instrumentation out. */
#if defined(__clang__) && __clang_major__ >= 13
#define FZ_NOCOV __attribute__((no_sanitize("coverage")))
#else
#define FZ_NOCOV
#endif

/* ------------------------------------------------------------------ checks */

/* What the target is doing, printed with a failed check (see fz_note). */
static char fz_context[512];

/* Describes the call being made, for the report of a failed check. */
static inline void fz_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fz_context, sizeof fz_context, fmt, ap);
    va_end(ap);
}

static inline void fz_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    va_list ap;
    char msg[512] = "";
    size_t n = 0;
    fprintf(stderr, "\nFUZZ CHECK FAILED at %s:%d: %s\n", file, line, cond);
    if (fz_context[0] != '\0') {
        fprintf(stderr, "during: %s\n", fz_context);
    }
    if (fmt != NULL) {
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
    if (othello_last_error(msg, sizeof msg, &n) == OTHELLO_STATUS_OK) {
        fprintf(stderr, "last status %d, last error: %s\n", (int)othello_last_status(), msg);
    }
    abort();
}

#define FZ_CHECK(cond, ...)                                                    \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                   \
        }                                                                      \
    } while (0)

/* A status no call may ever return: a panic inside the library. */
static inline void fz_no_panic(const char *what)
{
    FZ_CHECK(othello_last_status() != OTHELLO_STATUS_PANIC, "%s: the library panicked", what);
}

/* ------------------------------------------------------------------- input */

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t pos;
} fz_input;

static inline int fz_more(const fz_input *in) { return in->pos < in->size; }

static inline uint8_t fz_u8(fz_input *in) { return in->pos < in->size ? in->data[in->pos++] : 0; }

static inline uint16_t fz_u16(fz_input *in)
{
    uint16_t v = fz_u8(in);
    return (uint16_t)(v | (uint16_t)fz_u8(in) << 8);
}

static inline uint32_t fz_u32(fz_input *in)
{
    uint32_t v = fz_u16(in);
    return v | (uint32_t)fz_u16(in) << 16;
}

static inline uint64_t fz_u64(fz_input *in)
{
    uint64_t v = fz_u32(in);
    return v | (uint64_t)fz_u32(in) << 32;
}

/* ------------------------------------------------------- reference rules */

/* A position: cell[i] is 'X' (black), 'O' (white) or '-', i = row * 8 + col;
 * side is 'X' or 'O'. */
typedef struct {
    char cell[64];
    char side;
} ref_pos;

static const int REF_DR[8] = {-1, -1, -1, 0, 0, 1, 1, 1};
static const int REF_DC[8] = {-1, 0, 1, -1, 1, -1, 0, 1};

static inline FZ_NOCOV char ref_other(char c) { return c == 'X' ? 'O' : 'X'; }

static inline FZ_NOCOV int ref_popcount(uint64_t b) { return __builtin_popcountll(b); }

static inline FZ_NOCOV void ref_start(ref_pos *p)
{
    memset(p->cell, '-', 64);
    p->cell[27] = 'O'; /* d4 */
    p->cell[28] = 'X'; /* e4 */
    p->cell[35] = 'X'; /* d5 */
    p->cell[36] = 'O'; /* e5 */
    p->side = 'X';
}

/* The discs `me` would flip by playing `sq` (0 if it is not a legal move). */
static inline FZ_NOCOV uint64_t ref_flips_for(const ref_pos *p, int sq, char me)
{
    uint64_t all = 0;
    int d;
    if (sq < 0 || sq > 63 || p->cell[sq] != '-') {
        return 0;
    }
    for (d = 0; d < 8; d++) {
        uint64_t line = 0;
        int r = sq / 8 + REF_DR[d], c = sq % 8 + REF_DC[d];
        while (r >= 0 && r < 8 && c >= 0 && c < 8 && p->cell[r * 8 + c] == ref_other(me)) {
            line |= (uint64_t)1 << (r * 8 + c);
            r += REF_DR[d];
            c += REF_DC[d];
        }
        if (line != 0 && r >= 0 && r < 8 && c >= 0 && c < 8 && p->cell[r * 8 + c] == me) {
            all |= line;
        }
    }
    return all;
}

static inline FZ_NOCOV uint64_t ref_flips(const ref_pos *p, int sq) { return ref_flips_for(p, sq, p->side); }

static inline FZ_NOCOV uint64_t ref_moves_for(const ref_pos *p, char me)
{
    uint64_t m = 0;
    int sq;
    for (sq = 0; sq < 64; sq++) {
        if (ref_flips_for(p, sq, me) != 0) {
            m |= (uint64_t)1 << sq;
        }
    }
    return m;
}

static inline FZ_NOCOV uint64_t ref_moves(const ref_pos *p) { return ref_moves_for(p, p->side); }

static inline FZ_NOCOV int ref_game_over(const ref_pos *p)
{
    return ref_moves_for(p, 'X') == 0 && ref_moves_for(p, 'O') == 0;
}

static inline FZ_NOCOV int ref_must_pass(const ref_pos *p)
{
    return ref_moves(p) == 0 && ref_moves_for(p, ref_other(p->side)) != 0;
}

static inline FZ_NOCOV int ref_count(const ref_pos *p, char c)
{
    int n = 0, i;
    for (i = 0; i < 64; i++) {
        n += p->cell[i] == c;
    }
    return n;
}

/* Plays a legal move `sq`. */
static inline FZ_NOCOV void ref_play(ref_pos *p, int sq)
{
    uint64_t f = ref_flips(p, sq);
    int i;
    p->cell[sq] = p->side;
    for (i = 0; i < 64; i++) {
        if (f >> i & 1) {
            p->cell[i] = p->side;
        }
    }
    p->side = ref_other(p->side);
}

static inline FZ_NOCOV void ref_pass(ref_pos *p) { p->side = ref_other(p->side); }

/* The board string: 66 characters and a NUL. */
static inline FZ_NOCOV void ref_to_string(const ref_pos *p, char out[67])
{
    memcpy(out, p->cell, 64);
    out[64] = ' ';
    out[65] = p->side;
    out[66] = '\0';
}

static inline FZ_NOCOV void ref_square_name(int sq, char out[3])
{
    out[0] = (char)('a' + sq % 8);
    out[1] = (char)('1' + sq / 8);
    out[2] = '\0';
}

/* The exact final disc difference for the side to move, empties to the
 * winner, by plain alpha-beta: only for a few empties. */
static inline FZ_NOCOV int ref_final_score(const ref_pos *p)
{
    int mine = ref_count(p, p->side), theirs = ref_count(p, ref_other(p->side));
    int empties = 64 - mine - theirs;
    int diff = mine - theirs;
    if (diff > 0) {
        diff += empties;
    } else if (diff < 0) {
        diff -= empties;
    }
    return diff;
}

static inline FZ_NOCOV int ref_solve(const ref_pos *p, int alpha, int beta)
{
    uint64_t moves = ref_moves(p);
    int best = -65, sq;
    if (moves == 0) {
        ref_pos q = *p;
        if (ref_moves_for(p, ref_other(p->side)) == 0) {
            return ref_final_score(p);
        }
        ref_pass(&q);
        return -ref_solve(&q, -beta, -alpha);
    }
    for (sq = 0; sq < 64; sq++) {
        if (moves >> sq & 1) {
            ref_pos q = *p;
            int v;
            ref_play(&q, sq);
            v = -ref_solve(&q, -beta, -alpha);
            if (v > best) {
                best = v;
            }
            if (v > alpha) {
                alpha = v;
            }
            if (alpha >= beta) {
                break;
            }
        }
    }
    return best;
}

/* ------------------------------------------------------ reference parsers */

/* Strict UTF-8, as Rust's str accepts it. */
static inline FZ_NOCOV int ref_utf8_valid(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t len, k;
        uint8_t lo = 0x80, hi = 0xBF;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            len = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            len = 3;
            if (c == 0xE0) {
                lo = 0xA0;
            } else if (c == 0xED) {
                hi = 0x9F;
            }
        } else if (c >= 0xF0 && c <= 0xF4) {
            len = 4;
            if (c == 0xF0) {
                lo = 0x90;
            } else if (c == 0xF4) {
                hi = 0x8F;
            }
        } else {
            return 0;
        }
        if (i + len > n) {
            return 0;
        }
        if (s[i + 1] < lo || s[i + 1] > hi) {
            return 0;
        }
        for (k = 2; k < len; k++) {
            if (s[i + k] < 0x80 || s[i + k] > 0xBF) {
                return 0;
            }
        }
        i += len;
    }
    return 1;
}

/* Decodes the (valid) UTF-8 character at s[i]; its length goes to *len. */
static inline FZ_NOCOV uint32_t ref_utf8_at(const uint8_t *s, size_t i, size_t *len)
{
    uint8_t c = s[i];
    if (c < 0x80) {
        *len = 1;
        return c;
    }
    if (c < 0xE0) {
        *len = 2;
        return (uint32_t)(c & 0x1F) << 6 | (s[i + 1] & 0x3F);
    }
    if (c < 0xF0) {
        *len = 3;
        return (uint32_t)(c & 0x0F) << 12 | (uint32_t)(s[i + 1] & 0x3F) << 6 | (s[i + 2] & 0x3F);
    }
    *len = 4;
    return (uint32_t)(c & 0x07) << 18 | (uint32_t)(s[i + 1] & 0x3F) << 12 |
           (uint32_t)(s[i + 2] & 0x3F) << 6 | (s[i + 3] & 0x3F);
}

/* Unicode White_Space, what Rust's str::trim removes. */
static inline FZ_NOCOV int ref_unicode_space(uint32_t c)
{
    return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
           c == 0x205F || c == 0x3000;
}

/* The square named by exactly these two bytes, or -1. */
static inline FZ_NOCOV int ref_square_of(const uint8_t *two)
{
    int col = two[0] >= 'A' && two[0] <= 'H' ? two[0] - 'A'
              : two[0] >= 'a' && two[0] <= 'h' ? two[0] - 'a'
                                               : -1;
    int row = two[1] >= '1' && two[1] <= '8' ? two[1] - '1' : -1;
    return col < 0 || row < 0 ? -1 : row * 8 + col;
}

/* A square name: exactly a column letter a..h (either case) and a row 1..8. */
static inline FZ_NOCOV int ref_parse_square(const uint8_t *s, size_t n)
{
    return n == 2 ? ref_square_of(s) : -1;
}

/*
 * The parsers are checked against two grammars each: a strict one, what
 * docs/guide.md and othello.h document, which the library must accept; and a
 * lenient one, a superset (what the library has accepted beyond the
 * documentation), outside which it must reject. Between the two the library
 * may go either way; what it accepts must mean what the lenient grammar
 * reads.
 */

/* One character of a board string: 'X', 'O', '-', or 0 if it is none.
 * Documented: X x * B for black, O o W for white, - . for empty; lenient:
 * also lower-case b and w. */
static inline FZ_NOCOV char ref_disc_of(uint8_t c, int lenient)
{
    switch (c) {
    case 'X': case 'x': case '*': case 'B':
        return 'X';
    case 'O': case 'o': case 'W':
        return 'O';
    case '-': case '.':
        return '-';
    case 'b':
        return lenient ? 'X' : 0;
    case 'w':
        return lenient ? 'O' : 0;
    default:
        return 0;
    }
}

/* Whitespace: strict, ASCII space, tab, CR, LF; lenient, Unicode
 * White_Space (what Rust's str::trim removes). */
static inline FZ_NOCOV int ref_board_space(uint32_t c, int lenient)
{
    return lenient ? ref_unicode_space(c) : c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A board string: surrounding whitespace, 64 square characters, at least one
 * whitespace character (strict: spaces and tabs), one side-to-move
 * character. Returns 1 and fills *out if it is one. */
static inline FZ_NOCOV int ref_parse_board(const uint8_t *s, size_t n, ref_pos *out, int lenient)
{
    size_t start = 0, end = 0, i, len;
    int i64;
    if (!ref_utf8_valid(s, n)) {
        return 0;
    }
    /* Trim: start at the first non-space character, end after the last. */
    for (i = 0; i < n; i += len) {
        uint32_t c = ref_utf8_at(s, i, &len);
        if (!ref_board_space(c, lenient)) {
            if (end == 0) {
                start = i;
            }
            end = i + len;
        }
    }
    if (end == 0 || end - start < 65) {
        return 0;
    }
    s += start;
    n = end - start;
    for (i64 = 0; i64 < 64; i64++) {
        char d = ref_disc_of(s[i64], lenient);
        if (d == 0) {
            return 0;
        }
        out->cell[i64] = d;
    }
    i = 64;
    while (i < n) {
        uint32_t c = ref_utf8_at(s, i, &len);
        if (lenient ? !ref_unicode_space(c) : c != ' ' && c != '\t') {
            break;
        }
        i += len;
    }
    if (i == 64 || i + 1 != n) {
        return 0;
    }
    out->side = ref_disc_of(s[i], lenient);
    return out->side == 'X' || out->side == 'O';
}

/* A parsed transcript: the turns played from the start (squares, -1 for an
 * implied pass) and the position reached. */
#define REF_MAX_TURNS 160

typedef struct {
    int turns[REF_MAX_TURNS];
    int n_turns;
    ref_pos pos;
} ref_game;

/* Whitespace in transcripts: strict, ASCII space, tab, CR, LF; lenient, any
 * ASCII whitespace (with form feed and vertical tab). */
static inline FZ_NOCOV int ref_transcript_space(uint8_t c, int lenient)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || (lenient && (c == '\f' || c == '\v'));
}

/* A transcript: valid UTF-8; square names (either case), each a legal move
 * from the standard start, a pass implied when the side to move has none;
 * whitespace between moves (lenient: anywhere, also inside a move: "f 5" is
 * f5, as the library has read it). */
static inline FZ_NOCOV int ref_parse_transcript(const uint8_t *s, size_t n, ref_game *g,
                                                int lenient)
{
    uint8_t pair[2];
    size_t i, k = 0;
    if (!ref_utf8_valid(s, n)) {
        return 0;
    }
    ref_start(&g->pos);
    g->n_turns = 0;
    for (i = 0; i < n; i++) {
        int sq;
        if (ref_transcript_space(s[i], lenient)) {
            if (k == 1 && !lenient) {
                return 0; /* inside a move */
            }
            continue;
        }
        pair[k++] = s[i];
        if (k < 2) {
            continue;
        }
        k = 0;
        sq = ref_square_of(pair);
        if (sq < 0) {
            return 0;
        }
        if (ref_must_pass(&g->pos)) {
            ref_pass(&g->pos);
            g->turns[g->n_turns++] = OTHELLO_PASS;
        }
        if (ref_flips(&g->pos, sq) == 0) {
            return 0;
        }
        ref_play(&g->pos, sq);
        g->turns[g->n_turns++] = sq;
    }
    return k == 0;
}

/* ------------------------------------------------- library-side helpers */

/* The board string of `b` as the library writes it. */
static inline void fz_board_string(const othello_board *b, char out[67])
{
    size_t n = 0;
    othello_status st = othello_board_to_string(b, out, 67, &n);
    FZ_CHECK(st == OTHELLO_STATUS_OK && n == 66, "to_string: status %d, n %zu", (int)st, n);
}

/* Checks that the library's `b` is the reference position `p`, through
 * every read-only call. */
static inline void fz_check_position(const othello_board *b, const ref_pos *p)
{
    char text[67], want[67];
    int moves[64], sq, n_moves = 0;
    size_t n;
    uint64_t legal = ref_moves(p);
    int black = ref_count(p, 'X'), white = ref_count(p, 'O'), empty = ref_count(p, '-');

    fz_board_string(b, text);
    ref_to_string(p, want);
    FZ_CHECK(strcmp(text, want) == 0, "board string\n got  %s\n want %s", text, want);
    FZ_CHECK(othello_board_side_to_move(b) ==
                 (p->side == 'X' ? OTHELLO_COLOR_BLACK : OTHELLO_COLOR_WHITE),
             "side to move of %s", want);
    for (sq = 0; sq < 64; sq++) {
        othello_color c = othello_board_get(b, sq);
        othello_color w = p->cell[sq] == 'X'   ? OTHELLO_COLOR_BLACK
                          : p->cell[sq] == 'O' ? OTHELLO_COLOR_WHITE
                                               : OTHELLO_COLOR_EMPTY;
        FZ_CHECK(c == w, "get(%d) = %d, want %d in %s", sq, (int)c, (int)w, want);
        FZ_CHECK(othello_board_is_legal(b, sq) == (int)(legal >> sq & 1), "is_legal(%d) in %s",
                 sq, want);
    }
    FZ_CHECK(othello_board_count(b, OTHELLO_COLOR_BLACK) == black, "black count in %s", want);
    FZ_CHECK(othello_board_count(b, OTHELLO_COLOR_WHITE) == white, "white count in %s", want);
    FZ_CHECK(othello_board_count(b, OTHELLO_COLOR_EMPTY) == empty, "empty count in %s", want);
    FZ_CHECK(black + white + empty == 64, "counts");
    FZ_CHECK(othello_board_mobility(b, OTHELLO_COLOR_BLACK) ==
                 ref_popcount(ref_moves_for(p, 'X')),
             "black mobility in %s", want);
    FZ_CHECK(othello_board_mobility(b, OTHELLO_COLOR_WHITE) ==
                 ref_popcount(ref_moves_for(p, 'O')),
             "white mobility in %s", want);
    n = othello_board_legal_moves(b, moves, 64);
    FZ_CHECK(n == (size_t)ref_popcount(legal), "legal move count %zu in %s", n, want);
    for (sq = 0; sq < 64; sq++) {
        if (legal >> sq & 1) {
            FZ_CHECK(moves[n_moves] == sq, "legal move %d: %d, want %d in %s", n_moves,
                     moves[n_moves], sq, want);
            n_moves++;
        }
    }
    FZ_CHECK(othello_board_legal_moves(b, NULL, 0) == n, "legal move count query");
    FZ_CHECK(othello_board_must_pass(b) == ref_must_pass(p), "must_pass in %s", want);
    FZ_CHECK(othello_board_is_game_over(b) == ref_game_over(p), "is_game_over in %s", want);
    fz_no_panic("read-only calls");
}

#endif /* OTHELLO_FUZZ_COMMON_H */
