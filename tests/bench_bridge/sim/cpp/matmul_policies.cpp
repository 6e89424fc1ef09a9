// Matmul strategies of the official Matmul examples, on one cube core: partial output (each Iterate one
// baseK slice of K), Iterate into a CO1 tensor the kernel owns, the triangular MatmulPolicy templates, C in NZ
// (with channel split), A in the VECTOR (GEMV) format, and
// the host tiling's core split (equal blocks, a TSCM operand kept whole).
#include "kgen_test_io.h"
#include "tiling/tiling_api.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"

using namespace AscendC;

using AT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

// GetMMConfig's function switches in their documented order; the tenth is isPartialOutput
constexpr MatmulFuncParams kPartialFunc{false, false, false, false, 0, IterateOrder::UNDEF, ScheduleType::INNER_PRODUCT,
                                        true, true, true};
constexpr MatmulConfig kPartialCfg = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(kPartialFunc);

static TCubeTiling one_core_tiling(int32_t M, int32_t N, int32_t K, int32_t bm, int32_t bn, int32_t bk) {
    matmul_tiling::MatmulApiTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape(M, N, K);
    api.SetOrgShape(M, N, K);
    api.SetFixSplit(bm, bn, bk);
    TCubeTiling t;
    if (api.GetTiling(t) != 0) std::exit(4);
    return t;
}

// every Iterate's block written one after another (GetTensorC's sequential write)
__global__ __cube__ void partial_mm(GM_ADDR a, GM_ADDR b, GM_ADDR out, TCubeTiling t) {
    TPipe pipe;
    Matmul<AT, AT, CT, CT, kPartialCfg> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> og;
    ag.SetGlobalBuffer((__gm__ half*)a);
    bg.SetGlobalBuffer((__gm__ half*)b);
    og.SetGlobalBuffer((__gm__ float*)out);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    uint32_t offset = 0;
    while (mm.Iterate()) {
        mm.GetTensorC(og[offset], 0, true);
        offset += t.baseM * t.baseN;
    }
    mm.End();
}

// each block Iterate puts into a CO1 tensor (the accumulator type), copied out element by element
__global__ __cube__ void co1_mm(GM_ADDR a, GM_ADDR b, GM_ADDR out, TCubeTiling t) {
    TPipe pipe;
    Matmul<AT, AT, MatmulType<TPosition::CO1, CubeFormat::NZ, GetMmDstType<half>::Type>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> og;
    ag.SetGlobalBuffer((__gm__ half*)a);
    bg.SetGlobalBuffer((__gm__ half*)b);
    og.SetGlobalBuffer((__gm__ float*)out);
    TQue<TPosition::CO1, Impl::QUEUE_DEPTH> co1Que;
    const uint32_t blockElems = t.baseM * t.baseN;
    pipe.InitBuffer(co1Que, 1, blockElems * sizeof(float));
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    LocalTensor<float> co1 = co1Que.AllocTensor<float>();
    SetFixPipeConfig(co1, true);  // the L0C form (clears unit flags) takes the accumulator type
    uint32_t block = 0;
    while (mm.Iterate(false, co1)) {
        for (uint32_t i = 0; i < blockElems; ++i) og.SetValue(block * blockElems + i, co1.GetValue(i));
        ++block;
    }
    co1Que.FreeTensor(co1);
    mm.End();
}

template <template <const auto&, typename...> class POLICY>
__global__ __cube__ void triangle_mm(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling t) {
    TPipe pipe;
    Matmul<AT, AT, CT, CT, CFG_NORM, MatmulCallBackFunc<nullptr, nullptr, nullptr>, POLICY> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half*)a);
    bg.SetGlobalBuffer((__gm__ half*)b);
    cg.SetGlobalBuffer((__gm__ float*)c);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    mm.IterateAll(cg);
    mm.End();
}

constexpr MatmulConfig channelSplitCfg() {
    MatmulConfig c = CFG_NORM;
    c.isEnableChannelSplit = true;
    return c;
}
constexpr MatmulConfig kChannelSplitCfg = channelSplitCfg();

// C in NZ in GM (16 x 16 fractals, or 16 x 8 with channel split); A in VECTOR (GEMV, M = 1) when asked
template <CubeFormat AF, CubeFormat CF, const MatmulConfig& CFG>
__global__ __cube__ void format_mm(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling t) {
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, AF, half>, AT, MatmulType<TPosition::GM, CF, float>, CT, CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half*)a);
    bg.SetGlobalBuffer((__gm__ half*)b);
    cg.SetGlobalBuffer((__gm__ float*)c);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    mm.IterateAll(cg);
    mm.End();
}

static void run_case(const char* which) {
    int32_t M = (int32_t)kt::param("M"), N = (int32_t)kt::param("N"), K = (int32_t)kt::param("K");
    TCubeTiling t = one_core_tiling(M, N, K, (int32_t)kt::param("bm"), (int32_t)kt::param("bn"), (int32_t)kt::param("bk"));
    kt::Dev<half> da(kt::load<half>("a")), db(kt::load<half>("b"));
    kt::Dev<float> dout(kt::load<float>("out0"));
    const std::string w = which;
    if (w == "partial") partial_mm<<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dout.gm(), t);
    else if (w == "co1") co1_mm<<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dout.gm(), t);
    else if (w == "nz") format_mm<CubeFormat::ND, CubeFormat::NZ, CFG_NORM><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dout.gm(), t);
    else if (w == "nz_split")
        format_mm<CubeFormat::ND, CubeFormat::NZ, kChannelSplitCfg><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dout.gm(), t);
    else if (w == "gemv") format_mm<CubeFormat::VECTOR, CubeFormat::ND, CFG_NORM><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dout.gm(), t);
    else if (w == "upper") triangle_mm<Impl::Detail::TrianUpperMatmulPolicy><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dout.gm(), t);
    else triangle_mm<Impl::Detail::TrianLowerMatmulPolicy><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dout.gm(), t);
    kt::save("out", dout.host());
}

KT_CASE(partial) { run_case("partial"); }
KT_CASE(co1) { run_case("co1"); }
KT_CASE(nz) { run_case("nz"); }
KT_CASE(nz_split) { run_case("nz_split"); }
KT_CASE(gemv) { run_case("gemv"); }
KT_CASE(upper) { run_case("upper"); }
KT_CASE(lower) { run_case("lower"); }

// the multi-core split: singleCoreM, singleCoreN, usedCoreNum for A in GM or TSCM
KT_CASE(split) {
    matmul_tiling::MultiCoreMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
    api.SetDim((int32_t)kt::param("cores"));
    const auto apos = kt::param("tscm") ? matmul_tiling::TPosition::TSCM : matmul_tiling::TPosition::GM;
    api.SetAType(apos, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT16);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, matmul_tiling::DataType::DT_FLOAT);
    api.SetShape((int32_t)kt::param("M"), (int32_t)kt::param("N"), (int32_t)kt::param("K"));
    TCubeTiling t;
    if (api.GetTiling(t) != 0) std::exit(4);
    kt::save("split", std::vector<int32_t>{t.singleCoreM, t.singleCoreN, t.usedCoreNum});
}

KT_MAIN()
