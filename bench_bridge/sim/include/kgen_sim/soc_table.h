// GENERATED from bench_bridge/soc.toml by `python3 -m bench_bridge.soc` -- do not edit.
// The hardware facts of the SoCs kgen emulates (one source: the SoC table). The core memories are
// compile-time constants (every SoC of the table shares them); the per-SoC facts are chosen at run time.
#pragma once
#include <cstdint>

namespace kgen {
namespace soc {

// ---- memories of one core (bytes) ----
inline constexpr uint32_t SOC_UB_BYTES = 196608u;
inline constexpr uint32_t SOC_L1_BYTES = 524288u;
inline constexpr uint32_t SOC_L0A_BYTES = 65536u;
inline constexpr uint32_t SOC_L0B_BYTES = 65536u;
inline constexpr uint32_t SOC_L0C_BYTES = 131072u;
inline constexpr uint32_t SOC_BT_BYTES = 1024u;
inline constexpr uint32_t SOC_FB_BYTES = 2048u;
inline constexpr uint32_t SOC_KFC_RESERVED_BYTES = 256u;

/// One SoC of the table: its CANN name, cube (AIC) and vector (AIV) core counts, L2 and HBM bytes.
struct SocRow {
    const char* name;
    uint32_t aic;
    uint32_t aiv;
    uint64_t l2_bytes;
    uint64_t hbm_bytes;
};

inline constexpr SocRow SOCS[] = {
    {"Ascend910B2", 24u, 48u, 201326592ull, 68719476736ull},
    {"Ascend910B4", 20u, 40u, 176160768ull, 34359738368ull},
};
inline constexpr unsigned SOC_COUNT = 2;
inline constexpr unsigned DEFAULT_SOC = 0;  // 910B2

}  // namespace soc
}  // namespace kgen
