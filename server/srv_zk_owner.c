/*
 * srv_zk_owner.c: the process's side of cluster ownership (--cluster NAME,
 * DESIGN §5). The ZooKeeper thread contends through the store's cluster
 * calls (catalog/cat_zk_cluster.c); what it learns is mirrored in atomics
 * for the pgwire loops (DDL is refused while standby, eddy_internal.cluster
 * shows the role) and handed to worker 0's sequencer through seq_owner_t:
 * granted starts it at the new epoch, lost stops it sending. Worker 0's
 * progress comes back here and is published, fenced, as
 * /clusters/<name>/applied.
 */
#include "server/srv_int.h"
#include "server/srv_zk.h"

#include <stdlib.h>
#include <string.h>

struct srv_zk_cluster {
    seq_owner_t owner;              /* first: the sequencer's view */
    char *name;
    _Atomic int role;               /* cat_zk_role_t */
    _Atomic uint64_t epoch;
    _Atomic uint64_t published;
    _Atomic uint64_t applied_want;  /* worker 0's progress, not yet handed to the store */
    _Atomic int64_t next_turn_ms;   /* the ZooKeeper thread's timer brings a turn by then */
    pthread_mutex_t mu;             /* guards the sequencer's callbacks */
    void (*granted)(void *arg, uint64_t epoch);
    void (*lost)(void *arg);
    void *arg;
};

static void srv__owner_granted(void *arg, uint64_t epoch)
{
    srv_zk_cluster_t *c = arg;
    atomic_store(&c->applied_want, 0);   /* the new epoch publishes its own progress */
    atomic_store(&c->epoch, epoch);
    atomic_store(&c->role, CAT_ZK_ROLE_OWNER);
    pthread_mutex_lock(&c->mu);
    if (c->granted)
        c->granted(c->arg, epoch);
    pthread_mutex_unlock(&c->mu);
}

static void srv__owner_lost(void *arg, uint64_t epoch)
{
    srv_zk_cluster_t *c = arg;
    atomic_store(&c->role, CAT_ZK_ROLE_STANDBY);
    pthread_mutex_lock(&c->mu);
    if (c->lost)
        c->lost(c->arg);
    pthread_mutex_unlock(&c->mu);
}

static int srv__owner_acquire(seq_owner_t *o, void (*granted)(void *arg, uint64_t epoch), void (*lost)(void *arg),
                              void *arg, cm_err_t *err)
{
    srv_zk_cluster_t *c = (srv_zk_cluster_t *)o;
    pthread_mutex_lock(&c->mu);
    c->granted = granted;
    c->lost = lost;
    c->arg = arg;
    /* Won before the sequencer asked: tell it now. */
    if (atomic_load(&c->role) == CAT_ZK_ROLE_OWNER)
        granted(arg, atomic_load(&c->epoch));
    pthread_mutex_unlock(&c->mu);
    return 0;
}

static void srv__owner_release(seq_owner_t *o)
{
    srv_zk_cluster_t *c = (srv_zk_cluster_t *)o;
    pthread_mutex_lock(&c->mu);
    c->granted = NULL;
    c->lost = NULL;
    c->arg = NULL;
    pthread_mutex_unlock(&c->mu);
}

static const seq_owner_ops_t srv__owner_ops = {
    .acquire = srv__owner_acquire,
    .release = srv__owner_release,
};

srv_zk_cluster_t *srv_zk_cluster_new(const char *name)
{
    srv_zk_cluster_t *c = cm_calloc(1, sizeof *c);
    c->owner.ops = &srv__owner_ops;
    c->name = cm_strdup(name);
    pthread_mutex_init(&c->mu, NULL);
    return c;
}

void srv_zk_cluster_free(srv_zk_cluster_t *c)
{
    if (c == NULL)
        return;
    pthread_mutex_destroy(&c->mu);
    free(c->name);
    free(c);
}

bool srv_zk_cluster_join(srv_zk_cluster_t *c, cat_store_t *store, const char *instance, cm_err_t *err)
{
    cat_zk_cluster_events_t ev = {.granted = srv__owner_granted, .lost = srv__owner_lost, .arg = c};
    return cat_store_zk_cluster_join(store, c->name, instance, &ev, err) == 0;
}

void srv_zk_cluster_turn(srv_zk_cluster_t *c, cat_store_t *store)
{
    if (c == NULL || store == NULL)
        return;
    uint64_t want = atomic_load(&c->applied_want);
    uint64_t epoch = 0;
    cat_zk_role_t role = cat_store_zk_cluster_role(store, &epoch);
    if (want > 0 && role == CAT_ZK_ROLE_OWNER)
        cat_store_zk_cluster_publish(store, want);
    atomic_store(&c->published, cat_store_zk_cluster_published(store));
    /* The standby role has no event of its own: mirror it (owner and
     * lost are set by the events, before the sequencer hears them). */
    if (role == CAT_ZK_ROLE_STANDBY) {
        atomic_store(&c->role, role);
        atomic_store(&c->epoch, epoch);
    }
}

const char *srv_zk_cluster_name(const srv_zk_cluster_t *c)
{
    return c->name;
}

cat_zk_role_t srv_zk_cluster_role(const srv_zk_cluster_t *c, uint64_t *epoch)
{
    if (epoch)
        *epoch = atomic_load(&((srv_zk_cluster_t *)c)->epoch);
    return (cat_zk_role_t)atomic_load(&((srv_zk_cluster_t *)c)->role);
}

uint64_t srv_zk_cluster_published(const srv_zk_cluster_t *c)
{
    return atomic_load(&((srv_zk_cluster_t *)c)->published);
}

void srv_zk_cluster_next_turn(srv_zk_cluster_t *c, int64_t at_ms)
{
    if (c != NULL)
        atomic_store(&c->next_turn_ms, at_ms);
}

void srv_zk_cluster_applied(srv_zk_t *zk, uint64_t applied)
{
    srv_zk_cluster_t *c = srv_zk_cluster(zk);
    atomic_store(&c->applied_want, applied);
    if (atomic_load(&c->next_turn_ms) > cm_now_mono_us() / 1000 + SRV_ZK_APPLIED_LATE_MS)
        srv_zk_kick(zk);
}

seq_owner_t *srv_zk_cluster_owner(srv_zk_cluster_t *c)
{
    return &c->owner;
}
