/*
 * standalone.c: a main() for the fuzz targets without libFuzzer: runs
 * LLVMFuzzerTestOneInput once on each file named on the command line (a
 * directory is read file by file). The regression tests build the targets
 * with it under AddressSanitizer and replay the committed corpus and the
 * inputs of fixed bugs (fuzz/regressions/), with any C compiler.
 */

#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data;
    long size;
    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 ||
        fseek(f, 0, SEEK_SET) != 0) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    data = malloc((size_t)size + 1);
    if (data == NULL || fread(data, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "cannot read %s\n", path);
        return 1;
    }
    fclose(f);
    LLVMFuzzerTestOneInput(data, (size_t)size);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int i, runs = 0, errors = 0;
    for (i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR *d = opendir(argv[i]);
            struct dirent *e;
            char path[4096];
            while (d != NULL && (e = readdir(d)) != NULL) {
                if (e->d_name[0] == '.') {
                    continue;
                }
                snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
                errors += run_file(path);
                runs++;
            }
            if (d != NULL) {
                closedir(d);
            }
        } else {
            errors += run_file(argv[i]);
            runs++;
        }
    }
    printf("standalone: %d inputs run, %d unreadable\n", runs, errors);
    return errors != 0;
}
