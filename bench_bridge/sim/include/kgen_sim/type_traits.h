// kgen AscendC CPU emulator -- compile-time type utilities: AscendC::Conditional and the
// AscendC::Std type traits.
//
// Documented behaviour followed (the type_traits utility pages and the 11_utils/type_traits example's
// README): AscendC::Std provides the C++ standard type traits under their standard names and meaning
// (is_same / is_same_v, is_void, is_integral, is_floating_point, is_pointer, is_reference, is_array,
// is_const, add_/remove_ const / volatile / cv / pointer / reference, conditional, enable_if, ..., and
// the utilities forward / move),
// usable in device code; AscendC::Conditional<cond, T, F>::type is T when cond is true and F otherwise
// (std::conditional's rule). One deviation from the standard library: Std::is_floating_point is also
// true for the device's half type (half is a floating-point type in AscendC).
//
// @api Conditional Std::is_same Std::is_floating_point Std::remove_cv Std::add_const Std::forward Std::move
#pragma once
#include <type_traits>

#include "kgen_sim/half.h"

namespace AscendC {

template <bool cond, typename T, typename F>
struct Conditional {
    using type = T;
};
template <typename T, typename F>
struct Conditional<false, T, F> {
    using type = F;
};

namespace Std {
using std::integral_constant;
using std::bool_constant;
using std::true_type;
using std::false_type;
using std::is_same;
using std::is_same_v;
using std::is_void;
using std::is_void_v;
using std::is_integral;
using std::is_integral_v;
using std::is_pointer;
using std::is_pointer_v;
using std::is_reference;
using std::is_reference_v;
using std::is_lvalue_reference;
using std::is_rvalue_reference;
using std::is_array;
using std::is_array_v;
using std::is_const;
using std::is_const_v;
using std::is_volatile;
using std::is_volatile_v;
using std::is_function;
using std::is_class;
using std::is_base_of;
using std::is_convertible;
using std::add_const;
using std::add_const_t;
using std::add_volatile;
using std::add_volatile_t;
using std::add_cv;
using std::add_cv_t;
using std::add_pointer;
using std::add_pointer_t;
using std::add_lvalue_reference;
using std::add_lvalue_reference_t;
using std::add_rvalue_reference;
using std::add_rvalue_reference_t;
using std::remove_const;
using std::remove_const_t;
using std::remove_volatile;
using std::remove_volatile_t;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_pointer;
using std::remove_pointer_t;
using std::remove_reference;
using std::remove_reference_t;
using std::remove_extent;
using std::remove_extent_t;
using std::decay;
using std::decay_t;
using std::conditional;
using std::conditional_t;
using std::enable_if;
using std::enable_if_t;
using std::declval;
using std::forward;
using std::move;

/// Standard rule, plus the device's half type counts as floating point.
template <typename T>
struct is_floating_point
    : std::bool_constant<std::is_floating_point_v<T> || std::is_same_v<std::remove_cv_t<T>, half>> {};
template <typename T>
inline constexpr bool is_floating_point_v = is_floating_point<T>::value;
}  // namespace Std

}  // namespace AscendC
