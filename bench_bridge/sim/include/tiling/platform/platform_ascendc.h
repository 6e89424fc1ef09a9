// kgen host-side emulation -- platform queries a TilingFunc makes (platform_ascendc::PlatformAscendC).
//
// Documented behaviour followed:
//  * GetCoreNum() returns the number of vector cores on a separated (cube/vector) architecture such as
//    Atlas A2 (910B); GetCoreNumAic/GetCoreNumAiv give cube and vector core counts; GetCoreNumVector()
//    (stand-alone vector cores) is 0 on A2.
//  * GetCoreMemSize(type, size) reports a memory size in bytes; on the Ascend910B family the UB and L1
//    sizes are reported less the local buffer kept for KFC (kfc_reserved_bytes of the SoC table, 256 B:
//    196352 B of UB), as CANN's platform library does; after ReserveLocalMemory(n) the UB size reported is
//    reduced by n as well (only the last reservation counts).
//  * CalcTschBlockDim / CalcTschNumBlocks(sliceNum, aic, aiv): with both cube and vector in use a block
//    is one cube core + aiv/aic vector cores, so the block count is ceil(sliceNum / (aiv/aic)); with one
//    kind only it is sliceNum.
//  * GetLibApiWorkSpaceSize(): the system workspace high-level APIs need, placed at the start of the
//    workspace the framework allocates (GetUserWorkspace skips it on the kernel side).
//  * GetSocVersion() returns the same enum for every Atlas A2 variant (ASCEND910B).
// Numbers: core counts and memory sizes come from the SoC table (bench_bridge/soc.toml, with their
// sources; generated into kgen_sim/soc_table.h). The SoC is chosen with env KGEN_SOC (the table's default
// when unset). Assumption (not confirmed in public docs): system workspace 16 MiB.
//
// @api PlatformAscendC PlatformAscendCManager GetCoreNum GetCoreNumAic GetCoreNumAiv GetCoreNumVector GetCoreMemSize GetCoreMemBw GetSocVersion CalcTschBlockDim CalcTschNumBlocks GetLibApiWorkSpaceSize GetResGroupBarrierWorkSpaceSize GetResCubeGroupWorkSpaceSize ReserveLocalMemory CoreMemType SocVersion PlatFormInfos
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "kgen_sim/soc_table.h"

namespace kgen {
namespace host {

using SocSpec = soc::SocRow;

/// The emulated SoC: KGEN_SOC names one of the SoC table (e.g. 910B2 or Ascend910B4); unset, its default.
inline const SocSpec& soc_spec() {
    static const SocSpec* chosen = [] {
        const SocSpec* fallback = &soc::SOCS[soc::DEFAULT_SOC];
        const char* env = std::getenv("KGEN_SOC");
        if (!env || !*env) return fallback;
        std::string s = env;
        for (const SocSpec& sp : soc::SOCS)
            if (s == sp.name || s == sp.name + 6 || ("ascend" + std::string(sp.name + 6)) == s) return &sp;
        std::string known;
        for (const SocSpec& sp : soc::SOCS) known += std::string(known.empty() ? "" : ", ") + (sp.name + 6);
        std::fprintf(stderr, "kgen: warning: unknown KGEN_SOC '%s' (known: %s); using %s\n", env, known.c_str(),
                     fallback->name + 6);
        return fallback;
    }();
    return *chosen;
}

}  // namespace host
}  // namespace kgen

namespace fe {
enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };
/// Opaque platform description handed to TilingFuncs (context->GetPlatformInfo()).
class PlatFormInfos {
public:
    const kgen::host::SocSpec& spec() const { return kgen::host::soc_spec(); }
    /// Local memory size in bytes: the platform description's sizes (PlatformAscendC::GetCoreMemSize reports
    /// UB and L1 less the KFC reserve).
    bool GetLocalMemSize(const LocalMemType& type, uint64_t& size) const {
        const uint64_t sizes[] = {kgen::soc::SOC_L0A_BYTES, kgen::soc::SOC_L0B_BYTES, kgen::soc::SOC_L0C_BYTES,
                                  kgen::soc::SOC_L1_BYTES,  spec().l2_bytes,           kgen::soc::SOC_UB_BYTES,
                                  spec().hbm_bytes};
        int i = static_cast<int>(type);
        size = i >= 0 && i < 7 ? sizes[i] : 0;
        return i >= 0 && i < 7;
    }
    uint32_t GetCoreNum() const { return spec().aiv; }
};
}  // namespace fe

namespace platform_ascendc {

enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, FB = 7, BT = 8, RESERVED };
enum class SocVersion {
    ASCEND910 = 0,
    ASCEND910B,
    ASCEND910_93,
    ASCEND910_95,
    ASCEND310P,
    ASCEND310B,
    ASCEND910E,
    BS9SX1A,
    ASCEND610Lite,
    KIRINX90,
    MC61AM21A,
    RESERVED_VERSION = 99999
};
enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

constexpr uint32_t KGEN_SYS_WORKSPACE_BYTES = 16u * 1024u * 1024u;

class PlatformAscendC {
public:
    PlatformAscendC() = default;
    explicit PlatformAscendC(fe::PlatFormInfos*) {}
    uint32_t GetCoreNum() const { return kgen::host::soc_spec().aiv; }
    uint32_t GetCoreNumAic() const { return kgen::host::soc_spec().aic; }
    uint32_t GetCoreNumAiv() const { return kgen::host::soc_spec().aiv; }
    uint32_t GetCoreNumVector() const { return 0; }
    SocVersion GetSocVersion() const { return SocVersion::ASCEND910B; }
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        if (aicCoreNum == 0 || aivCoreNum == 0 || aivCoreNum < aicCoreNum) return sliceNum;
        uint32_t ratio = aivCoreNum / aicCoreNum;
        return (sliceNum + ratio - 1) / ratio;
    }
    uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const {
        return CalcTschBlockDim(sliceNum, aicCoreNum, aivCoreNum);
    }
    void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
        switch (memType) {
            case CoreMemType::L0_A: size = kgen::soc::SOC_L0A_BYTES; break;
            case CoreMemType::L0_B: size = kgen::soc::SOC_L0B_BYTES; break;
            case CoreMemType::L0_C: size = kgen::soc::SOC_L0C_BYTES; break;
            case CoreMemType::L1: size = kgen::soc::SOC_L1_BYTES - kgen::soc::SOC_KFC_RESERVED_BYTES; break;
            case CoreMemType::L2: size = kgen::host::soc_spec().l2_bytes; break;
            case CoreMemType::UB: size = kgen::soc::SOC_UB_BYTES - kgen::soc::SOC_KFC_RESERVED_BYTES - reserved_; break;
            case CoreMemType::HBM: size = kgen::host::soc_spec().hbm_bytes; break;
            case CoreMemType::FB: size = kgen::soc::SOC_FB_BYTES; break;
            case CoreMemType::BT: size = kgen::soc::SOC_BT_BYTES; break;
            default: size = 0; break;
        }
    }
    /// Bandwidth per cycle: not modelled by the emulator (reports 0).
    void GetCoreMemBw(const CoreMemType&, uint64_t& bw) const { bw = 0; }
    uint32_t GetLibApiWorkSpaceSize() const { return KGEN_SYS_WORKSPACE_BYTES; }
    uint32_t GetResGroupBarrierWorkSpaceSize() const { return 0; }
    uint32_t GetResCubeGroupWorkSpaceSize() const { return 0; }
    void ReserveLocalMemory(ReservedSize size) {
        reserved_ = size == ReservedSize::RESERVED_SIZE_8K ? 8192 : size == ReservedSize::RESERVED_SIZE_16K ? 16384 : 32768;
    }

private:
    uint64_t reserved_ = 0;
};

class PlatformAscendCManager {
public:
    static PlatformAscendC* GetInstance() {
        static PlatformAscendC p;
        return &p;
    }
    static PlatformAscendC* GetInstance(const char*) { return GetInstance(); }
};

}  // namespace platform_ascendc
