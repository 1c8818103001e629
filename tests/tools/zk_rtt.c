/*
 * zk_rtt.c: the floor under eddy's DDL latency on ZooKeeper, for make bench.
 * One libzookeeper_st session on the same ZooKeeper, no eddy in between:
 * N getData round trips and N multis shaped like a catalog commit (create
 * a marker, set a head, create a log entry, an object and a name: what one
 * CREATE VIEW writes, with a watch on the head re-armed each time, as eddy
 * keeps one), each sent alone and waited for. It
 * prints p50 and p99 of each in milliseconds.
 *
 *   zk_rtt HOST:PORT/CHROOT [N]
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zookeeper/zookeeper.h>

#include "tests/tools/zk_poll.h"

static bool connected;
static int done_rc;
static bool done;

static void session_watch(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
    if (type == ZOO_SESSION_EVENT && state == ZOO_CONNECTED_STATE)
        connected = true;
}

static void void_done(int rc, const void *data)
{
    done_rc = rc;
    done = true;
}

static void data_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    void_done(rc, data);
}

static void string_done(int rc, const char *value, const void *data)
{
    void_done(rc, data);
}

static void ignore_data(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
}

/* As eddy does: a data watch on the head, re-armed each time it fires. */
static void head_watch(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
    if (type == ZOO_CHANGED_EVENT)
        zoo_awget(zh, "/head", head_watch, NULL, ignore_data, NULL);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(double *v, int n, int p)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    int k = (n * p + 99) / 100 - 1;
    return v[k < 0 ? 0 : k];
}

static bool create_node(zhandle_t *zh, const char *path)
{
    done = false;
    if (zoo_acreate(zh, path, "0", 1, &ZOO_OPEN_ACL_UNSAFE, 0, string_done, NULL) != ZOK ||
        !zk_poll_until(zh, &done, 5000))
        return false;
    return done_rc == ZOK || done_rc == ZNODEEXISTS;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: zk_rtt HOST:PORT/CHROOT [N]\n");
        return 2;
    }
    int n = argc > 2 ? atoi(argv[2]) : 500;
    if (n < 1)
        n = 1;
    zoo_set_debug_level(ZOO_LOG_LEVEL_ERROR);
    /* The chroot itself must exist: make it with a session on the bare hosts. */
    char hosts[512];
    snprintf(hosts, sizeof hosts, "%s", argv[1]);
    char *slash = strchr(hosts, '/');
    if (slash) {
        *slash = 0;
        zhandle_t *root = zookeeper_init(hosts, session_watch, 10000, NULL, NULL, 0);
        connected = false;
        if (root == NULL || !zk_poll_until(root, &connected, 5000) || !create_node(root, argv[1] + (slash - hosts))) {
            fprintf(stderr, "zk_rtt: cannot make %s\n", argv[1]);
            return 1;
        }
        zookeeper_close(root);
    }
    connected = false;
    zhandle_t *zh = zookeeper_init(argv[1], session_watch, 10000, NULL, NULL, 0);
    if (zh == NULL || !zk_poll_until(zh, &connected, 5000)) {
        fprintf(stderr, "zk_rtt: cannot connect to %s\n", argv[1]);
        return 1;
    }
    zoo_set_servers_resolution_delay(zh, -1);
    if (!create_node(zh, "/head") || !create_node(zh, "/log") || !create_node(zh, "/req") ||
        !create_node(zh, "/obj") || !create_node(zh, "/names")) {
        fprintf(stderr, "zk_rtt: cannot make the test nodes\n");
        return 1;
    }
    double *get_ms = calloc((size_t)n, sizeof *get_ms), *multi_ms = calloc((size_t)n, sizeof *multi_ms);
    char value[600];
    memset(value, 'x', sizeof value);
    /* Warm-up and gets. */
    for (int i = 0; i < n + 100; i++) {
        done = false;
        double t0 = zk_poll_now_ms();
        if (zoo_aget(zh, "/head", 0, data_done, NULL) != ZOK || !zk_poll_until(zh, &done, 5000) || done_rc != ZOK) {
            fprintf(stderr, "zk_rtt: get failed\n");
            return 1;
        }
        if (i >= 100)
            get_ms[i - 100] = zk_poll_now_ms() - t0;
    }
    zoo_awget(zh, "/head", head_watch, NULL, ignore_data, NULL);
    for (int i = 0; i < n + 100; i++) {
        char p_req[64], p_log[64], p_obj[64], p_name[64], idx[32];
        snprintf(p_req, sizeof p_req, "/req/r%d", i);
        snprintf(p_log, sizeof p_log, "/log/%020d", i);
        snprintf(p_obj, sizeof p_obj, "/obj/o%d", i);
        snprintf(p_name, sizeof p_name, "/names/n%d", i);
        snprintf(idx, sizeof idx, "%d", i);
        zoo_op_t ops[5];
        zoo_op_result_t res[5];
        zoo_create_op_init(&ops[0], p_req, idx, (int)strlen(idx), &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
        zoo_set_op_init(&ops[1], "/head", idx, (int)strlen(idx), -1, NULL);
        zoo_create_op_init(&ops[2], p_log, value, (int)sizeof value, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
        zoo_create_op_init(&ops[3], p_obj, value, 300, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
        zoo_create_op_init(&ops[4], p_name, idx, (int)strlen(idx), &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
        done = false;
        double t0 = zk_poll_now_ms();
        if (zoo_amulti(zh, 5, ops, res, void_done, NULL) != ZOK || !zk_poll_until(zh, &done, 5000) || done_rc != ZOK) {
            fprintf(stderr, "zk_rtt: multi failed (%d)\n", done_rc);
            return 1;
        }
        if (i >= 100)
            multi_ms[i - 100] = zk_poll_now_ms() - t0;
    }
    printf("ZooKeeper alone (zk_rtt, %d each): get p50 %.3f ms p99 %.3f ms; commit-shaped multi p50 %.3f ms "
           "p99 %.3f ms\n",
           n, pct(get_ms, n, 50), pct(get_ms, n, 99), pct(multi_ms, n, 50), pct(multi_ms, n, 99));
    zookeeper_close(zh);
    free(get_ms);
    free(multi_ms);
    return 0;
}
