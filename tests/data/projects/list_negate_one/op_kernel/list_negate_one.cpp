// kgen test project: kernel of ListNegateOne. Reads the input list word by word (the offset of the
// pointer array, then the pointers), negates tensor `which` through that input pointer; never touches
// the output list argument.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void list_negate_one(GM_ADDR v, GM_ADDR which, GM_ADDR vOut, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<int32_t> w;
    w.SetGlobalBuffer((__gm__ int32_t*)which, 1);
    const int32_t k = w.GetValue(0);
    if (k < 0 || static_cast<uint32_t>(k) >= t.count) return;
    __gm__ uint64_t* base = reinterpret_cast<__gm__ uint64_t*>(v);
    __gm__ uint64_t* ptrs = base + (*base >> 3);
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(*(ptrs + k)), t.lengths[k]);
    for (uint32_t i = 0; i < t.lengths[k]; ++i) g.SetValue(i, -g.GetValue(i));
}
