/*
 * server.h: the public header of the server module (prefix srv_).
 *
 * The pgwire front end: libuv listeners and one event loop per I/O thread,
 * the connection state machine, authentication, sessions and statement
 * execution. main.c fills a srv_config_t from the command line and calls
 * srv_run, which returns when SIGINT or SIGTERM stopped the server.
 */
#ifndef EDDY_SERVER_H
#define EDDY_SERVER_H

#include "common/common.h"

#include <stdio.h>

typedef enum srv_auth_method {
    SRV_AUTH_TRUST = 0,
    SRV_AUTH_PASSWORD,   /* cleartext password checked against a SCRAM verifier */
    SRV_AUTH_SCRAM,
    SRV_AUTH_CERT,       /* a client certificate verified by --tls-ca whose CN is the user name */
} srv_auth_method_t;

typedef enum srv_tls_mode {
    SRV_TLS_ALLOW = 0,   /* clients choose TLS or clear */
    SRV_TLS_REQUIRE,     /* a startup in clear is refused (28000), as a hostssl-only pg_hba */
} srv_tls_mode_t;

typedef struct srv_config {
    char listen_host[256];
    int listen_port;
    int io_threads;                   /* event loops; default: online CPUs */
    int workers;                      /* dataflow worker threads; worker 0 also sequences */
    srv_auth_method_t auth;
    const char *users_file;           /* user:verifier lines; required unless trust */
    const char *tls_cert;             /* PEM certificate chain; NULL: no TLS */
    const char *tls_key;              /* PEM private key (0600) */
    const char *tls_ca;               /* PEM roots that client certificates must chain to */
    srv_tls_mode_t tls_mode;
    /* Limits: each a command-line knob. */
    size_t message_max_bytes;         /* any frontend message after authentication */
    size_t auth_message_max_bytes;    /* any frontend message before authentication */
    size_t output_max_bytes;          /* unsent output above which a connection stops reading */
    size_t result_max_bytes;          /* unsent output or suspended rows of one statement */
    int max_connections;
    int auth_timeout_ms;
    int auth_fail_delay_ms;           /* after a failed login, an address's next attempt waits this long,
                                         doubling per failure; 0: no delay */
    int auth_fail_delay_max_ms;       /* ... up to this */
    size_t worker_queue_max;          /* commands waiting per worker (back-pressure beyond) */
    int64_t view_recursion_limit;     /* a view's WITH RECURSIVE iterations per step before it is in error */
    int ddl_apply_timeout_ms;         /* DDL waits this long for every worker to apply it */
    size_t command_history_max;       /* sequenced commands eddy_internal remembers (and per worker) */
    int tick_interval_ms;             /* worker 0 sequences a Tick this often; 0: none */
    int write_retries;                /* an UPDATE or DELETE whose rows another session changed runs again
                                         this many times, then fails with 40001 */
    int64_t txn_write_rows_max;       /* rows a transaction (or one COPY) may change before its COMMIT */
    size_t copy_max_bytes;            /* input one COPY FROM STDIN may send (its rows are held until its end) */
    int fault_worker_delay_ms;        /* fault testing: workers but 0 sleep this long before each batch */
    int shutdown_timeout_ms;          /* SIGTERM: running statements may finish for this long */
    int log_slow_statements_ms;       /* a statement running this long is logged; -1: none */
    const char *http_listen;          /* HOST:PORT of /metrics, /healthz and /readyz; NULL: none */
    /* The catalog store: embedded unless `zookeeper` is set. */
    const char *zookeeper;            /* "host:port[,host:port...][/chroot]" */
    int zk_session_timeout_ms;        /* asked of ZooKeeper (it grants 2 to 20 ticks) */
    int zk_connect_timeout_ms;        /* start-up: wait this long for the first session */
    const char *cluster;              /* --cluster: one owner per name; NULL: "default" */
    const char *zk_auth_file;         /* digest credentials for ZooKeeper; NULL: none (open ACLs) */
    int ddl_timeout_ms;               /* a DDL the store cannot commit fails (57P03) after this */
    int name_recheck_timeout_ms;      /* cluster mode: a missing name waits this long for a newer head */
    int ddl_spin_us;                  /* a loop whose DDL (store, workers), read or write (workers) is on its way polls this long
                                         instead of sleeping: a thread wake-up costs 30-50 us on a VM */
    bool snapshot_reads;              /* reads of materialized views answered from the workers' published shards */
    int worker_spin_us;               /* a worker (and the sequencer, the ZooKeeper thread) polls this long after some
                                         work before it sleeps: the next DDL's costs its sender no wake-up */
    int worker_idle_merge_ms;         /* a worker quiet this long compacts its arrangements; 0: never */
} srv_config_t;

void srv_config_default(srv_config_t *cfg);

/* Runs the server until SIGINT/SIGTERM; returns the process exit status. */
int srv_run(const srv_config_t *cfg);
/* A fatal signal logs the signal and the statement the thread was running, then dumps core (srv_crash.c). */
void srv_crash_install(void);

/* --zookeeper-lock-acls: sets the credentials' ACL on the whole chroot; the exit status. */
int srv_zk_lock_acls(const srv_config_t *cfg);

/* srv_options.c: the options of --config FILE and EDDY_* variables, then the command line's, as one
 * vector for getopt_long (a later one wins); false (said on stderr) when the file cannot be used. */
struct option;
bool srv_options_gather(int argc, char **argv, const struct option *opts, int *argc_out, char ***argv_out);
/* " (from FILE:LINE)" or " (from $EDDY_X)" for argument index of that vector; "" for the command line. */
const char *srv_options_origin(int index);

/* --hash-password: reads one password line from in, prints a SCRAM verifier to out. */
int srv_hash_password(FILE *in, FILE *out);

/* EXPLAIN PHYSICAL PLAN's view of the dataflow engine (planner.h's pln_physical_fn over
 * df_plan_operators, srv_internal_engine.c); the server installs it at start, tests may too. */
struct plan;
struct pln_physical_op;
bool srv_physical_operators(const struct plan *p, cm_arena_t *arena, struct pln_physical_op **ops, int *nops,
                            cm_err_t *err);

#endif
