# SPDX-License-Identifier: GPL-2.0
# The kernel-API differences the module builds across (5.10 to 7.3), read
# from the headers of the kernel being built, never from its version:
# distributions backport (Debian's 5.10 has 5.11's task_work modes and
# 5.14's #DB model), and a headers package is all DKMS has. Each probe
# sets one macro that one wrapper header reads; nothing else in the
# module tests a kernel version. Included by Kbuild.
#
#   macro                    set when                          wrapper
#   ITRACE_UPROBE_HANDLE     uprobe_register() hands out the   core/wrap_uprobes.h
#                            uprobe (6.12)
#   ITRACE_UPROBE_DATA       the consumer's handler takes      core/wrap_uprobes.h
#                            __u64 *data (7.3)
#   ITRACE_MM_FLAGS_T        mm->flags is a bitmap type read   core/wrap_mm.h
#                            through mm_flags_test() (7.3)
#   ITRACE_HAVE_VMA_LOOKUP   vma_lookup() exists (5.15)        core/wrap_mm.h
#   ITRACE_PTRACE_FROZEN     a ptrace stop is frozen by        core/wrap_ptrace.h
#                            JOBCTL_PTRACE_FROZEN (5.19)
#   ITRACE_TP_EXIT_GROUP     sched_process_exit passes         core/wrap_sched_tp.h
#                            group_dead (7.3)
#   ITRACE_KDB_TAB           kdb_register() takes a kdbtab_t   frontend/kdb/wrap_kdb.h
#                            (5.15)
#   ITRACE_X86_MSRQ          the MSR accessors are rdmsrq()    arch/x86/wrap_msr.h
#                            and wrmsrq() (6.16)
#   ITRACE_PPC_SET_RETURN    regs_set_return_msr()/_ip()       arch/powerpc/wrap_regs.h
#                            keep the SRR fast path (5.14)
#
# Macros of the kernel itself serve as their own probe, in the wrapper:
# struct_size_t (core/wrap_overflow.h), CET_ENDBR_EN (arch/x86/ibt.c).

# itrace_probe MACRO,PATTERN,HEADER: -DMACRO if HEADER (under the kernel's
# source tree) holds the fixed string PATTERN (no comma or parenthesis:
# make's call would split or end there)
itrace_probe = $(if $(shell grep -s -q -F -e '$(2)' $(srctree)/$(3) && echo y),-D$(1))

ccflags-y += $(call itrace_probe,ITRACE_UPROBE_HANDLE,uprobe_unregister_nosync,include/linux/uprobes.h)
ccflags-y += $(call itrace_probe,ITRACE_UPROBE_DATA,__u64 *data,include/linux/uprobes.h)
ccflags-y += $(call itrace_probe,ITRACE_MM_FLAGS_T,mm_flags_test,include/linux/mm.h)
ccflags-y += $(call itrace_probe,ITRACE_HAVE_VMA_LOOKUP,vma_lookup,include/linux/mm.h)
ccflags-y += $(call itrace_probe,ITRACE_PTRACE_FROZEN,JOBCTL_PTRACE_FROZEN,include/linux/sched/jobctl.h)
ccflags-y += $(call itrace_probe,ITRACE_TP_EXIT_GROUP,bool group_dead,include/trace/events/sched.h)
ccflags-y += $(call itrace_probe,ITRACE_KDB_TAB,kdbtab_t,include/linux/kdb.h)
# the arch's own headers: a source tree holds every arch's
ccflags-y += $(call itrace_probe,ITRACE_X86_MSRQ,define rdmsrq,arch/$(SRCARCH)/include/asm/msr.h)
ccflags-y += $(call itrace_probe,ITRACE_PPC_SET_RETURN,regs_set_return_msr,arch/$(SRCARCH)/include/asm/ptrace.h)
