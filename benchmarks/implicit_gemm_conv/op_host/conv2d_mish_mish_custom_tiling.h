// Conv2dMishMishCustom tiling data: an implicit GEMM on the basic cube API (prototype).
// The vector cores (AIV) write the weight as L0A-ready fractals and, per block, the input rows its cube core needs as
// 5HD row records [C1][W][C0] into the workspace; each cube core (AIC) computes a range of output rows (weight
// [OC, K] x im2col [K, OW] per row, the im2col fractals loaded straight from the 5HD rows in L1) and Fixpipes them
// into y; its two AIVs apply mish(mish(.)) in place. See op_kernel/conv2d_mish_mish_custom.cpp for the layouts.
#ifndef CONV2D_MISH_MISH_CUSTOM_TILING_H
#define CONV2D_MISH_MISH_CUSTOM_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(Conv2dMishMishCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);            // images
TILING_DATA_FIELD_DEF(uint32_t, c);            // input channels
TILING_DATA_FIELD_DEF(uint32_t, h);            // input height
TILING_DATA_FIELD_DEF(uint32_t, w);            // input width
TILING_DATA_FIELD_DEF(uint32_t, oc);           // output channels
TILING_DATA_FIELD_DEF(uint32_t, kh);           // kernel height
TILING_DATA_FIELD_DEF(uint32_t, kw);           // kernel width
TILING_DATA_FIELD_DEF(uint32_t, oh);           // output height (stride 1, no padding, dilation 1)
TILING_DATA_FIELD_DEF(uint32_t, ow);           // output width
TILING_DATA_FIELD_DEF(uint32_t, c1);           // ceil(c / C0), C0 = 8 (fp32)
TILING_DATA_FIELD_DEF(uint32_t, m1);           // ceil(oc / 16): 16-row fractals of the weight (L0A) and result (L0C)
TILING_DATA_FIELD_DEF(uint32_t, n1t);          // 16-column fractals of one column tile of an output row
TILING_DATA_FIELD_DEF(uint32_t, colTiles);     // column tiles per output row: ceil(ow / (16 * n1t))
TILING_DATA_FIELD_DEF(uint32_t, kc);           // k-blocks (C0 channels of one tap) per K chunk
TILING_DATA_FIELD_DEF(uint32_t, chunksPerTap); // K chunks per tap (fh, fw): ceil(c1 / kc)
TILING_DATA_FIELD_DEF(uint32_t, wp);           // positions per C0-block of an L1 row slot (>= w)
TILING_DATA_FIELD_DEF(uint32_t, slotElems);    // floats per L1 row slot
TILING_DATA_FIELD_DEF(uint32_t, blocks);       // AI cores (block dim); each computes a range of output rows
TILING_DATA_FIELD_DEF(uint32_t, groupRows);    // output rows the cube hands to the vector cores at a time
TILING_DATA_FIELD_DEF(uint32_t, tile);         // epilogue vector tile, elements (float)
TILING_DATA_FIELD_DEF(uint32_t, c1PerPiece);   // C0-channel blocks of one 5HD conversion piece (1; kept for tuning)
TILING_DATA_FIELD_DEF(uint32_t, maxEntries);   // records of each block's private part of xs (its input-row list)
TILING_DATA_FIELD_DEF(uint32_t, wOffset);      // workspace: the weight fractals start here (floats)
TILING_DATA_FIELD_DEF(uint32_t, wElems);       // weight fractals + the bias k-block + one "ones" fractal (floats)
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(Conv2dMishMishCustom, Conv2dMishMishCustomTilingData)
}  // namespace optiling
#endif
