// kgen test project: tiling of MixScale (a MIX kernel whose AIC and AIV halves are chosen at compile time
// from g_coreType). y = x * sum(w): the AIC of each block sums w, its two AIVs scale their slices of x.
#pragma once
#include <cstdint>

struct MixScaleTiling {
    uint32_t totalLength;
    uint32_t perAiv;    // elements per vector core (a multiple of 8)
    uint32_t weights;   // elements of w
};
