/*
 * cat_store.c: what every store backend shares: the call wrappers, the size
 * limits, the object and name keys.
 *
 * The wrappers check the limits before a backend sees a commit, so an
 * over-size statement fails the same way (54000, nothing sent) on store_mem
 * and on ZooKeeper, where the server would otherwise drop the connection for
 * a request over jute.maxbuffer.
 */
#include "catalog/cat_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* A per-thread xorshift generator seeded from the clock and the thread: a
 * backoff needs spread, not secrecy. */
static uint64_t cat__jitter_next(void)
{
    static _Thread_local uint64_t x;
    if (x == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        x = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ ((uint64_t)getpid() << 40) ^ (uintptr_t)&x;
        if (x == 0)
            x = 0x9E3779B97F4A7C15u;
    }
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
}

void cat_limits_default(cat_limits_t *l)
{
    l->entry_max_bytes = 512 * 1024;
    l->object_max_bytes = 512 * 1024;
    l->commit_max_bytes = 900 * 1024 - 1;
    l->commit_attempts_max = 16;
    l->commit_backoff_ms = 2;
    l->commit_backoff_max_ms = 200;
}

const char *cat_store_status_name(cat_store_status_t s)
{
    switch (s) {
    case CAT_STORE_OK: return "ok";
    case CAT_STORE_CONFLICT: return "conflict";
    case CAT_STORE_NAME_EXISTS: return "name exists";
    case CAT_STORE_DUPLICATE: return "duplicate";
    case CAT_STORE_TRIMMED: return "trimmed";
    case CAT_STORE_NOT_FOUND: return "not found";
    case CAT_STORE_ERROR: return "error";
    }
    return "?";
}

/* What one create or delete costs in a ZooKeeper multi beyond its payload:
 * the op header, the path with the chroot, the ACL. A fixed generous figure
 * keeps the check independent of the backend. */
#define CAT__OP_OVERHEAD 128

bool cat_store_commit_check_size(const cat_store_commit_t *c, const cat_limits_t *l, cm_err_t *err)
{
    if (c->entry_len > l->entry_max_bytes) {
        cm_err_set(err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "catalog entry is too large");
        cm_err_set_detail(err, "The log entry has %zu bytes; the limit is %zu.", c->entry_len,
                          l->entry_max_bytes);
        return false;
    }
    size_t total = c->entry_len + 2 * CAT__OP_OVERHEAD + 64;   /* entry, head, request marker */
    for (size_t i = 0; i < c->n_obj_creates; i++) {
        if (c->obj_creates[i].len > l->object_max_bytes) {
            cm_err_set(err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "catalog object is too large");
            cm_err_set_detail(err, "The object definition has %zu bytes; the limit is %zu.",
                              c->obj_creates[i].len, l->object_max_bytes);
            return false;
        }
        total += c->obj_creates[i].len + strlen(c->obj_creates[i].key) + CAT__OP_OVERHEAD;
    }
    for (size_t i = 0; i < c->n_name_creates; i++)
        total += c->name_creates[i].len + strlen(c->name_creates[i].key) + CAT__OP_OVERHEAD;
    for (size_t i = 0; i < c->n_obj_deletes; i++)
        total += strlen(c->obj_deletes[i]) + CAT__OP_OVERHEAD;
    for (size_t i = 0; i < c->n_name_deletes; i++)
        total += strlen(c->name_deletes[i]) + CAT__OP_OVERHEAD;
    if (total > l->commit_max_bytes) {
        cm_err_set(err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "catalog change is too large");
        cm_err_set_detail(err, "The change needs about %zu bytes in one transaction; the limit is %zu.", total,
                          l->commit_max_bytes);
        cm_err_set_hint(err, "Drop fewer objects in one statement.");
        return false;
    }
    return true;
}

int cat_store_head(cat_store_t *s, cat_store_head_cb cb, void *arg, cm_err_t *err)
{
    return s->ops->head(s, cb, arg, err);
}

int cat_store_log_read(cat_store_t *s, uint64_t from, size_t max, cat_store_log_cb cb, void *arg, cm_err_t *err)
{
    if (from == 0) {
        cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "catalog log indexes start at 1");
        return -1;
    }
    return s->ops->log_read(s, from, max ? max : 64, cb, arg, err);
}

int cat_store_snapshot(cat_store_t *s, cat_store_snapshot_cb cb, void *arg, cm_err_t *err)
{
    return s->ops->snapshot(s, cb, arg, err);
}

int cat_store_commit(cat_store_t *s, const cat_store_commit_t *c, cat_store_commit_cb cb, void *arg,
                     cm_err_t *err)
{
    CM_ASSERT(c->index == c->expect.index + 1);
    if (!cat_store_commit_check_size(c, &s->limits, err))
        return -1;
    return s->ops->commit(s, c, cb, arg, err);
}

int cat_store_request_lookup(cat_store_t *s, const uint8_t uuid[16], cat_store_request_cb cb, void *arg,
                             cm_err_t *err)
{
    return s->ops->request_lookup(s, uuid, cb, arg, err);
}

int cat_store_log_trim(cat_store_t *s, uint64_t below, cm_err_t *err)
{
    return s->ops->log_trim(s, below, err);
}

void cat_store_set_notify(cat_store_t *s, cat_store_notify_cb cb, void *arg)
{
    s->notify = cb;
    s->notify_arg = arg;
}

void cat_store_set_quiet(cat_store_t *s, bool quiet)
{
    if (atomic_exchange(&s->quiet, quiet) && !quiet)
        s->ops->dispatch(s);   /* a notice marked while quiet is delivered now */
}

void cat_store_dispatch(cat_store_t *s)
{
    s->ops->dispatch(s);
}

void cat_store_close(cat_store_t *s)
{
    s->ops->close(s);
}

int cat_store_commit_backoff_ms(const cat_store_t *s, int attempt)
{
    if (attempt <= 1 || s->limits.commit_backoff_ms <= 0)
        return 0;
    int64_t cap = s->limits.commit_backoff_ms;
    for (int i = 2; i < attempt && cap < s->limits.commit_backoff_max_ms; i++)
        cap *= 2;
    if (cap > s->limits.commit_backoff_max_ms)
        cap = s->limits.commit_backoff_max_ms;
    /* Full jitter: racing processes spread out instead of colliding again. */
    uint64_t r = cat__jitter_next();
    return (int)(r % (uint64_t)(cap + 1));
}

/* ------------------------------------------------------------- keys */

void cat_object_key(cat_class_t cls, cat_id_t id, char out[24])
{
    snprintf(out, 24, "%c%" PRIu64, (char)cls, id);
}

bool cat_object_key_parse(const char *key, cat_class_t *cls, cat_id_t *id)
{
    if (key[0] != CAT_CLASS_DATABASE && key[0] != CAT_CLASS_SCHEMA && key[0] != CAT_CLASS_ITEM &&
        key[0] != CAT_CLASS_ROLE)
        return false;
    const char *p = key + 1;
    if (*p < '1' || *p > '9')
        return false;
    uint64_t v = 0;
    for (; *p; p++) {
        if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (uint64_t)(*p - '0');
    }
    *cls = (cat_class_t)key[0];
    *id = v;
    return true;
}

static void cat__key_part(const char *s, cm_buf_t *out)
{
    static const char hex[] = "0123456789ABCDEF";
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        unsigned char c = *p;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-') {
            cm_buf_put_u8(out, c);
        } else {
            cm_buf_put_u8(out, '%');
            cm_buf_put_u8(out, (uint8_t)hex[c >> 4]);
            cm_buf_put_u8(out, (uint8_t)hex[c & 15]);
        }
    }
}

void cat_name_key(cat_class_t cls, const char *database, const char *schema, const char *name, cm_buf_t *out)
{
    /* Relations of every kind share one namespace per schema, as pg_class does. */
    cm_buf_put_u8(out, cls == CAT_CLASS_ITEM ? 'r' : (uint8_t)cls);
    cm_buf_put_u8(out, '.');
    cat__key_part(database, out);   /* a role: its name */
    if (cls != CAT_CLASS_DATABASE && cls != CAT_CLASS_ROLE) {
        cm_buf_put_u8(out, '.');
        cat__key_part(schema, out);
    }
    if (cls == CAT_CLASS_ITEM) {
        cm_buf_put_u8(out, '.');
        cat__key_part(name, out);
    }
    cm_buf_put_u8(out, 0);
}
