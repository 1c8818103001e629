/*
 * cm_arena.c: region allocation for per-statement memory.
 *
 * Blocks are chained newest first. A request larger than a quarter of the
 * block size gets a block of its own so big values do not waste the tail of
 * an ordinary block. Ordinary blocks grow with the arena (each new one as
 * big as everything allocated so far, up to CM_ARENA_BLOCK_MAX), so a
 * statement that builds a large result (SHOW OBJECTS over 10,000 items)
 * makes a few dozen mallocs instead of thousands; small statements never
 * leave their first block.
 */
#include "common/common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cm_arena_block {
    cm_arena_block_t *next;
    size_t size;   /* usable bytes in data */
    size_t used;
    _Alignas(16) unsigned char data[];
};

#define CM_ARENA_ALIGN 16
#define CM_ARENA_BLOCK_MAX ((size_t)1 << 20)

void cm_arena_init(cm_arena_t *a, size_t block_size)
{
    a->head = NULL;
    a->block_size = block_size ? block_size : 8192;
    a->bytes_total = 0;
}

static cm_arena_block_t *cm__arena_block_new(cm_arena_t *a, size_t size)
{
    cm_arena_block_t *b = cm_malloc(sizeof(*b) + size);
    b->size = size;
    b->used = 0;
    a->bytes_total += sizeof(*b) + size;
    return b;
}

void *cm_arena_alloc(cm_arena_t *a, size_t size)
{
    size = (size + CM_ARENA_ALIGN - 1) & ~(size_t)(CM_ARENA_ALIGN - 1);
    if (size == 0)
        size = CM_ARENA_ALIGN;
    cm_arena_block_t *b = a->head;
    if (b != NULL && b->size - b->used >= size) {
        void *p = b->data + b->used;
        b->used += size;
        return p;
    }
    if (size > a->block_size / 4) {
        /* A dedicated block, linked behind the current one so the current
         * block's free tail stays usable. */
        cm_arena_block_t *big = cm__arena_block_new(a, size);
        big->used = size;
        if (b != NULL) {
            big->next = b->next;
            b->next = big;
        } else {
            big->next = NULL;
            a->head = big;
        }
        return big->data;
    }
    size_t grow = a->block_size;
    if (a->bytes_total > grow)
        grow = a->bytes_total < CM_ARENA_BLOCK_MAX ? a->bytes_total : CM_ARENA_BLOCK_MAX;
    cm_arena_block_t *nb = cm__arena_block_new(a, grow);
    nb->next = b;
    a->head = nb;
    nb->used = size;
    return nb->data;
}

void *cm_arena_zalloc(cm_arena_t *a, size_t size)
{
    void *p = cm_arena_alloc(a, size);
    memset(p, 0, size);
    return p;
}

char *cm_arena_strndup(cm_arena_t *a, const char *s, size_t n)
{
    char *d = cm_arena_alloc(a, n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *cm_arena_strdup(cm_arena_t *a, const char *s)
{
    return cm_arena_strndup(a, s, strlen(s));
}

/* GCC 12 at -O1 with -fsanitize=undefined (make check) wrongly reports a
 * "null format string" in the vsnprintf below; fmt is the caller's format. */
#pragma GCC diagnostic push
#ifndef __clang__   /* clang has no such warning and would warn of the unknown name */
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif
char *cm_arena_printf(cm_arena_t *a, const char *fmt, ...)
{
    /* Most results are short: format once into a stack buffer and copy;
     * only a longer one is formatted a second time into its arena space. */
    char small[256];
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof(small), fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *d = cm_arena_alloc(a, (size_t)n + 1);
    if ((size_t)n < sizeof(small))
        memcpy(d, small, (size_t)n + 1);
    else
        vsnprintf(d, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return d;
}
#pragma GCC diagnostic pop

void cm_arena_reset(cm_arena_t *a)
{
    cm_arena_block_t *b = a->head;
    if (b == NULL)
        return;
    /* Keep the last (oldest) ordinary-sized block: it is the one every
     * statement touches first. */
    cm_arena_block_t *keep = NULL;
    while (b != NULL) {
        cm_arena_block_t *next = b->next;
        if (keep == NULL && b->size == a->block_size && next == NULL) {
            keep = b;
        } else {
            a->bytes_total -= sizeof(*b) + b->size;
            free(b);
        }
        b = next;
    }
    if (keep != NULL) {
        keep->used = 0;
        keep->next = NULL;
    }
    a->head = keep;
}

void cm_arena_free(cm_arena_t *a)
{
    cm_arena_block_t *b = a->head;
    while (b != NULL) {
        cm_arena_block_t *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->bytes_total = 0;
}
