/*
 * cat_txn.c: the DDL of one transaction block as one catalog entry.
 *
 * A transaction starts from a base snapshot at index N and keeps an overlay:
 * a private copy of the base to which each statement's change is applied as
 * it is added, so later statements of the transaction plan against what the
 * earlier ones did. Each statement's change is built with the IDs and OIDs
 * it will have in the final entry at N + 1 (cat__txn_id: the k-th statement
 * creates ID N+1 + (k << 40)), so references between statements need no
 * renumbering. The final entry folds the statements' ops: an object created
 * and later redefined is created with its last definition, one created and
 * dropped does not appear, a redefinition of an existing object keeps only
 * the last one; the ops are then ordered so each comes after the creates
 * it reads or lives in. The entry is checked by applying it to another copy of the base
 * and comparing with the overlay, and the store commit (objects and name
 * keys) is the difference between the base and that result, so the whole
 * transaction is one compare-and-swap on the head at N, like any statement.
 */
#include "catalog/cat_int.h"

#include <stdlib.h>
#include <string.h>

struct cat_txn {
    const cat_snap_t *base;
    cat_snap_t *overlay;
    uint32_t nstmts;
    cm_buf_t *entries;        /* each statement's entry, as applied to the overlay */
    size_t nentries, capentries;
    cm_buf_t sql;             /* the statements' text, for the entry's record */
};

/* ------------------------------------------------------------ snapshot copies */

static void obj_of_role(const cat_role_t *r, cat_object_t *o)
{
    *o = (cat_object_t){.cls = CAT_CLASS_ROLE, .id = r->id, .oid = r->oid, .name = r->name,
                        .role_flags = r->flags, .conn_limit = r->conn_limit, .password = r->password,
                        .has_valid_until = r->has_valid_until, .valid_until = r->valid_until,
                        .deps = (cat_id_t *)r->member_of, .ndeps = r->nmember_of,
                        .settings = (const char **)r->settings, .nsettings = r->nsettings};
}

static void obj_of_db(const cat_database_t *d, cat_object_t *o)
{
    *o = (cat_object_t){.cls = CAT_CLASS_DATABASE, .id = d->id, .oid = d->oid, .name = d->name};
}

static void obj_of_schema(const cat_schema_t *sc, cat_object_t *o)
{
    *o = (cat_object_t){.cls = CAT_CLASS_SCHEMA, .id = sc->id, .oid = sc->oid, .parent = sc->database->id,
                        .name = sc->name};
}

static void obj_of_item(const cat_item_t *it, cat_object_t *o)
{
    *o = (cat_object_t){.cls = CAT_CLASS_ITEM, .id = it->id, .oid = it->oid, .parent = it->schema->id,
                        .name = it->name, .kind = it->kind, .create_sql = it->create_sql,
                        .columns = (cat_column_t *)it->columns, .ncolumns = it->ncolumns,
                        .deps = (cat_id_t *)it->deps, .ndeps = it->ndeps};
}

/* Every user object of a snapshot, encoded as the store keeps it. */
typedef struct objset {
    cat_kv_t *kv;
    cm_buf_t *bufs;
    size_t n, cap;
    cm_arena_t arena;
} objset_t;

static void objset_add(objset_t *s, const cat_object_t *o)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->kv = cm_realloc(s->kv, s->cap * sizeof(*s->kv));
        s->bufs = cm_realloc(s->bufs, s->cap * sizeof(*s->bufs));
    }
    char key[24];
    cat_object_key(o->cls, o->id, key);
    cm_buf_init(&s->bufs[s->n], 0);
    cat_object_encode(o, &s->bufs[s->n]);
    s->kv[s->n] = (cat_kv_t){.key = cm_arena_strdup(&s->arena, key), .data = NULL, .len = s->bufs[s->n].len};
    s->n++;
}

static void objset_of(const cat_snap_t *snap, objset_t *s)
{
    memset(s, 0, sizeof(*s));
    cm_arena_init(&s->arena, 4096);
    cat_object_t o;
    for (size_t i = 0; cat_snap_role_at(snap, i); i++)
        obj_of_role(cat_snap_role_at(snap, i), &o), objset_add(s, &o);
    for (size_t i = 0; cat_snap_database_at(snap, i); i++)
        obj_of_db(cat_snap_database_at(snap, i), &o), objset_add(s, &o);
    for (size_t i = 0;; i++) {
        const cat_schema_t *sc = cat_snap_schema_at(snap, i);
        if (!sc)
            break;
        if (sc->database && !cat_id_is_system(sc->id))
            obj_of_schema(sc, &o), objset_add(s, &o);
    }
    for (size_t i = 0;; i++) {
        const cat_item_t *it = cat_snap_item_at(snap, i);
        if (!it)
            break;
        if (!cat_id_is_system(it->id) && it->schema->database)
            obj_of_item(it, &o), objset_add(s, &o);
    }
    for (size_t i = 0; i < s->n; i++)
        s->kv[i].data = s->bufs[i].data;   /* the buffers moved while they grew */
}

static void objset_free(objset_t *s)
{
    for (size_t i = 0; i < s->n; i++)
        cm_buf_free(&s->bufs[i]);
    free(s->bufs);
    free(s->kv);
    cm_arena_free(&s->arena);
}

cat_snap_t *cat_snap_clone(const cat_snap_t *s)
{
    objset_t os;
    objset_of(s, &os);
    cat_snap_t *c = cat_snap_new();
    cm_err_t err = {0};
    bool ok = cat_snap_load(c, cat_snap_index(s), os.kv, os.n, &err);
    objset_free(&os);
    if (!ok)
        cm_panic(__FILE__, __LINE__, "a snapshot does not load as its own copy: %s", err.message);
    return c;
}

/* ------------------------------------------------------------ life */

cat_txn_t *cat_txn_new(const cat_snap_t *base)
{
    cat_txn_t *t = cm_calloc(1, sizeof(*t));
    t->base = base;
    t->overlay = cat_snap_clone(base);
    cm_buf_init(&t->sql, 0);
    return t;
}

void cat_txn_free(cat_txn_t *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nentries; i++)
        cm_buf_free(&t->entries[i]);
    free(t->entries);
    cm_buf_free(&t->sql);
    cat_snap_free(t->overlay);
    free(t);
}

const cat_snap_t *cat_txn_snap(const cat_txn_t *t)
{
    return t->overlay;
}

size_t cat_txn_count(const cat_txn_t *t)
{
    return t->nentries;
}

bool cat_txn_add(cat_txn_t *t, const cat_change_t *ch, const char *tag, const char *sql, cm_err_t *err)
{
    if (cat_change_op_count(ch) == 0)
        return true;
    if (t->nstmts >= CAT__TXN_STMTS_MAX)
        return cm_err_set(err, "54000", "too many DDL statements in one transaction block (at most %d)",
                          CAT__TXN_STMTS_MAX);
    uint64_t at = cat_snap_index(t->base) + 1;
    if (at >= (UINT64_C(0xC0000000) / 4) / CAT__TXN_STMTS_MAX)
        return cm_err_set(err, "54000", "DDL in a transaction block needs OIDs the catalog has used up");
    cat_head_t head = {.index = cat_snap_index(t->overlay), .version = 0};
    static const uint8_t none[16];
    cat_commit_t *c = cat__commit_build_ids(ch, t->overlay, &head, none, tag, sql, NULL, at, t->nstmts, err);
    if (!c)
        return false;
    const cat_store_commit_t *sc = cat_commit_store(c);
    bool ok = cat_snap_apply(t->overlay, sc->entry, sc->entry_len, err);
    if (ok) {
        if (t->nentries == t->capentries) {
            t->capentries = t->capentries ? 2 * t->capentries : 8;
            t->entries = cm_realloc(t->entries, t->capentries * sizeof(cm_buf_t));
        }
        cm_buf_init(&t->entries[t->nentries], 0);
        cm_buf_put(&t->entries[t->nentries++], sc->entry, sc->entry_len);
        cm_buf_printf(&t->sql, "%s%s", t->sql.len ? "; " : "", sql ? sql : tag);
        t->nstmts++;
    }
    cat_commit_free(c);
    return ok;
}

/* ------------------------------------------------------------ the one entry */

typedef struct fold {
    cat_op_t *ops;
    size_t n, cap;
} fold_t;

static long fold_find(const fold_t *f, cat_class_t cls, cat_id_t id)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->ops[i].obj.cls == cls && f->ops[i].obj.id == id)
            return (long)i;
    return -1;
}

static void fold_remove(fold_t *f, size_t i)
{
    memmove(&f->ops[i], &f->ops[i + 1], (f->n - i - 1) * sizeof(cat_op_t));
    f->n--;
}

static void fold_push(fold_t *f, const cat_op_t *op)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 16;
        f->ops = cm_realloc(f->ops, f->cap * sizeof(cat_op_t));
    }
    f->ops[f->n++] = *op;
}

static void fold_op(fold_t *f, const cat_op_t *op, uint64_t first)
{
    long at = fold_find(f, op->obj.cls, op->obj.id);
    bool made_here = cat__id_index(op->obj.id) == first;   /* created by this transaction */
    switch (op->kind) {
    case CAT_OP_CREATE:
        fold_push(f, op);
        return;
    case CAT_OP_RENAME: {
        cat_op_t o = *op;
        if (made_here)
            o.kind = CAT_OP_CREATE;   /* created with its last definition */
        if (at >= 0)
            f->ops[at] = o;           /* in its place; fold_order puts it after what it now reads */
        else
            fold_push(f, &o);
        return;
    }
    case CAT_OP_DROP:
        if (at >= 0)
            fold_remove(f, (size_t)at);
        if (!made_here)
            fold_push(f, op);
        return;
    }
}

/* Whether op reads (or lives in) an object that a not yet emitted op of f creates. */
static bool waits(const fold_t *f, const bool *done, const cat_op_t *op)
{
    if (op->kind == CAT_OP_DROP)
        return false;
    for (size_t j = 0; j < f->n; j++) {
        const cat_op_t *o = &f->ops[j];
        if (done[j] || o == op || o->kind != CAT_OP_CREATE)
            continue;
        bool parent = op->obj.cls != CAT_CLASS_DATABASE && op->obj.cls != CAT_CLASS_ROLE &&
                      op->obj.parent == o->obj.id &&
                      o->obj.cls == (op->obj.cls == CAT_CLASS_ITEM ? CAT_CLASS_SCHEMA : CAT_CLASS_DATABASE);
        bool reads = false;
        bool same = op->obj.cls == o->obj.cls && (op->obj.cls == CAT_CLASS_ITEM || op->obj.cls == CAT_CLASS_ROLE);
        for (uint32_t d = 0; same && d < op->obj.ndeps; d++)
            reads = reads || op->obj.deps[d] == o->obj.id;
        if (parent || reads)
            return true;
    }
    return false;
}

/* The ops in an order every one of them can apply in: each after the creates it needs, otherwise
 * as the statements ran. false if they wait on each other (cannot happen: no cycles). */
static bool fold_order(fold_t *f)
{
    bool *done = cm_calloc(f->n ? f->n : 1, sizeof(bool));
    cat_op_t *out = cm_malloc((f->n ? f->n : 1) * sizeof(cat_op_t));
    size_t n = 0;
    bool progress = true;
    while (n < f->n && progress) {
        progress = false;
        for (size_t i = 0; i < f->n; i++) {
            if (done[i] || waits(f, done, &f->ops[i]))
                continue;
            out[n++] = f->ops[i];
            done[i] = true;
            progress = true;
        }
    }
    bool ok = n == f->n;
    if (ok)
        memcpy(f->ops, out, n * sizeof(cat_op_t));
    free(out);
    free(done);
    return ok;
}

/* The name key of an object in a snapshot (NUL-terminated, into out). */
static void name_key_of(const cat_snap_t *s, cat_class_t cls, cat_id_t id, cm_buf_t *out)
{
    if (cls == CAT_CLASS_ROLE) {
        cat_name_key(cls, cat_snap_role_by_id(s, id)->name, NULL, NULL, out);
    } else if (cls == CAT_CLASS_DATABASE) {
        cat_name_key(cls, cat_snap_database_by_id(s, id)->name, NULL, NULL, out);
    } else if (cls == CAT_CLASS_SCHEMA) {
        const cat_schema_t *sc = cat_snap_schema_by_id(s, id);
        cat_name_key(cls, sc->database->name, sc->name, NULL, out);
    } else {
        const cat_item_t *it = cat_snap_item_by_id(s, id);
        cat_name_key(cls, it->schema->database->name, it->schema->name, it->name, out);
    }
}

static bool same_dump(const cat_snap_t *a, const cat_snap_t *b)
{
    cm_buf_t x, y;
    cm_buf_init(&x, 0);
    cm_buf_init(&y, 0);
    cat_snap_dump(a, &x);
    cat_snap_dump(b, &y);
    /* The first line is the index, which differs by design. */
    const char *px = memchr(x.data, '\n', x.len), *py = memchr(y.data, '\n', y.len);
    size_t lx = x.len - (size_t)(px - (const char *)x.data), ly = y.len - (size_t)(py - (const char *)y.data);
    bool same = lx == ly && memcmp(px, py, lx) == 0;
    cm_buf_free(&x);
    cm_buf_free(&y);
    return same;
}

cat_commit_t *cat_txn_commit(const cat_txn_t *t, const cat_head_t *head, const uint8_t request_uuid[16],
                             const cat_limits_t *limits, cm_err_t *err)
{
    CM_ASSERT(head->index == cat_snap_index(t->base));
    uint64_t first = head->index + 1;
    cm_arena_t a;
    cm_arena_init(&a, 4096);
    fold_t f = {0};
    bool ok = true;
    for (size_t i = 0; ok && i < t->nentries; i++) {
        cat_entry_t e;
        ok = cat_entry_decode(t->entries[i].data, t->entries[i].len, &a, &e, err);
        for (uint32_t k = 0; ok && k < e.nops; k++)
            fold_op(&f, &e.ops[k], first);
    }
    if (ok && !fold_order(&f))
        ok = cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                        "this combination of DDL statements cannot be committed as one transaction");
    cat_entry_t entry = {.format = CAT_FORMAT, .index = first, .kind = "COMMIT",
                         .sql = t->sql.len ? cm_arena_strndup(&a, (const char *)t->sql.data, t->sql.len) : ""};
    memcpy(entry.request_uuid, request_uuid, 16);
    entry.ops = f.ops;
    entry.nops = (uint32_t)f.n;
    size_t ndeps = 0;
    for (size_t i = 0; i < f.n; i++)
        ndeps += f.ops[i].kind == CAT_OP_CREATE && f.ops[i].obj.cls == CAT_CLASS_ITEM ? f.ops[i].obj.ndeps : 0;
    entry.deps = cm_arena_alloc(&a, (ndeps ? ndeps : 1) * sizeof(cat_id_t));
    for (size_t i = 0; i < f.n; i++)
        for (uint32_t d = 0; f.ops[i].kind == CAT_OP_CREATE && f.ops[i].obj.cls == CAT_CLASS_ITEM && d < f.ops[i].obj.ndeps;
             d++) {
            bool seen = false;
            for (uint32_t j = 0; j < entry.ndeps; j++)
                seen = seen || entry.deps[j] == f.ops[i].obj.deps[d];
            if (!seen)
                entry.deps[entry.ndeps++] = f.ops[i].obj.deps[d];
        }
    cm_buf_t eb;
    cm_buf_init(&eb, 0);
    cat_commit_t *c = NULL;
    cat_snap_t *after = NULL;
    if (ok) {
        cat_entry_encode(&entry, &eb);
        /* The one entry must do exactly what the statements did, one after the other. */
        after = cat_snap_clone(t->base);
        cm_err_t e = {0};
        if (!cat_snap_apply(after, eb.data, eb.len, &e) || !same_dump(after, t->overlay)) {
            cm_err_clear(&e);
            ok = cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                            "this combination of DDL statements cannot be committed as one transaction");
        }
    }
    if (ok) {
        /* The store's objects and names: what differs between the base and the result. */
        objset_t before_set, after_set;
        objset_of(t->base, &before_set);
        objset_of(after, &after_set);
        c = cat__commit_new(head, first, request_uuid, eb.data, eb.len, before_set.n + after_set.n);
        cm_buf_t k1, k2;
        cm_buf_init(&k1, 0);
        cm_buf_init(&k2, 0);
        for (size_t i = 0; i < before_set.n; i++) {
            cat_class_t cls;
            cat_id_t id;
            cat_object_key_parse(before_set.kv[i].key, &cls, &id);
            bool touched = fold_find(&f, cls, id) >= 0;
            bool kept = (cls == CAT_CLASS_ROLE       ? cat_snap_role_by_id(after, id) != NULL
                         : cls == CAT_CLASS_DATABASE ? cat_snap_database_by_id(after, id) != NULL
                         : cls == CAT_CLASS_SCHEMA ? cat_snap_schema_by_id(after, id) != NULL
                                                   : cat_snap_item_by_id(after, id) != NULL);
            k1.len = k2.len = 0;
            name_key_of(t->base, cls, id, &k1);
            if (kept)
                name_key_of(after, cls, id, &k2);
            if (!kept || touched)
                cat__commit_obj_delete(c, before_set.kv[i].key);
            if (!kept || strcmp((const char *)k1.data, (const char *)k2.data) != 0) {
                cat__commit_name_delete(c, (const char *)k1.data);
                if (kept)
                    cat__commit_name_create(c, (const char *)k2.data, before_set.kv[i].key);
            }
        }
        for (size_t i = 0; i < after_set.n; i++) {
            cat_class_t cls;
            cat_id_t id;
            cat_object_key_parse(after_set.kv[i].key, &cls, &id);
            bool existed = (cls == CAT_CLASS_ROLE       ? cat_snap_role_by_id(t->base, id) != NULL
                            : cls == CAT_CLASS_DATABASE ? cat_snap_database_by_id(t->base, id) != NULL
                            : cls == CAT_CLASS_SCHEMA ? cat_snap_schema_by_id(t->base, id) != NULL
                                                      : cat_snap_item_by_id(t->base, id) != NULL);
            if (existed && fold_find(&f, cls, id) < 0)
                continue;
            cat__commit_obj_create(c, after_set.kv[i].key, after_set.kv[i].data, after_set.kv[i].len);
            if (!existed) {
                k2.len = 0;
                name_key_of(after, cls, id, &k2);
                cat__commit_name_create(c, (const char *)k2.data, after_set.kv[i].key);
            }
        }
        cm_buf_free(&k1);
        cm_buf_free(&k2);
        objset_free(&before_set);
        objset_free(&after_set);
        if (limits && !cat_store_commit_check_size(cat_commit_store(c), limits, err)) {
            cat_commit_free(c);
            c = NULL;
        }
    }
    if (after)
        cat_snap_free(after);
    cm_buf_free(&eb);
    free(f.ops);
    cm_arena_free(&a);
    return c;
}
