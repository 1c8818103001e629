/*
 * srv_write_txn.c: the writes of an open transaction (an explicit block, a
 * query string of several statements, the extended protocol's messages up
 * to Sync). Each statement's changes are kept here per table, in order, as
 * rows with diffs; the transaction's reads see them on top of what the
 * workers hold (srv_wtxn_overlay); its COMMIT sends them all as one Write of
 * one part per table (srv_wtxn_commit), applied at one step on every worker
 * or nowhere. ROLLBACK just frees them.
 */
#include "server/srv_int.h"

#include <stdlib.h>
#include <string.h>

typedef struct srv__wtab {
    uint64_t item;
    const char *name;            /* for messages */
    const char *constraint;      /* the key's name for 23505; NULL: no key */
    int ncols;
    ty_oid_t *types;
    bool truncated;              /* a TRUNCATE in the transaction: the workers' rows are gone */
    int n, cap;
    ty_datum_t **rows;
    int64_t *diffs;
} srv__wtab_t;

struct srv_wtxn {
    cm_arena_t arena;            /* the rows and names */
    srv__wtab_t *tabs;
    int ntabs, cap;
    int64_t nrows;               /* changes kept, against rows_max */
    int64_t rows_max;
};

srv_wtxn_t *srv_wtxn_new(int64_t rows_max)
{
    srv_wtxn_t *t = cm_calloc(1, sizeof *t);
    cm_arena_init(&t->arena, 0);
    t->rows_max = rows_max;
    return t;
}

void srv_wtxn_free(srv_wtxn_t *t)
{
    if (t == NULL)
        return;
    for (int i = 0; i < t->ntabs; i++) {
        free(t->tabs[i].rows);
        free(t->tabs[i].diffs);
    }
    free(t->tabs);
    cm_arena_free(&t->arena);
    free(t);
}

bool srv_wtxn_empty(const srv_wtxn_t *t)
{
    return t == NULL || t->ntabs == 0;
}

static srv__wtab_t *srv__wtab_find(const srv_wtxn_t *t, uint64_t item)
{
    for (int i = 0; t != NULL && i < t->ntabs; i++)
        if (t->tabs[i].item == item)
            return &t->tabs[i];
    return NULL;
}

static srv__wtab_t *srv__wtab_get(srv_wtxn_t *t, const plan_write_t *w)
{
    srv__wtab_t *tab = srv__wtab_find(t, w->item);
    if (tab != NULL)
        return tab;
    if (t->ntabs == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 4;
        t->tabs = cm_realloc(t->tabs, sizeof *t->tabs * (size_t)t->cap);
    }
    tab = &t->tabs[t->ntabs++];
    memset(tab, 0, sizeof *tab);
    tab->item = w->item;
    tab->name = cm_arena_strdup(&t->arena, w->name);
    tab->constraint = w->nkeys > 0 ? cm_arena_strdup(&t->arena, w->keys[0].name) : NULL;
    tab->ncols = w->ncols;
    tab->types = cm_arena_alloc(&t->arena, sizeof(ty_oid_t) * (size_t)(w->ncols ? w->ncols : 1));
    for (int i = 0; i < w->ncols; i++)
        tab->types[i] = w->cols[i].type;
    return tab;
}

bool srv_wtxn_add(srv_wtxn_t *t, const plan_write_t *w, ty_datum_t *const *rows, const int64_t *diffs, int n,
                  cm_err_t *err)
{
    if (t->nrows + n > t->rows_max)
        return cm_err_set(err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                          "a transaction may change at most %lld rows before it commits", (long long)t->rows_max);
    srv__wtab_t *tab = srv__wtab_get(t, w);
    if (tab->n + n > tab->cap) {
        int cap = tab->cap ? tab->cap : 16;
        while (cap < tab->n + n)
            cap *= 2;
        tab->rows = cm_realloc(tab->rows, sizeof *tab->rows * (size_t)cap);
        tab->diffs = cm_realloc(tab->diffs, sizeof *tab->diffs * (size_t)cap);
        tab->cap = cap;
    }
    for (int i = 0; i < n; i++) {
        ty_datum_t *r = cm_arena_alloc(&t->arena, sizeof *r * (size_t)(tab->ncols ? tab->ncols : 1));
        for (int c = 0; c < tab->ncols; c++)
            r[c] = ty_datum_copy(tab->types[c], &rows[i][c], &t->arena);
        tab->rows[tab->n] = r;
        tab->diffs[tab->n++] = diffs[i];
    }
    t->nrows += n;
    return true;
}

void srv_wtxn_truncate(srv_wtxn_t *t, const plan_write_t *w)
{
    srv__wtab_t *tab = srv__wtab_get(t, w);
    t->nrows -= tab->n;
    tab->n = 0;
    tab->truncated = true;
}

static bool srv__row_equal(const srv__wtab_t *tab, const ty_datum_t *a, const ty_datum_t *b)
{
    for (int c = 0; c < tab->ncols; c++) {
        if (a[c].isnull != b[c].isnull)
            return false;
        if (!a[c].isnull && ty_datum_compare(tab->types[c], &a[c], &b[c]) != 0)
            return false;
    }
    return true;
}

bool srv_wtxn_overlay(const srv_wtxn_t *t, uint64_t item, ty_ctx_t *ctx, ty_datum_t ***rows, int *nrows)
{
    const srv__wtab_t *tab = srv__wtab_find(t, item);
    if (tab == NULL)
        return true;
    int n = tab->truncated ? 0 : *nrows, cap = n + tab->n;
    ty_datum_t **all = cm_arena_alloc(ctx->arena, sizeof *all * (size_t)(cap ? cap : 1));
    if (n)
        memcpy(all, *rows, sizeof *all * (size_t)n);
    for (int i = 0; i < tab->n; i++) {
        if (tab->diffs[i] > 0) {
            all[n++] = tab->rows[i];
            continue;
        }
        /* A removal: the transaction read that row, so one equal to it is there. */
        for (int j = n - 1; j >= 0; j--)
            if (srv__row_equal(tab, all[j], tab->rows[i])) {
                all[j] = all[--n];
                break;
            }
    }
    *rows = all;
    *nrows = n;
    return true;
}

/* One part: the table's kept changes, then `n` more (the statement's own, when checking it). */
static bool srv__wtxn_part(const srv__wtab_t *tab, uint64_t item, const char *constraint, bool truncated, int ncols,
                           const ty_oid_t *types, ty_datum_t *const *rows, const int64_t *diffs, int n, ty_ctx_t *ctx,
                           cm_buf_t *out)
{
    int kept = tab != NULL ? tab->n : 0, all = kept + n;
    ty_datum_t **r = cm_arena_alloc(ctx->arena, sizeof *r * (size_t)(all ? all : 1));
    int64_t *d = cm_arena_alloc(ctx->arena, sizeof *d * (size_t)(all ? all : 1));
    if (kept) {
        memcpy(r, tab->rows, sizeof *r * (size_t)kept);
        memcpy(d, tab->diffs, sizeof *d * (size_t)kept);
    }
    if (n) {
        memcpy(r + kept, rows, sizeof *r * (size_t)n);
        memcpy(d + kept, diffs, sizeof *d * (size_t)n);
    }
    return df_write_add_part(out, item, constraint, truncated || (tab != NULL && tab->truncated), types, ncols, r, d,
                             all, ctx);
}

bool srv_wtxn_encode_check(const srv_wtxn_t *t, const plan_write_t *w, const ty_oid_t *types, ty_datum_t *const *rows,
                           const int64_t *diffs, int n, ty_ctx_t *ctx, cm_buf_t *out)
{
    df_write_begin(out, true, 1);
    return srv__wtxn_part(srv__wtab_find(t, w->item), w->item, w->nkeys > 0 ? w->keys[0].name : NULL, false, w->ncols,
                          types, rows, diffs, n, ctx, out);
}

bool srv_wtxn_commit(srv_server_t *srv, const srv_wtxn_t *t, ty_ctx_t *ctx)
{
    if (srv_wtxn_empty(t))
        return true;
    if (srv->seq == NULL || srv->workers == NULL)
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "writing tables needs the workers");
    cm_buf_t body;
    cm_buf_init(&body, 0);
    df_write_begin(&body, false, (uint32_t)t->ntabs);
    bool ok = true;
    for (int i = 0; i < t->ntabs && ok; i++) {
        const srv__wtab_t *tab = &t->tabs[i];
        ok = srv__wtxn_part(tab, tab->item, tab->constraint, false, tab->ncols, tab->types, NULL, NULL, 0, ctx, &body);
    }
    df_reply_t *rep = NULL;
    if (ok) {
        const char *refused = cm_arena_printf(ctx->arena, "cannot write to table \"%s\" here", t->tabs[0].name);
        rep = srv_workers_ask(srv, DF_CMD_WRITE, &body, 0, refused, ctx);
        ok = rep != NULL;
    }
    cm_buf_free(&body);
    df_reply_unref(rep);
    return ok;
}
