"""One case of ``kgen bench`` on an op project: map the reference's call onto the OpDef, build the
dtype combination (cached), run host TilingFunc + kernel on the emulator, verify every output.

Mapping: the operator call recorded from ``ModelNew`` (or, without one, the forward arguments then
the init arguments) gives tensors and scalars in order; the tensors fill the OpDef inputs in order,
the scalars fill its attrs in order; the reference's outputs give the output shapes, the OpDef
combination matching the input dtypes gives their dtypes. An op without outputs works in place:
the input its NPUKernelBench pybind returns (``validation/pybind.cpp``: ``return c;``, Gemm), else its first
input, is compared with the reference output.
"""
from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import numpy as np

from bench_bridge import perf, tensorio
from bench_bridge.bench_compare import compare_outputs, custom_check
from bench_bridge.events import BenchEventSink, CaseStarted, PhaseStarted
from bench_bridge.perf.eager import EagerOp, from_ops
from bench_bridge.project import OpProject, ProjectBuild, build_project, describe_project, from_any, run_project
from bench_bridge.report import CaseReport
from bench_bridge.sim import Diagnostic
from bench_bridge.tasks import Task
from bench_bridge.tasks.weights import MODULE_LIMIT


class CaseRunner:
    """Runs the cases of one task against one op project; builds are shared across cases."""

    def __init__(self, task: Task, project: Path, work: Path, timeout: float, say: BenchEventSink, profile: bool = False):
        self.task = task
        self.profile = profile
        self.work = work
        self.timeout = timeout
        self.say = say
        self.builds: dict[int, ProjectBuild] = {}
        self.build_failed = False
        self.build_diagnostics: list[Diagnostic] = []
        self.build_message = ""
        self.last_perf = None   # the PerfReport of the last case run (profile): bench writes its trace + picture
        self.custom = bool(task.prepare and "def custom_check_precision" in task.prepare.read_text(errors="replace"))
        say(PhaseStarted("read", f"reading the op definition of {project.name}"))
        self.op: OpProject = describe_project(project)
        if not self.op.ok:
            self._fail_build(self.op.diagnostics, f"cannot read the op definition of {project}")

    def _fail_build(self, diags: list[Diagnostic], message: str) -> None:
        self.build_failed = True
        self.build_diagnostics = list(diags)
        errs = [d for d in diags if d.severity == "error"]
        self.build_message = message + (f": {errs[0].format()}" if errs else "")

    # ---- argument mapping ----------------------------------------------------------------------

    def _call_args(self, e: dict) -> list[dict]:
        """The operator call's arguments (recorded entries), in the order the op takes them."""
        if "call" in e:
            args = e["call"]["args"]
        else:
            args = list(e["inputs"]) + list(e.get("init", []))
        args = [e["inputs"][a["index"]] if a["kind"] == "input" else a for a in args]
        if "call" in e:
            order = _binding_input_order(self.task.root, [p.name for p in self.op.inputs])
            if order and max(order) < len(args) and all(
                    args[i]["kind"] in ("tensor", "list") or (args[i]["kind"] == "scalar" and args[i]["value"] is None)
                    for i in order):
                # the binding hands its parameters to the op in another order (AddLayerNorm: called with
                # (x1, x2, bias, gamma, beta), EXEC_NPU_CMD(..., x1, x2, gamma, beta, bias, ...)); a None there
                # is an absent optional input
                args = [args[i] for i in order] + [a for i, a in enumerate(args) if i not in order]
        return args

    def _arguments(self, e: dict, cdir: Path) -> tuple[list[Any], list[Any]]:
        """(tensors, scalars) of the operator call, tensors as numpy arrays (bf16 as torch)."""
        args = self._call_args(e)
        tensors, scalars = [], []
        for a in args:
            if a["kind"] in ("tensor", "list"):
                tensors.append(_load_arg(a, cdir))
            elif a["kind"] == "scalar":
                scalars.append(a["value"])
        return tensors, scalars

    def run_case(self, e: dict, index: int, total: int) -> CaseReport:
        """Case ``e`` (the reference worker's entry), the ``index``-th (from 1) of ``total`` being run."""
        t0 = time.monotonic()
        self.last_perf = None
        metas = [m for a in e.get("inputs", []) for m in (a.get("items", []) if a.get("kind") == "list" else [a])]
        shapes = [m.get("shape", []) for m in metas if m.get("kind") == "tensor"]
        dtypes = [m.get("dtype", "") for m in metas if m.get("kind") == "tensor"]
        rep = CaseReport(case_id=e["id"], params=e.get("params", {}), input_shapes=shapes, dtypes=dtypes, status="error",
                         checker="custom" if self.custom else "npukernelbench")
        if e.get("status") != "ok":
            rep.message = e.get("message", "the reference failed")
            return rep
        if self.build_failed:
            rep.message = self.build_message
            return rep
        cdir = self.work / e["dir"]
        tensors, scalars = self._arguments(e, cdir)
        n_in = len(self.op.inputs)
        if len(tensors) < n_in and any(a["kind"] == "scalar" and a["value"] is None
                                       for a in [a for a in self._call_args(e) if a["kind"] in ("tensor", "list", "scalar")][:n_in]):
            # None among the op's inputs (an absent optional input): not a place for the model's own weights
            tensors, scalars = self._scalars_as_inputs(e, cdir, n_in)
        if len(tensors) < n_in and e.get("module"):   # the model's own weights (nn.Linear's) after the inputs
            tensors += [_load_arg(a, cdir) for a in e["module"]][:n_in - len(tensors)]
        if len(tensors) < n_in and scalars and not e.get("module_bytes"):   # withheld weights are not numbers
            tensors, scalars = self._scalars_as_inputs(e, cdir, n_in)
        if len(tensors) < n_in:
            rep.message = (f"the reference passes {len(tensors)} tensor(s) but {self.op.op_type} declares {n_in} inputs "
                           f"({', '.join(p.name for p in self.op.inputs)})")
            if e.get("module_bytes"):
                rep.message += (f"; the model's own weights ({e['module_bytes'] / 2**20:.0f} MiB) are over the "
                                f"{MODULE_LIMIT >> 20} MiB a case hands to the op: smaller sizes in the reference")
            return rep
        inputs = tensors[:n_in]
        if not scalars and len(tensors) > n_in and all(_is_single(t) for t in tensors[n_in:]):
            # one-element tensors after the inputs are the op's attrs (a pybind taking `double alpha`
            # is handed torch.rand(1): Gemm's alpha/beta, which test_cases.csv does not list)
            scalars = [_single_value(t) for t in tensors[n_in:]]
        attrs = {a.name: v for a, v in zip(self.op.attrs, scalars)}
        lists = self._list_mismatch(inputs)
        if lists:
            rep.message = lists
            return rep
        combo = self._match_inputs_and_results([None if t is None else _dtype_name(t) for t in inputs], e["refs"])
        if combo is None:
            combo, inputs = self._match_with_float64_narrowing(inputs)
        if combo is None:
            combo, inputs = self._match_with_exact_widening(inputs)
        if combo is None:
            combos = "; ".join(", ".join(f"{k}={v}" for k, v in c.items()) for c in self.op.combos())
            rep.message = f"no dtype combination of {self.op.op_type} accepts inputs {', '.join('absent' if t is None else _dtype_name(t) for t in inputs)} (declared: {combos})"
            return rep
        refs = e["refs"]
        in_place = not self.op.outputs
        if in_place:
            outputs_spec: list[tuple] = []
        else:
            # a reference that returns only the leading outputs (ModelNew picks [0] of the op's results):
            # the others get their shapes from the op's InferShape and are not compared
            ref_groups = e.get("ref_groups") or [0] * len(refs)
            n_given = len(self.op.outputs)
            if len(refs) < n_given and len(ref_groups) == len(refs) and not any(p.param_type == "dynamic" for p in self.op.outputs):
                n_given = len(refs)
            if len(refs) < n_given:
                rep.message = f"the reference returns {len(refs)} output(s) but {self.op.op_type} declares {len(self.op.outputs)}"
                return rep
            combo_types = self.op.combo(combo)
            ret_order = [] if any(p.param_type == "dynamic" for p in self.op.outputs) else \
                _binding_output_order(self.task.root, len(self.op.outputs), len(refs),
                                      len(self.op.inputs) + len(self.op.attrs) + len(self.op.outputs))
        if not in_place and ret_order:
            # the binding returns the op's outputs in another order (AddLayerNorm: {xOut, yOut} of (y, mean, rstd, x))
            outputs_spec = [((tuple(refs[ret_order.index(i)]["shape"]) if i in ret_order else None), combo_types[p.name])
                            for i, p in enumerate(self.op.outputs)]
        elif not in_place:
            groups = _output_groups(self.op.outputs[:n_given], ref_groups)
            if groups is None:
                rep.message = (f"cannot match the reference's {len(refs)} output tensor(s) to the outputs of {self.op.op_type} "
                               f"({', '.join(p.name + (' (list)' if p.param_type == 'dynamic' else '') for p in self.op.outputs)})")
                return rep
            outputs_spec = [[(tuple(refs[j]["shape"]), combo_types[p.name]) for j in idx] if p.param_type == "dynamic"
                            else (tuple(refs[idx[0]]["shape"]), combo_types[p.name]) for p, idx in zip(self.op.outputs, groups)]
            outputs_spec += [(None, combo_types[p.name]) for p in self.op.outputs[n_given:]]
        else:
            ret_order = []
        build = self._build(combo)
        if build is None:
            rep.message = self.build_message
            return rep
        self.say(CaseStarted(str(e["id"]), index, total, f"case {e['id']}: running on the emulator"))
        pr = run_project(build, inputs, outputs_spec, attrs, timeout=self.timeout, trace=self.profile,
                         zero_outputs=_binding_zeroes_outputs(self.task.root))
        rep.block_dim, rep.tiling_key = pr.block_dim, pr.tiling_key
        rep.diagnostics = [d.to_dict() for d in pr.diagnostics]
        rep.seconds = time.monotonic() - t0
        if not pr.ok:
            errs = pr.errors
            rep.message = errs[0].format() if errs else "the kernel run failed"
            return rep
        if in_place:
            w = min(_in_place_input(self.task.root), len(inputs) - 1)
            if len(pr.inputs_after) <= w or pr.inputs_after[w] is None:
                rep.message = f"the op has no outputs and its input {self.op.inputs[w].name} could not be read back after the kernel"
                return rep
            first = pr.inputs_after[w]
            dt = "float32" if _dtype_name(inputs[w]) == "bfloat16" else _dtype_name(inputs[w])
            if isinstance(first, list):
                outs, names, out_dtypes = first, [f"{self.op.inputs[w].name}[{j}]" for j in range(len(first))], [dt] * len(first)
            else:
                outs, names, out_dtypes = [first], [self.op.inputs[w].name], [dt]
        else:
            outs, names, out_dtypes = [], [], []
            for p, o, spec in zip(self.op.outputs, pr.outputs, outputs_spec):
                if o is None:  # an output the reference does not return (shape from InferShape): not compared
                    continue
                items = list(zip(o, spec)) if isinstance(o, list) else [(o, spec)]
                for j, (arr, (_, t)) in enumerate(items):
                    outs.append(arr)
                    names.append(f"{p.name}[{j}]" if isinstance(o, list) else p.name)
                    out_dtypes.append("float32" if t == "DT_BF16" else tensorio.canonical(_short(t)))
            if ret_order:   # back to the order the reference returns them in
                pos = sorted(ret_order)
                outs, names, out_dtypes = ([lst[pos.index(i)] for i in ret_order] for lst in (outs, names, out_dtypes))
        rep.outputs = compare_outputs(names, refs, outs, out_dtypes, cdir)
        if self.custom:
            verdict = custom_check(self.work, e, outs, out_dtypes, self.timeout, self.task.files())
            if "error" in verdict:
                rep.message = verdict["error"]
                return rep
            passed = verdict["passed"]
            rep.message = "" if passed else "the task's custom precision check rejected the output"
        else:
            passed = all(o.passed for o in rep.outputs)
            if not passed:
                bad = next(o for o in rep.outputs if not o.passed)
                rep.message = bad.reason or f"{bad.mismatches} of {bad.total} elements of {bad.name} exceed the tolerance"
        rep.status = "pass" if passed else "fail"
        if self.profile and pr.run and pr.run.trace_file and pr.run.trace_file.exists():
            self.last_perf = _performance(pr.run.trace_file, e.get("eager"))
            rep.performance = self.last_perf.to_dict()
        return rep

    def _list_mismatch(self, inputs: list[Any]) -> str:
        """'' when every tensor list goes to a DYNAMIC input (a lone tensor there becomes a list of one,
        in place); otherwise why the call does not fit the OpDef. When the lists and the single tensors
        are in another order than the OpDef's (e.g. the call passes x then scalar, the OpDef declares
        scalar then x) but their counts match the DYNAMIC and the other inputs, each kind keeps its own
        order and goes to the inputs of its kind."""
        dyn = [p.param_type == "dynamic" for p in self.op.inputs]
        is_list = [isinstance(t, list) for t in inputs]
        if is_list != dyn and sorted(is_list) == sorted(dyn):
            lists = iter([t for t in inputs if isinstance(t, list)])
            singles = iter([t for t in inputs if not isinstance(t, list)])
            inputs[:] = [next(lists) if d else next(singles) for d in dyn]
        for k, (p, t) in enumerate(zip(self.op.inputs, inputs)):
            if p.param_type == "dynamic" and not isinstance(t, list):
                inputs[k] = [t]
            elif p.param_type != "dynamic" and isinstance(t, list):
                return (f"the reference passes a list of {len(t)} tensor(s) where {self.op.op_type} declares input "
                        f"'{p.name}' as a single tensor (a tensor list needs .ParamType(DYNAMIC))")
            elif isinstance(t, list) and len({_dtype_name(x) for x in t}) > 1:
                return f"the tensors of list input '{p.name}' have different dtypes ({', '.join(sorted({_dtype_name(x) for x in t}))})"
        return ""

    def _scalars_as_inputs(self, e: dict, cdir: Path, n_in: int) -> tuple[list[Any], list[Any]]:
        """The OpDef declares more tensor inputs than the reference passes tensors (e.g. Fill(dims, value)
        with dims a Python list): walking the call in order, a number or list becomes the next input
        while the tensors still to come could not fill the rest; it is typed as the first OpDef
        combination matching the real tensors declares that input. The other scalars stay attrs."""
        args = [a for a in self._call_args(e) if a["kind"] in ("tensor", "list", "scalar")]
        tensors_left = sum(a["kind"] != "scalar" for a in args)
        # the call's Nones are its absent optional inputs when they are as many as the inputs it lacks
        # (layer_norm(x, normalized_shape, None, bias): the list stays an attribute)
        absent_only = sum(a["kind"] == "scalar" and a["value"] is None for a in args) == n_in - tensors_left
        slots: list[Any] = []  # per input: a loaded tensor, or ("scalar", value)
        scalars: list[Any] = []
        for a in args:
            if a["kind"] != "scalar":
                tensors_left -= 1
                slots.append(_load_arg(a, cdir)) if len(slots) < n_in else None
            elif absent_only and a["value"] is not None:
                scalars.append(a["value"])
            elif len(slots) + tensors_left < n_in:
                slots.append(("scalar", a["value"]))
            else:
                scalars.append(a["value"])
        names = [None if isinstance(x, tuple) else _dtype_name(x) for x in slots]
        k = self.op.match_combo(names + [None] * (n_in - len(names))) if len(names) <= n_in else None
        if k is None:   # no combination takes these dtypes as they are: the absent inputs stay in their places
            # (a widening match follows: AddLayerNorm's binding passes bfloat16 weights to an op taking float32)
            return [None if absent_only and isinstance(x, tuple) else x for x in slots
                    if not isinstance(x, tuple) or absent_only and x[1] is None], scalars
        combo = self.op.combo(k)
        out = []
        for x, p in zip(slots, self.op.inputs):
            if isinstance(x, tuple) and x[1] is None:   # None passed for an optional input: the input is absent
                out.append(None)
            elif isinstance(x, tuple):
                dt = from_any(combo[p.name])
                arr = np.atleast_1d(np.asarray(x[1], dtype=np.float32 if dt.short == "bfloat16" else dt.np_storage))
                out.append(tensorio.bf16_from_values(arr) if dt.short == "bfloat16" else arr)
            else:
                out.append(x)
        return out, scalars

    def _match_inputs_and_results(self, input_dtypes: list[str], refs: list[dict]) -> int | None:
        """The dtype combination for these inputs. Where several combinations take the same inputs and
        differ in their outputs (CastMath: float32 in, float16 / int32 / int8 / ... out, the output type an
        attribute names), the one whose leading outputs have the reference results' dtypes wins, as the
        framework picks the kernel from the op's input and output descriptors; otherwise the first."""
        outs = self.op.outputs
        if refs and len(refs) <= len(outs) and not any(p.param_type == "dynamic" for p in outs):
            try:
                combo = self.op.match_combo(input_dtypes, [m["dtype"] for m in refs])
            except KeyError:   # a reference dtype no OpDef declares (complex128, float64 results)
                combo = None
            if combo is not None:
                return combo
        return self.op.match_combo(input_dtypes)

    def _match_with_float64_narrowing(self, inputs: list[Any]) -> tuple[int | None, list[Any]]:
        """Float64 tensors (Python floats turned into tensors by a reference) are narrowed to the
        floating type the OpDef declares for that input, as an op binding would; bool tensors go to an
        input declared DT_UINT8 / DT_INT8 as the same bytes (0/1; a bool mask handed to a uint8 mask
        input). The first combination that then matches wins."""
        names = [None if t is None else _dtype_name(t) for t in inputs]   # None: an absent optional input
        if "float64" not in names and "bool" not in names:
            return None, inputs
        convertible = {"float64": ("float16", "float32", "bfloat16"), "bool": ("uint8", "int8")}
        for k, combo in enumerate(self.op.combos()):
            want = [combo[p.name] for p in self.op.inputs]
            ok = all(n is None or n == from_any(w).short or from_any(w).short in convertible.get(n, ()) for n, w in zip(names, want))
            if ok:
                cast = [([_narrow(x, from_any(w).short) for x in t] if isinstance(t, list) else _narrow(t, from_any(w).short))
                        if n is not None and n != from_any(w).short else t for t, n, w in zip(inputs, names, want)]
                return k, cast
        return None, inputs

    def _match_with_exact_widening(self, inputs: list[Any]) -> tuple[int | None, list[Any]]:
        """Mixed-precision inputs no combination takes: an input is widened to the type a combination
        declares for it when that widening is exact (float16 / bfloat16 to float32, a narrower integer to a
        wider one that holds every value), so the op sees the reference's values. At least one input must
        keep its own type: inputs that would all change are not widened (the op would run another dtype
        than asked). BatchNormV3's reference hands float16 weight/bias with a float32 x to CANN's own
        aclnnBatchNorm where the answer's OpDef is all-float32; ForeachMulScalarList hands an int32
        scalar list with int32 tensors where the OpDef declares the int32 tensors' scalars int64."""
        names = [None if t is None else _dtype_name(t) for t in inputs]
        for k, combo in enumerate(self.op.combos()):
            want = [from_any(combo[p.name]).short for p in self.op.inputs]
            kept = any(n is not None and n == w for n, w in zip(names, want))
            ok = kept and all(n is None or n == w or _widens_exactly(n, w) for n, w in zip(names, want))
            if ok and names != want:
                return k, [t if n is None or n == w else _widen(t, w) for t, n, w in zip(inputs, names, want)]
        return None, inputs

    def _build(self, combo: int) -> ProjectBuild | None:
        if combo in self.builds:
            return self.builds[combo]
        self.say(PhaseStarted("build", f"building {self.op.op_type} for dtype combination {combo} "
                                       f"({', '.join(self.op.combo(combo).values())})"))
        b = build_project(self.op, combo)
        if not b.ok:
            self._fail_build(b.diagnostics, f"the build of {self.op.op_type} (combination {combo}) failed")
            return None
        self.builds[combo] = b
        return b


def _performance(trace_file: Path, eager: dict | None):
    """Model the case's kernel time from its trace; the eager ops recorded by the worker give the baseline."""
    ref = None
    if eager:
        costs = perf.load_costs()
        ref = from_ops([EagerOp(**o) for o in eager["ops"]], eager["input_bytes"], eager["output_bytes"], costs)
    return perf.profile(trace_file, reference=ref)


def _narrow(t: Any, short: str) -> Any:
    if short == "bfloat16":
        return tensorio.bf16_from_values(t)
    if short in ("uint8", "int8"):
        return np.asarray(t).astype(np.uint8 if short == "uint8" else np.int8)
    return np.asarray(t).astype(np.float16 if short == "float16" else np.float32)


def _widens_exactly(n: str, w: str) -> bool:
    """Every value of dtype ``n`` is a value of the wider dtype ``w`` of the same family (float16 / bfloat16 to
    float32, a narrower integer to a wider one: numpy's safe casts); integers never widen to floats here."""
    if n == "bfloat16":
        return w == "float32"
    try:
        a, b = np.dtype(n), np.dtype(w)
    except TypeError:
        return False
    return a != b and (a.kind == "f") == (b.kind == "f") and np.can_cast(a, b, casting="safe")


def _widen(t: Any, short: str = "float32") -> Any:
    """A tensor (or list) as the wider type `short` (``_widens_exactly``): exact."""
    if isinstance(t, list):
        return [_widen(x, short) for x in t]
    return np.asarray(_as_numpy(t), dtype=np.dtype(short))


def _short(ge_name: str) -> str:
    return from_any(ge_name).short


def _dtype_name(t: Any) -> str:
    if isinstance(t, list):  # a tensor list: its (common) dtype
        return _dtype_name(t[0]) if t else ""
    if hasattr(t, "detach"):
        return str(t.dtype).replace("torch.", "")
    return str(t.dtype)


def _as_numpy(t: Any) -> np.ndarray:
    if hasattr(t, "detach"):
        import torch  # optional: torch (a torch tensor is given, so it is loaded already)

        if t.dtype == torch.bfloat16:
            return t.float().numpy()
        return t.numpy()
    return t


def _load_tensor(meta: dict, cdir: Path) -> Any:
    return tensorio.load_for_op(cdir / meta["file"], meta["dtype"])


def _is_single(t: Any) -> bool:
    return not isinstance(t, list) and hasattr(t, "shape") and int(np.prod(t.shape)) == 1


def _single_value(t: Any) -> Any:
    v = np.asarray(t).reshape(-1)[0]
    return v.item() if hasattr(v, "item") else v


def _load_arg(meta: dict, cdir: Path) -> Any:
    """A tensor argument, or a Python list of them for a tensor list."""
    if meta["kind"] == "list":
        return [_load_tensor(m, cdir) for m in meta["items"]]
    return _load_tensor(meta, cdir)


def _output_groups(outputs: list, ref_groups: list[int]) -> list[list[int]] | None:
    """Which flat reference tensors each OpDef output takes (a DYNAMIC output may take several).

    ``ref_groups`` is the nesting of the reference's result (per top-level item: a list length, or 0).
    When the items match the outputs one to one they pair up; otherwise a single DYNAMIC output takes
    every tensor the other outputs (before and after it) leave; without DYNAMIC outputs the outputs
    take the first tensors in order. None when the result cannot fill the outputs."""
    items, k = [], 0
    for g in ref_groups:
        items.append(list(range(k, k + g)) if g else [k])
        k += g or 1
    flat = list(range(k))
    dyn = [i for i, p in enumerate(outputs) if p.param_type == "dynamic"]
    if len(items) == len(outputs) and all(len(it) == 1 or outputs[i].param_type == "dynamic" for i, it in enumerate(items)):
        return items
    if not dyn:
        return [[j] for j in flat[:len(outputs)]] if len(flat) >= len(outputs) else None
    if len(dyn) == 1:
        d = dyn[0]
        after = len(outputs) - d - 1
        middle = flat[d:len(flat) - after]
        if not middle:
            return None
        return [[j] for j in flat[:d]] + [middle] + [[j] for j in flat[len(flat) - after:]]
    return None


def _binding_body(task_root: Path | None) -> tuple[str, str]:
    """(parameter list, body) of the NPUKernelBench binding function in ``validation/pybind.cpp``, or empty."""
    src = (task_root / "validation" / "pybind.cpp") if task_root else None
    try:
        text = src.read_text(errors="replace") if src and src.is_file() else ""
    except OSError:
        return "", ""
    m = re.search(r"at::Tensor\s+\w+\s*\(([^)]*)\)\s*\{(.*?)\n\}", text, re.S)
    return (m.group(1), m.group(2)) if m else ("", "")


def _binding_source(task_root: Path | None) -> str:
    """The task's NPUKernelBench binding (``validation/pybind.cpp``) without its line comments; "" if none."""
    src = (task_root / "validation" / "pybind.cpp") if task_root else None
    try:
        text = src.read_text(errors="replace") if src and src.is_file() else ""
    except OSError:
        return ""
    return re.sub(r"//[^\n]*", "", text)


def _binding_input_order(task_root: Path | None, op_inputs: list[str]) -> list[int]:
    """Which parameter of the NPUKernelBench binding (``validation/pybind.cpp``) each op input is, as positions in
    its parameter list (the positions of ModelNew's call): an input named as a parameter is that parameter; the
    others take the binding's first ``EXEC_NPU_CMD``'s leading arguments not so taken, in that call's order (a
    task's own answer declares its inputs in that order; a drafted op declares them in ModelNew's, named after
    the forward's parameters: AddLayerNorm's ``x1, x2, bias`` and then the model's own ``gamma``, ``beta``).
    Empty when there is no such binding or the order is the parameters' own."""
    text = _binding_source(task_root)
    n_in = len(op_inputs)
    for call in re.finditer(r"EXEC_NPU_CMD\s*\(([^;]*?)\)\s*;", text):
        sigs = [m for m in re.finditer(r"\b\w+\s*\(([^()]*)\)\s*\{", text[:call.start()]) if "Tensor" in m.group(1)]
        if not sigs or n_in <= 0:
            continue
        params = [re.findall(r"(\w+)\s*$", a.strip()) for a in sigs[-1].group(1).split(",")]
        params = [p[0] if p else "" for p in params]
        names = [a.strip() for a in call.group(1).split(",")][1:1 + n_in]
        if len(names) < n_in or not all(n in params for n in names):
            continue
        named = [params.index(n) if n in names else None for n in op_inputs]
        rest = iter(params.index(n) for n in names if params.index(n) not in named)
        order = [k if k is not None else next(rest) for k in named]
        return [] if order == list(range(n_in)) else order
    return []


def _binding_output_order(task_root: Path | None, n_out: int, n_refs: int, n_args: int = 0) -> list[int]:
    """Which op output each tensor the binding returns is: the binding's result list (``result = {xOut,
    yOut};`` or ``return {...};``) of ``n_refs`` names, each found among the last ``n_out`` arguments of its
    ``EXEC_NPU_CMD`` (the outputs), as output positions. AddLayerNorm returns {xOut, yOut} with
    additional_out, its op writes (y, mean, rstd, x). Only a call of ``n_args`` arguments (the op's inputs,
    attributes and outputs) counts: one with another count runs another operator. Empty when the order is
    the outputs' own or unknown."""
    text = _binding_source(task_root)
    call = re.search(r"EXEC_NPU_CMD\s*\(([^;]*?)\)\s*;", text)
    if not call or n_out <= 0 or n_refs <= 0:
        return []
    args = [a.strip() for a in call.group(1).split(",")][1:]
    if n_args and len(args) != n_args:
        return []
    outs = args[-n_out:]
    for m in re.finditer(r"(?:=|\breturn)\s*\{([^{}]*)\}\s*;", text):
        names = [a.strip() for a in m.group(1).split(",") if a.strip()]
        if len(names) == n_refs and all(n in outs for n in names):
            order = [outs.index(n) for n in names]
            return [] if order == list(range(n_refs)) else order
    return []


def _binding_zeroes_outputs(task_root: Path | None) -> bool:
    """Whether the task's binding zero-fills the output it allocates before the kernel runs (GroupedMatmulSliceK:
    ``result.fill_(0.0f)``; ``at::zeros``): kernels may then leave parts unwritten (an empty group)."""
    _, body = _binding_body(task_root)
    return bool(re.search(r"\.fill_\(\s*0(?:\.0*)?f?\s*\)|\.zero_\(\s*\)|\b(?:at|torch)::zeros\b", body))


def _in_place_input(task_root: Path | None) -> int:
    """The input an op without outputs writes: the tensor parameter its NPUKernelBench binding returns
    (``validation/pybind.cpp``, e.g. Gemm's ``return c;`` after ``EXEC_NPU_CMD(..., a, b, c, alpha, beta)``),
    counted among the binding's tensor parameters; 0 when there is no binding or it returns something else."""
    params, body = _binding_body(task_root)
    if not body:
        return 0
    tensors = [re.findall(r"(\w+)\s*$", a.strip())[0] for a in params.split(",") if "Tensor" in a and re.search(r"\w+\s*$", a.strip())]
    ret = re.findall(r"\breturn\s+(\w+)\s*;", body)
    return tensors.index(ret[-1]) if ret and ret[-1] in tensors else 0

