"""Lowering of a DSL kernel's host side: op_host/<op>_tiling.h (the tiling struct, each field's meaning) and
op_host/<op>.cpp (OpDef + TilingFunc). Every tiling value is derived from the runtime shape and the UB
size the platform reports; each constant's derivation is the comment above it, and the per-element UB
bytes are the budget terms (``budget.py``) of the buffers the kernel declares."""
from __future__ import annotations

from agent_graph.drafter.dsl import budget
from agent_graph.drafter.dsl.lang import Kernel, Schedule

FIELDS = {
    Schedule.FLAT: [("total", "elements of every tensor"),
                    ("perCore", f"elements per core (a multiple of {budget.MIN_TILE}); the last core takes the rest"),
                    ("tileLen", "elements per UB tile (the last tile of a core is shorter)")],
    Schedule.ROWS: [("rows", "rows: the product of every dimension but the last"),
                    ("cols", "elements per row: the last dimension"),
                    ("colsPad", f"UB elements per row: cols rounded up to {budget.MIN_TILE}"),
                    ("rowsPerCore", "rows per core; the last core takes the rest")],
}


def tiling_header(k: Kernel, op_type: str, op_name: str) -> str:
    guard = f"{op_name.upper()}_TILING_H"
    width = max(len(n) for n, _ in FIELDS[k.schedule]) + 3
    lines = [f"// {op_type} tiling data (lowered by kgen from a tile DSL program, {k.schedule.value} schedule).",
             f"#ifndef {guard}", f"#define {guard}", '#include "register/tilingdata_base.h"', "", "namespace optiling {",
             f"BEGIN_TILING_DATA_DEF({op_type}TilingData)"]
    for name, why in FIELDS[k.schedule]:
        lines.append(f"TILING_DATA_FIELD_DEF(uint32_t, {name});{' ' * (width - len(name))}// {why}")
    lines += ["END_TILING_DATA_DEF;", "", f"REGISTER_TILING_DATA_CLASS({op_type}, {op_type}TilingData)",
              "}  // namespace optiling", "#endif"]
    return "\n".join(lines) + "\n"


def _budget_lines(k: Kernel) -> list[str]:
    terms = budget.terms(k)
    out = ["    // UB bytes per tile element and fixed, one term per buffer the kernel allocates:"]
    out += [f"    //   {t.why}" for t in terms]
    per = " + ".join(str(t.per_elem) for t in terms if t.per_elem) or "0"
    fix = " + ".join(str(t.fixed) for t in terms if t.fixed) or "0"
    out += [f"    constexpr uint64_t BYTES_PER_ELEM = {per};", f"    constexpr uint64_t FIXED_BYTES = {fix};"]
    return out


def _flat(k: Kernel) -> list[str]:
    a = budget.MIN_TILE
    return [
        "    uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();",
        f"    // ALIGN: {a} elements, one 32-byte block of 2-byte data (two of 4-byte data), so every core's",
        "    // run and every tile start on a block boundary",
        f"    constexpr uint64_t ALIGN = {a};",
        "    // perCore: the elements split evenly over the cores, rounded up to ALIGN",
        "    uint64_t perCore = ((total + coreNum - 1) / coreNum + ALIGN - 1) / ALIGN * ALIGN;",
        "    if (perCore == 0) perCore = ALIGN;",
        "    uint32_t blockDim = static_cast<uint32_t>((total + perCore - 1) / perCore);",
        *_budget_lines(k),
        "    // tileLen: as many elements as the UB holds, a multiple of ALIGN, at most one core's run",
        "    uint64_t tileLen = (ubSize - FIXED_BYTES) / BYTES_PER_ELEM / ALIGN * ALIGN;",
        "    if (tileLen > perCore) tileLen = perCore;",
        "    if (tileLen < ALIGN) {",
        '        std::printf("%s: the UB (%llu bytes) cannot hold one tile of %llu elements\\n", context->GetNodeName(),',
        "                    static_cast<unsigned long long>(ubSize), static_cast<unsigned long long>(ALIGN));",
        "        return ge::GRAPH_FAILED;",
        "    }",
        "    tiling.set_total(static_cast<uint32_t>(total));",
        "    tiling.set_perCore(static_cast<uint32_t>(perCore));",
        "    tiling.set_tileLen(static_cast<uint32_t>(tileLen));",
    ]


def _rows(k: Kernel) -> list[str]:
    a = budget.MIN_TILE
    return [
        "    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();",
        "    uint64_t total = shape.GetShapeSize();",
        "    uint32_t cols = shape.GetDimNum() > 0 ? static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1)) : 1;",
        "    if (cols == 0) cols = 1;",
        "    uint32_t rows = static_cast<uint32_t>(total / cols);",
        f"    // colsPad: a row's UB length, cols rounded up to {a} elements (one 32-byte block of 2-byte data)",
        f"    uint32_t colsPad = (cols + {a - 1}) / {a} * {a};",
        "    // rowsPerCore: the rows split evenly over the cores",
        "    uint32_t rowsPerCore = (rows + coreNum - 1) / coreNum;",
        "    if (rowsPerCore == 0) rowsPerCore = 1;",
        "    uint32_t blockDim = (rows + rowsPerCore - 1) / rowsPerCore;",
        *_budget_lines(k),
        "    if (colsPad * BYTES_PER_ELEM + FIXED_BYTES > ubSize) {",
        '        std::printf("%s: a row of %u elements needs %llu bytes of UB, %llu available\\n", context->GetNodeName(), cols,',
        "                    static_cast<unsigned long long>(colsPad * BYTES_PER_ELEM + FIXED_BYTES), static_cast<unsigned long long>(ubSize));",
        "        return ge::GRAPH_FAILED;",
        "    }",
        "    tiling.set_rows(rows);",
        "    tiling.set_cols(cols);",
        "    tiling.set_colsPad(colsPad);",
        "    tiling.set_rowsPerCore(rowsPerCore);",
    ]


def _param(kind: str, t) -> str:
    types = ", ".join(d.ge for d in t.dtypes)
    fmts = ", ".join("ge::FORMAT_ND" for _ in t.dtypes)
    return f'        this->{kind}("{t.name}").ParamType(REQUIRED).DataType({{{types}}}).Format({{{fmts}}});'


def host_source(k: Kernel, op_type: str, op_name: str, summary: str = "") -> str:
    head = [f"// {op_type}: host side lowered by kgen from a tile DSL program ({k.schedule.value} schedule): OpDef and TilingFunc."]
    if summary:
        head.append(f"// {summary}")
    head += ["#include <cstdio>", f'#include "{op_name}_tiling.h"', '#include "register/op_def_registry.h"',
             '#include "tiling/platform/platform_ascendc.h"', "", "namespace optiling {",
             f"static ge::graphStatus {op_type}TilingFunc(gert::TilingContext* context)", "{",
             f"    {op_type}TilingData tiling;",
             "    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());",
             "    uint32_t coreNum = platform.GetCoreNumAiv();",
             "    if (coreNum == 0) coreNum = 1;",
             "    uint64_t ubSize = 0;",
             "    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);"]
    body = _rows(k) if k.schedule is Schedule.ROWS else _flat(k)
    tail = ["    context->SetBlockDim(blockDim == 0 ? 1 : blockDim);"]
    tail += save_and_opdef(k, op_type, "system workspace only: the kernel uses none of its own")
    return "\n".join(head + body + tail) + "\n"


def save_and_opdef(k: Kernel, op_type: str, workspace_note: str) -> list[str]:
    """The TilingFunc's end (the struct saved, the workspace size) and the OpDef: one Input/Output per tensor."""
    out = ["    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());",
           "    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());",
           "    size_t* workspace = context->GetWorkspaceSizes(1);",
           f"    workspace[0] = platform.GetLibApiWorkSpaceSize();   // {workspace_note}",
           "    return ge::GRAPH_SUCCESS;", "}", "}  // namespace optiling", "", "namespace ops {",
           f"class {op_type} : public OpDef {{", "public:", f"    explicit {op_type}(const char* name) : OpDef(name)", "    {"]
    out += [_param("Output" if t.output else "Input", t) for t in k.tensors]
    out += [f"        this->AICore().SetTiling(optiling::{op_type}TilingFunc);", '        this->AICore().AddConfig("ascend910b");',
            "    }", "};", f"OP_ADD({op_type});", "}  // namespace ops"]
    return out
