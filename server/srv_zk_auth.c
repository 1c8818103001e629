/*
 * srv_zk_auth.c: --zookeeper-auth-file and --zookeeper-lock-acls. The file
 * holds eddy's digest credentials for ZooKeeper (never the command line,
 * where any local user could read them): a line "user:password", and
 * optionally "read-only user:password" for an operators' identity that may
 * read the catalog's znodes but change nothing. Others must not be able to
 * read it, as with a TLS key.
 */
#include "server/srv_int.h"
#include "server/srv_zk.h"
#include "catalog/catalog.h"

#include <errno.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ZooKeeper's digest identity: user:base64(sha1("user:password")). */
static char *srv__digest_id(const char *cred)
{
    uint8_t h[SHA_DIGEST_LENGTH];
    SHA1((const uint8_t *)cred, strlen(cred), h);
    size_t ul = strcspn(cred, ":");
    char b64[64];
    EVP_EncodeBlock((uint8_t *)b64, h, sizeof h);
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cm_buf_put(&b, cred, ul);
    cm_buf_printf(&b, ":%s", b64);
    cm_buf_put_u8(&b, 0);
    return (char *)b.data;
}

static bool srv__cred_ok(const char *c)
{
    const char *colon = strchr(c, ':');
    return colon != NULL && colon != c && colon[1] != 0;
}

bool srv_zk_auth_load(const char *path, char **auth, char **read_id, cm_err_t *err)
{
    *auth = *read_id = NULL;
    struct stat st;
    if (stat(path, &st) != 0)
        return cm_err_set(err, "F0000", "could not access ZooKeeper auth file \"%s\": %s", path, strerror(errno));
    if ((st.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
        cm_err_set(err, "F0000", "ZooKeeper auth file \"%s\" has group or world access", path);
        cm_err_set_hint(err, "It holds credentials: chmod 600 it.");
        return false;
    }
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return cm_err_set(err, "F0000", "could not open ZooKeeper auth file \"%s\": %s", path, strerror(errno));
    char line[1024];
    int lineno = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f) != NULL) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (line[0] == 0 || line[0] == '#')
            continue;
        if (strncmp(line, "read-only ", 10) == 0 && *read_id == NULL && srv__cred_ok(line + 10)) {
            *read_id = srv__digest_id(line + 10);
        } else if (*auth == NULL && strchr(line, ' ') == NULL && srv__cred_ok(line)) {
            *auth = cm_strdup(line);
        } else {
            ok = cm_err_set(err, "F0000",
                            "ZooKeeper auth file \"%s\" line %d: expected user:password, then optionally "
                            "\"read-only user:password\"",
                            path, lineno);
        }
    }
    fclose(f);
    if (ok && *auth == NULL)
        ok = cm_err_set(err, "F0000", "ZooKeeper auth file \"%s\" has no user:password line", path);
    if (!ok) {
        free(*auth);
        free(*read_id);
        *auth = *read_id = NULL;
    }
    return ok;
}

int srv_zk_lock_acls(const srv_config_t *cfg)
{
    if (cfg->zookeeper == NULL || cfg->zk_auth_file == NULL) {
        fprintf(stderr, "eddy: --zookeeper-lock-acls needs --zookeeper and --zookeeper-auth-file\n");
        return 2;
    }
    cm_err_t err = {0};
    char *auth, *read_id;
    if (!srv_zk_auth_load(cfg->zk_auth_file, &auth, &read_id, &err)) {
        fprintf(stderr, "eddy: %s\n", err.message);
        cm_err_clear(&err);
        return 2;
    }
    cat_zk_options_t o;
    cat_zk_options_default(&o);
    o.hosts = cfg->zookeeper;
    o.session_timeout_ms = cfg->zk_session_timeout_ms;
    o.auth = auth;
    o.read_id = read_id;
    size_t n = 0;
    bool ok = cat_zk_lock_acls(&o, cfg->zk_connect_timeout_ms, &n, &err);
    const char *slash = strchr(cfg->zookeeper, '/');
    if (ok) {
        printf("eddy: locked %zu znodes of the catalog at chroot \"%s\" to the credentials of %s\n", n,
               slash ? slash : "/", cfg->zk_auth_file);
    } else {
        fprintf(stderr, "eddy: --zookeeper-lock-acls failed after %zu znodes: %s\n", n, err.message);
        if (err.hint)
            fprintf(stderr, "HINT: %s\n", err.hint);
        cm_err_clear(&err);
    }
    free(auth);
    free(read_id);
    return ok ? 0 : 1;
}
