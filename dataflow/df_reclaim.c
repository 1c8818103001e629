/*
 * df_reclaim.c: allocating batches, and freeing big ones without a stall.
 *
 * Giving memory back to the kernel costs about 70 us per MB (the pages are
 * unmapped one by one), so freeing the inputs of a spine's top merge at once
 * would stall the insert that completed it in proportion to the shard's size,
 * exactly what fueled merging avoids (and when a binary-counter carry
 * completes many levels in one insert, their frees add up). So a batch of
 * DF_BATCH_MAP_MIN bytes or more is a mapping of its own, and when its last reference goes it joins a
 * process-wide list that inserts and idle work unmap a few pages at a time
 * (df__reclaim_work), from the end back to the header's page. Smaller
 * batches come from malloc and are freed at once. Any thread may drop the
 * last reference; any worker's fuel may reclaim any batch.
 */
#include "dataflow/df_store.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define DF_BATCH_MAP_MIN ((uint64_t)256 << 10)

/* A batch's first bytes once it is dead and waiting to be unmapped. */
typedef struct df_dead {
    struct df_dead *next;
    uint64_t len;                /* bytes of the mapping still mapped, from its start */
} df_dead_t;

static pthread_mutex_t df__reclaim_mu = PTHREAD_MUTEX_INITIALIZER;
static df_dead_t *df__reclaim_head;
static atomic_uint_fast64_t df__reclaim_bytes;

static uint64_t df__page(void)
{
    /* Any thread may ask first: every one computes the same value, stored atomically. */
    static _Atomic uint64_t page;
    uint64_t pg = atomic_load_explicit(&page, memory_order_relaxed);
    if (pg == 0) {
        long p = sysconf(_SC_PAGESIZE);
        pg = p > 0 ? (uint64_t)p : 4096;
        atomic_store_explicit(&page, pg, memory_order_relaxed);
    }
    return pg;
}

static uint64_t df__map_len(uint64_t size)
{
    uint64_t pg = df__page();
    return (size + pg - 1) / pg * pg;
}

df_batch_t *df__batch_alloc(uint64_t size)
{
    CM_ASSERT(size >= sizeof(df_batch_t));
    df_batch_t *b;
    if (size < DF_BATCH_MAP_MIN) {
        b = cm_malloc((size_t)size);
        memset(b, 0, sizeof(*b));
        return b;
    }
    /* Fresh anonymous pages are zero: the padding is, and nothing is
     * touched (faulted in) before the writer gets to it. */
    void *p = mmap(NULL, (size_t)df__map_len(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        cm_panic(__FILE__, __LINE__, "out of memory mapping a batch of %llu bytes", (unsigned long long)size);
    b = p;
    b->alloc = DF_BATCH_MAPPED;
    return b;
}

void df__batch_release(df_batch_t *b)
{
    if (b->alloc != DF_BATCH_MAPPED) {
        free(b);
        return;
    }
    uint64_t len = df__map_len(b->size);
    df_dead_t *d = (df_dead_t *)b;
    d->len = len;
    atomic_fetch_add(&df__reclaim_bytes, len);
    pthread_mutex_lock(&df__reclaim_mu);
    d->next = df__reclaim_head;
    df__reclaim_head = d;
    pthread_mutex_unlock(&df__reclaim_mu);
}

bool df__reclaim_work(int64_t *fuel)
{
    uint64_t pg = df__page();
    while (*fuel > 0) {
        /* Take one dead batch off the list, so the unmapping runs outside the lock. */
        pthread_mutex_lock(&df__reclaim_mu);
        df_dead_t *d = df__reclaim_head;
        if (d != NULL)
            df__reclaim_head = d->next;
        pthread_mutex_unlock(&df__reclaim_mu);
        if (d == NULL)
            return false;
        /* One unit of fuel per page, the last pages first; the header's page goes last. */
        while (*fuel > 0 && d->len > pg) {
            uint64_t pages = (d->len - pg) / pg, take = (uint64_t)*fuel < pages ? (uint64_t)*fuel : pages;
            uint64_t bytes = take * pg;
            munmap((uint8_t *)d + d->len - bytes, (size_t)bytes);
            d->len -= bytes;
            *fuel -= (int64_t)take;
            atomic_fetch_sub(&df__reclaim_bytes, bytes);
        }
        if (d->len > pg) {
            pthread_mutex_lock(&df__reclaim_mu);
            d->next = df__reclaim_head;
            df__reclaim_head = d;
            pthread_mutex_unlock(&df__reclaim_mu);
            return true;
        }
        munmap(d, (size_t)pg);
        atomic_fetch_sub(&df__reclaim_bytes, pg);
        (*fuel)--;
    }
    return atomic_load(&df__reclaim_bytes) != 0;
}

uint64_t df__reclaim_pending(void)
{
    return atomic_load(&df__reclaim_bytes);
}

void df__reclaim_all(void)
{
    int64_t fuel = INT64_MAX;
    df__reclaim_work(&fuel);
}
