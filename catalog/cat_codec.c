/*
 * cat_codec.c: the record format of log entries and objects.
 *
 * A record is "EDDY", a format byte, a record type byte ('E' entry, 'O'
 * object), then fields: u16 tag, u8 wire type, u32 length (big-endian),
 * payload. Wire types say how to read a payload without knowing the tag
 * (uint, string, bytes, nested record), so any record can be dumped for
 * inspection, and a reader skips tags it does not know: a newer writer may
 * add fields during a rolling upgrade. Repeated fields (ops, columns, deps)
 * are the same tag several times. Every length is checked against what
 * remains before it is used; nothing is allocated from a declared length.
 */
#include "catalog/cat_int.h"

#include <string.h>

bool cat__corrupt(cm_err_t *err, const char *what)
{
    return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "catalog record is corrupt: %s", what);
}

/* ------------------------------------------------------------- writer */

void cat__wr_begin(cat__wr_t *w, cm_buf_t *b, uint8_t rectype)
{
    w->b = b;
    w->depth = 0;
    cm_buf_put(b, CAT__MAGIC, 4);
    cm_buf_put_u8(b, CAT_FORMAT);
    cm_buf_put_u8(b, rectype);
}

static void cat__wr_head(cat__wr_t *w, uint16_t tag, uint8_t wire, uint32_t len)
{
    cm_buf_put_be16(w->b, tag);
    cm_buf_put_u8(w->b, wire);
    cm_buf_put_be32(w->b, len);
}

void cat__wr_uint(cat__wr_t *w, uint16_t tag, uint64_t v)
{
    cat__wr_head(w, tag, CAT__WIRE_UINT, 8);
    cm_buf_put_be64(w->b, v);
}

void cat__wr_str(cat__wr_t *w, uint16_t tag, const char *s)
{
    if (!s)
        return;
    size_t n = strlen(s);
    CM_ASSERT(n <= UINT32_MAX);
    cat__wr_head(w, tag, CAT__WIRE_STRING, (uint32_t)n);
    cm_buf_put(w->b, s, n);
}

void cat__wr_bytes(cat__wr_t *w, uint16_t tag, const void *p, size_t n)
{
    CM_ASSERT(n <= UINT32_MAX);
    cat__wr_head(w, tag, CAT__WIRE_BYTES, (uint32_t)n);
    cm_buf_put(w->b, p, n);
}

void cat__wr_open(cat__wr_t *w, uint16_t tag)
{
    CM_ASSERT(w->depth < CAT__NEST_MAX);
    cat__wr_head(w, tag, CAT__WIRE_RECORD, 0);
    w->open[w->depth++] = w->b->len;
}

void cat__wr_close(cat__wr_t *w)
{
    CM_ASSERT(w->depth > 0);
    size_t start = w->open[--w->depth];
    if (w->b->failed)
        return;
    cm_buf_set_be32(w->b, start - 4, (uint32_t)(w->b->len - start));
}

/* ------------------------------------------------------------- reader */

bool cat__rd_begin(cat__rd_t *rd, const uint8_t *p, size_t len, uint8_t rectype, cm_err_t *err)
{
    if (len < CAT__HEADER_LEN || memcmp(p, CAT__MAGIC, 4) != 0)
        return cat__corrupt(err, "no EDDY header");
    if (p[4] == 0 || p[4] > CAT_FORMAT)
        return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "catalog record has format %u; this eddy reads formats up to %u", p[4], CAT_FORMAT);
    if (p[5] != rectype)
        return cat__corrupt(err, "unexpected record type");
    rd->p = p;
    rd->len = len;
    rd->pos = CAT__HEADER_LEN;
    return true;
}

int cat__rd_next(cat__rd_t *rd, cat__field_t *f, cm_err_t *err)
{
    if (rd->pos == rd->len)
        return 0;
    if (rd->len - rd->pos < 7) {
        cat__corrupt(err, "truncated field header");
        return -1;
    }
    const uint8_t *h = rd->p + rd->pos;
    f->tag = (uint16_t)(h[0] << 8 | h[1]);
    f->wire = h[2];
    f->len = (uint32_t)h[3] << 24 | (uint32_t)h[4] << 16 | (uint32_t)h[5] << 8 | h[6];
    rd->pos += 7;
    if (f->len > rd->len - rd->pos) {
        cat__corrupt(err, "field longer than its record");
        return -1;
    }
    if (f->wire < CAT__WIRE_UINT || f->wire > CAT__WIRE_RECORD) {
        cat__corrupt(err, "unknown wire type");
        return -1;
    }
    if (f->wire == CAT__WIRE_UINT && f->len != 8) {
        cat__corrupt(err, "integer field of the wrong length");
        return -1;
    }
    f->p = rd->p + rd->pos;
    rd->pos += f->len;
    return 1;
}

bool cat__field_uint(const cat__field_t *f, uint64_t *v, cm_err_t *err)
{
    if (f->wire != CAT__WIRE_UINT)
        return cat__corrupt(err, "expected an integer field");
    uint64_t x = 0;
    for (int i = 0; i < 8; i++)
        x = x << 8 | f->p[i];
    *v = x;
    return true;
}

bool cat__field_str(const cat__field_t *f, cm_arena_t *a, const char **out, cm_err_t *err)
{
    if (f->wire != CAT__WIRE_STRING)
        return cat__corrupt(err, "expected a string field");
    if (!cm_utf8_valid((const char *)f->p, f->len))
        return cat__corrupt(err, "string is not valid UTF-8");
    *out = cm_arena_strndup(a, (const char *)f->p, f->len);
    return true;
}

void cat__rd_sub(const cat__field_t *f, cat__rd_t *sub)
{
    sub->p = f->p;
    sub->len = f->len;
    sub->pos = 0;
}

/* ------------------------------------------------------------- objects */

enum {
    OBJ_CLASS = 1,
    OBJ_ID = 2,
    OBJ_OID = 3,
    OBJ_PARENT = 4,
    OBJ_NAME = 5,
    OBJ_KIND = 6,
    OBJ_SQL = 7,
    OBJ_COLUMN = 8,
    OBJ_DEP = 9,
    OBJ_ROLE_FLAGS = 10,
    OBJ_CONN_LIMIT = 11,
    OBJ_PASSWORD = 12,
    OBJ_VALID_UNTIL = 13,
    OBJ_ROLE_SETTING = 14,
    OBJ_OWNER = 15,     /* absent: the bootstrap superuser */
    OBJ_ACL_SET = 16,   /* absent: the kind's default ACL */
    OBJ_ACL = 17,       /* one aclitem (nested ACL_*) */
    OBJ_DEFACL = 18,    /* one role's default privileges (nested DEFACL_ROLE, DEFACL_ITEM) */
};
enum {
    DEFACL_ROLE = 1,
    DEFACL_ITEM = 2,    /* nested ACL_* */
    DEFACL_CREATED = 3,
    DEFACL_OBJTYPE = 4, /* absent: 'r' (relations) */
};
enum {
    ACL_GRANTEE = 1,
    ACL_GRANTOR = 2,
    ACL_PRIVS = 3,
    ACL_GRANT = 4,
};
enum {
    COL_NAME = 1,
    COL_TYPE = 2,
    COL_TYPMOD = 3,
    COL_NOT_NULL = 4,
    COL_DEFAULT = 5,
    COL_ACL = 6,        /* one aclitem of the column's privileges (nested ACL_*) */
};

static void aclitem_write(cat__wr_t *w, uint16_t tag, const cat_aclitem_t *it)
{
    cat__wr_open(w, tag);
    cat__wr_uint(w, ACL_GRANTEE, it->grantee);
    cat__wr_uint(w, ACL_GRANTOR, it->grantor);
    cat__wr_uint(w, ACL_PRIVS, it->privs);
    cat__wr_uint(w, ACL_GRANT, it->grant);
    cat__wr_close(w);
}

void cat__object_write(cat__wr_t *w, const cat_object_t *o)
{
    cat__wr_uint(w, OBJ_CLASS, (uint64_t)o->cls);
    cat__wr_uint(w, OBJ_ID, o->id);
    cat__wr_uint(w, OBJ_OID, o->oid);
    if (o->cls != CAT_CLASS_DATABASE && o->cls != CAT_CLASS_ROLE)
        cat__wr_uint(w, OBJ_PARENT, o->parent);
    cat__wr_str(w, OBJ_NAME, o->name);
    if (o->cls == CAT_CLASS_ROLE) {
        cat__wr_uint(w, OBJ_ROLE_FLAGS, o->role_flags);
        cat__wr_uint(w, OBJ_CONN_LIMIT, (uint64_t)(int64_t)o->conn_limit);
        cat__wr_str(w, OBJ_PASSWORD, o->password);
        if (o->has_valid_until)
            cat__wr_uint(w, OBJ_VALID_UNTIL, (uint64_t)o->valid_until);
        for (uint32_t i = 0; i < o->ndeps; i++)
            cat__wr_uint(w, OBJ_DEP, o->deps[i]);
        for (uint32_t i = 0; i < o->nsettings; i++)
            cat__wr_str(w, OBJ_ROLE_SETTING, o->settings[i]);
        return;
    }
    if (o->acl.owner != CAT_ROLE_BOOTSTRAP)
        cat__wr_uint(w, OBJ_OWNER, o->acl.owner);
    if (o->acl.set)
        cat__wr_uint(w, OBJ_ACL_SET, 1);
    for (uint32_t i = 0; o->acl.set && i < o->acl.n; i++)
        aclitem_write(w, OBJ_ACL, &o->acl.items[i]);
    for (uint32_t i = 0; i < o->acl.ndefacls; i++) {
        const cat_defacl_t *d = &o->acl.defacls[i];
        cat__wr_open(w, OBJ_DEFACL);
        cat__wr_uint(w, DEFACL_ROLE, d->role);
        cat__wr_uint(w, DEFACL_CREATED, d->created);
        if (d->objtype != 'r')
            cat__wr_uint(w, DEFACL_OBJTYPE, (uint8_t)d->objtype);
        for (uint32_t k = 0; k < d->n; k++)
            aclitem_write(w, DEFACL_ITEM, &d->items[k]);
        cat__wr_close(w);
    }
    if (o->cls != CAT_CLASS_ITEM)
        return;
    cat__wr_uint(w, OBJ_KIND, (uint64_t)o->kind);
    cat__wr_str(w, OBJ_SQL, o->create_sql);
    for (uint32_t i = 0; i < o->ncolumns; i++) {
        const cat_column_t *c = &o->columns[i];
        cat__wr_open(w, OBJ_COLUMN);
        cat__wr_str(w, COL_NAME, c->name);
        cat__wr_uint(w, COL_TYPE, c->type);
        cat__wr_uint(w, COL_TYPMOD, (uint64_t)(int64_t)c->typmod);
        cat__wr_uint(w, COL_NOT_NULL, c->not_null);
        cat__wr_str(w, COL_DEFAULT, c->default_sql);
        for (uint32_t k = 0; k < c->nacl; k++)
            aclitem_write(w, COL_ACL, &c->acl[k]);
        cat__wr_close(w);
    }
    for (uint32_t i = 0; i < o->ndeps; i++)
        cat__wr_uint(w, OBJ_DEP, o->deps[i]);
}

static bool cat__aclitem_read(cat__rd_t *rd, cat_aclitem_t *it, cm_err_t *err);
static bool cat__count_tags(const cat__rd_t *rd0, uint16_t tag, uint32_t *n, cm_err_t *err);

static bool cat__column_read(cat__rd_t *rd, cm_arena_t *a, cat_column_t *c, cm_err_t *err)
{
    memset(c, 0, sizeof(*c));
    c->typmod = -1;
    uint32_t nacl;
    if (!cat__count_tags(rd, COL_ACL, &nacl, err))
        return false;
    cat_aclitem_t *acl = nacl ? cm_arena_alloc(a, nacl * sizeof(cat_aclitem_t)) : NULL;
    c->acl = acl;
    bool have_name = false, have_type = false;
    cat__field_t f;
    int r;
    uint64_t v = 0;
    while ((r = cat__rd_next(rd, &f, err)) == 1) {
        switch (f.tag) {
        case COL_NAME:
            if (!cat__field_str(&f, a, &c->name, err))
                return false;
            have_name = true;
            break;
        case COL_TYPE:
            if (!cat__field_uint(&f, &v, err))
                return false;
            if (v > UINT32_MAX)
                return cat__corrupt(err, "column type out of range");
            c->type = (ty_oid_t)v;
            have_type = true;
            break;
        case COL_TYPMOD:
            if (!cat__field_uint(&f, &v, err))
                return false;
            if ((int64_t)v < INT32_MIN || (int64_t)v > INT32_MAX)
                return cat__corrupt(err, "column typmod out of range");
            c->typmod = (int32_t)(int64_t)v;
            break;
        case COL_NOT_NULL:
            if (!cat__field_uint(&f, &v, err))
                return false;
            c->not_null = v != 0;
            break;
        case COL_DEFAULT:
            if (!cat__field_str(&f, a, &c->default_sql, err))
                return false;
            break;
        case COL_ACL: {
            if (f.wire != CAT__WIRE_RECORD)
                return cat__corrupt(err, "bad column ACL record");
            cat__rd_t sub;
            cat__rd_sub(&f, &sub);
            CM_ASSERT(c->nacl < nacl);
            if (!cat__aclitem_read(&sub, &acl[c->nacl++], err))
                return false;
            break;
        }
        default:
            break;   /* a newer writer's field */
        }
    }
    if (r < 0)
        return false;
    if (!have_name || !have_type || !c->name[0])
        return cat__corrupt(err, "column without name or type");
    return true;
}

static bool cat__aclitem_read(cat__rd_t *rd, cat_aclitem_t *it, cm_err_t *err)
{
    memset(it, 0, sizeof(*it));
    cat__field_t f;
    int r;
    uint64_t v = 0;
    while ((r = cat__rd_next(rd, &f, err)) == 1) {
        if (f.tag < ACL_GRANTEE || f.tag > ACL_GRANT)
            continue;   /* a newer writer's field */
        if (!cat__field_uint(&f, &v, err))
            return false;
        if ((f.tag == ACL_PRIVS || f.tag == ACL_GRANT) && v > UINT32_MAX)
            return cat__corrupt(err, "privileges out of range");
        switch (f.tag) {
        case ACL_GRANTEE: it->grantee = v; break;
        case ACL_GRANTOR: it->grantor = v; break;
        case ACL_PRIVS: it->privs = (uint32_t)v; break;
        default: it->grant = (uint32_t)v; break;
        }
    }
    return r == 0;
}

/* Repeated fields are counted first so the arrays are sized by what is
 * actually present, never by a declared count. */
static bool cat__count_tags(const cat__rd_t *rd0, uint16_t tag, uint32_t *n, cm_err_t *err)
{
    cat__rd_t rd = *rd0;
    cat__field_t f;
    int r;
    *n = 0;
    while ((r = cat__rd_next(&rd, &f, err)) == 1)
        if (f.tag == tag)
            (*n)++;
    return r == 0;
}

static bool cat__defacl_read(cat__rd_t *rd, cm_arena_t *a, cat_defacl_t *d, cm_err_t *err)
{
    uint32_t n;
    if (!cat__count_tags(rd, DEFACL_ITEM, &n, err))
        return false;
    cat_aclitem_t *v = n ? cm_arena_alloc(a, n * sizeof(cat_aclitem_t)) : NULL;
    *d = (cat_defacl_t){.items = v, .objtype = 'r'};
    cat__field_t f;
    int r;
    while ((r = cat__rd_next(rd, &f, err)) == 1) {
        if (f.tag == DEFACL_ROLE && !cat__field_uint(&f, &d->role, err))
            return false;
        if (f.tag == DEFACL_CREATED && !cat__field_uint(&f, &d->created, err))
            return false;
        if (f.tag == DEFACL_OBJTYPE) {
            uint64_t t = 0;
            if (!cat__field_uint(&f, &t, err))
                return false;
            if (t != 'r' && t != 'S' && t != 'f' && t != 'T' && t != 'n')
                return cat__corrupt(err, "unknown default privileges object type");
            d->objtype = (char)t;
        }
        if (f.tag != DEFACL_ITEM)
            continue;
        if (f.wire != CAT__WIRE_RECORD)
            return cat__corrupt(err, "bad default privilege record");
        cat__rd_t sub;
        cat__rd_sub(&f, &sub);
        CM_ASSERT(d->n < n);
        if (!cat__aclitem_read(&sub, &v[d->n++], err))
            return false;
    }
    return r == 0;
}

bool cat__object_read(cat__rd_t *rd, cm_arena_t *a, cat_object_t *o, int depth, cm_err_t *err)
{
    memset(o, 0, sizeof(*o));
    uint32_t ncols, ndeps, nsettings, nacl, ndefacl;
    if (!cat__count_tags(rd, OBJ_COLUMN, &ncols, err) || !cat__count_tags(rd, OBJ_DEP, &ndeps, err) ||
        !cat__count_tags(rd, OBJ_ROLE_SETTING, &nsettings, err) || !cat__count_tags(rd, OBJ_ACL, &nacl, err) ||
        !cat__count_tags(rd, OBJ_DEFACL, &ndefacl, err))
        return false;
    cat_aclitem_t *acl = nacl ? cm_arena_alloc(a, nacl * sizeof(cat_aclitem_t)) : NULL;
    o->acl.items = acl;
    cat_defacl_t *defacl = ndefacl ? cm_arena_alloc(a, ndefacl * sizeof(cat_defacl_t)) : NULL;
    o->acl.defacls = defacl;
    o->settings = nsettings ? cm_arena_alloc(a, nsettings * sizeof(const char *)) : NULL;
    if (ncols > CAT__COLUMNS_MAX)
        return cat__corrupt(err, "too many columns");
    o->columns = ncols ? cm_arena_zalloc(a, ncols * sizeof(cat_column_t)) : NULL;
    o->deps = ndeps ? cm_arena_alloc(a, ndeps * sizeof(cat_id_t)) : NULL;
    bool have_class = false, have_id = false;
    cat__field_t f;
    int r;
    uint64_t v = 0;
    while ((r = cat__rd_next(rd, &f, err)) == 1) {
        switch (f.tag) {
        case OBJ_CLASS:
            if (!cat__field_uint(&f, &v, err))
                return false;
            if (v != CAT_CLASS_DATABASE && v != CAT_CLASS_SCHEMA && v != CAT_CLASS_ITEM && v != CAT_CLASS_ROLE)
                return cat__corrupt(err, "unknown object class");
            o->cls = (cat_class_t)v;
            have_class = true;
            break;
        case OBJ_ROLE_FLAGS:
            if (!cat__field_uint(&f, &v, err))
                return false;
            if (v > UINT32_MAX)
                return cat__corrupt(err, "role flags out of range");
            o->role_flags = (uint32_t)v;
            break;
        case OBJ_CONN_LIMIT:
            if (!cat__field_uint(&f, &v, err))
                return false;
            if ((int64_t)v < -1 || (int64_t)v > INT32_MAX)
                return cat__corrupt(err, "connection limit out of range");
            o->conn_limit = (int32_t)(int64_t)v;
            break;
        case OBJ_PASSWORD:
            if (!cat__field_str(&f, a, &o->password, err))
                return false;
            break;
        case OBJ_VALID_UNTIL:
            if (!cat__field_uint(&f, &v, err))
                return false;
            o->valid_until = (int64_t)v;
            o->has_valid_until = true;
            break;
        case OBJ_ROLE_SETTING:
            CM_ASSERT(o->nsettings < nsettings);
            if (!cat__field_str(&f, a, &o->settings[o->nsettings], err))
                return false;
            if (strchr(o->settings[o->nsettings], '=') == NULL)
                return cat__corrupt(err, "role setting without '='");
            o->nsettings++;
            break;
        case OBJ_ID:
            if (!cat__field_uint(&f, &o->id, err))
                return false;
            have_id = true;
            break;
        case OBJ_OWNER:
            if (!cat__field_uint(&f, &o->acl.owner, err))
                return false;
            break;
        case OBJ_ACL_SET:
            if (!cat__field_uint(&f, &v, err))
                return false;
            o->acl.set = v != 0;
            break;
        case OBJ_DEFACL: {
            if (f.wire != CAT__WIRE_RECORD || depth + 2 >= CAT__NEST_MAX)
                return cat__corrupt(err, "bad default privileges record");
            cat__rd_t sub;
            cat__rd_sub(&f, &sub);
            CM_ASSERT(o->acl.ndefacls < ndefacl);
            if (!cat__defacl_read(&sub, a, &defacl[o->acl.ndefacls++], err))
                return false;
            break;
        }
        case OBJ_ACL: {
            if (f.wire != CAT__WIRE_RECORD || depth + 1 >= CAT__NEST_MAX)
                return cat__corrupt(err, "bad ACL record");
            cat__rd_t sub;
            cat__rd_sub(&f, &sub);
            CM_ASSERT(o->acl.n < nacl);
            if (!cat__aclitem_read(&sub, &acl[o->acl.n++], err))
                return false;
            break;
        }
        case OBJ_OID:
            if (!cat__field_uint(&f, &v, err))
                return false;
            if (v > UINT32_MAX)
                return cat__corrupt(err, "OID out of range");
            o->oid = (uint32_t)v;
            break;
        case OBJ_PARENT:
            if (!cat__field_uint(&f, &o->parent, err))
                return false;
            break;
        case OBJ_NAME:
            if (!cat__field_str(&f, a, &o->name, err))
                return false;
            break;
        case OBJ_KIND:
            if (!cat__field_uint(&f, &v, err))
                return false;
            if (v < CAT_ITEM_TABLE || v > CAT_ITEM_INDEX)
                return cat__corrupt(err, "unknown item kind");
            o->kind = (cat_item_kind_t)v;
            break;
        case OBJ_SQL:
            if (!cat__field_str(&f, a, &o->create_sql, err))
                return false;
            break;
        case OBJ_COLUMN: {
            if (f.wire != CAT__WIRE_RECORD || depth + 2 >= CAT__NEST_MAX)
                return cat__corrupt(err, "bad column record");
            cat__rd_t sub;
            cat__rd_sub(&f, &sub);
            CM_ASSERT(o->ncolumns < ncols);
            if (!cat__column_read(&sub, a, &o->columns[o->ncolumns++], err))
                return false;
            break;
        }
        case OBJ_DEP:
            CM_ASSERT(o->ndeps < ndeps);
            if (!cat__field_uint(&f, &o->deps[o->ndeps++], err))
                return false;
            break;
        default:
            break;
        }
    }
    if (r < 0)
        return false;
    if (!o->acl.set)
        o->acl.n = 0;
    if (!have_class || !have_id)
        return cat__corrupt(err, "object without class or ID");
    if (!o->name || !o->name[0] || o->oid == 0)
        return cat__corrupt(err, "object without name or OID");
    if (o->cls != CAT_CLASS_DATABASE && o->cls != CAT_CLASS_ROLE && o->parent == 0)
        return cat__corrupt(err, "object without parent");
    if (o->cls == CAT_CLASS_ITEM && (o->kind == 0 || !o->create_sql))
        return cat__corrupt(err, "item without kind or SQL");
    if (o->cls == CAT_CLASS_ITEM && o->kind == CAT_ITEM_INDEX && o->ndeps == 0)
        return cat__corrupt(err, "index without its relation");
    return true;
}

void cat_object_encode(const cat_object_t *o, cm_buf_t *out)
{
    cat__wr_t w;
    cat__wr_begin(&w, out, CAT__REC_OBJECT);
    cat__object_write(&w, o);
}

bool cat_object_decode(const uint8_t *p, size_t len, cm_arena_t *arena, cat_object_t *out, cm_err_t *err)
{
    cat__rd_t rd;
    if (!cat__rd_begin(&rd, p, len, CAT__REC_OBJECT, err))
        return false;
    return cat__object_read(&rd, arena, out, 0, err);
}

/* ------------------------------------------------------------- entries */

enum {
    ENT_INDEX = 1,
    ENT_KIND = 2,
    ENT_UUID = 3,
    ENT_SQL = 4,
    ENT_OP = 5,
    ENT_DEP = 6,
};
enum {
    OP_KIND = 1,
    OP_OBJECT = 2,
};

void cat_entry_encode(const cat_entry_t *e, cm_buf_t *out)
{
    cat__wr_t w;
    cat__wr_begin(&w, out, CAT__REC_ENTRY);
    cat__wr_uint(&w, ENT_INDEX, e->index);
    cat__wr_str(&w, ENT_KIND, e->kind);
    cat__wr_bytes(&w, ENT_UUID, e->request_uuid, 16);
    cat__wr_str(&w, ENT_SQL, e->sql);
    for (uint32_t i = 0; i < e->nops; i++) {
        cat__wr_open(&w, ENT_OP);
        cat__wr_uint(&w, OP_KIND, (uint64_t)e->ops[i].kind);
        cat__wr_open(&w, OP_OBJECT);
        cat_object_t o = e->ops[i].obj;
        if (e->ops[i].kind == CAT_OP_DROP) {
            /* A drop names the object; the class travels as the op's own. */
            cat__wr_uint(&w, OBJ_CLASS, (uint64_t)o.cls);
            cat__wr_uint(&w, OBJ_ID, o.id);
        } else {
            cat__object_write(&w, &o);
        }
        cat__wr_close(&w);
        cat__wr_close(&w);
    }
    for (uint32_t i = 0; i < e->ndeps; i++)
        cat__wr_uint(&w, ENT_DEP, e->deps[i]);
}

static bool cat__op_read(cat__rd_t *rd, cm_arena_t *a, cat_op_t *op, cm_err_t *err)
{
    memset(op, 0, sizeof(*op));
    bool have_obj = false;
    cat__rd_t objrd = {0};
    cat__field_t f;
    int r;
    uint64_t v = 0;
    while ((r = cat__rd_next(rd, &f, err)) == 1) {
        if (f.tag == OP_KIND) {
            if (!cat__field_uint(&f, &v, err))
                return false;
            if (v != CAT_OP_CREATE && v != CAT_OP_DROP && v != CAT_OP_RENAME)
                return cat__corrupt(err, "unknown op");
            op->kind = (cat_op_kind_t)v;
        } else if (f.tag == OP_OBJECT) {
            if (f.wire != CAT__WIRE_RECORD)
                return cat__corrupt(err, "op object is not a record");
            cat__rd_sub(&f, &objrd);
            have_obj = true;
        }
    }
    if (r < 0)
        return false;
    if (!op->kind || !have_obj)
        return cat__corrupt(err, "op without kind or object");
    if (op->kind == CAT_OP_DROP) {
        /* Read class and ID only: a drop carries no definition. */
        cat_object_t o;
        memset(&o, 0, sizeof(o));
        bool have_class = false, have_id = false;
        while ((r = cat__rd_next(&objrd, &f, err)) == 1) {
            if (f.tag == OBJ_CLASS) {
                if (!cat__field_uint(&f, &v, err))
                    return false;
                if (v != CAT_CLASS_DATABASE && v != CAT_CLASS_SCHEMA && v != CAT_CLASS_ITEM && v != CAT_CLASS_ROLE)
                    return cat__corrupt(err, "unknown object class");
                o.cls = (cat_class_t)v;
                have_class = true;
            } else if (f.tag == OBJ_ID) {
                if (!cat__field_uint(&f, &o.id, err))
                    return false;
                have_id = true;
            }
        }
        if (r < 0)
            return false;
        if (!have_class || !have_id)
            return cat__corrupt(err, "drop without class or ID");
        op->obj = o;
        return true;
    }
    return cat__object_read(&objrd, a, &op->obj, 2, err);
}

bool cat_entry_decode(const uint8_t *p, size_t len, cm_arena_t *arena, cat_entry_t *out, cm_err_t *err)
{
    memset(out, 0, sizeof(*out));
    cat__rd_t rd;
    if (!cat__rd_begin(&rd, p, len, CAT__REC_ENTRY, err))
        return false;
    out->format = p[4];
    uint32_t nops, ndeps;
    if (!cat__count_tags(&rd, ENT_OP, &nops, err) || !cat__count_tags(&rd, ENT_DEP, &ndeps, err))
        return false;
    out->ops = nops ? cm_arena_zalloc(arena, nops * sizeof(cat_op_t)) : NULL;
    out->deps = ndeps ? cm_arena_alloc(arena, ndeps * sizeof(cat_id_t)) : NULL;
    bool have_index = false;
    cat__field_t f;
    int r;
    while ((r = cat__rd_next(&rd, &f, err)) == 1) {
        switch (f.tag) {
        case ENT_INDEX:
            if (!cat__field_uint(&f, &out->index, err))
                return false;
            have_index = true;
            break;
        case ENT_KIND:
            if (!cat__field_str(&f, arena, &out->kind, err))
                return false;
            break;
        case ENT_UUID:
            if (f.wire != CAT__WIRE_BYTES || f.len != 16)
                return cat__corrupt(err, "request UUID is not 16 bytes");
            memcpy(out->request_uuid, f.p, 16);
            break;
        case ENT_SQL:
            if (!cat__field_str(&f, arena, &out->sql, err))
                return false;
            break;
        case ENT_OP: {
            if (f.wire != CAT__WIRE_RECORD)
                return cat__corrupt(err, "op is not a record");
            cat__rd_t sub;
            cat__rd_sub(&f, &sub);
            CM_ASSERT(out->nops < nops);
            if (!cat__op_read(&sub, arena, &out->ops[out->nops++], err))
                return false;
            break;
        }
        case ENT_DEP:
            CM_ASSERT(out->ndeps < ndeps);
            if (!cat__field_uint(&f, &out->deps[out->ndeps++], err))
                return false;
            break;
        default:
            break;
        }
    }
    if (r < 0)
        return false;
    if (!have_index || out->index == 0)
        return cat__corrupt(err, "entry without index");
    if (!out->kind)
        out->kind = "";
    if (!out->sql)
        out->sql = "";
    return true;
}

/* ------------------------------------------------------------- dump */

static bool cat__dump_fields(cat__rd_t *rd, int depth, cm_buf_t *out)
{
    cat__field_t f;
    int r;
    cm_err_t err = {0};
    while ((r = cat__rd_next(rd, &f, &err)) == 1) {
        cm_buf_printf(out, "%*s%u: ", depth * 2, "", f.tag);
        uint64_t v;
        switch (f.wire) {
        case CAT__WIRE_UINT:
            cat__field_uint(&f, &v, &err);
            cm_buf_printf(out, "%llu\n", (unsigned long long)v);
            break;
        case CAT__WIRE_STRING:
            cm_buf_put_u8(out, '"');
            for (uint32_t i = 0; i < f.len; i++) {
                uint8_t c = f.p[i];
                if (c == '"' || c == '\\')
                    cm_buf_printf(out, "\\%c", c);
                else if (c < 0x20 || c == 0x7f)
                    cm_buf_printf(out, "\\x%02x", c);
                else
                    cm_buf_put_u8(out, c);
            }
            cm_buf_put_str(out, "\"\n");
            break;
        case CAT__WIRE_BYTES:
            cm_buf_put_str(out, "x'");
            for (uint32_t i = 0; i < f.len; i++)
                cm_buf_printf(out, "%02x", f.p[i]);
            cm_buf_put_str(out, "'\n");
            break;
        case CAT__WIRE_RECORD: {
            cm_buf_put_str(out, "{\n");
            if (depth + 1 >= CAT__NEST_MAX) {
                cm_err_clear(&err);
                return false;
            }
            cat__rd_t sub;
            cat__rd_sub(&f, &sub);
            if (!cat__dump_fields(&sub, depth + 1, out)) {
                cm_err_clear(&err);
                return false;
            }
            cm_buf_printf(out, "%*s}\n", depth * 2, "");
            break;
        }
        }
    }
    cm_err_clear(&err);
    return r == 0;
}

bool cat_record_dump(const uint8_t *p, size_t len, cm_buf_t *out)
{
    if (len < CAT__HEADER_LEN || memcmp(p, CAT__MAGIC, 4) != 0)
        return false;
    cm_buf_printf(out, "record %c format %u\n", p[5] >= 0x20 && p[5] < 0x7f ? p[5] : '?', p[4]);
    cat__rd_t rd = {.p = p, .len = len, .pos = CAT__HEADER_LEN};
    return cat__dump_fields(&rd, 1, out);
}
