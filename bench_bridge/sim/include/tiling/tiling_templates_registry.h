// kgen host-side emulation -- tiling/tiling_templates_registry.h: TilingRegistry and
// REGISTER_TILING_TEMPLATE, the registry of TilingBaseClass classes per operator type.
//
// Documented behaviour followed:
//  * REGISTER_TILING_TEMPLATE("Op", Class, priority) registers Class for operator type "Op"; a
//    smaller priority value is tried first; one class per (op, priority).
//  * TilingRegistry::GetInstance().DoTilingImpl(context) constructs each class of
//    context->GetNodeType() in priority order with the context and runs DoTiling(): the first status
//    other than GRAPH_PARAM_INVALID is the result; if every class declines, GRAPH_FAILED.
//  * DoTilingImpl(context, priorities) tries only the listed priorities, in the listed order, and
//    returns at the first GRAPH_SUCCESS (GRAPH_FAILED otherwise).
// Emulator check: a duplicate (op, priority) registration is a host warning.
//
// @api TilingRegistry REGISTER_TILING_TEMPLATE DoTilingImpl GetTilingTemplates RegisterOp
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kgen_sim/host_diag.h"
#include "tiling/tiling_base.h"

namespace optiling {

using TilingClassCase = std::function<std::unique_ptr<TilingBaseClass>(gert::TilingContext*)>;

class TilingCases {
public:
    explicit TilingCases(std::string op_type) : op_type_(std::move(op_type)) {}
    template <typename T>
    void AddTiling(int32_t priority) {
        if (cases_.count(priority)) {
            kgen::host::host_warn("tiling-template-duplicate", "REGISTER_TILING_TEMPLATE: %s has two classes at priority %d; the first one stays",
                                  op_type_.c_str(), priority);
            return;
        }
        cases_[priority] = [](gert::TilingContext* ctx) { return std::unique_ptr<TilingBaseClass>(new T(ctx)); };
    }
    const std::map<int32_t, TilingClassCase>& GetTilingCases() const { return cases_; }

private:
    std::string op_type_;
    std::map<int32_t, TilingClassCase> cases_;
};

class TilingRegistry {
public:
    static TilingRegistry& GetInstance() {
        static TilingRegistry registry;
        return registry;
    }
    std::shared_ptr<TilingCases> RegisterOp(const std::string& op_type) {
        auto& slot = ops_[op_type];
        if (!slot) slot = std::make_shared<TilingCases>(op_type);
        return slot;
    }
    const std::map<int32_t, TilingClassCase>& GetTilingTemplates(const std::string& op_type) {
        auto it = ops_.find(op_type);
        return it == ops_.end() ? empty_ : it->second->GetTilingCases();
    }
    ge::graphStatus DoTilingImpl(gert::TilingContext* context) {
        for (const auto& kv : GetTilingTemplates(context->GetNodeType())) {
            std::unique_ptr<TilingBaseClass> t = kv.second(context);
            if (!t) continue;
            ge::graphStatus st = t->DoTiling();
            if (st != ge::GRAPH_PARAM_INVALID) return st;
        }
        return ge::GRAPH_FAILED;
    }
    ge::graphStatus DoTilingImpl(gert::TilingContext* context, const std::vector<int32_t>& priorities) {
        const auto& cases = GetTilingTemplates(context->GetNodeType());
        for (int32_t p : priorities) {
            auto it = cases.find(p);
            if (it == cases.end()) continue;
            std::unique_ptr<TilingBaseClass> t = it->second(context);
            if (t && t->DoTiling() == ge::GRAPH_SUCCESS) return ge::GRAPH_SUCCESS;
        }
        return ge::GRAPH_FAILED;
    }

private:
    std::map<std::string, std::shared_ptr<TilingCases>> ops_;
    const std::map<int32_t, TilingClassCase> empty_{};
};

class Register {
public:
    explicit Register(std::string op_type) : op_type_(std::move(op_type)) {}
    template <typename T>
    Register& tiling(int32_t priority) {
        TilingRegistry::GetInstance().RegisterOp(op_type_)->AddTiling<T>(priority);
        return *this;
    }

private:
    std::string op_type_;
};

}  // namespace optiling

#define KGEN_TILING_TEMPLATE_CAT2(a, b) a##b
#define KGEN_TILING_TEMPLATE_CAT(a, b) KGEN_TILING_TEMPLATE_CAT2(a, b)
#define REGISTER_TILING_TEMPLATE(op_type, class_name, priority)                                                   \
    static ::optiling::Register KGEN_TILING_TEMPLATE_CAT(kgen_tiling_template_##class_name##_, __COUNTER__) = \
        ::optiling::Register(op_type).tiling<class_name>(priority)
