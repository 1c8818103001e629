/*
 * fuzz_codec.c: libFuzzer target for the pure pgwire codec (server/srv_codec.h).
 *
 * srv_codec_fuzz_one drives the codec as a connection would: one untyped
 * startup packet, then typed messages until the input ends or is malformed,
 * echoing decoded fields through the builders. The target also feeds the same
 * bytes to the typed framer directly and checks the framer's promises: a frame
 * never claims more bytes than were given, and its body lies inside them.
 */
#include "server/srv_codec.h"
#include "tests/fuzz/fuzz.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    (void)srv_codec_fuzz_one(data, size);

    size_t off = 0;
    while (off < size) {
        srv_frame_t f;
        cm_err_t err = {0};
        srv_frame_rc_t rc = srv_frame_next(data + off, size - off, 1u << 20, SRV_SMALL_MESSAGE_MAX, &f, &err);
        cm_err_clear(&err);
        if (rc != SRV_FRAME_OK)
            break;
        if (f.total == 0 || f.total > size - off || f.body < data + off ||
            f.body + f.body_len > data + off + f.total)
            abort();   /* the framer pointed outside its input */
        off += f.total;
    }
    return 0;
}
