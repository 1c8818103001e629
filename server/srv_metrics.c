/*
 * srv_metrics.c: the figures of srv_metrics.h. Counters by statement kind
 * live in a fixed table whose slots are claimed once by compare-and-swap
 * (the kinds are the few CommandComplete tags), errors in one counter per
 * SQLSTATE class, latencies in histograms with fixed buckets; all are
 * relaxed atomics, so counting costs a statement a few atomic adds and a
 * reader takes no lock. The gauges come from what the workers, the
 * sequencer and the ZooKeeper thread publish as atomics, read once the
 * server is ready (srv->ready: before it the fields they hang off are
 * still being set up).
 */
#include "server/srv_metrics.h"

#include "dataflow/dataflow.h"
#include "sequencer/sequencer.h"
#include "server/srv_int.h"
#include "server/srv_zk.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------ histograms */

/* Upper bounds in microseconds (Prometheus' le, in seconds, when shown); +Inf follows. */
static const int64_t srv__bounds_us[] = {100,    250,    500,    1000,    2500,    5000,    10000,   25000,
                                         50000,  100000, 250000, 500000,  1000000, 2500000, 5000000, 10000000};
#define SRV__NBOUNDS ((int)CM_ARRAY_LEN(srv__bounds_us))

typedef struct srv__hist {
    _Atomic uint64_t bucket[SRV__NBOUNDS + 1];   /* not cumulative: the last is above every bound */
    _Atomic uint64_t sum_us;
} srv__hist_t;

static srv__hist_t srv__hists[SRV_HIST_COUNT];

void srv_metrics_observe(srv_hist_id_t h, int64_t us)
{
    if (us < 0)
        us = 0;
    int b = 0;
    while (b < SRV__NBOUNDS && us > srv__bounds_us[b])
        b++;
    atomic_fetch_add_explicit(&srv__hists[h].bucket[b], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&srv__hists[h].sum_us, (uint64_t)us, memory_order_relaxed);
}

/* ------------------------------------------------------------ counters */

#define SRV__KINDS_MAX 128
#define SRV__KIND_LEN 32

typedef struct srv__kind {
    _Atomic int state;           /* 0 free, 1 being claimed, 2 named */
    char name[SRV__KIND_LEN];
    _Atomic uint64_t n;
} srv__kind_t;

static srv__kind_t srv__kinds[SRV__KINDS_MAX];
static _Atomic uint64_t srv__kinds_other;   /* the table is full: should never count */
static _Atomic uint64_t srv__errors[36 * 36];
static _Atomic uint64_t srv__connections;
static _Atomic uint64_t srv__snapshot_reads;

void srv_metrics_query(const char *tag)
{
    /* The tag without its counts: "INSERT 0 3" is INSERT, "SELECT 5" SELECT. */
    char name[SRV__KIND_LEN];
    size_t n = strnlen(tag, sizeof name - 1);
    memcpy(name, tag, n);
    name[n] = 0;
    for (;;) {
        char *sp = strrchr(name, ' ');
        if (sp == NULL || sp[1] == 0 || strspn(sp + 1, "0123456789") != strlen(sp + 1))
            break;
        *sp = 0;
    }
    uint32_t h = 2166136261u;
    for (const char *p = name; *p; p++)
        h = (h ^ (uint8_t)*p) * 16777619u;
    for (int i = 0; i < SRV__KINDS_MAX; i++) {
        srv__kind_t *k = &srv__kinds[(h + (uint32_t)i) % SRV__KINDS_MAX];
        int st = atomic_load_explicit(&k->state, memory_order_acquire);
        if (st == 0) {
            int zero = 0;
            if (atomic_compare_exchange_strong(&k->state, &zero, 1)) {
                memcpy(k->name, name, strlen(name) + 1);
                atomic_store_explicit(&k->state, 2, memory_order_release);
                atomic_fetch_add_explicit(&k->n, 1, memory_order_relaxed);
                return;
            }
            st = zero;
        }
        while (st == 1)   /* another thread is writing the name: a few instructions */
            st = atomic_load_explicit(&k->state, memory_order_acquire);
        if (strcmp(k->name, name) == 0) {
            atomic_fetch_add_explicit(&k->n, 1, memory_order_relaxed);
            return;
        }
    }
    atomic_fetch_add_explicit(&srv__kinds_other, 1, memory_order_relaxed);
}

static int srv__class_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'Z')
        return 10 + c - 'A';
    return -1;
}

void srv_metrics_error(const char *sqlstate)
{
    if (sqlstate == NULL || sqlstate[0] == 0)
        return;
    int a = srv__class_digit(sqlstate[0]), b = srv__class_digit(sqlstate[1]);
    if (a >= 0 && b >= 0)
        atomic_fetch_add_explicit(&srv__errors[a * 36 + b], 1, memory_order_relaxed);
}

void srv_metrics_snapshot_read(void)
{
    atomic_fetch_add_explicit(&srv__snapshot_reads, 1, memory_order_relaxed);
}

void srv_metrics_connection(void)
{
    atomic_fetch_add_explicit(&srv__connections, 1, memory_order_relaxed);
}

/* ------------------------------------------------------------ visiting */

typedef struct srv__visit {
    srv_metric_cb cb;
    void *arg;
    const char *family, *type, *help;
} srv__visit_t;

static void srv__family(srv__visit_t *v, const char *family, const char *type, const char *help)
{
    v->family = family;
    v->type = type;
    v->help = help;
}

static void srv__sample(srv__visit_t *v, const char *suffix, const char *labels, double value)
{
    char name[128];
    snprintf(name, sizeof name, "%s%s", v->family, suffix);
    srv_metric_t m = {v->family, v->type, v->help, name, labels, value};
    v->cb(v->arg, &m);
}

static void srv__hist_samples(srv__visit_t *v, srv_hist_id_t h, const char *labels)
{
    const srv__hist_t *hist = &srv__hists[h];
    uint64_t cum = 0;
    char lb[192];
    for (int b = 0; b <= SRV__NBOUNDS; b++) {
        cum += atomic_load_explicit(&hist->bucket[b], memory_order_relaxed);
        char le[32];
        if (b < SRV__NBOUNDS)
            snprintf(le, sizeof le, "%g", (double)srv__bounds_us[b] / 1e6);
        else
            snprintf(le, sizeof le, "+Inf");
        snprintf(lb, sizeof lb, "%s%sle=\"%s\"", labels, labels[0] ? "," : "", le);
        srv__sample(v, "_bucket", lb, (double)cum);
    }
    srv__sample(v, "_sum", labels, (double)atomic_load_explicit(&hist->sum_us, memory_order_relaxed) / 1e6);
    srv__sample(v, "_count", labels, (double)cum);
}

static void srv__hist_family(srv__visit_t *v, const char *family, const char *help, srv_hist_id_t h)
{
    srv__family(v, family, "histogram", help);
    srv__hist_samples(v, h, "");
}

static int64_t srv__rss_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (f == NULL)
        return -1;
    long long size = 0, resident = -1;
    if (fscanf(f, "%lld %lld", &size, &resident) != 2)
        resident = -1;
    fclose(f);
    return resident < 0 ? -1 : resident * (int64_t)sysconf(_SC_PAGESIZE);
}

/* A label value in Prometheus' quoting (backslash, quote and newline escaped). */
static void srv__label_value(char *out, size_t cap, const char *s)
{
    size_t n = 0;
    for (; *s && n + 3 < cap; s++) {
        if (*s == '\\' || *s == '"') {
            out[n++] = '\\';
            out[n++] = *s;
        } else if (*s == '\n') {
            out[n++] = '\\';
            out[n++] = 'n';
        } else {
            out[n++] = *s;
        }
    }
    out[n] = 0;
}

static void srv__visit_workers(srv__visit_t *v, srv_server_t *srv)
{
    int nworkers = df_workers_count(srv->workers);
    df_worker_gauges_t *g = cm_calloc((size_t)nworkers, sizeof *g);
    for (int i = 0; i < nworkers; i++)
        df_workers_gauges(srv->workers, i, &g[i]);
    char lb[64];
    srv__family(v, "eddy_worker_step", "gauge", "The last step (sequence number) each worker has applied.");
    for (int i = 0; i < nworkers; i++) {
        snprintf(lb, sizeof lb, "worker=\"%d\"", i);
        srv__sample(v, "", lb, (double)g[i].seq);
    }
    srv__family(v, "eddy_worker_applied_index", "gauge", "The catalog index each worker has applied.");
    for (int i = 0; i < nworkers; i++) {
        snprintf(lb, sizeof lb, "worker=\"%d\"", i);
        srv__sample(v, "", lb, (double)g[i].index);
    }
    srv__family(v, "eddy_worker_commands_total", "counter", "Sequenced commands each worker has taken.");
    for (int i = 0; i < nworkers; i++) {
        snprintf(lb, sizeof lb, "worker=\"%d\"", i);
        srv__sample(v, "", lb, (double)g[i].commands);
    }
    srv__family(v, "eddy_arrangement_records", "gauge",
                "Records in the batches of every arrangement a worker holds (tables, views, operator state).");
    for (int i = 0; i < nworkers; i++) {
        snprintf(lb, sizeof lb, "worker=\"%d\"", i);
        srv__sample(v, "", lb, (double)g[i].records);
    }
    srv__family(v, "eddy_arrangement_bytes", "gauge", "Bytes held by the arrangements a worker holds.");
    for (int i = 0; i < nworkers; i++) {
        snprintf(lb, sizeof lb, "worker=\"%d\"", i);
        srv__sample(v, "", lb, (double)g[i].bytes);
    }
    free(g);
}

static void srv__visit_zk(srv__visit_t *v, srv_server_t *srv)
{
    srv_zk_state_t st = srv_zk_state(srv->zk);
    static const char *const names[] = {"connecting", "connected", "failed"};
    srv__family(v, "eddy_zookeeper_session_state", "gauge",
                "The ZooKeeper session: 1 for the state it is in (connecting covers a lost connection).");
    for (int i = 0; i < 3; i++) {
        char lb[48];
        snprintf(lb, sizeof lb, "state=\"%s\"", names[i]);
        srv__sample(v, "", lb, (int)st == i ? 1 : 0);
    }
    srv__family(v, "eddy_zookeeper_call_duration_seconds", "histogram",
                "Catalog store calls through the ZooKeeper thread, from posted to answered, by call.");
    static const char *const calls[] = {"head", "log", "snapshot", "commit", "request", "trim"};
    for (int i = 0; i < 6; i++) {
        char lb[48];
        snprintf(lb, sizeof lb, "call=\"%s\"", calls[i]);
        srv__hist_samples(v, (srv_hist_id_t)(SRV_HIST_ZK_HEAD + i), lb);
    }
    srv_zk_cluster_t *cc = srv_zk_cluster(srv->zk);
    if (cc != NULL) {
        uint64_t epoch = 0;
        cat_zk_role_t role = srv_zk_cluster_role(cc, &epoch);
        srv__family(v, "eddy_cluster_owner", "gauge", "1 while this process owns its cluster, 0 as a standby.");
        srv__sample(v, "", "", role == CAT_ZK_ROLE_OWNER ? 1 : 0);
        srv__family(v, "eddy_cluster_epoch", "gauge", "The cluster epoch this process knows.");
        srv__sample(v, "", "", (double)epoch);
    }
}

void srv_metrics_visit(srv_server_t *srv, srv_metric_cb cb, void *arg)
{
    srv__visit_t v = {.cb = cb, .arg = arg};
    char lb[96], val[64];
    bool ready = srv != NULL && atomic_load_explicit(&srv->ready, memory_order_acquire);

    srv__family(&v, "eddy_build_info", "gauge", "The version of this eddy (the value is 1).");
    srv__label_value(val, sizeof val, EDDY_VERSION);
    snprintf(lb, sizeof lb, "version=\"%s\"", val);
    srv__sample(&v, "", lb, 1);
    srv__family(&v, "eddy_ready", "gauge", "1 when /readyz answers 200.");
    const char *why;
    srv__sample(&v, "", "", srv_metrics_ready(srv, &why) ? 1 : 0);
    int64_t rss = srv__rss_bytes();
    if (rss >= 0) {
        srv__family(&v, "process_resident_memory_bytes", "gauge", "Resident memory of the process.");
        srv__sample(&v, "", "", (double)rss);
    }

    srv__family(&v, "eddy_connections", "gauge", "Client connections open now.");
    srv__sample(&v, "", "", srv != NULL ? atomic_load(&srv->nconns) : 0);
    srv__family(&v, "eddy_connections_accepted_total", "counter", "Client connections accepted.");
    srv__sample(&v, "", "", (double)atomic_load_explicit(&srv__connections, memory_order_relaxed));

    srv__family(&v, "eddy_snapshot_reads_total", "counter",
                "Reads of tables and materialized views answered from the shards the workers published, without waking them.");
    srv__sample(&v, "", "", (double)atomic_load_explicit(&srv__snapshot_reads, memory_order_relaxed));

    srv__family(&v, "eddy_queries_total", "counter", "Statements completed, by kind (the CommandComplete tag).");
    for (int i = 0; i < SRV__KINDS_MAX; i++) {
        srv__kind_t *k = &srv__kinds[i];
        if (atomic_load_explicit(&k->state, memory_order_acquire) != 2)
            continue;
        srv__label_value(val, sizeof val, k->name);
        snprintf(lb, sizeof lb, "kind=\"%s\"", val);
        srv__sample(&v, "", lb, (double)atomic_load_explicit(&k->n, memory_order_relaxed));
    }
    uint64_t other = atomic_load_explicit(&srv__kinds_other, memory_order_relaxed);
    if (other > 0)
        srv__sample(&v, "", "kind=\"other\"", (double)other);

    srv__family(&v, "eddy_errors_total", "counter", "Errors sent to clients, by SQLSTATE class.");
    static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (int i = 0; i < 36 * 36; i++) {
        uint64_t n = atomic_load_explicit(&srv__errors[i], memory_order_relaxed);
        if (n == 0)
            continue;
        snprintf(lb, sizeof lb, "sqlstate_class=\"%c%c\"", digits[i / 36], digits[i % 36]);
        srv__sample(&v, "", lb, (double)n);
    }

    srv__hist_family(&v, "eddy_query_duration_seconds",
                     "A Query message or an extended-protocol group up to Sync, from its first message to ReadyForQuery.",
                     SRV_HIST_QUERY);
    srv__hist_family(&v, "eddy_ddl_duration_seconds",
                     "A DDL statement (or a block's COMMIT of DDL) until committed and applied by every worker.",
                     SRV_HIST_DDL);
    srv__hist_family(&v, "eddy_catalog_commit_duration_seconds", "One commit call to the catalog store.",
                     SRV_HIST_CATALOG_COMMIT);
    srv__hist_family(&v, "eddy_write_duration_seconds",
                     "A table write (a statement's or a block's COMMIT) through the sequencer until every worker applied it.",
                     SRV_HIST_WRITE);
    srv__hist_family(&v, "eddy_read_duration_seconds",
                     "A read of the workers' data through the sequencer until every worker answered.", SRV_HIST_READ);

    srv__family(&v, "eddy_http_request_duration_seconds", "histogram",
                "Time this server spent handling an HTTP request, by path.");
    srv__hist_samples(&v, SRV_HIST_HTTP_METRICS, "path=\"/metrics\"");
    srv__hist_samples(&v, SRV_HIST_HTTP_HEALTHZ, "path=\"/healthz\"");
    srv__hist_samples(&v, SRV_HIST_HTTP_READYZ, "path=\"/readyz\"");

    if (!ready)
        return;
    if (srv->seq != NULL) {
        srv__family(&v, "eddy_catalog_applied_index", "gauge", "The catalog index every worker has applied.");
        srv__sample(&v, "", "", (double)seq_applied_index(srv->seq));
        size_t submitted, undelivered;
        seq_queue_depth(srv->seq, &submitted, &undelivered);
        srv__family(&v, "eddy_sequencer_queue_depth", "gauge",
                    "Commands waiting in the sequencer: submitted and not yet numbered, or numbered and not yet "
                    "taken by every worker.");
        srv__sample(&v, "", "queue=\"submitted\"", (double)submitted);
        srv__sample(&v, "", "queue=\"undelivered\"", (double)undelivered);
    }
    if (srv->workers != NULL)
        srv__visit_workers(&v, srv);
    if (srv->zk != NULL)
        srv__visit_zk(&v, srv);
}

/* ------------------------------------------------------------ text format */

typedef struct srv__text {
    cm_buf_t b;
    const char *family;
} srv__text_t;

static void srv__text_cb(void *arg, const srv_metric_t *m)
{
    srv__text_t *t = arg;
    if (t->family == NULL || strcmp(t->family, m->family) != 0) {
        cm_buf_printf(&t->b, "# HELP %s %s\n# TYPE %s %s\n", m->family, m->help, m->family, m->type);
        t->family = m->family;
    }
    if (m->labels[0])
        cm_buf_printf(&t->b, "%s{%s} %.15g\n", m->name, m->labels, m->value);
    else
        cm_buf_printf(&t->b, "%s %.15g\n", m->name, m->value);
}

char *srv_metrics_text(srv_server_t *srv, size_t *len)
{
    srv__text_t t = {0};
    cm_buf_init(&t.b, 0);
    srv_metrics_visit(srv, srv__text_cb, &t);
    cm_buf_put(&t.b, "", 1);
    *len = t.b.len - 1;
    return (char *)t.b.data;
}

bool srv_metrics_ready(srv_server_t *srv, const char **what)
{
    if (srv == NULL || !atomic_load_explicit(&srv->ready, memory_order_acquire)) {
        *what = "the catalog is loading";
        return false;
    }
    if (srv->zk == NULL) {
        *what = "local (laptop mode: this process is its own cluster)";
        return true;
    }
    if (srv_zk_state(srv->zk) != SRV_ZK_CONNECTED) {
        *what = "ZooKeeper is not connected";
        return false;
    }
    srv_zk_cluster_t *cc = srv_zk_cluster(srv->zk);
    cat_zk_role_t role = cc != NULL ? srv_zk_cluster_role(cc, NULL) : CAT_ZK_ROLE_STANDBY;
    *what = role == CAT_ZK_ROLE_OWNER ? "owner" : role == CAT_ZK_ROLE_STANDBY ? "standby" : "starting";
    return true;
}
