/*
 * srv_users.c: the --users file of user:SCRAM-verifier lines, read at start
 * and again on SIGHUP. The table is replaced whole under a lock: a
 * connection authenticating copies its user's verifier out, so a reload
 * never changes an exchange that has begun, and sessions already
 * authenticated are not touched. A file that cannot be read or parsed
 * leaves the previous table in use.
 */
#include "server/srv_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void srv__users_free(srv_user_t *users, int n)
{
    for (int i = 0; i < n; i++)
        free(users[i].name);
    free(users);
}

static bool srv__users_parse(const char *path, srv_user_t **users_out, int *n_out, cm_err_t *err)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "could not open users file \"%s\": %s", path,
                          strerror(errno));
    srv_user_t *users = NULL;
    int n = 0;
    char line[4096];
    int lineno = 0;
    bool ok = true;
    while (fgets(line, sizeof line, f) != NULL) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] == 0 || line[0] == '#')
            continue;
        /* The name ends at the first ':' that precedes "SCRAM-SHA-256$". */
        char *sep = strstr(line, ":SCRAM-SHA-256$");
        srv_user_t u;
        if (sep == NULL || sep == line || !srv_scram_secret_parse(sep + 1, &u.secret)) {
            ok = cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR,
                            "users file \"%s\" line %d: expected user:SCRAM-SHA-256$<iter>:<salt>$<stored>:<server>",
                            path, lineno);
            break;
        }
        u.name = cm_strndup(line, (size_t)(sep - line));
        users = cm_realloc(users, sizeof *users * (size_t)(n + 1));
        users[n++] = u;
    }
    if (ferror(f) && ok)
        ok = cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "could not read users file \"%s\": %s", path,
                        strerror(errno));
    fclose(f);
    if (!ok) {
        srv__users_free(users, n);
        return false;
    }
    *users_out = users;
    *n_out = n;
    return true;
}

bool srv_users_load(srv_server_t *srv, const char *path, cm_err_t *err)
{
    srv_user_t *users;
    int n;
    if (!srv__users_parse(path, &users, &n, err))
        return false;
    pthread_mutex_lock(&srv->users_mu);
    srv_user_t *old = srv->users;
    int nold = srv->nusers;
    srv->users = users;
    srv->nusers = n;
    pthread_mutex_unlock(&srv->users_mu);
    srv__users_free(old, nold);
    return true;
}

void srv_users_reload(srv_server_t *srv)
{
    const char *path = srv->cfg.users_file;
    if (path == NULL || (srv->cfg.auth != SRV_AUTH_PASSWORD && srv->cfg.auth != SRV_AUTH_SCRAM))
        return;
    cm_err_t err = {0};
    if (srv_users_load(srv, path, &err)) {
        pthread_mutex_lock(&srv->users_mu);
        int n = srv->nusers;
        pthread_mutex_unlock(&srv->users_mu);
        cm_log_info("received SIGHUP, reloaded %d users from \"%s\"", n, path);
    } else {
        cm_log_error("received SIGHUP, users file not reloaded (the previous users stay in use): %s", err.message);
        cm_err_clear(&err);
    }
}

bool srv_users_secret(srv_server_t *srv, const char *name, srv_scram_secret_t *out)
{
    bool found = false;
    pthread_mutex_lock(&srv->users_mu);
    for (int i = 0; i < srv->nusers && !found; i++)
        if (strcmp(srv->users[i].name, name) == 0) {
            *out = srv->users[i].secret;
            found = true;
        }
    pthread_mutex_unlock(&srv->users_mu);
    return found;
}

void srv_users_free(srv_server_t *srv)
{
    srv__users_free(srv->users, srv->nusers);
    srv->users = NULL;
    srv->nusers = 0;
}
