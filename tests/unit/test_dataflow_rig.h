/*
 * test_dataflow_rig.h: the rig the dataflow unit tests run commands through:
 * the workers and a sequencer on a loop thread of its own (as in the
 * server), over the in-memory catalog store of a test catalog; commands
 * submitted and waited for, tables created, and rows (a int4[, b text])
 * written with diffs.
 */
#ifndef EDDY_TEST_DATAFLOW_RIG_H
#define EDDY_TEST_DATAFLOW_RIG_H

#include "dataflow/dataflow.h"
#include "planner/planner.h"
#include "sequencer/sequencer.h"
#include "tests/unit/test_catalog_helpers.h"

#include <unistd.h>

static cat_store_t *open_mem(void *arg, uv_loop_t *loop, void (*wake)(void *), void *wake_arg, cm_err_t *err)
{
    return cat_store_mem_open(arg, NULL, wake, wake_arg);
}

typedef struct rig {
    df_workers_t *ws;
    seq_transport_t *tr;
    seq_t *seq;
    uv_loop_t loop;
    uv_thread_t thread;
    int workers;
} rig_t;

static void run_loop(void *arg)
{
    uv_run(arg, UV_RUN_DEFAULT);
}

static bool rig_start(rig_t *r, tc_t *t, int workers)
{
    df_config_t dc;
    df_config_default(&dc);
    dc.workers = workers;
    cm_err_t err = {0};
    r->workers = workers;
    r->ws = df_workers_new(&dc, &err);
    r->tr = seq_transport_local_new(r->ws);
    seq_config_t sc;
    seq_config_default(&sc);
    sc.store_open = open_mem;
    sc.store_arg = t->db;
    sc.transport = r->tr;
    uv_loop_init(&r->loop);
    r->seq = seq_start(&sc, &r->loop, &err);
    if (r->seq == NULL)
        return false;
    df_workers_start(r->ws);
    uv_thread_create(&r->thread, run_loop, &r->loop);
    return true;
}

static void rig_stop(rig_t *r)
{
    seq_stop(r->seq);
    uv_thread_join(&r->thread);
    uv_loop_close(&r->loop);
    df_workers_stop(r->ws);
    seq_free(r->seq);
    r->tr->ops->free(r->tr);
    df_workers_free(r->ws);
}

static bool wait_applied(rig_t *r, uint64_t index)
{
    for (int i = 0; i < 10000; i++) {
        if (seq_applied_index(r->seq) >= index)
            return true;
        usleep(1000);
    }
    return false;
}

typedef struct waiter {
    atomic_int done;
} waiter_t;

static void done_cb(df_reply_t *rep, void *arg)
{
    atomic_store(&((waiter_t *)arg)->done, 1);
}

/* Submits a command and waits for every worker's answer; the reply (one reference) is the caller's. */
static df_reply_t *submit(rig_t *r, df_cmd_kind_t kind, const cm_buf_t *body)
{
    waiter_t w = {0};
    df_reply_t *rep = df_reply_new(r->workers, done_cb, &w);
    df_cmd_t *c = df_cmd_new(kind);
    df_cmd_set_payload(c, body->data, body->len, rep);
    UNIT_CHECK(seq_submit(r->seq, c));
    for (int i = 0; i < 10000 && !atomic_load(&w.done); i++)
        usleep(1000);
    UNIT_CHECK(atomic_load(&w.done));
    rep->done = NULL;
    return rep;
}

static const ty_oid_t kt[] = {TY_INT4, TY_TEXT};

/* Writes rows (a int4, b text; b NULL: NULL) with one diff each; returns the reply's SQLSTATE ("" when it succeeded). */
static void write_rows(rig_t *r, uint64_t table, const char *constraint, const int *a, const char *const *b,
                       const int64_t *diffs, int n, int ncols, char *sqlstate, char *detail, size_t detail_len)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 0);
    cm_err_t err = {0};
    ty_settings_t set;
    ty_settings_default(&set);
    ty_ctx_t ctx = {.arena = &arena, .settings = &set, .err = &err};
    ty_datum_t **rows = cm_arena_alloc(&arena, sizeof *rows * (size_t)n);
    for (int i = 0; i < n; i++) {
        rows[i] = cm_arena_zalloc(&arena, sizeof(ty_datum_t) * 2);
        rows[i][0].v.i = a[i];
        if (ncols > 1 && !b[i]) {
            rows[i][1].isnull = true;
        } else if (ncols > 1) {
            rows[i][1].v.s.p = b[i];
            rows[i][1].v.s.len = (uint32_t)strlen(b[i]);
        }
    }
    cm_buf_t body;
    cm_buf_init(&body, 0);
    UNIT_CHECK(df_write_encode(table, constraint, false, kt, ncols, rows, diffs, n, &ctx, &body));
    df_reply_t *rep = submit(r, DF_CMD_WRITE, &body);
    snprintf(sqlstate, 6, "%s", rep->err.set ? rep->err.sqlstate : "");
    snprintf(detail, detail_len, "%s", rep->err.detail ? rep->err.detail : "");
    df_reply_unref(rep);
    cm_buf_free(&body);
    cm_arena_free(&arena);
}

/* Commits CREATE TABLE name (public schema of database eddy) and returns its item. */
static const cat_item_t *commit_table(tc_t *t, const char *name, const char *create_sql, const cat_column_t *cols,
                                      uint32_t n)
{
    tc_begin(t);
    char nb[64];
    cat_item_def_t def = {.kind = CAT_ITEM_TABLE, .name = tc_qname(name, nb, sizeof nb), .create_sql = create_sql,
                          .columns = cols, .ncolumns = n};
    UNIT_CHECK(cat_plan_create_item(t->snap, &t->search, &def, false, t->last, &t->err));
    UNIT_CHECK(tc_commit_change(t, t->last, "CREATE TABLE") == CAT_STORE_OK);
    return cat_snap_item(t->snap, cat_snap_schema(t->snap, cat_snap_database(t->snap, "eddy"), "public"), name);
}

#endif
