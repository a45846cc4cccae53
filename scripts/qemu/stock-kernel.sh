#!/usr/bin/env bash
# stock-kernel.sh LINE: Debian's own amd64 kernel of LINE (6.1 or 6.12),
# as a Debian 12 user has it: the newest linux-image-<abi>-amd64 of that
# line in the archive, and its linux-headers-<abi>-amd64 installed the
# Debian way (/usr/src, /lib/modules/<release>/build), which is what DKMS
# builds against. These kernels have no kgdb/kdb: the module's front-end
# there is debugfs.
#
# Prints one line: RELEASE VMLINUZ HEADERS_DIR. The image is unpacked
# (never installed) under $ITRACE_CACHE/stock/<package version>/ and
# reused; the headers package is installed once (as root, like every
# package the harness needs). Progress on stderr.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

line=${1:-}
case "$line" in
6.1) pat='^linux-image-6\.1\.0-[0-9]+-amd64$' ;;
6.12) pat='^linux-image-6\.12\.[0-9]+\+deb12-amd64$' ;;
*) die "usage: stock-kernel.sh 6.1|6.12" ;;
esac
[ "$ITRACE_ARCH" = x86_64 ] ||
	die "stock kernels: amd64 only (Debian's ppc64el headers carry ppc64el build tools)"

# newest_pkg: the highest ABI of the line the package lists know
newest_pkg() {
	apt-cache search --names-only "$pat" | cut -d' ' -f1 | sort -V | tail -n1
}
pkg=$(newest_pkg)
if [ -z "$pkg" ] && [ "$(id -u)" -eq 0 ]; then
	apt-get update -qq >&2 || die "apt-get update failed"
	pkg=$(newest_pkg)
fi
[ -n "$pkg" ] || die "no package matches $pat (apt-get update?)"
release=${pkg#linux-image-}
need_pkgs "linux-headers-$release"
headers=/usr/src/linux-headers-$release
[ -e "$headers/Module.symvers" ] || die "$headers has no Module.symvers"

ver=$(apt-cache policy "$pkg" | sed -n 's/^  Candidate: //p')
dest=$ITRACE_CACHE/stock/$release-$ver
if [ ! -e "$dest/.itrace-fetched" ]; then
	say "stock kernel: apt-get download $pkg ($ver)"
	rm -rf "$dest"
	mkdir -p "$dest/deb"
	sandbox=()
	[ "$(id -u)" -ne 0 ] || sandbox=(-o APT::Sandbox::User=root)
	(cd "$dest/deb" && apt-get download -q "${sandbox[@]}" "$pkg=$ver" >&2) ||
		die "apt-get download $pkg=$ver failed"
	dpkg-deb -x "$dest"/deb/*.deb "$dest/root"
	[ -f "$dest/root/boot/vmlinuz-$release" ] ||
		die "$pkg has no boot/vmlinuz-$release"
	mv "$dest/root/boot/vmlinuz-$release" "$dest/vmlinuz"
	cp "$dest/root/boot/config-$release" "$dest/config"
	rm -rf "$dest/root" "$dest/deb"
	touch "$dest/.itrace-fetched"
fi
echo "$release $dest/vmlinuz $headers"
