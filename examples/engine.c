/*
 * engine.c: othello-engine, the one engine program `make -C examples
 * install` installs: nboard.c or gtp.c, chosen by a flag or by the first
 * command.
 *
 *   othello-engine --nboard [options]   the NBoard protocol (nboard.c)
 *   othello-engine --gtp [options]      the Go Text Protocol (gtp.c)
 *   othello-engine [options]            the first line on standard input
 *                                       decides: "nboard ..." is NBoard,
 *                                       anything else GTP
 *
 * The first line read is handed to the protocol chosen, as its first
 * command. The other options are the protocol's own.
 *
 * Build: make -C examples othello-engine && target/examples/othello-engine
 */

#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "engine.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: othello-engine [--nboard | --gtp] [--level N] [--hash MB] [--threads N]\n"
            "                      [--no-book] [--book-file FILE] [--weights FILE] [--ponder]\n"
            "\n"
            "The othello engine for Othello GUIs and match tools. It speaks the NBoard\n"
            "protocol (--nboard) or the Go Text Protocol, GTP (--gtp): commands on\n"
            "standard input, answers on standard output. With neither flag, the first\n"
            "command decides: \"nboard ...\" is NBoard, anything else GTP.\n"
            "\n"
            "NBoard: add an engine (Engine menu, Add) with the command line\n"
            "    othello-engine --nboard\n"
            "A GTP GUI (Quarry: Preferences, GTP engines; GoGui: Program > New Program)\n"
            "or match script: add a GTP engine with the command line\n"
            "    othello-engine --gtp --level 12\n"
            "\n"
            "  --nboard          speak NBoard (othello-engine --nboard --help: its commands)\n"
            "  --gtp             speak GTP (othello-engine --gtp --help: its commands)\n"
            "  --level N         GTP: engine level 1..60 (default 10); in NBoard, the GUI's\n"
            "                    set depth decides\n"
            "  --hash MB         transposition table size in MiB (default 64)\n"
            "  --threads N       search with N threads, 0..256 (default 1; 0: one per core)\n"
            "  --no-book         no opening book: every move is searched\n"
            "  --book-file FILE  play from the book in FILE (written by othello-book)\n"
            "  --weights FILE    evaluate with the weights in FILE (written by\n"
            "                    othello-train)\n"
            "  --ponder          think on the opponent's time (a second core helps)\n"
            "  --help            show this text\n");
}

int main(int argc, char **argv)
{
    enum protocol { DETECT, NBOARD, GTP } protocol = DETECT;
    bool help = false;
    /* The protocol's argv: argv without --nboard and --gtp. */
    int n = 1;
    for (int i = 1; i < argc; i++) {
        enum protocol chosen = strcmp(argv[i], "--nboard") == 0 ? NBOARD : strcmp(argv[i], "--gtp") == 0 ? GTP : DETECT;
        if (chosen == DETECT) {
            help = help || strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0;
            argv[n++] = argv[i];
        } else if (protocol != DETECT && protocol != chosen) {
            fprintf(stderr, "othello-engine: --nboard or --gtp, not both\n");
            return 2;
        } else {
            protocol = chosen;
        }
    }
    argv[n] = NULL;
    if (protocol == DETECT && help) {
        usage(stdout);
        return EXIT_SUCCESS;
    }

    char *line = NULL;
    size_t cap = 0;
    size_t len = 0;
    if (protocol == DETECT) {
        ssize_t got = getline(&line, &cap, stdin);
        if (got == -1) {
            free(line);
            return EXIT_SUCCESS;
        }
        len = (size_t)got;
        /* NBoard GUIs open with "nboard VERSION"; GTP has no such command. */
        size_t start = strspn(line, " \t");
        size_t word = strcspn(line + start, " \t\r\n");
        protocol = word == 6 && strncmp(line + start, "nboard", 6) == 0 ? NBOARD : GTP;
    }
    int status = protocol == NBOARD ? nboard_main(n, argv, line, len) : gtp_main(n, argv, line, len);
    free(line);
    return status;
}
