# test/perl/LogP95/Libraries.pm -- released logp95 libraries beside the current one, in a private copy of the server
#
# For the tests that run a released library and the current one on the
# same cluster (test/t/042_formats_vs_1_1.pl): a private copy of the
# installation under test (the PostgreSQL of the pg_config in PATH, as
# test/prove.sh sets it), libraries stashed as directories (lib/logp95.so
# and extension/), released versions built from LP_RELEASED_SRC
# (test/lib/released.sh) with that pg_config, and a library put into the
# copy (the old files unlinked first, never overwritten in place).  The
# steps are those of test/t/041_upgrade_libraries.pl, which keeps its own.
package LogP95::Libraries;

use strict;
use warnings FATAL => 'all';

use Exporter 'import';
use File::Basename qw(dirname);
use File::Copy qw(copy);
use File::Path qw(make_path remove_tree);
use PostgreSQL::Test::Utils;
use Test::More;
use LogP95::TestLib;

our @EXPORT = qw(
  lp_released_commits
  lp_install_copy
  lp_library_stash
  lp_library_build
  lp_library_install
);

=pod

=item lp_released_commits()

The released versions' commits (version => commit) from
LP_RELEASED_SRC/RELEASES, or an empty list when LP_RELEASED_SRC is not
set (the caller skips).

=cut

sub lp_released_commits
{
	my $released = $ENV{LP_RELEASED_SRC};
	return () unless defined $released && -f "$released/RELEASES";
	return map { split ' ' } split /\n/, slurp_file("$released/RELEASES");
}

# One value of pg_config.
sub pg_config_value
{
	my ($pg_config, $what) = @_;
	my ($rc, $out) = lp_run_logged($pg_config, "--$what");
	die "$pg_config --$what failed: $out" if $rc;
	chomp $out;
	return $out;
}

=pod

=item lp_install_copy()

A private copy of the installation under test: returns a hash reference
with orig and copy (each { bindir, sharedir, pkglibdir }), pg_config (the
original's) and major (its major version).  PostgreSQL finds its share and
pkglib directories relative to its programs, so the longest common parent
of the three is what is copied.

=cut

sub lp_install_copy
{
	my $pg_config = pg_config_value('pg_config', 'bindir') . '/pg_config';
	my %orig = map { $_ => pg_config_value($pg_config, $_) } qw(bindir sharedir pkglibdir);
	my ($major) = pg_config_value($pg_config, 'version') =~ /^PostgreSQL (\d+)/;
	my @split = map { [ split m{/}, $orig{$_} ] } sort keys %orig;
	my @common;
	for (my $i = 0;; $i++)
	{
		my $part = $split[0][$i];
		last if !defined $part || grep { !defined $_->[$i] || $_->[$i] ne $part } @split;
		push @common, $part;
	}
	my $prefix = join('/', @common);
	my $inst = PostgreSQL::Test::Utils::tempdir('install');
	my %copy;
	for my $dir (sort keys %orig)
	{
		($copy{$dir} = $orig{$dir}) =~ s/^\Q$prefix\E/$inst/;
		make_path(dirname($copy{$dir}));
		my ($rc, $out) = lp_run_logged('cp', '-a', $orig{$dir}, $copy{$dir});
		die "cannot copy $orig{$dir} to $copy{$dir}: $out" if $rc;
	}
	return { orig => \%orig, copy => \%copy, pg_config => $pg_config, major => $major };
}

=pod

=item lp_library_stash(name, pkglibdir, sharedir)

A library as a directory holding lib/logp95.so and extension/ (its control
file and scripts), taken from installed directories.

=cut

sub lp_library_stash
{
	my ($name, $pkglibdir, $sharedir) = @_;
	my $dir = PostgreSQL::Test::Utils::tempdir("library-$name");
	make_path("$dir/lib", "$dir/extension");
	copy("$pkglibdir/logp95.so", "$dir/lib/logp95.so") or die "no $pkglibdir/logp95.so: $!";
	my @ext = (glob("$sharedir/extension/logp95.control"), glob("$sharedir/extension/logp95--*.sql"));
	die "no logp95 control file in $sharedir/extension" unless grep { /\.control$/ } @ext;
	copy($_, "$dir/extension/") or die "cannot copy $_: $!" for @ext;
	return $dir;
}

=pod

=item lp_library_build(version, commit, inst)

Build released version VERSION (its tree in LP_RELEASED_SRC) with the
pg_config under test (warnings not errors: a released source is what it
is), install it into a staging directory and stash it; one TAP assertion.
INST is what lp_install_copy returned.

=cut

sub lp_library_build
{
	my ($version, $commit, $inst) = @_;
	my $tree = PostgreSQL::Test::Utils::tempdir("src-$version");
	my $stage = PostgreSQL::Test::Utils::tempdir("stage-$version");
	my ($rc, $out) = lp_run_logged('cp', '-a', "$ENV{LP_RELEASED_SRC}/$version/.", $tree);
	die "cannot copy $ENV{LP_RELEASED_SRC}/$version: $out" if $rc;
	($rc, $out) = lp_run_logged('make', '-s', '-C', $tree, '-j2', "PG_CONFIG=$inst->{pg_config}", 'PG_CFLAGS=');
	($rc, $out) = lp_run_logged('make', '-s', '-C', $tree, "PG_CONFIG=$inst->{pg_config}", "DESTDIR=$stage", 'install')
	  unless $rc;
	ok($rc == 0, "the $version library ($commit) builds and installs on PostgreSQL $inst->{major}")
	  or diag($out);
	die "cannot go on without the $version library" if $rc;
	return lp_library_stash($version, "$stage$inst->{orig}{pkglibdir}", "$stage$inst->{orig}{sharedir}");
}

=pod

=item lp_library_install(dir, inst)

Put the library stashed in DIR into the private copy: the old files are
unlinked first (a backend that has the old logp95.so mapped keeps it),
then copied.

=cut

sub lp_library_install
{
	my ($from, $inst) = @_;
	my %copy = %{ $inst->{copy} };
	unlink("$copy{pkglibdir}/logp95.so", "$copy{pkglibdir}/bitcode/logp95.index.bc",
		glob("$copy{sharedir}/extension/logp95.control"),
		glob("$copy{sharedir}/extension/logp95--*.sql"));
	remove_tree("$copy{pkglibdir}/bitcode/logp95");
	copy("$from/lib/logp95.so", "$copy{pkglibdir}/logp95.so") or die "cannot install $from: $!";
	for my $f (glob("$from/extension/*"))
	{
		copy($f, "$copy{sharedir}/extension/") or die "cannot install $f: $!";
	}
	return;
}

1;
