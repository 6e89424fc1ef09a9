"""Lowering of the matmul schedule: one cube block C = A @ B through AscendC's Matmul API (GM -> L1 ->
L0A/L0B -> cube -> L0C -> GM), C split over the cores by the host's MultiCoreMatmulTiling.

The DSL fixes C's base block (``base_m`` x ``base_n``, one L0C tile, float accumulators); its L0C bytes
are checked against the SoC table and the same numbers go to the host's ``SetFixSplit``. The Matmul API's
tiling sizes the L1 and L0A/L0B pieces from the platform's memory sizes."""
from __future__ import annotations

from agent_graph.drafter.dsl.lang import DslError, Kernel, MatmulBlock
from agent_graph.drafter.dsl.lower_host import save_and_opdef
from bench_bridge.api import DEFAULT_SOC, soc_facts

ACC_BYTES = 4   # L0C accumulates in float (half, bfloat16 and float inputs alike)


def block(k: Kernel) -> MatmulBlock:
    return k.body[0]


def check(k: Kernel, soc: str | None = None) -> None:
    mb = block(k)
    cap = int(soc_facts(soc or DEFAULT_SOC).l0c_bytes)
    need = mb.base_m * mb.base_n * ACC_BYTES
    if need > cap:
        raise DslError(f"L0C overflow: a {mb.base_m} x {mb.base_n} base block of float accumulators needs {need} bytes "
                       f"of the {cap} in L0C")


def _alias(t) -> str:
    return t.alias if len(set(t.dtypes)) > 1 else t.dtypes[0].cpp


def tiling_header(k: Kernel, op_type: str, op_name: str) -> str:
    guard = f"{op_name.upper()}_TILING_H"
    return "\n".join([
        f"// {op_type} tiling data (lowered by kgen from a tile DSL program, matmul schedule).",
        f"#ifndef {guard}", f"#define {guard}", '#include "register/tilingdata_base.h"', '#include "tiling/tiling_api.h"', "",
        "namespace optiling {", f"BEGIN_TILING_DATA_DEF({op_type}TilingData)",
        "TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTiling);   // the Matmul API's split of C over the cores and its base blocks",
        "END_TILING_DATA_DEF;", "", f"REGISTER_TILING_DATA_CLASS({op_type}, {op_type}TilingData)", "}  // namespace optiling",
        "#endif"]) + "\n"


def host_source(k: Kernel, op_type: str, op_name: str, summary: str = "") -> str:
    mb = block(k)
    a, b, c = mb.a, mb.b, mb.c
    kdim = "bs.GetDim(1)" if mb.transpose_b else "bs.GetDim(0)"
    ndim = "bs.GetDim(0)" if mb.transpose_b else "bs.GetDim(1)"
    tb = "true" if mb.transpose_b else "false"
    shape_b = "[N, K]" if mb.transpose_b else "[K, N]"
    lines = [f"// {op_type}: host side lowered by kgen from a tile DSL program (matmul schedule): OpDef and TilingFunc."]
    if summary:
        lines.append(f"// {summary}")
    lines += ["#include <cstdio>", f'#include "{op_name}_tiling.h"', '#include "register/op_def_registry.h"',
              '#include "tiling/platform/platform_ascendc.h"', '#include "tiling/tiling_api.h"', "",
              "namespace optiling {",
              "static matmul_tiling::DataType CubeType(ge::DataType type)", "{",
              "    return type == ge::DT_FLOAT16 ? matmul_tiling::DataType::DT_FLOAT16",
              "         : type == ge::DT_BF16    ? matmul_tiling::DataType::DT_BF16",
              "                                  : matmul_tiling::DataType::DT_FLOAT;", "}", "",
              f"static ge::graphStatus {op_type}TilingFunc(gert::TilingContext* context)", "{",
              f"    // {a.name}: [M, K], {b.name}: {shape_b}, {c.name}: [M, N]",
              "    const gert::Shape& as = context->GetInputShape(0)->GetStorageShape();",
              "    const gert::Shape& bs = context->GetInputShape(1)->GetStorageShape();",
              f"    if (as.GetDimNum() != 2 || bs.GetDimNum() != 2 || as.GetDim(1) != {kdim}) {{",
              f'        std::printf("%s: {a.name} must be [M, K] and {b.name} {shape_b}\\n", context->GetNodeName());',
              "        return ge::GRAPH_FAILED;", "    }",
              "    int32_t m = static_cast<int32_t>(as.GetDim(0));",
              "    int32_t k = static_cast<int32_t>(as.GetDim(1));",
              f"    int32_t n = static_cast<int32_t>({ndim});",
              "    matmul_tiling::DataType type = CubeType(context->GetInputDesc(0)->GetDataType());",
              "    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());",
              "    matmul_tiling::MultiCoreMatmulTiling cube(platform);",
              "    cube.SetDim(platform.GetCoreNumAiv());   // C's blocks are spread over the vector cores' cube partners",
              "    cube.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, type, false);",
              f"    cube.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, type, {tb});",
              "    cube.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, type);",
              "    cube.SetShape(m, n, k);", "    cube.SetOrgShape(m, n, k);", "    cube.EnableBias(false);",
              f"    // base block: {mb.base_m} x {mb.base_n} of C per L0C tile, {mb.base_m * mb.base_n * ACC_BYTES} bytes of float "
              "accumulators (the DSL program's, checked against L0C); K's step is the tiling's choice",
              f"    cube.SetFixSplit({mb.base_m}, {mb.base_n}, -1);",
              f"    {op_type}TilingData tiling;",
              "    if (cube.GetTiling(tiling.cubeTiling) == -1) {",
              '        std::printf("%s: no matmul tiling for m=%d n=%d k=%d\\n", context->GetNodeName(), m, n, k);',
              "        return ge::GRAPH_FAILED;", "    }",
              "    // a MIX kernel: one cube core serves two vector cores, so the block dim is half the cores used",
              "    context->SetBlockDim((static_cast<uint32_t>(tiling.cubeTiling.get_usedCoreNum()) + 1) / 2);"]
    lines += save_and_opdef(k, op_type, "the Matmul API's system workspace")
    return "\n".join(lines) + "\n"


def kernel_source(k: Kernel, op_type: str, op_name: str, summary: str = "") -> str:
    mb = block(k)
    a, b, c = mb.a, mb.b, mb.c
    ta, tb_, tc = _alias(a), _alias(b), _alias(c)
    cls = "Kernel" + op_type
    head = [f"// {op_type}: kernel lowered by kgen from a tile DSL program (matmul schedule)."]
    if summary:
        head.append(f"// {summary}")
    head += ['#include "kernel_operator.h"', '#include "lib/matmul_intf.h"', "using namespace AscendC;", ""]
    aliases = [f"using {_alias(t)} = DTYPE_{t.name.upper()};" for t in (a, b, c) if _alias(t) == t.alias]
    if aliases:
        head += aliases + [""]
    trans = ", true" if mb.transpose_b else ""
    b_offset = "static_cast<uint64_t>(nBlock) * t.singleCoreN * t.Kb" if mb.transpose_b else "static_cast<uint64_t>(nBlock) * t.singleCoreN"
    body = [
        f"class {cls} {{", "public:",
        f"    using {a.name.upper()}Type = MatmulType<TPosition::GM, CubeFormat::ND, {ta}>;",
        f"    using {b.name.upper()}Type = MatmulType<TPosition::GM, CubeFormat::ND, {tb_}{trans}>;",
        f"    using {c.name.upper()}Type = MatmulType<TPosition::GM, CubeFormat::ND, {tc}>;",
        f"    Matmul<{a.name.upper()}Type, {b.name.upper()}Type, {c.name.upper()}Type> cube;", "",
        f"    __aicore__ inline {cls}() {{}}",
        f"    __aicore__ inline void Init(GM_ADDR {a.name}, GM_ADDR {b.name}, GM_ADDR {c.name}, const TCubeTiling& t)",
        "    {",
        "        // this core's singleCoreM x singleCoreN block of C, blocks numbered along M first; tails at the ends",
        "        int32_t mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;",
        "        int32_t mBlock = GetBlockIdx() % mBlocks;",
        "        int32_t nBlock = GetBlockIdx() / mBlocks;",
        "        int32_t restM = t.M - mBlock * t.singleCoreM;",
        "        int32_t restN = t.N - nBlock * t.singleCoreN;",
        "        blockM_ = restM < t.singleCoreM ? restM : t.singleCoreM;",
        "        blockN_ = restN < t.singleCoreN ? restN : t.singleCoreN;",
        "        tail_ = blockM_ < t.singleCoreM || blockN_ < t.singleCoreN;",
        f"        {a.name}Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ {ta}*>({a.name}) + static_cast<uint64_t>(mBlock) * t.singleCoreM * t.Ka);",
        f"        {b.name}Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ {tb_}*>({b.name}) + {b_offset});",
        f"        {c.name}Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ {tc}*>({c.name}) + static_cast<uint64_t>(mBlock) * t.singleCoreM * t.N"
        " + static_cast<uint64_t>(nBlock) * t.singleCoreN);",
        "    }", "",
        "    __aicore__ inline void Process()", "    {",
        f"        cube.SetTensorA({a.name}Gm_, false);",
        f"        cube.SetTensorB({b.name}Gm_, {'true' if mb.transpose_b else 'false'});",
        "        if (tail_) {", "            cube.SetTail(blockM_, blockN_);", "        }",
        f"        cube.IterateAll({c.name}Gm_);", "        cube.End();", "    }", "",
        "private:",
        f"    GlobalTensor<{ta}> {a.name}Gm_;", f"    GlobalTensor<{tb_}> {b.name}Gm_;", f"    GlobalTensor<{tc}> {c.name}Gm_;",
        "    int32_t blockM_ = 0;   // rows of C this core computes", "    int32_t blockN_ = 0;   // columns of C this core computes",
        "    bool tail_ = false;    // a block at the end of M or N, smaller than singleCoreM x singleCoreN",
        "};", ""]
    params = ", ".join(f"GM_ADDR {t.name}" for t in k.tensors)
    entry = [f'extern "C" __global__ __aicore__ void {op_name}({params}, GM_ADDR workspace, GM_ADDR tiling)', "{",
             "    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);   // the cube computes, a vector core drives it",
             "    SetSysWorkspace(workspace);", "    GET_TILING_DATA(tilingData, tiling);",
             "    if (GetBlockIdx() >= tilingData.cubeTiling.usedCoreNum) {", "        return;", "    }",
             "    TPipe pipe;", f"    {cls} op;",
             "    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.cube, &tilingData.cubeTiling);",
             f"    op.Init({a.name}, {b.name}, {c.name}, tilingData.cubeTiling);", "    op.Process();", "}"]
    return "\n".join(head + body + entry) + "\n"
