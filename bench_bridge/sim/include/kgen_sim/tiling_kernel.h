// kgen AscendC CPU emulator -- kernel side of custom-operator projects: tiling data access,
// tiling keys, the workspace argument, kernel-type declarations.
//
// Documented rules followed:
//  * GET_TILING_DATA(var, tiling) declares `var` of the operator's default tiling struct (the class
//    REGISTER_TILING_DATA_CLASS bound to the operator type, or the one REGISTER_TILING_DEFAULT names)
//    and fills it from the bytes the host TilingFunc wrote. GET_TILING_DATA_WITH_STRUCT(T, var, tiling)
//    names the struct; GET_TILING_DATA_PTR_WITH_STRUCT(T, ptr, tiling) gives a pointer;
//    GET_TILING_DATA_MEMBER(T, member, var, tiling) reads one member.
//  * TILING_KEY_IS(key) is true when the host set that tiling key (SetTilingKey). CANN compiles one kernel
//    per key that appears in a TILING_KEY_IS; a key set by the host that matches none has no kernel and
//    the launch fails -- the kgen harness reports it (tiling-key-unmatched).
//  * The workspace argument starts with the system workspace (GetLibApiWorkSpaceSize bytes on the host,
//    16 MiB here); GetUserWorkspace(workspace) returns the user part after it. SetSysWorkspace /
//    GetSysWorkSpacePtr store and return the system workspace pointer.
//  * KERNEL_TASK_TYPE_DEFAULT(type) / KERNEL_TASK_TYPE(key, type) (for the launch whose tiling key is
//    `key`) declare which cores run the kernel: AIC_ONLY and MIX_AIC_1_0 cube cores, MIX_AIC_1_1 /
//    MIX_AIC_1_2 one AIC with one / two AIV per block, the other types vector cores (see launch.h).
//    ASCEND_IS_AIV / ASCEND_IS_AIC test g_coreType.
// Emulator checks: reading more tiling bytes than the TilingFunc set (SetDataSize / GetDataSize) is an
// error (tiling-size): on hardware those bytes are whatever the buffer held.
// The generated kernel translation unit of a project defines `kgen_registered_default_tiling`.
//
// @api GET_TILING_DATA GET_TILING_DATA_WITH_STRUCT GET_TILING_DATA_PTR_WITH_STRUCT GET_TILING_DATA_MEMBER REGISTER_TILING_DEFAULT REGISTER_TILING_FOR_TILINGKEY TILING_KEY_IS KERNEL_TASK_TYPE_DEFAULT KERNEL_TASK_TYPE GetUserWorkspace SetSysWorkspace GetSysWorkSpacePtr
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kgen_sim/core.h"
#include "kgen_sim/diag.h"
#include "kgen_sim/launch.h"
#include "kgen_sim/matmul/tcube_tiling.h"  // TCubeTiling: tiling structs generated for a project may nest it
#include <cstdio>
#include <type_traits>
#include <utility>

namespace kgen {

inline constexpr uint64_t SYS_WORKSPACE_BYTES = 16ull * 1024 * 1024;

/// The tiling key of the current launch and how the kernel's TILING_KEY_IS branches met it.
struct TilingKeyState {
    uint64_t key = 0;
    std::atomic<uint64_t> asked{0};
    std::atomic<uint64_t> matched{0};
};
inline TilingKeyState& tiling_key_state() {
    static TilingKeyState s;
    return s;
}
inline bool tiling_key_is(uint64_t k) {
    TilingKeyState& s = tiling_key_state();
    s.asked.fetch_add(1, std::memory_order_relaxed);
    if (s.key != k) return false;
    s.matched.fetch_add(1, std::memory_order_relaxed);
    return true;
}

/// Incomplete on purpose: GET_TILING_DATA without any registered default struct fails to compile.
struct NoDefaultTilingRegistered;

template <typename T>
inline void load_tiling(T* dst, const uint8_t* src, const char* what) {
    if (!src) kgen::fail("tiling-null", "%s: the tiling argument is null", what);
    uintptr_t start = 0;
    size_t size = 0;
    if (!kgen::gm_registry().contains(src, sizeof(T), &start, &size)) {
        size_t have = size ? size - (reinterpret_cast<uintptr_t>(src) - start) : 0;
        kgen::fail("tiling-size", "%s reads %zu bytes of tiling data but the TilingFunc provided %zu (set the size with "
                   "GetRawTilingData()->SetDataSize(tiling.GetDataSize()))", what, sizeof(T), have);
    }
    std::memcpy(static_cast<void*>(dst), src, sizeof(T));
}

inline std::atomic<uint8_t*>& sys_workspace_ptr() {
    static std::atomic<uint8_t*> p{nullptr};
    return p;
}


/// Launch a custom operator's kernel entry with the argument array the project harness built
/// (inputs, outputs, workspace, tiling); a parameter-count mismatch is reported, not called.
template <typename... P, size_t... I>
inline int project_launch_with(const char* name, void (*k)(P...), uint32_t block_dim, uint8_t** args, std::index_sequence<I...>) {
    kgen::launch_named(name, k, kgen::LaunchCfg(block_dim), reinterpret_cast<P>(args[I])...);
    return 0;
}
template <typename... P>
inline int project_launch(const char* name, void (*k)(P...), uint32_t block_dim, uint8_t** args, size_t nargs) {
    static_assert((std::is_pointer<P>::value && ...), "kernel entry parameters of a custom operator must all be GM_ADDR");
    if (sizeof...(P) != nargs) {
        std::fprintf(stderr, "kgen: error: kernel entry %s takes %zu parameters but the OpDef gives %zu "
                     "(its inputs, outputs, then workspace and tiling) [kernel-signature]\n", name, sizeof...(P), nargs);
        return 1;
    }
    return project_launch_with(name, k, block_dim, args, std::index_sequence_for<P...>{});
}

}  // namespace kgen

#define GET_TILING_DATA_WITH_STRUCT(tiling_struct, tiling_data, tiling_arg) \
    tiling_struct tiling_data;                                                \
    ::kgen::load_tiling(&tiling_data, reinterpret_cast<const uint8_t*>(tiling_arg), "GET_TILING_DATA_WITH_STRUCT(" #tiling_struct ")")
#define GET_TILING_DATA(tiling_data, tiling_arg) \
    GET_TILING_DATA_WITH_STRUCT(kgen_registered_default_tiling, tiling_data, tiling_arg)
#define GET_TILING_DATA_PTR_WITH_STRUCT(tiling_struct, tiling_ptr, tiling_arg)                                      \
    const tiling_struct* tiling_ptr = reinterpret_cast<const tiling_struct*>(tiling_arg);                            \
    do {                                                                                                             \
        tiling_struct kgen_probe_##tiling_ptr;                                                                       \
        ::kgen::load_tiling(&kgen_probe_##tiling_ptr, reinterpret_cast<const uint8_t*>(tiling_arg),                  \
                            "GET_TILING_DATA_PTR_WITH_STRUCT(" #tiling_struct ")");                                   \
    } while (0)
#define GET_TILING_DATA_MEMBER(tiling_struct, member, tiling_data, tiling_arg)                                     \
    decltype(tiling_struct::member) tiling_data;                                                                   \
    do {                                                                                                           \
        tiling_struct kgen_whole_##tiling_data;                                                                    \
        ::kgen::load_tiling(&kgen_whole_##tiling_data, reinterpret_cast<const uint8_t*>(tiling_arg),               \
                            "GET_TILING_DATA_MEMBER(" #tiling_struct ", " #member ")");                             \
        std::memcpy(static_cast<void*>(&tiling_data), &kgen_whole_##tiling_data.member, sizeof(tiling_data));      \
    } while (0)
#define REGISTER_TILING_DEFAULT(tiling_struct) using kgen_registered_default_tiling = tiling_struct
#define REGISTER_TILING_FOR_TILINGKEY(expression, tiling_struct) static_assert(true, "")
#define TILING_KEY_IS(key) (::kgen::tiling_key_is(static_cast<uint64_t>(key)))

#ifndef KERNEL_TASK_TYPE_DEFAULT
enum KernelMetaType {
    KERNEL_TYPE_AIV_ONLY,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX
};
namespace kgen {
inline void declare_task_type(KernelMetaType t) {
    switch (t) {
        case KERNEL_TYPE_AIC_ONLY: case KERNEL_TYPE_MIX_AIC_1_0: declare_kernel_kind(KernelKind::Aic); break;
        case KERNEL_TYPE_MIX_AIC_1_1: declare_kernel_kind(KernelKind::Mix11); break;
        case KERNEL_TYPE_MIX_AIC_1_2: declare_kernel_kind(KernelKind::Mix12); break;
        default: break;
    }
}
}  // namespace kgen
#define KERNEL_TASK_TYPE_DEFAULT(type) ::kgen::declare_task_type(type)
#define KERNEL_TASK_TYPE(key, type) \
    do { if (::kgen::tiling_key_state().key == static_cast<uint64_t>(key)) ::kgen::declare_task_type(type); } while (0)
#endif
#ifndef ASCEND_IS_AIV
#define ASCEND_IS_AIV (::g_coreType == ::AscendC::AIV)
#define ASCEND_IS_AIC (::g_coreType == ::AscendC::AIC)
#define ASCEND_IS_NOT_AIV (::g_coreType != ::AscendC::AIV)
#define ASCEND_IS_NOT_AIC (::g_coreType != ::AscendC::AIC)
#endif

namespace AscendC {
#ifndef KGEN_HAS_WORKSPACE_API
#define KGEN_HAS_WORKSPACE_API 1
/// The user part of the workspace: after the system workspace at its start.
inline uint8_t* GetUserWorkspace(uint8_t* workspace) {
    return workspace ? workspace + kgen::SYS_WORKSPACE_BYTES : nullptr;
}
inline void SetSysWorkspace(uint8_t* workspace) { kgen::sys_workspace_ptr().store(workspace); }
inline uint8_t* GetSysWorkSpacePtr() { return kgen::sys_workspace_ptr().load(); }
#endif
}  // namespace AscendC
