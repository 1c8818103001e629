/*
 * test_dataflow_mviews.c: materialized views on the workers through the real
 * command path (the sequencer on a thread of its own, as in the server), for
 * 1 and 3 workers: a view installed over rows already there is hydrated, each
 * write's changes reach it incrementally (groups appear, change and go; a
 * global aggregate answers one row over none), a view over a view follows,
 * a row failing inside a view puts it in error until the row goes, and a
 * dropped view is gone; outer joins through their retraction edge cases;
 * a recursive view's paths through a cycle when the edge into it goes.
 * Also the exchange on its own: three threads with rings of one chunk, many
 * rounds, every chunk delivered once, in order.
 */
#include "dataflow/df_flow.h"
#include "tests/unit/test_dataflow_rig.h"

static const cat_item_t *commit_mview(tc_t *t, const char *name, const char *create_sql, const cat_column_t *cols,
                                      uint32_t n, cat_id_t dep)
{
    tc_begin(t);
    char nb[64];
    cat_item_def_t def = {.kind = CAT_ITEM_MATVIEW, .name = tc_qname(name, nb, sizeof nb), .create_sql = create_sql,
                          .columns = cols, .ncolumns = n, .deps = &dep, .ndeps = 1};
    UNIT_CHECK(cat_plan_create_item(t->snap, &t->search, &def, false, t->last, &t->err));
    UNIT_CHECK(tc_commit_change(t, t->last, "CREATE MATERIALIZED VIEW") == CAT_STORE_OK);
    return cat_snap_item(t->snap, cat_snap_schema(t->snap, cat_snap_database(t->snap, "eddy"), "public"), name);
}

/* The view's rows as text lines "v1|v2|..." sorted (each repeated by its multiplicity); NULL with sqlstate on error. */
static char *read_view(rig_t *r, const cat_item_t *v, char *sqlstate)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 0);
    cm_err_t err = {0};
    int n = (int)v->ncolumns;
    plan_rel_t *g = cm_arena_zalloc(&arena, sizeof *g);
    g->kind = PLAN_REL_GET;
    g->ncols = n;
    g->types = cm_arena_zalloc(&arena, sizeof(ty_oid_t) * (size_t)n);
    plan_column_t *cols = cm_arena_zalloc(&arena, sizeof(plan_column_t) * (size_t)n);
    for (int i = 0; i < n; i++) {
        g->types[i] = v->columns[i].type;
        cols[i] = (plan_column_t){.name = v->columns[i].name, .type = v->columns[i].type, .typmod = -1};
    }
    g->relname = v->name;
    g->item = v->id;
    g->item_cols = cols;
    plan_t p = {.root = g, .ncols = n, .cols = cols, .reads = true};
    cm_buf_t body;
    cm_buf_init(&body, 0);
    UNIT_CHECK(plan_encode(&p, NULL, &body, &err));
    df_reply_t *rep = submit(r, DF_CMD_PEEK, &body);
    snprintf(sqlstate, 6, "%s", rep->err.set ? rep->err.sqlstate : "");
    char *out = NULL;
    ty_settings_t set;
    ty_settings_default(&set);
    ty_ctx_t ctx = {.arena = &arena, .settings = &set, .err = &err};
    ty_datum_t **rows;
    int nr;
    if (!rep->err.set && df_peek_rows(rep, v->id, g->types, n, &ctx, &rows, &nr)) {
        char **lines = cm_arena_alloc(&arena, sizeof(char *) * (size_t)(nr + 1));
        for (int i = 0; i < nr; i++) {
            cm_buf_t l;
            cm_buf_init(&l, 0);
            for (int c = 0; c < n; c++) {
                if (c)
                    cm_buf_put_u8(&l, '|');
                if (rows[i][c].isnull)
                    cm_buf_put_str(&l, "NULL");
                else
                    UNIT_CHECK(ty_datum_to_text(g->types[c], &rows[i][c], &ctx, &l));
            }
            lines[i] = cm_arena_strndup(&arena, (const char *)l.data, l.len);
            cm_buf_free(&l);
        }
        for (int i = 1; i < nr; i++)
            for (int j = i; j > 0 && strcmp(lines[j - 1], lines[j]) > 0; j--) {
                char *x = lines[j];
                lines[j] = lines[j - 1];
                lines[j - 1] = x;
            }
        cm_buf_t all;
        cm_buf_init(&all, 0);
        for (int i = 0; i < nr; i++)
            cm_buf_printf(&all, "%s\n", lines[i]);
        cm_buf_put_u8(&all, 0);
        out = strdup((const char *)all.data);
        cm_buf_free(&all);
    }
    cm_err_clear(&err);
    df_reply_unref(rep);
    cm_buf_free(&body);
    cm_arena_free(&arena);
    return out;
}

static void check_view(rig_t *r, const cat_item_t *v, const char *want)
{
    char st[6];
    char *got = read_view(r, v, st);
    UNIT_CHECK(got != NULL && strcmp(got, want) == 0);
    if (!got || strcmp(got, want) != 0)
        printf("  %s: got (%s):\n%s  want:\n%s", v->name, st, got ? got : "", want);
    free(got);
}

static void check_view_error(rig_t *r, const cat_item_t *v, const char *sqlstate)
{
    char st[6];
    char *got = read_view(r, v, st);
    UNIT_CHECK(got == NULL && strcmp(st, sqlstate) == 0);
    if (got || strcmp(st, sqlstate) != 0)
        printf("  %s: got (%s):\n%s  want %s\n", v->name, st, got ? got : "", sqlstate);
    free(got);
}

/* What read_view needs of a view, kept in a: a DROP frees the catalog item, and a read after it must not use it. */
static const cat_item_t *item_keep(cm_arena_t *a, const cat_item_t *v)
{
    cat_item_t *k = cm_arena_alloc(a, sizeof *k);
    *k = *v;
    k->name = cm_arena_strdup(a, v->name);
    cat_column_t *cols = cm_arena_alloc(a, sizeof *cols * (v->ncolumns ? v->ncolumns : 1));
    for (uint32_t i = 0; i < v->ncolumns; i++) {
        cols[i] = v->columns[i];
        cols[i].name = cm_arena_strdup(a, v->columns[i].name);
    }
    k->columns = cols;
    return k;
}

static void views_on_workers(int workers)
{
    tc_t t;
    tc_init(&t);
    static const cat_column_t kc[] = {{.name = "a", .type = TY_INT4, .typmod = -1, .not_null = true},
                                      {.name = "b", .type = TY_TEXT, .typmod = -1}};
    const cat_item_t *k = commit_table(&t, "k", "CREATE TABLE eddy.public.k (a int4 PRIMARY KEY, b text)", kc, 2);
    uint64_t kid = k->id;
    rig_t r;
    UNIT_CHECK(rig_start(&r, &t, workers));
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    char st[6], detail[256];
    static const int a1[] = {1, 2, 3, 4, 5, 6};
    static const char *const b1[] = {"x", "y", "x", "z", "x", "y"};
    write_rows(&r, kid, "k_pkey", a1, b1, NULL, 6, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    /* Installed over rows already there: hydrated. */
    static const cat_column_t gc[] = {{.name = "b", .type = TY_TEXT, .typmod = -1},
                                      {.name = "n", .type = TY_INT8, .typmod = -1},
                                      {.name = "s", .type = TY_INT8, .typmod = -1}};
    const cat_item_t *g = commit_mview(&t, "g", "CREATE MATERIALIZED VIEW eddy.public.g AS SELECT b, count(*) AS n, "
                                       "sum(a) AS s FROM eddy.public.k GROUP BY b", gc, 3, kid);
    static const cat_column_t mc[] = {{.name = "b", .type = TY_TEXT, .typmod = -1},
                                      {.name = "mx", .type = TY_INT4, .typmod = -1}};
    const cat_item_t *m = commit_mview(&t, "m", "CREATE MATERIALIZED VIEW eddy.public.m AS SELECT b, max(a) AS mx "
                                       "FROM eddy.public.k GROUP BY b", mc, 2, kid);
    static const cat_column_t oc[] = {{.name = "c", .type = TY_INT8, .typmod = -1},
                                      {.name = "s", .type = TY_INT8, .typmod = -1}};
    const cat_item_t *o = commit_mview(&t, "o", "CREATE MATERIALIZED VIEW eddy.public.o AS SELECT count(*) AS c, "
                                       "sum(a) AS s FROM eddy.public.k WHERE a > 100", oc, 2, kid);
    static const cat_column_t qc[] = {{.name = "b", .type = TY_TEXT, .typmod = -1},
                                      {.name = "q", .type = TY_INT4, .typmod = -1}};
    const cat_item_t *q = commit_mview(&t, "q", "CREATE MATERIALIZED VIEW eddy.public.q AS SELECT b, 12 / (a - 7) AS q "
                                       "FROM eddy.public.k", qc, 2, kid);
    static const cat_column_t nc[] = {{.name = "b", .type = TY_TEXT, .typmod = -1},
                                      {.name = "n2", .type = TY_INT8, .typmod = -1}};
    const cat_item_t *nv = commit_mview(&t, "nv", "CREATE MATERIALIZED VIEW eddy.public.nv AS SELECT b, n * 2 AS n2 "
                                        "FROM eddy.public.g WHERE n > 1", nc, 2, g->id);
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    check_view(&r, g, "x|3|9\ny|2|8\nz|1|4\n");
    check_view(&r, m, "x|5\ny|6\nz|4\n");
    check_view(&r, o, "0|NULL\n");
    check_view(&r, q, "x|-2\nx|-3\nx|-6\ny|-12\ny|-2\nz|-4\n");
    check_view(&r, nv, "x|6\ny|4\n");
    /* Changes: an insert into a new group, a delete emptying one, an update moving a row. */
    static const int a2[] = {7, 4, 2, 2, 200};
    static const char *const b2[] = {"w", "z", "y", "x", "w"};
    static const int64_t d2[] = {1, -1, -1, 1, 1};
    write_rows(&r, kid, "k_pkey", a2, b2, d2, 5, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_view(&r, g, "w|2|207\nx|4|11\ny|1|6\n");
    check_view(&r, m, "w|200\nx|5\ny|6\n");
    check_view(&r, o, "1|200\n");
    check_view(&r, nv, "w|4\nx|8\n");
    /* a = 7 divides by zero inside q: q answers 22012 until the row goes; the others go on. */
    check_view_error(&r, q, "22012");
    static const int a3[] = {7};
    static const char *const b3[] = {"w"};
    static const int64_t d3[] = {-1};
    write_rows(&r, kid, "k_pkey", a3, b3, d3, 1, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_view(&r, q, "w|0\nx|-2\nx|-2\nx|-3\nx|-6\ny|-12\n");
    check_view(&r, g, "w|1|200\nx|4|11\ny|1|6\n");
    /* A failing write changes no view. */
    static const int a4[] = {9, 1};
    static const char *const b4[] = {"v", "again"};
    write_rows(&r, kid, "k_pkey", a4, b4, NULL, 2, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "23505") == 0);
    check_view(&r, g, "w|1|200\nx|4|11\ny|1|6\n");
    /* Dropped: its state goes, and a read of it is refused. */
    cm_arena_t kept;
    cm_arena_init(&kept, 0);
    nv = item_keep(&kept, nv);
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_MATVIEW, "nv", false, false));
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    check_view_error(&r, nv, "0A000");
    check_view(&r, g, "w|1|200\nx|4|11\ny|1|6\n");
    cm_arena_free(&kept);
    rig_stop(&r);
    tc_free(&t);
}

static void views_one_worker(void) { views_on_workers(1); }
static void views_three_workers(void) { views_on_workers(3); }

/*
 * Outer joins under retraction: a row of the preserved side is NULL-extended
 * while it has no match, loses that row at its first match, keeps one row per
 * match, and gets it back when its last match goes; a NULL key never matches;
 * a pair failing the rest of ON is no match.
 */
static void outer_joins_on_workers(int workers)
{
    tc_t t;
    tc_init(&t);
    static const cat_column_t kc[] = {{.name = "a", .type = TY_INT4, .typmod = -1, .not_null = true},
                                      {.name = "b", .type = TY_TEXT, .typmod = -1}};
    uint64_t kid = commit_table(&t, "k", "CREATE TABLE eddy.public.k (a int4 PRIMARY KEY, b text)", kc, 2)->id;
    uint64_t lid = commit_table(&t, "l", "CREATE TABLE eddy.public.l (a int4 PRIMARY KEY, b text)", kc, 2)->id;
    rig_t r;
    UNIT_CHECK(rig_start(&r, &t, workers));
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    char st[6], detail[256];
    static const int a1[] = {1, 2, 3};
    static const char *const b1[] = {"x", "y", NULL};
    write_rows(&r, kid, "k_pkey", a1, b1, NULL, 3, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    static const cat_column_t jc[] = {{.name = "a", .type = TY_INT4, .typmod = -1},
                                      {.name = "b", .type = TY_TEXT, .typmod = -1},
                                      {.name = "la", .type = TY_INT4, .typmod = -1}};
    const cat_item_t *lj = commit_mview(&t, "lj", "CREATE MATERIALIZED VIEW eddy.public.lj AS SELECT k.a, k.b, l.a AS la "
                                        "FROM eddy.public.k LEFT JOIN eddy.public.l ON k.b = l.b", jc, 3, kid);
    static const cat_column_t fc[] = {{.name = "a", .type = TY_INT4, .typmod = -1},
                                      {.name = "la", .type = TY_INT4, .typmod = -1}};
    const cat_item_t *fj = commit_mview(&t, "fj", "CREATE MATERIALIZED VIEW eddy.public.fj AS SELECT k.a, l.a AS la "
                                        "FROM eddy.public.k FULL JOIN eddy.public.l ON k.b = l.b AND k.a < l.a",
                                        fc, 2, lid);
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    check_view(&r, lj, "1|x|NULL\n2|y|NULL\n3|NULL|NULL\n");
    check_view(&r, fj, "1|NULL\n2|NULL\n3|NULL\n");
    /* A first match, and a NULL key on the right that matches the NULL on the left no more than anything. */
    static const int a2[] = {10, 13};
    static const char *const b2[] = {"x", NULL};
    write_rows(&r, lid, "l_pkey", a2, b2, NULL, 2, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_view(&r, lj, "1|x|10\n2|y|NULL\n3|NULL|NULL\n");
    check_view(&r, fj, "1|10\n2|NULL\n3|NULL\nNULL|13\n");
    /* A second match; and one that fails k.a < l.a: no match in fj, both sides NULL-extended. */
    static const int a3[] = {11, 0};
    static const char *const b3[] = {"x", "y"};
    write_rows(&r, lid, "l_pkey", a3, b3, NULL, 2, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_view(&r, lj, "1|x|10\n1|x|11\n2|y|0\n3|NULL|NULL\n");
    check_view(&r, fj, "1|10\n1|11\n2|NULL\n3|NULL\nNULL|0\nNULL|13\n");
    /* One match goes, then the last: the NULL-extended row comes back. */
    static const int a4[] = {10};
    static const char *const b4[] = {"x"};
    static const int64_t minus[] = {-1, -1};
    write_rows(&r, lid, "l_pkey", a4, b4, minus, 1, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_view(&r, lj, "1|x|11\n2|y|0\n3|NULL|NULL\n");
    static const int a5[] = {11, 0};
    write_rows(&r, lid, "l_pkey", a5, b3, minus, 2, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_view(&r, lj, "1|x|NULL\n2|y|NULL\n3|NULL|NULL\n");
    check_view(&r, fj, "1|NULL\n2|NULL\n3|NULL\nNULL|13\n");
    /* The preserved side's own changes: a row moves from a matched key to an unmatched one. */
    static const int a6[] = {20, 1, 1};
    static const char *const b6[] = {"q", "x", "q"};
    static const int64_t d6[] = {1, -1, 1};
    write_rows(&r, lid, "l_pkey", a6, b6, NULL, 1, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    write_rows(&r, kid, "k_pkey", a6 + 1, b6 + 1, d6 + 1, 2, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_view(&r, lj, "1|q|20\n2|y|NULL\n3|NULL|NULL\n");
    check_view(&r, fj, "1|20\n2|NULL\n3|NULL\nNULL|13\n");
    /* Dropped: the join's arrangements go with it; the other view goes on. */
    cm_arena_t kept;
    cm_arena_init(&kept, 0);
    lj = item_keep(&kept, lj);
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_MATVIEW, "lj", false, false));
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    check_view_error(&r, lj, "0A000");
    check_view(&r, fj, "1|20\n2|NULL\n3|NULL\nNULL|13\n");
    cm_arena_free(&kept);
    rig_stop(&r);
    tc_free(&t);
}

static void outer_joins_one_worker(void) { outer_joins_on_workers(1); }
static void outer_joins_three_workers(void) { outer_joins_on_workers(3); }

/*
 * WITH RECURSIVE ... UNION under retraction: the transitive closure of
 * edges a -> b. When the edge into a cycle goes, the paths through the
 * cycle derive one another still, and only a recomputation drops them;
 * an edge added back or elsewhere is followed incrementally.
 */
static void recursion_on_workers(int workers)
{
    tc_t t;
    tc_init(&t);
    static const cat_column_t ec[] = {{.name = "a", .type = TY_INT4, .typmod = -1, .not_null = true},
                                      {.name = "b", .type = TY_TEXT, .typmod = -1}};
    uint64_t eid = commit_table(&t, "e", "CREATE TABLE eddy.public.e (a int4 PRIMARY KEY, b text)", ec, 2)->id;
    rig_t r;
    UNIT_CHECK(rig_start(&r, &t, workers));
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    char st[6], detail[256];
    static const int a1[] = {1, 2, 3};
    static const char *const b1[] = {"2", "3", "2"};
    write_rows(&r, eid, "e_pkey", a1, b1, NULL, 3, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    static const cat_column_t rc[] = {{.name = "s", .type = TY_INT4, .typmod = -1},
                                      {.name = "d", .type = TY_INT4, .typmod = -1}};
    const cat_item_t *tcv = commit_mview(&t, "tc", "CREATE MATERIALIZED VIEW eddy.public.tc AS WITH RECURSIVE "
                                         "r(s, d) AS (SELECT a, b::int4 FROM eddy.public.e UNION SELECT r.s, e.b::int4 "
                                         "FROM r JOIN eddy.public.e ON r.d = e.a) SELECT s, d FROM r", rc, 2, eid);
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    check_view(&r, tcv, "1|2\n1|3\n2|2\n2|3\n3|2\n3|3\n");
    /* The edge into the cycle goes: (1, 2) and (1, 3) would still derive each other. */
    static const int64_t minus[] = {-1};
    write_rows(&r, eid, "e_pkey", a1, b1, minus, 1, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_view(&r, tcv, "2|2\n2|3\n3|2\n3|3\n");
    /* New edges: 4 -> 1 -> 3, followed from what is there. */
    static const int a2[] = {4, 1};
    static const char *const b2[] = {"1", "3"};
    write_rows(&r, eid, "e_pkey", a2, b2, NULL, 2, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_view(&r, tcv, "1|2\n1|3\n2|2\n2|3\n3|2\n3|3\n4|1\n4|2\n4|3\n");
    /* The cycle opens (3 -> 2 goes): what went through it goes, the rest stays. */
    write_rows(&r, eid, "e_pkey", a1 + 2, b1 + 2, minus, 1, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_view(&r, tcv, "1|3\n2|3\n4|1\n4|3\n");
    rig_stop(&r);
    tc_free(&t);
}

static void recursion_one_worker(void) { recursion_on_workers(1); }
static void recursion_three_workers(void) { recursion_on_workers(3); }

/* ------------------------------------------------------------ the exchange alone */

#define XW 3
#define XROUNDS 300

typedef struct xarg {
    df_exchange_t *x;
    int w;
    int bad;
} xarg_t;

static df_batch_t *xbatch(int round, int from, int to)
{
    df_builder_t bl;
    df__builder_init(&bl);
    char k[32];
    int n = snprintf(k, sizeof k, "%d/%d/%d", round, from, to);
    df__builder_add(&bl, k, (size_t)n, "", 0, 1);
    df_batch_t *b = df__builder_finish(&bl, (uint64_t)round, (uint64_t)round + 1);
    df__builder_free(&bl);
    return b;
}

static void xthread(void *p)
{
    xarg_t *a = p;
    for (int round = 0; round < XROUNDS; round++) {
        df_batch_t *out[XW], *in[XW];
        for (int j = 0; j < XW; j++)
            out[j] = (round + j) % 4 == 0 ? NULL : xbatch(round, a->w, j);   /* some peers get nothing */
        if (!df__xchg_round(a->x, a->w, out, in)) {
            a->bad++;
            return;
        }
        for (int i = 0; i < XW; i++) {
            bool want = (round + a->w) % 4 != 0;
            char k[32];
            int n = snprintf(k, sizeof k, "%d/%d/%d", round, i, a->w);
            size_t len = 0;
            const uint8_t *got = in[i] && in[i]->nkeys == 1 ? df__batch_key(in[i], 0, &len) : NULL;
            if (want != (in[i] != NULL) || (want && (!got || len != (size_t)n || memcmp(got, k, len) != 0)))
                a->bad++;
            df__batch_unref(in[i]);
        }
        if (a->w == 1 && round % 50 == 0)
            usleep(2000);   /* a slow worker: the others wait in the round, sleeping */
    }
}

static void exchange_rounds(void)
{
    df_exchange_t *x = df__xchg_new(XW, 1);
    xarg_t args[XW];
    uv_thread_t th[XW];
    for (int i = 0; i < XW; i++) {
        args[i] = (xarg_t){.x = x, .w = i};
        uv_thread_create(&th[i], xthread, &args[i]);
    }
    for (int i = 0; i < XW; i++) {
        uv_thread_join(&th[i]);
        UNIT_CHECK(args[i].bad == 0);
    }
    df__xchg_free(x);
}

int main(void)
{
    cm_log_level = CM_LOG_ERROR;
    UNIT_RUN(views_one_worker);
    UNIT_RUN(views_three_workers);
    UNIT_RUN(outer_joins_one_worker);
    UNIT_RUN(outer_joins_three_workers);
    UNIT_RUN(recursion_one_worker);
    UNIT_RUN(recursion_three_workers);
    UNIT_RUN(exchange_rounds);
    UNIT_EXIT();
}
