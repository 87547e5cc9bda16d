/* test/fuzz/fuzz_decode.c -- libFuzzer harness for the binary state decoder */
#include "fuzz_common.h"

/* Arbitrary bytes as an encoded state. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_decode(data, size);
	return 0;
}
