/*
 * pln_coerce.c: PostgreSQL's type resolution rules: implicit coercion,
 * select_common_type for CASE/COALESCE/VALUES/IN, and the operator and
 * function candidate selection of func_select_candidate (exact match,
 * implicit casts, type categories, preferred types, unknown literals), with
 * PostgreSQL's error texts and hints.
 */
#include "planner/pln_internal.h"

#include <stdarg.h>
#include <string.h>

#define PLN_CANDIDATES_MAX 128

int pln__char_pos(const char *sql, int byte_pos)
{
    if (byte_pos < 0 || !sql)
        return 0;
    return sql_char_position(sql, strlen(sql), byte_pos);
}

bool pln__error(pln_binder_t *b, int byte_pos, const char *sqlstate, const char *fmt, ...)
{
    if (!b->err->set) {
        va_list ap;
        va_start(ap, fmt);
        cm_err_vset(b->err, sqlstate, fmt, ap);
        va_end(ap);
        b->err->position = pln__char_pos(b->sql, byte_pos);
    }
    return false;
}

const char *pln__type_name(pln_binder_t *b, ty_oid_t type)
{
    cm_buf_t buf;
    cm_buf_init(&buf, 0);
    if (type == TY_UNKNOWN || !ty_info(type))
        cm_buf_put_str(&buf, type == TY_UNKNOWN ? "unknown" : "???");
    else
        ty_format_type(type, -1, &buf);
    const char *s = cm_arena_strndup(b->arena, buf.len ? (const char *)buf.data : "", buf.len);
    cm_buf_free(&buf);
    return s;
}

static char pln_category(ty_oid_t t)
{
    if (t == TY_INVALID)
        return TY_CAT_PSEUDO;
    const ty_info_t *i = ty_info(t);
    return i ? i->category : TY_CAT_USER;
}

static bool pln_preferred(ty_oid_t t)
{
    const ty_info_t *i = t ? ty_info(t) : NULL;
    return i && i->preferred;
}

bool pln__can_coerce(ty_oid_t from, ty_oid_t to, pln_ccontext_t cc)
{
    if (from == to || to == TY_INVALID || from == TY_UNKNOWN)
        return true;
    ty_cast_context_t c;
    if (!ty_cast_exists(from, to, &c))
        return false;
    switch (cc) {
    case PLN_CC_IMPLICIT: return c == TY_CAST_IMPLICIT;
    case PLN_CC_ASSIGNMENT: return c == TY_CAST_IMPLICIT || c == TY_CAST_ASSIGNMENT;
    case PLN_CC_EXPLICIT: return true;
    }
    return false;
}

void pln__note_literal(pln_binder_t *b, ty_expr_t *cast)
{
    if (b->nlits == b->lits_cap) {
        int cap = b->lits_cap ? b->lits_cap * 2 : 8;
        ty_expr_t **n = cm_arena_alloc(b->arena, sizeof(*n) * (size_t)cap);
        if (b->nlits)
            memcpy(n, b->lits, sizeof(*n) * (size_t)b->nlits);
        b->lits = n;
        b->lits_cap = cap;
    }
    b->lits[b->nlits++] = cast;
}

ty_expr_t *pln__coerce(pln_binder_t *b, ty_expr_t *e, ty_oid_t type, int32_t typmod, pln_ccontext_t cc, int pos)
{
    if (type == TY_INVALID)   /* "any": an unknown literal becomes text, anything else stays */
        type = e->type == TY_UNKNOWN ? TY_TEXT : e->type;
    if (e->kind == TY_EXPR_PARAM && e->type == TY_UNKNOWN) {
        /* An untyped parameter takes the type its context wants, once. */
        int i = e->index;
        if (b->param_types[i] == 0 || b->param_types[i] == TY_UNKNOWN)
            b->param_types[i] = type;
        e->type = b->param_types[i];
        if (e->type == type && typmod < 0)
            return e;
    }
    if (e->type == type && (typmod < 0 || typmod == e->typmod))
        return e;
    if (!pln__can_coerce(e->type, type, cc)) {
        if (cc == PLN_CC_EXPLICIT)
            pln__error(b, pos >= 0 ? pos : e->location, "42846", "cannot cast type %s to %s",
                       pln__type_name(b, e->type), pln__type_name(b, type));
        else
            pln__error(b, pos >= 0 ? pos : e->location, CM_ERRCODE_DATATYPE_MISMATCH,
                       "cannot coerce type %s to %s", pln__type_name(b, e->type), pln__type_name(b, type));
        return NULL;
    }
    ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_CAST, type, 1);
    c->args[0] = e;
    c->typmod = typmod;
    /* An implicit cast in an expression is a cast too; only assignment avoids silent truncation. */
    c->negated = cc == PLN_CC_ASSIGNMENT;
    c->location = e->location;
    if (e->kind == TY_EXPR_CONST && e->type == TY_UNKNOWN) {
        pln__note_literal(b, c);   /* literal input errors point at the literal */
        if (cc == PLN_CC_EXPLICIT && !pln__fold_literal_now(b, c))
            return NULL;
    } else if (pos >= 0)
        c->location = pos;
    return c;
}

ty_expr_t *pln__coerce_bool(pln_binder_t *b, ty_expr_t *e, const char *what)
{
    if (e->type == TY_BOOL)
        return e;
    if (e->type != TY_UNKNOWN && !pln__can_coerce(e->type, TY_BOOL, PLN_CC_ASSIGNMENT)) {
        pln__error(b, e->location, CM_ERRCODE_DATATYPE_MISMATCH, "argument of %s must be type %s, not type %s",
                   what, "boolean", pln__type_name(b, e->type));
        return NULL;
    }
    return pln__coerce(b, e, TY_BOOL, -1, PLN_CC_ASSIGNMENT, -1);
}

ty_expr_t *pln__resolve_unknown(pln_binder_t *b, ty_expr_t *e)
{
    if (e->type != TY_UNKNOWN)
        return e;
    return pln__coerce(b, e, TY_TEXT, -1, PLN_CC_IMPLICIT, -1);
}

bool pln__common_type(pln_binder_t *b, ty_expr_t **es, int n, const int *positions, const char *context,
                      ty_oid_t *type, int32_t *typmod)
{
    ty_oid_t ptype = TY_UNKNOWN;
    int first = -1;
    for (int i = 0; i < n; i++)
        if (es[i]->type != TY_UNKNOWN) {
            ptype = es[i]->type;
            first = i;
            break;
        }
    if (first >= 0) {
        char pcat = pln_category(ptype);
        bool ppref = pln_preferred(ptype);
        for (int i = first + 1; i < n; i++) {
            ty_oid_t nt = es[i]->type;
            if (nt == TY_UNKNOWN || nt == ptype)
                continue;
            char ncat = pln_category(nt);
            if (ncat != pcat) {
                pln__error(b, positions ? positions[i] : es[i]->location, CM_ERRCODE_DATATYPE_MISMATCH,
                           "%s types %s and %s cannot be matched", context, pln__type_name(b, ptype),
                           pln__type_name(b, nt));
                return false;
            }
            if (!ppref && pln__can_coerce(ptype, nt, PLN_CC_IMPLICIT) && !pln__can_coerce(nt, ptype, PLN_CC_IMPLICIT)) {
                ptype = nt;
                pcat = ncat;
                ppref = pln_preferred(nt);
            }
        }
    } else {
        ptype = TY_TEXT;   /* all unknown: resolve as text */
    }
    /* The typmod survives only if every input agrees on type and typmod. */
    int32_t tm = -1;
    if (n > 0 && es[0]->type == ptype) {
        tm = es[0]->typmod;
        for (int i = 1; i < n; i++)
            if (es[i]->type != ptype || es[i]->typmod != tm)
                tm = -1;
    }
    *type = ptype;
    *typmod = tm;
    return true;
}

bool pln__coerce_all(pln_binder_t *b, ty_expr_t **es, int n, ty_oid_t type, int32_t typmod, const char *context)
{
    for (int i = 0; i < n; i++) {
        if (es[i]->type == type)
            continue;
        if (!pln__can_coerce(es[i]->type, type, PLN_CC_IMPLICIT)) {
            pln__error(b, es[i]->location, CM_ERRCODE_CANNOT_COERCE, "%s could not convert type %s to %s", context,
                       pln__type_name(b, es[i]->type), pln__type_name(b, type));
            return false;
        }
        es[i] = pln__coerce(b, es[i], type, -1, PLN_CC_IMPLICIT, -1);
        if (!es[i])
            return false;
    }
    (void)typmod;
    return true;
}

/* ========================================== func_select_candidate */

static ty_oid_t cand_arg(const ty_func_t *f, int i)
{
    int k = i < f->nargs ? i : f->nargs - 1;
    return k >= 0 && k < TY_FUNC_ARGS_MAX ? f->args[k] : TY_INVALID;
}

static bool cand_fits(const ty_func_t *f, int nargs)
{
    return f->nargs == nargs || ((f->flags & TY_FN_VARIADIC) && nargs >= f->nargs - 1);
}

/*
 * Chooses among candidates as PostgreSQL's func_select_candidate does.
 * Returns the candidate, or NULL with *ambiguous telling "not unique" from
 * "does not exist".
 */
static const ty_func_t *pln_select(const ty_func_t **cands, int n, const ty_oid_t *in, int nargs, bool *ambiguous)
{
    *ambiguous = false;
    /* Exact match. */
    for (int c = 0; c < n; c++) {
        bool exact = true;
        for (int i = 0; i < nargs && exact; i++)
            exact = cand_arg(cands[c], i) == in[i];
        if (exact)
            return cands[c];
    }
    /* Candidates every argument can be implicitly coerced to. */
    const ty_func_t *ok[PLN_CANDIDATES_MAX];
    int m = 0;
    for (int c = 0; c < n; c++) {
        bool fits = true;
        for (int i = 0; i < nargs && fits; i++)
            fits = pln__can_coerce(in[i], cand_arg(cands[c], i), PLN_CC_IMPLICIT);
        if (fits)
            ok[m++] = cands[c];
    }
    if (m <= 1)
        return m == 1 ? ok[0] : NULL;

    /* PostgreSQL's anyarray binds to the argument's own array type: of the per-element-type
     * rows that fit, keep those taking the input arrays as they are, if any do
     * (array_to_string(text[], '-') is not also a varchar[] or name[] call). */
    int k = 0;
    for (int c = 0; c < m; c++) {
        bool same = true;
        for (int i = 0; i < nargs && same; i++)
            if (ty_array_elem_type(in[i]) != TY_INVALID && ty_array_elem_type(cand_arg(ok[c], i)) != TY_INVALID)
                same = cand_arg(ok[c], i) == in[i];
        if (same)
            ok[k++] = ok[c];
    }
    if (k > 0)
        m = k;
    if (m == 1)
        return ok[0];

    /* Most exact matches on known input types. The types module lists PostgreSQL's
     * polymorphic array functions once per element type (int4[] || int4, ...); their
     * declared types in PostgreSQL (anycompatiblearray, anycompatible) never match an
     * input exactly, so 'a' || 1 still goes to text || anynonarray as there. */
    int best = -1;
    k = 0;
    int score[PLN_CANDIDATES_MAX];
    for (int c = 0; c < m; c++) {
        score[c] = 0;
        bool poly = false;
        for (int i = 0; i < nargs; i++)
            poly |= ty_array_elem_type(cand_arg(ok[c], i)) != TY_INVALID;
        for (int i = 0; i < nargs && !poly; i++)
            if (in[i] != TY_UNKNOWN && cand_arg(ok[c], i) == in[i])
                score[c]++;
        if (score[c] > best)
            best = score[c];
    }
    for (int c = 0; c < m; c++)
        if (score[c] == best)
            ok[k++] = ok[c];
    m = k;
    if (m == 1)
        return ok[0];

    /* Most preferred types (of the input's category) where a conversion is needed. */
    best = -1;
    k = 0;
    for (int c = 0; c < m; c++) {
        score[c] = 0;
        bool poly = false;   /* as above: polymorphic types are not preferred ones */
        for (int i = 0; i < nargs; i++)
            poly |= ty_array_elem_type(cand_arg(ok[c], i)) != TY_INVALID;
        for (int i = 0; i < nargs && !poly; i++) {
            ty_oid_t t = cand_arg(ok[c], i);
            if (in[i] != TY_UNKNOWN && t != in[i] && pln_preferred(t) && pln_category(t) == pln_category(in[i]))
                score[c]++;
        }
        if (score[c] > best)
            best = score[c];
    }
    for (int c = 0; c < m; c++)
        if (score[c] == best)
            ok[k++] = ok[c];
    m = k;
    if (m == 1)
        return ok[0];

    /* Unknown arguments: settle each position's category, preferring string, then preferred types. */
    bool any_unknown = false;
    for (int i = 0; i < nargs; i++) {
        if (in[i] != TY_UNKNOWN)
            continue;
        any_unknown = true;
        char cat = 0;
        bool conflict = false, has_preferred = false;
        for (int c = 0; c < m; c++) {
            ty_oid_t t = cand_arg(ok[c], i);
            char tc = pln_category(t);
            if (cat == 0) {
                cat = tc;
                has_preferred = pln_preferred(t);
            } else if (tc == cat) {
                has_preferred |= pln_preferred(t);
            } else if (tc == TY_CAT_STRING) {
                cat = tc;
                has_preferred = pln_preferred(t);
            } else if (cat != TY_CAT_STRING) {
                conflict = true;
            }
        }
        if (conflict && cat != TY_CAT_STRING) {
            *ambiguous = true;
            return NULL;
        }
        k = 0;
        for (int c = 0; c < m; c++) {
            ty_oid_t t = cand_arg(ok[c], i);
            if (pln_category(t) == cat && (!has_preferred || pln_preferred(t)))
                ok[k++] = ok[c];
        }
        if (k > 0)
            m = k;
    }
    if (m == 1)
        return ok[0];

    /* Unknowns beside known arguments that all share one type: assume that type. */
    if (any_unknown) {
        ty_oid_t known = TY_INVALID;
        bool same = true;
        for (int i = 0; i < nargs; i++) {
            if (in[i] == TY_UNKNOWN)
                continue;
            if (known == TY_INVALID)
                known = in[i];
            else if (known != in[i])
                same = false;
        }
        if (known != TY_INVALID && same) {
            const ty_func_t *found = NULL;
            int hits = 0;
            for (int c = 0; c < m; c++) {
                bool fits = true;
                for (int i = 0; i < nargs && fits; i++)
                    if (in[i] == TY_UNKNOWN)
                        fits = pln__can_coerce(known, cand_arg(ok[c], i), PLN_CC_IMPLICIT);
                if (fits) {
                    found = ok[c];
                    hits++;
                }
            }
            if (hits == 1)
                return found;
        }
    }
    *ambiguous = true;
    return NULL;
}

const ty_func_t *pln__resolve(pln_binder_t *b, const char *name, bool is_operator, ty_expr_t **args, int nargs,
                              int pos, bool report)
{
    const ty_func_t *all[PLN_CANDIDATES_MAX];
    size_t na = ty_func_candidates(name, is_operator, all, PLN_CANDIDATES_MAX);
    return pln__resolve_in(b, name, is_operator, all, (int)na, args, nargs, pos, report);
}

const ty_func_t *pln__resolve_in(pln_binder_t *b, const char *name, bool is_operator, const ty_func_t **all, int na,
                                 ty_expr_t **args, int nargs, int pos, bool report)
{
    const ty_func_t *cands[PLN_CANDIDATES_MAX];
    int n = 0;
    for (int i = 0; i < na && n < PLN_CANDIDATES_MAX; i++)
        if (cand_fits(all[i], nargs))
            cands[n++] = all[i];
    ty_oid_t in[PLN_CANDIDATES_MAX];
    for (int i = 0; i < nargs && i < PLN_CANDIDATES_MAX; i++)
        in[i] = args[i]->type;

    const ty_func_t *f = NULL;
    bool ambiguous = false;
    /* A binary operator with one unknown side first tries the known side's type for both. */
    if (is_operator && nargs == 2 && (in[0] == TY_UNKNOWN) != (in[1] == TY_UNKNOWN)) {
        ty_oid_t k = in[0] == TY_UNKNOWN ? in[1] : in[0];
        for (int c = 0; c < n && !f; c++)
            if (cands[c]->args[0] == k && cands[c]->args[1] == k)
                f = cands[c];
    }
    if (!f && nargs <= PLN_CANDIDATES_MAX)
        f = pln_select(cands, n, in, nargs, &ambiguous);
    if (!f) {
        if (!report)
            return NULL;
        cm_buf_t sig;
        cm_buf_init(&sig, 0);
        if (is_operator) {
            if (nargs == 2)
                cm_buf_printf(&sig, "%s %s %s", pln__type_name(b, in[0]), name, pln__type_name(b, in[1]));
            else
                cm_buf_printf(&sig, "%s %s", name, pln__type_name(b, in[0]));
        } else {
            cm_buf_printf(&sig, "%s(", name);
            for (int i = 0; i < nargs; i++)
                cm_buf_printf(&sig, "%s%s", i ? ", " : "", pln__type_name(b, in[i]));
            cm_buf_put_u8(&sig, ')');
        }
        cm_buf_put_u8(&sig, '\0');
        const char *what = is_operator ? "operator" : "function";
        if (ambiguous) {
            if (is_operator)
                pln__error(b, pos, CM_ERRCODE_AMBIGUOUS_FUNCTION, "operator is not unique: %s", (const char *)sig.data);
            else
                pln__error(b, pos, CM_ERRCODE_AMBIGUOUS_FUNCTION, "function %s is not unique", (const char *)sig.data);
            cm_err_set_hint(b->err, "Could not choose a best candidate %s. You might need to add explicit type casts.",
                            what);
        } else if (is_operator) {
            pln__error(b, pos, CM_ERRCODE_UNDEFINED_FUNCTION, "operator does not exist: %s", (const char *)sig.data);
            cm_err_set_hint(b->err, "No operator matches the given name and argument types. You might need to add "
                                    "explicit type casts.");
        } else {
            pln__error(b, pos, CM_ERRCODE_UNDEFINED_FUNCTION, "function %s does not exist", (const char *)sig.data);
            cm_err_set_hint(b->err, "No function matches the given name and argument types. You might need to add "
                                    "explicit type casts.");
        }
        cm_buf_free(&sig);
        return NULL;
    }
    for (int i = 0; i < nargs; i++) {
        args[i] = pln__coerce(b, args[i], cand_arg(f, i), -1, PLN_CC_IMPLICIT, -1);
        if (!args[i])
            return NULL;
    }
    return f;
}

ty_expr_t *pln__make_call(pln_binder_t *b, const char *name, ty_expr_t **args, int nargs, int pos)
{
    const ty_func_t *f = pln__resolve(b, name, false, args, nargs, pos, true);
    if (!f)
        return NULL;
    ty_expr_t *e = ty_expr_new(b->arena, TY_EXPR_CALL, f->ret, nargs);
    e->func = f;
    e->location = pos;
    for (int i = 0; i < nargs; i++)
        e->args[i] = args[i];
    return e;
}

ty_expr_t *pln__make_op(pln_binder_t *b, const char *op, ty_expr_t *l, ty_expr_t *r, int pos)
{
    ty_expr_t *args[2];
    int n = 0;
    if (l)
        args[n++] = l;
    args[n++] = r;
    const ty_func_t *f = pln__resolve(b, op, true, args, n, pos, true);
    if (!f)
        return NULL;
    /* anytextcat/textanycat are SQL functions ($1::text || $2) in PostgreSQL: the
     * other side goes through its cast to text (true -> 'true'), not its output
     * function as other "any" arguments do (true -> 't'). */
    for (int i = 0; i < n && n == 2 && strcmp(op, "||") == 0; i++)
        if (f->args[i] == TY_INVALID && args[i]->type != TY_TEXT &&
            !(args[i] = pln__coerce(b, args[i], TY_TEXT, -1, PLN_CC_EXPLICIT, -1)))
            return NULL;
    ty_expr_t *e = ty_expr_new(b->arena, TY_EXPR_CALL, f->ret, n);
    e->func = f;
    e->location = pos;
    for (int i = 0; i < n; i++)
        e->args[i] = args[i];
    return e;
}
