/*
 * ty_bignum.c: unsigned arbitrary-size integers for the numeric type.
 *
 * A numeric is a sign, a decimal scale and an integer magnitude; every
 * numeric operation reduces to integer arithmetic on magnitudes, which is
 * done here. Limbs are base 10^9 so decimal scaling and printing stay cheap.
 * Results are allocated in the caller's arena and never alias inputs.
 */
#include "types/ty_internal.h"

#include <string.h>

static const uint32_t ty__pow10_u32[10] = {1,      10,      100,      1000,      10000,
                                           100000, 1000000, 10000000, 100000000, 1000000000};

static ty_bn_t ty__bn_alloc(cm_arena_t *a, int n)
{
    ty_bn_t r;
    r.d = cm_arena_alloc(a, sizeof(uint32_t) * (size_t)(n > 0 ? n : 1));
    r.n = n;
    return r;
}

static void ty__bn_trim(ty_bn_t *r)
{
    while (r->n > 0 && r->d[r->n - 1] == 0)
        r->n--;
}

/* A multiplication or division of numbers with tens of thousands of digits
 * is tens to hundreds of milliseconds of work, more than cancel and
 * statement_timeout may wait: those given a ctx look at it every this many
 * limb products (a few milliseconds at most). */
#define TY_BN_CHECK_WORK (1u << 18)

/* Counts n limb products; false once ctx (may be NULL) was interrupted. */
static bool ty__bn_work(ty_ctx_t *ctx, uint64_t *work, int n)
{
    if (ctx == NULL)
        return true;
    *work += (uint64_t)n;
    if (*work < TY_BN_CHECK_WORK)
        return true;
    *work = 0;
    return ty_ctx_check_interrupt(ctx);
}

ty_bn_t ty_bn_from_u64(cm_arena_t *a, uint64_t v)
{
    ty_bn_t r = ty__bn_alloc(a, 3);
    r.n = 0;
    while (v > 0) {
        r.d[r.n++] = (uint32_t)(v % TY_BN_BASE);
        v /= TY_BN_BASE;
    }
    return r;
}

bool ty_bn_to_u64(ty_bn_t a, uint64_t *out)
{
    uint64_t v = 0;
    for (int i = a.n - 1; i >= 0; i--) {
        if (v > (UINT64_MAX - a.d[i]) / TY_BN_BASE)
            return false;
        v = v * TY_BN_BASE + a.d[i];
    }
    *out = v;
    return true;
}

int ty_bn_cmp(ty_bn_t a, ty_bn_t b)
{
    if (a.n != b.n)
        return a.n < b.n ? -1 : 1;
    for (int i = a.n - 1; i >= 0; i--)
        if (a.d[i] != b.d[i])
            return a.d[i] < b.d[i] ? -1 : 1;
    return 0;
}

ty_bn_t ty_bn_add(cm_arena_t *ar, ty_bn_t a, ty_bn_t b)
{
    int n = (a.n > b.n ? a.n : b.n) + 1;
    ty_bn_t r = ty__bn_alloc(ar, n);
    uint32_t carry = 0;
    for (int i = 0; i < n; i++) {
        uint32_t s = carry + (i < a.n ? a.d[i] : 0) + (i < b.n ? b.d[i] : 0);
        carry = s >= TY_BN_BASE;
        r.d[i] = carry ? s - TY_BN_BASE : s;
    }
    ty__bn_trim(&r);
    return r;
}

ty_bn_t ty_bn_sub(cm_arena_t *ar, ty_bn_t a, ty_bn_t b)
{
    CM_ASSERT(ty_bn_cmp(a, b) >= 0);
    ty_bn_t r = ty__bn_alloc(ar, a.n);
    int64_t borrow = 0;
    for (int i = 0; i < a.n; i++) {
        int64_t s = (int64_t)a.d[i] - borrow - (i < b.n ? b.d[i] : 0);
        borrow = s < 0;
        r.d[i] = (uint32_t)(borrow ? s + TY_BN_BASE : s);
    }
    ty__bn_trim(&r);
    return r;
}

ty_bn_t ty_bn_mul(cm_arena_t *ar, ty_bn_t a, ty_bn_t b)
{
    return ty_bn_mul_ck(ar, a, b, NULL);
}

ty_bn_t ty_bn_mul_ck(cm_arena_t *ar, ty_bn_t a, ty_bn_t b, ty_ctx_t *ctx)
{
    if (a.n == 0 || b.n == 0)
        return ty__bn_alloc(ar, 0);
    int n = a.n + b.n;
    ty_bn_t r = ty__bn_alloc(ar, n);
    memset(r.d, 0, sizeof(uint32_t) * (size_t)n);
    uint64_t work = 0;
    for (int i = 0; i < a.n; i++) {
        if (!ty__bn_work(ctx, &work, b.n))
            break;   /* interrupted: the partial product is not the answer */
        uint64_t carry = 0;
        for (int j = 0; j < b.n; j++) {
            uint64_t t = (uint64_t)a.d[i] * b.d[j] + r.d[i + j] + carry;
            r.d[i + j] = (uint32_t)(t % TY_BN_BASE);
            carry = t / TY_BN_BASE;
        }
        for (int k = i + b.n; carry > 0; k++) {
            uint64_t t = r.d[k] + carry;
            r.d[k] = (uint32_t)(t % TY_BN_BASE);
            carry = t / TY_BN_BASE;
        }
    }
    ty__bn_trim(&r);
    return r;
}

ty_bn_t ty_bn_mul_small(cm_arena_t *ar, ty_bn_t a, uint32_t m, uint32_t add)
{
    ty_bn_t r = ty__bn_alloc(ar, a.n + 2);
    uint64_t carry = add;
    int i;
    for (i = 0; i < a.n; i++) {
        uint64_t t = (uint64_t)a.d[i] * m + carry;
        r.d[i] = (uint32_t)(t % TY_BN_BASE);
        carry = t / TY_BN_BASE;
    }
    while (carry > 0) {
        r.d[i++] = (uint32_t)(carry % TY_BN_BASE);
        carry /= TY_BN_BASE;
    }
    r.n = i;
    ty__bn_trim(&r);
    return r;
}

uint32_t ty_bn_divmod_small(cm_arena_t *ar, ty_bn_t a, uint32_t m, ty_bn_t *q)
{
    ty_bn_t r = ty__bn_alloc(ar, a.n);
    uint64_t rem = 0;
    for (int i = a.n - 1; i >= 0; i--) {
        uint64_t cur = rem * TY_BN_BASE + a.d[i];
        r.d[i] = (uint32_t)(cur / m);
        rem = cur % m;
    }
    ty__bn_trim(&r);
    if (q != NULL)
        *q = r;
    return (uint32_t)rem;
}

ty_bn_t ty_bn_mul_pow10(cm_arena_t *ar, ty_bn_t a, int k)
{
    CM_ASSERT(k >= 0);
    if (a.n == 0 || k == 0)
        return a;
    int limbs = k / 9;
    ty_bn_t r = ty__bn_alloc(ar, a.n + limbs);
    memset(r.d, 0, sizeof(uint32_t) * (size_t)limbs);
    memcpy(r.d + limbs, a.d, sizeof(uint32_t) * (size_t)a.n);
    if (k % 9)
        r = ty_bn_mul_small(ar, r, ty__pow10_u32[k % 9], 0);
    return r;
}

/*
 * a / 10^k. mode 0 truncates, 1 rounds half up (on the magnitude, so half
 * away from zero for the signed value). *inexact tells whether a nonzero
 * remainder was dropped, which ceil and floor need.
 */
ty_bn_t ty_bn_div_pow10(cm_arena_t *ar, ty_bn_t a, int k, int mode, bool *inexact)
{
    CM_ASSERT(k >= 0);
    bool lost = false;
    if (k == 0) {
        if (inexact)
            *inexact = false;
        return a;
    }
    /* Drop whole limbs below the last digit that decides rounding. */
    int drop = (k - 1) / 9;
    if (drop >= a.n) {
        for (int i = 0; i < a.n; i++)
            lost |= a.d[i] != 0;
        if (inexact)
            *inexact = lost;
        return ty__bn_alloc(ar, 0);
    }
    for (int i = 0; i < drop; i++)
        lost |= a.d[i] != 0;
    ty_bn_t t = {a.d + drop, a.n - drop};
    int rest = k - drop * 9; /* 1..9 */
    ty_bn_t q;
    uint32_t rem = ty_bn_divmod_small(ar, t, ty__pow10_u32[rest], &q);
    lost |= rem != 0;
    if (mode == 1 && rem >= 5 * ty__pow10_u32[rest - 1])
        q = ty_bn_mul_small(ar, q, 1, 1);
    if (inexact)
        *inexact = lost;
    return q;
}

void ty_bn_divmod(cm_arena_t *ar, ty_bn_t a, ty_bn_t b, ty_bn_t *q, ty_bn_t *r)
{
    ty_bn_divmod_ck(ar, a, b, q, r, NULL);
}

/* Knuth's algorithm D on base 10^9 limbs. */
void ty_bn_divmod_ck(cm_arena_t *ar, ty_bn_t a, ty_bn_t b, ty_bn_t *q, ty_bn_t *r, ty_ctx_t *ctx)
{
    CM_ASSERT(b.n > 0);
    if (ty_bn_cmp(a, b) < 0) {
        if (q)
            *q = ty__bn_alloc(ar, 0);
        if (r)
            *r = a;
        return;
    }
    if (b.n == 1) {
        ty_bn_t qq;
        uint32_t rem = ty_bn_divmod_small(ar, a, b.d[0], &qq);
        if (q)
            *q = qq;
        if (r)
            *r = ty_bn_from_u64(ar, rem);
        return;
    }
    /* Normalize so the divisor's top limb is at least BASE/2. */
    uint32_t f = (uint32_t)(TY_BN_BASE / ((uint64_t)b.d[b.n - 1] + 1));
    ty_bn_t u = ty_bn_mul_small(ar, a, f, 0);
    ty_bn_t v = ty_bn_mul_small(ar, b, f, 0);
    int n = v.n, m = u.n - v.n;
    uint32_t *ud = cm_arena_alloc(ar, sizeof(uint32_t) * (size_t)(u.n + 1));
    memcpy(ud, u.d, sizeof(uint32_t) * (size_t)u.n);
    ud[u.n] = 0;
    ty_bn_t qq = ty__bn_alloc(ar, m + 1);
    uint64_t vtop = v.d[n - 1], vnext = v.d[n - 2];
    uint64_t work = 0;
    for (int j = m; j >= 0; j--) {
        if (!ty__bn_work(ctx, &work, n)) {
            /* Interrupted: zero for both (ctx->err says why). */
            if (q)
                *q = ty__bn_alloc(ar, 0);
            if (r)
                *r = ty__bn_alloc(ar, 0);
            return;
        }
        uint64_t num = (uint64_t)ud[j + n] * TY_BN_BASE + ud[j + n - 1];
        uint64_t qhat = num / vtop, rhat = num % vtop;
        while (qhat >= TY_BN_BASE || qhat * vnext > rhat * TY_BN_BASE + ud[j + n - 2]) {
            qhat--;
            rhat += vtop;
            if (rhat >= TY_BN_BASE)
                break;
        }
        /* Multiply and subtract. */
        int64_t borrow = 0;
        uint64_t carry = 0;
        for (int i = 0; i < n; i++) {
            uint64_t p = qhat * v.d[i] + carry;
            carry = p / TY_BN_BASE;
            int64_t s = (int64_t)ud[i + j] - (int64_t)(p % TY_BN_BASE) - borrow;
            borrow = s < 0;
            ud[i + j] = (uint32_t)(borrow ? s + TY_BN_BASE : s);
        }
        int64_t s = (int64_t)ud[j + n] - (int64_t)carry - borrow;
        borrow = s < 0;
        ud[j + n] = (uint32_t)(borrow ? s + TY_BN_BASE : s);
        if (borrow) {
            /* qhat was one too large: add the divisor back. */
            qhat--;
            uint32_t c = 0;
            for (int i = 0; i < n; i++) {
                uint32_t t = ud[i + j] + v.d[i] + c;
                c = t >= TY_BN_BASE;
                ud[i + j] = c ? t - TY_BN_BASE : t;
            }
            ud[j + n] = (uint32_t)(((uint64_t)ud[j + n] + c) % TY_BN_BASE);
        }
        qq.d[j] = (uint32_t)qhat;
    }
    ty__bn_trim(&qq);
    if (q)
        *q = qq;
    if (r) {
        ty_bn_t rr = {ud, n};
        ty__bn_trim(&rr);
        ty_bn_divmod_small(ar, rr, f, r);
    }
}

int ty_bn_dec_digits(ty_bn_t a)
{
    if (a.n == 0)
        return 0;
    int d = (a.n - 1) * 9;
    uint32_t top = a.d[a.n - 1];
    while (top > 0) {
        d++;
        top /= 10;
    }
    return d;
}

/* Writes the decimal digits (no sign, "0" for zero) and a NUL; returns the count. */
char *ty_bn_to_dec(cm_arena_t *ar, ty_bn_t a, int *len)
{
    int nd = a.n == 0 ? 1 : ty_bn_dec_digits(a);
    char *s = cm_arena_alloc(ar, (size_t)nd + 1);
    if (a.n == 0) {
        s[0] = '0';
    } else {
        int pos = nd;
        for (int i = 0; i < a.n; i++) {
            uint32_t limb = a.d[i];
            for (int k = 0; k < 9 && pos > 0; k++) {
                s[--pos] = (char)('0' + limb % 10);
                limb /= 10;
                if (i == a.n - 1 && limb == 0)
                    break;
            }
        }
    }
    s[nd] = 0;
    if (len)
        *len = nd;
    return s;
}

ty_bn_t ty_bn_from_dec(cm_arena_t *ar, const char *s, int len)
{
    ty_bn_t r = ty__bn_alloc(ar, len / 9 + 1);
    r.n = 0;
    int end = len;
    while (end > 0) {
        int start = end - 9 > 0 ? end - 9 : 0;
        uint32_t limb = 0;
        for (int i = start; i < end; i++)
            limb = limb * 10 + (uint32_t)(s[i] - '0');
        r.d[r.n++] = limb;
        end = start;
    }
    ty__bn_trim(&r);
    return r;
}

/* floor(sqrt(a)) by Newton's iteration from an over-estimate. */
ty_bn_t ty_bn_isqrt(cm_arena_t *ar, ty_bn_t a, ty_ctx_t *ctx)
{
    if (a.n == 0)
        return a;
    int nd = ty_bn_dec_digits(a);
    ty_bn_t x = ty_bn_mul_pow10(ar, ty_bn_from_u64(ar, 1), (nd + 1) / 2 + 1);
    for (;;) {
        /* A step of a root of tens of thousands of digits is one long division (tens of ms). */
        if (ctx != NULL && !ty_ctx_check_interrupt(ctx))
            return x;
        ty_bn_t q;
        ty_bn_divmod_ck(ar, a, x, &q, NULL, ctx);
        if (ctx != NULL && ctx->err != NULL && ctx->err->set)
            return x;
        ty_bn_t y;
        ty_bn_divmod_small(ar, ty_bn_add(ar, x, q), 2, &y);
        if (ty_bn_cmp(y, x) >= 0)
            return x;
        x = y;
    }
}
