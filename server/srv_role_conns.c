/*
 * srv_role_conns.c: how many sessions each catalog role has, across every
 * loop, for CONNECTION LIMIT. A role's count goes up when its login
 * succeeds and down when that session closes; the check and the count are
 * one step under the mutex, so two logins racing for a role's last slot
 * cannot both get it. Counts are by role ID, so a renamed role keeps them.
 * eddy_internal.role_sessions shows them.
 */
#include "server/srv_int.h"

#include <pthread.h>
#include <stdlib.h>

#define SRV_ROLE_CONNS_BUCKETS 256

typedef struct srv_role_count {
    cat_id_t role;
    int n;
    struct srv_role_count *next;
} srv_role_count_t;

static pthread_mutex_t srv__rc_mu = PTHREAD_MUTEX_INITIALIZER;
static srv_role_count_t *srv__rc_table[SRV_ROLE_CONNS_BUCKETS];

static srv_role_count_t **srv__rc_bucket(cat_id_t role)
{
    return &srv__rc_table[(role * 0x9e3779b97f4a7c15ull) >> 56];
}

bool srv_role_conns_take(cat_id_t role, int32_t limit)
{
    pthread_mutex_lock(&srv__rc_mu);
    srv_role_count_t **b = srv__rc_bucket(role), *e = *b;
    while (e != NULL && e->role != role)
        e = e->next;
    int now = e != NULL ? e->n : 0;
    bool ok = limit < 0 || now < limit;
    if (ok) {
        if (e == NULL) {
            e = cm_calloc(1, sizeof *e);
            e->role = role;
            e->next = *b;
            *b = e;
        }
        e->n++;
    }
    pthread_mutex_unlock(&srv__rc_mu);
    return ok;
}

void srv_role_conns_release(cat_id_t role)
{
    pthread_mutex_lock(&srv__rc_mu);
    for (srv_role_count_t **p = srv__rc_bucket(role); *p != NULL; p = &(*p)->next) {
        srv_role_count_t *e = *p;
        if (e->role != role)
            continue;
        if (--e->n == 0) {
            *p = e->next;
            free(e);
        }
        break;
    }
    pthread_mutex_unlock(&srv__rc_mu);
}

void srv_role_conns_visit(void (*fn)(void *arg, cat_id_t role, int n), void *arg)
{
    pthread_mutex_lock(&srv__rc_mu);
    for (size_t b = 0; b < SRV_ROLE_CONNS_BUCKETS; b++)
        for (const srv_role_count_t *e = srv__rc_table[b]; e != NULL; e = e->next)
            fn(arg, e->role, e->n);
    pthread_mutex_unlock(&srv__rc_mu);
}
