/*
 * cat_int.h: the catalog module's internal header.
 *
 * The hash map every part uses, the bounds-checked record reader and writer
 * of the entry/object format, the snapshot's node types and the change's
 * op list. Nothing outside catalog/ includes this file.
 */
#ifndef EDDY_CAT_INT_H
#define EDDY_CAT_INT_H

#include "catalog/catalog.h"

/* SQLSTATEs the catalog raises that common.h does not name. */
#define CAT__ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST "2BP01"
#define CAT__ERRCODE_INVALID_SCHEMA_NAME "3F000"
#define CAT__ERRCODE_DUPLICATE_TABLE "42P07"
#define CAT__ERRCODE_DUPLICATE_SCHEMA "42P06"
#define CAT__ERRCODE_DUPLICATE_DATABASE "42P04"
#define CAT__ERRCODE_DUPLICATE_COLUMN "42701"
#define CAT__ERRCODE_WRONG_OBJECT_TYPE "42809"
#define CAT__ERRCODE_INSUFFICIENT_PRIVILEGE "42501"
#define CAT__ERRCODE_RESERVED_NAME "42939"
#define CAT__ERRCODE_OBJECT_IN_USE "55006"
#define CAT__ERRCODE_TOO_MANY_COLUMNS "54011"
#define CAT__ERRCODE_DUPLICATE_OBJECT "42710"
#define CAT__ERRCODE_INVALID_GRANT_OPERATION "0LP01"

/* PostgreSQL's MaxHeapAttributeNumber. */
#define CAT__COLUMNS_MAX 1600
/* PostgreSQL's MAX_REPORTED_DEPS: dependents listed in one DETAIL. */
#define CAT__REPORTED_DEPS_MAX 100

/* ------------------------------------------------------------- hash map */

/*
 * Open addressing with linear probing. A key is a u64 plus an optional
 * string, which covers "by ID", "by OID" and "name within a parent ID". The
 * map does not own key strings: they live in the value they index.
 */
typedef struct cat__slot {
    uint64_t k;
    const char *s;
    void *v;
    uint64_t hash;   /* 0: empty; 1: deleted; else the hash with the low bit forced to 2 */
} cat__slot_t;

typedef struct cat__map {
    cat__slot_t *slots;
    size_t cap;      /* a power of two, or 0 */
    size_t count;
    size_t used;     /* count plus deleted slots */
} cat__map_t;

void cat__map_init(cat__map_t *m);
void cat__map_free(cat__map_t *m);
void *cat__map_get(const cat__map_t *m, uint64_t k, const char *s);
/* Inserts or replaces. */
void cat__map_put(cat__map_t *m, uint64_t k, const char *s, void *v);
/* Returns the removed value or NULL. */
void *cat__map_del(cat__map_t *m, uint64_t k, const char *s);
/* Iteration: i from 0; returns false at the end. */
bool cat__map_next(const cat__map_t *m, size_t *i, uint64_t *k, const char **s, void **v);

/* ------------------------------------------------------------- records */

enum {
    CAT__WIRE_UINT = 1,     /* 8 bytes big-endian */
    CAT__WIRE_STRING = 2,   /* UTF-8, no NUL */
    CAT__WIRE_BYTES = 3,
    CAT__WIRE_RECORD = 4,   /* nested fields */
};

enum {
    CAT__REC_ENTRY = 'E',
    CAT__REC_OBJECT = 'O',
};

#define CAT__MAGIC "EDDY"
#define CAT__HEADER_LEN 6   /* magic, format, record type */
#define CAT__NEST_MAX 8     /* records nested deeper are refused */

typedef struct cat__wr {
    cm_buf_t *b;
    size_t open[CAT__NEST_MAX];
    int depth;
} cat__wr_t;

void cat__wr_begin(cat__wr_t *w, cm_buf_t *b, uint8_t rectype);
void cat__wr_uint(cat__wr_t *w, uint16_t tag, uint64_t v);
void cat__wr_str(cat__wr_t *w, uint16_t tag, const char *s);   /* NULL: field omitted */
void cat__wr_bytes(cat__wr_t *w, uint16_t tag, const void *p, size_t n);
void cat__wr_open(cat__wr_t *w, uint16_t tag);
void cat__wr_close(cat__wr_t *w);

/* A cursor over one level of fields; every length is checked against what remains. */
typedef struct cat__rd {
    const uint8_t *p;
    size_t len;
    size_t pos;
} cat__rd_t;

typedef struct cat__field {
    uint16_t tag;
    uint8_t wire;
    const uint8_t *p;
    uint32_t len;
} cat__field_t;

/* Checks magic, format (<= CAT_FORMAT) and record type; positions rd on the fields. */
bool cat__rd_begin(cat__rd_t *rd, const uint8_t *p, size_t len, uint8_t rectype, cm_err_t *err);
/* 1: a field; 0: the end; -1: malformed (err set). */
int cat__rd_next(cat__rd_t *rd, cat__field_t *f, cm_err_t *err);
bool cat__field_uint(const cat__field_t *f, uint64_t *v, cm_err_t *err);
/* A string copied into the arena with a NUL; must be valid UTF-8. */
bool cat__field_str(const cat__field_t *f, cm_arena_t *a, const char **out, cm_err_t *err);
void cat__rd_sub(const cat__field_t *f, cat__rd_t *sub);
bool cat__corrupt(cm_err_t *err, const char *what);

/* Object fields inside a record (shared by objects and entry ops). */
void cat__object_write(cat__wr_t *w, const cat_object_t *o);
bool cat__object_read(cat__rd_t *rd, cm_arena_t *a, cat_object_t *o, int depth, cm_err_t *err);

/* ------------------------------------------------------------- snapshot */

/* A growable array of pointers. */
typedef struct cat__vec {
    void **v;
    size_t n;
    size_t cap;
} cat__vec_t;

void cat__vec_push(cat__vec_t *v, void *p);
void cat__vec_free(cat__vec_t *v);
bool cat__vec_remove(cat__vec_t *v, void *p);   /* keeps the order */

typedef struct cat__db {
    cat_database_t pub;    /* first: a cat_database_t pointer is a cat__db_t pointer */
    cm_arena_t arena;
    cat__vec_t schemas;    /* cat__schema_t, ascending ID */
} cat__db_t;

typedef struct cat__schema {
    cat_schema_t pub;
    cm_arena_t arena;
    cat__vec_t items;      /* cat__item_t, ascending ID */
} cat__schema_t;

typedef struct cat__item {
    cat_item_t pub;
    cm_arena_t arena;
    cat__vec_t dependents; /* cat__item_t reading this one (indexes too), ascending ID */
} cat__item_t;

typedef struct cat__role {
    cat_role_t pub;
    cm_arena_t arena;
} cat__role_t;

struct cat_snap {
    uint64_t index;
    cat__map_t role_by_id, role_by_name;        /* k id / k 0, s name */
    cat__vec_t roles;                           /* ascending ID */
    cat__map_t db_by_id, db_by_name;            /* k id / k 0, s name */
    cat__map_t schema_by_id, schema_by_name;    /* s name, k database ID (0: system) */
    cat__map_t item_by_id, item_by_oid, item_by_name;   /* k schema ID, s name */
    cat__vec_t dbs, schemas, items;             /* user objects, ascending ID */
    cat__vec_t sys_schemas, sys_items;          /* built-in objects */
};

/* Builds the built-in schemas and eddy_catalog relations into a new snapshot. */
void cat__builtin_install(cat_snap_t *s);
/* cat_builtin_session.c: the built-in relations whose rows a session answers. */
extern const cat_builtin_t cat__session_builtins[];
extern const size_t cat__nsession_builtins;
/* Inserts a decoded object (system or user); false with XX000 if it does not fit. */
bool cat__snap_insert(cat_snap_t *s, const cat_object_t *o, cm_err_t *err);
/* Removes an object and everything it owns from the maps; false if absent. */
bool cat__snap_remove(cat_snap_t *s, cat_class_t cls, cat_id_t id, cm_err_t *err);
/* Checks that an object could be inserted / removed without changing anything. */
bool cat__snap_can_insert(const cat_snap_t *s, const cat_object_t *o, cm_err_t *err);

/* ------------------------------------------------------------- changes */

/* A create's IDs are unknown until the commit index is: 0 stands for "the
 * object of this class this change creates". */
typedef struct cat__op {
    cat_op_kind_t kind;
    cat_object_t obj;
} cat__op_t;

struct cat_change {
    bool based;
    uint64_t base_index;     /* the snapshot index the ops were planned against */
    cm_arena_t arena;
    cat__op_t *ops;
    size_t nops, capops;
    cm_err_t *notices;
    size_t nnotices, capnotices;
};

/* Appends a notice; returns it for detail/hint. */
cm_err_t *cat__change_notice(cat_change_t *c, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
cat__op_t *cat__change_op(cat_change_t *c, cat_op_kind_t kind);
bool cat__change_base(cat_change_t *c, const cat_snap_t *s);
/* True if the change already drops this object. */
bool cat__change_drops(const cat_change_t *c, cat_class_t cls, cat_id_t id);

/*
 * Owners changed without ALTER OWNER's checks (cat_plan_owner.c): a relation
 * (with its indexes, whose owner is its own) or a database gets `to`, its
 * ACL's mentions of the old owner moved over; nothing when `to` owns it.
 */
bool cat__owner_item_op(const cat_snap_t *s, const cat_item_t *it, cat_id_t to, cat_change_t *out, cm_err_t *err);
void cat__owner_database_op(const cat_database_t *db, cat_id_t to, cat_change_t *out);

/*
 * performMultipleDeletions (cat_plan_drop.c): drops the objects (n of them,
 * each an item or a schema, in the order given) with what depends on them,
 * as one DROP naming them all would; `others` counts further objects of the
 * same deletion that nothing depends on (default privileges), which makes
 * the report speak of several objects.
 */
bool cat__drop_objects(const cat_snap_t *s, const cat_search_t *search, const cat_class_t *cls,
                       const void *const *objs, size_t n, size_t others, bool cascade, cat_change_t *out,
                       cm_err_t *err);

/* ident as it is (plain) or double-quoted with quotes doubled. */
void cat__put_quoted(const char *ident, bool plain, cm_buf_t *out);

/* OIDs from the creating index. */
uint32_t cat__oid_for(uint64_t index, cat_class_t cls);

/*
 * Transactions (cat_txn.c) commit several statements as one entry at index
 * N: the objects the k-th statement creates get ID N + (k << CAT__TXN_SHIFT)
 * and, for k > 0, OIDs from CAT__OID_TXN_BASE up (4 per (N, k), as the
 * index-derived ones), so no later entry's IDs or OIDs can meet them.
 */
#define CAT__TXN_SHIFT 40
#define CAT__TXN_STMTS_MAX 64
#define CAT__OID_TXN_BASE 0x40000000u
cat_id_t cat__txn_id(uint64_t index, uint32_t k);
uint32_t cat__txn_oid(uint64_t index, uint32_t k, cat_class_t cls);
/* The entry index an ID was created at. */
static inline uint64_t cat__id_index(cat_id_t id) { return id & ((UINT64_C(1) << CAT__TXN_SHIFT) - 1); }
/* A commit built key by key (cat_txn.c); every string and byte is copied. */
cat_commit_t *cat__commit_new(const cat_head_t *head, uint64_t index, const uint8_t request_uuid[16],
                              const uint8_t *entry, size_t entry_len, size_t nobjects);
void cat__commit_obj_delete(cat_commit_t *c, const char *key);
void cat__commit_obj_create(cat_commit_t *c, const char *key, const uint8_t *data, size_t len);
void cat__commit_name_delete(cat_commit_t *c, const char *name_key);
void cat__commit_name_create(cat_commit_t *c, const char *name_key, const char *object_key);
/* cat_commit_build with the IDs of the k-th statement of a transaction committed at id_index. */
cat_commit_t *cat__commit_build_ids(const cat_change_t *ch, const cat_snap_t *s, const cat_head_t *head,
                                    const uint8_t request_uuid[16], const char *tag, const char *sql,
                                    const cat_limits_t *limits, uint64_t id_index, uint32_t k, cm_err_t *err);

/* cat_plan_grant.c: op redefines schema sc (or, without one, database db) as it is with acl, the
 * other fields from the snapshot (a GRANT, default privileges, DROP OWNED: the same redefinition). */
void cat__redefine_acl_holder(cat__op_t *op, const cat_schema_t *sc, const cat_database_t *db, const cat_acl_t *acl,
                              cm_arena_t *a);
/* An ACL being rewritten (cat_plan_grant.c): items in the change's arena. */
typedef struct cat__acl_work {
    cat_aclitem_t *v;
    uint32_t n, cap;
    cm_arena_t *arena;
} cat__acl_work_t;
/* The ACL's items, or its kind's default (acldefault), as a working copy. */
void cat__acl_work_init(cat__acl_work_t *w, cm_arena_t *a, const cat_acl_t *acl, char kind);
/* select_best_grantor: the role `me` grants as and the grant options it holds of `needed` (db: the
 * database whose owner pg_database_owner stands for). */
void cat__best_grantor(const cat_snap_t *s, const cat_role_t *me, const cat__acl_work_t *w, cat_id_t owner,
                       const cat_database_t *db, uint32_t needed, cat_id_t *grantor, uint32_t *goptions);
/* aclupdate with recursive_revoke: mod added to (or taken from) its grantee's entry by its grantor. */
bool cat__aclupdate(const cat_snap_t *s, cat__acl_work_t *w, cat_aclitem_t mod, bool add, cat_id_t owner, bool cascade,
                    char kind, cm_err_t *err);
/* ExecGrant_Attribute over the columns a GRANT / REVOKE on `it` names or implies
 * (cat_plan_column_grant.c): cols are the columns as this change has them so far; *out_cols
 * the new ones (NULL: unchanged). */
bool cat__grant_columns(const cat_snap_t *s, const cat_search_t *search, const cat_grant_t *g, const cat_item_t *it,
                        const cat_acl_t *rel_acl, const cat_column_t *cols, cat_change_t *out, cat_column_t **out_cols,
                        cm_err_t *err);
/* A column with its strings and privileges copied into `a`. */
void cat__column_copy(cm_arena_t *a, cat_column_t *dst, const cat_column_t *src);

#endif
