/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The executor's commands that live in files of their own, called by
 * itrace_exec() (command.c) once the words parsed: `on` and `off`
 * (command_onoff.c), `calls`, `stack` and `regs` (command_view.c),
 * `top` (command_top.c).
 * Private to exec/. The caller's context (see exec.h).
 */
#ifndef _ITRACE_EXEC_COMMANDS_H
#define _ITRACE_EXEC_COMMANDS_H

#include "exec.h"

struct itrace_cmd;

int itrace_cmd_on(const struct itrace_cmd *cmd, struct itrace_ctx *ctx);
int itrace_cmd_off(const struct itrace_cmd *cmd, struct itrace_ctx *ctx);
int itrace_cmd_calls(const struct itrace_cmd *cmd, struct itrace_ctx *ctx);
int itrace_cmd_stack(const struct itrace_cmd *cmd, struct itrace_ctx *ctx);
int itrace_cmd_regs(const struct itrace_cmd *cmd, struct itrace_ctx *ctx);
int itrace_cmd_top(const struct itrace_cmd *cmd, struct itrace_ctx *ctx);

#endif /* _ITRACE_EXEC_COMMANDS_H */
