// Conv2dMishMishCustom: conv2d (stride 1, no padding, dilation 1, bias) -> mish -> mish, fp32, as an implicit GEMM
// on the basic cube API (prototype). A MIX 1:2 kernel; block b = one AI core: its AIC and its two AIVs.
//
// Workspace (floats):
//   xs  [blocks][maxEntries][C1][W][C0]  per block, its input-row list (ListLength below) as 5HD row records:
//                          record e holds every channel of one input row, C1 blocks of W positions x C0 = 8 channels
//                          (channels >= C are 0). Written by the block's two AIVs, read by its AIC.
//   wz  at wOffset         the weight as L0A fractals (16 output channels x C0 input channels, 512 B), grouped in
//                          K chunks: chunk i of tap (fh, fw) holds C0-blocks c1 = i*kc .. i*kc+kcq-1 of that tap,
//                          laid out [mb][c1 - i*kc][16][C0] -- the ZZ layout of L0A for an M x (kcq*C0) matrix, so
//                          one LoadData moves a chunk. K order: k = ((fh * KW + fw) * C1 + c1) * C0 + c0. Then the
//                          bias k-block (column 0 = bias[oc], others 0; m1 fractals) and one "ones" fractal (16 rows
//                          of [1, 0, ..., 0]): the bias enters the GEMM as one more k-block.
// AIV, start: the weight fractals (tasks (mb, c1) + bias + ones spread over all AIVs, one Gather each), SyncAll, then
//   each AIV pair tells its AIC (FLAG_READY, mode 2).
// AIC: block b computes output rows [g0, g1) of the N * OH rows. The whole weight sits in L1 (A1); kh input row
//   records rotate through kh L1 slots (slot = global input row % kh, C1 blocks of wp positions each). Per output row
//   and column tile of n1t * 16 positions, per K chunk: one LoadData of the chunk's weight fractals to L0A, and the
//   im2col fractals to L0B: 16 consecutive output positions x C0 channels of tap (fh, fw) are 16 consecutive
//   positions of the 5HD row record, one 512-byte run from (c1 * wp + ow0 + fw) * C0 -- a plain 2-D LoadData builds
//   the ZN right matrix (no LoadData3D); with wp = n1t * 16 the kcq runs of a chunk follow each other and one
//   LoadData moves them all. Mmad accumulates C[OC, positions] in L0C (fp32, 4 L0A / 4 L0B buffers in flight);
//   Fixpipe (NZ -> ND) writes it straight into y[n, :, oh, ow0 ..] (row stride OH*OW). The next output row's new
//   input row is fetched into the slot freed by kernel row fh = 0 (MTE1 -> MTE2 flag) while rows fh >= 1 compute;
//   each row load first waits for its AIVs' FLAG_ROWS. Every groupRows rows (inside one image; the first group is
//   one row) the AIC sets FLAG_DATA for its AIVs; it waits on their FLAG_DONE when MAX_LAG groups are outstanding.
// AIV, then: converts its half of the block's input-row list (x NCHW -> 5HD records, one C0-block per piece, a Gather
//   each; FLAG_ROWS per two records) ahead of the AIC's needs, interleaved with the epilogue of each group the AIC
//   hands over: its half of the output channels, y -> UB, mish twice in place, UB -> y.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t C0 = 8;          // fp32 channels per 32-byte block
constexpr uint32_t FRAC = 128;      // floats per 512-byte L0A/L0B fractal (16 x C0)
constexpr uint16_t FLAG_READY = 0;  // AIVs -> AIC: xs and the weight fractals are in GM
constexpr uint16_t FLAG_DATA = 1;   // AIC -> AIVs: a group of output rows is in y
constexpr uint16_t FLAG_DONE = 2;   // AIVs -> AIC: a group is finished
constexpr uint16_t FLAG_ROWS = 3;   // AIVs -> AIC: two more entries of the block's input-row list are in xs
constexpr uint32_t MAX_LAG = 8;     // groups the AIC may run ahead of its AIVs (flag counters hold 16)
constexpr int32_t EV_WEIGHT = 7;                // MTE2 -> MTE1 event id of the weight copy (row slots use 0 .. kh-1)
constexpr int32_t A_BUFS = 4, B_BUFS = 4;       // L0A / L0B chunk buffers (the host sizes kc for them)
constexpr uint32_t PREP_STEPS_PER_TILE = 2;     // input-row conversion pieces issued after each epilogue tile
constexpr int32_t PIN_BUFS = 4;                 // conversion input pieces in flight (the copy latency is long)
constexpr int32_t EV_TILE = 2;                  // V -> MTE3 / MTE3 -> MTE2 event ids of the two y tile buffers (2, 3)

__aicore__ inline uint32_t Min(uint32_t a, uint32_t b) { return a < b ? a : b; }
__aicore__ inline uint32_t Align(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

// output rows [g0, g1) of block b (rows g = n * OH + oh)
__aicore__ inline void BlockRows(const Conv2dMishMishCustomTilingData& td, uint32_t b, uint32_t& g0, uint32_t& g1)
{
    uint64_t rows = static_cast<uint64_t>(td.n) * td.oh;
    g0 = static_cast<uint32_t>(rows * b / td.blocks);
    g1 = static_cast<uint32_t>(rows * (b + 1) / td.blocks);
}
// the end of the group starting at row g: at most groupRows rows, inside one image
__aicore__ inline uint32_t GroupEnd(const Conv2dMishMishCustomTilingData& td, uint32_t g, uint32_t g1, bool first = false)
{
    uint32_t imageEnd = (g / td.oh + 1) * td.oh;
    return Min(Min(g + (first ? 1 : td.groupRows), g1), imageEnd);
}
// The block's input-row list: for each image its output rows [g0, g1) touch, the input rows from the first output
// row's to the last one's + kh - 1, in order. The AIC loads them in exactly this order (its k-th row load is entry k)
// and its AIVs convert them (entry e by AIV e % 2) into the block's private part of xs (maxEntries records).
__aicore__ inline uint32_t ListLength(const Conv2dMishMishCustomTilingData& td, uint32_t g0, uint32_t g1)
{
    uint32_t len = 0;
    for (uint32_t g = g0; g < g1;) {
        uint32_t segEnd = Min(g1, (g / td.oh + 1) * td.oh);
        len += segEnd - g + td.kh - 1;
        g = segEnd;
    }
    return len;
}
// the entry of input row (n, oh + fh) of output row g
__aicore__ inline uint32_t EntryOf(const Conv2dMishMishCustomTilingData& td, uint32_t g0, uint32_t g, uint32_t fh)
{
    uint32_t base = 0, s = g0;
    while (s / td.oh != g / td.oh) {
        uint32_t segEnd = (s / td.oh + 1) * td.oh;
        base += segEnd - s + td.kh - 1;
        s = segEnd;
    }
    return base + (g - s) + fh;
}
// the global input row (n * H + ih) of entry e
__aicore__ inline uint32_t EntryRow(const Conv2dMishMishCustomTilingData& td, uint32_t g0, uint32_t g1, uint32_t e)
{
    for (uint32_t g = g0; g < g1;) {
        uint32_t segEnd = Min(g1, (g / td.oh + 1) * td.oh), len = segEnd - g + td.kh - 1;
        if (e < len) {
            return (g / td.oh) * td.h + g % td.oh + e;
        }
        e -= len;
        g = segEnd;
    }
    return 0;
}

// GM / L1 offset (floats) of weight chunk i of tap (fh, fw)
__aicore__ inline uint32_t ChunkOffset(const Conv2dMishMishCustomTilingData& td, uint32_t fh, uint32_t fw, uint32_t i)
{
    return ((fh * td.kw + fw) * td.c1 + i * td.kc) * td.m1 * FRAC;
}

class CubePart {
public:
    __aicore__ inline void Init(GM_ADDR y, GM_ADDR ws, const Conv2dMishMishCustomTilingData& td, TPipe* pipe)
    {
        td_ = &td;
        rowElems_ = td.c1 * td.w * C0;
        slotElems_ = td.slotElems;
        xsGm_.SetGlobalBuffer((__gm__ float*)ws + static_cast<uint64_t>(GetBlockIdx()) * td.maxEntries * rowElems_,
                              static_cast<uint64_t>(td.maxEntries) * rowElems_);
        wGm_.SetGlobalBuffer((__gm__ float*)ws + td.wOffset, td.wElems);
        yGm_.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(td.n) * td.oc * td.oh * td.ow);
        pipe->InitBuffer(wBuf_, td.wElems * sizeof(float));
        pipe->InitBuffer(rowBuf_, td.kh * slotElems_ * sizeof(float));
        pipe->InitBuffer(aQ_, A_BUFS, td.m1 * td.kc * FRAC * sizeof(float));
        pipe->InitBuffer(bQ_, B_BUFS, td.kc * td.n1t * FRAC * sizeof(float));
        pipe->InitBuffer(cQ_, 1, td.m1 * td.n1t * 256 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        const Conv2dMishMishCustomTilingData& td = *td_;
        uint32_t g0, g1;
        BlockRows(td, GetBlockIdx(), g0, g1);
        if (g0 >= g1) {
            return;
        }
        CrossCoreWaitFlag(FLAG_READY);
        wL1_ = wBuf_.Get<float>();
        rows_ = rowBuf_.Get<float>();
        DataCopy(wL1_, wGm_, DataCopyParams{1, static_cast<uint16_t>(td.wElems * sizeof(float) / 32), 0, 0});
        SetFlag<HardEvent::MTE2_MTE1>(EV_WEIGHT);
        WaitFlag<HardEvent::MTE2_MTE1>(EV_WEIGHT);
        for (uint32_t s = 0; s < td.kh; ++s) {
            slotRow_[s] = UINT32_MAX;
            pending_[s] = false;
        }
        uint32_t first = (g0 / td.oh) * td.h + g0 % td.oh;   // global input row of (n, oh) at fh = 0
        for (uint32_t fh = 0; fh < td.kh; ++fh) {
            LoadRow(first + fh);
        }
        uint32_t groups = 0;
        uint32_t groupEnd = GroupEnd(td, g0, g1, true);
        for (uint32_t g = g0; g < g1; ++g) {
            uint32_t n = g / td.oh, r = g % td.oh;
            bool hasNext = g + 1 < g1;
            uint32_t nextBase = hasNext ? ((g + 1) / td.oh) * td.h + (g + 1) % td.oh : 0;
            for (uint32_t t = 0; t < td.colTiles; ++t) {
                Tile(n, r, t, hasNext && t + 1 == td.colTiles, nextBase);
            }
            if (g + 1 == groupEnd) {
                if (groups >= MAX_LAG) {
                    CrossCoreWaitFlag(FLAG_DONE);
                }
                CrossCoreSetFlag<2, PIPE_FIX>(FLAG_DATA);
                ++groups;
                groupEnd = GroupEnd(td, g + 1, g1);
            }
        }
    }

private:
    // global input row gr (n * H + ih) into its slot
    __aicore__ inline void LoadRow(uint32_t gr)
    {
        uint32_t s = gr % td_->kh;
        // C1 blocks of W positions -> C1 blocks of wp positions (32-byte units: one position of C0 floats)
        // entry loads_ of the list: wait until its AIVs have written it (they report two entries at a time)
        while (batchesSeen_ <= loads_ / 2) {
            CrossCoreWaitFlag(FLAG_ROWS);
            ++batchesSeen_;
        }
        DataCopy(rows_[s * slotElems_], xsGm_[static_cast<uint64_t>(loads_++) * rowElems_],
                 DataCopyParams{static_cast<uint16_t>(td_->c1), static_cast<uint16_t>(td_->w), 0,
                                static_cast<uint16_t>(td_->wp - td_->w)});
        SetFlag<HardEvent::MTE2_MTE1>(static_cast<int32_t>(s));
        pending_[s] = true;
        slotRow_[s] = gr;
    }

    // output row (n, r), column tile t: C[OC, n1t*16] = sum over K chunks, + bias; Fixpipe into y.
    // refill: after kernel row fh, fetch the next output row's input row for this slot (first row: nextBase)
    // C[OC, n1t * 16] = (first) or += the queued L0A chunk x L0B chunk over k rows of K; frees both
    __aicore__ inline void MmadChunk(const LocalTensor<float>& c, uint32_t k, bool first)
    {
        const Conv2dMishMishCustomTilingData& td = *td_;
        LocalTensor<float> a = aQ_.DeQue<float>();
        LocalTensor<float> b = bQ_.DeQue<float>();
        MmadParams mp;
        mp.m = static_cast<uint16_t>(td.oc);
        mp.n = static_cast<uint16_t>(td.n1t * 16);
        mp.k = static_cast<uint16_t>(k);
        mp.cmatrixInitVal = first;
        Mmad(c, a, b, mp);
        aQ_.FreeTensor(a);
        bQ_.FreeTensor(b);
    }

    __aicore__ inline void Tile(uint32_t n, uint32_t r, uint32_t t, bool refill, uint32_t nextBase)
    {
        const Conv2dMishMishCustomTilingData& td = *td_;
        uint32_t ow0 = t * td.n1t * 16;
        uint32_t cols = Min(td.n1t * 16, td.ow - ow0);
        bool linear = td.colTiles == 1 && td.wp == td.n1t * 16;
        LocalTensor<float> c = cQ_.AllocTensor<float>();
        bool firstMmad = true;
        for (uint32_t fh = 0; fh < td.kh; ++fh) {
            uint32_t gr = n * td.h + r + fh;
            uint32_t s = gr % td.kh;
            if (pending_[s]) {
                WaitFlag<HardEvent::MTE2_MTE1>(static_cast<int32_t>(s));
                pending_[s] = false;
            }
            LocalTensor<float> slot = rows_[s * slotElems_];
            for (uint32_t fw = 0; fw < td.kw; ++fw) {
                for (uint32_t i = 0; i < td.chunksPerTap; ++i) {
                    uint32_t cb0 = i * td.kc, kcq = Min(td.kc, td.c1 - cb0);
                    LocalTensor<float> a = aQ_.AllocTensor<float>();
                    LoadData(a, wL1_[ChunkOffset(td, fh, fw, i)],
                             LoadData2DParams(0, static_cast<uint8_t>(td.m1 * kcq), 1, 0, 0, false, 0));
                    aQ_.EnQue(a);
                    // B (ZN, kcq k-blocks x n1t n-blocks): k-block (c1 = cb0 + j) n-block q is the 512-byte run of
                    // positions ow0 + fw + 16 q .. of C0-block cb0 + j in the slot
                    LocalTensor<float> b = bQ_.AllocTensor<float>();
                    if (linear) {   // the runs of consecutive C0-blocks follow each other (wp = n1t * 16)
                        LoadData(b, slot[(cb0 * td.wp + ow0 + fw) * C0],
                                 LoadData2DParams(0, static_cast<uint8_t>(kcq * td.n1t), 1, 0, 0, false, 0));
                    } else {
                        for (uint32_t j = 0; j < kcq; ++j) {
                            LoadData(b[j * td.n1t * FRAC], slot[((cb0 + j) * td.wp + ow0 + fw) * C0],
                                     LoadData2DParams(0, static_cast<uint8_t>(td.n1t), 1, 0, 0, false, 0));
                        }
                    }
                    bQ_.EnQue(b);
                    MmadChunk(c, kcq * C0, firstMmad);
                    firstMmad = false;
                }
            }
            if (refill) {
                // the next output row needs input row nextBase + f' in slot s (f' = (s - nextBase) mod kh)
                uint32_t need = nextBase + (s + td.kh - nextBase % td.kh) % td.kh;
                if (slotRow_[s] != need) {
                    SetFlag<HardEvent::MTE1_MTE2>(static_cast<int32_t>(s));   // the LoadDatas above have read the slot
                    WaitFlag<HardEvent::MTE1_MTE2>(static_cast<int32_t>(s));
                    LoadRow(need);
                }
            }
        }
        // bias: one more k-block, A = bias column, B = ones
        {
            LocalTensor<float> a = aQ_.AllocTensor<float>();
            LoadData(a, wL1_[td.kh * td.kw * td.c1 * td.m1 * FRAC], LoadData2DParams(0, static_cast<uint8_t>(td.m1), 1, 0, 0, false, 0));
            aQ_.EnQue(a);
            LocalTensor<float> b = bQ_.AllocTensor<float>();
            LoadData(b, wL1_[(td.kh * td.kw * td.c1 + 1) * td.m1 * FRAC], LoadData2DParams(0, static_cast<uint8_t>(td.n1t), 0, 0, 0, false, 0));
            bQ_.EnQue(b);
            MmadChunk(c, C0, false);
        }
        cQ_.EnQue(c);
        c = cQ_.DeQue<float>();
        FixpipeParamsV220 f;
        f.nSize = static_cast<uint16_t>(cols);
        f.mSize = static_cast<uint16_t>(td.oc);
        f.srcStride = static_cast<uint16_t>(td.m1 * 16);
        f.dstStride = td.oh * td.ow;
        uint64_t dst = (static_cast<uint64_t>(n) * td.oc * td.oh + r) * td.ow + ow0;
        Fixpipe(yGm_[dst], c, f);
        cQ_.FreeTensor(c);
    }

    const Conv2dMishMishCustomTilingData* td_ = nullptr;
    uint32_t rowElems_ = 0, slotElems_ = 0, loads_ = 0, batchesSeen_ = 0;
    uint32_t slotRow_[8];
    bool pending_[8];
    GlobalTensor<float> xsGm_, wGm_, yGm_;
    TBuf<TPosition::A1> wBuf_;
    TBuf<TPosition::B1> rowBuf_;
    LocalTensor<float> wL1_, rows_;
    TQue<TPosition::A2, A_BUFS> aQ_;
    TQue<TPosition::B2, B_BUFS> bQ_;
    TQue<TPosition::CO1, 1> cQ_;
};

class VecPart {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR weight, GM_ADDR bias, GM_ADDR y, GM_ADDR ws,
                                const Conv2dMishMishCustomTilingData& td, TPipe* pipe)
    {
        td_ = &td;
        xGm_.SetGlobalBuffer((__gm__ float*)x, static_cast<uint64_t>(td.n) * td.c * td.h * td.w);
        wInGm_.SetGlobalBuffer((__gm__ float*)weight, static_cast<uint64_t>(td.oc) * td.c * td.kh * td.kw);
        bGm_.SetGlobalBuffer((__gm__ float*)bias, td.oc);
        yGm_.SetGlobalBuffer((__gm__ float*)y, static_cast<uint64_t>(td.n) * td.oc * td.oh * td.ow);
        xsGm_.SetGlobalBuffer((__gm__ float*)ws, static_cast<uint64_t>(td.blocks) * td.maxEntries * td.c1 * td.w * C0);
        wzGm_.SetGlobalBuffer((__gm__ float*)ws + td.wOffset, td.wElems);
        pipe->InitBuffer(ioQ_, 2, td.tile * sizeof(float));   // y tiles, computed in place and copied back
        pipe->InitBuffer(tmp_, td.tile * sizeof(float));
        pipe->InitBuffer(ones_, td.tile * sizeof(float));
        // the conversions (weight fractals, input rows) have queues of their own, so that their copies run
        // while the vector unit works on the epilogue
        uint32_t kk = td.kh * td.kw, pitch = Align(C0 * kk, 8), wAl = Align(td.w, C0);
        uint32_t pin = C0 * wAl > 16 * pitch ? C0 * wAl : 16 * pitch, pout = C0 * td.w > kk * FRAC ? C0 * td.w : kk * FRAC;
        pipe->InitBuffer(pinQ_, PIN_BUFS, pin * sizeof(float));
        pipe->InitBuffer(poutQ_, 2, pout * sizeof(float));
        pipe->InitBuffer(tab_, (kk * FRAC > C0 * td.w ? kk * FRAC : C0 * td.w) * sizeof(uint32_t));
    }

    __aicore__ inline void Process()
    {
        PrepWeight();
        SyncAll();
        CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_READY);
        Pipeline();
    }

private:
    __aicore__ inline uint32_t Aivs() const { return static_cast<uint32_t>(GetBlockNum() * GetTaskRation()); }

    // the weight as L0A fractals; task (mb, c1): output channels mb*16.., input channels c1*C0.., every tap
    __aicore__ inline void PrepWeight()
    {
        const Conv2dMishMishCustomTilingData& td = *td_;
        uint32_t kk = td.kh * td.kw, pitch = Align(C0 * kk, 8);
        uint32_t me = static_cast<uint32_t>(GetBlockIdx()), cores = Aivs();
        uint32_t wTasks = td.m1 * td.c1, tasks = wTasks + td.m1 + 1;
        if (me >= tasks) {
            return;
        }
        LocalTensor<uint32_t> offs = tab_.Get<uint32_t>();
        // fractal of tap (fh, fw): element (m, c0) = W[mb*16 + m][c1*C0 + c0][fh][fw], UB row m holds channels x taps
        for (uint32_t tap = 0; tap < kk; ++tap) {
            for (uint32_t m = 0; m < 16; ++m) {
                for (uint32_t c0 = 0; c0 < C0; ++c0) {
                    offs.SetValue(tap * FRAC + m * C0 + c0, (m * pitch + c0 * kk + tap) * static_cast<uint32_t>(sizeof(float)));
                }
            }
        }
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
        for (uint32_t t = me; t < tasks; t += cores) {
            LocalTensor<float> o = poutQ_.AllocTensor<float>();
            if (t < wTasks) {
                uint32_t mb = t / td.c1, cb = t % td.c1;
                uint32_t nOc = Min(16, td.oc - mb * 16), nCh = Min(C0, td.c - cb * C0);
                LocalTensor<float> xin = pinQ_.AllocTensor<float>();
                Duplicate(xin, 0.0f, 16 * pitch);   // output channels >= OC, input channels >= C: 0
                SetFlag<HardEvent::V_MTE2>(0);
                WaitFlag<HardEvent::V_MTE2>(0);
                uint32_t len = nCh * kk;
                uint32_t padTo = Align(len, 8);
                DataCopyPad(xin, wInGm_[(static_cast<uint64_t>(mb) * 16 * td.c + cb * C0) * kk],
                            DataCopyExtParams{static_cast<uint16_t>(nOc), len * static_cast<uint32_t>(sizeof(float)),
                                              (td.c * kk - len) * static_cast<uint32_t>(sizeof(float)), (pitch - padTo) / 8, 0},
                            DataCopyPadExtParams<float>{padTo != len, 0, static_cast<uint8_t>(padTo - len), 0.0f});
                pinQ_.EnQue(xin);
                xin = pinQ_.DeQue<float>();
                Gather(o, xin, offs, 0, kk * FRAC);
                pinQ_.FreeTensor(xin);
                poutQ_.EnQue(o);
                o = poutQ_.DeQue<float>();
                for (uint32_t tap = 0; tap < kk; ++tap) {
                    uint32_t fh = tap / td.kw, fw = tap % td.kw;
                    uint32_t i = cb / td.kc, kcq = Min(td.kc, td.c1 - i * td.kc);
                    uint32_t dst = ChunkOffset(td, fh, fw, i) + (mb * kcq + cb % td.kc) * FRAC;
                    DataCopy(wzGm_[dst], o[tap * FRAC], FRAC);
                }
            } else {
                // the bias k-block of mb (column 0 = bias), or the ones fractal (column 0 = 1)
                uint32_t mb = t - wTasks;
                bool ones = mb == td.m1;
                Duplicate(o, 0.0f, FRAC);
                SetFlag<HardEvent::V_S>(0);
                WaitFlag<HardEvent::V_S>(0);
                for (uint32_t m = 0; m < 16; ++m) {
                    if (ones) {
                        o.SetValue(m * C0, 1.0f);
                    } else if (mb * 16 + m < td.oc) {
                        o.SetValue(m * C0, bGm_.GetValue(mb * 16 + m));
                    }
                }
                SetFlag<HardEvent::S_MTE3>(0);
                WaitFlag<HardEvent::S_MTE3>(0);
                uint32_t base = td.kh * td.kw * td.c1 * td.m1 * FRAC;
                DataCopy(wzGm_[ones ? base + td.m1 * FRAC : base + mb * FRAC], o, FRAC);
            }
            poutQ_.FreeTensor(o);
        }
    }

    // the Gather table of one C0-block: element (w, c0) of the 5HD block <- row c0, position w of the UB piece
    __aicore__ inline void BuildRowTable()
    {
        const Conv2dMishMishCustomTilingData& td = *td_;
        uint32_t wAl = Align(td.w, C0);
        LocalTensor<uint32_t> offs = tab_.Get<uint32_t>();
        SetFlag<HardEvent::V_S>(1);   // the weight Gathers have read the old table
        WaitFlag<HardEvent::V_S>(1);
        for (uint32_t ww = 0; ww < td.w; ++ww) {
            for (uint32_t c0 = 0; c0 < C0; ++c0) {
                offs.SetValue(ww * C0 + c0, (c0 * wAl + ww) * static_cast<uint32_t>(sizeof(float)));
            }
        }
        SetFlag<HardEvent::S_V>(1);
        WaitFlag<HardEvent::S_V>(1);
    }

    // C0-block p0 of input row gr (n * H + ih) -> xs record rec = [C1][W][C0]
    __aicore__ inline void PrepPiece(uint32_t rec, uint32_t gr, uint32_t p0)
    {
        const Conv2dMishMishCustomTilingData& td = *td_;
        uint32_t wAl = Align(td.w, C0);
        uint32_t n = gr / td.h, ih = gr % td.h;
        uint32_t rowBytes = td.w * static_cast<uint32_t>(sizeof(float));
        LocalTensor<uint32_t> offs = tab_.Get<uint32_t>();
        uint32_t ch0 = p0 * C0, nCh = Min(C0, td.c - ch0);
        LocalTensor<float> xin = pinQ_.AllocTensor<float>();
        DataCopyPad(xin, xGm_[(static_cast<uint64_t>(n) * td.c + ch0) * td.h * td.w + static_cast<uint64_t>(ih) * td.w],
                    DataCopyExtParams{static_cast<uint16_t>(nCh), rowBytes, (td.h * td.w - td.w) * static_cast<uint32_t>(sizeof(float)), 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        pinQ_.EnQue(xin);
        xin = pinQ_.DeQue<float>();
        if (nCh < C0) {   // channels >= C of the last block: 0
            Duplicate(xin[nCh * wAl], 0.0f, (C0 - nCh) * wAl);
        }
        LocalTensor<float> o = poutQ_.AllocTensor<float>();
        Gather(o, xin, offs, 0, td.w * C0);
        pinQ_.FreeTensor(xin);
        poutQ_.EnQue(o);
        o = poutQ_.DeQue<float>();
        DataCopy(xsGm_[(static_cast<uint64_t>(rec) * td.c1 + p0) * td.w * C0], o, td.w * C0);
        poutQ_.FreeTensor(o);
    }

    // one step of this AIV's share of the block's input-row list, up to batch `limit`: one C0-block of its row of
    // the current batch; a finished batch (both AIVs) is reported to the AIC. False when `limit` is reached.
    __aicore__ inline bool PrepStep(uint32_t limit)
    {
        if (pb_ >= limit) {
            return false;
        }
        uint32_t e = 2 * pb_ + sub_;
        if (e < entries_) {
            PrepPiece(block_ * td_->maxEntries + e, EntryRow(*td_, g0_, g1_, e), pp_);
            if (++pp_ < td_->c1) {
                return true;
            }
        }
        CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_ROWS);
        ++pb_;
        pp_ = 0;
        return true;
    }

    // mish(mish(x)) in place on count floats of x (t scratch, ones: 1.0). mish(x) = x * tanh(softplus(x))
    // = x * n / (n + 2) with n = e (e + 2), e = exp(x), computed as x - 2 x / d, d = n + 2 = (e + 1)^2 + 1.
    // No clamp is needed: for large x, e or d overflows to +inf and x / d = 0 gives mish(x) = x (x = +inf itself
    // gives NaN where torch gives +inf).
    __aicore__ inline void Mish2(const LocalTensor<float>& x, const LocalTensor<float>& t, const LocalTensor<float>& ones,
                                 uint32_t count)
    {
        for (int pass = 0; pass < 2; ++pass) {
            Exp(t, x, count);
            Adds(t, t, 1.0f, count);          // e + 1
            FusedMulAdd(t, t, ones, count);   // d = (e + 1)^2 + 1
            Div(t, x, t, count);              // x / d
            Axpy(x, t, -2.0f, count);         // x - 2 x / d
        }
    }

    // this block's input rows (entry e of the list by AIV e % 2, two entries a batch, each batch reported to the
    // AIC) interleaved with the epilogue of the groups of output rows the AIC hands over:
    // y[n, oc half, rows] = mish(mish(y)). Before waiting for a group, the batches the AIC needs to finish it
    // (and one more) are converted.
    __aicore__ inline void Pipeline()
    {
        const Conv2dMishMishCustomTilingData& td = *td_;
        uint32_t ration = static_cast<uint32_t>(GetTaskRation());
        uint32_t block = static_cast<uint32_t>(GetBlockIdx()) / ration, sub = static_cast<uint32_t>(GetBlockIdx()) % ration;
        uint32_t g0, g1;
        BlockRows(td, block, g0, g1);
        block_ = block;
        sub_ = sub;
        g0_ = g0;
        g1_ = g1;
        uint32_t half = (td.oc + ration - 1) / ration;
        uint32_t ocA = Min(sub * half, td.oc), ocB = Min(ocA + half, td.oc);
        uint64_t plane = static_cast<uint64_t>(td.oh) * td.ow;
        LocalTensor<float> t = tmp_.Get<float>();
        LocalTensor<float> ones = ones_.Get<float>();
        if (g0 >= g1) {
            return;
        }
        Duplicate(ones, 1.0f, td.tile);
        uint32_t tiles = 0;   // y tiles so far: buffer tiles % 2
        BuildRowTable();
        entries_ = ListLength(td, g0, g1);
        uint32_t batches = (entries_ + 1) / 2;
        for (uint32_t g = g0; g < g1;) {
            uint32_t ge = GroupEnd(td, g, g1, g == g0);
            // the AIC finishing this group has loaded up to the next output row's last input row: those batches
            // must be in xs before the wait; the next group's (and one more) are converted between this group's tiles
            uint32_t last = ge < g1 ? EntryOf(td, g0, ge, td.kh - 1) : EntryOf(td, g0, ge - 1, td.kh - 1);
            uint32_t need = Min(batches, last / 2 + 1), ahead = batches;
            if (ge < g1) {
                uint32_t ge2 = GroupEnd(td, ge, g1);
                uint32_t last2 = ge2 < g1 ? EntryOf(td, g0, ge2, td.kh - 1) : EntryOf(td, g0, ge2 - 1, td.kh - 1);
                ahead = Min(batches, last2 / 2 + 2);
            }
            while (PrepStep(need)) {
            }
            CrossCoreWaitFlag(FLAG_DATA);
            uint32_t n = g / td.oh, r0 = g % td.oh;
            uint32_t span = (ge - g) * td.ow;
            uint32_t piece = Min(span, td.tile), pieceAl = Align(piece, 8);
            uint32_t rowsPerTile = td.tile / pieceAl;
            uint32_t nTiles = (ocB - ocA + rowsPerTile - 1) / rowsPerTile;
            if (nTiles > 0) {
                rowsPerTile = (ocB - ocA + nTiles - 1) / nTiles;   // even tiles
            }
            uint64_t base = static_cast<uint64_t>(n) * td.oc * plane + static_cast<uint64_t>(r0) * td.ow;
            for (uint32_t o0 = ocA; o0 < ocB; o0 += rowsPerTile) {
                uint32_t no = Min(rowsPerTile, ocB - o0);
                for (uint32_t s0 = 0; s0 < span; s0 += piece) {
                    uint32_t len = Min(piece, span - s0), lenAl = Align(len, 8);
                    uint32_t bytes = len * static_cast<uint32_t>(sizeof(float));
                    uint32_t gap = static_cast<uint32_t>((plane - len) * sizeof(float));
                    int32_t slot = static_cast<int32_t>(EV_TILE + tiles % 2);
                    LocalTensor<float> xin = ioQ_.AllocTensor<float>();
                    if (tiles >= 2) {   // this buffer's previous tile has been copied out
                        WaitFlag<HardEvent::MTE3_MTE2>(slot);
                    }
                    DataCopyPad(xin, yGm_[base + o0 * plane + s0], DataCopyExtParams{static_cast<uint16_t>(no), bytes, gap, 0, 0},
                                DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
                    ioQ_.EnQue(xin);
                    xin = ioQ_.DeQue<float>();
                    Mish2(xin, t, ones, no * lenAl);
                    SetFlag<HardEvent::V_MTE3>(slot);
                    WaitFlag<HardEvent::V_MTE3>(slot);
                    DataCopyPad(yGm_[base + o0 * plane + s0], xin, DataCopyExtParams{static_cast<uint16_t>(no), bytes, 0, gap, 0});
                    SetFlag<HardEvent::MTE3_MTE2>(slot);
                    ioQ_.FreeTensor(xin);
                    ++tiles;
                    for (uint32_t k = 0; k < PREP_STEPS_PER_TILE; ++k) {   // conversion copies run under this tile's math
                        PrepStep(ahead);
                    }
                }
            }
            CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_DONE);
            g = ge;
        }
        while (PrepStep(batches)) {
        }
        for (uint32_t k = tiles < 2 ? 0 : tiles - 2; k < tiles; ++k) {   // the last copies out
            WaitFlag<HardEvent::MTE3_MTE2>(static_cast<int32_t>(EV_TILE + k % 2));
        }
    }

    const Conv2dMishMishCustomTilingData* td_ = nullptr;
    uint32_t block_ = 0, sub_ = 0, g0_ = 0, g1_ = 0, entries_ = 0, pb_ = 0, pp_ = 0;   // conversion progress
    GlobalTensor<float> xGm_, wInGm_, bGm_, yGm_, xsGm_, wzGm_;
    TQue<QuePosition::VECIN, 2> ioQ_;
    TQue<QuePosition::VECIN, PIN_BUFS> pinQ_;
    TQue<QuePosition::VECOUT, 2> poutQ_;
    TBuf<TPosition::VECCALC> tmp_;
    TBuf<TPosition::VECCALC> ones_;
    TBuf<TPosition::VECCALC> tab_;   // Gather byte offsets (weight fractals, then 5HD blocks)
};

extern "C" __global__ __aicore__ void conv2d_mish_mish_custom(GM_ADDR x, GM_ADDR conv_weight, GM_ADDR conv_bias, GM_ADDR y,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GET_TILING_DATA(td, tiling);
    GM_ADDR ws = GetUserWorkspace(workspace);
    TPipe pipe;
    if ASCEND_IS_AIC {
        CubePart op;
        op.Init(y, ws, td, &pipe);
        op.Process();
    }
    if ASCEND_IS_AIV {
        VecPart op;
        op.Init(x, conv_weight, conv_bias, y, ws, td, &pipe);
        op.Process();
    }
}
