// WelfordUpdate / WelfordFinalize and their size helpers (kgen_sim/adv/welford.h, host_welford_tiling.h).
// welford_full: x [rn, ab] is fed block by block (row i with nRec = 1/(i+1)), then finalized.
#include "kgen_test_io.h"
#include "kgen_test_ub.h"
#include "kgen_sim/adv/host_tiling.h"

using namespace AscendC;

template <typename T>
using Ub = kt::UbStage<T, true>;  // kgen_test_ub.h

constexpr WelfordUpdateConfig kInplace = {true};

// params rn, ab, comp (abComputeLength of the last block), inplace, tmp (-1 min, 0 framework), counts (1: counts form)
template <typename T>
__global__ __aicore__ void welford_kernel(GM_ADDR x, GM_ADDR mv, GM_ADDR res, GM_ADDR cnt, uint32_t rn, uint32_t ab,
                                          uint32_t comp, int inplace, uint32_t tmpBytes, int useCounts) {
    TPipe pipe;
    Ub<T> X(pipe, x, rn * ab);
    Ub<float> M(pipe, mv, ab), V(pipe, mv + ab * 4, ab), M2(pipe, mv + 2 * ab * 4, ab), V2(pipe, mv + 3 * ab * 4, ab),
        R(pipe, res, 8);
    Ub<int32_t> C(pipe, cnt, ab);
    TBuf<TPosition::VECCALC> tb;
    LocalTensor<uint8_t> tmp;
    if (tmpBytes) {
        pipe.InitBuffer(tb, tmpBytes);
        tmp = tb.Get<uint8_t>();
    }
    Duplicate(M.t, 0.0f, ab);
    Duplicate(V.t, 0.0f, ab);
    for (uint32_t i = 0; i < rn; ++i) {
        WelfordUpdateParam p{1, ab, i + 1 == rn ? comp : ab, 1.0f / float(i + 1)};
        LocalTensor<T> xi = X.t[i * ab];
        const LocalTensor<float>& im = (i % 2) ? M2.t : M.t;
        const LocalTensor<float>& iv = (i % 2) ? V2.t : V.t;
        const LocalTensor<float>& om = (i % 2) ? M.t : M2.t;
        const LocalTensor<float>& ov = (i % 2) ? V.t : V2.t;
        if (inplace) WelfordUpdate<T, float, false, kInplace>(om, ov, im, iv, xi, tmp, p);
        else if (tmpBytes) WelfordUpdate<T, float>(om, ov, im, iv, xi, tmp, p);
        else WelfordUpdate<T, float>(om, ov, im, iv, xi, p);
    }
    const LocalTensor<float>& fm = (rn % 2) ? M2.t : M.t;
    const LocalTensor<float>& fv = (rn % 2) ? V2.t : V.t;
    DataCopy(M.g, fm, M.n);
    DataCopy(V.g, fv, V.n);
    uint32_t headLen = comp, tailLen = ab - comp;
    float R_total = float(rn) * comp + float(rn - 1) * tailLen;
    WelfordFinalizePara fp{rn, ab, rn, headLen, tailLen ? rn - 1 : 0, tailLen, 1.0f / ab, 1.0f / R_total, 0.0f};
    LocalTensor<float> om = R.t, ov = R.t[8 * 0 + 1];
    TBuf<TPosition::VECCALC> rb;
    pipe.InitBuffer(rb, 32);
    LocalTensor<float> ov2 = rb.Get<float>();
    if (useCounts) WelfordFinalize(om, ov2, fm, fv, C.t, tmp, fp);
    else if (tmpBytes) WelfordFinalize(om, ov2, fm, fv, tmp, fp);
    else WelfordFinalize(om, ov2, fm, fv, fp);
    (void)ov;
    R.t.SetValue(1, ov2.GetValue(0));
    R.out();
}
template <typename T>
void run_welford() {
    uint32_t rn = kt::param("rn"), ab = kt::param("ab"), comp = kt::param("comp", ab);
    uint32_t umx = 0, umn = 0, fmx = 0, fmn = 0;
    GetWelfordUpdateMaxMinTmpSize(TensorShape({int64_t(rn), int64_t(ab)}), sizeof(T), 4, false, false, umx, umn);
    GetWelfordFinalizeMaxMinTmpSize(TensorShape({int64_t(ab)}), 4, false, fmx, fmn);
    kt::save("sizes", std::vector<uint32_t>{umn, umx, fmn, fmx});
    if (kt::param("hostonly")) return;
    int64_t tmp = kt::param("tmp");
    uint32_t tmpBytes = tmp < 0 ? (umn > fmx ? umn : fmx) : uint32_t(tmp);
    auto x = kt::load<T>("x");
    auto c = kt::load<int32_t>("counts");
    auto mv0 = kt::load<float>("mv");
    kt::Dev<T> dx(x);
    kt::Dev<float> dmv(mv0), dres(std::vector<float>(8, -7.0f));
    kt::Dev<int32_t> dc(c);
    welford_kernel<T><<<1, nullptr, nullptr>>>(dx.gm(), dmv.gm(), dres.gm(), dc.gm(), rn, ab, comp, kt::param("inplace"),
                                               tmpBytes, kt::param("usecounts"));
    kt::save("mv", dmv.host());
    kt::save("res", dres.host());
}
KT_CASE(welford_f32) { run_welford<float>(); }
KT_CASE(welford_f16) { run_welford<half>(); }

KT_MAIN()
