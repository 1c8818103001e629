/*
 * srv_roles.c: the server's side of the catalog's roles: who a session is
 * (the session user, set by login or SET SESSION AUTHORIZATION, and the
 * current user, which SET ROLE changes), the checks of those settings, the
 * login check after authentication (NOLOGIN), the secret a password or
 * SCRAM exchange is checked against (a catalog role's verifier, else the
 * --users file), and seeding the users file's names as superuser roles into
 * a catalog that has no roles yet.
 *
 * A user name that is no catalog role authenticates as before roles
 * existed (trust, or the users file) and acts as a superuser, so a laptop
 * server without roles keeps working unchanged.
 */
#include "server/srv_cat_int.h"
#include "server/srv_scram.h"

#include <stdlib.h>
#include <sys/random.h>
#include <string.h>

#define SRV_ERRCODE_INVALID_PARAMETER_VALUE "22023"

static const cat_snap_t *srv__snap(srv_conn_t *c)
{
    return c->lp->cat ? c->lp->cat->snap : NULL;
}

const char *srv_session_user(srv_session_t *s)
{
    return srv_session_get(s, "session_authorization");
}

const char *srv_current_user(srv_session_t *s)
{
    const char *r = srv_session_get(s, "role");
    return r != NULL && strcmp(r, "none") != 0 ? r : srv_session_user(s);
}

static bool srv__is_super(const cat_snap_t *snap, const char *name)
{
    const cat_role_t *r = snap ? cat_snap_role(snap, name) : NULL;
    return r == NULL || (r->flags & CAT_ROLE_SUPERUSER) != 0;
}

bool srv_roles_check_set(srv_conn_t *c, const char *name, const char *value, cm_err_t *err)
{
    const cat_snap_t *snap = srv__snap(c);
    if (snap == NULL || value == NULL)
        return true;
    if (cm_strcasecmp(name, "role") == 0) {
        if (cm_strcasecmp(value, "none") == 0)
            return true;
        const cat_role_t *r = cat_snap_role(snap, value);
        if (r == NULL)
            return cm_err_set(err, SRV_ERRCODE_INVALID_PARAMETER_VALUE, "role \"%s\" does not exist", value);
        const char *su = srv_session_user(&c->sess);
        const cat_role_t *s = cat_snap_role(snap, su);
        if (!srv__is_super(snap, su) && !cat_role_is_member(snap, s, r))
            return cm_err_set(err, "42501", "permission denied to set role \"%s\"", value);
        return true;
    }
    if (cm_strcasecmp(name, "session_authorization") == 0 || cm_strcasecmp(name, "session authorization") == 0) {
        if (cat_snap_role(snap, value) == NULL && cat_snap_role_count(snap) > 0 && strcmp(value, c->sess.user) != 0)
            return cm_err_set(err, SRV_ERRCODE_INVALID_PARAMETER_VALUE, "role \"%s\" does not exist", value);
        /* Only a superuser (as authenticated) may become someone else. */
        if (strcmp(value, c->sess.user) != 0 && !srv__is_super(snap, c->sess.user))
            return cm_err_set(err, "42501", "permission denied to set session authorization");
    }
    return true;
}

bool srv_roles_login_ok(srv_conn_t *c)
{
    const cat_snap_t *snap = srv__snap(c);
    const cat_role_t *r = snap ? cat_snap_role(snap, c->user) : NULL;
    if (r == NULL)
        return true;
    if (!(r->flags & CAT_ROLE_LOGIN)) {
        srv_conn_fatal(c, CM_ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION, "role \"%s\" is not permitted to log in",
                       c->user);
        return false;
    }
    /* PostgreSQL's InitializeSessionUserId: superusers are not held to their CONNECTION LIMIT, but count. */
    int32_t limit = (r->flags & CAT_ROLE_SUPERUSER) ? -1 : r->conn_limit;
    if (!srv_role_conns_take(r->id, limit)) {
        srv_conn_fatal(c, CM_ERRCODE_TOO_MANY_CONNECTIONS, "too many connections for role \"%s\"", c->user);
        return false;
    }
    c->role_counted = r->id;
    /* ALTER ROLE SET: the role's defaults, under what the startup packet asked for. */
    for (uint32_t i = 0; i < r->nsettings; i++) {
        const char *eq = strchr(r->settings[i], '=');
        char name[128];
        if (eq == NULL || (size_t)(eq - r->settings[i]) >= sizeof name)
            continue;
        memcpy(name, r->settings[i], (size_t)(eq - r->settings[i]));
        name[eq - r->settings[i]] = 0;
        srv_session_set_role_default(&c->sess, name, eq + 1);
    }
    return true;
}

int srv_roles_secret(srv_conn_t *c, srv_scram_secret_t *out)
{
    const cat_snap_t *snap = srv__snap(c);
    const cat_role_t *r = snap ? cat_snap_role(snap, c->user) : NULL;
    if (r != NULL) {
        /* A role without a password, or whose password expired, cannot log in by password. */
        if (r->password == NULL || !srv_scram_secret_parse(r->password, out))
            return 0;
        if (r->has_valid_until && r->valid_until < cm_now_wall_us() - SRV_PG_EPOCH_US) {
            cm_log_info("role \"%s\" has an expired password", c->user);
            return 0;
        }
        return 1;
    }
    /* Not a role: the --users file's verifier (SIGHUP may replace the table meanwhile). */
    return srv_users_secret(c->lp->srv, c->user, out) ? 1 : 0;
}

const char *srv_roles_entry_sql(const char *tag, const char *sql)
{
    if (tag != NULL && (strcmp(tag, "CREATE ROLE") == 0 || strcmp(tag, "ALTER ROLE") == 0))
        return tag;
    return sql;
}

/* ------------------------------------------------------------ seeding */

static char *srv__hash(const char *password)
{
    return srv_scram_secret_build(password, SRV_SCRAM_ITERATIONS);
}

void srv_roles_install(void)
{
    pln_set_password_hasher(srv__hash);
    pln_set_setting_checker(srv_session_check_setting);
}

cat_commit_t *srv_roles_seed(srv_server_t *srv, const cat_snap_t *snap, const cat_head_t *head, cm_err_t *err)
{
    if (cat_snap_role_count(snap) > 0 || srv->nusers == 0)
        return NULL;
    cat_txn_t *t = cat_txn_new(snap);
    bool ok = true;
    for (int i = 0; ok && i < srv->nusers; i++) {
        if (cat_snap_role(cat_txn_snap(t), srv->users[i].name))
            continue;   /* a name listed twice */
        /* The verifier as the file has it: the format is PostgreSQL's, so it is stored as given. */
        cm_buf_t v;
        cm_buf_init(&v, 0);
        const srv_scram_secret_t *s = &srv->users[i].secret;
        cm_buf_printf(&v, "SCRAM-SHA-256$%d:", s->iterations);
        srv_base64_encode(s->salt, s->salt_len, &v);
        cm_buf_put_u8(&v, '$');
        srv_base64_encode(s->stored_key, SRV_SCRAM_KEY_LEN, &v);
        cm_buf_put_u8(&v, ':');
        srv_base64_encode(s->server_key, SRV_SCRAM_KEY_LEN, &v);
        cm_buf_put_u8(&v, 0);
        cat_role_def_t def = {.name = srv->users[i].name,
                              .flags = CAT_ROLE_SUPERUSER | CAT_ROLE_INHERIT | CAT_ROLE_CREATEROLE |
                                       CAT_ROLE_CREATEDB | CAT_ROLE_LOGIN | CAT_ROLE_REPLICATION | CAT_ROLE_BYPASSRLS,
                              .conn_limit = -1,
                              .password = (const char *)v.data};
        cat_change_t *ch = cat_change_new();
        ok = cat_plan_create_role(cat_txn_snap(t), NULL, &def, ch, err) &&
             cat_txn_add(t, ch, "CREATE ROLE", "CREATE ROLE (from the users file)", err);
        cat_change_free(ch);
        cm_buf_free(&v);
    }
    uint8_t uuid[16];
    if (getrandom(uuid, sizeof uuid, 0) != (ssize_t)sizeof uuid) {
        int64_t now = cm_now_wall_us();
        memset(uuid, 0, sizeof uuid);
        memcpy(uuid, &now, sizeof now);
    }
    cat_commit_t *c = ok ? cat_txn_commit(t, head, uuid, NULL, err) : NULL;
    cat_txn_free(t);
    return c;
}
