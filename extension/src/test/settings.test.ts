import { strict as assert } from "node:assert";
import { test } from "node:test";

import { cliCommand, readConfig, serverCommand, serverSettings, splitCommand } from "../settings";

function getter(values: Record<string, unknown>) {
  return <T>(key: string, fallback: T): T => (key in values ? (values[key] as T) : fallback);
}

test("defaults: kgen on PATH, simulator, offline", () => {
  const cfg = readConfig(getter({}));
  assert.deepEqual(cfg, { path: "kgen", modelUrl: "", backend: "sim", buildOnSave: true });
  assert.deepEqual(serverCommand(cfg), { command: "kgen", args: ["lsp"] });
  assert.deepEqual(serverSettings(cfg), { model: { url: null }, backend: "sim", buildOnSave: true });
});

test("a python interpreter with -m and quoted paths", () => {
  const cfg = readConfig(getter({ path: `"/opt/my env/bin/python3" -m assistant.cli` }));
  assert.deepEqual(serverCommand(cfg), { command: "/opt/my env/bin/python3", args: ["-m", "assistant.cli", "lsp"] });
  assert.deepEqual(cliCommand(cfg, "docs", "DataCopy pad"), {
    command: "/opt/my env/bin/python3",
    args: ["-m", "assistant.cli", "docs", "DataCopy pad"],
  });
});

test("splitCommand: quotes, escapes, empty words", () => {
  assert.deepEqual(splitCommand(`a 'b c' "d\\"e" f\\ g ''`), ["a", "b c", 'd"e', "f g", ""]);
  assert.deepEqual(splitCommand("   "), []);
  assert.throws(() => splitCommand(`kgen "unterminated`), /unterminated " quote/);
});

test("model URL and backend are forwarded; an unknown backend falls back to sim", () => {
  const cfg = readConfig(getter({ "model.url": " http://127.0.0.1:8000/v1 ", backend: "npu", buildOnSave: false }));
  assert.deepEqual(serverSettings(cfg), { model: { url: "http://127.0.0.1:8000/v1" }, backend: "npu", buildOnSave: false });
  assert.equal(readConfig(getter({ backend: "gpu" })).backend, "sim");
  assert.equal(readConfig(getter({ path: "  " })).path, "kgen");
});
