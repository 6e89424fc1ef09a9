// kgen emulator test programs: a GM tensor staged whole in one UB buffer (TBuf), copied in on
// construction and back out by out() -- the preamble the advanced-API test programs share.
#pragma once
#include "kernel_operator.h"

namespace kt {

/// Padded = true: the staged length `n` is `count` rounded up to whole 32-byte blocks (the GM buffer
/// holds that padding). Padded = false: exactly `count` elements are copied; only the UB buffer is
/// rounded up to whole blocks.
template <typename T, bool Padded>
struct UbStage {
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<T> g;
    AscendC::LocalTensor<T> t;
    uint32_t n;
    UbStage(AscendC::TPipe& pipe, GM_ADDR p, uint32_t count)
        : n(Padded ? static_cast<uint32_t>((count * sizeof(T) + 31) / 32 * 32 / sizeof(T)) : count) {
        pipe.InitBuffer(buf, (count * sizeof(T) + 31) / 32 * 32);
        g.SetGlobalBuffer((__gm__ T*)p, n);
        t = buf.Get<T>();
        AscendC::DataCopy(t, g, n);
    }
    void out() { AscendC::DataCopy(g, t, n); }
};

}  // namespace kt
