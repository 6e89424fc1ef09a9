"""What vector work one eager (aten) operator does on the NPU, per element, and in which dtype.

The modelled eager baseline prices every aten operator as its own library kernel
(``eager_kernel.py``). This module says what that kernel computes: a ``Recipe`` is the list of
AscendC vector instructions it issues over each element of its largest tensor (each priced by the
cost table's instruction class, ``costs_910b.toml`` ``[vector_class.*]``) and the dtype it computes
in. The recipes are kgen's assumptions of how a well-written AscendC library kernel computes the
operator with the basic vector APIs (documented, op by op, in docs/performance-model.md); where an
operator maps onto one API the cost table lists (Exp, Sigmoid, Tanh, ...), that one instruction is
used. An operator not in the table is one ``Unknown`` instruction (the table's default class).

Compute dtype (rules in docs/performance-model.md, "Eager baseline"):
  * float32 tensors: float32.
  * bfloat16 tensors: float32, with a Cast of every 16-bit input element in and of every output
    element out -- the vector arithmetic APIs of Atlas A2 take half/float, not bfloat16_t (AscendC
    API docs: the ToFloat example converts bfloat16_t to float before Adds "because bfloat16_t is
    not supported"). Pure data movement (copies, Select) runs on the 16-bit data as it is.
  * float16 tensors: natively in half for arithmetic, comparison and selection operators (add,
    mul, relu, clamp, where, ...: the basic APIs take half), but in float32 with casts in and out
    for the operators that accumulate (sums, means, norms, softmax family, losses, cumulative sums),
    as NPU libraries compute fp16 softmax/layer_norm in float for precision (assumption: stated in
    the issue), and for the transcendental activations (``_WIDEN16``: sigmoid, silu, gelu, erf,
    tanh, exp, log, elu, softplus, mish, ...). Fact behind the last rule, read (not copied) in
    CANN's ops-nn: its Atlas A2 Sigmoid kernel (activation/sigmoid/op_kernel/sigmoid.h) casts
    half/bfloat16 input to float, computes Muls(-1), Exp, Adds(1), Div(1/x) in float and casts the
    result back with CAST_RINT; its Gelu, Erf, Tanh, Mish, Cos and Log kernels (op_kernel/arch35)
    are declared over a float compute type with the same casts in and out.
"""
from __future__ import annotations

from dataclasses import dataclass

# one entry per aten operator (overload packet name, trailing underscore stripped)
_RECIPES: dict[str, tuple[str, ...]] = {
    # data movement: GM -> UB -> GM with no vector instruction
    "clone": (), "copy": (), "contiguous": (), "cat": (), "stack": (), "expand_copy": (), "index_select": (),
    "slice_copy": (), "permute_copy": (), "transpose_copy": (), "fill": ("Duplicate",), "zeros": ("Duplicate",),
    "ones": ("Duplicate",), "full": ("Duplicate",), "zeros_like": ("Duplicate",), "ones_like": ("Duplicate",),
    "full_like": ("Duplicate",), "scalar_tensor": ("Duplicate",),
    # element-wise arithmetic
    "add": ("Add",), "sub": ("Sub",), "rsub": ("Sub",), "mul": ("Mul",), "div": ("Div",), "neg": ("Muls",),
    "abs": ("Abs",), "maximum": ("Max",), "minimum": ("Min",), "fmax": ("Max",), "fmin": ("Min",),
    "clamp": ("Maxs", "Mins"), "clamp_min": ("Maxs",), "clamp_max": ("Mins",), "clip": ("Maxs", "Mins"),
    "relu": ("Relu",), "leaky_relu": ("LeakyRelu",), "reciprocal": ("Reciprocal",), "square": ("Mul",),
    "addcmul": ("Mul", "Muls", "Add"), "addcdiv": ("Div", "Muls", "Add"), "lerp": ("Sub", "Mul", "Add"),
    "pow": ("Power",), "sign": ("Compares", "Select", "Compares", "Select"),
    "hypot": ("Mul", "Mul", "Add", "Sqrt"), "where": ("Select",), "masked_fill": ("Select",),
    # comparisons produce a mask, then 1/0 bytes
    "lt": ("Compare", "Select"), "le": ("Compare", "Select"), "gt": ("Compare", "Select"),
    "ge": ("Compare", "Select"), "eq": ("Compare", "Select"), "ne": ("Compare", "Select"),
    "logical_not": ("Not",), "logical_and": ("And",), "logical_or": ("Or",), "bitwise_not": ("Not",),
    # unary math
    "exp": ("Exp",), "log": ("Ln",), "sqrt": ("Sqrt",), "rsqrt": ("Rsqrt",), "sin": ("Sin",), "cos": ("Cos",),
    "tanh": ("Tanh",), "sigmoid": ("Muls", "Exp", "Adds", "Div"), "erf": ("Erf",), "exp2": ("Muls", "Exp"), "expm1": ("Exp", "Adds"),
    "log1p": ("Adds", "Ln"), "log2": ("Ln", "Muls"), "log10": ("Ln", "Muls"),
    "silu": ("Muls", "Exp", "Adds", "Div", "Mul"), "gelu": ("Muls", "Erf", "Adds", "Mul", "Muls"),
    # approximate='tanh' (recorded as gelu_tanh): x / (1 + exp(-2u)), as ops-nn's Gelu kernel states its form
    "gelu_tanh": ("Mul", "Mul", "Axpy", "Muls", "Exp", "Adds", "Div"),
    "elu": ("Mins", "Exp", "Adds", "Muls", "Maxs", "Add"), "selu": ("Mins", "Exp", "Adds", "Muls", "Maxs", "Add", "Muls"),
    "celu": ("Mins", "Muls", "Exp", "Adds", "Muls", "Maxs", "Add"),
    "softplus": ("Muls", "Exp", "Adds", "Ln", "Muls", "Compares", "Select"),
    "hardswish": ("Adds", "Maxs", "Mins", "Muls", "Mul"), "hardsigmoid": ("Adds", "Maxs", "Mins", "Muls"),
    "hardtanh": ("Maxs", "Mins"), "mish": ("Exp", "Adds", "Ln", "Tanh", "Mul"),
    "softsign": ("Abs", "Adds", "Div"), "logsigmoid": ("Muls", "Exp", "Adds", "Ln", "Muls"),
    # reductions over a dimension (the row or an inner dimension): one pass over the input
    "sum": ("ReduceSum",), "mean": ("ReduceSum", "Muls@out"), "amax": ("ReduceMax",), "amin": ("ReduceMin",),
    "max": ("ReduceMax",), "min": ("ReduceMin",), "argmax": ("ReduceMax",), "argmin": ("ReduceMin",),
    "prod": ("Mul",), "logsumexp": ("ReduceMax", "Sub", "Exp", "ReduceSum"),
    "linalg_vector_norm": ("Mul", "ReduceSum"), "norm": ("Mul", "ReduceSum"),
    "var": ("ReduceSum", "Sub", "Mul", "ReduceSum"), "std": ("ReduceSum", "Sub", "Mul", "ReduceSum"),
    "var_mean": ("ReduceSum", "Sub", "Mul", "ReduceSum"), "std_mean": ("ReduceSum", "Sub", "Mul", "ReduceSum"),
    "cumsum": ("CumSum",), "cumprod": ("CumSum",),
    # row-wise normalisations
    "_softmax": ("ReduceMax", "Sub", "Exp", "ReduceSum", "Mul"),
    "_log_softmax": ("ReduceMax", "Sub", "Exp", "ReduceSum", "Sub"),
    "native_layer_norm": ("ReduceSum", "Sub", "Mul", "ReduceSum", "Mul", "Mul", "Add"),
    "_fused_rms_norm": ("Mul", "ReduceSum", "Mul", "Mul"),
    "native_group_norm": ("ReduceSum", "Sub", "Mul", "ReduceSum", "Mul", "Mul", "Add"),
    "native_batch_norm": ("Sub", "Mul", "Mul", "Add"), "_native_batch_norm_legit_no_training": ("Sub", "Mul", "Mul", "Add"),
    # losses
    "mse_loss": ("Sub", "Mul", "ReduceSum"), "l1_loss": ("Sub", "Abs", "ReduceSum"),
    "smooth_l1_loss": ("Sub", "Abs", "Mul", "Muls", "Adds", "Compares", "Select", "ReduceSum"),
    "huber_loss": ("Sub", "Abs", "Mul", "Muls", "Adds", "Compares", "Select", "ReduceSum"),
    "nll_loss_forward": ("Gather",), "nll_loss": ("Gather",), "binary_cross_entropy": ("Ln", "Mul", "Sub", "Ln", "Mul", "Add", "ReduceSum"),
}

# reductions and normalisations: 16-bit data is computed in float32 (see the module docstring)
_ACCUMULATE = {"sum", "mean", "prod", "logsumexp", "linalg_vector_norm", "norm", "var", "std", "var_mean", "std_mean",
               "cumsum", "cumprod", "_softmax", "_log_softmax", "native_layer_norm", "_fused_rms_norm",
               "native_group_norm", "native_batch_norm", "_native_batch_norm_legit_no_training", "mse_loss", "l1_loss",
               "smooth_l1_loss", "huber_loss", "nll_loss_forward", "nll_loss", "binary_cross_entropy"}
# transcendental activations: 16-bit data computed in float32 like the accumulating ones (ops-nn's
# Sigmoid and Gelu/Erf/Tanh/Mish/Cos/Log kernels cast to float; see the module docstring)
_WIDEN16 = {"exp", "exp2", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tanh", "sigmoid", "erf", "silu",
            "gelu", "gelu_tanh", "elu", "selu", "celu", "softplus", "mish", "logsigmoid", "pow"}
# operators that only move or select 16-bit data: no widening even for bfloat16
_MOVE_ONLY = {"clone", "copy", "contiguous", "cat", "stack", "expand_copy", "index_select", "slice_copy",
              "permute_copy", "transpose_copy", "where", "masked_fill", "fill", "zeros", "ones", "full", "zeros_like",
              "ones_like", "full_like", "scalar_tensor"}
_CASTS = {"_to_copy", "to", "type_as", "_autocast_to_reduced_precision", "_autocast_to_full_precision"}

# high-level math APIs are several vector passes over the data: the emulator traces Op(dst, src, n) as
# (live temporary nodes for float + 1) passes (kgen_sim/adv/math.h, nodes in adv/tmp_rules.h); a library
# kernel calling the same API pays the same
PASSES = {"Erf": 4, "Erfc": 8, "Tanh": 2, "Sin": 4, "Cos": 4}

# an API name ending in "@out" runs over the output's elements of the tile instead (a mean scales its
# per-row sums by 1/N: one Muls over the results)
UNKNOWN = "Unknown"        # an API not in the cost table: priced as [vector_class.default]


@dataclass(frozen=True)
class Recipe:
    apis: tuple[str, ...]      # vector instructions over every element of the op's largest tensor
    compute_bytes: int         # element size they work on (4 = float32, 2 = half/bfloat16)
    widen: bool                # 16-bit inputs are cast to float32 on load and the outputs cast back
    known: bool = True         # False: the operator is not in the table (one default-class instruction)


def recipe(name: str, dtype: str, in_sizes: list[int], out_sizes: list[int]) -> Recipe:
    """The vector work of aten operator ``name`` on data of floating dtype ``dtype`` ("float16",
    "bfloat16", "float32" or "" when the op has no floating tensor); ``in_sizes``/``out_sizes`` are
    the element sizes of its tensors (a cast is an operator whose input and output sizes differ)."""
    if name in _CASTS or (name == "copy" and in_sizes and out_sizes and in_sizes[0] != out_sizes[0]):
        if in_sizes and out_sizes and in_sizes[0] == out_sizes[0]:
            return Recipe((), out_sizes[0], False)
        return Recipe(("Cast",), 4, False)
    known = name in _RECIPES
    apis = _RECIPES.get(name, (UNKNOWN,))
    narrow = dtype in ("float16", "bfloat16")
    if not narrow:
        size = 4 if dtype == "float32" or not dtype else max(in_sizes + out_sizes + [1])
        return Recipe(apis, size, False, known)
    if name in _MOVE_ONLY or not apis:
        return Recipe(apis, 2, False, known)
    if dtype == "bfloat16" or name in _ACCUMULATE or name in _WIDEN16:
        return Recipe(apis, 4, True, known)
    return Recipe(apis, 2, False, known)
