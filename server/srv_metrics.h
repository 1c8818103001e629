/*
 * srv_metrics.h: the server's figures for /metrics (srv_http.c) and
 * eddy_internal.metrics, internal to server/. Counters and histograms are
 * process-wide atomics that the loops, the workers' callers and the
 * ZooKeeper thread bump as things happen; the gauges (workers, sequencer,
 * ZooKeeper, memory) are read when asked from what those threads publish
 * lock-free. A reader never waits for a loop, a worker or the sequencer.
 */
#ifndef EDDY_SRV_METRICS_H
#define EDDY_SRV_METRICS_H

#include "common/common.h"

struct srv_server;

/* The latencies kept as histograms. */
typedef enum srv_hist_id {
    SRV_HIST_QUERY,            /* a Query message, or an extended-protocol group up to Sync */
    SRV_HIST_DDL,              /* a DDL statement or a block's COMMIT of DDL, until every worker applied it */
    SRV_HIST_CATALOG_COMMIT,   /* one commit call to the catalog store */
    SRV_HIST_WRITE,            /* a Write through the sequencer until every worker applied it */
    SRV_HIST_READ,             /* a Peek through the sequencer until every worker answered */
    SRV_HIST_ZK_HEAD,          /* the ZooKeeper thread's store calls, posted to answered, by kind */
    SRV_HIST_ZK_LOG,
    SRV_HIST_ZK_SNAPSHOT,
    SRV_HIST_ZK_COMMIT,
    SRV_HIST_ZK_REQUEST,
    SRV_HIST_ZK_TRIM,
    SRV_HIST_HTTP_METRICS,     /* srv_http.c's own handling time, by path */
    SRV_HIST_HTTP_HEALTHZ,
    SRV_HIST_HTTP_READYZ,
    SRV_HIST_COUNT
} srv_hist_id_t;

void srv_metrics_observe(srv_hist_id_t h, int64_t us);
/* A statement completed with this CommandComplete tag ("INSERT 0 3" counts as INSERT). */
void srv_metrics_query(const char *tag);
/* An ErrorResponse with this SQLSTATE was sent (counted by its class, the first two characters). */
void srv_metrics_error(const char *sqlstate);
void srv_metrics_connection(void);
/* A read answered from the workers' published shards (srv_workers_read_published). */
void srv_metrics_snapshot_read(void);

/* One sample: its family (with type and help, the same for every sample of a family, and the
 * samples of a family come together), its name (the family's, or with _bucket, _sum, _count),
 * its labels in Prometheus' syntax (k="v",...; "" for none) and its value. */
typedef struct srv_metric {
    const char *family, *type, *help;
    const char *name;
    const char *labels;
    double value;
} srv_metric_t;
typedef void (*srv_metric_cb)(void *arg, const srv_metric_t *m);
/* Every figure of this server; srv may be NULL (process figures only). */
void srv_metrics_visit(struct srv_server *srv, srv_metric_cb cb, void *arg);
/* The whole exposition in Prometheus' text format 0.0.4; malloc'd, NUL-terminated. */
char *srv_metrics_text(struct srv_server *srv, size_t *len);

/* Readiness as /readyz says it: true when serving; `what` says owner, standby or local,
 * or why not (the catalog is loading, ZooKeeper is not connected). */
bool srv_metrics_ready(struct srv_server *srv, const char **what);

#endif
