/*
 * test_zk_tools.h: fault tools for the store_zk tests, on a real ZooKeeper:
 *   - a raw session (libzookeeper_st driven by poll) to read, write and
 *     delete nodes behind the store's back;
 *   - session expiry on demand (reference/zk.md §3.2: a second handle with
 *     the same session id and password connects and closes, which ends the
 *     session for the first);
 *   - a loopback TCP proxy on a thread, between the store and ZooKeeper,
 *     that passes bytes, swallows one direction, or cuts every connection,
 *     to lose a request or its answer at a chosen moment.
 * Everything binds to 127.0.0.1 only.
 */
#ifndef EDDY_TEST_ZK_TOOLS_H
#define EDDY_TEST_ZK_TOOLS_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zookeeper/zookeeper.h>

static __attribute__((unused)) int64_t zt_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- a raw session ---- */

static void zt_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
}

/* Drives zh until *flag is set or timeout_ms passes (flag NULL: connected). */
static __attribute__((unused)) bool zt_drive(zhandle_t *zh, volatile int *flag, int timeout_ms)
{
    int64_t end = zt_now_ms() + timeout_ms;
    while (zt_now_ms() < end) {
        if (flag ? *flag != 0 : zoo_state(zh) == ZOO_CONNECTED_STATE)
            return true;
        int fd = -1, interest = 0;
        struct timeval tv = {0};
        if (zookeeper_interest(zh, &fd, &interest, &tv) == ZINVALIDSTATE)
            return false;
        struct pollfd p = {.fd = fd,
                           .events = (short)((interest & ZOOKEEPER_READ ? POLLIN : 0) |
                                             (interest & ZOOKEEPER_WRITE ? POLLOUT : 0))};
        int wait = (int)(tv.tv_sec * 1000 + tv.tv_usec / 1000);
        if (wait > 50 || wait <= 0)
            wait = 50;
        int n = poll(fd >= 0 ? &p : NULL, fd >= 0 ? 1 : 0, wait);
        int ev = 0;
        if (n > 0) {
            if (p.revents & (POLLIN | POLLERR | POLLHUP))
                ev |= ZOOKEEPER_READ;
            if (p.revents & (POLLOUT | POLLERR | POLLHUP))
                ev |= ZOOKEEPER_WRITE;
        }
        zookeeper_process(zh, ev);
    }
    return false;
}

static __attribute__((unused)) zhandle_t *zt_connect(const char *hosts)
{
    zoo_set_debug_level(ZOO_LOG_LEVEL_ERROR);
    zhandle_t *zh = zookeeper_init(hosts, zt_watcher, 4000, NULL, NULL, 0);
    if (zh && !zt_drive(zh, NULL, 10000)) {
        zookeeper_close(zh);
        return NULL;
    }
    return zh;
}

typedef struct zt_res {
    int done;
    int rc;
    char data[1024];
    int len;
} zt_res_t;

static void zt_void_cb(int rc, const void *d)
{
    zt_res_t *r = (zt_res_t *)d;
    r->rc = rc;
    r->done = 1;
}

static void zt_stat_cb(int rc, const struct Stat *st, const void *d)
{
    zt_void_cb(rc, d);
}

static void zt_data_cb(int rc, const char *v, int len, const struct Stat *st, const void *d)
{
    zt_res_t *r = (zt_res_t *)d;
    if (rc == ZOK && v && len > 0 && len < (int)sizeof(r->data)) {
        memcpy(r->data, v, (size_t)len);
        r->len = len;
    }
    r->data[r->len] = 0;
    zt_void_cb(rc, d);
}

static __attribute__((unused)) int zt_get(zhandle_t *zh, const char *path, zt_res_t *r)
{
    memset(r, 0, sizeof(*r));
    if (zoo_aget(zh, path, 0, zt_data_cb, r) != ZOK || !zt_drive(zh, &r->done, 10000))
        return ZSYSTEMERROR;
    return r->rc;
}

static __attribute__((unused)) int zt_set(zhandle_t *zh, const char *path, const char *value)
{
    zt_res_t r = {0};
    if (zoo_aset(zh, path, value, (int)strlen(value), -1, zt_stat_cb, &r) != ZOK || !zt_drive(zh, &r.done, 10000))
        return ZSYSTEMERROR;
    return r.rc;
}

static __attribute__((unused)) int zt_delete(zhandle_t *zh, const char *path)
{
    zt_res_t r = {0};
    if (zoo_adelete(zh, path, -1, zt_void_cb, &r) != ZOK || !zt_drive(zh, &r.done, 10000))
        return ZSYSTEMERROR;
    return r.rc;
}

static void zt_string_cb(int rc, const char *v, const void *d)
{
    zt_void_cb(rc, d);
}

static __attribute__((unused)) int zt_create(zhandle_t *zh, const char *path, const char *value)
{
    zt_res_t r = {0};
    if (zoo_acreate(zh, path, value, value ? (int)strlen(value) : -1, &ZOO_OPEN_ACL_UNSAFE, 0, zt_string_cb, &r) !=
            ZOK ||
        !zt_drive(zh, &r.done, 10000))
        return ZSYSTEMERROR;
    return r.rc;
}

/* Ends another handle's session: connect with its id and password, then close. */
static __attribute__((unused)) bool zt_expire(const char *hosts, int64_t id, const char passwd[16])
{
    clientid_t cid;
    cid.client_id = id;
    memcpy(cid.passwd, passwd, 16);
    zhandle_t *zh = zookeeper_init(hosts, zt_watcher, 4000, &cid, NULL, 0);
    if (!zh)
        return false;
    bool ok = zt_drive(zh, NULL, 10000);
    zookeeper_close(zh);
    return ok;
}

/* ---- the proxy ---- */

typedef enum zt_mode {
    ZT_PASS = 0,
    ZT_SWALLOW_UP,     /* client → server bytes are dropped: a request is lost */
    ZT_SWALLOW_DOWN,   /* server → client bytes are dropped: an answer is lost */
    ZT_BLACKHOLE,      /* both */
} zt_mode_t;

#define ZT_PAIRS_MAX 32

typedef struct zt_proxy {
    int lfd;
    int port;
    int target_port;
    pthread_t th;
    atomic_int stop;
    atomic_int mode;
    atomic_int cut;        /* set: close every connection (the thread clears it) */
    atomic_int accepted;
    int cfd[ZT_PAIRS_MAX], sfd[ZT_PAIRS_MAX];
} zt_proxy_t;

static void zt_pair_close(zt_proxy_t *p, int i)
{
    close(p->cfd[i]);
    close(p->sfd[i]);
    p->cfd[i] = p->sfd[i] = -1;
}

static void zt_forward(zt_proxy_t *p, int i, bool up)
{
    char buf[65536];
    int from = up ? p->cfd[i] : p->sfd[i], to = up ? p->sfd[i] : p->cfd[i];
    ssize_t n = read(from, buf, sizeof(buf));
    if (n <= 0) {
        zt_pair_close(p, i);
        return;
    }
    int mode = atomic_load(&p->mode);
    bool drop = mode == ZT_BLACKHOLE || (up && mode == ZT_SWALLOW_UP) || (!up && mode == ZT_SWALLOW_DOWN);
    for (ssize_t off = 0; !drop && off < n;) {
        ssize_t w = write(to, buf + off, (size_t)(n - off));
        if (w <= 0) {
            zt_pair_close(p, i);
            return;
        }
        off += w;
    }
}

static void *zt_proxy_main(void *arg)
{
    zt_proxy_t *p = arg;
    while (!atomic_load(&p->stop)) {
        if (atomic_exchange(&p->cut, 0))
            for (int i = 0; i < ZT_PAIRS_MAX; i++)
                if (p->cfd[i] >= 0)
                    zt_pair_close(p, i);
        struct pollfd fds[1 + 2 * ZT_PAIRS_MAX];
        int who[1 + 2 * ZT_PAIRS_MAX];
        int n = 0;
        fds[n] = (struct pollfd){.fd = p->lfd, .events = POLLIN};
        who[n++] = -1;
        for (int i = 0; i < ZT_PAIRS_MAX; i++) {
            if (p->cfd[i] < 0)
                continue;
            fds[n] = (struct pollfd){.fd = p->cfd[i], .events = POLLIN};
            who[n++] = 2 * i;
            fds[n] = (struct pollfd){.fd = p->sfd[i], .events = POLLIN};
            who[n++] = 2 * i + 1;
        }
        if (poll(fds, (nfds_t)n, 20) <= 0)
            continue;
        for (int k = 0; k < n; k++) {
            if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            if (who[k] < 0) {
                int c = accept(p->lfd, NULL, NULL);
                if (c < 0)
                    continue;
                int s = socket(AF_INET, SOCK_STREAM, 0);
                struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)p->target_port)};
                a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
                int slot = -1;
                for (int i = 0; i < ZT_PAIRS_MAX && slot < 0; i++)
                    if (p->cfd[i] < 0)
                        slot = i;
                if (slot < 0 || connect(s, (struct sockaddr *)&a, sizeof(a)) != 0) {
                    close(c);
                    close(s);
                    continue;
                }
                p->cfd[slot] = c;
                p->sfd[slot] = s;
                atomic_fetch_add(&p->accepted, 1);
                continue;
            }
            int i = who[k] / 2;
            if (p->cfd[i] >= 0 && (who[k] & 1 ? p->sfd[i] : p->cfd[i]) == fds[k].fd)
                zt_forward(p, i, (who[k] & 1) == 0);
        }
    }
    for (int i = 0; i < ZT_PAIRS_MAX; i++)
        if (p->cfd[i] >= 0)
            zt_pair_close(p, i);
    return NULL;
}

/* Listens on a free loopback port and forwards to 127.0.0.1:target_port. */
static __attribute__((unused)) bool zt_proxy_start(zt_proxy_t *p, int target_port)
{
    memset(p, 0, sizeof(*p));
    for (int i = 0; i < ZT_PAIRS_MAX; i++)
        p->cfd[i] = p->sfd[i] = -1;
    p->target_port = target_port;
    p->lfd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(p->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t al = sizeof(a);
    if (bind(p->lfd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(p->lfd, 16) != 0 ||
        getsockname(p->lfd, (struct sockaddr *)&a, &al) != 0) {
        close(p->lfd);
        return false;
    }
    p->port = ntohs(a.sin_port);
    return pthread_create(&p->th, NULL, zt_proxy_main, p) == 0;
}

static __attribute__((unused)) void zt_proxy_stop(zt_proxy_t *p)
{
    atomic_store(&p->stop, 1);
    pthread_join(p->th, NULL);
    close(p->lfd);
}

/* Cuts every connection now (the thread does it within ~20 ms); waits for it. */
static __attribute__((unused)) void zt_proxy_cut(zt_proxy_t *p)
{
    atomic_store(&p->cut, 1);
    while (atomic_load(&p->cut))
        usleep(5000);
}

#endif
