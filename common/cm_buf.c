/*
 * cm_buf.c: growable byte buffers with a cap and a sticky failure flag.
 */
#include "common/common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cm_buf_init(cm_buf_t *b, size_t max)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->max = max;
    b->failed = false;
}

void cm_buf_free(cm_buf_t *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = false;
}

void cm_buf_reset(cm_buf_t *b)
{
    b->len = 0;
    b->failed = false;
}

bool cm_buf_reserve(cm_buf_t *b, size_t extra)
{
    if (b->failed)
        return false;
    if (extra > SIZE_MAX / 2 - b->len || (b->max != 0 && b->len + extra > b->max)) {
        b->failed = true;
        return false;
    }
    size_t need = b->len + extra;
    if (need <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need)
        cap *= 2;
    if (b->max != 0 && cap > b->max)
        cap = b->max;
    b->data = cm_realloc(b->data, cap);
    b->cap = cap;
    return true;
}

void cm_buf_put(cm_buf_t *b, const void *p, size_t n)
{
    if (n == 0 || !cm_buf_reserve(b, n))
        return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void cm_buf_put_u8(cm_buf_t *b, uint8_t v)
{
    if (!cm_buf_reserve(b, 1))
        return;
    b->data[b->len++] = v;
}

void cm_buf_put_be16(cm_buf_t *b, uint16_t v)
{
    uint8_t x[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    cm_buf_put(b, x, 2);
}

void cm_buf_put_be32(cm_buf_t *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    cm_buf_put(b, x, 4);
}

void cm_buf_put_be64(cm_buf_t *b, uint64_t v)
{
    uint8_t x[8];
    for (int i = 0; i < 8; i++)
        x[i] = (uint8_t)(v >> (56 - 8 * i));
    cm_buf_put(b, x, 8);
}

void cm_buf_put_str(cm_buf_t *b, const char *s)
{
    cm_buf_put(b, s, strlen(s));
}

void cm_buf_put_cstr(cm_buf_t *b, const char *s)
{
    cm_buf_put(b, s, strlen(s) + 1);
}

void cm_buf_vprintf(cm_buf_t *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n > 0 && cm_buf_reserve(b, (size_t)n + 1)) {
        vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
}

void cm_buf_printf(cm_buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cm_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void cm_buf_set_be32(cm_buf_t *b, size_t at, uint32_t v)
{
    if (b->failed || at + 4 > b->len)
        return;
    b->data[at] = (uint8_t)(v >> 24);
    b->data[at + 1] = (uint8_t)(v >> 16);
    b->data[at + 2] = (uint8_t)(v >> 8);
    b->data[at + 3] = (uint8_t)v;
}

void cm_buf_consume(cm_buf_t *b, size_t n)
{
    CM_ASSERT(n <= b->len);
    if (n == b->len) {
        b->len = 0;
        return;
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
}

void cm_buf_shrink(cm_buf_t *b, size_t keep)
{
    if (b->len != 0 || b->cap <= keep)
        return;
    free(b->data);
    b->data = NULL;
    b->cap = 0;
}
