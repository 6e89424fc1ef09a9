// DataCacheCleanAndInvalid (kgen team test program): block 0 writes GM with scalar stores, flushes the
// line, then every block reads it back with DataCopy after SyncAll and writes out[idx] = 2 * value.
#include "kgen_test_io.h"
using namespace AscendC;

__global__ __aicore__ void dcci_kernel(GM_ADDR flag, GM_ADDR out) {
    GlobalTensor<int32_t> f, o;
    f.SetGlobalBuffer((__gm__ int32_t*)flag, 8);
    o.SetGlobalBuffer((__gm__ int32_t*)out, 8 * GetBlockNum());
    if (GetBlockIdx() == 0) {
        for (int i = 0; i < 8; ++i) f.SetValue(i, 10 + i);
        DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(f);
    }
    SyncAll();
    DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE>(f);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 32);
    LocalTensor<int32_t> v = b.Get<int32_t>();
    DataCopy(v, f, 8);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(v, v, 2, 8);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(o[8 * GetBlockIdx()], v, 8);
}

KT_CASE(dcci) {
    kt::Dev<int32_t> flag(std::vector<int32_t>(8, 0)), out(std::vector<int32_t>(32, 0));
    dcci_kernel<<<4, nullptr, nullptr>>>(flag.gm(), out.gm());
    kt::save("out", out.host());
}

KT_MAIN()
