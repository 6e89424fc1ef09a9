// kgen AscendC CPU emulator -- utils/debug/asc_dump.h: print the data of a memory from kernel code.
//
// Documented rules followed (asc_dump page, Atlas A2/A3): asc_dump_gm / asc_dump_ubuf / asc_dump_l1buf /
// asc_dump_cbuf<T>(address, desc, dump_size) print dump_size elements of GM, UB, L1 or L0C at `address`
// with the user's uint32 tag `desc`. The local addresses are what LocalTensor::GetPhyAddr() returns (a
// byte offset in that memory), cast to a pointer. Output: one line per call on stdout, in DumpTensor's
// format (kgen_sim/debug.h). Every element must lie inside its memory / GM allocation (`ub-out-of-bounds`
// and the other memories' overflow codes, `gm-out-of-bounds`).
// The generic asc_dump(address, ...) overloads differ only in address-space qualifiers, which are empty on
// the CPU: the emulator keeps one, which dumps GM when the address lies in a device allocation and UB
// otherwise.
//
// @api asc_dump asc_dump_gm asc_dump_ubuf asc_dump_l1buf asc_dump_cbuf
#pragma once
#include <cstdint>

#include "kernel_operator.h"

namespace kgen {
namespace ascdump {
template <typename T>
inline void local(const char* api, Mem m, const T* input, uint32_t desc, uint32_t n) {
    const uint64_t off = reinterpret_cast<uintptr_t>(input);
    if (off + uint64_t(n) * sizeof(T) > mem_size(m))
        fail(m == Mem::UB ? "ub-out-of-bounds" : mem_overflow_code(m), "%s: %u elements at %s byte %llu run past the %u-byte %s "
             "(pass LocalTensor::GetPhyAddr())", api, n, mem_name(m), (unsigned long long)off, mem_size(m), mem_name(m));
    dump_values(mem_name(m), reinterpret_cast<const T*>(core().mem_base(m) + off), n, desc);
}
}  // namespace ascdump
}  // namespace kgen

template <typename T>
static inline void asc_dump_gm(__gm__ T* input, uint32_t desc, uint32_t dump_size) {
    kgen::check_gm_allocation(input, uint64_t(dump_size) * sizeof(T), "asc_dump_gm", kgen::GmAccess::Read);
    kgen::dump_values("GM", input, dump_size, desc);
}
template <typename T>
static inline void asc_dump_ubuf(__ubuf__ T* input, uint32_t desc, uint32_t dump_size) {
    kgen::ascdump::local("asc_dump_ubuf", kgen::Mem::UB, input, desc, dump_size);
}
template <typename T>
static inline void asc_dump_l1buf(__cbuf__ T* input, uint32_t desc, uint32_t dump_size) {
    kgen::ascdump::local("asc_dump_l1buf", kgen::Mem::L1, input, desc, dump_size);
}
template <typename T>
static inline void asc_dump_cbuf(__cc__ T* input, uint32_t desc, uint32_t dump_size) {
    kgen::ascdump::local("asc_dump_cbuf", kgen::Mem::L0C, input, desc, dump_size);
}
template <typename T>
static inline void asc_dump(T* input, uint32_t desc, uint32_t dump_size) {
    if (kgen::gm_registry().contains(input, 1)) asc_dump_gm(input, desc, dump_size);
    else asc_dump_ubuf(input, desc, dump_size);
}
