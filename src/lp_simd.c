/* src/lp_simd.c -- the choice of a CPU build, made once (plain C) */
#include "lp_simd.h"

#include <stdlib.h>

/* See lp_simd.h. */
lp_isa		lp_simd_isa = LP_ISA_BASE;

/* See lp_simd.h. */
int
lp_simd_has(lp_isa isa)
{
	if (isa == LP_ISA_BASE)
		return 1;
#ifdef LP_SIMD_AVX2
	if (isa == LP_ISA_AVX2)
	{
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx2") != 0;
	}
#endif
	return 0;
}

/* See lp_simd.h. */
lp_isa
lp_simd_choose(void)
{
	const char *e = getenv("LOGP95_ISA");

	lp_simd_isa = (e && strcmp(e, "base") == 0) || !lp_simd_has(LP_ISA_AVX2) ?
		LP_ISA_BASE : LP_ISA_AVX2;
	return lp_simd_isa;
}
