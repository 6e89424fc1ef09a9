// kgen AscendC CPU emulator -- memory without TPipe: LocalMemAllocator and InitSocState.
//
// Documented rules followed:
//  * LocalMemAllocator<Hardware::UB> hands out UB tensors from address 0 upwards, each start
//    rounded up to 32 bytes: Alloc<T, N>() / Alloc<T>(n) / Alloc<pos, T, N>() / Alloc<pos, T>(n).
//    Asking for more than the Unified Buffer holds is `ub-overflow`. It does not know about TPipe
//    buffers: mixing both in one kernel is the user's responsibility, as on hardware.
//  * LocalMemAllocator<Hardware::L1 / L0A / L0B / L0C / BIAS / FIXBUF> hands out tensors of the
//    cube unit's memories the same way (tensor.h mem_of): the default position is A1, A2, B2, CO1,
//    C2, C2PIPE2GM; starts are rounded up to the memory's alignment (32 B in L1, a 512-byte fractal in
//    L0A/L0B, 64 B in L0C/BT/FB); running past the memory is `l1-overflow`, `l0a-overflow`, ...
//  * InitSocState() puts the core's state registers back to their defaults: no atomic mode,
//    normal mask mode with a full mask, DEQSCALE 1.0.
//  * PopStackBuffer<T, pos>(LocalTensor<T>& popLocal) hands out, as one tensor, all of the position's
//    memory that TPipe has not handed out yet: from the end of the last InitBuffer (rounded up to 32
//    bytes) to the end of the Unified Buffer; pos must be a UB position (VECIN/VECOUT/VECCALC/LCM).
//    It returns true; when nothing is left it returns false (`popstack-no-room` warning) and leaves
//    popLocal alone. It is the space the high-level APIs take when no sharedTmpBuffer is passed.
//
// @api LocalMemAllocator Hardware Alloc GetCurAddr InitSocState ascendc_assert PopStackBuffer
#pragma once
#include "kgen_sim/cast.h"
#include "kgen_sim/tensor.h"

namespace AscendC {

enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

template <Hardware hw = Hardware::UB>
class LocalMemAllocator {
public:
    template <typename T, uint32_t N>
    LocalTensor<T> Alloc() { return take<T>(default_pos(), N); }
    template <TPosition pos, typename T, uint32_t N>
    LocalTensor<T> Alloc() { return take<T>(pos, N); }
    template <typename T>
    LocalTensor<T> Alloc(uint32_t n) { return take<T>(default_pos(), n); }
    template <TPosition pos, typename T>
    LocalTensor<T> Alloc(uint32_t n) { return take<T>(pos, n); }
    uint32_t GetCurAddr() const { return cur_; }

private:
    static constexpr TPosition default_pos() {
        return hw == Hardware::L1 ? TPosition::A1 : hw == Hardware::L0A ? TPosition::A2 : hw == Hardware::L0B ? TPosition::B2
             : hw == Hardware::L0C ? TPosition::CO1 : hw == Hardware::BIAS ? TPosition::C2
             : hw == Hardware::FIXBUF ? TPosition::C2PIPE2GM : TPosition::VECCALC;
    }
    template <typename T>
    LocalTensor<T> take(TPosition pos, uint32_t n) {
        if constexpr (hw != Hardware::UB) {
            const kgen::Mem m = mem_of(default_pos());
            const uint64_t bytes = kgen::bytes_of<T>(n);
            if (cur_ + bytes > kgen::mem_size(m))
                kgen::fail(kgen::mem_overflow_code(m), "LocalMemAllocator::Alloc of %llu bytes at %s address %u does not fit in the %u-byte %s",
                           (unsigned long long)bytes, kgen::mem_name(m), cur_, kgen::mem_size(m), kgen::mem_name(m));
            LocalTensor<T> t = LocalTensor<T>::make(reinterpret_cast<T*>(kgen::core().mem_base(m) + cur_), n, nullptr, pos, m);
            const uint32_t a = kgen::mem_align(m);
            cur_ = static_cast<uint32_t>((cur_ + bytes + a - 1) / a * a);
            return t;
        }
        uint64_t bytes = kgen::bytes_of<T>(n);
        if (cur_ + bytes > kgen::UB_USABLE)
            kgen::fail("ub-overflow", "LocalMemAllocator::Alloc of %llu bytes at UB address %u does not fit in the %u usable bytes",
                       (unsigned long long)bytes, cur_, kgen::UB_USABLE);
        LocalTensor<T> t(pos, cur_, n);
        cur_ = static_cast<uint32_t>((cur_ + bytes + kgen::ONE_BLK - 1) / kgen::ONE_BLK * kgen::ONE_BLK);
        if (cur_ > kgen::core().ub_used) kgen::core().ub_used = cur_;
        return t;
    }
    uint32_t cur_ = 0;
};

/// All UB that TPipe has not handed out, as one tensor of the given position.
template <typename T, TPosition pos>
inline bool PopStackBuffer(LocalTensor<T>& popLocal) {
    static_assert(mem_of(pos) == kgen::Mem::UB, "PopStackBuffer: pos must be a Unified Buffer position (VECIN, VECOUT, VECCALC, LCM)");
    const uint32_t start = (kgen::core().ub_used + kgen::ONE_BLK - 1) / kgen::ONE_BLK * kgen::ONE_BLK;
    if (start + sizeof(T) > kgen::UB_USABLE) {
        kgen::warn("popstack-no-room", "PopStackBuffer: TPipe has handed out all %u bytes of the Unified Buffer; nothing is left to pop",
                   kgen::UB_USABLE);
        return false;
    }
    popLocal = LocalTensor<T>(pos, start, static_cast<uint32_t>((kgen::UB_USABLE - start) / sizeof(T)));
    return true;
}

/// Reset the core's state registers to their defaults.
inline void InitSocState() {
    kgen::CoreContext& c = kgen::core();
    c.atomic_mode = 0;
    c.mask_counter_mode = false;
    c.mask[0] = c.mask[1] = ~0ull;
    kgen::cast_regs().deq_scale = 1.0f;
}

}  // namespace AscendC

#define ascendc_assert(cond, ...)                                                              \
    do {                                                                                       \
        if (!(cond)) kgen::fail("assert-failed", "ascendc_assert(%s) failed", #cond);          \
    } while (0)
