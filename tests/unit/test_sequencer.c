/*
 * test_sequencer.c: worker 0's sequencer over the embedded store and real
 * worker threads: Bootstrap of what existed before it started, one Apply
 * per log entry in index order, every worker applying the same gap-free
 * sequence, back-pressure from tiny queues, and the planning step.
 */
#include "dataflow/dataflow.h"
#include "planner/planner.h"
#include "sequencer/sequencer.h"
#include "tests/unit/test_catalog_helpers.h"

#include <unistd.h>

static cat_store_t *open_mem(void *arg, uv_loop_t *loop, void (*wake)(void *), void *wake_arg, cm_err_t *err)
{
    return cat_store_mem_open(arg, NULL, wake, wake_arg);
}

typedef struct rig {
    df_workers_t *ws;
    seq_transport_t *tr;
    seq_t *seq;
} rig_t;

static int rig_tick_ms;   /* seq_config_t.tick_interval_ms of the next rig */
static seq_owner_t *rig_owner;   /* seq_config_t.owner of the next rig */
static int rig_delay_ms;   /* df_config_t.fault_delay_ms of the next rig (workers but 0 are slow) */

static bool rig_start(rig_t *r, tc_t *t, int workers, size_t queue_max, size_t outbox_max)
{
    df_config_t dc;
    df_config_default(&dc);
    dc.workers = workers;
    dc.queue_max = queue_max;
    dc.fault_delay_ms = rig_delay_ms;
    cm_err_t err = {0};
    r->ws = df_workers_new(&dc, &err);
    r->tr = seq_transport_local_new(r->ws);
    seq_config_t sc;
    seq_config_default(&sc);
    sc.store_open = open_mem;
    sc.store_arg = t->db;
    sc.transport = r->tr;
    sc.outbox_max = outbox_max;
    sc.tick_interval_ms = rig_tick_ms;
    sc.owner = rig_owner;
    r->seq = seq_start(&sc, df_workers_loop(r->ws, 0), &err);
    if (r->seq == NULL)
        return false;
    df_workers_start(r->ws);
    return true;
}

static void rig_stop(rig_t *r)
{
    seq_stop(r->seq);
    df_workers_stop(r->ws);
    seq_free(r->seq);
    r->tr->ops->free(r->tr);
    df_workers_free(r->ws);
}

static bool wait_applied(rig_t *r, uint64_t index)
{
    for (int i = 0; i < 10000; i++) {
        if (seq_applied_index(r->seq) >= index)
            return true;
        usleep(1000);
    }
    return false;
}

typedef struct seen {
    uint64_t seq[1024], index[1024], obj[1024];
    int kind[1024];
    size_t n;
} seen_t;

static void seen_cmd(void *arg, const seq_record_t *rec)
{
    seen_t *s = arg;
    if (s->n < 1024) {
        s->seq[s->n] = rec->seq;
        s->index[s->n] = rec->index;
        s->obj[s->n] = rec->object_id;
        s->kind[s->n++] = rec->kind;
    }
}

static void seen_applied(void *arg, const df_applied_t *a)
{
    seen_t *s = arg;
    if (s->n < 1024) {
        s->seq[s->n] = a->seq;
        s->index[s->n] = a->index;
        s->obj[s->n] = a->object_id;
        s->kind[s->n++] = a->kind;
    }
}

static void count_flow(void *arg, const df_dataflow_t *d)
{
    (*(size_t *)arg)++;
}

/* Every worker applied exactly what the sequencer numbered: Bootstrap at
 * `boot_index`, then one Apply per index up to `head`, seq 1, 2, 3, ... */
static void check_streams(rig_t *r, int workers, uint64_t boot_index, uint64_t head, size_t flows)
{
    seen_t cmds = {0};
    seq_visit_commands(r->seq, seen_cmd, &cmds);
    UNIT_CHECK(cmds.n == 1 + (head - boot_index));
    UNIT_CHECK(cmds.kind[0] == DF_CMD_BOOTSTRAP && cmds.index[0] == boot_index);
    for (size_t i = 0; i < cmds.n; i++) {
        UNIT_CHECK(cmds.seq[i] == i + 1);
        UNIT_CHECK(cmds.index[i] == boot_index + i);
        UNIT_CHECK(i == 0 || cmds.kind[i] == DF_CMD_APPLY);
    }
    for (int w = 0; w < workers; w++) {
        seen_t got = {0};
        df_workers_visit_applied(r->ws, w, seen_applied, &got);
        UNIT_CHECK(got.n == cmds.n);
        UNIT_CHECK(memcmp(got.seq, cmds.seq, sizeof got.seq) == 0);
        UNIT_CHECK(memcmp(got.index, cmds.index, sizeof got.index) == 0);
        UNIT_CHECK(memcmp(got.obj, cmds.obj, sizeof got.obj) == 0);
        size_t n = 0;
        df_workers_visit_dataflows(r->ws, w, count_flow, &n);
        UNIT_CHECK(n == flows);
    }
}

static void follows_the_log_in_order(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t1", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t2", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "v12", "t1,t2"));
    uint64_t boot = cat_snap_index(t.snap);
    rig_t r;
    UNIT_CHECK(rig_start(&r, &t, 4, 1024, 256));
    UNIT_CHECK(wait_applied(&r, boot));
    char name[32];
    for (int i = 0; i < 60; i++) {
        snprintf(name, sizeof name, "x%d", i);
        UNIT_CHECK(tc_create(&t, i % 2 ? CAT_ITEM_VIEW : CAT_ITEM_TABLE, name, i % 2 ? "t1" : NULL));
    }
    UNIT_CHECK(tc_create_schema(&t, "s", false));
    /* One entry drops t1 and everything reading it: one Apply with many drops. */
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_TABLE, "t1", false, true));
    uint64_t head = cat_snap_index(t.snap);
    UNIT_CHECK(wait_applied(&r, head));
    /* Left: t2 and the 30 tables x0, x2, ... */
    check_streams(&r, 4, boot, head, 31);
    rig_stop(&r);
    tc_free(&t);
}

static const cat_item_t *commit_view(tc_t *t, const char *name, const char *create_sql, cat_id_t dep);

typedef struct names {
    uint64_t id[16];
    size_t n;
} names_t;

static void flow_id(void *arg, const df_dataflow_t *d)
{
    names_t *n = arg;
    if (n->n < 16)
        n->id[n->n++] = d->id;
}

/* A view redefined to read an item newer than itself is bootstrapped after that item. */
static void bootstrap_installs_inputs_first(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t1", NULL));
    const cat_item_t *v = commit_view(&t, "v", "CREATE VIEW eddy.public.v AS SELECT a FROM eddy.public.t1",
                                      cat_snap_index(t.snap));
    cat_id_t vid = v->id;
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t2", NULL));
    cat_id_t t2 = cat_snap_index(t.snap);
    tc_begin(&t);
    static const cat_column_t cols[] = {{.name = "a", .type = 23, .typmod = -1}};
    cat_item_def_t def = {.kind = CAT_ITEM_VIEW, .create_sql = "CREATE VIEW eddy.public.v AS SELECT a FROM eddy.public.t2",
                          .columns = cols, .ncolumns = 1, .deps = &t2, .ndeps = 1};
    UNIT_CHECK(cat_plan_alter_item(t.snap, cat_snap_item_by_id(t.snap, vid), &def, t.last, &t.err));
    UNIT_CHECK(tc_commit_change(&t, t.last, "CREATE OR REPLACE VIEW") == CAT_STORE_OK);
    rig_t r;
    UNIT_CHECK(rig_start(&r, &t, 2, 16, 16));
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    names_t got = {0};
    df_workers_visit_dataflows(r.ws, 1, flow_id, &got);
    /* Installed in dependency order: t1, t2, then v (ID order would put v before t2). */
    UNIT_CHECK(got.n == 3 && got.id[0] == vid - 1 && got.id[1] == t2 && got.id[2] == vid);
    rig_stop(&r);
    tc_free(&t);
}

/* Ticks take their turn in the one order: every worker applies them between the same Applies. */
static void ticks_in_the_order(void)
{
    tc_t t;
    tc_init(&t);
    rig_t r;
    rig_tick_ms = 2;
    UNIT_CHECK(rig_start(&r, &t, 3, 1024, 256));
    rig_tick_ms = 0;
    char name[32];
    for (int i = 0; i < 20; i++) {
        snprintf(name, sizeof name, "t%d", i);
        UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, name, NULL));
        usleep(3000);
    }
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    usleep(20000);
    seq_stop(r.seq);   /* no more commands: what the workers hold is final once they drained */
    df_workers_stop(r.ws);
    seen_t cmds = {0};
    seq_visit_commands(r.seq, seen_cmd, &cmds);
    size_t ticks = 0;
    for (size_t i = 0; i < cmds.n; i++) {
        UNIT_CHECK(cmds.seq[i] == i + 1);
        UNIT_CHECK(i == 0 || cmds.index[i] >= cmds.index[i - 1]);
        ticks += cmds.kind[i] == DF_CMD_TICK;
    }
    UNIT_CHECK(ticks >= 5 && cmds.n - ticks == 21);
    for (int w = 0; w < 3; w++) {
        seen_t got = {0};
        df_workers_visit_applied(r.ws, w, seen_applied, &got);
        UNIT_CHECK(got.n == cmds.n && memcmp(got.seq, cmds.seq, sizeof got.seq) == 0 &&
                   memcmp(got.kind, cmds.kind, sizeof got.kind) == 0 &&
                   memcmp(got.index, cmds.index, sizeof got.index) == 0);
    }
    seq_free(r.seq);
    r.tr->ops->free(r.tr);
    df_workers_free(r.ws);
    tc_free(&t);
}

static void tiny_queues_push_back(void)
{
    tc_t t;
    tc_init(&t);
    rig_t r;
    UNIT_CHECK(rig_start(&r, &t, 3, 1, 2));
    char name[32];
    for (int i = 0; i < 150; i++) {
        snprintf(name, sizeof name, "t%d", i);
        UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, name, NULL));
    }
    uint64_t head = cat_snap_index(t.snap);
    UNIT_CHECK(wait_applied(&r, head));
    seen_t cmds = {0};
    seq_visit_commands(r.seq, seen_cmd, &cmds);
    /* Bootstrap may have come before or after some commits: either way gap-free. */
    UNIT_CHECK(cmds.n >= 1 && cmds.index[cmds.n - 1] == head);
    check_streams(&r, 3, cmds.index[0], head, 150);
    rig_stop(&r);
    tc_free(&t);
}

/* Commits CREATE VIEW name AS <sql> with one int4 column a, reading `dep` (0: nothing). */
static const cat_item_t *commit_view(tc_t *t, const char *name, const char *create_sql, cat_id_t dep)
{
    tc_begin(t);
    static const cat_column_t cols[] = {{.name = "a", .type = 23, .typmod = -1}};
    char nb[64];
    cat_item_def_t def = {.kind = CAT_ITEM_VIEW, .name = tc_qname(name, nb, sizeof nb), .create_sql = create_sql,
                          .columns = cols, .ncolumns = 1, .deps = dep ? &dep : NULL, .ndeps = dep ? 1 : 0};
    UNIT_CHECK(cat_plan_create_item(t->snap, &t->search, &def, false, t->last, &t->err));
    UNIT_CHECK(tc_commit_change(t, t->last, "CREATE VIEW") == CAT_STORE_OK);
    return cat_snap_item(t->snap, cat_snap_schema(t->snap, cat_snap_database(t->snap, "eddy"), "public"), name);
}

/* The plan bytes decode without the catalog and explain as the view's query. */
static void check_plan(const cat_snap_t *snap, const cat_item_t *it, const char *want)
{
    cm_buf_t a, b, text;
    cm_buf_init(&a, 0);
    cm_buf_init(&b, 0);
    cm_buf_init(&text, 0);
    cm_err_t err = {0};
    UNIT_CHECK(it != NULL);
    UNIT_CHECK(seq_plan_item_default(NULL, snap, it, &a, &err));
    UNIT_CHECK(seq_plan_item_default(NULL, snap, it, &b, &err));
    UNIT_CHECK(a.len > 0 && a.len == b.len && memcmp(a.data, b.data, a.len) == 0);   /* deterministic */
    cm_arena_t arena;
    cm_arena_init(&arena, 0);
    plan_t *p = NULL;
    /* What a worker decodes and prints, without the planner. */
    UNIT_CHECK(plan_decode(&arena, a.data, a.len, NULL, &p, &err));
    if (p) {
        ty_settings_t settings;
        ty_settings_default(&settings);
        plan_explain(p, &settings, &arena, &text);
        cm_buf_put_u8(&text, 0);
        if (strstr((const char *)text.data, want) == NULL) {
            printf("  plan of %s:\n%s", it->name, (const char *)text.data);
            UNIT_CHECK(false);
        }
    }
    if (err.set)
        printf("  %s\n", err.message);
    cm_err_clear(&err);
    cm_arena_free(&arena);
    cm_buf_free(&a);
    cm_buf_free(&b);
    cm_buf_free(&text);
}

static void plan_bytes_of_views(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t", NULL));
    cat_id_t table = cat_snap_index(t.snap);
    const cat_item_t *v = commit_view(&t, "v", "CREATE VIEW eddy.public.v AS SELECT 1 AS a", 0);
    check_plan(t.snap, v, "Constant");
    const cat_item_t *w = commit_view(&t, "w", "CREATE VIEW eddy.public.w (b) AS SELECT a + 1 FROM eddy.public.t", table);
    check_plan(t.snap, w, "Get eddy.public.t");
    /* A view over a view reads what that view reads: the workers' plan gets only tables. */
    const cat_item_t *x = commit_view(&t, "x", "CREATE VIEW eddy.public.x AS SELECT a FROM eddy.public.w", w->id);
    check_plan(t.snap, x, "Map (#0 + 1)\n      Get eddy.public.t");
    /* A table is its definition: one GET of it, which the workers make their shards from. */
    check_plan(t.snap, cat_snap_item_by_id(t.snap, table), "Get eddy.public.t");
    tc_free(&t);
}

/* An owner the test drives by hand: grant and lose like ZooKeeper would. */
typedef struct fake_owner {
    seq_owner_t base;
    void (*granted)(void *arg, uint64_t epoch);
    void (*lost)(void *arg);
    void *arg;
    bool released;
} fake_owner_t;

static int fake_acquire(seq_owner_t *o, void (*granted)(void *arg, uint64_t epoch), void (*lost)(void *arg),
                        void *arg, cm_err_t *err)
{
    fake_owner_t *f = (fake_owner_t *)o;
    f->granted = granted;
    f->lost = lost;
    f->arg = arg;
    return 0;
}

static void fake_release(seq_owner_t *o)
{
    ((fake_owner_t *)o)->released = true;
}

static const seq_owner_ops_t fake_ops = {.acquire = fake_acquire, .release = fake_release};

typedef struct epochs {
    uint64_t epoch[1024], index[1024];
    int kind[1024];
    size_t n;
} epochs_t;

static void seen_epoch(void *arg, const seq_record_t *rec)
{
    epochs_t *e = arg;
    if (e->n < 1024) {
        e->epoch[e->n] = rec->epoch;
        e->index[e->n] = rec->index;
        e->kind[e->n++] = rec->kind;
    }
}

/* Standby until granted; nothing sequenced after a loss; a new grant bootstraps at its epoch. */
static void owner_grants_and_fences(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t1", NULL));
    fake_owner_t f = {.base = {.ops = &fake_ops}};
    rig_owner = &f.base;
    rig_t r;
    UNIT_CHECK(rig_start(&r, &t, 3, 1024, 256));
    rig_owner = NULL;
    usleep(50 * 1000);
    epochs_t e = {0};
    seq_visit_commands(r.seq, seen_epoch, &e);
    UNIT_CHECK(e.n == 0 && seq_applied_index(r.seq) == 0);   /* a standby sends nothing */
    f.granted(f.arg, 5);
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "v1", "t1"));
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    uint64_t last5 = cat_snap_index(t.snap);
    f.lost(f.arg);
    usleep(20 * 1000);
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "x%d", i);
        UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, name, NULL));
    }
    usleep(100 * 1000);
    memset(&e, 0, sizeof e);
    seq_visit_commands(r.seq, seen_epoch, &e);
    UNIT_CHECK(e.n == 2);
    for (size_t i = 0; i < e.n; i++)
        UNIT_CHECK(e.epoch[i] == 5 && e.index[i] <= last5);
    for (int w = 0; w < 3; w++) {
        df_worker_status_t st;
        df_workers_status(r.ws, w, &st);
        UNIT_CHECK(st.epoch == 5 && st.index == last5);
    }
    f.granted(f.arg, 6);
    uint64_t head = cat_snap_index(t.snap);
    UNIT_CHECK(wait_applied(&r, head));
    memset(&e, 0, sizeof e);
    seq_visit_commands(r.seq, seen_epoch, &e);
    UNIT_CHECK(e.n == 3 && e.epoch[2] == 6 && e.kind[2] == DF_CMD_BOOTSTRAP && e.index[2] == head);
    for (int w = 0; w < 3; w++) {
        df_worker_status_t st;
        df_workers_status(r.ws, w, &st);
        UNIT_CHECK(st.epoch == 6 && st.index == head && st.seq == 1);
    }
    rig_stop(&r);
    UNIT_CHECK(f.released);
    tc_free(&t);
}

/* A submitted read's answer: which thread finished it, and when. */
typedef struct answer {
    atomic_int done;
    uint64_t seq;
    char sqlstate[6];
    int answered;
} answer_t;

static void answer_cb(df_reply_t *rep, void *arg)
{
    answer_t *a = arg;
    a->seq = rep->seq;
    memcpy(a->sqlstate, rep->err.sqlstate, sizeof a->sqlstate);
    for (int i = 0; i < rep->nworkers; i++)
        a->answered += rep->parts[i].answered;
    atomic_store(&a->done, 1);
}

static bool wait_answer(answer_t *a)
{
    for (int i = 0; i < 10000 && !atomic_load(&a->done); i++)
        usleep(1000);
    return atomic_load(&a->done);
}

/*
 * A Peek submitted from another thread is numbered after what the sequencer
 * had sequenced, reaches every worker, and its reply hears each of them once;
 * one submitted to a standby is refused, and one waiting when ownership is
 * lost fails instead of hanging.
 */
static void submits_in_the_order(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t1", NULL));
    rig_t r;
    UNIT_CHECK(rig_start(&r, &t, 3, 1024, 256));
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "v1", "t1"));
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    answer_t a[8] = {0};
    for (int i = 0; i < 8; i++) {
        df_reply_t *rep = df_reply_new(3, answer_cb, &a[i]);
        df_cmd_t *c = df_cmd_new(i % 2 ? DF_CMD_WRITE : DF_CMD_PEEK);
        df_cmd_set_payload(c, (const uint8_t *)"x", 1, rep);
        UNIT_CHECK(seq_submit(r.seq, c));
        df_reply_unref(rep);
    }
    for (int i = 0; i < 8; i++) {
        UNIT_CHECK(wait_answer(&a[i]));
        /* Bootstrap was seq 1 and the view's Apply seq 2: these follow, in submission order. */
        UNIT_CHECK(a[i].seq == (uint64_t)(3 + i) && a[i].answered == 3);
        /* "x" is neither a write nor a plan: every worker says so. */
        UNIT_CHECK(strcmp(a[i].sqlstate, "XX001") == 0);
    }
    seen_t cmds = {0};
    seq_visit_commands(r.seq, seen_cmd, &cmds);
    UNIT_CHECK(cmds.n == 10 && cmds.kind[2] == DF_CMD_PEEK && cmds.kind[3] == DF_CMD_WRITE);
    for (int w = 0; w < 3; w++) {
        seen_t got = {0};
        df_workers_visit_applied(r.ws, w, seen_applied, &got);
        UNIT_CHECK(got.n == 10 && memcmp(got.seq, cmds.seq, sizeof got.seq) == 0);
    }
    rig_stop(&r);
    tc_free(&t);

    /* A standby takes nothing. */
    tc_init(&t);
    fake_owner_t f = {.base = {.ops = &fake_ops}};
    rig_owner = &f.base;
    UNIT_CHECK(rig_start(&r, &t, 2, 1024, 256));
    rig_owner = NULL;
    answer_t b = {0};
    df_reply_t *rep = df_reply_new(2, answer_cb, &b);
    df_cmd_t *c = df_cmd_new(DF_CMD_PEEK);
    df_cmd_set_payload(c, NULL, 0, rep);
    UNIT_CHECK(!seq_submit(r.seq, c));
    df_cmd_unref(c);   /* never sequenced: its reply fails at once */
    UNIT_CHECK(atomic_load(&b.done) && strcmp(b.sqlstate, "57P01") == 0 && b.answered == 0);
    df_reply_unref(rep);
    rig_stop(&r);
    tc_free(&t);
}

/* A one-row Write of (v) into table, groupable and offered for acceptance at index. */
static df_cmd_t *accept_write(uint64_t table, int64_t v, uint64_t index, df_reply_t *rep)
{
    cm_arena_t a;
    cm_arena_init(&a, 0);
    cm_err_t err = {0};
    ty_ctx_t ctx = {.arena = &a, .err = &err};
    ty_datum_t d = {.v.i = v};
    ty_datum_t *row = &d;
    int64_t diff = 1;
    ty_oid_t type = 23;
    cm_buf_t body;
    cm_buf_init(&body, 0);
    UNIT_CHECK(df_write_encode(table, NULL, false, &type, 1, &row, &diff, 1, &ctx, &body));
    df_cmd_t *c = df_cmd_new(DF_CMD_WRITE);
    df_cmd_set_payload(c, body.data, body.len, rep);
    c->groupable = true;
    c->accept_index = index;
    cm_buf_free(&body);
    cm_arena_free(&a);
    return c;
}

/*
 * Rows added to a table without a key are answered when the sequencer takes
 * them, before a slow worker applied them: the first at once, the next ones
 * while the first is being applied (they wait in the inbox to go as one
 * group). A catalog change committed meanwhile is numbered after them all.
 * A write planned before that change is not answered until it was applied.
 */
static void accepts_writes_before_their_step(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t1", NULL));
    uint64_t index = cat_snap_index(t.snap);
    const cat_item_t *t1 = cat_snap_item_by_id(t.snap, index);
    UNIT_CHECK(t1 != NULL);
    uint64_t table = t1->id;
    rig_t r;
    rig_delay_ms = 300;
    UNIT_CHECK(rig_start(&r, &t, 2, 1024, 256));
    rig_delay_ms = 0;
    UNIT_CHECK(wait_applied(&r, index));
    answer_t a[4] = {0};
    for (int i = 0; i < 4; i++) {
        df_reply_t *rep = df_reply_new(2, answer_cb, &a[i]);
        UNIT_CHECK(seq_submit(r.seq, accept_write(table, i, index, rep)));
        df_reply_unref(rep);
        UNIT_CHECK(atomic_load(&a[i].done) && a[i].sqlstate[0] == 0 && a[i].answered == 2);
    }
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t2", NULL));
    uint64_t ddl = cat_snap_index(t.snap);
    UNIT_CHECK(wait_applied(&r, ddl));
    /* Planned before t2 existed, submitted after: answered only once the slow worker applied it. */
    answer_t late = {0};
    df_reply_t *rep = df_reply_new(2, answer_cb, &late);
    UNIT_CHECK(seq_submit(r.seq, accept_write(table, 9, index, rep)));
    df_reply_unref(rep);
    UNIT_CHECK(!atomic_load(&late.done));
    UNIT_CHECK(wait_answer(&late) && late.sqlstate[0] == 0);
    seen_t cmds = {0};
    seq_visit_commands(r.seq, seen_cmd, &cmds);
    size_t writes = 0, apply_at = 0;
    for (size_t i = 0; i < cmds.n; i++) {
        if (cmds.kind[i] == DF_CMD_WRITE && apply_at == 0)
            writes++;
        if (cmds.kind[i] == DF_CMD_APPLY && cmds.index[i] == ddl)
            apply_at = i;
    }
    /* Bootstrap, the first write alone, the three that waited as one group, then t2's Apply. */
    UNIT_CHECK(apply_at == 3 && writes == 2);
    rig_stop(&r);
    tc_free(&t);
}

int main(void)
{
    cm_log_level = CM_LOG_ERROR;   /* the helpers' views have no real SQL to plan */
    UNIT_RUN(follows_the_log_in_order);
    UNIT_RUN(tiny_queues_push_back);
    UNIT_RUN(bootstrap_installs_inputs_first);
    UNIT_RUN(ticks_in_the_order);
    UNIT_RUN(plan_bytes_of_views);
    UNIT_RUN(owner_grants_and_fences);
    UNIT_RUN(submits_in_the_order);
    UNIT_RUN(accepts_writes_before_their_step);
    UNIT_EXIT();
}
