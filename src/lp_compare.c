/* src/lp_compare.c -- two histograms of a route compared: Mann-Whitney U with ties, the binomial tail above p95 (plain C) */
#include "lp_compare.h"

#include <math.h>

#include "lp_rank.h"

#if !defined(__SIZEOF_INT128__)
#error "logp95 needs a compiler with unsigned __int128 (twice the Mann-Whitney U)"
#endif

/* log(sqrt(2 pi)) and log(2 pi) */
#define LP_LN_SQRT_2PI	0.918938533204672741780329736405617639L
#define LP_LN_2PI		1.837877066409345483560659472811235279L

/* 1 / sqrt(2) */
#define LP_SQRT1_2		0.707106781186547524400844362104849039L

/* A sum stops when what is left is below this share of it. */
#define LP_SUM_EPS		1e-21L

/* ---------- Mann-Whitney U ---------- */

/* See lp_compare.h. */
void
lp_mwu_init(lp_mwu *m)
{
	m->n1 = 0;
	m->n2 = 0;
	m->u2_twice = 0;
	m->tie_d = 0;
}

/* See lp_compare.h. */
void
lp_mwu_group(lp_mwu *m, uint64_t c1, uint64_t c2)
{
	uint64_t	s = m->n1 + m->n2;	/* values below the group */
	uint64_t	t = c1 + c2;	/* the group's size */

	/*
	 * Each of the c2 second-sample values beats the n1 first-sample values
	 * below it and ties with the c1 beside it: 2U grows by c2 * (2 n1 + c1),
	 * and 2 n1 + c1 <= 2 INT64_MAX fits in 64 bits.
	 */
	m->u2_twice += (unsigned __int128) c2 * (2 * m->n1 + c1);
	/* (s + t)^3 - s^3 - t^3: what the group adds to n^3 - sum(t^3) */
	m->tie_d += 3.0L * (long double) s * (long double) t * ((long double) s + (long double) t);
	m->n1 += c1;
	m->n2 += c2;
}

/* See lp_compare.h. */
double
lp_mwu_share(const lp_mwu *m)
{
	unsigned __int128 pairs_twice = (unsigned __int128) m->n1 * m->n2 * 2;

	/* small enough for doubles: one correctly rounded division, as Python's */
	if (pairs_twice <= ((unsigned __int128) 1 << 53))
		return (double) m->u2_twice / (double) pairs_twice;
	return (double) ((long double) m->u2_twice / (long double) pairs_twice);
}

/* See lp_compare.h. */
double
lp_mwu_p_value(const lp_mwu *m)
{
	unsigned __int128 pairs = (unsigned __int128) m->n1 * m->n2;
	unsigned __int128 dev;		/* |2 U - n1 n2| = 2 (max(U1, U2) - mu) */
	long double n = (long double) m->n1 + (long double) m->n2;
	long double var;
	long double z;
	long double p;

	dev = m->u2_twice >= pairs ? m->u2_twice - pairs : pairs - m->u2_twice;
	/* z <= 0 (within the continuity correction of mu), or no spread at all */
	if (dev <= 1 || m->tie_d <= 0)
		return 1.0;
	/* n1 n2 / 12 * ((n + 1) - sum(t^3 - t) / (n (n - 1))), the bracket as D / (n (n - 1)) */
	var = (long double) m->n1 * (long double) m->n2 / 12.0L * (m->tie_d / (n * (n - 1.0L)));
	z = ((long double) dev - 1.0L) / 2.0L / sqrtl(var);
	/* 2 sf(z) = erfc(z / sqrt 2) */
	p = erfcl(z * LP_SQRT1_2);
	return p > 1.0L ? 1.0 : (double) p;
}

/* ---------- the binomial tail ---------- */

/*
 * log Gamma(x + 1) - ((x + 1/2) log x - x + log sqrt(2 pi)), the error of
 * Stirling's formula, for real x > 0: from lgammal up to 15, from the
 * asymptotic series above (its first omitted term is below 1e-19 there).
 */
static long double
lp_stirlerr(long double x)
{
	static const long double c[] = {
		1.0L / 12, 1.0L / 360, 1.0L / 1260, 1.0L / 1680, 1.0L / 1188,
		691.0L / 360360, 1.0L / 156
	};
	long double xx;

	if (x <= 15.0L)
		return lgammal(x + 1.0L) - (x + 0.5L) * logl(x) + x - LP_LN_SQRT_2PI;
	xx = x * x;
	return (c[0] - (c[1] - (c[2] - (c[3] - (c[4] - (c[5] - c[6] / xx) / xx) / xx) / xx) / xx) / xx) / x;
}

/*
 * x log(x / m) + m - x, the deviance term of Loader's form, without the
 * cancellation of the plain formula when x is near m (series in
 * v = (x - m) / (x + m)).
 */
static long double
lp_bd0(long double x, long double m)
{
	long double v,
				v2,
				s,
				ej;
	int			j;

	if (fabsl(x - m) >= 0.1L * (x + m))
		return x * logl(x / m) + m - x;
	v = (x - m) / (x + m);
	v2 = v * v;
	s = (x - m) * v;
	ej = 2.0L * x * v;
	for (j = 1; j < 100; j++)
	{
		long double s1;

		ej *= v2;
		s1 = s + ej / (2 * j + 1);
		if (s1 == s)
			break;
		s = s1;
	}
	return s;
}

/*
 * The binomial probability of x successes in n trials, for real x in
 * [0, n] (Loader 2000, "Fast and accurate computation of binomial
 * probabilities"; R's dbinom_raw): no lgamma of n, so no cancellation of
 * large logarithms.  For real x it is the continuous extension
 * Gamma(n + 1) / (Gamma(x + 1) Gamma(n - x + 1)) p^x q^(n - x).
 */
static long double
lp_binom_pmf(long double x, long double n, long double p, long double q)
{
	long double lc;

	if (x <= 0.0L)
		return expl(p < 0.1L ? -lp_bd0(n, n * q) - n * p : n * logl(q));
	if (x >= n)
		return expl(q < 0.1L ? -lp_bd0(n, n * p) - n * q : n * logl(p));
	lc = lp_stirlerr(n) - lp_stirlerr(x) - lp_stirlerr(n - x)
		- lp_bd0(x, n * p) - lp_bd0(n - x, n * q);
	return expl(lc - 0.5L * (LP_LN_2PI + logl(x) + log1pl(-x / n)));
}

/*
 * d/dx log of lp_binom_pmf(x) for x well inside (0, n), and in *d2 (when
 * not NULL) its derivative, from the asymptotic series of the digamma
 * function and its derivative (psi(y + 1) = log y + 1/(2y) - 1/(12y^2),
 * psi'(y + 1) = 1/y - 1/(2y^2)): only the Euler-Maclaurin terms need them,
 * to a few digits.
 */
static long double
lp_binom_dlog(long double x, long double n, long double p, long double q, long double *d2)
{
	long double y = n - x;

	if (d2)
		*d2 = -1.0L / x - 1.0L / y + 0.5L / (x * x) + 0.5L / (y * y);
	return logl((y * p) / (x * q)) + 0.5L / y - 0.5L / x
		- 1.0L / (12.0L * y * y) + 1.0L / (12.0L * x * x);
}

/* Gauss-Legendre nodes on [-1, 1] (positive half) and weights, 16 points. */
static const long double lp_gl_x[8] = {
	0.0950125098376374401853193L, 0.2816035507792589132304605L,
	0.4580167776572273863424194L, 0.6178762444026437484466718L,
	0.7554044083550030338951012L, 0.8656312023878317438804679L,
	0.9445750230732325760779884L, 0.9894009349916499325961542L
};
static const long double lp_gl_w[8] = {
	0.1894506104550684962853967L, 0.1826034150449235888667637L,
	0.1691565193950025381893121L, 0.1495959888165767320815017L,
	0.1246289712555338720524763L, 0.0951585116824927848099251L,
	0.0622535239386478928628438L, 0.0271524594117540948517806L
};

/*
 * The sum of the probabilities of a..n (dir 1) or 0..a (dir -1), where
 * they fall away from a, by Euler-Maclaurin: the integral of the
 * continuous extension f from a outward, plus f(a)/2 -/+ f'(a)/12
 * +/- f'''(a)/720, with f' = f s and f''' = f (s^3 + 3 s s') (+ f s'', of
 * order 1/x^2, left out), s = (log f)'.  Only for tails too wide to sum
 * (over 2^20 terms), where f changes by a factor e^(1/50000) a step at
 * most: the next term, f^(5)/30240, is then far below LP_SUM_EPS of the
 * sum.  The integral is taken in panels of 16-point Gauss-Legendre, each a
 * quarter standard deviation wide or across which f falls by e^2 at most,
 * until a panel adds less than LP_SUM_EPS of the sum.
 */
static long double
lp_binom_em(uint64_t a, uint64_t n, long double p, long double q, int dir)
{
	long double nn = (long double) n;
	long double sd = sqrtl(nn * p * q);
	long double x = (long double) a;
	long double fa = lp_binom_pmf(x, nn, p, q);
	long double sum = 0.0L;
	long double s1,
				s2,
				corr;
	uint32_t	steps = 0;

	s1 = lp_binom_dlog(x, nn, p, q, &s2);
	corr = fa / 2.0L - dir * fa * s1 / 12.0L
		+ dir * fa * (s1 * s1 * s1 + 3.0L * s1 * s2) / 720.0L;
	for (;;)
	{
		long double slope = fabsl(lp_binom_dlog(x, nn, p, q, NULL));
		long double w = sd / 4.0L;
		long double end,
					mid,
					half,
					panel = 0.0L;
		int			i;

		if (slope * w > 2.0L)
			w = 2.0L / slope;
		end = x + dir * w;
		if (end <= 0.0L || end >= nn)
			end = dir > 0 ? nn : 0.0L;
		mid = (x + end) / 2.0L;
		half = fabsl(end - x) / 2.0L;
		for (i = 0; i < 8; i++)
			panel += lp_gl_w[i] * (lp_binom_pmf(mid - half * lp_gl_x[i], nn, p, q) +
								   lp_binom_pmf(mid + half * lp_gl_x[i], nn, p, q));
		panel *= half;
		sum += panel;
		x = end;
		if (panel <= (sum + corr) * LP_SUM_EPS || x <= 0.0L || x >= nn)
			break;
		LP_CHECK_INTERRUPTS(steps);
	}
	return sum + corr;
}

/*
 * The sum of the probabilities of a, a + 1, ... (dir 1) or a, a - 1, ...
 * (dir -1), which fall from a on: term by term, each from the one before
 * by the ratio of neighbours, until what is left (at most t r / (1 - r)
 * after a term t, since the ratios r fall too) is below LP_SUM_EPS of the
 * sum; lp_binom_em past max_steps terms.
 */
static long double
lp_binom_sum(uint64_t a, uint64_t n, long double p, long double q, int dir,
			 uint64_t max_steps)
{
	long double nn = (long double) n;
	long double t = lp_binom_pmf((long double) a, nn, p, q);
	long double sum = t;
	uint64_t	j = a;
	uint64_t	k;
	uint32_t	steps = 0;

	for (k = 0; t > 0.0L; k++)
	{
		long double r;

		if (dir > 0 ? j == n : j == 0)
			break;
		if (k >= max_steps)
			return lp_binom_em(a, n, p, q, dir);
		if (dir > 0)
			r = ((long double) (n - j) * p) / ((long double) (j + 1) * q);
		else
			r = ((long double) j * q) / ((long double) (n - j + 1) * p);
		t *= r;
		if (dir > 0)
			j++;
		else
			j--;
		sum += t;
		if (r < 1.0L && t * r <= (1.0L - r) * sum * LP_SUM_EPS)
			break;
		LP_CHECK_INTERRUPTS(steps);
	}
	return sum;
}

/* See lp_compare.h. */
double
lp_binom_sf_steps(uint64_t k, uint64_t n, long double p, long double q, uint64_t max_steps)
{
	long double r;

	if (k == 0)
		return 1.0;
	if (k > n)
		return 0.0;
	/*
	 * From k on up when k is at least the mean (the terms fall from k: k >
	 * np - q); else 1 minus the sum from k - 1 down (they fall from k - 1:
	 * k - 1 < np < (n + 1) p).  Either sum is at most about a half, so the
	 * subtraction loses nothing.
	 */
	if ((long double) k >= (long double) n * p)
		r = lp_binom_sum(k, n, p, q, 1, max_steps);
	else
		r = 1.0L - lp_binom_sum(k - 1, n, p, q, -1, max_steps);
	if (r > 1.0L)
		return 1.0;
	if (r < 0.0L)
		return 0.0;
	return (double) r;
}

/* See lp_compare.h. */
double
lp_binom_sf(uint64_t k, uint64_t n, long double p, long double q)
{
	return lp_binom_sf_steps(k, n, p, q, LP_BINOM_MAX_STEPS);
}

/* ---------- one route compared ---------- */

/* See lp_compare.h. */
int64_t
lp_compare_p95(const lp_route_view *rv)
{
	uint64_t	rank = lp_rank_pct(rv->total, 95);
	int64_t		v;

	lp_view_ranks(rv, &rank, &v, 1);
	return v;
}

/* See lp_compare.h. */
void
lp_compare_views(const lp_route_view *before, const lp_route_view *after,
				 lp_compare_row *out)
{
	lp_pair_iter ib,
				ia;
	int64_t		vb = 0,
				va = 0;
	uint64_t	cb = 0,
				ca = 0;
	int			hb,
				ha;
	uint32_t	steps = 0;
	lp_mwu		m;

	out->n_before = before->total;
	out->n_after = after->total;
	out->p95_before = lp_compare_p95(before);
	out->p95_after = lp_compare_p95(after);
	out->above = 0;

	/* one merge walk of both routes' pairs in value order */
	lp_mwu_init(&m);
	lp_pairs_begin(before, &ib);
	lp_pairs_begin(after, &ia);
	hb = lp_pairs_next(&ib, &vb, &cb);
	ha = lp_pairs_next(&ia, &va, &ca);
	while (hb || ha)
	{
		LP_CHECK_INTERRUPTS(steps);
		if (hb && (!ha || vb < va))
		{
			lp_mwu_group(&m, cb, 0);
			hb = lp_pairs_next(&ib, &vb, &cb);
		}
		else if (!hb || va < vb)
		{
			lp_mwu_group(&m, 0, ca);
			if (va > out->p95_before)
				out->above += ca;
			ha = lp_pairs_next(&ia, &va, &ca);
		}
		else
		{
			lp_mwu_group(&m, cb, ca);
			if (va > out->p95_before)
				out->above += ca;
			hb = lp_pairs_next(&ib, &vb, &cb);
			ha = lp_pairs_next(&ia, &va, &ca);
		}
	}
	out->slower_share = lp_mwu_share(&m);
	out->p_value = lp_mwu_p_value(&m);
	out->tail_p_value = lp_binom_sf(out->above, out->n_after, LP_TAIL_P, LP_TAIL_Q);
}
