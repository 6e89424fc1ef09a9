// The Matmul high-level API and its host tiling: a kernel-launch program with named cases.
// Host side: MultiCoreMatmulTiling -> TCubeTiling; kernel side: Matmul over the per-core slice
// (offsets and tails from the tiling, as CANN's multi-core examples compute them), in one of four
// ways: IterateAll to GM, Iterate + GetTensorC to GM, Iterate + GetTensorC to UB (sequential write)
// then DataCopy out, async Iterate<false> + GetTensorC<false>. Plus the tiling values alone, the
// core types of a MIX launch, and the misuse diagnostics.
#include "kgen_test_io.h"
#include "lib/matmul_intf.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

struct MmParams {
    int32_t transA, transB, bias, mode, atomic;
};

template <typename AT, typename CT, typename BT>
__global__ __aicore__ void mm_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR ws, TCubeTiling tiling, MmParams p) {
    TPipe pipe;
    using MM = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, AT>, MatmulType<TPosition::GM, CubeFormat::ND, AT>,
                      MatmulType<TPosition::GM, CubeFormat::ND, CT>, MatmulType<TPosition::GM, CubeFormat::ND, BT>>;
    MM mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    int32_t blk = (int32_t)GetBlockIdx();
    if (blk >= tiling.usedCoreNum) return;
    int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    int32_t mi = blk % mBlocks, ni = blk / mBlocks;
    int32_t tailM = tiling.M - mi * tiling.singleCoreM, tailN = tiling.N - ni * tiling.singleCoreN;
    tailM = tailM < tiling.singleCoreM ? tailM : tiling.singleCoreM;
    tailN = tailN < tiling.singleCoreN ? tailN : tiling.singleCoreN;
    GlobalTensor<AT> ag, bg;
    GlobalTensor<CT> cg;
    GlobalTensor<BT> biasg;
    ag.SetGlobalBuffer((__gm__ AT*)a + (p.transA ? mi * tiling.singleCoreM : mi * tiling.singleCoreM * tiling.Ka), tiling.M * tiling.Ka);
    bg.SetGlobalBuffer((__gm__ AT*)b + (p.transB ? ni * tiling.singleCoreN * tiling.Kb : ni * tiling.singleCoreN));
    cg.SetGlobalBuffer((__gm__ CT*)c + mi * tiling.singleCoreM * tiling.N + ni * tiling.singleCoreN);
    biasg.SetGlobalBuffer((__gm__ BT*)bias + ni * tiling.singleCoreN);
    mm.SetTensorA(ag, p.transA != 0);
    mm.SetTensorB(bg, p.transB != 0);
    if (p.bias) mm.SetBias(biasg);
    if (tailM < tiling.singleCoreM || tailN < tiling.singleCoreN) mm.SetTail(tailM, tailN);
    if (p.mode == 0) {
        mm.IterateAll(cg, (uint8_t)p.atomic);
    } else if (p.mode == 1) {
        while (mm.Iterate()) mm.GetTensorC(cg);
    } else {
        // to UB, compact [baseM, baseN] blocks, copied out row by row at the block's place
        TQue<TPosition::VECIN, 1> q;
        pipe.InitBuffer(q, 1, tiling.baseM * tiling.baseN * sizeof(CT));
        GlobalTensor<CT> wsg;
        wsg.SetGlobalBuffer((__gm__ CT*)ws);
        if (p.mode == 3) {
            mm.SetWorkspace(wsg);
            mm.template Iterate<false>();
        }
        int32_t mIter = (tailM + tiling.baseM - 1) / tiling.baseM, nIter = (tailN + tiling.baseN - 1) / tiling.baseN;
        for (int32_t i = 0; i < mIter * nIter; ++i) {
            if (p.mode == 2 && !mm.Iterate()) break;
            LocalTensor<CT> t = q.AllocTensor<CT>();
            if (p.mode == 2) mm.GetTensorC(t, 0, true);
            else mm.template GetTensorC<false>(t, 0, true);
            q.EnQue(t);
            LocalTensor<CT> u = q.DeQue<CT>();
            int32_t bm = tiling.iterateOrder == 1 ? i / nIter : i % mIter, bn = tiling.iterateOrder == 1 ? i % nIter : i / mIter;
            int32_t rows = tailM - bm * tiling.baseM, cols = tailN - bn * tiling.baseN;
            rows = rows < tiling.baseM ? rows : tiling.baseM;
            cols = cols < tiling.baseN ? cols : tiling.baseN;
            for (int32_t r = 0; r < rows; ++r) {
                DataCopyExtParams row{1, (uint32_t)(cols * sizeof(CT)), 0, 0, 0};
                DataCopyPad(cg[(bm * tiling.baseM + r) * tiling.N + bn * tiling.baseN], u[r * tiling.baseN], row);
            }
            q.FreeTensor(u);
        }
    }
    mm.End();
}

/// Host: the tiling from the case's parameters (same for every dtype test).
template <class TT>
static int64_t make_tiling(TT& t, matmul_tiling::DataType at, matmul_tiling::DataType ct, matmul_tiling::DataType bt) {
    matmul_tiling::MultiCoreMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
    api.SetDim((int32_t)kt::param("cores", 1));
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, at, kt::param("transA") != 0);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, at, kt::param("transB") != 0);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, ct);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, bt);
    int32_t M = (int32_t)kt::param("M"), N = (int32_t)kt::param("N"), K = (int32_t)kt::param("K");
    api.SetShape(M, N, K);
    api.SetOrgShape(M, N, K);
    if (kt::param("singleM", -1) > 0)
        api.SetSingleShape((int32_t)kt::param("singleM"), (int32_t)kt::param("singleN"), (int32_t)kt::param("singleK", -1));
    api.EnableBias(kt::param("withBias") != 0);
    api.SetBufferSpace((int32_t)kt::param("l1", -1), -1, -1);
    api.SetFixSplit((int32_t)kt::param("baseM", -1), (int32_t)kt::param("baseN", -1), (int32_t)kt::param("baseK", -1));
    if (kt::param("firstN")) api.SetTraverse(matmul_tiling::MatrixTraverse::FIRSTN);
    return api.GetTiling(t);
}

template <typename AT, typename CT, typename BT>
void run_mm(matmul_tiling::DataType at, matmul_tiling::DataType ct, matmul_tiling::DataType bt) {
    TCubeTiling t;
    if (make_tiling(t, at, ct, bt) != 0) { std::fprintf(stderr, "GetTiling failed\n"); std::exit(4); }
    auto a = kt::load<AT>("a");
    auto b = kt::load<AT>("b");
    auto bias = kt::load<BT>("bias");
    auto c0 = kt::load<CT>("c0");
    kt::Dev<AT> da(a), db(b);
    kt::Dev<BT> dbias(bias);
    kt::Dev<CT> dc(c0);
    kt::Dev<uint8_t> dws(size_t(1) << 20);
    MmParams p{(int32_t)kt::param("transA"), (int32_t)kt::param("transB"), (int32_t)kt::param("withBias"), (int32_t)kt::param("mode"),
                (int32_t)kt::param("atomic")};
    uint32_t blocks = (uint32_t)(t.usedCoreNum + 1) / 2;  // MIX: two vector cores per block
    mm_kernel<AT, CT, BT><<<blocks, nullptr, nullptr>>>(da.gm(), db.gm(), dbias.gm(), dc.gm(), dws.gm(), t, p);
    kt::save("c", dc.host());
    kt::save("tiling", std::vector<int32_t>((int32_t*)&t, (int32_t*)&t + sizeof(t) / 4));
}
using DT = matmul_tiling::DataType;
KT_CASE(mm_f16_f32) { run_mm<half, float, float>(DT::DT_FLOAT16, DT::DT_FLOAT, DT::DT_FLOAT); }
KT_CASE(mm_f16_f16) { run_mm<half, half, half>(DT::DT_FLOAT16, DT::DT_FLOAT16, DT::DT_FLOAT16); }
KT_CASE(mm_bf16_bf16) { run_mm<bfloat16_t, bfloat16_t, float>(DT::DT_BF16, DT::DT_BF16, DT::DT_FLOAT); }
KT_CASE(mm_f32_f32) { run_mm<float, float, float>(DT::DT_FLOAT, DT::DT_FLOAT, DT::DT_FLOAT); }
KT_CASE(mm_i8_i32) { run_mm<int8_t, int32_t, int32_t>(DT::DT_INT8, DT::DT_INT32, DT::DT_INT32); }

// ---- int4b_t inputs: GM tensors of packed 4-bit elements, each core's slice taken with GlobalTensor::operator[]
// (element offsets: half as many bytes), int32 C and bias
__global__ __aicore__ void mm_i4_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, TCubeTiling tiling) {
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int4b_t>, MatmulType<TPosition::GM, CubeFormat::ND, int4b_t>,
           MatmulType<TPosition::GM, CubeFormat::ND, int32_t>, MatmulType<TPosition::GM, CubeFormat::ND, int32_t>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    int32_t blk = (int32_t)GetBlockIdx();
    if (blk >= tiling.usedCoreNum) return;
    int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    int32_t mi = blk % mBlocks, ni = blk / mBlocks;
    GlobalTensor<int4b_t> ag, bg;
    GlobalTensor<int32_t> cg, biasg;
    ag.SetGlobalBuffer((__gm__ int4b_t*)a, tiling.M * tiling.Ka);
    bg.SetGlobalBuffer((__gm__ int4b_t*)b, tiling.Kb * tiling.N);
    cg.SetGlobalBuffer((__gm__ int32_t*)c, tiling.M * tiling.N);
    biasg.SetGlobalBuffer((__gm__ int32_t*)bias, tiling.N);
    int32_t tailM = tiling.M - mi * tiling.singleCoreM, tailN = tiling.N - ni * tiling.singleCoreN;
    tailM = tailM < tiling.singleCoreM ? tailM : tiling.singleCoreM;
    tailN = tailN < tiling.singleCoreN ? tailN : tiling.singleCoreN;
    if (tailM < tiling.singleCoreM || tailN < tiling.singleCoreN) mm.SetTail(tailM, tailN);
    mm.SetTensorA(ag[mi * tiling.singleCoreM * tiling.Ka]);
    mm.SetTensorB(bg[ni * tiling.singleCoreN]);
    if (tiling.isBias) mm.SetBias(biasg[ni * tiling.singleCoreN]);
    mm.IterateAll(cg[mi * tiling.singleCoreM * tiling.N + ni * tiling.singleCoreN]);
    mm.End();
}
KT_CASE(mm_i4_i32) {
    TCubeTiling t;
    if (make_tiling(t, DT::DT_INT4, DT::DT_INT32, DT::DT_INT32) != 0) { std::fprintf(stderr, "GetTiling failed\n"); std::exit(4); }
    auto a = kt::load<uint8_t>("a");  // packed: element 2i in the low 4 bits of byte i
    auto b = kt::load<uint8_t>("b");
    auto bias = kt::load<int32_t>("bias");
    auto c0 = kt::load<int32_t>("c0");
    kt::Dev<uint8_t> da(a), db(b);
    kt::Dev<int32_t> dbias(bias), dc(c0);
    mm_i4_kernel<<<(uint32_t)(t.usedCoreNum + 1) / 2, nullptr, nullptr>>>(da.gm(), db.gm(), dbias.gm(), dc.gm(), t);
    kt::save("c", dc.host());
}

// ---- 4:2 sparse B (SparseMatmulType + SetSparseIndex): int8 A [M, K], densified B^T [N, K / 2], index NZ --------
__global__ __aicore__ void mm_sparse_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c, TCubeTiling tiling) {
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, int8_t>,
           SparseMatmulType<TPosition::GM, TPosition::GM, CubeFormat::ND, int8_t, true>,
           MatmulType<TPosition::GM, CubeFormat::ND, int32_t>, MatmulType<TPosition::GM, CubeFormat::ND, int32_t>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    if ((int32_t)GetBlockIdx() >= tiling.usedCoreNum) return;
    GlobalTensor<int8_t> ag, bg;
    GlobalTensor<uint8_t> ig;
    GlobalTensor<int32_t> cg;
    ag.SetGlobalBuffer((__gm__ int8_t*)a, tiling.M * tiling.Ka);
    bg.SetGlobalBuffer((__gm__ int8_t*)b, tiling.N * tiling.Kb / 2);
    ig.SetGlobalBuffer((__gm__ uint8_t*)idx);
    cg.SetGlobalBuffer((__gm__ int32_t*)c, tiling.M * tiling.N);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg, true);
    mm.SetSparseIndex(ig);
    mm.IterateAll(cg);
    mm.End();
}
KT_CASE(mm_sparse) {
    matmul_tiling::MultiCoreMatmulTiling api(*platform_ascendc::PlatformAscendCManager::GetInstance());
    api.SetDim(1);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_INT8, false);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_INT8, true);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_INT32);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_INT32);
    int32_t M = (int32_t)kt::param("M"), N = (int32_t)kt::param("N"), K = (int32_t)kt::param("K");
    api.SetShape(M, N, K);
    api.SetOrgShape(M, N, K);
    api.SetSparse(true);
    TCubeTiling t;
    if (api.GetTiling(t) != 0) { std::fprintf(stderr, "GetTiling failed\n"); std::exit(4); }
    auto a = kt::load<int8_t>("a");
    auto b = kt::load<int8_t>("b");
    auto idx = kt::load<uint8_t>("idx");
    std::vector<int32_t> c0(size_t(M) * N, 0);
    kt::Dev<int8_t> da(a), db(b);
    kt::Dev<uint8_t> di(idx);
    kt::Dev<int32_t> dc(c0);
    mm_sparse_kernel<<<1, nullptr, nullptr>>>(da.gm(), db.gm(), di.gm(), dc.gm(), t);
    kt::save("c", dc.host());
}

// ---- tiling values alone: writes the 50 fields and GetTiling's result ------------------------------
KT_CASE(tiling) {
    static const DT types[] = {DT::DT_FLOAT16, DT::DT_FLOAT, DT::DT_BF16, DT::DT_INT8, DT::DT_INT32};
    DT at = types[kt::param("atype")], ct = types[kt::param("ctype", 1)];
    TCubeTiling t;
    t.usedCoreNum = 77;  // GetTiling must overwrite it, also on failure
    int64_t rc = make_tiling(t, at, ct, DT::DT_FLOAT);
    optiling::TCubeTiling host;
    make_tiling(host, at, ct, DT::DT_FLOAT);  // the tiling-data class: same values, same bytes
    std::vector<int32_t> out((int32_t*)&t, (int32_t*)&t + sizeof(t) / 4);
    std::vector<uint8_t> bytes(host.GetDataSize());
    host.SaveToBuffer(bytes.data(), bytes.size());
    kt::save("host", bytes);
    out.push_back((int32_t)rc);
    out.push_back((int32_t)host.GetDataSize());
    kt::save("tiling", out);
}

// ---- core types of a MIX launch -----------------------------------------------------------------
__global__ __aicore__ void coretype_kernel(GM_ADDR out) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t*)out, 1024);
    int32_t slot = (int32_t)(ASCEND_IS_AIC ? 64 + GetBlockIdx() : GetBlockIdx()) * 4;
    o.SetValue(slot + 0, g_coreType);
    o.SetValue(slot + 1, (int32_t)GetSubBlockIdx());
    o.SetValue(slot + 2, (int32_t)GetBlockNum());
    o.SetValue(slot + 3, (int32_t)GetTaskRation());
}
KT_CASE(coretypes) {
    kt::Dev<int32_t> d(std::vector<int32_t>(1024, -1));
    coretype_kernel<<<(uint32_t)kt::param("blocks", 3), nullptr, nullptr>>>(d.gm());
    kt::save("out", d.host());
}

// ---- misuse ------------------------------------------------------------------------------------------
using MMh = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   MatmulType<TPosition::GM, CubeFormat::ND, float>>;
__global__ __aicore__ void misuse_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling tiling, int32_t what) {
    TPipe pipe;
    MMh mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half*)a);
    bg.SetGlobalBuffer((__gm__ half*)b);
    cg.SetGlobalBuffer((__gm__ float*)c);
    mm.SetTensorA(ag);
    if (what == 0) mm.IterateAll(cg);  // MARK:no_tensor
    mm.SetTensorB(bg);
    if (what == 1) mm.SetTail(tiling.M + 16, -1, -1);  // MARK:tail
    if (what == 2) mm.SetBias(cg);  // MARK:bias
    if (what == 3) mm.GetTensorC(cg);  // MARK:getc
    mm.IterateAll(cg);
}
KT_CASE(misuse) {
    matmul_tiling::MultiCoreMatmulTiling api;
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT16);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT16);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT);
    api.SetShape(32, 32, 32);
    if (kt::param("bad")) api.SetFixSplit(24, -1, -1);  // baseM not a multiple of 16: GetTiling fails
    TCubeTiling t;
    int64_t rc = api.GetTiling(t);  // MARK:gettiling
    std::fprintf(stderr, "GetTiling returned %lld\n", (long long)rc);
    kt::Dev<half> da(std::vector<half>(32 * 32, half(1.0f))), db(std::vector<half>(32 * 32, half(1.0f)));
    kt::Dev<float> dc(std::vector<float>(32 * 32, 0.0f));
    misuse_kernel<<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dc.gm(), t, (int32_t)kt::param("what", 9));
    kt::save("c", dc.host());
}
__global__ __aicore__ void dtype_kernel(TCubeTiling tiling) {
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);  // MARK:dtype
}
KT_CASE(misuse_dtype) {
    TCubeTiling t;
    matmul_tiling::MatmulApiTiling api;
    api.SetShape(32, 32, 32);
    api.GetTiling(t);
    dtype_kernel<<<1, nullptr, nullptr>>>(t);
}

// ---- NZ inputs, two objects in one REGIST_MATMUL_OBJ, UB operands ---------------------------------------
template <CubeFormat FA, CubeFormat FB>
using MMfmt = Matmul<MatmulType<TPosition::GM, FA, half>, MatmulType<TPosition::GM, FB, half>,
                     MatmulType<TPosition::GM, CubeFormat::ND, float>>;
static TCubeTiling single_tiling(int32_t M, int32_t N, int32_t K, matmul_tiling::CubeFormat fa, matmul_tiling::CubeFormat fb) {
    matmul_tiling::MatmulApiTiling api;
    api.SetAType(matmul_tiling::TPosition::GM, fa, DT::DT_FLOAT16);
    api.SetBType(matmul_tiling::TPosition::GM, fb, DT::DT_FLOAT16);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT);
    api.SetShape(M, N, K);
    api.SetFixSplit((int32_t)kt::param("baseM", -1), (int32_t)kt::param("baseN", -1), -1);
    TCubeTiling t;
    if (api.GetTiling(t) != 0) std::exit(4);
    return t;
}
__global__ __aicore__ void nz_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling t) {
    TPipe pipe;
    MMfmt<CubeFormat::NZ, CubeFormat::NZ> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half*)a);
    bg.SetGlobalBuffer((__gm__ half*)b);
    cg.SetGlobalBuffer((__gm__ float*)c);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    mm.IterateAll(cg);
}
KT_CASE(mm_nz) {
    int32_t M = (int32_t)kt::param("M"), N = (int32_t)kt::param("N"), K = (int32_t)kt::param("K");
    TCubeTiling t = single_tiling(M, N, K, matmul_tiling::CubeFormat::NZ, matmul_tiling::CubeFormat::NZ);
    kt::Dev<half> da(kt::load<half>("a")), db(kt::load<half>("b"));
    kt::Dev<float> dc(std::vector<float>(size_t(M) * N, 0.0f));
    nz_kernel<<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dc.gm(), t);
    kt::save("c", dc.host());
}

// two objects registered together: c1 = a @ b (M x N x K), c2 = a2 @ b2 (M2 x N2 x K2, other tiling)
__global__ __aicore__ void two_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR a2, GM_ADDR b2, GM_ADDR c2, TCubeTiling t1, TCubeTiling t2) {
    TPipe pipe;
    MMfmt<CubeFormat::ND, CubeFormat::ND> mm1, mm2;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm1, &t1, mm2, &t2);
    GlobalTensor<half> ag, bg, a2g, b2g;
    GlobalTensor<float> cg, c2g;
    ag.SetGlobalBuffer((__gm__ half*)a);
    bg.SetGlobalBuffer((__gm__ half*)b);
    cg.SetGlobalBuffer((__gm__ float*)c);
    a2g.SetGlobalBuffer((__gm__ half*)a2);
    b2g.SetGlobalBuffer((__gm__ half*)b2);
    c2g.SetGlobalBuffer((__gm__ float*)c2);
    mm1.SetTensorA(ag);
    mm1.SetTensorB(bg);
    mm1.IterateAll(cg);
    mm1.End();
    mm2.SetTensorA(a2g);
    mm2.SetTensorB(b2g);
    mm2.IterateAll(c2g);
    mm2.End();
}
KT_CASE(mm_two) {
    TCubeTiling t1 = single_tiling(20, 40, 24, matmul_tiling::CubeFormat::ND, matmul_tiling::CubeFormat::ND);
    TCubeTiling t2 = single_tiling(33, 17, 50, matmul_tiling::CubeFormat::ND, matmul_tiling::CubeFormat::ND);
    kt::Dev<half> da(kt::load<half>("a")), db(kt::load<half>("b")), da2(kt::load<half>("a2")), db2(kt::load<half>("b2"));
    kt::Dev<float> dc(std::vector<float>(20 * 40, 0.0f)), dc2(std::vector<float>(33 * 17, 0.0f));
    two_kernel<<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dc.gm(), da2.gm(), db2.gm(), dc2.gm(), t1, t2);
    kt::save("c", dc.host());
    kt::save("c2", dc2.host());
}

// A staged in the Unified Buffer (VECOUT), C gathered in the Unified Buffer by IterateAll(local)
__global__ __aicore__ void ub_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling t) {
    TPipe pipe;
    Matmul<MatmulType<TPosition::VECOUT, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    TQue<TPosition::VECOUT, 1> aq;
    TQue<TPosition::VECIN, 1> cq;
    pipe.InitBuffer(aq, 1, t.M * t.Ka * sizeof(half));
    pipe.InitBuffer(cq, 1, t.M * t.N * sizeof(float));
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half*)a);
    bg.SetGlobalBuffer((__gm__ half*)b);
    cg.SetGlobalBuffer((__gm__ float*)c);
    LocalTensor<half> al = aq.AllocTensor<half>();
    DataCopy(al, ag, t.M * t.Ka);
    aq.EnQue(al);
    al = aq.DeQue<half>();
    LocalTensor<float> cl = cq.AllocTensor<float>();
    mm.SetTensorA(al);
    mm.SetTensorB(bg);
    mm.IterateAll(cl);
    cq.EnQue(cl);
    cl = cq.DeQue<float>();
    DataCopy(cg, cl, t.M * t.N);
    cq.FreeTensor(cl);
    aq.FreeTensor(al);
}
KT_CASE(mm_ub) {
    TCubeTiling t = single_tiling(32, 24, 48, matmul_tiling::CubeFormat::ND, matmul_tiling::CubeFormat::ND);
    kt::Dev<half> da(kt::load<half>("a")), db(kt::load<half>("b"));
    kt::Dev<float> dc(std::vector<float>(32 * 24, 0.0f));
    ub_kernel<<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dc.gm(), t);
    kt::save("c", dc.host());
}

// ---- batch matmul (IterateBatch, NORMAL layout) ------------------------------------------------------------
constexpr MatmulConfig CFG_SHARED_BIAS = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulBatchParams{false, BatchMode::BATCH_LESS_THAN_L1, false});
template <const MatmulConfig& CFG>
__global__ __aicore__ void batch_kernel(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, TCubeTiling t, uint32_t batchA, uint32_t batchB) {
    TPipe pipe;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>,
           MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>,
           MatmulType<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>, MatmulType<TPosition::GM, CubeFormat::ND, float>, CFG> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> biasg, cg;
    ag.SetGlobalBuffer((__gm__ half*)a);
    bg.SetGlobalBuffer((__gm__ half*)b);
    biasg.SetGlobalBuffer((__gm__ float*)bias);
    cg.SetGlobalBuffer((__gm__ float*)c);
    mm.SetTensorA(ag);
    mm.SetTensorB(bg);
    mm.SetBias(biasg);
    mm.IterateBatch(cg, batchA, batchB, false);
    mm.End();
}
KT_CASE(mm_batch) {
    int32_t M = (int32_t)kt::param("M"), N = (int32_t)kt::param("N"), K = (int32_t)kt::param("K");
    uint32_t ba = (uint32_t)kt::param("batchA"), bb = (uint32_t)kt::param("batchB");
    matmul_tiling::BatchMatmulTiling api;
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT16);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT16);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DT::DT_FLOAT);
    api.SetBatchInfoForNormal((int32_t)ba, (int32_t)bb, M, N, K);
    api.EnableBias(true);
    api.SetFixSplit(16, 16, -1);
    TCubeTiling t;
    if (api.GetTiling(t) != 0) std::exit(4);
    kt::Dev<half> da(kt::load<half>("a")), db(kt::load<half>("b"));
    kt::Dev<float> dbias(kt::load<float>("bias"));
    kt::Dev<float> dc(std::vector<float>(size_t(std::max(ba, bb)) * M * N, 0.0f));
    if (kt::param("sharedBias")) batch_kernel<CFG_SHARED_BIAS><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dbias.gm(), dc.gm(), t, ba, bb);
    else batch_kernel<CFG_NORM><<<1, nullptr, nullptr>>>(da.gm(), db.gm(), dbias.gm(), dc.gm(), t, ba, bb);
    kt::save("c", dc.host());
    kt::save("batchnum", std::vector<int32_t>{t.BatchNum});
}

KT_MAIN()
