// kgen host-side emulation -- the bounded memory functions of the securec library (memcpy_s,
// memset_s) that CANN's host headers make visible and the official examples call to copy tiling
// structs. Documented behaviour followed: copy/fill `count` bytes when count <= destMax and the
// pointers are valid, return 0 (EOK); otherwise copy nothing and return a non-zero error
// (EINVAL for null pointers, ERANGE when count > destMax).
//
// (No public API: C library shim.)
#pragma once
#include <cerrno>
#include <cstddef>
#include <cstring>

#ifndef KGEN_SECUREC_SHIM
#define KGEN_SECUREC_SHIM 1
#ifndef EOK
#define EOK 0
#endif
typedef int errno_t;
inline errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (!dest || !src) return EINVAL;
    if (count > destMax) return ERANGE;
    std::memmove(dest, src, count);
    return EOK;
}
inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
    if (!dest) return EINVAL;
    if (count > destMax) return ERANGE;
    std::memset(dest, c, count);
    return EOK;
}
#endif
