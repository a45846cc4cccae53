#!/usr/bin/env bash
# stock-kernel.sh LINE: Debian's own kernel of LINE (6.1 or 6.12) for
# $ITRACE_ARCH, as a Debian 12 user has it: the newest
# linux-image-<abi>-<flavour> of that line in the archive (amd64, or
# powerpc64le from the ppc64el archive), and its linux-headers package.
# These kernels have no kgdb/kdb: the module's front-end there is
# debugfs.
#
#   x86_64   the headers installed the Debian way (/usr/src,
#            /lib/modules/<release>/build), which DKMS builds against
#   ppc64le  the ppc64el headers unpacked (never installed) under the
#            cache, with the host's own linux-kbuild (amd64 build tools)
#            and linux-headers-<abi>-common installed: a cross build
#            against them is what Debian's packages allow (DKMS does
#            not cross-build)
#
# Prints one line: RELEASE KERNEL_IMAGE HEADERS_DIR. The image is
# unpacked (never installed) under $ITRACE_CACHE/stock/ and reused.
# Progress on stderr.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

line=${1:-}
case "$ITRACE_ARCH" in
x86_64) flavour=amd64 debarch= image=vmlinuz ;;
ppc64le) flavour=powerpc64le debarch=:ppc64el image=vmlinux ;;
esac
case "$line" in
6.1) pat="^linux-image-6\.1\.0-[0-9]+-$flavour\$" ;;
6.12) pat="^linux-image-6\.12\.[0-9]+\+deb12-$flavour\$" ;;
*) die "usage: stock-kernel.sh 6.1|6.12" ;;
esac

# newest_pkg: the highest ABI of the line the package lists know
newest_pkg() {
	apt-cache search --names-only "$pat" | cut -d' ' -f1 | sort -V | tail -n1
}
# The ppc64el lists come with that architecture (busybox.sh adds it).
[ -z "$debarch" ] || "$ITRACE_TOP/scripts/qemu/busybox.sh" >/dev/null
pkg=$(newest_pkg)
if [ -z "$pkg" ] && [ "$(id -u)" -eq 0 ]; then
	apt-get update -qq "${APT_LOCKWAIT[@]}" >&2 || die "apt-get update failed"
	pkg=$(newest_pkg)
fi
[ -n "$pkg" ] || die "no package matches $pat (apt-get update?)"
release=${pkg#linux-image-}
abi=${release%-"$flavour"}
ver=$(apt-cache policy "$pkg$debarch" | sed -n 's/^  Candidate: //p')
dest=$ITRACE_CACHE/stock/$release-$ver

# download PKG...: apt-get download into $dest/deb
download() {
	local sandbox=()
	[ "$(id -u)" -ne 0 ] || sandbox=(-o APT::Sandbox::User=root)
	mkdir -p "$dest/deb"
	(cd "$dest/deb" && apt-get download -q "${sandbox[@]}" "$@" >&2) ||
		die "apt-get download $* failed"
}

if [ -z "$debarch" ]; then
	need_pkgs "linux-headers-$release"
	headers=/usr/src/linux-headers-$release
else
	# The common headers and the build tools, for this host.
	kbuild=linux-kbuild-$abi
	[ "$line" != 6.1 ] || kbuild=linux-kbuild-6.1
	need_pkgs "linux-headers-$abi-common" "$kbuild"
	headers=$dest/headers
fi

if [ ! -e "$dest/.itrace-fetched" ]; then
	say "stock kernel: apt-get download $pkg$debarch ($ver)"
	rm -rf "$dest"
	download "$pkg$debarch=$ver"
	[ -z "$debarch" ] || download "linux-headers-$release$debarch=$ver"
	for d in "$dest"/deb/*.deb; do
		dpkg-deb -x "$d" "$dest/root"
	done
	[ -f "$dest/root/boot/$image-$release" ] ||
		die "$pkg has no boot/$image-$release"
	mv "$dest/root/boot/$image-$release" "$dest/$image"
	cp "$dest/root/boot/config-$release" "$dest/config"
	[ -z "$debarch" ] ||
		mv "$dest/root/usr/src/linux-headers-$release" "$headers"
	rm -rf "$dest/root" "$dest/deb"
	touch "$dest/.itrace-fetched"
fi
# The unpacked headers' scripts/ and tools/ point into linux-kbuild
# (../../lib/linux-kbuild-*): the host's own copy, whose objtool is a
# wrapper that runs the target arch's (6.12 runs objtool on powerpc).
if [ -n "$debarch" ]; then
	for l in "$headers"/*; do
		kb=$(readlink "$l") || continue
		case "$kb" in
		../../lib/*) ln -sfn "/usr/lib/${kb#../../lib/}" "$l" ;;
		esac
	done
fi
[ -e "$headers/Module.symvers" ] || die "$headers has no Module.symvers"
[ -e "$headers/scripts/basic/fixdep" ] ||
	die "$headers/scripts leads to no build tools ($(readlink "$headers/scripts"))"
echo "$release $dest/$image $headers"
