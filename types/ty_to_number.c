/*
 * ty_to_number.c: to_number(text, text), the inverse of to_char for
 * numbers, reading the input through a number template (ty_numfmt_parse)
 * as PostgreSQL 15's NUM_processor does in its reading direction.
 *
 * PostgreSQL's reading is lenient in particular ways that users depend on
 * (a digit pattern with no digit under it reads nothing, text in the
 * template skips one input character whatever it is, a sign may sit before
 * the first digit or after the last), so the walk below keeps its shape:
 * the digits read are gathered as text behind a sign character and handed
 * to numeric input with the precision and scale the template allows, which
 * is also where overflow errors come from. The C locale applies: D is ".",
 * G is ",", L is a blank and S reads "+" or "-".
 */
#include "types/ty_to_char.h"

#include <ctype.h>
#include <string.h>

typedef struct ty__numin {
    ty_numfmt_desc_t *d;
    const char *in;        /* the input, NUL-terminated */
    size_t len;
    const char *p;         /* next input byte */
    char *number;          /* number[0] is the sign (' ', '-', '+'), then digits and '.' */
    char *np;              /* next free byte of number */
    int read_pre, read_post;
    bool read_dec;
} ty__numin_t;

static bool ty__over(const ty__numin_t *x) { return x->p >= x->in + x->len; }

static size_t ty__mblen(const char *s)
{
    unsigned char c = (unsigned char)*s;
    size_t n = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    for (size_t i = 1; i < n; i++)
        if (s[i] == '\0')
            return i;
    return n;
}

/* Skips up to n characters that cannot be part of the number (MI, PL, SG, TH with no sign there). */
static void ty__eat_non_data(ty__numin_t *x, int n)
{
    while (n-- > 0) {
        if (ty__over(x) || strchr("0123456789.,+-", *x->p) != NULL)
            break;
        x->p += ty__mblen(x->p);
    }
}

/* A digit or decimal point pattern: PostgreSQL's NUM_numpart_from_char. */
static void ty__numpart(ty__numin_t *x, ty_num_id_t id)
{
    ty_numfmt_desc_t *d = x->d;
    if (ty__over(x))
        return;
    if (*x->p == ' ')
        x->p++;
    if (ty__over(x))
        return;
    /* A sign before the first digit. */
    if (x->number[0] == ' ' && (id == NUM_0 || id == NUM_9) && x->read_pre + x->read_post == 0) {
        if ((d->flag & TY_NF_LSIGN) && d->lsign == -1) {
            if (*x->p == '-' || *x->p == '+')
                x->number[0] = *x->p++;
        } else if (*x->p == '-' || ((d->flag & TY_NF_BRACKET) && *x->p == '<')) {
            x->number[0] = '-';
            x->p++;
        } else if (*x->p == '+') {
            x->number[0] = '+';
            x->p++;
        }
    }
    if (ty__over(x))
        return;
    bool isread = false;
    if (isdigit((unsigned char)*x->p)) {
        /* Digits beyond the template's scale are not read. */
        if (x->read_dec && x->read_post == d->post)
            return;
        *x->np++ = *x->p;
        if (x->read_dec)
            x->read_post++;
        else
            x->read_pre++;
        isread = true;
    } else if ((d->flag & TY_NF_DECIMAL) && !x->read_dec && *x->p == '.') {
        *x->np++ = '.';
        x->read_dec = true;
        isread = true;
    }
    if (ty__over(x) || x->number[0] != ' ' || x->read_pre + x->read_post == 0)
        return;
    if ((d->flag & TY_NF_LSIGN) && isread && x->p + 1 < x->in + x->len && !isdigit((unsigned char)x->p[1])) {
        /* S after the last digit: a sign right behind it. */
        if (x->p[1] == '-' || x->p[1] == '+')
            x->number[0] = *++x->p;
    } else if (!isread && !(d->flag & TY_NF_LSIGN) && (d->flag & (TY_NF_PLUS | TY_NF_MINUS))) {
        /* A digit pattern past the number's end standing on the sign MI, PL or SG reads later
         * ("5.01-" in "FM9.999999MI"): the sign is taken here and the pattern moves on. */
        if (*x->p == '-' || *x->p == '+')
            x->number[0] = *x->p;
    }
}

static bool ty__to_number(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[1].v.s.len == 0) {
        o->isnull = true;
        return true;
    }
    ty_numfmt_t t;
    if (!ty_numfmt_parse(c, a[1].v.s.p, a[1].v.s.len, &t))
        return false;
    ty_numfmt_desc_t *d = &t.d;
    if (d->flag & TY_NF_EEEE)
        return cm_err_set(c->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "\"EEEE\" not supported for input");
    if (d->flag & TY_NF_ROMAN)
        return cm_err_set(c->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "\"RN\" not supported for input");
    ty__numin_t x = {.d = d, .len = a[0].v.s.len};
    x.in = ty_datum_cstr(c->arena, &a[0]);
    x.p = x.in;
    x.number = cm_arena_zalloc(c->arena, (size_t)t.n + x.len + 2);
    x.number[0] = ' ';
    x.np = x.number + 1;
    bool fm = (d->flag & TY_NF_FILLMODE) != 0;
    for (int k = 0; k < t.n; k++) {
        const struct ty_numfmt_node *node = &t.nodes[k];
        if (ty__over(&x))
            break;
        if (!node->action) {
            /* Template text skips one input character, matching or not; the
             * template's own multibyte characters count once. */
            if (((unsigned char)node->p[0] & 0xC0) != 0x80)
                x.p += ty__mblen(x.p);
            continue;
        }
        switch (node->id) {
        case NUM_9: case NUM_0: case NUM_DEC: case NUM_D:
            ty__numpart(&x, node->id);
            break;
        case NUM_COMMA: case NUM_G:
            /* A group separator is skipped only where the input has one. */
            if (fm || *x.p != ',')
                continue;
            break;
        case NUM_L:
            /* The currency symbol (a blank here) skips as many characters that are not data. */
            ty__eat_non_data(&x, 1);
            continue;
        case NUM_TH: case NUM_th:
            if (d->flag & TY_NF_DECIMAL)
                continue;
            ty__eat_non_data(&x, 2);
            continue;
        case NUM_MI:
            if (*x.p != '-') {
                ty__eat_non_data(&x, 1);
                continue;
            }
            x.number[0] = '-';
            break;
        case NUM_PL:
            if (*x.p != '+') {
                ty__eat_non_data(&x, 1);
                continue;
            }
            x.number[0] = '+';
            break;
        case NUM_SG:
            if (*x.p != '-' && *x.p != '+') {
                ty__eat_non_data(&x, 1);
                continue;
            }
            x.number[0] = *x.p;
            break;
        default:
            continue;
        }
        x.p++;
    }
    /* A trailing point is dropped. */
    if (x.np[-1] == '.')
        x.np--;
    *x.np = '\0';
    int scale = x.read_post, precision = d->pre + d->multi + scale;
    if (!ty_datum_from_text(TY_NUMERIC, ((precision << 16) | scale) + 4, x.number, strlen(x.number), c, o))
        return false;
    if (d->flag & TY_NF_MULTI) {
        /* V: the digits after it were a power of ten the value was multiplied by. */
        ty_numeric_t *p, *r;
        if (!ty_num_power(c, ty_num_from_int64(c->arena, 10), ty_num_from_int64(c->arena, -d->multi), &p) ||
            !ty_num_mul(c, o->v.n, p, &r))
            return false;
        o->v.n = r;
    }
    return true;
}

static const ty_func_t ty__to_number_funcs[] = {
    {"to_number", 2, {TY_TEXT, TY_TEXT}, TY_NUMERIC, TY_FN_STRICT, ty__to_number, 1777},
};

const ty_func_table_t ty_funcs_to_number = {ty__to_number_funcs, CM_ARRAY_LEN(ty__to_number_funcs)};
