/*
 * pln_catfn.c: ty_ctx_t.catalog_fn over a session's catalog (pln_catalog_t):
 * regclass and regnamespace input and output, pg_table_is_visible,
 * pg_relation_is_publishable, pg_get_indexdef, pg_get_viewdef,
 * current_schemas and current_schema. The server installs
 * it for every statement it runs and the binder for the constants it folds,
 * so '"My Table"'::regclass and c.oid::regclass read the same catalog that
 * FROM does.
 */
#include "planner/pln_internal.h"

#include <string.h>

/* The most schemas current_schemas() lists (search_path entries are few). */
#define PLN_CATFN_PATH_MAX 64

static bool text_out(ty_ctx_t *ctx, const char *s, size_t len, ty_datum_t *out)
{
    char *copy = cm_arena_strndup(ctx->arena, s, len);
    out->v.s.p = copy;
    out->v.s.len = (uint32_t)len;
    return true;
}

/*
 * Splits "a.b.c" into at most three identifiers as stringToQualifiedNameList
 * does: unquoted parts are lower-cased, "" inside quotes is a quote. false
 * with 42602 for a malformed name.
 */
static bool split_name(ty_ctx_t *ctx, const char *p, size_t len, char **parts, int *nparts)
{
    size_t i = 0;
    *nparts = 0;
    while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n'))
        i++;
    for (;;) {
        if (*nparts == 3) {
            return cm_err_set(ctx->err, "42601", "improper relation name (too many dotted names): %.*s", (int)len,
                              p);
        }
        char *part = cm_arena_alloc(ctx->arena, len + 1);
        size_t n = 0;
        if (i < len && p[i] == '"') {
            for (i++;; i++) {
                if (i >= len)
                    goto bad;
                if (p[i] == '"') {
                    if (i + 1 < len && p[i + 1] == '"') {
                        part[n++] = '"';
                        i++;
                        continue;
                    }
                    i++;
                    break;
                }
                part[n++] = p[i];
            }
            if (n == 0)
                goto bad;
        } else {
            while (i < len && p[i] != '.' && p[i] != ' ' && p[i] != '\t' && p[i] != '\n') {
                char ch = p[i++];
                part[n++] = (ch >= 'A' && ch <= 'Z') ? (char)(ch - 'A' + 'a') : ch;
            }
            if (n == 0)
                goto bad;
        }
        part[n] = '\0';
        parts[(*nparts)++] = part;
        while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n'))
            i++;
        if (i == len)
            return true;
        if (p[i] != '.')
            goto bad;
        i++;
        while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n'))
            i++;
    }
bad:
    return cm_err_set(ctx->err, "42602", "invalid name syntax");
}

/* The OID of the index behind a PRIMARY KEY or UNIQUE constraint named qn, where the search path (or
 * qn's schema) finds it first; 0: none. Reads every table's constraints: a rare lookup. */
static uint32_t constraint_index_named(const pln_catalog_t *cat, ty_ctx_t *ctx, const cat_qname_t *qn)
{
    const cat_schema_t *path[PLN_CATFN_PATH_MAX];
    size_t np;
    if (qn->schema) {
        const cat_database_t *db = cat->search.database ? cat_snap_database(cat->snap, cat->search.database) : NULL;
        path[0] = cat_snap_schema(cat->snap, db, qn->schema);
        np = path[0] ? 1 : 0;
    } else {
        np = cat_search_schemas(cat->snap, &cat->search, true, path, PLN_CATFN_PATH_MAX);
    }
    for (size_t p = 0; p < np; p++) {
        const cat_item_t *t;
        for (size_t i = 0; (t = cat_snap_item_at(cat->snap, i)); i++) {
            if (t->schema != path[p] || t->kind != CAT_ITEM_TABLE)
                continue;
            pln_constraint_t *cs;
            int n = pln__constraints_of(t, ctx->arena, &cs);
            for (int k = 0; k < n; k++)
                if (cs[k].index_oid != 0 && strcmp(cs[k].name, qn->name) == 0)
                    return cs[k].index_oid;
        }
    }
    return 0;
}

bool pln__regclass_in(const pln_catalog_t *cat, ty_ctx_t *ctx, const ty_datum_t *name, ty_datum_t *out)
{
    char *parts[3];
    int n;
    if (!split_name(ctx, name->v.s.p, name->v.s.len, parts, &n))
        return false;
    cat_qname_t qn = {.database = n == 3 ? parts[0] : NULL, .schema = n >= 2 ? parts[n - 2] : NULL,
                      .name = parts[n - 1]};
    uint32_t oid = pln__catview_oid(cat, &qn);
    if (oid != 0) {
        out->v.i = oid;
        return true;
    }
    const cat_item_t *it = cat->snap ? cat_resolve_item(cat->snap, &cat->search, &qn, ctx->err) : NULL;
    if (it == NULL && cat->snap && (oid = constraint_index_named(cat, ctx, &qn)) != 0) {
        cm_err_clear(ctx->err);
        out->v.i = oid;
        return true;
    }
    if (it == NULL) {
        if (!ctx->err->set)
            cm_err_set(ctx->err, "42P01", "relation \"%.*s\" does not exist", (int)name->v.s.len, name->v.s.p);
        return false;
    }
    out->v.i = it->oid;
    return true;
}

static bool regclass_out(const pln_catalog_t *cat, ty_ctx_t *ctx, uint32_t oid, ty_datum_t *out)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    const cat_item_t *it = cat->snap ? cat_snap_item_by_oid(cat->snap, oid) : NULL, *table = NULL;
    const pln_constraint_t *con;
    if (it != NULL) {
        if (!cat_item_visible(cat->snap, &cat->search, it)) {
            cat_quote_ident(it->schema->name, &b);
            cm_buf_put_u8(&b, '.');
        }
        cat_quote_ident(it->name, &b);
    } else if (oid == 0) {
        cm_buf_put_u8(&b, '-');   /* regclassout prints InvalidOid as "-" */
    } else if (cat->snap && (con = pln__constraint_by_oid(cat->snap, oid, true, ctx->arena, &table))) {
        if (!cat_item_visible(cat->snap, &cat->search, table)) {
            cat_quote_ident(table->schema->name, &b);
            cm_buf_put_u8(&b, '.');
        }
        cat_quote_ident(con->name, &b);
    } else if (!pln__catview_name(oid, &b)) {
        cm_buf_free(&b);
        out->isnull = true;
        return true;
    }
    text_out(ctx, (const char *)b.data, b.len, out);
    cm_buf_free(&b);
    return true;
}

/* The schema with this OID that the session's database sees (its own or a system one), or NULL. */
const cat_schema_t *pln__schema_by_oid(const pln_catalog_t *cat, uint32_t oid)
{
    const cat_schema_t *sc;
    for (size_t i = 0; cat->snap && (sc = cat_snap_schema_at(cat->snap, i)); i++)
        if (sc->oid == oid && (sc->database == NULL || (cat->search.database != NULL &&
                                                         strcmp(sc->database->name, cat->search.database) == 0)))
            return sc;
    return NULL;
}

/* regnamespacein: one identifier, as SQL writes it. */
static bool regnamespace_in(const pln_catalog_t *cat, ty_ctx_t *ctx, const ty_datum_t *name, ty_datum_t *out)
{
    char *parts[3];
    int n;
    if (!split_name(ctx, name->v.s.p, name->v.s.len, parts, &n))
        return false;
    if (n != 1)
        return cm_err_set(ctx->err, "42602", "invalid name syntax");
    const cat_database_t *db =
        cat->snap && cat->search.database ? cat_snap_database(cat->snap, cat->search.database) : NULL;
    const cat_schema_t *sc = cat->snap ? cat_snap_schema(cat->snap, db, parts[0]) : NULL;
    if (sc == NULL)
        return cm_err_set(ctx->err, "3F000", "schema \"%s\" does not exist", parts[0]);
    out->v.i = sc->oid;
    return true;
}

/* regnamespaceout: the name, quoted as an identifier, "-" for 0; NULL (the number is printed) for an unknown OID. */
static bool regnamespace_out(const pln_catalog_t *cat, ty_ctx_t *ctx, uint32_t oid, ty_datum_t *out)
{
    const cat_schema_t *sc = pln__schema_by_oid(cat, oid);
    if (oid == 0)
        return text_out(ctx, "-", 1, out);
    if (sc == NULL) {
        out->isnull = true;
        return true;
    }
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cat_quote_ident(sc->name, &b);
    text_out(ctx, (const char *)b.data, b.len, out);
    cm_buf_free(&b);
    return true;
}

/*
 * pg_get_indexdef(index, column, pretty) in PostgreSQL's form: column 0 is
 * "CREATE [UNIQUE] INDEX i ON s.t USING btree (a, b)", which psql cuts at
 * " USING " for \d (pretty: the table qualified only where the search path
 * does not find it), column k the k-th key's name, '' past the last one; for
 * an index of eddy's (its key columns as the catalog names them) or one
 * behind a PRIMARY KEY or UNIQUE constraint.
 */
static bool indexdef(const pln_catalog_t *cat, ty_ctx_t *ctx, uint32_t oid, int column, bool pretty, ty_datum_t *out)
{
    const cat_item_t *it = cat_snap_item_by_oid(cat->snap, oid), *table = NULL;
    const pln_constraint_t *con = NULL;
    if (it != NULL && it->kind == CAT_ITEM_INDEX)
        table = it->ndeps > 0 ? cat_snap_item_by_id(cat->snap, it->deps[0]) : NULL;
    else if (it == NULL)
        con = pln__constraint_by_oid(cat->snap, oid, true, ctx->arena, &table);
    if (table == NULL) {
        out->isnull = true;
        return true;
    }
    int nkeys = con ? con->nkeys : (int)it->ncolumns;
    cm_buf_t b;
    cm_buf_init(&b, 0);
    for (int k = 0; k < nkeys; k++) {
        if (column > 0 && k != column - 1)
            continue;
        if (column == 0 && k == 0) {
            cm_buf_put_str(&b, con ? "CREATE UNIQUE INDEX " : "CREATE INDEX ");
            cat_quote_ident(con ? con->name : it->name, &b);
            cm_buf_put_str(&b, " ON ");
            if (!pretty || !cat_item_visible(cat->snap, &cat->search, table)) {
                cat_quote_ident(table->schema->name, &b);
                cm_buf_put_u8(&b, '.');
            }
            cat_quote_ident(table->name, &b);
            cm_buf_put_str(&b, " USING btree (");
        } else if (column == 0) {
            cm_buf_put_str(&b, ", ");
        }
        int at = con ? con->keys[k] : 0;
        cat_quote_ident(con ? (at > 0 ? table->columns[at - 1].name : "?") : it->columns[k].name, &b);
        if (column == 0 && k == nkeys - 1)
            cm_buf_put_u8(&b, ')');
    }
    text_out(ctx, (const char *)b.data, b.len, out);
    cm_buf_free(&b);
    return true;
}

/* pg_get_viewdef: the view's query as eddy normalizes it, with PostgreSQL's leading space and ';'. */
static bool viewdef(const cat_item_t *it, ty_ctx_t *ctx, ty_datum_t *out)
{
    sql_stmt_list_t stmts;
    cm_err_t err = {0};
    if (!sql_parse(ctx->arena, it->create_sql, strlen(it->create_sql), &stmts, &err) || stmts.count != 1 ||
        stmts.items[0]->kind != SQL_STMT_CREATE_VIEW) {
        cm_err_clear(&err);
        out->isnull = true;
        return true;
    }
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cm_buf_put_u8(&b, ' ');
    sql_deparse_select(stmts.items[0]->create_view->query, &b);
    cm_buf_put_u8(&b, ';');
    text_out(ctx, (const char *)b.data, b.len, out);
    cm_buf_free(&b);
    return true;
}

static bool schemas(const pln_catalog_t *cat, ty_ctx_t *ctx, bool implicit, ty_datum_t *out)
{
    const cat_schema_t *path[PLN_CATFN_PATH_MAX];
    size_t n = cat->snap ? cat_search_schemas(cat->snap, &cat->search, implicit, path, PLN_CATFN_PATH_MAX) : 0;
    ty_datum_t *items = cm_arena_zalloc(ctx->arena, sizeof *items * (n ? n : 1));
    for (size_t i = 0; i < n; i++)
        text_out(ctx, path[i]->name, strlen(path[i]->name), &items[i]);
    *out = ty_array_make(ctx->arena, TY_NAME, items, (int)n);
    return true;
}

bool pln_catalog_fn(void *arg, int fn, const ty_datum_t *args, int nargs, ty_ctx_t *ctx, ty_datum_t *out)
{
    const pln_catalog_t *cat = arg;
    const cat_item_t *it = NULL;
    if (fn == TY_CATFN_TABLE_IS_VISIBLE || fn == TY_CATFN_INDEXDEF || fn == TY_CATFN_VIEWDEF ||
        fn == TY_CATFN_PUBLISHABLE)
        it = cat->snap ? cat_snap_item_by_oid(cat->snap, (uint32_t)args[0].v.i) : NULL;
    switch ((ty_catfn_t)fn) {
    case TY_CATFN_REGCLASS_IN:
        return pln__regclass_in(cat, ctx, &args[0], out);
    case TY_CATFN_REGCLASS_OUT:
        return regclass_out(cat, ctx, (uint32_t)args[0].v.i, out);
    case TY_CATFN_TABLE_IS_VISIBLE:
        if (it == NULL) {
            /* pg_catalog's own relations are always searched first; a constraint's index is
             * visible where its table is (eddy keeps their names apart from relations'). */
            const cat_item_t *table;
            if (pln__catview_name((uint32_t)args[0].v.i, NULL))
                out->v.b = true;
            else if (cat->snap && pln__constraint_by_oid(cat->snap, (uint32_t)args[0].v.i, true, ctx->arena, &table))
                out->v.b = cat_item_visible(cat->snap, &cat->search, table);
            else
                out->isnull = true;
            return true;
        }
        out->v.b = cat_item_visible(cat->snap, &cat->search, it);
        return true;
    case TY_CATFN_INDEXDEF:
        if (cat->snap == NULL) {
            out->isnull = true;
            return true;
        }
        return indexdef(cat, ctx, (uint32_t)args[0].v.i, nargs > 1 ? (int)args[1].v.i : 0, nargs > 2 && args[2].v.b,
                        out);
    case TY_CATFN_PUBLISHABLE:
        /* PostgreSQL's is_publishable_class: a user's table; eddy's catalog relations and a constraint's index are not. */
        if (it == NULL) {
            const cat_item_t *table;
            if (pln__catview_name((uint32_t)args[0].v.i, NULL) ||
                (cat->snap && pln__constraint_by_oid(cat->snap, (uint32_t)args[0].v.i, true, ctx->arena, &table)))
                out->v.b = false;
            else
                out->isnull = true;
            return true;
        }
        out->v.b = it->kind == CAT_ITEM_TABLE && !cat_id_is_system(it->id);
        return true;
    case TY_CATFN_KEYWORD: {
        const char *word;
        sql_kw_category_t kc;
        bool bare;
        if (args[0].v.i < 0 || !sql_keyword_at((size_t)args[0].v.i, &word, &kc, &bare)) {
            out->isnull = true;
            return true;
        }
        static const char codes[] = {[SQL_KW_UNRESERVED] = 'U', [SQL_KW_COL_NAME] = 'C',
                                     [SQL_KW_TYPE_FUNC_NAME] = 'T', [SQL_KW_RESERVED] = 'R'};
        char *t = cm_arena_printf(ctx->arena, "%c%c%s", codes[kc], bare ? 'B' : 'A', word);
        return text_out(ctx, t, strlen(t), out);
    }
    case TY_CATFN_REGNAMESPACE_IN:
        return regnamespace_in(cat, ctx, &args[0], out);
    case TY_CATFN_REGNAMESPACE_OUT:
        return regnamespace_out(cat, ctx, (uint32_t)args[0].v.i, out);
    case TY_CATFN_CONSTRAINTDEF: {
        const cat_item_t *table;
        const pln_constraint_t *con =
            cat->snap ? pln__constraint_by_oid(cat->snap, (uint32_t)args[0].v.i, false, ctx->arena, &table) : NULL;
        if (con == NULL) {
            out->isnull = true;
            return true;
        }
        return text_out(ctx, con->definition, strlen(con->definition), out);
    }
    case TY_CATFN_VIEWDEF:
        /* eddy_internal's views are computed by the server itself: they have no SQL to show. */
        if (it == NULL || (it->kind != CAT_ITEM_VIEW && it->kind != CAT_ITEM_MATVIEW) || cat_id_is_system(it->id)) {
            out->isnull = true;
            return true;
        }
        return viewdef(it, ctx, out);
    case TY_CATFN_CURRENT_SCHEMAS:
        return schemas(cat, ctx, args[0].v.b, out);
    case TY_CATFN_PRIVILEGE:
        return pln__has_privilege(cat, ctx, args, out);
    case TY_CATFN_USERBYID: {
        uint32_t oid = (uint32_t)args[0].v.i;
        const cat_role_t *r = cat->snap && oid != CAT_BOOTSTRAP_OID ? cat_snap_role_by_oid(cat->snap, oid) : NULL;
        const char *name = r ? r->name
                           : oid == CAT_BOOTSTRAP_OID && cat->snap ? cat_bootstrap_name(cat->snap, &cat->search)
                           : oid == CAT_BOOTSTRAP_OID && ctx->user ? ctx->user
                                                                   : cm_arena_printf(ctx->arena, "unknown (OID=%u)", oid);
        return text_out(ctx, name, strlen(name), out);
    }
    case TY_CATFN_CURRENT_SCHEMA: {
        const cat_schema_t *first;
        if (!cat->snap || cat_search_schemas(cat->snap, &cat->search, false, &first, 1) == 0) {
            out->isnull = true;
            return true;
        }
        return text_out(ctx, first->name, strlen(first->name), out);
    }
    }
    return cm_err_set(ctx->err, CM_ERRCODE_INTERNAL_ERROR, "unknown catalog function %d", fn);
}

void pln__ctx_catalog(ty_ctx_t *ctx, const pln_catalog_t *cat)
{
    if (cat == NULL)
        return;
    ctx->catalog_fn = pln_catalog_fn;
    ctx->catalog_arg = (void *)cat;   /* read only: the function takes the catalog as const */
}
