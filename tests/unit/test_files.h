/*
 * test_files.h: the file listing that the golden-file tests share: the
 * names in a folder ending in a suffix, in name order, so every run reads
 * the cases in the same order.
 */
#ifndef EDDY_TEST_FILES_H
#define EDDY_TEST_FILES_H

#include "common/common.h"

#include <dirent.h>
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

#endif
