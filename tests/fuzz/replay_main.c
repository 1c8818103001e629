/*
 * replay_main.c: a plain main() for the fuzz targets, so make test can replay
 * every corpus file with gcc (and under ASan/UBSan in make check) without
 * libFuzzer. Arguments are files or directories (read one level deep).
 * Prints "ok NAME (N inputs)"; a crashing input kills the process, which the
 * layer reports with the file that was being replayed.
 */
#include "tests/fuzz/fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int replay__file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    size_t got = n > 0 ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    fprintf(stderr, "replaying %s\n", path);
    LLVMFuzzerTestOneInput(buf, got);
    free(buf);
    return 1;
}

int main(int argc, char **argv)
{
    int count = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            continue;
        if (!S_ISDIR(st.st_mode)) {
            count += replay__file(argv[i]);
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
                count += replay__file(path);
        }
        if (d)
            closedir(d);
    }
    printf("%d inputs replayed\n", count);
    return count > 0 ? 0 : 1;
}
