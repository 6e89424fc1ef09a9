"""Data model of a custom-operator project as kgen sees it (what ``describe_project`` reports)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bench_bridge.project.dtypes import BY_GE, FORMATS, DType, from_any
from bench_bridge.sim import BuildResult, Diagnostic

PARAM_TYPES = {0: "ignore", 1: "optional", 2: "required", 3: "dynamic", 4: "virtual"}


@dataclass
class ParamInfo:
    """One input or output of the OpDef; ``dtypes[k]``/``formats[k]`` belong to combination k."""

    name: str
    param_type: str                 # "required" | "optional" | "dynamic"
    dtypes: list[str] = field(default_factory=list)   # ge names, e.g. "DT_FLOAT16"
    formats: list[str] = field(default_factory=list)  # e.g. "FORMAT_ND"
    value_depend: bool = False

    @property
    def macro(self) -> str:
        return self.name.upper()


@dataclass
class AttrInfo:
    name: str
    kind: str          # int | float | bool | str | list_int | list_float | list_bool | list_list_int
    required: bool
    has_default: bool
    default: object = None


@dataclass
class TilingClassInfo:
    name: str
    size: int
    align: int
    fields: list[dict]


@dataclass
class OpProject:
    """A CANN custom-operator project: ``op_host/*.cpp`` (OpDef, TilingFunc) and ``op_kernel/<op>.cpp``."""

    path: Path
    op_type: str = ""
    kernel_name: str = ""
    host_sources: list[Path] = field(default_factory=list)
    kernel_source: Path | None = None
    inputs: list[ParamInfo] = field(default_factory=list)
    outputs: list[ParamInfo] = field(default_factory=list)
    attrs: list[AttrInfo] = field(default_factory=list)
    socs: list[str] = field(default_factory=list)
    tiling_classes: dict[str, TilingClassInfo] = field(default_factory=dict)
    tiling_registrations: list[tuple[str, str]] = field(default_factory=list)
    has_tiling: bool = False
    has_infer_shape: bool = False
    has_infer_dtype: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
    describe_build: BuildResult | None = None
    raw: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return bool(self.op_type) and not any(d.severity == "error" for d in self.diagnostics)

    @property
    def num_combos(self) -> int:
        return len(self.inputs[0].dtypes) if self.inputs else (len(self.outputs[0].dtypes) if self.outputs else 0)

    def combo(self, k: int) -> dict[str, str]:
        """Param name -> ge dtype name for combination ``k``."""
        return {p.name: p.dtypes[k] for p in [*self.inputs, *self.outputs]}

    def combos(self) -> list[dict[str, str]]:
        return [self.combo(k) for k in range(self.num_combos)]

    def match_combo(self, input_dtypes, output_dtypes=None) -> int | None:
        """Index of the first combination whose inputs (and outputs, if given) have these dtypes; among
        several, the first whose inputs are all FORMAT_ND (a PyTorch tensor's format).

        ``input_dtypes`` holds one entry per OpDef input (None for an absent optional input); entries
        may be numpy/torch dtypes, ge names or short names.
        """
        want_in = [None if d is None else from_any(d).name for d in input_dtypes]
        want_out = None if output_dtypes is None else [from_any(d).name for d in output_dtypes]
        if len(want_in) != len(self.inputs):
            return None
        found = []
        for k in range(self.num_combos):
            if any(w is not None and w != p.dtypes[k] for w, p in zip(want_in, self.inputs)):
                continue
            if want_out is not None and any(w != p.dtypes[k] for w, p in zip(want_out, self.outputs)):
                continue
            found.append(k)
        # PyTorch tensors are ND: where combinations differ only in their formats, the framework picks the
        # one whose inputs are ND (AddSigmoidMulReduceSumD lists FRACTAL_NZ, NHWC, ND for float16 inputs)
        for k in found:
            if all(k >= len(p.formats) or p.formats[k] in ("FORMAT_ND", "") for p in self.inputs):
                return k
        return found[0] if found else None

    def default_tiling_class(self) -> str | None:
        for op, cls in self.tiling_registrations:
            if op == self.op_type:
                return cls
        return None

    def summary(self) -> dict:
        return {
            "op_type": self.op_type,
            "kernel_name": self.kernel_name,
            "inputs": [vars(p) for p in self.inputs],
            "outputs": [vars(p) for p in self.outputs],
            "attrs": [vars(a) for a in self.attrs],
            "num_combos": self.num_combos,
            "socs": self.socs,
        }


def ge_name(value: int) -> str:
    return BY_GE[value].name if value in BY_GE else f"DT_{value}"


def format_name(value: int) -> str:
    return FORMATS.get(value, f"FORMAT_{value}")


def dtype_by_name(name: str) -> DType:
    return from_any(name)
