/*
 * ty_to_char_numfmt.c: PostgreSQL 15's number templates for to_char: the
 * parser (9 0 . , D G S PR MI PL SG FM EEEE V RN TH B L and copied text)
 * and the renderer that lays a printed value into the parsed template.
 *
 * It keeps PostgreSQL's structure on purpose: its many corner cases (where
 * a sign goes, when fill mode drops zeros, which separators turn into
 * blanks) fall out of that walk over the template, and nothing simpler
 * reproduces them. The server runs in the C locale: D is ".", G is ",",
 * L is a blank, and S prints "+" or "-".
 */
#include "types/ty_to_char.h"

#include <string.h>

typedef struct ty__num_kw {
    const char *name;
    ty_num_id_t id;
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

enum { LSIGN_NONE = 0, LSIGN_PRE = -1, LSIGN_POST = 1 };

static bool ty__syntax(ty_ctx_t *ctx, const char *msg)
{
    return cm_err_set(ctx->err, CM_ERRCODE_SYNTAX_ERROR, "%s", msg);
}

/* Folds one pattern into the description, rejecting the combinations PostgreSQL rejects. */
static bool ty__num_describe(ty_ctx_t *ctx, ty_numfmt_desc_t *d, ty_num_id_t id)
{
    if ((d->flag & TY_NF_EEEE) && id != NUM_E)
        return ty__syntax(ctx, "\"EEEE\" must be the last pattern used");
    switch (id) {
    case NUM_9:
        if (d->flag & TY_NF_BRACKET)
            return ty__syntax(ctx, "\"9\" must be ahead of \"PR\"");
        if (d->flag & TY_NF_MULTI)
            d->multi++;
        else if (d->flag & TY_NF_DECIMAL)
            d->post++;
        else
            d->pre++;
        break;
    case NUM_0:
        if (d->flag & TY_NF_BRACKET)
            return ty__syntax(ctx, "\"0\" must be ahead of \"PR\"");
        if (!(d->flag & TY_NF_ZERO) && !(d->flag & TY_NF_DECIMAL)) {
            d->flag |= TY_NF_ZERO;
            d->zero_start = d->pre + 1;
        }
        if (!(d->flag & TY_NF_DECIMAL))
            d->pre++;
        else
            d->post++;
        d->zero_end = d->pre + d->post;
        break;
    case NUM_B:
        if (d->pre == 0 && d->post == 0 && !(d->flag & TY_NF_ZERO))
            d->flag |= TY_NF_BLANK;
        break;
    case NUM_D:
    case NUM_DEC:
        if (d->flag & TY_NF_DECIMAL)
            return ty__syntax(ctx, "multiple decimal points");
        if (d->flag & TY_NF_MULTI)
            return ty__syntax(ctx, "cannot use \"V\" and decimal point together");
        d->flag |= TY_NF_DECIMAL | (id == NUM_D ? TY_NF_LDECIMAL : 0);
        break;
    case NUM_FM:
        d->flag |= TY_NF_FILLMODE;
        break;
    case NUM_S:
        if (d->flag & TY_NF_LSIGN)
            return ty__syntax(ctx, "cannot use \"S\" twice");
        if (d->flag & (TY_NF_PLUS | TY_NF_MINUS | TY_NF_BRACKET))
            return ty__syntax(ctx, "cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together");
        if (!(d->flag & TY_NF_DECIMAL)) {
            d->lsign = LSIGN_PRE;
            d->pre_lsign_num = d->pre;
            d->flag |= TY_NF_LSIGN;
        } else if (d->lsign == LSIGN_NONE) {
            d->lsign = LSIGN_POST;
            d->flag |= TY_NF_LSIGN;
        }
        break;
    case NUM_MI:
        if (d->flag & TY_NF_LSIGN)
            return ty__syntax(ctx, "cannot use \"S\" and \"MI\" together");
        d->flag |= TY_NF_MINUS;
        break;
    case NUM_PL:
        if (d->flag & TY_NF_LSIGN)
            return ty__syntax(ctx, "cannot use \"S\" and \"PL\" together");
        d->flag |= TY_NF_PLUS;
        break;
    case NUM_SG:
        if (d->flag & TY_NF_LSIGN)
            return ty__syntax(ctx, "cannot use \"S\" and \"SG\" together");
        d->flag |= TY_NF_MINUS | TY_NF_PLUS;
        break;
    case NUM_PR:
        if (d->flag & (TY_NF_LSIGN | TY_NF_PLUS | TY_NF_MINUS))
            return ty__syntax(ctx, "cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together");
        d->flag |= TY_NF_BRACKET;
        break;
    case NUM_RN:
    case NUM_rn:
        d->flag |= TY_NF_ROMAN;
        break;
    case NUM_V:
        if (d->flag & TY_NF_DECIMAL)
            return ty__syntax(ctx, "cannot use \"V\" and decimal point together");
        d->flag |= TY_NF_MULTI;
        break;
    case NUM_E:
        if (d->flag & TY_NF_EEEE)
            return ty__syntax(ctx, "cannot use \"EEEE\" twice");
        if (d->flag & (TY_NF_BLANK | TY_NF_FILLMODE | TY_NF_LSIGN | TY_NF_BRACKET | TY_NF_MINUS | TY_NF_PLUS | TY_NF_ROMAN | TY_NF_MULTI)) {
            ty__syntax(ctx, "\"EEEE\" is incompatible with other formats");
            cm_err_set_detail(ctx->err, "\"EEEE\" may only be used together with digit and decimal point patterns.");
            return false;
        }
        d->flag |= TY_NF_EEEE;
        break;
    default:
        break;
    }
    return true;
}

bool ty_numfmt_parse(ty_ctx_t *ctx, const char *p, size_t len, ty_numfmt_t *t)
{
    memset(t, 0, sizeof(*t));
    t->nodes = cm_arena_alloc(ctx->arena, (len + 1) * sizeof(struct ty_numfmt_node));
    size_t i = 0;
    while (i < len) {
        const ty__num_kw_t *kw = NULL;
        for (size_t k = 0; k < CM_ARRAY_LEN(ty__num_kws) && kw == NULL; k++) {
            size_t n = strlen(ty__num_kws[k].name);
            if (n <= len - i && memcmp(p + i, ty__num_kws[k].name, n) == 0)
                kw = &ty__num_kws[k];
        }
        if (kw) {
            t->nodes[t->n++] = (struct ty_numfmt_node){true, kw->id, NULL, 0};
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
                t->nodes[t->n++] = (struct ty_numfmt_node){false, 0, p + i, 1};
            }
            continue;
        }
        /* Outside quotes a backslash only escapes a double quote. */
        if (p[i] == '\\' && i + 1 < len && p[i + 1] == '"')
            i++;
        t->nodes[t->n++] = (struct ty_numfmt_node){false, 0, p + i, 1};
        i++;
    }
    return true;
}

/* ===== laying the digits into the template (PostgreSQL's NUM_processor) ===== */

typedef struct ty__num_proc {
    ty_numfmt_desc_t *d;
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
    return !(np->d->flag & TY_NF_ZERO) && np->number_p == 0 && np->number[0] == '0' && np->d->post != 0;
}

static void ty__num_part(ty__num_proc_t *np, ty_num_id_t id)
{
    ty_numfmt_desc_t *d = np->d;
    bool fm = (d->flag & TY_NF_FILLMODE) != 0;
    bool lr_is_dot = np->last_relevant >= 0 && np->number[np->last_relevant] == '.';
    if (d->flag & TY_NF_ROMAN)
        return;
    /* A separator prints only right after a written digit ("9.,9" prints "1. 2"). */
    np->num_in = false;
    /* The sign goes right before the first digit that is actually written. */
    if (!np->sign_wrote &&
        (np->num_curr >= np->out_pre_spaces || ((d->flag & TY_NF_ZERO) && d->zero_start == np->num_curr)) &&
        (!ty__predec_space(np) || lr_is_dot)) {
        if (d->flag & TY_NF_LSIGN) {
            if (d->lsign == LSIGN_PRE) {
                cm_buf_put_u8(np->out, np->sign == '-' ? '-' : '+');
                np->sign_wrote = true;
            }
        } else if (d->flag & TY_NF_BRACKET) {
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
    if (np->num_curr < np->out_pre_spaces && (d->zero_start > np->num_curr || !(d->flag & TY_NF_ZERO))) {
        if (!fm)
            cm_buf_put_u8(np->out, ' ');
    } else if ((d->flag & TY_NF_ZERO) && np->num_curr < np->out_pre_spaces && d->zero_start <= np->num_curr) {
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
    int end = np->num_count + (np->out_pre_spaces ? 1 : 0) + ((d->flag & TY_NF_DECIMAL) ? 1 : 0);
    if (np->last_relevant >= 0 && (size_t)np->last_relevant == np->number_p)
        end = np->num_curr;
    if (np->num_curr + 1 == end) {
        if (np->sign_wrote && (d->flag & TY_NF_BRACKET))
            cm_buf_put_u8(np->out, np->sign == '+' ? ' ' : '>');
        else if ((d->flag & TY_NF_LSIGN) && d->lsign == LSIGN_POST)
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

bool ty_numfmt_render(ty_ctx_t *ctx, ty_numfmt_t *t, const char *number, int out_pre_spaces, int sign, cm_buf_t *out)
{
    ty_numfmt_desc_t *d = &t->d;
    if (d->zero_start)
        d->zero_start--;
    if (d->flag & TY_NF_EEEE) {
        /* Scientific notation ignores everything else in the template. */
        cm_buf_put_str(out, number);
        return true;
    }
    if (d->flag & TY_NF_ROMAN) {
        d->lsign = d->pre_lsign_num = d->post = d->pre = 0;
        out_pre_spaces = 0;
        sign = 0;
        d->flag = TY_NF_ROMAN | (d->flag & TY_NF_FILLMODE);
    }
    ty__num_proc_t np = {.d = d, .number = number, .last_relevant = -1, .sign = sign, .out = out};
    if (d->flag & (TY_NF_PLUS | TY_NF_MINUS)) {
        /* PL alone still needs the minus written with the digits; MI or SG print it themselves. */
        np.sign_wrote = !((d->flag & TY_NF_PLUS) && !(d->flag & TY_NF_MINUS));
    } else {
        if (sign != '-' && (d->flag & TY_NF_FILLMODE))
            d->flag &= ~TY_NF_BRACKET;
        np.sign_wrote = sign == '+' && (d->flag & TY_NF_FILLMODE) && !(d->flag & TY_NF_LSIGN);
        if (d->lsign == LSIGN_PRE && d->pre == d->pre_lsign_num)
            d->lsign = LSIGN_POST;
    }
    np.num_count = d->post + d->pre - 1;
    np.out_pre_spaces = out_pre_spaces;
    if ((d->flag & TY_NF_FILLMODE) && (d->flag & TY_NF_DECIMAL)) {
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
    bool fm = (d->flag & TY_NF_FILLMODE) != 0;
    size_t cut = (size_t)-1;
    for (int k = 0; k < t->n; k++) {
        const struct ty_numfmt_node *n = &t->nodes[k];
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
            if ((d->flag & TY_NF_ROMAN) || number[0] == '#' || np.sign == '-' || (d->flag & TY_NF_DECIMAL))
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
