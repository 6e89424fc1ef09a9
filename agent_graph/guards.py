"""Guards against kernels that do not do the work (reward hacking), after the cheating checks of
KernelBench and MultiKernelBench: generated code must compute the output on the device itself.

Static checks on the generated sources (comments removed, string literals kept for the file checks):
  - no calls into PyTorch, Python or the reference (torch::, at::, pybind11, Python.h, PyObject...);
  - no escape to another process or library (system, popen, exec*, fork, dlopen);
  - no file or environment access (fopen, fstream, open/read, mmap, getenv): a kernel that reads files
    could read the reference's expected outputs;
  - no string naming the reference or its outputs (reference.py, golden, expected, cases.json, .bin).
Dynamic check on a verified run: an output element that still holds the emulator's GM fill pattern
(the op harness fills the outputs it allocates with 0xCD bytes) was never written, so a kernel writing only part of
its output is named as such instead of as a generic mismatch.

A rejected candidate is not built: it goes to a repair round with the reason (graph: build node).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class GuardFinding:
    file: str
    line: int
    rule: str          # torch-call | process | file-access | reference-data
    message: str

    def to_diagnostic(self) -> dict:
        """As a bench_bridge diagnostic dict, so repairs and front ends treat it like a compiler error."""
        return {"severity": "error", "message": self.message, "file": self.file, "line": self.line, "col": 1,
                "code": f"guard-{self.rule}", "stage": "guard"}


_RULES: list[tuple[str, re.Pattern, str]] = [
    ("torch-call", re.compile(r"#\s*include\s*[<\"](torch|ATen|c10|Python|pybind11)[/.>\"]"),
     "includes a PyTorch/Python header: the kernel must compute the result itself"),
    ("torch-call", re.compile(r"(?<![\w:])(torch|at|c10|py|pybind11)::\w+"),
     "calls into PyTorch/Python ({m}): the kernel must compute the result itself"),
    ("torch-call", re.compile(r"\b(PyObject|PyImport_\w+|Py_Initialize|PyRun_\w+)\b"),
     "calls the Python interpreter ({m}): the kernel must compute the result itself"),
    ("process", re.compile(r"\b(system|popen|execl|execlp|execle|execv|execvp|execve|fork|vfork|dlopen|dlsym)\s*\("),
     "starts a process or loads a library ({m}): generated code may only compute on the device"),
    ("file-access", re.compile(r"\b(fopen|freopen|ifstream|ofstream|fstream|mmap|getenv|opendir)\b"),
     "accesses files or the environment ({m}): a kernel could read the expected outputs that way"),
    ("file-access", re.compile(r"(?<![\w.:>])(open|read|pread)\s*\(\s*\"", ),
     "opens a file ({m}): a kernel could read the expected outputs that way"),
    ("reference-data", re.compile(r"\"[^\"\n]*(reference\.py|golden|expected|cases\.json|\.bin\b|\.npy\b|/tmp/)[^\"\n]*\"",
                                  re.IGNORECASE),
     "names the reference or its data ({m}): the kernel must not read expected outputs"),
]


def _strip_comments(text: str) -> str:
    """Comments replaced by blanks (newlines kept, so line numbers stay right); strings untouched."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join("\n" if ch == "\n" else " " for ch in text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def check_sources(files: dict[str, str]) -> list[GuardFinding]:
    """Static findings over the generated C++ sources (``{relative path: text}``), first per rule and file."""
    found: list[GuardFinding] = []
    for rel, text in sorted(files.items()):
        if not rel.endswith((".cpp", ".h", ".hpp", ".cc", ".asc")):
            continue
        code = _strip_comments(text)
        seen: set[str] = set()
        for rule, pat, msg in _RULES:
            if rule in seen:
                continue
            m = pat.search(code)
            if m:
                seen.add(rule)
                line = code.count("\n", 0, m.start()) + 1
                found.append(GuardFinding(rel, line, rule, f"{rel}:{line}: " + msg.format(m=m.group(0).strip())))
    return found


# ---- the dynamic check: outputs left unwritten ------------------------------------------------

_FILL = {"float32": np.frombuffer(b"\xcd" * 4, np.float32)[0], "float16": np.frombuffer(b"\xcd" * 2, np.float16)[0],
         "bfloat16": np.frombuffer(b"\x00\x00\xcd\xcd", np.float32)[0], "int32": np.frombuffer(b"\xcd" * 4, np.int32)[0],
         "int16": np.frombuffer(b"\xcd" * 2, np.int16)[0], "int8": np.int8(-51), "uint8": np.uint8(0xCD),
         "int64": np.frombuffer(b"\xcd" * 8, np.int64)[0]}


def fill_value(dtype: str) -> float | None:
    """The value an element of ``dtype`` reads as when no kernel wrote it (0xCD bytes), or None."""
    v = _FILL.get(dtype)
    return None if v is None else float(v)


def unwritten_output(case: dict) -> str | None:
    """For a failed case (BenchReport case dict): a reason when its first mismatch still holds the GM
    fill pattern (the op harness's 0xCD bytes), i.e. the kernel never wrote that part of the output."""
    dtypes = case.get("dtypes") or []
    for o in case.get("outputs") or []:
        if o.get("passed") or o.get("actual") is None:
            continue
        for dt in {o.get("dtype"), *(dtypes[:1])}:
            fv = fill_value(dt or "")
            if fv is not None and _same(o["actual"], fv):
                where = o.get("first_mismatch")
                return (f"output {o.get('name')} was only partly written: element {where} still holds the "
                        f"uninitialised device-memory pattern ({fv:g}); every output element must be computed")
    return None


def _same(a: float, b: float) -> bool:
    return a == b or abs(a - b) <= 1e-3 * max(1.0, abs(b))
