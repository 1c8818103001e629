/*
 * test_catalog_builtin.c: the eddy_catalog relations: their columns, and
 * rows produced from a snapshot that match what the DDL did.
 */
#include <stdio.h>

#include "tests/unit/test_catalog_helpers.h"

static const cat_item_t *rel(tc_t *t, const char *name)
{
    const cat_schema_t *sc = cat_snap_schema(t->snap, NULL, "eddy_catalog");
    return cat_snap_item(t->snap, sc, name);
}

static bool text_is(const ty_datum_t *d, const char *s)
{
    return !d->isnull && d->v.s.len == strlen(s) && memcmp(d->v.s.p, s, d->v.s.len) == 0;
}

static size_t rows(tc_t *t, const char *name, cm_arena_t *a, cat_rows_t *out)
{
    memset(out, 0, sizeof(*out));
    cm_err_t err = {0};
    UNIT_CHECK(cat_builtin_rows(t->snap, NULL, rel(t, name), a, out, &err));
    cm_err_clear(&err);
    return out->nrows;
}

static void test_relations_and_columns(void)
{
    tc_t t;
    tc_init(&t);
    /* eddy_catalog's own relations first (their OIDs are fixed), then those whose rows a session answers. */
    const char *names[] = {"databases", "schemas", "items", "columns", "dependencies", "types", "index_keys",
                           "roles", "role_members", "default_acls", "acl_items", "constraints", "commands", "workers", "worker_commands",
                           "dataflows", "cluster", "metrics", "dataflow_operators", "arrangements",
                           "arrangement_sharing", "frontiers", "role_sessions"};
    UNIT_CHECK(cat_builtin_count() == CM_ARRAY_LEN(names));
    for (size_t i = 0; i < cat_builtin_count(); i++) {
        const cat_builtin_t *b = cat_builtin_at(i);
        UNIT_CHECK_STR(b->name, names[i]);
        const char *schema = b->schema ? b->schema : "eddy_catalog";
        UNIT_CHECK(b->session == (i >= 11) && cat_builtin_find(schema, b->name) == b);
        const cat_item_t *it = cat_snap_item(t.snap, cat_snap_schema(t.snap, NULL, schema), b->name);
        /* eddy_internal's relations are views (the server's state), eddy_catalog's tables. */
        cat_item_kind_t kind = strcmp(schema, "eddy_internal") == 0 ? CAT_ITEM_VIEW : CAT_ITEM_TABLE;
        UNIT_CHECK(it && it->kind == kind && cat_id_is_system(it->id) && it->ncolumns == b->ncolumns);
        UNIT_CHECK(it && cat_snap_item_by_oid(t.snap, it->oid) == it && it->oid >= 12000 && it->oid < 16384);
        UNIT_CHECK(it && it->oid == 12100 + i);
        cm_arena_t a;
        cm_arena_init(&a, 0);
        cat_rows_t r = {0};
        cm_err_t err = {0};
        UNIT_CHECK(cat_builtin_rows(t.snap, NULL, it, &a, &r, &err) == !b->session);
        free(r.datums);
        cm_err_clear(&err);
        cm_arena_free(&a);
    }
    UNIT_CHECK(cat_builtin_at(cat_builtin_count()) == NULL);
    UNIT_CHECK(cat_builtin_find("eddy_internal", "items") == NULL && cat_builtin_find("eddy_catalog", "workers") == NULL);
    UNIT_CHECK_STR(cat_snap_item(t.snap, cat_snap_schema(t.snap, NULL, "eddy_internal"), "frontiers")->create_sql,
                   "CREATE VIEW eddy_internal.frontiers (worker integer, epoch bigint, frontier bigint, "
                   "catalog_index bigint)");
    UNIT_CHECK_STR(rel(&t, "databases")->create_sql,
                   "CREATE TABLE eddy_catalog.databases (id bigint NOT NULL, oid oid NOT NULL, name text NOT NULL, owner_oid oid NOT NULL, acl text[])");
    tc_free(&t);
}

static void test_rows_follow_the_catalog(void)
{
    tc_t t;
    tc_init(&t);
    static const cat_column_t cols[] = {
        {.name = "Col", .type = 23, .typmod = -1, .not_null = true, .default_sql = "42"},
        {.name = "b", .type = 1043, .typmod = 14},
        {.name = "c", .type = 1700, .typmod = 655366},
    };
    UNIT_CHECK(tc_create_cols(&t, CAT_ITEM_TABLE, "ctab", NULL, cols, 3, false));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "v", "ctab,ctab"));
    const cat_item_t *ctab = cat_snap_item_by_id(t.snap, 2);
    cm_arena_t a;
    cm_arena_init(&a, 4096);
    cat_rows_t r;

    UNIT_CHECK(rows(&t, "databases", &a, &r) == 1);
    UNIT_CHECK(r.datums[0].v.i == 1 && r.datums[1].v.i == 16387 && text_is(&r.datums[2], "eddy"));
    free(r.datums);

    /* public, then the four system schemas with a NULL database. */
    UNIT_CHECK(rows(&t, "schemas", &a, &r) == 5);
    UNIT_CHECK(text_is(&r.datums[3], "public") && r.datums[2].v.i == 1 && !r.datums[2].isnull);
    UNIT_CHECK(text_is(&r.datums[6 + 3], "pg_catalog") && r.datums[6 + 2].isnull && r.datums[6 + 1].v.i == 11);
    /* public: pg_database_owner's (OID 6171), with PostgreSQL 15's grants; pg_catalog the bootstrap
     * superuser's, readable by everyone. */
    UNIT_CHECK(r.datums[4].v.i == 6171 && r.datums[5].v.arr->nitems == 2 && r.datums[6 + 4].v.i == 10);
    free(r.datums);

    size_t n = rows(&t, "items", &a, &r);
    UNIT_CHECK(n == 2 + cat_builtin_count());
    UNIT_CHECK(r.datums[0].v.i == 2 && r.datums[1].v.i == ctab->oid && r.datums[2].v.i == 1);
    UNIT_CHECK(text_is(&r.datums[3], "ctab") && text_is(&r.datums[4], "table") && text_is(&r.datums[5], "r"));
    UNIT_CHECK(r.datums[7].v.i == 3 && !r.datums[8].v.b);   /* ctab: 3 columns, no index yet */
    UNIT_CHECK(text_is(&r.datums[11 + 3], "v") && text_is(&r.datums[11 + 4], "view") && text_is(&r.datums[11 + 5], "v"));
    UNIT_CHECK(text_is(&r.datums[11 + 6], "CREATE view v") && r.datums[11 + 7].v.i == 1);
    UNIT_CHECK(r.datums[9].v.i == 10 && r.datums[10].isnull);   /* the bootstrap superuser's, default ACL */
    free(r.datums);

    /* columns: attnum from 1, format_type names, nullability, defaults. */
    n = rows(&t, "columns", &a, &r);
    UNIT_CHECK(r.datums[0].v.i == 2 && r.datums[1].v.i == 1 && text_is(&r.datums[2], "Col"));
    UNIT_CHECK(r.datums[3].v.i == 23 && r.datums[4].v.i == -1 && text_is(&r.datums[5], "integer"));
    UNIT_CHECK(r.datums[6].v.b == false && text_is(&r.datums[7], "42"));
    UNIT_CHECK(r.datums[8].isnull);   /* no column privileges */
    UNIT_CHECK(text_is(&r.datums[9 + 5], "character varying(10)") && r.datums[9 + 6].v.b && r.datums[9 + 7].isnull);
    UNIT_CHECK(text_is(&r.datums[18 + 5], "numeric(10,2)"));
    UNIT_CHECK(r.datums[27].v.i == 3 && text_is(&r.datums[27 + 2], "a"));   /* the view's column */
    size_t want = 3 + 1;
    for (size_t i = 0; i < cat_builtin_count(); i++)
        want += cat_builtin_at(i)->ncolumns;
    UNIT_CHECK(n == want);
    free(r.datums);

    /* A view reading ctab twice depends on it once. */
    UNIT_CHECK(rows(&t, "dependencies", &a, &r) == 1);
    UNIT_CHECK(r.datums[0].v.i == 3 && r.datums[1].v.i == 2);
    free(r.datums);

    /* An index's keys name the relation's columns by number (b is the second). */
    static const cat_column_t keys[] = {{.name = "b", .type = 1043, .typmod = 14}};
    UNIT_CHECK(tc_create_cols(&t, CAT_ITEM_INDEX, "ctab_b", "ctab", keys, 1, false));
    UNIT_CHECK(rows(&t, "index_keys", &a, &r) == 1);
    UNIT_CHECK(r.datums[1].v.i == 2 && r.datums[2].v.i == 1 && r.datums[3].v.i == 2 && text_is(&r.datums[4], "b"));
    free(r.datums);
    UNIT_CHECK(rows(&t, "items", &a, &r) == 3 + cat_builtin_count());
    UNIT_CHECK(r.datums[3].v.s.len == 4 && r.datums[8].v.b && !r.datums[11 + 8].v.b);   /* ctab now has an index, v not */
    free(r.datums);
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_INDEX, "ctab_b", false, false));

    /* After a cascade, the rows say so. */
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_TABLE, "ctab", false, true));
    UNIT_CHECK(rows(&t, "dependencies", &a, &r) == 0);
    free(r.datums);
    UNIT_CHECK(rows(&t, "items", &a, &r) == cat_builtin_count());
    free(r.datums);

    /* Only built-in relations have rows here. */
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "plain", NULL));
    cm_err_t err = {0};
    memset(&r, 0, sizeof(r));
    UNIT_CHECK(!cat_builtin_rows(t.snap, NULL, cat_snap_item_by_id(t.snap, cat_snap_index(t.snap)), &a, &r, &err));
    UNIT_CHECK_STR(err.sqlstate, "0A000");
    cm_err_clear(&err);
    cm_arena_free(&a);
    tc_free(&t);
}

/* pg_type's physical attributes, as PostgreSQL 15 has them for a few types. */
static void test_types(void)
{
    tc_t t;
    tc_init(&t);
    cm_arena_t a;
    cm_arena_init(&a, 4096);
    cat_rows_t r;
    size_t n = rows(&t, "types", &a, &r);
    size_t ncols = cat_builtin_at(5)->ncolumns;
    int seen = 0;
    for (size_t i = 0; i < n; i++) {
        const ty_datum_t *d = &r.datums[i * ncols];
        /* oid, name, sql_name, len, byval, category, preferred, element, array, align, storage, collation */
        if (d[0].v.i == 23) {
            seen++;
            UNIT_CHECK(text_is(&d[1], "int4") && text_is(&d[2], "integer") && d[3].v.i == 4 && d[4].v.b);
            UNIT_CHECK(text_is(&d[5], "N") && d[8].v.i == 1007 && text_is(&d[9], "i") && text_is(&d[10], "p"));
            UNIT_CHECK(d[11].v.i == 0);
        } else if (d[0].v.i == 25) {
            seen++;
            UNIT_CHECK(d[3].v.i == -1 && !d[4].v.b && text_is(&d[10], "x") && d[11].v.i == 100 && d[6].v.b);
        } else if (d[0].v.i == 1016) {
            seen++;
            UNIT_CHECK(d[7].v.i == 20 && text_is(&d[5], "A") && text_is(&d[9], "d"));
        } else if (d[0].v.i == 19) {
            seen++;
            UNIT_CHECK(d[3].v.i == 64 && !d[4].v.b && text_is(&d[9], "c") && d[11].v.i == 950);
        }
    }
    UNIT_CHECK(seen == 4);
    free(r.datums);
    cm_arena_free(&a);
    tc_free(&t);
}

int main(void)
{
    UNIT_RUN(test_relations_and_columns);
    UNIT_RUN(test_rows_follow_the_catalog);
    UNIT_RUN(test_types);
    UNIT_EXIT();
}
