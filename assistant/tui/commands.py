"""What the user typed in ``kgen chat``: a slash command, a path, or free text; and completion candidates.

Pure functions only (no Textual, no I/O beyond looking at the file system for paths), so the parsing
and the completion rules are tested without an app.
"""
from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

ArgKind = Literal["path", "dir", "session", "choice", ""]
"""What completion offers after a command's name ("": nothing)."""
PathKind = Literal["task", "program", "file", "dir"]
"""What a typed path names: a task (dir, spec or reference), a kernel-launch program, another file or folder."""


@dataclass(frozen=True)
class CommandSpec:
    name: str          # without the slash
    usage: str         # argument synopsis, "" when none
    summary: str       # one line for /help and the completion list
    arg_required: bool = False
    arg_kind: ArgKind = ""
    choices: tuple[str, ...] = ()


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec("generate", "[TASK | words]", "draft, build, verify and benchmark a kernel for a task (or the last one)",
                arg_kind="path"),
    CommandSpec("bench", "[FILE]", "build, run and verify a task, op project or kernel-launch program (default: the current project)",
                arg_kind="path"),
    CommandSpec("fix", "[FILE]", "repair a project that does not build or is wrong (default: the current project)",
                arg_kind="path"),
    CommandSpec("docs", "QUERY", "search the AscendC knowledge base", arg_required=True),
    CommandSpec("model", "[URL | off]", "show the model, use an OpenAI-compatible endpoint, or 'off' for the offline drafter"),
    CommandSpec("backend", "sim | npu", "run kernels on the CPU emulator (sim) or an Ascend NPU (npu)", arg_required=True,
                arg_kind="choice", choices=("sim", "npu")),
    CommandSpec("open", "PATH", "show a file (or a project's files) in the files panel", arg_required=True, arg_kind="path"),
    CommandSpec("save", "DIR", "copy the current project and its report to DIR", arg_required=True, arg_kind="dir"),
    CommandSpec("undo", "", "revert the last repair: restore the previous round's files"),
    CommandSpec("sessions", "", "list the saved chat sessions"),
    CommandSpec("resume", "ID", "reopen a saved session and continue its unfinished run", arg_required=True,
                arg_kind="session"),
    CommandSpec("help", "", "show the commands and keys"),
)
BY_NAME = {c.name: c for c in COMMANDS}


@dataclass(frozen=True)
class Slash:
    name: str
    arg: str = ""


@dataclass(frozen=True)
class PathInput:
    path: Path
    kind: PathKind


@dataclass(frozen=True)
class FreeText:
    text: str


@dataclass(frozen=True)
class Invalid:
    message: str       # one line shown in the chat


Parsed = Slash | PathInput | FreeText | Invalid


def classify_path(p: Path) -> PathKind:
    """What a path names, by the layouts ``kgen bench``/``kgen generate`` accept (docs/task-spec.md)."""
    # lazy: bench_bridge.api (numpy, the emulator, the perf model) is ~0.5 s of kgen chat's start-up; a typed path needs it
    from bench_bridge.api import LAUNCH_SUFFIXES, TASK_FILE

    if p.is_dir():
        if (p / TASK_FILE).is_file() or any((p / n).is_file() for n in ("reference.py", "model.py")) \
                or (p / "answer").is_dir():
            return "task"
        return "dir"
    if p.suffix == ".toml" or p.suffix == ".py":
        return "task"
    if p.suffix in LAUNCH_SUFFIXES:
        return "program"
    return "file"


def parse(line: str, cwd: Path | None = None) -> Parsed | None:
    """Classify one input line. ``None`` for a blank line."""
    text = line.strip()
    if not text:
        return None
    if text.startswith("/"):
        head, _, rest = text[1:].partition(" ")
        name, arg = head.lower(), rest.strip()
        if not name:
            return Invalid("type a command after '/', e.g. /help")
        spec = BY_NAME.get(name)
        starts = [c for c in COMMANDS if c.name.startswith(name)]
        if spec is None and len(starts) == 1:
            spec, name = starts[0], starts[0].name
        elif spec is None and starts:
            return Invalid(f"/{name} is ambiguous: {', '.join('/' + c.name for c in starts)}")
        if spec is None:
            near = difflib.get_close_matches(name, list(BY_NAME), n=1)
            hint = f"; did you mean /{near[0]}?" if near else "; type /help for the list"
            return Invalid(f"unknown command /{name}{hint}")
        if spec.arg_required and not arg:
            return Invalid(f"/{name} needs {spec.usage}: {spec.summary}")
        if spec.choices and arg not in spec.choices:
            return Invalid(f"/{name} takes one of: {', '.join(spec.choices)} (got '{arg}')")
        if not spec.usage and arg:
            return Invalid(f"/{name} takes no argument")
        return Slash(name, arg)
    if " " not in text or os.sep in text:
        p = resolve(text, cwd)
        if p.exists():
            return PathInput(p, classify_path(p))
    return FreeText(text)


def resolve(arg: str, cwd: Path | None = None) -> Path:
    p = Path(os.path.expanduser(arg))
    return p if p.is_absolute() else (cwd or Path.cwd()) / p


def _path_candidates(partial: str, cwd: Path, dirs_only: bool) -> list[str]:
    head, slash, tail = partial.rpartition("/")
    if slash:
        base, prefix = (Path("/") if head == "" else resolve(head, cwd)), head + "/"
    else:
        base, prefix = cwd, ""
    try:
        entries = sorted(base.iterdir(), key=lambda e: e.name)
    except OSError:
        return []
    out = []
    for e in entries:
        if not e.name.startswith(tail) or (e.name.startswith(".") and not tail.startswith(".")):
            continue
        if dirs_only and not e.is_dir():
            continue
        out.append(prefix + e.name + ("/" if e.is_dir() else ""))
    return out


def complete(line: str, cwd: Path | None = None, sessions: list[str] | None = None) -> list[str]:
    """Full-line completions for what is typed so far (slash names, then their argument)."""
    if not line.startswith("/"):
        return []
    cwd = cwd or Path.cwd()
    head, sep, rest = line[1:].partition(" ")
    if not sep:
        return [f"/{c.name}" + (" " if c.usage else "") for c in COMMANDS if c.name.startswith(head.lower())]
    spec = BY_NAME.get(head.lower())
    if spec is None:
        return []
    lead = f"/{spec.name} "
    if spec.arg_kind == "choice":
        return [lead + c for c in spec.choices if c.startswith(rest)]
    if spec.arg_kind == "session":
        return [lead + s for s in (sessions or []) if s.startswith(rest)]
    if spec.arg_kind in ("path", "dir"):
        return [lead + c for c in _path_candidates(rest, cwd, spec.arg_kind == "dir")]
    return []


def common_prefix(options: list[str]) -> str:
    return os.path.commonprefix(options) if options else ""


def help_markdown() -> str:
    def usage(c: CommandSpec) -> str:
        return (" " + c.usage.replace("|", "\\|")) if c.usage else ""
    rows = "\n".join(f"| `/{c.name}{usage(c)}` | {c.summary} |" for c in COMMANDS)
    return ("**Commands**\n\n| command | what it does |\n|---|---|\n" + rows +
            "\n\nType a task path (a `kgen-task.toml`, a task folder or a reference `.py`) to generate a kernel for it, "
            "a kernel-launch program (`.asc`/`.cpp`) to bench it, or plain words to ask the model.\n\n"
            "**Keys**: `Tab` completes a command or path, `Ctrl+C` cancels the running step, "
            "`Ctrl+L` clears the chat, `Ctrl+Q` quits.")
