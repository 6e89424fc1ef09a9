// kgen AscendC CPU emulator -- the whole-tensor operator forms of the vector APIs:
// `dst = src0 + src1` (also -, *, /, &, |) and `dst = src0 < src1` (also >, <=, >=, ==, !=).
//
// Documented rules followed (Add / Sub / Mul / Div / And / Or / Compare pages, "整个tensor参与计算"):
//  * the operator form is the count form of the API over the whole tensor: the arithmetic and logic
//    operators compute dst.GetSize() elements, the comparisons src0.GetSize() elements into a
//    uint8_t/int8_t bit mask (one bit per element); the same type, alignment and size rules apply
//    as to the count form (each is checked there, at the user's line);
//  * And / Or on 4-byte types work bitwise on the same bytes seen as 16-bit words (twice as many).
// The expression is evaluated only by the assignment to a LocalTensor; on its own it does nothing.
//
// @api LocalTensor::operator+ LocalTensor::operator- LocalTensor::operator* LocalTensor::operator/
// @api LocalTensor::operator& LocalTensor::operator| LocalTensor::operator< LocalTensor::operator==
#pragma once
#include <cstdint>
#include <type_traits>

#include "kgen_sim/compare_select.h"
#include "kgen_sim/tensor.h"
#include "kgen_sim/vec_binary.h"

namespace kgen {

enum class TensorOp : uint8_t { Add, Sub, Mul, Div, And, Or, Cmp };

/// `src0 OP src1` waiting for its destination (LocalTensor::operator= calls assign_to).
template <typename T, TensorOp OP>
struct TensorExpr {
    using kgen_tensor_expr = void;
    AscendC::LocalTensor<T> src0, src1;
    AscendC::CMPMODE mode = AscendC::CMPMODE::EQ;

    template <typename D>
    void assign_to(const AscendC::LocalTensor<D>& dst) const {
        if constexpr (OP == TensorOp::Cmp) {
            AscendC::Compare(dst, src0, src1, mode, src0.GetSize());
        } else {
            static_assert(std::is_same_v<D, T>, "LocalTensor operator: dst must have the element type of the operands");
            const int32_t n = static_cast<int32_t>(dst.GetSize());
            if constexpr (OP == TensorOp::Add) AscendC::Add(dst, src0, src1, n);
            else if constexpr (OP == TensorOp::Sub) AscendC::Sub(dst, src0, src1, n);
            else if constexpr (OP == TensorOp::Mul) AscendC::Mul(dst, src0, src1, n);
            else if constexpr (OP == TensorOp::Div) AscendC::Div(dst, src0, src1, n);
            else if constexpr (sizeof(T) == 4) bitwise(dst.template ReinterpretCast<uint16_t>(), n * 2);
            else bitwise(dst, n);
        }
    }

private:
    template <typename D>
    void bitwise(const AscendC::LocalTensor<D>& dst, int32_t n) const {
        const auto a = src0.template ReinterpretCast<D>();
        const auto b = src1.template ReinterpretCast<D>();
        if constexpr (OP == TensorOp::And) AscendC::And(dst, a, b, n);
        else AscendC::Or(dst, a, b, n);
    }
};

}  // namespace kgen

namespace AscendC {

#define KGEN_TENSOR_OPERATOR(SYM, OP)                                                                   \
    template <typename T>                                                                               \
    inline kgen::TensorExpr<T, kgen::TensorOp::OP> operator SYM(const LocalTensor<T>& src0, const LocalTensor<T>& src1) { \
        return {src0, src1};                                                                            \
    }
KGEN_TENSOR_OPERATOR(+, Add)
KGEN_TENSOR_OPERATOR(-, Sub)
KGEN_TENSOR_OPERATOR(*, Mul)
KGEN_TENSOR_OPERATOR(/, Div)
KGEN_TENSOR_OPERATOR(&, And)
KGEN_TENSOR_OPERATOR(|, Or)
#undef KGEN_TENSOR_OPERATOR

#define KGEN_TENSOR_COMPARE(SYM, MODE)                                                                  \
    template <typename T>                                                                               \
    inline kgen::TensorExpr<T, kgen::TensorOp::Cmp> operator SYM(const LocalTensor<T>& src0, const LocalTensor<T>& src1) { \
        return {src0, src1, CMPMODE::MODE};                                                             \
    }
KGEN_TENSOR_COMPARE(<, LT)
KGEN_TENSOR_COMPARE(>, GT)
KGEN_TENSOR_COMPARE(<=, LE)
KGEN_TENSOR_COMPARE(>=, GE)
KGEN_TENSOR_COMPARE(==, EQ)
KGEN_TENSOR_COMPARE(!=, NE)
#undef KGEN_TENSOR_COMPARE

}  // namespace AscendC
