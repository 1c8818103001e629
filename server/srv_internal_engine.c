/*
 * srv_internal_engine.c: eddy_internal's view of the dataflow engine, as
 * Materialize's mz_introspection shows its own: the operators each
 * materialized view compiled into (one row per operator, with how many
 * workers built it), the arrangements per worker with their records,
 * batches and bytes, which operators use each arrangement, and each
 * worker's frontier. Each worker is visited under its own lock
 * (dataflow.h), so a DDL or a write the workers answered is in what it
 * shows; an INSERT answered as soon as it held its place in the order
 * (sequencer.h, accepted writes) shows once the workers applied it.
 */
#include "server/srv_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct eng_op {
    uint64_t dataflow;
    const char *name;
    int id, worker;
    const char *kind, *detail;
    uint64_t reads;
    int inputs[2], ninputs;
} eng_op_t;

typedef struct eng_arr {
    uint64_t dataflow;
    const char *name;
    int operator_id;
    const char *arrangement;
    uint64_t records, batches, bytes;
} eng_arr_t;

/* What the visits collect, in the statement's arena. */
typedef struct eng {
    cm_arena_t *arena;
    int worker;
    eng_op_t *ops;
    int nops, opcap;
    eng_arr_t *arrs;
    int narrs, arrcap;
    ty_datum_t **rows;
    int nrows, rowcap, ncols;
} eng_t;

static void *eng_grow(cm_arena_t *a, void *p, int n, int *cap, size_t size)
{
    if (n < *cap)
        return p;
    int ncap = *cap ? *cap * 2 : 64;
    void *np = cm_arena_alloc(a, size * (size_t)ncap);
    if (n)
        memcpy(np, p, size * (size_t)n);
    *cap = ncap;
    return np;
}

static void eng_op_cb(void *arg, const df_dataflow_t *d, const df_operator_info_t *op)
{
    eng_t *e = arg;
    e->ops = eng_grow(e->arena, e->ops, e->nops, &e->opcap, sizeof *e->ops);
    eng_op_t *o = &e->ops[e->nops++];
    *o = (eng_op_t){.dataflow = d->id, .name = d->name, .id = op->id, .worker = e->worker,
                    .kind = op->kind, .detail = op->detail ? cm_arena_strdup(e->arena, op->detail) : NULL,
                    .reads = op->reads, .ninputs = op->ninputs};
    memcpy(o->inputs, op->inputs, sizeof o->inputs);
    o->name = cm_arena_strdup(e->arena, d->name ? d->name : "");
}

static void eng_arr_cb(void *arg, const df_dataflow_t *d, const df_arrangement_info_t *a)
{
    eng_t *e = arg;
    e->arrs = eng_grow(e->arena, e->arrs, e->narrs, &e->arrcap, sizeof *e->arrs);
    e->arrs[e->narrs++] = (eng_arr_t){.dataflow = d->id, .name = cm_arena_strdup(e->arena, d->name ? d->name : ""),
                                      .operator_id = a->operator_id, .arrangement = a->name,
                                      .records = a->records, .batches = a->batches, .bytes = a->bytes};
}

static ty_datum_t *eng_row(eng_t *e)
{
    e->rows = eng_grow(e->arena, e->rows, e->nrows, &e->rowcap, sizeof *e->rows);
    ty_datum_t *row = cm_arena_zalloc(e->arena, sizeof *row * (size_t)e->ncols);
    e->rows[e->nrows++] = row;
    return row;
}

static ty_datum_t eng_int(int64_t v)
{
    return (ty_datum_t){.v.i = v};
}

static ty_datum_t eng_text(cm_arena_t *a, const char *s)
{
    if (s == NULL)
        return (ty_datum_t){.isnull = true};
    ty_datum_t d = {0};
    d.v.s.p = cm_arena_strdup(a, s);
    d.v.s.len = (uint32_t)strlen(s);
    return d;
}

/* An operator id, NULL for 0 (an arrangement no operator keeps: a table's rows, a view's result). */
static ty_datum_t eng_opid(int id)
{
    return id ? eng_int(id) : (ty_datum_t){.isnull = true};
}

static int eng_op_cmp(const void *x, const void *y)
{
    const eng_op_t *a = x, *b = y;
    if (a->dataflow != b->dataflow)
        return a->dataflow < b->dataflow ? -1 : 1;
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    return a->worker - b->worker;
}

/* One row per (dataflow, operator): every worker compiles the same graph, so they differ only
 * while a DDL is on its way to some of them; workers counts those that built it. */
static void eng_operators(eng_t *e)
{
    if (e->nops > 1)   /* qsort of no rows: e->ops may be NULL */
        qsort(e->ops, (size_t)e->nops, sizeof *e->ops, eng_op_cmp);
    for (int i = 0; i < e->nops;) {
        int j = i;
        while (j < e->nops && e->ops[j].dataflow == e->ops[i].dataflow && e->ops[j].id == e->ops[i].id)
            j++;
        const eng_op_t *o = &e->ops[i];
        ty_datum_t *row = eng_row(e);
        row[0] = eng_int((int64_t)o->dataflow);
        row[1] = eng_text(e->arena, o->name);
        row[2] = eng_int(o->id);
        row[3] = eng_text(e->arena, o->kind);
        row[4] = eng_text(e->arena, o->detail);
        ty_datum_t in[2] = {eng_int(o->inputs[0]), eng_int(o->inputs[1])};
        row[5] = ty_array_make(e->arena, TY_INT4, in, o->ninputs);
        row[6] = eng_int(j - i);
        i = j;
    }
}

/*
 * Calls use(reader) for each operator that uses arrangement a among ops[lo, hi) (one worker's):
 * the operator keeping it; for a view's result, the view's last operator, which writes it; for a
 * table's rows or a view's result, every Get that reads that relation (when its view is built).
 */
static int eng_readers(eng_t *e, const eng_arr_t *a, int lo, int hi, bool emit)
{
    int n = 0;
    for (int i = lo; i < hi; i++) {
        const eng_op_t *o = &e->ops[i];
        bool last = i + 1 == hi || e->ops[i + 1].dataflow != o->dataflow;
        bool uses = a->operator_id ? o->dataflow == a->dataflow && o->id == a->operator_id
                                   : o->reads == a->dataflow ||
                                         (strcmp(a->arrangement, "result") == 0 && o->dataflow == a->dataflow && last);
        if (!uses)
            continue;
        n++;
        if (emit) {
            ty_datum_t *row = eng_row(e);
            row[0] = eng_int((int64_t)a->dataflow);
            row[1] = eng_opid(a->operator_id);
            row[2] = eng_text(e->arena, a->arrangement);
            row[3] = eng_int((int64_t)o->dataflow);
            row[4] = eng_text(e->arena, o->name);
            row[5] = eng_int(o->id);
        }
    }
    return n;
}

bool srv_engine_rows(df_workers_t *ws, const char *relation, int ncols, cm_arena_t *arena, ty_datum_t ***rows,
                     int *nrows, bool *found, cm_err_t *err)
{
    bool ops = strcmp(relation, PLN_INTERNAL_OPERATORS) == 0, arrs = strcmp(relation, PLN_INTERNAL_ARRANGEMENTS) == 0;
    bool sharing = strcmp(relation, PLN_INTERNAL_SHARING) == 0, fronts = strcmp(relation, PLN_INTERNAL_FRONTIERS) == 0;
    *found = ops || arrs || sharing || fronts;
    if (!*found)
        return true;
    int want = ops ? 7 : arrs ? 9 : sharing ? 6 : 4;
    if (ncols != want)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "the server has no relation \"%s\" of %d columns", relation,
                          ncols);
    eng_t e = {.arena = arena, .ncols = ncols};
    int nworkers = df_workers_count(ws);
    if (fronts) {
        for (int w = 0; w < nworkers; w++) {
            df_worker_status_t s;
            df_workers_status(ws, w, &s);
            ty_datum_t *row = eng_row(&e);
            row[0] = eng_int(w);
            row[1] = eng_int((int64_t)s.epoch);
            row[2] = eng_int((int64_t)s.seq);
            row[3] = eng_int((int64_t)s.index);
        }
    } else if (ops) {
        for (e.worker = 0; e.worker < nworkers; e.worker++)
            df_workers_visit_operators(ws, e.worker, eng_op_cb, &e);
        eng_operators(&e);
    } else {
        /* Sharing is the same on every worker (one graph each): worker 0's is shown. */
        for (e.worker = 0; e.worker < (sharing ? 1 : nworkers); e.worker++) {
            int op0 = e.nops, arr0 = e.narrs;
            df_workers_visit_operators(ws, e.worker, eng_op_cb, &e);
            df_workers_visit_arrangements(ws, e.worker, eng_arr_cb, &e);
            for (int i = arr0; i < e.narrs; i++) {
                const eng_arr_t *a = &e.arrs[i];
                if (sharing) {
                    eng_readers(&e, a, op0, e.nops, true);
                    continue;
                }
                int n = eng_readers(&e, a, op0, e.nops, false);
                ty_datum_t *row = eng_row(&e);
                row[0] = eng_int(e.worker);
                row[1] = eng_int((int64_t)a->dataflow);
                row[2] = eng_text(arena, a->name);
                row[3] = eng_opid(a->operator_id);
                row[4] = eng_text(arena, a->arrangement);
                row[5] = eng_int((int64_t)a->records);
                row[6] = eng_int((int64_t)a->batches);
                row[7] = eng_int((int64_t)a->bytes);
                row[8] = eng_int(n);
            }
        }
    }
    *rows = e.rows ? e.rows : cm_arena_zalloc(arena, sizeof **rows);
    *nrows = e.nrows;
    return true;
}

/* ------------------------------------------------------------ EXPLAIN PHYSICAL PLAN */

typedef struct phys {
    cm_arena_t *arena;
    pln_physical_op_t *ops;
    int n, cap;
} phys_t;

static void phys_op_cb(void *arg, const df_dataflow_t *d, const df_operator_info_t *op)
{
    phys_t *p = arg;
    p->ops = eng_grow(p->arena, p->ops, p->n, &p->cap, sizeof *p->ops);
    pln_physical_op_t *o = &p->ops[p->n++];
    *o = (pln_physical_op_t){.id = op->id, .kind = op->kind,
                             .detail = op->detail ? cm_arena_strdup(p->arena, op->detail) : NULL,
                             .reads = op->reads, .ninputs = op->ninputs};
    memcpy(o->inputs, op->inputs, sizeof o->inputs);
}

static void phys_arr_cb(void *arg, const df_dataflow_t *d, const df_arrangement_info_t *a)
{
    phys_t *p = arg;
    if (a->operator_id < 1 || a->operator_id > p->n)
        return;   /* the result: every view has one */
    pln_physical_op_t *o = &p->ops[a->operator_id - 1];
    if (o->narranged < PLN_PHYSICAL_ARRANGED_MAX)
        o->arranged[o->narranged++] = cm_arena_strdup(p->arena, a->name);
}

bool srv_physical_operators(const plan_t *p, cm_arena_t *arena, pln_physical_op_t **ops, int *nops, cm_err_t *err)
{
    phys_t ph = {.arena = arena};
    if (!df_plan_operators(p, phys_op_cb, phys_arr_cb, &ph, err))
        return false;
    *ops = ph.ops;
    *nops = ph.n;
    return true;
}
