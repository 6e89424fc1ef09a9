"""Child-process side of ``kgen bench``: run a task's PyTorch reference on the CPU.

    python -m bench_bridge.tasks.worker prepare TASK.json OUTDIR
        For every case: make inputs with the task's own generator, run Model on the CPU, record
        the operator call ModelNew would make (argument order), save tensors as .npy and write
        OUTDIR/cases.json.
    python -m bench_bridge.tasks.worker check TASK.json OUTDIR CASE_ID
        Run the task's custom_check_precision on OUTDIR/CASE/kout_*.npy; print a JSON verdict.

A reference that raises becomes an "error" entry with the exception's last frame in the task's
files; nothing here trusts the task code beyond running it in this (limited) process.
"""
from __future__ import annotations

import contextlib
import copy
import json
import sys
import traceback
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import torch

from bench_bridge import tensorio
from bench_bridge.perf.eager import nbytes, record_ops, tensors_in
from bench_bridge.tasks import stubs
from bench_bridge.tasks.weights import MODULE_LIMIT, module_tensors
from bench_bridge.tasks.csvcases import Row
from bench_bridge.tasks.groups import group_inputs
from bench_bridge.tasks.model import Task
from bench_bridge.tasks.pymodule import load_module
from bench_bridge.tasks.ties import TopkRecorder


def _where(exc: BaseException, task: Task) -> str:
    """``file:line: Error: message`` at the innermost frame inside the task's files."""
    frames = traceback.extract_tb(exc.__traceback__)
    root = str(task.root)
    inside = [f for f in frames if f.filename.startswith(root)]
    f = inside[-1] if inside else (frames[-1] if frames else None)
    loc = f"{f.filename}:{f.lineno}: " if f else ""
    return f"{loc}{type(exc).__name__}: {exc}"


class Unsupported(Exception):
    """The case needs something the emulator does not model (said plainly, not as a reference failure)."""


def _dtype_name(t: torch.Tensor) -> str:
    return str(t.dtype).replace("torch.", "")


def _save_tensor(t: torch.Tensor, path: Path, reference: bool = False) -> dict:
    """Save one tensor. ``reference``: a result of the reference Model, which may be complex128 where the op's
    output is complex64 (PyTorch promotes complex64 times a float64 tensor to complex128, as Muls's
    reference does): it is compared per (real, imag) component with the kernel's complex64 output. A kernel
    never receives complex128 data, so inputs of that type stay unsupported."""
    t = t.detach().cpu().contiguous()
    name = _dtype_name(t)
    if t.dtype == torch.bfloat16:
        arr = t.view(torch.int16).numpy().view(np.uint16)
    elif t.is_complex() and t.dtype != torch.complex64 and not (reference and t.dtype == torch.complex128):
        raise Unsupported(f"{name} tensors are not supported by the emulator (only complex64, which kernels read as "
                          f"(real, imag) float32 pairs, is)")
    else:
        arr = t.numpy()
    tensorio.save(path, arr)
    return {"kind": "tensor", "file": path.name, "dtype": name, "shape": list(t.shape)}


def _encode(v: Any, out: Path, stem: str, reference: bool = False) -> dict:
    if isinstance(v, torch.Tensor) and v.layout != torch.strided:
        # a sparse tensor: no kernel takes one (ModelNew turns it into dense operator arguments)
        return {"kind": "other", "repr": f"{v.layout} tensor of shape {list(v.shape)}"}
    if isinstance(v, torch.Tensor):
        return _save_tensor(v, out / f"{stem}.npy", reference)
    if isinstance(v, (np.generic,)):
        v = v.item()
    if isinstance(v, (bool, int, float, str)) or v is None:
        return {"kind": "scalar", "value": v}
    if isinstance(v, (list, tuple)) and all(isinstance(x, (bool, int, float)) for x in v):
        return {"kind": "scalar", "value": list(v)}
    if isinstance(v, (list, tuple)) and v and all(isinstance(x, torch.Tensor) for x in v):
        # a tensor list (an op's DYNAMIC parameter): one file per tensor
        return {"kind": "list", "items": [_save_tensor(x, out / f"{stem}_{j}.npy", reference) for j, x in enumerate(v)]}
    if isinstance(v, np.ndarray):
        return _save_tensor(torch.from_numpy(v), out / f"{stem}.npy")
    return {"kind": "other", "repr": repr(v)[:200]}


def as_list(x: Any) -> list:
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x]


def spec_inputs(params: dict, gen: torch.Generator) -> list:
    """Inputs of a kgen-spec case: seeded random tensors per the declared shape, dtype and range; an input
    ``{list = [...]}`` is a Python list of such tensors (a tensor-list argument), ``{value = v}`` the value itself
    (a number or list the forward takes between tensors), ``{absent = true}`` None (an optional tensor not given)."""
    vals = []
    for inp in params["inputs"]:
        if "value" in inp or inp.get("absent") is True:   # a forward argument between tensors, or None
            vals.append(inp.get("value"))
            continue
        if "list" in inp:
            vals.append(spec_inputs({"inputs": inp["list"]}, gen))
            continue
        dt = getattr(torch, tensorio.canonical(inp.get("dtype", "float32")))
        shape = inp["shape"]
        lo, hi = inp.get("range", [None, None]) if inp.get("range") else (None, None)
        if dt == torch.bool:
            t = torch.randint(0, 2, shape, generator=gen).bool()
        elif dt.is_floating_point:
            t = torch.randn(shape, generator=gen) if lo is None else torch.rand(shape, generator=gen) * (hi - lo) + lo
            t = t.to(dt)
        else:
            t = torch.randint(int(lo if lo is not None else -100), int(hi if hi is not None else 100), shape, generator=gen).to(dt)
        vals.append(t)
    return vals + list(params.get("args", []))


def _make_case(task: Task, mod, prep, case, index: int):
    """(init args, forward args) for one case, as the task's own generator makes them."""
    torch.manual_seed(task.seed + index)
    if task.format == "npukernelbench":
        row = Row(case.params)
        init = list(prep.get_init_inputs(row, device="cpu")) if hasattr(prep, "get_init_inputs") else []
        inputs = as_list(prep.get_inputs(row, device="cpu"))
    elif task.format == "kernelbench":
        init = list(mod.get_init_inputs()) if hasattr(mod, "get_init_inputs") else []
        inputs = (group_inputs(mod, case.params["group"], task.seed) if "group" in case.params
                  else as_list(mod.get_inputs()))
    else:
        gen = torch.Generator().manual_seed(task.seed * 1000 + index)
        init = list(case.params.get("init", []))
        inputs = spec_inputs(case.params, gen)
    return init, inputs


def binding_call(mod, init: list, inputs: list) -> tuple[str, list] | None:
    """The operator call ModelNew makes (NPUKernelBench's binding): its name and arguments; None if there is no
    ModelNew or it makes no such call. The stubs must be installed (``stubs.install``)."""
    if not hasattr(mod, "ModelNew"):
        return None
    try:
        m = mod.ModelNew(*copy.deepcopy(init))
        m(*inputs)
    except stubs.RecordedCall as rc:
        return rc.name, list(rc.args_) + list(rc.kwargs.values())
    except Exception:
        return None
    return None


def _eager_ops(model, inputs: list) -> dict:
    """The reference's aten ops (bytes, flops) for the modelled PyTorch-eager baseline."""
    with torch.no_grad():
        ops, result = record_ops(model, *copy.deepcopy(inputs))
    seen, in_bytes = set(), 0
    for t in tensors_in(inputs):
        key = (t.data_ptr(), t.numel(), t.dtype)
        if key not in seen:
            seen.add(key)
            in_bytes += nbytes(t)
    return {"ops": [dict(o.__dict__) for o in ops], "input_bytes": in_bytes,
            "output_bytes": sum(nbytes(t) for t in tensors_in(result))}


@contextlib.contextmanager
def _sequential():
    """PyTorch's deterministic algorithms while the reference runs: on several CPU threads, index_copy, index_put
    and scatter with a repeated index keep whichever write came last in time, so the reference itself would change
    from run to run (118 of 8192 rows of an index_copy of 2048 random picks). Deterministic, each keeps the last
    pick in order, the result the docs give for one thread. Ops without a deterministic kernel run as before."""
    before, warn_only = torch.are_deterministic_algorithms_enabled(), torch.is_deterministic_algorithms_warn_only_enabled()
    torch.use_deterministic_algorithms(True, warn_only=True)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*does not have a deterministic implementation.*")
            yield
    finally:
        torch.use_deterministic_algorithms(before, warn_only=warn_only)


def _benchmark_roots_on_path(task: Task) -> None:
    """Let a task import its benchmark's own packages (NPUKernelBench's ``framework``): the task's
    ancestor directories (``Task.benchmark_roots``) go at the end of sys.path."""
    for parent in task.benchmark_roots():
        if str(parent) not in sys.path:
            sys.path.append(str(parent))


def prepare(task: Task, out: Path, profile: bool = False) -> list[dict]:
    stubs.install()
    _benchmark_roots_on_path(task)
    mod = load_module("kgen_task_module", task.reference)
    prep = load_module("kgen_task_prepare", task.prepare) if task.prepare else mod
    entries = []
    for index, case in enumerate(task.cases):
        cdir = out / f"case_{index}"
        cdir.mkdir(parents=True, exist_ok=True)
        entry: dict[str, Any] = {"id": case.id, "index": index, "dir": cdir.name, "params": dict(case.params)}
        try:
            init, inputs = _make_case(task, mod, prep, case, index)
            entry["init"] = [_encode(v, cdir, f"init_{k}") for k, v in enumerate(init)]
            entry["inputs"] = [_encode(v, cdir, f"in_{k}") for k, v in enumerate(inputs)]
            model = mod.Model(*copy.deepcopy(init))
            stubs.npu_only_ops()
            try:
                with torch.no_grad(), _sequential(), TopkRecorder() as topk:
                    ref = model(*copy.deepcopy(inputs))
            finally:
                npu = stubs.npu_only_ops()
            if npu:   # torch_npu's stubs returned None: there is no reference result to compare with
                raise Unsupported(stubs.npu_only_message(npu))
            entry["ref_structure"] = "tuple" if isinstance(ref, (tuple, list)) else "tensor"
            own = module_tensors(model, init)   # the model's own weights (nn.Linear's, nn.Conv2d's), up to 512 MiB a case
            own_bytes = sum(t.numel() * t.element_size() for t in own)
            if own_bytes <= MODULE_LIMIT:
                entry["module"] = [_encode(v, cdir, f"module_{k}") for k, v in enumerate(own)]
            else:
                entry["module_bytes"] = own_bytes
            # refs are flat (one tensor each); ref_groups keeps the nesting of the reference's result:
            # per top-level item, the length of a tensor list, or 0 for a single tensor
            entry["refs"], entry["ref_groups"] = [], []
            for k, v in enumerate(as_list(ref)):
                enc = _encode(v, cdir, f"ref_{k}", reference=True)
                if enc["kind"] == "list":
                    entry["refs"].extend(enc["items"])
                    entry["ref_groups"].append(len(enc["items"]))
                else:
                    entry["refs"].append(enc)
                    entry["ref_groups"].append(0)
                    source = topk.source_of(v)
                    if source is not None:   # topk's indices: ties may be picked in any order (ties.py)
                        x, dim = source
                        enc["ties"] = {**_save_tensor(x, cdir / f"ties_{k}.npy"), "dim": dim}
            if profile:
                entry["eager"] = _eager_ops(model, inputs)
            call = binding_call(mod, init, inputs)
            if call is not None:
                name, args = call
                ids = {id(t): k for k, t in enumerate(inputs) if isinstance(t, torch.Tensor)}
                enc = []
                for k, a in enumerate(args):
                    if isinstance(a, torch.Tensor) and id(a) in ids:
                        enc.append({"kind": "input", "index": ids[id(a)]})
                    else:
                        enc.append(_encode(a, cdir, f"call_{k}"))
                entry["call"] = {"name": name, "args": enc}
            entry["status"] = "ok"
        except Unsupported as e:
            entry["status"] = "error"
            entry["message"] = f"unsupported: {e}"
        except Exception as e:  # the task's code failed: report it, go on with the other cases
            entry["status"] = "error"
            entry["message"] = "the reference failed: " + _where(e, task)
        entries.append(entry)
    (out / "cases.json").write_text(json.dumps(entries, indent=1, default=str))
    return entries


def _load_tensor(meta: dict, cdir: Path) -> torch.Tensor:
    t = tensorio.load_for_op(cdir / meta["file"], meta["dtype"])
    return t if isinstance(t, torch.Tensor) else torch.from_numpy(t.copy())


def _regroup(flat: list, groups: list[int]) -> list:
    out, k = [], 0
    for g in groups:
        if g:
            out.append(list(flat[k:k + g]))
            k += g
        else:
            out.append(flat[k] if k < len(flat) else None)
            k += 1
    return out


def check(task: Task, out: Path, index: int) -> dict:
    stubs.install()
    _benchmark_roots_on_path(task)
    prep = load_module("kgen_task_prepare", task.prepare) if task.prepare else load_module("kgen_task_module", task.reference)
    entries = json.loads((out / "cases.json").read_text())
    entry = entries[index]
    cdir = out / entry["dir"]
    refs = [_load_tensor(m, cdir) for m in entry["refs"]]
    kouts = [_load_tensor(m, cdir) for m in json.loads((cdir / "kout.json").read_text())]
    groups = entry.get("ref_groups", [])
    if any(groups):  # the reference returned tensor lists inside its result: give the checker the same nesting
        refs, kouts = _regroup(refs, groups), _regroup(kouts, groups)
    ref = refs if entry["ref_structure"] == "tuple" else refs[0]
    got = kouts if entry["ref_structure"] == "tuple" else kouts[0]
    acc, abs_diff, rel_diff = prep.custom_check_precision(Row(entry["params"]), ref, got)
    ad = abs_diff.float().reshape(-1) if isinstance(abs_diff, torch.Tensor) else torch.tensor([float(abs_diff)])
    rd = rel_diff.float().reshape(-1) if isinstance(rel_diff, torch.Tensor) else torch.tensor([float(rel_diff)])
    return {"passed": bool(acc), "max_abs_error": float(ad.max()) if ad.numel() else 0.0,
            "max_rel_error": float(rd.max()) if rd.numel() else 0.0}


def main(argv: list[str]) -> int:
    mode, task_json, outdir = argv[0], Path(argv[1]), Path(argv[2])
    sys.argv = [sys.argv[0]]  # task code may parse the command line at import time (NPUKernelBench's framework does)
    task = Task.from_json_dict(json.loads(task_json.read_text()))
    try:
        if mode == "prepare":
            prepare(task, outdir, profile="--profile" in argv[3:])
            return 0
        if mode == "check":
            print(json.dumps(check(task, outdir, int(argv[3]))))
            return 0
    except Exception as e:
        print(json.dumps({"error": _where(e, task)}))
        return 4
    print(f"unknown mode {mode}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
