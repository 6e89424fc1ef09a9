"""Render the agent's prompts from the data files in ``agent_graph/prompts/`` (no prompt text lives here).

The draft prompt follows NPUKernelBench's generation format, which KernelGen-LM was trained on: a role
line, the task (api_desc.md, test_cases.csv, hardware.txt), requirements, then the output template
with ``================== op_host/<op>_tiling.h ==================`` headers (or ``<kernel_impl>`` in
kernel-only mode). Repairs keep the conversation short: the system message, the original task, the
last draft (as clean files, without its reasoning) and one new complaint.
"""
from __future__ import annotations

import json
import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any

from agent_graph.edit_formats import expected_files, format_hint, op_file_stem
from agent_graph.edit_formats.npukb import header_line
from agent_graph.llm.client import ChatMessage
from bench_bridge.api import load_costs

PROMPT_DIR = Path(__file__).with_name("prompts")
MAX_CASES = 20            # test-case rows shown in the draft prompt
MAX_DIAGNOSTICS = 20      # diagnostics quoted in a build repair
MAX_DOCS_CHARS = 12000    # documentation excerpts per prompt
MAX_REPLY_CHARS = 12000   # a previous unparseable reply is quoted from its end, at most this long
_PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")


@lru_cache(maxsize=None)
def _template(name: str) -> str:
    return (PROMPT_DIR / name).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _sections() -> dict[str, str]:
    with open(PROMPT_DIR / "sections.toml", "rb") as f:
        return tomllib.load(f)


def render(text: str, **values: Any) -> str:
    """Replace every ``{{name}}``; a placeholder without a value is a bug in the caller (KeyError)."""
    def sub(m: re.Match) -> str:
        key = m.group(1)
        if key not in values:
            raise KeyError(f"prompt placeholder {{{{{key}}}}} has no value")
        return str(values[key])
    return _PLACEHOLDER.sub(sub, text)


def _section(name: str, **values: Any) -> str:
    return render(_sections()[name], **values)


def op_type_name(op_name: str) -> str:
    """CamelCase operator type: ``scaled_add`` -> ``ScaledAdd``; CamelCase names are kept."""
    if any(c.isupper() for c in op_name):
        return op_name.strip()
    return "".join(p[:1].upper() + p[1:] for p in op_name.strip().split("_") if p)


# -- the draft ---------------------------------------------------------------------------------------
def hardware_block(soc: str | None = None) -> str:
    """hardware.txt for the SoC (default: the ``bench.soc`` setting, else the SoC table's) from the performance
    model's cost table."""
    table = load_costs(soc)
    return render(_template("hardware.md"), soc_version=f"Ascend{table.soc}", short_soc=f"Ascend{table.soc[:4]}",
                  ai_cores=int(table.ai_cores), vector_cores=int(table.vector_cores), ub_bytes=int(table.ub_bytes))


def _cell(key: str, value: Any) -> str:
    if key == "inputs" and isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return ", ".join(f"{v.get('dtype', '?')}{list(v['shape']) if 'shape' in v else ''}" for v in value)
    if isinstance(value, str):
        return value
    return json.dumps(value)


def test_cases_table(task: Any) -> str:
    """The task's cases as NPUKernelBench's ``;``-separated csv (columns: every parameter, in first-seen order)."""
    csv = Path(task.root) / "validation" / "test_cases.csv" if getattr(task, "root", None) else None
    cases = list(getattr(task, "cases", []) or [])
    if task.format == "npukernelbench" and csv is not None and csv.is_file():
        rows = csv.read_text(encoding="utf-8").strip().splitlines()
        head, body = rows[:1], rows[1:]
    else:
        keys: list[str] = ["case_id"]
        for c in cases:
            for k in c.params:
                if k not in keys and not (k == "init" and not c.params[k]):
                    keys.append(k)
        head = [";".join(keys)]
        body = [";".join(c.id if k == "case_id" and k not in c.params else _cell(k, c.params.get(k, ""))
                         for k in keys) for c in cases]
    if not body or head == ["case_id"]:
        return _sections()["no_cases"]
    more = [_section("more_cases", n=len(body) - MAX_CASES)] if len(body) > MAX_CASES else []
    return "\n".join(head + body[:MAX_CASES] + more)


def _docs_section(docs: list[str]) -> str:
    if not docs:
        return ""
    kept, size = [], 0
    for d in docs:
        if size + len(d) > MAX_DOCS_CHARS and kept:
            break
        kept.append(d.strip()[:MAX_DOCS_CHARS])
        size += len(d)
    return _section("docs", docs=_sections()["docs_separator"].join(kept))


def _question_file(task: Any, rel: str) -> str | None:
    """A file the task gives as the starting point (NPUKernelBench's ``question/`` skeletons) -- never the
    task's answer project."""
    p = Path(task.root) / "question" / rel
    return p.read_text(encoding="utf-8").strip() if p.is_file() else None


def _given_host_file(task: Any, rel: str) -> str | None:
    """Kernel-only mode: the host side is given, from ``question/`` or else the task's own project."""
    text = _question_file(task, rel)
    if text is None and getattr(task, "project", None) and (Path(task.project) / rel).is_file():
        text = (Path(task.project) / rel).read_text(encoding="utf-8").strip()
    return text


def _fenced(path: str, text: str) -> str:
    return f"{header_line(path)}\n```cpp\n{text.rstrip()}\n```"


def draft_messages(task: Any, docs: list[str], op_name: str, mode: str = "project", *,
                   kernel_params: list[str] | None = None) -> list[ChatMessage]:
    """System + user message asking for the operator's files (``project``) or kernel only (``kernel``).
    ``kernel_params``: the OpDef's input and output names when known (the kernel entry's GM_ADDR parameters)."""
    op, op_type = op_file_stem(op_name), op_type_name(op_name)
    description = (task.description or "").strip()
    show_reference = task.format != "npukernelbench" or len(description) < 40
    reference = ""
    if show_reference and task.reference and Path(task.reference).is_file():
        reference = _section("reference", reference=Path(task.reference).read_text(encoding="utf-8").strip())
    kernel_template = _question_file(task, f"op_kernel/{op}.cpp") or render(
        _template("kernel_default.md"), op=op,
        kernel_params="".join(f"GM_ADDR {n}, " for n in kernel_params) if kernel_params else _sections()["kernel_params"]).strip()
    common = dict(op=op, op_type=op_type, requirements=_template("requirements.md").strip(),
                  api_desc=description or _sections()["no_api_desc"], test_cases=test_cases_table(task),
                  hardware=hardware_block().strip(), reference_section=reference, docs_section=_docs_section(docs),
                  kernel_template=kernel_template)
    if mode == "kernel":
        given = [(p, _given_host_file(task, p)) for p in (f"op_host/{op}_tiling.h", f"op_host/{op}.cpp")]
        host_files = "\n".join(_fenced(p, t) for p, t in given if t)
        user = render(_template("draft_kernel.md"), host_section=_section("host", host_files=host_files) if host_files else "",
                      **common)
    elif mode == "project":
        host = _question_file(task, f"op_host/{op}.cpp") or render(_template("host_default.md"), op_type=op_type).strip()
        host = host.replace(f'#include "{op}_tiling.h"\n', "")
        template = render(_template("project_template.md"), op=op, op_type=op_type, host_template=host,
                          kernel_template=kernel_template).strip()
        user = render(_template("draft_project.md"), template=template, **common)
    else:
        raise ValueError(f"unknown prompt mode {mode!r} (expected 'project' or 'kernel')")
    return [ChatMessage("system", _template("system.md").strip()), ChatMessage("user", user.strip())]


def dsl_draft_messages(task: Any, op_name: str) -> list[ChatMessage]:
    """System + user message asking for the operator as a tile DSL program (docs/dsl.md) in a ```kgen-dsl block."""
    description = (task.description or "").strip()
    reference = ""
    if task.reference and Path(task.reference).is_file():
        reference = _section("reference", reference=Path(task.reference).read_text(encoding="utf-8").strip())
    user = render(_template("draft_dsl.md"), op_type=op_type_name(op_name), language=_template("dsl_language.md").strip(),
                  api_desc=description or _sections()["no_api_desc"], test_cases=test_cases_table(task),
                  hardware=hardware_block().strip(), reference_section=reference)
    return [ChatMessage("system", _template("system_dsl.md").strip()), ChatMessage("user", _tidy(user))]


# -- repairs -----------------------------------------------------------------------------------------
def _files_mode_op(files: dict[str, str]) -> tuple[str, str]:
    kernels = sorted(p for p in files if p.startswith("op_kernel/") and p.endswith(".cpp"))
    op = Path(kernels[0]).stem if kernels else next((Path(p).stem for p in sorted(files) if p.endswith(".cpp")), "op")
    mode = "project" if any(p.startswith("op_host/") for p in files) else "kernel"
    return op, mode


def render_files(files: dict[str, str]) -> str:
    """The files in the reply format the model is asked for: ``=====`` headers, or ``<kernel_impl>`` alone."""
    op, mode = _files_mode_op(files)
    if mode == "kernel":
        return f"<kernel_impl>\n```cpp\n{files[f'op_kernel/{op}.cpp'].rstrip()}\n```\n</kernel_impl>" \
            if f"op_kernel/{op}.cpp" in files else "\n".join(_fenced(p, t) for p, t in sorted(files.items()))
    order = {p: i for i, p in enumerate(expected_files(op, "project"))}
    return "\n".join(_fenced(p, files[p]) for p in sorted(files, key=lambda p: (order.get(p, 99), p)))


def _short_history(history: list[ChatMessage], last_answer: str | None) -> list[ChatMessage]:
    """System messages, the first user message (the task), and the last answer (if any)."""
    keep = [m for m in history if m.role == "system"]
    first_user = next((m for m in history if m.role == "user"), None)
    if first_user is not None:
        keep.append(first_user)
    if last_answer is not None:
        keep.append(ChatMessage("assistant", last_answer))
    return keep


def _project_path(path: str) -> str:
    p = path.replace("\\", "/")
    for d in ("op_host/", "op_kernel/"):
        k = p.rfind(d)
        if k >= 0:
            return p[k:]
    return p


def _line(which: str, /, **values: Any) -> str:
    return render(_sections()["lines"][which], **values)


def _words(text: Any) -> str:
    return " ".join(str(text).split())


def format_diagnostic(d: dict) -> str:
    """``file:line: severity: message [code]`` (file made project-relative), notes indented below."""
    loc = _project_path(str(d.get("file") or "")) or "<build>"
    if d.get("line"):
        loc += f":{d['line']}"
    code = d.get("code") or ""
    out = _line("diagnostic", loc=loc, severity=d.get("severity") or "error", message=_words(d.get("message", "")),
                code=_line("diagnostic_code", code=code) if code and code != "compile" else "",
                block=_line("diagnostic_block", block=d["block"]) if isinstance(d.get("block"), int) and d["block"] >= 0 else "")
    notes = [_line("note", note=_words(n)) for n in (d.get("notes") or [])[:3]]
    return "\n".join([out] + notes)


def _snippets(files: dict[str, str], diagnostics: list[dict]) -> str:
    seen, out = set(), []
    for d in diagnostics:
        path, line = _project_path(str(d.get("file") or "")), int(d.get("line") or 0)
        if path not in files or line <= 0 or (path, line) in seen:
            continue
        seen.add((path, line))
        lines = files[path].split("\n")
        lo, hi = max(1, line - 2), min(len(lines), line + 2)
        out.append("\n".join(f"{path}:{n}{'>' if n == line else '|'} {lines[n - 1]}" for n in range(lo, hi + 1)))
        if len(out) >= 8:
            break
    return "\n\n".join(out)


def build_repair_messages(history: list[ChatMessage], files: dict[str, str], diagnostics: list[dict],
                          docs: list[str]) -> list[ChatMessage]:
    """Ask for a fix of compiler/emulator diagnostics: errors first, quoted as ``file:line: message``."""
    op, mode = _files_mode_op(files)
    ordered = sorted(diagnostics, key=lambda d: (d.get("severity") != "error", ))
    quoted = [format_diagnostic(d) for d in ordered[:MAX_DIAGNOSTICS]]
    if len(ordered) > MAX_DIAGNOSTICS:
        quoted.append(_section("more_diagnostics", n=len(ordered) - MAX_DIAGNOSTICS))
    snippets = _snippets(files, ordered[:MAX_DIAGNOSTICS])
    need = expected_files(op, mode)
    user = render(_template("build_repair.md"), diagnostics="\n".join(quoted) or "(no diagnostics were reported)",
                  files=_section("code_at_lines", snippets=snippets) if snippets else "",
                  docs_section=_docs_section(docs), n_files=_n_files(need), format_hint=format_hint(op, mode))
    return _short_history(history, render_files(files)) + [ChatMessage("user", _tidy(user))]


def _n_files(need: list[str]) -> str:
    return _line("one_file") if len(need) == 1 else _line("n_files", n=len(need))


def _fmt_num(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def _output_details(o: dict) -> str:
    if o.get("reason"):
        return str(o["reason"])
    parts = []
    if o.get("mismatches") is not None and o.get("total"):
        parts.append(_line("mismatches", mismatches=o["mismatches"], total=o["total"]))
    if o.get("first_mismatch") is not None:
        parts.append(_line("first_mismatch", index=list(o["first_mismatch"]), expected=_fmt_num(o.get("expected")),
                           actual=_fmt_num(o.get("actual"))))
    if o.get("max_abs_error") is not None:
        thr = _line("threshold", threshold=_fmt_num(o["threshold"])) if o.get("threshold") is not None else ""
        parts.append(_line("error_size", abs=_fmt_num(o["max_abs_error"]), rel=_fmt_num(o.get("max_rel_error")),
                           threshold=thr))
    return "; ".join(parts)


def format_failure(f: dict) -> str:
    """One failing case in words: its parameters, which output, where it first differs and by how much."""
    case = f.get("case_id", f.get("case", f.get("id", "?")))
    params = f.get("params") or {}
    ptxt = ", ".join(f"{k}={_cell(k, v)}" for k, v in params.items() if k != "case_id")
    head = _line("case", case=case, params=_line("case_params", params=ptxt) if ptxt else "")
    if f.get("status") == "error":
        return _line("case_error", head=head, message=_words(f.get("message", "")))
    lines = [head + ":"]
    for o in f.get("outputs") or [f]:
        if o.get("passed") is True:
            continue
        shape = o.get("shape")
        lines.append(_line("output", name=o.get("name") or o.get("output") or "?", details=_output_details(o),
                           shape=_line("output_shape", dtype=o.get("dtype"), shape=list(shape)) if shape is not None else ""))
    if len(lines) == 1:
        return _line("case_other", head=head, message=_words(f.get("message", "")))
    return "\n".join(lines)


def correctness_repair_messages(history: list[ChatMessage], files: dict[str, str],
                                failures: list[dict]) -> list[ChatMessage]:
    """Ask for a fix of wrong results: each failing case, the output, the first mismatch and the error size."""
    op, mode = _files_mode_op(files)
    user = render(_template("correctness_repair.md"), failures="\n".join(format_failure(f) for f in failures),
                  files="", n_files=_n_files(expected_files(op, mode)), format_hint=format_hint(op, mode))
    return _short_history(history, render_files(files)) + [ChatMessage("user", _tidy(user))]


def dsl_repair_messages(history: list[ChatMessage], program: str, failures: list[dict],
                        diagnostics: list[dict]) -> list[ChatMessage]:
    """Ask for a corrected tile DSL program: the wrong cases (or the lowered project's build errors), with the
    program (not the C++ kgen lowered it to) as the last answer."""
    if failures:
        problem = _section("dsl_wrong", failures="\n".join(format_failure(f) for f in failures))
    else:
        problem = _section("dsl_no_build", diagnostics="\n".join(format_diagnostic(d) for d in diagnostics[:MAX_DIAGNOSTICS]))
    user = render(_template("dsl_repair.md"), problem=problem.strip())
    return _short_history(history, f"```kgen-dsl\n{program.rstrip()}\n```") + [ChatMessage("user", _tidy(user))]


def parse_repair_messages(history: list[ChatMessage], complaint: str) -> list[ChatMessage]:
    """Ask again after a reply that could not be parsed: the reply (its end, if long) and the complaint."""
    last = next((m.content for m in reversed(history) if m.role == "assistant"), None)
    if last is not None and len(last) > MAX_REPLY_CHARS:
        last = _section("omitted_reply", n=len(last) - MAX_REPLY_CHARS) + last[-MAX_REPLY_CHARS:]
    user = render(_template("parse_repair.md"), complaint=complaint.strip())
    return _short_history(history, last) + [ChatMessage("user", _tidy(user))]


def _tidy(text: str) -> str:
    return re.sub(r"\n{3,}", "\n\n", text).strip()
