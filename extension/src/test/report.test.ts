import { strict as assert } from "node:assert";
import { test } from "node:test";

import { BenchReport, escapeHtml, formatMicros, reportTable, resultsPage, summary } from "../report";

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
  const page = resultsPage(REPORT, "vscode-resource://x/timeline.png", "vscode-webview://abc");
  assert.ok(page.includes("<h2>add — wrong results (sim)</h2>"));
  assert.ok(page.includes("img-src vscode-webview://abc data:"));
  assert.ok(page.includes('<img class="timeline" alt="modelled timeline" src="vscode-resource://x/timeline.png">'));
  assert.ok(!resultsPage(REPORT, null, "csp").includes("<img"));
  const failed = resultsPage(
    { ...REPORT, compiled: false, cases: [], build_diagnostics: [{ severity: "error", message: "'yy' was not declared", file: "a.asc", line: 46 }] },
    null,
    "csp",
  );
  assert.ok(failed.includes("build failed") && failed.includes("<li>a.asc:46: &#39;yy&#39; was not declared</li>"));
});

test("escapeHtml", () => {
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  assert.equal(escapeHtml(undefined), "");
});
