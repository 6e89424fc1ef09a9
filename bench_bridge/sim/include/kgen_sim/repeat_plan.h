// kgen AscendC CPU emulator -- which elements a mask/repeat instruction computes.
//
// Shared by the Cast and Compare/Select families. Rules followed:
//  * isSetMask = true: the mask argument (normal count or 2 x 64-bit bit mask) applies to every
//    repeat, `repeatTime` repeats are issued (0 = no operation).
//  * isSetMask = false: the vector mask register (SetVectorMask) applies. In normal mode it
//    is a bit mask; in counter mode (SetMaskCount) it holds the total number of elements, the
//    repeat count follows from it and `repeatTime` is ignored, and only the first `total`
//    elements (in repeat order) are computed.
#pragma once
#include <cstdint>
#include <limits>

#include "kgen_sim/vec_engine.h"

namespace kgen {

struct RepeatPlan {
    MaskSpec mask;
    uint32_t repeat = 0;
    uint64_t limit = std::numeric_limits<uint64_t>::max();  // counter mode: total elements
};

inline RepeatPlan plan_from_register(uint32_t per_rep, uint32_t repeat) {
    CoreContext& c = core();
    RepeatPlan p;
    if (c.mask_counter_mode) {
        p.limit = c.mask[0];
        p.repeat = static_cast<uint32_t>((p.limit + per_rep - 1) / per_rep);
        p.mask.bits = false;
        p.mask.count = per_rep;
        return p;
    }
    p.repeat = repeat;
    p.mask.bits = true;
    p.mask.lo = c.mask[0];
    p.mask.hi = per_rep > 64 ? c.mask[1] : 0;
    if (per_rep < 64) p.mask.lo &= (1ull << per_rep) - 1;
    return p;
}

/// Plan for a call with an explicit mask (normal count or bit array) or, when !set_mask, the register.
template <typename M>
inline RepeatPlan make_plan(const char* api, M mask, uint32_t per_rep, uint32_t repeat, bool set_mask) {
    if (!set_mask) return plan_from_register(per_rep, repeat);
    RepeatPlan p;
    if constexpr (std::is_pointer_v<M>) p.mask = bit_mask(api, mask, per_rep);
    else p.mask = normal_mask(api, static_cast<uint64_t>(mask), per_rep);
    p.repeat = repeat;
    return p;
}

/// Run body(r, i) for every element the plan enables, in repeat order.
template <typename Body>
inline void walk(const RepeatPlan& p, uint32_t per_rep, Body body) {
    for (uint32_t r = 0; r < p.repeat; ++r)
        for (uint32_t i = 0; i < per_rep; ++i) {
            if (uint64_t(r) * per_rep + i >= p.limit) return;
            if (p.mask.on(i)) body(r, i);
        }
}

}  // namespace kgen
