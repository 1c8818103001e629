/*
 * pln_ddl.c: CREATE TABLE / SOURCE (checked in pln_source.c) / VIEW / MATERIALIZED VIEW / INDEX / SCHEMA /
 * DATABASE and DROP as catalog changes. Binding only marks the statement
 * PLN_DDL: like PostgreSQL's utility statements, it is validated when it
 * runs, against the snapshot the commit will be checked against, and again
 * against a newer one when the commit lost a race (pln_ddl_plan). Column
 * types resolve through the types module; a view's query is bound here, so
 * its columns are PostgreSQL's and its dependencies are the relations it
 * read. The catalog validates names and dependencies (cat_plan_*); its
 * create_sql is the statement deparsed with every relation name qualified.
 */
#include "planner/pln_internal.h"

#include <string.h>

bool pln__is_ddl(const sql_stmt_t *s)
{
    switch (s->kind) {
    case SQL_STMT_CREATE_TABLE:
    case SQL_STMT_CREATE_SOURCE:
    case SQL_STMT_CREATE_VIEW:
    case SQL_STMT_CREATE_INDEX:
    case SQL_STMT_CREATE_SCHEMA:
    case SQL_STMT_CREATE_DATABASE:
    case SQL_STMT_DROP:
    case SQL_STMT_ALTER_RENAME:
    case SQL_STMT_GRANT:
        return true;
    default:
        return pln__is_role_stmt(s);
    }
}

bool pln__bind_ddl(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st)
{
    struct pln_ddl *d = cm_arena_zalloc(b->arena, sizeof(*d));
    d->stmt = s;
    st->kind = PLN_DDL;
    st->tag = sql_stmt_name(s);
    /* PostgreSQL tags CREATE TABLE AS with the rows it wrote, unless WITH NO DATA; eddy's can only write none. */
    if (s->kind == SQL_STMT_CREATE_TABLE && s->create_table->query && s->create_table->with_data != 0)
        st->tag = "SELECT 0";
    st->ddl = d;
    return true;
}

bool pln__qname(pln_binder_t *b, const sql_list_t *names, int pos, cat_qname_t *out)
{
    int k = sql_list_len(names);
    const char *const *it = (const char *const *)names->items;
    if (k > 3) {
        cm_buf_t all;
        cm_buf_init(&all, 0);
        for (int i = 0; i < k; i++)
            cm_buf_printf(&all, "%s%s", i ? "." : "", it[i]);
        char *s = cm_arena_strndup(b->arena, (const char *)all.data, all.len);
        cm_buf_free(&all);
        return pln__error(b, pos, CM_ERRCODE_SYNTAX_ERROR, "improper qualified name (too many dotted names): %s", s);
    }
    *out = (cat_qname_t){.database = k == 3 ? it[0] : NULL, .schema = k >= 2 ? it[k - 2] : NULL,
                         .name = it[k - 1]};
    return true;
}

/* ------------------------------------------------------------ helpers */

static sql_list_t *list_of(cm_arena_t *a, int n, const char *const *items)
{
    sql_list_t *l = cm_arena_zalloc(a, sizeof(*l));
    l->items = cm_arena_alloc(a, sizeof(void *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        l->items[i] = (void *)items[i];
    l->count = l->cap = n;
    return l;
}

/* [database.]schema.name of an item; system schemas have no database. */
static sql_list_t *item_names(cm_arena_t *a, const cat_item_t *it)
{
    const char *parts[3];
    int n = 0;
    if (it->schema->database)
        parts[n++] = it->schema->database->name;
    parts[n++] = it->schema->name;
    parts[n++] = it->name;
    return list_of(a, n, parts);
}

/* Where a new item of this name goes: the schema CREATE picks (for create_sql). */
static sql_qname_t *qualified_new(pln_binder_t *b, const sql_qname_t *written, const cat_qname_t *qn)
{
    cm_err_t e = {0};
    const cat_schema_t *sc = cat_resolve_schema(b->cat->snap, &b->cat->search, qn, &e);
    cm_err_clear(&e);
    sql_qname_t *q = cm_arena_zalloc(b->arena, sizeof(*q));
    q->pos = written->pos;
    if (!sc) {
        q->names = written->names;
        return q;
    }
    const char *parts[3];
    int n = 0;
    if (sc->database)
        parts[n++] = sc->database->name;
    parts[n++] = sc->name;
    parts[n++] = qn->name;
    q->names = list_of(b->arena, n, parts);
    return q;
}

static const char *deparse(pln_binder_t *b, const sql_stmt_t *s)
{
    cm_buf_t out;
    cm_buf_init(&out, 0);
    sql_deparse_stmt(s, &out);
    const char *r = cm_arena_strndup(b->arena, out.len ? (const char *)out.data : "", out.len);
    cm_buf_free(&out);
    return r;
}

static cat_id_t *rel_deps(pln_binder_t *b, uint32_t *n)
{
    cat_id_t *deps = cm_arena_alloc(b->arena, sizeof(cat_id_t) * (size_t)(b->nrels ? b->nrels : 1));
    *n = 0;
    for (int i = 0; i < b->nrels; i++) {
        bool seen = false;
        for (uint32_t k = 0; k < *n; k++)
            seen |= deps[k] == b->rel_item[i]->id;
        if (!seen)
            deps[(*n)++] = b->rel_item[i]->id;
    }
    return deps;
}

/* ------------------------------------------------------------ CREATE TABLE */

static cat_column_t *find_column(cat_column_t *cols, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(cols[i].name, name) == 0)
            return &cols[i];
    return NULL;
}

static bool column_default(pln_binder_t *b, const sql_expr_t *e, cat_column_t *col)
{
    /* Bound and coerced as PostgreSQL's cookDefault does, so a default that
     * can never be assigned fails at CREATE; the text kept is a literal as
     * pg_get_expr prints it (pln_default.c), else canonical SQL. A NULL
     * constant is no default, as in PostgreSQL. */
    pln_scope_t none = {0};
    pln_scope_t *saved = b->scope;
    b->scope = &none;
    b->agg_forbidden = "DEFAULT expressions";
    ty_expr_t *x = pln__bind_expr(b, e);
    b->scope = saved;
    if (!x || !pln__coerce(b, x, col->type, col->typmod, PLN_CC_ASSIGNMENT, e->pos) || !pln__fold_literals(b))
        return false;
    cm_buf_t out;
    cm_buf_init(&out, 0);
    bool no_default = false;
    if (!pln__default_text(b, e, col->type, col->typmod, &out, &no_default)) {
        cm_buf_reset(&out);
        sql_deparse_expr(e, &out);
    }
    col->default_sql = no_default ? NULL : cm_arena_strndup(b->arena, (const char *)out.data, out.len);
    cm_buf_free(&out);
    return true;
}

static bool plan_create_table(pln_binder_t *b, const sql_stmt_t *s, cat_change_t *out)
{
    const sql_create_table_t *t = s->create_table;
    if (t->temporary)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "temporary tables are not supported yet");
    if (t->with)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "CREATE TABLE ... WITH options are not supported yet");
    cat_qname_t qn;
    if (!pln__qname(b, t->name->names, t->name->pos, &qn))
        return false;
    if (t->query)
        return pln__plan_create_table_as(b, s, &qn, qualified_new(b, t->name, &qn), out);
    if (t->source)
        return pln__plan_table_from_source(b, s, &qn, qualified_new(b, t->name, &qn), out);
    uint32_t n = (uint32_t)sql_list_len(t->columns);
    cat_column_t *cols = cm_arena_zalloc(b->arena, sizeof(cat_column_t) * (n ? n : 1));
    for (uint32_t i = 0; i < n; i++) {
        const sql_column_def_t *cd = t->columns->items[i];
        cat_column_t *c = &cols[i];
        c->name = cd->name;
        if (!pln__resolve_typename(b, cd->type, &c->type, &c->typmod))
            return false;
        for (int k = 0; k < sql_list_len(cd->constraints); k++) {
            const sql_constraint_t *con = cd->constraints->items[k];
            switch (con->kind) {
            case SQL_CONSTR_NULL:
                c->not_null = false;
                break;
            case SQL_CONSTR_NOT_NULL:
            case SQL_CONSTR_PRIMARY_KEY:
                c->not_null = true;
                break;
            case SQL_CONSTR_DEFAULT:
                if (!column_default(b, con->expr, c))
                    return false;
                break;
            case SQL_CONSTR_UNIQUE:
                break;   /* accepted, kept in create_sql; nothing enforces keys before tables hold rows */
            case SQL_CONSTR_CHECK:
                break;   /* validated and named below, once every column is known */
            }
        }
    }
    for (int k = 0; k < sql_list_len(t->constraints); k++) {
        const sql_constraint_t *con = t->constraints->items[k];
        for (int j = 0; j < sql_list_len(con->columns); j++) {
            const char *name = con->columns->items[j];
            cat_column_t *c = find_column(cols, n, name);
            if (!c)
                return pln__error(b, con->pos, CM_ERRCODE_UNDEFINED_COLUMN, "column \"%s\" named in key does not exist",
                                  name);
            if (con->kind == SQL_CONSTR_PRIMARY_KEY)
                c->not_null = true;
        }
    }
    sql_create_table_t norm = *t;
    norm.if_not_exists = false;
    norm.name = qualified_new(b, t->name, &qn);
    if (!pln__check_constraints(b, qn.name, cols, n, &norm))
        return false;
    sql_stmt_t ns = *s;
    ns.create_table = &norm;
    cat_item_def_t def = {.kind = CAT_ITEM_TABLE, .name = qn, .create_sql = deparse(b, &ns), .columns = cols,
                          .ncolumns = n};
    if (cat_plan_create_item(b->cat->snap, &b->cat->search, &def, t->if_not_exists, out, b->err))
        return true;
    /* transformCreateStmt reports the schema (missing, or no CREATE on it) at the table's name. */
    if ((strcmp(b->err->sqlstate, "42501") == 0 && strncmp(b->err->message, "permission denied for schema", 28) == 0) ||
        strcmp(b->err->sqlstate, "3F000") == 0)
        b->err->position = pln__char_pos(b->sql, t->name->pos);
    return false;
}

/* ------------------------------------------------------------ CREATE SOURCE */

const char *pln__source_create_sql(pln_binder_t *b, const sql_stmt_t *s, const cat_qname_t *qn)
{
    sql_create_source_t norm = *s->create_source;
    norm.if_not_exists = false;
    norm.name = qualified_new(b, s->create_source->name, qn);
    sql_stmt_t ns = *s;
    ns.create_source = &norm;
    return deparse(b, &ns);
}

/* ------------------------------------------------------------ CREATE VIEW */

bool pln__check_column_type(pln_binder_t *b, const char *name, ty_oid_t type)
{
    if (type == TY_RECORD || type == TY_VOID)
        return pln__error(b, -1, "42P16", "column \"%s\" has pseudo-type %s", name, pln__type_name(b, type));
    return true;
}

static bool plan_create_view(pln_binder_t *b, const sql_stmt_t *s, cat_change_t *out)
{
    const sql_create_view_t *v = s->create_view;
    if (v->or_replace && v->if_not_exists)
        return pln__error(b, -1, CM_ERRCODE_SYNTAX_ERROR, "syntax error at or near \"NOT\"");
    if (v->temporary)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "temporary views are not supported yet");
    cat_qname_t qn;
    if (!pln__qname(b, v->name->names, v->name->pos, &qn))
        return false;
    pln_bound_t q;
    /* A materialized view is refused here if the workers cannot maintain its plan. */
    plan_t *mp = NULL;
    b->join_sublinks = v->materialized;
    /* A view's reads are checked when it is used, as its owner's; a materialized view's
     * query runs now, with its creator's rights. */
    b->skip_privileges = !v->materialized;
    if (v->materialized ? !pln__plan_query(b, v->query, NULL, &q, &mp) || !plan_maintainable(mp, b->err)
                        : !pln__bind_select(b, v->query, &q))
        return false;
    if (!pln__raise_denied(b))
        return false;
    if (b->nparams > 0) {
        int pos = b->nparam_nodes ? b->param_nodes[0]->location : -1;
        return pln__error(b, pos, CM_ERRCODE_UNDEFINED_PARAMETER, "there is no parameter $%d",
                          b->nparam_nodes ? b->param_nodes[0]->index + 1 : 1);
    }
    int naliases = sql_list_len(v->columns);
    if (naliases > q.ncols)
        return pln__error(b, -1, CM_ERRCODE_SYNTAX_ERROR, "CREATE VIEW specifies more column names than columns");
    uint32_t n = (uint32_t)q.ncols;
    cat_column_t *cols = cm_arena_zalloc(b->arena, sizeof(cat_column_t) * (n ? n : 1));
    for (uint32_t i = 0; i < n; i++) {
        cols[i].name = (int)i < naliases ? v->columns->items[i] : q.cols[i].name;
        /* PostgreSQL 15 stores an unknown-typed output column of a view as text. */
        cols[i].type = q.cols[i].type == TY_UNKNOWN ? TY_TEXT : q.cols[i].type;
        cols[i].typmod = q.cols[i].type == TY_UNKNOWN ? -1 : q.cols[i].typmod;
        if (!pln__check_column_type(b, cols[i].name, cols[i].type))
            return false;
    }
    uint32_t ndeps;
    cat_id_t *deps = rel_deps(b, &ndeps);
    /* create_sql names every relation fully qualified, so it reads the same under
     * any search_path. The FROM nodes are swapped for the deparse and restored. */
    sql_list_t **saved = cm_arena_alloc(b->arena, sizeof(*saved) * (size_t)(b->nrels ? b->nrels : 1));
    for (int i = 0; i < b->nrels; i++) {
        sql_from_t *f = (sql_from_t *)b->rel_from[i];
        saved[i] = f->names;
        f->names = item_names(b->arena, b->rel_item[i]);
    }
    sql_create_view_t norm = *v;
    norm.if_not_exists = false;
    norm.or_replace = false;   /* what is stored is the definition, as PostgreSQL shows it */
    norm.name = qualified_new(b, v->name, &qn);
    sql_stmt_t ns = *s;
    ns.create_view = &norm;
    const char *create_sql = deparse(b, &ns);
    for (int i = 0; i < b->nrels; i++)
        ((sql_from_t *)b->rel_from[i])->names = saved[i];
    cat_item_def_t def = {.kind = v->materialized ? CAT_ITEM_MATVIEW : CAT_ITEM_VIEW, .name = qn,
                          .create_sql = create_sql, .columns = cols, .ncolumns = n, .deps = deps, .ndeps = ndeps};
    if (v->or_replace) {
        cm_err_t e = {0};
        const cat_schema_t *sc = cat_resolve_schema(b->cat->snap, &b->cat->search, &qn, &e);
        cm_err_clear(&e);
        const cat_item_t *old = sc ? cat_snap_item(b->cat->snap, sc, qn.name) : NULL;
        if (old)
            return pln__plan_replace_view(b, old, &def, out);
    }
    return cat_plan_create_item(b->cat->snap, &b->cat->search, &def, v->if_not_exists, out, b->err);
}

/* ------------------------------------------------------------ CREATE INDEX */

/* PostgreSQL's ChooseRelationName: base_suffix, then base_suffix1, 2, ... until free. */
static const char *choose_index_name(pln_binder_t *b, const cat_item_t *on, const char *middle)
{
    for (int k = 0;; k++) {
        const char *name = k ? cm_arena_printf(b->arena, "%s_%s_idx%d", on->name, middle, k)
                             : cm_arena_printf(b->arena, "%s_%s_idx", on->name, middle);
        if (!cat_snap_item(b->cat->snap, on->schema, name))
            return name;
    }
}

static bool plan_create_index(pln_binder_t *b, const sql_stmt_t *s, cat_change_t *out)
{
    const sql_create_index_t *x = s->create_index;
    cat_qname_t on_qn;
    if (!pln__qname(b, x->on->names, x->on->pos, &on_qn))
        return false;
    const cat_item_t *on = cat_resolve_relation(b->cat->snap, &b->cat->search, &on_qn, b->err);
    if (!on)
        return false;
    if (x->method && strcmp(x->method, "btree") != 0 && strcmp(x->method, "arrangement") != 0)
        return pln__error(b, -1, CM_ERRCODE_UNDEFINED_OBJECT, "access method \"%s\" does not exist", x->method);
    uint32_t n = x->is_default ? on->ncolumns : (uint32_t)sql_list_len(x->keys);
    cat_column_t *cols = cm_arena_zalloc(b->arena, sizeof(cat_column_t) * (n ? n : 1));
    for (uint32_t i = 0; i < n; i++) {
        const cat_column_t *src = NULL;
        if (x->is_default) {
            src = &on->columns[i];
        } else {
            const sql_sort_t *k = x->keys->items[i];
            if (k->expr->kind != SQL_EXPR_COLUMN || k->expr->names->count != 1)
                return pln__error(b, k->expr->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                                  "index keys other than column names are not supported yet");
            const char *name = k->expr->names->items[0];
            for (uint32_t c = 0; c < on->ncolumns && !src; c++)
                if (strcmp(on->columns[c].name, name) == 0)
                    src = &on->columns[c];
            if (!src)
                return pln__error(b, k->expr->pos, CM_ERRCODE_UNDEFINED_COLUMN, "column \"%s\" does not exist", name);
        }
        cols[i] = *src;
        cols[i].default_sql = NULL;
    }
    const char *name = x->name;
    if (!name)
        name = choose_index_name(b, on, x->is_default ? "primary" : n > 0 ? cols[0].name : "expr");
    sql_create_index_t norm = *x;
    norm.if_not_exists = false;
    norm.name = x->is_default ? NULL : name;   /* CREATE DEFAULT INDEX takes no name */
    norm.on = cm_arena_zalloc(b->arena, sizeof(sql_qname_t));
    norm.on->pos = x->on->pos;
    norm.on->names = item_names(b->arena, on);
    sql_stmt_t ns = *s;
    ns.create_index = &norm;
    cat_id_t dep = on->id;
    cat_item_def_t def = {.kind = CAT_ITEM_INDEX, .name = {.schema = on->schema->name, .name = name},
                          .create_sql = deparse(b, &ns), .columns = cols, .ncolumns = n, .deps = &dep, .ndeps = 1};
    return cat_plan_create_item(b->cat->snap, &b->cat->search, &def, x->if_not_exists, out, b->err);
}

/* ------------------------------------------------------------ DROP */

static bool plan_drop(pln_binder_t *b, const sql_stmt_t *s, cat_change_t *out)
{
    const sql_drop_t *d = s->drop;
    int n = sql_list_len(d->names);
    bool cascade = d->behavior == SQL_DROP_CASCADE;
    cat_qname_t *qns = cm_arena_zalloc(b->arena, sizeof(cat_qname_t) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        const sql_qname_t *q = d->names->items[i];
        if (!pln__qname(b, q->names, q->pos, &qns[i]))
            return false;
    }
    const cat_snap_t *snap = b->cat->snap;
    switch (d->object) {
    case SQL_OBJ_DATABASE: {
        const char **names = cm_arena_alloc(b->arena, sizeof(char *) * (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++)
            names[i] = qns[i].name;
        return cat_plan_drop_databases(snap, &b->cat->search, names, (size_t)n, d->if_exists, out, b->err);
    }
    case SQL_OBJ_SCHEMA:
        for (int i = 0; i < n; i++)
            qns[i] = (cat_qname_t){.database = qns[i].schema, .schema = qns[i].name};
        return cat_plan_drop_schemas(snap, &b->cat->search, qns, (size_t)n, d->if_exists, cascade, out, b->err);
    case SQL_OBJ_TABLE:
    case SQL_OBJ_SOURCE:
    case SQL_OBJ_VIEW:
    case SQL_OBJ_MATERIALIZED_VIEW:
    case SQL_OBJ_INDEX: {
        static const cat_item_kind_t kinds[] = {CAT_ITEM_TABLE, CAT_ITEM_SOURCE, CAT_ITEM_VIEW, CAT_ITEM_MATVIEW,
                                                CAT_ITEM_INDEX};
        return cat_plan_drop_items(snap, &b->cat->search, kinds[d->object], qns, (size_t)n, d->if_exists, cascade,
                                   out, b->err);
    }
    case SQL_OBJ_OBJECT:
        break;
    }
    return pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "unexpected DROP object %d", (int)d->object);
}

/* ------------------------------------------------------------ entry */

bool pln_ddl_plan(cm_arena_t *arena, const pln_stmt_t *st, const char *sql, const ty_settings_t *settings,
                  const pln_catalog_t *cat, cat_change_t *out, cm_err_t *err)
{
    CM_ASSERT(st->kind == PLN_DDL && st->ddl != NULL);
    if (!cat || !cat->snap)
        return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "%s needs a catalog", st->tag);
    pln_binder_t b = {.arena = arena, .sql = sql, .sql_len = sql ? strlen(sql) : 0, .err = err, .cat = cat};
    if (settings) {
        b.settings = *settings;
        b.settings_known = true;
    } else {
        ty_settings_default(&b.settings);
    }
    b.ctx.arena = arena;
    b.ctx.settings = &b.settings;
    b.ctx.err = err;
    pln__ctx_catalog(&b.ctx, cat);
    const sql_stmt_t *s = st->ddl->stmt;
    switch (s->kind) {
    case SQL_STMT_CREATE_TABLE:
        return plan_create_table(&b, s, out);
    case SQL_STMT_CREATE_SOURCE:
        return pln__plan_create_source(&b, s, out);
    case SQL_STMT_CREATE_VIEW:
        return plan_create_view(&b, s, out);
    case SQL_STMT_CREATE_INDEX:
        return plan_create_index(&b, s, out);
    case SQL_STMT_CREATE_SCHEMA: {
        cat_qname_t qn;
        if (!pln__qname(&b, s->create_schema->name->names, s->create_schema->name->pos, &qn))
            return false;
        qn = (cat_qname_t){.database = qn.schema, .schema = qn.name};
        return cat_plan_create_schema(cat->snap, &cat->search, &qn, s->create_schema->if_not_exists, out, err);
    }
    case SQL_STMT_CREATE_DATABASE: {
        const sql_list_t *names = s->create_schema->name->names;
        return cat_plan_create_database(cat->snap, &cat->search, names->items[names->count - 1], s->create_schema->if_not_exists,
                                        out, err);
    }
    case SQL_STMT_DROP:
        return plan_drop(&b, s, out);
    case SQL_STMT_ALTER_RENAME:
        return pln__plan_rename(&b, s, out);
    case SQL_STMT_GRANT:
        return pln__plan_grant(&b, s, out);
    default:
        if (pln__is_role_stmt(s))
            return pln__plan_role(&b, s, out);
        break;
    }
    return pln__error(&b, -1, CM_ERRCODE_INTERNAL_ERROR, "unexpected DDL statement %d", (int)s->kind);
}
