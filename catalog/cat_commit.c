/*
 * cat_commit.c: from a validated change to the store's atomic commit.
 *
 * The commit index N+1 is fixed here, under the assumption the head is still
 * N; the store's compare-and-swap checks exactly that. Because IDs and OIDs
 * are functions of the index, the log entry, the objects and the name keys
 * are complete before anything is sent, so one store transaction carries the
 * statement's whole effect.
 */
#include "catalog/cat_int.h"

#include <stdlib.h>
#include <string.h>

struct cat_commit {
    cat_store_commit_t sc;
    cm_arena_t arena;
    cm_buf_t entry;
    cat_kv_t *obj_creates, *name_creates;
    const char **obj_deletes, **name_deletes;
    size_t nobj_c, nname_c, nobj_d, nname_d;
    size_t cap;       /* of each of the four arrays above */
    cm_buf_t *bufs;   /* object encodings, one buffer each */
    size_t nbufs;
    size_t capbufs;   /* cat__commit_obj_create: bufs grows; else sized once */
};

const cat_store_commit_t *cat_commit_store(const cat_commit_t *c)
{
    return &c->sc;
}

void cat_commit_free(cat_commit_t *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nbufs; i++)
        cm_buf_free(&c->bufs[i]);
    free(c->bufs);
    free(c->obj_creates);
    free(c->name_creates);
    free(c->obj_deletes);
    free(c->name_deletes);
    cm_buf_free(&c->entry);
    cm_arena_free(&c->arena);
    free(c);
}

static const char *key_str(cat_commit_t *c, cat_class_t cls, cat_id_t id)
{
    char k[24];
    cat_object_key(cls, id, k);
    return cm_arena_strdup(&c->arena, k);
}

static const char *name_str(cat_commit_t *c, cat_class_t cls, const char *db, const char *schema, const char *name)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cat_name_key(cls, db, schema, name, &b);
    const char *s = cm_arena_strdup(&c->arena, (const char *)b.data);
    cm_buf_free(&b);
    return s;
}

/* The name an object has once this change is applied (a RENAME op's, else its own). */
static const char *renamed_to(const cat_change_t *ch, cat_class_t cls, cat_id_t id, const char *name)
{
    for (size_t i = 0; i < ch->nops; i++)
        if (ch->ops[i].kind == CAT_OP_RENAME && ch->ops[i].obj.cls == cls && ch->ops[i].obj.id == id)
            return ch->ops[i].obj.name;
    return name;
}

/* True if this change gives a schema or database another name (not just a new definition). */
static bool name_changes(const cat_change_t *ch, const cat_snap_t *s, cat_class_t cls, cat_id_t id)
{
    const char *to = renamed_to(ch, cls, id, NULL);
    if (!to)
        return false;
    const char *now = cls == CAT_CLASS_DATABASE ? cat_snap_database_by_id(s, id)->name
                                                : cat_snap_schema_by_id(s, id)->name;
    return strcmp(now, to) != 0;
}

/* Moves the name key of every item of a schema whose database or own name changes. */
static void move_items(cat_commit_t *c, const cat_change_t *ch, const cat_schema_t *sc, const char *new_db,
                       const char *new_schema)
{
    const cat__vec_t *items = &((const cat__schema_t *)sc)->items;
    for (size_t i = 0; i < items->n; i++) {
        const cat_item_t *it = items->v[i];
        const char *okey = key_str(c, CAT_CLASS_ITEM, it->id);
        c->name_deletes[c->nname_d++] = name_str(c, CAT_CLASS_ITEM, sc->database->name, sc->name, it->name);
        c->name_creates[c->nname_c++] = (cat_kv_t){
            .key = name_str(c, CAT_CLASS_ITEM, new_db, new_schema, renamed_to(ch, CAT_CLASS_ITEM, it->id, it->name)),
            .data = (const uint8_t *)okey, .len = strlen(okey)};
    }
}

static void grow(cat_commit_t *c, size_t more)
{
    size_t n = c->nobj_c + c->nobj_d + c->nname_c + c->nname_d + more;
    if (n <= c->cap)
        return;
    c->cap = n * 2;
    c->obj_creates = cm_realloc(c->obj_creates, c->cap * sizeof(cat_kv_t));
    c->name_creates = cm_realloc(c->name_creates, c->cap * sizeof(cat_kv_t));
    c->obj_deletes = cm_realloc(c->obj_deletes, c->cap * sizeof(char *));
    c->name_deletes = cm_realloc(c->name_deletes, c->cap * sizeof(char *));
}

/*
 * A RENAME op: the object is rewritten in place (delete and create of one
 * key in one commit) and the name index moves with it; a schema or database
 * moves the names of everything inside it too, under the names this change
 * gives them.
 */
static void rename_keys(cat_commit_t *c, const cat_change_t *ch, const cat_snap_t *s, const cat_object_t *o)
{
    const char *okey = key_str(c, o->cls, o->id);
    cm_buf_t *b = &c->bufs[c->nbufs++];
    cm_buf_init(b, 0);
    cat_object_encode(o, b);
    grow(c, 2);
    c->obj_deletes[c->nobj_d++] = okey;
    c->obj_creates[c->nobj_c++] = (cat_kv_t){.key = okey, .data = b->data, .len = b->len};
    const char *new_key = NULL, *old_key = NULL;
    if (o->cls == CAT_CLASS_ROLE) {
        const cat_role_t *r = cat_snap_role_by_id(s, o->id);
        if (strcmp(r->name, o->name) == 0)
            return;   /* redefined under its own name */
        old_key = name_str(c, CAT_CLASS_ROLE, r->name, NULL, NULL);
        new_key = name_str(c, CAT_CLASS_ROLE, o->name, NULL, NULL);
    } else if (o->cls == CAT_CLASS_DATABASE) {
        const cat_database_t *d = cat_snap_database_by_id(s, o->id);
        if (strcmp(d->name, o->name) == 0)
            return;   /* redefined under its own name: what is inside keeps its names */
        old_key = name_str(c, CAT_CLASS_DATABASE, d->name, NULL, NULL);
        new_key = name_str(c, CAT_CLASS_DATABASE, o->name, NULL, NULL);
        const cat__vec_t *schemas = &((const cat__db_t *)d)->schemas;
        for (size_t i = 0; i < schemas->n; i++) {
            const cat_schema_t *sc = schemas->v[i];
            const char *skey = key_str(c, CAT_CLASS_SCHEMA, sc->id);
            const char *sname = renamed_to(ch, CAT_CLASS_SCHEMA, sc->id, sc->name);
            grow(c, 2 + 2 * ((const cat__schema_t *)sc)->items.n);
            c->name_deletes[c->nname_d++] = name_str(c, CAT_CLASS_SCHEMA, d->name, sc->name, NULL);
            c->name_creates[c->nname_c++] = (cat_kv_t){.key = name_str(c, CAT_CLASS_SCHEMA, o->name, sname, NULL),
                                                       .data = (const uint8_t *)skey, .len = strlen(skey)};
            move_items(c, ch, sc, o->name, sname);
        }
    } else if (o->cls == CAT_CLASS_SCHEMA) {
        const cat_schema_t *sc = cat_snap_schema_by_id(s, o->id);
        if (name_changes(ch, s, CAT_CLASS_DATABASE, sc->database->id))
            return;   /* its database's rename moves its names */
        if (strcmp(sc->name, o->name) == 0)
            return;   /* redefined under its own name (a dropped item's name must not come back) */
        old_key = name_str(c, CAT_CLASS_SCHEMA, sc->database->name, sc->name, NULL);
        new_key = name_str(c, CAT_CLASS_SCHEMA, sc->database->name, o->name, NULL);
        grow(c, 2 + 2 * ((const cat__schema_t *)sc)->items.n);
        move_items(c, ch, sc, sc->database->name, o->name);
    } else {
        const cat_item_t *it = cat_snap_item_by_id(s, o->id);
        if (name_changes(ch, s, CAT_CLASS_SCHEMA, it->schema->id) ||
            name_changes(ch, s, CAT_CLASS_DATABASE, it->schema->database->id))
            return;   /* its container's rename moves its name */
        if (strcmp(it->name, o->name) == 0)
            return;   /* redefined under its own name */
        const char *db = it->schema->database->name, *sch = it->schema->name;
        old_key = name_str(c, CAT_CLASS_ITEM, db, sch, it->name);
        new_key = name_str(c, CAT_CLASS_ITEM, db, sch, o->name);
    }
    grow(c, 2);
    c->name_deletes[c->nname_d++] = old_key;
    c->name_creates[c->nname_c++] = (cat_kv_t){.key = new_key, .data = (const uint8_t *)okey, .len = strlen(okey)};
}

cat_commit_t *cat_commit_build(const cat_change_t *ch, const cat_snap_t *s, const cat_head_t *head,
                               const uint8_t request_uuid[16], const char *tag, const char *sql,
                               const cat_limits_t *limits, cm_err_t *err)
{
    return cat__commit_build_ids(ch, s, head, request_uuid, tag, sql, limits, head->index + 1, 0, err);
}

cat_commit_t *cat__commit_build_ids(const cat_change_t *ch, const cat_snap_t *s, const cat_head_t *head,
                                    const uint8_t request_uuid[16], const char *tag, const char *sql,
                                    const cat_limits_t *limits, uint64_t id_index, uint32_t k, cm_err_t *err)
{
    CM_ASSERT(head->index == cat_snap_index(s));
    CM_ASSERT(!ch->based || ch->base_index == head->index);
    uint64_t index = head->index + 1;
    cat_id_t new_id = cat__txn_id(id_index, k);
    cat_commit_t *c = cm_calloc(1, sizeof(*c));
    cm_arena_init(&c->arena, 4096);
    cm_buf_init(&c->entry, 0);
    size_t n = ch->nops ? ch->nops : 1;
    c->cap = n;
    c->obj_creates = cm_calloc(n, sizeof(cat_kv_t));
    c->name_creates = cm_calloc(n, sizeof(cat_kv_t));
    c->obj_deletes = cm_calloc(n, sizeof(char *));
    c->name_deletes = cm_calloc(n, sizeof(char *));
    c->bufs = cm_calloc(n, sizeof(cm_buf_t));

    cat_entry_t e = {.format = CAT_FORMAT, .index = index, .kind = tag, .sql = sql};
    memcpy(e.request_uuid, request_uuid, 16);
    e.ops = cm_arena_zalloc(&c->arena, n * sizeof(cat_op_t));
    size_t ndeps = 0;
    for (size_t i = 0; i < ch->nops; i++)
        if (ch->ops[i].kind == CAT_OP_CREATE)
            ndeps += ch->ops[i].obj.ndeps;
    e.deps = ndeps ? cm_arena_alloc(&c->arena, ndeps * sizeof(cat_id_t)) : NULL;
    const char *new_db_name = NULL;

    /* Drops first, in walk order, then creates: the store checks and applies
     * them in this order too, so a name freed by a drop may be reused. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < ch->nops; i++) {
            const cat__op_t *op = &ch->ops[i];
            if ((pass == 0) != (op->kind == CAT_OP_DROP))
                continue;
            cat_op_t *eo = &e.ops[e.nops++];
            eo->kind = op->kind;
            eo->obj = op->obj;
            if (op->kind == CAT_OP_DROP) {
                const cat_id_t id = op->obj.id;
                c->obj_deletes[c->nobj_d++] = key_str(c, op->obj.cls, id);
                if (op->obj.cls == CAT_CLASS_ROLE) {
                    const cat_role_t *r = cat_snap_role_by_id(s, id);
                    c->name_deletes[c->nname_d++] = name_str(c, CAT_CLASS_ROLE, r->name, NULL, NULL);
                } else if (op->obj.cls == CAT_CLASS_DATABASE) {
                    const cat_database_t *d = cat_snap_database_by_id(s, id);
                    c->name_deletes[c->nname_d++] = name_str(c, CAT_CLASS_DATABASE, d->name, NULL, NULL);
                } else if (op->obj.cls == CAT_CLASS_SCHEMA) {
                    const cat_schema_t *sc = cat_snap_schema_by_id(s, id);
                    c->name_deletes[c->nname_d++] =
                        name_str(c, CAT_CLASS_SCHEMA, sc->database->name, sc->name, NULL);
                } else {
                    const cat_item_t *it = cat_snap_item_by_id(s, id);
                    c->name_deletes[c->nname_d++] =
                        name_str(c, CAT_CLASS_ITEM, it->schema->database->name, it->schema->name, it->name);
                }
                continue;
            }
            if (op->kind == CAT_OP_RENAME) {
                rename_keys(c, ch, s, &eo->obj);
                continue;
            }
            cat_object_t *o = &eo->obj;
            o->id = new_id;
            o->oid = cat__txn_oid(id_index, k, o->cls);
            const char *name_key;
            if (o->cls == CAT_CLASS_ROLE) {
                name_key = name_str(c, CAT_CLASS_ROLE, o->name, NULL, NULL);
            } else if (o->cls == CAT_CLASS_DATABASE) {
                new_db_name = o->name;
                name_key = name_str(c, CAT_CLASS_DATABASE, o->name, NULL, NULL);
            } else if (o->cls == CAT_CLASS_SCHEMA) {
                const char *dbname;
                if (o->parent == 0) {
                    CM_ASSERT(new_db_name);
                    o->parent = new_id;
                    dbname = new_db_name;
                } else {
                    dbname = cat_snap_database_by_id(s, o->parent)->name;
                }
                name_key = name_str(c, CAT_CLASS_SCHEMA, dbname, o->name, NULL);
            } else {
                const cat_schema_t *sc = cat_snap_schema_by_id(s, o->parent);
                name_key = name_str(c, CAT_CLASS_ITEM, sc->database->name, sc->name, o->name);
                for (uint32_t d = 0; d < o->ndeps; d++) {
                    bool seen = false;
                    for (size_t j = 0; j < e.ndeps; j++)
                        seen = seen || e.deps[j] == o->deps[d];
                    if (!seen)
                        e.deps[e.ndeps++] = o->deps[d];
                }
            }
            const char *okey = key_str(c, o->cls, o->id);
            cm_buf_t *b = &c->bufs[c->nbufs++];
            cm_buf_init(b, 0);
            cat_object_encode(o, b);
            c->obj_creates[c->nobj_c++] = (cat_kv_t){.key = okey, .data = b->data, .len = b->len};
            c->name_creates[c->nname_c++] =
                (cat_kv_t){.key = name_key, .data = (const uint8_t *)okey, .len = strlen(okey)};
        }
    }
    cat_entry_encode(&e, &c->entry);
    cat_store_commit_t *sc = &c->sc;
    sc->expect = *head;
    sc->index = index;
    memcpy(sc->request_uuid, request_uuid, 16);
    sc->entry = c->entry.data;
    sc->entry_len = c->entry.len;
    sc->obj_creates = c->obj_creates;
    sc->n_obj_creates = c->nobj_c;
    sc->obj_deletes = c->obj_deletes;
    sc->n_obj_deletes = c->nobj_d;
    sc->name_creates = c->name_creates;
    sc->n_name_creates = c->nname_c;
    sc->name_deletes = c->name_deletes;
    sc->n_name_deletes = c->nname_d;
    if (limits && !cat_store_commit_check_size(sc, limits, err)) {
        cat_commit_free(c);
        return NULL;
    }
    return c;
}

/* ------------------------------------------------------------ built key by key (cat_txn.c) */

cat_commit_t *cat__commit_new(const cat_head_t *head, uint64_t index, const uint8_t request_uuid[16],
                              const uint8_t *entry, size_t entry_len, size_t nobjects)
{
    cat_commit_t *c = cm_calloc(1, sizeof(*c));
    cm_arena_init(&c->arena, 4096);
    cm_buf_init(&c->entry, 0);
    cm_buf_put(&c->entry, entry, entry_len);
    size_t n = nobjects ? nobjects : 1;
    c->cap = n;
    c->obj_creates = cm_calloc(n, sizeof(cat_kv_t));
    c->name_creates = cm_calloc(n, sizeof(cat_kv_t));
    c->obj_deletes = cm_calloc(n, sizeof(char *));
    c->name_deletes = cm_calloc(n, sizeof(char *));
    c->bufs = cm_calloc(n, sizeof(cm_buf_t));
    c->capbufs = n;
    cat_store_commit_t *sc = &c->sc;
    sc->expect = *head;
    sc->index = index;
    memcpy(sc->request_uuid, request_uuid, 16);
    sc->entry = c->entry.data;
    sc->entry_len = c->entry.len;
    return c;
}

/* The store commit's arrays, pointed at after every addition (they may move). */
static void commit_sync(cat_commit_t *c)
{
    cat_store_commit_t *sc = &c->sc;
    sc->obj_creates = c->obj_creates;
    sc->n_obj_creates = c->nobj_c;
    sc->obj_deletes = c->obj_deletes;
    sc->n_obj_deletes = c->nobj_d;
    sc->name_creates = c->name_creates;
    sc->n_name_creates = c->nname_c;
    sc->name_deletes = c->name_deletes;
    sc->n_name_deletes = c->nname_d;
}

void cat__commit_obj_delete(cat_commit_t *c, const char *key)
{
    grow(c, 1);
    c->obj_deletes[c->nobj_d++] = cm_arena_strdup(&c->arena, key);
    commit_sync(c);
}

void cat__commit_obj_create(cat_commit_t *c, const char *key, const uint8_t *data, size_t len)
{
    grow(c, 1);
    if (c->nbufs == c->capbufs) {
        c->capbufs = c->capbufs ? 2 * c->capbufs : 16;
        c->bufs = cm_realloc(c->bufs, c->capbufs * sizeof(cm_buf_t));
    }
    cm_buf_t *b = &c->bufs[c->nbufs++];
    cm_buf_init(b, 0);
    cm_buf_put(b, data, len);
    c->obj_creates[c->nobj_c++] = (cat_kv_t){.key = cm_arena_strdup(&c->arena, key), .data = b->data, .len = b->len};
    commit_sync(c);
}

void cat__commit_name_delete(cat_commit_t *c, const char *name_key)
{
    grow(c, 1);
    c->name_deletes[c->nname_d++] = cm_arena_strdup(&c->arena, name_key);
    commit_sync(c);
}

void cat__commit_name_create(cat_commit_t *c, const char *name_key, const char *object_key)
{
    grow(c, 1);
    const char *okey = cm_arena_strdup(&c->arena, object_key);
    c->name_creates[c->nname_c++] =
        (cat_kv_t){.key = cm_arena_strdup(&c->arena, name_key), .data = (const uint8_t *)okey, .len = strlen(okey)};
    commit_sync(c);
}

cat_commit_t *cat_commit_bootstrap(const cat_head_t *head, const cat_limits_t *limits, cm_err_t *err)
{
    CM_ASSERT(head->index == 0);
    cat_snap_t *s = cat_snap_new();
    cat_change_t *ch = cat_change_new();
    cat_commit_t *c = NULL;
    /* A fixed request ID: two processes bootstrapping one empty store race
     * on the head, and the loser learns it is done from the marker. */
    static const uint8_t boot_uuid[16] = {'e', 'd', 'd', 'y', '-', 'b', 'o', 'o', 't', 's', 't', 'r', 'a', 'p', 0, 1};
    if (cat_plan_create_database(s, NULL, "eddy", false, ch, err))
        c = cat_commit_build(ch, s, head, boot_uuid, "BOOTSTRAP", "CREATE DATABASE eddy", limits, err);
    cat_change_free(ch);
    cat_snap_free(s);
    return c;
}
