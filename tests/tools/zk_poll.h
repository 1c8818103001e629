/*
 * zk_poll.h: how the test tools drive a single-threaded ZooKeeper session
 * (libzookeeper_st has no thread of its own): poll its socket for what it
 * is interested in and let it process, until a completion sets a flag or
 * the time runs out.
 */
#ifndef EDDY_TESTS_ZK_POLL_H
#define EDDY_TESTS_ZK_POLL_H

#include <poll.h>
#include <stdbool.h>
#include <time.h>
#include <zookeeper/zookeeper.h>

static double zk_poll_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Runs the session until *flag or timeout_ms pass; false on timeout or a broken session. */
static bool zk_poll_until(zhandle_t *zh, const bool *flag, double timeout_ms)
{
    double end = zk_poll_now_ms() + timeout_ms;
    while (!*flag) {
        int fd = -1, interest = 0;
        struct timeval tv = {0, 0};
        if (zookeeper_interest(zh, &fd, &interest, &tv) != ZOK && fd < 0)
            return false;
        struct pollfd p = {.fd = fd, .events = 0};
        if (interest & ZOOKEEPER_READ)
            p.events |= POLLIN;
        if (interest & ZOOKEEPER_WRITE)
            p.events |= POLLOUT;
        int wait = (int)(tv.tv_sec * 1000 + tv.tv_usec / 1000);
        int n = poll(&p, fd >= 0 ? 1 : 0, wait < 1 ? 1 : wait);
        int ev = 0;
        if (n > 0 && (p.revents & (POLLIN | POLLERR | POLLHUP)))
            ev |= ZOOKEEPER_READ;
        if (n > 0 && (p.revents & POLLOUT))
            ev |= ZOOKEEPER_WRITE;
        zookeeper_process(zh, ev);
        if (zk_poll_now_ms() > end)
            return false;
    }
    return true;
}

#endif
