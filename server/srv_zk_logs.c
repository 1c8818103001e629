/*
 * srv_zk_logs.c: the ZooKeeper thread's log reads (cluster mode).
 *
 * Entries never change once committed, so the thread keeps the newest ones
 * it read or committed (a ring of SRV_ZK_LOG_CACHE_MAX) and answers every
 * loop's and the sequencer's log reads from it. A read the ring cannot
 * answer does not go to ZooKeeper on its own; it is parked:
 *   - behind this process's commits sent before it. The head watch of our
 *     own commit fires before the commit's answer arrives (ZooKeeper sends
 *     the notification first), so the entry a loop was just told about is
 *     usually ours, and lands in the ring with that answer. Waiting for it
 *     costs nothing: ZooKeeper answers a session's requests in order, so a
 *     read sent now would be answered after the commit anyway;
 *   - behind the one store read in flight. When it lands, every read parked
 *     before it was sent is answered from its result (the result is at least
 *     as fresh as the news they were reacting to); later ones look at the
 *     ring again and, if need be, make the next read.
 * So a DDL of this process costs ZooKeeper its commit and the head watch's
 * re-arm, and another process's DDL one log read, however many loops
 * follow the log.
 */
#include "server/srv_zk.h"

#include <stdlib.h>
#include <string.h>

typedef struct srv_zk_cached {
    uint8_t *data;
    size_t len;
} srv_zk_cached_t;

struct srv_zk_logs {
    cat_store_t *store;               /* the thread's store_zk */
    /* The ring, the known head and the commit counts are written on the
     * ZooKeeper thread and read by the handles' threads too
     * (srv_zk_logs_copy), under `mu`; the rest is the thread's. */
    pthread_mutex_t mu;
    /* Entries lo .. lo + n - 1, a ring starting at `first`. */
    srv_zk_cached_t ring[SRV_ZK_LOG_CACHE_MAX];
    uint64_t lo;
    size_t first, n;
    srv_zk_job_t *parked;             /* in arrival order, through job->next */
    uint64_t stamp;                   /* reads parked so far */
    uint64_t commits_sent, commits_answered;
    /* The head as far as the last news goes: a notification (the head watch's
     * read), our own commit, a store read. While known, a read past it is
     * answered "nothing new" here: a later commit notifies every loop again. */
    bool head_known;
    uint64_t head;
    bool reading;                     /* a store read is in flight */
    uint64_t read_stamp, read_from;   /* ... sent after `read_stamp` parked reads, from this index */
    bool closing;
};

srv_zk_logs_t *srv_zk_logs_new(cat_store_t *store)
{
    srv_zk_logs_t *lg = cm_calloc(1, sizeof *lg);
    lg->store = store;
    pthread_mutex_init(&lg->mu, NULL);
    return lg;
}

static srv_zk_cached_t *logs_at(srv_zk_logs_t *lg, uint64_t index)
{
    return &lg->ring[(lg->first + (size_t)(index - lg->lo)) % SRV_ZK_LOG_CACHE_MAX];
}

static void logs_clear_locked(srv_zk_logs_t *lg)
{
    for (size_t i = 0; i < lg->n; i++)
        free(logs_at(lg, lg->lo + i)->data);
    lg->n = 0;
    lg->first = 0;
}

static void logs_clear(srv_zk_logs_t *lg)
{
    pthread_mutex_lock(&lg->mu);
    logs_clear_locked(lg);
    pthread_mutex_unlock(&lg->mu);
}

/* Keeps a committed or read entry (consecutive runs; a gap starts over). */
static void logs_put(srv_zk_logs_t *lg, uint64_t index, const uint8_t *data, size_t len)
{
    if (lg->closing || (lg->n > 0 && index >= lg->lo && index < lg->lo + lg->n))
        return;
    pthread_mutex_lock(&lg->mu);
    /* A gap starts a new run: the ring only ever holds consecutive entries. */
    if (lg->n > 0 && index != lg->lo + lg->n)
        logs_clear_locked(lg);
    if (lg->n == 0)
        lg->lo = index;
    if (lg->n == SRV_ZK_LOG_CACHE_MAX) {
        free(lg->ring[lg->first].data);
        lg->first = (lg->first + 1) % SRV_ZK_LOG_CACHE_MAX;
        lg->lo++;
        lg->n--;
    }
    lg->n++;
    srv_zk_cached_t *c = logs_at(lg, index);
    c->data = cm_malloc(len ? len : 1);
    if (len)
        memcpy(c->data, data, len);
    c->len = len;
    pthread_mutex_unlock(&lg->mu);
}

/* Gives j `n` entries from j->from on, out of the ring or out of a read's result. */
static void logs_fill(srv_zk_job_t *j, size_t n, const cat_log_entry_bytes_t *from_read, srv_zk_logs_t *from_ring)
{
    if (j->max > 0 && n > j->max)
        n = j->max;
    j->entries = cm_arena_alloc(&j->arena, (n ? n : 1) * sizeof *j->entries);
    for (size_t i = 0; i < n; i++) {
        const uint8_t *data;
        size_t len;
        if (from_ring) {
            const srv_zk_cached_t *c = logs_at(from_ring, j->from + i);
            data = c->data;
            len = c->len;
        } else {
            data = from_read[i].data;
            len = from_read[i].len;
        }
        uint8_t *copy = cm_arena_alloc(&j->arena, len ? len : 1);
        memcpy(copy, data, len);
        j->entries[i] = (cat_log_entry_bytes_t){.index = j->from + i, .data = copy, .len = len};
    }
    j->n = n;
    j->st = CAT_STORE_OK;
}

static void logs_answer(srv_zk_job_t *j, size_t n, const cat_log_entry_bytes_t *from_read, srv_zk_logs_t *from_ring)
{
    logs_fill(j, n, from_read, from_ring);
    srv_zk_handle_answer(j);
}

static void logs_fail(srv_zk_job_t *j, cat_store_status_t st, const cm_err_t *err)
{
    srv_zk_job_status(j, st, err);
    srv_zk_handle_answer(j);
}

static bool logs_in_ring(const srv_zk_logs_t *lg, const srv_zk_job_t *j)
{
    return lg->n > 0 && j->from >= lg->lo && j->from < lg->lo + lg->n;
}

/* Nothing past the known head while none of our commits is out: a later
 * commit notifies every handle again. */
static bool logs_past_head(const srv_zk_logs_t *lg, const srv_zk_job_t *j)
{
    return lg->head_known && j->from > lg->head && lg->commits_answered == lg->commits_sent;
}

static void logs_ring_answer(srv_zk_logs_t *lg, srv_zk_job_t *j)
{
    logs_answer(j, (size_t)(lg->lo + lg->n - j->from), NULL, lg);
}

bool srv_zk_logs_copy(srv_zk_logs_t *lg, srv_zk_job_t *j)
{
    pthread_mutex_lock(&lg->mu);
    bool here = !lg->closing && (logs_in_ring(lg, j) || logs_past_head(lg, j));
    if (here)
        logs_fill(j, logs_in_ring(lg, j) ? (size_t)(lg->lo + lg->n - j->from) : 0, NULL, lg);
    pthread_mutex_unlock(&lg->mu);
    return here;
}

/* Takes *pp out of the parked list. Before answering it: the answer reuses
 * job->next for the handle's list. */
static srv_zk_job_t *logs_unlink(srv_zk_job_t **pp)
{
    srv_zk_job_t *j = *pp;
    *pp = j->next;
    j->next = NULL;
    return j;
}

static void logs_read_cb(void *arg, cat_store_status_t st, const cat_log_entry_bytes_t *entries, size_t n,
                         const cm_err_t *err);

static void logs_head_at_least(srv_zk_logs_t *lg, uint64_t index)
{
    pthread_mutex_lock(&lg->mu);
    lg->head_known = true;
    if (index > lg->head)
        lg->head = index;
    pthread_mutex_unlock(&lg->mu);
}


/* Answers j here when the ring holds its first entry, or when it asks past
 * the known head and no commit it waits for is out. */
static bool logs_answer_here(srv_zk_logs_t *lg, srv_zk_job_t **pp)
{
    srv_zk_job_t *j = *pp;
    if (logs_in_ring(lg, j)) {
        logs_ring_answer(lg, logs_unlink(pp));
        return true;
    }
    if (lg->head_known && j->from > lg->head && j->behind <= lg->commits_answered) {
        logs_answer(logs_unlink(pp), 0, NULL, NULL);
        return true;
    }
    return false;
}

/* Answers what the ring holds; then, if nothing is in flight, reads once for
 * every parked read not waiting for a commit. */
static void logs_pump(srv_zk_logs_t *lg)
{
    for (srv_zk_job_t **pp = &lg->parked; *pp;)
        if (!logs_answer_here(lg, pp))
            pp = &(*pp)->next;
    if (lg->parked == NULL || lg->reading || lg->closing)
        return;
    uint64_t from = UINT64_MAX;
    for (srv_zk_job_t *j = lg->parked; j; j = j->next)
        if (j->behind <= lg->commits_answered && j->from < from)
            from = j->from;
    if (from == UINT64_MAX)
        return;
    /* Enough for the hungriest: 0 reads to the head. */
    size_t max = 1;
    for (srv_zk_job_t *j = lg->parked; j && max > 0; j = j->next) {
        if (j->behind > lg->commits_answered)
            continue;
        if (j->max == 0)
            max = 0;
        else if ((size_t)(j->from - from) + j->max > max)
            max = (size_t)(j->from - from) + j->max;
    }
    lg->reading = true;
    lg->read_stamp = lg->stamp;
    lg->read_from = from;
    cm_err_t e = {0};
    if (cat_store_log_read(lg->store, from, max, logs_read_cb, lg, &e) != 0) {
        lg->reading = false;
        /* Every read that would have gone out hears why it could not. */
        for (srv_zk_job_t **pp = &lg->parked; *pp;) {
            srv_zk_job_t *j = *pp;
            if (j->behind > lg->commits_answered) {
                pp = &j->next;
                continue;
            }
            logs_fail(logs_unlink(pp), CAT_STORE_ERROR, &e);
        }
    }
    cm_err_clear(&e);
}

static void logs_read_cb(void *arg, cat_store_status_t st, const cat_log_entry_bytes_t *entries, size_t n,
                         const cm_err_t *err)
{
    srv_zk_logs_t *lg = arg;
    lg->reading = false;
    if (st == CAT_STORE_OK) {
        for (size_t i = 0; i < n; i++)
            logs_put(lg, entries[i].index, entries[i].data, entries[i].len);
        /* The read began at the head: nothing from read_from on means the
         * head was just before it (a reader only asks past what it has). */
        if (n == 0 && lg->read_from > 0)
            logs_head_at_least(lg, lg->read_from - 1);
    }
    for (srv_zk_job_t **pp = &lg->parked; *pp;) {
        srv_zk_job_t *j = *pp;
        /* Parked after the read was sent, or waiting for a commit: not ours to answer. */
        if (j->stamp > lg->read_stamp || j->behind > lg->commits_answered) {
            pp = &j->next;
            continue;
        }
        /* Only the first entry asked for was trimmed: later ones read again. */
        if (st == CAT_STORE_TRIMMED && j->from > lg->read_from) {
            pp = &j->next;
            continue;
        }
        logs_unlink(pp);
        if (st != CAT_STORE_OK) {
            logs_fail(j, st, err);
            continue;
        }
        size_t skip = (size_t)(j->from - lg->read_from);
        logs_answer(j, skip < n ? n - skip : 0, skip < n ? entries + skip : NULL, NULL);
    }
    logs_pump(lg);
}

void srv_zk_logs_read(srv_zk_logs_t *lg, srv_zk_job_t *j)
{
    if (lg->closing) {
        srv_zk_job_refuse(j);
        return;
    }
    j->stamp = ++lg->stamp;
    j->behind = lg->commits_sent;
    j->next = NULL;
    srv_zk_job_t **pp = &lg->parked;
    while (*pp)
        pp = &(*pp)->next;
    *pp = j;
    logs_pump(lg);
}

void srv_zk_logs_news(srv_zk_logs_t *lg, bool known, uint64_t head)
{
    if (known) {
        logs_head_at_least(lg, head);
        return;
    }
    pthread_mutex_lock(&lg->mu);
    lg->head_known = false;
    pthread_mutex_unlock(&lg->mu);
}

void srv_zk_logs_committed(srv_zk_logs_t *lg, uint64_t index, const uint8_t *data, size_t len)
{
    logs_put(lg, index, data, len);
    /* The compare-and-swap made it the head at that moment. */
    logs_head_at_least(lg, index);
}

bool srv_zk_logs_commits_out(const srv_zk_logs_t *lg)
{
    return lg->commits_answered < lg->commits_sent;
}

void srv_zk_logs_commit_sent(srv_zk_logs_t *lg)
{
    pthread_mutex_lock(&lg->mu);
    lg->commits_sent++;
    pthread_mutex_unlock(&lg->mu);
}

void srv_zk_logs_commit_answered(srv_zk_logs_t *lg)
{
    pthread_mutex_lock(&lg->mu);
    lg->commits_answered++;
    pthread_mutex_unlock(&lg->mu);
    logs_pump(lg);
}

void srv_zk_logs_close(srv_zk_logs_t *lg)
{
    pthread_mutex_lock(&lg->mu);
    lg->closing = true;
    logs_clear_locked(lg);
    pthread_mutex_unlock(&lg->mu);
    while (lg->parked)
        srv_zk_job_refuse(logs_unlink(&lg->parked));
}

void srv_zk_logs_free(srv_zk_logs_t *lg)
{
    if (lg == NULL)
        return;
    logs_clear(lg);
    pthread_mutex_destroy(&lg->mu);
    free(lg);
}
