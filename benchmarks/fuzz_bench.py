"""Fuzz `kgen bench` with mutated kernels: each mutant is one of examples/*/*.asc with one fault
injected into its kernel code (the part above `int main`), modelled on the error classes of generated
AscendC kernels (AscendKernelGen's 4,000 failures: overloads, dtypes, scope, memory and object misuse,
syntax) plus injected hangs and crashes; every mutant goes through the real CLI
(`kgen bench FILE --json --timeout T`) and its answer is classified.

    python benchmarks/fuzz_bench.py [--seed 0] [--count 1000] [--jobs 2] [--timeout 5] [--out FILE.jsonl]

Verdict classes: compile-located (a build error naming the mutant's file and line), runtime-located
(an emulator rule violation naming a line of the mutant), wrong-result, timeout, crash (a crash the
report names as one), unverified, correct; and the failures: traceback (any Python traceback in
kgen's output), unlocated (an error with no line of the mutant), unclear (no report, or a verdict a
user cannot read: a bare exit status), kgen-hung (kgen itself did not return).

Mutants are written to a temporary folder (removed at the end; --keep keeps it); the examples are
never touched. Issue 20 target: 0 tracebacks, every answer a located diagnostic or a clear verdict.
The last line is the summary figure."""
from __future__ import annotations

import argparse
import collections
import concurrent.futures as cf
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# ---- mutations ---------------------------------------------------------------------------------

CALL = re.compile(r"AscendC::(\w+)(<[^<>()]*>)?\(")


def _calls(k: str):
    """(start of name, open paren, close paren, args) of AscendC::Op(...) calls with balanced parens."""
    out = []
    for m in CALL.finditer(k):
        i, depth = m.end(), 1
        while i < len(k) and depth:
            depth += {"(": 1, ")": -1}.get(k[i], 0)
            i += 1
        if depth:
            continue
        inner = k[m.end():i - 1]
        args, d, cur = [], 0, ""
        for ch in inner:
            if ch == "," and d == 0:
                args.append(cur)
                cur = ""
                continue
            d += {"(": 1, ")": -1, "<": 1, ">": -1, "[": 1, "]": -1}.get(ch, 0)
            cur += ch
        if cur.strip():
            args.append(cur)
        out.append((m.start(), m.end(), i - 1, [a.strip() for a in args], m.group(1)))
    return out


def _with_args(k: str, call, args: list[str]) -> str:
    _, open_, close, _, _ = call
    return k[:open_] + ", ".join(args) + k[close:]


def m_overload(rng: random.Random, k: str) -> str | None:
    calls = [c for c in _calls(k) if len(c[3]) >= 2]
    if not calls:
        return None
    c = rng.choice(calls)
    args = list(c[3])
    how = rng.choice(["drop", "extra", "swap", "scalar", "tensor"])
    if how == "drop":
        del args[rng.randrange(len(args))]
    elif how == "extra":
        args.insert(rng.randrange(len(args) + 1), rng.choice(["1", "0.5f", "nullptr"]))
    elif how == "swap":
        i = rng.randrange(len(args) - 1)
        args[i], args[i + 1] = args[i + 1], args[i]
    elif how == "scalar":          # a scalar where a tensor goes
        args[rng.randrange(len(args))] = rng.choice(["1.0f", "(half)2", "3"])
    else:                          # a tensor where a scalar goes (Muls given a LocalTensor)
        args[-1 if len(args) < 3 else rng.randrange(1, len(args))] = args[0]
    return _with_args(k, c, args)


DTYPES = ["half", "float", "int8_t", "uint8_t", "int16_t", "int32_t", "bool", "double", "uint64_t", "bfloat16_t"]


def m_dtype(rng: random.Random, k: str) -> str | None:
    spots = [m for m in re.finditer(r"(?<=[<(, ])(half|float|int32_t|int16_t|uint8_t|int8_t|bfloat16_t)(?=[>,)* ])", k)]
    if not spots:
        return None
    m = rng.choice(spots)
    new = rng.choice([d for d in DTYPES if d != m.group(1)])
    return k[:m.start()] + new + k[m.end():]


def m_scope(rng: random.Random, k: str) -> str | None:
    how = rng.choice(["rename", "undeclared_api", "tiling", "other_function"])
    if how == "undeclared_api":
        calls = _calls(k)
        if not calls:
            return None
        c = rng.choice(calls)
        name = rng.choice(["IsInf", "Tanh2", "VecAdd", "ReduceAll", "CastTo"])
        return k[:c[0]] + "AscendC::" + name + k[c[0] + len("AscendC::") + len(c[4]):]
    if how == "tiling":
        body = k.find("{", k.find("__global__"))
        if body < 0:
            return None
        return k[:body + 1] + "\n    uint32_t n0 = tilingData.totalLength;\n" + k[body + 1:]
    # a use of a declared local renamed to a name nothing declares, or a local of another function
    decls = re.findall(r"\b(?:LocalTensor<\w+>|uint32_t|int32_t|float|auto)\s+(\w+)\s*=", k)
    if not decls:
        return None
    name = rng.choice(decls)
    uses = [m for m in re.finditer(rf"\b{re.escape(name)}\b", k)]
    if len(uses) < 2:
        return None
    m = rng.choice(uses[1:])
    new = name + "_undeclared" if how == "rename" else rng.choice(["blockLength", "tileNum", "tmpLocal", "gmOffset"])
    return k[:m.start()] + new + k[m.end():]


def _lines_with(k: str, pat: str) -> list[int]:
    lines = k.split("\n")
    return [i for i, line in enumerate(lines) if re.search(pat, line)]


def m_queue(rng: random.Random, k: str) -> str | None:
    lines = k.split("\n")
    how = rng.choice(["double_alloc", "deque_without_enque", "free_twice", "use_after_free", "no_free",
                      "enque_twice"])
    if how == "double_alloc":
        idx = _lines_with(k, r"=\s*\w+\.AllocTensor<")
        if not idx:
            return None
        i = rng.choice(idx)
        lines.insert(i + 1, re.sub(r"(\w+)(\s*=\s*\w+\.AllocTensor)", r"\1_again\2", lines[i], count=1))
    elif how == "deque_without_enque":
        idx = _lines_with(k, r"\.EnQue(<\w+>)?\(")
        if not idx:
            return None
        del lines[rng.choice(idx)]
    elif how == "free_twice":
        idx = _lines_with(k, r"\.FreeTensor\(")
        if not idx:
            return None
        i = rng.choice(idx)
        lines.insert(i + 1, lines[i])
    elif how == "use_after_free":   # the FreeTensor moved above the statement before it
        idx = [i for i in _lines_with(k, r"\.FreeTensor\(") if i > 0 and lines[i - 1].strip().endswith(";")]
        if not idx:
            return None
        i = rng.choice(idx)
        lines[i - 1], lines[i] = lines[i], lines[i - 1]
    elif how == "no_free":
        idx = _lines_with(k, r"\.FreeTensor\(")
        if not idx:
            return None
        del lines[rng.choice(idx)]
    else:
        idx = _lines_with(k, r"\.EnQue(<\w+>)?\(")
        if not idx:
            return None
        i = rng.choice(idx)
        lines.insert(i + 1, lines[i])
    return "\n".join(lines)


def m_datacopy(rng: random.Random, k: str) -> str | None:
    calls = [c for c in _calls(k) if c[4] in ("DataCopy", "DataCopyPad") and len(c[3]) == 3]
    if not calls:
        return None
    c = rng.choice(calls)
    args = list(c[3])
    n = args[2]
    args[2] = rng.choice([f"({n}) + 1", f"({n}) * 2", f"({n}) - 1", f"({n}) * 100000", "0", "7", f"({n}) / 3"])
    return _with_args(k, c, args)


def m_syntax(rng: random.Random, k: str) -> str | None:
    how = rng.choice(["semicolon", "brace", "paren", "junk", "define", "string", "comment", "template"])
    if how == "define":
        return "#define ALIGN_SIZE 32\n#define ALIGN_SIZE 64\n" + k.replace("class ", "class /*x*/ ", 0)
    pat = {"semicolon": ";", "brace": "}", "paren": ")"}.get(how)
    if pat is not None:
        spots = [i for i, ch in enumerate(k) if ch == pat]
        if not spots:
            return None
        i = rng.choice(spots)
        return k[:i] + k[i + 1:]
    lines = k.split("\n")
    i = rng.randrange(len(lines))
    ins = {"junk": "@ $ `", "string": "\"unterminated", "comment": "/* never closed",
           "template": "template <typename"}[how]
    lines.insert(i, ins)
    return "\n".join(lines)


def _kernel_body(k: str) -> int | None:
    m = re.search(r"__global__[^{;]*\{", k)
    return m.end() if m else None


def m_hang(rng: random.Random, k: str) -> str | None:
    at = _kernel_body(k)
    if at is None:
        return None
    loop = rng.choice(["while(1);", "while (true) {}", "for (;;) {}", "volatile int spin = 1; while (spin) {}"])
    return k[:at] + "\n    " + loop + "\n" + k[at:]


def m_crash(rng: random.Random, k: str) -> str | None:
    at = _kernel_body(k)
    if at is None:
        return None
    bad = rng.choice(["*(volatile int*)0 = 1;", "abort();", "__builtin_trap();",
                      "volatile int* bad = (volatile int*)16; *bad = 3;",
                      "volatile char* p = nullptr; p[12345] = 1;"])
    return k[:at] + "\n    " + bad + "\n" + k[at:]


MUTATIONS = {   # class -> (weight, mutator); weights after AscendKernelGen's failure shares
    "wrong-overload": (30, m_overload), "wrong-dtype": (15, m_dtype), "out-of-scope": (12, m_scope),
    "queue-misuse": (15, m_queue), "datacopy-length": (10, m_datacopy), "syntax": (8, m_syntax),
    "hang": (5, m_hang), "crash": (5, m_crash),
}


def mutant(seed: int, i: int, examples: list[Path]) -> tuple[str, Path, str]:
    """(mutation class, source example, text) of mutant ``i``: the same for the same seed."""
    rng = random.Random(f"{seed}:{i}")
    names = list(MUTATIONS)
    weights = [MUTATIONS[n][0] for n in names]
    while True:
        cls = rng.choices(names, weights)[0]
        ex = rng.choice(examples)
        text = ex.read_text()
        cut = text.find("\nint main")
        if cut < 0:
            continue
        new = MUTATIONS[cls][1](rng, text[:cut])
        if new is not None and new != text[:cut]:
            return cls, ex, new + text[cut:]


# ---- running and classifying -------------------------------------------------------------------

def _located(diags: list[dict], path: Path) -> bool:
    return any(d.get("file") and Path(d["file"]).name == path.name and (d.get("line") or 0) > 0 for d in diags
               if d.get("severity") == "error")


CRASH_WORDS = re.compile(r"signal|segmentation|SIGSEGV|SIGABRT|SIGFPE|SIGILL|SIGBUS|abort|crash|trap", re.I)


def classify(path: Path, rc: int | None, out: str, err: str) -> tuple[str, str]:
    """(verdict class, detail) of one `kgen bench --json` answer."""
    if "Traceback (most recent call last)" in out or "Traceback (most recent call last)" in err:
        return "traceback", err[-600:] or out[-600:]
    if rc is None:
        return "kgen-hung", ""
    try:
        rep = json.loads(out)
    except ValueError:
        lines = [x for x in err.strip().splitlines() if x.strip()]
        if rc == 2 and len(lines) == 1:
            return "clear-error", lines[0]
        return "unclear", f"rc {rc}: {err.strip()[-300:]}"
    if not rep.get("compiled"):
        diags = rep.get("build_diagnostics") or []
        if _located(diags, path):
            return "compile-located", next(d["message"] for d in diags if d.get("severity") == "error")[:160]
        return "unlocated", rep.get("message", "") + " " + json.dumps(diags)[:300]
    cases = rep.get("cases") or []
    if not cases:
        return "unclear", "compiled, no case"
    c = cases[0]
    st, msg, diags = c.get("status"), c.get("message", ""), c.get("diagnostics") or []
    codes = {d.get("code") for d in diags}
    if st == "pass":
        return "correct", msg[:160]
    if st == "unverified":
        return "unverified", msg[:160]
    if "timeout" in codes:
        return "timeout", msg[:160]
    if _located(diags, path):
        return "runtime-located", msg[:160]
    if CRASH_WORDS.search(msg) or any(CRASH_WORDS.search(d.get("message", "")) for d in diags):
        return "crash", msg[:160]
    if st == "fail" and re.search(r"FAIL|mismatch|error", msg, re.I) and not re.match(r"exit status \d+:\s*$", msg):
        return "wrong-result", msg[:160]
    if diags:
        return "unlocated", msg[:160] + " " + json.dumps(diags)[:300]
    return "unclear", f"{st}: {msg[:300]}"


FAILURES = ("traceback", "unlocated", "unclear", "kgen-hung")


def run_one(path: Path, timeout: float) -> tuple[int | None, str, str, float]:
    t0 = time.monotonic()
    try:
        r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(path), "--json", "--timeout",
                            f"{timeout:g}"], cwd=str(ROOT), capture_output=True, text=True, errors="replace",
                           timeout=timeout * 3 + 120)
        return r.returncode, r.stdout, r.stderr, time.monotonic() - t0
    except subprocess.TimeoutExpired as e:
        return None, str(e.stdout or ""), str(e.stderr or ""), time.monotonic() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=1000, help="number of mutants (default 1000)")
    ap.add_argument("--start", type=int, default=0, help="first mutant index (to split a long run across time)")
    ap.add_argument("--jobs", type=int, default=2, choices=(1, 2), help="kgen processes at once (at most 2)")
    ap.add_argument("--timeout", type=float, default=5.0, help="kgen bench --timeout per kernel run (default 5 s)")
    ap.add_argument("--max-seconds", type=float, default=3 * 3600, help="stop starting mutants after this long")
    ap.add_argument("--out", metavar="FILE", help="append one JSON line per mutant (class, verdict, detail)")
    ap.add_argument("--keep", action="store_true", help="keep the mutants' folder")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()

    examples = sorted(ROOT.glob("examples/*/*.asc"))
    work = Path(tempfile.mkdtemp(prefix="kgen-fuzz-bench-"))
    t0 = time.monotonic()
    table: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    verdicts: collections.Counter = collections.Counter()
    shown: list[str] = []
    out = open(a.out, "a") if a.out else None
    runs = 0
    try:
        jobs = []
        for i in range(a.start, a.start + a.count):
            cls, ex, text = mutant(a.seed, i, examples)
            p = work / f"m{i:05d}_{cls}_{ex.stem}.asc"
            p.write_text(text)
            jobs.append((i, cls, ex, p))
        with cf.ThreadPoolExecutor(a.jobs) as pool:
            pending = {}
            it = iter(jobs)
            def submit() -> bool:
                if time.monotonic() - t0 > a.max_seconds:
                    return False
                j = next(it, None)
                if j is None:
                    return False
                pending[pool.submit(run_one, j[3], a.timeout)] = j
                return True
            for _ in range(a.jobs):
                submit()
            while pending:
                done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for f in done:
                    i, cls, ex, p = pending.pop(f)
                    rc, so, se, secs = f.result()
                    verdict, detail = classify(p, rc, so, se)
                    runs += 1
                    table[cls][verdict] += 1
                    verdicts[verdict] += 1
                    if verdict in FAILURES and len(shown) < 25:
                        shown.append(f"{p.name}: {verdict}: {detail[:500]}")
                        if a.keep is False:
                            shutil.copy(p, Path(tempfile.gettempdir()) / p.name)   # keep the failing ones
                    if out:
                        out.write(json.dumps({"i": i, "class": cls, "example": ex.name, "verdict": verdict,
                                              "rc": rc, "seconds": round(secs, 2), "detail": detail[:500]}) + "\n")
                        out.flush()
                    if a.verbose:
                        print(f"  {i:5d} {cls:16s} {ex.stem:18s} {verdict:16s} {secs:5.1f}s {detail[:90]}", flush=True)
                    submit()
    finally:
        if out:
            out.close()
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    wall = time.monotonic() - t0
    cols = ["compile-located", "runtime-located", "wrong-result", "timeout", "crash", "unverified", "correct",
            "clear-error", *FAILURES]
    cols = [c for c in cols if verdicts[c]] or cols[:1]
    print(f"{'mutation':16s} " + " ".join(f"{c:>15s}" for c in cols))
    for cls in MUTATIONS:
        if table[cls]:
            print(f"{cls:16s} " + " ".join(f"{table[cls][c]:15d}" for c in cols))
    for s in shown:
        print("  -", s)
    failures = sum(verdicts[f] for f in FAILURES)
    print(f"{runs} runs in {wall:.0f} s ({a.jobs} job(s), --timeout {a.timeout:g}); failing mutants copied to "
          f"{tempfile.gettempdir()}" if failures else f"{runs} runs in {wall:.0f} s ({a.jobs} job(s), --timeout {a.timeout:g})")
    clear = ", ".join(f"{c} {verdicts[c]}" for c in cols if c not in FAILURES)
    print(f"fuzz_bench: {runs} mutants, {verdicts['traceback']} tracebacks, {verdicts['unlocated']} unlocated, "
          f"{verdicts['unclear']} unclear, {verdicts['kgen-hung']} kgen hung; {clear} (seed {a.seed})")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
