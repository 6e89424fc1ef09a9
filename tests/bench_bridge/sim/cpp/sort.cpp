// Sorting primitives of dav-2201: Sort32, MrgSort (both forms), GetMrgSortResult, Extract,
// Concat, Sort, GetSortLen/GetSortOffset, and the diagnostics of their hardware rules.
#include <cmath>

#include "kgen_test_io.h"

using namespace AscendC;

// ---- Sort32 ----------------------------------------------------------------------------------
// s: n scores, idx: n indices; dst (n structures) is pre-filled with 0xAB bytes; Sort32 runs `rep`
// repeats. Output d: the dst bytes.
template <typename T>
__global__ __aicore__ void sort32_kernel(GM_ADDR s, GM_ADDR idx, GM_ADDR d, uint32_t n, int32_t rep) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bs, bi, bd;
    pipe.InitBuffer(bs, n * sizeof(T));
    pipe.InitBuffer(bi, n * sizeof(uint32_t));
    pipe.InitBuffer(bd, n * 8);
    LocalTensor<T> sc = bs.Get<T>();
    LocalTensor<uint32_t> ix = bi.Get<uint32_t>();
    LocalTensor<T> dst = bd.Get<T>();
    GlobalTensor<T> sg, dg;
    GlobalTensor<uint32_t> ig;
    sg.SetGlobalBuffer((__gm__ T*)s, n);
    ig.SetGlobalBuffer((__gm__ uint32_t*)idx, n);
    dg.SetGlobalBuffer((__gm__ T*)d, n * 8 / sizeof(T));
    DataCopy(sc, sg, n);
    DataCopy(ix, ig, n);
    LocalTensor<uint32_t> fill = dst.template ReinterpretCast<uint32_t>();
    for (uint32_t i = 0; i < 2 * n; ++i) fill.SetValue(i, 0xABABABABu);
    Sort32<T>(dst, sc, ix, rep);
    DataCopy(dg, dst, n * 8 / sizeof(T));
}
template <typename T>
void run_sort32() {
    auto s = kt::load<T>("s");
    auto idx = kt::load<uint32_t>("idx");
    kt::Dev<T> ds(s);
    kt::Dev<uint32_t> di(idx);
    kt::Dev<uint8_t> dd(s.size() * 8);
    sort32_kernel<T><<<1, nullptr, nullptr>>>(ds.gm(), di.gm(), dd.gm(), (uint32_t)s.size(), (int32_t)kt::param("rep"));
    kt::save("d", dd.host());
}
KT_CASE(sort32_f32) { run_sort32<float>(); }
KT_CASE(sort32_f16) { run_sort32<half>(); }

// ---- MrgSort on a UB image ---------------------------------------------------------------------
// buf: the whole UB image (bytes, multiple of 32); p: int64 parameters
//   [0] form: 0 = MrgSort4Info/MrgSortSrcList filled field by field, 1 = their constructors,
//             2 = high-level MrgSort<T, false>, 3 = high-level MrgSort<T, true>
//   [1] validBit  [2] ifExhaustedSuspension  [3] repeatTimes  [4..7] elementLengths
//   [8..11] queue offsets, in structures from the image start  [12] dst offset, in structures
//   [13] extra T elements added to the src1 offset (misalignment tests)
// Outputs: d = the UB image afterwards; r = GetMrgSortResult x4 then sortedNum x4 (uint32).
template <typename T>
__global__ __aicore__ void mrgsort_kernel(GM_ADDR buf, GM_ADDR params, GM_ADDR out, GM_ADDR res, uint32_t bytes) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, bytes);
    LocalTensor<uint8_t> ub = b.Get<uint8_t>();
    GlobalTensor<uint8_t> in, o;
    GlobalTensor<int64_t> p;
    GlobalTensor<uint32_t> r;
    in.SetGlobalBuffer((__gm__ uint8_t*)buf, bytes);
    o.SetGlobalBuffer((__gm__ uint8_t*)out, bytes);
    p.SetGlobalBuffer((__gm__ int64_t*)params, 14);
    r.SetGlobalBuffer((__gm__ uint32_t*)res, 8);
    DataCopy(ub, in, bytes);
    LocalTensor<T> t = ub.template ReinterpretCast<T>();
    constexpr uint32_t ps = 8 / sizeof(T);
    const int form = (int)p.GetValue(0);
    const uint16_t validBit = (uint16_t)p.GetValue(1);
    const bool susp = p.GetValue(2) != 0;
    const int32_t rep = (int32_t)p.GetValue(3);
    uint16_t lens[4];
    LocalTensor<T> q[4];
    for (int k = 0; k < 4; ++k) {
        lens[k] = (uint16_t)p.GetValue(4 + k);
        q[k] = t[(uint32_t)p.GetValue(8 + k) * ps + (k == 0 ? (uint32_t)p.GetValue(13) : 0)];
    }
    LocalTensor<T> dst = t[(uint32_t)p.GetValue(12) * ps];
    uint32_t sortedNum[4] = {0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu, 0xFFFFFFFFu};
    if (form == 0) {
        MrgSort4Info info;
        for (int k = 0; k < 4; ++k) info.elementLengths[k] = lens[k];
        info.ifExhaustedSuspension = susp;
        info.validBit = validBit;
        info.repeatTimes = (uint8_t)rep;
        MrgSortSrcList<T> list;
        list.src1 = q[0];
        list.src2 = q[1];
        list.src3 = q[2];
        list.src4 = q[3];
        MrgSort<T>(dst, list, info);  // @mrgsort-site
    } else if (form == 1) {
        LocalTensor<T> none;  // unused queues may stay empty tensors
        MrgSortSrcList<T> list(q[0], q[1], validBit & 4 ? q[2] : none, validBit & 8 ? q[3] : none);
        MrgSort4Info info(lens, susp, validBit, (uint16_t)rep);
        MrgSort(dst, list, info);
    } else if (form == 2) {
        MrgSortSrcList<T> list(q[0], q[1], q[2], q[3]);
        MrgSort<T, false>(dst, list, lens, sortedNum, validBit, rep);
    } else {
        MrgSortSrcList<T> list(q[0], q[1], q[2], q[3]);
        MrgSort<T, true>(dst, list, lens, sortedNum, validBit, rep);
    }
    uint16_t m[4] = {0, 0, 0, 0};
    GetMrgSortResult(m[0], m[1], m[2], m[3]);
    for (int k = 0; k < 4; ++k) {
        r.SetValue(k, (uint32_t)m[k]);
        r.SetValue(4 + k, sortedNum[k]);
    }
    DataCopy(o, ub, bytes);
}
template <typename T>
void run_mrgsort() {
    auto buf = kt::load<uint8_t>("buf");
    auto p = kt::load<int64_t>("p");
    kt::Dev<uint8_t> db(buf), dout(buf.size());
    kt::Dev<int64_t> dp(p);
    kt::Dev<uint32_t> dr(8);
    mrgsort_kernel<T><<<1, nullptr, nullptr>>>(db.gm(), dp.gm(), dout.gm(), dr.gm(), (uint32_t)buf.size());
    kt::save("d", dout.host());
    kt::save("r", dr.host());
}
KT_CASE(mrgsort_f32) { run_mrgsort<float>(); }
KT_CASE(mrgsort_f16) { run_mrgsort<half>(); }

// ---- a full sort of any length, built the way a kernel does it ------------------------------------
// Scores are padded to a multiple of 32 with -inf; Sort32 sorts groups of 32; MrgSort rounds merge
// four queues at a time (repeatTimes over runs of equal queues, validBit for 2-3 leftover queues,
// a copy for a single one) until one queue is left; Extract splits it. The same input also goes
// through the high-level Concat + Sort<T, true> + Extract. Outputs: v, i (rounds) and v2, i2 (Sort);
// the index of element k is k * 0x10001.
constexpr uint32_t MAX_QUEUES = 256;

template <typename T>
__global__ __aicore__ void full_sort_kernel(GM_ADDR s, GM_ADDR vOut, GM_ADDR iOut, GM_ADDR v2Out, GM_ADDR i2Out, uint32_t n) {
    TPipe pipe;
    const uint32_t padded = (n + 31) / 32 * 32;
    const uint32_t groups = padded / 32;
    TBuf<TPosition::VECCALC> bs, bi, ba, bb, bv, bx;
    pipe.InitBuffer(bs, padded * sizeof(T));
    pipe.InitBuffer(bi, padded * sizeof(uint32_t));
    pipe.InitBuffer(ba, padded * 8);
    pipe.InitBuffer(bb, padded * 8);
    pipe.InitBuffer(bv, padded * sizeof(T));
    pipe.InitBuffer(bx, padded * sizeof(uint32_t));
    LocalTensor<T> sc = bs.Get<T>(), va = bv.Get<T>();
    LocalTensor<uint32_t> ix = bi.Get<uint32_t>(), io = bx.Get<uint32_t>();
    LocalTensor<T> cur = ba.Get<T>(), nxt = bb.Get<T>();
    GlobalTensor<T> sg, vg, v2g;
    GlobalTensor<uint32_t> ig, i2g;
    sg.SetGlobalBuffer((__gm__ T*)s, n);
    vg.SetGlobalBuffer((__gm__ T*)vOut, n);
    ig.SetGlobalBuffer((__gm__ uint32_t*)iOut, n);
    v2g.SetGlobalBuffer((__gm__ T*)v2Out, n);
    i2g.SetGlobalBuffer((__gm__ uint32_t*)i2Out, n);
    for (uint32_t k = 0; k < padded; ++k) {
        sc.SetValue(k, k < n ? sg.GetValue(k) : T(-INFINITY));
        ix.SetValue(k, k * 0x10001u);  // indices that use all four bytes
    }

    Sort32<T>(cur, sc, ix, groups);
    uint32_t off[MAX_QUEUES], len[MAX_QUEUES], q = groups;
    for (uint32_t k = 0; k < q; ++k) { off[k] = 32 * k; len[k] = 32; }
    while (q > 1) {
        uint32_t noff[MAX_QUEUES], nlen[MAX_QUEUES], nq = 0, k = 0;
        while (k < q) {
            // a run of whole groups of 4 equal queues: one MrgSort with repeatTimes = the run length
            uint32_t run = 0;
            while (k + 4 * (run + 1) <= q) {
                uint32_t b = k + 4 * run;
                if (len[b] != len[k] || len[b + 1] != len[k] || len[b + 2] != len[k] || len[b + 3] != len[k]) break;
                ++run;
            }
            if (run > 0) {
                const uint32_t L = len[k];
                MrgSort4Info info;
                info.elementLengths[0] = info.elementLengths[1] = info.elementLengths[2] = info.elementLengths[3] = L;
                info.validBit = 0b1111;
                info.repeatTimes = run;
                MrgSortSrcList<T> list(cur[GetSortOffset<T>(off[k])], cur[GetSortOffset<T>(off[k] + L)],
                                       cur[GetSortOffset<T>(off[k] + 2 * L)], cur[GetSortOffset<T>(off[k] + 3 * L)]);
                MrgSort<T>(nxt[GetSortOffset<T>(off[k])], list, info);
                for (uint32_t j = 0; j < run; ++j) { noff[nq] = off[k] + 4 * L * j; nlen[nq++] = 4 * L; }
                k += 4 * run;
                continue;
            }
            const uint32_t take = q - k < 4 ? q - k : 4;
            if (take == 1) {
                DataCopy(nxt[GetSortOffset<T>(off[k])], cur[GetSortOffset<T>(off[k])], GetSortLen<T>(len[k]));
            } else {
                uint16_t lens[4] = {0, 0, 0, 0};
                uint32_t sum = 0;
                LocalTensor<T> srcs[4] = {cur, cur, cur, cur};
                for (uint32_t j = 0; j < take; ++j) {
                    lens[j] = len[k + j];
                    srcs[j] = cur[GetSortOffset<T>(off[k + j])];
                    sum += len[k + j];
                }
                uint32_t sortedNum[4];
                MrgSortSrcList list = MrgSortSrcList(srcs[0], srcs[1], srcs[2], srcs[3]);  // deduced T, as in the docs
                MrgSort(nxt[GetSortOffset<T>(off[k])], list, lens, sortedNum, (1u << take) - 1, 1);
                len[k] = sum;
            }
            noff[nq] = off[k];
            nlen[nq++] = len[k];
            k += take;
        }
        for (uint32_t j = 0; j < nq; ++j) { off[j] = noff[j]; len[j] = nlen[j]; }
        q = nq;
        LocalTensor<T> t = cur;
        cur = nxt;
        nxt = t;
    }
    Extract(va, io, cur, groups);
    for (uint32_t k = 0; k < n; ++k) { vg.SetValue(k, va.GetValue(k)); ig.SetValue(k, io.GetValue(k)); }

    // high-level: Concat + Sort<T, true> + Extract (nxt is the scratch)
    LocalTensor<T> concat;
    Concat(concat, sc, nxt, groups * 2);
    Sort<T, true>(cur, concat, ix, nxt, groups);
    Extract(va, io, cur, groups);
    for (uint32_t k = 0; k < n; ++k) { v2g.SetValue(k, va.GetValue(k)); i2g.SetValue(k, io.GetValue(k)); }
}
template <typename T>
void run_full_sort() {
    auto s = kt::load<T>("s");
    const size_t n = s.size();
    kt::Dev<T> ds(s), dv(n), dv2(n);
    kt::Dev<uint32_t> di(n), di2(n);
    full_sort_kernel<T><<<1, nullptr, nullptr>>>(ds.gm(), dv.gm(), di.gm(), dv2.gm(), di2.gm(), (uint32_t)n);
    kt::save("v", dv.host());
    kt::save("i", di.host());
    kt::save("v2", dv2.host());
    kt::save("i2", di2.host());
}
KT_CASE(full_sort_f32) { run_full_sort<float>(); }
KT_CASE(full_sort_f16) { run_full_sort<half>(); }

// ---- sizes --------------------------------------------------------------------------------------
KT_CASE(sort_len) {
    std::vector<uint32_t> v = {GetSortLen<float>(128), GetSortLen<half>(128), GetSortOffset<float>(5), GetSortOffset<half>(5)};
    kt::save("z", v);
}

// ---- rule violations: each on its own marked line -------------------------------------------------
__global__ __aicore__ void errors_kernel(int which) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 16384);
    LocalTensor<float> f = b.Get<float>();
    LocalTensor<half> h = b.Get<half>();
    LocalTensor<uint32_t> u = b.Get<uint32_t>();
    for (uint32_t k = 0; k < 4096; ++k) f.SetValue(k, 0.0f);
    MrgSort4Info info;
    info.elementLengths[0] = info.elementLengths[1] = info.elementLengths[2] = info.elementLengths[3] = 32;
    info.validBit = 0b1111;
    MrgSortSrcList<float> list(f[0], f[64], f[128], f[192]);
    switch (which) {
        case 0: Sort32<float>(f[2048], f[0], u[1024], 256); break;  // @E-bad-repeat
        case 1: Sort32<float>(f[3968], f[0], u[1024], 3); break;    // @E-dst-oob
        case 2: Sort32<float>(f[2048], f[4], u[1024], 1); break;    // @E-misaligned
        case 3: info.validBit = 0b101; MrgSort(f[2048], list, info); break;  // @E-validbit
        case 4: info.elementLengths[1] = 4096; MrgSort(f[2048], list, info); break;  // @E-length
        case 5: info.repeatTimes = 2; info.elementLengths[3] = 16; MrgSort(f[2048], list, info); break;  // @E-repeat-unequal
        case 6: info.repeatTimes = 2; list.src2 = f[512]; MrgSort(f[2048], list, info); break;  // @E-repeat-noncontig
        case 7: info.repeatTimes = 2; info.ifExhaustedSuspension = true; MrgSort(f[2048], list, info); break;  // @E-repeat-susp
        case 8: MrgSort(f[192], list, info); break;  // @E-overlap
        case 9: {
            MrgSortSrcList<half> hl(h[1], h[128], h[256], h[384]);  // src1 2 bytes past an 8-byte boundary
            MrgSort4Info hi = info;
            MrgSort(h[4096], hl, hi);  // @E-src-misaligned
            break;
        }
        case 10: ProposalConcat(f[0], f[512], 2, 4); break;  // @E-unsupported
        case 11: {
            LocalTensor<float> tmp = f[3584];  // 512 floats: too small for 16 groups (needs 16 x 32 x 2)
            Sort<float, true>(f[1024], f[0], u[512], tmp, 16);  // @E-sort-tmp
            break;
        }
        case 12: {  // a queue out of order: merged anyway, with a warning
            f.SetValue(2, 5.0f);
            MrgSort(f[2048], list, info);  // @W-unsorted
            break;
        }
        case 13: Extract(f[0], u[1024], f[2048], 64); break;  // @E-extract-oob
    }
}
KT_CASE(errors) { errors_kernel<<<1, nullptr, nullptr>>>((int)kt::param("which")); }

KT_MAIN()
