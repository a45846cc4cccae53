# the list: "ghost" does not exist; unlisted.c and cls.c are missing
itrace_lib := good ghost
itrace_lib_x86 := dec
