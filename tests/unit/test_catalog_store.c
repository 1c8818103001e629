/*
 * test_catalog_store.c: the store interface's contract, on store_mem: the
 * head compare-and-swap, gap-free indexes, all-or-nothing commits, request
 * markers, notifications as hints, completions never inside the call, log
 * reads and trimming, the size limits, and several threads committing at
 * once. store_zk must pass the same cases (issue 4).
 */
#include <pthread.h>
#include <stdio.h>

#include "tests/unit/test_catalog_helpers.h"

static cat_store_status_t raw_commit(cat_store_t *st, raw_t *r, tc_res_t *res)
{
    cm_err_t err = {0};
    memset(res, 0, sizeof(*res));
    int rc = cat_store_commit(st, &r->c, tc_commit_cb, res, &err);
    UNIT_CHECK(rc == 0);
    UNIT_CHECK(res->calls == 0);   /* never inside the call */
    cat_store_dispatch(st);
    UNIT_CHECK(res->calls == 1);
    cat_store_dispatch(st);
    UNIT_CHECK(res->calls == 1);   /* exactly once */
    return res->st;
}

typedef struct snapres {
    int calls;
    size_t n;
    uint64_t head;
    char keys[64][32];
} snapres_t;

static void snap_cb(void *arg, cat_store_status_t s, const cat_head_t *h, const cat_kv_t *o, size_t n,
                    const cm_err_t *e)
{
    snapres_t *r = arg;
    r->calls++;
    r->n = n;
    r->head = h->index;
    for (size_t i = 0; i < n && i < 64; i++)
        snprintf(r->keys[i], sizeof(r->keys[i]), "%s", o[i].key);
}

static bool snap_has(const snapres_t *r, const char *key)
{
    for (size_t i = 0; i < r->n && i < 64; i++)
        if (strcmp(r->keys[i], key) == 0)
            return true;
    return false;
}

static void test_head_cas_and_gap_free(void)
{
    cat_mem_db_t *db = cat_mem_db_new();
    cat_store_t *st = cat_store_mem_open(db, NULL, NULL, NULL);
    tc_res_t r;
    raw_t c;
    for (uint64_t i = 0; i < 5; i++) {
        raw_init(&c, i, (uint8_t)(i + 1));
        UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK);
        UNIT_CHECK(r.index == i + 1);
    }
    /* A commit planned at an old head conflicts and changes nothing. */
    raw_init(&c, 3, 99);
    raw_obj(&c, "i4");
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_CONFLICT);
    tc_res_t h = {0};
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_head(st, tc_head_cb, &h, &err) == 0);
    UNIT_CHECK(h.calls == 0);
    cat_store_dispatch(st);
    UNIT_CHECK(h.calls == 1 && h.head.index == 5 && h.head.version == 5);
    /* The loser retries at the new head and its marker was not consumed. */
    raw_init(&c, 5, 99);
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK && r.index == 6);
    /* The log is 1..6 without gaps, in order. */
    tc_res_t lg = {0};
    UNIT_CHECK(cat_store_log_read(st, 1, 0, tc_log_cb, &lg, &err) == 0);
    cat_store_dispatch(st);
    UNIT_CHECK(lg.st == CAT_STORE_OK && lg.n == 6);
    for (size_t i = 0; i < lg.n; i++) {
        char want[32];
        snprintf(want, sizeof(want), "e%zu", i + 1);
        UNIT_CHECK(lg.idx[i] == i + 1);
        UNIT_CHECK(lg.len[i] == strlen(want) && memcmp(lg.data[i], want, lg.len[i]) == 0);
    }
    tc_res_clear(&lg);
    /* Reading in batches and past the head. */
    UNIT_CHECK(cat_store_log_read(st, 2, 3, tc_log_cb, &lg, &err) == 0);
    cat_store_dispatch(st);
    UNIT_CHECK(lg.n == 3 && lg.idx[0] == 2 && lg.idx[2] == 4);
    tc_res_clear(&lg);
    UNIT_CHECK(cat_store_log_read(st, 7, 0, tc_log_cb, &lg, &err) == 0);
    cat_store_dispatch(st);
    UNIT_CHECK(lg.st == CAT_STORE_OK && lg.n == 0 && lg.calls == 1);
    tc_res_clear(&lg);
    UNIT_CHECK(cat_store_log_read(st, 0, 0, tc_log_cb, &lg, &err) == -1 && err.set);
    cm_err_clear(&err);
    cat_store_dispatch(st);
    UNIT_CHECK(lg.calls == 0);   /* an error return never calls back */
    cat_store_close(st);
    cat_mem_db_free(db);
}

static void test_commit_is_all_or_nothing(void)
{
    cat_mem_db_t *db = cat_mem_db_new();
    cat_store_t *st = cat_store_mem_open(db, NULL, NULL, NULL);
    tc_res_t r;
    raw_t c;
    raw_init(&c, 0, 1);
    raw_obj(&c, "i1");
    raw_name(&c, "r.eddy.public.t", "i1");
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK);
    /* The second name collides: no object, no name, no entry, no marker. */
    raw_init(&c, 1, 2);
    raw_obj(&c, "i2");
    raw_name(&c, "r.eddy.public.u", "i2");
    raw_name(&c, "r.eddy.public.t", "i2");
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_NAME_EXISTS);
    UNIT_CHECK_STR(r.name_key, "r.eddy.public.t");
    snapres_t sr = {0};
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_snapshot(st, snap_cb, &sr, &err) == 0);
    cat_store_dispatch(st);
    UNIT_CHECK(sr.calls == 1 && sr.head == 1 && sr.n == 1 && snap_has(&sr, "i1"));
    tc_res_t q = {0};
    uint8_t uuid2[16] = {2, 0x77};
    cat_store_request_lookup(st, uuid2, tc_request_cb, &q, &err);
    cat_store_dispatch(st);
    UNIT_CHECK(q.st == CAT_STORE_NOT_FOUND);
    /* Without the collision the same request commits at index 2. */
    raw_init(&c, 1, 2);
    raw_obj(&c, "i2");
    raw_name(&c, "r.eddy.public.u", "i2");
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK && r.index == 2);
    /* A drop and a create of one name in one commit (deletes come first). */
    raw_init(&c, 2, 3);
    c.odel[c.c.n_obj_deletes++] = "i1";
    c.ndel[c.c.n_name_deletes++] = "r.eddy.public.t";
    raw_obj(&c, "i3");
    raw_name(&c, "r.eddy.public.t", "i3");
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK && r.index == 3);
    /* Deleting what is not there is an inconsistency, reported as an error. */
    raw_init(&c, 3, 4);
    c.odel[c.c.n_obj_deletes++] = "i1";
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_ERROR);
    UNIT_CHECK(strstr(r.errmsg, "i1") != NULL);
    memset(&sr, 0, sizeof(sr));
    cat_store_snapshot(st, snap_cb, &sr, &err);
    cat_store_dispatch(st);
    UNIT_CHECK(sr.head == 3 && sr.n == 2 && snap_has(&sr, "i2") && snap_has(&sr, "i3") && !snap_has(&sr, "i1"));
    cat_store_close(st);
    cat_mem_db_free(db);
}

static void test_request_marker_is_idempotent(void)
{
    cat_mem_db_t *db = cat_mem_db_new();
    cat_store_t *st = cat_store_mem_open(db, NULL, NULL, NULL);
    tc_res_t r;
    raw_t c;
    raw_init(&c, 0, 7);
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK);
    raw_init(&c, 1, 8);
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK);
    /* The retry of request 7 after an "ambiguous" outcome: at the old head it
     * is a duplicate (the marker wins over the conflict), and so it is at the
     * new head: it is never applied twice. */
    raw_init(&c, 0, 7);
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_DUPLICATE && r.index == 1);
    raw_init(&c, 2, 7);
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_DUPLICATE && r.index == 1);
    tc_res_t q = {0};
    cm_err_t err = {0};
    uint8_t uuid[16] = {7, 0x77};
    UNIT_CHECK(cat_store_request_lookup(st, uuid, tc_request_cb, &q, &err) == 0);
    UNIT_CHECK(q.calls == 0);
    cat_store_dispatch(st);
    UNIT_CHECK(q.st == CAT_STORE_OK && q.index == 1);
    tc_res_t h = {0};
    cat_store_head(st, tc_head_cb, &h, &err);
    cat_store_dispatch(st);
    UNIT_CHECK(h.head.index == 2);
    cat_store_close(st);
    cat_mem_db_free(db);
}

typedef struct wakes {
    int wakes;
    int notifies;
} wakes_t;

static void on_wake(void *arg)
{
    ((wakes_t *)arg)->wakes++;
}

static void on_notify(void *arg)
{
    ((wakes_t *)arg)->notifies++;
}

static void test_notification_is_a_coalesced_hint(void)
{
    cat_mem_db_t *db = cat_mem_db_new();
    wakes_t wa = {0}, wb = {0};
    cat_store_t *a = cat_store_mem_open(db, NULL, on_wake, &wa);
    cat_store_t *b = cat_store_mem_open(db, NULL, on_wake, &wb);
    cat_store_set_notify(a, on_notify, &wa);
    cat_store_set_notify(b, on_notify, &wb);
    tc_res_t r;
    raw_t c;
    for (uint64_t i = 0; i < 3; i++) {
        raw_init(&c, i, (uint8_t)(10 + i));
        cm_err_t err = {0};
        memset(&r, 0, sizeof(r));
        UNIT_CHECK(cat_store_commit(a, &c.c, tc_commit_cb, &r, &err) == 0);
        cat_store_dispatch(a);
        UNIT_CHECK(r.st == CAT_STORE_OK);
    }
    /* a heard about each of its commits; b, not dispatching, was woken once
     * and hears one notice for three commits. */
    UNIT_CHECK(wa.notifies == 3);
    UNIT_CHECK(wb.wakes == 1 && wb.notifies == 0);
    cat_store_dispatch(b);
    UNIT_CHECK(wb.notifies == 1);
    cat_store_dispatch(b);
    UNIT_CHECK(wb.notifies == 1);
    /* A conflict moves nothing and notifies nobody. */
    raw_init(&c, 0, 50);
    cm_err_t err = {0};
    cat_store_commit(b, &c.c, tc_commit_cb, &r, &err);
    cat_store_dispatch(b);
    cat_store_dispatch(a);
    UNIT_CHECK(r.st == CAT_STORE_CONFLICT && wb.notifies == 1 && wa.notifies == 3);
    cat_store_close(a);
    cat_store_close(b);
    cat_mem_db_free(db);
}

static void test_log_trim(void)
{
    cat_mem_db_t *db = cat_mem_db_new();
    cat_store_t *st = cat_store_mem_open(db, NULL, NULL, NULL);
    tc_res_t r;
    raw_t c;
    for (uint64_t i = 0; i < 10; i++) {
        raw_init(&c, i, (uint8_t)(i + 1));
        raw_commit(st, &c, &r);
    }
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_log_trim(st, 8, &err) == 0);
    tc_res_t lg = {0};
    cat_store_log_read(st, 5, 0, tc_log_cb, &lg, &err);
    cat_store_dispatch(st);
    UNIT_CHECK(lg.st == CAT_STORE_TRIMMED && lg.n == 0);
    tc_res_clear(&lg);
    cat_store_log_read(st, 8, 0, tc_log_cb, &lg, &err);
    cat_store_dispatch(st);
    UNIT_CHECK(lg.st == CAT_STORE_OK && lg.n == 3 && lg.idx[0] == 8);
    tc_res_clear(&lg);
    /* The head's entry is never trimmed. */
    cat_store_log_trim(st, 100, &err);
    cat_store_log_read(st, 10, 0, tc_log_cb, &lg, &err);
    cat_store_dispatch(st);
    UNIT_CHECK(lg.st == CAT_STORE_OK && lg.n == 1 && lg.idx[0] == 10);
    tc_res_clear(&lg);
    cat_store_close(st);
    cat_mem_db_free(db);
}

static void test_size_limits(void)
{
    cat_mem_db_t *db = cat_mem_db_new();
    cat_limits_t lim;
    cat_limits_default(&lim);
    UNIT_CHECK(lim.entry_max_bytes == 512 * 1024 && lim.commit_max_bytes < 900 * 1024);
    lim.entry_max_bytes = 100;
    lim.object_max_bytes = 200;
    lim.commit_max_bytes = 1000;
    cat_store_t *st = cat_store_mem_open(db, &lim, NULL, NULL);
    char big[300];
    memset(big, 'x', sizeof(big));
    raw_t c;
    raw_init(&c, 0, 1);
    c.c.entry = (const uint8_t *)big;
    c.c.entry_len = 101;
    tc_res_t r = {0};
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_commit(st, &c.c, tc_commit_cb, &r, &err) == -1);
    UNIT_CHECK_STR(err.sqlstate, "54000");
    UNIT_CHECK_STR(err.message, "catalog entry is too large");
    UNIT_CHECK_STR(err.detail, "The log entry has 101 bytes; the limit is 100.");
    cm_err_clear(&err);
    raw_init(&c, 0, 1);
    c.objs[0] = (cat_kv_t){"i1", (const uint8_t *)big, 201};
    c.c.n_obj_creates = 1;
    UNIT_CHECK(cat_store_commit(st, &c.c, tc_commit_cb, &r, &err) == -1);
    UNIT_CHECK_STR(err.message, "catalog object is too large");
    cm_err_clear(&err);
    raw_init(&c, 0, 1);
    for (int i = 0; i < 4; i++)
        c.objs[i] = (cat_kv_t){"i1", (const uint8_t *)big, 200};
    c.c.n_obj_creates = 4;
    UNIT_CHECK(cat_store_commit(st, &c.c, tc_commit_cb, &r, &err) == -1);
    UNIT_CHECK_STR(err.sqlstate, "54000");
    UNIT_CHECK_STR(err.message, "catalog change is too large");
    cm_err_clear(&err);
    cat_store_dispatch(st);
    UNIT_CHECK(r.calls == 0);
    tc_res_t h = {0};
    cat_store_head(st, tc_head_cb, &h, &err);
    cat_store_dispatch(st);
    UNIT_CHECK(h.head.index == 0);
    cat_store_close(st);
    cat_mem_db_free(db);
}

static void test_close_completes_pending_calls(void)
{
    cat_mem_db_t *db = cat_mem_db_new();
    cat_store_t *st = cat_store_mem_open(db, NULL, NULL, NULL);
    raw_t c;
    raw_init(&c, 0, 1);
    tc_res_t r = {0}, h = {0}, lg = {0};
    cm_err_t err = {0};
    cat_store_commit(st, &c.c, tc_commit_cb, &r, &err);
    cat_store_head(st, tc_head_cb, &h, &err);
    cat_store_log_read(st, 1, 0, tc_log_cb, &lg, &err);
    cat_store_close(st);
    /* The commit happened, so it reports OK; reads report the closing. */
    UNIT_CHECK(r.calls == 1 && r.st == CAT_STORE_OK);
    UNIT_CHECK(h.calls == 1 && h.st == CAT_STORE_ERROR);
    UNIT_CHECK(lg.calls == 1 && lg.st == CAT_STORE_ERROR && lg.n == 0);
    UNIT_CHECK(strstr(h.errmsg, "closing") != NULL);
    cat_mem_db_free(db);
}

/* ---- several threads, one catalog: each retries on conflict ---- */

typedef struct worker {
    cat_mem_db_t *db;
    int id;
    int commits;
    int conflicts;
    uint64_t indexes[200];
} worker_t;

static void *worker_main(void *arg)
{
    worker_t *w = arg;
    cat_store_t *st = cat_store_mem_open(w->db, NULL, NULL, NULL);
    while (w->commits < 200) {
        tc_res_t h = {0};
        cm_err_t err = {0};
        cat_store_head(st, tc_head_cb, &h, &err);
        cat_store_dispatch(st);
        raw_t c;
        raw_init(&c, h.head.index, 0);
        c.c.request_uuid[0] = (uint8_t)w->id;
        c.c.request_uuid[2] = (uint8_t)(w->commits >> 8);
        c.c.request_uuid[3] = (uint8_t)w->commits;
        tc_res_t r = {0};
        cat_store_commit(st, &c.c, tc_commit_cb, &r, &err);
        cat_store_dispatch(st);
        if (r.st == CAT_STORE_OK)
            w->indexes[w->commits++] = r.index;
        else
            w->conflicts++;
    }
    cat_store_close(st);
    return NULL;
}

static void test_threads_commit_gap_free(void)
{
    cat_mem_db_t *db = cat_mem_db_new();
    enum { N = 4 };
    worker_t w[N];
    pthread_t th[N];
    for (int i = 0; i < N; i++) {
        memset(&w[i], 0, sizeof(w[i]));
        w[i].db = db;
        w[i].id = i + 1;
        pthread_create(&th[i], NULL, worker_main, &w[i]);
    }
    for (int i = 0; i < N; i++)
        pthread_join(th[i], NULL);
    /* 800 commits took indexes 1..800 exactly once; each thread's own
     * indexes increase. */
    static int seen[N * 200 + 1];
    memset(seen, 0, sizeof(seen));
    int conflicts = 0;
    for (int i = 0; i < N; i++) {
        conflicts += w[i].conflicts;
        for (int k = 0; k < 200; k++) {
            uint64_t ix = w[i].indexes[k];
            UNIT_CHECK(ix >= 1 && ix <= N * 200);
            if (ix >= 1 && ix <= N * 200)
                seen[ix]++;
            if (k)
                UNIT_CHECK(ix > w[i].indexes[k - 1]);
        }
    }
    for (int ix = 1; ix <= N * 200; ix++)
        UNIT_CHECK(seen[ix] == 1);
    printf("  4 threads x 200 commits: %d conflicts retried\n", conflicts);
    cat_mem_db_free(db);
}

static void test_keys(void)
{
    char k[24];
    cat_object_key(CAT_CLASS_ITEM, 17, k);
    UNIT_CHECK_STR(k, "i17");
    cat_class_t cls;
    cat_id_t id;
    UNIT_CHECK(cat_object_key_parse("s5", &cls, &id) && cls == CAT_CLASS_SCHEMA && id == 5);
    UNIT_CHECK(!cat_object_key_parse("i0", &cls, &id));
    UNIT_CHECK(!cat_object_key_parse("x5", &cls, &id));
    UNIT_CHECK(!cat_object_key_parse("i99999999999999999999999", &cls, &id));
    UNIT_CHECK(!cat_object_key_parse("i5a", &cls, &id));
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cat_name_key(CAT_CLASS_ITEM, "eddy", "public", "my view.x/..", &b);
    UNIT_CHECK_STR((const char *)b.data, "r.eddy.public.my%20view%2Ex%2F%2E%2E");
    cm_buf_reset(&b);
    cat_name_key(CAT_CLASS_SCHEMA, "eddy", "S\xc3\xa9", NULL, &b);
    UNIT_CHECK_STR((const char *)b.data, "s.eddy.S%C3%A9");
    cm_buf_reset(&b);
    cat_name_key(CAT_CLASS_DATABASE, "zookeeper", NULL, NULL, &b);
    UNIT_CHECK_STR((const char *)b.data, "d.zookeeper");
    cm_buf_free(&b);
}

int main(void)
{
    UNIT_RUN(test_head_cas_and_gap_free);
    UNIT_RUN(test_commit_is_all_or_nothing);
    UNIT_RUN(test_request_marker_is_idempotent);
    UNIT_RUN(test_notification_is_a_coalesced_hint);
    UNIT_RUN(test_log_trim);
    UNIT_RUN(test_size_limits);
    UNIT_RUN(test_close_completes_pending_calls);
    UNIT_RUN(test_threads_commit_gap_free);
    UNIT_RUN(test_keys);
    UNIT_EXIT();
}
