// kgen AscendC CPU emulator -- the reduce max/min special register and GetReduceMaxMinCount
// (renamed GetReduceRepeatMaxMinSpr in newer CANN; both names are accepted).
//
// Documented rules followed (GetReduceMaxMinCount / GetReduceRepeatMaxMinSpr pages, Atlas A2):
//  * The max/min instructions leave, in a per-core register, the extreme value of the whole call
//    and its index. WholeReduceMax / WholeReduceMin (ReduceRepeat<MAX/MIN>) record the extreme over
//    all repeats and its element index r * (elements per repeat) + lane, the first (smallest) index
//    on ties. ReduceMax / ReduceMin record their result value exactly, but the index the register
//    holds is not the element's index when the reduction took more than one repeat (documented:
//    use the instruction's own dst[1] output, or WholeReduceMax/Min, for the index).
//  * Only contiguous calls count (srcBlkStride = 1, srcRepStride = 8, not counter mode).
//  * GetReduceMaxMinCount<T>(T& value, T& index) reads the register: value as T, index stored in
//    T's bits (reinterpret a half index as uint16_t, a float index as uint32_t). T must match the
//    type of the reduction. The form with only the value is not supported on dav-2201.
// Emulator: the register is recorded per core; reading it before any max/min call (`reduce-spr-unset`),
// after a non-contiguous call (`reduce-spr-index`) or reading an index after a multi-repeat
// ReduceMax/ReduceMin (`reduce-spr-index`) is a warning; the emulator returns the exact index.
//
//
// The sum register (GetReduceRepeatSumSpr page; GetAccVal is its older name, same rules):
//  * ReduceSum's count form (the first `count` elements) leaves its result in a per-core register;
//    GetReduceRepeatSumSpr<T>() returns it as T (half or float, the type of that ReduceSum).
// Emulator: reading it before any count-form ReduceSum on the core (`reduce-spr-unset`), or with a
// T other than the ReduceSum's type (`reduce-spr-type`), is a warning; the recorded bits are returned.
//
// @api GetReduceMaxMinCount GetReduceRepeatMaxMinSpr GetReduceRepeatSumSpr GetAccVal
#pragma once
#include <cstdint>
#include <cstring>

#include "kgen_sim/core.h"

namespace kgen {
namespace red {

struct MaxMinSpr {
    bool set = false;
    uint32_t value_bits = 0;  // the low sizeof(T) bytes hold the value
    uint32_t index = 0;
    bool index_exact = true;
    const char* from = "";
};
inline thread_local MaxMinSpr tls_max_min_spr;  // one thread per emulated core (launch.h)

template <typename T>
inline void record_max_min(const char* api, T value, uint32_t index, bool index_exact) {
    MaxMinSpr& s = tls_max_min_spr;
    s.set = true;
    s.value_bits = 0;
    std::memcpy(&s.value_bits, &value, sizeof(T));
    s.index = index;
    s.index_exact = index_exact;
    s.from = api;
}

struct SumSpr {
    bool set = false;
    uint32_t bits = 0;
    uint32_t size = 0;  // sizeof(T) of the ReduceSum that wrote it
};
inline thread_local SumSpr tls_sum_spr;

/// Called by ReduceSum's count form with its result.
template <typename T>
inline void record_sum(T value) {
    SumSpr& s = tls_sum_spr;
    s.set = true;
    s.bits = 0;
    std::memcpy(&s.bits, &value, sizeof(T));
    s.size = sizeof(T);
}

template <typename T>
inline T read_sum(const char* api) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GetReduceRepeatSumSpr: T is half or float, the type of the ReduceSum");
    const SumSpr& s = tls_sum_spr;
    if (!s.set)
        kgen::warn("reduce-spr-unset", "%s: no ReduceSum(dst, src, work, count) ran on this core yet; the register holds "
                   "no result", api);
    else if (s.size != sizeof(T))
        kgen::warn("reduce-spr-type", "%s<T>: T has %u bytes but the last ReduceSum was on a %u-byte type", api,
                   unsigned(sizeof(T)), s.size);
    T out;
    std::memcpy(&out, &s.bits, sizeof(T));
    return out;
}

}  // namespace red
}  // namespace kgen

namespace AscendC {

template <typename T>
inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex) {
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "GetReduceMaxMinCount: T is the 16- or 32-bit type of the reduction");
    const kgen::red::MaxMinSpr& s = kgen::red::tls_max_min_spr;
    if (!s.set)
        kgen::warn("reduce-spr-unset", "GetReduceMaxMinCount: no ReduceMax/ReduceMin/WholeReduceMax/WholeReduceMin ran on "
                   "this core yet; the register holds no result");
    else if (!s.index_exact)
        kgen::warn("reduce-spr-index", "GetReduceMaxMinCount: after %s the register's index is not the element's index on "
                   "the NPU (documented: only contiguous WholeReduceMax/Min give it; use ReduceMax's dst[1])", s.from);
    std::memcpy(&maxMinValue, &s.value_bits, sizeof(T));
    uint32_t idx = s.index;
    std::memcpy(&maxMinIndex, &idx, sizeof(T));  // little-endian: the low bytes of the index
}
template <typename T>
inline void GetReduceMaxMinCount(T& maxMinValue) {
    (void)maxMinValue;
    kgen::fail("unsupported-api", "GetReduceMaxMinCount(value) without the index is not supported on dav-2201 "
               "(Atlas A2/A3): call GetReduceMaxMinCount(value, index)");
}
template <typename T>
inline void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex) {
    GetReduceMaxMinCount<T>(maxMinValue, maxMinIndex);
}
template <typename T>
inline void GetReduceRepeatMaxMinSpr(T& maxMinValue) {
    (void)maxMinValue;
    kgen::fail("unsupported-api", "GetReduceRepeatMaxMinSpr(value) without the index is not supported on dav-2201 "
               "(Atlas A2/A3): call GetReduceRepeatMaxMinSpr(value, index)");
}

template <typename T>
inline T GetReduceRepeatSumSpr() {
    return kgen::red::read_sum<T>("GetReduceRepeatSumSpr");
}
template <typename T>
inline T GetAccVal() {
    return kgen::red::read_sum<T>("GetAccVal");
}

}  // namespace AscendC
