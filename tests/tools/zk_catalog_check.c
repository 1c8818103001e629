/*
 * zk_catalog_check.c: reads an eddy catalog straight from ZooKeeper and
 * checks the invariants of zk.md §7's checker, for the zk_cluster tests:
 *   - the log holds every index 1..head, each entry saying its own index;
 *   - replaying the log from nothing gives exactly the objects snapshot
 *     (nothing half-applied, nothing applied twice).
 * It prints "head N", one "entry INDEX TAG SQL" line per log entry (the SQL
 * on one line), "objects N", and "ok" or "not ok: why"; exit status 0 on ok.
 *
 *   zk_catalog_check HOST:PORT/CHROOT
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"

typedef struct wait {
    bool done;
    cat_store_status_t st;
    cat_head_t head;
    cm_buf_t objects_dump;
    size_t nobjects;
    cat_snap_t *snap;
    cat_snap_t *replay;
    uint64_t next;
    bool broken;
    char why[512];
} wait_t;

static bool is_ready(void *arg)
{
    return cat_store_zk_ready(arg);
}

static bool is_done(void *arg)
{
    return ((wait_t *)arg)->done;
}

static void snapshot_cb(void *arg, cat_store_status_t st, const cat_head_t *head, const cat_kv_t *objects, size_t n,
                        const cm_err_t *err)
{
    wait_t *w = arg;
    w->done = true;
    w->st = st;
    if (st != CAT_STORE_OK) {
        snprintf(w->why, sizeof w->why, "snapshot: %s", err && err->message ? err->message : "failed");
        return;
    }
    w->head = *head;
    w->nobjects = n;
    cm_err_t e = {0};
    if (!cat_snap_load(w->snap, head->index, objects, n, &e)) {
        snprintf(w->why, sizeof w->why, "snapshot does not load: %s", e.message);
        w->broken = true;
    }
    cm_err_clear(&e);
}

static void one_line(const char *s, char *out, size_t cap)
{
    size_t k = 0;
    for (; *s && k + 1 < cap; s++)
        out[k++] = (*s == '\n' || *s == '\r' || *s == '\t') ? ' ' : *s;
    out[k] = 0;
}

static void log_cb(void *arg, cat_store_status_t st, const cat_log_entry_bytes_t *entries, size_t n,
                   const cm_err_t *err)
{
    wait_t *w = arg;
    w->done = true;
    w->st = st;
    if (st != CAT_STORE_OK) {
        snprintf(w->why, sizeof w->why, "log read at %" PRIu64 ": %s", w->next,
                 err && err->message ? err->message : cat_store_status_name(st));
        w->broken = true;
        return;
    }
    for (size_t i = 0; i < n && !w->broken; i++) {
        cm_arena_t a;
        cm_arena_init(&a, 0);
        cat_entry_t e;
        cm_err_t er = {0};
        if (entries[i].index != w->next) {
            snprintf(w->why, sizeof w->why, "log gap: expected %" PRIu64 ", got %" PRIu64, w->next, entries[i].index);
            w->broken = true;
        } else if (!cat_entry_decode(entries[i].data, entries[i].len, &a, &e, &er)) {
            snprintf(w->why, sizeof w->why, "entry %" PRIu64 " does not decode: %s", w->next, er.message);
            w->broken = true;
        } else if (e.index != entries[i].index) {
            snprintf(w->why, sizeof w->why, "entry %" PRIu64 " says it is %" PRIu64, w->next, e.index);
            w->broken = true;
        } else if (!cat_snap_apply(w->replay, entries[i].data, entries[i].len, &er)) {
            snprintf(w->why, sizeof w->why, "entry %" PRIu64 " does not apply: %s", w->next, er.message);
            w->broken = true;
        } else {
            char sql[4096];
            one_line(e.sql ? e.sql : "", sql, sizeof sql);
            printf("entry %" PRIu64 " %s %s\n", e.index, e.kind ? e.kind : "?", sql);
            w->next++;
        }
        cm_err_clear(&er);
        cm_arena_free(&a);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: zk_catalog_check HOST:PORT/CHROOT\n");
        return 2;
    }
    cm_err_t err = {0};
    cat_zk_options_t o;
    cat_zk_options_default(&o);
    o.hosts = argv[1];
    o.session_timeout_ms = 4000;
    cat_store_t *st = cat_store_zk_open(&o, NULL, &err);
    if (st == NULL || cat_store_zk_run(st, 15000, is_ready, st) != 0) {
        printf("not ok: cannot open %s: %s\n", argv[1], err.message ? err.message : "no session");
        if (st)
            cat_store_close(st);
        cm_err_clear(&err);
        return 1;
    }
    wait_t w = {0};
    w.snap = cat_snap_new();
    w.replay = cat_snap_new();
    if (cat_store_snapshot(st, snapshot_cb, &w, &err) != 0 || cat_store_zk_run(st, 15000, is_done, &w) != 0 ||
        w.st != CAT_STORE_OK || w.broken) {
        printf("not ok: %s\n", w.why[0] ? w.why : "snapshot failed");
        cat_store_close(st);
        cat_snap_free(w.snap);
        cat_snap_free(w.replay);
        return 1;
    }
    printf("head %" PRIu64 "\n", w.head.index);
    w.next = 1;
    while (w.next <= w.head.index && !w.broken) {
        w.done = false;
        uint64_t before = w.next;
        if (cat_store_log_read(st, w.next, 0, log_cb, &w, &err) != 0 || cat_store_zk_run(st, 15000, is_done, &w) != 0) {
            printf("not ok: log read failed\n");
            cat_store_close(st);
            cat_snap_free(w.snap);
            cat_snap_free(w.replay);
            return 1;
        }
        if (w.next == before && !w.broken) {
            snprintf(w.why, sizeof w.why, "log ends at %" PRIu64 " before the head %" PRIu64, before - 1,
                     w.head.index);
            w.broken = true;
        }
    }
    printf("objects %zu\n", w.nobjects);
    if (!w.broken) {
        cm_buf_t a, b;
        cm_buf_init(&a, 0);
        cm_buf_init(&b, 0);
        cat_snap_dump(w.snap, &a);
        cat_snap_dump(w.replay, &b);
        if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0) {
            snprintf(w.why, sizeof w.why, "replaying the log does not give the objects snapshot");
            w.broken = true;
        }
        cm_buf_free(&a);
        cm_buf_free(&b);
    }
    cat_store_close(st);
    cat_snap_free(w.snap);
    cat_snap_free(w.replay);
    if (w.broken) {
        printf("not ok: %s\n", w.why);
        return 1;
    }
    printf("ok\n");
    return 0;
}
