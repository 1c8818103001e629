/*
 * ty_json.c: the JSON parser behind json and jsonb input, and the printer of
 * jsonb's canonical text.
 *
 * The lexer and the recursive descent follow PostgreSQL 15's json.c closely,
 * because the DETAIL lines of its syntax errors ("Token "x" is invalid.",
 * "Expected ":", but found "1".") name exactly the token where its own state
 * machine stopped; reproducing them needs the same token boundaries and the
 * same order of checks. The parser builds a tree in the statement's arena;
 * every node remembers its span in the input, which is what json's
 * text-preserving operators return.
 */
#include "types/ty_internal.h"

#include <string.h>

/* Deeper nesting fails like PostgreSQL's stack check instead of overflowing
 * a worker thread's stack. */
#define TY_JSON_DEPTH_MAX 4000

typedef enum {
    TK_END,
    TK_STRING,
    TK_NUMBER,
    TK_TRUE,
    TK_FALSE,
    TK_NULL,
    TK_LBRACE,
    TK_RBRACE,
    TK_LBRACKET,
    TK_RBRACKET,
    TK_COMMA,
    TK_COLON,
} ty_json_tok_t;

typedef struct ty_json_lex {
    ty_ctx_t *ctx;
    const char *in, *end;
    const char *pos;          /* where the next token starts */
    ty_json_tok_t tok;
    const char *tok_start, *tok_end;
    bool jsonb;               /* \u0000 is an error only for jsonb */
    bool has_nul;             /* the current string token held \u0000 */
    cm_buf_t str;             /* the current string token, unescaped */
    int depth;
} ty_json_lex_t;

static bool ty__jerr(ty_json_lex_t *lx, const char *fmt, const char *a, size_t alen)
{
    cm_err_set(lx->ctx->err, CM_ERRCODE_INVALID_TEXT_REPRESENTATION, "invalid input syntax for type json");
    if (fmt != NULL)
        cm_err_set_detail(lx->ctx->err, fmt, (int)alen, a);
    return false;
}

static bool ty__jerr_plain(ty_json_lex_t *lx, const char *detail)
{
    cm_err_set(lx->ctx->err, CM_ERRCODE_INVALID_TEXT_REPRESENTATION, "invalid input syntax for type json");
    cm_err_set_detail(lx->ctx->err, "%s", detail);
    return false;
}

/* PostgreSQL's JSON_ALPHANUMERIC_CHAR: what it swallows into a bad token. */
static bool ty__jalnum(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           (unsigned char)c >= 128;
}

static bool ty__jinvalid(ty_json_lex_t *lx)
{
    return ty__jerr(lx, "Token \"%.*s\" is invalid.", lx->tok_start, (size_t)(lx->tok_end - lx->tok_start));
}

static bool ty__lex_number(ty_json_lex_t *lx, const char *s)
{
    const char *e = lx->end;
    bool error = false;
    if (s < e && *s == '0') {
        s++;
    } else if (s < e && *s >= '1' && *s <= '9') {
        while (s < e && *s >= '0' && *s <= '9')
            s++;
    } else {
        error = true;
    }
    if (s < e && *s == '.') {
        s++;
        if (s == e || *s < '0' || *s > '9')
            error = true;
        while (s < e && *s >= '0' && *s <= '9')
            s++;
    }
    if (s < e && (*s == 'e' || *s == 'E')) {
        s++;
        if (s < e && (*s == '+' || *s == '-'))
            s++;
        if (s == e || *s < '0' || *s > '9')
            error = true;
        while (s < e && *s >= '0' && *s <= '9')
            s++;
    }
    for (; s < e && ty__jalnum(*s); s++)
        error = true;
    lx->tok = TK_NUMBER;
    lx->tok_end = lx->pos = s;
    return error ? ty__jinvalid(lx) : true;
}

static int ty__jhex(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool ty__lex_string(ty_json_lex_t *lx, const char *s)
{
    const char *e = lx->end;
    int32_t hi_surrogate = -1;
    lx->str.len = 0;
    lx->has_nul = false;
    for (s++;; s++) {
        if (s >= e) {
            lx->tok_end = s;
            return ty__jinvalid(lx);
        }
        if (*s == '"')
            break;
        if ((unsigned char)*s < 0x20) {
            cm_err_set(lx->ctx->err, CM_ERRCODE_INVALID_TEXT_REPRESENTATION, "invalid input syntax for type json");
            cm_err_set_detail(lx->ctx->err, "Character with value 0x%02x must be escaped.", (unsigned char)*s);
            return false;
        }
        if (*s != '\\') {
            if (hi_surrogate != -1)
                return ty__jerr_plain(lx, "Unicode low surrogate must follow a high surrogate.");
            cm_buf_put_u8(&lx->str, (uint8_t)*s);
            continue;
        }
        s++;
        if (s >= e) {
            lx->tok_end = s;
            return ty__jinvalid(lx);
        }
        if (*s == 'u') {
            int32_t ch = 0;
            for (int i = 1; i <= 4; i++) {
                int h = s + i < e ? ty__jhex(s[i]) : -1;
                if (h < 0)
                    return ty__jerr_plain(lx, "\"\\u\" must be followed by four hexadecimal digits.");
                ch = ch * 16 + h;
            }
            s += 4;
            if (ch >= 0xd800 && ch <= 0xdbff) {
                if (hi_surrogate != -1)
                    return ty__jerr_plain(lx, "Unicode high surrogate must not follow a high surrogate.");
                hi_surrogate = ch;
                continue;
            }
            if (ch >= 0xdc00 && ch <= 0xdfff) {
                if (hi_surrogate == -1)
                    return ty__jerr_plain(lx, "Unicode low surrogate must follow a high surrogate.");
                ch = 0x10000 + ((hi_surrogate & 0x3ff) << 10) + (ch & 0x3ff);
                hi_surrogate = -1;
            }
            if (hi_surrogate != -1)
                return ty__jerr_plain(lx, "Unicode low surrogate must follow a high surrogate.");
            if (ch == 0) {
                if (lx->jsonb) {
                    cm_err_set(lx->ctx->err, CM_ERRCODE_UNTRANSLATABLE_CHARACTER, "unsupported Unicode escape sequence");
                    cm_err_set_detail(lx->ctx->err, "\\u0000 cannot be converted to text.");
                    return false;
                }
                lx->has_nul = true;
                continue;
            }
            char u[4];
            cm_buf_put(&lx->str, u, ty_utf8_encode((uint32_t)ch, u));
            continue;
        }
        if (hi_surrogate != -1)
            return ty__jerr_plain(lx, "Unicode low surrogate must follow a high surrogate.");
        char c;
        switch (*s) {
        case '"': c = '"'; break;
        case '\\': c = '\\'; break;
        case '/': c = '/'; break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        default: {
            /* The message quotes the whole (possibly multibyte) character. */
            uint32_t cp;
            size_t n = ty_utf8_decode(s, (size_t)(e - s), &cp);
            return ty__jerr(lx, "Escape sequence \"\\%.*s\" is invalid.", s, n);
        }
        }
        cm_buf_put_u8(&lx->str, (uint8_t)c);
    }
    if (hi_surrogate != -1)
        return ty__jerr_plain(lx, "Unicode low surrogate must follow a high surrogate.");
    lx->tok = TK_STRING;
    lx->tok_end = lx->pos = s + 1;
    return true;
}

static bool ty__lex(ty_json_lex_t *lx)
{
    const char *s = lx->pos, *e = lx->end;
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
        s++;
    lx->tok_start = s;
    if (s >= e) {
        lx->tok = TK_END;
        lx->tok_end = lx->pos = s;
        return true;
    }
    ty_json_tok_t punct = TK_END;
    switch (*s) {
    case '{': punct = TK_LBRACE; break;
    case '}': punct = TK_RBRACE; break;
    case '[': punct = TK_LBRACKET; break;
    case ']': punct = TK_RBRACKET; break;
    case ',': punct = TK_COMMA; break;
    case ':': punct = TK_COLON; break;
    case '"': return ty__lex_string(lx, s);
    case '-': return ty__lex_number(lx, s + 1);
    default:
        if (*s >= '0' && *s <= '9')
            return ty__lex_number(lx, s);
        break;
    }
    if (punct != TK_END) {
        lx->tok = punct;
        lx->tok_end = lx->pos = s + 1;
        return true;
    }
    const char *p = s;
    while (p < e && ty__jalnum(*p))
        p++;
    lx->tok_end = lx->pos = p == s ? s + 1 : p;
    size_t n = (size_t)(p - s);
    if (n == 4 && memcmp(s, "true", 4) == 0)
        lx->tok = TK_TRUE;
    else if (n == 5 && memcmp(s, "false", 5) == 0)
        lx->tok = TK_FALSE;
    else if (n == 4 && memcmp(s, "null", 4) == 0)
        lx->tok = TK_NULL;
    else
        return ty__jinvalid(lx);
    return true;
}

/* A grammar error at the current token, as PostgreSQL's report_parse_error. */
static bool ty__jexpected(ty_json_lex_t *lx, const char *what)
{
    if (lx->tok == TK_END)
        return ty__jerr_plain(lx, "The input string ended unexpectedly.");
    const char *fmt = cm_arena_printf(lx->ctx->arena, "Expected %s, but found \"%%.*s\".", what);
    return ty__jerr(lx, fmt, lx->tok_start, (size_t)(lx->tok_end - lx->tok_start));
}

static ty_json_t *ty__jnode(ty_json_lex_t *lx, uint8_t kind)
{
    ty_json_t *n = cm_arena_zalloc(lx->ctx->arena, sizeof(*n));
    n->kind = kind;
    n->src = lx->tok_start;
    n->src_len = (uint32_t)(lx->tok_end - lx->tok_start);
    return n;
}

static ty_json_t *ty__jstring(ty_json_lex_t *lx)
{
    ty_json_t *n = ty__jnode(lx, TY_JV_STRING);
    n->str = cm_arena_strndup(lx->ctx->arena, lx->str.len ? (const char *)lx->str.data : "", lx->str.len);
    n->str_len = (uint32_t)lx->str.len;
    n->has_nul = lx->has_nul;
    return n;
}

/* Grows a node's item array (amortised doubling in the arena). */
static void ty__jpush(ty_json_lex_t *lx, ty_json_t *n, uint32_t *cap, ty_json_t *item)
{
    if (n->nitems == *cap) {
        uint32_t nc = *cap ? *cap * 2 : 8;
        ty_json_t **ni = cm_arena_alloc(lx->ctx->arena, sizeof(*ni) * nc);
        if (n->nitems)
            memcpy(ni, n->items, sizeof(*ni) * n->nitems);
        n->items = ni;
        *cap = nc;
    }
    n->items[n->nitems++] = item;
}

static bool ty__jvalue(ty_json_lex_t *lx, ty_json_t **out);

static bool ty__jobject(ty_json_lex_t *lx, ty_json_t **out)
{
    ty_json_t *n = ty__jnode(lx, TY_JV_OBJECT);
    uint32_t cap = 0;
    if (!ty__lex(lx))
        return false;
    if (lx->tok != TK_RBRACE) {
        if (lx->tok != TK_STRING)
            return ty__jexpected(lx, "string or \"}\"");
        for (;;) {
            if (lx->tok != TK_STRING)
                return ty__jexpected(lx, "string");
            ty_json_t *key = ty__jstring(lx), *val;
            if (!ty__lex(lx))
                return false;
            if (lx->tok != TK_COLON)
                return ty__jexpected(lx, "\":\"");
            if (!ty__lex(lx) || !ty__jvalue(lx, &val))
                return false;
            ty__jpush(lx, n, &cap, key);
            ty__jpush(lx, n, &cap, val);
            if (lx->tok == TK_RBRACE)
                break;
            if (lx->tok != TK_COMMA)
                return ty__jexpected(lx, "\",\" or \"}\"");
            if (!ty__lex(lx))
                return false;
        }
    }
    n->src_len = (uint32_t)(lx->tok_end - n->src);
    *out = n;
    return ty__lex(lx);
}

static bool ty__jarray(ty_json_lex_t *lx, ty_json_t **out)
{
    ty_json_t *n = ty__jnode(lx, TY_JV_ARRAY);
    uint32_t cap = 0;
    if (!ty__lex(lx))
        return false;
    if (lx->tok != TK_RBRACKET) {
        for (;;) {
            ty_json_t *v;
            if (!ty__jvalue(lx, &v))
                return false;
            ty__jpush(lx, n, &cap, v);
            if (lx->tok == TK_RBRACKET)
                break;
            if (lx->tok != TK_COMMA)
                return ty__jexpected(lx, "\",\" or \"]\"");
            if (!ty__lex(lx))
                return false;
        }
    }
    n->src_len = (uint32_t)(lx->tok_end - n->src);
    *out = n;
    return ty__lex(lx);
}

/* Parses the value at the current token and leaves the next one current. */
static bool ty__jvalue(ty_json_lex_t *lx, ty_json_t **out)
{
    ty_json_t *n;
    switch (lx->tok) {
    case TK_STRING: n = ty__jstring(lx); break;
    case TK_NUMBER:
        n = ty__jnode(lx, TY_JV_NUMBER);
        n->str = n->src;
        n->str_len = n->src_len;
        if (lx->jsonb && !ty_numeric_from_text(n->src, n->src_len, lx->ctx, &n->num))
            return false;
        break;
    case TK_TRUE:
    case TK_FALSE:
        n = ty__jnode(lx, TY_JV_BOOL);
        n->b = lx->tok == TK_TRUE;
        break;
    case TK_NULL: n = ty__jnode(lx, TY_JV_NULL); break;
    case TK_LBRACE:
    case TK_LBRACKET: {
        if (++lx->depth > TY_JSON_DEPTH_MAX)
            return cm_err_set(lx->ctx->err, CM_ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded");
        bool ok = lx->tok == TK_LBRACE ? ty__jobject(lx, out) : ty__jarray(lx, out);
        lx->depth--;
        return ok;
    }
    default: return ty__jexpected(lx, "JSON value");
    }
    *out = n;
    return ty__lex(lx);
}

/* jsonb keys: shorter first, then bytewise (PostgreSQL's lengthCompareJsonbString). */
static int ty__jkey_cmp(const ty_json_t *a, const ty_json_t *b)
{
    if (a->str_len != b->str_len)
        return a->str_len < b->str_len ? -1 : 1;
    return a->str_len ? memcmp(a->str, b->str, a->str_len) : 0;
}

/* Sorts an object's pairs as jsonb stores them; of duplicate keys the last
 * wins, so the sort must be stable (a bottom-up merge sort over pairs). */
static void ty__jsort_pairs(cm_arena_t *a, ty_json_t *o)
{
    uint32_t np = o->nitems / 2;
    if (np < 2)
        return;
    ty_json_t **src = o->items, **tmp = cm_arena_alloc(a, sizeof(*tmp) * o->nitems);
    for (uint32_t w = 1; w < np; w *= 2) {
        for (uint32_t lo = 0; lo < np; lo += 2 * w) {
            uint32_t mid = lo + w < np ? lo + w : np, hi = lo + 2 * w < np ? lo + 2 * w : np;
            uint32_t i = lo, j = mid, k = lo;
            while (i < mid || j < hi) {
                uint32_t t = (j >= hi || (i < mid && ty__jkey_cmp(src[2 * i], src[2 * j]) <= 0)) ? i++ : j++;
                tmp[2 * k] = src[2 * t];
                tmp[2 * k + 1] = src[2 * t + 1];
                k++;
            }
        }
        ty_json_t **sw = src;
        src = tmp;
        tmp = sw;
    }
    uint32_t n = 0;
    for (uint32_t i = 0; i < np; i++) {
        if (i + 1 < np && ty__jkey_cmp(src[2 * i], src[2 * i + 2]) == 0)
            continue;   /* a later duplicate follows: it wins */
        o->items[2 * n] = src[2 * i];
        o->items[2 * n + 1] = src[2 * i + 1];
        n++;
    }
    o->nitems = 2 * n;
}

static void ty__jnormalise(cm_arena_t *a, ty_json_t *n)
{
    if (n->kind == TY_JV_OBJECT)
        ty__jsort_pairs(a, n);
    if (n->kind == TY_JV_OBJECT || n->kind == TY_JV_ARRAY)
        for (uint32_t i = 0; i < n->nitems; i++)
            ty__jnormalise(a, n->items[i]);
}

bool ty_json_parse(ty_ctx_t *ctx, const char *p, size_t len, bool jsonb, ty_json_t **out)
{
    ty_json_lex_t lx;
    memset(&lx, 0, sizeof(lx));
    lx.ctx = ctx;
    lx.in = lx.pos = p;
    lx.end = p + len;
    lx.jsonb = jsonb;
    cm_buf_init(&lx.str, 0);
    bool ok = ty__lex(&lx) && ty__jvalue(&lx, out);
    if (ok && lx.tok != TK_END)
        ok = ty__jexpected(&lx, "end of input");
    cm_buf_free(&lx.str);
    if (ok && jsonb)
        ty__jnormalise(ctx->arena, *out);
    return ok;
}

/* ===== printing ===== */

void ty_json_escape(const char *p, size_t len, cm_buf_t *out)
{
    cm_buf_put_u8(out, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)p[i];
        switch (c) {
        case '\b': cm_buf_put_str(out, "\\b"); break;
        case '\f': cm_buf_put_str(out, "\\f"); break;
        case '\n': cm_buf_put_str(out, "\\n"); break;
        case '\r': cm_buf_put_str(out, "\\r"); break;
        case '\t': cm_buf_put_str(out, "\\t"); break;
        case '"': cm_buf_put_str(out, "\\\""); break;
        case '\\': cm_buf_put_str(out, "\\\\"); break;
        default:
            if (c < ' ')
                cm_buf_printf(out, "\\u%04x", c);
            else
                cm_buf_put_u8(out, c);
            break;
        }
    }
    cm_buf_put_u8(out, '"');
}

void ty_json_print(const ty_json_t *n, cm_arena_t *a, cm_buf_t *out)
{
    switch (n->kind) {
    case TY_JV_NULL: cm_buf_put_str(out, "null"); return;
    case TY_JV_BOOL: cm_buf_put_str(out, n->b ? "true" : "false"); return;
    case TY_JV_STRING: ty_json_escape(n->str, n->str_len, out); return;
    case TY_JV_NUMBER:
        if (n->num != NULL)
            ty_num_to_text(n->num, a, out);
        else
            cm_buf_put(out, n->str, n->str_len);
        return;
    case TY_JV_ARRAY:
        cm_buf_put_u8(out, '[');
        for (uint32_t i = 0; i < n->nitems; i++) {
            if (i)
                cm_buf_put_str(out, ", ");
            ty_json_print(n->items[i], a, out);
        }
        cm_buf_put_u8(out, ']');
        return;
    default:
        cm_buf_put_u8(out, '{');
        for (uint32_t i = 0; i + 1 < n->nitems; i += 2) {
            if (i)
                cm_buf_put_str(out, ", ");
            ty_json_print(n->items[i], a, out);
            cm_buf_put_str(out, ": ");
            ty_json_print(n->items[i + 1], a, out);
        }
        cm_buf_put_u8(out, '}');
        return;
    }
}

bool ty_jsonb_in(ty_ctx_t *ctx, const char *p, size_t len, ty_datum_t *out)
{
    ty_json_t *n;
    if (!ty_json_parse(ctx, p, len, true, &n))
        return false;
    cm_buf_t b;
    cm_buf_init(&b, len + 16);
    ty_json_print(n, ctx->arena, &b);
    *out = ty_buf_datum(ctx->arena, &b);
    cm_buf_free(&b);
    return true;
}

bool ty_json_in(ty_ctx_t *ctx, const char *p, size_t len, ty_datum_t *out)
{
    ty_json_t *n;
    if (!ty_json_parse(ctx, p, len, false, &n))
        return false;
    *out = ty_text_datum(ctx->arena, p, len);
    return true;
}
