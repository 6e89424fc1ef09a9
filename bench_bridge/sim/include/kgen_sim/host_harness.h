// kgen host-side emulation -- the program main of a custom-operator project build.
//
// `prog describe OUT.json` writes what the registrations declared (OpDefs, tiling classes).
// `prog run JOB.txt` runs one case the way the CANN framework would: build the TilingContext from
// the job (shapes, dtypes, formats, attributes), run TilingParse and the TilingFunc, check their
// results, allocate GM for inputs, outputs, workspace and tiling data, launch the kernel entry with
// the block dim the TilingFunc set, and write the outputs and a JSON summary.
// Not an AscendC API: the emulator's stand-in for the CANN runtime (aclnn) around a custom op.
#pragma once
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "kgen_sim/host_registry.h"
#include "kgen_sim/list_tensor.h"
#include "kgen_sim/tiling_kernel.h"
#include "register/op_def_registry.h"

/// Defined in the generated kernel translation unit (absent in the describe-only build).
extern "C" int kgen_project_launch(uint32_t block_dim, uint8_t** args, size_t nargs) __attribute__((weak));

namespace kgen {
namespace host {

inline std::string jstr(const std::string& s) { return "\"" + kgen::json_escape(s) + "\""; }

inline void describe_param(std::ostream& o, const ops::OpParamDef& p) {
    o << "{\"name\":" << jstr(p.kgen_name()) << ",\"param_type\":" << int(p.kgen_param_type()) << ",\"dtypes\":[";
    for (size_t i = 0; i < p.kgen_dtypes().size(); ++i) o << (i ? "," : "") << int(p.kgen_dtypes()[i]);
    o << "],\"formats\":[";
    for (size_t i = 0; i < p.kgen_formats().size(); ++i) o << (i ? "," : "") << int(p.kgen_formats()[i]);
    o << "],\"dtype_is_list\":" << (p.kgen_dtype_is_list() ? "true" : "false")
      << ",\"format_is_list\":" << (p.kgen_format_is_list() ? "true" : "false")
      << ",\"value_depend\":" << (p.kgen_value_depend() ? "true" : "false") << ",\"follow\":" << jstr(p.kgen_follow()) << "}";
}

inline void describe_attr(std::ostream& o, const ops::OpAttrDef& a) {
    o.precision(9);
    o << "{\"name\":" << jstr(a.kgen_name()) << ",\"kind\":" << jstr(attr_kind_name(a.kgen_kind()))
      << ",\"required\":" << (const_cast<ops::OpAttrDef&>(a).IsRequired() ? "true" : "false")
      << ",\"has_default\":" << (a.kgen_has_default() ? "true" : "false") << ",\"default\":";
    if (!a.kgen_has_default()) { o << "null}"; return; }
    auto list = [&](auto& v) { o << "["; for (size_t i = 0; i < v.size(); ++i) o << (i ? "," : "") << v[i]; o << "]"; };
    switch (a.kgen_kind()) {
        case AttrKind::Int: o << a.kgen_i(); break;
        case AttrKind::Float: o << a.kgen_f(); break;
        case AttrKind::Bool: o << (a.kgen_b() ? "true" : "false"); break;
        case AttrKind::Str: o << jstr(a.kgen_s()); break;
        case AttrKind::ListInt: list(a.kgen_li()); break;
        case AttrKind::ListFloat: list(a.kgen_lf()); break;
        case AttrKind::ListBool: { std::vector<int> v(a.kgen_lb().begin(), a.kgen_lb().end()); o << "["; for (size_t i = 0; i < v.size(); ++i) o << (i ? "," : "") << (v[i] ? "true" : "false"); o << "]"; break; }
        case AttrKind::ListListInt: {
            o << "[";
            for (size_t i = 0; i < a.kgen_lli().size(); ++i) { o << (i ? "," : ""); list(a.kgen_lli()[i]); }
            o << "]";
            break;
        }
        default: o << "null";
    }
    o << "}";
}

inline int describe(const char* out_path) {
    std::ostringstream o;
    o << "{\"ops\":[";
    bool first = true;
    for (auto& kv : op_defs()) {
        std::unique_ptr<ops::OpDef> def = kv.second();
        auto it = op_impls().find(def->kgen_type());
        const OpImpl* impl = it == op_impls().end() ? nullptr : &it->second;
        o << (first ? "" : ",") << "{\"type\":" << jstr(def->kgen_type()) << ",\"inputs\":[";
        first = false;
        for (size_t i = 0; i < def->inputs_.size(); ++i) { o << (i ? "," : ""); describe_param(o, def->inputs_[i]); }
        o << "],\"outputs\":[";
        for (size_t i = 0; i < def->outputs_.size(); ++i) { o << (i ? "," : ""); describe_param(o, def->outputs_[i]); }
        o << "],\"attrs\":[";
        for (size_t i = 0; i < def->attrs_.size(); ++i) { o << (i ? "," : ""); describe_attr(o, def->attrs_[i]); }
        o << "],\"configs\":[";
        for (size_t i = 0; i < def->aicore_.configs_.size(); ++i) {
            const auto& c = def->aicore_.configs_[i];
            o << (i ? "," : "") << "{\"soc\":" << jstr(c.first) << ",\"inputs\":[";
            for (size_t k = 0; k < c.second.inputs_.size(); ++k) { o << (k ? "," : ""); describe_param(o, c.second.inputs_[k]); }
            o << "],\"outputs\":[";
            for (size_t k = 0; k < c.second.outputs_.size(); ++k) { o << (k ? "," : ""); describe_param(o, c.second.outputs_[k]); }
            o << "]}";
        }
        o << "],\"has_tiling\":" << ((def->aicore_.tiling_ || (impl && impl->tiling)) ? "true" : "false")
          << ",\"has_tiling_parse\":" << ((impl && impl->tiling_parse) ? "true" : "false")
          << ",\"has_infer_shape\":" << ((def->infer_shape_ || (impl && impl->infer_shape)) ? "true" : "false")
          << ",\"has_infer_dtype\":" << ((def->infer_dtype_ || (impl && impl->infer_dtype)) ? "true" : "false") << "}";
    }
    o << "],\"impls\":[";
    first = true;
    for (auto& kv : op_impls()) {
        o << (first ? "" : ",") << jstr(kv.first);
        first = false;
    }
    o << "],\"tiling_classes\":[";
    first = true;
    for (auto& kv : tiling_classes()) {
        TilingClass c;
        kv.second(c);
        o << (first ? "" : ",") << "{\"name\":" << jstr(c.name) << ",\"size\":" << c.size << ",\"align\":" << c.align << ",\"fields\":[";
        first = false;
        for (size_t i = 0; i < c.fields.size(); ++i) {
            const TilingField& f = c.fields[i];
            o << (i ? "," : "") << "{\"name\":" << jstr(f.name) << ",\"type\":" << jstr(f.type) << ",\"elem_size\":" << f.elem_size
              << ",\"count\":" << f.count << ",\"offset\":" << f.offset << ",\"is_struct\":" << (f.is_struct ? "true" : "false") << "}";
        }
        o << "]}";
    }
    o << "],\"tiling_registrations\":[";
    for (size_t i = 0; i < tiling_registrations().size(); ++i)
        o << (i ? "," : "") << "[" << jstr(tiling_registrations()[i].first) << "," << jstr(tiling_registrations()[i].second) << "]";
    o << "]}\n";
    std::ofstream f(out_path);
    f << o.str();
    return f.good() ? 0 : 2;
}

// ---- run one job ----------------------------------------------------------------------------

struct JobTensor {
    std::string name;
    int ir = 0;
    int dtype = 0;
    int format = 2;
    bool value_depend = false;
    std::string path;
    std::vector<int64_t> dims;
    std::vector<uint8_t> host;
    uint8_t* gm = nullptr;
    size_t bytes = 0;
    bool infer = false;  // an output whose shape the operator's InferShape gives (job: ndims "infer")
};

struct Job {
    std::string op, summary;
    std::vector<JobTensor> inputs, outputs;
    std::vector<int> absent;  // IR indices of absent optional inputs, in kernel order positions
    std::vector<std::string> arg_order;  // "i<k>", "a" (absent), "o<k>"
    std::vector<std::unique_ptr<AttrValue>> attrs;
    bool zero_outputs = false;  // job line `zero_outputs`: the caller's binding zero-fills outputs before the kernel
};

inline std::string unhex(const std::string& h) {
    std::string s;
    for (size_t i = 0; i + 1 < h.size(); i += 2) s.push_back(static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16)));
    return s;
}

inline bool read_job(const char* path, Job& job, std::string& err) {
    std::ifstream f(path);
    if (!f) { err = std::string("cannot open job file ") + path; return false; }
    std::string line;
    while (std::getline(f, line)) {
        std::istringstream ls(line);
        std::string kw;
        if (!(ls >> kw)) continue;
        if (kw == "op") ls >> job.op;
        else if (kw == "zero_outputs") job.zero_outputs = true;
        else if (kw == "summary") ls >> job.summary;
        else if (kw == "input" || kw == "output") {
            JobTensor t;
            int vd = 0;
            size_t nd = 0;
            std::string nd_s;
            ls >> t.name >> t.ir >> t.dtype >> t.format >> vd >> t.path >> nd_s;
            t.value_depend = vd != 0;
            if (kw == "output" && nd_s == "infer") t.infer = true;
            else nd = static_cast<size_t>(std::strtoull(nd_s.c_str(), nullptr, 10));
            t.dims.resize(nd);
            for (auto& d : t.dims) ls >> d;
            if (!ls) { err = "malformed job line: " + line; return false; }
            if (kw == "input") { job.arg_order.push_back("i" + std::to_string(job.inputs.size())); job.inputs.push_back(std::move(t)); }
            else { job.arg_order.push_back("o" + std::to_string(job.outputs.size())); job.outputs.push_back(std::move(t)); }
        } else if (kw == "absent") {
            int ir = 0;
            ls >> ir;
            job.absent.push_back(ir);
            job.arg_order.push_back("a");
        } else if (kw == "attr") {
            auto a = std::make_unique<AttrValue>();
            std::string kind;
            ls >> a->name >> kind;
            size_t n = 0;
            if (kind == "int") { a->kind = AttrKind::Int; ls >> a->i; }
            else if (kind == "float") { a->kind = AttrKind::Float; double d; ls >> d; a->f = static_cast<float>(d); }
            else if (kind == "bool") { a->kind = AttrKind::Bool; int b; ls >> b; a->b = b != 0; }
            else if (kind == "str") { a->kind = AttrKind::Str; std::string h; ls >> h; a->s = unhex(h == "-" ? "" : h); }
            else if (kind == "list_int") { a->kind = AttrKind::ListInt; ls >> n; a->li.resize(n); for (auto& v : a->li) ls >> v; }
            else if (kind == "list_float") { a->kind = AttrKind::ListFloat; ls >> n; a->lf.resize(n); for (auto& v : a->lf) { double d; ls >> d; v = float(d); } }
            else if (kind == "list_bool") { a->kind = AttrKind::ListBool; ls >> n; a->lb.reset(new bool[n ? n : 1]); a->lb_size = n; for (size_t k = 0; k < n; ++k) { int b; ls >> b; a->lb[k] = b != 0; } }
            else { err = "unsupported attribute kind in job: " + kind; return false; }
            if (!ls) { err = "malformed job line: " + line; return false; }
            a->seal();
            job.attrs.push_back(std::move(a));
        }
    }
    return true;
}

inline size_t dtype_bytes(int dt) {
    int n = ge::GetSizeByDataType(static_cast<ge::DataType>(dt));
    return n > 0 ? static_cast<size_t>(n) : 1;
}

inline std::string hex_bytes(const void* p, size_t n) {
    static const char* d = "0123456789abcdef";
    std::string s;
    const uint8_t* b = static_cast<const uint8_t*>(p);
    for (size_t i = 0; i < n; ++i) { s.push_back(d[b[i] >> 4]); s.push_back(d[b[i] & 15]); }
    return s;
}

struct Summary {
    std::string stage = "start";
    std::string error;
    uint32_t tiling_status = 0;
    uint32_t block_dim = 0;
    uint64_t tiling_key = 0;
    std::string tiling_hex;
    size_t tiling_size = 0;
    std::vector<size_t> workspace;
    std::vector<std::string> infer_notes;
    uint64_t key_asked = 0, key_matched = 0;
};

inline void write_summary(const std::string& path, const Summary& s) {
    if (path.empty()) return;
    std::ofstream f(path);
    f << "{\"stage\":" << jstr(s.stage) << ",\"error\":" << jstr(s.error) << ",\"tiling_status\":" << s.tiling_status
      << ",\"block_dim\":" << s.block_dim << ",\"tiling_key\":" << s.tiling_key << ",\"tiling_size\":" << s.tiling_size
      << ",\"tiling_hex\":" << jstr(s.tiling_hex) << ",\"workspace_sizes\":[";
    for (size_t i = 0; i < s.workspace.size(); ++i) f << (i ? "," : "") << s.workspace[i];
    f << "],\"infer_notes\":[";
    for (size_t i = 0; i < s.infer_notes.size(); ++i) f << (i ? "," : "") << jstr(s.infer_notes[i]);
    f << "],\"tiling_key_checks\":" << s.key_asked << ",\"tiling_key_matches\":" << s.key_matched << "}\n";
}

[[noreturn]] inline void job_error(Summary& s, const std::string& path, const char* code, const std::string& msg) {
    s.error = msg;
    write_summary(path, s);
    std::fprintf(stderr, "kgen: error: %s [%s]\n", msg.c_str(), code);
    if (const char* dp = std::getenv("KGEN_DIAG_FILE")) {
        if (FILE* f = std::fopen(dp, "a")) {
            std::fprintf(f, "{\"severity\":\"error\",\"code\":\"%s\",\"file\":\"\",\"line\":0,\"function\":\"\",\"block\":-1,\"message\":\"%s\"}\n",
                         code, kgen::json_escape(msg).c_str());
            std::fclose(f);
        }
    }
    std::fflush(stdout);
    _exit(kgen::EXIT_KERNEL_ERROR);
}

/// uint64 words per output in the shape argument of outputs whose shape depends on the computation.
inline constexpr size_t SHAPE_OUT_WORDS = 9;

/// The shape the kernel wrote for output parameter `ir` (its dimension count, then its dimensions) against the
/// shape the output was given (the reference's): a different shape is the kernel's result, and wrong.
inline void check_shape_out(const Job& job, Summary& sum, int ir, const uint64_t* words) {
    for (const JobTensor& t : job.outputs) {
        if (t.ir != ir || t.infer) continue;
        std::vector<int64_t> got;
        for (uint64_t d = 0; d < words[0] && d < SHAPE_OUT_WORDS - 1; ++d) got.push_back(static_cast<int64_t>(words[1 + d]));
        if (words[0] > SHAPE_OUT_WORDS - 1 || got != t.dims) {
            std::string g, w;
            for (int64_t d : got) g += (g.empty() ? "" : ", ") + std::to_string(d);
            for (int64_t d : t.dims) w += (w.empty() ? "" : ", ") + std::to_string(d);
            job_error(sum, job.summary, "shape-out-mismatch", "output '" + t.name + "' depends on the computation for its shape; "
                      "the kernel wrote " + std::to_string(words[0]) + " dimension(s) [" + g + "] to its shape argument, the "
                      "reference's shape is [" + w + "]");
        }
        return;
    }
}

/// The input whose device memory output `k` of `job` shares: the input of the same name (for a DYNAMIC
/// parameter, the instance at the same position in its list) and the same size, already placed in GM;
/// nullptr when the output is not an in-place one.
inline const JobTensor* in_place_input(const Job& job, size_t k) {
    const JobTensor& out = job.outputs[k];
    size_t nth = 0;   // which instance of its name this output is
    for (size_t j = 0; j < k; ++j) nth += job.outputs[j].name == out.name;
    for (const JobTensor& in : job.inputs) {
        if (in.name != out.name) continue;
        if (nth-- > 0) continue;
        return in.bytes == out.bytes && in.gm ? &in : nullptr;
    }
    return nullptr;
}

inline int run(const char* job_path) {
    kgen::install_crash_handlers();
    Job job;
    Summary sum;
    std::string err;
    if (!read_job(job_path, job, err)) job_error(sum, job.summary, "job", err);

    std::unique_ptr<ops::OpDef> def;
    for (auto& kv : op_defs())
        if (kv.first == job.op) def = kv.second();
    OpImpl impl;
    auto it = op_impls().find(job.op);
    if (it != op_impls().end()) impl = it->second;
    gert::TilingKernelFunc tiling_fn = def && def->aicore_.tiling_ ? def->aicore_.tiling_ : impl.tiling;
    gert::InferShapeKernelFunc infer_shape = def && def->infer_shape_ ? def->infer_shape_ : impl.infer_shape;
    gert::InferDataTypeKernelFunc infer_dtype = def && def->infer_dtype_ ? def->infer_dtype_ : impl.infer_dtype;
    if (!tiling_fn)
        job_error(sum, job.summary, "no-tiling-func", "operator " + job.op + " has no TilingFunc: register one with "
                  "this->AICore().SetTiling(f) in the OpDef or IMPL_OP_OPTILING(" + job.op + ").Tiling(f)");

    // load inputs
    for (size_t k = 0; k < job.inputs.size(); ++k) {
        JobTensor& t = job.inputs[k];
        int64_t n = 1;
        for (int64_t d : t.dims) n *= d;
        t.bytes = static_cast<size_t>(n) * dtype_bytes(t.dtype);
        std::ifstream f(t.path, std::ios::binary);
        t.host.resize(t.bytes);
        if (!f || (t.bytes && !f.read(reinterpret_cast<char*>(t.host.data()), t.bytes)))
            job_error(sum, job.summary, "job", "cannot read input file " + t.path);
        for (int vd : impl.value_depend_inputs)
            if (vd == t.ir) t.value_depend = true;
    }
    // outputs the reference gave no shape for (it returns only some of the op's outputs): the operator's
    // InferShape gives them, as the framework would before allocating them
    bool need_infer = false;
    for (auto& t : job.outputs) need_infer = need_infer || t.infer;
    if (need_infer) {
        if (!infer_shape)
            job_error(sum, job.summary, "no-infer-shape", "the reference gives no shape for some outputs of " + job.op +
                      " and the operator registers no InferShape to compute them");
        gert::InferShapeContext pre;
        pre.kgen_node_name = pre.kgen_node_type = job.op;
        std::vector<gert::Tensor> tens;
        tens.reserve(job.inputs.size());
        for (auto& t : job.inputs) {
            gert::StorageShape ss;
            for (int64_t d : t.dims) { ss.MutableOriginShape().AppendDim(d); ss.MutableStorageShape().AppendDim(d); }
            pre.kgen_in.push_back(ss.GetOriginShape());
            pre.kgen_in_ir.push_back(t.ir);
            tens.emplace_back(ss, static_cast<ge::DataType>(t.dtype), static_cast<ge::Format>(t.format), t.host.data(), t.value_depend, t.name);
        }
        for (auto& tn : tens) pre.kgen_tensors.push_back(&tn);
        pre.kgen_out.resize(job.outputs.size());
        for (auto& t : job.outputs) pre.kgen_out_ir.push_back(t.ir);
        gert::RuntimeAttrs pre_attrs(&job.attrs);
        pre.kgen_attrs = &pre_attrs;
        if (infer_shape(&pre) != ge::GRAPH_SUCCESS)
            job_error(sum, job.summary, "infer-shape-failed", "the InferShape function of " + job.op +
                      " failed; it is needed for the outputs the reference gives no shape for");
        for (size_t k = 0; k < job.outputs.size(); ++k)
            if (job.outputs[k].infer) job.outputs[k].dims = pre.kgen_out[k].ToVector();
    }
    for (auto& t : job.outputs) {
        int64_t n = 1;
        for (int64_t d : t.dims) n *= d;
        t.bytes = static_cast<size_t>(n) * dtype_bytes(t.dtype);
    }

    // contexts
    auto slot = [](const JobTensor& t) {
        TensorSlot s;
        s.name = t.name;
        s.ir_index = t.ir;
        for (int64_t d : t.dims) { s.shape.MutableOriginShape().AppendDim(d); s.shape.MutableStorageShape().AppendDim(d); }
        s.desc = gert::CompileTimeTensorDesc(static_cast<ge::DataType>(t.dtype), static_cast<ge::Format>(t.format));
        s.tensor = gert::Tensor(s.shape, static_cast<ge::DataType>(t.dtype), static_cast<ge::Format>(t.format), t.host.data(),
                                t.value_depend, t.name);
        return s;
    };
    auto ctx = std::make_unique<gert::TilingContext>();
    ctx->kgen_node_name = job.op;
    ctx->kgen_node_type = job.op;
    for (auto& t : job.inputs) ctx->kgen_inputs.push_back(slot(t));
    for (auto& t : job.outputs) ctx->kgen_outputs.push_back(slot(t));
    ctx->kgen_attrs = gert::RuntimeAttrs(&job.attrs);

    if (infer_shape) {
        gert::InferShapeContext ic;
        ic.kgen_node_name = ic.kgen_node_type = job.op;
        for (auto& s : ctx->kgen_inputs) { ic.kgen_in.push_back(s.shape.GetOriginShape()); ic.kgen_in_ir.push_back(s.ir_index); ic.kgen_tensors.push_back(&s.tensor); }
        ic.kgen_out.resize(ctx->kgen_outputs.size());
        ic.kgen_attrs = &ctx->kgen_attrs;
        ge::graphStatus st = infer_shape(&ic);
        if (st != ge::GRAPH_SUCCESS) {
            sum.infer_notes.push_back("InferShape returned failure (" + std::to_string(st) + ")");
            kgen::host::host_warn("infer-shape-failed", "the InferShape function of %s returned %u (not GRAPH_SUCCESS)", job.op.c_str(), st);
        } else {
            for (size_t k = 0; k < ic.kgen_out.size(); ++k) {
                if (ic.kgen_out[k] != ctx->kgen_outputs[k].shape.GetOriginShape()) {
                    std::string got, want;
                    for (int64_t d : ic.kgen_out[k].ToVector()) got += std::to_string(d) + ",";
                    for (int64_t d : job.outputs[k].dims) want += std::to_string(d) + ",";
                    std::string note = "InferShape gives output '" + job.outputs[k].name + "' the shape [" + got + "] but the reference output has [" + want + "]";
                    sum.infer_notes.push_back(note);
                    kgen::host::host_warn("infer-shape-mismatch", "%s", note.c_str());
                }
            }
        }
    }
    if (infer_dtype) {
        gert::InferDataTypeContext dc;
        dc.kgen_node_name = dc.kgen_node_type = job.op;
        for (auto& s : ctx->kgen_inputs) { dc.kgen_in.push_back(s.desc.GetDataType()); dc.kgen_in_ir.push_back(s.ir_index); }
        dc.kgen_out.assign(ctx->kgen_outputs.size(), ge::DT_UNDEFINED);
        dc.kgen_attrs = &ctx->kgen_attrs;
        if (infer_dtype(&dc) == ge::GRAPH_SUCCESS) {
            for (size_t k = 0; k < dc.kgen_out.size(); ++k) {
                if (dc.kgen_out[k] != ge::DT_UNDEFINED && dc.kgen_out[k] != ctx->kgen_outputs[k].desc.GetDataType()) {
                    std::string note = "InferDataType gives output '" + job.outputs[k].name + "' " +
                                       std::to_string(int(dc.kgen_out[k])) + " but the build's combination has " +
                                       std::to_string(int(ctx->kgen_outputs[k].desc.GetDataType()));
                    sum.infer_notes.push_back(note);
                    kgen::host::host_warn("infer-dtype-mismatch", "%s", note.c_str());
                }
            }
        }
    }

    // TilingParse (compile info), then the TilingFunc
    std::shared_ptr<void> compile_info;
    if (impl.tiling_parse) {
        gert::TilingParseContext pc;
        pc.kgen_node_name = pc.kgen_node_type = job.op;
        if (impl.make_compile_info) compile_info = impl.make_compile_info();
        pc.kgen_compile_info = compile_info.get();
        ge::graphStatus st = impl.tiling_parse(&pc);
        if (st != ge::GRAPH_SUCCESS)
            job_error(sum, job.summary, "tiling-parse-failed", "the TilingParse function of " + job.op + " returned " + std::to_string(st) + " (not GRAPH_SUCCESS)");
        ctx->kgen_compile_info = compile_info.get();
    }
    sum.stage = "tiling";
    ge::graphStatus st = tiling_fn(ctx.get());
    std::fflush(stdout);
    sum.tiling_status = st;
    sum.block_dim = ctx->kgen_block_dim;
    sum.tiling_key = ctx->kgen_tiling_key;
    sum.tiling_size = ctx->kgen_tiling.GetDataSize();
    sum.tiling_hex = hex_bytes(ctx->kgen_tiling.GetData(), sum.tiling_size);
    for (size_t k = 0; k < ctx->kgen_workspace_num; ++k) sum.workspace.push_back(ctx->kgen_workspace[k]);
    if (st != ge::GRAPH_SUCCESS)
        job_error(sum, job.summary, "tiling-failed", "the TilingFunc of " + job.op + " returned " + std::to_string(st) +
                  " (not GRAPH_SUCCESS): the framework stops before launching the kernel");
    if (ctx->kgen_block_dim == 0)
        job_error(sum, job.summary, "block-dim-zero", "the TilingFunc of " + job.op + " left the block dim at 0 (call context->SetBlockDim(n))");
    if (ctx->kgen_block_dim > 65535)
        job_error(sum, job.summary, "block-dim-too-large", "the TilingFunc of " + job.op + " set block dim " + std::to_string(ctx->kgen_block_dim) + " (at most 65535)");
    sum.stage = "launch";
    write_summary(job.summary, sum);

    if (!kgen_project_launch)
        job_error(sum, job.summary, "no-kernel", "this build has no kernel (describe-only build)");

    // device memory: one GM block per tensor; the instances of a DYNAMIC parameter become one
    // tensor-list block (kgen_sim/list_tensor.h) whose address is the kernel argument
    std::vector<uint8_t*> args;
    size_t in_k = 0, out_k = 0;
    std::vector<std::vector<uint64_t>> lists;  // host words of each tensor-list block, kept for the launch
    const JobTensor* list_head = nullptr;  // first instance of the list being gathered
    int list_ir = -1;
    bool list_input = true;
    std::vector<std::vector<int64_t>> list_shapes;
    std::vector<uint64_t> list_ptrs;
    auto flush_list = [&]() {
        if (!list_head) return;
        lists.push_back(kgen::list_tensor_layout(list_shapes, list_ptrs));
        const size_t bytes = lists.back().size() * sizeof(uint64_t);
        void* p = nullptr;
        if (aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
            job_error(sum, job.summary, "oom", "cannot allocate the tensor list of " + list_head->name);
        std::memcpy(p, lists.back().data(), bytes);
        args.push_back(static_cast<uint8_t*>(p));
        list_head = nullptr;
        list_shapes.clear();
        list_ptrs.clear();
    };
    for (const std::string& a : job.arg_order) {
        if (a == "a") { flush_list(); args.push_back(nullptr); continue; }
        const bool input = a[0] == 'i';
        JobTensor& t = input ? job.inputs[in_k++] : job.outputs[out_k++];
        // an output named like an input (OpDef Input("y") + Output("y")) is that tensor updated in place:
        // CANN binds the output to the input's device memory, so both arguments (both tensor lists, instance
        // by instance) address the same GM and a kernel may write through either (ScatterList writes
        // through its input list)
        if (const JobTensor* in = input ? nullptr : in_place_input(job, out_k - 1)) {
            t.gm = in->gm;
        } else {
            void* p = nullptr;
            if (aclrtMalloc(&p, t.bytes ? t.bytes : 1, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
                job_error(sum, job.summary, "oom", "cannot allocate " + std::to_string(t.bytes) + " bytes of GM for " + t.name);
            if (input && t.bytes) std::memcpy(p, t.host.data(), t.bytes);
            // outputs start as 0xCD bytes (aclrtMalloc's memory is zeroed, as the driver's fresh pages are), so an
            // element the kernel never writes shows; zeros when the task's binding zero-fills them (zero_outputs)
            if (!input && t.bytes) std::memset(p, job.zero_outputs ? 0 : 0xCD, t.bytes);
            t.gm = static_cast<uint8_t*>(p);
        }
        bool dynamic = false;
        if (def) {
            const auto& params = input ? def->inputs_ : def->outputs_;
            dynamic = t.ir >= 0 && static_cast<size_t>(t.ir) < params.size() &&
                      params[static_cast<size_t>(t.ir)].kgen_param_type() == ops::DYNAMIC;
        }
        if (list_head && (!dynamic || list_ir != t.ir || list_input != input)) flush_list();
        if (!dynamic) { args.push_back(t.gm); continue; }
        if (!list_head) { list_head = &t; list_ir = t.ir; list_input = input; }
        list_shapes.push_back(t.dims);
        list_ptrs.push_back(reinterpret_cast<uint64_t>(t.gm));
    }
    flush_list();
    // outputs whose shape depends on the computation (OpDef OutputShapeDependOnCompute): CANN passes the
    // kernel one more GM argument after the outputs, where the kernel writes each such output's shape as
    // SHAPE_OUT_WORDS uint64 words: the dimension count, then up to 8 dimensions (the layout of the shape
    // tensor of OP_OUTSHAPE, documented with the op API); the framework then takes that shape
    std::vector<size_t> shape_outs;   // indices into def->outputs_
    uint64_t* shape_buf = nullptr;
    if (def)
        for (size_t j = 0; j < def->outputs_.size(); ++j)
            if (def->outputs_[j].kgen_shape_depends_on_compute()) shape_outs.push_back(j);
    if (!shape_outs.empty()) {
        void* p = nullptr;
        const size_t bytes = shape_outs.size() * SHAPE_OUT_WORDS * sizeof(uint64_t);
        if (aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
            job_error(sum, job.summary, "oom", "cannot allocate the shape output of the outputs whose shape depends on the computation");
        std::memset(p, 0, bytes);
        shape_buf = static_cast<uint64_t*>(p);
        args.push_back(static_cast<uint8_t*>(p));
    }
    size_t ws_total = 0;
    for (size_t w : sum.workspace) ws_total += w;
    void* ws = nullptr;
    if (ws_total) {
        if (aclrtMalloc(&ws, ws_total, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
            job_error(sum, job.summary, "oom", "cannot allocate a workspace of " + std::to_string(ws_total) + " bytes");
        // the framework's workspace comes from its memory pool and holds earlier data: 0xCD bytes, never zeros
        std::memset(ws, 0xCD, ws_total);
    } else {
        ws = std::aligned_alloc(512, 512);  // a valid address, but no GM allocation: any access is reported
    }
    args.push_back(static_cast<uint8_t*>(ws));
    void* tiling = nullptr;
    aclrtMalloc(&tiling, sum.tiling_size ? sum.tiling_size : 1, ACL_MEM_MALLOC_HUGE_FIRST);
    if (sum.tiling_size) std::memcpy(tiling, ctx->kgen_tiling.GetData(), sum.tiling_size);
    args.push_back(static_cast<uint8_t*>(tiling));

    TilingKeyState& ks = tiling_key_state();
    ks.key = ctx->kgen_tiling_key;
    ks.asked = 0;
    ks.matched = 0;
    int rc = kgen_project_launch(ctx->kgen_block_dim, args.data(), args.size());
    sum.key_asked = ks.asked.load();
    sum.key_matched = ks.matched.load();
    if (rc != 0) job_error(sum, job.summary, "kernel-signature", "the kernel entry could not be called with the OpDef's arguments (see above)");
    if (sum.key_asked > 0 && sum.key_matched == 0)
        job_error(sum, job.summary, "tiling-key-unmatched", "the TilingFunc set tiling key " + std::to_string(ctx->kgen_tiling_key) +
                  " but no TILING_KEY_IS branch of the kernel matches it: CANN builds one kernel per TILING_KEY_IS key, "
                  "so this launch would fail on hardware");

    for (size_t k = 0; k < shape_outs.size(); ++k) check_shape_out(job, sum, static_cast<int>(shape_outs[k]), shape_buf + k * SHAPE_OUT_WORDS);
    for (auto& t : job.outputs) {
        std::ofstream f(t.path, std::ios::binary);
        f.write(reinterpret_cast<const char*>(t.gm), static_cast<std::streamsize>(t.bytes));
        if (!f) job_error(sum, job.summary, "job", "cannot write output file " + t.path);
    }
    // an op without outputs works in place: hand its inputs back as the kernel left them
    if (job.outputs.empty()) {
        for (auto& t : job.inputs) {
            if (!t.gm) continue;
            std::ofstream f(t.path + ".after", std::ios::binary);
            f.write(reinterpret_cast<const char*>(t.gm), static_cast<std::streamsize>(t.bytes));
        }
    }
    sum.stage = "done";
    write_summary(job.summary, sum);
    return 0;
}

inline int main(int argc, char** argv) {
    if (argc >= 3 && std::string(argv[1]) == "describe") return describe(argv[2]);
    if (argc >= 3 && std::string(argv[1]) == "run") return run(argv[2]);
    std::fprintf(stderr, "usage: %s describe OUT.json | run JOB.txt\n", argv[0]);
    return 2;
}

}  // namespace host
}  // namespace kgen
