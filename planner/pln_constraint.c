/*
 * pln_constraint.c: a table's PRIMARY KEY, UNIQUE and CHECK constraints as
 * pg_constraint shows them, read back from its stored CREATE TABLE (the
 * catalog keeps constraints only there), and the session relation
 * eddy_catalog.constraints that the pg_catalog views read.
 *
 * Names: CHECK names are in the stored text already (pln_check.c); a
 * PRIMARY KEY or UNIQUE without a CONSTRAINT name gets PostgreSQL's
 * <table>_pkey / <table>_<columns>_key, with 1, 2, ... appended while
 * another constraint of the table has the name. (PostgreSQL also steps
 * around relations of the schema with that name; eddy does not, so that the
 * names depend on the table alone and never change.)
 *
 * OIDs: PostgreSQL keeps OIDs unique per system catalog, and so does eddy.
 * An item's OID is a multiple of 4 and the 3 above it are never an item's
 * (catalog: 16384 + 4 * (index - 1) + slot, slot 0 for items), so the
 * indexes behind a table's first three PRIMARY KEY / UNIQUE constraints
 * take the table's OID + 1, + 2, + 3 in pg_class (any further ones have no
 * index row); the k-th constraint (k < 8) is (table OID / 4) * 8 + k in
 * pg_constraint, and a table's constraints past the eighth are not listed.
 */
#include "planner/pln_internal.h"

#include <string.h>

#define PLN_CONSTRAINTS_MAX 8       /* listed per table (the OID scheme above) */
#define PLN_CONSTRAINT_INDEXES_MAX 3

static int attnum_of(const cat_item_t *t, const char *name)
{
    for (uint32_t c = 0; c < t->ncolumns; c++)
        if (strcmp(t->columns[c].name, name) == 0)
            return (int)c + 1;
    return 0;
}

static bool taken(const pln_constraint_t *cs, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (cs[i].name && strcmp(cs[i].name, name) == 0)
            return true;
    return false;
}

/* PostgreSQL's ChooseRelationName over the table's own constraint names. */
static const char *index_name(cm_arena_t *a, const cat_item_t *t, const pln_constraint_t *c, const pln_constraint_t *cs,
                              int n)
{
    const char *label = c->type == 'p' ? "pkey" : "key";
    const char *cols = NULL;
    if (c->type == 'u') {
        cm_buf_t b;
        cm_buf_init(&b, 0);
        for (int k = 0; k < c->nkeys; k++) {
            if (k)
                cm_buf_put_u8(&b, '_');
            int at = c->keys[k];
            cm_buf_put_str(&b, at > 0 ? t->columns[at - 1].name : "expr");
        }
        cols = cm_arena_strndup(a, (const char *)b.data, b.len);
        cm_buf_free(&b);
    }
    for (int pass = 0;; pass++) {
        const char *l = pass ? cm_arena_printf(a, "%s%d", label, pass) : label;
        const char *name = pln__object_name(a, t->name, cols, l);
        if (!taken(cs, n, name))
            return name;
    }
}

static void add_keys(cm_arena_t *a, const cat_item_t *t, pln_constraint_t *c, const sql_list_t *names,
                     const char *column)
{
    int n = column ? 1 : sql_list_len(names);
    c->keys = cm_arena_zalloc(a, sizeof(int16_t) * (size_t)(n ? n : 1));
    c->nkeys = n;
    for (int k = 0; k < n; k++)
        c->keys[k] = (int16_t)attnum_of(t, column ? column : (const char *)names->items[k]);
}

/* The columns a CHECK reads, each once, in the order PostgreSQL's pull_var_clause meets them
 * (operands left to right, a CASE's subject, branches, then ELSE), as conkey records them. */
static void check_keys(const cat_item_t *t, const sql_expr_t *e, pln_constraint_t *c)
{
    if (e == NULL)
        return;
    if (e->kind == SQL_EXPR_COLUMN && !e->star) {
        int at = attnum_of(t, e->names->items[e->names->count - 1]);
        for (int k = 0; k < c->nkeys; k++)
            if (c->keys[k] == at)
                return;
        if (at > 0 && c->nkeys < (int)t->ncolumns)
            c->keys[c->nkeys++] = (int16_t)at;
        return;
    }
    check_keys(t, e->arg, c);
    check_keys(t, e->left, c);
    check_keys(t, e->right, c);
    for (int i = 0; e->kind != SQL_EXPR_SUBQUERY && i < sql_list_len(e->args); i++)
        check_keys(t, e->args->items[i], c);
    check_keys(t, e->def, c);
}

static void definition(cm_arena_t *a, const cat_item_t *t, pln_constraint_t *c, const sql_expr_t *check)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    if (c->type == 'c') {
        /* The deparsed condition is parenthesised, as PostgreSQL prints CHECK ((a > 0)). */
        cm_buf_put_str(&b, "CHECK (");
        sql_deparse_expr(check, &b);
        cm_buf_put_u8(&b, ')');
    } else {
        cm_buf_put_str(&b, c->type == 'p' ? "PRIMARY KEY (" : "UNIQUE (");
        for (int k = 0; k < c->nkeys; k++) {
            if (k)
                cm_buf_put_str(&b, ", ");
            sql_deparse_ident(c->keys[k] > 0 ? t->columns[c->keys[k] - 1].name : "?", &b);
        }
        cm_buf_put_u8(&b, ')');
    }
    c->definition = cm_arena_strndup(a, (const char *)b.data, b.len);
    cm_buf_free(&b);
}

static void add(cm_arena_t *a, const cat_item_t *t, pln_constraint_t *cs, int *n, const sql_constraint_t *con,
                const char *column)
{
    if (con->kind != SQL_CONSTR_PRIMARY_KEY && con->kind != SQL_CONSTR_UNIQUE && con->kind != SQL_CONSTR_CHECK)
        return;
    if (*n == PLN_CONSTRAINTS_MAX)
        return;
    pln_constraint_t *c = &cs[*n];
    memset(c, 0, sizeof *c);
    c->type = con->kind == SQL_CONSTR_PRIMARY_KEY ? 'p' : con->kind == SQL_CONSTR_UNIQUE ? 'u' : 'c';
    if (c->type != 'c') {
        add_keys(a, t, c, con->columns, column);
    } else {
        c->keys = cm_arena_zalloc(a, sizeof(int16_t) * (size_t)(t->ncolumns ? t->ncolumns : 1));
        check_keys(t, con->expr, c);
    }
    c->name = con->name ? con->name : c->type == 'c' ? "?" : index_name(a, t, c, cs, *n);
    definition(a, t, c, con->expr);
    c->expr = c->type == 'c' ? con->expr : NULL;
    c->oid = (t->oid / 4) * 8 + (uint32_t)*n;
    (*n)++;
}

int pln__constraints_of(const cat_item_t *t, cm_arena_t *a, pln_constraint_t **out)
{
    *out = NULL;
    if (t->kind != CAT_ITEM_TABLE || t->oid % 4 != 0 || cat_id_is_system(t->id) || t->create_sql == NULL)
        return 0;
    /* The stored text spells keywords in upper case: most tables need no parse. */
    if (!strstr(t->create_sql, "PRIMARY KEY") && !strstr(t->create_sql, "UNIQUE") && !strstr(t->create_sql, "CHECK"))
        return 0;
    sql_stmt_list_t stmts;
    cm_err_t err = {0};
    if (!sql_parse(a, t->create_sql, strlen(t->create_sql), &stmts, &err) || stmts.count != 1 ||
        stmts.items[0]->kind != SQL_STMT_CREATE_TABLE) {
        cm_err_clear(&err);
        return 0;   /* a stored text this build cannot read shows no constraints rather than failing */
    }
    const sql_create_table_t *ct = stmts.items[0]->create_table;
    pln_constraint_t *cs = cm_arena_zalloc(a, sizeof *cs * PLN_CONSTRAINTS_MAX);
    int n = 0;
    /* Column constraints first, then the table's: the order PostgreSQL creates them in. */
    for (int i = 0; i < sql_list_len(ct->columns); i++) {
        const sql_column_def_t *cd = ct->columns->items[i];
        for (int k = 0; k < sql_list_len(cd->constraints); k++)
            add(a, t, cs, &n, cd->constraints->items[k], cd->name);
    }
    for (int k = 0; k < sql_list_len(ct->constraints); k++)
        add(a, t, cs, &n, ct->constraints->items[k], NULL);
    int slot = 0;
    for (int i = 0; i < n; i++)
        if (cs[i].type != 'c' && slot < PLN_CONSTRAINT_INDEXES_MAX)
            cs[i].index_oid = t->oid + (uint32_t)++slot;
    *out = cs;
    return n;
}

const pln_constraint_t *pln__constraint_by_oid(const cat_snap_t *s, uint32_t oid, bool index, cm_arena_t *a,
                                               const cat_item_t **table)
{
    uint32_t table_oid = index ? oid & ~3u : (oid / 8) * 4;
    const cat_item_t *t = (index && oid % 4 == 0) ? NULL : cat_snap_item_by_oid(s, table_oid);
    pln_constraint_t *cs;
    int n = t ? pln__constraints_of(t, a, &cs) : 0;
    for (int i = 0; i < n; i++)
        if (index ? cs[i].index_oid == oid : cs[i].oid == oid) {
            *table = t;
            return &cs[i];
        }
    return NULL;
}

bool pln_constraint_rows(const cat_snap_t *s, int ncols, cm_arena_t *arena, ty_datum_t ***rows, int *nrows,
                         cm_err_t *err)
{
    if (ncols != 8)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "eddy_catalog.constraints has 8 columns, not %d", ncols);
    int cap = 16, n = 0;
    ty_datum_t **out = cm_arena_alloc(arena, sizeof *out * (size_t)cap);
    const cat_item_t *t;
    for (size_t i = 0; (t = cat_snap_item_at(s, i)); i++) {
        pln_constraint_t *cs;
        int nc = pln__constraints_of(t, arena, &cs);
        for (int k = 0; k < nc; k++) {
            if (n == cap) {
                ty_datum_t **grown = cm_arena_alloc(arena, sizeof *out * (size_t)(cap *= 2));
                memcpy(grown, out, sizeof *out * (size_t)n);
                out = grown;
            }
            const pln_constraint_t *c = &cs[k];
            ty_datum_t *r = cm_arena_zalloc(arena, sizeof *r * 8);
            ty_datum_t *keys = cm_arena_zalloc(arena, sizeof *keys * (size_t)(c->nkeys ? c->nkeys : 1));
            for (int j = 0; j < c->nkeys; j++)
                keys[j].v.i = c->keys[j];
            r[0].v.i = (int64_t)t->id;
            r[1].v.i = k + 1;
            r[2] = (ty_datum_t){.v.s = {.p = c->name, .len = (uint32_t)strlen(c->name)}};
            r[3] = (ty_datum_t){.v.s = {.p = cm_arena_strndup(arena, &c->type, 1), .len = 1}};
            if (c->nkeys == 0)   /* a CHECK that reads no column */
                r[4].isnull = true;
            else
                r[4] = ty_array_make(arena, TY_INT2, keys, c->nkeys);
            r[5] = (ty_datum_t){.v.s = {.p = c->definition, .len = (uint32_t)strlen(c->definition)}};
            r[6].v.i = c->oid;
            r[7].v.i = c->index_oid;
            out[n++] = r;
        }
    }
    *rows = out;
    *nrows = n;
    return true;
}

void pln__item_keys(cm_arena_t *a, const cat_item_t *table, int *n, int **cols)
{
    *n = 0;
    *cols = NULL;
    pln_constraint_t *cs;
    int nc = pln__constraints_of(table, a, &cs);
    const pln_constraint_t *key = NULL;
    for (int i = 0; i < nc && !key; i++)
        if (cs[i].type == 'p')
            key = &cs[i];
    for (int i = 0; i < nc && !key; i++)
        if (cs[i].type == 'u')
            key = &cs[i];
    if (!key || key->nkeys == 0)
        return;
    *cols = cm_arena_alloc(a, sizeof(int) * (size_t)key->nkeys);
    for (int i = 0; i < key->nkeys; i++)
        (*cols)[i] = key->keys[i] - 1;
    *n = key->nkeys;
}
