// Step-debugging a kernel-launch program on the emulator: the "kgen-sim" debug configuration (pure: no
// vscode import). Launching it runs `kgen sim debug PROGRAM --break LINE...` in a terminal: the program is
// built with debug info at -O0 and run under gdb (in kgen's sandbox), and a breakpoint on a kernel line
// stops in the emulated core that runs it ("kgen: stopped in emulated core 3 of 8"), see
// bench_bridge/sim/debugger.py. The lines are the configuration's `breakLines` and the editor's breakpoints
// in the program's file.
import * as path from "path";

import { KgenConfig, ServerCommand, cliCommand } from "./settings";

export const DEBUG_TYPE = "kgen-sim";

export interface KgenDebugConfiguration {
  type: typeof DEBUG_TYPE;
  request: "launch";
  name: string;
  /** the kernel-launch program (.asc/.cpp with main and <<<>>>); "${file}": the active editor's */
  program: string;
  /** kernel lines (1-based) to stop at, besides the editor's breakpoints in the program */
  breakLines?: number[];
  /** arguments of the program */
  args?: string[];
}

/** What launch.json gets (the contributed snippet and initial configuration are this, tested). */
export function initialConfiguration(): KgenDebugConfiguration {
  return {
    type: DEBUG_TYPE,
    request: "launch",
    name: "kgen: debug kernel on the emulator",
    program: "${file}",
    breakLines: [],
    args: [],
  };
}

/** A breakpoint the editor holds: its file and its 1-based line. */
export interface EditorBreakpoint {
  file: string;
  line: number;
}

/** The lines to stop at: the configuration's and the editor's breakpoints in ``program``, sorted, once each. */
export function breakLines(conf: Partial<KgenDebugConfiguration>, editor: EditorBreakpoint[], program: string): number[] {
  const own = (conf.breakLines ?? []).filter((n) => Number.isInteger(n) && n > 0);
  const mine = editor.filter((b) => path.resolve(b.file) === path.resolve(program)).map((b) => b.line);
  return [...new Set([...own, ...mine])].sort((a, b) => a - b);
}

/** The one-line reason a configuration cannot be launched, or null. */
export function problem(conf: Partial<KgenDebugConfiguration>): string | null {
  if (!conf.program || conf.program.includes("${")) {
    return "kgen-sim: set 'program' to a kernel-launch program (.asc/.cpp with main), or open one and use ${file}";
  }
  if (!/\.(asc|cpp|cc|cxx)$/.test(conf.program)) {
    return `kgen-sim: ${path.basename(conf.program)} is not a C++ source (.asc, .cpp)`;
  }
  return null;
}

/** `kgen sim debug PROGRAM --break LINE ... [-- ARGS]` through the configured kgen (a bare LINE is the program's). */
export function debugCommand(cfg: KgenConfig, program: string, lines: number[], args: string[] = []): ServerCommand {
  const breaks = lines.flatMap((n) => ["--break", String(n)]);
  const rest = args.length ? ["--", ...args] : [];
  return cliCommand(cfg, "sim", "debug", program, ...breaks, ...rest);
}
