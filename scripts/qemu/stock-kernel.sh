#!/usr/bin/env bash
# stock-kernel.sh LINE: Debian's own kernel of LINE for $ITRACE_ARCH, as
# its users have it: the newest linux-image-<abi>-<flavour> of that line
# in its suite (amd64, or powerpc64le from the ppc64el archive), and its
# linux-headers package. 6.1 and 6.12: Debian 12's, from this machine's
# archive; 7.3: Debian 13's backports; 5.10: Debian 11's (amd64 only:
# bullseye's LTS archive has no ppc64el any more). These kernels have no
# kgdb/kdb: the module's front-end there is debugfs.
#
#   x86_64   the headers installed the Debian way (/usr/src,
#            /lib/modules/<release>/build), which DKMS builds against:
#            on this machine (6.1, 6.12), or in a root of the line's own
#            release (5.10, 7.3: suite-root.sh; their headers want gcc-10
#            and gcc-14)
#   ppc64le  the ppc64el headers unpacked (never installed), with the
#            amd64 linux-kbuild (build tools), linux-headers-<abi>-common
#            and the cross compiler installed: on this machine under the
#            cache (6.1, 6.12), in the release's root (7.3): a cross
#            build against them is what Debian's packages allow (DKMS
#            does not cross-build)
#
# Prints one line: RELEASE KERNEL_IMAGE HEADERS_DIR. The image is
# unpacked (never installed) under $ITRACE_CACHE/stock/ and reused.
# Progress on stderr. Exit status 77, with the reason as the line, where
# the package index that lists the kernel could not be fetched (lib.sh's
# unfetched_index): the callers print SKIP; a package that is not in
# lists apt has whole is an error (status 1).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

line=${1:-}
case "$ITRACE_ARCH" in
x86_64) flavour=amd64 aptarch=amd64 debarch= image=vmlinuz ;;
ppc64le) flavour=powerpc64le aptarch=ppc64el debarch=:ppc64el image=vmlinux ;;
esac
case "$line" in
5.10) pat="^linux-image-5\.10\.0-[0-9]+-$flavour\$" ;;
6.1) pat="^linux-image-6\.1\.0-[0-9]+-$flavour\$" ;;
6.12) pat="^linux-image-6\.12\.[0-9]+\+deb12-$flavour\$" ;;
7.3) pat="^linux-image-7\.3\.[0-9]+\+deb13-$flavour\$" ;;
*) die "usage: stock-kernel.sh 5.10|6.1|6.12|7.3" ;;
esac
suite=$(line_suite "$line")

# aptc ARGS...: apt-cache on the line's suite
aptc() { suite_apt "$suite" apt-cache "$@"; }
# newest_pkg: the highest ABI of the line the package lists know
newest_pkg() {
	aptc search --names-only "$pat" | cut -d' ' -f1 | sort -V | tail -n1
}
# The ppc64el lists come with that architecture (busybox.sh adds it).
[ -z "$debarch" ] || "$ITRACE_TOP/scripts/qemu/busybox.sh" >/dev/null
pkg=$(newest_pkg)
if [ -z "$pkg" ] && [ -z "$suite" ] && [ "$(id -u)" -eq 0 ]; then
	apt_update
	pkg=$(newest_pkg)
fi
if [ -z "$pkg" ]; then
	# the index that would list it did not come: a SKIP, not a FAIL
	lost=$(unfetched_index "$suite" "$aptarch" | tr '\n' ' ')
	if [ -n "$lost" ]; then
		say "error: no package matches $pat; apt could not fetch the $aptarch Packages of ${lost% } (apt-get update, above or earlier)"
		echo "Debian's ${lost% } $aptarch package index did not come (apt-get update failed on it: the mirror's fault), so Debian's $line kernel for $ITRACE_ARCH cannot be fetched here"
		exit 77
	fi
	die "no package matches $pat${suite:+ in $suite} (apt-get update?)"
fi
release=${pkg#linux-image-}
abi=${release%-"$flavour"}
ver=$(aptc policy "$pkg$debarch" | sed -n 's/^  Candidate: //p')
dest=$ITRACE_CACHE/stock/$release-$ver

# download PKG...: apt-get download into $dest/deb
download() { suite_download "$suite" "$dest/deb" "$@"; }

root=
if [ -n "$suite" ]; then
	root=$("$ITRACE_TOP/scripts/qemu/suite-root.sh" "$suite")
fi
if [ -z "$debarch" ] && [ -n "$suite" ]; then
	"$ITRACE_TOP/scripts/qemu/suite-root.sh" "$suite" "linux-headers-$release" >/dev/null
	headers=$root/usr/src/linux-headers-$release
elif [ -z "$debarch" ]; then
	need_pkgs "linux-headers-$release"
	headers=/usr/src/linux-headers-$release
elif [ -n "$suite" ]; then
	# the root's own build tools, common headers and cross compiler;
	# the ppc64el headers unpacked into its /usr/src below
	headers=$root/usr/src/linux-headers-$release
else
	# The common headers and the build tools, for this host.
	kbuild=linux-kbuild-$abi
	[ "$line" != 6.1 ] || kbuild=linux-kbuild-6.1
	need_pkgs "linux-headers-$abi-common" "$kbuild"
	headers=$dest/headers
fi

# (a remade release root lost the headers unpacked into it: fetch again)
if [ ! -e "$dest/.itrace-fetched" ] || [ ! -e "$headers/Module.symvers" ]; then
	say "stock kernel: apt-get download $pkg$debarch ($ver)"
	rm -rf "$dest"
	# 7.3 splits the image package: its kernel and config are in
	# linux-binary-<release> and linux-base-<release>, which it depends on
	extra=$(aptc show "$pkg$debarch=$ver" 2>/dev/null | sed -n 's/^Depends: //p' |
		tr ',' '\n' | sed -n "s/^ *\(linux-\(binary\|base\)-$release\) .*/\1/p")
	download "$pkg$debarch=$ver"
	for x in $extra; do
		download "$x$debarch=$ver"
	done
	[ -z "$debarch" ] || download "linux-headers-$release$debarch=$ver"
	for d in "$dest"/deb/*.deb; do
		dpkg-deb -x "$d" "$dest/root"
	done
	# /boot/<image>-<release>, or since 7.3 /usr/lib/modules/<release>/
	if [ -f "$dest/root/boot/$image-$release" ]; then
		mv "$dest/root/boot/$image-$release" "$dest/$image"
		cp "$dest/root/boot/config-$release" "$dest/config"
	elif [ -f "$dest/root/usr/lib/modules/$release/$image" ]; then
		mv "$dest/root/usr/lib/modules/$release/$image" "$dest/$image"
		cp "$dest/root/usr/lib/modules/$release/config" "$dest/config"
	else
		die "$pkg has no boot/$image-$release nor usr/lib/modules/$release/$image"
	fi
	if [ -n "$debarch" ]; then
		rm -rf "$headers"
		mv "$dest/root/usr/src/linux-headers-$release" "$headers"
	fi
	rm -rf "$dest/root" "$dest/deb"
	touch "$dest/.itrace-fetched"
fi
if [ -n "$debarch" ] && [ -n "$suite" ]; then
	# the compiler the headers name: CC = ...$(CROSS_COMPILE)gcc-N
	gccv=$(sed -n 's/^CC = .*gcc-\([0-9][0-9]*\)$/\1/p' "$headers/.kernelvariables")
	[ -n "$gccv" ] || die "no gcc-N in $headers/.kernelvariables"
	"$ITRACE_TOP/scripts/qemu/suite-root.sh" "$suite" "linux-headers-$abi-common" \
		"linux-kbuild-$abi" "gcc-$gccv-powerpc64le-linux-gnu" >/dev/null
fi
# The unpacked headers' scripts/ and tools/ point into linux-kbuild
# (../../lib/linux-kbuild-*): the host's own copy, whose objtool is a
# wrapper that runs the target arch's (6.12 runs objtool on powerpc);
# in a release's root, that root's (the relative link as it is).
if [ -n "$debarch" ] && [ -z "$suite" ]; then
	for l in "$headers"/*; do
		kb=$(readlink "$l") || continue
		case "$kb" in
		../../lib/*) ln -sfn "/usr/lib/${kb#../../lib/}" "$l" ;;
		esac
	done
fi
[ -e "$headers/Module.symvers" ] || die "$headers has no Module.symvers"
if [ -z "$suite" ]; then
	[ -e "$headers/scripts/basic/fixdep" ] ||
		die "$headers/scripts leads to no build tools ($(readlink "$headers/scripts"))"
fi
echo "$release $dest/$image $headers"
