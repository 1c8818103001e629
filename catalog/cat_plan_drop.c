/*
 * cat_plan_drop.c: validation of DROP for items, schemas and databases, and
 * the dependency walk behind RESTRICT and CASCADE.
 *
 * The walk reproduces what PostgreSQL's findDependentObjects and
 * reportDependentObjects print, so DETAIL lines come out in the same order:
 * depth first from each target in the order named, dependents visited newest
 * first, objects collected after their dependents (post-order), the report
 * read backwards, each dependent described with the object it was first
 * reached from. Indexes go with their relation silently (PostgreSQL's auto
 * dependency); everything inside a dropped database goes silently too. The
 * post-order is also the order of the drop ops: an object is dropped only
 * after everything that depends on it or lives in it.
 */
#include "catalog/cat_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct dnode {
    cat_class_t cls;
    const void *obj;     /* cat__db_t, cat__schema_t or cat__item_t */
    cat_id_t id;
    struct dnode *from;
    bool original;
    bool silent;
} dnode_t;

typedef struct dwalk {
    const cat_snap_t *s;
    const cat_search_t *search;
    const cat_database_t *dropping_db;   /* DROP DATABASE: its contents go silently */
    cm_arena_t arena;
    cat__map_t visited;   /* k = id << 2 | class bits */
    cat__vec_t post;
    size_t ntargets;
    dnode_t *first_target;
} dwalk_t;

static uint64_t dkey(cat_class_t cls, cat_id_t id)
{
    return id << 2 | (cls == CAT_CLASS_DATABASE ? 1u : cls == CAT_CLASS_SCHEMA ? 2u : 3u);
}

static dnode_t *dnode_new(dwalk_t *w, cat_class_t cls, const void *obj, dnode_t *from, bool silent)
{
    dnode_t *n = cm_arena_zalloc(&w->arena, sizeof(*n));
    n->cls = cls;
    n->obj = obj;
    n->id = *(const cat_id_t *)obj;
    n->from = from;
    n->silent = silent;
    cat__map_put(&w->visited, dkey(cls, n->id), NULL, n);
    return n;
}

typedef struct dframe {
    dnode_t *node;
    const cat__vec_t *children;
    cat_class_t child_cls;
    size_t next;   /* children are visited from the end: newest first */
} dframe_t;

static void dframe_init(dframe_t *f, dnode_t *n)
{
    f->node = n;
    if (n->cls == CAT_CLASS_DATABASE) {
        f->children = &((const cat__db_t *)n->obj)->schemas;
        f->child_cls = CAT_CLASS_SCHEMA;
    } else if (n->cls == CAT_CLASS_SCHEMA) {
        f->children = &((const cat__schema_t *)n->obj)->items;
        f->child_cls = CAT_CLASS_ITEM;
    } else {
        f->children = &((const cat__item_t *)n->obj)->dependents;
        f->child_cls = CAT_CLASS_ITEM;
    }
    f->next = f->children->n;
}

/* Iterative, since a chain of 10,000 views would be 10,000 frames deep. */
static void dwalk_visit(dwalk_t *w, dnode_t *root)
{
    size_t cap = 64, depth = 0;
    dframe_t *stack = cm_malloc(cap * sizeof(dframe_t));
    dframe_init(&stack[depth++], root);
    while (depth) {
        dframe_t *f = &stack[depth - 1];
        if (f->next == 0) {
            cat__vec_push(&w->post, f->node);
            depth--;
            continue;
        }
        const void *child = f->children->v[--f->next];
        cat_id_t cid = *(const cat_id_t *)child;
        if (cat__map_get(&w->visited, dkey(f->child_cls, cid), NULL))
            continue;
        bool silent = false;
        if (f->child_cls == CAT_CLASS_ITEM) {
            const cat_item_t *it = child;
            /* An index is reached through its relation, not through its schema. */
            if (it->kind == CAT_ITEM_INDEX && f->node->cls == CAT_CLASS_SCHEMA)
                continue;
            silent = it->kind == CAT_ITEM_INDEX ||
                     (w->dropping_db && it->schema->database == w->dropping_db);
        } else {
            silent = w->dropping_db != NULL;
        }
        dnode_t *n = dnode_new(w, f->child_cls, child, f->node, silent);
        if (depth == cap) {
            cap *= 2;
            stack = cm_realloc(stack, cap * sizeof(dframe_t));
        }
        dframe_init(&stack[depth++], n);
    }
    free(stack);
}

static void dwalk_target(dwalk_t *w, cat_class_t cls, const void *obj)
{
    w->ntargets++;
    dnode_t *n = cat__map_get(&w->visited, dkey(cls, *(const cat_id_t *)obj), NULL);
    if (!n) {
        n = dnode_new(w, cls, obj, NULL, false);
        dwalk_visit(w, n);
    }
    n->original = true;
    if (!w->first_target)
        w->first_target = n;
}

static void describe(dwalk_t *w, const dnode_t *n, cm_buf_t *out)
{
    if (n->cls == CAT_CLASS_DATABASE)
        cm_buf_printf(out, "database %s", ((const cat_database_t *)n->obj)->name);
    else if (n->cls == CAT_CLASS_SCHEMA)
        cm_buf_printf(out, "schema %s", ((const cat_schema_t *)n->obj)->name);
    else
        cat_describe_item(w->s, w->search, n->obj, out);
}

/* Reports dependents and emits the drop ops; false with 2BP01 under RESTRICT. */
static bool dwalk_finish(dwalk_t *w, bool cascade, cat_change_t *out, cm_err_t *err)
{
    cm_buf_t detail, one;
    cm_buf_init(&detail, 0);
    cm_buf_init(&one, 0);
    size_t reported = 0, unreported = 0;
    for (size_t i = w->post.n; i-- > 0;) {
        const dnode_t *n = w->post.v[i];
        if (n->original || n->silent)
            continue;
        if (reported >= CAT__REPORTED_DEPS_MAX) {
            unreported++;
            continue;
        }
        if (reported)
            cm_buf_put_u8(&detail, '\n');
        cm_buf_reset(&one);
        describe(w, n, &one);
        if (cascade) {
            cm_buf_printf(&detail, "drop cascades to %.*s", (int)one.len, (const char *)one.data);
        } else {
            cm_buf_put(&detail, one.data, one.len);
            cm_buf_put_str(&detail, " depends on ");
            describe(w, n->from, &detail);
        }
        reported++;
    }
    if (unreported)
        cm_buf_printf(&detail, "\nand %zu other object%s (see server log for list)", unreported,
                      unreported == 1 ? "" : "s");
    cm_buf_put_u8(&detail, 0);
    bool ok = true;
    if (reported && !cascade) {
        if (w->ntargets == 1) {
            cm_buf_reset(&one);
            describe(w, w->first_target, &one);
            cm_buf_put_u8(&one, 0);
            cm_err_set(err, CAT__ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
                       "cannot drop %s because other objects depend on it", (const char *)one.data);
        } else {
            cm_err_set(err, CAT__ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
                       "cannot drop desired object(s) because other objects depend on them");
        }
        cm_err_set_detail(err, "%s", (const char *)detail.data);
        cm_err_set_hint(err, "Use DROP ... CASCADE to drop the dependent objects too.");
        ok = false;
    } else if (reported + unreported == 1) {
        cat__change_notice(out, CM_ERRCODE_SUCCESSFUL_COMPLETION, "%s", (const char *)detail.data);
    } else if (reported) {
        cm_err_t *n = cat__change_notice(out, CM_ERRCODE_SUCCESSFUL_COMPLETION, "drop cascades to %zu other objects",
                                         reported + unreported);
        cm_err_set_detail(n, "%s", (const char *)detail.data);
    }
    for (size_t i = 0; ok && i < w->post.n; i++) {
        const dnode_t *n = w->post.v[i];
        cat__op_t *op = cat__change_op(out, CAT_OP_DROP);
        op->obj.cls = n->cls;
        op->obj.id = n->id;
    }
    cm_buf_free(&detail);
    cm_buf_free(&one);
    return ok;
}

static void dwalk_init(dwalk_t *w, const cat_snap_t *s, const cat_search_t *search)
{
    memset(w, 0, sizeof(*w));
    w->s = s;
    w->search = search;
    cm_arena_init(&w->arena, 4096);
    cat__map_init(&w->visited);
}

static void dwalk_free(dwalk_t *w)
{
    cm_arena_free(&w->arena);
    cat__map_free(&w->visited);
    cat__vec_free(&w->post);
}

/* ------------------------------------------------------------- items */

static const char *kind_article(cat_item_kind_t k)
{
    return k == CAT_ITEM_INDEX ? "an" : "a";
}

static void kind_upper(cat_item_kind_t k, cm_buf_t *out)
{
    for (const char *p = cat_item_kind_name(k); *p; p++)
        cm_buf_put_u8(out, (uint8_t)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p));
    cm_buf_put_u8(out, 0);
}

/* Finds one item named in a DROP. NULL and no error: skipped (IF EXISTS). */
static const cat_item_t *drop_lookup(const cat_snap_t *s, const cat_search_t *search, cat_item_kind_t kind,
                                     const cat_qname_t *qn, bool if_exists, cat_change_t *out, cm_err_t *err)
{
    const cat_item_t *it = NULL;
    if (qn->schema) {
        const char *dbname = qn->database ? qn->database : search->database;
        const cat_database_t *db = dbname ? cat_snap_database(s, dbname) : NULL;
        if (!db && qn->database) {
            if (if_exists)
                cat__change_notice(out, CM_ERRCODE_SUCCESSFUL_COMPLETION, "database \"%s\" does not exist, skipping",
                                   qn->database);
            else
                cm_err_set(err, CM_ERRCODE_INVALID_CATALOG_NAME, "database \"%s\" does not exist", qn->database);
            return NULL;
        }
        const cat_schema_t *sc = cat_snap_schema(s, db, qn->schema);
        if (!sc) {
            if (if_exists)
                cat__change_notice(out, CM_ERRCODE_SUCCESSFUL_COMPLETION, "schema \"%s\" does not exist, skipping",
                                   qn->schema);
            else
                cm_err_set(err, CAT__ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", qn->schema);
            return NULL;
        }
        if (!cat_schema_usable(s, search, sc)) {
            cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied for schema %s", sc->name);
            return NULL;
        }
        it = cat_snap_item(s, sc, qn->name);
    } else {
        cm_err_t ignore = {0};
        it = cat_resolve_item(s, search, qn, &ignore);
        cm_err_clear(&ignore);
    }
    const char *noun = cat_item_kind_name(kind);
    if (!it) {
        if (if_exists)
            cat__change_notice(out, CM_ERRCODE_SUCCESSFUL_COMPLETION, "%s \"%s\" does not exist, skipping", noun,
                               qn->name);
        else
            cm_err_set(err, kind == CAT_ITEM_INDEX ? CM_ERRCODE_UNDEFINED_OBJECT : CM_ERRCODE_UNDEFINED_TABLE,
                       "%s \"%s\" does not exist", noun, qn->name);
        return NULL;
    }
    if (it->kind != kind) {
        cm_buf_t up;
        cm_buf_init(&up, 0);
        kind_upper(it->kind, &up);
        cm_err_set(err, CAT__ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not %s %s", it->name, kind_article(kind), noun);
        cm_err_set_hint(err, "Use DROP %s to remove %s %s.", (const char *)up.data, kind_article(it->kind),
                        cat_item_kind_name(it->kind));
        cm_buf_free(&up);
        return NULL;
    }
    /* RangeVarCallbackForDropRelation: the relation's owner or its schema's. */
    if (!cat_is_owner(s, search, &cat_item_owner_acl(s, it)->acl) && !cat_is_owner(s, search, &it->schema->acl)) {
        cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "must be owner of %s %s", cat_item_owner_noun(it),
                   qn->name);
        return NULL;
    }
    if (cat_id_is_system(it->id)) {
        cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "permission denied: \"%s\" is a system catalog",
                   it->name);
        return NULL;
    }
    return it;
}

bool cat_plan_drop_items(const cat_snap_t *s, const cat_search_t *search, cat_item_kind_t kind,
                         const cat_qname_t *names, size_t n, bool if_exists, bool cascade, cat_change_t *out,
                         cm_err_t *err)
{
    cat__change_base(out, s);
    dwalk_t w;
    dwalk_init(&w, s, search);
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        const cat_item_t *it = drop_lookup(s, search, kind, &names[i], if_exists, out, err);
        if (it)
            dwalk_target(&w, CAT_CLASS_ITEM, it);
        else if (err->set)
            ok = false;
    }
    if (ok)
        ok = dwalk_finish(&w, cascade, out, err);
    dwalk_free(&w);
    return ok;
}

/* ------------------------------------------------------------- schemas */

bool cat_plan_drop_schemas(const cat_snap_t *s, const cat_search_t *search, const cat_qname_t *names, size_t n,
                           bool if_exists, bool cascade, cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    dwalk_t w;
    dwalk_init(&w, s, search);
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        const cat_qname_t *qn = &names[i];
        const char *dbname = qn->database ? qn->database : search->database;
        const cat_database_t *db = dbname ? cat_snap_database(s, dbname) : NULL;
        if (!db && qn->database) {
            if (if_exists)
                cat__change_notice(out, CM_ERRCODE_SUCCESSFUL_COMPLETION, "database \"%s\" does not exist, skipping",
                                   qn->database);
            else
                ok = cm_err_set(err, CM_ERRCODE_INVALID_CATALOG_NAME, "database \"%s\" does not exist", qn->database);
            continue;
        }
        const cat_schema_t *sc = cat_snap_schema(s, db, qn->schema);
        if (!sc) {
            if (if_exists)
                cat__change_notice(out, CM_ERRCODE_SUCCESSFUL_COMPLETION, "schema \"%s\" does not exist, skipping",
                                   qn->schema);
            else
                ok = cm_err_set(err, CAT__ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", qn->schema);
            continue;
        }
        if (!cat_check_owner(s, search, &sc->acl, "schema", sc->name, err)) {
            ok = false;
            continue;
        }
        if (!sc->database) {
            ok = cm_err_set(err, CAT__ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
                            "cannot drop schema %s because it is required by the database system", sc->name);
            continue;
        }
        dwalk_target(&w, CAT_CLASS_SCHEMA, sc);
    }
    if (ok)
        ok = dwalk_finish(&w, cascade, out, err);
    dwalk_free(&w);
    return ok;
}

bool cat__drop_objects(const cat_snap_t *s, const cat_search_t *search, const cat_class_t *cls,
                       const void *const *objs, size_t n, size_t others, bool cascade, cat_change_t *out,
                       cm_err_t *err)
{
    cat__change_base(out, s);
    dwalk_t w;
    dwalk_init(&w, s, search);
    for (size_t i = 0; i < n; i++)
        dwalk_target(&w, cls[i], objs[i]);
    w.ntargets += others;
    bool ok = dwalk_finish(&w, cascade, out, err);
    dwalk_free(&w);
    return ok;
}

/* ------------------------------------------------------------- databases */

bool cat_plan_drop_databases(const cat_snap_t *s, const cat_search_t *search, const char *const *names, size_t n,
                             bool if_exists, cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        const cat_database_t *db = cat_snap_database(s, names[i]);
        if (!db) {
            if (if_exists)
                cat__change_notice(out, CM_ERRCODE_SUCCESSFUL_COMPLETION, "database \"%s\" does not exist, skipping",
                                   names[i]);
            else
                ok = cm_err_set(err, CM_ERRCODE_INVALID_CATALOG_NAME, "database \"%s\" does not exist", names[i]);
            continue;
        }
        if (cat__change_drops(out, CAT_CLASS_DATABASE, db->id))
            continue;
        if (!cat_check_owner(s, search, &db->acl, "database", db->name, err)) {
            ok = false;
            continue;
        }
        if (search && search->database && strcmp(search->database, db->name) == 0) {
            ok = cm_err_set(err, CAT__ERRCODE_OBJECT_IN_USE, "cannot drop the currently open database");
            continue;
        }
        /* One walk per database: only objects outside it need CASCADE, and
         * DROP DATABASE has none, so they are an error. */
        dwalk_t w;
        dwalk_init(&w, s, search);
        w.dropping_db = db;
        dwalk_target(&w, CAT_CLASS_DATABASE, db);
        ok = dwalk_finish(&w, false, out, err);
        dwalk_free(&w);
    }
    return ok;
}
