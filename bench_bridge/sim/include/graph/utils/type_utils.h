// kgen host-side emulation -- ge::TypeUtils: data type sizes and names.
//
// Documented behaviour followed: GetDataTypeLength(dt, len) stores the byte size of one element and
// returns true, or returns false for types without a byte size; the serial strings are the enum
// names ("DT_FLOAT16", "FORMAT_ND").
//
// @api TypeUtils GetDataTypeLength DataTypeToSerialString FormatToSerialString SerialStringToDataType
#pragma once
#include <string>

#include "graph/types.h"

namespace ge {

class TypeUtils {
public:
    static bool GetDataTypeLength(DataType dt, uint32_t& length) {
        int n = GetSizeByDataType(dt);
        if (n <= 0) return false;
        length = static_cast<uint32_t>(n);
        return true;
    }
    static std::string DataTypeToSerialString(DataType dt) {
        switch (dt) {
#define KGEN_DT_NAME(x) case x: return #x;
            KGEN_DT_NAME(DT_FLOAT) KGEN_DT_NAME(DT_FLOAT16) KGEN_DT_NAME(DT_INT8) KGEN_DT_NAME(DT_INT32)
            KGEN_DT_NAME(DT_UINT8) KGEN_DT_NAME(DT_INT16) KGEN_DT_NAME(DT_UINT16) KGEN_DT_NAME(DT_UINT32)
            KGEN_DT_NAME(DT_INT64) KGEN_DT_NAME(DT_UINT64) KGEN_DT_NAME(DT_DOUBLE) KGEN_DT_NAME(DT_BOOL)
            KGEN_DT_NAME(DT_STRING) KGEN_DT_NAME(DT_COMPLEX64) KGEN_DT_NAME(DT_COMPLEX128) KGEN_DT_NAME(DT_BF16)
            KGEN_DT_NAME(DT_UNDEFINED) KGEN_DT_NAME(DT_INT4) KGEN_DT_NAME(DT_COMPLEX32)
#undef KGEN_DT_NAME
            default: return "DT_UNDEFINED";
        }
    }
    static DataType SerialStringToDataType(const std::string& s) {
        for (int i = 0; i < DT_MAX; ++i)
            if (DataTypeToSerialString(static_cast<DataType>(i)) == s) return static_cast<DataType>(i);
        return DT_UNDEFINED;
    }
    static std::string FormatToSerialString(Format f) {
        switch (f) {
            case FORMAT_NCHW: return "NCHW";
            case FORMAT_NHWC: return "NHWC";
            case FORMAT_ND: return "ND";
            case FORMAT_NC1HWC0: return "NC1HWC0";
            case FORMAT_FRACTAL_Z: return "FRACTAL_Z";
            case FORMAT_HWCN: return "HWCN";
            case FORMAT_NDHWC: return "NDHWC";
            case FORMAT_FRACTAL_NZ: return "FRACTAL_NZ";
            case FORMAT_NCDHW: return "NCDHW";
            case FORMAT_NC: return "NC";
            default: return "FORMAT_" + std::to_string(static_cast<int>(f));
        }
    }
};

}  // namespace ge
