// kgen host-side emulation -- gert::Tensor and gert::CompileTimeTensorDesc as a TilingFunc sees them.
//
// Documented behaviour followed:
//  * GetInputDesc(i) describes an input: data type and (origin/storage) format.
//  * GetInputTensor(i) gives shape, data type and, for inputs the OpDef marks ValueDepend, the host
//    copy of the data. For other inputs the data lives in device memory the host cannot read: the
//    emulator returns nullptr from GetData and warns, where hardware would hand out a device address.
//
// @api Tensor CompileTimeTensorDesc GetDataType GetStorageFormat GetOriginFormat GetFormat GetData GetAddr GetShapeSize GetSize
#pragma once
#include <cstdint>
#include <string>

#include "exe_graph/runtime/shape.h"
#include "graph/types.h"

namespace gert {

class CompileTimeTensorDesc {
public:
    CompileTimeTensorDesc() = default;
    CompileTimeTensorDesc(ge::DataType dt, ge::Format f) : dtype_(dt), format_(f, f) {}
    ge::DataType GetDataType() const { return dtype_; }
    ge::Format GetStorageFormat() const { return format_.GetStorageFormat(); }
    ge::Format GetOriginFormat() const { return format_.GetOriginFormat(); }
    const StorageFormat& GetFormat() const { return format_; }
    void SetDataType(ge::DataType dt) { dtype_ = dt; }

private:
    ge::DataType dtype_ = ge::DT_UNDEFINED;
    StorageFormat format_;
};

class Tensor {
public:
    Tensor() = default;
    Tensor(const StorageShape& shape, ge::DataType dt, ge::Format f, const void* host_data, bool value_depend, std::string name)
        : shape_(shape), dtype_(dt), format_(f, f), data_(host_data), value_depend_(value_depend), name_(std::move(name)) {}

    template <typename T>
    const T* GetData() const {
        if (!value_depend_) {
            kgen::host::host_warn("tiling-value-depend",
                                  "reading the data of input '%s' on the host: only inputs declared .ValueDepend(REQUIRED) in the "
                                  "OpDef are copied to the host; on hardware this is a device address (GetData returns nullptr here)",
                                  name_.c_str());
            return nullptr;
        }
        return static_cast<const T*>(data_);
    }
    const void* GetAddr() const { return value_depend_ ? data_ : nullptr; }
    int64_t GetShapeSize() const { return shape_.GetStorageShape().GetShapeSize(); }
    size_t GetSize() const {
        int n = ge::GetSizeByDataType(dtype_);
        return n > 0 ? static_cast<size_t>(GetShapeSize()) * n : 0;
    }
    const Shape& GetStorageShape() const { return shape_.GetStorageShape(); }
    const Shape& GetOriginShape() const { return shape_.GetOriginShape(); }
    const StorageShape& GetShape() const { return shape_; }
    ge::DataType GetDataType() const { return dtype_; }
    const StorageFormat& GetFormat() const { return format_; }
    ge::Format GetStorageFormat() const { return format_.GetStorageFormat(); }
    ge::Format GetOriginFormat() const { return format_.GetOriginFormat(); }

private:
    StorageShape shape_;
    ge::DataType dtype_ = ge::DT_UNDEFINED;
    StorageFormat format_;
    const void* data_ = nullptr;
    bool value_depend_ = false;
    std::string name_;
};

}  // namespace gert
