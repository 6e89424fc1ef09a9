// kgen AscendC CPU emulator -- intra-core pipe synchronisation and GM atomics.
//
// Documented rules followed:
//  * PipeBarrier<pipe>() orders instructions of one pipe; SetFlag<HardEvent::X_Y>(id) /
//    WaitFlag<HardEvent::X_Y>(id) make pipe Y wait for pipe X. The emulator executes every
//    instruction in program order, so these never change results; they are traced for the
//    performance model.
//  * A WaitFlag with no matching earlier SetFlag (same event and id) waits forever on
//    hardware: reported as `waitflag-deadlock`.
//  * SetAtomicAdd/Max/Min<T>() make following UB->GM copies of this core combine with GM
//    (read-modify-write, atomic across cores) until SetAtomicNone().
//
// @api PipeBarrier SetFlag WaitFlag pipe_t event_t SetAtomicAdd SetAtomicMax SetAtomicMin SetAtomicNone SetAtomicType
#pragma once
#include <map>

#include "kgen_sim/pipe.h"

enum pipe_t : uint8_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4, PIPE_MTE5, PIPE_V2, PIPE_FIX };
enum event_t : uint8_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

namespace kgen {

inline kgen::Pipe to_pipe(pipe_t p) {
    switch (p) {
        case PIPE_S: return Pipe::S;
        case PIPE_V: return Pipe::V;
        case PIPE_M: return Pipe::M;
        case PIPE_MTE1: return Pipe::MTE1;
        case PIPE_MTE2: return Pipe::MTE2;
        case PIPE_MTE3: return Pipe::MTE3;
        case PIPE_FIX: return Pipe::FIX;
        default: return Pipe::ALL;
    }
}

/// Outstanding SetFlag counts of the calling core, per (event, id).
inline std::map<int, int>& flag_counts() {
    static thread_local std::map<int, int> counts;
    static thread_local CoreContext* owner = nullptr;
    if (owner != tls_core) { counts.clear(); owner = tls_core; }
    return counts;
}

}  // namespace kgen

namespace AscendC {

template <pipe_t pipe>
inline void PipeBarrier() { kgen::trace("PipeBarrier", kgen::to_pipe(pipe), 0, 0, 3, pipe); }

template <HardEvent event>
inline void SetFlag(int32_t eventID) {
    ++kgen::flag_counts()[static_cast<int>(event) * 64 + eventID];
    kgen::trace("SetFlag", kgen::Pipe::S, 0, 0, 1, static_cast<int>(event) * 64 + eventID);
}
template <HardEvent event>
inline void WaitFlag(int32_t eventID) {
    int& n = kgen::flag_counts()[static_cast<int>(event) * 64 + eventID];
    if (n <= 0)
        kgen::fail("waitflag-deadlock", "WaitFlag(event %d, id %d) without a matching SetFlag before it: the hardware would wait "
                   "forever", static_cast<int>(event), eventID);
    --n;
    kgen::trace("WaitFlag", kgen::Pipe::S, 0, 0, 2, static_cast<int>(event) * 64 + eventID);
}

template <typename T> inline void SetAtomicType() { kgen::core().atomic_dtype = sizeof(T); }
template <typename T> inline void SetAtomicAdd() { kgen::core().atomic_mode = 1; kgen::core().atomic_dtype = sizeof(T); }
template <typename T> inline void SetAtomicMax() { kgen::core().atomic_mode = 2; kgen::core().atomic_dtype = sizeof(T); }
template <typename T> inline void SetAtomicMin() { kgen::core().atomic_mode = 3; kgen::core().atomic_dtype = sizeof(T); }
inline void SetAtomicNone() { kgen::core().atomic_mode = 0; }

}  // namespace AscendC

// Low-level intrinsic spellings used by some kernels.
inline void pipe_barrier(pipe_t p) { kgen::trace("PipeBarrier", kgen::to_pipe(p), 0, 0, 3, p); }
inline void set_flag(pipe_t, pipe_t, event_t) {}
inline void wait_flag(pipe_t, pipe_t, event_t) {}
