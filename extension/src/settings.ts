// Editor settings -> how the language server is started and what it is told (pure: no vscode import).

export interface KgenConfig {
  path: string; // "kgen", "/opt/kgen/bin/kgen" or "python3 -m assistant.cli"
  modelUrl: string; // OpenAI-compatible endpoint; "" = the offline drafter
  backend: string; // "sim" | "npu"
  buildOnSave: boolean;
}

export type ConfigGetter = <T>(key: string, fallback: T) => T;

export function readConfig(get: ConfigGetter): KgenConfig {
  const backend = String(get("backend", "sim"));
  return {
    path: String(get("path", "kgen")).trim() || "kgen",
    modelUrl: String(get("model.url", "")).trim(),
    backend: backend === "npu" ? "npu" : "sim",
    buildOnSave: Boolean(get("buildOnSave", true)),
  };
}

/** Split a command line into words: whitespace separates, single or double quotes group, a
 * backslash escapes the next character outside single quotes. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let cur = "";
  let has = false;
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) {
        quote = null;
      } else if (ch === "\\" && quote === '"' && i + 1 < line.length) {
        cur += line[++i];
      } else {
        cur += ch;
      }
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (ch === "\\" && i + 1 < line.length) {
      cur += line[++i];
      has = true;
    } else if (/\s/.test(ch)) {
      if (has) {
        words.push(cur);
        cur = "";
        has = false;
      }
    } else {
      cur += ch;
      has = true;
    }
  }
  if (quote) {
    throw new Error(`kgen.path has an unterminated ${quote} quote`);
  }
  if (has) {
    words.push(cur);
  }
  return words;
}

export interface ServerCommand {
  command: string;
  args: string[];
}

/** `<kgen.path> lsp`, e.g. {command: "python3", args: ["-m", "assistant.cli", "lsp"]}. */
export function serverCommand(cfg: KgenConfig): ServerCommand {
  const words = splitCommand(cfg.path);
  if (words.length === 0) {
    return { command: "kgen", args: ["lsp"] };
  }
  return { command: words[0], args: [...words.slice(1), "lsp"] };
}

/** A one-shot CLI call through the same kgen, e.g. `kgen docs QUERY`. */
export function cliCommand(cfg: KgenConfig, ...args: string[]): ServerCommand {
  const s = serverCommand(cfg);
  return { command: s.command, args: [...s.args.slice(0, -1), ...args] };
}

/** What the server reads from initializationOptions / workspace/didChangeConfiguration. */
export function serverSettings(cfg: KgenConfig): Record<string, unknown> {
  return {
    // null: not set in the editor, the server's settings tree (kgen.toml, KGEN_LLM_URL) decides
    model: { url: cfg.modelUrl || null },
    backend: cfg.backend,
    buildOnSave: cfg.buildOnSave,
  };
}
