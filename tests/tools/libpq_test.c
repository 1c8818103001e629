/*
 * libpq_test.c: eddy through libpq, the C client library psql and most drivers sit on.
 *
 * Usage: libpq_test "host=127.0.0.1 port=N user=postgres dbname=eddy"
 * Prints one "ok NAME" / "not ok NAME" line per case (tests/run.sh counts them).
 * Every case is also run against PostgreSQL 15 by the libpq layer, so what is
 * asserted here is what PostgreSQL does.
 */
#include <arpa/inet.h>
#include <libpq-fe.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *conninfo;
static int case_failed;
static int cases_failed;

#define CHECK(cond, ...)                                                                 \
    do {                                                                                 \
        if (!(cond)) {                                                                   \
            printf("  %s:%d: ", __FILE__, __LINE__);                                     \
            printf(__VA_ARGS__);                                                         \
            printf("\n");                                                                \
            case_failed = 1;                                                             \
        }                                                                                \
    } while (0)

#define CHECK_STR(got, want, what)                                                       \
    do {                                                                                 \
        const char *g_ = (got), *w_ = (want);                                            \
        CHECK(g_ != NULL && strcmp(g_, w_) == 0, "%s: got \"%s\", want \"%s\"", what,     \
              g_ ? g_ : "(null)", w_);                                                   \
    } while (0)

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static PGconn *connect_db(void)
{
    PGconn *c = PQconnectdb(conninfo);
    if (PQstatus(c) != CONNECTION_OK) {
        printf("  connect failed: %s\n", PQerrorMessage(c));
        case_failed = 1;
    }
    return c;
}

static const char *sqlstate(const PGresult *r)
{
    const char *s = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    return s ? s : "(none)";
}

static void test_connect(void)
{
    PGconn *c = connect_db();
    if (PQstatus(c) == CONNECTION_OK) {
        CHECK(PQserverVersion(c) >= 150000 && PQserverVersion(c) < 160000,
              "PQserverVersion %d is 15.x", PQserverVersion(c));
        CHECK(PQprotocolVersion(c) == 3, "protocol 3");
        CHECK_STR(PQparameterStatus(c, "client_encoding"), "UTF8", "client_encoding");
        CHECK_STR(PQparameterStatus(c, "standard_conforming_strings"), "on", "scs");
        CHECK(PQbackendPID(c) != 0, "backend pid");
        CHECK(PQtransactionStatus(c) == PQTRANS_IDLE, "idle");
    }
    PQfinish(c);
}

static void test_exec_multi_statement(void)
{
    PGconn *c = connect_db();
    /* PQexec keeps only the last result; PQsendQuery shows them all. */
    PGresult *r = PQexec(c, "SELECT 1 AS a; SELECT 'two' AS b, NULL::int AS n");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK, "status %s", PQresStatus(PQresultStatus(r)));
    CHECK(PQnfields(r) == 2 && PQntuples(r) == 1, "last result's shape");
    CHECK_STR(PQfname(r, 0), "b", "column name");
    CHECK_STR(PQgetvalue(r, 0, 0), "two", "value");
    CHECK(PQgetisnull(r, 0, 1), "NULL");
    CHECK(PQftype(r, 1) == 23, "int4 oid for NULL::int, got %u", PQftype(r, 1));
    PQclear(r);

    CHECK(PQsendQuery(c, "SELECT 1; SELECT 1/0; SELECT 3"), "send");
    int n = 0;
    const char *states[4] = {0};
    while ((r = PQgetResult(c)) != NULL) {
        if (n < 4)
            states[n] = PQresStatus(PQresultStatus(r));
        if (PQresultStatus(r) == PGRES_FATAL_ERROR)
            CHECK_STR(sqlstate(r), "22012", "division by zero");
        n++;
        PQclear(r);
    }
    CHECK(n == 2, "two results (the rest abandoned), got %d", n);
    CHECK(states[0] && strcmp(states[0], "PGRES_TUPLES_OK") == 0, "first %s", states[0]);
    CHECK(states[1] && strcmp(states[1], "PGRES_FATAL_ERROR") == 0, "second %s", states[1]);

    r = PQexec(c, "");
    CHECK(PQresultStatus(r) == PGRES_EMPTY_QUERY, "empty query");
    PQclear(r);
    PQfinish(c);
}

static void test_exec_params_text_and_binary(void)
{
    PGconn *c = connect_db();
    /* Text parameters, text results. */
    const char *vals[3] = {"41", "hello", NULL};
    PGresult *r = PQexecParams(c, "SELECT $1::int4 + 1, upper($2::text), $3::text IS NULL",
                               3, NULL, vals, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK, "text params: %s", PQresultErrorMessage(r));
    if (PQntuples(r) == 1) {
        CHECK_STR(PQgetvalue(r, 0, 0), "42", "int4 + 1");
        CHECK_STR(PQgetvalue(r, 0, 1), "HELLO", "upper");
        CHECK_STR(PQgetvalue(r, 0, 2), "t", "NULL param");
    }
    PQclear(r);

    /* Binary parameters with declared types, binary results. */
    uint32_t i4 = htonl((uint32_t)-7);
    uint64_t i8 = ((uint64_t)htonl(0x05060708) << 32) | htonl(0x01020304); /* bytes 01..08 */
    double d = 2.5;
    uint64_t dbits;
    memcpy(&dbits, &d, 8);
    uint64_t dbe = ((uint64_t)htonl((uint32_t)dbits) << 32) | htonl((uint32_t)(dbits >> 32));
    Oid types[4] = {23, 20, 701, 25};
    const char *bvals[4] = {(const char *)&i4, (const char *)&i8, (const char *)&dbe, "bin"};
    int lens[4] = {4, 8, 8, 3};
    int fmts[4] = {1, 1, 1, 1};
    r = PQexecParams(c, "SELECT $1 * 2, $2 + 1, $3 * 2, $4 || '!'", 4, types, bvals, lens, fmts, 1);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK, "binary params: %s", PQresultErrorMessage(r));
    if (PQntuples(r) == 1 && PQnfields(r) == 4) {
        CHECK(PQfformat(r, 0) == 1, "binary result format");
        CHECK(PQgetlength(r, 0, 0) == 4 && ntohl(*(uint32_t *)PQgetvalue(r, 0, 0)) == (uint32_t)-14,
              "int4 result");
        const unsigned char *p = (const unsigned char *)PQgetvalue(r, 0, 1);
        CHECK(PQgetlength(r, 0, 1) == 8 && p[0] == 1 && p[7] == 9, "int8 result 0x0102030405060709");
        p = (const unsigned char *)PQgetvalue(r, 0, 2);
        CHECK(PQgetlength(r, 0, 2) == 8 && p[0] == 0x40 && p[1] == 0x14, "float8 5.0");
        CHECK(PQgetlength(r, 0, 3) == 4 && memcmp(PQgetvalue(r, 0, 3), "bin!", 4) == 0, "text");
    }
    PQclear(r);

    /* A bad parameter gives its SQLSTATE and leaves the connection usable. */
    const char *bad[1] = {"abc"};
    r = PQexecParams(c, "SELECT $1::int4", 1, NULL, bad, NULL, NULL, 0);
    CHECK_STR(sqlstate(r), "22P02", "invalid int4 text");
    PQclear(r);
    r = PQexec(c, "SELECT 1");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK, "usable after error");
    PQclear(r);
    PQfinish(c);
}

static void test_prepare_and_describe(void)
{
    PGconn *c = connect_db();
    Oid types[1] = {20};
    PGresult *r = PQprepare(c, "st1", "SELECT $1 * 10 AS x, $2::text AS label", 1, types);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK, "prepare: %s", PQresultErrorMessage(r));
    PQclear(r);
    r = PQdescribePrepared(c, "st1");
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK, "describe: %s", PQresultErrorMessage(r));
    CHECK(PQnparams(r) == 2, "2 params, got %d", PQnparams(r));
    if (PQnparams(r) == 2) {
        CHECK(PQparamtype(r, 0) == 20, "param 1 int8, got %u", PQparamtype(r, 0));
        CHECK(PQparamtype(r, 1) == 25, "param 2 text, got %u", PQparamtype(r, 1));
    }
    CHECK(PQnfields(r) == 2, "2 fields");
    if (PQnfields(r) == 2) {
        CHECK_STR(PQfname(r, 0), "x", "field name");
        CHECK(PQftype(r, 0) == 20, "field type int8");
        CHECK(PQftype(r, 1) == 25, "field type text");
    }
    PQclear(r);
    for (int i = 0; i < 8; i++) {
        char v[16];
        snprintf(v, sizeof v, "%d", i);
        const char *vals[2] = {v, "L"};
        r = PQexecPrepared(c, "st1", 2, vals, NULL, NULL, 0);
        char want[16];
        snprintf(want, sizeof want, "%d", i * 10);
        CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && strcmp(PQgetvalue(r, 0, 0), want) == 0,
              "execution %d", i);
        PQclear(r);
    }
    r = PQprepare(c, "st1", "SELECT 2", 0, NULL);
    CHECK_STR(sqlstate(r), "42P05", "duplicate prepared statement");
    PQclear(r);
    r = PQexecPrepared(c, "nope", 0, NULL, NULL, NULL, 0);
    CHECK_STR(sqlstate(r), "26000", "missing prepared statement");
    PQclear(r);
    r = PQdescribePrepared(c, "nope");
    CHECK_STR(sqlstate(r), "26000", "describe missing statement");
    PQclear(r);
    PQfinish(c);
}

static void test_deallocate(void)
{
    PGconn *c = connect_db();
    PQclear(PQprepare(c, "st2", "SELECT 1", 0, NULL));
    PGresult *r = PQexec(c, "DEALLOCATE st2");
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK, "DEALLOCATE: %s", PQresultErrorMessage(r));
    CHECK_STR(PQcmdStatus(r), "DEALLOCATE", "tag");
    PQclear(r);
    r = PQexecPrepared(c, "st2", 0, NULL, NULL, NULL, 0);
    CHECK_STR(sqlstate(r), "26000", "deallocated statement is gone");
    PQclear(r);
    PQfinish(c);
}

/* Reads the next result of a pipeline; NULL results separate queries. */
static PGresult *next_result(PGconn *c)
{
    PGresult *r = PQgetResult(c);
    return r;
}

static void test_pipeline_mode(void)
{
    PGconn *c = connect_db();
    CHECK(PQenterPipelineMode(c) == 1, "enter pipeline mode");
    const char *v1[1] = {"1"};
    CHECK(PQsendQueryParams(c, "SELECT $1::int4 AS a", 1, NULL, v1, NULL, NULL, 0), "send 1");
    CHECK(PQsendQueryParams(c, "SELECT 'b'::text AS b", 0, NULL, NULL, NULL, NULL, 0), "send 2");
    CHECK(PQsendPrepare(c, "pst", "SELECT $1::int8 * 3", 0, NULL), "send prepare");
    const char *v3[1] = {"5"};
    CHECK(PQsendQueryPrepared(c, "pst", 1, v3, NULL, NULL, 0), "send prepared");
    CHECK(PQpipelineSync(c), "sync 1");
    /* Second batch: an error in the middle aborts the rest up to its Sync. */
    CHECK(PQsendQueryParams(c, "SELECT 10", 0, NULL, NULL, NULL, NULL, 0), "send 10");
    CHECK(PQsendQueryParams(c, "SELECT 1/0", 0, NULL, NULL, NULL, NULL, 0), "send 1/0");
    CHECK(PQsendQueryParams(c, "SELECT 30", 0, NULL, NULL, NULL, NULL, 0), "send 30");
    CHECK(PQpipelineSync(c), "sync 2");
    CHECK(PQsendQueryParams(c, "SELECT 40", 0, NULL, NULL, NULL, NULL, 0), "send 40");
    CHECK(PQpipelineSync(c), "sync 3");

    const char *want_vals[3] = {"1", "b", NULL};
    for (int q = 0; q < 4; q++) {
        PGresult *r = next_result(c);
        ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
        if (q == 2) {
            CHECK(st == PGRES_COMMAND_OK, "prepare result: %s", PQresStatus(st));
        } else {
            CHECK(st == PGRES_TUPLES_OK, "query %d: %s %s", q, PQresStatus(st),
                  r ? PQresultErrorMessage(r) : "");
            if (st == PGRES_TUPLES_OK && PQntuples(r) == 1)
                CHECK_STR(PQgetvalue(r, 0, 0), q == 3 ? "15" : want_vals[q], "value");
        }
        PQclear(r);
        r = next_result(c);
        CHECK(r == NULL, "NULL after query %d", q);
        PQclear(r);
    }
    PGresult *r = next_result(c);
    CHECK(r && PQresultStatus(r) == PGRES_PIPELINE_SYNC, "sync 1 result");
    PQclear(r);

    r = next_result(c);
    CHECK(r && PQresultStatus(r) == PGRES_TUPLES_OK && strcmp(PQgetvalue(r, 0, 0), "10") == 0,
          "SELECT 10");
    PQclear(r);
    PQclear(next_result(c));
    r = next_result(c);
    CHECK(r && PQresultStatus(r) == PGRES_FATAL_ERROR, "1/0 fails");
    CHECK_STR(sqlstate(r), "22012", "division by zero");
    PQclear(r);
    PQclear(next_result(c));
    r = next_result(c);
    CHECK(r && PQresultStatus(r) == PGRES_PIPELINE_ABORTED, "SELECT 30 aborted, got %s",
          r ? PQresStatus(PQresultStatus(r)) : "NULL");
    PQclear(r);
    PQclear(next_result(c));
    r = next_result(c);
    CHECK(r && PQresultStatus(r) == PGRES_PIPELINE_SYNC, "sync 2 result");
    PQclear(r);
    r = next_result(c);
    CHECK(r && PQresultStatus(r) == PGRES_TUPLES_OK && strcmp(PQgetvalue(r, 0, 0), "40") == 0,
          "after the aborted batch, SELECT 40 runs");
    PQclear(r);
    PQclear(next_result(c));
    r = next_result(c);
    CHECK(r && PQresultStatus(r) == PGRES_PIPELINE_SYNC, "sync 3 result");
    PQclear(r);
    CHECK(PQexitPipelineMode(c) == 1, "exit pipeline mode: %s", PQerrorMessage(c));
    PQfinish(c);
}

struct canceller {
    PGconn *conn;
    int ok;
};

static void *cancel_after_delay(void *arg)
{
    struct canceller *k = arg;
    usleep(300 * 1000);
    PGcancel *cn = PQgetCancel(k->conn);
    char err[256];
    k->ok = cn && PQcancel(cn, err, sizeof err);
    PQfreeCancel(cn);
    return NULL;
}

static void test_cancel(void)
{
    PGconn *c = connect_db();
    struct canceller k = {c, 0};
    pthread_t th;
    pthread_create(&th, NULL, cancel_after_delay, &k);
    double t0 = now_s();
    PGresult *r = PQexec(c, "SELECT pg_sleep(10)");
    double dt = now_s() - t0;
    pthread_join(th, NULL);
    CHECK(k.ok, "PQcancel sent");
    CHECK_STR(sqlstate(r), "57014", "query_canceled");
    CHECK(dt < 1.3, "cancelled within a second of the request (%.2f s in all)", dt);
    PQclear(r);
    r = PQexec(c, "SELECT 5");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && strcmp(PQgetvalue(r, 0, 0), "5") == 0,
          "connection usable after cancel");
    PQclear(r);
    PQfinish(c);
}

static void test_transaction_status(void)
{
    PGconn *c = connect_db();
    PQclear(PQexec(c, "BEGIN"));
    CHECK(PQtransactionStatus(c) == PQTRANS_INTRANS, "in transaction");
    PGresult *r = PQexec(c, "SELECT nonexistent_column_xyz");
    CHECK(PQresultStatus(r) == PGRES_FATAL_ERROR, "error");
    PQclear(r);
    CHECK(PQtransactionStatus(c) == PQTRANS_INERROR, "in failed transaction");
    r = PQexec(c, "SELECT 1");
    CHECK_STR(sqlstate(r), "25P02", "commands ignored");
    PQclear(r);
    r = PQexec(c, "ROLLBACK");
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK, "rollback");
    CHECK_STR(PQcmdStatus(r), "ROLLBACK", "tag");
    PQclear(r);
    CHECK(PQtransactionStatus(c) == PQTRANS_IDLE, "idle again");
    PQfinish(c);
}

#define RUN(fn)                                                                          \
    do {                                                                                 \
        case_failed = 0;                                                                 \
        fn();                                                                            \
        printf("%s %s\n", case_failed ? "not ok" : "ok", &#fn[5]); /* past "test_" */      \
        fflush(stdout);                                                                  \
        cases_failed += case_failed;                                                     \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CONNINFO\n", argv[0]);
        return 2;
    }
    conninfo = argv[1];
    RUN(test_connect);
    RUN(test_exec_multi_statement);
    RUN(test_exec_params_text_and_binary);
    RUN(test_prepare_and_describe);
    RUN(test_deallocate);
    RUN(test_pipeline_mode);
    RUN(test_transaction_status);
    RUN(test_cancel);
    return cases_failed ? 1 : 0;
}
