/*
 * header_twice.c: othello.h can be included twice (include guard) and
 * compiles cleanly as C99 and as C++; one call links against the library.
 */

#include "othello.h"
#include "othello.h"

#include <stdio.h>
#include <string.h>

int main(void)
{
    const char *v = othello_version();
    if (v == NULL || strcmp(v, OTHELLO_VERSION_STRING) != 0) {
        printf("header_twice: othello_version() is \"%s\", header says \"%s\"\n",
               v != NULL ? v : "(null)", OTHELLO_VERSION_STRING);
        return 1;
    }
    printf("header_twice: ok (version %s)\n", v);
    return 0;
}
