/*
 * test_catalog_store_zk.c: the store contract of test_catalog_store.c, on
 * store_zk against a real ZooKeeper: head compare-and-swap, gap-free
 * indexes, all-or-nothing commits, request markers, notifications as hints,
 * completions never inside the call and exactly once, log reads and
 * trimming, snapshots, the size limits, and two sessions committing at once.
 *
 * The server's address comes from EDDY_ZK (tests/layers/zk_store.sh starts
 * one); each case uses a fresh chroot. Without EDDY_ZK the binary prints
 * nothing and exits 0: run.sh counts no case rather than a pretend pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "tests/unit/test_catalog_helpers.h"

static const char *zk_addr;

static bool is_ready(void *arg)
{
    return cat_store_zk_ready(arg);
}

static cat_store_t *open_fresh(const char *chroot, const cat_limits_t *lim)
{
    char hosts[512];
    snprintf(hosts, sizeof(hosts), "%s/eddy-test-%d/%s", zk_addr, (int)getpid(), chroot);
    cm_err_t err = {0};
    cat_zk_options_t o;
    cat_zk_options_default(&o);
    o.hosts = hosts;
    o.session_timeout_ms = 4000;
    cat_store_t *st = cat_store_zk_open(&o, lim, &err);
    UNIT_CHECK(st != NULL);
    if (!st) {
        printf("  open failed: %s\n", err.message);
        cm_err_clear(&err);
        exit(1);
    }
    UNIT_CHECK(cat_store_zk_run(st, 10000, is_ready, st) == 0);
    return st;
}

static bool calls_done(void *arg)
{
    return *(int *)arg > 0;
}

/* Drives the handle until the callback counting into *calls ran. */
static void wait_calls(cat_store_t *st, int *calls)
{
    UNIT_CHECK(*calls == 0);   /* never inside the call */
    UNIT_CHECK(cat_store_zk_run(st, 10000, calls_done, calls) == 0);
}

typedef struct raw {
    cat_store_commit_t c;
    char entry[32];
    cat_kv_t objs[4], names[4];
    const char *odel[4], *ndel[4];
} raw_t;

/* As in test_catalog_store.c: the head's version equals its index while only
 * commits set it, on ZooKeeper as in store_mem. */
static void raw_init(raw_t *r, uint64_t head, uint8_t uuid_byte)
{
    memset(r, 0, sizeof(*r));
    r->c.expect = (cat_head_t){head, (int64_t)head};
    r->c.index = head + 1;
    r->c.request_uuid[0] = uuid_byte;
    r->c.request_uuid[1] = 0x77;
    snprintf(r->entry, sizeof(r->entry), "e%llu", (unsigned long long)(head + 1));
    r->c.entry = (const uint8_t *)r->entry;
    r->c.entry_len = strlen(r->entry);
    r->c.obj_creates = r->objs;
    r->c.name_creates = r->names;
    r->c.obj_deletes = r->odel;
    r->c.name_deletes = r->ndel;
}

static void raw_obj(raw_t *r, const char *key)
{
    r->objs[r->c.n_obj_creates++] = (cat_kv_t){key, (const uint8_t *)key, strlen(key)};
}

static void raw_name(raw_t *r, const char *key, const char *obj)
{
    r->names[r->c.n_name_creates++] = (cat_kv_t){key, (const uint8_t *)obj, strlen(obj)};
}

static cat_store_status_t raw_commit(cat_store_t *st, raw_t *r, tc_res_t *res)
{
    cm_err_t err = {0};
    memset(res, 0, sizeof(*res));
    int rc = cat_store_commit(st, &r->c, tc_commit_cb, res, &err);
    UNIT_CHECK(rc == 0);
    wait_calls(st, &res->calls);
    UNIT_CHECK(cat_store_zk_run(st, 10000, NULL, NULL) == 0);
    UNIT_CHECK(res->calls == 1);   /* exactly once */
    return res->st;
}

static cat_head_t read_head(cat_store_t *st)
{
    tc_res_t h = {0};
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_head(st, tc_head_cb, &h, &err) == 0);
    wait_calls(st, &h.calls);
    UNIT_CHECK(h.st == CAT_STORE_OK);
    if (h.st != CAT_STORE_OK)
        printf("  head: %s\n", h.errmsg);
    return h.head;
}

typedef struct snapres {
    int calls;
    cat_store_status_t st;
    size_t n;
    uint64_t head;
    char keys[64][32];
} snapres_t;

static void snap_cb(void *arg, cat_store_status_t s, const cat_head_t *h, const cat_kv_t *o, size_t n,
                    const cm_err_t *e)
{
    snapres_t *r = arg;
    r->calls++;
    r->st = s;
    r->n = n;
    r->head = h->index;
    for (size_t i = 0; i < n && i < 64; i++) {
        snprintf(r->keys[i], sizeof(r->keys[i]), "%s", o[i].key);
        /* raw_obj stores the key as the value */
        UNIT_CHECK(o[i].len == strlen(o[i].key) && memcmp(o[i].data, o[i].key, o[i].len) == 0);
    }
}

static bool snap_has(const snapres_t *r, const char *key)
{
    for (size_t i = 0; i < r->n && i < 64; i++)
        if (strcmp(r->keys[i], key) == 0)
            return true;
    return false;
}

static void take_snapshot(cat_store_t *st, snapres_t *sr)
{
    memset(sr, 0, sizeof(*sr));
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_snapshot(st, snap_cb, sr, &err) == 0);
    wait_calls(st, &sr->calls);
    UNIT_CHECK(sr->st == CAT_STORE_OK);
}

static void test_zk_head_cas_and_gap_free(void)
{
    cat_store_t *st = open_fresh("cas", NULL);
    cat_head_t h0 = read_head(st);
    UNIT_CHECK(h0.index == 0 && h0.version == 0);
    tc_res_t r;
    raw_t c;
    for (uint64_t i = 0; i < 5; i++) {
        raw_init(&c, i, (uint8_t)(i + 1));
        UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK);
        UNIT_CHECK(r.index == i + 1);
    }
    raw_init(&c, 3, 99);
    raw_obj(&c, "i4");
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_CONFLICT);
    cat_head_t h = read_head(st);
    UNIT_CHECK(h.index == 5 && h.version == 5);
    raw_init(&c, 5, 99);
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK && r.index == 6);
    tc_res_t lg = {0};
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_log_read(st, 1, 0, tc_log_cb, &lg, &err) == 0);
    wait_calls(st, &lg.calls);
    UNIT_CHECK(lg.st == CAT_STORE_OK && lg.n == 6);
    for (size_t i = 0; i < lg.n; i++) {
        char want[32];
        snprintf(want, sizeof(want), "e%zu", i + 1);
        UNIT_CHECK(lg.idx[i] == i + 1);
        UNIT_CHECK(lg.len[i] == strlen(want) && memcmp(lg.data[i], want, lg.len[i]) == 0);
    }
    tc_res_clear(&lg);
    UNIT_CHECK(cat_store_log_read(st, 2, 3, tc_log_cb, &lg, &err) == 0);
    wait_calls(st, &lg.calls);
    UNIT_CHECK(lg.n == 3 && lg.idx[0] == 2 && lg.idx[2] == 4);
    tc_res_clear(&lg);
    UNIT_CHECK(cat_store_log_read(st, 7, 0, tc_log_cb, &lg, &err) == 0);
    wait_calls(st, &lg.calls);
    UNIT_CHECK(lg.st == CAT_STORE_OK && lg.n == 0 && lg.calls == 1);
    tc_res_clear(&lg);
    UNIT_CHECK(cat_store_log_read(st, 0, 0, tc_log_cb, &lg, &err) == -1 && err.set);
    cm_err_clear(&err);
    cat_store_zk_run(st, 200, NULL, NULL);
    UNIT_CHECK(lg.calls == 0);   /* an error return never calls back */
    cat_store_close(st);
}

static void test_zk_commit_is_all_or_nothing(void)
{
    cat_store_t *st = open_fresh("atomic", NULL);
    tc_res_t r;
    raw_t c;
    raw_init(&c, 0, 1);
    raw_obj(&c, "i1");
    raw_name(&c, "r.eddy.public.t", "i1");
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK);
    raw_init(&c, 1, 2);
    raw_obj(&c, "i2");
    raw_name(&c, "r.eddy.public.u", "i2");
    raw_name(&c, "r.eddy.public.t", "i2");
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_NAME_EXISTS);
    UNIT_CHECK_STR(r.name_key, "r.eddy.public.t");
    snapres_t sr;
    take_snapshot(st, &sr);
    UNIT_CHECK(sr.head == 1 && sr.n == 1 && snap_has(&sr, "i1"));
    tc_res_t q = {0};
    cm_err_t err = {0};
    uint8_t uuid2[16] = {2, 0x77};
    UNIT_CHECK(cat_store_request_lookup(st, uuid2, tc_request_cb, &q, &err) == 0);
    wait_calls(st, &q.calls);
    UNIT_CHECK(q.st == CAT_STORE_NOT_FOUND);
    raw_init(&c, 1, 2);
    raw_obj(&c, "i2");
    raw_name(&c, "r.eddy.public.u", "i2");
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK && r.index == 2);
    raw_init(&c, 2, 3);
    c.odel[c.c.n_obj_deletes++] = "i1";
    c.ndel[c.c.n_name_deletes++] = "r.eddy.public.t";
    raw_obj(&c, "i3");
    raw_name(&c, "r.eddy.public.t", "i3");
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK && r.index == 3);
    raw_init(&c, 3, 4);
    c.odel[c.c.n_obj_deletes++] = "i1";
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_ERROR);
    UNIT_CHECK(strstr(r.errmsg, "i1") != NULL);
    take_snapshot(st, &sr);
    UNIT_CHECK(sr.head == 3 && sr.n == 2 && snap_has(&sr, "i2") && snap_has(&sr, "i3") && !snap_has(&sr, "i1"));
    cat_store_close(st);
}

static void test_zk_request_marker_is_idempotent(void)
{
    cat_store_t *st = open_fresh("marker", NULL);
    tc_res_t r;
    raw_t c;
    raw_init(&c, 0, 7);
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK);
    raw_init(&c, 1, 8);
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK);
    raw_init(&c, 0, 7);
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_DUPLICATE && r.index == 1);
    raw_init(&c, 2, 7);
    UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_DUPLICATE && r.index == 1);
    tc_res_t q = {0};
    cm_err_t err = {0};
    uint8_t uuid[16] = {7, 0x77};
    UNIT_CHECK(cat_store_request_lookup(st, uuid, tc_request_cb, &q, &err) == 0);
    wait_calls(st, &q.calls);
    UNIT_CHECK(q.st == CAT_STORE_OK && q.index == 1);
    UNIT_CHECK(read_head(st).index == 2);
    cat_store_close(st);
}

static void on_notify(void *arg)
{
    (*(int *)arg)++;
}

static void test_zk_notification_is_a_hint(void)
{
    cat_store_t *a = open_fresh("notify", NULL);
    cat_store_t *b = open_fresh("notify", NULL);
    int na = 0, nb = 0;
    cat_store_set_notify(a, on_notify, &na);
    cat_store_set_notify(b, on_notify, &nb);
    /* Both sessions have their layout and watch in place before commits start. */
    read_head(a);
    read_head(b);
    tc_res_t r;
    raw_t c;
    for (uint64_t i = 0; i < 3; i++) {
        raw_init(&c, i, (uint8_t)(10 + i));
        UNIT_CHECK(raw_commit(a, &c, &r) == CAT_STORE_OK);
    }
    UNIT_CHECK(na >= 1);
    /* b, not driven meanwhile, hears at least once and at most once per commit. */
    UNIT_CHECK(cat_store_zk_run(b, 10000, calls_done, &nb) == 0);
    cat_store_zk_run(b, 300, NULL, NULL);
    UNIT_CHECK(nb >= 1 && nb <= 3);
    printf("  3 commits: %d notices on the committing session, %d on the other\n", na, nb);
    int before = nb;
    raw_init(&c, 0, 50);
    UNIT_CHECK(raw_commit(b, &c, &r) == CAT_STORE_CONFLICT);
    cat_store_zk_run(a, 300, NULL, NULL);
    cat_store_zk_run(b, 300, NULL, NULL);
    UNIT_CHECK(nb == before);
    cat_store_close(a);
    cat_store_close(b);
}

static void test_zk_log_trim(void)
{
    cat_store_t *st = open_fresh("trim", NULL);
    tc_res_t r;
    raw_t c;
    for (uint64_t i = 0; i < 10; i++) {
        raw_init(&c, i, (uint8_t)(i + 1));
        raw_commit(st, &c, &r);
    }
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_log_trim(st, 8, &err) == 0);
    UNIT_CHECK(cat_store_zk_run(st, 10000, NULL, NULL) == 0);
    tc_res_t lg = {0};
    cat_store_log_read(st, 5, 0, tc_log_cb, &lg, &err);
    wait_calls(st, &lg.calls);
    UNIT_CHECK(lg.st == CAT_STORE_TRIMMED && lg.n == 0);
    tc_res_clear(&lg);
    cat_store_log_read(st, 8, 0, tc_log_cb, &lg, &err);
    wait_calls(st, &lg.calls);
    UNIT_CHECK(lg.st == CAT_STORE_OK && lg.n == 3 && lg.idx[0] == 8);
    tc_res_clear(&lg);
    cat_store_log_trim(st, 100, &err);
    UNIT_CHECK(cat_store_zk_run(st, 10000, NULL, NULL) == 0);
    cat_store_log_read(st, 10, 0, tc_log_cb, &lg, &err);
    wait_calls(st, &lg.calls);
    UNIT_CHECK(lg.st == CAT_STORE_OK && lg.n == 1 && lg.idx[0] == 10);
    tc_res_clear(&lg);
    cat_store_close(st);
}

static void test_zk_size_limits(void)
{
    cat_limits_t lim;
    cat_limits_default(&lim);
    lim.entry_max_bytes = 100;
    cat_store_t *st = open_fresh("limits", &lim);
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
    cm_err_clear(&err);
    cat_store_zk_run(st, 200, NULL, NULL);
    UNIT_CHECK(r.calls == 0);
    UNIT_CHECK(read_head(st).index == 0);
    cat_store_close(st);
}

static void test_zk_close_completes_pending_calls(void)
{
    cat_store_t *st = open_fresh("close", NULL);
    read_head(st);
    raw_t c;
    raw_init(&c, 0, 1);
    tc_res_t r = {0}, h = {0}, lg = {0};
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_commit(st, &c.c, tc_commit_cb, &r, &err) == 0);
    UNIT_CHECK(cat_store_head(st, tc_head_cb, &h, &err) == 0);
    UNIT_CHECK(cat_store_log_read(st, 1, 0, tc_log_cb, &lg, &err) == 0);
    cat_store_close(st);
    /* Each hears exactly once; a commit cut off by closing is ambiguous (OK or ERROR). */
    UNIT_CHECK(r.calls == 1 && (r.st == CAT_STORE_OK || r.st == CAT_STORE_ERROR));
    UNIT_CHECK(h.calls == 1);
    UNIT_CHECK(lg.calls == 1);
    tc_res_clear(&lg);
}

/* Two sessions race for the head from one thread: every index is taken
 * exactly once and the loser of each race sees CONFLICT. */
static void test_zk_two_sessions_commit_gap_free(void)
{
    cat_store_t *s[2] = {open_fresh("race", NULL), open_fresh("race", NULL)};
    enum { PER = 30 };
    int commits[2] = {0, 0}, conflicts = 0;
    int seen[2 * PER + 1] = {0};
    int serial = 0;
    while (commits[0] < PER || commits[1] < PER) {
        cat_head_t h[2];
        for (int k = 0; k < 2; k++)
            h[k] = read_head(s[k]);
        raw_t c[2];
        tc_res_t r[2] = {{0}};
        cm_err_t err = {0};
        for (int k = 0; k < 2; k++) {
            if (commits[k] >= PER)
                continue;
            raw_init(&c[k], h[k].index, (uint8_t)(k + 1));
            c[k].c.expect = h[k];
            c[k].c.request_uuid[2] = (uint8_t)(++serial >> 8);
            c[k].c.request_uuid[3] = (uint8_t)serial;
            UNIT_CHECK(cat_store_commit(s[k], &c[k].c, tc_commit_cb, &r[k], &err) == 0);
        }
        for (int k = 0; k < 2; k++) {
            if (commits[k] >= PER)
                continue;
            UNIT_CHECK(cat_store_zk_run(s[k], 10000, calls_done, &r[k].calls) == 0);
            if (r[k].st == CAT_STORE_OK) {
                if (r[k].index >= 1 && r[k].index <= 2 * PER)
                    seen[r[k].index]++;
                commits[k]++;
            } else {
                UNIT_CHECK(r[k].st == CAT_STORE_CONFLICT);
                conflicts++;
            }
        }
    }
    for (int ix = 1; ix <= 2 * PER; ix++)
        UNIT_CHECK(seen[ix] == 1);
    snapres_t sr;
    take_snapshot(s[0], &sr);
    UNIT_CHECK(sr.head == 2 * PER);
    printf("  2 sessions x %d commits: %d conflicts retried\n", PER, conflicts);
    cat_store_close(s[0]);
    cat_store_close(s[1]);
}

static void test_zk_bad_address(void)
{
    cm_err_t err = {0};
    cat_zk_options_t o;
    cat_zk_options_default(&o);
    o.hosts = "/nohost";
    UNIT_CHECK(cat_store_zk_open(&o, NULL, &err) == NULL && err.set);
    cm_err_clear(&err);
    o.hosts = "127.0.0.1:1/a/";
    UNIT_CHECK(cat_store_zk_open(&o, NULL, &err) == NULL && err.set);
    cm_err_clear(&err);
}

int main(void)
{
    zk_addr = getenv("EDDY_ZK");
    if (!zk_addr || !*zk_addr)
        return 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    UNIT_RUN(test_zk_head_cas_and_gap_free);
    UNIT_RUN(test_zk_commit_is_all_or_nothing);
    UNIT_RUN(test_zk_request_marker_is_idempotent);
    UNIT_RUN(test_zk_notification_is_a_hint);
    UNIT_RUN(test_zk_log_trim);
    UNIT_RUN(test_zk_size_limits);
    UNIT_RUN(test_zk_close_completes_pending_calls);
    UNIT_RUN(test_zk_two_sessions_commit_gap_free);
    UNIT_RUN(test_zk_bad_address);
    UNIT_EXIT();
}
