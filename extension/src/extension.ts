// The kgen extension: starts `kgen lsp` over stdio, forwards the settings, adds the command palette
// entries, a status bar item and the benchmark results view. Logic lives in the pure modules
// (settings, report, status, outcome); this file is the VS Code glue.
import * as cp from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

import { DEBUG_TYPE, EditorBreakpoint, KgenDebugConfiguration, breakLines, debugCommand, initialConfiguration, problem } from "./debug";
import { describe, generateRequest } from "./outcome";
import { BenchReport, resourceRoots, resultsPage, summary, timelines } from "./report";
import { KgenConfig, cliCommand, readConfig, serverCommand, serverSettings } from "./settings";
import { statusText } from "./status";

let client: LanguageClient | undefined;
let status: vscode.StatusBarItem;
let lastBench: string | undefined;
let panel: vscode.WebviewPanel | undefined;

function config(): KgenConfig {
  const c = vscode.workspace.getConfiguration("kgen");
  return readConfig((key, fallback) => c.get(key, fallback));
}

function updateStatus(): void {
  const cfg = config();
  const s = statusText(cfg.backend, cfg.modelUrl, lastBench);
  status.text = s.text;
  status.tooltip = s.tooltip;
  status.show();
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const cfg = config();
  const cmd = serverCommand(cfg);
  const serverOptions: ServerOptions = { command: cmd.command, args: cmd.args, transport: TransportKind.stdio };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "cpp" },
      { scheme: "file", language: "ascendc" },
    ],
    initializationOptions: serverSettings(cfg),
    outputChannelName: "kgen",
  };
  client = new LanguageClient("kgen", "kgen AscendC", serverOptions, clientOptions);
  await client.start();
  context.subscriptions.push({ dispose: () => void client?.stop() });
}

async function runServerCommand(command: string, args: unknown[]): Promise<any> {
  if (!client) {
    vscode.window.showErrorMessage("kgen: the language server is not running (check the kgen.path setting)");
    return undefined;
  }
  return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
}

function report(command: string, result: any): void {
  const o = describe(command, result);
  if (o.ok) {
    vscode.window.showInformationMessage(o.message);
  } else {
    vscode.window.showWarningMessage(o.message);
  }
}

function showResults(rep: BenchReport, png: string | null): void {
  // the report names its pictures (artifacts); the folders they are in are all the webview may read
  const pictures = timelines(rep, png);
  const roots = resourceRoots(pictures).map((d) => vscode.Uri.file(d));
  if (!panel) {
    panel = vscode.window.createWebviewPanel("kgenResults", "kgen results", { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
      enableScripts: false,
      localResourceRoots: roots,
    });
    panel.onDidDispose(() => (panel = undefined));
  } else {
    panel.webview.options = { enableScripts: false, localResourceRoots: roots };
  }
  const view = panel.webview;
  const stamp = Date.now(); // the same file names are rewritten by the next bench: do not show a cached picture
  const images = pictures.map((t) => ({ caseId: t.caseId, src: `${view.asWebviewUri(vscode.Uri.file(t.png))}?t=${stamp}` }));
  panel.title = `kgen: ${rep.task}`;
  view.html = resultsPage(rep, images, view.cspSource);
  panel.reveal(vscode.ViewColumn.Beside, true);
}

function activeUri(): vscode.Uri | undefined {
  const ed = vscode.window.activeTextEditor;
  if (!ed) {
    vscode.window.showWarningMessage("kgen: open an AscendC file first");
    return undefined;
  }
  return ed.document.uri;
}

async function benchmarkCurrent(): Promise<void> {
  const uri = activeUri();
  const editor = vscode.window.activeTextEditor;
  if (!uri || !editor) {
    return;
  }
  await editor.document.save();
  const result = await runServerCommand("kgen.benchmark", [uri.toString()]);
  report("kgen.benchmark", result);
  if (result && result.report) {
    lastBench = summary(result.report as BenchReport);
    updateStatus();
    showResults(result.report as BenchReport, result.png ?? null);
    // the kernel keeps the focus: VS Code asks for the hot-line code lenses (the server's refresh after a
    // bench) of a focused editor, and the user goes on editing there with the results beside
    await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
  }
}

async function ask(): Promise<void> {
  const input = await vscode.window.showInputBox({
    prompt: "kgen: describe the kernel, or give a task (NPUKernelBench dir, KernelBench .py, kgen-task.toml)",
    placeHolder: "e.g. examples/tasks/gelu/kgen-task.toml or 'softmax over the last dim, fp16'",
  });
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "";
  const req = generateRequest(input ?? "", (p) => fs.existsSync(path.isAbsolute(p) ? p : path.join(root, p)));
  if (!req) {
    return;
  }
  if (req.task && !path.isAbsolute(req.task)) {
    req.task = path.join(root, req.task);
  }
  const result = await runServerCommand("kgen.generate", [req]);
  report("kgen.generate", result);
  if (result && result.project) {
    const kernels = path.join(result.project, "op_kernel");
    const first = fs.existsSync(kernels) ? fs.readdirSync(kernels).find((f) => f.endsWith(".cpp")) : undefined;
    if (first) {
      await vscode.window.showTextDocument(vscode.Uri.file(path.join(kernels, first)));
    }
    if (result.report) {
      showResults(result.report as BenchReport, null);
    }
  }
}

async function fixWith(command: "kgen.fixWithAssistant" | "kgen.fixCompileErrors"): Promise<void> {
  const uri = activeUri();
  if (!uri) {
    return;
  }
  if (command === "kgen.fixWithAssistant") {
    await vscode.window.activeTextEditor?.document.save();
  }
  // the server applies the edit itself (workspace/applyEdit) and returns it
  report(command, await runServerCommand(command, [uri.toString()]));
}

async function showDocs(): Promise<void> {
  const ed = vscode.window.activeTextEditor;
  const word = ed ? ed.document.getText(ed.document.getWordRangeAtPosition(ed.selection.active)) : "";
  const query = await vscode.window.showInputBox({ prompt: "kgen: search the AscendC docs", value: word });
  if (!query) {
    return;
  }
  const c = cliCommand(config(), "docs", query);
  cp.execFile(c.command, c.args, { maxBuffer: 4 << 20 }, async (err, stdout, stderr) => {
    if (err && !stdout) {
      vscode.window.showErrorMessage(`kgen docs: ${(stderr || String(err)).trim().split("\n").pop()}`);
      return;
    }
    const doc = await vscode.workspace.openTextDocument({ language: "markdown", content: stdout });
    await vscode.window.showTextDocument(doc, vscode.ViewColumn.Beside, true);
  });
}

function editorBreakpoints(): EditorBreakpoint[] {
  return vscode.debug.breakpoints
    .filter((b): b is vscode.SourceBreakpoint => b instanceof vscode.SourceBreakpoint && b.enabled)
    .map((b) => ({ file: b.location.uri.fsPath, line: b.location.range.start.line + 1 }));
}

/** `kgen sim debug` in a terminal: the program built with debug info and run under gdb (gdb's prompt is
 * the terminal's; a stop on a kernel line names the emulated core). */
function startDebugTerminal(conf: Partial<KgenDebugConfiguration>): void {
  const why = problem(conf);
  if (why) {
    vscode.window.showErrorMessage(why);
    return;
  }
  const program = conf.program as string;
  const cmd = debugCommand(config(), program, breakLines(conf, editorBreakpoints(), program), conf.args ?? []);
  const term = vscode.window.createTerminal({
    name: `kgen debug: ${path.basename(program)}`,
    shellPath: cmd.command,
    shellArgs: cmd.args,
    cwd: path.dirname(program),
  });
  term.show();
}

/** The "kgen-sim" launch configurations: resolved into a terminal running `kgen sim debug` (undefined:
 * VS Code starts no debug adapter of its own). */
const debugProvider: vscode.DebugConfigurationProvider = {
  provideDebugConfigurations: () => [initialConfiguration()],
  resolveDebugConfiguration: (_folder, conf) => {
    if (!conf.type && !conf.request && !conf.name) {
      return initialConfiguration(); // F5 without a launch.json
    }
    return conf;
  },
  resolveDebugConfigurationWithSubstitutedVariables: (_folder, conf) => {
    startDebugTerminal(conf as Partial<KgenDebugConfiguration>);
    return undefined;
  },
};

async function debugCurrent(): Promise<void> {
  const uri = activeUri();
  if (!uri) {
    return;
  }
  await vscode.window.activeTextEditor?.document.save();
  const line = (vscode.window.activeTextEditor?.selection.active.line ?? -1) + 1;
  const hasOwn = editorBreakpoints().some((b) => path.resolve(b.file) === path.resolve(uri.fsPath));
  // no breakpoint in the file: stop at the cursor's line
  startDebugTerminal({ ...initialConfiguration(), program: uri.fsPath, breakLines: hasOwn || line < 1 ? [] : [line] });
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 50);
  status.command = "kgen.benchmarkCurrent";
  context.subscriptions.push(status);
  updateStatus();
  context.subscriptions.push(
    vscode.commands.registerCommand("kgen.ask", ask),
    vscode.commands.registerCommand("kgen.benchmarkCurrent", benchmarkCurrent),
    vscode.commands.registerCommand("kgen.fixWithAssistantCurrent", () => fixWith("kgen.fixWithAssistant")),
    vscode.commands.registerCommand("kgen.fixCompileErrorsCurrent", () => fixWith("kgen.fixCompileErrors")),
    vscode.commands.registerCommand("kgen.showDocs", showDocs),
    vscode.commands.registerCommand("kgen.debugCurrent", debugCurrent),
    vscode.debug.registerDebugConfigurationProvider(DEBUG_TYPE, debugProvider),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration("kgen")) {
        return;
      }
      updateStatus();
      if (e.affectsConfiguration("kgen.path")) {
        await client?.stop();
        await startClient(context);
      } else if (client) {
        await client.sendNotification(DidChangeConfigurationNotification.type, { settings: { kgen: serverSettings(config()) } });
      }
    }),
  );
  try {
    await startClient(context);
  } catch (e) {
    vscode.window.showErrorMessage(`kgen: cannot start '${config().path} lsp': ${e}`);
  }
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
