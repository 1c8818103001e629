/*
 * srv_listen.c: the server's event loops: one per I/O thread, a listening
 * socket accepted on a thread of its own and handed round-robin to the loops
 * (a bounded queue plus uv_async_send, drained whole), past a loop that is
 * stuck in a long statement so that a CancelRequest reaches a free one, a
 * one-second housekeeping timer per loop, and the shutdown on SIGINT/SIGTERM: stop accepting, let
 * running statements answer (up to --shutdown-timeout-ms), send every client FATAL 57P01, close
 * everything and return 0.
 *
 * Accept-and-hand-off rather than SO_REUSEPORT: the kernel's hash spreads a
 * handful of clients unevenly over two loops, round-robin does not.
 */
#include "server/srv_int.h"
#include "server/srv_tls.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

void srv_config_default(srv_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    snprintf(cfg->listen_host, sizeof cfg->listen_host, "127.0.0.1");
    cfg->listen_port = 6875;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cfg->io_threads = n > 0 ? (int)n : 1;
    cfg->workers = cfg->io_threads;
    cfg->auth = SRV_AUTH_TRUST;
    cfg->message_max_bytes = 64u << 20;
    cfg->auth_message_max_bytes = SRV_SMALL_MESSAGE_MAX;
    cfg->output_max_bytes = 1u << 20;
    cfg->result_max_bytes = 64u << 20;
    cfg->max_connections = 4096;
    cfg->auth_timeout_ms = 60000;
    cfg->auth_fail_delay_ms = 0;
    cfg->auth_fail_delay_max_ms = 10000;
    cfg->worker_queue_max = 1024;
    cfg->view_recursion_limit = DF_RECURSION_MAX_DEFAULT;
    cfg->ddl_apply_timeout_ms = 30000;
    cfg->write_retries = 100;
    cfg->txn_write_rows_max = 1000000;
    cfg->copy_max_bytes = 1u << 30;
    cfg->command_history_max = 10000;
    cfg->zk_session_timeout_ms = 10000;
    cfg->zk_connect_timeout_ms = 10000;
    cfg->ddl_timeout_ms = 10000;
    cfg->name_recheck_timeout_ms = 2000;
    cfg->ddl_spin_us = 1000;
    cfg->snapshot_reads = true;
    cfg->worker_spin_us = 1000;
    cfg->worker_idle_merge_ms = 100;
    cfg->shutdown_timeout_ms = 10000;
    cfg->log_slow_statements_ms = -1;
}

/* ------------------------------------------------------------ shutdown */

static void srv__loop_close_handles(srv_loop_t *lp)
{
    if (!uv_is_closing((uv_handle_t *)&lp->async))
        uv_close((uv_handle_t *)&lp->async, NULL);
    if (!uv_is_closing((uv_handle_t *)&lp->tick))
        uv_close((uv_handle_t *)&lp->tick, NULL);
    srv_sync_loop_close(lp);
    srv_ask_loop_close(lp);
    srv_sub_loop_close(lp);
    srv_catalog_loop_close(lp);
    srv_ddl_loop_close(lp);   /* after the catalog: its store's last answers end some operations */
}

/* SRV_STOP_TICK_MS: how often a stopping loop looks at what is left. */
#define SRV_STOP_TICK_MS 50

/*
 * Stopping, as PostgreSQL's shutdown ends sessions: a session between
 * statements gets FATAL 57P01 at once; one whose statement runs off the loop
 * (BUSY: a write, a read on the workers, DDL) gets its answer first and the
 * FATAL when it would go on (srv_loop_conn_resumed), or the FATAL alone once
 * --shutdown-timeout-ms has passed.
 */
static void srv__tick_cb(uv_timer_t *t);

static void srv__loop_begin_stop(srv_loop_t *lp)
{
    if (lp->stopping)
        return;
    lp->stopping = true;
    lp->stop_deadline_us = cm_now_mono_us() + (int64_t)lp->srv->cfg.shutdown_timeout_ms * 1000;
    for (srv_conn_t *c = lp->conns, *next; c != NULL; c = next) {
        next = c->next;
        if (c->state == SRV_CONN_READY || c->state == SRV_CONN_AUTH)
            srv_conn_fatal(c, CM_ERRCODE_ADMIN_SHUTDOWN, "terminating connection due to administrator command");
        else if (c->state != SRV_CONN_BUSY)
            srv_conn_close(c);
    }
    if (lp->conns == NULL)
        srv__loop_close_handles(lp);
    else if (!uv_is_closing((uv_handle_t *)&lp->tick))
        uv_timer_start(&lp->tick, srv__tick_cb, SRV_STOP_TICK_MS, SRV_STOP_TICK_MS);
}

bool srv_loop_conn_resumed(srv_conn_t *c)
{
    if (!c->lp->stopping || c->state != SRV_CONN_READY)
        return false;
    srv_conn_fatal(c, CM_ERRCODE_ADMIN_SHUTDOWN, "terminating connection due to administrator command");
    return true;
}

void srv_loop_conn_gone(srv_loop_t *lp)
{
    srv_catalog_loop_quiet(lp);
    if (lp->stopping && lp->conns == NULL)
        srv__loop_close_handles(lp);
}

static void srv__tick_cb(uv_timer_t *t)
{
    srv_loop_t *lp = t->data;
    if (lp->stopping) {
        /* Sessions between statements (one whose statement ended without going on) get their
         * 57P01 now, running ones once the time is up; clients that have not taken their FATAL
         * a tick after that are cut off. */
        int64_t now = cm_now_mono_us();
        bool late = now >= lp->stop_deadline_us;
        for (srv_conn_t *c = lp->conns, *next; c != NULL; c = next) {
            next = c->next;
            if (c->state == SRV_CONN_READY || c->state == SRV_CONN_AUTH || (late && c->state == SRV_CONN_BUSY))
                srv_conn_fatal(c, CM_ERRCODE_ADMIN_SHUTDOWN, "terminating connection due to administrator command");
        }
        if (now < lp->stop_deadline_us + SRV_STOP_TICK_MS * 1000)
            return;
        for (srv_conn_t *c = lp->conns, *next; c != NULL; c = next) {
            next = c->next;
            srv_conn_abort(c);
        }
        srv__loop_close_handles(lp);
        return;
    }
    int64_t now = cm_now_mono_us();
    for (srv_conn_t *c = lp->conns, *next; c != NULL; c = next) {
        next = c->next;
        srv_auth_tick(c, now);
    }
}

static void srv__async_cb(uv_async_t *a)
{
    srv_loop_t *lp = a->data;
    int fds[SRV_HANDOFF_MAX];
    pthread_mutex_lock(&lp->mu);
    int n = lp->nhandoff;
    memcpy(fds, lp->handoff, sizeof fds[0] * (size_t)n);
    lp->nhandoff = 0;
    bool stop = lp->stop;
    pthread_mutex_unlock(&lp->mu);
    for (int i = 0; i < n; i++) {
        if (stop)
            close(fds[i]);
        else
            srv_conn_accept(lp, fds[i]);
    }
    if (stop)
        srv__loop_begin_stop(lp);
}

/* SIGHUP re-reads the files eddy reads at start: TLS certificate and key, the users. */
static void srv__sighup_cb(uv_signal_t *s, int signum)
{
    (void)signum;
    srv_server_t *srv = s->data;
    if (srv_tls_enabled(srv)) {
        cm_err_t err = {0};
        if (srv_tls_reload(srv, &err)) {
            cm_log_info("received SIGHUP, reloaded TLS certificate and key");
        } else {
            cm_log_error("received SIGHUP, TLS files not reloaded (the previous ones stay in use): %s", err.message);
            cm_err_clear(&err);
        }
    }
    srv_users_reload(srv);
}

static void srv__stop_all(srv_server_t *srv)
{
    srv_loop_t *lp0 = &srv->loops[0];
    if (write(srv->accept_stop[1], "x", 1) < 0 && errno != EAGAIN)
        cm_log_warn("stopping the acceptor: %s", strerror(errno));
    if (!uv_is_closing((uv_handle_t *)&lp0->sigint)) {
        uv_close((uv_handle_t *)&lp0->sigint, NULL);
        uv_close((uv_handle_t *)&lp0->sigterm, NULL);
        uv_close((uv_handle_t *)&lp0->sighup, NULL);
    }
    for (int i = 0; i < srv->nloops; i++) {
        srv_loop_t *lp = &srv->loops[i];
        pthread_mutex_lock(&lp->mu);
        lp->stop = true;
        pthread_mutex_unlock(&lp->mu);
        uv_async_send(&lp->async);
    }
}

static void srv__signal_cb(uv_signal_t *s, int signum)
{
    srv_server_t *srv = s->data;
    cm_log_info("received signal %d, shutting down", signum);
    srv_notify("STOPPING=1");
    srv__stop_all(srv);
}

/* ------------------------------------------------------------ accept */

/* A loop that has been in one callback this long is taken to be running a statement. */
#define SRV_LOOP_BUSY_US 10000

/* Round-robin, but past loops stuck in a statement while another is free. */
static srv_loop_t *srv__pick_loop(srv_server_t *srv)
{
    unsigned start = atomic_fetch_add(&srv->next_loop, 1);
    int64_t now = cm_now_mono_us();
    for (int k = 0; k < srv->nloops; k++) {
        srv_loop_t *lp = &srv->loops[(start + (unsigned)k) % (unsigned)srv->nloops];
        int64_t since = __atomic_load_n(&lp->busy_since_us, __ATOMIC_RELAXED);
        if (since == 0 || now - since < SRV_LOOP_BUSY_US)
            return lp;
    }
    return &srv->loops[start % (unsigned)srv->nloops];
}

static void srv__accept_ready(srv_server_t *srv)
{
    for (int k = 0; k < 256; k++) {
        int fd = accept4(srv->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED)
                cm_log_warn("accept: %s", strerror(errno));
            return;
        }
        srv_loop_t *lp = srv__pick_loop(srv);
        pthread_mutex_lock(&lp->mu);
        bool full = lp->nhandoff == SRV_HANDOFF_MAX;
        if (!full)
            lp->handoff[lp->nhandoff++] = fd;
        pthread_mutex_unlock(&lp->mu);
        if (full)
            close(fd);
        else
            uv_async_send(&lp->async);
    }
}

static void srv__accept_loop(srv_server_t *srv);

/* The acceptor: accepts and hands off until a byte arrives on accept_stop, then closes the
 * listener so that clients are refused from then on. */
static void srv__acceptor_thread(void *arg)
{
    srv_server_t *srv = arg;
    srv__accept_loop(srv);
    close(srv->listen_fd);
    srv->listen_fd = -1;
}

static void srv__accept_loop(srv_server_t *srv)
{
    for (;;) {
        struct pollfd pf[2] = {{.fd = srv->listen_fd, .events = POLLIN}, {.fd = srv->accept_stop[0], .events = POLLIN}};
        if (poll(pf, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            cm_log_warn("poll: %s", strerror(errno));
            return;
        }
        if (pf[1].revents != 0)
            return;
        if (pf[0].revents != 0)
            srv__accept_ready(srv);
    }
}

static int srv__listen_socket(const srv_config_t *cfg)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE};
    struct addrinfo *res;
    char port[16];
    snprintf(port, sizeof port, "%d", cfg->listen_port);
    int rc = getaddrinfo(cfg->listen_host, port, &hints, &res);
    if (rc != 0) {
        cm_log_error("cannot resolve %s: %s", cfg->listen_host, gai_strerror(rc));
        return -1;
    }
    int fd = -1;
    for (struct addrinfo *ai = res; ai != NULL; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0)
            continue;
        int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 1024) == 0)
            break;
        cm_log_error("cannot listen on %s:%d: %s", cfg->listen_host, cfg->listen_port, strerror(errno));
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    return fd;
}

/* ------------------------------------------------------------ run */

static void srv__loop_thread(void *arg)
{
    srv_loop_t *lp = arg;
    uv_run(&lp->uv, UV_RUN_DEFAULT);
}

static void srv__raise_fd_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

int srv_run(const srv_config_t *cfg)
{
    srv_server_t *srv = cm_calloc(1, sizeof *srv);
    srv->cfg = *cfg;
    pthread_mutex_init(&srv->sync_mu, NULL);
    pthread_mutex_init(&srv->users_mu, NULL);
    if (cfg->auth == SRV_AUTH_PASSWORD || cfg->auth == SRV_AUTH_SCRAM) {
        cm_err_t err = {0};
        if (cfg->users_file == NULL) {
            cm_log_error("--auth password and --auth scram need --users FILE");
            return 2;
        }
        if (!srv_users_load(srv, cfg->users_file, &err)) {
            cm_log_error("%s", err.message);
            cm_err_clear(&err);
            return 2;
        }
    }
    cm_err_t cerr = {0};
    if (!srv_tls_start(srv, &cerr)) {
        cm_log_error("%s", cerr.message);
        cm_err_clear(&cerr);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    srv__raise_fd_limit();
    /* Before the catalog: /healthz answers and /readyz says "loading" while it loads. */
    if (!srv_http_start(srv, &cerr)) {
        cm_log_error("%s", cerr.message);
        cm_err_clear(&cerr);
        return 1;
    }
    if (!srv_catalog_start(srv, &cerr)) {
        cm_log_error("%s", cerr.message);
        cm_err_clear(&cerr);
        srv_http_stop(srv);
        srv_catalog_stop(srv);
        return 1;
    }
    int fd = srv__listen_socket(cfg);
    if (fd < 0) {
        srv_http_stop(srv);
        srv_catalog_stop(srv);
        return 1;
    }
    srv->nloops = cfg->io_threads > 0 ? cfg->io_threads : 1;
    srv->loops = cm_calloc((size_t)srv->nloops, sizeof *srv->loops);
    for (int i = 0; i < srv->nloops; i++) {
        srv_loop_t *lp = &srv->loops[i];
        lp->srv = srv;
        lp->index = i;
        uv_loop_init(&lp->uv);
        pthread_mutex_init(&lp->mu, NULL);
        uv_async_init(&lp->uv, &lp->async, srv__async_cb);
        lp->async.data = lp;
        uv_timer_init(&lp->uv, &lp->tick);
        lp->tick.data = lp;
        uv_timer_start(&lp->tick, srv__tick_cb, 1000, 1000);
        srv_catalog_loop_init(lp);
        srv_ddl_loop_init(lp);
        srv_sync_loop_init(lp);
        srv_ask_loop_init(lp);
        srv_sub_loop_init(lp);
    }
    if (!srv_workers_start(srv, &cerr)) {
        cm_log_error("%s", cerr.message);
        cm_err_clear(&cerr);
        srv_http_stop(srv);
        return 1;
    }
    srv_loop_t *lp0 = &srv->loops[0];
    srv->listen_fd = fd;
    if (pipe2(srv->accept_stop, O_CLOEXEC | O_NONBLOCK) != 0) {
        cm_log_error("pipe: %s", strerror(errno));
        srv_http_stop(srv);
        return 1;
    }
    uv_signal_init(&lp0->uv, &lp0->sigint);
    uv_signal_init(&lp0->uv, &lp0->sigterm);
    lp0->sigint.data = lp0->sigterm.data = srv;
    uv_signal_start(&lp0->sigint, srv__signal_cb, SIGINT);
    uv_signal_start(&lp0->sigterm, srv__signal_cb, SIGTERM);
    uv_signal_init(&lp0->uv, &lp0->sighup);
    lp0->sighup.data = srv;
    uv_signal_start(&lp0->sighup, srv__sighup_cb, SIGHUP);
    for (int i = 1; i < srv->nloops; i++)
        uv_thread_create(&srv->loops[i].thread, srv__loop_thread, &srv->loops[i]);
    uv_thread_create(&srv->acceptor, srv__acceptor_thread, srv);
    cm_log_info("eddy %s listening on %s:%d with %d I/O threads", EDDY_VERSION, cfg->listen_host,
                cfg->listen_port, srv->nloops);
    /* The catalog is loaded, the workers run and clients are accepted. */
    atomic_store_explicit(&srv->ready, true, memory_order_release);
    srv_notify("READY=1");
    uv_run(&lp0->uv, UV_RUN_DEFAULT);
    /* First: the HTTP thread reads the workers and the stores freed below. */
    atomic_store_explicit(&srv->ready, false, memory_order_release);
    srv_http_stop(srv);
    for (int i = 1; i < srv->nloops; i++)
        uv_thread_join(&srv->loops[i].thread);
    uv_thread_join(&srv->acceptor);
    close(srv->accept_stop[0]);
    close(srv->accept_stop[1]);
    for (int i = 0; i < srv->nloops; i++) {
        uv_loop_close(&srv->loops[i].uv);
        pthread_mutex_destroy(&srv->loops[i].mu);
        srv_ddl_loop_free(&srv->loops[i]);
        srv_catalog_loop_free(&srv->loops[i]);
        srv_sync_loop_free(&srv->loops[i]);
        srv_ask_loop_free(&srv->loops[i]);
        srv_sub_loop_free(&srv->loops[i]);
    }
    srv_workers_stop(srv);
    srv_catalog_stop(srv);
    srv_tls_stop(srv);
    srv_users_free(srv);
    pthread_mutex_destroy(&srv->users_mu);
    free(srv->loops);
    pthread_mutex_destroy(&srv->sync_mu);
    free(srv);
    return 0;
}
