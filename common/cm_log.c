/*
 * cm_log.c: leveled logging to stderr with a wall-clock timestamp.
 */
#include "common/common.h"

#include <stdio.h>
#include <time.h>

cm_log_level_t cm_log_level = CM_LOG_WARN;

static const char *const cm__level_names[] = {"error", "warn", "info", "debug"};

bool cm_log_level_parse(const char *name, cm_log_level_t *out)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(cm__level_names); i++) {
        if (cm_strcasecmp(name, cm__level_names[i]) == 0) {
            *out = (cm_log_level_t)i;
            return true;
        }
    }
    return false;
}

void cm_log(cm_log_level_t level, const char *fmt, ...)
{
    if (level > cm_log_level)
        return;
    char line[1024];
    int64_t now = cm_now_wall_us();
    time_t secs = (time_t)(now / 1000000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    int n = (int)strftime(line, sizeof(line), "%Y-%m-%d %H:%M:%S", &tm);
    n += snprintf(line + n, sizeof(line) - (size_t)n, ".%03d UTC %s: ", (int)(now % 1000000 / 1000),
                  cm__level_names[level]);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
    va_end(ap);
    /* One fputs per line so lines from different threads do not interleave. */
    fprintf(stderr, "%s\n", line);
}
