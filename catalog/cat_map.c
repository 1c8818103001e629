/*
 * cat_map.c: the catalog's hash map and pointer vector.
 *
 * common/ has no hash map yet, and the catalog needs several (by ID, by OID,
 * by name within a parent) that must stay fast at 10,000+ objects. One small
 * open-addressing map with a (u64, string) key serves all of them.
 */
#include "catalog/cat_int.h"

#include <stdlib.h>
#include <string.h>

static uint64_t cat__hash(uint64_t k, const char *s)
{
    /* splitmix64 of the number, then FNV-1a over the string. */
    uint64_t h = k + UINT64_C(0x9e3779b97f4a7c15);
    h = (h ^ (h >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    h = (h ^ (h >> 27)) * UINT64_C(0x94d049bb133111eb);
    h ^= h >> 31;
    if (s)
        for (const unsigned char *p = (const unsigned char *)s; *p; p++)
            h = (h ^ *p) * UINT64_C(0x100000001b3);
    return h | 2;   /* never 0 (empty) or 1 (deleted) */
}

static bool cat__key_eq(const cat__slot_t *sl, uint64_t k, const char *s)
{
    if (sl->k != k)
        return false;
    if (!s || !sl->s)
        return s == sl->s;
    return strcmp(s, sl->s) == 0;
}

void cat__map_init(cat__map_t *m)
{
    memset(m, 0, sizeof(*m));
}

void cat__map_free(cat__map_t *m)
{
    free(m->slots);
    memset(m, 0, sizeof(*m));
}

static cat__slot_t *cat__map_find(const cat__map_t *m, uint64_t k, const char *s, uint64_t h)
{
    if (m->cap == 0)
        return NULL;
    size_t mask = m->cap - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        cat__slot_t *sl = &m->slots[i];
        if (sl->hash == 0)
            return NULL;
        if (sl->hash == h && cat__key_eq(sl, k, s))
            return sl;
    }
}

void *cat__map_get(const cat__map_t *m, uint64_t k, const char *s)
{
    cat__slot_t *sl = cat__map_find(m, k, s, cat__hash(k, s));
    return sl ? sl->v : NULL;
}

static void cat__map_grow(cat__map_t *m)
{
    size_t ncap = m->cap ? m->cap : 16;
    while ((m->count + 1) * 2 > ncap)
        ncap *= 2;
    cat__slot_t *old = m->slots;
    size_t ocap = m->cap;
    m->slots = cm_calloc(ncap, sizeof(cat__slot_t));
    m->cap = ncap;
    m->used = m->count;
    for (size_t i = 0; i < ocap; i++) {
        if (old[i].hash < 2)
            continue;
        size_t j = old[i].hash & (ncap - 1);
        while (m->slots[j].hash != 0)
            j = (j + 1) & (ncap - 1);
        m->slots[j] = old[i];
    }
    free(old);
}

void cat__map_put(cat__map_t *m, uint64_t k, const char *s, void *v)
{
    uint64_t h = cat__hash(k, s);
    cat__slot_t *sl = cat__map_find(m, k, s, h);
    if (sl) {
        sl->v = v;
        sl->s = s;   /* the new value owns the key string now */
        return;
    }
    /* Keep the load (live plus deleted) under 3/4 so probes stay short. */
    if ((m->used + 1) * 4 > m->cap * 3)
        cat__map_grow(m);
    size_t mask = m->cap - 1;
    size_t i = h & mask;
    while (m->slots[i].hash >= 2)
        i = (i + 1) & mask;
    if (m->slots[i].hash == 0)
        m->used++;
    m->slots[i] = (cat__slot_t){.k = k, .s = s, .v = v, .hash = h};
    m->count++;
}

void *cat__map_del(cat__map_t *m, uint64_t k, const char *s)
{
    cat__slot_t *sl = cat__map_find(m, k, s, cat__hash(k, s));
    if (!sl)
        return NULL;
    void *v = sl->v;
    *sl = (cat__slot_t){.hash = 1};
    m->count--;
    return v;
}

bool cat__map_next(const cat__map_t *m, size_t *i, uint64_t *k, const char **s, void **v)
{
    for (; *i < m->cap; (*i)++) {
        const cat__slot_t *sl = &m->slots[*i];
        if (sl->hash < 2)
            continue;
        if (k)
            *k = sl->k;
        if (s)
            *s = sl->s;
        if (v)
            *v = sl->v;
        (*i)++;
        return true;
    }
    return false;
}

void cat__vec_push(cat__vec_t *v, void *p)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 8;
        v->v = cm_realloc(v->v, v->cap * sizeof(void *));
    }
    v->v[v->n++] = p;
}

void cat__vec_free(cat__vec_t *v)
{
    free(v->v);
    memset(v, 0, sizeof(*v));
}

bool cat__vec_remove(cat__vec_t *v, void *p)
{
    /* Newest objects are dropped most often, so search from the end. */
    for (size_t i = v->n; i-- > 0;) {
        if (v->v[i] == p) {
            memmove(&v->v[i], &v->v[i + 1], (v->n - i - 1) * sizeof(void *));
            v->n--;
            return true;
        }
    }
    return false;
}
