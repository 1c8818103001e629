/*
 * srv_copy_chunks.c: the threads of one COPY FROM STDIN that parse its input
 * while more of it arrives. The loop cuts the input into chunks of whole
 * lines and pushes them; up to n threads (started with the first chunk)
 * each take the next chunk in order and parse it with the COPY's function,
 * and mark it done. The COPY looks at the chunks in order (done or not, its
 * result) and waits for them at its end; stopping leaves the chunks not yet
 * taken unparsed.
 */
#include "server/srv_copy.h"

#include <stdlib.h>

struct srv_copy_chunks {
    uv_mutex_t mu;
    uv_cond_t work, done;        /* a chunk to take or stop; a chunk done */
    void (*parse)(void *arg, void *chunk);
    void *arg;
    void **chunks;
    bool *is_done;
    int n, cap, next, ndone;
    bool stop;
    uv_thread_t *threads;
    int nthreads, want;
};

srv_copy_chunks_t *srv_copy_chunks_new(int threads, void (*parse)(void *arg, void *chunk), void *arg)
{
    srv_copy_chunks_t *q = cm_calloc(1, sizeof *q);
    uv_mutex_init(&q->mu);
    uv_cond_init(&q->work);
    uv_cond_init(&q->done);
    q->parse = parse;
    q->arg = arg;
    q->want = threads > 0 ? threads : 1;
    q->threads = cm_calloc((size_t)q->want, sizeof *q->threads);
    return q;
}

/* The next chunk parsed on this thread (the lock held, and held again after). */
static void srv__chunks_take(srv_copy_chunks_t *q)
{
    int i = q->next++;
    void *chunk = q->chunks[i];
    uv_mutex_unlock(&q->mu);
    q->parse(q->arg, chunk);
    uv_mutex_lock(&q->mu);
    q->is_done[i] = true;
    q->ndone++;
    uv_cond_broadcast(&q->done);
}

static void srv__chunks_thread(void *arg)
{
    srv_copy_chunks_t *q = arg;
    uv_mutex_lock(&q->mu);
    for (;;) {
        while (!q->stop && q->next == q->n)
            uv_cond_wait(&q->work, &q->mu);
        if (q->stop)
            break;
        srv__chunks_take(q);
    }
    uv_mutex_unlock(&q->mu);
}

void srv_copy_chunks_push(srv_copy_chunks_t *q, void *chunk)
{
    uv_mutex_lock(&q->mu);
    if (q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 16;
        q->chunks = cm_realloc(q->chunks, sizeof *q->chunks * (size_t)q->cap);
        q->is_done = cm_realloc(q->is_done, sizeof *q->is_done * (size_t)q->cap);
    }
    q->chunks[q->n] = chunk;
    q->is_done[q->n++] = false;
    bool waiting = q->n - q->next > 1;   /* besides this one: the threads are all busy */
    uv_cond_signal(&q->work);
    uv_mutex_unlock(&q->mu);
    /* A thread more while there are fewer than asked for and chunks wait (nthreads changes on the
     * pushing thread only). */
    if (q->nthreads < q->want && (q->nthreads == 0 || waiting) &&
        uv_thread_create(&q->threads[q->nthreads], srv__chunks_thread, q) == 0)
        q->nthreads++;
}

int srv_copy_chunks_count(srv_copy_chunks_t *q)
{
    uv_mutex_lock(&q->mu);
    int n = q->n;
    uv_mutex_unlock(&q->mu);
    return n;
}

void *srv_copy_chunks_get(srv_copy_chunks_t *q, int i, bool *done)
{
    uv_mutex_lock(&q->mu);
    void *chunk = q->chunks[i];
    *done = q->is_done[i];
    uv_mutex_unlock(&q->mu);
    return chunk;
}

void srv_copy_chunks_wait(srv_copy_chunks_t *q)
{
    /* The waiting thread takes chunks too: one more parser at the end, and none is left untaken
     * if no thread could be started. */
    uv_mutex_lock(&q->mu);
    while (q->ndone < q->n) {
        if (q->next < q->n)
            srv__chunks_take(q);
        else
            uv_cond_wait(&q->done, &q->mu);
    }
    uv_mutex_unlock(&q->mu);
}

void srv_copy_chunks_stop(srv_copy_chunks_t *q)
{
    uv_mutex_lock(&q->mu);
    q->stop = true;
    uv_cond_broadcast(&q->work);
    uv_mutex_unlock(&q->mu);
    for (int i = 0; i < q->nthreads; i++)
        uv_thread_join(&q->threads[i]);
    q->nthreads = 0;
}

void srv_copy_chunks_free(srv_copy_chunks_t *q)
{
    if (q == NULL)
        return;
    srv_copy_chunks_stop(q);
    uv_cond_destroy(&q->work);
    uv_cond_destroy(&q->done);
    uv_mutex_destroy(&q->mu);
    free(q->chunks);
    free(q->is_done);
    free(q->threads);
    free(q);
}
