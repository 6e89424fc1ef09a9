import { strict as assert } from "node:assert";
import { test } from "node:test";

import { describe, generateRequest } from "../outcome";
import { modelLabel, statusText } from "../status";

test("status bar: backend, model host, last bench", () => {
  assert.equal(modelLabel(""), "offline");
  assert.equal(modelLabel("http://10.0.0.5:8000/v1"), "10.0.0.5:8000");
  assert.equal(modelLabel("not a url"), "not a url");
  const s = statusText("sim", "http://127.0.0.1:8000/v1", "add: 2/2 pass, 7.26 µs");
  assert.equal(s.text, "$(circuit-board) kgen sim · 127.0.0.1:8000 · add: 2/2 pass, 7.26 µs");
  assert.ok(s.tooltip.includes("model: http://127.0.0.1:8000/v1") && s.tooltip.includes("last bench: add"));
  assert.equal(statusText("npu", "").text, "$(circuit-board) kgen npu · offline");
});

test("command results as one line", () => {
  assert.deepEqual(describe("kgen.fixCompileErrors", { fixes: ["a", "b"] }), { ok: true, message: "kgen: applied 2 quick fixes" });
  assert.deepEqual(describe("kgen.fixCompileErrors", { fixes: [] }), { ok: true, message: "kgen: nothing to fix" });
  assert.deepEqual(describe("kgen.benchmark", { status: "error", message: "no task" }), { ok: false, message: "kgen: no task" });
  assert.equal(describe("kgen.benchmark", { status: "cancelled" }).message, "kgen: kgen.benchmark cancelled");
  assert.deepEqual(describe("kgen.benchmark", { status: "done", report: { task: "add", compiled: false, correct: false } }),
    { ok: false, message: "kgen: add: build failed" });
  const g = describe("kgen.generate", { status: "verified", message: "2/2 cases correct", project: "/w/kgen-out/add" });
  assert.deepEqual(g, { ok: true, message: "kgen: verified: 2/2 cases correct — project /w/kgen-out/add" });
  const f = describe("kgen.fixWithAssistant", { status: "failed", message: "still wrong", changed: ["file:///a"] });
  assert.deepEqual(f, { ok: false, message: "kgen: failed: still wrong (1 file changed)" });
  assert.equal(describe("kgen.generate", null).ok, false);
});

test("ask: an existing path is a task, anything else a prompt", () => {
  const exists = (p: string) => p === "examples/tasks/add/kgen-task.toml";
  assert.deepEqual(generateRequest(" examples/tasks/add/kgen-task.toml ", exists), { task: "examples/tasks/add/kgen-task.toml" });
  assert.deepEqual(generateRequest("softmax over rows, fp16", exists), { prompt: "softmax over rows, fp16" });
  assert.equal(generateRequest("   ", exists), null);
});
