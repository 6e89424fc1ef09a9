// kgen AscendC CPU emulator -- Layout, Shape and Stride (the auxiliary data structures TransData and
// tensor descriptions take).
//
// Documented behaviour followed (Layout / MakeShape / MakeStride / MakeLayout / GetShape / GetStride
// pages): Shape<Ts...> and Stride<Ts...> are tuples (AscendC::Std::tuple) of the values given to
// MakeShape(...) / MakeStride(...); Layout<ShapeType, StrideType> is a tuple of one Shape and one
// Stride, built by MakeLayout(shape, stride) or its constructor (both default to {}), with GetShape()
// and GetStride(); Std::get<i>(shape) reads one dimension. An empty MakeStride() means "packed".
// Coord<Ts...> (Coordinate page) is a tuple too, built by MakeCoord; Crd2Idx(coord, layout | shape,
// stride) and layout(coord) give its index, the sum of coord_i * stride_i (the emulator takes
// coordinates of the stride's rank; the delinearisation of a shorter coordinate is not emulated).
//
// @api Layout MakeLayout MakeShape MakeStride Coord MakeCoord Crd2Idx
#pragma once
#include <cstddef>
#include <cstdint>
#include <tuple>

namespace AscendC {
namespace Std {
using std::get;
using std::make_tuple;
using std::tuple;
using std::tuple_size;
}  // namespace Std

template <typename... Ts>
using Shape = Std::tuple<Ts...>;
template <typename... Ts>
using Stride = Std::tuple<Ts...>;

template <typename... Ts>
constexpr Shape<Ts...> MakeShape(const Ts&... t) { return Shape<Ts...>(t...); }
template <typename... Ts>
constexpr Stride<Ts...> MakeStride(const Ts&... t) { return Stride<Ts...>(t...); }

template <typename ShapeType, typename StrideType>
struct Layout : Std::tuple<ShapeType, StrideType> {
    constexpr Layout(const ShapeType& shape = {}, const StrideType& stride = {})
        : Std::tuple<ShapeType, StrideType>(shape, stride) {}
    constexpr decltype(auto) GetShape() { return std::get<0>(static_cast<Std::tuple<ShapeType, StrideType>&>(*this)); }
    constexpr decltype(auto) GetShape() const {
        return std::get<0>(static_cast<const Std::tuple<ShapeType, StrideType>&>(*this));
    }
    constexpr decltype(auto) GetStride() { return std::get<1>(static_cast<Std::tuple<ShapeType, StrideType>&>(*this)); }
    constexpr decltype(auto) GetStride() const {
        return std::get<1>(static_cast<const Std::tuple<ShapeType, StrideType>&>(*this));
    }
    /// The index of a coordinate (Crd2Idx below).
    template <typename CoordType>
    constexpr auto operator()(const CoordType& coord) const;
};

template <typename ShapeType, typename StrideType>
constexpr auto MakeLayout(const ShapeType& shape, const StrideType& stride) { return Layout<ShapeType, StrideType>(shape, stride); }

template <typename ShapeType, typename StrideType>
template <typename CoordType>
constexpr auto Layout<ShapeType, StrideType>::operator()(const CoordType& coord) const { return Crd2Idx(coord, *this); }

template <typename... Ts>
using Coord = Std::tuple<Ts...>;
template <typename... Ts>
constexpr Coord<Ts...> MakeCoord(const Ts&... t) { return Coord<Ts...>(t...); }

/// Crd2Idx(coord, shape, stride) = sum of coord_i * stride_i (flat coordinates of the stride's rank).
template <typename CoordType, typename ShapeType, typename StrideType>
constexpr auto Crd2Idx(const CoordType& coord, const ShapeType&, const StrideType& stride) {
    static_assert(std::tuple_size<CoordType>::value == std::tuple_size<StrideType>::value,
                  "Crd2Idx: the emulator takes a coordinate of the layout's rank (no delinearisation)");
    return std::apply([&](const auto&... c) {
        return std::apply([&](const auto&... s) { return (static_cast<int64_t>(0) + ... + (static_cast<int64_t>(c) * static_cast<int64_t>(s))); },
                          stride);
    }, coord);
}
template <typename CoordType, typename ShapeType, typename StrideType>
constexpr auto Crd2Idx(const CoordType& coord, const Layout<ShapeType, StrideType>& layout) {
    return Crd2Idx(coord, layout.GetShape(), layout.GetStride());
}

}  // namespace AscendC

namespace kgen {
/// The dimensions of a Shape as int64 values (at most 8).
template <typename S>
inline size_t shape_dims(const S& s, int64_t (&out)[8]) {
    constexpr size_t n = std::tuple_size<S>::value;
    static_assert(n <= 8, "a Shape of at most 8 dimensions");
    size_t i = 0;
    std::apply([&](const auto&... v) { ((out[i++] = static_cast<int64_t>(v)), ...); }, s);
    return n;
}
}  // namespace kgen
