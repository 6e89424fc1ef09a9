"""Lowering of a DSL kernel to op_kernel/<op>.cpp: a class with Init(GM addresses, tiling struct), Process
(the tile loop), CopyIn / Compute / CopyOut stages synchronised through double-buffered TQue queues.

Only what the program uses is declared: a tensor's element alias when its dtype varies between dtype
combinations, the conversion helper when a cast crosses such a type, the reduction buffers and the
vector-to-scalar event when a reduction is read by the scalar unit."""
from __future__ import annotations

from agent_graph.drafter.dsl import budget
from agent_graph.drafter.dsl.lang import (Binary, Buffer, Convert, DslError, Dtype, Expr, Fill, Kernel, Position, Reduce,
                                          Schedule, Tensor, Unary, WithScalar)

_CONVERT_HELPER = """
// one tile converted between element types that are equal in some dtype combinations and not in others
template <typename TD, typename TS>
__aicore__ inline void ConvertTile(const LocalTensor<TD>& dst, const LocalTensor<TS>& src, uint32_t count)
{
    if constexpr (std::is_same_v<TD, TS>) {
        DataCopy(dst, src, (count * sizeof(TS) + 31) / 32 * 32 / sizeof(TS));   // whole 32-byte blocks
    } else if constexpr (sizeof(TD) < sizeof(TS)) {
        Cast(dst, src, RoundMode::CAST_RINT, count);   // narrowing: round to nearest, ties to even
    } else {
        Cast(dst, src, RoundMode::CAST_NONE, count);   // widening is exact
    }
}
"""


def kernel_name(op_name: str) -> str:
    return op_name


def class_name(op_type: str) -> str:
    return "Kernel" + op_type


def member(b: Buffer) -> str:
    return b.name + ("Queue_" if b.queue else "Buf_")


def gm(t: Tensor) -> str:
    return t.name + "Gm_"


def _float(v: float) -> str:
    text = repr(float(v))
    if "e" not in text and "." not in text:
        text += ".0"
    return text + "f"


def expr_cpp(e: Expr) -> str:
    if e.kind == "const":
        return _float(e.args[0])
    if e.kind == "ref":
        return e.args[0].name
    if e.kind == "rowlen":
        return "rowLen"
    if e.kind == "neg":
        inner = e.args[0]
        text = expr_cpp(inner)
        return f"-{text}" if inner.kind in ("const", "ref", "rowlen") else f"-({text})"
    a, b = e.args
    return f"({expr_cpp(a)} {e.kind} {expr_cpp(b)})"


def _strip_outer(text: str) -> str:
    if text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        return text[1:-1]
    return text


def _convert(s: Convert) -> str:
    d, src = s.dst, s.src
    pairs = set(zip(d.etype, src.etype))
    for a, b in pairs:
        if {a, b} == {Dtype.F16, Dtype.BF16}:
            raise DslError(f"cast(): {src.name} to {d.name} converts between float16 and bfloat16; go through float32")
    if all(a == b for a, b in pairs):
        n = 32 // d.worst_size if len({x.size for x in d.etype}) == 1 else None
        if n:
            return f"DataCopy({d.name}, {src.name}, (count + {n - 1}) / {n} * {n});   // whole 32-byte blocks"
    if d.cpp in {x.cpp for x in Dtype} and src.cpp in {x.cpp for x in Dtype} and all(a != b for a, b in pairs):
        (a, b), = pairs
        mode = "CAST_RINT" if a.size < b.size else "CAST_NONE"
        return f"Cast({d.name}, {src.name}, RoundMode::{mode}, count);"
    return f"ConvertTile({d.name}, {src.name}, count);"


def needs_helper(k: Kernel) -> bool:
    return any(isinstance(s, Convert) and _convert(s).startswith("ConvertTile") for s in k.body)


def _statement(s, k: Kernel) -> list[str]:
    if isinstance(s, Binary):
        return [f"{s.op.value}({s.dst.name}, {s.a.name}, {s.b.name}, count);"]
    if isinstance(s, Unary):
        return [f"{s.op.value}({s.dst.name}, {s.src.name}, count);"]
    if isinstance(s, WithScalar):
        return [f"{s.op.value}({s.dst.name}, {s.src.name}, static_cast<{s.dst.cpp}>({_strip_outer(expr_cpp(s.value))}), count);"
                if s.dst.cpp != "float" else
                f"{s.op.value}({s.dst.name}, {s.src.name}, {_strip_outer(expr_cpp(s.value))}, count);"]
    if isinstance(s, Fill):
        v = _strip_outer(expr_cpp(s.value))
        return [f"Duplicate({s.dst.name}, {v if s.dst.cpp == 'float' else f'static_cast<{s.dst.cpp}>({v})'}, count);"]
    if isinstance(s, Convert):
        return [_convert(s)]
    if isinstance(s, Reduce):
        if s.into is not None and s.into.etype == s.src.etype:
            return [f"{s.op.value}({s.into.name}, {s.src.name}, reduceWorkBuf_.Get<{s.src.cpp}>(), count);"]
        if s.into is not None:
            block = Buffer("reduceOut", Position.VECCALC, (Dtype.F32,) * len(s.into.etype), "float")
            conv = _convert(Convert(s.into, block)).replace("count)", "1)").replace("count;", "1;")
            return [f"{s.op.value}(reduceOut, {s.src.name}, reduceWork, count);", conv]
        return [f"{s.op.value}(reduceOut, {s.src.name}, reduceWork, count);",
                "SetFlag<HardEvent::V_S>(vectorToScalar_);   // the scalar unit reads the result: wait for the vector pipe",
                "WaitFlag<HardEvent::V_S>(vectorToScalar_);",
                f"float {s.out.name} = reduceOut.GetValue(0);"]
    raise DslError(f"statement {type(s).__name__} has no lowering")


def _init(k: Kernel, op_type: str) -> list[str]:
    rows = k.schedule is Schedule.ROWS
    args = ", ".join(f"GM_ADDR {t.name}" for t in k.tensors)
    out = [f"__aicore__ inline void Init({args}, const {op_type}TilingData& tiling)", "{"]
    if rows:
        out += ["    // whole rows per core: rowsPerCore each, the last core the rest",
                "    uint32_t firstRow = tiling.rowsPerCore * GetBlockIdx();",
                "    rowCount_ = GetBlockIdx() + 1 == GetBlockNum() ? tiling.rows - firstRow : tiling.rowsPerCore;",
                "    rowLen_ = tiling.cols;"]
    else:
        out += ["    // one run of elements per core: perCore each, the last core the rest",
                "    uint32_t first = tiling.perCore * GetBlockIdx();",
                "    elemCount_ = GetBlockIdx() + 1 == GetBlockNum() ? tiling.total - first : tiling.perCore;",
                "    tileLen_ = tiling.tileLen;"]
    for t in k.tensors:
        b = next(b for b in k.buffers if b.tensor is t)
        if rows and b.elems == "one":
            base, span = "firstRow", "rowCount_"
        elif rows:
            base, span = "static_cast<uint64_t>(firstRow) * rowLen_", "static_cast<uint64_t>(rowCount_) * rowLen_"
        else:
            base, span = "first", "elemCount_"
        out.append(f"    {gm(t)}.SetGlobalBuffer(reinterpret_cast<__gm__ {b.cpp}*>({t.name}) + {base}, {span});")
    tile = "tiling.colsPad" if rows else "tileLen_"
    for b in k.buffers:
        size = f"{budget.BLOCK}" if b.elems == "one" else f"{tile} * sizeof({b.cpp})"
        slots = "BUFFER_NUM, " if b.queue else ""
        out.append(f"    pipe_.InitBuffer({member(b)}, {slots}{size});")
    red = budget.reduce_terms(k)
    if any(t.name == "reduceOut" for t in red):
        out.append(f"    pipe_.InitBuffer(reduceOutBuf_, {budget.BLOCK});")
    if red:
        per = f" * {budget.REDUCE_WORK_PER_ELEM}" if budget.REDUCE_WORK_PER_ELEM != 1 else ""
        out.append(f"    pipe_.InitBuffer(reduceWorkBuf_, {tile}{per} + {budget.REDUCE_WORK_FIXED});   // {budget.REDUCE_WORK_WHY}")
    if any(isinstance(s, Reduce) and s.out is not None for s in k.body):
        out.append("    vectorToScalar_ = static_cast<event_t>(pipe_.FetchEventID(HardEvent::V_S));")
    return out + ["}"]


def _process(k: Kernel) -> list[str]:
    if k.schedule is Schedule.ROWS:
        return ["__aicore__ inline void Process()", "{",
                "    for (uint32_t row = 0; row < rowCount_; ++row) {",
                "        CopyIn(row);", "        Compute(rowLen_);", "        CopyOut(row);", "    }", "}"]
    return ["__aicore__ inline void Process()", "{",
            "    for (uint32_t offset = 0; offset < elemCount_; offset += tileLen_) {",
            "        uint32_t count = elemCount_ - offset < tileLen_ ? elemCount_ - offset : tileLen_;",
            "        CopyIn(offset, count);", "        Compute(count);", "        CopyOut(offset, count);", "    }", "}"]


def _copy(k: Kernel, out: bool) -> list[str]:
    rows = k.schedule is Schedule.ROWS
    name = "CopyOut" if out else "CopyIn"
    sig = f"__aicore__ inline void {name}(uint32_t row)" if rows else f"__aicore__ inline void {name}(uint32_t offset, uint32_t count)"
    body = [sig, "{"]
    for b in k.buffers:
        if b.tensor is None or b.tensor.output != out:
            continue
        one = b.elems == "one"
        at = "row" if one else "static_cast<uint64_t>(row) * rowLen_" if rows else "offset"
        n = "1" if one else "rowLen_" if rows else "count"
        nbytes = f"sizeof({b.cpp})" if one else f"{n} * sizeof({b.cpp})"
        if out:
            body += [f"    LocalTensor<{b.cpp}> {b.name} = {member(b)}.DeQue<{b.cpp}>();",
                     f"    DataCopyPad({gm(b.tensor)}[{at}], {b.name}, DataCopyExtParams{{1, static_cast<uint32_t>({nbytes}), 0, 0, 0}});",
                     f"    {member(b)}.FreeTensor({b.name});"]
        else:
            body += [f"    LocalTensor<{b.cpp}> {b.name} = {member(b)}.AllocTensor<{b.cpp}>();",
                     f"    DataCopyPad({b.name}, {gm(b.tensor)}[{at}], DataCopyExtParams{{1, static_cast<uint32_t>({nbytes}), 0, 0, 0}}, "
                     f"DataCopyPadExtParams<{b.cpp}>{{false, 0, 0, 0}});",
                     f"    {member(b)}.EnQue({b.name});"]
    return body + ["}"]


def _compute(k: Kernel) -> list[str]:
    body = ["__aicore__ inline void Compute(uint32_t count)", "{"]
    for b in k.buffers:
        if b.position is Position.VECIN:
            body.append(f"    LocalTensor<{b.cpp}> {b.name} = {member(b)}.DeQue<{b.cpp}>();")
        elif b.position is Position.VECOUT:
            body.append(f"    LocalTensor<{b.cpp}> {b.name} = {member(b)}.AllocTensor<{b.cpp}>();")
        else:
            body.append(f"    LocalTensor<{b.cpp}> {b.name} = {member(b)}.Get<{b.cpp}>();")
    if any(isinstance(s, Reduce) and budget.through_scalar_block(s) for s in k.body):
        body += ["    LocalTensor<float> reduceOut = reduceOutBuf_.Get<float>();",
                 "    LocalTensor<float> reduceWork = reduceWorkBuf_.Get<float>();"]
    if any(isinstance(s, (WithScalar, Fill)) and s.value.uses_rowlen() for s in k.body):
        body.append("    const float rowLen = static_cast<float>(rowLen_);")
    for s in k.body:
        body += ["    " + line for line in _statement(s, k)]
    for b in k.buffers:
        if b.position is Position.VECOUT:
            body.append(f"    {member(b)}.EnQue({b.name});")
    for b in k.buffers:
        if b.position is Position.VECIN:
            body.append(f"    {member(b)}.FreeTensor({b.name});")
    return body + ["}"]


def _members(k: Kernel) -> list[str]:
    out = ["TPipe pipe_;"]
    for t in k.tensors:
        b = next(b for b in k.buffers if b.tensor is t)
        out.append(f"GlobalTensor<{b.cpp}> {gm(t)};")
    for b in k.buffers:
        kind = f"TQue<TPosition::{b.position.value}, BUFFER_NUM>" if b.queue else "TBuf<TPosition::VECCALC>"
        out.append(f"{kind} {member(b)};")
    red = budget.reduce_terms(k)
    if any(t.name == "reduceOut" for t in red):
        out.append("TBuf<TPosition::VECCALC> reduceOutBuf_;")
    if red:
        out.append("TBuf<TPosition::VECCALC> reduceWorkBuf_;")
    if any(isinstance(s, Reduce) and s.out is not None for s in k.body):
        out.append("event_t vectorToScalar_;")
    if k.schedule is Schedule.ROWS:
        out += ["uint32_t rowCount_ = 0;   // rows of this core", "uint32_t rowLen_ = 0;     // elements per row"]
    else:
        out += ["uint32_t elemCount_ = 0;  // elements of this core", "uint32_t tileLen_ = 0;    // elements per tile"]
    return out


def kernel_source(k: Kernel, op_type: str, op_name: str, summary: str = "") -> str:
    cls = class_name(op_type)
    head = [f"// {op_type}: kernel lowered by kgen from a tile DSL program ({k.schedule.value} schedule)."]
    if summary:
        head.append(f"// {summary}")
    head += ['#include "kernel_operator.h"', "using namespace AscendC;", ""]
    aliases = [f"using {b.cpp} = DTYPE_{b.tensor.name.upper()};" for b in k.buffers
               if b.tensor is not None and b.cpp == b.tensor.alias]
    if aliases:
        head += aliases + [""]
    head.append("constexpr int32_t BUFFER_NUM = 2;   // double buffering: the copy of one tile overlaps the compute of the other")
    if needs_helper(k):
        head.append(_CONVERT_HELPER.rstrip())
    ind = lambda lines, n: ["    " * n + ln if ln else ln for ln in lines]   # noqa: E731
    body = [f"class {cls} {{", "public:", f"    __aicore__ inline {cls}() {{}}"]
    body += ind(_init(k, op_type), 1) + [""] + ind(_process(k), 1) + ["", "private:"]
    body += ind(_copy(k, False), 1) + [""] + ind(_compute(k), 1) + [""] + ind(_copy(k, True), 1) + [""]
    body += ind(_members(k), 1) + ["};", ""]
    params = ", ".join(f"GM_ADDR {t.name}" for t in k.tensors)
    entry = [f'extern "C" __global__ __aicore__ void {kernel_name(op_name)}({params}, GM_ADDR workspace, GM_ADDR tiling)',
             "{", "    GET_TILING_DATA(tilingData, tiling);", f"    {cls} op;",
             f"    op.Init({', '.join(t.name for t in k.tensors)}, tilingData);", "    op.Process();", "}"]
    return "\n".join(head + [""] + body + entry) + "\n"
