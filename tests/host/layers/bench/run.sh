#!/bin/sh
# a comment may name tests/prog/tp_loop.c
cc -o b "$top/tests/prog/tp_loop.c"
