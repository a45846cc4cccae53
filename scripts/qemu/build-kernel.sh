#!/usr/bin/env bash
# Builds (or reuses) the test kernel for $ITRACE_ARCH from Debian's
# linux-source-6.1: tinyconfig + scripts/qemu/config/$ITRACE_ARCH.config,
# in an O= dir under the cache keyed by source version, arch and config.
# Prints the build dir on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

need_pkgs "$KSRC_PKG" build-essential flex bison bc libelf-dev libssl-dev \
	cpio xz-utils kmod
[ "$ITRACE_ARCH" = ppc64le ] && need_pkgs gcc-powerpc64le-linux-gnu

src=$(kernel_src_dir)
out=$(kernel_dir)
frag="$ITRACE_TOP/scripts/qemu/config/$ITRACE_ARCH.config"

if [ -e "$out/.itrace-built" ]; then
	echo "$out"
	exit 0
fi

if [ ! -e "$src/.itrace-unpacked" ]; then
	say "unpacking $KSRC_PKG into $src"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" -xf /usr/src/linux-source-6.1.tar.xz
	mv "$src.tmp"/linux-source-6.1 "$src"
	rm -rf "$src.tmp"
	touch "$src/.itrace-unpacked"
fi

mk() {
	make -C "$src" O="$out" ARCH="$KARCH" CROSS_COMPILE="$KCROSS" "$@"
}

say "configuring $ITRACE_ARCH kernel in $out"
rm -rf "$out"
mkdir -p "$out"
mk -s tinyconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$frag" >/dev/null
mk -s olddefconfig >&2
# Every line of the fragment must survive olddefconfig, or the kernel is
# not the one the tests assume.
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=n) sym=${line%%=*}
		grep -q "^$sym=" "$out/.config" && { say "not unset: $line"; bad=1; } ;;
	CONFIG_*) grep -qx "$line" "$out/.config" || { say "not kept: $line"; bad=1; } ;;
	esac
done <"$frag"
[ $bad -eq 0 ] || die "config fragment $frag does not apply cleanly"

say "building $ITRACE_ARCH kernel ($KTARGETS), about 7 minutes on 2 cores"
start=$(date +%s)
if ! mk -j"$(nproc)" $KTARGETS >"$out/build.log" 2>&1; then
	tail -40 "$out/build.log" >&2
	die "kernel build failed; full log: $out/build.log"
fi
say "kernel built in $(( $(date +%s) - start )) s"
touch "$out/.itrace-built"
echo "$out"
