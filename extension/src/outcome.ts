// What the server's command results mean for the user (pure: no vscode import).

export interface Outcome {
  ok: boolean;
  message: string;
}

/** A kgen.generate / kgen.fixWithAssistant / kgen.benchmark / kgen.fixCompileErrors result as one line. */
export function describe(command: string, result: any): Outcome {
  if (result === null || result === undefined) {
    return { ok: false, message: `kgen: ${command} returned nothing (is the server running?)` };
  }
  if (result.status === "error") {
    return { ok: false, message: `kgen: ${result.message}` };
  }
  if (result.status === "cancelled") {
    return { ok: false, message: `kgen: ${command} cancelled` };
  }
  switch (command) {
    case "kgen.fixCompileErrors": {
      const n = Array.isArray(result.fixes) ? result.fixes.length : 0;
      return { ok: true, message: n ? `kgen: applied ${n} quick fix${n > 1 ? "es" : ""}` : "kgen: nothing to fix" };
    }
    case "kgen.fixWithAssistant": {
      const changed = Array.isArray(result.changed) ? result.changed.length : 0;
      return {
        ok: result.status === "verified",
        message: `kgen: ${result.status}: ${result.message}` + (changed ? ` (${changed} file${changed > 1 ? "s" : ""} changed)` : ""),
      };
    }
    case "kgen.generate":
      return {
        ok: result.status === "verified",
        message: `kgen: ${result.status}: ${result.message}` + (result.project ? ` — project ${result.project}` : ""),
      };
    case "kgen.benchmark": {
      const rep = result.report;
      const ok = Boolean(rep && rep.correct);
      return { ok, message: `kgen: ${rep ? rep.task : "bench"}: ${ok ? "correct" : rep && !rep.compiled ? "build failed" : "wrong results"}` };
    }
    default:
      return { ok: true, message: `kgen: ${command} done` };
  }
}

/** The input of "Ask for a kernel": an existing task path, or free words for the model. */
export function generateRequest(input: string, exists: (p: string) => boolean): Record<string, string> | null {
  const s = input.trim();
  if (!s) {
    return null;
  }
  return exists(s) ? { task: s } : { prompt: s };
}
