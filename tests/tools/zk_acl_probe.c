/*
 * zk_acl_probe.c: what a ZooKeeper client may do under a catalog's chroot,
 * for tests/layers/zk_auth.sh. It connects (with digest credentials
 * "user:password" when given, else none) and tries those of these ACTIONS
 * (a comma-separated list) it is asked to, in this order:
 *   read      get PATH/meta
 *   list      get the children of PATH
 *   create    create PATH/probe
 *   change    set PATH/catalog/head
 *   delete    delete PATH/trim
 *   acl       set the ACL of PATH/meta to world:anyone
 * and prints one line "WHAT RESULT" each, RESULT being ZooKeeper's error name
 * (ZOK, ZNOAUTH, ...). What is allowed is done, so a test asks for the
 * changing ones only where it expects them refused.
 *   usage: zk_acl_probe HOST:PORT PATH ACTIONS [user:password]
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zookeeper/zookeeper.h>

#include "tests/tools/zk_poll.h"

static int probe__rc;
static bool probe__done;

static void probe__watch(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
    (void)zh, (void)type, (void)state, (void)path, (void)ctx;
}

static bool probe__run(zhandle_t *zh)
{
    return zk_poll_until(zh, &probe__done, 5000);
}

static void probe__void_done(int rc, const void *data)
{
    (void)data;
    probe__rc = rc;
    probe__done = true;
}

static void probe__data_done(int rc, const char *v, int len, const struct Stat *st, const void *data)
{
    (void)v, (void)len, (void)st;
    probe__void_done(rc, data);
}

static void probe__string_done(int rc, const char *v, const void *data)
{
    (void)v;
    probe__void_done(rc, data);
}

static void probe__stat_done(int rc, const struct Stat *st, const void *data)
{
    (void)st;
    probe__void_done(rc, data);
}

static void probe__children_done(int rc, const struct String_vector *v, const void *data)
{
    (void)v;
    probe__void_done(rc, data);
}

static const char *probe__name(int rc)
{
    switch (rc) {
    case ZOK: return "ZOK";
    case ZNOAUTH: return "ZNOAUTH";
    case ZNONODE: return "ZNONODE";
    case ZNODEEXISTS: return "ZNODEEXISTS";
    case ZNOTEMPTY: return "ZNOTEMPTY";
    case ZBADVERSION: return "ZBADVERSION";
    case ZINVALIDACL: return "ZINVALIDACL";
    case ZAUTHFAILED: return "ZAUTHFAILED";
    default: return zerror(rc);
    }
}

static void probe__report(zhandle_t *zh, const char *what, int sent)
{
    if (sent != ZOK) {
        printf("%s %s\n", what, probe__name(sent));
        return;
    }
    if (!probe__run(zh)) {
        printf("%s TIMEOUT\n", what);
        return;
    }
    printf("%s %s\n", what, probe__name(probe__rc));
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: zk_acl_probe HOST:PORT PATH ACTIONS [user:password]\n");
        return 2;
    }
    zoo_set_debug_level(ZOO_LOG_LEVEL_ERROR);
    zhandle_t *zh = zookeeper_init(argv[1], probe__watch, 10000, NULL, NULL, 0);
    if (zh == NULL)
        return 1;
    if (argc > 4) {
        probe__done = false;
        probe__report(zh, "auth", zoo_add_auth(zh, "digest", argv[4], (int)strlen(argv[4]), probe__void_done, NULL));
    }
    char actions[256];
    snprintf(actions, sizeof actions, ",%s,", argv[3]);
#define WANTED(w) (strstr(actions, "," w ",") != NULL)
    char p[1024];
    const char *root = argv[2];
    snprintf(p, sizeof p, "%s/meta", root);
    probe__done = false;
    if (WANTED("read"))
        probe__report(zh, "read", zoo_aget(zh, p, 0, probe__data_done, NULL));
    probe__done = false;
    if (WANTED("list"))
        probe__report(zh, "list", zoo_aget_children(zh, root, 0, probe__children_done, NULL));
    snprintf(p, sizeof p, "%s/probe", root);
    probe__done = false;
    if (WANTED("create"))
        probe__report(zh, "create", zoo_acreate(zh, p, "x", 1, &ZOO_OPEN_ACL_UNSAFE, 0, probe__string_done, NULL));
    snprintf(p, sizeof p, "%s/catalog/head", root);
    probe__done = false;
    if (WANTED("change"))
        probe__report(zh, "change", zoo_aset(zh, p, "999", 3, -1, probe__stat_done, NULL));
    snprintf(p, sizeof p, "%s/trim", root);
    probe__done = false;
    if (WANTED("delete"))
        probe__report(zh, "delete", zoo_adelete(zh, p, -1, probe__void_done, NULL));
    snprintf(p, sizeof p, "%s/meta", root);
    probe__done = false;
    if (WANTED("acl"))
        probe__report(zh, "acl", zoo_aset_acl(zh, p, -1, &ZOO_OPEN_ACL_UNSAFE, probe__void_done, NULL));
    zookeeper_close(zh);
    return 0;
}
