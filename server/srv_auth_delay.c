/*
 * srv_auth_delay.c: failed-login throttling per client address
 * (--auth-fail-delay-ms, --auth-fail-delay-max-ms). After a failed
 * authentication, an address's next attempt cannot start before the
 * address's delay has passed since that failure; each failure doubles the
 * delay (the first: the base delay), up to the maximum, and a success
 * forgets the address. The wait comes before authentication starts rather
 * than before the failure answer: were only failures slowed, a guesser
 * could give up on any answer slower than a success and lose no time.
 * Other addresses are not slowed, and the wait is a timer on the
 * connection's loop, which keeps serving everyone else meanwhile.
 *
 * The table is shared by every loop (one mutex) and holds at most
 * SRV_AUTH_DELAY_ADDRS addresses; when full, the one whose last failure
 * is oldest makes room.
 */
#include "server/srv_int.h"

#include <pthread.h>
#include <string.h>

#define SRV_AUTH_DELAY_ADDRS 4096

typedef struct srv_auth_fail {
    char addr[64];
    int delay_ms;          /* what the next attempt waits */
    int64_t last_us;       /* the last failure (monotonic) */
} srv_auth_fail_t;

static pthread_mutex_t srv__ad_mu = PTHREAD_MUTEX_INITIALIZER;
static srv_auth_fail_t srv__ad[SRV_AUTH_DELAY_ADDRS];
static int srv__ad_n;

static int srv__ad_find(const char *addr)
{
    for (int i = 0; i < srv__ad_n; i++)
        if (strcmp(srv__ad[i].addr, addr) == 0)
            return i;
    return -1;
}

int srv_auth_delay_ms(const char *addr)
{
    pthread_mutex_lock(&srv__ad_mu);
    int i = srv__ad_find(addr);
    int64_t left_us = i >= 0 ? srv__ad[i].last_us + (int64_t)srv__ad[i].delay_ms * 1000 - cm_now_mono_us() : 0;
    pthread_mutex_unlock(&srv__ad_mu);
    return left_us > 0 ? (int)((left_us + 999) / 1000) : 0;
}

void srv_auth_delay_failed(const srv_config_t *cfg, const char *addr)
{
    if (cfg->auth_fail_delay_ms <= 0)
        return;
    pthread_mutex_lock(&srv__ad_mu);
    int i = srv__ad_find(addr);
    if (i < 0) {
        if (srv__ad_n < SRV_AUTH_DELAY_ADDRS) {
            i = srv__ad_n++;
        } else {
            i = 0;
            for (int k = 1; k < srv__ad_n; k++)
                if (srv__ad[k].last_us < srv__ad[i].last_us)
                    i = k;
        }
        snprintf(srv__ad[i].addr, sizeof srv__ad[i].addr, "%s", addr);
        srv__ad[i].delay_ms = 0;
    }
    srv_auth_fail_t *e = &srv__ad[i];
    int64_t next = e->delay_ms > 0 ? (int64_t)e->delay_ms * 2 : cfg->auth_fail_delay_ms;
    e->delay_ms = (int)(next < cfg->auth_fail_delay_max_ms ? next : cfg->auth_fail_delay_max_ms);
    e->last_us = cm_now_mono_us();
    pthread_mutex_unlock(&srv__ad_mu);
}

void srv_auth_delay_succeeded(const char *addr)
{
    pthread_mutex_lock(&srv__ad_mu);
    int i = srv__ad_find(addr);
    if (i >= 0)
        srv__ad[i] = srv__ad[--srv__ad_n];
    pthread_mutex_unlock(&srv__ad_mu);
}
