// kgen AscendC CPU emulator -- kernel launch: blocks as concurrent cores sharing GM.
//
// Documented rules followed:
//  * `kernel<<<numBlocks, l2ctrl, stream>>>(args)` runs the kernel once per block; each block
//    sees its own GetBlockIdx() in [0, numBlocks) and GetBlockNum() == numBlocks.
//  * Blocks run concurrently on the cores and share global memory, so SyncAll and GM
//    atomics behave as on hardware. Launches with more blocks than cores run in waves of
//    `cores` blocks; a SyncAll in such a launch would deadlock on hardware and is reported.
//  * Each core has its own Unified Buffer; nothing in UB survives from one block to the next.
//  * SyncAll waiting for a block that already returned from the kernel hangs the hardware
//    (`syncall-deadlock`). The soft SyncAll(gmWorkspace, ubWorkspace, usedCores) needs
//    GetBlockNum() * 32 bytes in both workspaces, the GM one zeroed, usedCores <= GetBlockNum().
//  * Scalar integer division by zero in a kernel does not trap the AI Core (see finish_division):
//    warning `scalar-div-zero`, quotient 0, remainder the dividend.
//  * Core types (dav-2201 separates cube (AIC) and vector (AIV) cores, 1 : 2): a kernel runs on vector
//    cores unless it declares otherwise. KERNEL_TYPE_AIC_ONLY (or a Matmul in an ASCENDC_CUBE_ONLY
//    build) runs numBlocks AIC cores; KERNEL_TYPE_MIX_AIC_1_2 (or a Matmul registered in a vector
//    kernel) runs numBlocks AIC + 2 * numBlocks AIV cores, MIX_AIC_1_1 one AIV per AIC. On an AIV of a
//    MIX launch GetBlockIdx() = block * ration + GetSubBlockIdx(), GetTaskRation() = GetSubBlockNum() =
//    ration (2 or 1); GetBlockNum() = numBlocks everywhere; g_coreType / ASCEND_IS_AIC / ASCEND_IS_AIV
//    tell the core's type. A `__cube__` entry is AIC_ONLY and `__mix__(1, 2)` / `__mix__(1, 1)` MIX
//    (kernel-launch programs); otherwise the emulator learns the type when the kernel first declares it
//    and then restarts the launch with those cores (the declaration precedes any GM write in documented
//    kernels), or from the build's table of kernel entries (below).
//  * Two-pass builds: bisheng compiles a kernel once per core type, g_coreType a constant in each pass.
//    `kgen sim build` does the same for units whose source names the core type (compiler.py), and links
//    `kgen_core_pass_table`: for each entry, its AIC-pass copy and the kind its source declares. The
//    launcher runs AIC cores on the AIC copy and AIV cores on the entry it was given.
// The `<<<>>>` syntax is rewritten by `kgen sim build` into a call of kgen::launch.
//
// @api GetBlockIdx GetBlockNum GetSubBlockIdx GetSubBlockNum GetTaskRation GetSystemCycle SyncAll
#pragma once
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <memory>
#include <set>
#include <thread>

#include "kgen_sim/diag.h"
#include "kgen_sim/tensor.h"

/// Kernel built-in variables of the CANN kernel language: this core's block index and the launch's
/// block count (also reachable as AscendC::GetBlockIdx()/GetBlockNum()).
inline thread_local int64_t block_idx = 0;
inline thread_local int64_t block_num = 1;

// The kernel-entry qualifiers __cube__ / __mix__(c, v) (core.h) place the entry in a named section;
// GNU ld defines __start_/__stop_ symbols for such sections, by which the launcher recognises them.
extern "C" {
extern char __start_kgen_cube_kernels[] __attribute__((weak));
extern char __stop_kgen_cube_kernels[] __attribute__((weak));
extern char __start_kgen_mix_1_2[] __attribute__((weak));
extern char __stop_kgen_mix_1_2[] __attribute__((weak));
extern char __start_kgen_mix_1_1[] __attribute__((weak));
extern char __stop_kgen_mix_1_1[] __attribute__((weak));
extern char __start_kgen_mix_1_0[] __attribute__((weak));
extern char __stop_kgen_mix_1_0[] __attribute__((weak));
}

namespace AscendC {
/// Core types as g_coreType reports them.
inline constexpr int32_t MIX = 0, AIC = 1, AIV = 2;
inline constexpr int32_t MIX_TYPE = MIX, AIC_TYPE = AIC, AIV_TYPE = AIV;
}  // namespace AscendC

namespace kgen {
/// The type of the calling core (AscendC::AIC or AscendC::AIV), set by the launcher for every core. The
/// kernel-facing name `g_coreType` is declared in kgen_sim/core_type.h, outside the precompiled prelude:
/// a compile-time constant in the per-core-type passes of a two-pass build, this variable otherwise.
/// Emulator headers inside the prelude read this variable, never `g_coreType`.
inline thread_local int32_t tls_core_type = AscendC::AIV;

/// Which cores a launch runs (see the header comment).
enum class KernelKind : int { Unknown = 0, Aiv, Aic, Mix11, Mix12 };
/// Thrown by the first core-type declaration inside a launch of unknown type: the launch restarts.
struct KernelRestart { KernelKind kind; };
/// Thrown to end the calling core's kernel normally (the AIC side of a Matmul in a MIX launch).
struct KernelReturn { };
inline thread_local KernelKind tls_launch_kind = KernelKind::Unknown;
inline thread_local int64_t tls_task_ration = 1;
/// The core type a kernel entry's qualifier (__cube__, __mix__) fixed, or Unknown.
template <typename F>
inline KernelKind kind_of_entry(F* fn) {
    const char* p = reinterpret_cast<const char*>(fn);
    auto in = [p](const char* a, const char* b) { return a && b && p >= a && p < b; };
    if (in(__start_kgen_cube_kernels, __stop_kgen_cube_kernels) || in(__start_kgen_mix_1_0, __stop_kgen_mix_1_0))
        return KernelKind::Aic;
    if (in(__start_kgen_mix_1_2, __stop_kgen_mix_1_2)) return KernelKind::Mix12;
    if (in(__start_kgen_mix_1_1, __stop_kgen_mix_1_1)) return KernelKind::Mix11;
    return KernelKind::Unknown;
}
/// Two-pass builds (bisheng compiles a kernel once per core type, `g_coreType` a constant in each pass):
/// `kgen sim build` compiles a translation unit whose source names the core type twice, as the AIV pass
/// (the copy the host code calls) and the AIC pass (its global symbols renamed), and links a table of
/// {AIV-pass entry, AIC-pass entry or null, kernel kind the source declares (KernelKind) or 0} rows, ended by a
/// null row. The launcher runs each AIC core on the AIC pass of the entry it is given. Absent (weak) when no
/// translation unit needed it.
extern "C" {
struct kgen_core_pass { const void* primary; const void* aic; int32_t kind; };
extern const kgen_core_pass kgen_core_pass_table[] __attribute__((weak));
}
/// The passes of a kernel entry: its AIC-pass copy (null: a one-pass build) and the kind its source declares.
struct CorePass {
    const void* aic = nullptr;
    KernelKind kind = KernelKind::Unknown;
};
inline CorePass core_pass_of(const void* entry) {
    if (!kgen_core_pass_table) return {};
    for (const kgen_core_pass* e = kgen_core_pass_table; e->primary; ++e)
        if (e->primary == entry) return {e->aic, static_cast<KernelKind>(e->kind)};
    return {};
}
/// A kernel states which cores it needs; kinds other than vector-only restart an undeclared launch.
inline void declare_kernel_kind(KernelKind k) {
    if (!tls_core || !tls_core->launch || tls_launch_kind != KernelKind::Unknown) return;
    if (k == KernelKind::Aiv || k == KernelKind::Unknown) return;
    throw KernelRestart{k};
}

struct CrossCoreState;  // cube/cross_core.h: flag counters of CrossCoreSetFlag / CrossCoreWaitFlag

struct LaunchShared {
    uint32_t block_num = 1;
    bool waves = false;
    // The shape of the launch, for cross-core synchronisation (cube/cross_core.h): numBlocks, AIVs per
    // block (0 in cube-only launches), whether each block has an AIC, whether the kernel is MIX.
    uint32_t grid = 1;
    uint32_t aiv_per_block = 1;
    bool has_aic = false;
    bool mix = false;
    std::shared_ptr<CrossCoreState> cross_core;  // created by the first CrossCoreSetFlag/WaitFlag
    uint32_t wave_threads = 0;   // cores running in the current wave
    uint32_t wave_exited = 0;    // of those, cores whose kernel returned
    uint32_t flag_waiters = 0;   // cores blocked in CrossCoreWaitFlag
    std::mutex mu;
    std::condition_variable cv;
    uint32_t arrived = 0;
    uint64_t phase = 0;
    uint32_t finished = 0;            // blocks whose kernel returned
    std::vector<uint8_t> done;        // per block: kernel returned

    /// All-block barrier (SyncAll). A block that ends while others wait here would hang the
    /// hardware: reported as `syncall-deadlock` by a waiting block.
    void barrier() {
        std::unique_lock<std::mutex> lk(mu);
        uint64_t my = phase;
        if (++arrived == block_num) {
            arrived = 0;
            ++phase;
            cv.notify_all();
            return;
        }
        if (flag_waiters) cv.notify_all();  // a core blocked in CrossCoreWaitFlag re-checks for a deadlock
        cv.wait(lk, [&] { return phase != my || arrived + finished >= block_num; });
        if (phase == my) {
            lk.unlock();
            fail("syncall-deadlock", "SyncAll waits for %u block(s) that already returned from the kernel without reaching "
                 "it: the hardware would hang here", block_num - arrived);
        }
    }
    /// Called when a block's kernel returns.
    void block_done(uint32_t b) {
        std::lock_guard<std::mutex> g(mu);
        ++finished;
        if (b < done.size()) done[b] = 1;
        cv.notify_all();
    }
    /// Called when any core's kernel ends (AIC and AIV alike).
    void core_exit() {
        std::lock_guard<std::mutex> g(mu);
        ++wave_exited;
        cv.notify_all();
    }
    bool is_done(uint32_t b) {
        std::lock_guard<std::mutex> g(mu);
        return b < done.size() && done[b];
    }
};

inline int& launch_counter() { static int n = 0; return n; }

/// Append this core's trace to KGEN_TRACE_FILE as one JSON line.
inline void flush_trace(int launch_id, const char* kernel_name) {
    const char* path = std::getenv("KGEN_TRACE_FILE");
    CoreContext& c = core();
    if (!path) return;
    static std::mutex mu;
    std::lock_guard<std::mutex> g(mu);
    FILE* f = fopen(path, "a");
    if (!f) return;
    fprintf(f, "{\"launch\":%d,\"kernel\":\"%s\",\"block\":%lld,\"ub_bytes\":%u,\"events\":[", launch_id, kernel_name,
            (long long)c.block_idx, c.ub_used);
    for (size_t i = 0; i < c.trace.size(); ++i) {
        const TraceEvent& e = c.trace[i];
        fprintf(f, "%s[\"%s\",\"%s\",%llu,%u,%d,%d,%u,%d,%d,%d]", i ? "," : "", e.api, pipe_name(e.pipe),
                (unsigned long long)e.bytes, e.repeats, e.sync, e.arg, (unsigned)e.elem, e.buf, (int)e.qpos, e.site);
    }
    // each call stack's innermost user frame, resolved once per return address for the whole program
    static std::map<void*, std::string> resolved;
    fprintf(f, "],\"locs\":[");
    for (size_t i = 0; i < c.sites.size(); ++i) {
        std::string where;
        for (int k = 1; k < c.sites[i].n && where.empty(); ++k) {
            void* pc = c.sites[i].frames[k];
            auto it = resolved.find(pc);
            if (it == resolved.end()) {
                SourceLoc loc;
                it = resolved.emplace(pc, resolve_frame(pc, &loc) ? loc.file + ":" + std::to_string(loc.line) : "").first;
            }
            where = it->second;
        }
        fprintf(f, "%s\"%s\"", i ? "," : "", json_escape(where).c_str());
    }
    // a cube core's trace says so: the cube cores are counted apart from the vector cores (perf/model.py)
    fprintf(f, "],\"block_num\":%lld%s}\n", (long long)c.block_num, tls_core_type == AscendC::AIC ? ",\"aic\":1" : "");
    fclose(f);
}

inline void timeout_handler(int) {
    report(Severity::Error, "timeout", "the kernel did not finish within KGEN_SIM_TIMEOUT seconds (a hang or an endless loop)");
    abort_program();
}

/// Scalar integer division by zero in kernel code. The AI Core's scalar unit does not trap on it: Catlass's
/// BlockGemm computes `startTileIdx % kLoopsNext` with kLoopsNext = 0 when a core has no next block (and
/// discards the result), and those golden answers pass on the NPU. x86-64 traps (SIGFPE), so on a core
/// thread the emulator finishes the faulting DIV/IDIV itself, with the AArch64 convention for the result
/// (quotient 0, remainder the dividend; INT_MIN / -1 gives INT_MIN, remainder 0), warns
/// `scalar-div-zero` once per line and goes on. Host code still crashes with a located `kernel-crash`.
inline bool finish_division(ucontext_t* uc, int code) {
#if defined(__x86_64__)
    greg_t* g = uc->uc_mcontext.gregs;
    const uint8_t* p = reinterpret_cast<const uint8_t*>(g[REG_RIP]);
    const uint8_t* start = p;
    bool opsize16 = false, rexw = false;
    for (int i = 0; i < 4 && (*p == 0x66 || *p == 0x67 || *p == 0x2E || *p == 0x3E || *p == 0x26 || *p == 0x36 ||
                              *p == 0x64 || *p == 0x65 || *p == 0xF2 || *p == 0xF3); ++i, ++p)
        opsize16 |= *p == 0x66;
    if ((*p & 0xF0) == 0x40) rexw = (*p++ & 0x08) != 0;
    const uint8_t op = *p++;
    if (op != 0xF6 && op != 0xF7) return false;
    const uint8_t modrm = *p++;
    const int mod = modrm >> 6, reg = (modrm >> 3) & 7, rm = modrm & 7;
    if (reg != 6 && reg != 7) return false;
    if (mod != 3) {
        if (rm == 4) {                                   // SIB byte; base 101 with mod 00 means disp32
            const uint8_t sib = *p++;
            if (mod == 0 && (sib & 7) == 5) p += 4;
        } else if (mod == 0 && rm == 5) {
            p += 4;                                      // RIP-relative disp32
        }
        p += mod == 1 ? 1 : mod == 2 ? 4 : 0;
    }
    const bool overflow = code == FPE_INTOVF;
    if (op == 0xF6) {                                    // AX / r/m8: AL quotient, AH remainder
        const uint64_t al = uint64_t(g[REG_RAX]) & 0xFF;
        const uint64_t q = overflow ? al : 0, r = overflow ? 0 : al;
        g[REG_RAX] = greg_t((uint64_t(g[REG_RAX]) & ~uint64_t(0xFFFF)) | (r << 8) | q);
    } else {                                             // rDX:rAX / r/m: rAX quotient, rDX remainder
        const uint64_t mask = rexw ? ~uint64_t(0) : opsize16 ? 0xFFFF : 0xFFFFFFFFu;
        const uint64_t a = uint64_t(g[REG_RAX]) & mask;
        const uint64_t q = overflow ? a : 0, r = overflow ? 0 : a;
        if (opsize16) {
            g[REG_RAX] = greg_t((uint64_t(g[REG_RAX]) & ~mask) | q);
            g[REG_RDX] = greg_t((uint64_t(g[REG_RDX]) & ~mask) | r);
        } else {                                         // 32-bit results zero-extend, as the CPU would write them
            g[REG_RAX] = greg_t(q);
            g[REG_RDX] = greg_t(r);
        }
    }
    g[REG_RIP] = greg_t(reinterpret_cast<uintptr_t>(start) + uintptr_t(p - start));
    return true;
#else
    (void)uc; (void)code;
    return false;
#endif
}
inline void scalar_division_handler(int sig, siginfo_t* si, void* ctx) {
    if (si && ctx && tls_core && tls_core->launch && (si->si_code == FPE_INTDIV || si->si_code == FPE_INTOVF)) {
        void* pc = nullptr;
#if defined(__x86_64__)
        pc = reinterpret_cast<void*>(static_cast<ucontext_t*>(ctx)->uc_mcontext.gregs[REG_RIP]);
#endif
        if (finish_division(static_cast<ucontext_t*>(ctx), si->si_code)) {
            static std::mutex mu;
            static std::set<void*> seen;   // resolve (addr2line) each faulting instruction once
            bool first;
            {
                std::lock_guard<std::mutex> g(mu);
                first = seen.insert(pc).second;
            }
            if (first)
                report_at(user_location(pc), Severity::Warning, "scalar-div-zero",
                          si->si_code == FPE_INTDIV ? "scalar integer division by zero: the AI Core does not trap; the result "
                                                      "is taken as 0 (remainder: the dividend), as on AArch64"
                                                    : "scalar integer division overflow (INT_MIN / -1): the AI Core does not trap; "
                                                      "the quotient is taken as INT_MIN, the remainder as 0");
            return;
        }
    }
    crash_handler(sig, si, ctx);
}
inline void install_division_handler() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = scalar_division_handler;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigaction(SIGFPE, &sa, nullptr);
    });
}

struct LaunchCfg {
    uint32_t block_dim;
    template <typename L2, typename S>
    LaunchCfg(uint32_t blocks, L2&&, S&&) : block_dim(blocks) {}
    template <typename L2>
    LaunchCfg(uint32_t blocks, L2&&) : block_dim(blocks) {}
    explicit LaunchCfg(uint32_t blocks) : block_dim(blocks) {}
};

/// Run `kernel(args...)` once per block, `cores` blocks at a time, and wait for all.
template <typename... P, typename... A>
void launch_named(const char* name, void (*kernel)(P...), LaunchCfg cfg, A&&... args) {
    install_crash_handlers();
    install_division_handler();
    if (const char* t = std::getenv("KGEN_SIM_TIMEOUT")) {
        std::signal(SIGALRM, timeout_handler);
        alarm(static_cast<unsigned>(std::atoi(t)));
    }
    if (cfg.block_dim == 0 || cfg.block_dim > 65535) {
        report(Severity::Error, "bad-launch", "kernel launch with numBlocks = " + std::to_string(cfg.block_dim) +
                                                  " (must be 1..65535)");
        abort_program();
    }
    int id = ++launch_counter();
    KernelKind kind = kind_of_entry(kernel);
    const CorePass passes = core_pass_of(reinterpret_cast<const void*>(kernel));
    if (kind == KernelKind::Unknown) kind = passes.kind;  // e.g. a templated __mix__ entry, whose section g++ drops
    using Entry = void (*)(P...);
    const Entry aic_entry = passes.aic ? reinterpret_cast<Entry>(const_cast<void*>(passes.aic)) : kernel;
    for (;;) {
        // cores per block: AIC (mix and cube kinds) then `ration` AIV (mix and vector kinds)
        const bool has_aic = kind == KernelKind::Aic || kind == KernelKind::Mix11 || kind == KernelKind::Mix12;
        const uint32_t ration = kind == KernelKind::Mix12 ? 2 : kind == KernelKind::Aic ? 0 : 1;
        const bool mix = kind == KernelKind::Mix11 || kind == KernelKind::Mix12;
        LaunchShared shared;
        shared.block_num = ration ? cfg.block_dim * ration : cfg.block_dim;  // cores that take part in SyncAll
        shared.done.assign(shared.block_num, 0);
        uint32_t cores = std::max(1u, vector_core_num());
        uint32_t per_wave = std::max(1u, ration ? cores / ration : cores / 2);
        shared.waves = cfg.block_dim > per_wave;
        shared.grid = cfg.block_dim;
        shared.aiv_per_block = ration;
        shared.has_aic = has_aic;
        shared.mix = mix;
        std::atomic<int> restart{0};
        for (uint32_t start = 0; start < cfg.block_dim; start += per_wave) {
            uint32_t end = std::min(cfg.block_dim, start + per_wave);
            std::vector<std::thread> threads;
            {
                std::lock_guard<std::mutex> g(shared.mu);
                shared.wave_threads = (end - start) * ((has_aic ? 1u : 0u) + ration);
                shared.wave_exited = 0;
            }
            for (uint32_t b = start; b < end; ++b) {
                for (int32_t sub = has_aic ? -1 : 0; sub < int32_t(ration); ++sub) {
                    threads.emplace_back([&, b, sub] {
                        CoreContext* ctx = new CoreContext();
                        bool aic = sub < 0;
                        uint32_t sync_idx = aic ? b : (mix ? b * ration + uint32_t(sub) : b);
                        ctx->block_idx = aic ? b : (mix ? b * ration + uint32_t(sub) : b);
                        ctx->block_num = cfg.block_dim;
                        ctx->sub_block_idx = aic ? 0 : sub;
                        ::block_idx = b;  // the raw block index (get_block_idx); GetBlockIdx() is the logical core
                        ::block_num = cfg.block_dim;
                        tls_core_type = aic ? AscendC::AIC : AscendC::AIV;
                        tls_launch_kind = kind;
                        tls_task_ration = aic ? 1 : (mix ? ration : 1);
                        ctx->launch = &shared;
                        tls_core = ctx;
                        bool restarted = false;
                        try {
                            (aic ? aic_entry : kernel)(args...);  // each core type runs its own pass
                        } catch (const KernelAbort&) {
                            abort_program();
                        } catch (const KernelRestart& r) {
                            int expected = 0;
                            restart.compare_exchange_strong(expected, static_cast<int>(r.kind));
                            restarted = true;
                        } catch (const KernelReturn&) {
                        }
                        if (!(mix && aic)) shared.block_done(sync_idx);
                        shared.core_exit();
                        if (!restarted && !(aic && mix && ctx->trace.empty())) flush_trace(id, name);
                        tls_core = nullptr;
                        delete ctx;
                    });
                }
            }
            for (auto& t : threads) t.join();
            if (restart.load()) break;
        }
        if (restart.load() && kind == KernelKind::Unknown) {
            kind = static_cast<KernelKind>(restart.load());
            continue;
        }
        break;
    }
    if (std::getenv("KGEN_SIM_TIMEOUT")) alarm(0);
}

template <typename... P, typename... A>
void launch(void (*kernel)(P...), LaunchCfg cfg, A&&... args) {
    launch_named("kernel", kernel, cfg, std::forward<A>(args)...);
}

}  // namespace kgen

namespace AscendC {

inline int64_t GetBlockIdx() { return kgen::core().block_idx; }
inline int64_t GetBlockNum() { return kgen::core().block_num; }
inline int64_t GetSubBlockIdx() { return kgen::core().sub_block_idx; }
inline int64_t GetSubBlockNum() { return kgen::tls_task_ration; }
inline int64_t GetTaskRation() { return kgen::tls_task_ration; }
inline int64_t GetSystemCycle() { return static_cast<int64_t>(std::chrono::steady_clock::now().time_since_epoch().count()); }

/// Hard all-core barrier: every block of the launch waits here until all have arrived.
template <bool isAIVOnly = true>
inline void SyncAll() {
    kgen::CoreContext& c = kgen::core();
    if (!c.launch) return;  // called from host code: a single core
    if (c.launch->waves)
        kgen::fail("syncall-waves", "SyncAll in a launch of %u blocks on %u cores: blocks of the later waves never start, "
                   "so the hardware would deadlock (use numBlocks <= core count)", c.launch->block_num, kgen::vector_core_num());
    kgen::trace("SyncAll", kgen::Pipe::ALL, 0, 0, 6, 0);
    c.launch->barrier();
}
/// Soft SyncAll through a GM workspace: each core owns a 32-byte slot (8 int32) of gmWorkspace,
/// which must start zeroed; a core bumps its own flag and polls the flags of the first usedCores
/// cores (0 = all blocks) until each has reached its own count. ubWorkspace is the core's staging
/// area (GetBlockNum() * 32 bytes).
template <bool isAIVOnly = true>
inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace, const int32_t usedCores = 0) {
    kgen::CoreContext& c = kgen::core();
    uint32_t blocks = static_cast<uint32_t>(c.block_num);
    if (usedCores < 0 || static_cast<uint32_t>(usedCores) > blocks)
        kgen::fail("syncall-params", "SyncAll(workspace, usedCores=%d): usedCores must be in [0, GetBlockNum()=%u]", usedCores, blocks);
    uint32_t n = usedCores ? static_cast<uint32_t>(usedCores) : blocks;
    if (gmWorkspace.bounded() && gmWorkspace.GetSize() < uint64_t(blocks) * 8)  // a documented size rule, not just a view
        kgen::fail("gm-out-of-bounds", "SyncAll (gmWorkspace: GetBlockNum() * 32 bytes) needs %llu int32 elements; the GlobalTensor "
                   "holds %llu", (unsigned long long)(uint64_t(blocks) * 8), (unsigned long long)gmWorkspace.GetSize());
    gmWorkspace.check(0, uint64_t(blocks) * 8, "SyncAll (gmWorkspace: GetBlockNum() * 32 bytes)");
    ubWorkspace.check(0, uint64_t(blocks) * 8, "SyncAll (ubWorkspace: GetBlockNum() * 32 bytes)");
    if (!c.launch) return;
    if (c.launch->waves)
        kgen::fail("syncall-waves", "SyncAll in a launch of %u blocks on %u cores: blocks of the later waves never start, "
                   "so the hardware would deadlock (use numBlocks <= core count)", c.launch->block_num, kgen::vector_core_num());
    kgen::trace("SyncAll", kgen::Pipe::ALL, uint64_t(n) * 32, 0, 6, 1);
    int32_t* flags = gmWorkspace.raw();
    uint32_t me = static_cast<uint32_t>(c.block_idx);
    int32_t mine = __atomic_add_fetch(&flags[uint64_t(me) * 8], 1, __ATOMIC_SEQ_CST);
    ubWorkspace.raw()[0] = mine;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t spins = 0;
        while (__atomic_load_n(&flags[uint64_t(i) * 8], __ATOMIC_SEQ_CST) < mine) {
            if (c.launch->is_done(i) && __atomic_load_n(&flags[uint64_t(i) * 8], __ATOMIC_SEQ_CST) < mine)
                kgen::fail("syncall-deadlock", "SyncAll(workspace) waits for block %u, which returned from the kernel without "
                           "reaching it (or the workspace was not zeroed): the hardware would hang here", i);
            if (++spins > 64) std::this_thread::sleep_for(std::chrono::microseconds(50));
            else std::this_thread::yield();
        }
    }
}

}  // namespace AscendC

// The block queries are also reachable without the AscendC:: prefix, and by their intrinsic names.
using AscendC::GetBlockIdx;
using AscendC::GetBlockNum;
using AscendC::GetSubBlockIdx;
using AscendC::GetSubBlockNum;
inline int64_t get_block_idx() { return ::block_idx; }
inline int64_t get_block_num() { return kgen::core().block_num; }
inline int64_t get_subblockid() { return kgen::core().sub_block_idx; }
