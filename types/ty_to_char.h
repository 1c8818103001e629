/*
 * ty_to_char.h: what the to_char files of the types module share with
 * each other and with their inverses (to_date, to_timestamp, to_number):
 * the parsed form of a number template (PostgreSQL's NUMDesc and its
 * nodes), its parser and renderer (ty_to_char_numfmt.c), the date/time
 * template patterns and the TH/th ordinal suffix (ty_to_char_datetime.c).
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

/* Number template patterns (PostgreSQL's NUM keywords). */
typedef enum ty_num_id {
    NUM_COMMA, NUM_DEC, NUM_0, NUM_9, NUM_B, NUM_C, NUM_D, NUM_E, NUM_FM, NUM_G, NUM_L, NUM_MI, NUM_PL,
    NUM_PR, NUM_RN, NUM_SG, NUM_SP, NUM_S, NUM_TH, NUM_V, NUM_rn, NUM_th,
} ty_num_id_t;

/* One element of a parsed number template: a pattern or one copied byte. */
struct ty_numfmt_node {
    bool action;
    ty_num_id_t id;
    const char *p;     /* literal bytes */
    size_t len;
};

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

/* Date/time template patterns (PostgreSQL's DCH keywords), shared by to_char
 * (ty_to_char_datetime.c) and to_date/to_timestamp (ty_to_timestamp.c). */
typedef enum ty_dch {
    DCH_A_D, DCH_A_M, DCH_AD, DCH_AM, DCH_B_C, DCH_BC, DCH_CC, DCH_DAY, DCH_DDD, DCH_DD, DCH_DY,
    DCH_Day, DCH_Dy, DCH_D, DCH_FF1, DCH_FF2, DCH_FF3, DCH_FF4, DCH_FF5, DCH_FF6, DCH_FX, DCH_HH24,
    DCH_HH12, DCH_HH, DCH_IDDD, DCH_ID, DCH_IW, DCH_IYYY, DCH_IYY, DCH_IY, DCH_I, DCH_J, DCH_MI, DCH_MM,
    DCH_MONTH, DCH_MON, DCH_MS, DCH_Month, DCH_Mon, DCH_OF, DCH_P_M, DCH_PM, DCH_Q, DCH_RM, DCH_SSSS,
    DCH_SS, DCH_TZH, DCH_TZM, DCH_TZ, DCH_US, DCH_WW, DCH_W, DCH_Y_YYY, DCH_YYYY, DCH_YYY, DCH_YY,
    DCH_Y, DCH_a_d, DCH_a_m, DCH_ad, DCH_am, DCH_b_c, DCH_bc, DCH_day, DCH_dy, DCH_month, DCH_mon,
    DCH_p_m, DCH_pm, DCH_rm, DCH_tz,
} ty_dch_t;

typedef struct ty_dch_kw {
    const char *name;
    ty_dch_t id;
} ty_dch_kw_t;

/* The pattern that the template at p starts with (longest spelling first,
 * case-sensitive, as PostgreSQL matches them), NULL if none. */
const ty_dch_kw_t *ty_dch_find(const char *p, size_t left);

/* "ST", "nd", ... for a printed number, from its last two digits. */
const char *ty_to_char_ordinal(const char *num, bool upper);

#endif
