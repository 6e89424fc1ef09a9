// kgen AscendC CPU emulator -- the cube unit's fractal layouts and operand checks (dav-2201).
//
// Documented layout rules followed (AscendC basic matrix API docs and the dav-2201 examples):
//  * A fractal is 16 rows x C0 columns, C0 = 32 bytes of elements: 16x16 for half/bfloat16_t,
//    16x32 for int8_t, 16x8 for float, 16x64 for int4b_t (two per byte); 512 bytes whichever the type. The L0C result fractal is
//    16x16 elements of float/int32_t (1 KB).
//  * NZ ("big N, small z"): fractals are stored column after column of fractals, each fractal row
//    after row. An ND matrix [rows, cols] in NZ with `rowsAlign` rows per fractal column puts
//    element (r, c) at  (c / C0) * rowsAlign * C0 + r * C0 + c % C0.  This is what Nd2Nz writes to
//    L1 (dstNzNStride = 1, dstNzC0Stride = rowsAlign) and the layout of L0C (C0 = 16).
//  * ZZ: the left matrix in L0A on dav-2201. Fractals row after row of fractals, each fractal row
//    after row: A(m, k) at  ((m / 16) * K1 + k / C0) * 16 * C0 + (m % 16) * C0 + k % C0,
//    K1 = ceil(k / C0).
//  * ZN: the right matrix in L0B. Fractals row after row of fractals (K direction outer), each
//    fractal stored as 16 n-rows of C0 k-values: B(k, n) at
//    ((k / C0) * N1 + n / 16) * 16 * C0 + (n % 16) * C0 + k % C0,  N1 = ceil(n / 16).
//  * The result in L0C is NZ with M rounded up to 16: C(m, n) at
//    ((n / 16) * M1 + m / 16) * 256 + (m % 16) * 16 + n % 16,  M1 = ceil(m / 16).
//
// Every cube API checks that each operand lives in the memory the API reads or writes
// (`wrong-position`, naming the operand, the position it has and the memory it needs).
//
// @api IsSameType
#pragma once
#include <cassert>  // kernels written for CANN use assert() without including it
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "kgen_sim/tensor.h"

namespace AscendC {

/// IsSameType<T, U>::value: whether two types are the same (the type trait cube kernels use to pick
/// C0 and fractal counts per data type).
template <typename T, typename U>
struct IsSameType {
    static constexpr bool value = std::is_same<T, U>::value;
};

}  // namespace AscendC

namespace kgen::cube {

inline constexpr uint32_t BLOCK = 16;           // rows of a fractal (and L0C columns per fractal)
inline constexpr uint32_t FRACTAL_BYTES = 512;  // one L0A/L0B/L1 fractal
inline constexpr uint32_t L0C_FRACTAL = 256;    // elements of one L0C fractal (16 x 16)

/// Elements per 32-byte fractal row: 16 for 2-byte types, 32 for int8, 8 for float, 64 for int4b_t.
template <typename T>
inline constexpr uint32_t c0() { return 256u / elem_bits<T>(); }
/// Elements in one 512-byte fractal.
template <typename T>
inline constexpr uint32_t fractal_elems() { return FRACTAL_BYTES * 8u / elem_bits<T>(); }
using kgen::load_elem;
using kgen::store_elem;
inline constexpr uint32_t ceil_div(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
inline constexpr uint32_t align_up(uint32_t a, uint32_t b) { return ceil_div(a, b) * b; }

/// Element offset of (r, c) in an NZ matrix whose fractal columns hold `rows_align` rows.
template <typename T>
inline constexpr uint64_t nz_offset(uint32_t r, uint32_t c, uint32_t rows_align) {
    return uint64_t(c / c0<T>()) * rows_align * c0<T>() + uint64_t(r) * c0<T>() + c % c0<T>();
}
/// Element offset of A(m, k) in L0A (ZZ) for a K extent of `k` elements.
template <typename T>
inline constexpr uint64_t zz_offset(uint32_t m, uint32_t k, uint32_t kext) {
    return (uint64_t(m / BLOCK) * ceil_div(kext, c0<T>()) + k / c0<T>()) * BLOCK * c0<T>() + (m % BLOCK) * c0<T>() + k % c0<T>();
}
/// Element offset of B(k, n) in L0B (ZN) for an N extent of `n` elements.
template <typename T>
inline constexpr uint64_t zn_offset(uint32_t k, uint32_t n, uint32_t next) {
    return (uint64_t(k / c0<T>()) * ceil_div(next, BLOCK) + n / BLOCK) * BLOCK * c0<T>() + (n % BLOCK) * c0<T>() + k % c0<T>();
}
/// Element offset of C(m, n) in L0C (NZ, 16 x 16 fractals) for an M extent of `m` elements.
inline constexpr uint64_t l0c_offset(uint32_t m, uint32_t n, uint32_t mext) {
    return (uint64_t(n / BLOCK) * ceil_div(mext, BLOCK) + m / BLOCK) * L0C_FRACTAL + (m % BLOCK) * BLOCK + n % BLOCK;
}

/// The cube's index buffer that LoadDataWithSparse fills and MmadWithSparse reads: a quarter of L0B's size
/// (LoadDataWithSparse page), one per emulated core.
inline std::vector<uint8_t>& sparse_index_buffer() {
    thread_local std::vector<uint8_t> buf(L0B_SIZE / 4, 0);
    return buf;
}

/// Fail with `wrong-position` unless `t` lives in one of `mems`.
template <typename T>
inline void require_mem(const AscendC::LocalTensor<T>& t, const char* api, const char* operand, std::initializer_list<Mem> mems,
                        const char* expected) {
    t.live(api);
    for (Mem m : mems)
        if (t.mem() == m) return;
    fail("wrong-position", "%s: %s must be in %s; this tensor is a %s tensor in %s", api, operand, expected,
         AscendC::position_name(t.GetPosition()), mem_name(t.mem()));
}

/// Fail unless the tensor's start address is a multiple of `align` bytes of its memory.
template <typename T>
inline void require_align(const AscendC::LocalTensor<T>& t, const char* api, const char* operand, uint32_t align) {
    if (t.GetPhyAddr() % align)
        fail("cube-misaligned", "%s: %s must start on a %u-byte boundary of %s; it starts at byte %llu", api, operand, align,
             mem_name(t.mem()), (unsigned long long)t.GetPhyAddr());
}

/// Elements [0, n) of an operand the hardware addresses by start address only: past the tensor but inside
/// its memory is a warning (the instruction reads or overwrites whatever lies there, as the hardware does);
/// past the end of the memory is an error.
template <typename T>
inline void require_elems_in_memory(const AscendC::LocalTensor<T>& t, uint64_t n, const char* api, const char* operand,
                                    const char* code) {
    if (n <= t.GetSize()) return;
    const uint64_t end = t.GetPhyAddr() + bytes_of<T>(n);
    if (end > mem_size(t.mem()))
        fail(code, "%s: %s needs %llu elements (%llu bytes) from byte %llu of %s, past the end of the %u-byte memory", api, operand,
             (unsigned long long)n, (unsigned long long)bytes_of<T>(n), (unsigned long long)t.GetPhyAddr(), mem_name(t.mem()),
             mem_size(t.mem()));
    warn(code, "%s: %s needs %llu elements (%llu bytes of %s) but the tensor holds %u; the instruction uses the %s memory past "
         "the tensor (whatever lies there)", api, operand, (unsigned long long)n, (unsigned long long)bytes_of<T>(n),
         mem_name(t.mem()), t.GetSize(), mem_name(t.mem()));
}

/// Fail unless elements [0, n) fit in the tensor (`code` names the rule).
template <typename T>
inline void require_elems(const AscendC::LocalTensor<T>& t, uint64_t n, const char* api, const char* operand, const char* code) {
    if (n > t.GetSize())
        fail(code, "%s: %s needs %llu elements (%llu bytes of %s) but the tensor holds %u", api, operand, (unsigned long long)n,
             (unsigned long long)(n * sizeof(T)), mem_name(t.mem()), t.GetSize());
}

}  // namespace kgen::cube
