#!/usr/bin/env bash
# suite-root.sh SUITE [PKG...]: a minimal Debian root of another release
# under $ITRACE_CACHE/root/SUITE, with PKG... installed by that root's
# own apt from SUITE (a release, or a release's extra archive such as
# trixie-backports): the machine a user of that release has. Debian's own
# 5.10 and 7.3 headers name their release's compiler (gcc-10, gcc-14;
# this machine has gcc-12): DKMS builds against them run in here, as on
# that user's machine (stock-kernel.sh, dkms-build.sh). Made once by
# debootstrap (about 2 minutes), packages added when missing. Prints the
# root's path; progress on stderr.
#
# suite-root.sh --run SUITE CMD...: CMD inside it (chroot), with /proc
# mounted and this checkout and the cache bound at their own paths.
# Root only: debootstrap and chroot are.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

run=
[ "${1:-}" != --run ] || { run=1; shift; }
[ $# -ge 1 ] || die "usage: suite-root.sh [--run] SUITE [PKG... | CMD...]"
suite=$1
shift
rel=${suite%%-*}
root=$ITRACE_CACHE/root/$suite
[ "$(id -u)" -eq 0 ] || die "suite-root.sh: debootstrap and chroot need root"

# in_root CMD...: CMD in the root, its mounts undone however it ends
in_root() {
	local m
	mkdir -p "$root$ITRACE_TOP" "$root$ITRACE_CACHE"
	mount -t proc proc "$root/proc"
	mount --bind "$ITRACE_TOP" "$root$ITRACE_TOP"
	mount --bind "$ITRACE_CACHE" "$root$ITRACE_CACHE"
	# shellcheck disable=SC2317 # run by the trap
	undo() {
		for m in "$ITRACE_CACHE" "$ITRACE_TOP" /proc; do
			umount "$root$m" 2>/dev/null || umount -l "$root$m" || true
		done
	}
	trap undo EXIT
	chroot "$root" "$@"
}

if [ ! -e "$root/.itrace-made" ]; then
	need_pkgs debootstrap
	say "making a Debian $rel root for $suite in $root (debootstrap, about 2 minutes)"
	rm -rf "$root"
	mkdir -p "$(dirname "$root")"
	debootstrap --variant=minbase --include=make,dkms,kmod,libelf-dev,xz-utils \
		"$rel" "$root" http://deb.debian.org/debian >"$root.log" 2>&1 ||
		{ tail -5 "$root.log" >&2; die "debootstrap $rel failed (log: $root.log)"; }
	{
		echo "deb http://deb.debian.org/debian $rel main"
		[ "$suite" = "$rel" ] || echo "deb http://deb.debian.org/debian $suite main"
		echo "deb http://deb.debian.org/debian-security $rel-security main"
	} >"$root/etc/apt/sources.list"
	cp /etc/resolv.conf "$root/etc/resolv.conf"
	# an index that fails is no reason to stop (lib.sh's apt_update)
	(in_root apt-get update -qq) >&2 ||
		say "warning: apt-get update in $root reported errors; going on with the lists it has"
	touch "$root/.itrace-made"
fi
if [ -n "$run" ]; then
	in_root "$@"
	exit
fi
missing=()
for p in "$@"; do
	chroot "$root" dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	say "installing in the $suite root: ${missing[*]}"
	(in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends "${missing[@]}") >&2 ||
		die "apt-get install ${missing[*]} in $root failed"
fi
echo "$root"
