#!/usr/bin/env bash
# Builds (or reuses) the test kernel for $ITRACE_ARCH from Debian's
# linux-source-$ITRACE_KVER (5.10, 6.1, 6.12 or 7.3): tinyconfig +
# scripts/qemu/config/common.config and $ITRACE_ARCH.config (with
# ITRACE_KVARIANT=debug also debug.config and $ITRACE_ARCH-debug.config on
# top), in an O= dir under the cache keyed by source version, arch,
# variant and config. Prints the build dir on stdout; the build's wall
# and CPU time go to build-time in it.
#
# The source is Debian's, less the exports that only Debian's patches add
# (mainline_exports below): the test kernels export what mainline, Fedora
# and RHEL export, so a module that links against them needs no
# distribution patch.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -n "$KSUITE" ] || need_pkgs "$KSRC_PKG"
need_pkgs build-essential flex bison bc libelf-dev libssl-dev \
	cpio xz-utils kmod time
[ "$ITRACE_ARCH" = ppc64le ] && need_pkgs gcc-powerpc64le-linux-gnu

src=$(kernel_src_dir)
out=$(kernel_dir)
mapfile -t frags < <(kernel_frags)

if [ -e "$out/.itrace-built" ]; then
	echo "$out"
	exit 0
fi

# mainline_exports DIR: take out Debian's export of task_work_add
# (debian/patches/debian/export-symbols-needed-by-android-drivers.patch,
# for a modular binder: EXPORT_SYMBOL on 5.10, _GPL since; mainline never
# exported it). The module must load without it (kdb-itrace/core/ksym.c).
mainline_exports() {
	sed -i -E '/^EXPORT_SYMBOL(_GPL)?\(task_work_add\);$/d' "$1/kernel/task_work.c"
	! grep -q 'EXPORT_SYMBOL.*(task_work_add)' "$1/kernel/task_work.c" ||
		die "could not take the task_work_add export out of $1"
}

if [ ! -e "$src/.itrace-unpacked" ]; then
	say "unpacking $KSRC_PKG into $src"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -C "$src.tmp" -xf "$(kernel_src_tarball)"
	mainline_exports "$src.tmp/$KSRC_PKG"
	mv "$src.tmp/$KSRC_PKG" "$src"
	rm -rf "$src.tmp"
	touch "$src/.itrace-unpacked"
fi

mk() {
	make -C "$src" O="$out" ARCH="$KARCH" CROSS_COMPILE="$KCROSS" "$@"
}

say "configuring $ITRACE_FLAVOUR kernel in $out"
rm -rf "$out"
mkdir -p "$out"
mk -s tinyconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}" >/dev/null
mk -s olddefconfig >&2
# Every setting of the fragments (the last one of a symbol set twice)
# must survive olddefconfig, or the kernel is not the one the tests
# assume; but for symbols this kernel line does not define (the
# fragments serve 5.10 to 7.3), which are named.
declare -A want=() known=()
order=()
while read -r sym; do
	known[CONFIG_$sym]=1
done < <(find "$src" -name 'Kconfig*' -exec sed -n 's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/\2/p' {} +)
unknown=()
for f in "${frags[@]}"; do
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*) sym=${line%%=*}
			if [ -z "${known[$sym]+set}" ]; then
				unknown+=("$sym")
				continue
			fi
			[ -n "${want[$sym]+set}" ] || order+=("$sym")
			want[$sym]=$line ;;
		esac
	done <"$f"
done
[ ${#unknown[@]} -eq 0 ] ||
	say "not in linux-source-$ITRACE_KVER's Kconfig, skipped: ${unknown[*]}"
bad=0
for sym in "${order[@]}"; do
	line=${want[$sym]}
	case "$line" in
	*=n) grep -q "^$sym=" "$out/.config" && { say "not unset: $line"; bad=1; } ;;
	*) grep -qx "$line" "$out/.config" || { say "not kept: $line"; bad=1; } ;;
	esac
done
[ $bad -eq 0 ] || die "config fragments ${frags[*]} do not apply cleanly"

say "building $ITRACE_FLAVOUR kernel ($KTARGETS), 3 to 6 minutes on 2 cores"
# GNU time's wall and CPU seconds of the build, kept beside it
if ! /usr/bin/time -f '%e s wall, %U s user, %S s system' -o "$out/build-time" \
	make -C "$src" O="$out" ARCH="$KARCH" CROSS_COMPILE="$KCROSS" \
	-j"$(nproc)" $KTARGETS >"$out/build.log" 2>&1; then
	tail -40 "$out/build.log" >&2
	die "kernel build failed; full log: $out/build.log"
fi
say "kernel built: $(cat "$out/build-time")"
touch "$out/.itrace-built"
echo "$out"
