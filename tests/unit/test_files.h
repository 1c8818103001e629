/*
 * test_files.h: the file listing that the golden-file tests share: the
 * names in a folder ending in a suffix, in name order, so every run reads
 * the cases in the same order; and the reader of the golden-file format
 * (tests/parser, tests/explain) those tests share.
 */
#ifndef EDDY_TEST_FILES_H
#define EDDY_TEST_FILES_H

#include "common/common.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static __attribute__((unused)) int tf__cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Fills names (malloc'd, for the caller to free) and returns how many; -1 if dir cannot be opened. */
static __attribute__((unused)) int tf_list(const char *dir, const char *suffix, char **names, int max)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int count = 0;
    size_t sl = strlen(suffix);
    struct dirent *de;
    while ((de = readdir(d)) && count < max) {
        size_t n = strlen(de->d_name);
        if (n > sl && strcmp(de->d_name + n - sl, suffix) == 0)
            names[count++] = cm_strdup(de->d_name);
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof(char *), tf__cmp_names);
    return count;
}

/* One golden case: its SQL (continuation lines joined with '\n'), the line it starts on, its expected text. */
typedef void (*tf_case_fn)(void *arg, const char *file, int line, const char *sql, const char *expected);

/*
 * Reads the cases of a golden file, so each golden test only says what a
 * case means: "> sql" starts one, "| more" continues its SQL, the lines up
 * to a blank line or '#' are the expected text. print echoes the lines
 * outside cases (for --print, which rewrites a file with fresh answers).
 */
static __attribute__((unused)) void tf_golden_cases(FILE *f, const char *name, tf_case_fn fn, void *arg, bool print)
{
    cm_buf_t sql, expected;
    cm_buf_init(&sql, 0);
    cm_buf_init(&expected, 0);
    bool in_case = false;
    int case_line = 0, lineno = 0;
    char line[65536];
    for (;;) {
        char *got = fgets(line, sizeof line, f);
        if (got)
            lineno++;
        size_t n = got ? strlen(line) : 0;
        if (n && line[n - 1] == '\n')
            line[--n] = '\0';
        bool boundary = !got || n == 0 || line[0] == '#' || (line[0] == '>' && line[1] == ' ');
        if (boundary && in_case) {
            cm_buf_put_u8(&sql, '\0');
            cm_buf_put_u8(&expected, '\0');
            fn(arg, name, case_line, (const char *)sql.data, (const char *)expected.data);
            in_case = false;
        }
        if (!got)
            break;
        if (line[0] == '>' && line[1] == ' ') {
            cm_buf_reset(&sql);
            cm_buf_reset(&expected);
            cm_buf_put_str(&sql, line + 2);
            in_case = true;
            case_line = lineno;
        } else if (in_case && line[0] == '|' && (line[1] == ' ' || line[1] == '\0') && expected.len == 0) {
            cm_buf_put_u8(&sql, '\n');
            cm_buf_put_str(&sql, line[1] ? line + 2 : "");
        } else if (in_case) {
            cm_buf_put_str(&expected, line);
            cm_buf_put_u8(&expected, '\n');
        } else if (print) {
            printf("%s\n", line);
        }
    }
    cm_buf_free(&sql);
    cm_buf_free(&expected);
}

typedef enum tf_golden_rc { TF_RAN, TF_PRINTED, TF_NO_FILES } tf_golden_rc_t;

/*
 * The main of a golden test, shared by tests/parser and tests/explain:
 * "--print FILE" runs one file with print set (it echoes fresh answers, to
 * rewrite the file); otherwise every dir/ *.txt runs in name order.
 * TF_NO_FILES (reported as "not ok") when the folder is missing or empty.
 */
static __attribute__((unused)) tf_golden_rc_t tf_golden_main(int argc, char **argv, const char *dir, const char *what,
                                                             void (*run_file)(const char *dir, const char *name,
                                                                              bool print))
{
    if (argc == 3 && strcmp(argv[1], "--print") == 0) {
        run_file(argv[2][0] == '/' ? "" : ".", argv[2], true);
        return TF_PRINTED;
    }
    char *names[256];
    int count = tf_list(dir, ".txt", names, 256);
    if (count < 0) {
        printf("not ok %s golden files: cannot open %s\n", what, dir);
        return TF_NO_FILES;
    }
    for (int i = 0; i < count; i++) {
        run_file(dir, names[i], false);
        free(names[i]);
    }
    if (count == 0) {
        printf("not ok %s golden files: none found\n", what);
        return TF_NO_FILES;
    }
    return TF_RAN;
}

#endif
