/* the arch hooks (iface: arch-{arch} implements them) */
void itrace_arch_hook(void);
