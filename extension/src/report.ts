// A kgen bench report (docs/report-schema.md) as HTML and one-line summaries (pure: no vscode import).
import * as path from "path";

export interface CaseReport {
  case_id: string;
  status: string;
  message?: string;
  input_shapes?: number[][];
  dtypes?: string[];
  seconds?: number;
  performance?: { time_us?: number; modelled_us?: number; bound?: string; speedup_vs_eager?: number | null } | null;
}

/** The files a profiled bench left (report schema version 2): paths on the machine that benched. */
export interface Artifacts {
  dir?: string | null;
  build_dir?: string | null;
  trace?: string | null;
  timeline_png?: string | null;
  case_id?: string | null;
  cases?: Record<string, { trace?: string | null; timeline_png?: string | null }>;
}

export interface BenchReport {
  schema?: string;
  schema_version?: number;
  task: string;
  backend: string;
  compiled: boolean;
  correct: boolean;
  message?: string;
  cases: CaseReport[];
  build_diagnostics?: { severity: string; message: string; file?: string; line?: number }[];
  artifacts?: Artifacts | null;
}

/** A timeline picture to show: whose case it is and where the PNG is. */
export interface Timeline {
  caseId: string | null;
  png: string;
}

/** The pictures of a report, in case order: each profiled case's own (``artifacts.cases``), else the
 * report's one picture, else ``fallback`` (a PNG path handed over beside a report without artifacts). */
export function timelines(rep: BenchReport, fallback: string | null = null): Timeline[] {
  const a = rep.artifacts ?? {};
  const out: Timeline[] = [];
  for (const c of rep.cases) {
    const png = a.cases?.[c.case_id]?.timeline_png;
    if (png) {
      out.push({ caseId: c.case_id, png });
    }
  }
  if (!out.length && (a.timeline_png || fallback)) {
    out.push({ caseId: a.timeline_png ? a.case_id ?? null : null, png: (a.timeline_png || fallback) as string });
  }
  return out;
}

/** The folders the webview may load pictures from: those of the pictures, each once, nothing else. */
export function resourceRoots(pictures: Timeline[]): string[] {
  return [...new Set(pictures.map((t) => path.dirname(t.png)))];
}

/** A picture as the page shows it: ``src`` is its webview URI. */
export interface TimelineImage {
  caseId: string | null;
  src: string;
}

export function escapeHtml(s: unknown): string {
  return String(s ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

function caseTime(c: CaseReport): number | null {
  const p = c.performance;
  if (!p) {
    return null;
  }
  const t = p.time_us ?? p.modelled_us;
  return typeof t === "number" && isFinite(t) ? t : null;
}

export function formatMicros(us: number | null): string {
  if (us === null) {
    return "";
  }
  if (us >= 1000) {
    return `${(us / 1000).toFixed(2)} ms`;
  }
  return `${us.toFixed(us < 10 ? 2 : 1)} µs`;
}

export function passed(rep: BenchReport): number {
  return rep.cases.filter((c) => c.status === "pass").length;
}

/** "add: 3/3 pass, 7.26 µs" | "add: build failed" — for the status bar. */
export function summary(rep: BenchReport): string {
  if (!rep.compiled) {
    return `${rep.task}: build failed`;
  }
  const times = rep.cases.map(caseTime).filter((t): t is number => t !== null);
  const t = times.length ? `, ${formatMicros(Math.max(...times))}` : "";
  return `${rep.task}: ${passed(rep)}/${rep.cases.length} pass${t}`;
}

export function reportTable(rep: BenchReport): string {
  const rows = rep.cases.map((c) => {
    const shapes = (c.input_shapes ?? []).map((s) => `[${s.join(", ")}]`).join(" ");
    const perf = c.performance;
    return (
      `<tr class="${escapeHtml(c.status)}">` +
      `<td>${escapeHtml(c.case_id)}</td>` +
      `<td>${escapeHtml(c.status)}</td>` +
      `<td>${escapeHtml(shapes)}</td>` +
      `<td>${escapeHtml((c.dtypes ?? []).join(", "))}</td>` +
      `<td>${escapeHtml(formatMicros(caseTime(c)))}</td>` +
      `<td>${escapeHtml(perf?.bound ?? "")}</td>` +
      `<td>${escapeHtml(c.message ?? "")}</td>` +
      `</tr>`
    );
  });
  return (
    `<table class="kgen-report"><thead><tr><th>case</th><th>status</th><th>input shapes</th><th>dtypes</th>` +
    `<th>kernel time</th><th>bound by</th><th>message</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
  );
}

export function buildErrors(rep: BenchReport): string {
  const errs = (rep.build_diagnostics ?? []).filter((d) => d.severity === "error");
  if (!errs.length) {
    return "";
  }
  const items = errs.map((d) => `<li>${escapeHtml(d.file ?? "")}:${escapeHtml(d.line ?? 0)}: ${escapeHtml(d.message)}</li>`);
  return `<h3>Build errors</h3><ul class="kgen-build">${items.join("")}</ul>`;
}

function timelineSection(rep: BenchReport, images: TimelineImage[]): string {
  const trace = rep.artifacts?.trace;
  const traceLine = trace
    ? `<p class="trace">Chrome trace: <code>${escapeHtml(trace)}</code> (open in Perfetto / chrome://tracing)</p>`
    : "";
  if (!images.length) {
    return traceLine;
  }
  const many = images.length > 1;
  const pics = images.map((im) => {
    const who = im.caseId !== null ? `case ${im.caseId}` : "";
    const head = many && who ? `<h4>${escapeHtml(who)}</h4>` : "";
    const alt = `modelled timeline${who ? " of " + who : ""}`;
    return `${head}<img class="timeline" alt="${escapeHtml(alt)}" src="${escapeHtml(im.src)}">`;
  });
  return `<h3>Modelled timeline</h3>${traceLine}${pics.join("")}`;
}

/** The results view: title, verdict, the case table and the timeline pictures (``images``: webview
 * URIs of each case's picture, see ``timelines``; ``cspSource`` the webview's CSP source). */
export function resultsPage(rep: BenchReport, images: TimelineImage[], cspSource: string): string {
  const verdict = rep.correct ? "correct" : rep.compiled ? "wrong results" : "build failed";
  const img = timelineSection(rep, images);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${escapeHtml(cspSource)} data:; style-src 'unsafe-inline';">
<title>kgen: ${escapeHtml(rep.task)}</title>
<style>
 body { font-family: var(--vscode-font-family); }
 table { border-collapse: collapse; } td, th { border: 1px solid var(--vscode-panel-border, #888); padding: 2px 6px; }
 tr.fail td, tr.error td { color: var(--vscode-errorForeground, #c00); }
 img.timeline { max-width: 100%; }
</style></head>
<body><h2>${escapeHtml(rep.task)} — ${escapeHtml(verdict)} (${escapeHtml(rep.backend)})</h2>
<p>${escapeHtml(summary(rep))}${rep.message ? " — " + escapeHtml(rep.message) : ""}</p>
${buildErrors(rep)}${reportTable(rep)}${img}
</body></html>`;
}
