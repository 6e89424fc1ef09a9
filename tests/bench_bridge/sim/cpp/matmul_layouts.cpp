// Batch layouts and constant tiling of the Matmul API: IterateBatch with A/B/C in BSNGD, SBNGD, BNGS1S2
// or NORMAL (host tiling from SetALayout/SetBLayout/SetCLayout/SetBatchNum), IterateNBatch into a
// workspace (sync, and async with GetBatchTensorC), and Matmuls whose fifth template argument is a
// MatmulApiStaticTiling (full constant tiling with no TCubeTiling, partial with one). The per-call
// offsets of the batch kernel come from the test (computed there from the layout definitions).
#include "kgen_test_io.h"
#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"

using namespace AscendC;
using DT = matmul_tiling::DataType;

constexpr int MAX_CALLS = 8;
struct Calls {
    int32_t n, batchA, batchB, bias;
    int64_t offA[MAX_CALLS], offB[MAX_CALLS], offC[MAX_CALLS], offBias[MAX_CALLS];
};

constexpr MatmulConfig CFG_SHARED_BIAS = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulBatchParams{false, BatchMode::BATCH_LESS_THAN_L1, false});
constexpr MatmulConfig CFG_NBATCH = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulBatchParams{true, BatchMode::BATCH_LESS_THAN_L1, false});

template <LayoutMode LA, LayoutMode LB, LayoutMode LC, bool TB, const MatmulConfig& CFG = CFG_NORM>
using BatchMM = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half, false, LA>, MatmulType<TPosition::GM, CubeFormat::ND, half, TB, LB>,
                       MatmulType<TPosition::GM, CubeFormat::ND, float, false, LC>, MatmulType<TPosition::GM, CubeFormat::ND, float>, CFG>;

template <LayoutMode LA, LayoutMode LB, LayoutMode LC, bool TB>
__global__ __aicore__ void batch_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, TCubeTiling t, Calls p) {
    TPipe pipe;
    BatchMM<LA, LB, LC, TB> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (GetBlockIdx() != 0) return;  // one vector core issues the calls (a G reduction adds into C)
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> biasg, cg;
    ag.SetGlobalBuffer((__gm__ half*)a);
    bg.SetGlobalBuffer((__gm__ half*)b);
    biasg.SetGlobalBuffer((__gm__ float*)bias);
    cg.SetGlobalBuffer((__gm__ float*)c);
    for (int i = 0; i < p.n; ++i) {
        mm.SetTensorA(ag[p.offA[i]], false);
        mm.SetTensorB(bg[p.offB[i]], TB);
        if (p.bias) mm.SetBias(biasg[p.offBias[i]]);  // MARK:setbias
        mm.IterateBatch(cg[p.offC[i]], p.batchA, p.batchB, false);  // MARK:iteratebatch
    }
    mm.End();
}

static TCubeTiling layout_tiling(bool bias) {
    int32_t M = (int32_t)kt::param("M"), N = (int32_t)kt::param("N"), K = (int32_t)kt::param("K");
    matmul_tiling::MultiCoreMatmulTiling api;
    api.SetDim(1);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT16);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT16, kt::param("transB") != 0);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT);
    api.SetShape(M, N, K);
    api.SetOrgShape(M, N, K);
    api.EnableBias(bias);
    api.SetFixSplit(16, 16, -1);  // several blocks per batch, tails in M and N
    auto ax = kt::load<int64_t>("axes");  // A (B S N G D), B (B S N G D), C (B S1 N G S2)
    api.SetALayout((int32_t)ax[0], (int32_t)ax[1], (int32_t)ax[2], (int32_t)ax[3], (int32_t)ax[4]);
    api.SetBLayout((int32_t)ax[5], (int32_t)ax[6], (int32_t)ax[7], (int32_t)ax[8], (int32_t)ax[9]);
    api.SetCLayout((int32_t)ax[10], (int32_t)ax[11], (int32_t)ax[12], (int32_t)ax[13], (int32_t)ax[14]);
    api.SetBatchNum((int32_t)kt::param("batchNum"));
    TCubeTiling t;
    if (api.GetTiling(t) != 0) std::exit(4);
    return t;
}

static Calls load_calls() {
    Calls p{};
    auto v = kt::load<int64_t>("calls");  // n, batchA, batchB, bias, then n x (offA, offB, offC, offBias)
    p.n = (int32_t)v[0]; p.batchA = (int32_t)v[1]; p.batchB = (int32_t)v[2]; p.bias = (int32_t)v[3];
    for (int i = 0; i < p.n; ++i) {
        p.offA[i] = v[4 + 4 * i]; p.offB[i] = v[5 + 4 * i]; p.offC[i] = v[6 + 4 * i]; p.offBias[i] = v[7 + 4 * i];
    }
    return p;
}

// combo: 0 BSNGD -> BSNGD (B transposed), 1 BSNGD -> BNGS1S2 (B transposed), 2 SBNGD -> SBNGD (B transposed),
// 3 BNGS1S2 -> BNGS1S2, 4 NORMAL -> NORMAL, 5 BSNGD A with NORMAL B (misuse)
KT_CASE(batch) {
    Calls p = load_calls();
    TCubeTiling t = layout_tiling(p.bias != 0);
    kt::Dev<half> da(kt::load<half>("a")), db(kt::load<half>("b"));
    kt::Dev<float> dbias(kt::load<float>("bias")), dc(kt::load<float>("c0"));
    constexpr auto BS = LayoutMode::BSNGD, SB = LayoutMode::SBNGD, BN = LayoutMode::BNGS1S2, NO = LayoutMode::NORMAL;
    switch (kt::param("combo")) {
        case 0: batch_kernel<BS, BS, BS, true><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dbias.gm(), dc.gm(), t, p); break;
        case 1: batch_kernel<BS, BS, BN, true><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dbias.gm(), dc.gm(), t, p); break;
        case 2: batch_kernel<SB, SB, SB, true><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dbias.gm(), dc.gm(), t, p); break;
        case 3: batch_kernel<BN, BN, BN, false><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dbias.gm(), dc.gm(), t, p); break;
        case 4: batch_kernel<NO, NO, NO, false><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dbias.gm(), dc.gm(), t, p); break;
        default: batch_kernel<BS, NO, BS, true><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dbias.gm(), dc.gm(), t, p); break;
    }
    kt::save("c", dc.host());
    kt::save("tiling", std::vector<int32_t>(reinterpret_cast<int32_t*>(&t), reinterpret_cast<int32_t*>(&t) + 50));
}

// ---- IterateNBatch: BSNGD A and B (B transposed) -> BSNGD C in the workspace --------------------------------
template <const MatmulConfig& CFG, bool SYNC>
__global__ __aicore__ void nbatch_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR pieces, TCubeTiling t, int32_t loops, int32_t batch,
                                         int32_t setWs) {
    TPipe pipe;
    BatchMM<LayoutMode::BSNGD, LayoutMode::BSNGD, LayoutMode::BSNGD, true, CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half*)a);
    bg.SetGlobalBuffer((__gm__ half*)b);
    cg.SetGlobalBuffer((__gm__ float*)c);
    mm.SetTensorA(ag, false);
    mm.SetTensorB(bg, true);
    if (setWs) mm.SetWorkspace(cg);
    if constexpr (SYNC) {
        mm.IterateNBatch(loops, batch, batch, false);  // MARK:nbatch
    } else {
        mm.template IterateNBatch<false>(loops, batch, batch, false);
        for (int32_t l = 0; l < loops; ++l) {
            GlobalTensor<float> piece = mm.template GetBatchTensorC<false>(batch, batch, false);
            ((__gm__ int64_t*)pieces)[l] = piece.raw() - cg.raw();  // where call l's C starts
        }
    }
    mm.End();
}
KT_CASE(nbatch) {
    TCubeTiling t = layout_tiling(false);
    kt::Dev<half> da(kt::load<half>("a")), db(kt::load<half>("b"));
    kt::Dev<float> dc(kt::load<float>("c0"));
    kt::Dev<int64_t> dp(std::vector<int64_t>(MAX_CALLS, -1));
    int32_t loops = (int32_t)kt::param("loops"), batch = (int32_t)kt::param("batch"), ws = (int32_t)kt::param("setWs", 1);
    if (kt::param("plainCfg")) nbatch_kernel<CFG_NORM, true><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dc.gm(), dp.gm(), t, loops, batch, ws);
    else if (kt::param("async")) nbatch_kernel<CFG_NBATCH, false><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dc.gm(), dp.gm(), t, loops, batch, ws);
    else nbatch_kernel<CFG_NBATCH, true><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dc.gm(), dp.gm(), t, loops, batch, ws);
    kt::save("c", dc.host());
    kt::save("pieces", dp.host());
}

// ---- constant tiling ------------------------------------------------------------------------------------------
using SA = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using SC = MatmulType<TPosition::GM, CubeFormat::ND, float>;
constexpr MatmulConfig CFG_FULL = GetMMConfig<MatmulConfigMode::CONFIG_MDL>(MatmulShapeParams{1000, 1000, 1000, 32, 48, 64});
constexpr MatmulApiStaticTiling STATIC_FULL = GetMatmulApiTiling<SA, SA, SC, SC>(CFG_FULL);
constexpr MatmulConfig CFG_PART = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulShapeParams{0, 0, 0, 16, 32, 32});
constexpr MatmulApiStaticTiling STATIC_PART = GetMatmulApiTiling<SA, SA, SC, SC>(CFG_PART);

template <const auto& CFG>
__global__ __aicore__ void static_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR count, TCubeTiling* t, int32_t M, int32_t N, int32_t K) {
    TPipe pipe;
    Matmul<SA, SA, SC, SC, CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, t);
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half*)a);
    bg.SetGlobalBuffer((__gm__ half*)b);
    cg.SetGlobalBuffer((__gm__ float*)c);
    mm.SetOrgShape(M, N, K);  // MARK:orgshape
    mm.SetTail(M, N, K);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    int32_t blocks = 0;
    while (mm.Iterate()) {
        mm.GetTensorC(cg);
        ++blocks;
    }
    mm.End();
    *(__gm__ int32_t*)count = blocks;
}
KT_CASE(static_tiling) {
    int32_t M = (int32_t)kt::param("M"), N = (int32_t)kt::param("N"), K = (int32_t)kt::param("K");
    kt::Dev<half> da(kt::load<half>("a")), db(kt::load<half>("b"));
    kt::Dev<float> dc(std::vector<float>(size_t(M) * N, 0.0f));
    kt::Dev<int32_t> dn(std::vector<int32_t>{-1});
    if (kt::param("full")) {
        static_kernel<STATIC_FULL><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dc.gm(), dn.gm(), (TCubeTiling*)nullptr, M, N, K);
    } else {
        // the runtime tiling chooses its own base block; the constant 16 x 32 x 32 replaces it
        matmul_tiling::MatmulApiTiling api;
        api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT16);
        api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT16);
        api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT);
        api.SetShape(M, N, K);
        TCubeTiling t;
        if (api.GetTiling(t) != 0) std::exit(4);
        kt::save("runtime", std::vector<int32_t>{t.baseM, t.baseN, t.baseK});
        static TCubeTiling tg;
        tg = t;
        if (kt::param("noTiling")) static_kernel<STATIC_PART><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dc.gm(), dn.gm(), (TCubeTiling*)nullptr, M, N, K);
        else static_kernel<STATIC_PART><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dc.gm(), dn.gm(), &tg, M, N, K);
    }
    kt::save("c", dc.host());
    kt::save("count", dn.host());
}
KT_CASE(static_values) {
    std::vector<int32_t> v;
    for (const MatmulApiStaticTiling* s : {&STATIC_FULL, &STATIC_PART}) {
        const int32_t* p = reinterpret_cast<const int32_t*>(s);
        v.insert(v.end(), p, p + 50);
    }
    kt::save("values", v);
}

// ---- host tiling: SetShape(-1, -1, K) takes M and N from SetOrgShape ---------------------------------------------
KT_CASE(tiling_org) {
    int32_t M = (int32_t)kt::param("M"), N = (int32_t)kt::param("N"), K = (int32_t)kt::param("K");
    std::vector<int32_t> out;
    for (int unset = 0; unset < 2; ++unset) {
        matmul_tiling::MultiCoreMatmulTiling api;
        api.SetDim((int32_t)kt::param("cores"));
        api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT16);
        api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT16);
        api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT);
        api.SetOrgShape(M, N, K);
        if (unset) api.SetShape(-1, -1, K);
        else api.SetShape(M, N, K);
        TCubeTiling t;
        out.push_back((int32_t)api.GetTiling(t));
        out.insert(out.end(), reinterpret_cast<int32_t*>(&t), reinterpret_cast<int32_t*>(&t) + 50);
    }
    kt::save("tiling", out);
}

KT_MAIN()
