import { strict as assert } from "node:assert";
import { test } from "node:test";

import * as path from "path";

import { BenchReport, escapeHtml, formatMicros, reportTable, resourceRoots, resultsPage, summary, timelines } from "../report";

// the shape `kgen bench --json` prints (docs/report-schema.md), trimmed to what the view reads
const REPORT: BenchReport = {
  schema: "kgen.bench-report",
  task: "add",
  backend: "sim",
  compiled: true,
  correct: false,
  cases: [
    {
      case_id: "even",
      status: "pass",
      input_shapes: [[48, 64], [48, 64]],
      dtypes: ["float32", "float32"],
      performance: { time_us: 7.257777, bound: "launch overhead" },
    },
    {
      case_id: "tail<1>",
      status: "fail",
      input_shapes: [[5, 77]],
      dtypes: ["float32"],
      message: "3 of 385 elements of z exceed the tolerance & more",
      performance: { modelled_us: 1530.4 },
    },
  ],
};

test("summary counts passing cases and shows the slowest case", () => {
  assert.equal(summary(REPORT), "add: 1/2 pass, 1.53 ms");
  assert.equal(summary({ ...REPORT, compiled: false, cases: [] }), "add: build failed");
  assert.equal(summary({ ...REPORT, cases: [{ case_id: "0", status: "pass" }] }), "add: 1/1 pass");
});

test("times: µs with two decimals under 10, ms above 1000", () => {
  assert.equal(formatMicros(7.257777), "7.26 µs");
  assert.equal(formatMicros(42.25), "42.3 µs");
  assert.equal(formatMicros(1530.4), "1.53 ms");
  assert.equal(formatMicros(null), "");
});

test("table: one row per case, escaped text, shapes and dtypes", () => {
  const html = reportTable(REPORT);
  assert.equal((html.match(/<tr class=/g) ?? []).length, 2);
  assert.ok(html.includes("<td>tail&lt;1&gt;</td>"));
  assert.ok(html.includes("<td>[48, 64] [48, 64]</td><td>float32, float32</td><td>7.26 µs</td><td>launch overhead</td>"));
  assert.ok(html.includes("exceed the tolerance &amp; more"));
  assert.ok(!html.includes("<1>"));
});

test("page: verdict, CSP with the webview source, timeline image only when given", () => {
  const page = resultsPage(REPORT, [{ caseId: "even", src: "vscode-resource://x/timeline.png" }], "vscode-webview://abc");
  assert.ok(page.includes("<h2>add — wrong results (sim)</h2>"));
  assert.ok(page.includes("img-src vscode-webview://abc data:"));
  assert.ok(page.includes('<img class="timeline" alt="modelled timeline of case even" src="vscode-resource://x/timeline.png">'));
  assert.ok(!page.includes("<h4>"));                      // one picture: no per-case heading
  assert.ok(!resultsPage(REPORT, [], "csp").includes("<img"));
  const failed = resultsPage(
    { ...REPORT, compiled: false, cases: [], build_diagnostics: [{ severity: "error", message: "'yy' was not declared", file: "a.asc", line: 46 }] },
    [],
    "csp",
  );
  assert.ok(failed.includes("build failed") && failed.includes("<li>a.asc:46: &#39;yy&#39; was not declared</li>"));
});

test("escapeHtml", () => {
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  assert.equal(escapeHtml(undefined), "");
});

// what `kgen bench --profile --json` (schema version 2) puts in "artifacts" for a two-case task
const RUN = "/home/u/.cache/kgen/bench/add-20261201-120102-k3x9";
const PROFILED: BenchReport = {
  ...REPORT,
  schema_version: 2,
  artifacts: {
    dir: RUN,
    build_dir: "/home/u/.cache/kgen/builds/21fd92",
    trace: `${RUN}/case-even.trace.json`,
    timeline_png: `${RUN}/case-even.timeline.png`,
    case_id: "even",
    cases: {
      "tail<1>": { trace: `${RUN}/case-tail_1.trace.json`, timeline_png: `${RUN}/case-tail_1.timeline.png` },
      even: { trace: `${RUN}/case-even.trace.json`, timeline_png: `${RUN}/case-even.timeline.png` },
    },
  },
};

test("pictures: each profiled case's own, in case order, from the report's artifacts", () => {
  assert.deepEqual(timelines(PROFILED, "/elsewhere/timeline.png"), [
    { caseId: "even", png: `${RUN}/case-even.timeline.png` },
    { caseId: "tail<1>", png: `${RUN}/case-tail_1.timeline.png` },
  ]);
  // a case without a picture (Pillow missing) is left out; a report naming only one picture shows that one
  const onlyTrace: BenchReport = { ...PROFILED, artifacts: { ...PROFILED.artifacts, cases: { even: { trace: "t.json", timeline_png: null } } } };
  assert.deepEqual(timelines(onlyTrace), [{ caseId: "even", png: `${RUN}/case-even.timeline.png` }]);
  // a version 1 report (no artifacts): the PNG the server handed over beside it, else nothing
  assert.deepEqual(timelines(REPORT, "/lsp/out/timeline.png"), [{ caseId: null, png: "/lsp/out/timeline.png" }]);
  assert.deepEqual(timelines(REPORT), []);
  assert.deepEqual(timelines({ ...REPORT, artifacts: null }, null), []);
});

test("webview may read only the pictures' folders", () => {
  assert.deepEqual(resourceRoots(timelines(PROFILED)), [RUN]);
  const two = resourceRoots([{ caseId: "a", png: path.join("/r1", "a.png") }, { caseId: "b", png: path.join("/r2", "b.png") }]);
  assert.deepEqual(two, ["/r1", "/r2"]);
  assert.deepEqual(resourceRoots([]), []);
});

test("page: one picture per case with its heading, and the trace's path", () => {
  const images = timelines(PROFILED).map((t) => ({ caseId: t.caseId, src: `vscode-webview://r${t.png}` }));
  const page = resultsPage(PROFILED, images, "csp");
  assert.equal((page.match(/<img class="timeline"/g) ?? []).length, 2);
  assert.ok(page.includes(`<h4>case even</h4><img class="timeline" alt="modelled timeline of case even" src="vscode-webview://r${RUN}/case-even.timeline.png">`));
  assert.ok(page.includes("<h4>case tail&lt;1&gt;</h4>") && !page.includes("tail<1>"));
  assert.ok(page.includes(`Chrome trace: <code>${RUN}/case-even.trace.json</code> (open in Perfetto / chrome://tracing)`));
  assert.ok(page.indexOf("<table") < page.indexOf("Modelled timeline"));   // table first, then the pictures
  assert.ok(!resultsPage(REPORT, [], "csp").includes("Chrome trace"));
});
