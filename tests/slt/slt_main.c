/*
 * slt_main.c: the sqllogictest runner. For each script it opens one
 * connection, empties the public schema, runs the records in order and
 * prints how many passed of those it should run, with the first failures by
 * line number and reason; optional TSV files get one line per file and one
 * per failure, for the test layer's baseline check and for triage.
 *
 *   slt_run (--eddy BIN [--eddy-arg ARG]... [--server-log F] | --dsn CONNINFO)
 *           [--engine postgresql] [--stmt-timeout-ms N] [--grace-ms N]
 *           [--file-timeout-s N] [--max-records N] [--show N] [--root DIR]
 *           [--summary F] [--failures F] [--verbose] [--trace] FILE...
 *
 * A record passes when a statement succeeds or fails as `statement ok|error`
 * says, or a query's formatted, sorted values (or their count and MD5, for a
 * hashed result) equal the expected ones and agree with earlier results under
 * the same label. Records excluded by skipif/onlyif are counted as skipped,
 * not run; `halt` ends the file. A crash, a lost connection or a hang fails
 * the record it happened in, the file's remaining records count as not run,
 * and an owned server is restarted for the next file.
 */
#include <libpq-fe.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "slt.h"

enum { SLT__BOOLOID = 16 };

typedef struct {
    const char *engine;
    int file_timeout_s;
    int max_records;
    int show;
    const char *root;
    FILE *summary;
    FILE *failures;
    bool verbose;
    bool trace;           /* print "> FILE:LINE" before each record runs, flushed */
} slt_opts_t;

/* Labels seen in the current file and the hash of their results. */
typedef struct {
    char label[24];
    char md5[33];
} slt__label_t;

typedef struct {
    const char *name;
    slt__label_t *labels;
    int nlabels, caplabels;
    int passed, total, skipped, shown, failed;
    const slt_opts_t *o;
} slt__file_t;

static double slt__now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One line of text for reports: tabs and newlines become spaces, cut at MAX. */
static void slt__flat(char *dst, size_t cap, const char *src, size_t max)
{
    size_t n = 0;
    for (; *src && n + 1 < cap && n < max; src++)
        dst[n++] = (*src == '\t' || *src == '\n' || *src == '\r') ? ' ' : *src;
    dst[n] = 0;
}

static void slt__fail(slt__file_t *f, const slt_rec_t *r, int line, const char *category,
                      const char *sqlstate, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static void slt__fail(slt__file_t *f, const slt_rec_t *r, int line, const char *category,
                      const char *sqlstate, const char *fmt, ...)
{
    char msg[1024], flat[1024], sql[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    slt__flat(flat, sizeof flat, msg, 400);
    slt__flat(sql, sizeof sql, r ? r->sql : "", 300);
    f->failed++;
    if (f->shown < f->o->show || f->o->verbose) {
        f->shown++;
        printf("  line %d: %s%s%s: %s\n", line, category, sqlstate && *sqlstate ? " " : "",
               sqlstate ? sqlstate : "", flat);
        if (f->o->verbose && r)
            printf("    %s\n", sql);
    }
    if (f->o->failures)
        fprintf(f->o->failures, "%s\t%d\t%s\t%s\t%s\t%s\n", f->name, line, category, sqlstate ? sqlstate : "",
                flat, sql);
}

static const char *slt__label_find(slt__file_t *f, const char *label)
{
    for (int i = 0; i < f->nlabels; i++)
        if (strcmp(f->labels[i].label, label) == 0)
            return f->labels[i].md5;
    return NULL;
}

static void slt__label_put(slt__file_t *f, const char *label, const char *md5)
{
    if (f->nlabels == f->caplabels) {
        f->caplabels = f->caplabels ? f->caplabels * 2 : 64;
        f->labels = realloc(f->labels, sizeof *f->labels * (size_t)f->caplabels);
        if (!f->labels) {
            fprintf(stderr, "slt: out of memory\n");
            exit(2);
        }
    }
    snprintf(f->labels[f->nlabels].label, sizeof f->labels[0].label, "%s", label);
    snprintf(f->labels[f->nlabels].md5, sizeof f->labels[0].md5, "%s", md5);
    f->nlabels++;
}

/* The expected result's hash, for a label of a record that is not run. */
static void slt__expected_md5(const slt_rec_t *r, char out[33])
{
    if (r->expect_hashed)
        memcpy(out, r->expect_md5, 33);
    else
        slt_vals_md5(r->expect_vals, r->has_expect ? r->expect_n : 0, out);
}

/* Compares a query's values with the record's expectation; true when equal.
 * As in the reference runner, the form follows hash-threshold: a result of
 * more than THRESHOLD values (when it is not 0) is compared as its count and
 * MD5, any other value by value, so a file must write each result in the
 * form its threshold gives. */
static bool slt__check_values(slt__file_t *f, const slt_rec_t *r, slt_vals_t *got, int threshold)
{
    char md5[33];
    int want_n = r->has_expect ? r->expect_n : 0;
    bool hashed = threshold > 0 && got->n > threshold;
    if (hashed || r->expect_hashed) {
        slt_vals_md5(got->vals, got->n, md5);
        if (hashed && r->expect_hashed && got->n == want_n && strcmp(md5, r->expect_md5) == 0)
            return true;
        if (r->expect_hashed)
            slt__fail(f, r, r->line, "wrong-result", NULL,
                      "expected %d values hashing to %s, got %d values hashing to %s%s%s%s", want_n, r->expect_md5,
                      got->n, md5, got->n ? " (first: " : "", got->n ? got->vals[0] : "", got->n ? ")" : "");
        else
            slt__fail(f, r, r->line, "wrong-result", NULL, "expected %d values listed, got %d values hashing to %s",
                      want_n, got->n, md5);
        return false;
    }
    int n = got->n < want_n ? got->n : want_n;
    for (int i = 0; i < n; i++) {
        if (strcmp(got->vals[i], r->expect_vals[i]) != 0) {
            slt__fail(f, r, r->line, "wrong-result", NULL, "value %d of %d: expected '%s', got '%s'", i + 1, want_n,
                      r->expect_vals[i], got->vals[i]);
            return false;
        }
    }
    if (got->n != want_n) {
        slt__fail(f, r, r->line, "wrong-result", NULL, "expected %d values, got %d%s%s%s", want_n, got->n,
                  got->n > want_n ? " (first extra: " : "", got->n > want_n ? got->vals[want_n] : "",
                  got->n > want_n ? ")" : "");
        return false;
    }
    return true;
}

static bool slt__run_query(slt__file_t *f, const slt_rec_t *r, const slt_exec_t *e, int threshold)
{
    int ncols = (int)strlen(r->types);
    if (!e->res) {
        slt__fail(f, r, r->line, "wrong-columns", NULL, "the statement returned no rows result (%d columns expected)",
                  ncols);
        return false;
    }
    if (e->nfields != ncols) {
        slt__fail(f, r, r->line, "wrong-columns", NULL, "expected %d columns (%s), got %d", ncols, r->types,
                  e->nfields);
        return false;
    }
    slt_vals_t got = {0};
    for (int row = 0; row < e->ntuples; row++)
        for (int c = 0; c < ncols; c++)
            slt_vals_push(&got, slt_value_format(r->types[c], PQgetvalue(e->res, row, c),
                                                 PQgetisnull(e->res, row, c),
                                                 PQftype(e->res, c) == SLT__BOOLOID));
    slt_vals_sort(&got, r->sort, ncols);
    bool ok = slt__check_values(f, r, &got, threshold);
    if (r->label[0]) {
        char md5[33];
        slt_vals_md5(got.vals, got.n, md5);
        const char *prev = slt__label_find(f, r->label);
        if (!prev)
            slt__label_put(f, r->label, md5);
        else if (ok && strcmp(prev, md5) != 0) {
            slt__fail(f, r, r->line, "label-mismatch", NULL, "result hashing to %s differs from %s's earlier %s", md5,
                      r->label, prev);
            ok = false;
        }
    }
    slt_vals_clear(&got);
    free(got.vals);
    return ok;
}

static bool slt__reset(slt_server_t *s, char *err, size_t errlen)
{
    static const char *const steps[] = {"DROP SCHEMA IF EXISTS public CASCADE", "CREATE SCHEMA public"};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        slt_exec_t e;
        slt_conn_exec(s, steps[i], &e);
        bool ok = e.status == SLT_EXEC_OK;
        if (!ok)
            snprintf(err, errlen, "%s: %s %s", steps[i], e.sqlstate, e.message);
        slt_exec_clear(&e);
        if (!ok)
            return false;
    }
    return true;
}

/* Makes sure the server runs and the connection is open on an empty schema;
 * an owned server that is dead, or cannot be reset, is started afresh. */
static bool slt__prepare(slt_server_t *s, char *err, size_t errlen)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        if (s->eddy_bin && !slt_server_alive(s)) {
            slt_conn_close(s);
            if (!slt_server_start(s, err, errlen))
                continue;
        }
        if ((s->conn && PQstatus(s->conn) == CONNECTION_OK) || slt_conn_open(s, err, errlen)) {
            if (slt__reset(s, err, errlen))
                return true;
        }
        if (!s->eddy_bin)
            return slt_conn_open(s, err, errlen) && slt__reset(s, err, errlen);
        slt_server_stop(s);
    }
    return false;
}

static const char *slt__relname(const char *path, const char *root)
{
    size_t n = root ? strlen(root) : 0;
    if (n && strncmp(path, root, n) == 0) {
        path += n;
        while (*path == '/')
            path++;
    }
    return path;
}

/* Runs one file; returns how it ended ("done", "halt", "crash", ...). */
static const char *slt__run_file(slt_server_t *s, const slt_opts_t *o, const char *path, slt__file_t *f)
{
    slt_script_t sc;
    char err[1024];
    if (!slt_script_read(path, o->engine, &sc, err, sizeof err)) {
        slt__fail(f, NULL, 0, "read-error", NULL, "%s", err);
        return "read-error";
    }
    /* What will run: records before halt, not skipped, within --max-records. */
    int last = sc.nrecs;
    for (int i = 0, runnable = 0; i < sc.nrecs; i++) {
        slt_rec_t *r = &sc.recs[i];
        if (r->skip)
            continue;
        if (r->kind == SLT_REC_HALT) {
            last = i;
            break;
        }
        if (r->kind == SLT_REC_STATEMENT || r->kind == SLT_REC_QUERY || r->kind == SLT_REC_UNKNOWN) {
            if (o->max_records && runnable == o->max_records) {
                last = i;
                break;
            }
            runnable++;
            f->total++;
        }
    }
    const char *end = last < sc.nrecs && sc.recs[last].kind == SLT_REC_HALT ? "halt" : "done";
    if (!slt__prepare(s, err, sizeof err)) {
        slt__fail(f, NULL, 0, "reset-error", NULL, "%s", err);
        slt_script_free(&sc);
        return "reset-error";
    }
    double deadline = slt__now_s() + o->file_timeout_s;
    int threshold = 8, run = 0, stopped = -1;
    for (int i = 0; i < last && stopped < 0; i++) {
        slt_rec_t *r = &sc.recs[i];
        if (r->skip) {
            if (r->kind == SLT_REC_STATEMENT || r->kind == SLT_REC_QUERY)
                f->skipped++;
            if (r->kind == SLT_REC_QUERY && r->label[0] && !slt__label_find(f, r->label)) {
                char md5[33];
                slt__expected_md5(r, md5);
                slt__label_put(f, r->label, md5);
            }
            continue;
        }
        if (r->kind == SLT_REC_THRESHOLD) {
            threshold = r->threshold;
            continue;
        }
        if (slt__now_s() > deadline) {
            slt__fail(f, r, r->line, "file-timeout", NULL, "%d of %d records not run: the file took over %d s",
                      f->total - run, f->total, o->file_timeout_s);
            end = "file-timeout";
            break;
        }
        run++;
        if (o->trace) {
            printf("> %s:%d\n", f->name, r->line);
            fflush(stdout);
        }
        if (r->kind == SLT_REC_UNKNOWN) {
            slt__fail(f, r, r->line, "bad-record", NULL, "unknown record type: %s", r->sql);
            end = "bad-record";
            stopped = i;
            break;
        }
        slt_exec_t e;
        slt_conn_exec(s, r->sql, &e);
        if (e.status == SLT_EXEC_LOST || e.status == SLT_EXEC_HANG) {
            bool hang = e.status == SLT_EXEC_HANG;
            if (hang)
                slt_server_kill(s);   /* a hung server is replaced */
            bool dead = s->eddy_bin && !slt_server_alive(s);
            slt__fail(f, r, r->line, hang ? "hang" : "crash", NULL, "%s%s%s", e.message, dead ? "; " : "",
                      dead ? s->last_exit : "");
            slt_conn_close(s);
            slt_exec_clear(&e);
            end = hang ? "hang" : "crash";
            stopped = i;
            break;
        }
        bool ok = false;
        if (r->bad_header) {
            slt__fail(f, r, r->line, "bad-record", NULL, "bad %s header (mode, types or sort)",
                      r->kind == SLT_REC_QUERY ? "query" : "statement");
        } else if (r->kind == SLT_REC_STATEMENT) {
            if (r->expect_error && e.status == SLT_EXEC_OK)
                slt__fail(f, r, r->line, "unexpected-success", NULL, "the statement succeeded; an error was expected");
            else if (!r->expect_error && e.status == SLT_EXEC_ERROR)
                slt__fail(f, r, r->line, "error", e.sqlstate, "%s", e.message);
            else
                ok = true;
        } else if (e.status == SLT_EXEC_ERROR) {
            slt__fail(f, r, r->line, "error", e.sqlstate, "%s", e.message);
        } else {
            ok = slt__run_query(f, r, &e, threshold);
        }
        slt_exec_clear(&e);
        if (ok)
            f->passed++;
    }
    /* The records a crash, hang or bad record left unrun are one entry, at the first of them. */
    if (stopped >= 0 && run < f->total) {
        for (int i = stopped + 1; i < last; i++) {
            slt_rec_t *r = &sc.recs[i];
            if (!r->skip && r->kind != SLT_REC_THRESHOLD) {
                slt__fail(f, r, r->line, "not-run", NULL, "%d records not run after the %s at line %d",
                          f->total - run, end, sc.recs[stopped].line);
                break;
            }
        }
    }
    slt_script_free(&sc);
    return end;
}

static void slt__usage(void)
{
    fprintf(stderr, "usage: slt_run (--eddy BIN [--eddy-arg ARG]... [--server-log F] | --dsn CONNINFO)\n"
                    "       [--engine NAME] [--stmt-timeout-ms N] [--grace-ms N] [--file-timeout-s N]\n"
                    "       [--max-records N] [--show N] [--root DIR] [--summary F] [--failures F]\n"
                    "       [--verbose] [--trace] FILE...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    slt_opts_t o = {.engine = "postgresql", .file_timeout_s = 600, .show = 5};
    slt_server_t s = {.stmt_timeout_ms = 10000, .grace_ms = 5000};
    char **args = calloc((size_t)argc, sizeof(char *));
    const char *summary = NULL, *failures = NULL;
    int nfiles = 0;
    char **files = calloc((size_t)argc, sizeof(char *));
    if (!args || !files)
        return 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define SLT_OPT(name) (strcmp(a, name) == 0 && v && (i++, 1))
        if (SLT_OPT("--eddy"))
            s.eddy_bin = v;
        else if (SLT_OPT("--eddy-arg"))
            args[s.neddy_args++] = (char *)v;
        else if (SLT_OPT("--server-log"))
            s.server_log = v;
        else if (SLT_OPT("--dsn"))
            s.dsn = v;
        else if (SLT_OPT("--user"))
            s.user = v;
        else if (SLT_OPT("--dbname"))
            s.dbname = v;
        else if (SLT_OPT("--engine"))
            o.engine = v;
        else if (SLT_OPT("--stmt-timeout-ms"))
            s.stmt_timeout_ms = atoi(v);
        else if (SLT_OPT("--grace-ms"))
            s.grace_ms = atoi(v);
        else if (SLT_OPT("--file-timeout-s"))
            o.file_timeout_s = atoi(v);
        else if (SLT_OPT("--max-records"))
            o.max_records = atoi(v);
        else if (SLT_OPT("--show"))
            o.show = atoi(v);
        else if (SLT_OPT("--root"))
            o.root = v;
        else if (SLT_OPT("--summary"))
            summary = v;
        else if (SLT_OPT("--failures"))
            failures = v;
        else if (strcmp(a, "--verbose") == 0)
            o.verbose = true;
        else if (strcmp(a, "--trace") == 0)
            o.trace = true;
        else if (a[0] == '-' && a[1] == '-')
            slt__usage();
        else
            files[nfiles++] = argv[i];
#undef SLT_OPT
    }
    s.eddy_args = args;
    if ((!s.eddy_bin) == (!s.dsn) || nfiles == 0 || s.stmt_timeout_ms <= 0)
        slt__usage();
    if (summary && !(o.summary = fopen(summary, "w"))) {
        perror(summary);
        return 2;
    }
    if (failures && !(o.failures = fopen(failures, "w"))) {
        perror(failures);
        return 2;
    }
    if (o.summary)
        fprintf(o.summary, "file\tpassed\ttotal\tskipped\tseconds\tend\n");
    if (o.failures)
        fprintf(o.failures, "file\tline\tcategory\tsqlstate\tmessage\tsql\n");
    long passed = 0, total = 0;
    for (int i = 0; i < nfiles; i++) {
        slt__file_t f = {.name = slt__relname(files[i], o.root), .o = &o};
        double t0 = slt__now_s();
        printf("%s\n", f.name);
        fflush(stdout);
        const char *end = slt__run_file(&s, &o, files[i], &f);
        double secs = slt__now_s() - t0;
        if (f.failed > f.shown)
            printf("  ... and %d more failures\n", f.failed - f.shown);
        printf("  %d/%d passed (%.1f%%), %d skipped, %.1f s%s%s\n", f.passed, f.total,
               f.total ? 100.0 * f.passed / f.total : 100.0, f.skipped, secs, strcmp(end, "done") ? ", ended: " : "",
               strcmp(end, "done") ? end : "");
        fflush(stdout);
        if (o.summary) {
            fprintf(o.summary, "%s\t%d\t%d\t%d\t%.1f\t%s\n", f.name, f.passed, f.total, f.skipped, secs, end);
            fflush(o.summary);
        }
        if (o.failures)
            fflush(o.failures);
        passed += f.passed;
        total += f.total;
        free(f.labels);
    }
    printf("all files: %ld/%ld passed (%.1f%%)\n", passed, total, total ? 100.0 * (double)passed / (double)total : 100.0);
    slt_server_stop(&s);
    if (o.summary)
        fclose(o.summary);
    if (o.failures)
        fclose(o.failures);
    free(args);
    free(files);
    return 0;
}
