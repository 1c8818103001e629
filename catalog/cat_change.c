/*
 * cat_change.c: a validated change: the ops of one statement and the
 * notices PostgreSQL would send with it.
 *
 * A change remembers the snapshot index it was planned against: its checks
 * hold only at that index, and the commit's compare-and-swap on the head
 * makes sure the store is still there when it lands.
 */
#include "catalog/cat_int.h"

#include <stdlib.h>
#include <string.h>

cat_change_t *cat_change_new(void)
{
    cat_change_t *c = cm_calloc(1, sizeof(*c));
    cm_arena_init(&c->arena, 1024);
    return c;
}

void cat_change_free(cat_change_t *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nnotices; i++)
        cm_err_clear(&c->notices[i]);
    free(c->notices);
    free(c->ops);
    cm_arena_free(&c->arena);
    free(c);
}

size_t cat_change_op_count(const cat_change_t *c)
{
    return c->nops;
}

size_t cat_change_notice_count(const cat_change_t *c)
{
    return c->nnotices;
}

const cm_err_t *cat_change_notice(const cat_change_t *c, size_t i)
{
    return i < c->nnotices ? &c->notices[i] : NULL;
}

size_t cat_change_dropped(const cat_change_t *c, cat_class_t cls, cat_id_t *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < c->nops; i++) {
        if (c->ops[i].kind != CAT_OP_DROP || c->ops[i].obj.cls != cls)
            continue;
        if (n < max)
            out[n] = c->ops[i].obj.id;
        n++;
    }
    return n;
}

bool cat__change_drops(const cat_change_t *c, cat_class_t cls, cat_id_t id)
{
    for (size_t i = 0; i < c->nops; i++)
        if (c->ops[i].kind == CAT_OP_DROP && c->ops[i].obj.cls == cls && c->ops[i].obj.id == id)
            return true;
    return false;
}

static cm_err_t *change_vnotice(cat_change_t *c, const char *sqlstate, const char *fmt, va_list ap)
{
    if (c->nnotices == c->capnotices) {
        c->capnotices = c->capnotices ? c->capnotices * 2 : 4;
        c->notices = cm_realloc(c->notices, c->capnotices * sizeof(cm_err_t));
    }
    cm_err_t *n = &c->notices[c->nnotices++];
    memset(n, 0, sizeof(*n));
    cm_err_vset(n, sqlstate, fmt, ap);
    n->severity = CM_SEV_NOTICE;
    return n;
}

cm_err_t *cat__change_notice(cat_change_t *c, const char *sqlstate, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cm_err_t *n = change_vnotice(c, sqlstate, fmt, ap);
    va_end(ap);
    return n;
}

cm_err_t *cat_plan_notice(const cat_snap_t *s, cat_change_t *c, const char *sqlstate, const char *fmt, ...)
{
    cat__change_base(c, s);
    va_list ap;
    va_start(ap, fmt);
    cm_err_t *n = change_vnotice(c, sqlstate, fmt, ap);
    va_end(ap);
    return n;
}

cat__op_t *cat__change_op(cat_change_t *c, cat_op_kind_t kind)
{
    if (c->nops == c->capops) {
        c->capops = c->capops ? c->capops * 2 : 8;
        c->ops = cm_realloc(c->ops, c->capops * sizeof(cat__op_t));
    }
    cat__op_t *op = &c->ops[c->nops++];
    memset(op, 0, sizeof(*op));
    op->kind = kind;
    return op;
}

bool cat__change_base(cat_change_t *c, const cat_snap_t *s)
{
    if (!c->based) {
        c->based = true;
        c->base_index = cat_snap_index(s);
    }
    /* Planning one change against two catalog states would mix checks. */
    CM_ASSERT(c->base_index == cat_snap_index(s));
    return true;
}
