// kgen AscendC CPU emulator -- sorting primitives of dav-2201 (Atlas A2 / 910B).
//
// Documented rules followed (AscendC API reference, sorting pages, Atlas A2 column):
//  * Sorted data is a sequence of 8-byte (score, index) structures. float: score in bytes
//    [0,4), uint32 index in bytes [4,8) -- 2 floats per structure. half: score in bytes
//    [0,2), bytes [2,4) reserved, uint32 index in bytes [4,8) -- 4 halves per structure.
//    T is half or float for every API here.
//  * Sort32(dst, src0 scores, src1 uint32 indices, repeatTime): every repeat sorts one group
//    of 32 scores in descending order and writes 32 structures; the next repeat reads 32
//    elements further on both sources and writes 256 bytes further. Groups are not merged
//    with each other. Equal scores keep their input order. repeatTime in [0, 255]; 0 is a
//    no-op. All three tensors start 32-byte aligned.
//  * MrgSort(dst, MrgSortSrcList, MrgSort4Info): merges up to four queues of structures,
//    each already sorted, into one queue in descending score order. elementLengths counts
//    structures, each in [0, 4095]. validBit 0b11 / 0b111 / 0b1111 selects the first 2 / 3 / 4
//    queues. Equal scores: the structure that comes first in src1..src4 order goes first.
//    ifExhaustedSuspension = true stops the merge as soon as one selected queue runs out;
//    GetMrgSortResult then reports how many structures each queue gave. repeatTimes > 1 is
//    honoured only with 4 selected queues of equal length stored back to back and no
//    suspension; each repeat then moves sources and dst on by the 4 queues' total length.
//    dst may not overlap a source; dst starts 32-byte aligned, sources 8-byte aligned.
//    repeatTimes = 0 is a no-op.
//  * MrgSort<T, isExhaustedSuspension>(dst, list, elementCountList[4], sortedNum[4], validBit,
//    repeatTime): the high-level form of the same merge; with suspension sortedNum receives
//    the per-queue counts.
//  * Extract(dstValue, dstIndex, sorted, repeatTime): every repeat splits 32 structures
//    (256 bytes) into 32 scores and 32 uint32 indices.
//  * Concat(concat, src, tmp, repeatTime): on this architecture scores need no rearranging
//    before Sort: concat becomes a view of src and tmp is not used.
//  * Sort<T, isFullSort>(dst, concat, index, tmp, repeatTime): Sort32 of repeatTime groups;
//    with isFullSort the groups are then merged into one descending, stable sequence, using
//    tmp (which must hold as many elements as dst) as scratch.
//  * GetSortLen<T>(n) / GetSortOffset<T>(n): length / offset of n structures, counted in
//    elements of T (n * 2 for float, n * 4 for half). The pages call the unit "bytes", but
//    their own examples index a LocalTensor<T> with the result; the emulator follows that.
//  * MrgSort4, RpSort16, ProposalConcat, ProposalExtract are documented as not supported on
//    Atlas A2 (region-proposal architectures only): they compile, and report
//    `api-unsupported` when called.
// Not documented; the emulator's choice: NaN scores come before every number (like a
// descending torch.sort); Sort32 writes the 2 reserved bytes of a half structure as zero and
// MrgSort copies whole structures. A queue handed to MrgSort that is not in descending order
// merges like the hardware would (largest head first) with a `mrgsort-unsorted` warning.
// Without suspension GetMrgSortResult reports every selected queue's full length (after
// repeatTimes > 1: the last repeat's). Extract of half scores writes exactly 32 indices per
// repeat, as the page documents.
//
// @api Sort32 MrgSort MrgSort4Info MrgSortSrcList GetMrgSortResult Extract Concat Sort GetSortLen GetSortOffset ProposalConcat ProposalExtract MrgSort4 RpSort16
#pragma once
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <type_traits>
#include <vector>

#include "kgen_sim/vec_engine.h"

namespace AscendC {

constexpr int32_t MRG_SORT_ELEMENT_LEN = 4;

/// Parameters of one MrgSort call.
struct MrgSort4Info {
    MrgSort4Info() {}
    MrgSort4Info(const uint16_t elementLengthsIn[MRG_SORT_ELEMENT_LEN], const bool ifExhaustedSuspensionIn,
                 const uint16_t validBitIn, const uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn),
          repeatTimes(static_cast<uint8_t>(repeatTimesIn)) {
        for (int32_t i = 0; i < MRG_SORT_ELEMENT_LEN; ++i) elementLengths[i] = elementLengthsIn[i];
    }
    uint16_t elementLengths[MRG_SORT_ELEMENT_LEN] = {0, 0, 0, 0};  // structures per queue
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;     // 0b11, 0b111 or 0b1111
    uint8_t repeatTimes = 1;
};

/// The (up to) four sorted queues MrgSort merges; unused queues may stay empty tensors.
template <typename T>
struct MrgSortSrcList {
    MrgSortSrcList() {}
    MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In, const LocalTensor<T>& src3In,
                   const LocalTensor<T>& src4In)
        : src1(view(src1In)), src2(view(src2In)), src3(view(src3In)), src4(view(src4In)) {}
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;
    LocalTensor<T> src4;

private:
    static LocalTensor<T> view(const LocalTensor<T>& t) { return t.valid() ? t[0] : t; }
};

}  // namespace AscendC

namespace kgen {

template <typename T>
inline constexpr bool is_sort_type_v = std::is_same_v<T, half> || std::is_same_v<T, float>;

/// Elements of T per 8-byte (score, index) structure.
template <typename T>
inline constexpr uint32_t sort_struct_elems = 8 / sizeof(T);

/// Per-core record of the last MrgSort: structures taken from each queue, 16 bits each
/// (what GetMrgSortResult reads). Blocks run as threads, so thread-local is per core.
inline thread_local uint64_t mrgsort_result = 0;

/// Descending order with NaN first; strict, so equal scores keep their order.
inline bool sort_before(float a, float b) {
    if (std::isnan(a)) return !std::isnan(b);
    if (std::isnan(b)) return false;
    return a > b;
}

/// One 8-byte structure, copied whole.
struct SortRecord {
    uint8_t bytes[8];
};

template <typename T>
inline float record_score(const SortRecord& r) {
    T s;
    std::memcpy(&s, r.bytes, sizeof(T));
    return static_cast<float>(s);
}

template <typename T>
inline SortRecord make_record(T score, uint32_t index) {
    SortRecord r{};
    std::memcpy(r.bytes, &score, sizeof(T));
    std::memcpy(r.bytes + 4, &index, 4);
    return r;
}

/// Structures [first, first+n) of a sorted tensor (bounds-checked).
template <typename T>
inline std::vector<SortRecord> read_records(const AscendC::LocalTensor<T>& t, uint64_t first, uint64_t n, const char* api) {
    t.check(first * sort_struct_elems<T>, n * sort_struct_elems<T>, api);
    std::vector<SortRecord> v(n);
    if (n) std::memcpy(v.data(), reinterpret_cast<const uint8_t*>(t.raw()) + first * 8, n * 8);
    return v;
}

template <typename T>
inline void write_records(const AscendC::LocalTensor<T>& t, uint64_t first, const std::vector<SortRecord>& v, const char* api) {
    t.check(first * sort_struct_elems<T>, v.size() * sort_struct_elems<T>, api);
    if (!v.empty()) std::memcpy(reinterpret_cast<uint8_t*>(t.raw()) + first * 8, v.data(), v.size() * 8);
}

inline void check_sort_repeat(const char* api, int64_t repeat) {
    if (repeat < 0 || repeat > 255)
        fail("bad-repeat", "%s: repeatTime %lld is outside [0, 255]", api, (long long)repeat);
}

/// Stable descending sort of structures by score.
template <typename T>
inline void sort_records(std::vector<SortRecord>& v) {
    std::stable_sort(v.begin(), v.end(),
                     [](const SortRecord& a, const SortRecord& b) { return sort_before(record_score<T>(a), record_score<T>(b)); });
}

[[noreturn]] inline void unsupported(const char* api) {
    fail("api-unsupported",
         "%s is not supported on Atlas A2 / dav-2201 (it works on region-proposal architectures only); use Sort32 "
         "+ MrgSort + Extract, whose structures are 8-byte (score, index) pairs",
         api);
}

}  // namespace kgen

namespace AscendC {

/// Sort repeatTime groups of 32 scores (descending) into (score, index) structures.
template <typename T>
inline void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<uint32_t>& src1,
                   const int32_t repeatTime) {
    static_assert(kgen::is_sort_type_v<T>, "Sort32 supports half and float scores only");
    const char* api = "Sort32";
    kgen::check_sort_repeat(api, repeatTime);
    if (repeatTime == 0) return;
    dst.check_aligned(api);
    src0.check_aligned(api);
    src1.check_aligned(api);
    const uint32_t n = static_cast<uint32_t>(repeatTime) * 32;
    src0.check(0, n, api);
    src1.check(0, n, api);
    std::vector<kgen::SortRecord> out(n);  // read every input before writing (dst may alias a source)
    for (uint32_t i = 0; i < n; ++i) out[i] = kgen::make_record<T>(src0.raw()[i], src1.raw()[i]);
    for (uint32_t r = 0; r < static_cast<uint32_t>(repeatTime); ++r) {
        std::vector<kgen::SortRecord> group(out.begin() + r * 32, out.begin() + (r + 1) * 32);
        kgen::sort_records<T>(group);
        std::copy(group.begin(), group.end(), out.begin() + r * 32);
    }
    kgen::write_records(dst, 0, out, api);
    kgen::trace(api, kgen::Pipe::V, uint64_t(n) * 8, static_cast<uint32_t>(repeatTime));
}

/// Merge up to four sorted queues of (score, index) structures into one, descending.
template <typename T>
inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src, const MrgSort4Info& params) {
    static_assert(kgen::is_sort_type_v<T>, "MrgSort supports half and float scores only");
    const char* api = "MrgSort";
    for (int k = 0; k < MRG_SORT_ELEMENT_LEN; ++k)
        if (params.elementLengths[k] > 4095)
            kgen::fail("mrgsort-length", "MrgSort: elementLengths[%d] = %u is outside [0, 4095] (structures per queue)", k,
                       (unsigned)params.elementLengths[k]);
    int nq = params.validBit == 0b11 ? 2 : params.validBit == 0b111 ? 3 : params.validBit == 0b1111 ? 4 : 0;
    if (nq == 0)
        kgen::fail("mrgsort-valid-bit", "MrgSort: validBit 0x%x is not one of 0b11, 0b111, 0b1111 (first 2, 3 or 4 queues)",
                   (unsigned)params.validBit);
    const uint32_t rep = params.repeatTimes;
    if (rep == 0) return;
    const LocalTensor<T>* q[4] = {&src.src1, &src.src2, &src.src3, &src.src4};
    uint32_t len[4] = {0, 0, 0, 0};
    uint32_t total = 0;
    dst.check_aligned(api);
    for (int k = 0; k < nq; ++k) {
        q[k]->live(api);
        if (q[k]->GetPhyAddr() % 8)
            kgen::fail("ub-misaligned", "MrgSort: queue src%d starts at UB offset %llu, which is not 8-byte aligned", k + 1,
                       (unsigned long long)q[k]->GetPhyAddr());
        len[k] = params.elementLengths[k];
        total += len[k];
    }
    if (rep > 1) {
        const char* why = nullptr;
        if (nq != 4) why = "validBit must be 0b1111 (four queues)";
        else if (params.ifExhaustedSuspension) why = "ifExhaustedSuspension must be false";
        else if (len[1] != len[0] || len[2] != len[0] || len[3] != len[0]) why = "the four elementLengths must be equal";
        else
            for (int k = 1; k < 4 && !why; ++k)
                if (q[k]->GetPhyAddr() != q[0]->GetPhyAddr() + uint64_t(k) * len[0] * 8)
                    why = "the four queues must be stored back to back (src2 right after src1, ...)";
        if (why)
            kgen::fail("mrgsort-repeat",
                       "MrgSort: repeatTimes = %u needs four equal, contiguous queues without suspension, but %s", rep, why);
    }
    // documented: no overlap between dst and any source, over all repeats
    const uint64_t dst_lo = dst.GetPhyAddr(), dst_hi = dst_lo + uint64_t(rep) * total * 8;
    for (int k = 0; k < nq; ++k) {
        const uint64_t lo = q[k]->GetPhyAddr(), hi = lo + (uint64_t(rep - 1) * total + len[k]) * 8;
        if (len[k] && lo < dst_hi && dst_lo < hi)
            kgen::fail("mrgsort-overlap", "MrgSort: dst [UB %llu, %llu) overlaps queue src%d [UB %llu, %llu); the merge "
                       "cannot write over its own input", (unsigned long long)dst_lo, (unsigned long long)dst_hi, k + 1,
                       (unsigned long long)lo, (unsigned long long)hi);
    }
    bool warned = false;
    uint32_t taken[4] = {0, 0, 0, 0};
    for (uint32_t r = 0; r < rep; ++r) {
        const uint64_t base = uint64_t(r) * total;  // structures before this repeat (rep > 1: 4 equal queues)
        std::vector<kgen::SortRecord> in[4];
        for (int k = 0; k < nq; ++k) {
            in[k] = kgen::read_records(*q[k], base, len[k], api);
            for (uint32_t i = 1; i < len[k] && !warned; ++i)
                if (kgen::sort_before(kgen::record_score<T>(in[k][i]), kgen::record_score<T>(in[k][i - 1]))) {
                    kgen::warn("mrgsort-unsorted", "MrgSort: queue src%d is not in descending score order (structure %u "
                               "scores above structure %u); the merged output will not be sorted", k + 1, i, i - 1);
                    warned = true;
                }
        }
        std::vector<kgen::SortRecord> out;
        out.reserve(total);
        uint32_t pos[4] = {0, 0, 0, 0};
        for (;;) {
            int best = -1;
            bool exhausted = false;
            for (int k = 0; k < nq; ++k) {
                if (pos[k] == len[k]) { exhausted = true; continue; }
                if (best < 0 || kgen::sort_before(kgen::record_score<T>(in[k][pos[k]]), kgen::record_score<T>(in[best][pos[best]])))
                    best = k;
            }
            if (best < 0 || (exhausted && params.ifExhaustedSuspension)) break;
            out.push_back(in[best][pos[best]++]);
        }
        kgen::write_records(dst, base, out, api);
        std::copy(pos, pos + 4, taken);
    }
    kgen::mrgsort_result = uint64_t(taken[0]) | (uint64_t(taken[1]) << 16) | (uint64_t(taken[2]) << 32) |
                           (uint64_t(taken[3]) << 48);
    const uint64_t bytes = uint64_t(rep) * total * 8;
    kgen::trace(api, kgen::Pipe::V, bytes, kgen::repeats_for(bytes));
}

/// High-level merge: the same instruction, with the per-queue counts returned in sortedNum.
template <typename T, bool isExhaustedSuspension = false>
inline void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& sortList, const uint16_t elementCountList[4],
                    uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime) {
    if (repeatTime < 0 || repeatTime > 255)
        kgen::fail("bad-repeat", "MrgSort: repeatTime %d is outside [1, 255]", repeatTime);
    MrgSort4Info info(elementCountList, isExhaustedSuspension, validBit, static_cast<uint16_t>(repeatTime));
    MrgSort(dst, sortList, info);
    if (isExhaustedSuspension && sortedNum)
        for (int k = 0; k < 4; ++k) sortedNum[k] = static_cast<uint32_t>((kgen::mrgsort_result >> (16 * k)) & 0xFFFF);
}

/// Structures taken from each queue by the last MrgSort on this core (use with suspension).
inline void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2, uint16_t& mrgSortList3, uint16_t& mrgSortList4) {
    const uint64_t r = kgen::mrgsort_result;
    mrgSortList1 = static_cast<uint16_t>(r & 0xFFFF);
    mrgSortList2 = static_cast<uint16_t>((r >> 16) & 0xFFFF);
    mrgSortList3 = static_cast<uint16_t>((r >> 32) & 0xFFFF);
    mrgSortList4 = static_cast<uint16_t>((r >> 48) & 0xFFFF);
}

/// Split repeatTime * 32 structures into scores and indices.
template <typename T>
inline void Extract(const LocalTensor<T>& dstValue, const LocalTensor<uint32_t>& dstIndex, const LocalTensor<T>& sorted,
                    const int32_t repeatTime) {
    static_assert(kgen::is_sort_type_v<T>, "Extract supports half and float scores only");
    const char* api = "Extract";
    kgen::check_sort_repeat(api, repeatTime);
    if (repeatTime == 0) return;
    dstValue.check_aligned(api);
    dstIndex.check_aligned(api);
    sorted.check_aligned(api);
    const uint32_t n = static_cast<uint32_t>(repeatTime) * 32;
    std::vector<kgen::SortRecord> in = kgen::read_records(sorted, 0, n, api);
    dstValue.check(0, n, api);
    dstIndex.check(0, n, api);
    for (uint32_t i = 0; i < n; ++i) {
        std::memcpy(&dstValue.raw()[i], in[i].bytes, sizeof(T));
        std::memcpy(&dstIndex.raw()[i], in[i].bytes + 4, 4);
    }
    kgen::trace(api, kgen::Pipe::V, uint64_t(n) * 8, 2u * static_cast<uint32_t>(repeatTime));
}

/// Prepare scores for Sort: on this architecture concat simply becomes a view of src.
template <typename T>
inline void Concat(LocalTensor<T>& concat, const LocalTensor<T>& src, const LocalTensor<T>& tmp, const int32_t repeatTime) {
    static_assert(kgen::is_sort_type_v<T>, "Concat supports half and float only");
    kgen::check_sort_repeat("Concat", repeatTime);
    src.check_aligned("Concat");
    (void)tmp;
    concat = src;
}

/// Sort32 of repeatTime groups; with isFullSort, one descending sequence of all of them.
template <typename T, bool isFullSort>
inline void Sort(const LocalTensor<T>& dst, const LocalTensor<T>& concat, const LocalTensor<uint32_t>& index,
                 LocalTensor<T>& tmp, const int32_t repeatTime) {
    static_assert(kgen::is_sort_type_v<T>, "Sort supports half and float scores only");
    Sort32(dst, concat, index, repeatTime);
    if constexpr (isFullSort) {
        if (repeatTime <= 1) return;
        const char* api = "Sort";
        const uint64_t n = static_cast<uint64_t>(repeatTime) * 32;
        tmp.check_aligned(api);
        tmp.check(0, n * kgen::sort_struct_elems<T>, api);  // scratch of the merge rounds
        std::vector<kgen::SortRecord> all = kgen::read_records(dst, 0, n, api);
        kgen::sort_records<T>(all);  // the merge rounds are stable, so a stable sort gives the same sequence
        kgen::write_records(dst, 0, all, api);
        uint32_t rounds = 0;
        for (uint32_t queues = static_cast<uint32_t>(repeatTime); queues > 1; queues = (queues + 3) / 4) ++rounds;
        kgen::trace("MrgSort", kgen::Pipe::V, rounds * n * 8, rounds * kgen::repeats_for(n * 8));
    }
}

/// Length of elemCount structures, in elements of T.
template <typename T>
inline uint32_t GetSortLen(const uint32_t elemCount) {
    static_assert(kgen::is_sort_type_v<T>, "GetSortLen supports half and float only");
    return elemCount * kgen::sort_struct_elems<T>;
}
/// Offset of structure elemOffset, in elements of T.
template <typename T>
inline uint32_t GetSortOffset(const uint32_t elemOffset) {
    static_assert(kgen::is_sort_type_v<T>, "GetSortOffset supports half and float only");
    return elemOffset * kgen::sort_struct_elems<T>;
}

// ---- documented as not supported on Atlas A2: compile, then report ---------------------------
template <typename T>
inline void MrgSort4(const LocalTensor<T>&, const MrgSortSrcList<T>&, const MrgSort4Info&) { kgen::unsupported("MrgSort4"); }
template <typename T>
inline void RpSort16(const LocalTensor<T>&, const LocalTensor<T>&, const int32_t) { kgen::unsupported("RpSort16"); }
template <typename T>
inline void ProposalConcat(const LocalTensor<T>&, const LocalTensor<T>&, const int32_t, const int32_t) {
    kgen::unsupported("ProposalConcat");
}
template <typename T>
inline void ProposalExtract(const LocalTensor<T>&, const LocalTensor<T>&, const int32_t, const int32_t) {
    kgen::unsupported("ProposalExtract");
}

}  // namespace AscendC
