/*
 * srv_http.c: --http-listen HOST:PORT, the operator's endpoints over HTTP,
 * served by libmicrohttpd on a thread of its own (never a loop, a worker or
 * the sequencer, so an answer does not wait for a statement):
 *   /metrics   every figure of srv_metrics.c in Prometheus' text format
 *   /healthz   200 while the process runs
 *   /readyz    200 once the catalog is loaded and the workers run (and, in
 *              cluster mode, the ZooKeeper session is connected), saying
 *              owner, standby or local; 503 saying why not
 * Only GET and HEAD; the time spent on each request is itself a histogram.
 */
#include "server/srv_int.h"
#include "server/srv_metrics.h"

#include <microhttpd.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

struct srv_http {
    struct MHD_Daemon *daemon;
};

static char *srv__http_printf(size_t *len, const char *fmt, const char *arg)
{
    size_t n = strlen(fmt) + strlen(arg) + 1;
    char *s = cm_malloc(n);
    snprintf(s, n, fmt, arg);
    *len = strlen(s);
    return s;
}

static enum MHD_Result srv__http_answer(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                                        const char *version, const char *upload_data, size_t *upload_data_size,
                                        void **con_cls)
{
    (void)version;
    (void)upload_data;
    (void)upload_data_size;
    (void)con_cls;
    int64_t t0 = cm_now_mono_us();
    srv_server_t *srv = cls;
    unsigned status = MHD_HTTP_OK;
    const char *ctype = "text/plain; charset=utf-8";
    int hist = -1;
    size_t len;
    char *body;
    const char *what;
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        status = MHD_HTTP_METHOD_NOT_ALLOWED;
        body = srv__http_printf(&len, "method %s not allowed\n", method);
    } else if (strcmp(url, "/metrics") == 0) {
        body = srv_metrics_text(srv, &len);
        ctype = "text/plain; version=0.0.4; charset=utf-8";
        hist = SRV_HIST_HTTP_METRICS;
    } else if (strcmp(url, "/healthz") == 0) {
        body = srv__http_printf(&len, "%s\n", "ok");
        hist = SRV_HIST_HTTP_HEALTHZ;
    } else if (strcmp(url, "/readyz") == 0) {
        bool ready = srv_metrics_ready(srv, &what);
        status = ready ? MHD_HTTP_OK : MHD_HTTP_SERVICE_UNAVAILABLE;
        body = srv__http_printf(&len, ready ? "ready: %s\n" : "not ready: %s\n", what);
        hist = SRV_HIST_HTTP_READYZ;
    } else {
        status = MHD_HTTP_NOT_FOUND;
        body = srv__http_printf(&len, "no such path; try /metrics, /healthz or /readyz%s\n", "");
    }
    struct MHD_Response *resp = MHD_create_response_from_buffer(len, body, MHD_RESPMEM_MUST_FREE);
    if (resp == NULL) {
        free(body);
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, ctype);
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
    enum MHD_Result rc = MHD_queue_response(conn, status, resp);
    MHD_destroy_response(resp);
    if (hist >= 0)
        srv_metrics_observe((srv_hist_id_t)hist, cm_now_mono_us() - t0);
    return rc;
}

static void srv__http_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    char msg[512];
    vsnprintf(msg, sizeof msg, fmt, ap);
    msg[strcspn(msg, "\n")] = 0;
    cm_log_warn("http: %s", msg);
}

bool srv_http_start(srv_server_t *srv, cm_err_t *err)
{
    const char *spec = srv->cfg.http_listen;
    if (spec == NULL)
        return true;
    const char *colon = strrchr(spec, ':');
    if (colon == NULL)
        return cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "--http-listen %s: expected HOST:PORT", spec);
    char host[256];
    size_t n = (size_t)(colon - spec);
    if (n > 1 && spec[0] == '[' && spec[n - 1] == ']') {
        memcpy(host, spec + 1, n - 2);
        host[n - 2] = 0;
    } else {
        snprintf(host, sizeof host, "%.*s", (int)n, spec);
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM, .ai_flags = AI_PASSIVE}, *res;
    int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc != 0)
        return cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "--http-listen %s: cannot resolve %s: %s", spec,
                          host, gai_strerror(rc));
    /* epoll (MHD_USE_AUTO): select() would refuse sockets numbered past FD_SETSIZE, which a
     * server with thousands of client connections hands out. */
    unsigned flags = MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG;
    if (res->ai_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, 0, NULL, NULL, srv__http_answer, srv, MHD_OPTION_EXTERNAL_LOGGER, srv__http_log, NULL,
        MHD_OPTION_SOCK_ADDR, res->ai_addr, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)10,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)64, MHD_OPTION_END);
    freeaddrinfo(res);
    if (d == NULL)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "cannot serve HTTP on %s (see the log above)", spec);
    srv->http = cm_calloc(1, sizeof *srv->http);
    srv->http->daemon = d;
    cm_log_info("serving /metrics, /healthz and /readyz on http://%s", spec);
    return true;
}

void srv_http_stop(srv_server_t *srv)
{
    if (srv->http == NULL)
        return;
    MHD_stop_daemon(srv->http->daemon);
    free(srv->http);
    srv->http = NULL;
}
