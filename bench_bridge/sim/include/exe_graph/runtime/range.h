// kgen host-side emulation -- gert::Range<T>: a [min, max] pair of pointers (shape ranges).
//
// Documented behaviour followed: Range() holds two null pointers; Range(min, max) and Range(same) point at
// existing objects (the range owns nothing); GetMin/GetMax give the pointers (mutable through a mutable
// range), SetMin/SetMax replace them; two ranges are equal when both pointers match or, otherwise, when
// the pointed-to objects compare equal.
//
// @api Range GetMin GetMax SetMin SetMax
#pragma once

namespace gert {

template <typename T>
class Range {
public:
    Range() = default;
    Range(T* min, T* max) : min_(min), max_(max) {}
    explicit Range(T* same) : min_(same), max_(same) {}
    bool operator==(const Range& o) const {
        if (min_ == o.min_ && max_ == o.max_) return true;
        if (!min_ || !max_ || !o.min_ || !o.max_) return false;
        return *min_ == *o.min_ && *max_ == *o.max_;
    }
    void SetMin(T* p) { min_ = p; }
    void SetMax(T* p) { max_ = p; }
    const T* GetMin() const { return min_; }
    const T* GetMax() const { return max_; }
    T* GetMin() { return min_; }
    T* GetMax() { return max_; }

private:
    T* min_ = nullptr;
    T* max_ = nullptr;
};

}  // namespace gert
