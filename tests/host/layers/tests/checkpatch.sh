find Kbuild kdb-itrace arch -name '*.[ch]'   # B3: no *.mk
