/*
 * seq_bench.c: make bench's sequencing numbers (issue 5): over the embedded
 * store and real worker threads,
 *   - latency from a store commit to "applied by every worker" (one commit
 *     at a time, each a CREATE VIEW that worker 0 binds and plans), p50/p99;
 *   - throughput: commits issued back to back, commands per second from
 *     the first commit until every worker applied the last.
 * for 1, 2 and 4 workers (or the counts given as arguments).
 *   seq_bench [-n LATENCY_COMMITS] [-m THROUGHPUT_COMMITS] [WORKERS...]
 */
#include "dataflow/dataflow.h"
#include "sequencer/sequencer.h"
#include "tests/unit/test_catalog_helpers.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct bench {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    seq_t *seq;
} bench_t;

static cat_store_t *open_mem(void *arg, uv_loop_t *loop, void (*wake)(void *), void *wake_arg, cm_err_t *err)
{
    return cat_store_mem_open(arg, NULL, wake, wake_arg);
}

static void progress(void *arg)
{
    bench_t *b = arg;
    pthread_mutex_lock(&b->mu);
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

static void wait_applied(bench_t *b, uint64_t index)
{
    pthread_mutex_lock(&b->mu);
    while (seq_applied_index(b->seq) < index)
        pthread_cond_wait(&b->cv, &b->mu);
    pthread_mutex_unlock(&b->mu);
}

/* CREATE VIEW vN AS SELECT a FROM t: a real query for worker 0 to bind. */
static uint64_t create_view(tc_t *t, int n, cat_id_t table)
{
    tc_begin(t);
    static const cat_column_t cols[] = {{.name = "a", .type = 23, .typmod = -1}};
    char name[32], sql[128], nb[64];
    snprintf(name, sizeof name, "v%d", n);
    snprintf(sql, sizeof sql, "CREATE VIEW eddy.public.%s AS SELECT a FROM eddy.public.t", name);
    cat_item_def_t def = {.kind = CAT_ITEM_VIEW, .name = tc_qname(name, nb, sizeof nb), .create_sql = sql,
                          .columns = cols, .ncolumns = 1, .deps = &table, .ndeps = 1};
    if (!cat_plan_create_item(t->snap, &t->search, &def, false, t->last, &t->err) ||
        tc_commit_change(t, t->last, "CREATE VIEW") != CAT_STORE_OK) {
        fprintf(stderr, "seq_bench: commit failed: %s\n", t->err.message ? t->err.message : "");
        exit(1);
    }
    return cat_snap_index(t->snap);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static void run(int workers, int nlat, int nthru)
{
    tc_t t;
    tc_init(&t);
    if (!tc_create(&t, CAT_ITEM_TABLE, "t", NULL)) {
        fprintf(stderr, "seq_bench: could not create the table\n");
        exit(1);
    }
    cat_id_t table = cat_snap_index(t.snap);
    bench_t b = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
    df_config_t dc;
    df_config_default(&dc);
    dc.workers = workers;
    cm_err_t err = {0};
    df_workers_t *ws = df_workers_new(&dc, &err);
    seq_transport_t *tr = seq_transport_local_new(ws);
    seq_config_t sc;
    seq_config_default(&sc);
    sc.store_open = open_mem;
    sc.store_arg = t.db;
    sc.transport = tr;
    sc.on_progress = progress;
    sc.progress_arg = &b;
    b.seq = seq_start(&sc, df_workers_loop(ws, 0), &err);
    df_workers_start(ws);
    wait_applied(&b, table);

    int64_t *lat = cm_calloc((size_t)nlat, sizeof *lat);
    int k = 0;
    for (int i = 0; i < nlat; i++) {
        int64_t t0 = cm_now_mono_us();
        uint64_t idx = create_view(&t, k++, table);
        wait_applied(&b, idx);
        lat[i] = cm_now_mono_us() - t0;
    }
    qsort(lat, (size_t)nlat, sizeof *lat, cmp_i64);

    int64_t t0 = cm_now_mono_us();
    uint64_t last = 0;
    for (int i = 0; i < nthru; i++)
        last = create_view(&t, k++, table);
    wait_applied(&b, last);
    int64_t took = cm_now_mono_us() - t0;

    printf("%-8d %12.0f %14.0f %14.0f %14.0f\n", workers, (double)nthru * 1e6 / (double)(took ? took : 1),
           (double)lat[nlat / 2], (double)lat[(nlat * 99) / 100], (double)lat[nlat - 1]);
    free(lat);
    seq_stop(b.seq);
    df_workers_stop(ws);
    seq_free(b.seq);
    tr->ops->free(tr);
    df_workers_free(ws);
    tc_free(&t);
}

int main(int argc, char **argv)
{
    (void)unit__case_failed;   /* the catalog helpers come with the unit framework */
    (void)unit__failed_cases;
    int nlat = 2000, nthru = 20000;
    int counts[16], ncounts = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            nlat = atoi(argv[++i]);
        else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
            nthru = atoi(argv[++i]);
        else if (ncounts < 16)
            counts[ncounts++] = atoi(argv[i]);
    }
    if (ncounts == 0) {
        counts[0] = 1, counts[1] = 2, counts[2] = 4;
        ncounts = 3;
    }
    if (nlat < 1 || nthru < 1) {
        fprintf(stderr, "usage: seq_bench [-n LATENCY_COMMITS] [-m THROUGHPUT_COMMITS] [WORKERS...]\n");
        return 2;
    }
    printf("sequencing over the embedded store, each command a CREATE VIEW that worker 0 binds and plans:\n"
           "  commands/s: %d commits back to back, first commit until every worker applied the last\n"
           "  latency: %d commits one at a time, store commit until every worker applied it\n",
           nthru, nlat);
    printf("%-8s %12s %14s %14s %14s\n", "workers", "commands/s", "p50 (us)", "p99 (us)", "max (us)");
    for (int i = 0; i < ncounts; i++)
        run(counts[i], nlat, nthru);
    return 0;
}
