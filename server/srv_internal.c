/*
 * srv_internal.c: the rows of the session relations (planner.h), asked for
 * by name when a query runs: pg_prepared_statements (srv_prepstmts.c),
 * pg_settings (srv_session.c) and
 * eddy_internal's view of the sequencer and the workers. The sequencer and
 * the workers copy their state out under their own locks; the rows are
 * built here in the statement's arena.
 */
#include "server/srv_int.h"

#include "dataflow/dataflow.h"
#include "plan/plan.h"
#include "sequencer/sequencer.h"
#include "server/srv_metrics.h"
#include "server/srv_tls.h"
#include "server/srv_zk.h"

#include <string.h>

/* Rows collected into the statement's arena. */
typedef struct srv_rows {
    cm_arena_t *arena;
    int ncols;
    ty_datum_t **rows;
    int n, cap;
    int worker;          /* the worker being visited */
} srv_rows_t;

static ty_datum_t *srv__row_add(srv_rows_t *r)
{
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        ty_datum_t **rows = cm_arena_alloc(r->arena, sizeof *rows * (size_t)cap);
        if (r->n)
            memcpy(rows, r->rows, sizeof *rows * (size_t)r->n);
        r->rows = rows;
        r->cap = cap;
    }
    ty_datum_t *row = cm_arena_zalloc(r->arena, sizeof *row * (size_t)r->ncols);
    r->rows[r->n++] = row;
    return row;
}

static ty_datum_t srv__text(cm_arena_t *a, const char *s)
{
    ty_datum_t d = {0};
    d.v.s.p = cm_arena_strdup(a, s != NULL ? s : "");
    d.v.s.len = (uint32_t)strlen(d.v.s.p);
    return d;
}

static ty_datum_t srv__int(int64_t v)
{
    ty_datum_t d = {0};
    d.v.i = v;
    return d;
}

static void srv__command_row(void *arg, const seq_record_t *rec)
{
    srv_rows_t *r = arg;
    ty_datum_t *row = srv__row_add(r);
    row[0] = srv__int((int64_t)rec->seq);
    row[1] = srv__int((int64_t)rec->epoch);
    row[2] = srv__int((int64_t)rec->index);
    row[3] = srv__text(r->arena, df_cmd_kind_name(rec->kind));
    row[4] = srv__text(r->arena, rec->tag);
    row[5] = srv__int((int64_t)rec->object_id);
    row[6] = srv__text(r->arena, rec->object_name);
    row[7] = srv__int(rec->time_us - SRV_PG_EPOCH_US);
    if (rec->object_id == 0)
        row[5].isnull = row[6].isnull = true;   /* Bootstrap, or an entry without objects */
}

static void srv__applied_row(void *arg, const df_applied_t *a)
{
    srv_rows_t *r = arg;
    ty_datum_t *row = srv__row_add(r);
    row[0] = srv__int(r->worker);
    row[1] = srv__int((int64_t)a->seq);
    row[2] = srv__int((int64_t)a->epoch);
    row[3] = srv__int((int64_t)a->index);
    row[4] = srv__text(r->arena, df_cmd_kind_name(a->kind));
    row[5] = srv__int((int64_t)a->object_id);
    row[5].isnull = a->object_id == 0;
}

static void srv__dataflow_row(void *arg, const df_dataflow_t *d)
{
    srv_rows_t *r = arg;
    ty_datum_t *row = srv__row_add(r);
    row[0] = srv__int(r->worker);
    row[1] = srv__int((int64_t)d->id);
    row[2] = srv__text(r->arena, d->name);
    row[3] = srv__int((int64_t)d->index);
    row[4] = srv__int((int64_t)d->plan_len);
    /* What the worker decoded from those bytes: NULL for a dataflow without a plan. */
    row[5] = d->query ? srv__int(plan_operator_count(d->query)) : (ty_datum_t){.isnull = true};
}

static void srv__metric_row(void *arg, const srv_metric_t *m)
{
    srv_rows_t *r = arg;
    ty_datum_t *row = srv__row_add(r);
    row[0] = srv__text(r->arena, m->name);
    row[1] = srv__text(r->arena, m->labels);
    row[2].v.f = m->value;
}

static void srv__role_sessions_row(void *arg, cat_id_t role, int n)
{
    srv_rows_t *r = arg;
    ty_datum_t *row = srv__row_add(r);
    row[0] = srv__int((int64_t)role);
    row[1] = srv__int(n);
}

static bool srv__internal_rows(srv_server_t *srv, const char *relation, srv_rows_t *r, cm_err_t *err)
{
    if (strcmp(relation, PLN_INTERNAL_METRICS) == 0 && r->ncols == 3) {
        srv_metrics_visit(srv, srv__metric_row, r);
        return true;
    }
    if (strcmp(relation, PLN_INTERNAL_ROLE_SESSIONS) == 0 && r->ncols == 2) {
        srv_role_conns_visit(srv__role_sessions_row, r);
        return true;
    }
    if (srv->seq == NULL)
        return true;   /* no workers: empty */
    if (strcmp(relation, PLN_INTERNAL_CLUSTER) == 0 && r->ncols == 5) {
        ty_datum_t *row = srv__row_add(r);
        row[3] = srv__int((int64_t)seq_applied_index(srv->seq));
        if (srv->zk == NULL) {
            /* Laptop mode: this process is its own cluster at epoch 1, publishing nothing. */
            row[0] = srv__text(r->arena, "default");
            row[1] = srv__text(r->arena, "local");
            row[2] = srv__int(1);
            row[4].isnull = true;
            return true;
        }
        srv_zk_cluster_t *cc = srv_zk_cluster(srv->zk);
        uint64_t epoch = 0;
        cat_zk_role_t role = srv_zk_cluster_role(cc, &epoch);
        row[0] = srv__text(r->arena, srv_zk_cluster_name(cc));
        row[1] = srv__text(r->arena, role == CAT_ZK_ROLE_OWNER     ? "owner"
                                     : role == CAT_ZK_ROLE_STANDBY ? "standby"
                                                                   : "starting");
        row[2] = srv__int((int64_t)epoch);
        row[2].isnull = epoch == 0;
        row[4] = srv__int((int64_t)srv_zk_cluster_published(cc));
        return true;
    }
    bool found = false;
    ty_datum_t **erows = NULL;
    int nerows = 0;
    if (!srv_engine_rows(srv->workers, relation, r->ncols, r->arena, &erows, &nerows, &found, err))
        return false;
    if (found) {
        for (int i = 0; i < nerows; i++)
            memcpy(srv__row_add(r), erows[i], sizeof(ty_datum_t) * (size_t)r->ncols);
        return true;
    }
    int nworkers = df_workers_count(srv->workers);
    if (strcmp(relation, PLN_INTERNAL_COMMANDS) == 0 && r->ncols == 8) {
        seq_visit_commands(srv->seq, srv__command_row, r);
    } else if (strcmp(relation, PLN_INTERNAL_WORKERS) == 0 && r->ncols == 8) {
        for (int i = 0; i < nworkers; i++) {
            df_worker_status_t s;
            df_workers_status(srv->workers, i, &s);
            ty_datum_t *row = srv__row_add(r);
            row[0] = srv__int(i);
            row[1] = srv__int((int64_t)s.epoch);
            row[2] = srv__int((int64_t)s.seq);
            row[3] = srv__int((int64_t)s.index);
            row[4] = srv__int((int64_t)s.ndataflows);
            row[5] = srv__int((int64_t)s.duplicates);
            row[6] = srv__int((int64_t)s.refused);
            row[7] = srv__int((int64_t)s.peek_rows);
        }
    } else if (strcmp(relation, PLN_INTERNAL_WORKER_COMMANDS) == 0 && r->ncols == 6) {
        for (r->worker = 0; r->worker < nworkers; r->worker++)
            df_workers_visit_applied(srv->workers, r->worker, srv__applied_row, r);
    } else if (strcmp(relation, PLN_INTERNAL_DATAFLOWS) == 0 && r->ncols == 6) {
        for (r->worker = 0; r->worker < nworkers; r->worker++)
            df_workers_visit_dataflows(srv->workers, r->worker, srv__dataflow_row, r);
    } else {
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "the server has no relation \"%s\" of %d columns",
                          relation, r->ncols);
    }
    return true;
}

/* eddy_catalog's relations: the rows of the session's catalog (its block's DDL included). */
static bool srv__catalog_rows(srv_conn_t *c, const char *relation, int ncols, cm_arena_t *arena, ty_datum_t ***rows,
                              int *nrows, cm_err_t *err)
{
    if (c->work != NULL && c->work->inflight)
        return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "reading %s in a statement that calls a blocking function (pg_sleep) is not supported",
                          relation);
    const pln_catalog_t *cat = srv_catalog_for(c);
    if (cat == NULL)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "this server has no catalog");
    if (strcmp(relation, PLN_CATALOG_CONSTRAINTS) == 0)
        return pln_constraint_rows(cat->snap, ncols, arena, rows, nrows, err);
    return cat_builtin_read(cat->snap, &cat->search, strchr(relation, '.') + 1, ncols, arena, rows, nrows, err);
}

bool srv_sysrel_rows(void *arg, const char *relation, int ncols, cm_arena_t *arena, ty_datum_t ***rows,
                     int *nrows, cm_err_t *err)
{
    if (strcmp(relation, PLN_PREPARED_STATEMENTS) == 0)
        return srv_prepstmt_session_rows(arg, relation, ncols, arena, rows, nrows, err);
    srv_conn_t *c = arg;
    if (strcmp(relation, PLN_STAT_SSL) == 0)
        return srv_tls_stat_rows(ncols, arena, rows, nrows, err);
    if (strcmp(relation, PLN_SETTINGS) == 0)
        return srv_session_settings_rows(&c->sess, arena, ncols, rows, nrows, err);
    if (strncmp(relation, "eddy_catalog.", 13) == 0)
        return srv__catalog_rows(c, relation, ncols, arena, rows, nrows, err);
    srv_rows_t r = {.arena = arena, .ncols = ncols};
    if (!srv__internal_rows(c->lp->srv, relation, &r, err))
        return false;
    *rows = r.rows ? r.rows : cm_arena_zalloc(arena, sizeof **rows);
    *nrows = r.n;
    return true;
}
