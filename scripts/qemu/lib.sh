# shellcheck shell=bash
# Shared helpers for the VM harness: cache location, Debian package
# installation, per-arch settings. Sourced, never run.

ITRACE_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Called from `make vm ARCH=ppc64le`: that ARCH is not kbuild's; every
# kernel make here sets ARCH itself.
unset MAKEFLAGS MAKEOVERRIDES MFLAGS ARCH
ITRACE_ARCH=${ITRACE_ARCH:-x86_64}
# ITRACE_KVARIANT: empty for the test kernel, "debug" for the same kernel
# with KASAN, lockdep, kmemleak and friends (`make check-debug`), "stock"
# for Debian's own kernel of the ITRACE_KVER line, no kdb, the module
# built against its linux-headers package (stock-kernel.sh).
ITRACE_KVARIANT=${ITRACE_KVARIANT:-}
# ITRACE_KVER: the Debian kernel source the test kernel is built from,
# linux-source-$ITRACE_KVER: 6.1 (default) or 6.12, the two lines Debian
# 12 (bookworm) ships; 5.10, Debian 11's (bullseye); 7.3, Debian 13's
# backports (trixie-backports). The last two come from their own suites
# through a private apt configuration under the cache (suite_apt).
ITRACE_KVER=${ITRACE_KVER:-6.1}
ITRACE_CACHE=${ITRACE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kdb-itrace}

say() { printf '[itrace] %s\n' "$*" >&2; }
die() { printf '[itrace] error: %s\n' "$*" >&2; exit 1; }

# Two VM lanes (tests/run-all.sh) may install at the same time: apt
# waits for the other's dpkg lock instead of failing at once.
APT_LOCKWAIT=(-o DPkg::Lock::Timeout=600)
apt_install() {
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		"${APT_LOCKWAIT[@]}" --no-install-recommends "$@" >&2
}

# apt_update [APT-GET-OPTION...]: apt-get update, where one index that
# fails is no reason to stop. A mirror caught mid-sync serves an index
# whose size its Release file does not give ("File has unexpected
# size ... Mirror sync in progress?": seen with bookworm-security's
# ppc64el Packages), and apt-get then exits 100 though every other list
# is fresh. The install or download that follows says so if a package
# it needs is really missing; a warning here names the cause.
apt_update() {
	apt-get "$@" -qq "${APT_LOCKWAIT[@]}" update >&2 ||
		say "warning: apt-get update reported errors (above); going on with the lists it has"
}

# unfetched_index SUITE ARCH: the archives (codenames, one per line) of
# apt's lists for SUITE (suite_apt's; "" this machine's) whose Release
# names a main Packages index for ARCH (amd64, ppc64el) that apt does not
# have: the index apt_update let fail. A package only that index lists
# is then missing for a reason outside this tree (stock-kernel.sh says
# so and skips), not because no such package exists. apt-get indextargets
# lists the indexes present; each one's Release sits beside it.
unfetched_index() {
	local suite=$1 arch=$2 have code f rel
	have=$(suite_apt "$suite" apt-get indextargets \
		--format '$(CODENAME) $(ARCHITECTURE) $(FILENAME)' 'Identifier: Packages') ||
		return 0
	for code in $(awk '{ print $1 }' <<<"$have" | sort -u); do
		! grep -q "^$code $arch " <<<"$have" || continue
		f=$(awk -v c="$code" '$1 == c { print $3; exit }' <<<"$have")
		rel=$(sed 's/_main_binary-[^_]*_Packages.*$//' <<<"$f")
		for f in "${rel}_InRelease" "${rel}_Release"; do
			[ -e "$f" ] || continue
			! grep -q " main/binary-$arch/Packages" "$f" || echo "$code"
			break
		done
	done
}

# need_pkgs PKG...: install missing Debian packages when root, else
# print the exact apt command and stop.
need_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		die "missing packages; run: sudo apt-get install -y ${missing[*]}"
	fi
	say "installing: ${missing[*]}"
	if [ ! -e "$ITRACE_CACHE/.apt-updated" ]; then
		apt_update
		mkdir -p "$ITRACE_CACHE" && touch "$ITRACE_CACHE/.apt-updated"
	fi
	apt_install "${missing[@]}" ||
		{ apt_update && apt_install "${missing[@]}"; } ||
		die "apt-get install ${missing[*]} failed"
}

# Per-arch settings.
case "$ITRACE_ARCH" in
x86_64)
	KARCH=x86
	KCROSS=
	KIMAGE=arch/x86/boot/bzImage
	KTARGETS="bzImage modules"
	QEMU=qemu-system-x86_64
	QEMU_PKG=qemu-system-x86
	CONSOLE=ttyS0
	TARGET_CC=gcc
	# the target's shared libraries on this host, and their directory
	# in the guest (Debian's multiarch path, the loader's default)
	TARGET_LIBS=/lib/x86_64-linux-gnu
	GUEST_LIBDIR=/lib/x86_64-linux-gnu
	# what `itrace` reports for block mode under qemu TCG
	ITRACE_BLOCK_IMPL="software: BTF not honoured"
	;;
ppc64le)
	KARCH=powerpc
	KCROSS=powerpc64le-linux-gnu-
	KIMAGE=vmlinux
	KTARGETS="vmlinux modules"
	QEMU=qemu-system-ppc64
	QEMU_PKG=qemu-system-ppc
	CONSOLE=hvc0
	TARGET_CC=powerpc64le-linux-gnu-gcc
	TARGET_LIBS=/usr/powerpc64le-linux-gnu/lib
	GUEST_LIBDIR=/lib/powerpc64le-linux-gnu
	ITRACE_BLOCK_IMPL="MSR_BE branch trace, CFAR"
	;;
*)
	die "unknown ITRACE_ARCH '$ITRACE_ARCH' (x86_64 or ppc64le)"
	;;
esac

case "$ITRACE_KVARIANT" in
"") ;;
debug)
	# KASAN, lockdep and kmemleak make the guest 5 (x86_64) to 10
	# (ppc64le) times slower under TCG; the timeouts, which have room,
	# need 3 times theirs. The one knob every VM timeout is multiplied by.
	ITRACE_TIME_SCALE=${ITRACE_TIME_SCALE:-3}
	;;
stock) ;;
*) die "unknown ITRACE_KVARIANT '$ITRACE_KVARIANT' (empty, debug or stock)" ;;
esac
# The front-ends the module finds there (`itrace status`): Debian's own
# kernels have no kdb; POWER's (the test kernels and Debian's) have xmon.
ITRACE_FRONTENDS="kdb debugfs"
[ "$ITRACE_KVARIANT" != stock ] || ITRACE_FRONTENDS=debugfs
[ "$ITRACE_ARCH" != ppc64le ] || ITRACE_FRONTENDS="$ITRACE_FRONTENDS xmon"
export ITRACE_FRONTENDS
# Where the module under test comes from: kbuild directly, or DKMS
# (dkms-build.sh) as a user installs it: on Debian's own amd64 kernels,
# and on the x86_64 7.3 test kernel (DKMS against a kernel build tree).
# DKMS does not cross-build: ppc64le is kbuild's.
ITRACE_VIA_DKMS=0
if [ "$ITRACE_ARCH" = x86_64 ] && { [ "$ITRACE_KVARIANT" = stock ] ||
	{ [ "$ITRACE_KVER" = 7.3 ] && [ -z "$ITRACE_KVARIANT" ]; }; }; then
	ITRACE_VIA_DKMS=1
fi
ITRACE_TIME_SCALE=${ITRACE_TIME_SCALE:-1}
[[ $ITRACE_TIME_SCALE =~ ^[1-9][0-9]*$ ]] ||
	die "ITRACE_TIME_SCALE must be a whole number >= 1"
# KSUITE: the Debian suite of the kernel line (its source, its own
# kernel and headers); "" for this machine's own (bookworm's) archive.
line_suite() { # line_suite LINE: its suite, "" for bookworm's own
	case $1 in
	6.1 | 6.12) echo "" ;;
	5.10) echo bullseye ;;
	7.3) echo trixie-backports ;;
	*) return 1 ;;
	esac
}
KSUITE=$(line_suite "$ITRACE_KVER") ||
	die "unknown ITRACE_KVER '$ITRACE_KVER' (5.10, 6.1, 6.12 or 7.3)"
export ITRACE_KVARIANT ITRACE_TIME_SCALE ITRACE_KVER
# Arch, kernel line (when not the default 6.1) and variant: names the
# kernel cache dir and the build/ subdir, so one kernel's objects never
# clobber another's: x86_64, x86_64-6.12, ppc64le-debug, ...
ITRACE_FLAVOUR=$ITRACE_ARCH
[ "$ITRACE_KVER" = 6.1 ] || ITRACE_FLAVOUR+=-$ITRACE_KVER
ITRACE_FLAVOUR+=${ITRACE_KVARIANT:+-$ITRACE_KVARIANT}
ITRACE_BUILD=$ITRACE_TOP/build/$ITRACE_FLAVOUR

# binutils for the target's binaries (objdump, nm)
ITRACE_TOOLS=$KCROSS
export ITRACE_BLOCK_IMPL ITRACE_TOOLS

KSRC_PKG=linux-source-$ITRACE_KVER

# suite_apt SUITE apt-get|apt-cache ARGS...: apt with a private
# configuration for another Debian suite (its lists and downloads under
# $ITRACE_CACHE/apt/SUITE), never the machine's own sources. SUITE is a
# release (bullseye) or a release's extra archive (trixie-backports), with
# the release's security archive; "" is this machine's own apt. Reads the
# lists once; `apt-get update`
# there again with ITRACE_APT_UPDATE=1.
suite_apt() {
	local suite=$1 tool=$2 d rel
	shift 2
	if [ -z "$suite" ]; then
		# "": this machine's own archive
		local sandbox=()
		[ "$(id -u)" -ne 0 ] || sandbox=(-o APT::Sandbox::User=root)
		"$tool" "${sandbox[@]}" "$@"
		return
	fi
	d=$ITRACE_CACHE/apt/$suite
	rel=${suite%%-*}
	local opts=(-o "Dir::Etc::sourcelist=$d/sources.list"
		-o Dir::Etc::sourceparts=- -o "Dir::State::Lists=$d/lists"
		-o "Dir::Cache::archives=$d/archives" -o Dir::Cache::pkgcache=
		-o Dir::Cache::srcpkgcache= -o Dir::State::status=/var/lib/dpkg/status
		-o APT::Get::List-Cleanup=0 -o Debug::NoLocking=1 -o APT::Architecture=amd64
		-o APT::Architectures::=amd64 -o APT::Architectures::=ppc64el)
	[ "$(id -u)" -ne 0 ] || opts+=(-o APT::Sandbox::User=root)
	if [ ! -e "$d/.updated" ] || [ "${ITRACE_APT_UPDATE:-0}" = 1 ]; then
		mkdir -p "$d/lists/partial" "$d/archives/partial"
		local key=/usr/share/keyrings/debian-archive-keyring.gpg
		{
			echo "deb [signed-by=$key] http://deb.debian.org/debian $rel main"
			[ "$suite" = "$rel" ] ||
				echo "deb [signed-by=$key] http://deb.debian.org/debian $suite main"
			echo "deb [signed-by=$key] http://deb.debian.org/debian-security $rel-security main"
		} >"$d/sources.list"
		say "reading the package lists of Debian $suite (private apt configuration in $d)"
		apt_update "${opts[@]}"
		touch "$d/.updated"
	fi
	"$tool" "${opts[@]}" "$@"
}
# suite_download SUITE DIR PKG[=VER]...: those packages' .debs into DIR
suite_download() {
	local suite=$1 dir=$2
	shift 2
	mkdir -p "$dir"
	(cd "$dir" && suite_apt "$suite" apt-get download -q "$@" >&2) ||
		die "apt-get download $* from $suite failed"
}
# in_kernel_root CMD...: CMD where Debian's own kernel of this line is
# built against: here for bookworm's, in a root of its own release for
# the others (suite-root.sh: their headers want their compiler), where
# this checkout and the cache are at their own paths. KDIR paths given to
# CMD are the root's (kernel_root_path).
in_kernel_root() {
	if [ "$ITRACE_KVARIANT" = stock ] && [ -n "$KSUITE" ]; then
		"$ITRACE_TOP/scripts/qemu/suite-root.sh" --run "$KSUITE" \
			env ITRACE_CACHE="$ITRACE_CACHE" ITRACE_ARCH="$ITRACE_ARCH" \
			ITRACE_KVER="$ITRACE_KVER" ITRACE_KVARIANT="$ITRACE_KVARIANT" "$@"
	else
		"$@"
	fi
}
# kernel_root_path PATH: PATH (under a suite root) as in_kernel_root's
# commands see it
kernel_root_path() {
	if [ "$ITRACE_KVARIANT" = stock ] && [ -n "$KSUITE" ]; then
		echo "${1#"$ITRACE_CACHE/root/$KSUITE"}"
	else
		echo "$1"
	fi
}
# kernel_src_version: the version of linux-source-$ITRACE_KVER that the
# test kernel is built from: bookworm's installed one, or the candidate of
# the other suite's lists
kernel_src_version() {
	if [ -z "$KSUITE" ]; then
		dpkg-query -W -f='${Version}' "$KSRC_PKG"
	else
		suite_apt "$KSUITE" apt-cache policy "$KSRC_PKG" |
			sed -n 's/^  Candidate: //p'
	fi
}
# kernel_src_tarball: the path of the source tarball (fetched into the
# cache from another suite)
kernel_src_tarball() {
	local v d deb
	if [ -z "$KSUITE" ]; then
		echo "/usr/src/$KSRC_PKG.tar.xz"
		return
	fi
	v=$(kernel_src_version)
	d=$ITRACE_CACHE/debs/$KSRC_PKG-$v
	if [ ! -e "$d/$KSRC_PKG.tar.xz" ]; then
		say "fetching $KSRC_PKG $v from Debian $KSUITE"
		suite_download "$KSUITE" "$d" "$KSRC_PKG=$v"
		deb=$(echo "$d"/"$KSRC_PKG"_*.deb)
		dpkg-deb --fsys-tarfile "$deb" |
			tar -xO "./usr/src/$KSRC_PKG.tar.xz" >"$d/$KSRC_PKG.tar.xz.tmp" ||
			die "$deb has no usr/src/$KSRC_PKG.tar.xz"
		mv "$d/$KSRC_PKG.tar.xz.tmp" "$d/$KSRC_PKG.tar.xz"
		rm -f "$deb"
	fi
	echo "$d/$KSRC_PKG.tar.xz"
}

# Config fragments merged onto tinyconfig, in order (later ones win):
# what every test kernel needs, the arch's own, then the variant's.
kernel_frags() {
	local d="$ITRACE_TOP/scripts/qemu/config"
	printf '%s\n' "$d/common.config" "$d/$ITRACE_ARCH.config"
	[ -z "$ITRACE_KVARIANT" ] ||
		printf '%s\n' "$d/$ITRACE_KVARIANT.config" \
			"$d/$ITRACE_ARCH-$ITRACE_KVARIANT.config"
}

# The kernel build dir is keyed by source version, arch, variant and the
# hash of everything that shapes its .config and build: the fragments'
# settings and build-kernel.sh's code, less their comments and blank
# lines (a comment edit rebuilds nothing).
kernel_key() {
	local frags h
	mapfile -t frags < <(kernel_frags)
	h=$(cat "${frags[@]}" "$ITRACE_TOP/scripts/qemu/build-kernel.sh" |
		sed -e 's/^[[:space:]]*#.*//' -e '/^[[:space:]]*$/d' |
		sha256sum | cut -c1-12)
	echo "$ITRACE_FLAVOUR-$(kernel_src_version)-$h"
}
kernel_dir() { echo "$ITRACE_CACHE/kernel/$(kernel_key)"; }
# kbuild_pahole KDIR: the make argument an external module build against
# KDIR needs when that kernel was configured with no pahole on the
# machine (CONFIG_PAHOLE_VERSION=0): "no pahole" for kbuild too. Debian's
# 7.3 kbuild compares the two at every module build and warns when they
# differ, and one of Debian's linux-headers packages (6.12's) pulls pahole
# in, so on a fresh machine the order of kernel builds and header
# installs decided whether the style group saw that warning. The test
# kernels have no BTF: the module build never runs pahole.
kbuild_pahole() {
	if grep -qx 'CONFIG_PAHOLE_VERSION=0' "$1/.config" 2>/dev/null; then
		echo "PAHOLE=no-pahole-when-this-kernel-was-configured"
	fi
}
kernel_src_dir() { echo "$ITRACE_CACHE/src/linux-$(kernel_src_version)"; }
