// The whole-tensor operator forms of the vector APIs (dst = x + y, dst = x < y, ...) on 256-element
// tensors, and the coordinate helpers (MakeCoord, Crd2Idx, Layout(coord)) with the Matmul library's Ceil.
#include "kgen_test_io.h"

using namespace AscendC;

constexpr uint32_t kN = 256;

__global__ __vector__ void ops(GM_ADDR x, GM_ADDR y, GM_ADDR xi, GM_ADDR yi, GM_ADDR out, GM_ADDR outi, GM_ADDR mask) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 9 * kN * sizeof(float));
    LocalTensor<float> a = buf.Get<float>(), b = a[kN], d = a[2 * kN];
    LocalTensor<int32_t> ai = a[3 * kN].ReinterpretCast<int32_t>(), bi = a[4 * kN].ReinterpretCast<int32_t>();
    LocalTensor<int32_t> di = a[5 * kN].ReinterpretCast<int32_t>();
    LocalTensor<uint8_t> m = a[6 * kN].ReinterpretCast<uint8_t>();
    // the operators work on whole tensors: each view holds exactly its 256 elements (the mask 256 bits)
    for (auto* t : {&a, &b, &d}) t->SetSize(kN);
    for (auto* t : {&ai, &bi, &di}) t->SetSize(kN);
    m.SetSize(kN / 8);
    GlobalTensor<float> xg, yg, og;
    GlobalTensor<int32_t> xig, yig, oig;
    GlobalTensor<uint8_t> mg;
    xg.SetGlobalBuffer((__gm__ float*)x, kN);
    yg.SetGlobalBuffer((__gm__ float*)y, kN);
    og.SetGlobalBuffer((__gm__ float*)out, 4 * kN);
    xig.SetGlobalBuffer((__gm__ int32_t*)xi, kN);
    yig.SetGlobalBuffer((__gm__ int32_t*)yi, kN);
    oig.SetGlobalBuffer((__gm__ int32_t*)outi, 2 * kN);
    mg.SetGlobalBuffer((__gm__ uint8_t*)mask, 2 * kN / 8);
    DataCopy(a, xg, kN);
    DataCopy(b, yg, kN);
    DataCopy(ai, xig, kN);
    DataCopy(bi, yig, kN);
    PipeBarrier<PIPE_ALL>();
    d = a + b;  DataCopy(og, d, kN);           PipeBarrier<PIPE_ALL>();
    d = a - b;  DataCopy(og[kN], d, kN);       PipeBarrier<PIPE_ALL>();
    d = a * b;  DataCopy(og[2 * kN], d, kN);   PipeBarrier<PIPE_ALL>();
    d = a / b;  DataCopy(og[3 * kN], d, kN);   PipeBarrier<PIPE_ALL>();
    di = ai & bi; DataCopy(oig, di, kN);       PipeBarrier<PIPE_ALL>();
    di = ai | bi; DataCopy(oig[kN], di, kN);   PipeBarrier<PIPE_ALL>();
    m = a < b;  DataCopy(mg, m, kN / 8);       PipeBarrier<PIPE_ALL>();
    m = a >= b; DataCopy(mg[kN / 8], m, kN / 8);
}

KT_CASE(ops) {
    kt::Dev<float> dx(kt::load<float>("x")), dy(kt::load<float>("y")), dout(size_t(4 * kN));
    kt::Dev<int32_t> dxi(kt::load<int32_t>("xi")), dyi(kt::load<int32_t>("yi")), douti(size_t(2 * kN));
    kt::Dev<uint8_t> dm(size_t(2 * kN / 8));
    ops<<<1, nullptr, nullptr>>>(dx.gm(), dy.gm(), dxi.gm(), dyi.gm(), dout.gm(), douti.gm(), dm.gm());
    kt::save("out", dout.host());
    kt::save("outi", douti.host());
    kt::save("mask", dm.host());
}

KT_CASE(coord) {
    // shape (3, 4, 5), stride (20, 5, 1): the Crd2Idx page's example, (1, 2, 3) -> 33
    auto layout = MakeLayout(MakeShape(3, 4, 5), MakeStride(20, 5, 1));
    auto c = MakeCoord(1, 2, 3);
    int64_t viaLayout = layout(c), viaCrd = Crd2Idx(c, layout), viaShape = Crd2Idx(MakeCoord(2, 3, 4), MakeShape(3, 4, 5),
                                                                                     MakeStride(20, 5, 1));
    int64_t ceil = Ceil(int64_t(30720), int64_t(256)) + Ceil(7, 2) * 100000 + CeilAlign(7, 4) * 1000000;
    Std::tuple<int64_t, int64_t> t = Std::forward<Std::tuple<int64_t, int64_t>>(Std::make_tuple(int64_t(5), int64_t(6)));
    kt::save("coord", std::vector<int64_t>{viaLayout, viaCrd, viaShape, ceil, Std::get<1>(t)});
}

KT_MAIN()
