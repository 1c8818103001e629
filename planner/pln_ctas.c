/*
 * pln_ctas.c: CREATE TABLE [IF NOT EXISTS] t [(names)] AS query [WITH [NO] DATA].
 *
 * The table gets the columns PostgreSQL derives: the query's output names
 * (renamed by the column list, 42601 when it names more columns than the
 * query has, 42701 for a name twice), its types and modifiers, unknown
 * becoming text. The stored definition is a plain CREATE TABLE with those
 * columns, as the table does not keep the query.
 *
 * WITH NO DATA creates the table. With its rows, outside a transaction
 * block, the server splits the statement (pln_ctas_split): the table is
 * created WITH NO DATA, then an INSERT INTO it of the query copies the rows.
 * In a block, where DDL and writes do not mix yet, the query must produce no
 * rows: one reading a relation answers 0A000, a constant one is run and
 * answers 0A000 as soon as it yields a row; with none, the table is created
 * and the tag is SELECT 0, as PostgreSQL's would be.
 */
#include "planner/pln_internal.h"

#include <string.h>

static pln_runner_fn pln__runner;

void pln_set_runner(pln_runner_fn run)
{
    pln__runner = run;
}

typedef struct first_row {
    cm_err_t *err;
    const char *table;
} first_row_t;

static bool refuse_row_cb(void *arg, const ty_datum_t *row, int ncols)
{
    first_row_t *f = arg;
    cm_err_set(f->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
               "CREATE TABLE AS with rows is not supported in a transaction block yet (table \"%s\")", f->table);
    cm_err_set_hint(f->err, "Run it outside a transaction block, or use WITH NO DATA to create the table empty.");
    return false;
}

/* A binder like b's, fresh (nothing bound yet), on the same catalog and settings. */
static void fresh(pln_binder_t *sub, const pln_binder_t *b)
{
    *sub = (pln_binder_t){.arena = b->arena, .sql = b->sql, .sql_len = b->sql_len, .err = b->err,
                          .settings = b->settings, .settings_known = b->settings_known, .cat = b->cat};
    sub->ctx.arena = b->arena;
    sub->ctx.settings = &sub->settings;
    sub->ctx.err = b->err;
}

/* Runs a query that reads no relation: true if it yields no row. */
static bool yields_nothing(pln_binder_t *b, const sql_select_t *query, const char *table)
{
    pln_binder_t sub;
    fresh(&sub, b);
    pln_stmt_t st = {0};
    if (!pln__bind_query_stmt(&sub, query, &st))
        return false;
    ty_ctx_t ctx = sub.ctx;
    ctx.xact_ts = ctx.stmt_ts = cm_now_wall_us();
    ctx.user = b->cat->search.user;
    ctx.database = b->cat->search.database;
    first_row_t f = {.err = b->err, .table = table};
    if (!pln__runner)
        return refuse_row_cb(&f, NULL, 0);
    return pln__runner(st.query, b->sql, NULL, &ctx, refuse_row_cb, &f);
}

bool pln__plan_create_table_as(pln_binder_t *b, const sql_stmt_t *s, const cat_qname_t *qn, const sql_qname_t *qualified,
                               cat_change_t *out)
{
    const sql_create_table_t *t = s->create_table;
    pln_binder_t sub;
    fresh(&sub, b);
    pln_bound_t q;
    if (!pln__bind_select(&sub, t->query, &q) || !pln__raise_denied(&sub))
        return false;
    if (sub.nparams > 0) {
        int pos = sub.nparam_nodes ? sub.param_nodes[0]->location : -1;
        return pln__error(b, pos, CM_ERRCODE_UNDEFINED_PARAMETER, "there is no parameter $%d",
                          sub.nparam_nodes ? sub.param_nodes[0]->index + 1 : 1);
    }
    int nnames = sql_list_len(t->as_columns);
    if (nnames > q.ncols)
        return pln__error(b, -1, CM_ERRCODE_SYNTAX_ERROR, "too many column names were specified");
    uint32_t n = (uint32_t)q.ncols;
    cat_column_t *cols = cm_arena_zalloc(b->arena, sizeof(cat_column_t) * (n ? n : 1));
    for (uint32_t i = 0; i < n; i++) {
        cols[i].name = (int)i < nnames ? t->as_columns->items[i] : q.cols[i].name;
        cols[i].type = q.cols[i].type == TY_UNKNOWN ? TY_TEXT : q.cols[i].type;
        cols[i].typmod = q.cols[i].type == TY_UNKNOWN ? -1 : q.cols[i].typmod;
        if (!pln__check_column_type(b, cols[i].name, cols[i].type))
            return false;
        for (uint32_t k = 0; k < i; k++)
            if (strcmp(cols[k].name, cols[i].name) == 0)
                return pln__error(b, -1, "42701", "column \"%s\" specified more than once", cols[i].name);
    }
    /* Rows are checked only when the table would be created: IF NOT EXISTS of an existing one skips. */
    const cat_schema_t *sc = cat_resolve_schema(b->cat->snap, &b->cat->search, qn, b->err);
    if (!sc)
        return false;
    bool exists = cat_snap_item(b->cat->snap, sc, qn->name) != NULL;
    if (t->with_data != 0 && !exists) {
        if (sub.nrels > 0) {
            const cat_item_t *it = sub.rel_item[0];
            pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                       "CREATE TABLE AS copying the rows of %s \"%s\" is not supported in a transaction block yet",
                       cat_item_kind_name(it->kind), it->name);
            cm_err_set_hint(b->err, "Run it outside a transaction block, or use WITH NO DATA to create the table empty.");
            return false;
        }
        if (!yields_nothing(b, t->query, qn->name))
            return false;
    }
    cm_buf_t sql;
    cm_buf_init(&sql, 0);
    cm_buf_put_str(&sql, "CREATE TABLE ");
    for (int i = 0; i < qualified->names->count; i++) {
        if (i)
            cm_buf_put_u8(&sql, '.');
        sql_deparse_ident(qualified->names->items[i], &sql);
    }
    cm_buf_put_str(&sql, " (");
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            cm_buf_put_str(&sql, ", ");
        sql_deparse_ident(cols[i].name, &sql);
        cm_buf_put_u8(&sql, ' ');
        ty_format_type(cols[i].type, cols[i].typmod, &sql);
    }
    cm_buf_put_u8(&sql, ')');
    const char *create_sql = cm_arena_strndup(b->arena, (const char *)sql.data, sql.len);
    cm_buf_free(&sql);
    cat_item_def_t def = {.kind = CAT_ITEM_TABLE, .name = *qn, .create_sql = create_sql, .columns = cols,
                          .ncolumns = n};
    return cat_plan_create_item(b->cat->snap, &b->cat->search, &def, t->if_not_exists, out, b->err);
}

bool pln_ctas_split(cm_arena_t *arena, const pln_stmt_t *st, pln_stmt_t **create, pln_raw_t **insert,
                    const char **table)
{
    if (st->kind != PLN_DDL || st->ddl == NULL)
        return false;
    const sql_stmt_t *s = st->ddl->stmt;
    if (s->kind != SQL_STMT_CREATE_TABLE || s->create_table->query == NULL || s->create_table->with_data == 0)
        return false;
    if (arena == NULL)
        return true;
    sql_create_table_t *t = cm_arena_alloc(arena, sizeof *t);
    *t = *s->create_table;
    t->with_data = 0;
    sql_stmt_t *cs = cm_arena_alloc(arena, sizeof *cs);
    *cs = *s;
    cs->create_table = t;
    struct pln_ddl *d = cm_arena_zalloc(arena, sizeof *d);
    d->stmt = cs;
    pln_stmt_t *c = cm_arena_alloc(arena, sizeof *c);
    *c = *st;
    c->ddl = d;
    c->tag = "CREATE TABLE AS";
    /* Rows go in by position: the table's columns are the query's, in order. */
    sql_insert_t *ins = cm_arena_zalloc(arena, sizeof *ins);
    ins->table = s->create_table->name;
    ins->query = s->create_table->query;
    sql_stmt_t *is = cm_arena_zalloc(arena, sizeof *is);
    is->kind = SQL_STMT_INSERT;
    is->pos = s->pos;
    is->len = s->len;
    is->insert = ins;
    pln_raw_t *raw = cm_arena_zalloc(arena, sizeof *raw);
    raw->stmt = is;
    raw->offset = s->pos;
    raw->length = s->len;
    cm_buf_t name;
    cm_buf_init(&name, 0);
    const sql_list_t *names = s->create_table->name->names;
    for (int i = 0; i < names->count; i++) {
        if (i)
            cm_buf_put_u8(&name, '.');
        sql_deparse_ident(names->items[i], &name);
    }
    *table = cm_arena_strndup(arena, (const char *)name.data, name.len);
    cm_buf_free(&name);
    *create = c;
    *insert = raw;
    return true;
}
