/*
 * main.c: eddy's command line (DESIGN §9): parses options into a
 * srv_config_t and runs the server, or answers --help, --version and
 * --hash-password. A value that is not valid is refused with a clear
 * message and exit status 2.
 */
#include "catalog/catalog.h"
#include "common/common.h"
#include "server/server.h"

#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "eddy %s: a streaming SQL server that speaks PostgreSQL's wire protocol\n"
            "\n"
            "usage: eddy [options]\n"
            "\n"
            "Where options come from:\n"
            "  --config FILE               read options from FILE: \"key = value\" lines (key: an option's\n"
            "                              name without --, as listen = 127.0.0.1:6875), # comments\n"
            "      Every option that takes a value can also be an EDDY_* environment variable, named\n"
            "      after it upper-cased with _ for - (EDDY_LISTEN, EDDY_WORKERS; EDDY_CONFIG names\n"
            "      the file). Precedence: command line > environment > config file > defaults.\n"
            "\n"
            "Network:\n"
            "  --listen HOST:PORT          address to listen on (default 127.0.0.1:6875)\n"
            "  --io-threads N              network event loops (default: online CPUs)\n"
            "  --max-connections N         clients beyond N get 53300 (default 4096)\n"
            "  --auth-timeout-ms N         time allowed for startup and authentication (default 60000)\n"
            "  --auth-fail-delay-ms N      after a failed authentication, the next attempt from that address\n"
            "                              waits N ms, doubling with each failure; a success resets it (default 0: off)\n"
            "  --auth-fail-delay-max-ms N  the longest such wait (default 10000)\n"
            "\n"
            "Authentication and TLS:\n"
            "  --auth trust|password|scram|cert  client authentication (default trust; cert: a client\n"
            "                              certificate signed by --tls-ca whose CN is the user name)\n"
            "  --users FILE                user:SCRAM-SHA-256$... lines for password/scram (read again on SIGHUP)\n"
            "  --tls-cert FILE             TLS: PEM certificate chain (with --tls-key; read again on SIGHUP)\n"
            "  --tls-key FILE              TLS: private key of mode 0600 (read again on SIGHUP)\n"
            "  --tls-ca FILE               PEM roots that client certificates must chain to\n"
            "  --tls-mode allow|require    require: clients in clear are refused with 28000 (default allow)\n"
            "  --hash-password             read a password on stdin, print its SCRAM verifier, exit\n"
            "\n"
            "Catalog and cluster:\n"
            "  --zookeeper HOSTS/CHROOT    durable catalog in ZooKeeper, shared by every eddy that names it\n"
            "                              (HOST:PORT[,HOST:PORT...][/CHROOT]; default: embedded catalog)\n"
            "  --zookeeper-auth-file FILE  digest credentials for ZooKeeper (mode 0600): a line user:password,\n"
            "                              optionally \"read-only user:password\"; every znode eddy creates is\n"
            "                              CREATOR_ALL for them (plus READ for the read-only identity)\n"
            "  --zookeeper-lock-acls       set that ACL on every znode of the chroot (an existing open catalog), exit\n"
            "  --cluster NAME              worker cluster this process owns or stands by for\n"
            "                              (with --zookeeper; default 'default')\n"
            "  --zookeeper-session-timeout-ms N  ZooKeeper session timeout asked for (default 10000)\n"
            "  --zookeeper-connect-timeout-ms N  start-up: wait this long for ZooKeeper (default 10000)\n"
            "  --ddl-timeout-ms N          DDL the catalog store cannot commit fails with 57P03 after N ms\n"
            "                              (default 10000)\n"
            "  --name-recheck-timeout-ms N cluster mode: a name missing here waits up to N ms for newer DDL\n"
            "                              (default 2000)\n"
            "  --data-dir DIR              local state directory (accepted; unused: state is in memory)\n"
            "\n"
            "Workers:\n"
            "  --workers N                 dataflow workers (default: online CPUs)\n"
            "  --worker-queue-max N        commands waiting per worker before worker 0 holds back (default 1024)\n"
            "  --view-recursion-limit N    iterations of a materialized view's WITH RECURSIVE in one write;\n"
            "                              beyond them the view is in error 54000 (default 10000)\n"
            "  --ddl-apply-timeout-ms N    how long DDL waits for every worker to apply it (default 30000)\n"
            "  --write-retries N           runs of an UPDATE or DELETE whose rows changed meanwhile,\n"
            "                              before 40001 (default 100)\n"
            "  --txn-write-rows-max N      rows one transaction may change before its COMMIT (default 1000000)\n"
            "  --command-history-max N     sequenced commands kept for eddy_internal, per worker too (default 10000)\n"
            "  --tick-interval-ms N        worker 0 sequences a Tick (logical time) every N ms; 0: none (default 0)\n"
            "  --ddl-spin-us N             a loop whose DDL, read or write is on its way to the workers polls N us\n"
            "                              instead of sleeping\n"
            "                              (default 1000; 0: sleep at once)\n"
            "  --worker-spin-us N          a worker (and the ZooKeeper thread) polls N us for more work after\n"
            "                              some, before sleeping (default 1000; 0: sleep at once)\n"
            "  --snapshot-reads on|off     reads of tables and materialized views are answered on the session's\n"
            "                              thread from the shards the workers publish, when current (default on;\n"
            "                              off: every read waits for the workers to answer it)\n"
            "  --worker-idle-merge-ms N    a worker that has had no command for N ms merges its arrangements'\n"
            "                              batches and gives freed memory back (default 100; 0: never)\n"
            "\n"
            "Limits:\n"
            "  --message-max-bytes N       largest frontend message (default 67108864)\n"
            "  --auth-message-max-bytes N  largest message before authentication (default 10000)\n"
            "  --output-max-bytes N        unsent output at which a client stops being read (default 1048576)\n"
            "  --result-max-bytes N        unsent or suspended result of one statement (default 67108864)\n"
            "  --copy-max-bytes N          input one COPY FROM STDIN may send (default 1073741824)\n"
            "\n"
            "Logging and operation:\n"
            "  --log-level error|warn|info|debug  least severe level logged, to stderr (default warn)\n"
            "  --log-format text|json      a line per event: ts=... level=... msg=\"...\" key=value fields,\n"
            "                              or one JSON object (default text)\n"
            "  --log-slow-statements-ms N  log (warn) every Query or extended-protocol group up to Sync\n"
            "                              that takes N ms or more, with its text; -1: none (default -1)\n"
            "  --shutdown-timeout-ms N     SIGTERM/SIGINT: stop accepting, let running statements answer for\n"
            "                              up to N ms, then end every session with 57P01 (default 10000)\n"
            "  --http-listen HOST:PORT     serve /metrics (Prometheus text format), /healthz and /readyz over\n"
            "                              HTTP on their own thread (default: off)\n"
            "      Readiness goes to systemd (Type=notify) through $NOTIFY_SOCKET when it is set.\n"
            "\n"
            "Testing:\n"
            "  --fault-worker-delay-ms N   workers other than 0 sleep N ms before each batch (default 0)\n"
            "\n"
            "Other:\n"
            "  --help                      print this and exit\n"
            "  --version                   print the version and exit\n",
            EDDY_VERSION);
}

static bool parse_size(const char *s, long long min, long long max, long long *out)
{
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end != 0 || v < min || v > max)
        return false;
    *out = v;
    return true;
}

static bool parse_listen(const char *s, srv_config_t *cfg)
{
    const char *colon = strrchr(s, ':');
    long long port;
    if (colon == NULL || !parse_size(colon + 1, 0, 65535, &port))
        return false;
    size_t n = (size_t)(colon - s);
    if (n > 1 && s[0] == '[' && s[n - 1] == ']') {
        s++;
        n -= 2;
    }
    if (n == 0 || n >= sizeof cfg->listen_host)
        return false;
    memcpy(cfg->listen_host, s, n);
    cfg->listen_host[n] = 0;
    cfg->listen_port = (int)port;
    return true;
}

enum {
    OPT_LISTEN = 256, OPT_WORKERS, OPT_IO_THREADS, OPT_ZOOKEEPER, OPT_CLUSTER, OPT_DATA_DIR, OPT_AUTH,
    OPT_USERS, OPT_TLS_CERT, OPT_TLS_KEY, OPT_LOG_LEVEL, OPT_MAX_CONN, OPT_MSG_MAX, OPT_AUTH_MSG_MAX,
    OPT_OUT_MAX, OPT_RESULT_MAX, OPT_AUTH_TIMEOUT, OPT_WORKER_QUEUE_MAX, OPT_VIEW_RECURSION, OPT_DDL_APPLY_TIMEOUT, OPT_WRITE_RETRIES, OPT_TXN_WRITE_ROWS_MAX, OPT_COPY_MAX,
    OPT_COMMAND_HISTORY_MAX, OPT_WORKER_IDLE_MERGE, OPT_HASH, OPT_HELP, OPT_VERSION, OPT_ZK_SESSION_TIMEOUT,
    OPT_ZK_CONNECT_TIMEOUT, OPT_DDL_TIMEOUT, OPT_NAME_RECHECK_TIMEOUT, OPT_DDL_SPIN, OPT_SNAPSHOT_READS, OPT_WORKER_SPIN, OPT_WORKER_DELAY, OPT_TICK_INTERVAL,
    OPT_TLS_CA, OPT_TLS_MODE, OPT_ZK_AUTH_FILE, OPT_ZK_LOCK_ACLS, OPT_CONFIG, OPT_SHUTDOWN_TIMEOUT, OPT_LOG_FORMAT, OPT_LOG_SLOW,
    OPT_HTTP_LISTEN, OPT_AUTH_FAIL_DELAY, OPT_AUTH_FAIL_DELAY_MAX,
};

/*
 * Statement arenas grow in blocks of up to 1 MiB and are freed after every
 * statement. With glibc's defaults those blocks come from mmap or from heap
 * tops that are trimmed at once, so a large result (SHOW OBJECTS over a
 * 10,000-item catalog) paid for fresh zeroed pages on every run: a third
 * of its time in page faults. Serving them from the heap and trimming only
 * past 64 MiB of free top keeps them warm; memory that is freed stays
 * reusable by the process rather than going back to the kernel at once.
 */
static void tune_allocator(void)
{
    mallopt(M_MMAP_THRESHOLD, 8 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
    /* One arena for every thread: what a worker or connection thread frees
     * is then reusable by the others and goes back to the kernel when a
     * quiet worker trims (cm_alloc_release_free). With an arena per thread,
     * a 1M-row COPY left ~150 MB free but resident in the arenas of the
     * threads that had held it, which no trim returned; eddy allocates per
     * statement and per batch, not per row, so one lock costs little. */
    mallopt(M_ARENA_MAX, 1);
}

int main(int argc, char **argv)
{
    tune_allocator();
    static const struct option opts[] = {
        {"listen", required_argument, NULL, OPT_LISTEN},
        {"workers", required_argument, NULL, OPT_WORKERS},
        {"io-threads", required_argument, NULL, OPT_IO_THREADS},
        {"zookeeper", required_argument, NULL, OPT_ZOOKEEPER},
        {"cluster", required_argument, NULL, OPT_CLUSTER},
        {"data-dir", required_argument, NULL, OPT_DATA_DIR},
        {"auth", required_argument, NULL, OPT_AUTH},
        {"users", required_argument, NULL, OPT_USERS},
        {"tls-cert", required_argument, NULL, OPT_TLS_CERT},
        {"tls-key", required_argument, NULL, OPT_TLS_KEY},
        {"log-level", required_argument, NULL, OPT_LOG_LEVEL},
        {"max-connections", required_argument, NULL, OPT_MAX_CONN},
        {"message-max-bytes", required_argument, NULL, OPT_MSG_MAX},
        {"auth-message-max-bytes", required_argument, NULL, OPT_AUTH_MSG_MAX},
        {"output-max-bytes", required_argument, NULL, OPT_OUT_MAX},
        {"result-max-bytes", required_argument, NULL, OPT_RESULT_MAX},
        {"auth-timeout-ms", required_argument, NULL, OPT_AUTH_TIMEOUT},
        {"auth-fail-delay-ms", required_argument, NULL, OPT_AUTH_FAIL_DELAY},
        {"auth-fail-delay-max-ms", required_argument, NULL, OPT_AUTH_FAIL_DELAY_MAX},
        {"worker-queue-max", required_argument, NULL, OPT_WORKER_QUEUE_MAX},
        {"view-recursion-limit", required_argument, NULL, OPT_VIEW_RECURSION},
        {"ddl-apply-timeout-ms", required_argument, NULL, OPT_DDL_APPLY_TIMEOUT},
        {"command-history-max", required_argument, NULL, OPT_COMMAND_HISTORY_MAX},
        {"write-retries", required_argument, NULL, OPT_WRITE_RETRIES},
        {"copy-max-bytes", required_argument, NULL, OPT_COPY_MAX},
        {"txn-write-rows-max", required_argument, NULL, OPT_TXN_WRITE_ROWS_MAX},
        {"hash-password", no_argument, NULL, OPT_HASH},
        {"help", no_argument, NULL, OPT_HELP},
        {"version", no_argument, NULL, OPT_VERSION},
        {"zookeeper-session-timeout-ms", required_argument, NULL, OPT_ZK_SESSION_TIMEOUT},
        {"zookeeper-connect-timeout-ms", required_argument, NULL, OPT_ZK_CONNECT_TIMEOUT},
        {"ddl-timeout-ms", required_argument, NULL, OPT_DDL_TIMEOUT},
        {"name-recheck-timeout-ms", required_argument, NULL, OPT_NAME_RECHECK_TIMEOUT},
        {"ddl-spin-us", required_argument, NULL, OPT_DDL_SPIN},
        {"snapshot-reads", required_argument, NULL, OPT_SNAPSHOT_READS},
        {"worker-spin-us", required_argument, NULL, OPT_WORKER_SPIN},
        {"worker-idle-merge-ms", required_argument, NULL, OPT_WORKER_IDLE_MERGE},
        {"fault-worker-delay-ms", required_argument, NULL, OPT_WORKER_DELAY},
        {"tick-interval-ms", required_argument, NULL, OPT_TICK_INTERVAL},
        {"tls-ca", required_argument, NULL, OPT_TLS_CA},
        {"tls-mode", required_argument, NULL, OPT_TLS_MODE},
        {"zookeeper-auth-file", required_argument, NULL, OPT_ZK_AUTH_FILE},
        {"zookeeper-lock-acls", no_argument, NULL, OPT_ZK_LOCK_ACLS},
        {"config", required_argument, NULL, OPT_CONFIG},
        {"shutdown-timeout-ms", required_argument, NULL, OPT_SHUTDOWN_TIMEOUT},
        {"log-format", required_argument, NULL, OPT_LOG_FORMAT},
        {"log-slow-statements-ms", required_argument, NULL, OPT_LOG_SLOW},
        {"http-listen", required_argument, NULL, OPT_HTTP_LISTEN},
        {NULL, 0, NULL, 0},
    };
    srv_config_t cfg;
    srv_config_default(&cfg);
    long long v;
    bool lock_acls = false;
    int o, at = -1;
    if (!srv_options_gather(argc, argv, opts, &argc, &argv))
        return 2;
    while ((o = getopt_long(argc, argv, "", opts, &at)) != -1) {
        bool ok = true;
        switch (o) {
        case OPT_CONFIG:
            break;   /* read by srv_options_gather */
        case OPT_SHUTDOWN_TIMEOUT:
            ok = parse_size(optarg, 0, 3600000, &v);
            cfg.shutdown_timeout_ms = (int)v;
            break;
        case OPT_LOG_FORMAT:
            ok = cm_log_format_parse(optarg, &cm_log_format);
            break;
        case OPT_LOG_SLOW:
            ok = parse_size(optarg, -1, 3600000, &v);
            cfg.log_slow_statements_ms = (int)v;
            break;
        case OPT_LISTEN:
            ok = parse_listen(optarg, &cfg);
            break;
        case OPT_HTTP_LISTEN: {
            srv_config_t probe;   /* the same HOST:PORT form; srv_http.c resolves it */
            ok = parse_listen(optarg, &probe);
            cfg.http_listen = optarg;
            break;
        }
        case OPT_WORKERS:
            ok = parse_size(optarg, 1, 1024, &v);
            cfg.workers = (int)v;
            break;
        case OPT_IO_THREADS:
            ok = parse_size(optarg, 1, 256, &v);
            cfg.io_threads = (int)v;
            break;
        case OPT_ZOOKEEPER:
            ok = optarg[0] != 0 && optarg[0] != '/';
            cfg.zookeeper = optarg;
            break;
        case OPT_ZK_SESSION_TIMEOUT:
            ok = parse_size(optarg, 100, 3600000, &v);
            cfg.zk_session_timeout_ms = (int)v;
            break;
        case OPT_ZK_CONNECT_TIMEOUT:
            ok = parse_size(optarg, 1, 3600000, &v);
            cfg.zk_connect_timeout_ms = (int)v;
            break;
        case OPT_DDL_TIMEOUT:
            ok = parse_size(optarg, 1, 3600000, &v);
            cfg.ddl_timeout_ms = (int)v;
            break;
        case OPT_NAME_RECHECK_TIMEOUT:
            ok = parse_size(optarg, 1, 3600000, &v);
            cfg.name_recheck_timeout_ms = (int)v;
            break;
        case OPT_DDL_SPIN:
            ok = parse_size(optarg, 0, 10000, &v);
            cfg.ddl_spin_us = (int)v;
            break;
        case OPT_SNAPSHOT_READS:
            ok = strcmp(optarg, "on") == 0 || strcmp(optarg, "off") == 0;
            cfg.snapshot_reads = strcmp(optarg, "on") == 0;
            break;
        case OPT_WORKER_SPIN:
            ok = parse_size(optarg, 0, 100000, &v);
            cfg.worker_spin_us = (int)v;
            break;
        case OPT_WORKER_IDLE_MERGE:
            ok = parse_size(optarg, 0, 3600000, &v);
            cfg.worker_idle_merge_ms = (int)v;
            break;
        case OPT_CLUSTER:
            ok = cat_zk_cluster_name_valid(optarg);
            cfg.cluster = optarg;
            break;
        case OPT_DATA_DIR:
            break;   /* accepted; used once the catalog and workers arrive */
        case OPT_AUTH:
            if (strcmp(optarg, "trust") == 0)
                cfg.auth = SRV_AUTH_TRUST;
            else if (strcmp(optarg, "password") == 0)
                cfg.auth = SRV_AUTH_PASSWORD;
            else if (strcmp(optarg, "scram") == 0)
                cfg.auth = SRV_AUTH_SCRAM;
            else if (strcmp(optarg, "cert") == 0)
                cfg.auth = SRV_AUTH_CERT;
            else
                ok = false;
            break;
        case OPT_USERS:
            cfg.users_file = optarg;
            break;
        case OPT_TLS_CERT:
            cfg.tls_cert = optarg;
            break;
        case OPT_TLS_KEY:
            cfg.tls_key = optarg;
            break;
        case OPT_TLS_CA:
            cfg.tls_ca = optarg;
            break;
        case OPT_ZK_AUTH_FILE:
            cfg.zk_auth_file = optarg;
            break;
        case OPT_ZK_LOCK_ACLS:
            lock_acls = true;
            break;
        case OPT_TLS_MODE:
            if (strcmp(optarg, "allow") == 0)
                cfg.tls_mode = SRV_TLS_ALLOW;
            else if (strcmp(optarg, "require") == 0)
                cfg.tls_mode = SRV_TLS_REQUIRE;
            else
                ok = false;
            break;
        case OPT_LOG_LEVEL:
            ok = cm_log_level_parse(optarg, &cm_log_level);
            break;
        case OPT_MAX_CONN:
            ok = parse_size(optarg, 1, 1000000, &v);
            cfg.max_connections = (int)v;
            break;
        case OPT_MSG_MAX:
            ok = parse_size(optarg, 1024, 0x3ffffffe, &v);
            cfg.message_max_bytes = (size_t)v;
            break;
        case OPT_AUTH_MSG_MAX:
            ok = parse_size(optarg, 256, 1 << 20, &v);
            cfg.auth_message_max_bytes = (size_t)v;
            break;
        case OPT_OUT_MAX:
            ok = parse_size(optarg, 4096, 1LL << 40, &v);
            cfg.output_max_bytes = (size_t)v;
            break;
        case OPT_RESULT_MAX:
            ok = parse_size(optarg, 4096, 1LL << 40, &v);
            cfg.result_max_bytes = (size_t)v;
            break;
        case OPT_AUTH_TIMEOUT:
            ok = parse_size(optarg, 1, 3600000, &v);
            cfg.auth_timeout_ms = (int)v;
            break;
        case OPT_AUTH_FAIL_DELAY:
            ok = parse_size(optarg, 0, 3600000, &v);
            cfg.auth_fail_delay_ms = (int)v;
            break;
        case OPT_AUTH_FAIL_DELAY_MAX:
            ok = parse_size(optarg, 1, 3600000, &v);
            cfg.auth_fail_delay_max_ms = (int)v;
            break;
        case OPT_WORKER_QUEUE_MAX:
            ok = parse_size(optarg, 1, 1 << 20, &v);
            cfg.worker_queue_max = (size_t)v;
            break;
        case OPT_VIEW_RECURSION:
            ok = parse_size(optarg, 1, 1LL << 40, &v);
            cfg.view_recursion_limit = (int64_t)v;
            break;
        case OPT_COPY_MAX:
            ok = parse_size(optarg, 1, 1LL << 40, &v);
            cfg.copy_max_bytes = (size_t)v;
            break;
        case OPT_WRITE_RETRIES:
            ok = parse_size(optarg, 0, 1000000, &v);
            cfg.write_retries = (int)v;
            break;
        case OPT_TXN_WRITE_ROWS_MAX:
            ok = parse_size(optarg, 1, 1LL << 40, &v);
            cfg.txn_write_rows_max = (int64_t)v;
            break;
        case OPT_DDL_APPLY_TIMEOUT:
            ok = parse_size(optarg, 1, 3600000, &v);
            cfg.ddl_apply_timeout_ms = (int)v;
            break;
        case OPT_TICK_INTERVAL:
            ok = parse_size(optarg, 0, 3600000, &v);
            cfg.tick_interval_ms = (int)v;
            break;
        case OPT_WORKER_DELAY:
            ok = parse_size(optarg, 0, 60000, &v);
            cfg.fault_worker_delay_ms = (int)v;
            break;
        case OPT_COMMAND_HISTORY_MAX:
            ok = parse_size(optarg, 1, 10000000, &v);
            cfg.command_history_max = (size_t)v;
            break;
        case OPT_HASH:
            return srv_hash_password(stdin, stdout);
        case OPT_HELP:
            usage(stdout);
            return 0;
        case OPT_VERSION:
            printf("eddy %s\n", EDDY_VERSION);
            return 0;
        default:
            usage(stderr);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "eddy: invalid value for --%s: \"%s\"%s\n", opts[at].name, optarg,
                    srv_options_origin(optind - 1));
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "eddy: unexpected argument \"%s\"\n", argv[optind]);
        return 2;
    }
    if (lock_acls)
        return srv_zk_lock_acls(&cfg);
    if (cfg.zk_auth_file != NULL && cfg.zookeeper == NULL) {
        fprintf(stderr, "eddy: --zookeeper-auth-file needs --zookeeper\n");
        return 2;
    }
    if ((cfg.tls_cert == NULL) != (cfg.tls_key == NULL)) {
        fprintf(stderr, "eddy: --tls-cert and --tls-key go together\n");
        return 2;
    }
    if (cfg.tls_cert == NULL && (cfg.tls_ca != NULL || cfg.tls_mode == SRV_TLS_REQUIRE || cfg.auth == SRV_AUTH_CERT)) {
        fprintf(stderr, "eddy: --tls-ca, --tls-mode require and --auth cert need --tls-cert and --tls-key\n");
        return 2;
    }
    if (cfg.auth == SRV_AUTH_CERT && cfg.tls_ca == NULL) {
        fprintf(stderr, "eddy: --auth cert needs --tls-ca (the roots client certificates must chain to)\n");
        return 2;
    }
    srv_crash_install();
    return srv_run(&cfg);
}
