// kgen host-side emulation -- graph engine basic types (ge::DataType, ge::Format, graphStatus).
//
// Clean-room: written from the documented enumerations, not from CANN sources.
// Documented facts followed:
//  * ge::DataType numbering (DT_FLOAT = 0, DT_FLOAT16 = 1, DT_INT8 = 2, DT_INT32 = 3, DT_UINT8 = 4,
//    DT_INT16 = 6, DT_UINT16 = 7, DT_UINT32 = 8, DT_INT64 = 9, DT_UINT64 = 10, DT_DOUBLE = 11,
//    DT_BOOL = 12, ..., DT_BF16 = 27, DT_UNDEFINED = 28); kernels compare ORIG_DTYPE_<ARG> with these.
//  * ge::Format numbering (FORMAT_NCHW = 0, FORMAT_NHWC = 1, FORMAT_ND = 2, ..., FORMAT_FRACTAL_NZ = 29).
//  * graphStatus: GRAPH_SUCCESS is 0; every other value is a failure.
//  * Dynamic-shape markers: UNKNOWN_DIM (-1) is a dimension not known before run time, UNKNOWN_DIM_NUM
//    (-2) as the only dimension marks a shape whose rank is unknown; UNKNOWN_SHAPE = {-1},
//    UNKNOWN_RANK = {-2}. The emulator's shapes are static: InferShape code only compares with them.
//
// @api DataType Format graphStatus SUCCESS FAILED GRAPH_SUCCESS GRAPH_FAILED GRAPH_PARAM_INVALID GetSizeByDataType AscendString UNKNOWN_DIM UNKNOWN_DIM_NUM UNKNOWN_SHAPE UNKNOWN_RANK
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

namespace ge {

using char_t = char;
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
constexpr graphStatus GRAPH_NOT_CHANGED = 1343242304;
constexpr graphStatus GRAPH_PARAM_INVALID = 50331649;
constexpr graphStatus GRAPH_NODE_WITHOUT_CONST_INPUT = 50331648;

// generic status codes (ge error numbers): SUCCESS is 0, FAILED the all-ones failure code
constexpr uint32_t SUCCESS = 0;
constexpr uint32_t FAILED = 0xFFFFFFFF;

constexpr int64_t UNKNOWN_DIM = -1;
constexpr int64_t UNKNOWN_DIM_NUM = -2;
inline const std::vector<int64_t> UNKNOWN_SHAPE = {UNKNOWN_DIM};
inline const std::vector<int64_t> UNKNOWN_RANK = {UNKNOWN_DIM_NUM};

enum DataType {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT32 = 8,
    DT_INT64 = 9,
    DT_UINT64 = 10,
    DT_DOUBLE = 11,
    DT_BOOL = 12,
    DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14,
    DT_DUAL_SUB_UINT8 = 15,
    DT_COMPLEX64 = 16,
    DT_COMPLEX128 = 17,
    DT_QINT8 = 18,
    DT_QINT16 = 19,
    DT_QINT32 = 20,
    DT_QUINT8 = 21,
    DT_QUINT16 = 22,
    DT_RESOURCE = 23,
    DT_STRING_REF = 24,
    DT_DUAL = 25,
    DT_VARIANT = 26,
    DT_BF16 = 27,
    DT_UNDEFINED = 28,
    DT_INT4 = 29,
    DT_UINT1 = 30,
    DT_INT2 = 31,
    DT_UINT2 = 32,
    DT_COMPLEX32 = 33,
    DT_MAX
};

enum Format {
    FORMAT_NCHW = 0,
    FORMAT_NHWC = 1,
    FORMAT_ND = 2,
    FORMAT_NC1HWC0 = 3,
    FORMAT_FRACTAL_Z = 4,
    FORMAT_NC1C0HWPAD = 5,
    FORMAT_NHWC1C0 = 6,
    FORMAT_FSR_NCHW = 7,
    FORMAT_FRACTAL_DECONV = 8,
    FORMAT_C1HWNC0 = 9,
    FORMAT_NC1HWC0_C04 = 12,
    FORMAT_FRACTAL_Z_C04 = 13,
    FORMAT_CHWN = 14,
    FORMAT_HWCN = 16,
    FORMAT_NDHWC = 27,
    FORMAT_FRACTAL_NZ = 29,
    FORMAT_NCDHW = 30,
    FORMAT_DHWCN = 31,
    FORMAT_NDC1HWC0 = 32,
    FORMAT_FRACTAL_Z_3D = 33,
    FORMAT_CN = 34,
    FORMAT_NC = 35,
    FORMAT_NCL = 47,
    FORMAT_RESERVED = 40,
    FORMAT_ALL = 41,
    FORMAT_NULL = 42,
    FORMAT_MAX = 0xff
};

/// The primary format (the low byte of a possibly sub-formatted value).
inline int32_t GetPrimaryFormat(int32_t format) { return format & 0xff; }

/// Bytes per element; 0 for types without a byte size (sub-byte, string, undefined).
inline int GetSizeByDataType(DataType dt) {
    switch (dt) {
        case DT_FLOAT: case DT_INT32: case DT_UINT32: case DT_QINT32: case DT_COMPLEX32: return 4;
        case DT_FLOAT16: case DT_BF16: case DT_INT16: case DT_UINT16: case DT_QINT16: case DT_QUINT16: return 2;
        case DT_INT8: case DT_UINT8: case DT_BOOL: case DT_QINT8: case DT_QUINT8: case DT_DUAL_SUB_INT8:
        case DT_DUAL_SUB_UINT8: return 1;
        case DT_INT64: case DT_UINT64: case DT_DOUBLE: case DT_COMPLEX64: return 8;
        case DT_COMPLEX128: return 16;
        default: return -1;
    }
}

/// An owned string, as GE passes names around.
class AscendString {
public:
    AscendString() = default;
    AscendString(const char* s) : s_(s ? s : "") {}
    AscendString(const std::string& s) : s_(s) {}
    const char* GetString() const { return s_.c_str(); }
    size_t GetLength() const { return s_.size(); }
    bool operator<(const AscendString& o) const { return s_ < o.s_; }
    bool operator==(const AscendString& o) const { return s_ == o.s_; }
    bool operator!=(const AscendString& o) const { return s_ != o.s_; }

private:
    std::string s_;
};

/// ge::Shape (graph-level shape): a list of dims.
class Shape {
public:
    Shape() = default;
    explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
    size_t GetDimNum() const { return dims_.size(); }
    int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }
    std::vector<int64_t> GetDims() const { return dims_; }
    int64_t GetShapeSize() const {
        int64_t n = 1;
        for (int64_t d : dims_) n *= d;
        return n;
    }
    graphStatus SetDim(size_t i, int64_t v) {
        if (i >= dims_.size()) return GRAPH_FAILED;
        dims_[i] = v;
        return GRAPH_SUCCESS;
    }

private:
    std::vector<int64_t> dims_;
};

}  // namespace ge
