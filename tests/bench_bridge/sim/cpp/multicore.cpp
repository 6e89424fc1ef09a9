// Multi-core behaviour: GM atomics from many blocks (DataCopy and DataCopyPad), SyncAll in its
// hard and workspace forms, tails when the length does not divide by the block count, waves
// when there are more blocks than cores, and the SyncAll deadlocks the hardware would hit.
#include <atomic>
#include <chrono>
#include <thread>

#include "kgen_test_io.h"

using namespace AscendC;

// ---- atomics: every block combines its row of x into the same GM vector z -------------------------
// mode: 0 add, 1 max, 2 min; copy: 0 DataCopy (n * sizeof(T) must be a multiple of 32), 1 DataCopyPad.
// After SetAtomicNone every block also writes its row plainly into its own slice of `plain`.
template <typename T>
__global__ __aicore__ void atomic_kernel(GM_ADDR x, GM_ADDR z, GM_ADDR plain, uint32_t n, int mode, int copy) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    uint32_t padded = (n * sizeof(T) + 31) / 32 * 32;
    pipe.InitBuffer(q, 1, padded);
    uint32_t b = (uint32_t)GetBlockIdx();
    GlobalTensor<T> xg, zg, pg;
    xg.SetGlobalBuffer((__gm__ T*)x + b * n, n);
    zg.SetGlobalBuffer((__gm__ T*)z, n);
    pg.SetGlobalBuffer((__gm__ T*)plain + b * n, n);
    LocalTensor<T> t = q.AllocTensor<T>();
    DataCopyExtParams row{1, (uint32_t)(n * sizeof(T)), 0, 0, 0};
    DataCopyPad(t, xg, row, DataCopyPadExtParams<T>{false, 0, 0, T(0)});
    q.EnQue(t);
    LocalTensor<T> u = q.DeQue<T>();
    if (mode == 0) SetAtomicAdd<T>();
    else if (mode == 1) SetAtomicMax<T>();
    else SetAtomicMin<T>();
    if (copy == 0) DataCopy(zg, u, n);
    else DataCopyPad(zg, u, row);
    SetAtomicNone();
    if (copy == 0) DataCopy(pg, u, n);
    else DataCopyPad(pg, u, row);
    q.FreeTensor(u);
}

template <typename T>
void run_atomic() {
    auto x = kt::load<T>("x");
    auto z0 = kt::load<T>("z0");
    uint32_t n = (uint32_t)z0.size(), blocks = (uint32_t)(x.size() / n);
    std::vector<T> garbage(x.size(), T(5));
    kt::Dev<T> dx(x), dz(z0), dp(garbage);
    atomic_kernel<T><<<blocks, nullptr, nullptr>>>(dx.gm(), dz.gm(), dp.gm(), n, (int)kt::param("mode"), (int)kt::param("copy"));
    kt::save("z", dz.host());
    kt::save("plain", dp.host());
}
KT_CASE(atomic_f32) { run_atomic<float>(); }
KT_CASE(atomic_f16) { run_atomic<half>(); }
KT_CASE(atomic_i32) { run_atomic<int32_t>(); }

// ---- SyncAll: partial sums with tails, combined after the barrier, over several rounds ------------
// Block b sums x[start, end) (ceil split, the last block takes the tail), scaled by (round + 1);
// writes it to its 32-byte slot of ws; SyncAll; every block adds all slots and writes the total to
// out[round * blocks + b]; SyncAll again so no slot is overwritten before everyone has read it.
// soft: 0 hard SyncAll, 1 SyncAll(gmWorkspace, ubWorkspace).
__global__ __aicore__ void partial_sum_kernel(GM_ADDR x, GM_ADDR ws, GM_ADDR sync, GM_ADDR out, uint32_t n, uint32_t rounds, int soft) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ubWs;
    uint32_t blocks = (uint32_t)GetBlockNum(), b = (uint32_t)GetBlockIdx();
    pipe.InitBuffer(ubWs, blocks * 32);
    LocalTensor<int32_t> ubw = ubWs.Get<int32_t>();
    GlobalTensor<int32_t> xg, wg, sg, og;
    xg.SetGlobalBuffer((__gm__ int32_t*)x, n);
    wg.SetGlobalBuffer((__gm__ int32_t*)ws, blocks * 8);
    sg.SetGlobalBuffer((__gm__ int32_t*)sync, blocks * 8);
    og.SetGlobalBuffer((__gm__ int32_t*)out, rounds * blocks);
    uint32_t per = (n + blocks - 1) / blocks;
    uint32_t start = b * per, end = start + per < n ? start + per : n;
    int32_t partial = 0;
    for (uint32_t i = start; i < end; ++i) partial += xg.GetValue(i);
    for (uint32_t r = 0; r < rounds; ++r) {
        wg.SetValue(b * 8, partial * (int32_t)(r + 1));
        if (soft) SyncAll(sg, ubw);
        else SyncAll();
        int32_t total = 0;
        for (uint32_t k = 0; k < blocks; ++k) total += wg.GetValue(k * 8);
        og.SetValue(r * blocks + b, total);
        if (soft) SyncAll(sg, ubw);
        else SyncAll();
    }
}
KT_CASE(partial_sum) {
    auto x = kt::load<int32_t>("x");
    uint32_t blocks = (uint32_t)kt::param("blocks"), rounds = (uint32_t)kt::param("rounds");
    std::vector<int32_t> zeros(blocks * 8, 0);
    kt::Dev<int32_t> dx(x), dw(zeros), ds(zeros), dout(rounds * blocks);
    partial_sum_kernel<<<blocks, nullptr, nullptr>>>(dx.gm(), dw.gm(), ds.gm(), dout.gm(), (uint32_t)x.size(), rounds,
                                                     (int)kt::param("soft"));
    kt::save("out", dout.host());
}

// ---- soft SyncAll among the first `used` blocks only; the other blocks do not take part ---------
__global__ __aicore__ void used_cores_kernel(GM_ADDR ws, GM_ADDR sync, GM_ADDR out, int32_t used) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ubWs;
    uint32_t blocks = (uint32_t)GetBlockNum(), b = (uint32_t)GetBlockIdx();
    pipe.InitBuffer(ubWs, blocks * 32);
    GlobalTensor<int32_t> wg, sg, og;
    wg.SetGlobalBuffer((__gm__ int32_t*)ws, blocks * 8);
    sg.SetGlobalBuffer((__gm__ int32_t*)sync, blocks * 8);
    og.SetGlobalBuffer((__gm__ int32_t*)out, blocks);
    if (b >= (uint32_t)used) {
        og.SetValue(b, -1);
        return;
    }
    wg.SetValue(b * 8, (int32_t)b + 1);
    SyncAll(sg, ubWs.Get<int32_t>(), used);  // @used-cores
    int32_t total = 0;
    for (int32_t k = 0; k < used; ++k) total += wg.GetValue(k * 8);
    og.SetValue(b, total);
}
KT_CASE(used_cores) {
    uint32_t blocks = (uint32_t)kt::param("blocks");
    std::vector<int32_t> zeros(blocks * 8, 0);
    kt::Dev<int32_t> dw(zeros), ds(zeros), dout(blocks);
    used_cores_kernel<<<blocks, nullptr, nullptr>>>(dw.gm(), ds.gm(), dout.gm(), (int32_t)kt::param("used"));
    kt::save("out", dout.host());
}

// ---- waves: more blocks than cores --------------------------------------------------------------
static std::atomic<int> g_running{0}, g_max_running{0};

// Every block records its index and the launch size, and how many blocks ran at the same time.
// sync: 0 none, 1 hard SyncAll, 2 soft SyncAll.
__global__ __aicore__ void waves_kernel(GM_ADDR out, GM_ADDR sync, int sync_mode) {
    int now = ++g_running;
    int seen = g_max_running.load();
    while (now > seen && !g_max_running.compare_exchange_weak(seen, now)) {}
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    GlobalTensor<int32_t> og;
    og.SetGlobalBuffer((__gm__ int32_t*)out, GetBlockNum());
    og.SetValue(GetBlockIdx(), (int32_t)(GetBlockIdx() + 1000 * GetBlockNum()));
    --g_running;
    if (sync_mode == 1) {
        SyncAll();  // @syncall-waves
    } else if (sync_mode == 2) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> ubWs;
        pipe.InitBuffer(ubWs, GetBlockNum() * 32);
        GlobalTensor<int32_t> sg;
        sg.SetGlobalBuffer((__gm__ int32_t*)sync, GetBlockNum() * 8);
        SyncAll(sg, ubWs.Get<int32_t>());  // @syncall-waves-soft
    }
}
KT_CASE(waves) {
    uint32_t blocks = (uint32_t)kt::param("blocks");
    std::vector<int32_t> zeros(blocks * 8, 0);
    kt::Dev<int32_t> dout(blocks), ds(zeros);
    waves_kernel<<<blocks, nullptr, nullptr>>>(dout.gm(), ds.gm(), (int)kt::param("sync"));
    kt::save("out", dout.host());
    kt::save("max_running", std::vector<int32_t>{g_max_running.load()});
}

// ---- SyncAll that some block never reaches -------------------------------------------------------
__global__ __aicore__ void early_exit_kernel(GM_ADDR sync, int soft) {
    if (GetBlockIdx() == 1) return;  // block 1 skips the barrier
    if (soft) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> ubWs;
        pipe.InitBuffer(ubWs, GetBlockNum() * 32);
        GlobalTensor<int32_t> sg;
        sg.SetGlobalBuffer((__gm__ int32_t*)sync, GetBlockNum() * 8);
        SyncAll(sg, ubWs.Get<int32_t>());  // @early-exit-soft
    } else {
        SyncAll();  // @early-exit-hard
    }
}
KT_CASE(early_exit) {
    std::vector<int32_t> zeros(4 * 8, 0);
    kt::Dev<int32_t> ds(zeros);
    early_exit_kernel<<<4, nullptr, nullptr>>>(ds.gm(), (int)kt::param("soft"));
}

// ---- soft SyncAll with a workspace smaller than GetBlockNum() * 32 bytes ---------------------------
__global__ __aicore__ void small_ws_kernel(GM_ADDR sync) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> ubWs;
    pipe.InitBuffer(ubWs, GetBlockNum() * 32);
    GlobalTensor<int32_t> sg;
    sg.SetGlobalBuffer((__gm__ int32_t*)sync, GetBlockNum());  // one int32 per block: too small
    SyncAll(sg, ubWs.Get<int32_t>());  // @small-ws
}
KT_CASE(small_ws) {
    std::vector<int32_t> zeros(4 * 8, 0);
    kt::Dev<int32_t> ds(zeros);
    small_ws_kernel<<<4, nullptr, nullptr>>>(ds.gm());
}

KT_MAIN()
