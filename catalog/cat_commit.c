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
    cm_buf_t *bufs;   /* object encodings, one buffer each */
    size_t nbufs;
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

cat_commit_t *cat_commit_build(const cat_change_t *ch, const cat_snap_t *s, const cat_head_t *head,
                               const uint8_t request_uuid[16], const char *tag, const char *sql,
                               const cat_limits_t *limits, cm_err_t *err)
{
    CM_ASSERT(head->index == cat_snap_index(s));
    CM_ASSERT(!ch->based || ch->base_index == head->index);
    uint64_t index = head->index + 1;
    cat_commit_t *c = cm_calloc(1, sizeof(*c));
    cm_arena_init(&c->arena, 4096);
    cm_buf_init(&c->entry, 0);
    size_t n = ch->nops ? ch->nops : 1;
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
                if (op->obj.cls == CAT_CLASS_DATABASE) {
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
                /* The object is rewritten in place (delete and create of one
                 * key in one commit) and the name index moves with it. */
                const cat_item_t *it = cat_snap_item_by_id(s, op->obj.id);
                const char *okey = key_str(c, CAT_CLASS_ITEM, it->id);
                const char *db = it->schema->database->name, *sch = it->schema->name;
                c->obj_deletes[c->nobj_d++] = okey;
                c->name_deletes[c->nname_d++] = name_str(c, CAT_CLASS_ITEM, db, sch, it->name);
                cm_buf_t *b = &c->bufs[c->nbufs++];
                cm_buf_init(b, 0);
                cat_object_encode(&eo->obj, b);
                c->obj_creates[c->nobj_c++] = (cat_kv_t){.key = okey, .data = b->data, .len = b->len};
                c->name_creates[c->nname_c++] = (cat_kv_t){
                    .key = name_str(c, CAT_CLASS_ITEM, db, sch, eo->obj.name), .data = (const uint8_t *)okey,
                    .len = strlen(okey)};
                continue;
            }
            cat_object_t *o = &eo->obj;
            o->id = index;
            o->oid = cat__oid_for(index, o->cls);
            const char *name_key;
            if (o->cls == CAT_CLASS_DATABASE) {
                new_db_name = o->name;
                name_key = name_str(c, CAT_CLASS_DATABASE, o->name, NULL, NULL);
            } else if (o->cls == CAT_CLASS_SCHEMA) {
                const char *dbname;
                if (o->parent == 0) {
                    CM_ASSERT(new_db_name);
                    o->parent = index;
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

cat_commit_t *cat_commit_bootstrap(const cat_head_t *head, const cat_limits_t *limits, cm_err_t *err)
{
    CM_ASSERT(head->index == 0);
    cat_snap_t *s = cat_snap_new();
    cat_change_t *ch = cat_change_new();
    cat_commit_t *c = NULL;
    /* A fixed request ID: two processes bootstrapping one empty store race
     * on the head, and the loser learns it is done from the marker. */
    static const uint8_t boot_uuid[16] = {'e', 'd', 'd', 'y', '-', 'b', 'o', 'o', 't', 's', 't', 'r', 'a', 'p', 0, 1};
    if (cat_plan_create_database(s, "eddy", false, ch, err))
        c = cat_commit_build(ch, s, head, boot_uuid, "BOOTSTRAP", "CREATE DATABASE eddy", limits, err);
    cat_change_free(ch);
    cat_snap_free(s);
    return c;
}
