/*
 * slt_conn.c: the server under test and the runner's one connection to it.
 * An owned eddy is started on a free loopback port with its output appended
 * to a log, and stopped or restarted by its pid only. Statements go out with
 * the simple query protocol; the session's statement_timeout makes the server
 * end a slow statement itself, and a server silent for the timeout plus a
 * grace period is hung: the caller restarts it. libpq's blocking cancel is not
 * used, since a stopped server would block it forever.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "slt.h"

static long long slt__now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void slt__sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int slt__free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = 0};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    int port = -1;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 && getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    close(fd);
    return port;
}

static bool slt__port_open(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return false;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
    close(fd);
    return ok;
}

static void slt__describe_exit(slt_server_t *s, int st)
{
    if (WIFSIGNALED(st))
        snprintf(s->last_exit, sizeof s->last_exit, "server killed by signal %d (%s)", WTERMSIG(st),
                 strsignal(WTERMSIG(st)));
    else if (WIFEXITED(st))
        snprintf(s->last_exit, sizeof s->last_exit, "server exited with status %d", WEXITSTATUS(st));
}

bool slt_server_alive(slt_server_t *s)
{
    if (!s->eddy_bin)
        return true;
    if (s->pid <= 0)
        return false;
    int st;
    pid_t r = waitpid(s->pid, &st, WNOHANG);
    if (r == 0)
        return true;
    if (r == s->pid)
        slt__describe_exit(s, st);
    s->pid = 0;
    return false;
}

bool slt_server_start(slt_server_t *s, char *err, size_t errlen)
{
    if (!s->eddy_bin)
        return true;
    s->port = slt__free_port();
    if (s->port <= 0) {
        snprintf(err, errlen, "no free port: %s", strerror(errno));
        return false;
    }
    char listen[64];
    snprintf(listen, sizeof listen, "127.0.0.1:%d", s->port);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        return false;
    }
    if (pid == 0) {
        int fd = open(s->server_log ? s->server_log : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        char **argv = calloc((size_t)s->neddy_args + 4, sizeof(char *));
        if (!argv)
            _exit(127);
        int n = 0;
        argv[n++] = (char *)s->eddy_bin;
        argv[n++] = "--listen";
        argv[n++] = listen;
        for (int i = 0; i < s->neddy_args; i++)
            argv[n++] = s->eddy_args[i];
        argv[n] = NULL;
        execv(s->eddy_bin, argv);
        fprintf(stderr, "slt: exec %s: %s\n", s->eddy_bin, strerror(errno));
        _exit(127);
    }
    s->pid = pid;
    s->last_exit[0] = 0;
    for (long long end = slt__now_ms() + 20000; slt__now_ms() < end;) {
        if (!slt_server_alive(s)) {
            snprintf(err, errlen, "eddy did not start: %s", s->last_exit);
            return false;
        }
        if (slt__port_open(s->port)) {
            printf("server: eddy pid %d on 127.0.0.1:%d\n", (int)s->pid, s->port);
            fflush(stdout);
            return true;
        }
        slt__sleep_ms(20);
    }
    snprintf(err, errlen, "eddy did not listen on %s within 20 s", listen);
    slt_server_stop(s);
    return false;
}

void slt_server_stop(slt_server_t *s)
{
    slt_conn_close(s);
    if (!s->eddy_bin || s->pid <= 0)
        return;
    kill(s->pid, SIGTERM);
    for (long long end = slt__now_ms() + 5000; slt__now_ms() < end;) {
        if (!slt_server_alive(s))
            return;
        slt__sleep_ms(10);
    }
    kill(s->pid, SIGKILL);
    int st;
    if (waitpid(s->pid, &st, 0) == s->pid)
        slt__describe_exit(s, st);
    s->pid = 0;
}

void slt_server_kill(slt_server_t *s)
{
    slt_conn_close(s);
    if (!s->eddy_bin || s->pid <= 0)
        return;
    kill(s->pid, SIGKILL);
    int st;
    if (waitpid(s->pid, &st, 0) == s->pid)
        slt__describe_exit(s, st);
    s->pid = 0;
}

static void slt__notice_drop(void *arg, const char *msg)
{
}

bool slt_conn_open(slt_server_t *s, char *err, size_t errlen)
{
    char ci[1024];
    slt_conn_close(s);
    if (s->dsn)
        snprintf(ci, sizeof ci, "%s connect_timeout=10", s->dsn);
    else
        snprintf(ci, sizeof ci, "host=127.0.0.1 port=%d user=%s dbname=%s connect_timeout=10", s->port,
                 s->user ? s->user : "slt", s->dbname ? s->dbname : "eddy");
    s->conn = PQconnectdb(ci);
    if (PQstatus(s->conn) != CONNECTION_OK) {
        snprintf(err, errlen, "connect: %s", PQerrorMessage(s->conn));
        char *nl = strchr(err, '\n');
        if (nl)
            *nl = 0;
        slt_conn_close(s);
        return false;
    }
    PQsetNoticeProcessor(s->conn, slt__notice_drop, NULL);
    char set[128];
    snprintf(set, sizeof set, "SET statement_timeout = %d", s->stmt_timeout_ms);
    PGresult *r = PQexec(s->conn, set);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok)
        snprintf(err, errlen, "%s: %s", set, PQresultErrorMessage(r));
    PQclear(r);
    if (!ok)
        slt_conn_close(s);
    return ok;
}

void slt_conn_close(slt_server_t *s)
{
    if (s->conn)
        PQfinish(s->conn);
    s->conn = NULL;
}

void slt_exec_clear(slt_exec_t *e)
{
    if (e->res)
        PQclear(e->res);
    memset(e, 0, sizeof *e);
}

static void slt__set_error(slt_exec_t *out, PGresult *r)
{
    if (out->status == SLT_EXEC_ERROR)
        return;           /* the first error is the statement's */
    out->status = SLT_EXEC_ERROR;
    const char *st = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    const char *msg = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
    snprintf(out->sqlstate, sizeof out->sqlstate, "%s", st ? st : "");
    snprintf(out->message, sizeof out->message, "%s", msg ? msg : PQresultErrorMessage(r));
}

void slt_conn_exec(slt_server_t *s, const char *sql, slt_exec_t *out)
{
    memset(out, 0, sizeof *out);
    PGconn *c = s->conn;
    if (!c || PQstatus(c) != CONNECTION_OK || !PQsendQuery(c, sql)) {
        out->status = SLT_EXEC_LOST;
        snprintf(out->message, sizeof out->message, "%s", c ? PQerrorMessage(c) : "no connection");
        return;
    }
    long long deadline = slt__now_ms() + s->stmt_timeout_ms + s->grace_ms;
    for (;;) {
        while (!PQisBusy(c)) {
            PGresult *r = PQgetResult(c);
            if (!r) {
                /* A FATAL error that ended the session is a lost connection too: the
                 * record in flight is the one to blame, not the next. */
                if (PQstatus(c) != CONNECTION_OK) {
                    if (out->status != SLT_EXEC_ERROR)
                        snprintf(out->message, sizeof out->message, "%s", PQerrorMessage(c));
                    out->status = SLT_EXEC_LOST;
                }
                if (out->res) {
                    out->nfields = PQnfields(out->res);
                    out->ntuples = PQntuples(out->res);
                }
                return;
            }
            switch (PQresultStatus(r)) {
            case PGRES_TUPLES_OK:
                if (out->res)
                    PQclear(out->res);
                out->res = r;
                continue;
            case PGRES_FATAL_ERROR:
                if (PQstatus(c) != CONNECTION_OK && !PQresultErrorField(r, PG_DIAG_SQLSTATE)) {
                    out->status = SLT_EXEC_LOST;
                    snprintf(out->message, sizeof out->message, "%s", PQerrorMessage(c));
                    PQclear(r);
                    return;
                }
                slt__set_error(out, r);
                break;
            case PGRES_COPY_IN:
                PQputCopyEnd(c, "the sqllogictest runner sends no COPY data");
                break;
            case PGRES_COPY_OUT: {
                char *buf;
                while (PQgetCopyData(c, &buf, 0) > 0)
                    PQfreemem(buf);
                break;
            }
            default:
                break;
            }
            PQclear(r);
        }
        long long left = deadline - slt__now_ms();
        if (left <= 0) {
            out->status = SLT_EXEC_HANG;
            snprintf(out->message, sizeof out->message, "no answer within %d ms",
                     s->stmt_timeout_ms + s->grace_ms);
            return;
        }
        struct pollfd pfd = {.fd = PQsocket(c), .events = POLLIN};
        if (pfd.fd < 0) {
            out->status = SLT_EXEC_LOST;
            snprintf(out->message, sizeof out->message, "connection socket gone");
            return;
        }
        int pr = poll(&pfd, 1, (int)(left > 1000 ? 1000 : left));
        if (pr < 0 && errno != EINTR) {
            out->status = SLT_EXEC_LOST;
            snprintf(out->message, sizeof out->message, "poll: %s", strerror(errno));
            return;
        }
        if (pr > 0 && !PQconsumeInput(c)) {
            out->status = SLT_EXEC_LOST;
            snprintf(out->message, sizeof out->message, "%s", PQerrorMessage(c));
            char *nl = strchr(out->message, '\n');
            if (nl)
                *nl = 0;
            return;
        }
    }
}
