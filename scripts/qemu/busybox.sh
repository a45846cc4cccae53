#!/usr/bin/env bash
# busybox.sh: prints the path of a static busybox for $ITRACE_ARCH (the
# default BUSYBOX of build-initramfs.sh), fetching it first if needed.
#
#   x86_64   /bin/busybox from Debian's busybox-static (installed if missing)
#   ppc64le  Debian's busybox-static:ppc64el, unpacked (never installed)
#            under $ITRACE_CACHE/busybox/ppc64le/. The first run, as root:
#              dpkg --add-architecture ppc64el   (if not yet added)
#              apt-get update                    (after adding it)
#              apt-get download busybox-static:ppc64el
#              dpkg-deb -x busybox-static_*_ppc64el.deb $ITRACE_CACHE/...
#            Later runs reuse the unpacked binary without touching apt
#            (delete $ITRACE_CACHE/busybox/ppc64le to fetch again).
#
# Every step is reported on stderr; only the path goes to stdout.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

case "$ITRACE_ARCH" in
x86_64)
	need_pkgs busybox-static
	echo /bin/busybox
	exit 0
	;;
ppc64le) debarch=ppc64el ;;
*) die "busybox.sh: no busybox source for $ITRACE_ARCH" ;;
esac

dest=$ITRACE_CACHE/busybox/$ITRACE_ARCH
bb=$dest/bin/busybox
if [ -e "$dest/.itrace-fetched" ] && [ -x "$bb" ]; then
	echo "$bb"
	exit 0
fi

# Parallel first runs: one fetches, the others wait and reuse.
mkdir -p "$ITRACE_CACHE/busybox"
exec 9>"$ITRACE_CACHE/busybox/.lock"
flock 9
if [ -e "$dest/.itrace-fetched" ] && [ -x "$bb" ]; then
	echo "$bb"
	exit 0
fi

pkg=busybox-static:$debarch
if ! dpkg --print-foreign-architectures | grep -qx "$debarch"; then
	[ "$(id -u)" -eq 0 ] || die "the $debarch architecture is not enabled in dpkg; run once:
  sudo dpkg --add-architecture $debarch && sudo apt-get update
then run $0 again (it only downloads, it installs nothing)"
	say "busybox: dpkg --add-architecture $debarch (for apt-get download $pkg)"
	dpkg --add-architecture "$debarch"
	# The package lists must now include the new architecture.
	say "busybox: apt-get update"
	apt_update
fi

tmp=$(mktemp -d "$ITRACE_CACHE/busybox/fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# As root, apt-get download would switch to the _apt user, which cannot
# write under a 0700 home (a warning, then it downloads as root anyway).
sandbox=()
[ "$(id -u)" -ne 0 ] || sandbox=(-o APT::Sandbox::User=root)
fetch() { (cd "$tmp" && apt-get download -q "${sandbox[@]}" "$pkg" >&2); }
say "busybox: apt-get download $pkg (into $tmp)"
if ! fetch; then
	[ "$(id -u)" -eq 0 ] || die "apt-get download $pkg failed; the package lists may be stale: run 'sudo apt-get update' and retry"
	say "busybox: download failed, apt-get update and one more try"
	apt_update
	fetch || die "apt-get download $pkg failed (is the $debarch archive reachable?)"
fi
deb=$(find "$tmp" -maxdepth 1 -name "busybox-static_*_$debarch.deb" | head -n1)
[ -n "$deb" ] || die "apt-get download left no busybox-static_*_$debarch.deb in $tmp"
ver=$(dpkg-deb -f "$deb" Version)
say "busybox: dpkg-deb -x $(basename "$deb") $dest"
rm -rf "$tmp/root"
dpkg-deb -x "$deb" "$tmp/root"
[ -x "$tmp/root/bin/busybox" ] || die "$(basename "$deb") has no bin/busybox"
if command -v file >/dev/null; then
	info=$(file -L "$tmp/root/bin/busybox")
	case "$info" in
	*64-bit\ LSB*PowerPC*statically\ linked*) ;;
	*) die "unexpected busybox binary in $(basename "$deb"): $info" ;;
	esac
fi
rm -rf "$dest"
mkdir -p "$dest/bin"
install -m 0755 "$tmp/root/bin/busybox" "$bb"
echo "$ver" >"$dest/.itrace-fetched"
say "busybox: $pkg $ver cached as $bb"
echo "$bb"
