/*
 * srv_copy.h: COPY FROM STDIN inside the server: the input formats
 * (srv_copy_format.c) and the CopyIn sub-protocol (srv_copy_in.c).
 */
#ifndef EDDY_SRV_COPY_H
#define EDDY_SRV_COPY_H

#include "server/srv_int.h"

/* The client's bytes cut into lines; at most one partial line is kept between chunks. */
typedef struct srv_copy_lines {
    const plan_copy_t *opt;
    cm_buf_t pending;
    size_t at;                   /* bytes of pending already handed out as lines */
    int64_t lineno;              /* of the last line handed out, from 1 */
    int eol;                     /* 0: not known yet, 1: "\n", 2: "\r\n" */
    bool ended;                  /* the "\." line came */
} srv_copy_lines_t;

void srv_copy_lines_init(srv_copy_lines_t *l, const plan_copy_t *opt);
void srv_copy_lines_free(srv_copy_lines_t *l);
void srv_copy_lines_feed(srv_copy_lines_t *l, const uint8_t *p, size_t n);
/* The next whole line (final: the input is over); false: none yet, or err set. */
bool srv_copy_lines_next(srv_copy_lines_t *l, bool final, const uint8_t **line, size_t *len, cm_err_t *err);

/* One line's fields, de-escaped, each NUL-terminated in text. */
typedef struct srv_copy_fields {
    cm_buf_t text;
    int n, cap;
    size_t *start, *len;
    bool *isnull, *quoted;
} srv_copy_fields_t;

bool srv_copy_fields(const plan_copy_t *o, const uint8_t *line, size_t len, srv_copy_fields_t *f, cm_err_t *err);
void srv_copy_fields_free(srv_copy_fields_t *f);

/* srv_copy_chunks.c: threads parsing a COPY's chunks of lines, taken in order, while more come. */
typedef struct srv_copy_chunks srv_copy_chunks_t;
/* Up to threads threads, started as chunks wait, each running parse(arg, chunk). */
srv_copy_chunks_t *srv_copy_chunks_new(int threads, void (*parse)(void *arg, void *chunk), void *arg);
void srv_copy_chunks_push(srv_copy_chunks_t *q, void *chunk);
int srv_copy_chunks_count(srv_copy_chunks_t *q);
/* The i-th chunk pushed; *done once it was parsed (and its result may be read). */
void *srv_copy_chunks_get(srv_copy_chunks_t *q, int i, bool *done);
/* Until every chunk pushed is parsed (the caller parses some too). */
void srv_copy_chunks_wait(srv_copy_chunks_t *q);
/* The threads end once their chunk is parsed; chunks not taken stay unparsed. */
void srv_copy_chunks_stop(srv_copy_chunks_t *q);
void srv_copy_chunks_free(srv_copy_chunks_t *q);

/* srv_copy_in.c: the CopyIn sub-protocol. */
struct srv_copy_in;
/* CopyInResponse; c->copy takes the CopyData that follow (BUSY until CopyDone or CopyFail). */
int srv_copy_in_start(srv_conn_t *c, const plan_write_t *w, srv_wtxn_t *tx, cm_err_t *err);
/* A message while c->copy is set. */
void srv_copy_in_message(srv_conn_t *c, const srv_frame_t *f);
/* Off the loop: the COPY's end (its rows written or kept, or its error); tag "COPY n". */
bool srv_copy_in_run(srv_server_t *srv, struct srv_copy_in *cp, ty_ctx_t *ctx, char *tag, size_t tagsz);
/* On the loop, once srv_copy_in_run's answer is sent: cp is freed. */
void srv_copy_in_done(srv_conn_t *c, struct srv_copy_in *cp);
/* The connection goes: a COPY it was in is dropped. */
void srv_copy_in_conn_free(srv_conn_t *c);

#endif
