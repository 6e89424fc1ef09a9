"""How each parameter of a data movement reaches the host (template ``move``): the op's attribute of the same
name when the reference takes it as a forward argument (the harness passes those in order), else a constant every
case agrees on; a split's sizes as sections, a size per output or a count of chunks, given or fixed. The OpDef's
Attr lines for the arguments up to the last one the host reads."""
from __future__ import annotations

import inspect
from typing import Any

from agent_graph.drafter.analysis import AnalysisError
from agent_graph.drafter.ownplan import OwnPlan

CATEGORY = "movement"


def same(a: Any, b: Any, rank: int | None) -> bool:
    """Whether forward value ``a`` is parameter value ``b`` (dimensions compared modulo ``rank``)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y, rank) for x, y in zip(a, b))
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, list):
        if rank and isinstance(a, int) and isinstance(b, int):
            return a % rank == b % rank
        return float(a) == float(b)
    return False


def attr_of(values: list[Any], scalars: list[list[tuple[str, Any]]], ranks: list[int | None]) -> int | None:
    """The position of the forward argument equal to the parameter in every case, else None."""
    for j in range(len(scalars[0])):
        if all(j < len(s) and same(s[j][1], v, r) for s, v, r in zip(scalars, values, ranks)):
            return j
    return None


def by_size(n: int, s: int) -> list[int]:
    return [s] * (n // s) + ([n % s] if n % s else []) if s > 0 else []


def by_chunks(n: int, k: int) -> list[int]:
    return by_size(n, -(-n // k)) if k > 0 and n > 0 else []


def cxx_list(v: list[int]) -> str:
    return "std::vector<int64_t>{" + ", ".join(str(int(x)) for x in v) + "}"


def param_expr(name: str, values: list[Any], scalars: list, ranks: list, fixed: str = "") -> tuple[str, int | None]:
    """The C++ expression of a parameter (an attribute read, or the constant every case agrees on)."""
    j = attr_of(values, scalars, ranks)
    if j is not None:
        reader = ("AttrList" if isinstance(values[0], list) else "AttrFloat" if isinstance(values[0], float)
                  else "AttrStr" if isinstance(values[0], str) else "AttrInt")
        return f"{reader}(context, {j})", j
    if any(v != values[0] for v in values):
        raise AnalysisError(f"the {name} of the data movement changes from case to case ({values[0]} then "
                            f"{next(v for v in values if v != values[0])}) and is not a forward argument")
    v = values[0]
    if isinstance(v, list):
        return cxx_list(v), None
    if isinstance(v, str):
        return '"' + v + '"', None
    return repr(v) + ("f" if isinstance(v, float) else ""), None


def split_sizes(reads: list, scalars: list) -> tuple[str, int | None]:
    """How the host computes a split's sizes: a sections list, a size per output or a count of chunks given as a
    forward argument, or sizes every case agrees on."""
    sizes = [[b - a for a, b in r.params["bounds"]] for r in reads]
    ns = [r.params["n"] for r in reads]
    for j in range(len(scalars[0])):
        vals = [s[j][1] if j < len(s) else None for s in scalars]
        if all(isinstance(v, list) and v == sz for v, sz in zip(vals, sizes)):
            return f"    const std::vector<int64_t> sizes = AttrList(context, {j});   // the sections", j
        if all(isinstance(v, int) and not isinstance(v, bool) and by_size(n, v) == sz for v, n, sz in zip(vals, ns, sizes)):
            return (f"    const int64_t each = AttrInt(context, {j});   // the size of every output but a shorter last\n"
                    f"    std::vector<int64_t> sizes(each > 0 ? n / each : 0, each);\n"
                    f"    if (each > 0 && n % each != 0) sizes.push_back(n % each);"), j
        if all(isinstance(v, int) and not isinstance(v, bool) and by_chunks(n, v) == sz for v, n, sz in zip(vals, ns, sizes)):
            return (f"    const int64_t chunks = AttrInt(context, {j});   // outputs of ceil(n / chunks) positions, the last shorter\n"
                    f"    const int64_t each = chunks > 0 ? (n + chunks - 1) / chunks : 0;\n"
                    f"    std::vector<int64_t> sizes(each > 0 ? n / each : 0, each);\n"
                    f"    if (each > 0 && n % each != 0) sizes.push_back(n % each);"), j
    for j in range(len(scalars[0])):   # an int in some cases, a list in others (torch.split's split_size_or_sections)
        vals = [s[j][1] if j < len(s) else None for s in scalars]
        if all((isinstance(v, list) and v == sz) or (isinstance(v, int) and not isinstance(v, bool) and by_size(n, v) == sz)
               for v, n, sz in zip(vals, ns, sizes)):
            return (f"    const std::vector<int64_t> given = AttrList(context, {j});   // a size (a list of one) or the sections\n"
                    f"    std::vector<int64_t> sizes = given;\n"
                    f"    if (given.size() == 1) {{   // every output of that size but a shorter last\n"
                    f"        sizes.assign(given[0] > 0 ? n / given[0] : 0, given[0]);\n"
                    f"        if (given[0] > 0 && n % given[0] != 0) sizes.push_back(n % given[0]);\n"
                    f"    }}"), -1 - j
    if any(sz != sizes[0] for sz in sizes):   # a size or a count of chunks fixed in the reference
        each = sizes[0][0] if sizes[0] else 0
        if each and all(by_size(n, each) == sz for n, sz in zip(ns, sizes)):
            return (f"    const int64_t each = {each};   // the size of every output but a shorter last\n"
                    f"    std::vector<int64_t> sizes(n / each, each);\n"
                    f"    if (n % each != 0) sizes.push_back(n % each);"), None
        k = next((k for k in range(1, max(ns) + 1) if all(by_chunks(n, k) == sz for n, sz in zip(ns, sizes))), None)
        if k is not None:
            return (f"    const int64_t each = (n + {k - 1}) / {k};   // {k} chunks of ceil(n / {k}) positions, the last shorter\n"
                    f"    std::vector<int64_t> sizes(each > 0 ? n / each : 0, each);\n"
                    f"    if (each > 0 && n % each != 0) sizes.push_back(n % each);"), None
        raise AnalysisError(f"the split sizes change from case to case ({sizes[0]} then "
                            f"{next(sz for sz in sizes if sz != sizes[0])}) and follow no forward argument")
    if any(r.params["bounds"][0][0] != 0 or any(a != b for (_, a), (b, _) in zip(r.params["bounds"], r.params["bounds"][1:]))
           or r.params["bounds"][-1][1] != r.params["n"] for r in reads):
        raise AnalysisError(f"slices of a dimension of {reads[0].params['n']} that do not cover it once, in order "
                            f"({reads[0].params['bounds']}), are not covered by the move template")
    return f"    const std::vector<int64_t> sizes = {cxx_list(sizes[0])};", None


def attr_lines(scalars: list[list[tuple[str, Any]]], last: int, lists: set[int], mod: Any) -> list[str] | OwnPlan:
    """The OpDef's Attr lines: every forward argument up to the last one the host reads (the harness passes them
    in order); one some cases leave out is optional, with the forward's default."""
    try:
        defaults = {k: p.default for k, p in inspect.signature(mod.Model.forward).parameters.items()}
    except (TypeError, ValueError):
        defaults = {}
    lines = []
    for j in range(last + 1):
        given = [s[j] for s in scalars if j < len(s) and s[j][1] is not None]
        if not given:
            return OwnPlan(CATEGORY, f"forward argument {j} comes before one the host reads and no case gives it")
        name, v = given[0]
        optional = len(given) < len(scalars)
        dflt = defaults.get(name, inspect.Parameter.empty)
        if j in lists or (isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
            kind, value = "ListInt", "{" + ", ".join(str(x) for x in (dflt if isinstance(dflt, (list, tuple)) else [])) + "}"
        elif isinstance(v, bool):
            kind, value = "Bool", "true" if dflt is True else "false"
        elif isinstance(v, int):
            kind, value = "Int", str(dflt if isinstance(dflt, int) else 0)
        elif isinstance(v, float):
            kind, value = "Float", f"{float(dflt) if isinstance(dflt, (int, float)) else 0.0!r}f"
        elif isinstance(v, str):
            kind, value = "String", '"' + (dflt if isinstance(dflt, str) else "") + '"'
        else:
            return OwnPlan(CATEGORY, f"forward argument '{name}' ({v!r}) comes before one the host reads and has no "
                                     f"attribute type the move template writes")
        decl = f"AttrType(OPTIONAL).{kind}({value})" if optional else f"AttrType(REQUIRED).{kind}()"
        lines.append(f'        this->Attr("{name}").{decl};')
    return lines
