/*
 * ty_to_char.h: what the to_char files of the types module share: the
 * parsed form of a number template (PostgreSQL's NUMDesc and its nodes),
 * its parser and renderer (ty_to_char_numfmt.c), and the TH/th ordinal
 * suffix (ty_to_char_datetime.c).
 */
#ifndef EDDY_TY_TO_CHAR_H
#define EDDY_TY_TO_CHAR_H

#include "types/ty_internal.h"

/* What a number template asks for. */
enum {
    TY_NF_DECIMAL = 1 << 1, TY_NF_LDECIMAL = 1 << 2, TY_NF_ZERO = 1 << 3, TY_NF_BLANK = 1 << 4,
    TY_NF_FILLMODE = 1 << 5, TY_NF_LSIGN = 1 << 6, TY_NF_BRACKET = 1 << 7, TY_NF_MINUS = 1 << 8,
    TY_NF_PLUS = 1 << 9, TY_NF_ROMAN = 1 << 10, TY_NF_MULTI = 1 << 11, TY_NF_EEEE = 1 << 14,
};

typedef struct ty_numfmt_desc {
    int pre, post;           /* digit positions before and after the decimal point */
    int lsign;               /* where S goes: 0 none, -1 before the digits, 1 after */
    int flag;                /* TY_NF_* */
    int pre_lsign_num;       /* digits before S */
    int multi;               /* digits after V: the value is scaled by 10^multi */
    int zero_start, zero_end;
} ty_numfmt_desc_t;

typedef struct ty_numfmt {
    struct ty_numfmt_node *nodes;
    int n;
    ty_numfmt_desc_t d;
} ty_numfmt_t;

/* Parses a template into the arena; 42601 for the combinations PostgreSQL rejects. */
bool ty_numfmt_parse(ty_ctx_t *ctx, const char *p, size_t len, ty_numfmt_t *t);
/*
 * Lays a printed value into the template: number holds the digits (and
 * maybe '.') without sign, already rounded to the template's scale or
 * '#'-filled; out_pre_spaces is how many integer positions it leaves
 * empty; sign is '+', '-' or 0 for roman numerals. Appends to out.
 */
bool ty_numfmt_render(ty_ctx_t *ctx, ty_numfmt_t *t, const char *number, int out_pre_spaces, int sign, cm_buf_t *out);

/* "ST", "nd", ... for a printed number, from its last two digits. */
const char *ty_to_char_ordinal(const char *num, bool upper);

#endif
