/*
 * df_spine.c: the spine, one shard of an arrangement as a few batches.
 *
 * Level L holds at most one settled batch of at most 2^L records, or one
 * merge in progress of two such batches (whose result moves up to level
 * L + 1) and at most one batch waiting for it: the pattern of a binary counter (or an LSM tree), so a spine of N
 * records ever inserted holds O(log N) batches and each record is merged
 * O(log N) times. Merges are fueled: every insert of a batch joining level
 * L (n <= 2^L records) first gives every merge in progress
 * DF_SPINE_EFFORT * 2^L units of work, which finishes a merge before its
 * level is needed again, so no insert waits for a big merge. The schedule is exact only while batches reach each level when the
 * counter says; retractions (an empty result is dropped, not pushed) and
 * inserts of mixed sizes shift its phase, so a batch that comes early waits
 * beside the merge, and only a second early one completes the merge on the
 * spot, counted (merges_forced), which shows the bound being missed rather
 * than hiding it. A merged result moves up a level even if cancellations made it
 * small (see df__spine_place). When the worker is idle, df__spine_idle_work
 * goes on merging down to one batch, so retractions stop costing memory when
 * traffic stops. Batches have no order among themselves (a collection is the
 * sum of its batches), which is what lets idle work fold any two together.
 */
#include "dataflow/df_store.h"

#include <stdlib.h>

/* The calling thread's totals over its spines (df__spine_arranged). */
static _Thread_local int64_t df__arranged_records, df__arranged_bytes;

void df__spine_arranged(int64_t *records, int64_t *bytes)
{
    *records = df__arranged_records;
    *bytes = df__arranged_bytes;
}

/* Brings the thread's totals up to date with this spine's contents now. */
static void df__spine_account(df_spine_t *s)
{
    df_spine_stats_t st;
    df__spine_stats(s, &st);
    df__arranged_records += (int64_t)st.records - (int64_t)s->acct_records;
    df__arranged_bytes += (int64_t)st.bytes - (int64_t)s->acct_bytes;
    s->acct_records = st.records;
    s->acct_bytes = st.bytes;
}

void df__spine_init(df_spine_t *s)
{
    memset(s, 0, sizeof(*s));
}

void df__spine_free(df_spine_t *s)
{
    df__arranged_records -= (int64_t)s->acct_records;
    df__arranged_bytes -= (int64_t)s->acct_bytes;
    for (int i = 0; i < s->nlevels; i++) {
        df__batch_unref(s->levels[i].batch);
        df__merger_free(s->levels[i].merge);
    }
    free(s->levels);
    df__snap_unref(s->snap);
    memset(s, 0, sizeof(*s));
}

/* The level of a batch of n records: the smallest L with n <= 2^L. */
static int df__spine_level_of(uint64_t n)
{
    int L = 0;
    while (L < DF_SPINE_LEVELS - 1 && ((uint64_t)1 << L) < n)
        L++;
    return L;
}

static void df__spine_changed(df_spine_t *s)
{
    df__snap_unref(s->snap);
    s->snap = NULL;
}

static void df__spine_grow(df_spine_t *s, int L)
{
    if (L < s->nlevels)
        return;
    int n = L + 1;
    s->levels = cm_realloc(s->levels, sizeof(*s->levels) * (size_t)n);
    memset(s->levels + s->nlevels, 0, sizeof(*s->levels) * (size_t)(n - s->nlevels));
    s->nlevels = n;
}

static void df__spine_push(df_spine_t *s, df_batch_t *b, int L);

/*
 * The result of level L's merge goes up to L + 1 even when cancellations
 * made it small: levels are the positions of a binary counter, and the fuel
 * schedule holds only while batches arrive at each level when the counter
 * says. (Dropping a shrunken result into a lower empty level, tried first,
 * adds arrivals the counter does not expect and forces merges.) Its memory
 * is its records either way; an empty result is dropped.
 */
static void df__spine_place(df_spine_t *s, df_batch_t *r, int L)
{
    if (r->nvals == 0) {
        df__batch_unref(r);
        return;
    }
    df__spine_push(s, r, L + 1 < DF_SPINE_LEVELS ? L + 1 : L);
}

/* Completes level L's merge with whatever fuel it takes. */
static void df__spine_complete(df_spine_t *s, int L)
{
    df_merger_t *m = s->levels[L].merge;
    int64_t fuel = INT64_MAX, granted = fuel;
    CM_ASSERT(df__merger_work(m, &fuel));
    s->work += (uint64_t)(granted - fuel);
    s->levels[L].merge = NULL;
    s->merges_done++;
    df__spine_changed(s);
    df__spine_place(s, df__merger_finish(m), L);
}

static void df__spine_push(df_spine_t *s, df_batch_t *b, int L)
{
    df__spine_grow(s, L);
    df__spine_changed(s);
    if (s->levels[L].merge != NULL) {
        if (s->levels[L].batch == NULL) {
            /* Early (the counter's phase moved): wait for the merge, which
             * goes on getting fuel meanwhile. */
            s->levels[L].batch = b;
            return;
        }
        /* A second early arrival: the level is needed now; finish the merge
         * (the waiting batch stays, settled). */
        s->merges_forced++;
        df__spine_complete(s, L);
    }
    df_spine_level_t *lv = &s->levels[L];   /* after the completion, which may grow levels */
    if (lv->batch == NULL) {
        lv->batch = b;
        return;
    }
    lv->merge = df__merger_new(lv->batch, b);
    df__batch_unref(lv->batch);
    df__batch_unref(b);
    lv->batch = NULL;
    s->merges_started++;
}

/* Gives level L's merge `fuel` units; settles its result if that finishes it. */
static void df__spine_fuel(df_spine_t *s, int L, int64_t *fuel)
{
    df_merger_t *m = s->levels[L].merge;
    int64_t before = *fuel;
    bool done = df__merger_work(m, fuel);
    s->work += (uint64_t)(before - *fuel);
    if (!done)
        return;
    s->levels[L].merge = NULL;
    s->merges_done++;
    df__spine_changed(s);
    df__spine_place(s, df__merger_finish(m), L);
}

void df__spine_insert(df_spine_t *s, df_batch_t *b)
{
    if (b->nvals == 0) {
        df__batch_unref(b);
        return;
    }
    if (s->inserts == 0 || b->lower < s->lower)
        s->lower = b->lower;
    if (b->upper > s->upper)
        s->upper = b->upper;
    s->inserts++;
    /* The grant is for the batch's level, 2^L records, not its count: the
     * counter treats a batch at level L as 2^L records, and so must the fuel
     * that keeps its schedule, or a run of batches just over a power of two
     * (257 rows at level 9) would bring half the fuel the merges they cause
     * need (as DD's spine grants for a batch's size rounded up). */
    int level = df__spine_level_of(b->nvals);
    int64_t grant = level >= 58 ? INT64_MAX : ((int64_t)1 << level) * DF_SPINE_EFFORT;
    /* Every merge in progress gets the same grant, the highest level first:
     * a lower merge that finishes now moves its result up, and the merge it
     * meets there must have had its share of this insert already. */
    for (int L = s->nlevels - 1; L >= 0; L--) {
        if (s->levels[L].merge == NULL)
            continue;
        int64_t fuel = grant;
        df__spine_fuel(s, L, &fuel);
    }
    df__spine_push(s, b, level);
    /* Merged-away batches give their memory back with the same fuel. */
    int64_t fuel = grant;
    df__reclaim_work(&fuel);
    df__spine_account(s);
}

bool df__spine_idle_work(df_spine_t *s, int64_t fuel)
{
    return df__spine_idle_spend(s, &fuel);
}

static bool df__spine_idle_steps(df_spine_t *s, int64_t *fuel);

bool df__spine_idle_spend(df_spine_t *s, int64_t *fuel)
{
    bool more = df__spine_idle_steps(s, fuel);
    df__spine_account(s);
    return more;
}

static bool df__spine_idle_steps(df_spine_t *s, int64_t *fuel)
{
    for (;;) {
        int merging = -1, first = -1, second = -1;
        for (int L = 0; L < s->nlevels; L++) {
            if (s->levels[L].merge != NULL)
                merging = L;
            if (s->levels[L].batch != NULL && s->levels[L].merge == NULL) {
                if (first < 0)
                    first = L;
                else if (second < 0)
                    second = L;
            }
        }
        if (*fuel <= 0)
            return merging >= 0 || second >= 0 || df__reclaim_pending() != 0;
        if (merging >= 0) {
            /* The highest merge first, as inserts do: a lower one finishing
             * first would move its result onto a level still merging and
             * force that merge to finish at once. */
            df__spine_fuel(s, merging, fuel);
            continue;
        }
        if (second < 0)   /* one batch or none: nothing to merge; memory to give back? */
            return df__reclaim_work(fuel);
        /* Nothing merging: fold the smallest batch into the next one up. */
        df_batch_t *b = s->levels[first].batch;
        s->levels[first].batch = NULL;
        df__spine_push(s, b, second);
    }
}

df_snap_t *df__spine_snapshot(df_spine_t *s)
{
    if (s->snap == NULL) {
        df_batch_t *list[3 * DF_SPINE_LEVELS];
        uint32_t n = 0;
        for (int L = 0; L < s->nlevels; L++) {
            if (s->levels[L].batch != NULL)
                list[n++] = s->levels[L].batch;
            if (s->levels[L].merge != NULL) {
                list[n++] = df__merger_input(s->levels[L].merge, 0);
                list[n++] = df__merger_input(s->levels[L].merge, 1);
            }
        }
        s->snap = df__snap_new(list, n);
    }
    df__snap_ref(s->snap);
    return s->snap;
}

void df__spine_stats(const df_spine_t *s, df_spine_stats_t *out)
{
    memset(out, 0, sizeof(*out));
    out->bytes = sizeof(*s) + sizeof(*s->levels) * (uint64_t)s->nlevels;
    for (int L = 0; L < s->nlevels; L++) {
        const df_batch_t *b = s->levels[L].batch;
        if (b != NULL) {
            out->records += b->nvals;
            out->batches++;
            out->bytes += b->size;
        }
        const df_merger_t *m = s->levels[L].merge;
        if (m != NULL) {
            for (int i = 0; i < 2; i++) {
                const df_batch_t *in = df__merger_input(m, i);
                out->records += in->nvals;
                out->batches++;
                out->bytes += in->size;
            }
            out->bytes += df__merger_bytes(m);
            out->merges++;
        }
    }
}
