/*
 * test_dataflow_tables.c: tables on the workers through the real command
 * path: the sequencer (on a thread of its own, as in the server) numbers
 * Writes and Peeks after the tables' CREATE entries, every worker applies
 * the rows of its shards, a Peek gathers every shard's rows (a lookup only
 * its keys' rows, from the worker owning each), a key
 * constraint is checked where the key lives, a removed row must be there
 * (40001), a write of several tables' parts (perhaps with a TRUNCATE)
 * applies at one step, and a write that fails changes nothing on any shard.
 */
#include "tests/unit/test_dataflow_rig.h"

/* One part of a multi-part write: rows (a int4[, b text]) with diffs. */
typedef struct part {
    uint64_t table;
    const char *constraint;
    bool truncate;
    int ncols, n;
    const int *a;
    const char *const *b;
    const int64_t *diffs;
} part_t;

/* Writes the parts as one command; returns the reply's SQLSTATE ("" when it succeeded) in sqlstate. */
static void write_parts(rig_t *r, const part_t *parts, int nparts, char *sqlstate)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 0);
    cm_err_t err = {0};
    ty_settings_t set;
    ty_settings_default(&set);
    ty_ctx_t ctx = {.arena = &arena, .settings = &set, .err = &err};
    cm_buf_t body;
    cm_buf_init(&body, 0);
    df_write_begin(&body, false, (uint32_t)nparts);
    for (int p = 0; p < nparts; p++) {
        const part_t *q = &parts[p];
        ty_datum_t **rows = cm_arena_alloc(&arena, sizeof *rows * (size_t)(q->n ? q->n : 1));
        for (int i = 0; i < q->n; i++) {
            rows[i] = cm_arena_zalloc(&arena, sizeof(ty_datum_t) * 2);
            rows[i][0].v.i = q->a[i];
            if (q->ncols > 1) {
                rows[i][1].v.s.p = q->b[i];
                rows[i][1].v.s.len = (uint32_t)strlen(q->b[i]);
            }
        }
        UNIT_CHECK(df_write_add_part(&body, q->table, q->constraint, q->truncate, kt, q->ncols, rows, q->diffs, q->n,
                                     &ctx));
    }
    df_reply_t *rep = submit(r, DF_CMD_WRITE, &body);
    snprintf(sqlstate, 6, "%s", rep->err.set ? rep->err.sqlstate : "");
    df_reply_unref(rep);
    cm_buf_free(&body);
    cm_arena_free(&arena);
}

/* The rows of the table as "a|b" lines, sorted; NULL with the error's SQLSTATE in sqlstate. With
 * nkeys >= 0, only the rows of those keys of a (a lookup); shipped: the rows the workers' answers held. */
static char *read_rows_keyed(rig_t *r, const cat_item_t *table, int ncols, const int *keys, int nkeys,
                             char *sqlstate, int64_t *shipped)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 0);
    cm_err_t err = {0};
    plan_t *p = NULL;
    cm_buf_t body;
    cm_buf_init(&body, 0);
    ty_settings_t set;
    ty_settings_default(&set);
    ty_ctx_t ctx = {.arena = &arena, .settings = &set, .err = &err};
    if (nkeys >= 0) {
        ty_datum_t **krows = cm_arena_alloc(&arena, sizeof *krows * (size_t)(nkeys ? nkeys : 1));
        for (int i = 0; i < nkeys; i++) {
            krows[i] = cm_arena_zalloc(&arena, sizeof(ty_datum_t) * 2);
            krows[i][0].v.i = keys[i];
            krows[i][1].isnull = true;
        }
        df_peek_lookups_begin(&body, 1);
        UNIT_CHECK(df_peek_lookup_add(&body, table->id, kt, ncols, krows, nkeys, &ctx));
    }
    UNIT_CHECK(pln_plan_table(&arena, table, &p, &err) && plan_encode(p, NULL, &body, &err));
    df_reply_t *rep = submit(r, DF_CMD_PEEK, &body);
    char *out = NULL;
    snprintf(sqlstate, 6, "%s", rep->err.set ? rep->err.sqlstate : "");
    if (shipped) {
        *shipped = 0;
        for (int w = 0; w < rep->nworkers; w++)
            *shipped += rep->parts[w].count;
    }
    ty_datum_t **rows;
    int n;
    if (!rep->err.set && df_peek_rows(rep, table->id, kt, ncols, &ctx, &rows, &n)) {
        char **lines = cm_arena_alloc(&arena, sizeof(char *) * (size_t)(n + 1));
        for (int i = 0; i < n; i++)
            lines[i] = cm_arena_printf(&arena, "%lld|%.*s", (long long)rows[i][0].v.i,
                                       ncols > 1 ? (int)rows[i][1].v.s.len : 0, ncols > 1 ? rows[i][1].v.s.p : "");
        for (int i = 1; i < n; i++)   /* insertion sort: a handful of rows */
            for (int j = i; j > 0 && strcmp(lines[j - 1], lines[j]) > 0; j--) {
                char *x = lines[j];
                lines[j] = lines[j - 1];
                lines[j - 1] = x;
            }
        cm_buf_t all;
        cm_buf_init(&all, 0);
        for (int i = 0; i < n; i++)
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

static char *read_rows(rig_t *r, const cat_item_t *table, int ncols, char *sqlstate)
{
    return read_rows_keyed(r, table, ncols, NULL, -1, sqlstate, NULL);
}

/* A lookup answers only its keys' rows: the workers ship no others. */
static void check_lookup(rig_t *r, const cat_item_t *table, const int *keys, int nkeys, const char *want,
                         int64_t want_shipped)
{
    char st[6];
    int64_t shipped = -1;
    char *got = read_rows_keyed(r, table, 2, keys, nkeys, st, &shipped);
    UNIT_CHECK(got != NULL && strcmp(got, want) == 0);
    UNIT_CHECK(shipped == want_shipped);
    if (!got || strcmp(got, want) != 0 || shipped != want_shipped)
        printf("  got (%lld shipped):\n%s  want (%lld):\n%s", (long long)shipped, got ? got : "", (long long)want_shipped,
               want);
    free(got);
}

static void check_rows(rig_t *r, const cat_item_t *table, int ncols, const char *want)
{
    char st[6];
    char *got = read_rows(r, table, ncols, st);
    UNIT_CHECK(got != NULL && strcmp(got, want) == 0);
    if (got && strcmp(got, want) != 0)
        printf("  got:\n%s  want:\n%s", got, want);
    free(got);
}

static void tables_on_workers(int workers)
{
    tc_t t;
    tc_init(&t);
    static const cat_column_t kc[] = {{.name = "a", .type = TY_INT4, .typmod = -1, .not_null = true},
                                      {.name = "b", .type = TY_TEXT, .typmod = -1}};
    const cat_item_t *k = commit_table(&t, "k", "CREATE TABLE eddy.public.k (a int4 PRIMARY KEY, b text)", kc, 2);
    uint64_t kid = k->id;
    static const cat_column_t mc[] = {{.name = "a", .type = TY_INT4, .typmod = -1}};
    const cat_item_t *m = commit_table(&t, "m", "CREATE TABLE eddy.public.m (a int4)", mc, 1);
    rig_t r;
    UNIT_CHECK(rig_start(&r, &t, workers));
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    char st[6], detail[256];
    static const int a1[] = {1, 2, 3, 4, 5, 6};
    static const char *const b1[] = {"x", "y", "z", "u", "v", "w"};
    write_rows(&r, kid, "k_pkey", a1, b1, NULL, 6, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_rows(&r, k, 2, "1|x\n2|y\n3|z\n4|u\n5|v\n6|w\n");
    static const int look[] = {5, 2, 99, 5};
    check_lookup(&r, k, look, 4, "2|y\n5|v\n", 2);
    check_lookup(&r, k, look + 2, 1, "", 0);
    check_lookup(&r, k, look, 0, "", 0);
    /* A key that is there already: 23505 with PostgreSQL's detail, and nothing of the write applied. */
    static const int a2[] = {7, 8, 9, 2, 10};
    static const char *const b2[] = {"n", "n", "n", "again", "n"};
    write_rows(&r, kid, "k_pkey", a2, b2, NULL, 5, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "23505") == 0 && strcmp(detail, "Key (a)=(2) already exists.") == 0);
    check_rows(&r, k, 2, "1|x\n2|y\n3|z\n4|u\n5|v\n6|w\n");
    /* A key twice in one write. */
    static const int a3[] = {11, 11};
    static const char *const b3[] = {"p", "q"};
    write_rows(&r, kid, "k_pkey", a3, b3, NULL, 2, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "23505") == 0 && strcmp(detail, "Key (a)=(11) already exists.") == 0);
    /* A delete and an insert of the same key in one write (an UPDATE of b) keep the key unique. */
    static const int a4[] = {2, 2, 1};
    static const char *const b4[] = {"y", "yy", "x"};
    static const int64_t d4[] = {-1, 1, -1};
    write_rows(&r, kid, "k_pkey", a4, b4, d4, 3, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_rows(&r, k, 2, "2|yy\n3|z\n4|u\n5|v\n6|w\n");
    /* Without a key a table is a multiset. */
    static const int a5[] = {7, 7, 8};
    write_rows(&r, m->id, NULL, a5, NULL, NULL, 3, 1, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_rows(&r, m, 1, "7|\n7|\n8|\n");
    /* A write removing a row that is not there (another session changed it since it was read)
     * is 40001, and nothing of it applies on any shard. */
    static const int a6[] = {3, 3, 12};
    static const char *const b6[] = {"zz", "z2", "n"};
    static const int64_t d6[] = {-1, 1, 1};
    write_rows(&r, kid, "k_pkey", a6, b6, d6, 3, 2, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "40001") == 0);
    check_rows(&r, k, 2, "2|yy\n3|z\n4|u\n5|v\n6|w\n");
    /* Two copies removed where the table holds one: 40001 too. */
    static const int a7[] = {8, 8};
    static const int64_t d7[] = {-1, -1};
    write_rows(&r, m->id, NULL, a7, NULL, d7, 2, 1, st, detail, sizeof detail);
    UNIT_CHECK(strcmp(st, "40001") == 0);
    check_rows(&r, m, 1, "7|\n7|\n8|\n");
    /* Parts of several tables apply together, or (one part failing) not at all. */
    static const int a8[] = {20}, a9[] = {7}, a10[] = {9};
    static const char *const b8[] = {"t"};
    static const int64_t minus[] = {-1};
    part_t both[] = {{.table = kid, .constraint = "k_pkey", .ncols = 2, .n = 1, .a = a8, .b = b8},
                     {.table = m->id, .ncols = 1, .n = 1, .a = a9, .diffs = minus}};
    write_parts(&r, both, 2, st);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_rows(&r, k, 2, "20|t\n2|yy\n3|z\n4|u\n5|v\n6|w\n");
    check_rows(&r, m, 1, "7|\n8|\n");
    part_t failing[] = {{.table = kid, .constraint = "k_pkey", .ncols = 2, .n = 1, .a = a1, .b = b1},
                        {.table = m->id, .ncols = 1, .n = 1, .a = a10, .diffs = minus}};
    write_parts(&r, failing, 2, st);
    UNIT_CHECK(strcmp(st, "40001") == 0);
    check_rows(&r, k, 2, "20|t\n2|yy\n3|z\n4|u\n5|v\n6|w\n");
    /* A TRUNCATE part empties the table first, on every shard; a key the table held is free again. */
    static const int a11[] = {2, 30};
    static const char *const b11[] = {"new", "n"};
    part_t trunc[] = {{.table = kid, .constraint = "k_pkey", .truncate = true, .ncols = 2, .n = 2, .a = a11, .b = b11},
                      {.table = m->id, .truncate = true, .ncols = 1}};
    write_parts(&r, trunc, 2, st);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_rows(&r, k, 2, "2|new\n30|n\n");
    check_rows(&r, m, 1, "");
    /* Dropped: its shards go, and a read of it is refused. The read's plan is made
     * before the drop: the catalog item it comes from is freed with the drop. */
    cm_arena_t ga;
    cm_arena_init(&ga, 0);
    cm_err_t gerr = {0};
    plan_t *gp = NULL;
    cm_buf_t gbody;
    cm_buf_init(&gbody, 0);
    UNIT_CHECK(pln_plan_table(&ga, k, &gp, &gerr) && plan_encode(gp, NULL, &gbody, &gerr));
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_TABLE, "k", false, false));
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    df_reply_t *gone = submit(&r, DF_CMD_PEEK, &gbody);
    UNIT_CHECK(gone->err.set && strcmp(gone->err.sqlstate, "0A000") == 0);
    df_reply_unref(gone);
    cm_buf_free(&gbody);
    cm_arena_free(&ga);
    rig_stop(&r);
    tc_free(&t);
}

/* A sharded part of rows (a int4[, b text]) for nshards workers; cut drops that many bytes from its end. */
static void write_sharded(rig_t *r, uint64_t table, const int *a, const char *const *b, int n, int ncols, int nshards,
                          size_t cut, char *sqlstate)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 0);
    cm_err_t err = {0};
    ty_settings_t set;
    ty_settings_default(&set);
    ty_ctx_t ctx = {.arena = &arena, .settings = &set, .err = &err};
    /* Two writers, as a COPY's chunks parsed on two threads: rows alternate between them. */
    df_write_shards_t *s[2] = {df_write_shards_new(table, kt, ncols, nshards),
                               df_write_shards_new(table, kt, ncols, nshards)};
    for (int i = 0; i < n; i++) {
        ty_datum_t row[2];
        memset(row, 0, sizeof row);
        row[0].v.i = a[i];
        if (ncols > 1) {
            row[1].v.s.p = b[i];
            row[1].v.s.len = (uint32_t)strlen(b[i]);
        }
        UNIT_CHECK(df_write_shards_row(s[i % 2], row, &ctx));
    }
    UNIT_CHECK(df_write_shards_count(s[0]) + df_write_shards_count(s[1]) == (uint32_t)n);
    cm_buf_t body;
    cm_buf_init(&body, 0);
    df_write_begin(&body, false, 1);
    UNIT_CHECK(df_write_shards_end(s, 2, &body, &err));
    body.len -= cut;
    df_reply_t *rep = submit(r, DF_CMD_WRITE, &body);
    snprintf(sqlstate, 6, "%s", rep->err.set ? rep->err.sqlstate : "");
    df_reply_unref(rep);
    cm_buf_free(&body);
    df_write_shards_free(s[0]);
    df_write_shards_free(s[1]);
    cm_arena_free(&arena);
}

#define LONG_TEXT "a text long enough that its row takes more than 127 bytes, so that the row's length " \
                  "in the section is a varint of two bytes, not one........................."

/* COPY's sharded parts: each worker keeps its own section's rows; sections made for another
 * number of workers, or rows of a table with a key, are sorted out row by row as a plain part's
 * are; a cut section is refused and changes nothing. */
static void sharded_on_workers(int workers)
{
    tc_t t;
    tc_init(&t);
    static const cat_column_t kc[] = {{.name = "a", .type = TY_INT4, .typmod = -1, .not_null = true},
                                      {.name = "b", .type = TY_TEXT, .typmod = -1}};
    const cat_item_t *k = commit_table(&t, "k", "CREATE TABLE eddy.public.k (a int4 PRIMARY KEY, b text)", kc, 2);
    static const cat_column_t mc[] = {{.name = "a", .type = TY_INT4, .typmod = -1},
                                      {.name = "b", .type = TY_TEXT, .typmod = -1}};
    const cat_item_t *m = commit_table(&t, "m", "CREATE TABLE eddy.public.m (a int4, b text)", mc, 2);
    rig_t r;
    UNIT_CHECK(rig_start(&r, &t, workers));
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    char st[6];
    static const int a1[] = {5, 1, 3, 1, 200, -7, 4, 2};
    static const char *const b1[] = {"e", "a", "c", "a", LONG_TEXT, "neg", "d", "b"};
    const char *want1 = "-7|neg\n1|a\n1|a\n200|" LONG_TEXT "\n2|b\n3|c\n4|d\n5|e\n";
    write_sharded(&r, m->id, a1, b1, 8, 2, workers, 0, st);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_rows(&r, m, 2, want1);
    /* Made for one more worker than there are: every worker reads every section. */
    static const int a2[] = {9, 8};
    static const char *const b2[] = {"i", "h"};
    write_sharded(&r, m->id, a2, b2, 2, 2, workers + 1, 0, st);
    UNIT_CHECK(strcmp(st, "") == 0);
    char want2[512];
    snprintf(want2, sizeof want2, "%s8|h\n9|i\n", want1);
    check_rows(&r, m, 2, want2);
    /* Cut short: XX001 and nothing applied. */
    write_sharded(&r, m->id, a2, b2, 2, 2, workers, 3, st);
    UNIT_CHECK(strcmp(st, "XX001") == 0);
    check_rows(&r, m, 2, want2);
    /* In order, with rows twice and thrice (a section in order is its batch as it is). */
    static const int a5[] = {10, 10, 11, 12, 12, 12, 13};
    static const char *const b5[] = {"s", "s", "s", "s", "s", "s", "t"};
    write_sharded(&r, m->id, a5, b5, 7, 2, workers, 0, st);
    UNIT_CHECK(strcmp(st, "") == 0);
    char want3[640];
    snprintf(want3, sizeof want3, "-7|neg\n10|s\n10|s\n11|s\n12|s\n12|s\n12|s\n13|t\n1|a\n1|a\n%s",
             want2 + strlen("-7|neg\n1|a\n1|a\n"));
    check_rows(&r, m, 2, want3);
    /* Into a table with a key: each worker finds its rows by the table's key, which is checked. */
    static const int a3[] = {1, 2, 3};
    static const char *const b3[] = {"x", "y", "z"};
    write_sharded(&r, k->id, a3, b3, 3, 2, workers, 0, st);
    UNIT_CHECK(strcmp(st, "") == 0);
    check_rows(&r, k, 2, "1|x\n2|y\n3|z\n");
    static const int a4[] = {4, 2};
    static const char *const b4[] = {"u", "again"};
    write_sharded(&r, k->id, a4, b4, 2, 2, workers, 0, st);
    UNIT_CHECK(strcmp(st, "23505") == 0);
    check_rows(&r, k, 2, "1|x\n2|y\n3|z\n");
    rig_stop(&r);
    tc_free(&t);
}

static void sharded_one_worker(void) { sharded_on_workers(1); }
static void sharded_three_workers(void) { sharded_on_workers(3); }

/* Rows of integers take the sharded writer's short way: their keys and bytes must be the ones a
 * plain part makes, so a plain part removes exactly them (40001 otherwise), NULLs or not. */
static void sharded_ints_on_workers(int workers)
{
    tc_t t;
    tc_init(&t);
    static const cat_column_t ic[] = {{.name = "a", .type = TY_INT4, .typmod = -1},
                                      {.name = "b", .type = TY_INT8, .typmod = -1}};
    const cat_item_t *it = commit_table(&t, "i", "CREATE TABLE eddy.public.i (a int4, b int8)", ic, 2);
    rig_t r;
    UNIT_CHECK(rig_start(&r, &t, workers));
    UNIT_CHECK(wait_applied(&r, cat_snap_index(t.snap)));
    static const ty_oid_t types[] = {TY_INT4, TY_INT8};
    static const int64_t as[] = {0, 1, -1, 127, -128, 255, 256, 65535, -65536, 2147483647, -2147483647 - 1, 5};
    static const int64_t bs[] = {0, -1, 1, INT64_MAX, INT64_MIN, 1000, -1000, 1LL << 40, -(1LL << 40), 7, 8, 0};
    enum { N = 12 };
    cm_arena_t arena;
    cm_arena_init(&arena, 0);
    cm_err_t err = {0};
    ty_settings_t set;
    ty_settings_default(&set);
    ty_ctx_t ctx = {.arena = &arena, .settings = &set, .err = &err};
    ty_datum_t **rows = cm_arena_alloc(&arena, sizeof *rows * N);
    int64_t minus[N];
    df_write_shards_t *s = df_write_shards_new(it->id, types, 2, workers);
    for (int i = 0; i < N; i++) {
        rows[i] = cm_arena_zalloc(&arena, sizeof(ty_datum_t) * 2);
        rows[i][0].v.i = as[i];
        rows[i][1].v.i = bs[i];
        rows[i][1].isnull = i == N - 1;   /* one row with a NULL: the general way */
        minus[i] = -1;
        UNIT_CHECK(df_write_shards_row(s, rows[i], &ctx));
    }
    cm_buf_t body;
    cm_buf_init(&body, 0);
    df_write_begin(&body, false, 1);
    UNIT_CHECK(df_write_shards_end(&s, 1, &body, &err));
    df_reply_t *rep = submit(&r, DF_CMD_WRITE, &body);
    UNIT_CHECK(!rep->err.set && rep->parts[0].count >= 0);
    int64_t count = 0;
    for (int w = 0; w < rep->nworkers; w++)
        count += rep->parts[w].count;
    UNIT_CHECK(count == N);
    df_reply_unref(rep);
    cm_buf_reset(&body);
    UNIT_CHECK(df_write_encode(it->id, NULL, false, types, 2, rows, minus, N, &ctx, &body));
    rep = submit(&r, DF_CMD_WRITE, &body);
    UNIT_CHECK(!rep->err.set);
    if (rep->err.set)
        printf("  removing the rows: %s %s\n", rep->err.sqlstate, rep->err.message);
    df_reply_unref(rep);
    char st[6];
    char *left = read_rows(&r, it, 1, st);
    UNIT_CHECK(left != NULL && strcmp(left, "") == 0);
    free(left);
    cm_buf_free(&body);
    df_write_shards_free(s);
    cm_arena_free(&arena);
    rig_stop(&r);
    tc_free(&t);
}

static void sharded_ints_one_worker(void) { sharded_ints_on_workers(1); }
static void sharded_ints_three_workers(void) { sharded_ints_on_workers(3); }

static void tables_one_worker(void) { tables_on_workers(1); }
static void tables_three_workers(void) { tables_on_workers(3); }

int main(void)
{
    cm_log_level = CM_LOG_ERROR;
    UNIT_RUN(tables_one_worker);
    UNIT_RUN(tables_three_workers);
    UNIT_RUN(sharded_one_worker);
    UNIT_RUN(sharded_three_workers);
    UNIT_RUN(sharded_ints_one_worker);
    UNIT_RUN(sharded_ints_three_workers);
    UNIT_EXIT();
}
