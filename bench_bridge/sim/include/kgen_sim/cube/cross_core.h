// kgen AscendC CPU emulator -- synchronisation between the cores of a launch (CrossCoreSetFlag /
// CrossCoreWaitFlag), dav-2201.
//
// Documented rules followed (AscendC CrossCoreSetFlag / CrossCoreWaitFlag and their "key features" page,
// Atlas A2):
//  * Every core (each AIC and each AIV) owns 16 flag counters, ids 0-15, all starting at 0. An id
//    outside 0-15 is cut to its low 4 bits by the hardware: reported as warning `crosscore-flag-id`.
//  * CrossCoreSetFlag<mode, pipe>(id) reports "done" to the scheduler; when every core a mode asks for
//    has reported (its n-th time), the scheduler adds 1 to counter `id` of each target core:
//      mode 0  all cores of the caller's type in the launch (all AIC, or all AIV): members = targets;
//      mode 1  the AIVs of the caller's AI Core (block): members = targets;
//      mode 2  from the AIC: member is the AIC, targets are the AIVs of its block; from an AIV: members
//              are the AIVs of the block, the target is the block's AIC.
//    Mode 4 (single AIC <-> AIV pairs) exists on Ascend 950 only: `crosscore-mode`, like any mode > 2.
//    pipe is the pipe whose earlier work must finish first; PIPE_S and PIPE_ALL are not allowed
//    (`crosscore-pipe`). The emulator runs each core's instructions in order, so all earlier work of
//    the caller is complete (and its GM writes visible) when the flag is raised.
//  * CrossCoreWaitFlag(id) blocks the caller until its counter `id` is non-zero, then takes 1 from it.
//    On dav-2201 the template arguments of CrossCoreWaitFlag (mode, pipe) have no effect. A wait that no
//    core can ever satisfy (every other core of the launch has returned or is itself blocked) hangs the
//    hardware: `crosscore-deadlock`, at the line of the wait.
//  * A counter holds at most 16 outstanding sets ("the counter of one flagId can be set at most 16
//    times"; the official Catlass library keeps up to 16 sets in flight with its reverse flags); the
//    17th set of a counter nobody has waited on is `crosscore-flag-overflow` (the hardware reports an
//    error and stops). Later docs word the range as 0-15; the emulator follows the 16-set rule.
//  * Modes 1 and 2 synchronise the cores inside one AI Core and need a MIX kernel (__mix__(1, 1) /
//    __mix__(1, 2), KERNEL_TYPE_MIX_AIC_1_1 / _1_2); in a launch without them: `crosscore-kernel-type`.
//    Mode 0 also works in vector-only and cube-only launches (all AIV / all AIC). Mode 0 needs every core
//    of the type resident at once: in a launch larger than the machine (run in waves) it would hang
//    (`crosscore-waves`).
//  * The kernel type of a `__mix__` / `__cube__` entry is known before the launch also where the entry is a
//    template (GCC drops section attributes on template instantiations): kgen sim build reads the
//    qualifier from the source and links it into the table of kernel entries (launch.h).
//  * DisableDmaAtomic() ends an atomic GM mode (the same as SetAtomicNone).
//
// @api CrossCoreSetFlag CrossCoreWaitFlag DisableDmaAtomic
#pragma once
#include <array>
#include <map>
#include <memory>
#include <vector>

#include "kgen_sim/launch.h"
#include "kgen_sim/sync.h"

namespace kgen {

inline constexpr uint32_t CROSS_CORE_FLAGS = 16;     // flag ids per core
inline constexpr int32_t CROSS_CORE_MAX_PENDING = 16;  // outstanding sets per counter

/// Counters and set tallies of one launch (guarded by LaunchShared::mu).
struct CrossCoreState {
    /// Counters per core, keyed by core_key().
    std::map<uint64_t, std::array<int32_t, CROSS_CORE_FLAGS>> counters;
    /// One synchronisation group's progress: how many sets each member has made, how many rounds
    /// (every member set once more) the scheduler has already delivered.
    struct Tally {
        std::vector<uint32_t> sets;
        uint32_t rounds = 0;
    };
    std::map<uint64_t, Tally> tallies;
    /// Cores blocked in CrossCoreWaitFlag and the flag each waits for.
    std::map<uint64_t, uint32_t> waiting;
    /// Waiting cores whose counter is still 0 (a core whose flag has arrived but that has not woken
    /// up yet is not stuck).
    uint32_t stuck() const {
        uint32_t n = 0;
        for (const auto& w : waiting) {
            auto it = counters.find(w.first);
            if (it == counters.end() || it->second[w.second] == 0) ++n;
        }
        return n;
    }
};

namespace xcore {

/// The calling core as the scheduler sees it.
struct CoreId {
    bool aic;
    uint32_t block;  // AI Core (raw block index)
    uint32_t sub;    // AIV index inside the block (0 for the AIC)
};
inline uint64_t core_key(bool aic, uint32_t block, uint32_t sub) {
    return (uint64_t(aic ? 1 : 0) << 48) | (uint64_t(block) << 8) | sub;
}
inline CoreId me() {
    const bool aic = tls_core_type == AscendC::AIC;
    const CoreContext& c = core();
    if (c.launch && c.launch->mix) return CoreId{aic, static_cast<uint32_t>(::block_idx), aic ? 0u : static_cast<uint32_t>(c.sub_block_idx)};
    return CoreId{aic, static_cast<uint32_t>(c.block_idx), 0u};
}

inline const char* mode_text(int mode) {
    return mode == 0 ? "mode 0 (all cores of one type)" : mode == 1 ? "mode 1 (the AIVs of one AI Core)" : "mode 2 (AIC <-> AIVs of one AI Core)";
}

/// The flag id the hardware uses: the low 4 bits, with a warning for ids outside 0-15.
inline uint32_t flag_index(uint16_t flagId, const char* api) {
    if (flagId >= CROSS_CORE_FLAGS)
        warn("crosscore-flag-id", "%s(%u): flag ids are 0-15 on dav-2201; the hardware keeps the low 4 bits and uses flag %u", api,
             flagId, flagId & 15u);
    return flagId & 15u;
}

inline CrossCoreState& state(LaunchShared& s) {
    if (!s.cross_core) s.cross_core = std::make_shared<CrossCoreState>();
    return *s.cross_core;
}

/// Add one to counter `f` of a core (lock held).
inline void bump(CrossCoreState& st, uint64_t target, uint32_t f, int mode) {
    auto& ctr = st.counters[target];
    if (ctr[f] >= CROSS_CORE_MAX_PENDING)
        fail("crosscore-flag-overflow", "CrossCoreSetFlag<%d>(%u): flag %u of the %s already holds %d sets nobody has waited on; the "
             "hardware counter overflows here (wait before setting again, e.g. with a reverse flag)", mode, f, f,
             (target >> 48) ? "AIC" : "AIV", CROSS_CORE_MAX_PENDING);
    ++ctr[f];
}

}  // namespace xcore
}  // namespace kgen

namespace AscendC {

template <uint8_t modeId, pipe_t pipe>
inline void CrossCoreSetFlag(uint16_t flagId) {
    using namespace kgen;
    const char* api = "CrossCoreSetFlag";
    if (modeId > 2)
        fail("crosscore-mode", "%s<%u>: dav-2201 has synchronisation modes 0, 1 and 2 (mode 4 is an Ascend 950 mode)", api, modeId);
    if (pipe == PIPE_S || pipe == PIPE_ALL)
        fail("crosscore-pipe", "%s<%u, %s>: the pipe must be the one whose work the flag waits for (PIPE_V, PIPE_M, PIPE_MTE1, "
             "PIPE_MTE2, PIPE_MTE3 or PIPE_FIX); PIPE_S and PIPE_ALL are not allowed", api, modeId,
             pipe == PIPE_S ? "PIPE_S" : "PIPE_ALL");
    const uint32_t f = xcore::flag_index(flagId, api);
    trace("CrossCoreSetFlag", to_pipe(pipe), 0, 0, 0, int32_t(modeId) * 16 + int32_t(f));
    CoreContext& c = core();
    LaunchShared* s = c.launch;
    if (!s) return;  // host code: a single core, nothing to notify
    const xcore::CoreId id = xcore::me();
    if (modeId != 0 && !s->mix)
        fail("crosscore-kernel-type", "%s<%u>: %s synchronises the cores inside one AI Core and needs a MIX kernel "
             "(__mix__(1, 2) / __mix__(1, 1), or KERNEL_TYPE_MIX_AIC_1_2 / _1_1); this launch runs %s cores only", api, modeId,
             xcore::mode_text(modeId), s->has_aic ? "cube (AIC)" : "vector (AIV)");
    if (modeId == 1 && id.aic)
        fail("crosscore-mode", "%s<1>: mode 1 synchronises the AIVs of one AI Core; it is called here on an AIC", api);
    if (modeId == 0 && s->waves)
        fail("crosscore-waves", "%s<0>: mode 0 waits for every core of the launch, but %u blocks do not fit the machine at once "
             "(they run in waves), so the hardware would hang", api, s->grid);
    std::lock_guard<std::mutex> lk(s->mu);
    CrossCoreState& st = xcore::state(*s);
    // members of the group that must all set, this core's index among them, and the cores that are told
    std::vector<uint64_t> targets;
    uint32_t members = 1, index = 0;
    uint64_t group = (uint64_t(modeId) << 56) | (uint64_t(f) << 50);
    const uint32_t aivs = s->aiv_per_block;
    if (modeId == 0) {
        group |= uint64_t(id.aic) << 49;
        if (id.aic) {
            members = s->grid;
            index = id.block;
            for (uint32_t b = 0; b < s->grid; ++b) targets.push_back(xcore::core_key(true, b, 0));
        } else if (s->mix) {
            members = s->grid * aivs;
            index = id.block * aivs + id.sub;
            for (uint32_t b = 0; b < s->grid; ++b)
                for (uint32_t v = 0; v < aivs; ++v) targets.push_back(xcore::core_key(false, b, v));
        } else {
            members = s->grid;
            index = id.block;
            for (uint32_t b = 0; b < s->grid; ++b) targets.push_back(xcore::core_key(false, b, 0));
        }
    } else {
        group |= uint64_t(id.aic) << 49 | id.block;
        if (modeId == 1 || !id.aic) {
            members = aivs;
            index = id.sub;
        }
        if (modeId == 1 || id.aic)
            for (uint32_t v = 0; v < aivs; ++v) targets.push_back(xcore::core_key(false, id.block, v));
        else
            targets.push_back(xcore::core_key(true, id.block, 0));
    }
    CrossCoreState::Tally& t = st.tallies[group];
    if (t.sets.size() != members) t.sets.assign(members, 0);
    ++t.sets[index];
    // the scheduler delivers one round when every member has set once more than it has delivered
    auto round_complete = [&t] {
        for (uint32_t v : t.sets)
            if (v <= t.rounds) return false;
        return true;
    };
    bool delivered = false;
    while (round_complete()) {
        ++t.rounds;
        for (uint64_t k : targets) xcore::bump(st, k, f, modeId);
        delivered = true;
    }
    if (delivered) s->cv.notify_all();
}

template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
inline void CrossCoreWaitFlag(uint16_t flagId) {
    using namespace kgen;
    const char* api = "CrossCoreWaitFlag";
    const uint32_t f = xcore::flag_index(flagId, api);
    trace("CrossCoreWaitFlag", Pipe::S, 0, 0, 0, int32_t(f));
    CoreContext& c = core();
    LaunchShared* s = c.launch;
    const xcore::CoreId id = xcore::me();
    if (!s) fail("crosscore-deadlock", "%s(%u) outside a kernel launch: no other core can set the flag", api, f);
    std::unique_lock<std::mutex> lk(s->mu);
    CrossCoreState& st = xcore::state(*s);
    const uint64_t key = xcore::core_key(id.aic, id.block, id.sub);
    int32_t& ctr = st.counters[key][f];
    ++s->flag_waiters;
    st.waiting[key] = f;
    for (;;) {
        if (ctr > 0) {
            --ctr;
            --s->flag_waiters;
            st.waiting.erase(key);
            return;
        }
        // cores still able to run: not returned, not stuck in a wait, not waiting in a SyncAll barrier
        const uint32_t blocked = st.stuck() + s->arrived;
        if (s->wave_exited + blocked >= s->wave_threads) {
            --s->flag_waiters;
            st.waiting.erase(key);
            lk.unlock();
            fail("crosscore-deadlock", "%s(%u) on the %s of block %u waits for a flag that no core can set any more (every other core "
                 "has returned or is waiting too): the hardware would hang here", api, f, id.aic ? "AIC" : "AIV", id.block);
        }
        s->cv.wait(lk);
    }
}

/// Ends the atomic mode of GM writes (SetAtomicAdd/Max/Min): later copies overwrite again.
inline void DisableDmaAtomic() { SetAtomicNone(); }

}  // namespace AscendC
