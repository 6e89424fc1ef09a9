// kgen AscendC CPU emulator -- Fill (the high-level API that sets Global Memory to a value; its older
// name is InitGlobalMemory; the basic API's deprecated InitOutput(GlobalTensor, uint32_t size, T value = 0)
// is the same fill).
//
// Documented rules followed (Fill / InitGlobalMemory pages, Atlas A2/A3):
//  * template <typename T> Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value):
//    the first `size` elements of the tensor become `value` (used to zero a workspace or an output).
//  * T on dav-2201: uint16_t, int16_t, half, uint32_t, int32_t, float (others: compile error here).
//    InitOutput fills through Duplicate's internal entry point (DuplicateImpl), so it also takes
//    bfloat16_t, Duplicate's other 2-byte type (FeedsRepeat fills a bfloat16 output with it).
//  * The data goes out through the MTE3 queue: UB work after it needs an MTE3 -> MTE2 wait (a
//    SetFlag/WaitFlag<MTE3_MTE2> pair); with several cores use SyncAll before reading what others
//    filled. The API uses Unified Buffer itself, so it is called before any InitBuffer.
// Emulator: the write is bounds-checked against the tensor's SetGlobalBuffer size and the GM
// allocation (`gm-out-of-bounds`); it is recorded as one MTE3 transfer of size * sizeof(T) bytes.
// The "before InitBuffer" rule is not checked.
//
// @api Fill InitGlobalMemory InitOutput
#pragma once
#include <type_traits>

#include "kgen_sim/tensor.h"

namespace kgen {
namespace adv {

template <typename T, bool withBf16 = false>
inline void fill_gm(const char* api, AscendC::GlobalTensor<T>& gm, uint64_t size, T value) {
    static_assert(std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> || std::is_same_v<T, half> ||
                      std::is_same_v<T, uint32_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, float> ||
                      (withBf16 && std::is_same_v<T, bfloat16_t>),
                  "Fill (Global Memory): T is uint16_t, int16_t, half, uint32_t, int32_t or float on dav-2201 "
                  "(InitOutput: also bfloat16_t)");
    if (size == 0) return;
    gm.check(0, size, api);
    T* p = gm.raw();
    for (uint64_t i = 0; i < size; ++i) p[i] = value;
    trace(api, Pipe::MTE3, size * sizeof(T), 1);
}

}  // namespace adv
}  // namespace kgen

namespace AscendC {

template <typename T>
inline void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
    kgen::adv::fill_gm("Fill", gmWorkspaceAddr, size, value);
}
template <typename T>
inline void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
    kgen::adv::fill_gm("InitGlobalMemory", gmWorkspaceAddr, size, value);
}
/// The basic API's deprecated name for the same fill (the tensor by value, value 0 by default).
template <typename T>
inline void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0) {
    kgen::adv::fill_gm<T, true>("InitOutput", gmWorkspaceAddr, size, value);
}

}  // namespace AscendC
