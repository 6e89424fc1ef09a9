// kgen AscendC CPU emulator -- DataCopy out of L0C (CO1 -> GM, CO1 -> L1) with DataCopyCO12DstParams, and
// the fixpipe registers it reads (SetFixpipePreQuantFlag, SetFixPipeConfig, SetFixpipeNz2ndFlag), dav-2201.
//
// Documented rules followed (AscendC "DataCopy (L0C to GM)", "DataCopy (L0C to L1)", DataCopyCO12DstParams
// and the fixpipe configuration APIs):
//  * The move is the Fixpipe data path (fixpipe.h) driven by registers set beforehand:
//      quantPre    conversion as in Fixpipe (NoQuant, F322F16, F322BF16, DEQF16, VDEQF16, QF322B8_PRE,
//                  VQF322B8_PRE, REQ8, VREQ8); scalar modes take the uint64 set by SetFixpipePreQuantFlag,
//                  vector modes one uint64 per column from the fixpipe-buffer (C2PIPE2GM) tensor given to
//                  SetFixPipeConfig (copied there from L1 with DataCopy);
//      reluPre     1 = ReLU after the conversion;
//      nz2ndEn     true: NZ -> ND (dstStride = elements per destination row) for the ndNum / srcNdStride (1 KB
//                  units) / dstNdStride (elements) set by SetFixpipeNz2ndFlag (default 1, 0, 0);
//                  false: NZ kept (dstStride = 32-byte blocks between the starts of adjacent column blocks);
//      channelSplit  float NZ output in 8-column blocks.
//    srcStride counts rows per NZ column (mSize rounded up to 16); mSize or nSize = 0 is a no-op.
//  * Source: CO1 (L0C) on 64 bytes (`cube-misaligned`). GM destination: ND on any byte, NZ on 32 bytes.
//    L1 destination: NZ only on dav-2201 (ND out to L1 is an Ascend 950 feature: `co1-copy-param`).
//  * NZ output needs nSize to be a multiple of 16 (8 with channelSplit) (`co1-copy-param`). A vector quant
//    mode without a SetFixPipeConfig table, or a table shorter than nSize, is `co1-copy-param`.
//  * Type pairs (src -> dst): float -> int8/uint8/half/bfloat16/float, int32 -> int8/uint8/half/int32;
//    a quantPre that does not match them is `fixpipe-quant-mismatch`.
//
// @api DataCopyCO12DstParams SetFixpipePreQuantFlag SetFixPipeConfig SetFixpipeNz2ndFlag
#pragma once
#include "kgen_sim/cube/fixpipe.h"

namespace AscendC {

struct DataCopyCO12DstParams {
    DataCopyCO12DstParams() = default;
    uint8_t sid = 0;
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint32_t dstStride = 0;
    uint16_t srcStride = 0;
    uint8_t unitFlag = 0;
    uint8_t clipReluPre = 0;  // Atlas 200I/500 A2 only: ignored
    uint8_t eltWiseOp = 0;    // Atlas 200I/500 A2 only: ignored
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint8_t reluPre = 0;
    bool channelSplit = false;
    bool nz2ndEn = false;
};

}  // namespace AscendC

namespace kgen::cube {

/// The fixpipe configuration registers of the calling core.
struct FixpipeRegs {
    uint64_t pre_quant = 0;
    const uint64_t* quant_table = nullptr;  // in the fixpipe buffer
    uint32_t quant_len = 0;                 // uint64 entries behind quant_table
    uint16_t nd_num = 1;
    uint16_t src_nd_stride = 0;
    uint16_t dst_nd_stride = 0;
};
inline FixpipeRegs& fixpipe_regs() {
    static thread_local FixpipeRegs regs;
    static thread_local CoreContext* owner = nullptr;
    if (owner != tls_core) { regs = FixpipeRegs{}; owner = tls_core; }
    return regs;
}

/// FixpipeParamsV220 equivalent of a DataCopyCO12DstParams and the registers; the vector quant table.
inline AscendC::FixpipeParamsV220 co1_params(const AscendC::DataCopyCO12DstParams& p, const char* api, const uint64_t** vq) {
    const FixpipeRegs& r = fixpipe_regs();
    AscendC::FixpipeParamsV220 f;
    f.nSize = p.nSize;
    f.mSize = p.mSize;
    f.srcStride = p.srcStride;
    f.dstStride = p.dstStride;
    f.quantPre = p.quantPre;
    f.deqScalar = r.pre_quant;
    f.reluEn = p.reluPre == 1;
    f.unitFlag = p.unitFlag;
    f.isChannelSplit = p.channelSplit;
    f.ndNum = p.nz2ndEn ? r.nd_num : 1;
    f.srcNdStride = p.nz2ndEn ? r.src_nd_stride : 0;
    f.dstNdStride = p.nz2ndEn ? r.dst_nd_stride : 0;
    *vq = nullptr;
    if (p.quantPre == VDEQF16 || p.quantPre == VQF322B8_PRE || p.quantPre == VREQ8) {
        if (!r.quant_table)
            fail("co1-copy-param", "%s: quantPre %d is a vector (per-column) mode: call SetFixPipeConfig with the fixpipe-buffer "
                 "table first", api, int(p.quantPre));
        if (r.quant_len < p.nSize)
            fail("co1-copy-param", "%s: the SetFixPipeConfig table holds %u uint64 values, fewer than nSize = %u columns", api,
                 r.quant_len, p.nSize);
        *vq = r.quant_table;
    }
    return f;
}

template <typename D>
inline void check_nz_n(const AscendC::DataCopyCO12DstParams& p, const char* api) {
    const uint32_t unit = (sizeof(D) == 4 && p.channelSplit) ? 8 : 16;
    if (p.nSize % unit)
        fail("co1-copy-param", "%s: NZ output needs nSize to be a multiple of %u (got %u)", api, unit, p.nSize);
}

}  // namespace kgen::cube

namespace AscendC {

/// Scalar quantisation parameter for the next moves out of L0C (scale bits 31..13, offset, sign bit 46).
inline void SetFixpipePreQuantFlag(uint64_t config) { kgen::cube::fixpipe_regs().pre_quant = config; }

/// Per-column quantisation table for the next moves out of L0C: a uint64 tensor in the fixpipe buffer.
template <typename T>
inline void SetFixPipeConfig(const LocalTensor<T>& preData, bool isUnitFlag = false) {
    using namespace kgen;
    (void)isUnitFlag;
    if (preData.mem() == Mem::L0C) return;  // the form that only clears unit flags
    cube::require_mem(preData, "SetFixPipeConfig", "the quant table", {Mem::FB}, "C2PIPE2GM (fixpipe buffer)");
    if constexpr (sizeof(T) != 8) {  // the L0C (unit-flag) form above takes any type; a quant table is uint64_t
        fail("fixpipe-param", "SetFixPipeConfig: the quant table is uint64_t, this tensor has %u-byte elements", unsigned(sizeof(T)));
    } else {
        cube::FixpipeRegs& r = cube::fixpipe_regs();
        r.quant_table = reinterpret_cast<const uint64_t*>(preData.raw());
        r.quant_len = preData.GetSize();
    }
}
template <typename T>
inline void SetFixPipeConfig(const LocalTensor<T>& reluPre, const LocalTensor<T>& quantPre, bool isUnitFlag = false) {
    (void)reluPre;
    SetFixPipeConfig(quantPre, isUnitFlag);
}

/// NZ -> ND layout of the next moves out of L0C with nz2ndEn: ndNum matrices, srcNdStride (1 KB units) apart
/// in L0C and dstNdStride elements apart in the destination.
inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride) {
    if (ndNum == 0) kgen::fail("co1-copy-param", "SetFixpipeNz2ndFlag: ndNum must be at least 1");
    if (ndNum > 1 && (srcNdStride == 0 || srcNdStride > 512))
        kgen::fail("co1-copy-param", "SetFixpipeNz2ndFlag: with ndNum = %u, srcNdStride (1 KB units) must be in [1, 512]; got %u", ndNum,
                   srcNdStride);
    kgen::cube::FixpipeRegs& r = kgen::cube::fixpipe_regs();
    r.nd_num = ndNum;
    r.src_nd_stride = srcNdStride;
    r.dst_nd_stride = dstNdStride;
}

/// CO1 (L0C) -> GM through the fixpipe, NZ -> ND or NZ -> NZ, with quantisation and ReLU.
template <typename T, typename U>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p) {
    using namespace kgen;
    const char* api = "DataCopy(CO1 -> GM)";
    cube::require_mem(src, api, "the source", {Mem::L0C}, "CO1 (L0C)");
    cube::require_align(src, api, "the source", 64);
    if (p.mSize == 0 || p.nSize == 0) return;
    if (!p.nz2ndEn) {
        cube::check_nz_n<T>(p, api);
        if (reinterpret_cast<uintptr_t>(dst.raw()) % ONE_BLK)
            fail("cube-misaligned", "%s: an NZ destination in GM must start on 32 bytes", api);
    }
    const uint64_t* vq = nullptr;
    const FixpipeParamsV220 f = cube::co1_params(p, api, &vq);
    if (p.nz2ndEn) cube::fixpipe_to_gm<CO2Layout::ROW_MAJOR, T, U>(dst, src, f, vq, api);
    else cube::fixpipe_to_gm<CO2Layout::NZ, T, U>(dst, src, f, vq, api);
}

/// CO1 (L0C) -> A1/B1 (L1), NZ kept (dav-2201).
template <typename T, typename U>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p) {
    using namespace kgen;
    const char* api = "DataCopy(CO1 -> L1)";
    cube::require_mem(src, api, "the source", {Mem::L0C}, "CO1 (L0C)");
    cube::require_align(src, api, "the source", 64);
    cube::require_mem(dst, api, "the destination", {Mem::L1}, "A1/B1 (L1)");
    cube::require_align(dst, api, "the destination", ONE_BLK);
    if (p.nz2ndEn)
        fail("co1-copy-param", "%s: dav-2201 moves L0C to L1 in NZ only (nz2ndEn to L1 is an Ascend 950 feature)", api);
    if (p.mSize == 0 || p.nSize == 0) return;
    cube::check_nz_n<T>(p, api);
    const uint64_t* vq = nullptr;
    const FixpipeParamsV220 f = cube::co1_params(p, api, &vq);
    cube::fixpipe_to_local<CO2Layout::NZ, T, U>(dst, src, f, vq, api);
}

}  // namespace AscendC
