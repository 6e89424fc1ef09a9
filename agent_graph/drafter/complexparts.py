"""Complex tensors as their real and imaginary parts: an exported graph on complex64 values rewritten on float32 ones.

A complex64 tensor in GM is interleaved (real, imag) float32 pairs; the vector unit has no complex arithmetic. The
rewrite gives every complex node of the exported (decomposed) graph two float32 nodes, its parts, so the rest of
the front end and the lowering see real ops only:

* a complex forward input ``x``: its parts are ``select(view_as_real(x), -1, k)`` (k = 0, 1): the lowering reads
  them out of the pairs as the kernel copies them in (``operands.PairInput``: GatherMask's even/odd patterns);
* a complex result: ``aten.complex(re, im)``, stored interleaved again (``operands.PairOutput``: Gather); so is
  ``torch.view_as_real(z)`` returned (the same pairs, as float32 ``[..., 2]``);
* the arithmetic as PyTorch's CPU kernels compute it, one float32 rounding per step:
  ``(a+bi)(c+di) = (ac - bd) + (ad + bc)i`` (each product rounded, then the sum), a real operand promoted to
  ``v + 0i`` (``(a+bi) * v = av + bvi``), ``a ± b`` part by part, ``conj``, ``neg``, ``|z| = sqrt(re^2 + im^2)``;
  ``z.real`` / ``z.imag`` (``select`` of ``view_as_real``) are the parts themselves;
* reshapes, slices and copies of a complex value apply to each part, and so do sums and means (``torch.vdot``,
  ``sum(conj(x) * y)``: a complex result of one value is stored as its pair, ``operands.GlobalPairOutput``);
  ``torch.complex(re, im)`` of real tensors is its parts.

Anything else on a complex value (a complex division, ``exp``, ``angle``, a complex reduction) is refused naming the
core op.
"""
from __future__ import annotations

from typing import Any, Callable

import torch
import torch.fx as fx

from agent_graph.drafter.analysis import AnalysisError

aten = torch.ops.aten

COMPLEX = (torch.complex64,)

# ops applied to each part alike: reshapes, windows, copies (their other arguments are not complex)
PER_PART = {"view", "_unsafe_view", "reshape", "slice", "clone", "alias", "expand", "permute", "squeeze",
            "unsqueeze", "flatten", "index_select", "narrow", "contiguous", "t", "transpose", "lift_fresh_copy"}


def _base(n: fx.Node) -> str:
    name = getattr(n.target, "__name__", str(n.target))
    return name.split(".")[0]


def _is_complex(a: Any) -> bool:
    return isinstance(a, fx.Node) and isinstance(a.meta.get("val"), torch.Tensor) and a.meta["val"].dtype in COMPLEX


def has_complex(ep: torch.export.ExportedProgram) -> bool:
    return any(_is_complex(n) for n in ep.graph.nodes)


def complex_as_parts(ep: torch.export.ExportedProgram) -> None:
    """Rewrite ``ep``'s graph in place (see the module docstring); AnalysisError naming the first core op on a
    complex value that has no rewrite. A graph without complex values is left as it is."""
    if not has_complex(ep):
        return
    g = ep.graph
    parts: dict[fx.Node, tuple[fx.Node, fx.Node]] = {}
    made: set[fx.Node] = set()                   # the pairs views the rewrite itself reads inputs through

    def call(target: Any, args: tuple, at: fx.Node, kwargs: dict | None = None) -> fx.Node:
        with g.inserting_before(at):
            node = g.call_function(target, args, dict(kwargs or {}))
        vals = [a.meta["val"] if isinstance(a, fx.Node) else a for a in args]
        node.meta["val"] = target(*vals, **(kwargs or {}))
        return node

    def split(n: fx.Node, at: fx.Node) -> tuple[fx.Node, fx.Node]:
        if n not in parts:                      # a complex input: its pairs, read apart
            pairs = call(aten.view_as_real.default, (n,), at)
            made.add(pairs)
            parts[n] = (call(aten.select.int, (pairs, -1, 0), at), call(aten.select.int, (pairs, -1, 1), at))
        return parts[n]

    def real_operand(a: Any, at: fx.Node) -> tuple[Any, Any]:
        """A complex operand's parts (a complex tensor's, a Python complex's), a real one promoted (``v + 0i``: its
        imaginary part is None)."""
        if _is_complex(a):
            return split(a, at)
        if isinstance(a, complex):               # a Python complex number: its two floats
            return a.real, a.imag
        return a, None

    ops: dict[str, Callable[[fx.Node], tuple[fx.Node, fx.Node] | fx.Node]] = {}

    def times(p: Any, q: Any, at: fx.Node) -> fx.Node:
        if not isinstance(p, fx.Node):           # a number times a tensor: the tensor first (aten.mul.Tensor)
            p, q = q, p
        if not isinstance(p, fx.Node):
            raise AnalysisError("a complex product of two numbers is not covered by the templates")
        return call(aten.mul.Tensor, (p, q), at)

    def mul(n: fx.Node) -> tuple[fx.Node, fx.Node]:
        (ar, ai), (br, bi) = real_operand(n.args[0], n), real_operand(n.args[1], n)
        if ai is None or bi is None:            # a real factor v: (a + bi) v = av + bvi
            (zr, zi), v = ((br, bi), ar) if ai is None else ((ar, ai), br)
            return times(zr, v, n), times(zi, v, n)
        re = call(aten.sub.Tensor, (call(aten.mul.Tensor, (ar, br), n), call(aten.mul.Tensor, (ai, bi), n)), n)
        im = call(aten.add.Tensor, (call(aten.mul.Tensor, (ar, bi), n), call(aten.mul.Tensor, (ai, br), n)), n)
        return re, im

    def add_sub(n: fx.Node) -> tuple[fx.Node, fx.Node]:
        if len(n.args) > 2 or n.kwargs.get("alpha", 1) != 1:
            raise AnalysisError(f"core op aten.{_base(n)} with alpha on complex64 values is not covered by the templates")
        target = aten.add.Tensor if _base(n) == "add" else aten.sub.Tensor
        (ar, ai), (br, bi) = real_operand(n.args[0], n), real_operand(n.args[1], n)
        re = call(target, (ar, br), n)
        if bi is None:
            return re, ai
        if ai is None:                           # v - (c + di): the imaginary part is -d
            return re, (bi if target is aten.add.Tensor else call(aten.neg.default, (bi,), n))
        return re, call(target, (ai, bi), n)

    def neg(n: fx.Node) -> tuple[fx.Node, fx.Node]:
        re, im = split(n.args[0], n)
        return call(aten.neg.default, (re,), n), call(aten.neg.default, (im,), n)

    def conj(n: fx.Node) -> tuple[fx.Node, fx.Node]:
        re, im = split(n.args[0], n)
        return re, call(aten.neg.default, (im,), n)

    def absolute(n: fx.Node) -> fx.Node:
        re, im = split(n.args[0], n)
        squares = call(aten.add.Tensor, (call(aten.mul.Tensor, (re, re), n), call(aten.mul.Tensor, (im, im), n)), n)
        return call(aten.sqrt.default, (squares,), n)

    def copy(n: fx.Node) -> tuple[fx.Node, fx.Node]:
        dtype = n.kwargs.get("dtype", n.meta["val"].dtype)
        if dtype not in COMPLEX:
            raise AnalysisError(f"core op aten._to_copy from complex64 to {str(dtype).replace('torch.', '')} is not "
                                f"covered by the templates")
        return split(n.args[0], n)

    def from_parts(n: fx.Node) -> tuple[fx.Node, fx.Node]:
        return n.args[0], n.args[1]              # torch.complex(re, im) of real tensors

    def total(n: fx.Node) -> tuple[fx.Node, fx.Node]:
        if n.kwargs.get("dtype") not in (None, *COMPLEX):
            raise AnalysisError(f"core op aten.{_base(n)} of complex64 values into another dtype is not covered by the "
                                f"templates")
        re, im = split(n.args[0], n)             # a sum (mean) of complex values is the sums (means) of their parts
        kw = {k: v for k, v in n.kwargs.items() if k != "dtype"}
        return tuple(call(n.target, (p, *n.args[1:]), n, kw) for p in (re, im))

    ops.update(complex=from_parts, sum=total, mean=total, mul=mul, add=add_sub, sub=add_sub, neg=neg, conj=conj, conj_physical=conj, _conj=conj,
               _conj_physical=conj, abs=absolute, _to_copy=copy)

    for n in list(g.nodes):
        if n.op != "call_function":
            continue
        base = _base(n)
        if base == "select" and isinstance(n.args[0], fx.Node) and _base(n.args[0]) == "view_as_real" and \
                n.args[0].op == "call_function" and n.args[0] not in made and _is_complex(n.args[0].args[0]) and \
                (n.args[0].args[0] in parts or n.args[0].args[0].op == "placeholder"):
            # z.real / z.imag: the part itself
            dim = int(n.args[1]) % n.args[0].meta["val"].dim()
            if dim != n.args[0].meta["val"].dim() - 1:
                raise AnalysisError("core op aten.select of view_as_real along another dimension than the pairs' "
                                    "is not covered by the templates")
            n.replace_all_uses_with(split(n.args[0].args[0], n)[int(n.args[2]) % 2])
            continue
        if base.startswith("_assert") and any(_is_complex(a) for a in n.args):
            g.erase_node(n)                      # a dtype check of a value that is now its parts
            continue
        if base == "view_as_real":
            out = [u for u in n.users if u.op == "output"]
            if out and n not in made and _is_complex(n.args[0]):
                # torch.view_as_real(z) returned: the pairs as they are stored (float32 [..., 2])
                pairs = call(aten.complex.default, split(n.args[0], n), n)
                pairs.meta["val"] = n.meta["val"]
                for o in out:
                    o.replace_input_with(n, pairs)
            continue
        if not (_is_complex(n) or any(_is_complex(a) for a in n.args)):
            continue
        if base in ops:
            out = ops[base](n)
        elif base in PER_PART and _is_complex(n.args[0]) and not any(_is_complex(a) for a in n.args[1:]):
            re, im = split(n.args[0], n)
            out = tuple(call(n.target, (p, *n.args[1:]), n, n.kwargs) for p in (re, im))
        else:
            raise AnalysisError(f"core op aten.{base} on complex64 values is not covered by the templates (complex "
                                f"tensors are computed as their real and imaginary parts: multiplication, addition, "
                                f"conjugation, abs, .real/.imag and reshapes are)")
        if isinstance(out, tuple):
            parts[n] = out
        else:
            n.replace_all_uses_with(out)
    # the results: complex ones stored interleaved again
    output = next(n for n in g.nodes if n.op == "output")
    results = list(output.args[0]) if isinstance(output.args[0], (list, tuple)) else [output.args[0]]
    for k, r in enumerate(results):
        if _is_complex(r):
            re, im = split(r, output)
            results[k] = call(aten.complex.default, (re, im), output)
    output.args = (tuple(results) if isinstance(output.args[0], (list, tuple)) else results[0],)
    g.eliminate_dead_code()
    ep.graph_module.recompile()
