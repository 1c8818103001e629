/*
 * plan_sort.c: ORDER BY's comparison and sort of rows, shared by every
 * executor of a plan: keys with DESC and NULLS FIRST / LAST (NULLs last by
 * default, as PostgreSQL), a stable merge sort so that equal rows keep
 * their input order (ORDER BY inside aggregates relies on it).
 */
#include "plan/plan.h"

#include <string.h>

int plan_rows_compare(const plan_sortkey_t *keys, int nkeys, const ty_datum_t *a, const ty_datum_t *b)
{
    for (int i = 0; i < nkeys; i++) {
        const plan_sortkey_t *k = &keys[i];
        const ty_datum_t *p = &a[k->col], *q = &b[k->col];
        if (p->isnull || q->isnull) {
            if (p->isnull && q->isnull)
                continue;
            return p->isnull ? (k->nulls_first ? -1 : 1) : (k->nulls_first ? 1 : -1);
        }
        int c = ty_datum_compare(k->type, p, q);
        if (c)
            return k->desc ? -c : c;
    }
    return 0;
}

/* A stable merge sort: ORDER BY (and ORDER BY inside aggregates) keeps equal rows in input order. */
void plan_rows_sort(const plan_sortkey_t *keys, int nkeys, ty_datum_t **rows, ty_datum_t **tmp, int n)
{
    if (n < 2)
        return;
    int h = n / 2;
    plan_rows_sort(keys, nkeys, rows, tmp, h);
    plan_rows_sort(keys, nkeys, rows + h, tmp, n - h);
    int i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = plan_rows_compare(keys, nkeys, rows[j], rows[i]) < 0 ? rows[j++] : rows[i++];
    while (i < h)
        tmp[k++] = rows[i++];
    while (j < n)
        tmp[k++] = rows[j++];
    memcpy(rows, tmp, sizeof(*rows) * (size_t)n);
}

