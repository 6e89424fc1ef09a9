// The status bar item's text (pure: no vscode import).

/** "offline" for no endpoint, else host[:port] of the model URL. */
export function modelLabel(url: string): string {
  if (!url) {
    return "offline";
  }
  try {
    const u = new URL(url);
    return u.host || url;
  } catch {
    return url;
  }
}

export interface StatusText {
  text: string;
  tooltip: string;
}

export function statusText(backend: string, modelUrl: string, lastBench?: string): StatusText {
  const text = `$(circuit-board) kgen ${backend} · ${modelLabel(modelUrl)}` + (lastBench ? ` · ${lastBench}` : "");
  const tooltip =
    `kgen — backend: ${backend}; model: ${modelUrl || "none (offline drafter)"}` +
    (lastBench ? `; last bench: ${lastBench}` : "") +
    "\nClick to benchmark the current file.";
  return { text, tooltip };
}
