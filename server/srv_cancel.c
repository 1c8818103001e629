/*
 * srv_cancel.c: the registry of cancel keys (BackendKeyData) shared by all
 * event loops.
 *
 * A CancelRequest arrives on a new connection, possibly on another loop, so
 * the registry is a hash table under one mutex. A cancel only marks the
 * statement that is running at that moment: each slot's own mutex orders
 * "statement begins / ends" against the request, so a cancel that arrives
 * while idle, or just after a statement ended, cannot hit the next one.
 */
#include "server/srv_int.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>

#define SRV_CANCEL_BUCKETS 1024

static pthread_mutex_t srv__cancel_mu = PTHREAD_MUTEX_INITIALIZER;
static srv_cancel_slot_t *srv__cancel_table[SRV_CANCEL_BUCKETS];
static int32_t srv__cancel_next_pid = 1000;

static srv_cancel_slot_t **srv__bucket(int32_t pid)
{
    return &srv__cancel_table[(uint32_t)pid % SRV_CANCEL_BUCKETS];
}

void srv_cancel_register(srv_cancel_slot_t *slot)
{
    pthread_mutex_init(&slot->mu, NULL);
    slot->running = false;
    __atomic_store_n(&slot->cancel, 0, __ATOMIC_RELEASE);
    if (RAND_bytes((unsigned char *)&slot->secret, sizeof slot->secret) != 1)
        cm_panic(__FILE__, __LINE__, "RAND_bytes failed");
    pthread_mutex_lock(&srv__cancel_mu);
    /* Process ids are small positive numbers that tools print; wrap before overflow. */
    slot->pid = srv__cancel_next_pid++;
    if (srv__cancel_next_pid == INT32_MAX)
        srv__cancel_next_pid = 1000;
    srv_cancel_slot_t **b = srv__bucket(slot->pid);
    slot->next = *b;
    *b = slot;
    pthread_mutex_unlock(&srv__cancel_mu);
}

void srv_cancel_unregister(srv_cancel_slot_t *slot)
{
    pthread_mutex_lock(&srv__cancel_mu);
    for (srv_cancel_slot_t **p = srv__bucket(slot->pid); *p != NULL; p = &(*p)->next) {
        if (*p == slot) {
            *p = slot->next;
            break;
        }
    }
    pthread_mutex_unlock(&srv__cancel_mu);
    pthread_mutex_destroy(&slot->mu);
}

void srv_cancel_request(int32_t pid, int32_t secret)
{
    pthread_mutex_lock(&srv__cancel_mu);
    for (srv_cancel_slot_t *s = *srv__bucket(pid); s != NULL; s = s->next) {
        if (s->pid != pid)
            continue;
        if (CRYPTO_memcmp(&s->secret, &secret, sizeof secret) == 0) {
            pthread_mutex_lock(&s->mu);
            if (s->running)
                __atomic_store_n(&s->cancel, 1, __ATOMIC_RELEASE);
            pthread_mutex_unlock(&s->mu);
        }
        break;
    }
    pthread_mutex_unlock(&srv__cancel_mu);
}

void srv_cancel_stmt_begin(srv_cancel_slot_t *slot)
{
    pthread_mutex_lock(&slot->mu);
    __atomic_store_n(&slot->cancel, 0, __ATOMIC_RELEASE);
    slot->running = true;
    pthread_mutex_unlock(&slot->mu);
}

void srv_cancel_stmt_end(srv_cancel_slot_t *slot)
{
    pthread_mutex_lock(&slot->mu);
    slot->running = false;
    __atomic_store_n(&slot->cancel, 0, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&slot->mu);
}
