// Conv2dMishMishCustom host side: OpDef and TilingFunc of the implicit-GEMM prototype (see the tiling header).
#include <cstdio>
#include "conv2d_mish_mish_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus Conv2dMishMishCustomTiling(gert::TilingContext* context)
{
    constexpr uint32_t C0 = 8;                // fp32: 32 bytes of elements
    constexpr uint32_t GROUP_ROWS = 2;        // output rows per cube -> vector hand-over
    const gert::Shape& xs = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& wt = context->GetInputShape(1)->GetStorageShape();
    if (xs.GetDimNum() != 4 || wt.GetDimNum() != 4 || wt.GetDim(1) != xs.GetDim(1)) return ge::GRAPH_FAILED;
    uint32_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
    uint32_t oc = wt.GetDim(0), kh = wt.GetDim(2), kw = wt.GetDim(3);
    if (h < kh || w < kw) return ge::GRAPH_FAILED;
    uint32_t oh = h - kh + 1, ow = w - kw + 1;   // stride 1, no padding, dilation 1
    uint32_t c1 = (c + C0 - 1) / C0, m1 = (oc + 15) / 16, nb = (ow + 15) / 16;
    // L0C holds one m1 x n1t block of 1 KB fractals (one buffer); L0A holds A_BUFS chunks of m1 x kc fractals,
    // L0B B_BUFS chunks of kc x n1t (512 B each)
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t l1 = 0, l0a = 0, l0b = 0, l0c = 0, ub = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, l1);
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_A, l0a);
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_B, l0b);
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, l0c);
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
    // buffers: L0A and L0B four each (the L1 -> L0 copies are modelled with a 500-cycle latency: the cube needs
    // three chunks in flight to stay busy), L0C one (the whole m1 x n1t result block)
    constexpr uint32_t A_BUFS = 4, B_BUFS = 4;
    uint32_t fa = static_cast<uint32_t>(l0a / A_BUFS / 512), fb = static_cast<uint32_t>(l0b / B_BUFS / 512);
    uint32_t fc = static_cast<uint32_t>(l0c / 1024);
    if (m1 > fa || m1 > fc || kh > 7) {
        std::printf("Conv2dMishMishCustom: %u output channels / a %u-row kernel are beyond this prototype\n", oc, kh);
        return ge::GRAPH_FAILED;
    }
    uint32_t n1t = nb < fc / m1 ? nb : fc / m1;
    if (n1t > fb) n1t = fb;
    uint32_t colTiles = (nb + n1t - 1) / n1t;
    // a K chunk: kc C0-blocks of channels of one tap (fh, fw)
    uint32_t kc = c1;
    if (kc > fa / m1) kc = fa / m1;
    if (kc > fb / n1t) kc = fb / n1t;
    uint32_t chunksPerTap = (c1 + kc - 1) / kc;
    // L1 row slot: C1 blocks of wp positions x C0. With wp = n1t * 16 (one column tile) the k-blocks of one chunk
    // are one run of fractals: one LoadData per chunk
    uint32_t wp = (colTiles == 1 && n1t * 16 >= w) ? n1t * 16 : w;
    uint64_t slotElems = (static_cast<uint64_t>(c1 - 1) * wp + colTiles * n1t * 16 + kw - 1) * C0;
    if (slotElems < static_cast<uint64_t>(c1) * wp * C0) slotElems = static_cast<uint64_t>(c1) * wp * C0;
    // L1: the whole weight (K blocks + the bias block, m1 fractals each, + one "ones" fractal) and kh input rows
    uint64_t wElems = (static_cast<uint64_t>(kh) * kw * c1 + 1) * m1 * 128 + 128;
    if ((wElems + kh * slotElems) * sizeof(float) > l1) {
        std::printf("Conv2dMishMishCustom: weight (%llu B) + %u input rows (%llu B) exceed L1\n",
                    (unsigned long long)(wElems * 4), kh, (unsigned long long)(kh * slotElems * 4));
        return ge::GRAPH_FAILED;
    }
    uint32_t wAl = (w + C0 - 1) / C0 * C0, kk = kh * kw;
    if (C0 * wAl > 8192 || kk > 64) {
        std::printf("Conv2dMishMishCustom: rows of %u or kernels of %u taps are beyond this prototype\n", w, kk);
        return ge::GRAPH_FAILED;
    }
    // UB: the conversion queues (four input pieces, two output pieces, the Gather table), then the epilogue's
    // four tiles (two y tiles computed in place, one scratch, one of 1.0)
    uint32_t pitch = (C0 * kk + 7) / 8 * 8;
    uint32_t pin = C0 * wAl > 16 * pitch ? C0 * wAl : 16 * pitch, pout = C0 * w > kk * 128 ? C0 * w : kk * 128;
    uint64_t prepBytes = (4ULL * pin + 2ULL * pout + pout) * 4;
    uint64_t tileBytes = ub > prepBytes + 2048 ? (ub - prepBytes - 2048) / 4 : 0;
    uint32_t tile = static_cast<uint32_t>(tileBytes / 4 / 64 * 64);
    if (tile < 1024) {
        std::printf("Conv2dMishMishCustom: UB too small for the vector tiles\n");
        return ge::GRAPH_FAILED;
    }
    uint32_t c1PerPiece = 1;   // a conversion piece: one C0-block of channels of one input row
    uint32_t rows = n * oh, aic = platform.GetCoreNumAic();
    uint32_t blocks = rows < aic ? rows : aic;

    Conv2dMishMishCustomTilingData tiling;
    tiling.set_n(n);
    tiling.set_c(c);
    tiling.set_h(h);
    tiling.set_w(w);
    tiling.set_oc(oc);
    tiling.set_kh(kh);
    tiling.set_kw(kw);
    tiling.set_oh(oh);
    tiling.set_ow(ow);
    tiling.set_c1(c1);
    tiling.set_m1(m1);
    tiling.set_n1t(n1t);
    tiling.set_colTiles(colTiles);
    tiling.set_kc(kc);
    tiling.set_chunksPerTap(chunksPerTap);
    tiling.set_wp(wp);
    tiling.set_slotElems(static_cast<uint32_t>(slotElems));
    tiling.set_blocks(blocks);
    tiling.set_groupRows(GROUP_ROWS);
    tiling.set_tile(tile);
    tiling.set_c1PerPiece(c1PerPiece);
    // each block's input-row list: per image its output rows touch, those rows' input rows (+ kh - 1)
    uint32_t maxEntries = 0;
    for (uint32_t b = 0; b < blocks; ++b) {
        uint64_t g0 = static_cast<uint64_t>(rows) * b / blocks, g1 = static_cast<uint64_t>(rows) * (b + 1) / blocks;
        uint32_t len = 0;
        for (uint64_t g = g0; g < g1;) {
            uint64_t segEnd = (g / oh + 1) * oh;
            if (segEnd > g1) segEnd = g1;
            len += static_cast<uint32_t>(segEnd - g) + kh - 1;
            g = segEnd;
        }
        if (len > maxEntries) maxEntries = len;
    }
    tiling.set_maxEntries(maxEntries);
    uint64_t xsElems = static_cast<uint64_t>(blocks) * maxEntries * c1 * w * C0;
    uint64_t wOffset = (xsElems + 63) / 64 * 64;
    tiling.set_wOffset(static_cast<uint32_t>(wOffset));
    tiling.set_wElems(static_cast<uint32_t>(wElems));

    context->SetBlockDim(blocks);   // MIX 1:2: blocks cube cores, 2 * blocks vector cores
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize() + static_cast<size_t>((wOffset + wElems) * sizeof(float));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Conv2dMishMishCustom : public OpDef {
public:
    explicit Conv2dMishMishCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("conv_weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("conv_bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::Conv2dMishMishCustomTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Conv2dMishMishCustom);
}  // namespace ops
