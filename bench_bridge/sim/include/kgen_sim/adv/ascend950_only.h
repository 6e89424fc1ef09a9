// kgen AscendC CPU emulator -- high-level math APIs (and the Interleave / DeInterleave data rearrangement
// of the basic API) that exist on Ascend 950 (dav-3510) only.
//
// Documented rule followed (the product tables of these API pages and of the official 10_math examples'
// README): BitwiseAnd, Clamp (tensor or scalar bounds), Fma, IsFinite, LogicalAnd, Rint and Where are
// supported on Ascend 950PR/950DT only, not on Atlas A2/A3 (dav-2201); so are Interleave and DeInterleave
// (their pages' product tables; the official interleave_pair example builds for dav-3510 only), and the
// pipe mutexes of the basic API (Mutex::Lock / Unlock, AllocMutexID, ReleaseMutexID; the mutex example is
// dav-3510 only too). They are declared here so that a
// dav-2201 kernel calling them fails to compile with that reason (`static_assert`), instead of a bare
// "is not a member of AscendC". On dav-2201 use ClampMax/ClampMin, Round, Select, Compare + Select, And.
// IsFinite is left undeclared: user kernels name their own classes IsFinite (an NPUKernelBench answer
// does, under `using namespace AscendC`), and a declaration here would make those names ambiguous.
//
// @api BitwiseAnd Clamp Fma LogicalAnd Rint Where Interleave DeInterleave Mutex MutexID AllocMutexID ReleaseMutexID
#pragma once
#include <cstdint>

namespace kgen {
namespace adv {
template <typename... Ts> inline constexpr bool ascend950_only_v = false;  // dependent: fires on use only
}  // namespace adv
}  // namespace kgen

#define KGEN_ASCEND950_ONLY(NAME, HINT)                                                                     \
    template <typename... Ts, typename... Args>                                                            \
    inline void NAME(Args&&...) {                                                                          \
        static_assert(::kgen::adv::ascend950_only_v<Ts..., Args...>,                                       \
                      #NAME " is an Ascend 950 (dav-3510) API, not available on dav-2201 (Atlas A2/A3); " HINT); \
    }

namespace AscendC {
KGEN_ASCEND950_ONLY(BitwiseAnd, "use And on uint16_t/int16_t tensors")
KGEN_ASCEND950_ONLY(Clamp, "use ClampMax and ClampMin with scalar bounds")
KGEN_ASCEND950_ONLY(Fma, "use Mul then Add, or MulAddDst / FusedMulAdd")
KGEN_ASCEND950_ONLY(LogicalAnd, "compare each input with 0 (Compare) and combine the masks with And")
KGEN_ASCEND950_ONLY(Rint, "use Round (round half to even) or Cast with CAST_RINT")
KGEN_ASCEND950_ONLY(Where, "use Select with a mask from Compare")
KGEN_ASCEND950_ONLY(Interleave, "use Gather with a tensor of byte offsets (or GatherMask for the reverse)")
KGEN_ASCEND950_ONLY(DeInterleave, "use GatherMask with pattern 1 (even elements) and 2 (odd elements)")
KGEN_ASCEND950_ONLY(ReleaseMutexID, "synchronise pipes with SetFlag / WaitFlag (or the queues' EnQue / DeQue)")
using MutexID = uint8_t;
template <typename... Ts>
inline MutexID AllocMutexID() {   // returns a MutexID so that the reason below is the first error
    static_assert(::kgen::adv::ascend950_only_v<Ts...>, "AllocMutexID is an Ascend 950 (dav-3510) API, not available on "
                  "dav-2201 (Atlas A2/A3); synchronise pipes with SetFlag / WaitFlag (or the queues' EnQue / DeQue)");
    return 0;
}
/// Pipe locks: Ascend 950 only.
struct Mutex {
    template <auto pipe, typename... Args>
    static void Lock(Args&&...) {
        static_assert(::kgen::adv::ascend950_only_v<Args...>, "Mutex::Lock is an Ascend 950 (dav-3510) API, not available "
                      "on dav-2201 (Atlas A2/A3); synchronise pipes with SetFlag / WaitFlag");
    }
    template <auto pipe, typename... Args>
    static void Unlock(Args&&...) {
        static_assert(::kgen::adv::ascend950_only_v<Args...>, "Mutex::Unlock is an Ascend 950 (dav-3510) API, not available "
                      "on dav-2201 (Atlas A2/A3); synchronise pipes with SetFlag / WaitFlag");
    }
};
}  // namespace AscendC

#undef KGEN_ASCEND950_ONLY
