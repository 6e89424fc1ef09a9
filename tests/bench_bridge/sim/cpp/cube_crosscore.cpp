// CrossCoreSetFlag / CrossCoreWaitFlag between the cores of MIX, vector-only and cube-only launches,
// driven by tests/bench_bridge/sim/test_cube_crosscore.py. Kernels write what each core saw to GM with SetValue;
// lines that break a rule carry a marker comment the test looks for.
#include <chrono>
#include <thread>

#include "kgen_test_io.h"

using namespace AscendC;

static GlobalTensor<int32_t> gi(GM_ADDR p, uint64_t n) {
    GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t*)p, n);
    return g;
}
static void pause_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

template <typename K>
static void run(K kernel, uint32_t blocks, size_t n) {
    kt::Dev<int32_t> out(std::vector<int32_t>(n, 0));
    kernel<<<blocks, nullptr, nullptr>>>(out.gm());
    kt::save("out", out.host());
}

// ---- mode 2 both ways: out[16 * b + ...] per block ----------------------------------------------------
// AIV sub v: records GM before the AIC's flag (slot 2 + v) and after it (slot 4 + v), then writes its
// own value (slot 6 + v) and tells the AIC; the AIC waits for both AIVs and sums their values (slot 8).
__global__ __mix__(1, 2) void mode2_kernel(GM_ADDR out) {
    auto g = gi(out, 64);
    const uint32_t b = get_block_idx();
    if ASCEND_IS_AIV {
        const uint32_t v = GetSubBlockIdx();
        g.SetValue(16 * b + 2 + v, g.GetValue(16 * b));  // before the wait: the AIC has not written yet
        CrossCoreSetFlag<2, PIPE_MTE3>(5);               // "I have looked"
        CrossCoreWaitFlag(3);
        g.SetValue(16 * b + 4 + v, g.GetValue(16 * b));  // after the wait: the AIC's write is visible
        if (v == 1) pause_ms(100);                      // the AIC must still wait for this AIV
        g.SetValue(16 * b + 6 + v, 10 * (v + 1) + b);
        CrossCoreSetFlag<2, PIPE_MTE3>(4);
    }
    if ASCEND_IS_AIC {
        CrossCoreWaitFlag(5);  // both AIVs have read slot 0
        pause_ms(100);         // an AIV whose wait did not block would read slot 0 now
        g.SetValue(16 * b, 1000 + b);
        CrossCoreSetFlag<2, PIPE_FIX>(3);
        CrossCoreWaitFlag(4);
        g.SetValue(16 * b + 8, g.GetValue(16 * b + 6) + g.GetValue(16 * b + 7));
    }
}
KT_CASE(mode2) { run(mode2_kernel, 3, 64); }

// ---- mode 0: every AIV adds to GM atomically, then block 0 reads the total ---------------------------
__global__ __mix__(1, 2) void mode0_mix_kernel(GM_ADDR out) {
    auto g = gi(out, 64);
    if ASCEND_IS_AIV {
        if (GetBlockIdx() == 5) pause_ms(100);
        __atomic_add_fetch(&g.GetPhyAddr()[0], int32_t(GetBlockIdx() + 1), __ATOMIC_SEQ_CST);
        CrossCoreSetFlag<0, PIPE_MTE3>(0);
        CrossCoreWaitFlag(0);
        g.SetValue(1 + GetBlockIdx(), g.GetValue(0));  // every AIV sees the full total
    }
    if ASCEND_IS_AIC {
        // mode 0 among the AICs, on the same flag id (separate counters per core type)
        if (get_block_idx() == 0) pause_ms(50);
        __atomic_add_fetch(&g.GetPhyAddr()[40], int32_t(100), __ATOMIC_SEQ_CST);
        CrossCoreSetFlag<0, PIPE_FIX>(0);
        CrossCoreWaitFlag(0);
        g.SetValue(41 + get_block_idx(), g.GetValue(40));
    }
}
KT_CASE(mode0_mix) { run(mode0_mix_kernel, 3, 64); }

// a plain vector kernel (no MIX declaration): mode 0 synchronises all its AIVs
__global__ __aicore__ void mode0_vector_kernel(GM_ADDR out) {
    auto g = gi(out, 64);
    if (GetBlockIdx() == 0) pause_ms(100);
    __atomic_add_fetch(&g.GetPhyAddr()[0], int32_t(GetBlockIdx() + 1), __ATOMIC_SEQ_CST);
    CrossCoreSetFlag<0, PIPE_MTE3>(1);
    CrossCoreWaitFlag(1);
    g.SetValue(1 + GetBlockIdx(), g.GetValue(0));
}
KT_CASE(mode0_vector) { run(mode0_vector_kernel, 4, 64); }

// ---- mode 1: the two AIVs of one AI Core --------------------------------------------------------------
__global__ __mix__(1, 2) void mode1_kernel(GM_ADDR out) {
    auto g = gi(out, 64);
    if ASCEND_IS_AIV {
        const uint32_t b = get_block_idx(), v = GetSubBlockIdx();
        if (v == 0) {
            pause_ms(100);
            g.SetValue(16 * b, 500 + b);
        }
        CrossCoreSetFlag<1, PIPE_MTE3>(2);
        CrossCoreWaitFlag(2);
        g.SetValue(16 * b + 1 + v, g.GetValue(16 * b));
    }
}
KT_CASE(mode1) { run(mode1_kernel, 2, 64); }

// ---- counting: three sets, three waits; 16 sets in flight are allowed ------------------------------------
__global__ __mix__(1, 2) void counts_kernel(GM_ADDR out) {
    auto g = gi(out, 64);
    if ASCEND_IS_AIC {
        for (int i = 0; i < 16; ++i) {
            g.SetValue(0, i + 1);
            CrossCoreSetFlag<2, PIPE_FIX>(7);  // no wait in between: up to 16 sets may be outstanding
        }
    }
    if ASCEND_IS_AIV {
        pause_ms(100);  // let all 16 sets pile up
        for (int i = 0; i < 16; ++i) CrossCoreWaitFlag(7);
        g.SetValue(1 + GetSubBlockIdx(), g.GetValue(0));
    }
}
KT_CASE(counts) { run(counts_kernel, 1, 64); }

__global__ __mix__(1, 2) void overflow_kernel(GM_ADDR out) {
    if ASCEND_IS_AIC {
        for (int i = 0; i < 17; ++i) CrossCoreSetFlag<2, PIPE_FIX>(2);  // @overflow
    }
}
KT_CASE(overflow) { run(overflow_kernel, 1, 64); }

// ---- deadlocks ------------------------------------------------------------------------------------------
__global__ __mix__(1, 2) void no_set_kernel(GM_ADDR out) {
    if ASCEND_IS_AIV {
        CrossCoreWaitFlag(9);  // @no-set
    }
}
KT_CASE(no_set) { run(no_set_kernel, 2, 64); }

// mode 2 from the AIVs needs both AIVs of the block: only AIV 0 sets, so the AIC waits forever
__global__ __mix__(1, 2) void half_set_kernel(GM_ADDR out) {
    if ASCEND_IS_AIV {
        if (GetSubBlockIdx() == 0) CrossCoreSetFlag<2, PIPE_MTE3>(6);
    }
    if ASCEND_IS_AIC {
        CrossCoreWaitFlag(6);  // @half-set
    }
}
KT_CASE(half_set) { run(half_set_kernel, 1, 64); }

// ---- rules ----------------------------------------------------------------------------------------------
__global__ __mix__(1, 2) void flag_id_kernel(GM_ADDR out) {
    auto g = gi(out, 64);
    if ASCEND_IS_AIC {
        g.SetValue(0, 77);
        CrossCoreSetFlag<2, PIPE_FIX>(19);  // @flag-id
    }
    if ASCEND_IS_AIV {
        CrossCoreWaitFlag(3);  // 19 & 15
        g.SetValue(1 + GetSubBlockIdx(), g.GetValue(0));
    }
}
KT_CASE(flag_id) { run(flag_id_kernel, 1, 64); }

__global__ __mix__(1, 2) void pipe_s_kernel(GM_ADDR out) {
    if ASCEND_IS_AIC {
        CrossCoreSetFlag<2, PIPE_S>(1);  // @pipe-s
    }
}
KT_CASE(pipe_s) { run(pipe_s_kernel, 1, 64); }

__global__ __mix__(1, 2) void mode4_kernel(GM_ADDR out) {
    if ASCEND_IS_AIV {
        CrossCoreSetFlag<4, PIPE_MTE3>(1);  // @mode4
    }
}
KT_CASE(mode4) { run(mode4_kernel, 1, 64); }

__global__ __aicore__ void mode2_in_vector_kernel(GM_ADDR out) {
    CrossCoreSetFlag<2, PIPE_MTE3>(1);  // @vector-mode2
}
KT_CASE(mode2_in_vector) { run(mode2_in_vector_kernel, 2, 64); }

__global__ __aicore__ void mode0_waves_kernel(GM_ADDR out) {
    CrossCoreSetFlag<0, PIPE_MTE3>(1);  // @waves
    CrossCoreWaitFlag(1);
}
KT_CASE(mode0_waves) { run(mode0_waves_kernel, 100, 64); }

// a templated MIX entry: GCC drops the section attribute of template instantiations, so the emulator learns
// the MIX type only when the AIVs would deadlock on the AIC's flag
template <int V>
__global__ __mix__(1, 2) void templated_mix_kernel(GM_ADDR out) {
    auto g = gi(out, 64);
    if ASCEND_IS_AIC {
        g.SetValue(0, V);
        CrossCoreSetFlag<2, PIPE_FIX>(1);
    }
    if ASCEND_IS_AIV {
        CrossCoreWaitFlag(1);  // @templated-wait
        g.SetValue(1 + GetSubBlockIdx(), g.GetValue(0));
    }
}
KT_CASE(templated_mix) { run(templated_mix_kernel<42>, 1, 64); }

KT_MAIN()
