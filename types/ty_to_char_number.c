/*
 * ty_to_char_number.c: to_char(int4|int8|float4|float8|numeric, text)
 * with PostgreSQL 15's number templates: 9 0 . , D G S PR MI PL SG FM
 * EEEE V RN TH, B and L.
 *
 * It works in PostgreSQL's three steps, because its many corner cases
 * (where signs go, when fill mode strips zeros, what overflows to '#') fall
 * out of those steps and nothing simpler reproduces them: the template is
 * parsed into nodes while a description (digits before and after the point,
 * sign style, flags) is gathered; the value is printed to a plain digit
 * string rounded to the template's scale; then the nodes are walked and the
 * digit string laid into them. The server runs in the C locale: D is ".",
 * G is ",", L is a blank, and S prints "+" or "-".
 */
#include "types/ty_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum ty__num_id {
    NUM_COMMA, NUM_DEC, NUM_0, NUM_9, NUM_B, NUM_C, NUM_D, NUM_E, NUM_FM, NUM_G, NUM_L, NUM_MI, NUM_PL,
    NUM_PR, NUM_RN, NUM_SG, NUM_SP, NUM_S, NUM_TH, NUM_V, NUM_rn, NUM_th,
} ty__num_id_t;

typedef struct ty__num_kw {
    const char *name;
    ty__num_id_t id;
} ty__num_kw_t;

static const ty__num_kw_t ty__num_kws[] = {
    {",", NUM_COMMA}, {".", NUM_DEC}, {"0", NUM_0}, {"9", NUM_9}, {"B", NUM_B}, {"C", NUM_C},
    {"D", NUM_D}, {"EEEE", NUM_E}, {"FM", NUM_FM}, {"G", NUM_G}, {"L", NUM_L}, {"MI", NUM_MI},
    {"PL", NUM_PL}, {"PR", NUM_PR}, {"RN", NUM_RN}, {"SG", NUM_SG}, {"SP", NUM_SP}, {"S", NUM_S},
    {"TH", NUM_TH}, {"V", NUM_V},
    {"b", NUM_B}, {"c", NUM_C}, {"d", NUM_D}, {"eeee", NUM_E}, {"fm", NUM_FM}, {"g", NUM_G},
    {"l", NUM_L}, {"mi", NUM_MI}, {"pl", NUM_PL}, {"pr", NUM_PR}, {"rn", NUM_rn}, {"sg", NUM_SG},
    {"sp", NUM_SP}, {"s", NUM_S}, {"th", NUM_th}, {"v", NUM_V},
};

enum {
    F_DECIMAL = 1 << 1, F_LDECIMAL = 1 << 2, F_ZERO = 1 << 3, F_BLANK = 1 << 4, F_FILLMODE = 1 << 5,
    F_LSIGN = 1 << 6, F_BRACKET = 1 << 7, F_MINUS = 1 << 8, F_PLUS = 1 << 9, F_ROMAN = 1 << 10,
    F_MULTI = 1 << 11, F_EEEE = 1 << 14,
};

enum { LSIGN_NONE = 0, LSIGN_PRE = -1, LSIGN_POST = 1 };

typedef struct ty__num_node {
    bool action;
    ty__num_id_t id;
    const char *p;     /* literal bytes */
    size_t len;
} ty__num_node_t;

/* What the template asks for, as PostgreSQL's NUMDesc. */
typedef struct ty__num_desc {
    int pre, post, lsign, flag, pre_lsign_num, multi, zero_start, zero_end;
} ty__num_desc_t;

typedef struct ty__num_tmpl {
    ty__num_node_t *nodes;
    int n;
    ty__num_desc_t d;
} ty__num_tmpl_t;

static bool ty__syntax(ty_ctx_t *ctx, const char *msg)
{
    return cm_err_set(ctx->err, CM_ERRCODE_SYNTAX_ERROR, "%s", msg);
}

/* Folds one pattern into the description, rejecting the combinations PostgreSQL rejects. */
static bool ty__num_describe(ty_ctx_t *ctx, ty__num_desc_t *d, ty__num_id_t id)
{
    if ((d->flag & F_EEEE) && id != NUM_E)
        return ty__syntax(ctx, "\"EEEE\" must be the last pattern used");
    switch (id) {
    case NUM_9:
        if (d->flag & F_BRACKET)
            return ty__syntax(ctx, "\"9\" must be ahead of \"PR\"");
        if (d->flag & F_MULTI)
            d->multi++;
        else if (d->flag & F_DECIMAL)
            d->post++;
        else
            d->pre++;
        break;
    case NUM_0:
        if (d->flag & F_BRACKET)
            return ty__syntax(ctx, "\"0\" must be ahead of \"PR\"");
        if (!(d->flag & F_ZERO) && !(d->flag & F_DECIMAL)) {
            d->flag |= F_ZERO;
            d->zero_start = d->pre + 1;
        }
        if (!(d->flag & F_DECIMAL))
            d->pre++;
        else
            d->post++;
        d->zero_end = d->pre + d->post;
        break;
    case NUM_B:
        if (d->pre == 0 && d->post == 0 && !(d->flag & F_ZERO))
            d->flag |= F_BLANK;
        break;
    case NUM_D:
    case NUM_DEC:
        if (d->flag & F_DECIMAL)
            return ty__syntax(ctx, "multiple decimal points");
        if (d->flag & F_MULTI)
            return ty__syntax(ctx, "cannot use \"V\" and decimal point together");
        d->flag |= F_DECIMAL | (id == NUM_D ? F_LDECIMAL : 0);
        break;
    case NUM_FM:
        d->flag |= F_FILLMODE;
        break;
    case NUM_S:
        if (d->flag & F_LSIGN)
            return ty__syntax(ctx, "cannot use \"S\" twice");
        if (d->flag & (F_PLUS | F_MINUS | F_BRACKET))
            return ty__syntax(ctx, "cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together");
        if (!(d->flag & F_DECIMAL)) {
            d->lsign = LSIGN_PRE;
            d->pre_lsign_num = d->pre;
            d->flag |= F_LSIGN;
        } else if (d->lsign == LSIGN_NONE) {
            d->lsign = LSIGN_POST;
            d->flag |= F_LSIGN;
        }
        break;
    case NUM_MI:
        if (d->flag & F_LSIGN)
            return ty__syntax(ctx, "cannot use \"S\" and \"MI\" together");
        d->flag |= F_MINUS;
        break;
    case NUM_PL:
        if (d->flag & F_LSIGN)
            return ty__syntax(ctx, "cannot use \"S\" and \"PL\" together");
        d->flag |= F_PLUS;
        break;
    case NUM_SG:
        if (d->flag & F_LSIGN)
            return ty__syntax(ctx, "cannot use \"S\" and \"SG\" together");
        d->flag |= F_MINUS | F_PLUS;
        break;
    case NUM_PR:
        if (d->flag & (F_LSIGN | F_PLUS | F_MINUS))
            return ty__syntax(ctx, "cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together");
        d->flag |= F_BRACKET;
        break;
    case NUM_RN:
    case NUM_rn:
        d->flag |= F_ROMAN;
        break;
    case NUM_V:
        if (d->flag & F_DECIMAL)
            return ty__syntax(ctx, "cannot use \"V\" and decimal point together");
        d->flag |= F_MULTI;
        break;
    case NUM_E:
        if (d->flag & F_EEEE)
            return ty__syntax(ctx, "cannot use \"EEEE\" twice");
        if (d->flag & (F_BLANK | F_FILLMODE | F_LSIGN | F_BRACKET | F_MINUS | F_PLUS | F_ROMAN | F_MULTI)) {
            ty__syntax(ctx, "\"EEEE\" is incompatible with other formats");
            cm_err_set_detail(ctx->err, "\"EEEE\" may only be used together with digit and decimal point patterns.");
            return false;
        }
        d->flag |= F_EEEE;
        break;
    default:
        break;
    }
    return true;
}

static bool ty__num_parse(ty_ctx_t *ctx, const char *p, size_t len, ty__num_tmpl_t *t)
{
    memset(t, 0, sizeof(*t));
    t->nodes = cm_arena_alloc(ctx->arena, (len + 1) * sizeof(ty__num_node_t));
    size_t i = 0;
    while (i < len) {
        const ty__num_kw_t *kw = NULL;
        for (size_t k = 0; k < CM_ARRAY_LEN(ty__num_kws) && kw == NULL; k++) {
            size_t n = strlen(ty__num_kws[k].name);
            if (n <= len - i && memcmp(p + i, ty__num_kws[k].name, n) == 0)
                kw = &ty__num_kws[k];
        }
        if (kw) {
            t->nodes[t->n++] = (ty__num_node_t){true, kw->id, NULL, 0};
            if (!ty__num_describe(ctx, &t->d, kw->id))
                return false;
            i += strlen(kw->name);
            continue;
        }
        if (p[i] == '"') {
            /* A quoted literal; inside it a backslash takes the next byte as is. */
            for (i++; i < len; i++) {
                if (p[i] == '"') {
                    i++;
                    break;
                }
                if (p[i] == '\\' && i + 1 < len)
                    i++;
                t->nodes[t->n++] = (ty__num_node_t){false, 0, p + i, 1};
            }
            continue;
        }
        /* Outside quotes a backslash only escapes a double quote. */
        if (p[i] == '\\' && i + 1 < len && p[i + 1] == '"')
            i++;
        t->nodes[t->n++] = (ty__num_node_t){false, 0, p + i, 1};
        i++;
    }
    return true;
}

/* ===== laying the digits into the template (PostgreSQL's NUM_processor) ===== */

typedef struct ty__num_proc {
    ty__num_desc_t *d;
    const char *number;   /* digits and maybe '.', without sign */
    size_t number_p;      /* next character of number */
    long last_relevant;   /* index in number of the last digit fill mode keeps; -1 none */
    int sign;             /* '+', '-' or 0 (roman numerals) */
    bool sign_wrote;
    bool num_in;          /* the last digit pattern wrote a digit: a separator prints */
    int num_curr, num_count, out_pre_spaces;
    cm_buf_t *out;
} ty__num_proc_t;

static char ty__np_cur(const ty__num_proc_t *np)
{
    return np->number[np->number_p];
}

/* "0.1" in "9.9" prints " .1": the leading zero becomes a blank. */
static bool ty__predec_space(const ty__num_proc_t *np)
{
    return !(np->d->flag & F_ZERO) && np->number_p == 0 && np->number[0] == '0' && np->d->post != 0;
}

static void ty__num_part(ty__num_proc_t *np, ty__num_id_t id)
{
    ty__num_desc_t *d = np->d;
    bool fm = (d->flag & F_FILLMODE) != 0;
    bool lr_is_dot = np->last_relevant >= 0 && np->number[np->last_relevant] == '.';
    if (d->flag & F_ROMAN)
        return;
    /* A separator prints only right after a written digit ("9.,9" prints "1. 2"). */
    np->num_in = false;
    /* The sign goes right before the first digit that is actually written. */
    if (!np->sign_wrote &&
        (np->num_curr >= np->out_pre_spaces || ((d->flag & F_ZERO) && d->zero_start == np->num_curr)) &&
        (!ty__predec_space(np) || lr_is_dot)) {
        if (d->flag & F_LSIGN) {
            if (d->lsign == LSIGN_PRE) {
                cm_buf_put_u8(np->out, np->sign == '-' ? '-' : '+');
                np->sign_wrote = true;
            }
        } else if (d->flag & F_BRACKET) {
            cm_buf_put_u8(np->out, np->sign == '+' ? ' ' : '<');
            np->sign_wrote = true;
        } else if (np->sign == '+') {
            if (!fm)
                cm_buf_put_u8(np->out, ' ');
            np->sign_wrote = true;
        } else if (np->sign == '-') {
            cm_buf_put_u8(np->out, '-');
            np->sign_wrote = true;
        }
    }
    if (np->num_curr < np->out_pre_spaces && (d->zero_start > np->num_curr || !(d->flag & F_ZERO))) {
        if (!fm)
            cm_buf_put_u8(np->out, ' ');
    } else if ((d->flag & F_ZERO) && np->num_curr < np->out_pre_spaces && d->zero_start <= np->num_curr) {
        cm_buf_put_u8(np->out, '0');
        np->num_in = true;
    } else {
        if (ty__np_cur(np) == '.') {
            /* Fill mode keeps a bare point ("FM9.9" prints "1."). */
            if (!lr_is_dot || fm)
                cm_buf_put_u8(np->out, '.');
        } else if (np->last_relevant >= 0 && (long)np->number_p > np->last_relevant && id != NUM_0) {
            /* A trailing zero that fill mode drops. */
        } else if (ty__predec_space(np)) {
            if (!fm)
                cm_buf_put_u8(np->out, ' ');
            else if (lr_is_dot)
                cm_buf_put_u8(np->out, '0');
        } else {
            cm_buf_put_u8(np->out, (uint8_t)ty__np_cur(np));
            np->num_in = true;
        }
        if (ty__np_cur(np))
            np->number_p++;
    }
    int end = np->num_count + (np->out_pre_spaces ? 1 : 0) + ((d->flag & F_DECIMAL) ? 1 : 0);
    if (np->last_relevant >= 0 && (size_t)np->last_relevant == np->number_p)
        end = np->num_curr;
    if (np->num_curr + 1 == end) {
        if (np->sign_wrote && (d->flag & F_BRACKET))
            cm_buf_put_u8(np->out, np->sign == '+' ? ' ' : '>');
        else if ((d->flag & F_LSIGN) && d->lsign == LSIGN_POST)
            cm_buf_put_u8(np->out, np->sign == '-' ? '-' : '+');
    }
    np->num_curr++;
}

static long ty__last_relevant(const char *num)
{
    const char *p = strchr(num, '.');
    if (!p)
        return -1;
    long r = p - num;
    for (p++; *p; p++)
        if (*p != '0')
            r = p - num;
    return r;
}

static bool ty__num_process(ty_ctx_t *ctx, ty__num_tmpl_t *t, const char *number, int out_pre_spaces, int sign,
                            cm_buf_t *out)
{
    ty__num_desc_t *d = &t->d;
    if (d->zero_start)
        d->zero_start--;
    if (d->flag & F_EEEE) {
        /* Scientific notation ignores everything else in the template. */
        cm_buf_put_str(out, number);
        return true;
    }
    if (d->flag & F_ROMAN) {
        d->lsign = d->pre_lsign_num = d->post = d->pre = 0;
        out_pre_spaces = 0;
        sign = 0;
        d->flag = F_ROMAN | (d->flag & F_FILLMODE);
    }
    ty__num_proc_t np = {.d = d, .number = number, .last_relevant = -1, .sign = sign, .out = out};
    if (d->flag & (F_PLUS | F_MINUS)) {
        /* PL alone still needs the minus written with the digits; MI or SG print it themselves. */
        np.sign_wrote = !((d->flag & F_PLUS) && !(d->flag & F_MINUS));
    } else {
        if (sign != '-' && (d->flag & F_FILLMODE))
            d->flag &= ~F_BRACKET;
        np.sign_wrote = sign == '+' && (d->flag & F_FILLMODE) && !(d->flag & F_LSIGN);
        if (d->lsign == LSIGN_PRE && d->pre == d->pre_lsign_num)
            d->lsign = LSIGN_POST;
    }
    np.num_count = d->post + d->pre - 1;
    np.out_pre_spaces = out_pre_spaces;
    if ((d->flag & F_FILLMODE) && (d->flag & F_DECIMAL)) {
        np.last_relevant = ty__last_relevant(number);
        /* Digits the template spells with '0' are kept even in fill mode. */
        if (np.last_relevant >= 0 && d->zero_end > out_pre_spaces) {
            long last_zero = (long)strlen(number) - 1;
            if (d->zero_end - out_pre_spaces < last_zero)
                last_zero = d->zero_end - out_pre_spaces;
            if (np.last_relevant < last_zero)
                np.last_relevant = last_zero;
        }
    }
    if (!np.sign_wrote && out_pre_spaces == 0)
        np.num_count++;
    bool fm = (d->flag & F_FILLMODE) != 0;
    size_t cut = (size_t)-1;
    for (int k = 0; k < t->n; k++) {
        const ty__num_node_t *n = &t->nodes[k];
        if (!n->action) {
            cm_buf_put(out, n->p, n->len);
            continue;
        }
        switch (n->id) {
        case NUM_9: case NUM_0: case NUM_DEC: case NUM_D:
            ty__num_part(&np, n->id);
            break;
        case NUM_COMMA: case NUM_G:
            if (np.num_in)
                cm_buf_put_u8(out, ',');
            else if (!fm)
                cm_buf_put_u8(out, ' ');
            break;
        case NUM_L:
            cm_buf_put_u8(out, ' ');   /* the C locale's currency symbol is empty; PostgreSQL prints a blank */
            break;
        case NUM_RN:
        case NUM_rn: {
            const char *r = number;
            if (n->id == NUM_rn) {
                char *low = cm_arena_strdup(ctx->arena, number);
                for (char *c = low; *c; c++)
                    if (*c >= 'A' && *c <= 'Z')
                        *c = (char)(*c + 32);
                r = low;
            }
            if (fm)
                cm_buf_put_str(out, r);
            else
                cm_buf_printf(out, "%15s", r);
            break;
        }
        case NUM_TH:
        case NUM_th: {
            if ((d->flag & F_ROMAN) || number[0] == '#' || np.sign == '-' || (d->flag & F_DECIMAL))
                break;
            size_t l = strlen(number);
            if (l == 0 || number[l - 1] < '0' || number[l - 1] > '9')
                return cm_err_set(ctx->err, CM_ERRCODE_INVALID_TEXT_REPRESENTATION, "\"%s\" is not a number", number);
            cm_buf_put_str(out, ty_to_char_ordinal(number, n->id == NUM_TH));
            break;
        }
        case NUM_MI:
            if (np.sign == '-')
                cm_buf_put_u8(out, '-');
            else if (!fm)
                cm_buf_put_u8(out, ' ');
            break;
        case NUM_PL:
            if (np.sign == '+')
                cm_buf_put_u8(out, '+');
            else if (!fm)
                cm_buf_put_u8(out, ' ');
            break;
        case NUM_SG:
            /* A roman numeral has no sign: PostgreSQL writes a NUL byte,
             * which ends its result there. */
            if (np.sign == 0) {
                if (cut == (size_t)-1)
                    cut = out->len;
            } else {
                cm_buf_put_u8(out, (uint8_t)np.sign);
            }
            break;
        default:
            break;
        }
    }
    if (cut != (size_t)-1)
        out->len = cut;
    return true;
}

/* ===== printing the value ===== */

/* The digit string for a value in a fixed-point template. */
typedef struct ty__num_str {
    char *s;
    int sign;
    int out_pre_spaces;
} ty__num_str_t;

/* Pads to the template or, when the integer part does not fit, fills with '#'. */
static void ty__num_fit(cm_arena_t *a, ty__num_desc_t *d, ty__num_str_t *ns)
{
    const char *dot = strchr(ns->s, '.');
    int pre_len = dot ? (int)(dot - ns->s) : (int)strlen(ns->s);
    if (pre_len < d->pre) {
        ns->out_pre_spaces = d->pre - pre_len;
    } else if (pre_len > d->pre) {
        char *h = cm_arena_alloc(a, (size_t)d->pre + (size_t)d->post + 2);
        memset(h, '#', (size_t)d->pre + (size_t)d->post + 1);
        h[d->pre] = '.';
        h[d->pre + d->post + 1] = 0;
        ns->s = h;
    }
}

static char *ty__roman(cm_arena_t *a, int64_t v)
{
    static const char *const r100[] = {"C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"};
    static const char *const r10[] = {"X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"};
    static const char *const r1[] = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"};
    if (v < 1 || v > 3999)
        return cm_arena_strdup(a, "###############");
    cm_buf_t b;
    cm_buf_init(&b, 0);
    for (int64_t m = v / 1000; m > 0; m--)
        cm_buf_put_u8(&b, 'M');
    int h = (int)(v / 100 % 10), t = (int)(v / 10 % 10), o = (int)(v % 10);
    if (h)
        cm_buf_put_str(&b, r100[h - 1]);
    if (t)
        cm_buf_put_str(&b, r10[t - 1]);
    if (o)
        cm_buf_put_str(&b, r1[o - 1]);
    char *s = cm_arena_strndup(a, (const char *)b.data, b.len);
    cm_buf_free(&b);
    return s;
}

/* printf's %.*f or %+.*e, except that NaN and the infinities print as
 * PostgreSQL's own snprintf prints them. */
static char *ty__fmt_double(cm_arena_t *a, double v, int prec, bool sci)
{
    if (isnan(v))
        return cm_arena_strdup(a, "NaN");
    if (isinf(v))
        return cm_arena_strdup(a, v < 0 ? "-Infinity" : sci ? "+Infinity" : "Infinity");
    return sci ? cm_arena_printf(a, "%+.*e", prec, v) : cm_arena_printf(a, "%.*f", prec, v);
}

/* A numeric in scientific notation with `scale` digits after the point;
 * rounding may carry the significand to 10 ("10.0e+00"), as PostgreSQL's does. */
static char *ty__numeric_sci(cm_arena_t *a, const ty_numeric_t *n, int scale)
{
    if (n->kind == TY_NUM_NAN)
        return cm_arena_strdup(a, "NaN");
    if (n->kind != TY_NUM_FINITE)
        return cm_arena_strdup(a, n->kind == TY_NUM_PINF ? "Infinity" : "-Infinity");
    if (scale < 0)
        scale = 0;
    int exp10 = n->mag.n == 0 ? 0 : ty_bn_dec_digits(n->mag) - 1 - n->dscale;
    int k = scale - n->dscale - exp10;
    ty_bn_t m = k >= 0 ? ty_bn_mul_pow10(a, n->mag, k) : ty_bn_div_pow10(a, n->mag, -k, 1, NULL);
    cm_buf_t b;
    cm_buf_init(&b, 0);
    ty_num_to_text(ty_num_make(a, n->neg, m, scale), a, &b);
    cm_buf_printf(&b, "e%+03d", exp10);
    char *s = cm_arena_strndup(a, (const char *)b.data, b.len);
    cm_buf_free(&b);
    return s;
}

/* Integers: digits, then zeros for the template's fraction. */
static void ty__num_from_int(cm_arena_t *a, ty__num_desc_t *d, int64_t v, ty__num_str_t *ns)
{
    char *s = cm_arena_printf(a, "%lld", (long long)v);
    ns->sign = '+';
    if (*s == '-') {
        ns->sign = '-';
        s++;
    }
    if (d->post) {
        size_t l = strlen(s);
        char *f = cm_arena_alloc(a, l + (size_t)d->post + 2);
        memcpy(f, s, l);
        f[l] = '.';
        memset(f + l + 1, '0', (size_t)d->post);
        f[l + 1 + (size_t)d->post] = 0;
        s = f;
    }
    ns->s = s;
    ns->out_pre_spaces = 0;
    ty__num_fit(a, d, ns);
}

static bool ty__num_finish(ty_ctx_t *c, ty__num_tmpl_t *t, const ty__num_str_t *ns, ty_datum_t *o)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    bool ok = ty__num_process(c, t, ns->s, ns->out_pre_spaces, ns->sign, &b);
    if (ok)
        *o = ty_buf_datum(c->arena, &b);
    cm_buf_free(&b);
    return ok;
}

/* An empty template gives an empty string (not NULL, unlike the date/time to_char). */
static bool ty__num_begin(ty_ctx_t *c, const ty_datum_t *fmt, ty__num_tmpl_t *t, ty_datum_t *o, bool *done)
{
    *done = false;
    if (fmt->v.s.len == 0) {
        *o = ty_text_datum(c->arena, "", 0);
        *done = true;
        return true;
    }
    return ty__num_parse(c, fmt->v.s.p, fmt->v.s.len, t);
}

static bool ty__to_char_int(ty_ctx_t *c, const ty_datum_t *a, ty_datum_t *o, bool is_int8)
{
    ty__num_tmpl_t t;
    bool done;
    if (!ty__num_begin(c, &a[1], &t, o, &done))
        return false;
    if (done)
        return true;
    int64_t v = a[0].v.i;
    ty__num_str_t ns = {NULL, 0, 0};
    if (t.d.flag & F_ROMAN) {
        if (is_int8 && (v > INT32_MAX || v < INT32_MIN))
            return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
        ns.s = ty__roman(c->arena, v);
    } else if (t.d.flag & F_EEEE) {
        if (is_int8) {
            /* Through numeric, so that no digit of a large bigint is lost. */
            char *s = ty__numeric_sci(c->arena, ty_num_from_int64(c->arena, v), t.d.post);
            ns.s = *s == '-' ? s : cm_arena_printf(c->arena, " %s", s);
        } else {
            ns.s = ty__fmt_double(c->arena, (double)v, t.d.post, true);
            if (*ns.s == '+')
                *ns.s = ' ';
        }
    } else {
        if (t.d.flag & F_MULTI) {
            double p = pow(10.0, (double)t.d.multi);
            if (is_int8) {
                if (!(p < 9223372036854775808.0) || __builtin_mul_overflow(v, (int64_t)p, &v))
                    return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "bigint out of range");
            } else {
                /* int4 arithmetic wraps here in PostgreSQL, and a too large
                 * power converts to INT_MIN on x86; both are kept. */
                int32_t m = p < 2147483648.0 ? (int32_t)p : INT32_MIN;
                v = (int32_t)((uint32_t)(int32_t)v * (uint32_t)m);
            }
            t.d.pre += t.d.multi;
        }
        ty__num_from_int(c->arena, &t.d, v, &ns);
    }
    return ty__num_finish(c, &t, &ns, o);
}

static bool ty__to_char_int4(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__to_char_int(c, a, o, false);
}

static bool ty__to_char_int8(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__to_char_int(c, a, o, true);
}

/* NaN and the infinities in scientific notation: '#' in the shape of the template. */
static char *ty__sci_hashes(cm_arena_t *a, const ty__num_desc_t *d)
{
    size_t n = (size_t)d->pre + (size_t)d->post + 6;
    char *s = cm_arena_alloc(a, n + 1);
    memset(s, '#', n);
    s[n] = 0;
    s[0] = ' ';
    s[d->pre + 1] = '.';
    return s;
}

static bool ty__to_char_float(ty_ctx_t *c, const ty_datum_t *a, ty_datum_t *o, bool is_float4)
{
    ty__num_tmpl_t t;
    bool done;
    if (!ty__num_begin(c, &a[1], &t, o, &done))
        return false;
    if (done)
        return true;
    double v = a[0].v.f;
    ty__num_str_t ns = {NULL, 0, 0};
    if (t.d.flag & F_ROMAN) {
        double r = rint(v);
        /* (int) of an out-of-range double is INT_MIN on x86, which prints as '#'. */
        ns.s = ty__roman(c->arena, r >= -2147483648.0 && r < 2147483648.0 ? (int64_t)r : INT32_MIN);
    } else if (t.d.flag & F_EEEE) {
        if (isnan(v) || isinf(v)) {
            ns.s = ty__sci_hashes(c->arena, &t.d);
        } else {
            ns.s = ty__fmt_double(c->arena, v, t.d.post, true);
            if (*ns.s == '+')
                *ns.s = ' ';
        }
    } else {
        double val = v;
        if (t.d.flag & F_MULTI) {
            if (is_float4)
                val = (float)((float)v * (float)pow(10.0, (double)t.d.multi));
            else
                val = v * pow(10.0, (double)t.d.multi);
            t.d.pre += t.d.multi;
        }
        /* Only as many digits as the type holds (FLT_DIG or DBL_DIG) are shown. */
        int max_dig = is_float4 ? FLT_DIG : DBL_DIG;
        int pre_len = (int)strlen(ty__fmt_double(c->arena, fabs(val), 0, false));
        if (pre_len >= max_dig)
            t.d.post = 0;
        else if (pre_len + t.d.post > max_dig)
            t.d.post = max_dig - pre_len;
        char *s = ty__fmt_double(c->arena, val, t.d.post, false);
        ns.sign = '+';
        if (*s == '-') {
            ns.sign = '-';
            s++;
        }
        ns.s = s;
        ty__num_fit(c->arena, &t.d, &ns);
    }
    return ty__num_finish(c, &t, &ns, o);
}

static bool ty__to_char_float4(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__to_char_float(c, a, o, true);
}

static bool ty__to_char_float8(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    return ty__to_char_float(c, a, o, false);
}

static bool ty__to_char_numeric(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty__num_tmpl_t t;
    bool done;
    if (!ty__num_begin(c, &a[1], &t, o, &done))
        return false;
    if (done)
        return true;
    const ty_numeric_t *v = a[0].v.n;
    ty__num_str_t ns = {NULL, 0, 0};
    if (t.d.flag & F_ROMAN) {
        int64_t i;
        if (v->kind != TY_NUM_FINITE)
            return cm_err_set(c->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "cannot convert %s to integer",
                              v->kind == TY_NUM_NAN ? "NaN" : "infinity");
        if (!ty_numeric_to_int64(ty_num_round(c->arena, v, 0), &i) || i > INT32_MAX || i < INT32_MIN)
            return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "integer out of range");
        ns.s = ty__roman(c->arena, i);
    } else if (t.d.flag & F_EEEE) {
        char *s = ty__numeric_sci(c->arena, v, t.d.post);
        if (v->kind != TY_NUM_FINITE)
            ns.s = ty__sci_hashes(c->arena, &t.d);
        else
            ns.s = *s == '-' ? s : cm_arena_printf(c->arena, " %s", s);
    } else {
        if ((t.d.flag & F_MULTI) && v->kind == TY_NUM_FINITE) {
            v = ty_num_make(c->arena, v->neg, ty_bn_mul_pow10(c->arena, v->mag, t.d.multi), v->dscale);
            t.d.pre += t.d.multi;
        } else if (t.d.flag & F_MULTI) {
            t.d.pre += t.d.multi;
        }
        cm_buf_t b;
        cm_buf_init(&b, 0);
        ty_num_to_text(ty_num_round(c->arena, v, t.d.post), c->arena, &b);
        char *s = cm_arena_strndup(c->arena, (const char *)b.data, b.len);
        cm_buf_free(&b);
        ns.sign = '+';
        if (*s == '-') {
            ns.sign = '-';
            s++;
        }
        ns.s = s;
        ty__num_fit(c->arena, &t.d, &ns);
    }
    return ty__num_finish(c, &t, &ns, o);
}

static const ty_func_t ty__to_char_num[] = {
    {"to_char", 2, {TY_INT4, TY_TEXT}, TY_TEXT, TY_FN_STRICT, ty__to_char_int4, 1773},
    {"to_char", 2, {TY_INT8, TY_TEXT}, TY_TEXT, TY_FN_STRICT, ty__to_char_int8, 1774},
    {"to_char", 2, {TY_FLOAT4, TY_TEXT}, TY_TEXT, TY_FN_STRICT, ty__to_char_float4, 1775},
    {"to_char", 2, {TY_FLOAT8, TY_TEXT}, TY_TEXT, TY_FN_STRICT, ty__to_char_float8, 1776},
    {"to_char", 2, {TY_NUMERIC, TY_TEXT}, TY_TEXT, TY_FN_STRICT, ty__to_char_numeric, 1772},
};

const ty_func_table_t ty_funcs_to_char_number = {ty__to_char_num, CM_ARRAY_LEN(ty__to_char_num)};
