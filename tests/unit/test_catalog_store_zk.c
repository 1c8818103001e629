/*
 * test_catalog_store_zk.c: the store contract of test_catalog_store.c, on
 * store_zk against a real ZooKeeper: head compare-and-swap, gap-free
 * indexes, all-or-nothing commits, request markers, notifications as hints,
 * completions never inside the call and exactly once, log reads and
 * trimming, snapshots, the size limits, and two sessions committing at once.
 * Then the failures (test_zk_tools.h): trimming retention and fencing,
 * commits whose request or answer is lost on the wire (a proxy), ZooKeeper
 * unreachable (call timeouts), forced session expiry, and a catalog whose
 * identity (/meta) changes under a running handle.
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
#include "tests/unit/test_zk_tools.h"

static const char *zk_addr;

static bool is_ready(void *arg)
{
    return cat_store_zk_ready(arg);
}

/* Opens a handle on `addr` (ZooKeeper or a proxy in front of it) at this
 * run's chroot `chroot`, with the test's options (NULL: short timeouts, no
 * trim retention), and waits until it is ready. */
static cat_store_t *open_at(const char *addr, const char *chroot, const cat_limits_t *lim, const cat_zk_options_t *opt)
{
    char hosts[512];
    snprintf(hosts, sizeof(hosts), "%s/eddy-test-%d/%s", addr, (int)getpid(), chroot);
    cm_err_t err = {0};
    cat_zk_options_t o;
    if (opt) {
        o = *opt;
    } else {
        cat_zk_options_default(&o);
        o.session_timeout_ms = 4000;
        o.log_keep = 1;
        o.log_keep_ms = 0;
    }
    o.hosts = hosts;
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

static cat_store_t *open_fresh(const char *chroot, const cat_limits_t *lim)
{
    return open_at(zk_addr, chroot, lim, NULL);
}

/* The chroot's path on the server, for raw reads and writes behind the store. */
static void raw_path(char *out, size_t n, const char *chroot, const char *node)
{
    snprintf(out, n, "/eddy-test-%d/%s%s", (int)getpid(), chroot, node);
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

/* The default limits (DESIGN §4) against a real server: 512 KiB per entry
 * and object, under 900 KiB per transaction, refused with 54000 before
 * anything is sent; what passes the check does fit ZooKeeper's request size. */
static void test_zk_default_size_limits(void)
{
    cat_store_t *st = open_fresh("limits2", NULL);
    enum { KIB = 1024 };
    uint8_t *big = malloc(1000 * KIB);
    memset(big, 'y', 1000 * KIB);
    struct {
        size_t entry, obj;
        const char *want;   /* NULL: commits */
    } cases[] = {
        {512 * KIB + 1, 0, "catalog entry is too large"},
        {1000, 512 * KIB + 1, "catalog object is too large"},
        {400 * KIB, 500 * KIB, "catalog change is too large"},
        {512 * KIB, 0, NULL},
        {400 * KIB, 450 * KIB, NULL},
    };
    uint64_t head = 0;
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        raw_t c;
        raw_init(&c, head, (uint8_t)(i + 1));
        c.c.entry = big;
        c.c.entry_len = cases[i].entry;
        if (cases[i].obj) {
            c.objs[0] = (cat_kv_t){"i9", big, cases[i].obj};
            c.c.n_obj_creates = 1;
        }
        tc_res_t r = {0};
        cm_err_t err = {0};
        int rc = cat_store_commit(st, &c.c, tc_commit_cb, &r, &err);
        if (cases[i].want) {
            UNIT_CHECK(rc == -1);
            UNIT_CHECK_STR(err.sqlstate, "54000");
            UNIT_CHECK_STR(err.message, cases[i].want);
            cm_err_clear(&err);
            cat_store_zk_run(st, 100, NULL, NULL);
            UNIT_CHECK(r.calls == 0);
        } else {
            UNIT_CHECK(rc == 0);
            wait_calls(st, &r.calls);
            UNIT_CHECK(r.st == CAT_STORE_OK && r.index == head + 1);
            if (r.st != CAT_STORE_OK)
                printf("  case %zu: %s %s\n", i, cat_store_status_name(r.st), r.errmsg);
            head++;
            /* A later case creates the same object key again: drop it in between. */
            if (cases[i].obj) {
                raw_init(&c, head, 0x40);
                c.odel[c.c.n_obj_deletes++] = "i9";
                UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK);
                head++;
            }
        }
    }
    tc_res_t lg = {0};
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_log_read(st, 1, 0, tc_log_cb, &lg, &err) == 0);
    wait_calls(st, &lg.calls);
    UNIT_CHECK(lg.st == CAT_STORE_OK && lg.n == head && lg.len[0] == 512 * KIB);
    tc_res_clear(&lg);
    free(big);
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

/* ---------------------------------------------------------------- trimming */

static void lookup(cat_store_t *st, uint8_t b0, tc_res_t *q);

static void commit_n(cat_store_t *st, uint64_t from_head, int n, uint8_t uuid_base)
{
    tc_res_t r;
    raw_t c;
    for (int i = 0; i < n; i++) {
        raw_init(&c, from_head + (uint64_t)i, (uint8_t)(uuid_base + i));
        UNIT_CHECK(raw_commit(st, &c, &r) == CAT_STORE_OK);
    }
}

static cat_store_status_t log_status(cat_store_t *st, uint64_t from, size_t *n)
{
    tc_res_t lg = {0};
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_log_read(st, from, 0, tc_log_cb, &lg, &err) == 0);
    wait_calls(st, &lg.calls);
    cat_store_status_t out = lg.st;
    *n = lg.n;
    tc_res_clear(&lg);
    return out;
}

static void test_zk_trim_retention(void)
{
    cat_zk_options_t o;
    cat_zk_options_default(&o);
    o.session_timeout_ms = 4000;
    o.log_keep = 3;
    o.log_keep_ms = 0;
    cat_store_t *st = open_at(zk_addr, "keep", NULL, &o);
    commit_n(st, 0, 10, 1);
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_log_trim(st, 100, &err) == 0);
    UNIT_CHECK(cat_store_zk_run(st, 10000, NULL, NULL) == 0);
    UNIT_CHECK(cat_store_zk_trimmed(st) == 7);
    size_t n;
    UNIT_CHECK(log_status(st, 7, &n) == CAT_STORE_TRIMMED);
    UNIT_CHECK(log_status(st, 8, &n) == CAT_STORE_OK && n == 3);
    cat_store_close(st);
    /* Entries younger than the window stay, whatever `below` says. */
    o.log_keep = 1;
    o.log_keep_ms = 600000;
    st = open_at(zk_addr, "keep", NULL, &o);
    UNIT_CHECK(cat_store_log_trim(st, 100, &err) == 0);
    UNIT_CHECK(cat_store_zk_run(st, 10000, NULL, NULL) == 0);
    UNIT_CHECK(cat_store_zk_trim_state(st) == CAT_ZK_TRIM_OWNER);
    UNIT_CHECK(cat_store_zk_trimmed(st) == 0);
    UNIT_CHECK(log_status(st, 8, &n) == CAT_STORE_OK && n == 3);
    cat_store_close(st);
}

/* Trimming also removes request markers past their window, and only those. */
static void test_zk_trim_removes_old_markers(void)
{
    cat_zk_options_t o;
    cat_zk_options_default(&o);
    o.session_timeout_ms = 4000;
    o.log_keep = 1;
    o.log_keep_ms = 0;
    o.request_keep_ms = 600000;
    cat_store_t *st = open_at(zk_addr, "markers", NULL, &o);
    commit_n(st, 0, 4, 0x11);
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_log_trim(st, 3, &err) == 0);
    UNIT_CHECK(cat_store_zk_run(st, 10000, NULL, NULL) == 0);
    UNIT_CHECK(cat_store_zk_trimmed(st) == 2);
    tc_res_t q;
    for (uint8_t b = 0x11; b < 0x15; b++) {
        lookup(st, b, &q);
        UNIT_CHECK(q.st == CAT_STORE_OK && q.index == (uint64_t)(b - 0x10));
    }
    cat_store_close(st);
    o.request_keep_ms = 1;
    st = open_at(zk_addr, "markers", NULL, &o);
    usleep(20000);
    UNIT_CHECK(cat_store_log_trim(st, 3, &err) == 0);
    UNIT_CHECK(cat_store_zk_run(st, 10000, NULL, NULL) == 0);
    for (uint8_t b = 0x11; b < 0x15; b++) {
        lookup(st, b, &q);
        UNIT_CHECK(q.st == CAT_STORE_NOT_FOUND);
    }
    /* The log itself is untouched by marker removal: 3 and 4 are still there. */
    size_t n;
    UNIT_CHECK(log_status(st, 3, &n) == CAT_STORE_OK && n == 2);
    cat_store_close(st);
}

static bool trim_owner(void *arg)
{
    return cat_store_zk_trim_state(arg) == CAT_ZK_TRIM_OWNER;
}

/* Two processes that both believe they own trimming: the later claim wins,
 * and the earlier one's trim changes nothing and leaves it fenced. */
static void test_zk_trim_is_fenced(void)
{
    cat_store_t *a = open_fresh("fence", NULL);
    cat_store_t *b = open_fresh("fence", NULL);
    commit_n(a, 0, 10, 1);
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_zk_trim_claim(a, &err) == 0);
    UNIT_CHECK(cat_store_zk_run(a, 10000, trim_owner, a) == 0);
    UNIT_CHECK(cat_store_zk_trim_claim(b, &err) == 0);
    UNIT_CHECK(cat_store_zk_run(b, 10000, trim_owner, b) == 0);
    /* a still thinks it owns trimming: the epoch check stops its transaction. */
    UNIT_CHECK(cat_store_zk_trim_state(a) == CAT_ZK_TRIM_OWNER);
    UNIT_CHECK(cat_store_log_trim(a, 6, &err) == 0);
    UNIT_CHECK(cat_store_zk_run(a, 10000, NULL, NULL) == 0);
    UNIT_CHECK(cat_store_zk_trim_state(a) == CAT_ZK_TRIM_FENCED);
    UNIT_CHECK(cat_store_zk_trimmed(a) == 0);
    size_t n;
    UNIT_CHECK(log_status(b, 1, &n) == CAT_STORE_OK && n == 10);
    UNIT_CHECK(cat_store_log_trim(a, 6, &err) == -1);
    UNIT_CHECK(err.message && strstr(err.message, "another process") != NULL);
    cm_err_clear(&err);
    UNIT_CHECK(cat_store_log_trim(b, 6, &err) == 0);
    UNIT_CHECK(cat_store_zk_run(b, 10000, NULL, NULL) == 0);
    UNIT_CHECK(cat_store_zk_trimmed(b) == 5);
    UNIT_CHECK(log_status(a, 5, &n) == CAT_STORE_TRIMMED);
    UNIT_CHECK(log_status(a, 6, &n) == CAT_STORE_OK && n == 5);
    /* A new claim (a new epoch) takes it back and fences b in turn. */
    UNIT_CHECK(cat_store_zk_trim_claim(a, &err) == 0);
    UNIT_CHECK(cat_store_zk_run(a, 10000, trim_owner, a) == 0);
    UNIT_CHECK(cat_store_log_trim(b, 8, &err) == 0);
    UNIT_CHECK(cat_store_zk_run(b, 10000, NULL, NULL) == 0);
    UNIT_CHECK(cat_store_zk_trim_state(b) == CAT_ZK_TRIM_FENCED);
    UNIT_CHECK(log_status(a, 6, &n) == CAT_STORE_OK && n == 5);
    cat_store_close(a);
    cat_store_close(b);
}

/* ---------------------------------------------------------------- ambiguous commits */

static void lookup(cat_store_t *st, uint8_t b0, tc_res_t *q)
{
    memset(q, 0, sizeof(*q));
    uint8_t uuid[16] = {b0, 0x77};
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_request_lookup(st, uuid, tc_request_cb, q, &err) == 0);
    wait_calls(st, &q->calls);
}

/* The process that sent a commit went away before hearing the answer; the
 * next one finds out through the marker, and a repeat is refused. */
static void test_zk_request_resolved_after_reopen(void)
{
    cat_store_t *a = open_fresh("reopen", NULL);
    raw_t c;
    raw_init(&c, 0, 0x31);
    tc_res_t r = {0};
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_commit(a, &c.c, tc_commit_cb, &r, &err) == 0);
    /* Let the transaction leave, then go away without reading the answer. */
    cat_store_zk_run(a, 20, NULL, NULL);
    cat_store_close(a);
    UNIT_CHECK(r.calls == 1);
    cat_store_t *b = open_fresh("reopen", NULL);
    tc_res_t q;
    lookup(b, 0x31, &q);
    UNIT_CHECK(q.st == CAT_STORE_OK && q.index == 1);
    lookup(b, 0x32, &q);
    UNIT_CHECK(q.st == CAT_STORE_NOT_FOUND);
    raw_init(&c, 1, 0x31);
    UNIT_CHECK(raw_commit(b, &c, &r) == CAT_STORE_DUPLICATE && r.index == 1);
    UNIT_CHECK(read_head(b).index == 1);
    cat_store_close(b);
}

/* Reads the head through a second, direct handle: what ZooKeeper really has. */
static uint64_t true_head(const char *chroot)
{
    cat_store_t *d = open_fresh(chroot, NULL);
    uint64_t h = read_head(d).index;
    cat_store_close(d);
    return h;
}

/*
 * A commit whose transaction or answer is lost on the wire: the proxy
 * swallows one direction, then cuts the connection. The store reconnects
 * (same session), looks up the marker and reports the commit exactly once:
 * OK at index 1 whether the server had applied it (answer lost) or not
 * (request lost, so it is sent again).
 */
static void lost_on_the_wire(zt_mode_t mode, const char *chroot, uint64_t head_meanwhile)
{
    int zk_port = atoi(strrchr(zk_addr, ':') + 1);
    zt_proxy_t px;
    UNIT_CHECK(zt_proxy_start(&px, zk_port));
    char paddr[64];
    snprintf(paddr, sizeof(paddr), "127.0.0.1:%d", px.port);
    cat_store_t *a = open_at(paddr, chroot, NULL, NULL);
    UNIT_CHECK(read_head(a).index == 0);
    atomic_store(&px.mode, mode);
    raw_t c;
    raw_init(&c, 0, 0x51);
    tc_res_t r = {0};
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_commit(a, &c.c, tc_commit_cb, &r, &err) == 0);
    cat_store_zk_run(a, 400, calls_done, &r.calls);
    UNIT_CHECK(r.calls == 0);   /* no answer came through */
    /* The server applies what reached it on its own time: wait for it, boundedly. */
    uint64_t seen = true_head(chroot);
    for (int i = 0; i < 20 && seen != head_meanwhile; i++) {
        cat_store_zk_run(a, 100, NULL, NULL);
        seen = true_head(chroot);
    }
    UNIT_CHECK(seen == head_meanwhile);
    atomic_store(&px.mode, ZT_PASS);
    zt_proxy_cut(&px);
    UNIT_CHECK(cat_store_zk_run(a, 10000, calls_done, &r.calls) == 0);
    cat_store_zk_run(a, 300, NULL, NULL);
    UNIT_CHECK(r.calls == 1 && r.st == CAT_STORE_OK && r.index == 1);
    if (r.st != CAT_STORE_OK)
        printf("  %s: %s\n", cat_store_status_name(r.st), r.errmsg);
    UNIT_CHECK(cat_store_zk_sessions(a) == 1);
    UNIT_CHECK(atomic_load(&px.accepted) >= 2);
    size_t n;
    UNIT_CHECK(log_status(a, 1, &n) == CAT_STORE_OK && n == 1);
    UNIT_CHECK(true_head(chroot) == 1);
    cat_store_close(a);
    zt_proxy_stop(&px);
}

static void test_zk_lost_answer_is_resolved(void)
{
    lost_on_the_wire(ZT_SWALLOW_DOWN, "lostanswer", 1);
}

static void test_zk_lost_request_is_resent(void)
{
    lost_on_the_wire(ZT_SWALLOW_UP, "lostrequest", 0);
}

/* ZooKeeper unreachable: a call ends with 58000 at op_timeout_ms instead of
 * hanging, and the handle recovers when the way is open again. */
static void test_zk_unreachable_times_out(void)
{
    int zk_port = atoi(strrchr(zk_addr, ':') + 1);
    zt_proxy_t px;
    UNIT_CHECK(zt_proxy_start(&px, zk_port));
    char paddr[64];
    snprintf(paddr, sizeof(paddr), "127.0.0.1:%d", px.port);
    cat_zk_options_t o;
    cat_zk_options_default(&o);
    o.session_timeout_ms = 4000;
    o.op_timeout_ms = 1500;
    cat_store_t *a = open_at(paddr, "unreachable", NULL, &o);
    atomic_store(&px.mode, ZT_BLACKHOLE);
    zt_proxy_cut(&px);
    raw_t c;
    raw_init(&c, 0, 0x61);
    tc_res_t r = {0};
    cm_err_t err = {0};
    int64_t t0 = zt_now_ms();
    UNIT_CHECK(cat_store_commit(a, &c.c, tc_commit_cb, &r, &err) == 0);
    UNIT_CHECK(cat_store_zk_run(a, 10000, calls_done, &r.calls) == 0);
    int64_t took = zt_now_ms() - t0;
    UNIT_CHECK(r.calls == 1 && r.st == CAT_STORE_ERROR);
    UNIT_CHECK(strstr(r.errmsg, "did not answer within 1500 ms") != NULL);
    UNIT_CHECK(took >= 1400 && took < 4000);
    printf("  commit failed after %lld ms: %s\n", (long long)took, r.errmsg);
    /* A call made while cut off waits (parked) and is answered once the way is open. */
    tc_res_t h = {0};
    UNIT_CHECK(cat_store_head(a, tc_head_cb, &h, &err) == 0);
    cat_store_zk_run(a, 300, calls_done, &h.calls);
    UNIT_CHECK(h.calls == 0);
    atomic_store(&px.mode, ZT_PASS);
    zt_proxy_cut(&px);
    UNIT_CHECK(cat_store_zk_run(a, 10000, calls_done, &h.calls) == 0);
    UNIT_CHECK(h.st == CAT_STORE_OK && h.head.index <= 1);
    UNIT_CHECK(cat_store_zk_run(a, 10000, is_ready, a) == 0);
    raw_init(&c, 0, 0x61);
    tc_res_t r2;
    cat_store_status_t st = raw_commit(a, &c, &r2);
    UNIT_CHECK(st == CAT_STORE_OK && r2.index == 1);
    UNIT_CHECK(read_head(a).index == 1);
    cat_store_close(a);
    zt_proxy_stop(&px);
}

/* ---------------------------------------------------------------- session expiry */

static bool sessions_two_ready(void *arg)
{
    return cat_store_zk_sessions(arg) >= 2 && cat_store_zk_ready(arg);
}

static void test_zk_session_expiry_is_transparent(void)
{
    cat_store_t *a = open_fresh("expiry", NULL);
    cat_store_t *b = open_fresh("expiry", NULL);
    commit_n(a, 0, 1, 0x71);
    char uuid[33];
    snprintf(uuid, sizeof(uuid), "%s", cat_store_zk_catalog_uuid(a));
    char pw[16];
    int64_t id = cat_store_zk_session_id(a, pw);
    UNIT_CHECK(zt_expire(zk_addr, id, pw));
    /* A commit sent into the dead session. */
    raw_t c;
    raw_init(&c, 1, 0x72);
    tc_res_t r = {0};
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_commit(a, &c.c, tc_commit_cb, &r, &err) == 0);
    UNIT_CHECK(cat_store_zk_run(a, 15000, calls_done, &r.calls) == 0);
    UNIT_CHECK(r.st == CAT_STORE_OK && r.index == 2);
    if (r.st != CAT_STORE_OK)
        printf("  %s: %s\n", cat_store_status_name(r.st), r.errmsg);
    UNIT_CHECK(cat_store_zk_run(a, 10000, sessions_two_ready, a) == 0);
    UNIT_CHECK(cat_store_zk_sessions(a) == 2);
    UNIT_CHECK_STR(cat_store_zk_catalog_uuid(a), uuid);
    /* The new session watches the head again. */
    int na = 0;
    cat_store_set_notify(a, on_notify, &na);
    commit_n(b, 2, 1, 0x73);
    UNIT_CHECK(cat_store_zk_run(a, 10000, calls_done, &na) == 0);
    size_t n;
    UNIT_CHECK(log_status(a, 1, &n) == CAT_STORE_OK && n == 3);
    UNIT_CHECK(!cat_store_zk_failed(a, NULL));
    cat_store_close(a);
    cat_store_close(b);
}

/* ---------------------------------------------------------------- cluster ownership */

typedef struct own {
    uint64_t granted, lost;   /* the epoch of the last event of each kind */
    int ngranted, nlost;
} own_t;

static void own_granted(void *arg, uint64_t epoch)
{
    own_t *o = arg;
    o->granted = epoch;
    o->ngranted++;
}

static void own_lost(void *arg, uint64_t epoch)
{
    own_t *o = arg;
    o->lost = epoch;
    o->nlost++;
}

static bool is_owner(void *arg)
{
    return cat_store_zk_cluster_role(arg, NULL) == CAT_ZK_ROLE_OWNER;
}

static bool is_standby(void *arg)
{
    return cat_store_zk_cluster_role(arg, NULL) == CAT_ZK_ROLE_STANDBY;
}

typedef struct pub_wait {
    cat_store_t *st;
    uint64_t v;
} pub_wait_t;

static bool published(void *arg)
{
    pub_wait_t *w = arg;
    return cat_store_zk_cluster_published(w->st) >= w->v;
}

static void join(cat_store_t *st, const char *name, own_t *o)
{
    cat_zk_cluster_events_t ev = {.granted = own_granted, .lost = own_lost, .arg = o};
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_zk_cluster_join(st, name, "test", &ev, &err) == 0);
}

/* One owner per name with the epoch bumped by each claim; a standby takes
 * over when the owner's session ends; a publish is fenced by the epoch. */
static void test_zk_cluster_ownership(void)
{
    cat_store_t *a = open_fresh("own", NULL);
    cat_store_t *b = open_fresh("own", NULL);
    cat_store_t *c = open_fresh("own", NULL);
    own_t oa = {0}, ob = {0}, oc = {0};
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_zk_cluster_join(a, "bad/name", "x", NULL, &err) == -1);
    cm_err_clear(&err);
    join(a, "x", &oa);
    UNIT_CHECK(cat_store_zk_run(a, 10000, is_owner, a) == 0);
    UNIT_CHECK(oa.ngranted == 1 && oa.granted == 1);
    join(b, "x", &ob);
    UNIT_CHECK(cat_store_zk_run(b, 10000, is_standby, b) == 0);
    join(c, "y", &oc);   /* another name: independent */
    UNIT_CHECK(cat_store_zk_run(c, 10000, is_owner, c) == 0);
    UNIT_CHECK(oc.granted == 1);
    cat_store_zk_cluster_publish(a, 7);
    pub_wait_t pw = {a, 7};
    UNIT_CHECK(cat_store_zk_run(a, 10000, published, &pw) == 0);
    char p[256];
    raw_path(p, sizeof p, "own", "/clusters/x/applied");
    zhandle_t *zh = zt_connect(zk_addr);
    UNIT_CHECK(zh != NULL);
    zt_res_t r;
    UNIT_CHECK(zt_get(zh, p, &r) == ZOK);
    UNIT_CHECK_STR(r.data, "{\"epoch\":1,\"applied\":7}");
    /* The owner goes away: its ephemeral node goes with its session. */
    cat_store_close(a);
    UNIT_CHECK(cat_store_zk_run(b, 10000, is_owner, b) == 0);
    UNIT_CHECK(ob.ngranted == 1 && ob.granted == 2);
    raw_path(p, sizeof p, "own", "/clusters/x/owner");
    UNIT_CHECK(zt_get(zh, p, &r) == ZOK);
    UNIT_CHECK(strstr(r.data, "\"epoch\":2") != NULL);
    /* Someone moves the epoch behind b's back: b's next publish fails whole and b loses. */
    raw_path(p, sizeof p, "own", "/clusters/x/epoch");
    UNIT_CHECK(zt_set(zh, p, "9") == ZOK);
    cat_store_zk_cluster_publish(b, 11);
    UNIT_CHECK(cat_store_zk_run(b, 10000, is_standby, b) == 0);
    UNIT_CHECK(ob.nlost == 1 && ob.lost == 2);
    raw_path(p, sizeof p, "own", "/clusters/x/applied");
    UNIT_CHECK(zt_get(zh, p, &r) == ZOK);
    UNIT_CHECK_STR(r.data, "{\"epoch\":1,\"applied\":7}");
    /* c's session expires: it hears `lost`, then claims again at a new epoch. */
    char pw16[16];
    int64_t id = cat_store_zk_session_id(c, pw16);
    UNIT_CHECK(zt_expire(zk_addr, id, pw16));
    UNIT_CHECK(cat_store_zk_run(c, 15000, sessions_two_ready, c) == 0);
    UNIT_CHECK(cat_store_zk_run(c, 10000, is_owner, c) == 0);
    UNIT_CHECK(oc.nlost == 1 && oc.lost == 1 && oc.ngranted == 2 && oc.granted == 2);
    zookeeper_close(zh);
    cat_store_close(b);
    cat_store_close(c);
}

/* ---------------------------------------------------------------- catalog identity */

static bool has_failed(void *arg)
{
    return cat_store_zk_failed(arg, NULL);
}

static void expect_refusal(cat_store_t *a, const char *chroot, const char *what)
{
    UNIT_CHECK(cat_store_zk_run(a, 10000, has_failed, a) == 0);
    cm_err_t err = {0};
    UNIT_CHECK(cat_store_zk_failed(a, &err));
    char root[256];
    raw_path(root, sizeof(root), chroot, "");
    UNIT_CHECK(err.message && strstr(err.message, root) && strstr(err.message, what));
    if (err.message && !strstr(err.message, what))
        printf("  got: %s\n", err.message);
    cm_err_clear(&err);
    /* Every later call fails at once, with the same reason. */
    tc_res_t h = {0};
    UNIT_CHECK(cat_store_head(a, tc_head_cb, &h, &err) == -1);
    UNIT_CHECK(err.message && strstr(err.message, root));
    cm_err_clear(&err);
    int fd, ev, to;
    uint64_t gen;
    UNIT_CHECK(cat_store_zk_interest(a, &fd, &ev, &to, &gen) == -1);
    UNIT_CHECK(h.calls == 0);
}

static void test_zk_meta_identity(void)
{
    zhandle_t *zh = zt_connect(zk_addr);
    UNIT_CHECK(zh != NULL);
    char p[256];
    /* Two handles on one chroot serve one catalog. */
    cat_store_t *a = open_fresh("meta", NULL);
    cat_store_t *b = open_fresh("meta", NULL);
    UNIT_CHECK(strlen(cat_store_zk_catalog_uuid(a)) == 32);
    UNIT_CHECK_STR(cat_store_zk_catalog_uuid(a), cat_store_zk_catalog_uuid(b));
    cat_store_close(b);
    /* Another catalog appears at the same place: refuse, do not mix. */
    raw_path(p, sizeof(p), "meta", "/meta");
    UNIT_CHECK(zt_set(zh, p, "{\"catalog_uuid\": \"0123456789abcdef0123456789abcdef\", \"format\": 1}") == ZOK);
    expect_refusal(a, "meta", "names another catalog");
    cat_store_close(a);
    /* The catalog vanishes (a wiped ZooKeeper). */
    a = open_fresh("meta2", NULL);
    commit_n(a, 0, 1, 0x21);
    raw_path(p, sizeof(p), "meta2", "/meta");
    UNIT_CHECK(zt_delete(zh, p) == ZOK);
    expect_refusal(a, "meta2", "/meta is gone");
    cat_store_close(a);
    /* A catalog from a newer eddy. */
    raw_path(p, sizeof(p), "meta3", "");
    UNIT_CHECK(zt_create(zh, p, NULL) == ZOK);
    raw_path(p, sizeof(p), "meta3", "/meta");
    UNIT_CHECK(zt_create(zh, p, "{\"catalog_uuid\": \"00000000000000000000000000000003\", \"format\": 99}") == ZOK);
    char hosts[512];
    snprintf(hosts, sizeof(hosts), "%s/eddy-test-%d/meta3", zk_addr, (int)getpid());
    cat_zk_options_t o;
    cat_zk_options_default(&o);
    o.hosts = hosts;
    o.session_timeout_ms = 4000;
    cm_err_t err = {0};
    a = cat_store_zk_open(&o, NULL, &err);
    UNIT_CHECK(a != NULL);
    UNIT_CHECK(cat_store_zk_run(a, 10000, has_failed, a) == 0);
    UNIT_CHECK(!cat_store_zk_ready(a));
    UNIT_CHECK(cat_store_zk_failed(a, &err) && strstr(err.message, "format 99"));
    cm_err_clear(&err);
    cat_store_close(a);
    zookeeper_close(zh);
}

/* ---------------------------------------------------------------- the catalog on top */

/* A front end's follower: a snapshot kept at the store's head from the log,
 * re-bootstrapped from the objects when the log was trimmed past it. */
typedef struct follower {
    cat_store_t *st;
    cat_snap_t *snap;
    int bootstraps;
    int calls;
    bool ok;
} follower_t;

static void load_cb(void *arg, cat_store_status_t st, const cat_head_t *h, const cat_kv_t *o, size_t n,
                    const cm_err_t *e)
{
    follower_t *f = arg;
    cm_err_t err = {0};
    f->calls++;
    f->ok = st == CAT_STORE_OK && cat_snap_load(f->snap, h->index, o, n, &err);
    if (err.set)
        printf("  load: %s\n", err.message);
    cm_err_clear(&err);
}

static bool follow(follower_t *f)
{
    for (;;) {
        tc_res_t r = {0};
        cm_err_t err = {0};
        if (cat_store_log_read(f->st, cat_snap_index(f->snap) + 1, 0, tc_log_cb, &r, &err) != 0)
            return false;
        wait_calls(f->st, &r.calls);
        if (r.st == CAT_STORE_TRIMMED) {
            f->calls = 0;
            UNIT_CHECK(cat_store_snapshot(f->st, load_cb, f, &err) == 0);
            wait_calls(f->st, &f->calls);
            f->bootstraps++;
            if (!f->ok)
                return false;
            continue;
        }
        bool ok = r.st == CAT_STORE_OK;
        for (size_t i = 0; ok && i < r.n; i++) {
            ok = cat_snap_apply(f->snap, r.data[i], r.len[i], &err);
            if (!ok)
                printf("  apply %llu: %s\n", (unsigned long long)r.idx[i], err.message);
            cm_err_clear(&err);
        }
        size_t n = r.n;
        tc_res_clear(&r);
        if (!ok)
            return false;
        if (n == 0)
            return true;
    }
}

static const char *const search_path[] = {"public"};
static const cat_search_t search = {.database = "eddy", .path = search_path, .npath = 1, .user = "postgres"};

/* Plans CREATE TABLE/DROP TABLE against the follower's snapshot at `head`
 * and builds the store commit (NULL with err when validation refuses). */
static cat_commit_t *plan_ddl(follower_t *f, bool create, const char *name, const cat_head_t *head, uint8_t uuid_b,
                              cm_err_t *err)
{
    static const cat_column_t one[] = {{.name = "a", .type = 23, .typmod = -1}};
    char sql[128];
    snprintf(sql, sizeof(sql), "%s TABLE %s", create ? "CREATE" : "DROP", name);
    cat_qname_t qn = {.name = name};
    cat_change_t *ch = cat_change_new();
    bool ok;
    if (create) {
        cat_item_def_t def = {.kind = CAT_ITEM_TABLE, .name = qn, .create_sql = sql, .columns = one, .ncolumns = 1};
        ok = cat_plan_create_item(f->snap, &search, &def, false, ch, err);
    } else {
        ok = cat_plan_drop_items(f->snap, &search, CAT_ITEM_TABLE, &qn, 1, false, false, ch, err);
    }
    uint8_t uuid[16] = {uuid_b, 0x99};
    cat_commit_t *c = ok ? cat_commit_build(ch, f->snap, head, uuid, create ? "CREATE TABLE" : "DROP TABLE", sql,
                                            &f->st->limits, err)
                         : NULL;
    cat_change_free(ch);
    return c;
}

/* The front end's whole path: catch up, read the head, plan, commit. */
static cat_store_status_t run_ddl(follower_t *f, bool create, const char *name, uint8_t uuid_b, uint64_t *index,
                                  cm_err_t *err)
{
    UNIT_CHECK(follow(f));
    cat_head_t h = read_head(f->st);
    cat_commit_t *c = plan_ddl(f, create, name, &h, uuid_b, err);
    if (!c)
        return CAT_STORE_ERROR;
    tc_res_t r = {0};
    UNIT_CHECK(cat_store_commit(f->st, cat_commit_store(c), tc_commit_cb, &r, err) == 0);
    cat_commit_free(c);
    wait_calls(f->st, &r.calls);
    *index = r.index;
    UNIT_CHECK(follow(f));
    return r.st;
}

static void follower_open(follower_t *f, const char *chroot)
{
    memset(f, 0, sizeof(*f));
    f->st = open_fresh(chroot, NULL);
    f->snap = cat_snap_new();
}

static void follower_close(follower_t *f)
{
    cat_snap_free(f->snap);
    cat_store_close(f->st);
}

static void bootstrap_catalog(follower_t *f)
{
    cat_head_t h0 = {0, 0};
    cm_err_t err = {0};
    cat_commit_t *boot = cat_commit_bootstrap(&h0, &f->st->limits, &err);
    tc_res_t r = {0};
    UNIT_CHECK(cat_store_commit(f->st, cat_commit_store(boot), tc_commit_cb, &r, &err) == 0);
    wait_calls(f->st, &r.calls);
    UNIT_CHECK(r.st == CAT_STORE_OK && r.index == 1);
    cat_commit_free(boot);
    UNIT_CHECK(follow(f));
}

/* Two front ends validate CREATE TABLE t at the same head and commit at
 * once: exactly one wins; the loser's commit is a CONFLICT, and when it
 * catches up and validates again it gets PostgreSQL's 42P07. */
static void test_zk_name_race_revalidates(void)
{
    follower_t f[2];
    follower_open(&f[0], "namerace");
    follower_open(&f[1], "namerace");
    bootstrap_catalog(&f[0]);
    UNIT_CHECK(follow(&f[1]));
    cat_commit_t *c[2];
    tc_res_t r[2] = {{0}};
    cm_err_t err = {0};
    for (int k = 0; k < 2; k++) {
        cat_head_t h = read_head(f[k].st);
        c[k] = plan_ddl(&f[k], true, "t", &h, (uint8_t)(k + 1), &err);
        UNIT_CHECK(c[k] != NULL);
    }
    for (int k = 0; k < 2; k++)
        UNIT_CHECK(cat_store_commit(f[k].st, cat_commit_store(c[k]), tc_commit_cb, &r[k], &err) == 0);
    for (int k = 0; k < 2; k++) {
        UNIT_CHECK(cat_store_zk_run(f[k].st, 10000, calls_done, &r[k].calls) == 0);
        cat_commit_free(c[k]);
    }
    int win = r[0].st == CAT_STORE_OK ? 0 : 1, lose = 1 - win;
    UNIT_CHECK(r[win].st == CAT_STORE_OK && r[win].index == 2);
    UNIT_CHECK(r[lose].st == CAT_STORE_CONFLICT);
    uint64_t ix = 0;
    UNIT_CHECK(run_ddl(&f[lose], true, "t", 9, &ix, &err) == CAT_STORE_ERROR);
    UNIT_CHECK_STR(err.sqlstate, "42P07");
    UNIT_CHECK_STR(err.message, "relation \"t\" already exists");
    cm_err_clear(&err);
    /* Both see the winner's t, with the ID and OID of index 2. */
    for (int k = 0; k < 2; k++) {
        UNIT_CHECK(follow(&f[k]));
        const cat_item_t *t = cat_snap_item_by_id(f[k].snap, 2);
        UNIT_CHECK(t && strcmp(t->name, "t") == 0 && t->oid == CAT_OID_FIRST_USER + 4);
    }
    follower_close(&f[0]);
    follower_close(&f[1]);
}

/* IDs and OIDs come from log indexes: after a drop, a trim and a fresh
 * bootstrap from the objects, a new object never gets an old one's ID. */
static void test_zk_ids_survive_trim_and_bootstrap(void)
{
    follower_t a, b;
    follower_open(&a, "ids");
    bootstrap_catalog(&a);
    cm_err_t err = {0};
    uint64_t ix;
    UNIT_CHECK(run_ddl(&a, true, "t", 2, &ix, &err) == CAT_STORE_OK && ix == 2);
    UNIT_CHECK(run_ddl(&a, false, "t", 3, &ix, &err) == CAT_STORE_OK && ix == 3);
    UNIT_CHECK(run_ddl(&a, true, "u", 4, &ix, &err) == CAT_STORE_OK && ix == 4);
    UNIT_CHECK(cat_store_log_trim(a.st, 4, &err) == 0);
    UNIT_CHECK(cat_store_zk_run(a.st, 10000, NULL, NULL) == 0);
    UNIT_CHECK(cat_store_zk_trimmed(a.st) == 3);
    follower_open(&b, "ids");
    UNIT_CHECK(follow(&b));
    UNIT_CHECK(b.bootstraps == 1 && cat_snap_index(b.snap) == 4);
    cm_buf_t da, db;
    cm_buf_init(&da, 0);
    cm_buf_init(&db, 0);
    cat_snap_dump(a.snap, &da);
    cat_snap_dump(b.snap, &db);
    UNIT_CHECK(da.len == db.len && memcmp(da.data, db.data, da.len) == 0);
    cm_buf_free(&da);
    cm_buf_free(&db);
    UNIT_CHECK(run_ddl(&b, true, "t", 5, &ix, &err) == CAT_STORE_OK && ix == 5);
    const cat_item_t *t = cat_snap_item_by_id(b.snap, 5);
    UNIT_CHECK(t && strcmp(t->name, "t") == 0 && t->oid == CAT_OID_FIRST_USER + 16);
    UNIT_CHECK(cat_snap_item_by_id(b.snap, 2) == NULL);
    UNIT_CHECK(follow(&a) && cat_snap_item_by_id(a.snap, 5) != NULL);
    follower_close(&a);
    follower_close(&b);
}

/* A writer on another thread commits while snapshots are taken: each
 * snapshot holds exactly the objects of entries 1..head, and the log goes
 * on gap-free from head+1. */
typedef struct writer {
    int n;
    atomic_int done;
    atomic_int failures;
} writer_t;

static void *writer_main(void *arg)
{
    writer_t *w = arg;
    cat_store_t *st = open_fresh("bootwrite", NULL);
    for (int i = 0; i < w->n; i++) {
        raw_t c;
        raw_init(&c, (uint64_t)i, (uint8_t)(i + 1));
        char key[16];
        snprintf(key, sizeof(key), "i%d", i + 1);
        raw_obj(&c, key);
        tc_res_t r;
        if (raw_commit(st, &c, &r) != CAT_STORE_OK)
            atomic_fetch_add(&w->failures, 1);
        usleep(5000);
    }
    cat_store_close(st);
    atomic_store(&w->done, 1);
    return NULL;
}

static void test_zk_snapshot_under_concurrent_writes(void)
{
    cat_store_t *a = open_fresh("bootwrite", NULL);
    writer_t w = {.n = 40};
    pthread_t th;
    UNIT_CHECK(pthread_create(&th, NULL, writer_main, &w) == 0);
    int snaps = 0, during = 0;
    for (;;) {
        bool writing = !atomic_load(&w.done);
        snapres_t sr;
        take_snapshot(a, &sr);
        snaps++;
        during += writing && sr.head > 0 && sr.head < (uint64_t)w.n;
        UNIT_CHECK(sr.n == sr.head);
        for (uint64_t i = 1; i <= sr.head; i++) {
            char key[16];
            snprintf(key, sizeof(key), "i%llu", (unsigned long long)i);
            UNIT_CHECK(snap_has(&sr, key));
        }
        tc_res_t lg = {0};
        cm_err_t err = {0};
        UNIT_CHECK(cat_store_log_read(a, sr.head + 1, 0, tc_log_cb, &lg, &err) == 0);
        wait_calls(a, &lg.calls);
        UNIT_CHECK(lg.st == CAT_STORE_OK);
        for (size_t i = 0; i < lg.n; i++)
            UNIT_CHECK(lg.idx[i] == sr.head + 1 + i);
        tc_res_clear(&lg);
        if (!writing)
            break;
    }
    pthread_join(th, NULL);
    UNIT_CHECK(atomic_load(&w.failures) == 0);
    UNIT_CHECK(read_head(a).index == (uint64_t)w.n);
    UNIT_CHECK(during >= 1);
    printf("  %d snapshots, %d of them while the writer was half-way\n", snaps, during);
    cat_store_close(a);
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
    /* ZK_ONLY=test_name runs one case (for chasing a flaky one). */
    const char *only = getenv("ZK_ONLY");
#define RUN(fn)                                   \
    do {                                          \
        if (!only || strcmp(only, #fn) == 0)      \
            UNIT_RUN(fn);                         \
    } while (0)
    RUN(test_zk_head_cas_and_gap_free);
    RUN(test_zk_commit_is_all_or_nothing);
    RUN(test_zk_request_marker_is_idempotent);
    RUN(test_zk_notification_is_a_hint);
    RUN(test_zk_log_trim);
    RUN(test_zk_size_limits);
    RUN(test_zk_default_size_limits);
    RUN(test_zk_trim_retention);
    RUN(test_zk_trim_is_fenced);
    RUN(test_zk_trim_removes_old_markers);
    RUN(test_zk_request_resolved_after_reopen);
    RUN(test_zk_lost_answer_is_resolved);
    RUN(test_zk_lost_request_is_resent);
    RUN(test_zk_unreachable_times_out);
    RUN(test_zk_session_expiry_is_transparent);
    RUN(test_zk_cluster_ownership);
    RUN(test_zk_meta_identity);
    RUN(test_zk_name_race_revalidates);
    RUN(test_zk_ids_survive_trim_and_bootstrap);
    RUN(test_zk_snapshot_under_concurrent_writes);
    RUN(test_zk_close_completes_pending_calls);
    RUN(test_zk_two_sessions_commit_gap_free);
    RUN(test_zk_bad_address);
    UNIT_EXIT();
}
