/*
 * fuzz.h: the libFuzzer entry point every tests/fuzz/fuzz_*.c defines. The same
 * file links either with libFuzzer (make fuzz) or with replay_main.c, a plain
 * main() that feeds it every corpus file (the fuzz layer of make test).
 */
#ifndef EDDY_FUZZ_H
#define EDDY_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
