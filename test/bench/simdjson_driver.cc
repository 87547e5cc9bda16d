/* test/bench/simdjson_driver.cc -- simdjson on the JSON lines of formats_driver: a yardstick for issue 23's 2x
 *
 *   make -C test/bench simdjson_driver        (needs Debian's libsimdjson-dev)
 *   test/bench/formats_driver --write 20000 caddy > /tmp/caddy.log
 *   valgrind --tool=callgrind --callgrind-out-file=/tmp/sj.out \
 *       test/bench/simdjson_driver --instr /tmp/caddy.log ts request.method request.uri duration status
 *   test/bench/simdjson_driver /tmp/caddy.log 7 ts request.method request.uri duration status
 *
 * Reads one JSON object a line with simdjson (the fastest validating JSON
 * parser we know of, its runtime-chosen kernel: "haswell" on an AVX2 CPU)
 * in two ways, each in a loop of its own, and takes the named paths
 * (dotted keys) of every line, as logp95's JSON formats do:
 *
 *   dom        parser.parse() of the whole line, which validates every
 *              byte of it (what logp95 promises: "anything that is not
 *              one JSON object is malformed"), then each path looked up
 *   ondemand   the On-Demand front end, which validates only what it
 *              visits: a value no path names is skipped by counting
 *              brackets, and the line's tail past the last path is not
 *              read; it accepts lines logp95 must refuse
 *
 * Each line is copied once, before the loops, into an arena with
 * SIMDJSON_PADDING bytes after it, so that neither loop copies.  With
 * --instr each loop runs once between CALLGRIND_ZERO_STATS and
 * CALLGRIND_DUMP_STATS_AT (one dump a loop, as formats_driver does);
 * otherwise each loop runs `repeats` times and the fastest ns a line is
 * printed.  Every line must parse and give every path, or the driver
 * fails: a bench that reads nothing would flatter simdjson.
 *
 * Not part of the tests or of the extension: docs/performance.md
 * ("Formats") quotes its figures.  C++ only because simdjson is.
 */
#include <simdjson.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_ZERO_STATS
#define CALLGRIND_DUMP_STATS_AT(s) ((void) (s))
#endif

using namespace simdjson;

struct Line
{
	size_t		off;
	size_t		len;
};

static std::vector<std::vector<std::string>> paths;

static double
now_ns()
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* a checksum of what a path gave: its string bytes or its number's value, so that no read is dead */
static uint64_t
sum_dom(dom::element e)
{
	switch (e.type())
	{
		case dom::element_type::STRING:
			{
				std::string_view s = e.get_string().value_unsafe();

				return s.size() + (s.empty() ? 0 : (unsigned char) s[0]);
			}
		case dom::element_type::DOUBLE:
			return (uint64_t) (e.get_double().value_unsafe() * 1e6);
		case dom::element_type::INT64:
			return (uint64_t) e.get_int64().value_unsafe();
		case dom::element_type::UINT64:
			return e.get_uint64().value_unsafe();
		default:
			return 1;
	}
}

__attribute__((noinline)) static uint64_t
loop_dom(const char *arena, const std::vector<Line> &lines)
{
	static dom::parser parser;
	uint64_t	sum = 0;

	for (const Line &l : lines)
	{
		dom::element doc;

		if (parser.parse(arena + l.off, l.len, false).get(doc) != SUCCESS)
		{
			fprintf(stderr, "simdjson_driver: dom refused line at byte %zu\n", l.off);
			exit(1);
		}
		for (const auto &p : paths)
		{
			dom::element e = doc;

			for (const std::string &k : p)
				if (e[k].get(e) != SUCCESS)
				{
					fprintf(stderr, "simdjson_driver: dom: a path is missing at byte %zu\n", l.off);
					exit(1);
				}
			sum += sum_dom(e);
		}
	}
	return sum;
}

/*
 * On-Demand: fields must be taken in the line's order for find_field; the
 * paths are taken by find_field_unordered, which goes round an object once
 * when a key is behind the cursor (as logp95 allows any key order).
 */
__attribute__((noinline)) static uint64_t
loop_ondemand(const char *arena, const std::vector<Line> &lines)
{
	static ondemand::parser parser;
	uint64_t	sum = 0;

	for (const Line &l : lines)
	{
		padded_string_view in(arena + l.off, l.len, l.len + SIMDJSON_PADDING);
		ondemand::document doc;

		if (parser.iterate(in).get(doc) != SUCCESS)
		{
			fprintf(stderr, "simdjson_driver: ondemand refused line at byte %zu\n", l.off);
			exit(1);
		}
		ondemand::object root;

		if (doc.get_object().get(root) != SUCCESS)
		{
			fprintf(stderr, "simdjson_driver: ondemand: not an object at byte %zu\n", l.off);
			exit(1);
		}
		for (const auto &p : paths)
		{
			ondemand::value v;
			ondemand::object o = root;
			size_t		i;

			for (i = 0; i + 1 < p.size(); i++)
				if (o.find_field_unordered(p[i]).get_object().get(o) != SUCCESS)
					break;
			if (i + 1 < p.size() || o.find_field_unordered(p[i]).get(v) != SUCCESS)
			{
				fprintf(stderr, "simdjson_driver: ondemand: a path is missing at byte %zu\n", l.off);
				exit(1);
			}
			ondemand::json_type t;

			if (v.type().get(t) != SUCCESS)
				exit(1);
			if (t == ondemand::json_type::string)
			{
				std::string_view s;

				if (v.get_string().get(s) != SUCCESS)
					exit(1);
				sum += s.size() + (s.empty() ? 0 : (unsigned char) s[0]);
			}
			else if (t == ondemand::json_type::number)
			{
				ondemand::number num;

				if (v.get_number().get(num) != SUCCESS)
					exit(1);
				if (num.is_double())
					sum += (uint64_t) (num.get_double() * 1e6);
				else if (num.is_int64())
					sum += (uint64_t) num.get_int64();
				else
					sum += num.get_uint64();
			}
			else
				sum += 1;
		}
	}
	return sum;
}

int
main(int argc, char **argv)
{
	bool		instr = argc > 1 && strcmp(argv[1], "--instr") == 0;
	int			a = instr ? 2 : 1;

	if (argc < a + 2)
	{
		fprintf(stderr, "usage: simdjson_driver [--instr] file [repeats] path...\n");
		return 2;
	}
	const char *file = argv[a++];
	int			reps = 1;

	if (!instr)
		reps = atoi(argv[a++]);
	for (; a < argc; a++)
	{
		std::vector<std::string> p;
		std::string s = argv[a];
		size_t		start = 0,
					dot;

		while ((dot = s.find('.', start)) != std::string::npos)
		{
			p.push_back(s.substr(start, dot - start));
			start = dot + 1;
		}
		p.push_back(s.substr(start));
		paths.push_back(p);
	}

	FILE	   *f = fopen(file, "rb");

	if (!f)
	{
		perror(file);
		return 1;
	}
	std::string text;
	char		buf[65536];
	size_t		n;

	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		text.append(buf, n);
	fclose(f);

	/* every line copied once into an arena, SIMDJSON_PADDING bytes after each */
	std::vector<Line> lines;
	std::vector<char> arena;
	size_t		bytes = 0;

	for (size_t s = 0; s < text.size();)
	{
		size_t		e = text.find('\n', s);

		if (e == std::string::npos)
			e = text.size();
		if (e > s)
		{
			lines.push_back({arena.size(), e - s});
			arena.insert(arena.end(), text.begin() + s, text.begin() + e);
			arena.insert(arena.end(), SIMDJSON_PADDING, '\0');
			bytes += e - s;
		}
		s = e + 1;
	}
	const char *base = arena.data();

	if (instr)
	{
		uint64_t	s1,
					s2;

		CALLGRIND_ZERO_STATS;
		s1 = loop_dom(base, lines);
		CALLGRIND_DUMP_STATS_AT("dom");
		CALLGRIND_ZERO_STATS;
		s2 = loop_ondemand(base, lines);
		CALLGRIND_DUMP_STATS_AT("ondemand");
		printf("%zu lines, %.0f bytes a line, kernel %s, checksums %llu %llu\n", lines.size(),
			   (double) bytes / lines.size(), get_active_implementation()->name().c_str(),
			   (unsigned long long) s1, (unsigned long long) s2);
		return s1 == s2 ? 0 : 1;
	}

	double		best_dom = 1e300,
				best_od = 1e300;
	uint64_t	s1 = 0,
				s2 = 0;

	for (int r = 0; r < reps; r++)
	{
		double		t0 = now_ns();

		s1 = loop_dom(base, lines);
		double		t1 = now_ns();

		s2 = loop_ondemand(base, lines);
		double		t2 = now_ns();

		if (t1 - t0 < best_dom)
			best_dom = t1 - t0;
		if (t2 - t1 < best_od)
			best_od = t2 - t1;
	}
	printf("%zu lines, %.0f bytes a line, kernel %s: dom %.1f ns a line, ondemand %.1f ns a line%s\n",
		   lines.size(), (double) bytes / lines.size(), get_active_implementation()->name().c_str(),
		   best_dom / lines.size(), best_od / lines.size(), s1 == s2 ? "" : " (checksums differ)");
	return s1 == s2 ? 0 : 1;
}
