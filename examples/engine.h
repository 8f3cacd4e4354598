/*
 * engine.h: the protocol programs nboard.c and gtp.c as functions, for the
 * front engine.c (compiled with -DOTHELLO_ENGINE_FRONT, where they have no
 * main of their own).
 *
 * Each takes its program's argc and argv, and the first command line when
 * the front has already read it from standard input (NULL if not): that
 * line, first_len bytes with its newline, a NUL after them, writable (the
 * protocols edit a line in place); the caller still owns it. Each reads
 * the rest of standard input and returns the program's exit status.
 */

#ifndef OTHELLO_EXAMPLES_ENGINE_H
#define OTHELLO_EXAMPLES_ENGINE_H

#include <stddef.h>

int nboard_main(int argc, char **argv, char *first_line, size_t first_len);
int gtp_main(int argc, char **argv, char *first_line, size_t first_len);

#endif
