// kgen AscendC CPU emulator -- the operands of a Matmul: where A, B and bias come from (a GM tensor,
// a Unified Buffer / L1 tensor, or a scalar) and how an element (row, col) of the logical matrix is
// found in them (ND layout, optionally transposed), with the GM/UB access checks of the vector path.
// Not an AscendC API: the Matmul API's internal reader (kgen_sim/matmul/matmul_impl.h).
#pragma once
#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kgen_sim/half.h"
#include "kgen_sim/matmul/tiling_algo.h"
#include "kgen_sim/tensor.h"

namespace kgen {
namespace mm {

template <class T>
constexpr Elem elem_of() {
    if constexpr (std::is_same_v<T, half>) return Elem::F16;
    else if constexpr (std::is_same_v<T, bfloat16_t>) return Elem::BF16;
    else if constexpr (std::is_same_v<T, float>) return Elem::F32;
    else if constexpr (std::is_same_v<T, int8_t>) return Elem::I8;
    else if constexpr (std::is_same_v<T, int32_t>) return Elem::I32;
    else if constexpr (is_int4_v<T>) return Elem::I4;
    else return Elem::None;
}

/// Accumulator of the cube unit: fp32 for floating inputs, int32 for int8 and int4 (L0C holds these).
template <class T>
using acc_t = std::conditional_t<std::is_integral_v<T> || is_int4_v<T>, int32_t, float>;

template <class T>
struct Operand {
    enum Kind { Unset, Gm, Local, Scalar } kind = Unset;
    AscendC::GlobalTensor<T> gm;
    AscendC::LocalTensor<T> local;
    T scalar{};
    bool trans = false;
    bool nz = false;          // stored in NZ: 16 x C0 fractals, fractal columns one after another
    uint64_t nz_rows = 0;     // rows of the stored matrix, padded to 16

    void set(const AscendC::GlobalTensor<T>& g, bool t) { kind = Gm; gm = g; trans = t; }
    void set(const AscendC::LocalTensor<T>& l, bool t) { l.live("SetTensor"); kind = Local; local = l; trans = t; }
    void set_scalar(T v) { kind = Scalar; scalar = v; trans = false; }
    bool ready() const { return kind != Unset; }
    /// Start address of the operand's data (0 for a scalar): part of the key of a cached block.
    uint64_t addr() const {
        return kind == Gm ? reinterpret_cast<uintptr_t>(gm.raw()) : kind == Local ? reinterpret_cast<uintptr_t>(local.raw()) : 0;
    }

    /// Copy `count` consecutive elements starting at linear index `start` into `out` as the
    /// accumulator type, with the access checks of GlobalTensor / LocalTensor reads.
    template <class Acc>
    void read_run(uint64_t start, uint64_t count, Acc* out, const char* api) const {
        if (kind == Scalar) {
            for (uint64_t i = 0; i < count; ++i) out[i] = static_cast<Acc>(static_cast<acc_t<T>>(scalar));
            return;
        }
        const T* p;
        if (kind == Gm) {
            gm.check_read(start, count, api);
            p = gm.raw();
        } else {
            local.check_read(start, count, api);
            p = local.raw();
        }
        if constexpr (is_int4_v<T>) {  // two elements per byte (tensor.h)
            for (uint64_t i = 0; i < count; ++i) out[i] = static_cast<Acc>(load_elem(p, start + i).value());
        } else if constexpr (std::is_same_v<T, half> && std::is_same_v<Acc, float>) {  // exact, through the table
            const float* t = f16_to_f32_table();
            p += start;
            for (uint64_t i = 0; i < count; ++i) out[i] = t[p[i].bits];
        } else {
            p += start;
            for (uint64_t i = 0; i < count; ++i) out[i] = static_cast<Acc>(static_cast<acc_t<T>>(p[i]));
        }
    }
};

/// Read the logical block rows [r0, r0+rows) x cols [c0, c0+cols) of a matrix stored in ND with
/// leading dimension `ld` (stored transposed when `trans`: element (r, c) at c * ld + r), or in NZ
/// (element (r, c) at ((c / C0) * nz_rows + r) * C0 + c % C0, C0 = 32 bytes of T; 64 for int4b_t), into `dst`
/// (row-major rows x cols).
template <class T, class Acc>
inline void read_block(const Operand<T>& op, uint64_t ld, uint64_t r0, uint64_t rows, uint64_t c0, uint64_t cols,
                       std::vector<Acc>& dst, const char* api) {
    dst.assign(rows * cols, Acc(0));
    if (op.kind == Operand<T>::Scalar) {
        op.read_run(0, rows * cols, dst.data(), api);
        return;
    }
    if (op.nz) {
        const uint64_t k0 = 256 / elem_bits<T>();
        for (uint64_t r = 0; r < rows; ++r) {
            for (uint64_t c = 0; c < cols;) {
                uint64_t cc = c0 + c, run = std::min<uint64_t>(k0 - cc % k0, cols - c);
                op.read_run(((cc / k0) * op.nz_rows + r0 + r) * k0 + cc % k0, run, dst.data() + r * cols + c, api);
                c += run;
            }
        }
    } else if (!op.trans) {
        for (uint64_t r = 0; r < rows; ++r) op.read_run((r0 + r) * ld + c0, cols, dst.data() + r * cols, api);
    } else {
        std::vector<Acc> run(rows);
        for (uint64_t c = 0; c < cols; ++c) {
            op.read_run((c0 + c) * ld + r0, rows, run.data(), api);
            for (uint64_t r = 0; r < rows; ++r) dst[r * cols + c] = run[r];
        }
    }
}

/// Whether a MatmulType is a SparseMatmulType (it names an index position).
template <class MT, class = void>
struct is_sparse_type : std::false_type {};
template <class MT>
struct is_sparse_type<MT, std::void_t<decltype(MT::indexPosition)>> : std::true_type {};

/// The logical block rows [k0, k0+k) x cols [n0, n0+cols) of a 4:2 sparse B, into `dst` (row-major k x cols).
/// Documented rules (MmadWithSparse / SetSparseIndex pages): every group of four K positions keeps two values,
/// stored one after another in the densified B (K / 2 values per column: element (kd, n) at n * ld + kd when B is
/// transposed, else kd * ld + n); the index matrix holds two 2-bit indices per group, four per byte from the
/// low bits, in NZ fractals of 16 rows (one per column n) x 8 bytes (byte j of column n at
/// ((j / 8) * idx_rows + n) * 8 + j % 8). The first index is the first value's position among group elements
/// 0..2, the second the second value's position among elements 1..3 (index + 1); a second position not after
/// the first selects the first's element again (the "X/X" rows of the selection table), so both values
/// multiply it.
template <class T, class Acc>
inline void read_sparse_block(const Operand<T>& op, const AscendC::GlobalTensor<uint8_t>& idx, uint64_t ld, uint64_t idx_rows,
                              uint64_t k0, uint64_t k, uint64_t n0, uint64_t cols, std::vector<Acc>& dst, const char* api) {
    if (k0 % 4 || k % 4)
        fail("matmul-unsupported", "%s: a 4:2 sparse B is read in whole groups of 4 along K (K window [%llu, %llu))", api,
             (unsigned long long)k0, (unsigned long long)(k0 + k));
    dst.assign(k * cols, Acc(0));
    std::vector<Acc> d(k / 2);
    const uint64_t groups = k / 4;
    for (uint64_t c = 0; c < cols; ++c) {
        const uint64_t n = n0 + c;
        if (op.trans) {
            op.read_run(n * ld + k0 / 2, k / 2, d.data(), api);
        } else {
            for (uint64_t kd = 0; kd < k / 2; ++kd) op.read_run((k0 / 2 + kd) * ld + n, 1, d.data() + kd, api);
        }
        for (uint64_t g = 0; g < groups; ++g) {
            const uint64_t ga = k0 / 4 + g, j = ga / 2, at = ((j / 8) * idx_rows + n) * 8 + j % 8;
            idx.check_read(at, 1, api);
            const uint32_t byte = idx.raw()[at], shift = uint32_t(ga % 2) * 4;
            const uint32_t p1 = (byte >> shift) & 3u, i2 = (byte >> (shift + 2)) & 3u;
            const uint32_t p2 = i2 + 1 > p1 ? i2 + 1 : p1;
            if (p1 > 2)
                fail("matmul-sparse-index", "%s: sparse index %u for the first value of a group (column %llu, group %llu): it "
                     "selects among elements 0..2", api, p1, (unsigned long long)n, (unsigned long long)ga);
            Acc& x = dst[(4 * g + p1) * cols + c];
            x += d[2 * g];
            Acc& y = dst[(4 * g + p2) * cols + c];
            y += d[2 * g + 1];
        }
    }
}

}  // namespace mm
}  // namespace kgen
