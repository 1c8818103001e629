/*
 * cat_builtin.c: the built-in objects: system schemas and the relations of
 * eddy_catalog that describe the catalog itself.
 *
 * These relations are the one source that pg_catalog and information_schema
 * views (later issues) are written over, so their columns carry IDs and OIDs
 * as they are, and their rows come straight from a snapshot. Built-in
 * objects are installed into every snapshot and never travel through the
 * store: every process of every version agrees on them by construction.
 */
#include "catalog/cat_int.h"

#include <stdlib.h>
#include <string.h>

enum {
    SYS_PG_CATALOG = 1,
    SYS_INFORMATION_SCHEMA,
    SYS_EDDY_CATALOG,
    SYS_EDDY_INTERNAL,
};

static const struct {
    const char *name;
    uint32_t oid;
} cat__sys_schemas[] = {
    [SYS_PG_CATALOG] = {"pg_catalog", 11},   /* PostgreSQL's own OID */
    [SYS_INFORMATION_SCHEMA] = {"information_schema", 12001},
    [SYS_EDDY_CATALOG] = {"eddy_catalog", 12002},
    [SYS_EDDY_INTERNAL] = {"eddy_internal", 12003},
};

#define COL(n, t) {.name = n, .type = t, .typmod = -1, .not_null = true}
#define COLN(n, t) {.name = n, .type = t, .typmod = -1}

/* owner_oid: pg_roles.oid (10: the bootstrap superuser); acl: aclitem texts, NULL for the default. */
static const cat_column_t cols_databases[] = {
    COL("id", TY_INT8),
    COL("oid", TY_OID),
    COL("name", TY_TEXT),
    COL("owner_oid", TY_OID),
    COLN("acl", TY_TEXT_ARRAY),
};
static const cat_column_t cols_schemas[] = {
    COL("id", TY_INT8),
    COL("oid", TY_OID),
    COLN("database_id", TY_INT8),   /* NULL: a system schema, present in every database */
    COL("name", TY_TEXT),
    COL("owner_oid", TY_OID),
    COLN("acl", TY_TEXT_ARRAY),
};
static const cat_column_t cols_items[] = {
    COL("id", TY_INT8),
    COL("oid", TY_OID),
    COL("schema_id", TY_INT8),
    COL("name", TY_TEXT),
    COL("type", TY_TEXT),
    COL("relkind", TY_CHAR),
    COL("create_sql", TY_TEXT),
    COL("ncolumns", TY_INT2),      /* pg_class.relnatts */
    COL("has_index", TY_BOOL),     /* pg_class.relhasindex: an index reads it */
    COL("owner_oid", TY_OID),      /* an index: its relation's owner */
    COLN("acl", TY_TEXT_ARRAY),
};
static const cat_column_t cols_columns[] = {
    COL("item_id", TY_INT8),
    COL("position", TY_INT4),
    COL("name", TY_TEXT),
    COL("type_oid", TY_OID),
    COL("typmod", TY_INT4),
    COL("type_name", TY_TEXT),
    COL("nullable", TY_BOOL),
    COLN("default", TY_TEXT),
    COLN("acl", TY_TEXT_ARRAY),         /* pg_attribute.attacl: NULL when the column has no privileges */
};
static const cat_column_t cols_dependencies[] = {
    COL("item_id", TY_INT8),
    COL("depends_on_id", TY_INT8),
};
/* The supported types, with the pg_type attributes clients read. */
static const cat_column_t cols_types[] = {
    COL("oid", TY_OID),
    COL("name", TY_TEXT),
    COL("sql_name", TY_TEXT),
    COL("len", TY_INT2),
    COL("byval", TY_BOOL),
    COL("category", TY_CHAR),
    COL("preferred", TY_BOOL),
    COL("element_oid", TY_OID),
    COL("array_oid", TY_OID),
    COL("align", TY_CHAR),
    COL("storage", TY_CHAR),
    COL("collation", TY_OID),
    COL("input", TY_OID),       /* its functions (ty_type_procs), 0: none */
    COL("output", TY_OID),
    COL("receive", TY_OID),
    COL("send", TY_OID),
    COL("modin", TY_OID),
    COL("modout", TY_OID),
    COL("analyze", TY_OID),
    COL("subscript", TY_OID),
};
/* An index's keys: the indexed relation's column number, 0 for an expression. */
static const cat_column_t cols_index_keys[] = {
    COL("index_id", TY_INT8),
    COL("relation_id", TY_INT8),
    COL("position", TY_INT4),
    COL("attnum", TY_INT2),
    COL("name", TY_TEXT),
};

/* pg_authid's attributes; the password is a SCRAM verifier or NULL. */
static const cat_column_t cols_roles[] = {
    COL("id", TY_INT8),
    COL("oid", TY_OID),
    COL("name", TY_TEXT),
    COL("superuser", TY_BOOL),
    COL("inherit", TY_BOOL),
    COL("createrole", TY_BOOL),
    COL("createdb", TY_BOOL),
    COL("login", TY_BOOL),
    COL("replication", TY_BOOL),
    COL("bypassrls", TY_BOOL),
    COL("conn_limit", TY_INT4),
    COLN("password", TY_TEXT),
    COLN("valid_until", TY_TIMESTAMPTZ),
};
/* pg_auth_members: `member` has the privileges of `role`. */
static const cat_column_t cols_role_members[] = {
    COL("role_oid", TY_OID),
    COL("member_oid", TY_OID),
};

/* pg_default_acl: a role's default privileges for one kind of object, of a schema or (schema_oid 0) of a database. */
static const cat_column_t cols_default_acls[] = {
    COL("role_oid", TY_OID),
    COL("schema_oid", TY_OID),
    COL("database_id", TY_INT8),
    COL("acl", TY_TEXT_ARRAY),
    COL("objtype", TY_CHAR),            /* 'r', 'S', 'f', 'T', 'n' */
};

/* aclexplode of every relation's, column's, schema's and database's ACL (or its default), one row per
 * privilege, with what information_schema asks pg_has_role about the session's current user. */
static const cat_column_t cols_acl_items[] = {
    COL("class", TY_CHAR),              /* 'r', 'c', 'n', 'd' */
    COL("object_oid", TY_OID),
    COL("grantor_oid", TY_OID),
    COL("grantee_oid", TY_OID),         /* 0: PUBLIC */
    COL("privilege_type", TY_TEXT),
    COL("is_grantable", TY_BOOL),       /* a grant option, or the grantee has its owner's privileges */
    COL("grantor_usage", TY_BOOL),      /* the current user has the grantor's privileges */
    COL("grantee_usage", TY_BOOL),      /* ... the grantee's (false for PUBLIC) */
    COL("attnum", TY_INT4),             /* class 'c': the column of relation object_oid; else 0 */
};

enum {
    REL_DATABASES,
    REL_SCHEMAS,
    REL_ITEMS,
    REL_COLUMNS,
    REL_DEPENDENCIES,
    REL_TYPES,
    REL_INDEX_KEYS,
    REL_ROLES,
    REL_ROLE_MEMBERS,
    REL_DEFAULT_ACLS,
    REL_ACL_ITEMS,
};

static const cat_builtin_t cat__builtins[] = {
    [REL_DATABASES] = {"databases", cols_databases, CM_ARRAY_LEN(cols_databases)},
    [REL_SCHEMAS] = {"schemas", cols_schemas, CM_ARRAY_LEN(cols_schemas)},
    [REL_ITEMS] = {"items", cols_items, CM_ARRAY_LEN(cols_items)},
    [REL_COLUMNS] = {"columns", cols_columns, CM_ARRAY_LEN(cols_columns)},
    [REL_DEPENDENCIES] = {"dependencies", cols_dependencies, CM_ARRAY_LEN(cols_dependencies)},
    [REL_TYPES] = {"types", cols_types, CM_ARRAY_LEN(cols_types)},
    [REL_INDEX_KEYS] = {"index_keys", cols_index_keys, CM_ARRAY_LEN(cols_index_keys)},
    [REL_ROLES] = {"roles", cols_roles, CM_ARRAY_LEN(cols_roles)},
    [REL_ROLE_MEMBERS] = {"role_members", cols_role_members, CM_ARRAY_LEN(cols_role_members)},
    [REL_DEFAULT_ACLS] = {"default_acls", cols_default_acls, CM_ARRAY_LEN(cols_default_acls)},
    [REL_ACL_ITEMS] = {"acl_items", cols_acl_items, CM_ARRAY_LEN(cols_acl_items)},
};

#define CAT__BUILTIN_REL_ID(i) (CAT_ID_SYSTEM + 100 + (i))
#define CAT__BUILTIN_REL_OID(i) (12100u + (uint32_t)(i))

size_t cat_builtin_count(void)
{
    return CM_ARRAY_LEN(cat__builtins) + cat__nsession_builtins;
}

const cat_builtin_t *cat_builtin_at(size_t i)
{
    if (i < CM_ARRAY_LEN(cat__builtins))
        return &cat__builtins[i];
    i -= CM_ARRAY_LEN(cat__builtins);
    return i < cat__nsession_builtins ? &cat__session_builtins[i] : NULL;
}

static const char *cat__builtin_schema(const cat_builtin_t *b)
{
    return b->schema ? b->schema : "eddy_catalog";
}

const cat_builtin_t *cat_builtin_find(const char *schema, const char *name)
{
    const cat_builtin_t *b;
    for (size_t i = 0; (b = cat_builtin_at(i)); i++)
        if (strcmp(cat__builtin_schema(b), schema) == 0 && strcmp(b->name, name) == 0)
            return b;
    return NULL;
}

/* As PostgreSQL's system schemas and catalogs: the bootstrap superuser's, and
 * everyone may look names up in them and read them. */
static const cat_aclitem_t cat__sys_schema_acl[] = {
    {CAT_ROLE_BOOTSTRAP, CAT_ROLE_BOOTSTRAP, CAT_PRIVS_SCHEMA, 0},
    {CAT_ROLE_PUBLIC, CAT_ROLE_BOOTSTRAP, CAT_PRIV_USAGE, 0},
};
static const cat_aclitem_t cat__sys_rel_acl[] = {
    {CAT_ROLE_BOOTSTRAP, CAT_ROLE_BOOTSTRAP, CAT_PRIVS_RELATION, 0},
    {CAT_ROLE_PUBLIC, CAT_ROLE_BOOTSTRAP, CAT_PRIV_SELECT, 0},
};

void cat__builtin_install(cat_snap_t *s)
{
    cm_err_t err = {0};
    for (size_t i = 1; i < CM_ARRAY_LEN(cat__sys_schemas); i++) {
        cat_object_t o = {.cls = CAT_CLASS_SCHEMA, .id = CAT_ID_SYSTEM + i, .oid = cat__sys_schemas[i].oid,
                          .parent = 0, .name = cat__sys_schemas[i].name,
                          .acl = {.set = true, .items = cat__sys_schema_acl, .n = 2}};
        if (!cat__snap_insert(s, &o, &err))
            cm_panic(__FILE__, __LINE__, "built-in schema: %s", err.message);
    }
    cm_buf_t sql;
    cm_buf_init(&sql, 0);
    const cat_builtin_t *b;
    for (size_t i = 0; (b = cat_builtin_at(i)); i++) {
        /* eddy_internal shows the running server (workers, dataflows, sessions) as PostgreSQL's
         * pg_stat_* views do: views computed when read. eddy_catalog holds the catalog's own
         * tables, as pg_catalog does. */
        bool view = strcmp(cat__builtin_schema(b), "eddy_internal") == 0;
        cm_buf_reset(&sql);
        cm_buf_printf(&sql, "CREATE %s %s.%s (", view ? "VIEW" : "TABLE", cat__builtin_schema(b), b->name);
        for (uint32_t c = 0; c < b->ncolumns; c++) {
            cm_buf_printf(&sql, "%s", c ? ", " : "");
            cat_quote_ident(b->columns[c].name, &sql);
            cm_buf_put_u8(&sql, ' ');
            ty_format_type(b->columns[c].type, b->columns[c].typmod, &sql);
            if (b->columns[c].not_null)
                cm_buf_put_str(&sql, " NOT NULL");
        }
        cm_buf_put_str(&sql, ")");
        cm_buf_put_u8(&sql, 0);
        cat_object_t o = {.cls = CAT_CLASS_ITEM, .id = CAT__BUILTIN_REL_ID(i), .oid = CAT__BUILTIN_REL_OID(i),
                          .parent = CAT_ID_SYSTEM + (view ? SYS_EDDY_INTERNAL : SYS_EDDY_CATALOG),
                          .name = b->name, .kind = view ? CAT_ITEM_VIEW : CAT_ITEM_TABLE,
                          .create_sql = (const char *)sql.data, .columns = (cat_column_t *)b->columns,
                          .ncolumns = b->ncolumns, .acl = {.set = true, .items = cat__sys_rel_acl, .n = 2}};
        if (!cat__snap_insert(s, &o, &err))
            cm_panic(__FILE__, __LINE__, "built-in relation: %s", err.message);
    }
    cm_buf_free(&sql);
}

/* ------------------------------------------------------------- rows */

static ty_datum_t *cat__row(cat_rows_t *r, size_t ncols)
{
    if ((r->nrows + 1) * ncols > r->cap) {
        size_t ncap = r->cap ? r->cap * 2 : 64 * ncols;
        while (ncap < (r->nrows + 1) * ncols)
            ncap *= 2;
        r->datums = cm_realloc(r->datums, ncap * sizeof(ty_datum_t));
        r->cap = ncap;
    }
    ty_datum_t *row = &r->datums[r->nrows * ncols];
    memset(row, 0, ncols * sizeof(ty_datum_t));
    r->nrows++;
    return row;
}

static ty_datum_t cat__int(int64_t v)
{
    ty_datum_t d = {0};
    d.v.i = v;
    return d;
}

static ty_datum_t cat__text(cm_arena_t *a, const char *s, size_t len)
{
    ty_datum_t d = {0};
    char *copy = cm_arena_strndup(a, s, len);
    d.v.s.p = copy;
    d.v.s.len = (uint32_t)len;
    return d;
}

static ty_datum_t cat__str(cm_arena_t *a, const char *s)
{
    if (!s) {
        ty_datum_t d = {.isnull = true};
        return d;
    }
    return cat__text(a, s, strlen(s));
}

static int cat__id_cmp(const void *a, const void *b)
{
    cat_id_t x = *(const cat_id_t *)a, y = *(const cat_id_t *)b;
    return x < y ? -1 : x > y;
}

/* The relations some index reads, sorted (n in *n; free() it). */
static cat_id_t *cat__indexed(const cat_snap_t *s, size_t *n)
{
    size_t cap = 16;
    cat_id_t *ids = cm_malloc(cap * sizeof *ids);
    *n = 0;
    const cat_item_t *it;
    for (size_t i = 0; (it = cat_snap_item_at(s, i)); i++) {
        if (it->kind != CAT_ITEM_INDEX || it->ndeps == 0)
            continue;
        if (*n == cap)
            ids = cm_realloc(ids, (cap *= 2) * sizeof *ids);
        ids[(*n)++] = it->deps[0];
    }
    qsort(ids, *n, sizeof *ids, cat__id_cmp);
    return ids;
}

/* An ACL as pg_class.relacl shows it: NULL while it is the default. */
static ty_datum_t cat__acl(const cat_snap_t *s, const cat_search_t *search, const cat_acl_t *acl, cm_arena_t *a)
{
    if (!acl->set) {
        ty_datum_t d = {.isnull = true};
        return d;
    }
    ty_datum_t *v = acl->n ? cm_arena_alloc(a, acl->n * sizeof(ty_datum_t)) : NULL;
    cm_buf_t b;
    cm_buf_init(&b, 0);
    for (uint32_t i = 0; i < acl->n; i++) {
        cm_buf_reset(&b);
        cat_aclitem_text(s, search, &acl->items[i], &b);
        v[i] = cat__text(a, (const char *)b.data, b.len);
    }
    cm_buf_free(&b);
    return ty_array_make(a, TY_TEXT, v, (int)acl->n);
}

static void cat__acl_item_rows(const cat_snap_t *s, const cat_search_t *search, char cls, uint32_t oid,
                               int attnum, const cat_acl_t *acl, cm_arena_t *a, cat_rows_t *out)
{
    static const char *const names[] = {"INSERT",  "SELECT", "UPDATE", "DELETE",    "TRUNCATE", "REFERENCES",
                                        "TRIGGER", "EXECUTE", "USAGE", "CREATE",    "TEMPORARY", "CONNECT"};
    const cat_role_t *me = cat_search_role(s, search);
    cat_aclitem_t def[2];
    const cat_aclitem_t *items;
    uint32_t n = cat_acl_items(acl, cls, def, &items);
    for (uint32_t i = 0; i < n; i++) {
        const cat_aclitem_t *x = &items[i];
        bool pub = x->grantee == CAT_ROLE_PUBLIC;
        const cat_role_t *grantee = pub || x->grantee == CAT_ROLE_BOOTSTRAP ? NULL : cat_snap_role_by_id(s, x->grantee);
        bool owns = !pub && cat_role_has_privs_of_in(s, grantee, acl->owner, acl->in_db);
        for (int b = 0; b < (int)CM_ARRAY_LEN(names); b++) {
            if (!(x->privs & (1u << b)))
                continue;
            ty_datum_t *r = cat__row(out, CM_ARRAY_LEN(cols_acl_items));
            r[0] = cat__text(a, &cls, 1);
            r[1] = cat__int(oid);
            r[2] = cat__int(cat_role_id_oid(s, x->grantor));
            r[3] = cat__int(cat_role_id_oid(s, x->grantee));
            r[4] = cat__str(a, names[b]);
            r[5].v.b = owns || (x->grant & (1u << b)) != 0;
            r[6].v.b = cat_role_has_privs_of_in(s, me, x->grantor, acl->in_db);
            r[7].v.b = !pub && cat_role_has_privs_of_in(s, me, x->grantee, acl->in_db);
            r[8] = cat__int(attnum);
        }
    }
}

static void cat__defacl_rows(const cat_snap_t *s, const cat_search_t *search, const cat_acl_t *acl, uint32_t schema_oid,
                             cat_id_t database_id, cm_arena_t *a, cat_rows_t *out)
{
    for (uint32_t k = 0; k < acl->ndefacls; k++) {
        const cat_defacl_t *d = &acl->defacls[k];
        ty_datum_t *r = cat__row(out, CM_ARRAY_LEN(cols_default_acls));
        cat_acl_t items = {.owner = d->role, .set = true, .items = d->items, .n = d->n};
        r[0] = cat__int(cat_role_id_oid(s, d->role));
        r[1] = cat__int(schema_oid);
        r[2] = cat__int((int64_t)database_id);
        r[3] = cat__acl(s, search, &items, a);
        r[4] = cat__text(a, &d->objtype, 1);
    }
}

static void cat__item_row(const cat_snap_t *s, const cat_search_t *search, const cat_item_t *it, cm_arena_t *a,
                          const cat_id_t *indexed, size_t nindexed, cat_rows_t *out)
{
    ty_datum_t *r = cat__row(out, CM_ARRAY_LEN(cols_items));
    char relkind = cat_item_kind_relkind(it->kind);
    r[0] = cat__int((int64_t)it->id);
    r[1] = cat__int(it->oid);
    r[2] = cat__int((int64_t)it->schema->id);
    r[3] = cat__str(a, it->name);
    r[4] = cat__str(a, cat_item_kind_name(it->kind));
    r[5] = cat__text(a, &relkind, 1);
    r[6] = cat__str(a, it->create_sql);
    r[7] = cat__int(it->ncolumns);
    r[8].v.b = nindexed > 0 && bsearch(&it->id, indexed, nindexed, sizeof *indexed, cat__id_cmp) != NULL;
    r[9] = cat__int(cat_role_id_oid(s, cat_item_owner_acl(s, it)->acl.owner));
    if (it->kind == CAT_ITEM_INDEX)
        r[10].isnull = true;
    else
        r[10] = cat__acl(s, search, &it->acl, a);
}

static void cat__column_rows(const cat_snap_t *s, const cat_search_t *search, const cat_item_t *it, cm_arena_t *a,
                             cat_rows_t *out)
{
    cm_buf_t tn;
    cm_buf_init(&tn, 0);
    for (uint32_t c = 0; c < it->ncolumns; c++) {
        const cat_column_t *col = &it->columns[c];
        ty_datum_t *r = cat__row(out, CM_ARRAY_LEN(cols_columns));
        cm_buf_reset(&tn);
        ty_format_type(col->type, col->typmod, &tn);
        r[0] = cat__int((int64_t)it->id);
        r[1] = cat__int((int64_t)c + 1);
        r[2] = cat__str(a, col->name);
        r[3] = cat__int(col->type);
        r[4] = cat__int(col->typmod);
        r[5] = cat__text(a, (const char *)tn.data, tn.len);
        r[6].v.b = !col->not_null;
        r[7] = cat__str(a, col->default_sql);
        cat_acl_t acl = {.owner = it->acl.owner, .set = col->nacl > 0, .items = col->acl, .n = col->nacl};
        r[8] = cat__acl(s, search, &acl, a);
    }
    cm_buf_free(&tn);
}

/* pg_type's physical attributes, as PostgreSQL 15 declares them for these types. */
static void cat__type_row(const ty_info_t *ti, cm_arena_t *a, cat_rows_t *out)
{
    ty_datum_t *r = cat__row(out, CM_ARRAY_LEN(cols_types));
    bool array = ti->category == TY_CAT_ARRAY;
    ty_oid_t elem = array ? ty_array_elem_type(ti->oid) : TY_INVALID;
    ty_oid_t subscript_elem = ti->oid == TY_NAME ? TY_CHAR : elem;   /* name subscripts as char[64] */
    const ty_info_t *ei = array ? ty_info(elem) : NULL;
    int len = ti->typlen;
    bool byval = len == 1 || len == 2 || len == 4 || len == 8;
    char align = len == 1 || len == -2 || ti->oid == TY_NAME || ti->oid == TY_UUID ? 'c'
                 : len == 2                                                        ? 's'
                 : len == 8 || ti->oid == TY_INTERVAL || ti->oid == TY_RECORD       ? 'd'
                                                                                   : 'i';
    if (ei != NULL)   /* an array: 'd' when its element is, else 'i' */
        align = ei->typlen == 8 || ei->oid == TY_INTERVAL ? 'd' : 'i';
    char storage = len > 0 || len == -2 ? 'p' : ti->oid == TY_NUMERIC ? 'm' : 'x';
    char category = ti->category;
    /* An array collates as its element does (pg_type.typcollation of _text is 100, of _name 950). */
    const ty_info_t *ci = ei != NULL ? ei : ti;
    ty_oid_t collation = ci->oid == TY_NAME ? 950 : ci->category == TY_CAT_STRING ? 100 : 0;
    r[0] = cat__int(ti->oid);
    r[1] = cat__str(a, ti->name);
    r[2] = cat__str(a, ti->sql_name);
    r[3] = cat__int(len);
    r[4].v.b = byval;
    r[5] = cat__text(a, &category, 1);
    r[6].v.b = ti->preferred;
    r[7] = cat__int(subscript_elem);
    r[8] = cat__int(ti->array_oid);
    r[9] = cat__text(a, &align, 1);
    r[10] = cat__text(a, &storage, 1);
    r[11] = cat__int(collation);
    ty_type_procs_t fn;
    ty_type_procs(ti->oid, &fn);
    r[12] = cat__int(fn.input);
    r[13] = cat__int(fn.output);
    r[14] = cat__int(fn.receive);
    r[15] = cat__int(fn.send);
    r[16] = cat__int(fn.modin);
    r[17] = cat__int(fn.modout);
    r[18] = cat__int(fn.analyze);
    r[19] = cat__int(fn.subscript);
}

static void cat__index_key_rows(const cat_snap_t *s, const cat_item_t *it, cm_arena_t *a, cat_rows_t *out)
{
    const cat_item_t *rel = it->ndeps > 0 ? cat_snap_item_by_id(s, it->deps[0]) : NULL;
    for (uint32_t k = 0; k < it->ncolumns; k++) {
        int attnum = 0;
        for (uint32_t c = 0; rel != NULL && c < rel->ncolumns && attnum == 0; c++)
            if (strcmp(rel->columns[c].name, it->columns[k].name) == 0)
                attnum = (int)c + 1;
        ty_datum_t *r = cat__row(out, CM_ARRAY_LEN(cols_index_keys));
        r[0] = cat__int((int64_t)it->id);
        r[1] = cat__int(rel != NULL ? (int64_t)rel->id : 0);
        r[2] = cat__int((int64_t)k + 1);
        r[3] = cat__int(attnum);
        r[4] = cat__str(a, it->columns[k].name);
    }
}

bool cat_builtin_rows(const cat_snap_t *s, const cat_search_t *search, const cat_item_t *relation, cm_arena_t *arena,
                      cat_rows_t *out, cm_err_t *err)
{
    if (!relation || relation->id < CAT__BUILTIN_REL_ID(0) ||
        relation->id >= CAT__BUILTIN_REL_ID(cat_builtin_count()))
        return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "relation \"%s\" is not a built-in catalog relation",
                          relation ? relation->name : "?");
    size_t which = (size_t)(relation->id - CAT__BUILTIN_REL_ID(0));
    if (which >= CM_ARRAY_LEN(cat__builtins))
        return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "the rows of \"%s\" are the session's, not the catalog's",
                          relation->name);
    const cat_database_t *d;
    const cat_schema_t *sc;
    const cat_item_t *it;
    switch (which) {
    case REL_DATABASES:
        for (size_t i = 0; (d = cat_snap_database_at(s, i)); i++) {
            ty_datum_t *r = cat__row(out, CM_ARRAY_LEN(cols_databases));
            r[0] = cat__int((int64_t)d->id);
            r[1] = cat__int(d->oid);
            r[2] = cat__str(arena, d->name);
            r[3] = cat__int(cat_role_id_oid(s, d->acl.owner));
            r[4] = cat__acl(s, search, &d->acl, arena);
        }
        break;
    case REL_SCHEMAS:
        for (size_t i = 0; (sc = cat_snap_schema_at(s, i)); i++) {
            ty_datum_t *r = cat__row(out, CM_ARRAY_LEN(cols_schemas));
            r[0] = cat__int((int64_t)sc->id);
            r[1] = cat__int(sc->oid);
            if (sc->database)
                r[2] = cat__int((int64_t)sc->database->id);
            else
                r[2].isnull = true;
            r[3] = cat__str(arena, sc->name);
            r[4] = cat__int(cat_role_id_oid(s, sc->acl.owner));
            r[5] = cat__acl(s, search, &sc->acl, arena);
        }
        break;
    case REL_ITEMS: {
        size_t nindexed;
        cat_id_t *indexed = cat__indexed(s, &nindexed);
        for (size_t i = 0; (it = cat_snap_item_at(s, i)); i++)
            cat__item_row(s, search, it, arena, indexed, nindexed, out);
        free(indexed);
        break;
    }
    case REL_COLUMNS:
        for (size_t i = 0; (it = cat_snap_item_at(s, i)); i++)
            cat__column_rows(s, search, it, arena, out);
        break;
    case REL_DEPENDENCIES:
        for (size_t i = 0; (it = cat_snap_item_at(s, i)); i++) {
            for (uint32_t k = 0; k < it->ndeps; k++) {
                bool seen = false;
                for (uint32_t j = 0; j < k; j++)
                    seen = seen || it->deps[j] == it->deps[k];
                if (seen)
                    continue;
                ty_datum_t *r = cat__row(out, CM_ARRAY_LEN(cols_dependencies));
                r[0] = cat__int((int64_t)it->id);
                r[1] = cat__int((int64_t)it->deps[k]);
            }
        }
        break;
    case REL_TYPES: {
        const ty_info_t *ti;
        for (size_t i = 0; (ti = ty_info_at(i)); i++)
            cat__type_row(ti, arena, out);
        break;
    }
    case REL_INDEX_KEYS:
        for (size_t i = 0; (it = cat_snap_item_at(s, i)); i++)
            if (it->kind == CAT_ITEM_INDEX)
                cat__index_key_rows(s, it, arena, out);
        break;
    case REL_ROLES: {
        const cat_role_t *ro;
        static const uint32_t bits[] = {CAT_ROLE_SUPERUSER, CAT_ROLE_INHERIT, CAT_ROLE_CREATEROLE, CAT_ROLE_CREATEDB,
                                        CAT_ROLE_LOGIN, CAT_ROLE_REPLICATION, CAT_ROLE_BYPASSRLS};
        /* The catalog's roles, then pg_database_owner, the one predefined role eddy has. */
        size_t nroles = cat_snap_role_count(s);
        for (size_t i = 0; i <= nroles; i++) {
            ro = i < nroles ? cat_snap_role_at(s, i) : cat_role_database_owner();
            ty_datum_t *r = cat__row(out, CM_ARRAY_LEN(cols_roles));
            r[0] = cat__int((int64_t)ro->id);
            r[1] = cat__int(ro->oid);
            r[2] = cat__str(arena, ro->name);
            for (size_t b = 0; b < CM_ARRAY_LEN(bits); b++)
                r[3 + b].v.b = (ro->flags & bits[b]) != 0;
            r[10] = cat__int(ro->conn_limit);
            r[11] = cat__str(arena, ro->password);
            if (ro->has_valid_until)
                r[12] = cat__int(ro->valid_until);
            else
                r[12].isnull = true;
        }
        break;
    }
    case REL_ROLE_MEMBERS: {
        const cat_role_t *ro;
        for (size_t i = 0; (ro = cat_snap_role_at(s, i)); i++) {
            for (uint32_t m = 0; m < ro->nmember_of; m++) {
                const cat_role_t *of = cat_snap_role_by_id(s, ro->member_of[m]);
                if (!of)
                    continue;
                ty_datum_t *r = cat__row(out, CM_ARRAY_LEN(cols_role_members));
                r[0] = cat__int(of->oid);
                r[1] = cat__int(ro->oid);
            }
        }
        break;
    }
    case REL_ACL_ITEMS:
        for (size_t i = 0; (it = cat_snap_item_at(s, i)); i++)
            if (it->kind != CAT_ITEM_INDEX)
                cat__acl_item_rows(s, search, 'r', it->oid, 0, &it->acl, arena, out);
        for (size_t i = 0; (it = cat_snap_item_at(s, i)); i++)
            for (uint32_t c = 0; it->kind != CAT_ITEM_INDEX && c < it->ncolumns; c++) {
                cat_acl_t col = {.owner = it->acl.owner, .set = true, .items = it->columns[c].acl,
                                 .n = it->columns[c].nacl};
                cat__acl_item_rows(s, search, 'c', it->oid, (int)c + 1, &col, arena, out);
            }
        for (size_t i = 0; (sc = cat_snap_schema_at(s, i)); i++)
            cat__acl_item_rows(s, search, 'n', sc->oid, 0, &sc->acl, arena, out);
        for (size_t i = 0; (d = cat_snap_database_at(s, i)); i++)
            cat__acl_item_rows(s, search, 'd', d->oid, 0, &d->acl, arena, out);
        break;
    case REL_DEFAULT_ACLS:
        for (size_t i = 0; (d = cat_snap_database_at(s, i)); i++)
            cat__defacl_rows(s, search, &d->acl, 0, d->id, arena, out);
        for (size_t i = 0; (sc = cat_snap_schema_at(s, i)); i++)
            if (sc->database)
                cat__defacl_rows(s, search, &sc->acl, sc->oid, sc->database->id, arena, out);
        break;
    }
    return true;
}

bool cat_builtin_read(const cat_snap_t *s, const cat_search_t *search, const char *name, int ncols, cm_arena_t *arena,
                      ty_datum_t ***rows, int *nrows, cm_err_t *err)
{
    const cat_schema_t *sc = cat_snap_schema(s, NULL, "eddy_catalog");
    const cat_item_t *it = sc ? cat_snap_item(s, sc, name) : NULL;
    if (it == NULL || !cat_id_is_system(it->id) || (int)it->ncolumns != ncols)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "the catalog has no relation \"eddy_catalog.%s\" of %d columns",
                          name, ncols);
    cat_rows_t r = {0};
    if (!cat_builtin_rows(s, search, it, arena, &r, err)) {
        free(r.datums);
        return false;
    }
    *rows = cm_arena_alloc(arena, sizeof **rows * (r.nrows ? r.nrows : 1));
    for (size_t i = 0; i < r.nrows; i++) {
        (*rows)[i] = cm_arena_alloc(arena, sizeof(ty_datum_t) * (size_t)ncols);
        memcpy((*rows)[i], &r.datums[i * (size_t)ncols], sizeof(ty_datum_t) * (size_t)ncols);
    }
    *nrows = (int)r.nrows;
    free(r.datums);
    return true;
}
