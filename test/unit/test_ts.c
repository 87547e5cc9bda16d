/* test/unit/test_ts.c -- unit tests of the timestamp readers (lp_ts.c) */
#include "test_harness.h"

#include "lp_ts.h"

/* Parse a NUL-terminated ISO 8601 timestamp. */
static lp_ts_status
iso(const char *s, lp_ts *t)
{
	memset(t, 0xAB, sizeof(*t));
	return lp_ts_parse_iso(s, strlen(s), t);
}

/* Parse a NUL-terminated common-log-format time (the text between the brackets). */
static lp_ts_status
clf(const char *s, lp_ts *t)
{
	memset(t, 0xAB, sizeof(*t));
	return lp_ts_parse_clf(s, strlen(s), t);
}

/* Check one failing timestamp's status. */
static void
expect_fail(lp_ts_status got, lp_ts_status want, const char *what)
{
	CHECK_EQ_I(got, want, what);
}

/* ISO 8601: every field, fractions rounded half up at the seventh digit, offsets. */
void
test_ts_iso(void)
{
	lp_ts		t;

	CHECK_EQ_I(iso("2026-11-07T12:34:56", &t), LP_TS_OK, "iso: plain");
	CHECK(t.year == 2026 && t.month == 11 && t.day == 7 && t.hour == 12 &&
		  t.minute == 34 && t.second == 56 && t.usec == 0 && t.offset_sec == 0,
		  "iso: fields");
	CHECK_EQ_I(iso("2026-11-07T12:34:56.5Z", &t), LP_TS_OK, "iso: fraction and Z");
	CHECK_EQ_I(t.usec, 500000, "iso: .5 is 500000 us");
	CHECK_EQ_I(iso("2026-11-07T12:34:56.1234565", &t), LP_TS_OK, "iso: seven digits");
	CHECK_EQ_I(t.usec, 123457, "iso: the seventh digit rounds half up");
	CHECK_EQ_I(iso("2026-11-07T12:34:56.12345649999", &t), LP_TS_OK, "iso: many digits");
	CHECK_EQ_I(t.usec, 123456, "iso: digits after the seventh are dropped");
	CHECK_EQ_I(iso("2026-11-07T23:59:59.9999995", &t), LP_TS_OK, "iso: rounds up to a whole second");
	CHECK_EQ_I(t.usec, 1000000, "iso: usec 1000000 is left to the caller to carry");
	CHECK_EQ_I(iso("2026-11-07T12:00:00+02:00", &t), LP_TS_OK, "iso: +HH:MM");
	CHECK_EQ_I(t.offset_sec, 7200, "iso: +02:00 is 7200 s east");
	CHECK_EQ_I(iso("2026-11-07T12:00:00-0530", &t), LP_TS_OK, "iso: -HHMM");
	CHECK_EQ_I(t.offset_sec, -(5 * 3600 + 30 * 60), "iso: -0530");
	CHECK_EQ_I(iso("2026-11-07T12:00:00+15", &t), LP_TS_OK, "iso: +HH at the limit");
	CHECK_EQ_I(t.offset_sec, 15 * 3600, "iso: +15");
	CHECK_EQ_I(iso("2024-02-29T00:00:00", &t), LP_TS_OK, "iso: leap day");

	expect_fail(iso("", &t), LP_TS_MISSING, "iso: empty");
	expect_fail(iso("26-11-07T12:00:00", &t), LP_TS_SYNTAX, "iso: short year");
	expect_fail(iso("2026/11/07T12:00:00", &t), LP_TS_SYNTAX, "iso: slash");
	expect_fail(iso("2026-11-7T12:00:00", &t), LP_TS_SYNTAX, "iso: one-digit day");
	expect_fail(iso("2026-11-07", &t), LP_TS_SYNTAX, "iso: date only");
	expect_fail(iso("2026-11-07T12:0:00", &t), LP_TS_SYNTAX, "iso: short minute");
	expect_fail(iso("2026-11-07T12:00", &t), LP_TS_SYNTAX, "iso: no second");
	expect_fail(iso("2026-11-07T12:00:05.", &t), LP_TS_SYNTAX, "iso: empty fraction");
	expect_fail(iso("2026-11-07T12:00:05+2", &t), LP_TS_SYNTAX, "iso: +H");
	expect_fail(iso("2026-11-07T12:00:05+16:00", &t), LP_TS_RANGE, "iso: +16:00");
	expect_fail(iso("2026-11-07T12:00:05+02:60", &t), LP_TS_RANGE, "iso: minute 60 of an offset");
	expect_fail(iso("2026-11-07T12:00:05ms", &t), LP_TS_SYNTAX, "iso: trailing bytes");
	expect_fail(iso("0000-11-07T12:00:00", &t), LP_TS_RANGE, "iso: year 0");
	expect_fail(iso("2026-13-01T00:00:00", &t), LP_TS_RANGE, "iso: month 13");
	expect_fail(iso("2026-02-29T00:00:00", &t), LP_TS_RANGE, "iso: Feb 29 of 2026");
	expect_fail(iso("2026-04-31T00:00:00", &t), LP_TS_RANGE, "iso: April 31");
	expect_fail(iso("2026-11-07T24:00:00", &t), LP_TS_RANGE, "iso: hour 24");
	expect_fail(iso("2026-11-07T12:60:00", &t), LP_TS_RANGE, "iso: minute 60");
	expect_fail(iso("2026-11-07T12:00:60", &t), LP_TS_RANGE, "iso: second 60");
}

/* The first field of a default-format line: blanks before it, the rest of the line after it. */
void
test_ts_iso_field(void)
{
	static const char line[] = " \t2026-11-07T12:00:05Z GET /a 12\r";
	lp_ts		t;

	CHECK_EQ_I(lp_ts_parse_iso_field(line, strlen(line), &t), LP_TS_OK, "iso field: parsed");
	CHECK(slice_is(t.text, t.text_len, "2026-11-07T12:00:05Z"), "iso field: the text is the first field");
	CHECK_EQ_I(lp_ts_parse_iso_field("  \r", 3, &t), LP_TS_MISSING, "iso field: blank line");
	CHECK_EQ_I(lp_ts_parse_iso_field("x GET /a 1", 10, &t), LP_TS_SYNTAX, "iso field: not a timestamp");
	CHECK(slice_is(t.text, t.text_len, "x"), "iso field: the text is set on errors too");
}

/* Common log format: English months in any case, the offset required. */
void
test_ts_clf(void)
{
	lp_ts		t;

	CHECK_EQ_I(clf("07/Nov/2026:12:00:05 +0000", &t), LP_TS_OK, "clf: plain");
	CHECK(t.year == 2026 && t.month == 11 && t.day == 7 && t.hour == 12 &&
		  t.minute == 0 && t.second == 5 && t.offset_sec == 0, "clf: fields");
	CHECK_EQ_I(clf("01/jAN/2000:00:00:00 -0130", &t), LP_TS_OK, "clf: month in any case");
	CHECK(t.month == 1 && t.offset_sec == -5400, "clf: January, -01:30");
	CHECK_EQ_I(clf("31/Dec/1999:23:59:59 +1500", &t), LP_TS_OK, "clf: December, +1500");
	CHECK_EQ_I(t.month, 12, "clf: Dec is 12");

	expect_fail(clf("", &t), LP_TS_MISSING, "clf: empty");
	expect_fail(clf("7/Nov/2026:12:00:05 +0000", &t), LP_TS_SYNTAX, "clf: one-digit day");
	expect_fail(clf("07/Now/2026:12:00:05 +0000", &t), LP_TS_SYNTAX, "clf: Now");
	expect_fail(clf("07/Nov/26:12:00:05 +0000", &t), LP_TS_SYNTAX, "clf: short year");
	expect_fail(clf("07/Nov/2026 12:00:05 +0000", &t), LP_TS_SYNTAX, "clf: blank before the hour");
	expect_fail(clf("07/Nov/2026:12:00:05", &t), LP_TS_SYNTAX, "clf: no offset");
	expect_fail(clf("07/Nov/2026:12:00:05 +2400", &t), LP_TS_RANGE, "clf: +2400");
	expect_fail(clf("07/Nov/2026:12:00:05 +0000x", &t), LP_TS_SYNTAX, "clf: trailing bytes");
	expect_fail(clf("29/Feb/2026:12:00:05 +0000", &t), LP_TS_RANGE, "clf: Feb 29 of 2026");
	expect_fail(clf("07/Nov/2026:24:00:05 +0000", &t), LP_TS_RANGE, "clf: hour 24");
}

/* The calendar and the field names of error messages. */
void
test_ts_calendar(void)
{
	CHECK_EQ_I(lp_ts_days_in_month(2026, 2), 28, "days: Feb 2026");
	CHECK_EQ_I(lp_ts_days_in_month(2024, 2), 29, "days: Feb 2024");
	CHECK_EQ_I(lp_ts_days_in_month(1900, 2), 28, "days: Feb 1900 (not a leap year)");
	CHECK_EQ_I(lp_ts_days_in_month(2000, 2), 29, "days: Feb 2000 (a leap year)");
	CHECK_EQ_I(lp_ts_days_in_month(2026, 4), 30, "days: April");
	CHECK_EQ_I(lp_ts_days_in_month(2026, 12), 31, "days: December");
	CHECK_EQ_I(lp_ts_days_in_month(2026, 0), 0, "days: month 0");
	CHECK_EQ_I(lp_ts_days_in_month(2026, 13), 0, "days: month 13");
}
