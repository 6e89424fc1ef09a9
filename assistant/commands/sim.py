"""``kgen sim build`` / ``kgen sim run``: the AscendC emulator as a compiler driver."""
from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

from assistant.commands.sandbox_flag import add_flag
from assistant.progress import status


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("sim", help="compile and run AscendC programs on the CPU emulator")
    simsub = p.add_subparsers(dest="sim_command", metavar="SUBCOMMAND", parser_class=type(p))
    simsub.required = True

    b = simsub.add_parser("build", help="compile a kernel-launch program (.asc/.cpp with <<<>>>) into a CPU executable")
    _common(b)
    b.add_argument("-o", "--output", required=True, metavar="BINARY", help="executable to write")
    b.set_defaults(handler=cmd_build)

    r = simsub.add_parser("run", help="build (cached) and run a kernel-launch program, reporting emulator findings")
    _common(r)
    r.add_argument("--timeout", type=float, default=60.0, metavar="SEC", help="wall-clock limit for the run (default 60)")
    r.add_argument("--cwd", metavar="DIR", help="working directory of the program (default: the current one)")
    r.add_argument("--trace", metavar="FILE", help="write the per-core instruction trace (JSON lines) to FILE")
    r.add_argument("--profile", action="store_true", help="model the kernel's time on the NPU (performance model) and report it")
    r.add_argument("--trace-out", metavar="T.json", help="with --profile: write the modelled timeline as Chrome-trace JSON")
    r.add_argument("--png", metavar="P.png", help="with --profile: write a timeline + roofline picture")
    r.add_argument("--soc", metavar="SOC", help="with --profile: SoC of the cost table (910B2, 910B4; default: the bench.soc setting, KGEN_SOC, or 910B2)")
    r.add_argument("args", nargs="*", metavar="-- ARGS", help="arguments passed to the program (after --)")
    add_flag(r)
    r.set_defaults(handler=cmd_run)
    _program_args_after_double_dash(r)

    d = simsub.add_parser("debug", help="build with debug info (-O0) and step through the program in gdb; a breakpoint "
                                         "on a kernel line stops in the emulated core that runs it (its block index shown)")
    _common(d)
    d.add_argument("-b", "--break", dest="breaks", action="append", default=[], metavar="[FILE:]LINE",
                   help="a breakpoint (repeatable); a bare LINE is in the first FILE")
    d.add_argument("--batch", action="store_true", help="no terminal: run to the first stop, print the core, the "
                                                        "backtrace and the locals, and end")
    d.add_argument("--timeout", type=float, default=120.0, metavar="SEC", help="with --batch: wall-clock limit (default 120)")
    d.add_argument("args", nargs="*", metavar="-- ARGS", help="arguments passed to the program (after --)")
    add_flag(d)
    d.set_defaults(handler=cmd_debug)
    _program_args_after_double_dash(d)


def _program_args_after_double_dash(parser: argparse.ArgumentParser) -> None:
    """``kgen sim run FILE [OPTIONS] -- ARGS``: everything after the first ``--`` is the program's (argparse
    alone gave it to FILE...); kgen's options may come before or after the files."""
    base = type(parser)

    class ProgramArgsParser(base):  # type: ignore[misc, valid-type]
        def parse_known_args(self, args=None, namespace=None):
            args = list(sys.argv[1:] if args is None else args)
            program: list[str] = []
            if "--" in args:
                i = args.index("--")
                args, program = args[:i], args[i + 1:]
            ns, extra = super().parse_known_args(args, namespace)
            ns.args = program
            return ns, extra

    parser.__class__ = ProgramArgsParser


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="AscendC source files (.asc, .cpp)")
    p.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR", help="add an include directory")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]", help="define a macro")
    p.add_argument("--no-cache", action="store_true", help="rebuild even when an identical build is cached")


CXX_SUFFIXES = (".asc", ".cpp", ".cc", ".cxx", ".c++", ".cp", ".C", ".h", ".hh", ".hpp", ".hxx")
"""What the emulator's compiler takes: a kernel-launch program (``.asc``/``.cpp``...) and its headers."""
_MAIN = re.compile(r"\bmain\s*\(")


def _check_files(files: list[str], run: bool = False) -> bool:
    """Every file exists and is a C++ source, and one of them has the host ``main`` a program needs; else one
    ``kgen: error:`` line (a markdown or Python file handed to g++ is hundreds of errors; a program without
    ``main`` a linker error)."""
    for i, f in enumerate(files):
        p = Path(f)
        if not p.is_file():
            hint = (" (the program's own arguments go after `--`: kgen sim run FILE -- ARGS)"
                    if run and i > 0 and p.suffix not in CXX_SUFFIXES else "")
            print(f"kgen: error: no such file: {f}{hint}", file=sys.stderr)
            return False
        if p.suffix not in CXX_SUFFIXES:
            print(f"kgen: error: {f}: not a C++ source (kgen sim takes a kernel-launch program: "
                  f"{', '.join(CXX_SUFFIXES[:4])} with a host main(); an op project or task goes to kgen bench)",
                  file=sys.stderr)
            return False
    if not any(_MAIN.search(Path(f).read_text(errors="replace")) for f in files):
        print(f"kgen: error: {', '.join(files)}: no host main() (a kernel-launch program launches its kernel from "
              "main with name<<<blocks, nullptr, stream>>>(...); an op project goes to kgen bench)", file=sys.stderr)
        return False
    return True


def _build(args: argparse.Namespace, output: str | None, extra_flags: list[str] = ()):
    # lazy: the bench bridge (~0.5 s to import) only when this command runs, not for kgen --help
    from bench_bridge.api import build

    with status(f"compiling {', '.join(Path(f).name for f in args.files)} for the emulator"):
        res = build(args.files, output=output, include_dirs=args.includes, defines=args.defines, use_cache=not args.no_cache,
                    extra_flags=list(extra_flags))
    for d in res.diagnostics:
        print(d.format(), file=sys.stderr)
        for n in d.notes[:3]:
            print(f"    note: {n}", file=sys.stderr)
    return res


def cmd_build(args: argparse.Namespace) -> int:
    if not _check_files(args.files):
        return 2
    res = _build(args, args.output)
    if not res.ok:
        print(f"kgen: build failed ({len(res.errors)} error(s))", file=sys.stderr)
        return 1
    print(f"kgen: built {res.binary} in {res.seconds:.1f} s{' (cached)' if res.cached else ''}", file=sys.stderr)
    return 0


def _profile(args: argparse.Namespace, trace_file) -> None:
    # lazy: the bench bridge (~0.5 s to import) only when this command runs, not for kgen --help
    from bench_bridge.api import profile, write_chrome_trace, write_png

    if not trace_file or not trace_file.exists():
        print("kgen: --profile: the program launched no kernel, nothing to model", file=sys.stderr)
        return
    rep = profile(trace_file, soc=args.soc)
    print(rep.render_text())
    if args.trace_out:
        write_chrome_trace(rep, args.trace_out)
        print(f"kgen: modelled timeline written to {args.trace_out} (open in https://ui.perfetto.dev)", file=sys.stderr)
    if args.png:
        write_png(rep, args.png)
        print(f"kgen: timeline picture written to {args.png}", file=sys.stderr)


def cmd_run(args: argparse.Namespace) -> int:
    # lazy: the bench bridge (~0.5 s to import) only when this command runs, not for kgen --help
    from bench_bridge.api import run

    if not _check_files(args.files, run=True):
        return 2
    res = _build(args, None)
    if not res.ok:
        print(f"kgen: build failed ({len(res.errors)} error(s))", file=sys.stderr)
        return 1
    prog_args = args.args
    with status("running on the emulator"):
        reads = [Path(f).resolve().parent for f in args.files] + [Path(d).resolve() for d in args.includes]
        out = run(res.binary, prog_args, cwd=args.cwd, timeout=args.timeout, trace=bool(args.trace or args.profile), reads=reads)
    sys.stdout.write(out.stdout)
    # the program's own stderr already holds the emulator's located messages
    sys.stderr.write(out.stderr)
    for d in out.diagnostics:
        if d.code in ("timeout", "killed"):
            print(d.format(), file=sys.stderr)
    if args.trace and out.trace_file and out.trace_file.exists():
        shutil.copy(out.trace_file, args.trace)
    if args.profile and out.ok:
        _profile(args, out.trace_file)
    if out.ok:
        return 0
    errs = [d for d in out.diagnostics if d.severity == "error"]
    print(f"kgen: the program failed (exit status {out.returncode}, {len(errs)} emulator error(s))", file=sys.stderr)
    return out.returncode if out.returncode > 0 else 1


def cmd_debug(args: argparse.Namespace) -> int:
    # lazy: the bench bridge (~0.5 s to import) only when this command runs, not for kgen --help
    from bench_bridge.api import DEBUG_FLAGS, DebuggerUnavailable, debug

    if not _check_files(args.files, run=True):
        return 2
    breaks = []
    for b in args.breaks:
        loc = f"{Path(args.files[0]).name}:{b}" if b.isdigit() else b
        if not re.fullmatch(r"[^:]+:\d+", loc):
            print(f"kgen: error: --break {b}: give a LINE or FILE:LINE", file=sys.stderr)
            return 2
        breaks.append(loc)
    if args.batch and not breaks:
        print("kgen: error: --batch runs to the first breakpoint: give one with --break [FILE:]LINE", file=sys.stderr)
        return 2
    res = _build(args, None, DEBUG_FLAGS)
    if not res.ok:
        print(f"kgen: build failed ({len(res.errors)} error(s))", file=sys.stderr)
        return 1
    reads = [Path(f).resolve().parent for f in args.files] + [Path(d).resolve() for d in args.includes]
    try:
        out = debug(res.binary, args.args, breaks, batch=args.batch, reads=reads, timeout=args.timeout if args.batch else None)
    except DebuggerUnavailable as e:
        print(f"kgen: error: {e}", file=sys.stderr)
        return 2
    except subprocess.TimeoutExpired:
        print(f"kgen: error: the debug session did not end within {args.timeout:g} s", file=sys.stderr)
        return 1
    if isinstance(out, int):
        return out
    sys.stdout.write(out.stdout)
    sys.stderr.write(out.stderr)
    return out.returncode
