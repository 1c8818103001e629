/*
 * test_dataflow.c: the workers' queue, ordering, duplicate and epoch rules,
 * the worker threads applying one stream in one order, and the plans a
 * worker decodes when it installs a dataflow (every plan of the fuzz
 * corpus's seeds; a corrupt one is refused on its own).
 */
#include "dataflow/dataflow.h"
#include "plan/plan.h"
#include "tests/unit/unit.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>

/* A real plan's bytes, VALUES (1) AS x: what the installs below carry (made by main). */
static cm_buf_t plan_bytes;

static void plan_bytes_make(void)
{
    cm_arena_t a;
    cm_arena_init(&a, 0);
    ty_expr_t **row = cm_arena_alloc(&a, sizeof *row);
    row[0] = ty_expr_const(&a, TY_INT4, -1, (ty_datum_t){.v.i = 1});
    ty_oid_t type = TY_INT4;
    plan_rel_t values = {.kind = PLAN_REL_VALUES, .ncols = 1, .types = &type, .nrows = 1, .rows = &row};
    plan_column_t col = {.name = "x", .type = TY_INT4, .typmod = -1};
    plan_t p = {.root = &values, .ncols = 1, .cols = &col};
    cm_err_t err = {0};
    cm_buf_init(&plan_bytes, 0);
    if (!plan_encode(&p, NULL, &plan_bytes, &err)) {
        printf("not ok plan_bytes_make: %s\n", err.message);
        exit(1);
    }
    cm_arena_free(&a);
}

static df_cmd_t *cmd(df_cmd_kind_t kind, uint64_t epoch, uint64_t seq, uint64_t index)
{
    df_cmd_t *c = df_cmd_new(kind);
    c->epoch = epoch;
    c->seq = seq;
    c->index = index;
    return c;
}

static df_cmd_t *install(uint64_t epoch, uint64_t seq, uint64_t id, const char *name)
{
    df_cmd_t *c = cmd(DF_CMD_APPLY, epoch, seq, id);
    df_cmd_add_op(c, DF_OP_INSTALL, id, name, plan_bytes.data, plan_bytes.len);
    c->object_id = id;
    return c;
}

/* Offers and drops the caller's reference, as a worker does. */
static df_apply_rc_t offer(df_state_t *st, df_cmd_t *c)
{
    df_apply_rc_t rc = df_state_offer(st, c);
    df_cmd_unref(c);
    return rc;
}

static void queue_bounded_fifo(void)
{
    df_queue_t q;
    df_queue_init(&q, 3);
    df_cmd_t *out[3];
    for (uint64_t i = 1; i <= 3; i++)
        UNIT_CHECK(df_queue_push(&q, cmd(DF_CMD_TICK, 1, i, 0)));
    df_cmd_t *extra = cmd(DF_CMD_TICK, 1, 4, 0);
    UNIT_CHECK(!df_queue_push(&q, extra));   /* full: refused, never grown */
    UNIT_CHECK(df_queue_drain(&q, out) == 3);
    for (uint64_t i = 0; i < 3; i++) {
        UNIT_CHECK(out[i]->seq == i + 1);
        df_cmd_unref(out[i]);
    }
    UNIT_CHECK(df_queue_drain(&q, out) == 0);
    /* After a drain the ring wraps around and keeps order. */
    UNIT_CHECK(df_queue_push(&q, extra));
    UNIT_CHECK(df_queue_push(&q, cmd(DF_CMD_TICK, 1, 5, 0)));
    UNIT_CHECK(df_queue_drain(&q, out) == 2);
    UNIT_CHECK(out[0]->seq == 4 && out[1]->seq == 5);
    df_cmd_unref(out[0]);
    df_cmd_unref(out[1]);
    UNIT_CHECK(df_queue_push(&q, cmd(DF_CMD_TICK, 1, 6, 0)));
    df_queue_destroy(&q);   /* drops what is still queued */
}

static void state_order_and_duplicates(void)
{
    df_state_t st;
    df_state_init(&st, 4, 100);
    UNIT_CHECK(offer(&st, install(1, 2, 5, "x")) == DF_APPLY_OVERFLOW);   /* a new epoch starts with Bootstrap */
    UNIT_CHECK(offer(&st, cmd(DF_CMD_BOOTSTRAP, 1, 1, 4)) == DF_APPLY_APPLIED);
    UNIT_CHECK(st.epoch == 1 && st.seq == 1 && st.index == 4);
    UNIT_CHECK(offer(&st, install(1, 2, 5, "a")) == DF_APPLY_APPLIED);
    UNIT_CHECK(offer(&st, install(1, 2, 5, "a")) == DF_APPLY_DUPLICATE);
    UNIT_CHECK(offer(&st, cmd(DF_CMD_BOOTSTRAP, 1, 1, 4)) == DF_APPLY_DUPLICATE);
    /* 4 and 5 arrive before 3: buffered, then applied in order when 3 comes. */
    UNIT_CHECK(offer(&st, install(1, 4, 7, "c")) == DF_APPLY_BUFFERED);
    UNIT_CHECK(offer(&st, install(1, 5, 8, "d")) == DF_APPLY_BUFFERED);
    UNIT_CHECK(offer(&st, install(1, 4, 7, "c")) == DF_APPLY_DUPLICATE);
    UNIT_CHECK(st.seq == 2 && st.nflows == 1);
    UNIT_CHECK(offer(&st, install(1, 3, 6, "b")) == DF_APPLY_APPLIED);
    UNIT_CHECK(st.seq == 5 && st.index == 8 && st.nflows == 4 && st.npending == 0);
    for (size_t i = 0; i < st.hist_len; i++)
        UNIT_CHECK(df_state_applied_at(&st, i)->seq == i + 1);
    /* A drop removes by id; dropping something without a dataflow is harmless. */
    df_cmd_t *d = cmd(DF_CMD_APPLY, 1, 6, 9);
    df_cmd_add_op(d, DF_OP_DROP, 6, NULL, NULL, 0);
    df_cmd_add_op(d, DF_OP_DROP, 99, NULL, NULL, 0);
    UNIT_CHECK(offer(&st, d) == DF_APPLY_APPLIED);
    UNIT_CHECK(st.nflows == 3 && st.flows[0].id == 5 && st.flows[1].id == 7 && st.flows[2].id == 8);
    /* Installing an id again (a rename) replaces it in place. */
    UNIT_CHECK(offer(&st, install(1, 7, 7, "c2")) == DF_APPLY_APPLIED);
    UNIT_CHECK(st.nflows == 3 && strcmp(st.flows[1].name, "c2") == 0);
    UNIT_CHECK(st.duplicates == 3 && st.refused == 1);
    df_state_destroy(&st);
}

static void state_gap_buffer_is_bounded(void)
{
    df_state_t st;
    df_state_init(&st, 2, 100);
    UNIT_CHECK(offer(&st, cmd(DF_CMD_BOOTSTRAP, 1, 1, 1)) == DF_APPLY_APPLIED);
    UNIT_CHECK(offer(&st, cmd(DF_CMD_TICK, 1, 5, 1)) == DF_APPLY_BUFFERED);
    UNIT_CHECK(offer(&st, cmd(DF_CMD_TICK, 1, 4, 1)) == DF_APPLY_BUFFERED);
    UNIT_CHECK(offer(&st, cmd(DF_CMD_TICK, 1, 3, 1)) == DF_APPLY_OVERFLOW);
    UNIT_CHECK(st.seq == 1 && st.npending == 2);
    df_state_destroy(&st);   /* frees the buffered commands */
}

static void state_epochs(void)
{
    df_state_t st;
    df_state_init(&st, 4, 3);
    df_cmd_t *b = cmd(DF_CMD_BOOTSTRAP, 2, 1, 10);
    df_cmd_add_op(b, DF_OP_INSTALL, 3, "old", NULL, 0);
    UNIT_CHECK(offer(&st, b) == DF_APPLY_APPLIED);
    UNIT_CHECK(offer(&st, install(2, 2, 11, "v")) == DF_APPLY_APPLIED);
    UNIT_CHECK(offer(&st, install(2, 4, 12, "w")) == DF_APPLY_BUFFERED);
    /* A zombie from epoch 1 is refused whatever its sequence number. */
    UNIT_CHECK(offer(&st, cmd(DF_CMD_BOOTSTRAP, 1, 9, 50)) == DF_APPLY_STALE_EPOCH);
    UNIT_CHECK(offer(&st, install(1, 3, 13, "z")) == DF_APPLY_STALE_EPOCH);
    UNIT_CHECK(st.epoch == 2 && st.seq == 2 && st.nflows == 2);
    /* Epoch 3's Bootstrap replaces everything and voids epoch 2's buffered command. */
    df_cmd_t *b3 = cmd(DF_CMD_BOOTSTRAP, 3, 1, 11);
    df_cmd_add_op(b3, DF_OP_INSTALL, 11, "v", NULL, 0);
    UNIT_CHECK(offer(&st, b3) == DF_APPLY_APPLIED);
    UNIT_CHECK(st.epoch == 3 && st.seq == 1 && st.index == 11 && st.nflows == 1 && st.npending == 0);
    UNIT_CHECK(offer(&st, install(2, 3, 12, "w")) == DF_APPLY_STALE_EPOCH);
    /* The history ring keeps the last 3. */
    UNIT_CHECK(offer(&st, install(3, 2, 12, "w")) == DF_APPLY_APPLIED);
    UNIT_CHECK(offer(&st, install(3, 3, 13, "x")) == DF_APPLY_APPLIED);
    UNIT_CHECK(st.hist_len == 3);
    UNIT_CHECK(df_state_applied_at(&st, 0)->epoch == 3 && df_state_applied_at(&st, 0)->seq == 1);
    UNIT_CHECK(df_state_applied_at(&st, 2)->seq == 3 && df_state_applied_at(&st, 2)->object_id == 13);
    UNIT_CHECK(df_state_applied_at(&st, 3) == NULL);
    df_state_destroy(&st);
}

/* ------------------------------------------------------------ threads */

typedef struct acks {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t seq[8];
    int calls;
} acks_t;

static void ack_cb(void *arg, int worker, uint64_t epoch, uint64_t seq, uint64_t index)
{
    acks_t *a = arg;
    pthread_mutex_lock(&a->mu);
    a->seq[worker] = seq;
    a->calls++;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
}

static void wait_all(acks_t *a, int n, uint64_t seq)
{
    pthread_mutex_lock(&a->mu);
    for (;;) {
        bool done = true;
        for (int i = 0; i < n; i++)
            done = done && a->seq[i] >= seq;
        if (done)
            break;
        pthread_cond_wait(&a->cv, &a->mu);
    }
    pthread_mutex_unlock(&a->mu);
}

typedef struct trace {
    uint64_t seq[600];
    uint64_t obj[600];
    size_t n;
} trace_t;

static void trace_cb(void *arg, const df_applied_t *a)
{
    trace_t *t = arg;
    if (t->n < 600) {
        t->seq[t->n] = a->seq;
        t->obj[t->n++] = a->object_id;
    }
}

static void count_decoded(void *arg, const df_dataflow_t *d)
{
    *(int *)arg += d->query != NULL && d->query->ncols == 1 && d->query->cols[0].type == TY_INT4;
}

static void workers_apply_one_order(void)
{
    df_config_t cfg;
    df_config_default(&cfg);
    cfg.workers = 4;
    cfg.queue_max = 8;   /* small: the sender meets back-pressure */
    cm_err_t err = {0};
    df_workers_t *ws = df_workers_new(&cfg, &err);
    UNIT_CHECK(ws != NULL && df_workers_count(ws) == 4);
    acks_t a = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
    df_workers_set_ack(ws, ack_cb, &a);
    /* Before the threads run nothing drains: the ninth push is refused. */
    df_cmd_t *boot = cmd(DF_CMD_BOOTSTRAP, 1, 1, 1);
    for (int i = 0; i < 4; i++)
        UNIT_CHECK(df_workers_push(ws, i, boot));
    df_cmd_unref(boot);
    df_cmd_t *cs[500];
    for (uint64_t s = 2; s <= 500; s++)
        cs[s - 1] = s % 3 == 0 ? cmd(DF_CMD_TICK, 1, s, s) : install(1, s, s, "v");
    for (uint64_t s = 2; s <= 8; s++)
        UNIT_CHECK(df_workers_push(ws, 0, cs[s - 1]));
    UNIT_CHECK(!df_workers_push(ws, 0, cs[8]));
    df_workers_start(ws);
    /* Send everything to every worker, retrying a full queue after an ack. */
    uint64_t sent[4] = {8, 1, 1, 1};
    for (bool more = true; more;) {
        more = false;
        int calls;
        pthread_mutex_lock(&a.mu);
        calls = a.calls;
        pthread_mutex_unlock(&a.mu);
        bool stuck = false;
        for (int w = 0; w < 4; w++) {
            while (sent[w] < 500 && df_workers_push(ws, w, cs[sent[w]]))
                sent[w]++;
            more = more || sent[w] < 500;
            stuck = stuck || sent[w] < 500;
        }
        if (stuck) {
            pthread_mutex_lock(&a.mu);
            while (a.calls == calls)
                pthread_cond_wait(&a.cv, &a.mu);
            pthread_mutex_unlock(&a.mu);
        }
    }
    /* A duplicate on worker 2 is dropped. Its queue may still be full of
     * the last commands: retry after each ack, as the sender above does. */
    for (;;) {
        pthread_mutex_lock(&a.mu);
        int calls = a.calls;
        pthread_mutex_unlock(&a.mu);
        if (df_workers_push(ws, 2, cs[100]))
            break;
        pthread_mutex_lock(&a.mu);
        while (a.calls == calls)
            pthread_cond_wait(&a.cv, &a.mu);
        pthread_mutex_unlock(&a.mu);
    }
    wait_all(&a, 4, 500);
    /* Worker 2 may have acknowledged 500 before it drained the duplicate, and a stop
     * now could close its loop with the duplicate still queued: wait until it counted it
     * (it acknowledges after every drain, duplicates only too). */
    for (;;) {
        pthread_mutex_lock(&a.mu);
        int calls = a.calls;
        pthread_mutex_unlock(&a.mu);
        df_worker_status_t s;
        df_workers_status(ws, 2, &s);
        if (s.duplicates >= 1)
            break;
        pthread_mutex_lock(&a.mu);
        while (a.calls == calls)
            pthread_cond_wait(&a.cv, &a.mu);
        pthread_mutex_unlock(&a.mu);
    }
    for (uint64_t s = 2; s <= 500; s++)
        df_cmd_unref(cs[s - 1]);
    trace_t t0 = {0};
    df_workers_visit_applied(ws, 0, trace_cb, &t0);
    UNIT_CHECK(t0.n == 500);
    for (size_t i = 0; i < t0.n; i++)
        UNIT_CHECK(t0.seq[i] == i + 1);
    for (int w = 1; w < 4; w++) {
        trace_t t = {0};
        df_workers_visit_applied(ws, w, trace_cb, &t);
        UNIT_CHECK(t.n == t0.n && memcmp(t.seq, t0.seq, sizeof t.seq) == 0 && memcmp(t.obj, t0.obj, sizeof t.obj) == 0);
        df_worker_status_t s;
        df_workers_status(ws, w, &s);
        UNIT_CHECK(s.seq == 500 && s.epoch == 1 && s.ndataflows == 333);
        /* Each worker decoded each plan on its own thread. */
        int decoded = 0;
        df_workers_visit_dataflows(ws, w, count_decoded, &decoded);
        UNIT_CHECK(decoded == 333);
    }
    df_workers_stop(ws);
    df_worker_status_t s2;
    df_workers_status(ws, 2, &s2);
    UNIT_CHECK(s2.duplicates == 1);
    df_workers_free(ws);
}

static void workers_never_started(void)
{
    df_config_t cfg;
    df_config_default(&cfg);
    cfg.workers = 2;
    cm_err_t err = {0};
    df_workers_t *ws = df_workers_new(&cfg, &err);
    df_cmd_t *c = cmd(DF_CMD_TICK, 1, 1, 0);
    UNIT_CHECK(df_workers_push(ws, 1, c));
    df_cmd_unref(c);
    df_workers_stop(ws);
    df_workers_free(ws);   /* frees the queued command too (ASan would say otherwise) */
    cfg.workers = 0;
    UNIT_CHECK(df_workers_new(&cfg, &err) == NULL && strcmp(err.sqlstate, "22023") == 0);
    cm_err_clear(&err);
}

/* ------------------------------------------------------------ bytes */

static df_cmd_t *sample(void)
{
    df_cmd_t *c = cmd(DF_CMD_APPLY, 3, 17, 42);
    c->time_us = -5;
    c->object_id = 42;
    c->object_name = "eddy.public.v";
    df_cmd_add_op(c, DF_OP_DROP, 40, "eddy.public.old", NULL, 0);
    df_cmd_add_op(c, DF_OP_INSTALL, 42, "eddy.public.v", plan_bytes.data, plan_bytes.len);
    static const uint8_t body[] = {1, 2, 3};
    c->payload = body;
    c->payload_len = sizeof body;
    return c;
}

static void codec_roundtrip(void)
{
    df_cmd_t *c = sample();
    cm_buf_t a, b;
    cm_buf_init(&a, 0);
    cm_buf_init(&b, 0);
    df_cmd_encode(c, &a);
    cm_err_t err = {0};
    df_cmd_t *d = df_cmd_decode(a.data, a.len, &err);
    UNIT_CHECK(d != NULL);
    if (d) {
        UNIT_CHECK(d->kind == DF_CMD_APPLY && d->seq == 17 && d->epoch == 3 && d->index == 42 && d->time_us == -5);
        UNIT_CHECK(d->object_id == 42 && strcmp(d->object_name, "eddy.public.v") == 0 && d->nops == 2);
        UNIT_CHECK(d->ops[0].kind == DF_OP_DROP && d->ops[0].id == 40 && d->ops[0].plan_len == 0);
        UNIT_CHECK(d->ops[1].plan_len == plan_bytes.len && memcmp(d->ops[1].plan, plan_bytes.data, plan_bytes.len) == 0);
        UNIT_CHECK(d->payload_len == 3 && d->payload[2] == 3);
        df_cmd_encode(d, &b);
        UNIT_CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
        /* A decoded command is what a worker applies. */
        df_state_t st;
        df_state_init(&st, 4, 10);
        UNIT_CHECK(offer(&st, cmd(DF_CMD_BOOTSTRAP, 3, 16, 41)) == DF_APPLY_APPLIED);
        UNIT_CHECK(df_state_offer(&st, d) == DF_APPLY_APPLIED && st.nflows == 1 && st.flows[0].id == 42);
        UNIT_CHECK(st.flows[0].query != NULL && st.flows[0].query->root->kind == PLAN_REL_VALUES);
        df_state_destroy(&st);
        df_cmd_unref(d);
    }
    df_cmd_unref(c);
    cm_buf_free(&a);
    cm_buf_free(&b);
}

static void codec_rejects_corruption(void)
{
    df_cmd_t *c = sample();
    cm_buf_t a;
    cm_buf_init(&a, 0);
    df_cmd_encode(c, &a);
    df_cmd_unref(c);
    cm_err_t err = {0};
    /* Every truncation fails cleanly. */
    for (size_t n = 0; n < a.len; n++) {
        df_cmd_t *d = df_cmd_decode(a.data, n, &err);
        UNIT_CHECK(d == NULL && err.set);
        cm_err_clear(&err);
    }
    /* Every single-byte change decodes whole or fails; never reads past the input (ASan). */
    uint8_t *copy = malloc(a.len);
    for (size_t i = 0; i < a.len; i++) {
        for (int bit = 0; bit < 8; bit++) {
            memcpy(copy, a.data, a.len);
            copy[i] ^= (uint8_t)(1u << bit);
            df_cmd_t *d = df_cmd_decode(copy, a.len, &err);
            UNIT_CHECK((d != NULL) != err.set);
            df_cmd_unref(d);
            cm_err_clear(&err);
        }
    }
    free(copy);
    /* A newer format is refused as such; a huge op count is refused without allocating it. */
    cm_buf_t h;
    cm_buf_init(&h, 0);
    cm_buf_put(&h, a.data, a.len);
    h.data[4] = 2;
    UNIT_CHECK(df_cmd_decode(h.data, h.len, &err) == NULL && strcmp(err.sqlstate, "0A000") == 0);
    cm_err_clear(&err);
    cm_buf_reset(&h);
    cm_buf_put(&h, "EDCM\1\2", 6);
    for (int i = 0; i < 5; i++)
        cm_buf_put_be64(&h, 0);
    cm_buf_put_be32(&h, 0);
    cm_buf_put_be32(&h, 0xffffffffu);
    UNIT_CHECK(df_cmd_decode(h.data, h.len, &err) == NULL && strcmp(err.sqlstate, "XX001") == 0);
    cm_err_clear(&err);
    cm_buf_free(&h);
    cm_buf_free(&a);
}

/* ------------------------------------------------------------ plans */

/* Adds an install of every seed of the plan corpus to c, from id `first` on; returns how many. */
static int install_seeds(df_cmd_t *c, uint64_t first, cm_buf_t *kept)
{
    DIR *d = opendir("tests/fuzz/corpus/plan");
    if (!d)
        return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "seed-", 5) != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "tests/fuzz/corpus/plan/%s", e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        cm_buf_t b;
        cm_buf_init(&b, 0);
        char chunk[4096];
        size_t got;
        while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
            cm_buf_put(&b, chunk, got);
        fclose(f);
        df_cmd_add_op(c, DF_OP_INSTALL, first + (uint64_t)n, e->d_name, b.data, b.len);
        if (n == 0)
            cm_buf_put(kept, b.data, b.len);
        n++;
        cm_buf_free(&b);
    }
    closedir(d);
    return n;
}

static void state_decodes_plans(void)
{
    df_state_t st;
    df_state_init(&st, 4, 10);
    UNIT_CHECK(offer(&st, cmd(DF_CMD_BOOTSTRAP, 1, 1, 1)) == DF_APPLY_APPLIED);
    /* The planner's plans for every EXPLAIN golden and differential query: each decodes on the worker. */
    cm_buf_t first;
    cm_buf_init(&first, 0);
    df_cmd_t *c = cmd(DF_CMD_APPLY, 1, 2, 2);
    int n = install_seeds(c, 100, &first);
    UNIT_CHECK(offer(&st, c) == DF_APPLY_APPLIED);
    UNIT_CHECK(n >= 500 && st.nflows == (size_t)n && st.refused == 0);
    int64_t operators = 0;
    for (size_t i = 0; i < st.nflows; i++) {
        const plan_t *q = st.flows[i].query;
        UNIT_CHECK(q != NULL && q->root != NULL && q->root->ncols == q->ncols);
        operators += q ? plan_operator_count(q) : 0;
    }
    UNIT_CHECK(operators >= n);
    printf("  %d plans decoded, %lld operators\n", n, (long long)operators);
    /* A truncated plan is refused on its own: the dataflow of its id stays, the rest of the command applies. */
    const char *name = st.flows[0].name;
    df_cmd_t *bad = cmd(DF_CMD_APPLY, 1, 3, 3);
    df_cmd_add_op(bad, DF_OP_INSTALL, 100, "truncated", first.data, first.len - 1);
    df_cmd_add_op(bad, DF_OP_INSTALL, 9000, "eddy.public.t", NULL, 0);   /* no plan (a table): nothing to decode */
    UNIT_CHECK(offer(&st, bad) == DF_APPLY_APPLIED);
    UNIT_CHECK(st.seq == 3 && st.index == 3 && st.refused == 1 && st.nflows == (size_t)n + 1);
    UNIT_CHECK(st.flows[0].id == 100 && st.flows[0].name == name && st.flows[0].query != NULL);
    UNIT_CHECK(st.flows[n].id == 9000 && st.flows[n].query == NULL);
    /* Installed again whole, it replaces the old one in place. */
    df_cmd_t *again = cmd(DF_CMD_APPLY, 1, 4, 4);
    df_cmd_add_op(again, DF_OP_INSTALL, 100, "again", first.data, first.len);
    UNIT_CHECK(offer(&st, again) == DF_APPLY_APPLIED);
    UNIT_CHECK(st.refused == 1 && strcmp(st.flows[0].name, "again") == 0 && st.flows[0].query != NULL &&
               st.flows[0].index == 4);
    cm_buf_free(&first);
    df_state_destroy(&st);
}

int main(void)
{
    plan_bytes_make();
    UNIT_RUN(queue_bounded_fifo);
    UNIT_RUN(state_order_and_duplicates);
    UNIT_RUN(state_gap_buffer_is_bounded);
    UNIT_RUN(state_epochs);
    UNIT_RUN(workers_apply_one_order);
    UNIT_RUN(workers_never_started);
    UNIT_RUN(codec_roundtrip);
    UNIT_RUN(codec_rejects_corruption);
    UNIT_RUN(state_decodes_plans);
    cm_buf_free(&plan_bytes);
    UNIT_EXIT();
}
