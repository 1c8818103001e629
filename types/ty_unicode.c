/*
 * ty_unicode.c: UTF-8 decoding and encoding, and case mapping of whole
 * code points. PostgreSQL maps case with the database's LC_CTYPE, which for
 * eddy's databases behaves like C.UTF-8, so 'ä' upper-cases to 'Ä' and not
 * only ASCII letters change. The process-wide C locale would leave non-ASCII
 * letters alone, so the mapping goes through a UTF-8 locale object made once
 * and shared read-only by all threads.
 */
#include "types/ty_internal.h"

#include <locale.h>
#include <pthread.h>
#include <wctype.h>

static locale_t ty__utf8_locale;
static pthread_once_t ty__utf8_once = PTHREAD_ONCE_INIT;

static void ty__utf8_init(void)
{
    ty__utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
    if (ty__utf8_locale == (locale_t)0)
        ty__utf8_locale = newlocale(LC_CTYPE_MASK, "C.utf8", (locale_t)0);
    if (ty__utf8_locale == (locale_t)0)
        ty__utf8_locale = newlocale(LC_CTYPE_MASK, "en_US.UTF-8", (locale_t)0);
}

locale_t ty_utf8_locale(void)
{
    pthread_once(&ty__utf8_once, ty__utf8_init);
    return ty__utf8_locale;
}

size_t ty_utf8_decode(const char *p, size_t avail, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)p;
    size_t n = u[0] < 0x80 ? 1 : u[0] < 0xE0 ? 2 : u[0] < 0xF0 ? 3 : 4;
    if (n > avail) {
        /* Text is validated on input; a cut sequence only reaches here from bad binary data. */
        *cp = u[0];
        return 1;
    }
    switch (n) {
    case 1: *cp = u[0]; break;
    case 2: *cp = (uint32_t)(u[0] & 0x1F) << 6 | (u[1] & 0x3F); break;
    case 3: *cp = (uint32_t)(u[0] & 0x0F) << 12 | (uint32_t)(u[1] & 0x3F) << 6 | (u[2] & 0x3F); break;
    default:
        *cp = (uint32_t)(u[0] & 0x07) << 18 | (uint32_t)(u[1] & 0x3F) << 12 | (uint32_t)(u[2] & 0x3F) << 6 |
              (u[3] & 0x3F);
        break;
    }
    return n;
}

size_t ty_utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

uint32_t ty_uni_lower(uint32_t cp)
{
    if (cp < 0x80)
        return cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
    locale_t l = ty_utf8_locale();
    return l == (locale_t)0 ? cp : (uint32_t)towlower_l((wint_t)cp, l);
}

uint32_t ty_uni_upper(uint32_t cp)
{
    if (cp < 0x80)
        return cp >= 'a' && cp <= 'z' ? cp - 32 : cp;
    locale_t l = ty_utf8_locale();
    return l == (locale_t)0 ? cp : (uint32_t)towupper_l((wint_t)cp, l);
}

bool ty_uni_isalnum(uint32_t cp)
{
    if (cp < 0x80)
        return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
    locale_t l = ty_utf8_locale();
    return l != (locale_t)0 && iswalnum_l((wint_t)cp, l);
}

/* Mode 'l' lower, 'u' upper, 'i' initcap (PostgreSQL's: a letter after a
 * non-alphanumeric is upper-cased, every other one lower-cased). A mapped
 * character may encode to a different number of bytes, hence the buffer. */
ty_datum_t ty_text_case(cm_arena_t *a, const char *p, size_t len, char mode)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    bool was_alnum = false;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        i += ty_utf8_decode(p + i, len - i, &cp);
        uint32_t m;
        if (mode == 'l')
            m = ty_uni_lower(cp);
        else if (mode == 'u')
            m = ty_uni_upper(cp);
        else {
            m = was_alnum ? ty_uni_lower(cp) : ty_uni_upper(cp);
            was_alnum = ty_uni_isalnum(cp);
        }
        char enc[4];
        cm_buf_put(&b, enc, ty_utf8_encode(m, enc));
    }
    ty_datum_t d = ty_buf_datum(a, &b);
    cm_buf_free(&b);
    return d;
}
