/*
 * cm_alloc.c: allocation wrappers and the panic path.
 *
 * eddy treats running out of memory as fatal: a server that cannot allocate a
 * few bytes cannot answer clients coherently anyway, and every limit a peer
 * controls is capped before allocation (DESIGN §10.2), so OOM means the
 * machine, not the client, is at fault.
 */
#include "common/common.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cm_panic(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "eddy: PANIC at %s:%d: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    abort();
}

static void *cm__check(void *p, size_t size)
{
    if (p == NULL && size != 0)
        cm_panic(__FILE__, __LINE__, "out of memory allocating %zu bytes", size);
    return p;
}

void *cm_malloc(size_t size) { return cm__check(malloc(size ? size : 1), size); }
void *cm_calloc(size_t n, size_t size) { return cm__check(calloc(n ? n : 1, size ? size : 1), n * size); }
void *cm_realloc(void *p, size_t size) { return cm__check(realloc(p, size ? size : 1), size); }

char *cm_strdup(const char *s)
{
    return cm_strndup(s, strlen(s));
}

char *cm_strndup(const char *s, size_t n)
{
    char *d = cm_malloc(n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/*
 * The allocator keeps what the process freed for reuse (server/main.c tunes
 * it so statements stay warm), so after a big load RSS stays at its peak
 * although the live data is a fraction of it. Called when a worker has gone
 * quiet and compacted its arrangements: if more than keep bytes are free
 * inside the allocator, they go back to the kernel.
 */
void cm_alloc_release_free(size_t keep)
{
#ifdef __GLIBC__
    struct mallinfo2 mi = mallinfo2();
    if (mi.fordblks > keep)
        malloc_trim(0);
#else
    (void)keep;
#endif
}
