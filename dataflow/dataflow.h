/*
 * dataflow.h: the public header of the dataflow module (prefix df_).
 *
 * The workers (DESIGN §5, §6): N threads, each with its own libuv loop and a
 * bounded command queue fed with uv_async_send. A worker applies the
 * commands worker 0's sequencer numbers strictly in sequence order, drops
 * duplicates, refuses a lower epoch, keeps the dataflows the commands
 * install, and acknowledges what it applied. The operators themselves come
 * later: a dataflow here is its id, name, plan bytes and the plan a worker
 * decoded from them (plan_decode) when it installed it.
 *
 * This module includes only common/, types/ and plan/: everything a worker
 * needs travels inside the command (df_cmd_t), which is immutable once sent
 * and shared by every worker it is sent to (reference counted).
 */
#ifndef EDDY_DATAFLOW_H
#define EDDY_DATAFLOW_H

#include "common/common.h"
#include "plan/plan.h"

#include <pthread.h>
#include <stdatomic.h>
#include <uv.h>

/* ====================================================================
 * Commands
 * ==================================================================== */

typedef enum df_cmd_kind {
    DF_CMD_BOOTSTRAP = 1,   /* every dataflow at one catalog index: replaces a worker's state */
    DF_CMD_APPLY,           /* one catalog log entry: dataflows to install or drop */
    DF_CMD_WRITE,           /* rows for a table (a later issue) */
    DF_CMD_PEEK,            /* read a dataflow's result at a time (a later issue) */
    DF_CMD_SUBSCRIBE,       /* stream a dataflow's changes (a later issue) */
    DF_CMD_TICK,            /* advance logical time */
} df_cmd_kind_t;

/* "bootstrap", "apply", ...: the names eddy_internal shows. */
const char *df_cmd_kind_name(df_cmd_kind_t kind);

typedef enum df_op_kind {
    DF_OP_INSTALL = 1,   /* install (or replace, same id) a dataflow */
    DF_OP_DROP,          /* drop the dataflow with this id */
} df_op_kind_t;

/* One dataflow change. Strings and bytes live in the command's arena. */
typedef struct df_op {
    df_op_kind_t kind;
    uint64_t id;                 /* the catalog ID of the object the dataflow maintains */
    const char *name;            /* qualified name, for introspection */
    const uint8_t *plan;         /* self-contained plan bytes (INSTALL) */
    size_t plan_len;
    bool maintained;             /* INSTALL of a materialized view: the workers keep its result up to date */
} df_op_t;

/*
 * The answer to a command that asks for one (Write, Peek): every worker
 * that applies the command answers once with its part, or the command is
 * refused before it reaches every worker (a lost epoch, a stopping
 * sequencer). The last answer, or the first refusal, calls done exactly
 * once, on the thread that gave it; done typically wakes the submitter's
 * loop with uv_async_send. Reference counted: the submitter and the
 * command each hold one. The parts are the workers' own until done runs.
 */
typedef struct df_reply df_reply_t;
typedef void (*df_reply_fn)(df_reply_t *r, void *arg);

typedef struct df_reply_part {
    cm_buf_t bytes;              /* what this worker sends back (rows of its shards, ...) */
    int64_t count;               /* rows it wrote or read */
    bool answered;
} df_reply_part_t;

struct df_reply {
    atomic_int refs;
    atomic_int pending;          /* answers still to come; done runs when it reaches 0 */
    atomic_bool finished;        /* done has run (or is running) */
    int nworkers;
    df_reply_fn done;
    void *arg;
    uint64_t seq;                /* the step the command was applied at (0: never sequenced) */
    pthread_mutex_t mu;          /* guards err and the votes */
    pthread_cond_t voted;        /* every worker has voted */
    pthread_cond_t finished_cv;  /* done has run: df_reply_wait wakes */
    int votes;
    bool veto;
    cm_err_t err;                /* the first error any worker (or a refusal) reported */
    df_reply_part_t *parts;      /* one per worker */
};

df_reply_t *df_reply_new(int nworkers, df_reply_fn done, void *arg);
void df_reply_ref(df_reply_t *r);
void df_reply_unref(df_reply_t *r);
/* Worker w's answer (err NULL: it succeeded); the part is filled before this call. */
void df_reply_answer(df_reply_t *r, int w, const cm_err_t *err);
/* The command will not be applied by every worker: done runs now (once) with err. */
void df_reply_fail(df_reply_t *r, const char *sqlstate, const char *message);
/*
 * Worker-side agreement inside one command (a keyed write spanning shards):
 * each of the reply's workers votes once and waits for the others; true if
 * every vote was ok. The sequencer must not run on a worker's thread.
 */
bool df_reply_vote(df_reply_t *r, bool ok);
/* Waits at most timeout_ms for done to have run; true once it has. Any thread but a worker's. */
bool df_reply_wait(df_reply_t *r, int timeout_ms);

/* ====================================================================
 * Write and Peek bodies (df_wire.c)
 * ==================================================================== */

/*
 * A Write: one or more parts, each the rows of one table with their diffs
 * (+1 insert, -1 delete), each row encoded with the table's column types;
 * a part may first empty the table (TRUNCATE). constraint names the
 * table's key constraint for its 23505 message (NULL: none). Every worker
 * takes the rows of its shards. Unless the write only checks, a row it
 * removes must be there (another session may have removed it since it was
 * read): 40001, and nothing of the write applies.
 */
/* One worker's section of a sharded part: nrows records of (varint key length, key, varint row
 * length, row), each inserted once. */
typedef struct df_write_shard {
    uint32_t nrows;
    const uint8_t *bytes;
    size_t len;
} df_write_shard_t;
typedef struct df_write_part {
    uint64_t table;
    bool truncate;               /* the table's rows are removed before the part's rows apply */
    const char *constraint;
    uint32_t ncols;
    const ty_oid_t *types;
    uint32_t nrows;              /* in every shard together, for a sharded part */
    const uint8_t **rows;        /* rows, lens and diffs: NULL for a sharded part */
    size_t *lens;
    int64_t *diffs;
    uint32_t nshards;            /* a sharded part: its sections, shard i's rows in shards[i] */
    df_write_shard_t *shards;
} df_write_part_t;
typedef struct df_write {
    bool check_only;             /* check the keys and answer, apply nothing */
    uint32_t nparts;
    df_write_part_t *parts;
} df_write_t;
/* A write of nparts parts starts; each df_write_add_part adds one, in order. */
void df_write_begin(cm_buf_t *out, bool check_only, uint32_t nparts);
bool df_write_add_part(cm_buf_t *out, uint64_t table, const char *constraint, bool truncate, const ty_oid_t *types,
                       int ncols, ty_datum_t *const *rows, const int64_t *diffs, int nrows, ty_ctx_t *ctx);
/* A part written a row at a time (a COPY's rows as they are read): begin gives where its row
 * count goes, each row goes in with its diff (scratch: the caller's buffer, reused), end sets
 * the count. df_write_add_part is these three over an array of rows. */
size_t df_write_part_begin(cm_buf_t *out, uint64_t table, const char *constraint, bool truncate,
                           const ty_oid_t *types, int ncols);
bool df_write_part_row(cm_buf_t *out, const ty_oid_t *types, int ncols, const ty_datum_t *row, int64_t diff,
                       ty_ctx_t *ctx, cm_buf_t *scratch);
void df_write_part_end(cm_buf_t *out, size_t at, uint32_t nrows);
/*
 * A sharded part (a COPY into a table without a key): insertions only, each
 * row's key (the key encoding of the whole row, as such a table keys its
 * rows) computed here and the row put into the section of the worker owning
 * it (hash % nshards), so that each worker reads its own section and
 * decodes nothing to find its rows. new, then row per row (several writers
 * of one table may fill their sections on different threads), then end adds
 * to out (after df_write_begin) one part of the n writers' rows, shard by
 * shard in the writers' order.
 */
typedef struct df_write_shards df_write_shards_t;
df_write_shards_t *df_write_shards_new(uint64_t table, const ty_oid_t *types, int ncols, int nshards);
bool df_write_shards_row(df_write_shards_t *s, const ty_datum_t *row, ty_ctx_t *ctx);
uint32_t df_write_shards_count(const df_write_shards_t *s);
bool df_write_shards_end(df_write_shards_t *const *s, int n, cm_buf_t *out, cm_err_t *err);
void df_write_shards_free(df_write_shards_t *s);
/* The record of shard bytes at *at (moved past it); false (XX001 in err) when malformed. Inline
 * for the usual record, whose two lengths are a byte each: a worker reads a million of them. */
bool df_write_shard_record_any(const df_write_shard_t *s, size_t *at, const uint8_t **key, size_t *klen,
                               const uint8_t **row, size_t *rlen, cm_err_t *err);
static inline bool df_write_shard_record(const df_write_shard_t *s, size_t *at, const uint8_t **key, size_t *klen,
                                         const uint8_t **row, size_t *rlen, cm_err_t *err)
{
    size_t a = *at, kl, rl;
    if (a < s->len && (kl = s->bytes[a]) < 0x80 && s->len - a - 1 > kl && (rl = s->bytes[a + 1 + kl]) < 0x80 &&
        s->len - a - 2 - kl >= rl) {
        *key = s->bytes + a + 1;
        *klen = kl;
        *row = s->bytes + a + 2 + kl;
        *rlen = rl;
        *at = a + 2 + kl + rl;
        return true;
    }
    return df_write_shard_record_any(s, at, key, klen, row, rlen, err);
}
/* A write of one part, not a TRUNCATE (df_write_begin and df_write_add_part). */
bool df_write_encode(uint64_t table, const char *constraint, bool check_only, const ty_oid_t *types, int ncols,
                     ty_datum_t *const *rows, const int64_t *diffs, int nrows, ty_ctx_t *ctx, cm_buf_t *out);
/* Decodes into arena (strings point into p); XX001 for a malformed body. */
bool df_write_decode(const uint8_t *p, size_t n, cm_arena_t *arena, df_write_t *out, cm_err_t *err);

/*
 * A Peek's body is the read's plan bytes (plan_encode), perhaps preceded by
 * lookups: for a relation listed there, only the rows whose arrangement key
 * equals one of the lookup rows' key columns are read (a seek on the one
 * worker owning each key; the others answer nothing for it). A lookup row
 * has the relation's width and column types; its columns outside the key
 * are ignored. The server still runs the whole plan over what comes back.
 */
typedef struct df_peek_lookup {
    uint64_t item;
    uint32_t ncols;
    uint32_t nrows;
    const uint8_t **rows;
    uint32_t *lens;
} df_peek_lookup_t;
typedef struct df_peek {
    uint32_t nlookups;
    df_peek_lookup_t *lookups;
    const uint8_t *plan;         /* the plan's bytes, in the body */
    size_t plan_len;
    bool computed;               /* the plan is computed here (df_peek_computed_begin) */
} df_peek_t;
/* Lookups for nlookups relations follow (each df_peek_lookup_add), then the plan's bytes. */
void df_peek_lookups_begin(cm_buf_t *out, uint32_t nlookups);
bool df_peek_lookup_add(cm_buf_t *out, uint64_t item, const ty_oid_t *types, int ncols, ty_datum_t *const *rows,
                        int nrows, ty_ctx_t *ctx);
/*
 * A body that asks the workers to compute a plan rather than send what it reads: each runs it
 * as a dataflow over its shards, as a materialized view's hydration would (a transient view,
 * dropped after the answer), and answers the result's rows under DF_PEEK_COMPUTED. The plan's
 * bytes follow. The plan must be one plan_maintainable accepts, with nothing that needs the
 * session (its settings are the defaults the workers evaluate with).
 */
#define DF_PEEK_COMPUTED UINT64_MAX
void df_peek_computed_begin(cm_buf_t *out);
/* A body with or without lookups; XX001 for a malformed one. */
bool df_peek_decode(const uint8_t *p, size_t n, cm_arena_t *arena, df_peek_t *out, cm_err_t *err);
/* The lookup of relation item in a decoded Peek; NULL: it is read whole. */
const df_peek_lookup_t *df_peek_lookup_of(const df_peek_t *pk, uint64_t item);

/*
 * Each worker answers
 * in its reply part, per table the plan reads: the table's ID and its rows
 * of this worker's shards with their multiplicities.
 */
size_t df_peek_part_begin(cm_buf_t *out, uint64_t table);
void df_peek_part_row(cm_buf_t *out, const uint8_t *row, size_t len, int64_t diff);
void df_peek_part_end(cm_buf_t *out, size_t begin, uint32_t rows);
/* The rows of `table` in every worker's answer, each repeated as often as its multiplicity, in ctx->arena. */
bool df_peek_rows(const df_reply_t *r, uint64_t table, const ty_oid_t *types, int ncols, ty_ctx_t *ctx,
                  ty_datum_t ***rows, int *nrows);

/*
 * A sequenced command. The sequencer fills it, then hands it to the
 * transport; from then on nobody writes it. `refs` counts its holders.
 */
typedef struct df_cmd {
    atomic_int refs;
    df_cmd_kind_t kind;
    uint64_t seq;                /* 1, 2, 3, ... within an epoch; Bootstrap may restart nothing */
    uint64_t epoch;              /* the sequencer incarnation that numbered it */
    uint64_t index;              /* the catalog index it brings a worker to (Tick, Peek: the one it follows) */
    int64_t time_us;             /* wall clock when it was sequenced (Tick: its timestamp) */
    df_op_t *ops;                /* Bootstrap, Apply */
    uint32_t nops;
    uint32_t ops_cap;
    uint64_t object_id;          /* what eddy_internal shows for it: the entry's first object */
    const char *object_name;
    const uint8_t *payload;      /* Write, Peek, Subscribe: their body */
    uint8_t *payload_owned;      /* the payload when taken from a buffer (df_cmd_take_payload): freed with c */
    size_t payload_len;
    /* A Write that cannot fail on a worker (rows added to a table without a key): the sequencer
     * may apply it at one step with other such writes (group commit, seq_group.c). */
    bool groupable;
    /* A groupable Write planned against catalog index accept_index (0: not offered): when no
     * catalog change was sequenced since, the sequencer may answer it as soon as it numbered
     * it, before the workers applied it (seq_submit); a later read is numbered after it. */
    uint64_t accept_index;
    bool accepted;               /* the sequencer answered it already; reply is its own */
    df_reply_t *reply;           /* Write, Peek: who hears the answer (one reference); NULL: nobody */
    struct df_sub *sub;          /* Subscribe: the subscription (one reference) */
    /* Subscribe: this step ends the subscription (every worker tears down its dataflow here);
     * false: it begins, its query's plan bytes (if any) in the payload. */
    bool sub_end;
    cm_arena_t arena;
} df_cmd_t;

/* A new command with one reference. */
df_cmd_t *df_cmd_new(df_cmd_kind_t kind);
void df_cmd_ref(df_cmd_t *c);
/* Drops a reference; the last one frees the command. Any thread. */
void df_cmd_unref(df_cmd_t *c);
/* The command's body, copied into it; reply: one more reference taken (NULL: none). */
void df_cmd_set_payload(df_cmd_t *c, const uint8_t *p, size_t n, df_reply_t *reply);
/* The same without a copy: c takes buf's bytes (malloc'd, as a cm_buf_t's are), buf is left empty. */
void df_cmd_take_payload(df_cmd_t *c, cm_buf_t *buf, df_reply_t *reply);
/* Appends an op; name and plan are copied into the command. */
void df_cmd_add_op(df_cmd_t *c, df_op_kind_t kind, uint64_t id, const char *name, const uint8_t *plan,
                   size_t plan_len);

/*
 * Commands as bytes, for transports that leave the process (docs/architecture.md
 * has the format). Decoding checks every length before it allocates: XX001
 * for corrupt input, 0A000 for a newer format. NULL with err.
 */
void df_cmd_encode(const df_cmd_t *c, cm_buf_t *out);
df_cmd_t *df_cmd_decode(const uint8_t *p, size_t n, cm_err_t *err);

/* ====================================================================
 * The bounded queue (one producer side, one consumer: a worker)
 * ==================================================================== */

/*
 * A ring of commands under a mutex. A full queue refuses (back-pressure: the
 * sender keeps the command and retries after the worker acknowledged); it
 * never grows. The consumer takes everything queued at once.
 */
typedef struct df_queue {
    pthread_mutex_t mu;
    df_cmd_t **ring;
    size_t cap, head, len;
} df_queue_t;

void df_queue_init(df_queue_t *q, size_t cap);
void df_queue_destroy(df_queue_t *q);   /* drops the references still queued */
/* Takes over the caller's reference on success; false when full. */
bool df_queue_push(df_queue_t *q, df_cmd_t *c);
/* Moves every queued command into out (room for cap), oldest first; returns how many. */
size_t df_queue_drain(df_queue_t *q, df_cmd_t **out);
/* Whether anything waits in the queue. */
bool df_queue_pending(df_queue_t *q);

/* ====================================================================
 * A worker's state (pure: the worker thread drives it, tests call it)
 * ==================================================================== */

typedef enum df_apply_rc {
    DF_APPLY_APPLIED = 0,   /* applied (and any buffered successors after it) */
    DF_APPLY_DUPLICATE,     /* seq already applied in this epoch: dropped */
    DF_APPLY_STALE_EPOCH,   /* from an older sequencer incarnation: refused */
    DF_APPLY_BUFFERED,      /* ahead of a gap: kept until the gap is filled */
    DF_APPLY_OVERFLOW,      /* ahead of a gap with the buffer full, or a new epoch without Bootstrap: refused */
} df_apply_rc_t;

typedef struct df_dataflow {
    uint64_t id;
    char *name;
    uint8_t *plan;
    size_t plan_len;
    uint64_t index;              /* the catalog index that installed it */
    plan_t *query;               /* the plan decoded from its bytes; NULL: none (a table, source or index) */
    cm_arena_t arena;            /* holds query */
    bool maintained;             /* a materialized view: graph keeps its result */
    struct df_graph *graph;      /* its operators and result on this worker (df_graph.c); NULL: none */
    /* An index of a materialized view (df_index.c): the view's ID (0: not one) and its key
     * columns' positions in the view's rows and types; its arrangement lives in the view's graph. */
    uint64_t index_of;
    int index_ncols;
    uint32_t *index_pos;
    ty_oid_t *index_types;
} df_dataflow_t;

/*
 * SUBSCRIBE (df_subscribe.c, df_sub_flow.c): a subscription shared by a
 * session and the workers, to a materialized view (its result's changes),
 * a table (its writes, directly) or a query (a dataflow of its own on
 * every worker, compiled from the plan bytes in the Subscribe command's
 * payload and torn down by the Subscribe command that ends it, so every
 * worker runs it at the same steps). A Subscribe command carrying it makes
 * each worker append its share of the rows (snapshot) at its step and
 * every later step's changes; take moves out (appending to records[w]) what
 * each worker appended, as records (be64 step, be64 diff, be32 length, row),
 * and each worker's progress (every step up to it is in); false once the
 * subscription failed (what it reads dropped, more than max_bytes waiting,
 * an error in its query), with err. close tells the workers to stop
 * appending; the session then sends the ending Subscribe command.
 */
typedef enum df_sub_kind {
    DF_SUB_VIEW = 1,             /* a materialized view's changes */
    DF_SUB_TABLE,                /* a table's writes */
    DF_SUB_QUERY,                /* a query's (or a plain view's) changes, by a dataflow of its own */
} df_sub_kind_t;
typedef struct df_sub df_sub_t;
df_sub_t *df_sub_new(int nworkers, df_sub_kind_t kind, uint64_t object, bool snapshot, size_t max_bytes);
void df_sub_ref(df_sub_t *s);
void df_sub_unref(df_sub_t *s);
void df_sub_close(df_sub_t *s);
bool df_sub_take(df_sub_t *s, cm_buf_t *records, uint64_t *progress, cm_err_t *err);
/* The step it began at (its snapshot's, its AS OF), once a worker began it; 0 before. */
uint64_t df_sub_started(df_sub_t *s);
/*
 * A wake-up for the session: fn(arg) runs on a worker's thread, under the
 * subscription's lock (so it must only signal, never wait), when the steps
 * every worker has passed move on with records waiting (or with progress
 * wanted), or when it fails; once until the next take. fn NULL stops it: no
 * call runs after this returns.
 */
typedef void (*df_sub_notify_fn)(void *arg);
void df_sub_set_notify(df_sub_t *s, df_sub_notify_fn fn, void *arg, bool progress);
/* A record's row decoded with the view's column types (copies into ctx->arena). */
bool df_sub_decode(const ty_oid_t *types, int ncols, const uint8_t *p, size_t len, ty_ctx_t *ctx, ty_datum_t *out);

/* The plan bytes of an index of materialized view `view` on the columns at pos (df_index.c). */
void df_index_plan_encode(uint64_t view, int ncols, const uint32_t *pos, const ty_oid_t *types, cm_buf_t *out);

/* One applied command, as eddy_internal.worker_commands shows it. */
typedef struct df_applied {
    uint64_t seq, epoch, index;
    df_cmd_kind_t kind;
    uint64_t object_id;
} df_applied_t;

typedef struct df_state {
    uint64_t epoch;              /* 0 until the first Bootstrap */
    uint64_t seq;                /* last applied sequence number in `epoch` */
    uint64_t index;              /* catalog index reached */
    df_dataflow_t *flows;        /* installed, in install order */
    size_t nflows, flows_cap;
    int nsubs;                   /* subscriptions registered with its views (df_subscribe.c) */
    struct df_subflow *subflows; /* subscriptions to tables and queries, in start order (df_sub_flow.c) */
    int nsubflows, subflows_cap;
    df_cmd_t **pending;          /* buffered commands past a gap, ascending seq */
    size_t npending, pending_max;
    df_applied_t *hist;          /* ring of the last hist_max applied commands */
    size_t hist_max, hist_len, hist_next;
    uint64_t duplicates;
    uint64_t refused;            /* commands of an older epoch or past the buffer; installs whose plan does not decode */
    uint64_t peek_rows;          /* rows its answers to Peeks have held (a lookup's answer: its keys' rows) */
    int worker, nworkers;        /* which shard of every arrangement this worker holds (0 of 1 alone) */
    struct df_exchange *exchange; /* the channels between the workers (df_exchange.c); NULL: one worker alone */
    struct df_engine *engine;    /* its tables and their shards (df_table.c); NULL until the first */
    int64_t recursion_max;       /* a view's WITH RECURSIVE iterates at most this often per step (df_config_t) */
    struct df_board *board;      /* where it publishes its views' shards for readers (df_publish.c); NULL: none */
    uint64_t *pub_dirty;         /* views whose published shard is out of date (ids) */
    size_t npub_dirty, pub_dirty_cap;
    bool pub_all;                /* an error changed: every view publishes again (a read answers those it reads) */
} df_state_t;

/* A materialized view's recursion iterating more often in one step is put in error: it would not end. */
#define DF_RECURSION_MAX_DEFAULT 10000

void df_state_init(df_state_t *st, size_t pending_max, size_t hist_max);
void df_state_destroy(df_state_t *st);
/*
 * Offers one command (the state takes its own reference when it keeps it).
 * An install whose plan bytes do not decode is refused on its own (logged,
 * counted in refused; a dataflow of that id stays as it was) while the rest
 * of the command applies: the bytes come from worker 0, so that is a bug to
 * see, not a reason to stop the sequence.
 */
df_apply_rc_t df_state_offer(df_state_t *st, df_cmd_t *c);
/*
 * Work for an idle worker, up to fuel units: merges of its arrangements'
 * batches (tables and views) and unmapping of released batches, so that
 * a quiet worker's memory follows its live rows. true while work remains.
 */
bool df_state_idle_work(df_state_t *st, int64_t fuel);
/* The i-th applied command still remembered, oldest first (i < hist_len). */
const df_applied_t *df_state_applied_at(const df_state_t *st, size_t i);

/*
 * Introspection of the engine (df_introspect.c): the operators each
 * maintained dataflow compiled into and the arrangements they keep, what
 * eddy_internal.dataflow_operators and eddy_internal.arrangements show.
 */
typedef struct df_operator_info {
    int id;                      /* 1, 2, ... in build order: an operator's inputs come before it */
    const char *kind;            /* "Get", "Constant", "Filter", "Project", "Pass", "Union", "Reduce", "Join",
                                    "SetOp", "TopK", "FlatMap", "Cte" */
    const char *detail;          /* a Get's relation, a join's kind, ...; NULL: nothing to add */
    uint64_t reads;              /* Get: the relation whose arrangement it reads (hydration); 0 otherwise */
    int inputs[2];
    int ninputs;
} df_operator_info_t;

typedef struct df_arrangement_info {
    int operator_id;             /* the operator keeping it; 0: a table's rows or a view's result */
    const char *name;            /* "table", "result", "join left", "join right", "reduce input",
                                    "reduce groups", "set operation", "top-k" */
    uint64_t records, batches, bytes;
} df_arrangement_info_t;

/* d: the dataflow (NULL from df_plan_operators). Strings live only during the call. */
typedef void (*df_operator_fn)(void *arg, const df_dataflow_t *d, const df_operator_info_t *op);
typedef void (*df_arrangement_fn)(void *arg, const df_dataflow_t *d, const df_arrangement_info_t *a);
void df_state_visit_operators(const df_state_t *st, df_operator_fn cb, void *arg);
void df_state_visit_arrangements(const df_state_t *st, df_arrangement_fn cb, void *arg);
/*
 * What the workers would build for a materialized view of plan p (EXPLAIN):
 * its operators and the arrangements they would keep (counts 0), the
 * result's last. False with err when the engine cannot maintain it.
 */
bool df_plan_operators(const plan_t *p, df_operator_fn op_cb, df_arrangement_fn arr_cb, void *arg, cm_err_t *err);

/* ====================================================================
 * Worker threads
 * ==================================================================== */

/* Called on a worker's thread after each batch: what it has applied so far. */
typedef void (*df_ack_fn)(void *arg, int worker, uint64_t epoch, uint64_t seq, uint64_t index);

typedef struct df_config {
    int workers;                 /* >= 1 */
    size_t queue_max;            /* commands waiting per worker; default 1024 */
    size_t pending_max;          /* out-of-order commands a worker buffers; default 64 */
    size_t history_max;          /* applied commands a worker remembers for eddy_internal; default 10000 */
    int fault_delay_ms;          /* fault testing: workers but 0 sleep this long before each batch; 0 */
    int spin_us;                 /* after applying commands a worker polls this long before it sleeps; 0 */
    size_t channel_max;          /* chunks in flight from one worker to another inside a step; default 64 */
    int idle_merge_ms;           /* quiet this long, a worker compacts its arrangements (in slices); 0: never; 100 */
    int64_t idle_slice;          /* units of work per slice of that compaction, between commands; default 20000 */
    int64_t recursion_max;       /* iterations of a view's WITH RECURSIVE in one step, then the view is in
                                    error (54000); default DF_RECURSION_MAX_DEFAULT */
} df_config_t;

void df_config_default(df_config_t *cfg);

typedef struct df_workers df_workers_t;

/* Creates the workers and their loops; no thread runs yet. NULL with err. */
df_workers_t *df_workers_new(const df_config_t *cfg, cm_err_t *err);
/* Before df_workers_start: who hears the acknowledgements. */
void df_workers_set_ack(df_workers_t *ws, df_ack_fn fn, void *arg);
int df_workers_count(const df_workers_t *ws);
/* Worker i's loop: others (the sequencer on worker 0) may add handles to it
 * before df_workers_start, or from its own thread. */
uv_loop_t *df_workers_loop(df_workers_t *ws, int i);
void df_workers_start(df_workers_t *ws);
/* Any thread. Takes a reference to c on success; false: the queue is full. */
bool df_workers_push(df_workers_t *ws, int i, df_cmd_t *c);
/* Stops every worker and joins its thread; handles others added to a
 * worker's loop must be closed before. */
void df_workers_stop(df_workers_t *ws);
void df_workers_free(df_workers_t *ws);

/*
 * Reads served from the workers' published shards (df_publish.c), on the
 * reader's thread: a read of items[0..n) (plan_read_items), materialized
 * views and tables, with the lookups a Peek's body would start with (lookups:
 * that part alone, no plan; empty: none), answered into rep (every part, as
 * the workers would) at one step no earlier than fence (seq_read_fence)
 * that every worker has reached and every shard holds at. false: not
 * possible now (rep untouched); send the Peek.
 */
typedef struct df_board df_board_t;
df_board_t *df_board_new(int nworkers);
void df_board_free(df_board_t *b);
bool df_board_read(df_board_t *b, const uint64_t *epochs, const uint64_t *seqs, uint64_t epoch, uint64_t fence,
                   const uint64_t *items, int n, const uint8_t *lookups, size_t len, df_reply_t *rep);
bool df_workers_read_published(df_workers_t *ws, uint64_t epoch, uint64_t fence, const uint64_t *items, int n,
                               const uint8_t *lookups, size_t len, df_reply_t *rep);

/* Introspection (any thread): each calls back under the worker's lock; copy what you keep. */
typedef struct df_worker_status {
    int worker;
    uint64_t epoch, seq, index;
    size_t ndataflows;
    uint64_t duplicates, refused;
    uint64_t peek_rows;          /* rows its answers to reads have held (its published shards read too) */
} df_worker_status_t;
void df_workers_status(df_workers_t *ws, int i, df_worker_status_t *out);
/* Any thread, lock-free: what the worker published after its last batch (the step it reached,
 * commands applied, and the records and bytes of every arrangement it holds); never waits for it. */
typedef struct df_worker_gauges {
    uint64_t epoch, seq, index, commands;
    int64_t records, bytes;
} df_worker_gauges_t;
void df_workers_gauges(const df_workers_t *ws, int i, df_worker_gauges_t *out);
void df_workers_visit_applied(df_workers_t *ws, int i, void (*cb)(void *arg, const df_applied_t *a), void *arg);
void df_workers_visit_dataflows(df_workers_t *ws, int i, void (*cb)(void *arg, const df_dataflow_t *d),
                                void *arg);
/* df_state_visit_operators / _arrangements of worker i under its lock: after a write or DDL has
 * been answered, they show it. */
void df_workers_visit_operators(df_workers_t *ws, int i, df_operator_fn cb, void *arg);
void df_workers_visit_arrangements(df_workers_t *ws, int i, df_arrangement_fn cb, void *arg);

#endif
