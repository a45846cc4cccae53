# SPDX-License-Identifier: GPL-2.0
# The pure-C library's sources, by name without .c: the one list. Kbuild
# builds them into the module; lib/host.mk into the static library that
# the host tests, the fuzzers, the bench and itrace-dump link.
#   itrace_lib          kdb-itrace/lib/: every kernel
#   itrace_lib_xmon     kdb-itrace/lib/: the xmon front-end's (CONFIG_XMON)
#   itrace_lib_x86      arch/x86/lib/: the x86 decoder and its memo
#   itrace_lib_powerpc  arch/powerpc/lib/: the POWER classifier
itrace_lib := calls codememo cond elfsym format kind out parse ring shadow symmap values
itrace_lib_xmon := xmon_words
itrace_lib_x86 := insn_decode insn_cache block_scan
itrace_lib_powerpc := insn_class
