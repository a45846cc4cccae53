find Kbuild kdb-itrace arch -name '*.[ch]' -o -name '*.mk'
gcc -o x kdb-itrace/lib/good.c  # B2
