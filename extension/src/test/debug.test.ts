import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";

import { DEBUG_TYPE, breakLines, debugCommand, initialConfiguration, problem } from "../debug";
import { readConfig } from "../settings";

const cfg = readConfig(<T>(key: string, fallback: T): T => (key === "path" ? ("python3 -m assistant.cli" as T) : fallback));
const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "package.json"), "utf8"));

test("the contributed debugger: its snippet and initial configuration are the generated one", () => {
  const [dbg] = pkg.contributes.debuggers;
  assert.equal(dbg.type, DEBUG_TYPE);
  assert.deepEqual(dbg.initialConfigurations, [initialConfiguration()]);
  assert.deepEqual(dbg.configurationSnippets[0].body, initialConfiguration());
  assert.deepEqual(dbg.configurationAttributes.launch.required, ["program"]);
  // breakpoints can be set in .asc files, and the extension wakes up for the configuration
  assert.ok(pkg.contributes.breakpoints.some((b: { language: string }) => b.language === "ascendc"));
  assert.ok(pkg.activationEvents.includes(`onDebugResolve:${DEBUG_TYPE}`));
  assert.ok(pkg.contributes.commands.some((c: { command: string }) => c.command === "kgen.debugCurrent"));
});

test("launching runs kgen sim debug with the configuration's and the editor's breakpoints in the program", () => {
  const program = "/work/kernels/scale.asc";
  const lines = breakLines({ breakLines: [41, 35, 0] }, [
    { file: program, line: 35 },
    { file: "/work/kernels/../kernels/scale.asc", line: 47 },
    { file: "/work/other.asc", line: 3 },
  ], program);
  assert.deepEqual(lines, [35, 41, 47]);
  assert.deepEqual(debugCommand(cfg, program, lines, ["--rows", "4"]), {
    command: "python3",
    args: ["-m", "assistant.cli", "sim", "debug", program, "--break", "35", "--break", "41", "--break", "47",
      "--", "--rows", "4"],
  });
  assert.deepEqual(debugCommand(cfg, program, []).args, ["-m", "assistant.cli", "sim", "debug", program]);
});

test("a configuration without a program or with a non-C++ one is a one-line error", () => {
  assert.match(problem(initialConfiguration()) ?? "", /set 'program'/);
  assert.match(problem({ program: "/w/README.md" }) ?? "", /README.md is not a C\+\+ source/);
  assert.equal(problem({ program: "/w/scale.asc" }), null);
});
