/*
 * ty_regex.c: compiling and running regular expressions for ~, ~*,
 * regexp_replace, regexp_like, regexp_count and substring(text, text).
 *
 * This uses the C library's POSIX extended regcomp, which is not
 * PostgreSQL's ARE engine: back-references, lookahead and embedded options
 * differ. The class escapes \d \D (which POSIX lacks) are rewritten to
 * bracket expressions; glibc supplies \w \s \b. The non-capturing groups
 * (?:...) and non-greedy bounds {m,n}? that similar_to_escape writes become
 * their POSIX plain forms. A pattern with back-references is matched by
 * PCRE2 instead (ty_regex_pcre.c), where it can be interrupted.
 * Compiling and matching run
 * under the shared UTF-8 locale so that "." matches a whole character and
 * case-insensitive matching folds 'Ä' and 'ä' as PostgreSQL does.
 */
#include "types/ty_internal.h"

#include <ctype.h>
#include <string.h>

bool ty_regex_compile(ty_ctx_t *ctx, const char *p, size_t plen, int cflags, regex_t *re)
{
    cm_buf_t pat;
    cm_buf_init(&pat, 0);
    bool in_class = false;
    size_t class_start = 0;
    for (size_t i = 0; i < plen; i++) {
        if (p[i] == '\\' && i + 1 < plen && (p[i + 1] == 'd' || p[i + 1] == 'D')) {
            cm_buf_put_str(&pat, p[i + 1] == 'd' ? "[0-9]" : "[^0-9]");
            i++;
        } else if (p[i] == '\\' && i + 1 < plen) {
            cm_buf_put(&pat, p + i, 2);
            i++;
        } else if (p[i] == '(' && i + 2 < plen && p[i + 1] == '?' && p[i + 2] == ':' && !in_class) {
            /* ARE's non-capturing group (SIMILAR TO's patterns are made of them): POSIX only
             * has capturing ones, so later groups' numbers shift. */
            cm_buf_put_u8(&pat, '(');
            i += 2;
        } else if (p[i] == '}' && i + 1 < plen && p[i + 1] == '?' && !in_class) {
            /* A non-greedy bound: POSIX has none; whether a match exists does not depend on it. */
            cm_buf_put_u8(&pat, '}');
            i++;
        } else {
            /* Track bracket expressions, where ( ? : } are ordinary ("[]...]" and "[^]...]" start with a literal ]). */
            if (!in_class && p[i] == '[') {
                in_class = true;
                class_start = i;
            } else if (in_class && p[i] == ']' && i != class_start + 1 &&
                       !(i == class_start + 2 && p[class_start + 1] == '^')) {
                in_class = false;
            }
            cm_buf_put_u8(&pat, (uint8_t)p[i]);
        }
    }
    cm_buf_put_u8(&pat, 0);
    locale_t loc = ty_utf8_locale(), old = (locale_t)0;
    if (loc != (locale_t)0)
        old = uselocale(loc);
    int rc = regcomp(re, (const char *)pat.data, REG_EXTENDED | cflags);
    if (loc != (locale_t)0)
        uselocale(old);
    cm_buf_free(&pat);
    if (rc != 0) {
        char msg[128];
        regerror(rc, re, msg, sizeof(msg));
        for (char *m = msg; *m; m++)
            *m = (char)tolower((unsigned char)*m);
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_REGULAR_EXPRESSION, "invalid regular expression: %s", msg);
    }
    return true;
}

int ty_regex_exec(const regex_t *re, const char *s, size_t nmatch, regmatch_t *m, int eflags)
{
    locale_t loc = ty_utf8_locale(), old = (locale_t)0;
    if (loc != (locale_t)0)
        old = uselocale(loc);
    int rc = regexec(re, s, nmatch, m, eflags);
    if (loc != (locale_t)0)
        uselocale(old);
    return rc;
}

bool ty_re_compile(ty_ctx_t *ctx, const char *p, size_t plen, int cflags, ty_re_t *re)
{
    re->pcre = NULL;
    if (!ty_regex_compile(ctx, p, plen, cflags, &re->posix))
        return false;
    re->nsub = re->posix.re_nsub;
    if (ty_regex_has_backref(p, plen))
        ty_regex_pcre_compile(p, plen, cflags & ~REG_NOSUB, re);
    return true;
}

void ty_re_free(ty_re_t *re)
{
    if (re->pcre != NULL)
        ty_regex_pcre_free(re);
    regfree(&re->posix);
}

bool ty_regex_match(ty_ctx_t *ctx, const char *s, size_t slen, const char *p, size_t plen, bool icase, bool *out)
{
    ty_re_t re;
    if (!ty_re_compile(ctx, p, plen, REG_NOSUB | (icase ? REG_ICASE : 0), &re))
        return false;
    int rc;
    if (re.pcre != NULL) {
        rc = ty_regex_pcre_search(ctx, &re, s, slen, 0, NULL, 0);
    } else {
        char *str = cm_arena_strndup(ctx->arena, s, slen);
        rc = ty_regex_exec(&re.posix, str, 0, NULL, 0) == 0;
    }
    ty_re_free(&re);
    *out = rc > 0;
    return rc >= 0;
}
