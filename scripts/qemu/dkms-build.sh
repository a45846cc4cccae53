#!/usr/bin/env bash
# dkms-build.sh KDIR RELEASE OUT: the module as DKMS builds it for a
# user: `dkms add`, `dkms build`, `dkms install` of this checkout's
# dkms.conf against the kernel tree KDIR (kernel release RELEASE), all
# offline and in private trees under OUT (--dkmstree, --sourcetree,
# --installtree), so the module lands in none of /usr/src, /var/lib/dkms
# or /lib/modules. As for a user, dkms signs it with its own machine key
# where the kernel's sign-file is at hand (Debian's headers bring it):
# /var/lib/dkms/mok.key, made once (dkms 3.0 reads its key location only
# from /etc/dkms/framework.conf). The test kernels do not trust that key:
# the module loads as an unsigned one does.
# Prints the installed .ko. x86_64 only (dkms does not cross-build).
# Progress on stderr; dkms's own output in OUT/dkms.log.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: dkms-build.sh KDIR RELEASE OUT"
kdir=$1 release=$2 out=$3
[ "$ITRACE_ARCH" = x86_64 ] || die "dkms-build.sh: x86_64 only"
need_pkgs dkms

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$ITRACE_TOP/dkms.conf")
[ -n "$ver" ] || die "no PACKAGE_VERSION in dkms.conf"
rm -rf "$out"
mkdir -p "$out/src/kdb-itrace-$ver" "$out/var" "$out/lib/modules/$release"
# What a source package ships: no tests, bench or VM harness.
cp -r "$ITRACE_TOP"/{Kbuild,dkms.conf,kdb-itrace,arch} "$out/src/kdb-itrace-$ver/"
opts=(--dkmstree "$out/var" --sourcetree "$out/src"
	--installtree "$out/lib/modules")
mod=(-m kdb-itrace -v "$ver")
log=$out/dkms.log
step() {
	say "dkms $1 kdb-itrace/$ver for $release"
	if ! dkms "$@" >>"$log" 2>&1; then
		tail -30 "$log" >&2
		die "dkms $1 failed (log: $log)"
	fi
}
# One dkms at a time: two lanes may build for two stock kernels at once,
# and dkms makes its signing key (/var/lib/dkms/mok.key) on first use.
mkdir -p "$ITRACE_CACHE"
exec 9>"$ITRACE_CACHE/dkms.lock"
flock 9
# dkms 2 (Debian 11's) "prepares" a tree named by --kernelsourcedir
# (mrproper, oldconfig, prepare), which wipes a headers package's
# generated files; dkms 3 never does, and calls the option deprecated.
prep=()
case $(dkms --version 2>/dev/null) in
*[-:" "]2.*) prep=(--no-prepare-kernel) ;;
esac
step add "${mod[@]}" "${opts[@]}"
step build "${mod[@]}" -k "$release" --kernelsourcedir "$kdir" \
	${prep[@]+"${prep[@]}"} "${opts[@]}"
step install "${mod[@]}" -k "$release" --kernelsourcedir "$kdir" \
	--no-depmod "${opts[@]}"
ko=$(find "$out/lib/modules/$release" -name 'kdb_itrace.ko*' | head -n1)
[ -n "$ko" ] || die "dkms install left no kdb_itrace.ko under $out/lib/modules/$release"
# Where the kernel compresses its modules (Debian 6.12: xz), dkms does too;
# kmod's modprobe unpacks them, the VM's busybox insmod does not.
case "$ko" in
*.ko) ;;
*.ko.xz) xz -dc "$ko" >"$out/kdb_itrace.ko"; ko=$out/kdb_itrace.ko ;;
*.ko.zst) zstd -qdc "$ko" >"$out/kdb_itrace.ko"; ko=$out/kdb_itrace.ko ;;
*.ko.gz) gzip -dc "$ko" >"$out/kdb_itrace.ko"; ko=$out/kdb_itrace.ko ;;
*) die "dkms left $ko, in a form this script does not unpack" ;;
esac
echo "$ko"
