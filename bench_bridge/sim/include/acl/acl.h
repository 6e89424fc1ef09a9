// kgen AscendC CPU emulator -- the aclrt runtime subset used by kernel-launch programs.
//
// Documented behaviour followed: aclInit/aclFinalize bracket the program; aclrtSetDevice
// selects a device; streams order work (the emulator runs each launch to completion, so
// every stream is always synchronised); aclrtMalloc returns device (GM) memory, here host
// memory registered for bounds checks and 512-byte aligned; aclrtMemcpy(dst, destMax, src, count,
// kind) fails with ACL_ERROR_INVALID_PARAM when count > destMax. Functions return ACL_SUCCESS (0)
// on success.
//
// Contents of fresh memory (docs/emulator-rules.md, "Memory contents"): CANN documents that aclrtMalloc
// does not initialise the memory (aclrtMemset before use is recommended), but the NPU driver hands a
// process only pages it has cleared (the SVM driver zeroes a device page when it is freed, "for
// security", or allocates it with __GFP_ZERO), so the memory of a fresh program reads as zeros, and
// official examples rely on it (data_sync_barrier, cross_core_set_wait_flag, tbufpool_management).
// The emulator hands out zeroed memory from aclrtMalloc and aclrtMallocHost. kgen's own op harness
// (kgen_sim/host_harness.h) fills the outputs it allocates with 0xCD bytes itself, so an output
// element a generated kernel never writes still shows.
//
// @api aclInit aclFinalize aclrtSetDevice aclrtResetDevice aclrtGetDevice aclrtCreateStream aclrtDestroyStream
// @api aclrtSynchronizeStream aclrtSynchronizeDevice aclrtMalloc aclrtMallocHost aclrtFree aclrtFreeHost
// @api aclrtMemcpy aclrtMemcpyAsync aclrtMemset aclrtCreateContext aclrtDestroyContext aclGetRecentErrMsg
// @api aclFloat16 aclFloatToFloat16 aclFloat16ToFloat aclrtGetLastError aclrtPeekAtLastError ACL_RT_THREAD_LEVEL
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>

#include "kgen_sim/core.h"
#include "kgen_sim/half.h"

typedef int aclError;
typedef uint16_t aclFloat16;  // IEEE binary16 bits
typedef void* aclrtStream;
typedef void* aclrtContext;
typedef void* aclrtEvent;

constexpr aclError ACL_SUCCESS = 0;
constexpr aclError ACL_ERROR_INVALID_PARAM = 100000;
constexpr aclError ACL_ERROR_UNINITIALIZE = 100001;
constexpr aclError ACL_ERROR_BAD_ALLOC = 200000;
constexpr aclError ACL_ERROR_RT_PARAM_INVALID = 107000;

enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY,
    ACL_MEM_MALLOC_NORMAL_ONLY,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
};
enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE,
    ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_DEVICE_TO_DEVICE,
    ACL_MEMCPY_DEFAULT,
};

namespace kgen {
struct AclState {
    bool inited = false;
    int32_t device = -1;
    std::string last_error;
    aclError last_code = 0;  // aclrtGetLastError / aclrtPeekAtLastError
};
inline AclState& acl_state() { static AclState s; return s; }
inline aclError acl_fail(aclError code, const std::string& msg) {
    acl_state().last_error = msg;
    acl_state().last_code = code;
    std::fprintf(stderr, "kgen-sim: acl error %d: %s\n", code, msg.c_str());
    return code;
}
}  // namespace kgen

inline aclError aclInit(const char* = nullptr) { kgen::acl_state().inited = true; return ACL_SUCCESS; }
inline aclError aclFinalize() { kgen::acl_state().inited = false; return ACL_SUCCESS; }
inline aclError aclrtSetDevice(int32_t id) {
    if (id != 0) return kgen::acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtSetDevice(" + std::to_string(id) + "): the emulator has device 0 only");
    kgen::acl_state().device = id;
    return ACL_SUCCESS;
}
inline aclError aclrtResetDevice(int32_t) { kgen::acl_state().device = -1; return ACL_SUCCESS; }
inline aclError aclrtGetDevice(int32_t* id) { if (id) *id = kgen::acl_state().device < 0 ? 0 : kgen::acl_state().device; return ACL_SUCCESS; }
inline aclError aclrtCreateContext(aclrtContext* ctx, int32_t) { if (ctx) *ctx = reinterpret_cast<void*>(1); return ACL_SUCCESS; }
inline aclError aclrtDestroyContext(aclrtContext) { return ACL_SUCCESS; }
inline aclError aclrtSetCurrentContext(aclrtContext) { return ACL_SUCCESS; }
inline aclError aclrtCreateStream(aclrtStream* s) { if (s) *s = reinterpret_cast<void*>(new int(0)); return ACL_SUCCESS; }
inline aclError aclrtDestroyStream(aclrtStream s) { delete static_cast<int*>(s); return ACL_SUCCESS; }
inline aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeDevice() { return ACL_SUCCESS; }

inline aclError aclrtMalloc(void** p, size_t size, aclrtMemMallocPolicy = ACL_MEM_MALLOC_HUGE_FIRST) {
    if (!p) return kgen::acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: null output pointer");
    if (size == 0) return kgen::acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size 0");
    size_t rounded = (size + 511) / 512 * 512;
    void* m = std::aligned_alloc(512, rounded);
    if (!m) return kgen::acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtMalloc: out of memory");
    std::memset(m, 0, rounded);   // fresh device pages read as zeros (see the top of this file)
    kgen::gm_registry().add(m, size);
    *p = m;
    return ACL_SUCCESS;
}
namespace kgen {
/// Host buffers handed out by aclrtMallocHost (aclrtFreeHost frees only these).
struct HostAllocs {
    std::mutex mu;
    std::set<const void*> live;
};
inline HostAllocs& host_allocs() { static HostAllocs h; return h; }
}  // namespace kgen

inline aclError aclrtMallocHost(void** p, size_t size) {
    if (!p) return kgen::acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocHost: null output pointer");
    *p = std::calloc(size ? size : 1, 1);   // fresh pinned host pages read as zeros, as device memory does
    if (!*p) return kgen::acl_fail(ACL_ERROR_BAD_ALLOC, "aclrtMallocHost: out of memory");
    std::lock_guard<std::mutex> g(kgen::host_allocs().mu);
    kgen::host_allocs().live.insert(*p);
    return ACL_SUCCESS;
}
// Documented: aclrtFree releases memory from aclrtMalloc, aclrtFreeHost memory from aclrtMallocHost. The
// runtime refuses (returns an error code) a pointer it did not hand out; it does not free it. The
// emulator does the same and says so on stderr, so a program that frees a std::vector's buffer, a
// pointer twice, or a device pointer with the host call keeps running as it would on the NPU.
inline aclError aclrtFree(void* p) {
    if (!p) return ACL_SUCCESS;
    uintptr_t start = 0;
    if (!kgen::gm_registry().contains(p, 1, &start) || start != reinterpret_cast<uintptr_t>(p)) {
        return kgen::acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: pointer was not returned by aclrtMalloc (or was freed already); not freed");
    }
    kgen::gm_registry().remove(p);
    std::free(p);
    return ACL_SUCCESS;
}
inline aclError aclrtFreeHost(void* p) {
    if (!p) return ACL_SUCCESS;
    {
        std::lock_guard<std::mutex> g(kgen::host_allocs().mu);
        if (!kgen::host_allocs().live.erase(p)) {
            return kgen::acl_fail(ACL_ERROR_INVALID_PARAM,
                                  "aclrtFreeHost: pointer was not returned by aclrtMallocHost (or was freed already); not freed");
        }
    }
    std::free(p);
    return ACL_SUCCESS;
}

inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind) {
    if (count > destMax)
        return kgen::acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: count " + std::to_string(count) + " > destMax " + std::to_string(destMax));
    if (count && (!dst || !src)) return kgen::acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: null pointer");
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
}
inline aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind k, aclrtStream) {
    return aclrtMemcpy(dst, destMax, src, count, k);
}
inline aclError aclrtMemset(void* dst, size_t destMax, int32_t value, size_t count) {
    if (count > destMax)
        return kgen::acl_fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count " + std::to_string(count) + " > destMax " + std::to_string(destMax));
    std::memset(dst, value, count);
    return ACL_SUCCESS;
}
inline aclFloat16 aclFloatToFloat16(float v) { return kgen::f32_to_f16_bits(v); }
inline float aclFloat16ToFloat(aclFloat16 v) { return kgen::f16_bits_to_f32(v); }
inline const char* aclGetRecentErrMsg() { return kgen::acl_state().last_error.c_str(); }
/// Scope of aclrtGetLastError / aclrtPeekAtLastError (the emulator keeps one error state, as for the one thread).
typedef enum aclrtLastErrLevel { ACL_RT_THREAD_LEVEL = 0 } aclrtLastErrLevel;
/// The code of the last failed runtime call (ACL_SUCCESS if none), cleared by the read.
inline aclError aclrtGetLastError(aclrtLastErrLevel) {
    const aclError c = kgen::acl_state().last_code;
    kgen::acl_state().last_code = ACL_SUCCESS;
    return c;
}
/// The same without clearing it.
inline aclError aclrtPeekAtLastError(aclrtLastErrLevel) { return kgen::acl_state().last_code; }
