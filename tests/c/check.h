/*
 * check.h: the check bookkeeping shared by the C tests of tests/c and the C++
 * test of tests/cpp (one translation unit each: the counters are static).
 *
 *   CHECK(cond)                     counts a check; prints
 *                                   "FAIL file:line: cond" when it is false
 *   check_at(__FILE__, line, ok, fmt, ...)
 *                                   the same for a helper that reports at its
 *                                   caller's line, with a printf message
 *   return check_summary("name");   prints "name: N checks passed" and returns
 *                                   0, or "name: F of N checks FAILED" and 1
 *
 * Checks may run on several threads at once (stress.c, engine_test.c): the
 * counters are atomic and each failure is one printf call, which POSIX
 * stdio does not interleave with another thread's.
 */

#ifndef OTHELLO_TESTS_CHECK_H
#define OTHELLO_TESTS_CHECK_H

#ifdef __cplusplus
#include <atomic>
#include <cstdarg>
#include <cstdio>
typedef std::atomic<long> check_counter;
#else
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
typedef atomic_long check_counter;
#endif

#if defined(__GNUC__)
#define CHECK_PRINTF(fmt, first) __attribute__((format(printf, fmt, first)))
#else
#define CHECK_PRINTF(fmt, first)
#endif

static check_counter check_count;
static check_counter check_failures;

/*
 * Counts one check made at `file`:`line`. When `ok` is 0 it also counts a
 * failure and prints "FAIL file:line: " and the message. Returns `ok`.
 */
static inline int check_at(const char *file, int line, int ok, const char *fmt, ...)
    CHECK_PRINTF(4, 5);

static inline int check_at(const char *file, int line, int ok, const char *fmt, ...)
{
    char message[4096];
    va_list ap;
    check_count++;
    if (ok) {
        return 1;
    }
    check_failures++;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    printf("FAIL %s:%d: %s\n", file, line, message);
    fflush(stdout);
    return 0;
}

#define CHECK(cond) check_at(__FILE__, __LINE__, (cond) ? 1 : 0, "%s", #cond)

/*
 * The closing line: "<name>: N checks passed" and 0 when no check failed,
 * else "<name>: F of N checks FAILED" and 1 (the exit status for main).
 */
static inline int check_summary(const char *name)
{
    long checks = check_count;
    long failures = check_failures;
    if (failures != 0) {
        printf("%s: %ld of %ld checks FAILED\n", name, failures, checks);
        return 1;
    }
    printf("%s: %ld checks passed\n", name, checks);
    return 0;
}

#endif /* OTHELLO_TESTS_CHECK_H */
