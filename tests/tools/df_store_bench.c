/*
 * df_store_bench.c: a micro-benchmark of the storage layer (dataflow/df_*.c).
 *
 * Inserts N rows (default 1,000,000) of (a int4, b int4) into a spine keyed
 * by a, in steps of 1, 100 and 10,000 rows, as a table's arrangement would
 * receive them: each step's rows are encoded (key: a; value: the whole
 * row), built into a batch and inserted. Keys are distinct and arrive in a
 * random order. Prints for each step size: bytes per arranged record (as
 * inserted, and once idle work has compacted the spine), rows per second,
 * the worst and the 99.9th percentile time of one spine insert (the fueled
 * merge work it does) and of one whole step (encode + build + insert), and
 * how long one merge of everything at once takes, which is what an insert
 * without fuel could have waited for.
 *
 *   build/tools/df_store_bench [ROWS]
 *
 * Not part of make test: its numbers depend on the machine.
 */
#include "dataflow/df_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* This thread's CPU time: what an insert costs, without the time the
 * scheduler gave other processes (on a loaded machine, wall times show
 * 4 ms ticks of preemption). */
static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t rng = 0x1234567;

static uint64_t rnd(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t pct(uint64_t *v, size_t n, double p)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof(*v), cmp_u64);
    size_t i = (size_t)(p * (double)(n - 1));
    return v[i];
}

static void run(const int32_t *keys, size_t rows, size_t step)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 64 * 1024);
    cm_err_t err = {0};
    ty_settings_t settings;
    ty_settings_default(&settings);
    ty_ctx_t ctx = {.arena = &arena, .settings = &settings, .err = &err};
    static const ty_oid_t types[2] = {TY_INT4, TY_INT4};
    df_keycol_t kc = {.col = 0, .type = TY_INT4};
    df_builder_t bl;
    df__builder_init(&bl);
    df_spine_t s;
    df__spine_init(&s);
    cm_buf_t kb, vb;
    cm_buf_init(&kb, 0);
    cm_buf_init(&vb, 0);
    size_t nsteps = (rows + step - 1) / step;
    uint64_t *ins = malloc(sizeof(uint64_t) * nsteps), *whole = malloc(sizeof(uint64_t) * nsteps);
    uint64_t *ins_cpu = malloc(sizeof(uint64_t) * nsteps), *whole_cpu = malloc(sizeof(uint64_t) * nsteps);
    uint64_t t0 = now_ns(), c0 = cpu_ns();
    size_t k = 0;
    for (size_t st = 0; st < nsteps; st++) {
        uint64_t a = now_ns(), ac = cpu_ns();
        size_t n = rows - k < step ? rows - k : step;
        for (size_t i = 0; i < n; i++, k++) {
            ty_datum_t row[2];
            memset(row, 0, sizeof(row));
            row[0].v.i = keys[k];
            row[1].v.i = (int32_t)(rnd() % 1000000);
            cm_buf_reset(&kb);
            cm_buf_reset(&vb);
            if (!df__key_encode(&kc, 1, row, &ctx, &kb) || !df__row_encode(types, 2, row, &ctx, &vb)) {
                fprintf(stderr, "encode failed: %s\n", err.message);
                exit(1);
            }
            df__builder_add(&bl, kb.data, kb.len, vb.data, vb.len, 1);
        }
        df_batch_t *b = df__builder_finish(&bl, st, st + 1);
        uint64_t m = now_ns(), mc = cpu_ns();
        df__spine_insert(&s, b);
        uint64_t e = now_ns(), ec = cpu_ns();
        ins[st] = e - m;
        whole[st] = e - a;
        ins_cpu[st] = ec - mc;
        whole_cpu[st] = ec - ac;
    }
    uint64_t t1 = now_ns(), c1 = cpu_ns();
    df_spine_stats_t before;
    df__spine_stats(&s, &before);
    uint64_t forced = s.merges_forced;
    /* A quiet worker's idle work, in slices of 100,000 units. */
    uint64_t i0 = cpu_ns(), slices = 0, worst_slice = 0;
    for (;;) {
        uint64_t a = cpu_ns();
        bool more = df__spine_idle_work(&s, 100000);
        uint64_t d = cpu_ns() - a;
        worst_slice = d > worst_slice ? d : worst_slice;
        slices++;
        if (!more)
            break;
    }
    uint64_t i1 = cpu_ns();
    df_spine_stats_t after;
    df__spine_stats(&s, &after);
    /* What an insert without fuel could wait for: the spine's last merge,
     * of two batches of half the rows each with interleaved keys. */
    df_builder_t half[2];
    for (int h = 0; h < 2; h++) {
        df__builder_init(&half[h]);
        for (size_t i = (size_t)h; i < rows; i += 2) {
            ty_datum_t row[2];
            memset(row, 0, sizeof(row));
            row[0].v.i = (int64_t)i;
            row[1].v.i = (int32_t)(rnd() % 1000000);
            cm_buf_reset(&kb);
            cm_buf_reset(&vb);
            df__key_encode(&kc, 1, row, &ctx, &kb);
            df__row_encode(types, 2, row, &ctx, &vb);
            df__builder_add(&half[h], kb.data, kb.len, vb.data, vb.len, 1);
        }
    }
    df_batch_t *ha = df__builder_finish(&half[0], 0, 1), *hb = df__builder_finish(&half[1], 1, 2);
    uint64_t mc0 = cpu_ns();
    df_batch_t *all = df__batch_merge(ha, hb);
    uint64_t merge_ns = cpu_ns() - mc0;
    df__batch_unref(all);
    df__batch_unref(ha);
    df__batch_unref(hb);
    df__builder_free(&half[0]);
    df__builder_free(&half[1]);
    df__reclaim_all();
    double secs = (double)(t1 - t0) / 1e9, cpu_secs = (double)(c1 - c0) / 1e9;
    printf("step %zu rows (%zu steps):\n", step, nsteps);
    printf("  %.0f rows/s (wall), %.0f rows/s (CPU); %.1f bytes/record as inserted (%llu batches, %llu merges "
           "in progress), %.1f once compacted (1 batch); merges forced: %llu\n",
           (double)rows / secs, (double)rows / cpu_secs, (double)before.bytes / (double)before.records,
           (unsigned long long)before.batches, (unsigned long long)before.merges,
           (double)after.bytes / (double)after.records, (unsigned long long)forced);
    uint64_t ic_max = pct(ins_cpu, nsteps, 1.0), ic_999 = pct(ins_cpu, nsteps, 0.999), ic_50 = pct(ins_cpu, nsteps, 0.5);
    uint64_t wc_max = pct(whole_cpu, nsteps, 1.0), wc_999 = pct(whole_cpu, nsteps, 0.999);
    printf("  one insert (fueled merging), CPU: median %.1f us, p99.9 %.1f us, worst %.1f us; wall: p99.9 %.1f us, "
           "worst %.1f us\n",
           (double)ic_50 / 1e3, (double)ic_999 / 1e3, (double)ic_max / 1e3, (double)pct(ins, nsteps, 0.999) / 1e3,
           (double)pct(ins, nsteps, 1.0) / 1e3);
    printf("  one step (encode, build, insert), CPU: p99.9 %.1f us, worst %.1f us; wall worst %.1f us\n",
           (double)wc_999 / 1e3, (double)wc_max / 1e3, (double)pct(whole, nsteps, 1.0) / 1e3);
    printf("  idle compaction to one batch: %.1f ms CPU in %llu slices of 100000 units (worst slice %.1f us); "
           "one unfueled merge of two interleaved halves (%zu records): %.1f ms CPU\n",
           (double)(i1 - i0) / 1e6, (unsigned long long)slices, (double)worst_slice / 1e3, rows,
           (double)merge_ns / 1e6);
    free(ins_cpu);
    free(whole_cpu);
    free(ins);
    free(whole);
    cm_buf_free(&kb);
    cm_buf_free(&vb);
    df__builder_free(&bl);
    df__spine_free(&s);
    cm_arena_free(&arena);
}

int main(int argc, char **argv)
{
    size_t rows = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1000000;
    if (rows == 0) {
        fprintf(stderr, "usage: %s [ROWS]\n", argv[0]);
        return 2;
    }
    /* Distinct keys 0..rows-1 in a random order (Fisher-Yates). */
    int32_t *keys = malloc(sizeof(int32_t) * rows);
    for (size_t i = 0; i < rows; i++)
        keys[i] = (int32_t)i;
    for (size_t i = rows - 1; i > 0; i--) {
        size_t j = (size_t)(rnd() % (i + 1));
        int32_t t = keys[i];
        keys[i] = keys[j];
        keys[j] = t;
    }
    printf("df_store_bench: %zu rows of (a int4, b int4) keyed by a, distinct keys in random order\n", rows);
    static const size_t steps[] = {1, 100, 10000};
    for (size_t i = 0; i < CM_ARRAY_LEN(steps); i++)
        run(keys, rows, steps[i]);
    free(keys);
    return 0;
}
