// kgen host-side emulation -- gert::Shape, gert::StorageShape, gert::StorageFormat.
//
// Documented behaviour followed:
//  * gert::Shape holds at most 8 dims (kMaxDimNum); GetShapeSize() is the product of the dims
//    (1 for a scalar, i.e. zero dims); GetDim(i) past GetDimNum() is an error.
//  * StorageShape pairs the origin shape (as the user sees it) with the storage shape (as laid out
//    on the device); for ND tensors both are the same. TilingFuncs usually read GetStorageShape().
//
// @api Shape StorageShape StorageFormat GetDimNum GetDim SetDim AppendDim SetDimNum GetShapeSize IsScalar GetOriginShape GetStorageShape MutableOriginShape MutableStorageShape
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <vector>

#include "graph/types.h"
#include "kgen_sim/host_diag.h"


namespace gert {

class Shape {
public:
    static constexpr size_t kMaxDimNum = 8;
    static constexpr int64_t kInvalidDimValue = INT64_MIN;

    Shape() = default;
    Shape(std::initializer_list<int64_t> dims) {
        for (int64_t d : dims) AppendDim(d);
    }
    size_t GetDimNum() const { return dim_num_; }
    bool IsScalar() const { return dim_num_ == 0; }
    int64_t GetDim(size_t i) const {
        if (i >= dim_num_) {
            kgen::host::host_warn("shape-dim-range", "Shape::GetDim(%zu) on a shape of %zu dims returns kInvalidDimValue", i, dim_num_);
            return kInvalidDimValue;
        }
        return dims_[i];
    }
    Shape& SetDimNum(size_t n) {
        if (n > kMaxDimNum) kgen::host::host_fail("shape-too-many-dims", "Shape::SetDimNum(%zu): at most %zu dims", n, kMaxDimNum);
        dim_num_ = n;
        return *this;
    }
    Shape& SetDim(size_t i, int64_t v) {
        if (i >= dim_num_) kgen::host::host_fail("shape-dim-range", "Shape::SetDim(%zu) on a shape of %zu dims", i, dim_num_);
        dims_[i] = v;
        return *this;
    }
    Shape& AppendDim(int64_t v) {
        if (dim_num_ >= kMaxDimNum) kgen::host::host_fail("shape-too-many-dims", "Shape::AppendDim: a gert::Shape holds at most %zu dims", kMaxDimNum);
        dims_[dim_num_++] = v;
        return *this;
    }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (size_t i = 0; i < dim_num_; ++i) n *= dims_[i];
        return n;
    }
    const int64_t& operator[](size_t i) const { return dims_[i]; }
    int64_t& operator[](size_t i) { return dims_[i]; }
    bool operator==(const Shape& o) const {
        if (dim_num_ != o.dim_num_) return false;
        for (size_t i = 0; i < dim_num_; ++i)
            if (dims_[i] != o.dims_[i]) return false;
        return true;
    }
    bool operator!=(const Shape& o) const { return !(*this == o); }
    std::vector<int64_t> ToVector() const { return std::vector<int64_t>(dims_, dims_ + dim_num_); }

private:
    size_t dim_num_ = 0;
    int64_t dims_[kMaxDimNum] = {};
};

class StorageShape {
public:
    StorageShape() = default;
    StorageShape(std::initializer_list<int64_t> origin, std::initializer_list<int64_t> storage)
        : origin_(origin), storage_(storage) {}
    const Shape& GetOriginShape() const { return origin_; }
    const Shape& GetStorageShape() const { return storage_; }
    Shape& MutableOriginShape() { return origin_; }
    Shape& MutableStorageShape() { return storage_; }
    bool operator==(const StorageShape& o) const { return origin_ == o.origin_ && storage_ == o.storage_; }

private:
    Shape origin_;
    Shape storage_;
};

class StorageFormat {
public:
    StorageFormat() = default;
    StorageFormat(ge::Format origin, ge::Format storage) : origin_(origin), storage_(storage) {}
    ge::Format GetOriginFormat() const { return origin_; }
    ge::Format GetStorageFormat() const { return storage_; }
    void SetOriginFormat(ge::Format f) { origin_ = f; }
    void SetStorageFormat(ge::Format f) { storage_ = f; }

private:
    ge::Format origin_ = ge::FORMAT_ND;
    ge::Format storage_ = ge::FORMAT_ND;
};

}  // namespace gert
