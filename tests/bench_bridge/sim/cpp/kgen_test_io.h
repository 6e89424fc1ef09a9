// Test-only helpers for emulator test programs: named cases, .bin file I/O, device buffers.
//
// A test program defines cases with KT_CASE(name) { ... } and ends with KT_MAIN().
// `prog CASE` runs one case in the current directory: inputs are read from NAME.bin
// (raw little-endian arrays written by the Python test), outputs are written to NAME.bin.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"

namespace kt {

inline std::map<std::string, std::function<void()>>& cases() {
    static std::map<std::string, std::function<void()>> m;
    return m;
}
struct Register {
    Register(const char* name, std::function<void()> f) { cases()[name] = std::move(f); }
};

/// Read NAME.bin as an array of T.
template <typename T>
std::vector<T> load(const std::string& name) {
    std::string path = name + ".bin";
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) { std::fprintf(stderr, "kt: missing input %s\n", path.c_str()); std::exit(97); }
    std::fseek(f, 0, SEEK_END);
    long n = std::ftell(f);
    std::fseek(f, 0, SEEK_SET);
    std::vector<T> v(n / sizeof(T));
    if (n && std::fread(v.data(), 1, n, f) != size_t(n)) std::exit(97);
    std::fclose(f);
    return v;
}
/// Write an array to NAME.bin.
template <typename T>
void save(const std::string& name, const std::vector<T>& v) {
    std::string path = name + ".bin";
    FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(v.data(), sizeof(T), v.size(), f);
    std::fclose(f);
}
/// Read a scalar parameter from NAME.bin (int64 written by the test), or `dflt`.
inline int64_t param(const std::string& name, int64_t dflt = 0) {
    std::string path = name + ".bin";
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return dflt;
    int64_t v = dflt;
    if (std::fread(&v, sizeof v, 1, f) != 1) v = dflt;
    std::fclose(f);
    return v;
}

/// A device (GM) buffer holding a copy of `host`, or `n` uninitialised elements.
template <typename T>
struct Dev {
    T* ptr = nullptr;
    size_t n = 0;
    explicit Dev(const std::vector<T>& host) : n(host.size()) {
        aclrtMalloc((void**)&ptr, n * sizeof(T) ? n * sizeof(T) : 32, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemcpy(ptr, n * sizeof(T), host.data(), n * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE);
    }
    explicit Dev(size_t count) : n(count) { aclrtMalloc((void**)&ptr, n * sizeof(T) ? n * sizeof(T) : 32, ACL_MEM_MALLOC_HUGE_FIRST); }
    ~Dev() { aclrtFree(ptr); }
    uint8_t* gm() const { return reinterpret_cast<uint8_t*>(ptr); }
    std::vector<T> host() const {
        std::vector<T> v(n);
        aclrtMemcpy(v.data(), n * sizeof(T), ptr, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST);
        return v;
    }
};

inline int dispatch(int argc, char** argv) {
    if (argc < 2) {
        for (auto& kv : cases()) std::printf("%s\n", kv.first.c_str());
        return 0;
    }
    auto it = cases().find(argv[1]);
    if (it == cases().end()) { std::fprintf(stderr, "kt: unknown case %s\n", argv[1]); return 98; }
    aclInit(nullptr);
    aclrtSetDevice(0);
    it->second();
    aclFinalize();
    return 0;
}

}  // namespace kt

#define KT_CASE(name)                                     \
    static void kt_case_##name();                         \
    static kt::Register kt_reg_##name(#name, kt_case_##name); \
    static void kt_case_##name()
#define KT_MAIN() int main(int argc, char** argv) { return kt::dispatch(argc, argv); }
