/*
 * test_catalog_helpers.h: what the catalog unit tests share: an embedded
 * store with one handle and a snapshot that follows its log, and short
 * ways to run DDL through plan → commit → log → snapshot, the path a
 * statement takes in the server.
 */
#ifndef EDDY_TEST_CATALOG_HELPERS_H
#define EDDY_TEST_CATALOG_HELPERS_H

#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "tests/unit/unit.h"

typedef struct tc {
    cat_mem_db_t *db;
    cat_store_t *st;
    cat_snap_t *snap;
    const char *path[4];
    cat_search_t search;
    cm_err_t err;             /* the last statement's error */
    cat_change_t *last;       /* the last statement's change (notices) */
    uint64_t next_uuid;
    uint64_t last_index;      /* the index the last statement committed at */
} tc_t;

/* ---- raw store callbacks recording their result ---- */

typedef struct tc_res {
    int calls;
    cat_store_status_t st;
    cat_head_t head;
    uint64_t index;
    char name_key[256];
    char errmsg[256];
    size_t n;
    uint8_t *data[256];
    size_t len[256];
    uint64_t idx[256];
    char *keys[256];
} tc_res_t;

static __attribute__((unused)) void tc_res_clear(tc_res_t *r)
{
    for (size_t i = 0; i < r->n && i < 256; i++) {
        free(r->data[i]);
        free(r->keys[i]);
    }
    memset(r, 0, sizeof(*r));
}

static __attribute__((unused)) void tc_note_err(tc_res_t *r, const cm_err_t *err)
{
    if (err && err->message)
        snprintf(r->errmsg, sizeof(r->errmsg), "%s", err->message);
}

static __attribute__((unused)) void tc_head_cb(void *arg, cat_store_status_t st, const cat_head_t *head, const cm_err_t *err)
{
    tc_res_t *r = arg;
    r->calls++;
    r->st = st;
    r->head = *head;
    tc_note_err(r, err);
}

static __attribute__((unused)) void tc_log_cb(void *arg, cat_store_status_t st, const cat_log_entry_bytes_t *e, size_t n, const cm_err_t *err)
{
    tc_res_t *r = arg;
    r->calls++;
    r->st = st;
    tc_note_err(r, err);
    for (size_t i = 0; i < n && r->n < 256; i++, r->n++) {
        r->data[r->n] = malloc(e[i].len ? e[i].len : 1);
        memcpy(r->data[r->n], e[i].data, e[i].len);
        r->len[r->n] = e[i].len;
        r->idx[r->n] = e[i].index;
    }
}

static __attribute__((unused)) void tc_commit_cb(void *arg, cat_store_status_t st, uint64_t index, const char *name_key, const cm_err_t *err)
{
    tc_res_t *r = arg;
    r->calls++;
    r->st = st;
    r->index = index;
    if (name_key)
        snprintf(r->name_key, sizeof(r->name_key), "%s", name_key);
    tc_note_err(r, err);
}

static __attribute__((unused)) void tc_request_cb(void *arg, cat_store_status_t st, uint64_t index, const cm_err_t *err)
{
    tc_res_t *r = arg;
    r->calls++;
    r->st = st;
    r->index = index;
    tc_note_err(r, err);
}

/* ---- the follower: bring the snapshot to the store's head ---- */

static __attribute__((unused)) bool tc_sync(tc_t *t)
{
    for (;;) {
        tc_res_t r = {0};
        cm_err_t err = {0};
        if (cat_store_log_read(t->st, cat_snap_index(t->snap) + 1, 0, tc_log_cb, &r, &err) != 0)
            return false;
        cat_store_dispatch(t->st);
        if (r.st != CAT_STORE_OK) {
            tc_res_clear(&r);
            return false;
        }
        size_t n = r.n;
        for (size_t i = 0; i < n; i++) {
            if (!cat_snap_apply(t->snap, r.data[i], r.len[i], &err)) {
                printf("  apply failed: %s\n", err.message);
                cm_err_clear(&err);
                tc_res_clear(&r);
                return false;
            }
        }
        tc_res_clear(&r);
        if (n == 0)
            return true;
    }
}

static __attribute__((unused)) void tc_uuid(tc_t *t, uint8_t out[16])
{
    memset(out, 0, 16);
    uint64_t v = ++t->next_uuid;
    memcpy(out, &v, sizeof(v));
    out[15] = 0x5a;
}

/* Commits a planned change the way a front end does: read the head, build,
 * commit, follow the log. Returns the store status. */
static __attribute__((unused)) cat_store_status_t tc_commit_change(tc_t *t, cat_change_t *ch, const char *tag)
{
    if (cat_change_op_count(ch) == 0)
        return CAT_STORE_OK;
    tc_res_t h = {0};
    cm_err_t err = {0};
    cat_store_head(t->st, tc_head_cb, &h, &err);
    cat_store_dispatch(t->st);
    uint8_t uuid[16];
    tc_uuid(t, uuid);
    cat_commit_t *c = cat_commit_build(ch, t->snap, &h.head, uuid, tag, tag, &t->st->limits, &t->err);
    if (!c)
        return CAT_STORE_ERROR;
    tc_res_t r = {0};
    if (cat_store_commit(t->st, cat_commit_store(c), tc_commit_cb, &r, &t->err) != 0) {
        cat_commit_free(c);
        return CAT_STORE_ERROR;
    }
    cat_store_dispatch(t->st);
    cat_commit_free(c);
    t->last_index = r.index;
    tc_sync(t);
    return r.st;
}

static __attribute__((unused)) void tc_begin(tc_t *t)
{
    cm_err_clear(&t->err);
    cat_change_free(t->last);
    t->last = cat_change_new();
}

static __attribute__((unused)) void tc_init(tc_t *t)
{
    memset(t, 0, sizeof(*t));
    t->db = cat_mem_db_new();
    t->st = cat_store_mem_open(t->db, NULL, NULL, NULL);
    t->snap = cat_snap_new();
    t->path[0] = "$user";
    t->path[1] = "public";
    t->search = (cat_search_t){.database = "eddy", .path = t->path, .npath = 2, .user = "postgres"};
    cat_head_t h0 = {0, 0};
    cm_err_t err = {0};
    cat_commit_t *boot = cat_commit_bootstrap(&h0, NULL, &err);
    tc_res_t r = {0};
    cat_store_commit(t->st, cat_commit_store(boot), tc_commit_cb, &r, &err);
    cat_store_dispatch(t->st);
    cat_commit_free(boot);
    tc_sync(t);
}

static __attribute__((unused)) void tc_free(tc_t *t)
{
    cat_change_free(t->last);
    cm_err_clear(&t->err);
    cat_snap_free(t->snap);
    cat_store_close(t->st);
    cat_mem_db_free(t->db);
}

/* "s.x" → schema s, name x; "x" → unqualified; "d.s.x" → all three. The
 * parts point into buf. */
static __attribute__((unused)) cat_qname_t tc_qname(const char *written, char *buf, size_t bufsize)
{
    snprintf(buf, bufsize, "%s", written);
    cat_qname_t q = {0};
    char *parts[3];
    int n = 0;
    parts[n++] = buf;
    for (char *p = buf; *p && n < 3; p++)
        if (*p == '.') {
            *p = 0;
            parts[n++] = p + 1;
        }
    if (n == 1)
        q.name = parts[0];
    else if (n == 2)
        q.schema = parts[0], q.name = parts[1];
    else
        q.database = parts[0], q.schema = parts[1], q.name = parts[2];
    return q;
}

/* CREATE <kind> name reading the named items (separated by commas), with
 * one int4 column "a" unless cols is given. */
static __attribute__((unused)) bool tc_create_cols(tc_t *t, cat_item_kind_t kind, const char *name, const char *reads,
                           const cat_column_t *cols, uint32_t ncols, bool ine)
{
    tc_begin(t);
    char nb[256];
    cat_id_t deps[64];
    uint32_t nd = 0;
    char rb[1024];
    snprintf(rb, sizeof(rb), "%s", reads ? reads : "");
    for (char *tok = strtok(rb, ","); tok; tok = strtok(NULL, ",")) {
        char qb[256];
        cat_qname_t q = tc_qname(tok, qb, sizeof(qb));
        const cat_item_t *it = cat_resolve_item(t->snap, &t->search, &q, &t->err);
        if (!it)
            return false;
        deps[nd++] = it->id;
    }
    static const cat_column_t one[] = {{.name = "a", .type = 23, .typmod = -1}};
    char sql[512];
    snprintf(sql, sizeof(sql), "CREATE %s %s", cat_item_kind_name(kind), name);
    cat_item_def_t def = {.kind = kind, .name = tc_qname(name, nb, sizeof(nb)), .create_sql = sql,
                          .columns = cols ? cols : one, .ncolumns = cols ? ncols : 1, .deps = deps, .ndeps = nd};
    if (!cat_plan_create_item(t->snap, &t->search, &def, ine, t->last, &t->err))
        return false;
    return tc_commit_change(t, t->last, "CREATE") == CAT_STORE_OK;
}

static __attribute__((unused)) bool tc_create(tc_t *t, cat_item_kind_t kind, const char *name, const char *reads)
{
    return tc_create_cols(t, kind, name, reads, NULL, 0, false);
}

/* DROP <kind> names (separated by commas). */
static __attribute__((unused)) bool tc_drop(tc_t *t, cat_item_kind_t kind, const char *names, bool if_exists, bool cascade)
{
    tc_begin(t);
    char buf[4096], qb[16][256];
    cat_qname_t q[16];
    size_t n = 0;
    snprintf(buf, sizeof(buf), "%s", names);
    for (char *tok = strtok(buf, ","); tok && n < 16; tok = strtok(NULL, ","), n++)
        q[n] = tc_qname(tok, qb[n], sizeof(qb[n]));
    if (!cat_plan_drop_items(t->snap, &t->search, kind, q, n, if_exists, cascade, t->last, &t->err))
        return false;
    return tc_commit_change(t, t->last, "DROP") == CAT_STORE_OK;
}

static __attribute__((unused)) bool tc_create_schema(tc_t *t, const char *name, bool ine)
{
    tc_begin(t);
    cat_qname_t q = {.schema = name};
    if (!cat_plan_create_schema(t->snap, &t->search, &q, ine, t->last, &t->err))
        return false;
    return tc_commit_change(t, t->last, "CREATE SCHEMA") == CAT_STORE_OK;
}

static __attribute__((unused)) bool tc_drop_schema(tc_t *t, const char *names, bool if_exists, bool cascade)
{
    tc_begin(t);
    char buf[1024];
    cat_qname_t q[16];
    size_t n = 0;
    snprintf(buf, sizeof(buf), "%s", names);
    for (char *tok = strtok(buf, ","); tok && n < 16; tok = strtok(NULL, ","))
        q[n++] = (cat_qname_t){.schema = tok};
    if (!cat_plan_drop_schemas(t->snap, &t->search, q, n, if_exists, cascade, t->last, &t->err))
        return false;
    return tc_commit_change(t, t->last, "DROP SCHEMA") == CAT_STORE_OK;
}

/* The notices of the last statement, "message|detail" joined by "\n--\n". */
static __attribute__((unused)) const char *tc_notices(tc_t *t)
{
    static char out[8192];
    out[0] = 0;
    for (size_t i = 0; t->last && i < cat_change_notice_count(t->last); i++) {
        const cm_err_t *n = cat_change_notice(t->last, i);
        size_t len = strlen(out);
        snprintf(out + len, sizeof(out) - len, "%s%s%s%s", i ? "\n--\n" : "", n->message, n->detail ? "|" : "",
                 n->detail ? n->detail : "");
    }
    return out;
}

/* ---- raw commits for the store contract tests (store_mem and store_zk) ---- */

/* A raw commit: entry bytes "e<index>", objects and names given as keys. The
 * head's version equals its index while only commits set it, in both stores. */
typedef struct raw {
    cat_store_commit_t c;
    char entry[32];
    cat_kv_t objs[4], names[4];
    const char *odel[4], *ndel[4];
} raw_t;

static __attribute__((unused)) void raw_init(raw_t *r, uint64_t head, uint8_t uuid_byte)
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

static __attribute__((unused)) void raw_obj(raw_t *r, const char *key)
{
    r->objs[r->c.n_obj_creates++] = (cat_kv_t){key, (const uint8_t *)key, strlen(key)};
}

static __attribute__((unused)) void raw_name(raw_t *r, const char *key, const char *obj)
{
    r->names[r->c.n_name_creates++] = (cat_kv_t){key, (const uint8_t *)obj, strlen(obj)};
}

#endif
