/*
 * nboard.c: fuzz target for the NBoard protocol program examples/nboard.c,
 * whose code it includes (its main() renamed): the input is split into
 * lines, each handed to the program's handle_input() as if read from
 * standard input, on one session per input. A line that starts a search
 * (go, hint, analyze) has it stopped at once, so that no input runs long.
 * The replies go to a memory stream instead of standard output.
 *
 * After every line:
 *  - the session's game is a board, and the reference rules of common.h
 *    agree with it (board string, counts adding up to 64, legal moves,
 *    mobility, pass, game over); its history is as long as its move number
 *    says; no job is left running;
 *  - every reply is one whole line of a kind the protocol has (set myname,
 *    pong, error, status, nodestats, search, book, ===, analysis, learned)
 *    with no control character in it;
 *  - a line that starts no search gets at most one reply; a ping with a
 *    number gets "pong N" with its number; a reply "error ..." means that
 *    the game is as it was; only set game and moves change the game, a move
 *    by one or two turns (an implied pass);
 *  - a search job ends with "status"; go answers one "=== MV" (or an
 *    error), MV legal (PA exactly when the side to move must pass); the
 *    moves of hint's search lines and the first moves of its and go's book
 *    lines are legal; analysis lines count down the
 *    game's turns; go and hint on a finished game start nothing and say so.
 */

#define NBOARD_STOP_PAUSE_NS (50 * 1000)
#define main nboard_program_main
#include "../examples/nboard.c"
#undef main

#include "common.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One small engine for the whole process, cleared for each input. */
static othello_engine *fz_engine;

/* The replies of the current input. */
static char *fz_out;
static size_t fz_out_len;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    signal(SIGPIPE, SIG_IGN);
    return 0;
}

/* The game's state: its board string and history. */
typedef struct {
    char text[67];
    int hist[MAX_GGF_MOVES + 64];
    size_t n_hist;
} fz_game;

static void fz_snapshot(const othello_board *b, fz_game *g)
{
    FZ_CHECK(b != NULL, "the session has no game");
    fz_board_string(b, g->text);
    FZ_CHECK(othello_board_history(b, g->hist, sizeof g->hist / sizeof g->hist[0], &g->n_hist) ==
                 OTHELLO_STATUS_OK,
             "history of %s", g->text);
    FZ_CHECK(othello_board_move_number(b) == (int)g->n_hist + 1, "move number %d, %zu turns",
             othello_board_move_number(b), g->n_hist);
}

static int fz_same_game(const fz_game *a, const fz_game *b)
{
    return strcmp(a->text, b->text) == 0 && a->n_hist == b->n_hist &&
           memcmp(a->hist, b->hist, a->n_hist * sizeof a->hist[0]) == 0;
}

/* The session's game against the reference rules. */
static void fz_check_game(const struct session *s, fz_game *now)
{
    ref_pos p;
    int i;
    fz_snapshot(s->game, now);
    for (i = 0; i < 64; i++) {
        FZ_CHECK(now->text[i] == 'X' || now->text[i] == 'O' || now->text[i] == '-',
                 "board string %s", now->text);
        p.cell[i] = now->text[i];
    }
    p.side = now->text[65];
    FZ_CHECK(p.side == 'X' || p.side == 'O', "side in %s", now->text);
    fz_check_position(s->game, &p);
    FZ_CHECK(!s->running && s->job_board == NULL, "a job is left running");
    FZ_CHECK(s->level >= 1 && s->level <= 60, "level %d", s->level);
    FZ_CHECK(s->version >= 0 && s->version <= 2, "version %d", s->version);
}

static int fz_starts(const char *line, const char *prefix)
{
    return strncmp(line, prefix, strlen(prefix)) == 0;
}

/* A move as the replies write it: a square's name, or PA. */
static int fz_move_of(const char *text, size_t len, int *sq)
{
    char name[3];
    if (len == 2 && text[0] == 'P' && text[1] == 'A') {
        *sq = OTHELLO_PASS;
        return 1;
    }
    if (len != 2) {
        return 0;
    }
    memcpy(name, text, 2);
    name[2] = '\0';
    return othello_square_parse(name, sq) == OTHELLO_STATUS_OK && othello_square_name(*sq, name, 3) ==
           OTHELLO_STATUS_OK && memcmp(name, text, 2) == 0;
}

/* A move a reply names for `b`: legal, or PA when `b`'s side must pass. */
static void fz_check_reply_move(const othello_board *b, const char *text, size_t len,
                                const char *line)
{
    int sq;
    FZ_CHECK(fz_move_of(text, len, &sq), "no move in the reply \"%s\"", line);
    if (sq == OTHELLO_PASS) {
        FZ_CHECK(othello_board_must_pass(b), "PA in \"%s\", but there are moves", line);
    } else {
        FZ_CHECK(othello_board_is_legal(b, sq), "illegal move in \"%s\"", line);
    }
}

/* The replies written since `from`, split into lines (a copy, in which
 * the newlines become NULs); their number. */
static size_t fz_replies(size_t from, char **lines, size_t cap)
{
    static char *copy;
    size_t n = 0, i = 0, len;
    FZ_CHECK(fflush(reply_stream) == 0, "flush");
    FZ_CHECK(from <= fz_out_len, "the replies shrank");
    len = fz_out_len - from;
    free(copy);
    copy = malloc(len + 1);
    FZ_CHECK(copy != NULL, "out of memory");
    memcpy(copy, fz_out + from, len);
    copy[len] = '\0';
    FZ_CHECK(len == 0 || copy[len - 1] == '\n', "a reply without its newline");
    while (i < len) {
        char *end = memchr(copy + i, '\n', len - i);
        size_t k;
        FZ_CHECK(end != NULL, "a reply without its newline");
        *end = '\0';
        for (k = i; copy + k < end; k++) {
            FZ_CHECK((unsigned char)copy[k] >= 0x20,
                     "control character 0x%02x in the reply \"%s\"", (unsigned char)copy[k],
                     copy + i);
        }
        if (n < cap) {
            lines[n] = copy + i;
        }
        n++;
        i = (size_t)(end - copy) + 1;
    }
    return n;
}

static void fz_check_kind(const char *line)
{
    static const char *const kinds[] = {("set myname " NAME), "pong ", "error ", "nodestats ",
                                        "search ", "book ", "=== ", "analysis ", "status"};
    size_t i;
    if (strcmp(line, "learned") == 0) {
        return;
    }
    for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (fz_starts(line, kinds[i])) {
            FZ_CHECK(strcmp(kinds[i], "status") != 0 || line[6] == '\0' || line[6] == ' ',
                     "reply \"%s\"", line);
            FZ_CHECK(strcmp(kinds[i], "error ") != 0 || line[6] != '\0', "an empty error");
            return;
        }
    }
    FZ_CHECK(0, "a reply the protocol has not: \"%s\"", line);
}

/* The replies of a search job, started by `cmd` on the game `b`. */
static void fz_check_job(const othello_board *b, const char *cmd, char **lines, size_t n)
{
    size_t i, answers = 0;
    int last_k = INT_MAX;
    FZ_CHECK(n >= 1 && strcmp(lines[n - 1], "status") == 0, "%s: the job did not end with status",
             cmd);
    for (i = 0; i + 1 < n; i++) {
        const char *l = lines[i];
        if (strcmp(cmd, "go") == 0) {
            if (fz_starts(l, "=== ")) {
                const char *slash = strchr(l + 4, '/');
                fz_check_reply_move(b, l + 4, slash != NULL ? (size_t)(slash - (l + 4)) : strlen(l + 4), l);
                answers++;
            } else if (fz_starts(l, "error ")) {
                answers++;
            } else if (fz_starts(l, "book ")) {
                const char *sp = strchr(l + 5, ' ');
                FZ_CHECK(sp != NULL && sp > l + 5 && (sp - (l + 5)) % 2 == 0, "go: reply \"%s\"", l);
                fz_check_reply_move(b, l + 5, 2, l);
            } else {
                FZ_CHECK(fz_starts(l, "status thinking") || fz_starts(l, "nodestats ") ||
                             fz_starts(l, "search "),
                         "go: reply \"%s\"", l);
            }
        } else if (strcmp(cmd, "hint") == 0) {
            if (fz_starts(l, "search ")) {
                const char *sp = strchr(l + 7, ' ');
                FZ_CHECK(sp != NULL, "hint: reply \"%s\"", l);
                fz_check_reply_move(b, l + 7, (size_t)(sp - (l + 7)), l);
            } else if (fz_starts(l, "book ")) {
                const char *sp = strchr(l + 5, ' ');
                FZ_CHECK(sp != NULL && sp > l + 5 && (sp - (l + 5)) % 2 == 0, "hint: reply \"%s\"", l);
                fz_check_reply_move(b, l + 5, 2, l);
            } else {
                FZ_CHECK(fz_starts(l, "status thinking") || fz_starts(l, "error hint: "),
                         "hint: reply \"%s\"", l);
            }
        } else {
            if (fz_starts(l, "analysis ")) {
                char *end;
                long k = strtol(l + 9, &end, 10);
                FZ_CHECK(end != l + 9 && *end == ' ' && k >= 0 &&
                             k < othello_board_move_number(b) && k < last_k,
                         "analyze: reply \"%s\" (move number %d)", l,
                         othello_board_move_number(b));
                last_k = (int)k;
            } else {
                FZ_CHECK(fz_starts(l, "status analyzing: ") || fz_starts(l, "error analyze: "),
                         "analyze: reply \"%s\"", l);
            }
        }
    }
    FZ_CHECK(strcmp(cmd, "go") != 0 || answers == 1, "go: %zu answers", answers);
}

/* The first word of a line, as handle() reads it. */
static void fz_first_word(const char *line, char *word, size_t cap)
{
    size_t k = 0;
    while (isspace((unsigned char)*line)) {
        line++;
    }
    while (*line != '\0' && !isspace((unsigned char)*line) && k + 1 < cap) {
        word[k++] = *line++;
    }
    word[k] = '\0';
}

/* The number of a "ping N" line, when handle() accepts it. */
static int fz_ping_arg(const char *line, long *v)
{
    size_t len = strlen(line);
    char *copy = malloc(len + 1), *words[3] = {NULL, NULL, NULL}, *p, *end;
    int n = 0, ok;
    FZ_CHECK(copy != NULL, "out of memory");
    memcpy(copy, line, len + 1);
    p = copy;
    while (n < 3) {
        while (isspace((unsigned char)*p)) {
            p++;
        }
        if (*p == '\0') {
            break;
        }
        words[n++] = p;
        while (*p != '\0' && !isspace((unsigned char)*p)) {
            p++;
        }
        if (*p != '\0') {
            *p++ = '\0';
        }
    }
    ok = n == 2 && strcmp(words[0], "ping") == 0;
    if (ok) {
        errno = 0;
        *v = strtol(words[1], &end, 10);
        ok = errno == 0 && *end == '\0' && end != words[1];
    }
    free(copy);
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fz_game before, after;
    struct session s;
    size_t pos = 0;
    FILE *stream;
    static char *lines[1024];

    if (fz_engine == NULL) {
        fz_engine = othello_engine_new(1);
        FZ_CHECK(fz_engine != NULL, "engine_new(1)");
    }
    othello_engine_clear(fz_engine);
    fz_out = NULL;
    fz_out_len = 0;
    stream = open_memstream(&fz_out, &fz_out_len);
    FZ_CHECK(stream != NULL, "open_memstream");
    reply_stream = stream;

    memset(&s, 0, sizeof s);
    s.level = DEFAULT_LEVEL;
    s.book = true;
    s.threads = 1; /* as main() starts it; "set threads N" may change it */
    s.game = othello_board_new();
    s.engine = fz_engine;
    atomic_init(&s.done, true);
    atomic_init(&s.cancel, false);
    FZ_CHECK(s.game != NULL, "board_new");
    fz_check_game(&s, &before);

    while (pos < size) {
        const uint8_t *nl = memchr(data + pos, '\n', size - pos);
        size_t len = nl != NULL ? (size_t)(nl - (data + pos)) + 1 : size - pos;
        char *line = malloc(len + 1), word[16];
        size_t from, n, i;
        int job, keep_going, nul, ping_ok;
        long ping_arg = 0;
        FZ_CHECK(line != NULL, "out of memory");
        memcpy(line, data + pos, len);
        line[len] = '\0';
        pos += len;
        nul = memchr(line, '\0', len) != NULL;
        fz_first_word(line, word, sizeof word);
        ping_ok = fz_ping_arg(line, &ping_arg);
        fz_note("line \"%.200s\"", line);
        FZ_CHECK(fflush(stream) == 0, "flush");
        from = fz_out_len;

        keep_going = handle_input(&s, line, len);
        job = s.running;
        finish_job(&s, true);
        free(line);

        n = fz_replies(from, lines, sizeof lines / sizeof lines[0]);
        for (i = 0; i < n && i < sizeof lines / sizeof lines[0]; i++) {
            fz_check_kind(lines[i]);
            if (fz_starts(lines[i], "set myname ")) {
                char want[40];
                snprintf(want, sizeof want, "set myname %s%d", NAME, s.level);
                FZ_CHECK(strcmp(lines[i], want) == 0, "reply \"%s\", want \"%s\"", lines[i], want);
            }
        }
        fz_check_game(&s, &after);
        if (job) {
            FZ_CHECK(!nul, "a job started by a line with a NUL");
            if (n <= sizeof lines / sizeof lines[0]) {
                fz_check_job(s.game, word, lines, n);
            }
            FZ_CHECK(fz_same_game(&before, &after), "%s changed the game", word);
        } else {
            FZ_CHECK(n <= 1, "%zu replies to a line that starts no search", n);
            if (n == 1 && fz_starts(lines[0], "error ")) {
                FZ_CHECK(fz_same_game(&before, &after), "the game changed, and the reply is \"%s\"",
                         lines[0]);
            }
            if (!nul && strcmp(word, "go") == 0 && othello_board_is_game_over(s.game)) {
                FZ_CHECK(n == 1 && strstr(lines[0], "the game is over") != NULL,
                         "go on a finished game: no error");
            }
            if (!nul && strcmp(word, "ping") == 0) {
                FZ_CHECK(n == 1, "ping: no reply");
                if (ping_ok) {
                    char want[40];
                    snprintf(want, sizeof want, "pong %ld", ping_arg);
                    FZ_CHECK(strcmp(lines[0], want) == 0, "reply \"%s\", want \"%s\"", lines[0],
                             want);
                } else {
                    FZ_CHECK(fz_starts(lines[0], "error ping: "), "reply \"%s\"", lines[0]);
                }
            }
        }
        if (nul || (strcmp(word, "set") != 0 && strcmp(word, "move") != 0 && strlen(word) != 2)) {
            FZ_CHECK(fz_same_game(&before, &after), "\"%s\" changed the game", word);
        } else if (!fz_same_game(&before, &after) && strcmp(word, "move") == 0) {
            FZ_CHECK(after.n_hist == before.n_hist + 1 || after.n_hist == before.n_hist + 2,
                     "a move took %zu turns", after.n_hist - before.n_hist);
        }
        before = after;
        if (!keep_going) {
            FZ_CHECK(strcmp(word, "quit") == 0 && !nul, "\"%s\" ended the session", word);
            break;
        }
    }

    finish_job(&s, true);
    othello_board_free(s.game);
    reply_stream = NULL;
    FZ_CHECK(fclose(stream) == 0, "fclose");
    free(fz_out);
    fz_out = NULL;
    fz_note("%s", "");
    return 0;
}
