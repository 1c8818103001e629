/*
 * srv_prepstmts.c: the session relation pg_prepared_statements (planner.h)
 * as PostgreSQL 15 fills it: one row per named statement, whether Parse
 * or PREPARE made it (the unnamed statement is not listed), read each time
 * a query runs, so a statement sees itself and the counts of the moment.
 *
 * generic_plans and custom_plans count what PostgreSQL's plan cache would
 * have chosen at each Bind or EXECUTE (choose_custom_plan): a statement
 * without parameters always runs its generic plan; one with parameters gets
 * five custom plans and then the generic one, which for the plans eddy makes
 * is never costlier than a custom plan plus its planning.
 */
#include "server/srv_int.h"

#include <string.h>

#define SRV_CUSTOM_PLANS_FIRST 5   /* PostgreSQL's choose_custom_plan: custom plans before comparing costs */

void srv_prepstmt_made(srv_stmt_t *st, const char *source, size_t len, bool from_sql)
{
    st->source = source == st->sql ? st->sql : cm_arena_strndup(&st->arena, source, len);
    st->prepare_time = cm_now_wall_us() - SRV_PG_EPOCH_US;
    st->from_sql = from_sql;
    st->generic_plans = st->custom_plans = 0;
}

void srv_prepstmt_planned(srv_stmt_t *st)
{
    bool custom = st->plan != NULL && st->plan->nparams > 0 && st->custom_plans < SRV_CUSTOM_PLANS_FIRST;
    if (custom)
        st->custom_plans++;
    else
        st->generic_plans++;
}

static ty_datum_t srv__text(const char *s)
{
    ty_datum_t d = {0};
    d.v.s.p = s != NULL ? s : "";
    d.v.s.len = (uint32_t)strlen(d.v.s.p);
    return d;
}

static ty_datum_t srv__int(int64_t v)
{
    ty_datum_t d = {0};
    d.v.i = v;
    return d;
}

/* One row, in the columns planner.h declares for pg_prepared_statements. */
static ty_datum_t *srv__row(const srv_stmt_t *st, cm_arena_t *arena)
{
    ty_datum_t *r = cm_arena_zalloc(arena, sizeof *r * 7);
    r[0] = srv__text(st->name);
    r[1] = srv__text(st->source);
    r[2] = srv__int(st->prepare_time);
    int n = st->plan != NULL ? st->plan->nparams : 0;
    ty_datum_t *types = cm_arena_zalloc(arena, sizeof *types * (size_t)(n + 1));
    for (int i = 0; i < n; i++)
        types[i] = srv__int(st->plan->param_types[i]);
    r[3] = ty_array_make(arena, TY_REGTYPE, types, n);
    r[4].v.b = st->from_sql;
    r[5] = srv__int(st->generic_plans);
    r[6] = srv__int(st->custom_plans);
    return r;
}

bool srv_prepstmt_session_rows(void *arg, const char *relation, int ncols, cm_arena_t *arena, ty_datum_t ***rows,
                               int *nrows, cm_err_t *err)
{
    srv_conn_t *c = arg;
    if (strcmp(relation, PLN_PREPARED_STATEMENTS) != 0 || ncols != 7)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "the session has no relation \"%s\" of %d columns",
                          relation, ncols);
    int n = 0;
    for (const srv_stmt_t *s = c->stmts; s != NULL; s = s->next)
        n++;
    /* The list holds the newest first; rows come in the order the statements were made. */
    ty_datum_t **out = cm_arena_alloc(arena, sizeof *out * (size_t)(n + 1));
    int i = n;
    for (const srv_stmt_t *s = c->stmts; s != NULL; s = s->next)
        out[--i] = srv__row(s, arena);
    *rows = out;
    *nrows = n;
    return true;
}
