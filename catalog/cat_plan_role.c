/*
 * cat_plan_role.c: validation of CREATE / ALTER / DROP ROLE and of role
 * membership (GRANT role TO role, REVOKE), with PostgreSQL 15's privilege
 * rules and wording (CreateRole, AlterRole, DropRole, AddRoleMems,
 * DelRoleMems). A role is redefined in place (CAT_OP_RENAME with its whole
 * new definition), so a membership change is one op on the member.
 */
#include "catalog/cat_int.h"

#include <stdlib.h>
#include <string.h>

#define CAT__ERRCODE_UNDEFINED_OBJECT "42704"
#define CAT__ERRCODE_INVALID_PARAMETER_VALUE "22023"

/* A session whose user is no catalog role acts as a superuser (see catalog.h). */
static bool is_super(const cat_role_t *actor)
{
    return actor == NULL || (actor->flags & CAT_ROLE_SUPERUSER) != 0;
}

static bool has_createrole(const cat_role_t *actor)
{
    return is_super(actor) || (actor->flags & CAT_ROLE_CREATEROLE) != 0;
}

static bool denied(cm_err_t *err, const char *msg)
{
    return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "%s", msg);
}

static bool missing(cm_err_t *err, const char *name)
{
    return cm_err_set(err, CAT__ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", name);
}

/* The op that redefines a role in this change, if one was planned already. */
static cat__op_t *role_op(cat_change_t *out, cat_id_t id)
{
    for (size_t i = 0; i < out->nops; i++)
        if (out->ops[i].kind == CAT_OP_RENAME && out->ops[i].obj.cls == CAT_CLASS_ROLE && out->ops[i].obj.id == id)
            return &out->ops[i];
    return NULL;
}

static void role_obj(cat_change_t *out, const cat_role_def_t *def, cat_object_t *o)
{
    cm_arena_t *a = &out->arena;
    o->cls = CAT_CLASS_ROLE;
    o->name = cm_arena_strdup(a, def->name);
    o->role_flags = def->flags;
    o->conn_limit = def->conn_limit;
    o->password = def->password ? cm_arena_strdup(a, def->password) : NULL;
    o->has_valid_until = def->has_valid_until;
    o->valid_until = def->valid_until;
    o->ndeps = def->nmember_of;
    o->deps = def->nmember_of ? cm_arena_alloc(a, def->nmember_of * sizeof(cat_id_t)) : NULL;
    if (def->nmember_of)
        memcpy(o->deps, def->member_of, def->nmember_of * sizeof(cat_id_t));
    o->nsettings = def->nsettings;
    o->settings = def->nsettings ? cm_arena_alloc(a, def->nsettings * sizeof(char *)) : NULL;
    for (uint32_t i = 0; i < def->nsettings; i++)
        o->settings[i] = cm_arena_strdup(a, def->settings[i]);
}

/* The definition a role has now, or as this change already redefines it. */
static cat_role_def_t def_of(cat_change_t *out, const cat_role_t *r)
{
    const cat__op_t *op = role_op(out, r->id);
    if (op)
        return (cat_role_def_t){.name = op->obj.name, .flags = op->obj.role_flags, .conn_limit = op->obj.conn_limit,
                                .password = op->obj.password, .has_valid_until = op->obj.has_valid_until,
                                .valid_until = op->obj.valid_until, .member_of = op->obj.deps,
                                .nmember_of = op->obj.ndeps, .settings = (const char *const *)op->obj.settings,
                                .nsettings = op->obj.nsettings};
    return (cat_role_def_t){.name = r->name, .flags = r->flags, .conn_limit = r->conn_limit, .password = r->password,
                            .has_valid_until = r->has_valid_until, .valid_until = r->valid_until,
                            .member_of = r->member_of, .nmember_of = r->nmember_of, .settings = r->settings,
                            .nsettings = r->nsettings};
}

static void redefine(cat_change_t *out, const cat_role_t *r, const cat_role_def_t *def)
{
    cat__op_t *op = role_op(out, r->id);
    if (!op)
        op = cat__change_op(out, CAT_OP_RENAME);
    /* role_obj copies first: def may point into the op it replaces. */
    cat_object_t o = {0};
    role_obj(out, def, &o);
    o.id = r->id;
    o.oid = r->oid;
    op->obj = o;
}

static bool reserved_name(const char *name, cm_err_t *err)
{
    if (strncmp(name, "pg_", 3) == 0) {
        cm_err_set(err, CAT__ERRCODE_RESERVED_NAME, "role name \"%s\" is reserved", name);
        cm_err_set_detail(err, "Role names starting with \"pg_\" are reserved.");
        return true;
    }
    if (strcmp(name, "public") == 0 || strcmp(name, "none") == 0) {
        cm_err_set(err, CAT__ERRCODE_RESERVED_NAME, "role name \"%s\" is reserved", name);
        return true;
    }
    return false;
}

bool cat_plan_create_role(const cat_snap_t *s, const cat_role_t *actor, const cat_role_def_t *def,
                          cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    if (reserved_name(def->name, err))
        return false;
    if (def->flags & CAT_ROLE_SUPERUSER) {
        if (!is_super(actor))
            return denied(err, "must be superuser to create superusers");
    } else if (def->flags & CAT_ROLE_REPLICATION) {
        if (!is_super(actor))
            return denied(err, "must be superuser to create replication users");
    } else if (def->flags & CAT_ROLE_BYPASSRLS) {
        if (!is_super(actor))
            return denied(err, "must be superuser to create bypassrls users");
    } else if (!has_createrole(actor)) {
        return denied(err, "permission denied to create role");
    }
    if (def->conn_limit < -1)
        return cm_err_set(err, CAT__ERRCODE_INVALID_PARAMETER_VALUE, "invalid connection limit: %d", def->conn_limit);
    if (cat_snap_role(s, def->name))
        return cm_err_set(err, CAT__ERRCODE_DUPLICATE_OBJECT, "role \"%s\" already exists", def->name);
    cat__op_t *op = cat__change_op(out, CAT_OP_CREATE);
    role_obj(out, def, &op->obj);
    return true;
}

bool cat_plan_alter_role(const cat_snap_t *s, const cat_role_t *actor, const cat_role_t *role, uint32_t set,
                         const cat_role_def_t *def, cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    uint32_t attrs = set & 0xffu;
    if ((role->flags & CAT_ROLE_SUPERUSER) || (attrs & CAT_ROLE_SUPERUSER)) {
        if (!is_super(actor))
            return denied(err, "must be superuser to alter superuser roles or change superuser attribute");
    } else if ((role->flags & CAT_ROLE_REPLICATION) || (attrs & CAT_ROLE_REPLICATION)) {
        if (!is_super(actor))
            return denied(err, "must be superuser to alter replication roles or change replication attribute");
    } else if (attrs & CAT_ROLE_BYPASSRLS) {
        if (!is_super(actor))
            return denied(err, "must be superuser to change bypassrls attribute");
    } else if (!has_createrole(actor)) {
        /* Without CREATEROLE a role may change only its own password. */
        bool own_password = attrs == 0 && (set & ~0xffu) == CAT_ROLE_SET_PASSWORD && actor->id == role->id;
        if (!own_password)
            return denied(err, "permission denied");
    }
    if ((set & CAT_ROLE_SET_CONN_LIMIT) && def->conn_limit < -1)
        return cm_err_set(err, CAT__ERRCODE_INVALID_PARAMETER_VALUE, "invalid connection limit: %d", def->conn_limit);
    cat_role_def_t now = def_of(out, role);
    now.flags = (now.flags & ~attrs) | (def->flags & attrs);
    if (set & CAT_ROLE_SET_PASSWORD)
        now.password = def->password;
    if (set & CAT_ROLE_SET_CONN_LIMIT)
        now.conn_limit = def->conn_limit;
    if (set & CAT_ROLE_SET_VALID_UNTIL) {
        now.has_valid_until = def->has_valid_until;
        now.valid_until = def->valid_until;
    }
    redefine(out, role, &now);
    return true;
}

/* True if setting "name=value" is for `name` (GUC names compare case-insensitively). */
static bool setting_is(const char *setting, const char *name)
{
    size_t n = strlen(name);
    return cm_strncasecmp(setting, name, n) == 0 && setting[n] == '=';
}

bool cat_plan_alter_role_setting(const cat_snap_t *s, const cat_role_t *actor, const cat_role_t *role,
                                 const char *name, const char *value, cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    /* AlterRoleSet: a superuser's settings are a superuser's business; else CREATEROLE or one's own. */
    if (role->flags & CAT_ROLE_SUPERUSER) {
        if (!is_super(actor))
            return denied(err, "must be superuser to alter superusers");
    } else if (!has_createrole(actor) && actor->id != role->id) {
        return denied(err, "permission denied");
    }
    cat_role_def_t now = def_of(out, role);
    const char **v = cm_arena_alloc(&out->arena, (now.nsettings + 1) * sizeof(char *));
    uint32_t n = 0;
    bool replaced = false;
    for (uint32_t i = 0; i < now.nsettings; i++) {
        if (name == NULL)
            continue;
        if (!setting_is(now.settings[i], name)) {
            v[n++] = now.settings[i];
        } else if (value != NULL) {
            v[n++] = cm_arena_printf(&out->arena, "%s=%s", name, value);
            replaced = true;
        }
    }
    if (name != NULL && value != NULL && !replaced)
        v[n++] = cm_arena_printf(&out->arena, "%s=%s", name, value);
    now.settings = v;
    now.nsettings = n;
    redefine(out, role, &now);
    return true;
}

/* One object that depends on a role, as checkSharedDependencies lists it. */
typedef struct shdep {
    uint32_t oid;
    bool owner;                 /* else privileges */
    cat_class_t cls;
    const void *obj;
    uint32_t column;            /* privileges on this column (1-based) of the item; 0: the object */
} shdep_t;

static int shdep_cmp_ptr(const void *a, const void *b)
{
    const shdep_t *x = *(const shdep_t *const *)a, *y = *(const shdep_t *const *)b;
    if (x->oid != y->oid)
        return x->oid < y->oid ? -1 : 1;
    return x->column < y->column ? -1 : x->column > y->column;
}

/* A relation's columns whose privileges name the role (pg_shdepend rows with an objsubid). */
static void shdep_note_columns(cat__vec_t *v, cm_arena_t *a, const cat_item_t *it, cat_id_t role)
{
    /* updateAclDependencies records no ACL dependency on the object's owner. */
    for (uint32_t c = 0; it->acl.owner != role && c < it->ncolumns; c++) {
        const cat_column_t *col = &it->columns[c];
        bool mentioned = false;
        for (uint32_t i = 0; i < col->nacl && !mentioned; i++)
            mentioned = col->acl[i].grantee == role || col->acl[i].grantor == role;
        if (!mentioned)
            continue;
        shdep_t *d = cm_arena_alloc(a, sizeof(*d));
        *d = (shdep_t){it->oid, false, CAT_CLASS_ITEM, it, c + 1};
        cat__vec_push(v, d);
    }
}

static void shdep_note(cat__vec_t *v, cm_arena_t *a, const cat_acl_t *acl, cat_id_t role, uint32_t oid,
                       cat_class_t cls, const void *obj)
{
    bool owner = acl->owner == role, mentioned = false;
    for (uint32_t i = 0; acl->set && i < acl->n && !owner; i++)
        mentioned = mentioned || acl->items[i].grantee == role || acl->items[i].grantor == role;
    if (!owner && !mentioned)
        return;
    shdep_t *d = cm_arena_alloc(a, sizeof(*d));
    *d = (shdep_t){oid, owner, cls, obj, 0};
    cat__vec_push(v, d);
}

/*
 * checkSharedDependencies: what the role owns or has privileges on, the
 * shared objects (databases) and the current database's by OID, then a count
 * per other database; at most CAT__REPORTED_DEPS_MAX lines. False: nothing.
 */
/* The default privileges of one schema (or, schema NULL, database) that name the role, as
 * objects described in text whose OID is that of the entry's creation (cat_defacl_t.created). */
static void defacl_deps(const cat_snap_t *s, const cat_search_t *search, const cat_role_t *r, const cat_acl_t *acl,
                        const char *schema, cat__vec_t *local, cm_arena_t *a)
{
    for (uint32_t k = 0; k < acl->ndefacls; k++) {
        const cat_defacl_t *d = &acl->defacls[k];
        bool owner = d->role == r->id, named = false;
        for (uint32_t j = 0; j < d->n && !owner; j++)
            named = named || d->items[j].grantee == r->id || d->items[j].grantor == r->id;
        if (!owner && !named)
            continue;
        char buf[32];
        const char *kinds = d->objtype == 'S' ? "sequences" : d->objtype == 'f' ? "functions"
                            : d->objtype == 'T' ? "types" : d->objtype == 'n' ? "schemas" : "relations";
        const char *text = cm_arena_printf(a, "default privileges on new %s belonging to role %s%s%s", kinds,
                                           cat_role_id_name(s, search, d->role, buf), schema ? " in schema " : "",
                                           schema ? schema : "");
        shdep_t *dep = cm_arena_alloc(a, sizeof(*dep));
        *dep = (shdep_t){cat__oid_for(d->created ? d->created : 1, CAT_CLASS_ROLE), owner, (cat_class_t)0, text, 0};
        cat__vec_push(local, dep);
    }
}

static bool role_dependents(const cat_snap_t *s, const cat_search_t *search, const cat_role_t *r, cm_buf_t *detail)
{
    cm_arena_t a;
    cm_arena_init(&a, 1024);
    cat__vec_t local = {0}, inner = {0};
    const cat_database_t *cur = search && search->database ? cat_snap_database(s, search->database) : NULL;
    const cat_database_t *db;
    for (size_t i = 0; (db = cat_snap_database_at(s, i)); i++)
        shdep_note(&local, &a, &db->acl, r->id, db->oid, CAT_CLASS_DATABASE, db);
    const cat_schema_t *sc;
    for (size_t i = 0; (sc = cat_snap_schema_at(s, i)); i++)
        if (sc->database)
            shdep_note(&inner, &a, &sc->acl, r->id, sc->oid, CAT_CLASS_SCHEMA, sc);
    const cat_item_t *it;
    for (size_t i = 0; (it = cat_snap_item_at(s, i)); i++)
        if (it->schema->database && it->kind != CAT_ITEM_INDEX) {
            shdep_note(&inner, &a, &it->acl, r->id, it->oid, CAT_CLASS_ITEM, it);
            shdep_note_columns(&inner, &a, it, r->id);
        }
    for (size_t i = 0; i < inner.n; i++) {
        const shdep_t *d = inner.v[i];
        const cat_database_t *in = d->cls == CAT_CLASS_SCHEMA ? ((const cat_schema_t *)d->obj)->database
                                                              : ((const cat_item_t *)d->obj)->schema->database;
        if (in == cur)
            cat__vec_push(&local, inner.v[i]);
    }
    if (cur) {
        defacl_deps(s, search, r, &cur->acl, NULL, &local, &a);
        for (size_t i = 0; (sc = cat_snap_schema_at(s, i)); i++)
            if (sc->database == cur)
                defacl_deps(s, search, r, &sc->acl, sc->name, &local, &a);
    }
    if (local.n > 1)
        qsort(local.v, local.n, sizeof(void *), shdep_cmp_ptr);
    size_t lines = 0, more = 0;
    for (size_t i = 0; i < local.n; i++) {
        const shdep_t *d = local.v[i];
        if (lines == CAT__REPORTED_DEPS_MAX) {
            more++;
            continue;
        }
        if (lines++)
            cm_buf_put_u8(detail, '\n');
        cm_buf_put_str(detail, d->owner ? "owner of " : "privileges for ");
        if (d->cls == 0) {
            cm_buf_put_str(detail, d->obj);   /* default privileges, described already */
        } else if (d->cls == CAT_CLASS_ITEM) {
            if (d->column) {
                cm_buf_put_str(detail, "column ");
                cat_quote_ident(((const cat_item_t *)d->obj)->columns[d->column - 1].name, detail);
                cm_buf_put_str(detail, " of ");
            }
            cat_describe_item(s, search, d->obj, detail);
        } else {
            cm_buf_put_str(detail, d->cls == CAT_CLASS_SCHEMA ? "schema " : "database ");
            cat_quote_ident(d->cls == CAT_CLASS_SCHEMA ? ((const cat_schema_t *)d->obj)->name
                                                       : ((const cat_database_t *)d->obj)->name,
                            detail);
        }
    }
    for (size_t i = 0; (db = cat_snap_database_at(s, i)); i++) {
        if (db == cur)
            continue;
        uint32_t count = 0;
        for (size_t k = 0; k < inner.n; k++) {
            const shdep_t *d = inner.v[k];
            count += (d->cls == CAT_CLASS_SCHEMA ? ((const cat_schema_t *)d->obj)->database
                                                 : ((const cat_item_t *)d->obj)->schema->database) == db;
        }
        if (count == 0)
            continue;
        if (lines == CAT__REPORTED_DEPS_MAX) {
            more++;
            continue;
        }
        if (lines++)
            cm_buf_put_u8(detail, '\n');
        cm_buf_printf(detail, "%u object%s in database ", count, count == 1 ? "" : "s");
        cat_quote_ident(db->name, detail);
    }
    if (more)
        cm_buf_printf(detail, "\nand %zu other object%s (see server log for list)", more, more == 1 ? "" : "s");
    cat__vec_free(&inner);
    cat__vec_free(&local);
    cm_arena_free(&a);
    return lines > 0;
}

bool cat_plan_drop_roles(const cat_snap_t *s, const cat_search_t *search, const cat_role_t *actor,
                         const cat_role_t *session, const char *const *names, size_t n, bool if_exists,
                         cat_change_t *out, cm_err_t *err)
{
    cat__change_base(out, s);
    if (!has_createrole(actor))
        return denied(err, "permission denied to drop role");
    cat_id_t *gone = cm_arena_alloc(&out->arena, (n ? n : 1) * sizeof(cat_id_t));
    size_t ngone = 0;
    for (size_t i = 0; i < n; i++) {
        const cat_role_t *r = cat_snap_role(s, names[i]);
        if (!r) {
            if (!if_exists)
                return missing(err, names[i]);
            cat__change_notice(out, "00000", "role \"%s\" does not exist, skipping", names[i]);
            continue;
        }
        if (actor && r->id == actor->id)
            return cm_err_set(err, CAT__ERRCODE_OBJECT_IN_USE, "current user cannot be dropped");
        if (session && r->id == session->id)
            return cm_err_set(err, CAT__ERRCODE_OBJECT_IN_USE, "session user cannot be dropped");
        if ((r->flags & CAT_ROLE_SUPERUSER) && !is_super(actor))
            return denied(err, "must be superuser to drop superusers");
        cm_buf_t detail;
        cm_buf_init(&detail, 0);
        if (role_dependents(s, search, r, &detail)) {
            cm_buf_put_u8(&detail, 0);
            cm_err_set(err, CAT__ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST,
                       "role \"%s\" cannot be dropped because some objects depend on it", r->name);
            cm_err_set_detail(err, "%s", (const char *)detail.data);
            cm_buf_free(&detail);
            return false;
        }
        cm_buf_free(&detail);
        bool twice = false;
        for (size_t k = 0; k < ngone; k++)
            twice = twice || gone[k] == r->id;
        if (twice)
            continue;
        gone[ngone++] = r->id;
        cat__op_t *op = cat__change_op(out, CAT_OP_DROP);
        op->obj.cls = CAT_CLASS_ROLE;
        op->obj.id = r->id;
    }
    /* Memberships in a dropped role go with it, as pg_auth_members rows do. */
    for (size_t i = 0; ngone && cat_snap_role_at(s, i); i++) {
        const cat_role_t *r = cat_snap_role_at(s, i);
        bool dropped = false, refers = false;
        for (size_t k = 0; k < ngone; k++) {
            dropped = dropped || gone[k] == r->id;
            for (uint32_t m = 0; m < r->nmember_of; m++)
                refers = refers || r->member_of[m] == gone[k];
        }
        if (dropped || !refers)
            continue;
        cat_role_def_t d = def_of(out, r);
        cat_id_t *keep = cm_arena_alloc(&out->arena, (d.nmember_of ? d.nmember_of : 1) * sizeof(cat_id_t));
        uint32_t nkeep = 0;
        for (uint32_t m = 0; m < d.nmember_of; m++) {
            bool drop = false;
            for (size_t k = 0; k < ngone; k++)
                drop = drop || d.member_of[m] == gone[k];
            if (!drop)
                keep[nkeep++] = d.member_of[m];
        }
        d.member_of = keep;
        d.nmember_of = nkeep;
        redefine(out, r, &d);
    }
    return true;
}

bool cat_plan_grant_roles(const cat_snap_t *s, const cat_role_t *actor, const char *const *roles, size_t nroles,
                          const char *const *members, size_t nmembers, bool revoke, cat_change_t *out,
                          cm_err_t *err)
{
    cat__change_base(out, s);
    for (size_t i = 0; i < nroles; i++) {
        const cat_role_t *r = cat_snap_role(s, roles[i]);
        if (!r)
            return missing(err, roles[i]);
        for (size_t j = 0; j < nmembers; j++)
            if (!cat_snap_role(s, members[j]))
                return missing(err, members[j]);
        if (r->flags & CAT_ROLE_SUPERUSER) {
            if (!is_super(actor))
                return denied(err, "must be superuser to alter superusers");
        } else if (!has_createrole(actor)) {
            return cm_err_set(err, CAT__ERRCODE_INSUFFICIENT_PRIVILEGE, "must have admin option on role \"%s\"",
                              r->name);
        }
        for (size_t j = 0; j < nmembers; j++) {
            const cat_role_t *m = cat_snap_role(s, members[j]);
            cat_role_def_t d = def_of(out, m);
            long at = -1;
            for (uint32_t k = 0; k < d.nmember_of; k++)
                if (d.member_of[k] == r->id)
                    at = k;
            if (revoke) {
                if (at < 0) {
                    cm_err_t *w = cat__change_notice(out, "01000", "role \"%s\" is not a member of role \"%s\"",
                                                     m->name, r->name);
                    w->severity = CM_SEV_WARNING;
                    continue;
                }
                cat_id_t *keep = cm_arena_alloc(&out->arena, d.nmember_of * sizeof(cat_id_t));
                uint32_t nkeep = 0;
                for (uint32_t k = 0; k < d.nmember_of; k++)
                    if ((long)k != at)
                        keep[nkeep++] = d.member_of[k];
                d.member_of = keep;
                d.nmember_of = nkeep;
                redefine(out, m, &d);
                continue;
            }
            /* A membership loop (the member is the role or has it among its members). */
            if (m->id == r->id || cat_role_is_member(s, r, m))
                return cm_err_set(err, CAT__ERRCODE_INVALID_GRANT_OPERATION, "role \"%s\" is a member of role \"%s\"",
                                  r->name, m->name);
            if (at >= 0) {
                cat__change_notice(out, "00000", "role \"%s\" is already a member of role \"%s\"", m->name, r->name);
                continue;
            }
            cat_id_t *more = cm_arena_alloc(&out->arena, (d.nmember_of + 1) * sizeof(cat_id_t));
            if (d.nmember_of)
                memcpy(more, d.member_of, d.nmember_of * sizeof(cat_id_t));
            more[d.nmember_of] = r->id;
            d.member_of = more;
            d.nmember_of++;
            redefine(out, m, &d);
        }
    }
    return true;
}
