/*
 * srv_tls_stat.c: pg_stat_ssl's rows. Every session that finished its
 * startup has an entry (TLS or not, as PostgreSQL lists every client
 * backend) in one registry under a mutex, because a query on one loop lists
 * the sessions of all of them. The entry is a copy of what the handshake
 * settled, so reading it never touches another loop's connection.
 */
#include "server/srv_tls.h"

#include <stdlib.h>
#include <string.h>

struct srv_tls_stat {
    struct srv_tls_stat *prev, *next;
    int32_t pid;
    srv_tls_info_t info;
};

static pthread_mutex_t srv__stat_mu = PTHREAD_MUTEX_INITIALIZER;
static srv_tls_stat_t *srv__stat_head;

void srv_tls_stat_add(srv_conn_t *c)
{
    if (c->tls_stat != NULL)
        return;
    srv_tls_stat_t *e = cm_calloc(1, sizeof *e);
    e->pid = c->cancel.pid;
    srv_tls_info(c, &e->info);
    pthread_mutex_lock(&srv__stat_mu);
    e->next = srv__stat_head;
    if (srv__stat_head != NULL)
        srv__stat_head->prev = e;
    srv__stat_head = e;
    pthread_mutex_unlock(&srv__stat_mu);
    c->tls_stat = e;
}

void srv_tls_stat_remove(srv_conn_t *c)
{
    srv_tls_stat_t *e = c->tls_stat;
    if (e == NULL)
        return;
    pthread_mutex_lock(&srv__stat_mu);
    if (e->prev != NULL)
        e->prev->next = e->next;
    else
        srv__stat_head = e->next;
    if (e->next != NULL)
        e->next->prev = e->prev;
    pthread_mutex_unlock(&srv__stat_mu);
    free(e);
    c->tls_stat = NULL;
}

static ty_datum_t srv__text(cm_arena_t *a, const char *s, bool null)
{
    ty_datum_t d = {0};
    if (null) {
        d.isnull = true;
        return d;
    }
    d.v.s.p = cm_arena_strndup(a, s, strlen(s));
    d.v.s.len = (uint32_t)strlen(s);
    return d;
}

bool srv_tls_stat_rows(int ncols, cm_arena_t *arena, ty_datum_t ***rows, int *nrows, cm_err_t *err)
{
    if (ncols != 8)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "pg_stat_ssl has 8 columns, not %d", ncols);
    ty_ctx_t ctx;
    cm_err_t nerr = {0};
    memset(&ctx, 0, sizeof ctx);
    ctx.arena = arena;
    ctx.err = &nerr;
    pthread_mutex_lock(&srv__stat_mu);
    int n = 0;
    for (srv_tls_stat_t *e = srv__stat_head; e != NULL; e = e->next)
        n++;
    ty_datum_t **out = cm_arena_alloc(arena, sizeof *out * (size_t)(n + 1));
    int i = 0;
    /* Oldest first, as PostgreSQL lists backends by slot. */
    srv_tls_stat_t *last = srv__stat_head;
    while (last != NULL && last->next != NULL)
        last = last->next;
    for (srv_tls_stat_t *e = last; e != NULL; e = e->prev) {
        const srv_tls_info_t *t = &e->info;
        ty_datum_t *r = cm_arena_zalloc(arena, sizeof *r * 8);
        r[0].v.i = e->pid;
        r[1].v.b = t->ssl;
        r[2] = srv__text(arena, t->version, !t->ssl);
        r[3] = srv__text(arena, t->cipher, !t->ssl);
        r[4].v.i = t->bits;
        r[4].isnull = !t->ssl;
        bool cert = t->ssl && t->client_dn[0] != 0;
        r[5] = srv__text(arena, t->client_dn, !cert);
        r[6].isnull = !cert || !ty_numeric_from_text(t->client_serial, strlen(t->client_serial), &ctx, &r[6].v.n);
        cm_err_clear(&nerr);
        r[7] = srv__text(arena, t->issuer_dn, !cert);
        out[i++] = r;
    }
    pthread_mutex_unlock(&srv__stat_mu);
    *rows = out;
    *nrows = n;
    return true;
}
