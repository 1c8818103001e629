/*
 * df_op_union.c: UNION ALL (DESIGN §6): the delta of the union is the two
 * inputs' deltas together, consolidated; nothing is kept between steps.
 * Both inputs have the same column types (the planner coerced them), so
 * their rows are the same bytes for the same values.
 */
#include "dataflow/df_flow.h"

bool df__op_union(df_step_t *s, df_node_t *n)
{
    const df_batch_t *a = n->in[0]->out, *b = n->in[1]->out;
    if (!a || !b) {
        if ((n->out = (df_batch_t *)(a ? a : b)))
            df__batch_ref(n->out);
        return true;
    }
    df_builder_t bl;
    df__builder_init(&bl);
    const df_batch_t *ins[2] = {a, b};
    for (int k = 0; k < 2; k++)
        for (uint64_t j = 0; j < ins[k]->nvals; j++) {
            size_t len;
            const uint8_t *v = df__batch_val(ins[k], j, &len);
            df__builder_add(&bl, "", 0, v, len, df__batch_diff(ins[k], j));
        }
    n->out = df__finish(&bl, s->seq);
    df__builder_free(&bl);
    return true;
}
