/*
 * cm_str.c: ASCII case folding, UTF-8 counting and validation, clocks.
 */
#include "common/common.h"

#include <stdio.h>
#include <time.h>

static inline unsigned char cm__lower(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') ? (unsigned char)(c + 32) : c;
}

int cm_strcasecmp(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    while (*x && cm__lower(*x) == cm__lower(*y)) {
        x++;
        y++;
    }
    return (int)cm__lower(*x) - (int)cm__lower(*y);
}

int cm_strncasecmp(const char *a, const char *b, size_t n)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    for (size_t i = 0; i < n; i++) {
        if (cm__lower(x[i]) != cm__lower(y[i]) || x[i] == 0)
            return (int)cm__lower(x[i]) - (int)cm__lower(y[i]);
    }
    return 0;
}

void cm_str_lower(char *s)
{
    for (; *s; s++)
        *s = (char)cm__lower((unsigned char)*s);
}

int cm_utf8_chars(const char *s, size_t bytes)
{
    int n = 0;
    for (size_t i = 0; i < bytes && s[i]; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            n++;
    return n;
}

/* Length of the sequence a lead byte announces, as pg_utf_mblen counts it. */
static size_t cm__utf8_seq_len(unsigned char c)
{
    if ((c & 0xE0) == 0xC0)
        return 2;
    if ((c & 0xF0) == 0xE0)
        return 3;
    if ((c & 0xF8) == 0xF0)
        return 4;
    return 1;
}

bool cm_utf8_check(const char *s, size_t len, cm_err_t *err)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        size_t n = p[i] < 0x80 ? 1 : cm__utf8_seq_len(p[i]);
        if (p[i] != 0 && i + n <= len && cm_utf8_valid(s + i, n)) {
            i += n;
            continue;
        }
        char bytes[4 * 5 + 1];
        size_t shown = n < len - i ? n : len - i, at = 0;
        for (size_t k = 0; k < shown; k++)
            at += (size_t)snprintf(bytes + at, sizeof(bytes) - at, "%s0x%02x", k ? " " : "", p[i + k]);
        return cm_err_set(err, CM_ERRCODE_CHARACTER_NOT_IN_REPERTOIRE,
                          "invalid byte sequence for encoding \"UTF8\": %s", bytes);
    }
    return true;
}

bool cm_utf8_valid(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        unsigned c = p[i];
        if (c == 0)
            return false;
        if (c < 0x80) {
            i++;
            continue;
        }
        int n;
        unsigned cp;
        if ((c & 0xE0) == 0xC0) { n = 1; cp = c & 0x1F; }
        else if ((c & 0xF0) == 0xE0) { n = 2; cp = c & 0x0F; }
        else if ((c & 0xF8) == 0xF0) { n = 3; cp = c & 0x07; }
        else return false;
        if (i + (size_t)n >= len)
            return false;
        for (int k = 1; k <= n; k++) {
            if ((p[i + (size_t)k] & 0xC0) != 0x80)
                return false;
            cp = (cp << 6) | (p[i + (size_t)k] & 0x3F);
        }
        if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
            cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += (size_t)n + 1;
    }
    return true;
}

int64_t cm_now_mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t cm_now_wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
