/*
 * cat_store_mem.c: the embedded store, "a linked-list ZooKeeper".
 *
 * The laptop offering keeps the catalog in memory behind the same interface
 * and with the same semantics as store_zk: one head with a compare-and-swap,
 * a gap-free log, objects, unique names, request markers, notifications that
 * are hints. Its state (cat_mem_db_t) is shared by the handles of several
 * threads under one mutex; each handle queues its completions and delivers
 * them from cat_store_dispatch on its own thread, never inside the call,
 * because ZooKeeper never completes inside the call either and callers must
 * not come to depend on it. A call's effect happens at the call (under the
 * mutex), which is a valid linearization point between call and completion.
 */
#include "catalog/cat_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct mem_blob {
    uint8_t *data;
    size_t len;
    char *key;
} mem_blob_t;

typedef struct mem_store mem_store_t;

struct cat_mem_db {
    pthread_mutex_t mu;
    uint64_t head;
    uint64_t first;          /* lowest index still in the log (head + 1 if none) */
    mem_blob_t *log;         /* log[i - 1] for index i; trimmed ones are empty */
    size_t logcap;
    cat__map_t objects;      /* key → mem_blob_t */
    cat__map_t names;        /* key → mem_blob_t (value: the object key) */
    cat__map_t requests;     /* hex uuid → mem_blob_t (value: the index in decimal) */
    mem_store_t *handles;
};

typedef enum mem_done_type {
    DONE_HEAD,
    DONE_LOG,
    DONE_SNAPSHOT,
    DONE_COMMIT,
    DONE_REQUEST,
} mem_done_type_t;

/* A completion waiting for dispatch, with copies of everything it reports. */
typedef struct mem_done {
    struct mem_done *next;
    mem_done_type_t type;
    void (*fn)(void);   /* the callback, cast back by type */
    void *arg;
    cat_store_status_t st;
    cat_head_t head;
    uint64_t index;
    char *name_key;
    cat_log_entry_bytes_t *entries;
    cat_kv_t *objects;
    size_t n;
    cm_err_t err;
} mem_done_t;

struct mem_store {
    cat_store_t base;
    cat_mem_db_t *db;
    void (*wake)(void *arg);
    void *wake_arg;
    mem_done_t *q_head, *q_tail;   /* under db->mu: other threads' commits add notices */
    bool notify_pending;           /* under db->mu */
    mem_store_t *next;             /* the db's list of handles */
};

static mem_blob_t *mem_blob_new(const char *key, const void *data, size_t len)
{
    mem_blob_t *b = cm_malloc(sizeof(*b));
    b->key = cm_strdup(key);
    b->len = len;
    b->data = cm_malloc(len ? len : 1);
    if (len)
        memcpy(b->data, data, len);
    return b;
}

static void mem_blob_free(mem_blob_t *b)
{
    if (!b)
        return;
    free(b->key);
    free(b->data);
    free(b);
}

static void mem_uuid_key(const uint8_t uuid[16], char out[33])
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        out[2 * i] = hex[uuid[i] >> 4];
        out[2 * i + 1] = hex[uuid[i] & 15];
    }
    out[32] = 0;
}

cat_mem_db_t *cat_mem_db_new(void)
{
    cat_mem_db_t *db = cm_calloc(1, sizeof(*db));
    pthread_mutex_init(&db->mu, NULL);
    db->first = 1;
    cat__map_init(&db->objects);
    cat__map_init(&db->names);
    cat__map_init(&db->requests);
    return db;
}

static void mem_map_free_blobs(cat__map_t *m)
{
    size_t i = 0;
    void *v;
    while (cat__map_next(m, &i, NULL, NULL, &v))
        mem_blob_free(v);
    cat__map_free(m);
}

void cat_mem_db_free(cat_mem_db_t *db)
{
    if (!db)
        return;
    CM_ASSERT(db->handles == NULL);
    for (uint64_t i = 0; i < db->head; i++)
        free(db->log[i].data);
    free(db->log);
    mem_map_free_blobs(&db->objects);
    mem_map_free_blobs(&db->names);
    mem_map_free_blobs(&db->requests);
    pthread_mutex_destroy(&db->mu);
    free(db);
}

/* ------------------------------------------------------------- queue */

static mem_done_t *mem_done_new(mem_done_type_t type, void (*fn)(void), void *arg)
{
    mem_done_t *d = cm_calloc(1, sizeof(*d));
    d->type = type;
    d->fn = fn;
    d->arg = arg;
    return d;
}

/* Called with db->mu held. */
static void mem_enqueue_locked(mem_store_t *s, mem_done_t *d)
{
    if (s->q_tail)
        s->q_tail->next = d;
    else
        s->q_head = d;
    s->q_tail = d;
}

static void mem_wake(mem_store_t *s)
{
    if (s->wake)
        s->wake(s->wake_arg);
}

static void mem_done_free(mem_done_t *d)
{
    for (size_t i = 0; d->entries && i < d->n; i++)
        free((void *)d->entries[i].data);
    for (size_t i = 0; d->objects && i < d->n; i++) {
        free((void *)d->objects[i].key);
        free((void *)d->objects[i].data);
    }
    free(d->entries);
    free(d->objects);
    free(d->name_key);
    cm_err_clear(&d->err);
    free(d);
}

static void mem_done_run(mem_done_t *d)
{
    const cm_err_t *err = d->err.set ? &d->err : NULL;
    switch (d->type) {
    case DONE_HEAD:
        ((cat_store_head_cb)(void *)d->fn)(d->arg, d->st, &d->head, err);
        break;
    case DONE_LOG:
        ((cat_store_log_cb)(void *)d->fn)(d->arg, d->st, d->entries, d->entries ? d->n : 0, err);
        break;
    case DONE_SNAPSHOT:
        ((cat_store_snapshot_cb)(void *)d->fn)(d->arg, d->st, &d->head, d->objects, d->objects ? d->n : 0, err);
        break;
    case DONE_COMMIT:
        ((cat_store_commit_cb)(void *)d->fn)(d->arg, d->st, d->index, d->name_key, err);
        break;
    case DONE_REQUEST:
        ((cat_store_request_cb)(void *)d->fn)(d->arg, d->st, d->index, err);
        break;
    }
}

static void mem_dispatch(cat_store_t *base)
{
    mem_store_t *s = (mem_store_t *)base;
    pthread_mutex_lock(&s->db->mu);
    mem_done_t *q = s->q_head;
    s->q_head = s->q_tail = NULL;
    bool notify = s->notify_pending;
    s->notify_pending = false;
    pthread_mutex_unlock(&s->db->mu);
    /* Callbacks run without the lock: they may call into the store again. */
    while (q) {
        mem_done_t *next = q->next;
        mem_done_run(q);
        mem_done_free(q);
        q = next;
    }
    if (notify && s->base.notify)
        s->base.notify(s->base.notify_arg);
}

/* ------------------------------------------------------------- calls */

static int mem_head(cat_store_t *base, cat_store_head_cb cb, void *arg, cm_err_t *err)
{
    mem_store_t *s = (mem_store_t *)base;
    mem_done_t *d = mem_done_new(DONE_HEAD, (void (*)(void))(void *)cb, arg);
    pthread_mutex_lock(&s->db->mu);
    d->head.index = s->db->head;
    d->head.version = (int64_t)s->db->head;
    mem_enqueue_locked(s, d);
    pthread_mutex_unlock(&s->db->mu);
    mem_wake(s);
    return 0;
}

static int mem_log_read(cat_store_t *base, uint64_t from, size_t max, cat_store_log_cb cb, void *arg,
                        cm_err_t *err)
{
    mem_store_t *s = (mem_store_t *)base;
    cat_mem_db_t *db = s->db;
    mem_done_t *d = mem_done_new(DONE_LOG, (void (*)(void))(void *)cb, arg);
    pthread_mutex_lock(&db->mu);
    if (from < db->first && from <= db->head) {
        d->st = CAT_STORE_TRIMMED;
        cm_err_set(&d->err, CM_ERRCODE_INTERNAL_ERROR,
                   "catalog log entry %llu was trimmed; the oldest kept is %llu", (unsigned long long)from,
                   (unsigned long long)db->first);
    } else if (from <= db->head) {
        uint64_t last = db->head - from + 1 > max ? from + max - 1 : db->head;
        d->n = (size_t)(last - from + 1);
        d->entries = cm_calloc(d->n, sizeof(cat_log_entry_bytes_t));
        for (size_t i = 0; i < d->n; i++) {
            const mem_blob_t *e = &db->log[from + i - 1];
            uint8_t *copy = cm_malloc(e->len ? e->len : 1);
            memcpy(copy, e->data, e->len);
            d->entries[i] = (cat_log_entry_bytes_t){.index = from + i, .data = copy, .len = e->len};
        }
    }
    mem_enqueue_locked(s, d);
    pthread_mutex_unlock(&db->mu);
    mem_wake(s);
    return 0;
}

static int mem_snapshot(cat_store_t *base, cat_store_snapshot_cb cb, void *arg, cm_err_t *err)
{
    mem_store_t *s = (mem_store_t *)base;
    cat_mem_db_t *db = s->db;
    mem_done_t *d = mem_done_new(DONE_SNAPSHOT, (void (*)(void))(void *)cb, arg);
    pthread_mutex_lock(&db->mu);
    /* Under the mutex the objects are exactly the effect of entries 1..head. */
    d->head.index = db->head;
    d->head.version = (int64_t)db->head;
    d->n = db->objects.count;
    d->objects = cm_calloc(d->n ? d->n : 1, sizeof(cat_kv_t));
    size_t it = 0, k = 0;
    void *v;
    while (cat__map_next(&db->objects, &it, NULL, NULL, &v)) {
        const mem_blob_t *b = v;
        uint8_t *copy = cm_malloc(b->len ? b->len : 1);
        memcpy(copy, b->data, b->len);
        d->objects[k++] = (cat_kv_t){.key = cm_strdup(b->key), .data = copy, .len = b->len};
    }
    CM_ASSERT(k == d->n);
    mem_enqueue_locked(s, d);
    pthread_mutex_unlock(&db->mu);
    mem_wake(s);
    return 0;
}

static int mem_request_lookup(cat_store_t *base, const uint8_t uuid[16], cat_store_request_cb cb, void *arg,
                              cm_err_t *err)
{
    mem_store_t *s = (mem_store_t *)base;
    char key[33];
    mem_uuid_key(uuid, key);
    mem_done_t *d = mem_done_new(DONE_REQUEST, (void (*)(void))(void *)cb, arg);
    pthread_mutex_lock(&s->db->mu);
    const mem_blob_t *b = cat__map_get(&s->db->requests, 0, key);
    if (b)
        d->index = strtoull((const char *)b->data, NULL, 10);
    else
        d->st = CAT_STORE_NOT_FOUND;
    mem_enqueue_locked(s, d);
    pthread_mutex_unlock(&s->db->mu);
    mem_wake(s);
    return 0;
}

static bool mem_in_list(const char *const *list, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], key) == 0)
            return true;
    return false;
}

/* Decides a commit with db->mu held; the order of checks is the multi's op order. */
static cat_store_status_t mem_commit_check(cat_mem_db_t *db, const cat_store_commit_t *c, const char *ukey,
                                           mem_done_t *d)
{
    const mem_blob_t *marker = cat__map_get(&db->requests, 0, ukey);
    if (marker) {
        d->index = strtoull((const char *)marker->data, NULL, 10);
        return CAT_STORE_DUPLICATE;
    }
    if (c->expect.index != db->head || c->expect.version != (int64_t)db->head)
        return CAT_STORE_CONFLICT;
    for (size_t i = 0; i < c->n_obj_deletes; i++) {
        if (!cat__map_get(&db->objects, 0, c->obj_deletes[i])) {
            cm_err_set(&d->err, CM_ERRCODE_INTERNAL_ERROR, "catalog store is inconsistent: object %s does not exist",
                       c->obj_deletes[i]);
            return CAT_STORE_ERROR;
        }
    }
    for (size_t i = 0; i < c->n_name_deletes; i++) {
        if (!cat__map_get(&db->names, 0, c->name_deletes[i])) {
            cm_err_set(&d->err, CM_ERRCODE_INTERNAL_ERROR, "catalog store is inconsistent: name %s does not exist",
                       c->name_deletes[i]);
            return CAT_STORE_ERROR;
        }
    }
    for (size_t i = 0; i < c->n_obj_creates; i++) {
        const char *k = c->obj_creates[i].key;
        bool dup = false;
        for (size_t j = 0; j < i; j++)
            dup = dup || strcmp(c->obj_creates[j].key, k) == 0;
        if (dup || (cat__map_get(&db->objects, 0, k) && !mem_in_list(c->obj_deletes, c->n_obj_deletes, k))) {
            cm_err_set(&d->err, CM_ERRCODE_INTERNAL_ERROR, "catalog store is inconsistent: object %s exists", k);
            return CAT_STORE_ERROR;
        }
    }
    for (size_t i = 0; i < c->n_name_creates; i++) {
        const char *k = c->name_creates[i].key;
        bool dup = false;
        for (size_t j = 0; j < i; j++)
            dup = dup || strcmp(c->name_creates[j].key, k) == 0;
        if (dup || (cat__map_get(&db->names, 0, k) && !mem_in_list(c->name_deletes, c->n_name_deletes, k))) {
            d->name_key = cm_strdup(k);
            return CAT_STORE_NAME_EXISTS;
        }
    }
    return CAT_STORE_OK;
}

static void mem_commit_apply(cat_mem_db_t *db, const cat_store_commit_t *c, const char *ukey)
{
    for (size_t i = 0; i < c->n_obj_deletes; i++)
        mem_blob_free(cat__map_del(&db->objects, 0, c->obj_deletes[i]));
    for (size_t i = 0; i < c->n_name_deletes; i++)
        mem_blob_free(cat__map_del(&db->names, 0, c->name_deletes[i]));
    for (size_t i = 0; i < c->n_obj_creates; i++) {
        mem_blob_t *b = mem_blob_new(c->obj_creates[i].key, c->obj_creates[i].data, c->obj_creates[i].len);
        cat__map_put(&db->objects, 0, b->key, b);
    }
    for (size_t i = 0; i < c->n_name_creates; i++) {
        mem_blob_t *b = mem_blob_new(c->name_creates[i].key, c->name_creates[i].data, c->name_creates[i].len);
        cat__map_put(&db->names, 0, b->key, b);
    }
    char num[24];
    int n = snprintf(num, sizeof(num), "%llu", (unsigned long long)c->index);
    mem_blob_t *m = mem_blob_new(ukey, num, (size_t)n + 1);
    cat__map_put(&db->requests, 0, m->key, m);
    if (db->head == db->logcap) {
        db->logcap = db->logcap ? db->logcap * 2 : 64;
        db->log = cm_realloc(db->log, db->logcap * sizeof(mem_blob_t));
    }
    mem_blob_t *e = &db->log[db->head];
    e->key = NULL;
    e->len = c->entry_len;
    e->data = cm_malloc(c->entry_len ? c->entry_len : 1);
    memcpy(e->data, c->entry, c->entry_len);
    db->head = c->index;
}

static int mem_commit(cat_store_t *base, const cat_store_commit_t *c, cat_store_commit_cb cb, void *arg,
                      cm_err_t *err)
{
    mem_store_t *s = (mem_store_t *)base;
    cat_mem_db_t *db = s->db;
    char ukey[33];
    mem_uuid_key(c->request_uuid, ukey);
    mem_done_t *d = mem_done_new(DONE_COMMIT, (void (*)(void))(void *)cb, arg);
    mem_store_t *woken[64];
    size_t nwoken = 0;
    bool wake_all = false;
    pthread_mutex_lock(&db->mu);
    d->st = mem_commit_check(db, c, ukey, d);
    if (d->st == CAT_STORE_OK) {
        mem_commit_apply(db, c, ukey);
        d->index = c->index;
        /* Every handle, this one too, hears "the head may have moved"; a flag
         * already set absorbs the notice, as ZooKeeper's one-shot watch does. */
        for (mem_store_t *h = db->handles; h; h = h->next) {
            bool wake = !h->notify_pending && !atomic_load(&h->base.quiet);
            if (wake && nwoken < CM_ARRAY_LEN(woken))
                woken[nwoken++] = h;
            else if (wake)
                wake_all = true;
            h->notify_pending = true;
        }
    }
    mem_enqueue_locked(s, d);
    /* Other handles are woken under the lock: once it is released another
     * thread may close its handle and free it. Wake hooks only signal
     * (uv_async_send), so calling them here cannot deadlock. */
    if (wake_all) {
        for (mem_store_t *h = db->handles; h; h = h->next)
            if (h != s && !atomic_load(&h->base.quiet))
                mem_wake(h);
    } else {
        for (size_t i = 0; i < nwoken; i++)
            if (woken[i] != s)
                mem_wake(woken[i]);
    }
    pthread_mutex_unlock(&db->mu);
    mem_wake(s);
    return 0;
}

static int mem_log_trim(cat_store_t *base, uint64_t below, cm_err_t *err)
{
    mem_store_t *s = (mem_store_t *)base;
    cat_mem_db_t *db = s->db;
    pthread_mutex_lock(&db->mu);
    /* The head's own entry always stays: readers learn the head from it. */
    uint64_t limit = below < db->head ? below : db->head;
    for (uint64_t i = db->first; i < limit; i++) {
        free(db->log[i - 1].data);
        db->log[i - 1].data = NULL;
        db->log[i - 1].len = 0;
    }
    if (limit > db->first)
        db->first = limit;
    pthread_mutex_unlock(&db->mu);
    return 0;
}

static void mem_close(cat_store_t *base)
{
    mem_store_t *s = (mem_store_t *)base;
    cat_mem_db_t *db = s->db;
    pthread_mutex_lock(&db->mu);
    for (mem_store_t **pp = &db->handles; *pp; pp = &(*pp)->next) {
        if (*pp == s) {
            *pp = s->next;
            break;
        }
    }
    mem_done_t *q = s->q_head;
    s->q_head = s->q_tail = NULL;
    pthread_mutex_unlock(&db->mu);
    /* Like ZooKeeper's ZCLOSING: every pending call still hears once. A read's
     * answer is dropped; a commit's outcome is kept, since it did happen. */
    while (q) {
        mem_done_t *next = q->next;
        if (q->type != DONE_COMMIT) {
            mem_done_t *drop = mem_done_new(q->type, q->fn, q->arg);
            drop->next = q->next;
            mem_done_free(q);
            q = drop;
            q->st = CAT_STORE_ERROR;
            cm_err_set(&q->err, CM_ERRCODE_ADMIN_SHUTDOWN, "catalog store \"mem\" is closing");
        }
        mem_done_run(q);
        mem_done_free(q);
        q = next;
    }
    free(s);
}

static const cat_store_ops_t mem_ops = {
    .name = "mem",
    .head = mem_head,
    .log_read = mem_log_read,
    .snapshot = mem_snapshot,
    .commit = mem_commit,
    .request_lookup = mem_request_lookup,
    .log_trim = mem_log_trim,
    .dispatch = mem_dispatch,
    .close = mem_close,
};

cat_store_t *cat_store_mem_open(cat_mem_db_t *db, const cat_limits_t *limits, void (*wake)(void *arg),
                                void *wake_arg)
{
    mem_store_t *s = cm_calloc(1, sizeof(*s));
    s->base.ops = &mem_ops;
    if (limits)
        s->base.limits = *limits;
    else
        cat_limits_default(&s->base.limits);
    s->db = db;
    s->wake = wake;
    s->wake_arg = wake_arg;
    pthread_mutex_lock(&db->mu);
    s->next = db->handles;
    db->handles = s;
    pthread_mutex_unlock(&db->mu);
    return s ? &s->base : NULL;
}
