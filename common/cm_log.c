/*
 * cm_log.c: leveled logging to stderr, one line per event: a UTC timestamp,
 * the level, the message and key=value fields (logfmt: a value with spaces,
 * quotes or '=' is quoted), or with --log-format json the same fields as one
 * JSON object per line, for log shippers.
 */
#include "common/common.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

cm_log_level_t cm_log_level = CM_LOG_WARN;
cm_log_format_t cm_log_format = CM_LOG_TEXT;

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

bool cm_log_format_parse(const char *name, cm_log_format_t *out)
{
    if (strcmp(name, "text") == 0)
        *out = CM_LOG_TEXT;
    else if (strcmp(name, "json") == 0)
        *out = CM_LOG_JSON;
    else
        return false;
    return true;
}

/* The line being built; what does not fit is cut, the line still ends. */
typedef struct cm__line {
    char buf[4096];
    size_t n;
} cm__line_t;

static void cm__put(cm__line_t *l, const char *s, size_t len)
{
    size_t room = sizeof l->buf - 2 - l->n;   /* keep room for '}' and '\n' */
    if (len > room)
        len = room;
    memcpy(l->buf + l->n, s, len);
    l->n += len;
}

static void cm__puts(cm__line_t *l, const char *s)
{
    cm__put(l, s, strlen(s));
}

static void cm__put_json(cm__line_t *l, const char *s)
{
    cm__puts(l, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        if (*p == '"' || *p == '\\') {
            esc[0] = '\\', esc[1] = (char)*p, esc[2] = 0;
        } else if (*p == '\n') {
            memcpy(esc, "\\n", 3);
        } else if (*p < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", *p);
        } else {
            esc[0] = (char)*p, esc[1] = 0;
        }
        cm__puts(l, esc);
    }
    cm__puts(l, "\"");
}

static void cm__put_text(cm__line_t *l, const char *s)
{
    bool quote = *s == 0 || strpbrk(s, " =\"\\\n\t") != NULL;
    if (!quote) {
        cm__puts(l, s);
        return;
    }
    cm__puts(l, "\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"' || *p == '\\')
            cm__put(l, "\\", 1), cm__put(l, p, 1);
        else if (*p == '\n')
            cm__puts(l, "\\n");
        else if (*p == '\t')
            cm__puts(l, "\\t");
        else
            cm__put(l, p, 1);
    }
    cm__puts(l, "\"");
}

static void cm__field(cm__line_t *l, bool first, const char *key, const char *value)
{
    if (cm_log_format == CM_LOG_JSON) {
        if (!first)
            cm__puts(l, ",");
        cm__put_json(l, key);
        cm__puts(l, ":");
        cm__put_json(l, value);
    } else {
        if (!first)
            cm__puts(l, " ");
        cm__puts(l, key);
        cm__puts(l, "=");
        cm__put_text(l, value);
    }
}

void cm_log_fields(cm_log_level_t level, const char *msg, const char *const *kv, size_t nkv)
{
    if (level > cm_log_level)
        return;
    int64_t now = cm_now_wall_us();
    time_t secs = (time_t)(now / 1000000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    char ts[40];
    size_t tn = strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(ts + tn, sizeof ts - tn, ".%03dZ", (int)(now % 1000000 / 1000));
    cm__line_t l = {.n = 0};
    if (cm_log_format == CM_LOG_JSON)
        cm__puts(&l, "{");
    cm__field(&l, true, "ts", ts);
    cm__field(&l, false, "level", cm__level_names[level]);
    cm__field(&l, false, "msg", msg);
    for (size_t i = 0; i < nkv; i++)
        cm__field(&l, false, kv[2 * i], kv[2 * i + 1] != NULL ? kv[2 * i + 1] : "");
    if (cm_log_format == CM_LOG_JSON)
        l.buf[l.n++] = '}';
    l.buf[l.n++] = '\n';
    /* One write per line so lines from different threads do not interleave. */
    fwrite(l.buf, 1, l.n, stderr);
}

void cm_log(cm_log_level_t level, const char *fmt, ...)
{
    if (level > cm_log_level)
        return;
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cm_log_fields(level, msg, NULL, 0);
}
