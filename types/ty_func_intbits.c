/*
 * ty_func_intbits.c: the bitwise operators & | # ~ << >> on int2, int4 and
 * int8, and the @ (absolute value) prefix operator on int2 and float4.
 *
 * PostgreSQL shifts with C's << and >> on the machine's int width: int2 is
 * promoted to a 32-bit int, shifted, and truncated back, and on x86 the
 * shift count is taken modulo the width (1 << 33 is 2). The shifts below
 * reproduce those results instead of C's undefined behaviour.
 */
#include "types/ty_internal.h"

#include <math.h>

#define OP (TY_FN_STRICT | TY_FN_OPERATOR)

static bool ty__and(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = a[0].v.i & a[1].v.i;
    return true;
}

static bool ty__or(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = a[0].v.i | a[1].v.i;
    return true;
}

static bool ty__xor(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = a[0].v.i ^ a[1].v.i;
    return true;
}

/* Values are sign-extended in the datum, so ~ stays inside the type's range. */
static bool ty__not(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = ~a[0].v.i;
    return true;
}

static bool ty__int2_shl(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    uint32_t r = (uint32_t)(int32_t)a[0].v.i << (a[1].v.i & 31);
    o->v.i = (int16_t)(uint16_t)r;
    return true;
}

static bool ty__int2_shr(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = (int16_t)((int32_t)a[0].v.i >> (a[1].v.i & 31));
    return true;
}

static bool ty__int4_shl(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = (int32_t)((uint32_t)(int32_t)a[0].v.i << (a[1].v.i & 31));
    return true;
}

static bool ty__int4_shr(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = (int32_t)a[0].v.i >> (a[1].v.i & 31);
    return true;
}

static bool ty__int8_shl(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = (int64_t)((uint64_t)a[0].v.i << (a[1].v.i & 63));
    return true;
}

static bool ty__int8_shr(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = a[0].v.i >> (a[1].v.i & 63);
    return true;
}

static bool ty__int2_abs(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].v.i == INT16_MIN)
        return cm_err_set(c->err, CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s", ty_int_range_msg(TY_INT2));
    o->v.i = a[0].v.i < 0 ? -a[0].v.i : a[0].v.i;
    return true;
}

static bool ty__float4_abs(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.f = fabs(a[0].v.f);
    return true;
}

#define BIN(SYM, T, F, ID) {SYM, 2, {T, T}, T, OP, F, ID}
#define SHIFT(SYM, T, F, ID) {SYM, 2, {T, TY_INT4}, T, OP, F, ID}

static const ty_func_t ty__intbits[] = {
    BIN("&", TY_INT2, ty__and, 1892), BIN("|", TY_INT2, ty__or, 1893), BIN("#", TY_INT2, ty__xor, 1894),
    {"~", 1, {TY_INT2}, TY_INT2, OP, ty__not, 1895},
    SHIFT("<<", TY_INT2, ty__int2_shl, 1896), SHIFT(">>", TY_INT2, ty__int2_shr, 1897),
    BIN("&", TY_INT4, ty__and, 1898), BIN("|", TY_INT4, ty__or, 1899), BIN("#", TY_INT4, ty__xor, 1900),
    {"~", 1, {TY_INT4}, TY_INT4, OP, ty__not, 1901},
    SHIFT("<<", TY_INT4, ty__int4_shl, 1902), SHIFT(">>", TY_INT4, ty__int4_shr, 1903),
    BIN("&", TY_INT8, ty__and, 1904), BIN("|", TY_INT8, ty__or, 1905), BIN("#", TY_INT8, ty__xor, 1906),
    {"~", 1, {TY_INT8}, TY_INT8, OP, ty__not, 1907},
    SHIFT("<<", TY_INT8, ty__int8_shl, 1908), SHIFT(">>", TY_INT8, ty__int8_shr, 1909),
    {"@", 1, {TY_INT2}, TY_INT2, OP, ty__int2_abs, 1253},
    {"@", 1, {TY_FLOAT4}, TY_FLOAT4, OP, ty__float4_abs, 1394},
};

const ty_func_table_t ty_funcs_intbits = {ty__intbits, CM_ARRAY_LEN(ty__intbits)};
