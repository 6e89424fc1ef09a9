// kgen AscendC CPU emulator -- tensor lists: ListTensorDesc and TensorDesc<T>.
//
// A DYNAMIC input or output of an OpDef (a list of tensors, e.g. the x of ForeachAbs) reaches the
// kernel as ONE GM address. At that address the framework lays out, in 64-bit words:
//
//     word 0            ptr_offset: byte offset from the start to the data-pointer array
//     then per tensor   one word: low 32 bits = dim (number of dimensions), high 32 bits = index
//                       dim words: shape[0] .. shape[dim - 1]
//     at ptr_offset     one word per tensor: the GM address of its data
//
// (the layout of AscendC's ListTensorDesc documentation; kernels that read the words themselves,
// as many Foreach kernels do, see the same bytes).
//
// Documented behaviour followed:
//  * ListTensorDesc(data, length, shapeSize) / Init(...) parse that layout; length and shapeSize are
//    only checked when given (0xffffffff means "do not check"): shapeSize is the number of data
//    pointers, length the byte length of the whole block (ptr_offset + 8 * count).
//  * GetSize() is the number of data pointers; GetDataPtr<T>(i) the data address of tensor i.
//  * GetDesc(desc, i) fills a TensorDesc<T> whose SetShapeAddr(buf) was called first: the shape is
//    written to buf; GetDim/GetIndex/GetShape(k)/GetDataPtr/GetDataObj read it back.
// Emulator checks: an index past GetSize(), GetDesc without SetShapeAddr, a null or malformed list
// (ptr_offset not a multiple of 8, descriptors that overrun it) and a length/shapeSize that
// disagrees with the block are errors.
// Assumption: the descriptors are walked one by one, so tensors of different ranks in one list are
// described correctly (the documentation draws equal ranks); a 0-d tensor is described with dim 1,
// shape [1].
//
// @api ListTensorDesc TensorDesc GetDesc GetDataPtr GetSize SetShapeAddr GetDim GetIndex GetShape GetDataObj
#pragma once
#include <cstdint>
#include <vector>

#include "kgen_sim/core.h"
#include "kgen_sim/tensor.h"

namespace kgen {
/// The words of a tensor-list block (the layout above) for tensors with these shapes and data
/// addresses; the framework side (the project harness) writes it to GM for a DYNAMIC parameter.
inline std::vector<uint64_t> list_tensor_layout(const std::vector<std::vector<int64_t>>& shapes, const std::vector<uint64_t>& ptrs) {
    std::vector<uint64_t> w{0};
    for (size_t i = 0; i < shapes.size(); ++i) {
        const bool scalar = shapes[i].empty();
        w.push_back((static_cast<uint64_t>(i) << 32) | static_cast<uint64_t>(scalar ? 1 : shapes[i].size()));
        if (scalar) w.push_back(1);
        for (int64_t d : shapes[i]) w.push_back(static_cast<uint64_t>(d));
    }
    w[0] = 8 * w.size();
    for (uint64_t p : ptrs) w.push_back(p);
    return w;
}
}  // namespace kgen

namespace AscendC {

class ListTensorDesc;

template <class T>
class TensorDesc {
public:
    TensorDesc() = default;
    ~TensorDesc() = default;
    void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
    uint64_t GetDim() { return dim_; }
    uint64_t GetIndex() { return index_; }
    uint64_t GetShape(uint32_t offset) {
        if (!shape_) ::kgen::fail("list-tensor", "TensorDesc::GetShape(%u): no shape address (call SetShapeAddr, then ListTensorDesc::GetDesc)", offset);
        if (offset >= dim_) ::kgen::fail("list-tensor", "TensorDesc::GetShape(%u): the tensor has %llu dimension(s)", offset,
                                         static_cast<unsigned long long>(dim_));
        return shape_[offset];
    }
    __gm__ T* GetDataPtr() { return data_; }
    /// The tensor's data as a GlobalTensor holding shape[0] * ... * shape[dim-1] elements.
    GlobalTensor<T> GetDataObj() {
        uint64_t n = 1;
        for (uint64_t k = 0; k < dim_; ++k) n *= shape_ ? shape_[k] : 1;
        GlobalTensor<T> g;
        g.SetGlobalBuffer(data_, n);
        return g;
    }

private:
    friend class ListTensorDesc;
    uint64_t* shape_ = nullptr;
    uint64_t dim_ = 0;
    uint64_t index_ = 0;
    T* data_ = nullptr;
};

class ListTensorDesc {
public:
    ListTensorDesc() = default;
    ~ListTensorDesc() = default;
    ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) { Init(data, length, shapeSize); }

    void Init(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff) {
        if (!data) ::kgen::fail("list-tensor", "ListTensorDesc::Init: the list address is null");
        base_ = static_cast<uint64_t*>(data);
        const uint64_t off = base_[0];
        if (off < 8 || off % 8 != 0 || off > (1u << 24))
            ::kgen::fail("list-tensor", "ListTensorDesc::Init: ptr_offset %llu is not a multiple of 8 bytes past the first word "
                         "(is this address a tensor list?)", static_cast<unsigned long long>(off));
        const uint64_t words = off / 8;
        count_ = 0;
        desc_word_.clear();
        for (uint64_t w = 1; w < words;) {
            const uint64_t dim = base_[w] & 0xffffffffu;
            if (w + 1 + dim > words)
                ::kgen::fail("list-tensor", "ListTensorDesc::Init: descriptor %u (dim %llu) runs past ptr_offset %llu", count_,
                             static_cast<unsigned long long>(dim), static_cast<unsigned long long>(off));
            desc_word_.push_back(static_cast<uint32_t>(w));
            ++count_;
            w += 1 + dim;
        }
        ptrs_ = base_ + words;
        if (shapeSize != 0xffffffffu && shapeSize != count_)
            ::kgen::fail("list-tensor", "ListTensorDesc::Init: shapeSize %u given but the list holds %u data pointer(s)", shapeSize, count_);
        if (length != 0xffffffffu && length != off + 8ull * count_)
            ::kgen::fail("list-tensor", "ListTensorDesc::Init: length %u given but the list occupies %llu bytes", length,
                         static_cast<unsigned long long>(off + 8ull * count_));
    }

    uint32_t GetSize() { return count_; }

    template <class T>
    __gm__ T* GetDataPtr(uint32_t index) {
        check(index, "GetDataPtr");
        return reinterpret_cast<T*>(static_cast<uintptr_t>(ptrs_[index]));
    }

    template <class T>
    void GetDesc(TensorDesc<T>& desc, uint32_t index) {
        check(index, "GetDesc");
        if (!desc.shape_) ::kgen::fail("list-tensor", "ListTensorDesc::GetDesc(%u): call desc.SetShapeAddr(buffer) first", index);
        const uint64_t head = base_[desc_word_[index]];
        desc.dim_ = head & 0xffffffffu;
        desc.index_ = head >> 32;
        for (uint64_t k = 0; k < desc.dim_; ++k) desc.shape_[k] = base_[desc_word_[index] + 1 + k];
        desc.data_ = reinterpret_cast<T*>(static_cast<uintptr_t>(ptrs_[index]));
    }

private:
    void check(uint32_t index, const char* what) const {
        if (!base_) ::kgen::fail("list-tensor", "ListTensorDesc::%s: the list was not initialised (construct it with the GM address or call Init)", what);
        if (index >= count_) ::kgen::fail("list-tensor", "ListTensorDesc::%s(%u): the list holds %u tensor(s)", what, index, count_);
    }
    uint64_t* base_ = nullptr;
    uint64_t* ptrs_ = nullptr;
    uint32_t count_ = 0;
    std::vector<uint32_t> desc_word_;  // word index of each tensor's descriptor
};

}  // namespace AscendC
