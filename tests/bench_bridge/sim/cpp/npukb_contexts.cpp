// Host-side context gaps met by operator-library answers (kgen team test program, not NPUKernelBench code):
//  1. END_TILING_DATA_DEF written without a semicolon, directly followed by REGISTER_TILING_DATA_CLASS;
//  2. an InferShape function that views its context as gert::ExtendedKernelContext and loops over
//     GetComputeNodeOutputNum() outputs;
//  3. an InferShapeRange function reading input ranges and writing output ranges;
//  4. IR-instance queries through the ExtendedKernelContext base of a TilingContext;
//  5. the error/ops_error.h check and log macros;
//  6. ASCENDC_EXTERN_C from the tiling framework headers (empty outside ASCENDC_OP_TEST builds, so two
//     overloads marked with it are valid C++);
//  7. ge::UNKNOWN_DIM / UNKNOWN_DIM_NUM / UNKNOWN_SHAPE / UNKNOWN_RANK;
//  8. a list attribute read with GetInt (an answer reading the wrong index): the list's capacity, a warning.
#include <cstdio>
#include "error/ops_error.h"
#include "tiling/tiling_templates_registry.h"

ASCENDC_EXTERN_C int Entry(int v) { return v + 1; }
ASCENDC_EXTERN_C int Entry(double v) { return static_cast<int>(v * 10); }
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(DemoNoSemiTiling)
    TILING_DATA_FIELD_DEF(int32_t, mode);
    TILING_DATA_FIELD_DEF(int64_t, total);
END_TILING_DATA_DEF
REGISTER_TILING_DATA_CLASS(DemoNoSemi, DemoNoSemiTiling)
}  // namespace optiling

static ge::graphStatus CopyShapes(gert::InferShapeContext* context) {
    auto* ext = reinterpret_cast<gert::ExtendedKernelContext*>(context);
    for (size_t i = 0; i < ext->GetComputeNodeOutputNum(); ++i) {
        const gert::Shape* in = context->GetInputShape(i);
        gert::Shape* out = context->GetOutputShape(i);
        if (in == nullptr || out == nullptr) return ge::GRAPH_FAILED;
        *out = *in;
    }
    return ge::GRAPH_SUCCESS;
}

// output 0 spans the same range as input 0 but with its last dim reduced to 1
static ge::graphStatus ReduceLastRange(gert::InferShapeRangeContext* context) {
    const gert::Range<gert::Shape>* x = context->GetInputShapeRange(0);
    gert::Range<gert::Shape>* y = context->GetOutputShapeRange(0);
    if (x == nullptr || y == nullptr || y->GetMin() == nullptr || context->GetOutputShapeRange(1) != nullptr) return ge::GRAPH_FAILED;
    size_t n = x->GetMax()->GetDimNum();
    y->GetMin()->SetDimNum(n);
    y->GetMax()->SetDimNum(n);
    for (size_t i = 0; i < n; ++i) {
        y->GetMin()->SetDim(i, i + 1 == n ? 1 : x->GetMin()->GetDim(i));
        y->GetMax()->SetDim(i, i + 1 == n ? 1 : x->GetMax()->GetDim(i));
    }
    return ge::GRAPH_SUCCESS;
}

static gert::Shape shape(std::initializer_list<int64_t> d) {
    gert::Shape s;
    for (int64_t v : d) s.AppendDim(v);
    return s;
}

static void print_shape(const char* tag, const gert::Shape& s) {
    std::printf("%s=", tag);
    for (size_t i = 0; i < s.GetDimNum(); ++i) std::printf("%s%lld", i ? "," : "", static_cast<long long>(s.GetDim(i)));
    std::printf("\n");
}

// 5: returns 1 for a missing output shape, 2 for a rank above 4, 0 otherwise
static ge::graphStatus CheckRank(gert::InferShapeContext* context) {
    const gert::Shape* x = context->GetInputShape(0);
    gert::Shape* y = context->GetOutputShape(0);
    OPS_LOG_E_IF_NULL(context, y, return 1);
    OPS_CHECK(x->GetDimNum() > 4, OPS_REPORT_VECTOR_INNER_ERR(context->GetNodeName(), "rank %zu above 4", x->GetDimNum()), return 2);
    OPS_LOG_D(context->GetNodeName(), "rank %zu ok", x->GetDimNum());
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus NeedsAttrs(gert::InferShapeContext* context, const void* attrs) {
    OPS_CHECK_NULL_WITH_CONTEXT(context, attrs);
    return ge::GRAPH_SUCCESS;
}

int main() {
    // 1
    optiling::DemoNoSemiTiling t;
    t.set_mode(3);
    t.set_total(1000);
    std::printf("tiling size=%zu mode=%d total=%lld\n", t.GetDataSize(), t.get_mode(), static_cast<long long>(t.get_total()));

    // 2: three inputs of different shapes (a dynamic list of three), three outputs
    gert::InferShapeContext ic;
    ic.kgen_node_name = "Demo";
    gert::Tensor tensors[3] = {
        gert::Tensor(gert::StorageShape(), ge::DT_FLOAT16, ge::FORMAT_ND, nullptr, false, "a"),
        gert::Tensor(gert::StorageShape(), ge::DT_FLOAT16, ge::FORMAT_ND, nullptr, false, "b"),
        gert::Tensor(gert::StorageShape(), ge::DT_INT32, ge::FORMAT_ND, nullptr, false, "c")};
    ic.kgen_in = {shape({2, 3}), shape({4}), shape({5, 6, 7})};
    ic.kgen_in_ir = {0, 0, 0};
    for (auto& tn : tensors) ic.kgen_tensors.push_back(&tn);
    ic.kgen_out.resize(3);
    ge::graphStatus st = CopyShapes(&ic);
    auto* ext = reinterpret_cast<gert::ExtendedKernelContext*>(&ic);
    std::printf("infer st=%u outs=%zu ins=%zu ir0=%zu name=%s dt2=%d\n", st, ext->GetComputeNodeOutputNum(),
                ext->GetComputeNodeInputNum(), ext->GetIrInputInstanceInfo(0)->GetInstanceNum(), ext->GetNodeName(),
                int(ext->GetInputDesc(2)->GetDataType()));
    for (size_t i = 0; i < 3; ++i) print_shape("out", ic.kgen_out[i]);

    // 3
    gert::Shape xmin = shape({1, 8, 16}), xmax = shape({64, 8, 16}), ymin, ymax;
    gert::InferShapeRangeContext rc;
    rc.kgen_in.emplace_back(&xmin, &xmax);
    rc.kgen_out.emplace_back(&ymin, &ymax);
    st = ReduceLastRange(&rc);
    std::printf("range st=%u null_in=%d\n", st, rc.GetInputShapeRange(1) == nullptr);
    print_shape("ymin", ymin);
    print_shape("ymax", ymax);

    // 4: IR inputs x (required), xs (dynamic of 2), bias (optional, absent), w (required)
    gert::TilingContext tc;
    int ir[] = {0, 1, 1, 3};
    ge::DataType dt[] = {ge::DT_FLOAT, ge::DT_BF16, ge::DT_BF16, ge::DT_INT8};
    for (int k = 0; k < 4; ++k) {
        kgen::host::TensorSlot s;
        s.ir_index = ir[k];
        s.desc = gert::CompileTimeTensorDesc(dt[k], ge::FORMAT_ND);
        tc.kgen_inputs.push_back(s);
    }
    const gert::ExtendedKernelContext* base = &tc;
    std::printf("tiling xs=%zu+%zu bias=%zu w_dt=%d opt_bias_null=%d dyn1_dt=%d dyn2_null=%d\n",
                base->GetIrInputInstanceInfo(1)->GetInstanceStart(), base->GetIrInputInstanceInfo(1)->GetInstanceNum(),
                base->GetIrInputInstanceInfo(2)->GetInstanceNum(), int(base->GetOptionalInputDesc(3)->GetDataType()),
                base->GetOptionalInputDesc(2) == nullptr, int(base->GetDynamicInputDesc(1, 1)->GetDataType()),
                base->GetDynamicInputDesc(1, 2) == nullptr);

    // 5
    gert::InferShapeContext ec;
    ec.kgen_node_name = "Chk";
    ec.kgen_in = {shape({1, 2, 3, 4, 5})};
    ge::graphStatus no_out = CheckRank(&ec);
    ec.kgen_out.resize(1);
    ge::graphStatus rank5 = CheckRank(&ec);
    ec.kgen_in = {shape({2, 2})};
    ge::graphStatus rank2 = CheckRank(&ec);
    int dummy = 0;
    std::printf("ops_error %u %u %u null=%u ok=%u\n", no_out, rank5, rank2, NeedsAttrs(&ec, nullptr), NeedsAttrs(&ec, &dummy));

    // 6
    std::printf("extern_c %d %d\n", Entry(4), Entry(0.5));

    // 7: dynamic-shape markers, as InferShape code compares with them after `using namespace ge`
    {
        using namespace ge;
        gert::Shape s = shape({UNKNOWN_DIM, 8});
        std::printf("status %u %u\n", SUCCESS, FAILED);
        std::printf("unknown %lld %lld %zu %lld %d\n", static_cast<long long>(UNKNOWN_DIM), static_cast<long long>(UNKNOWN_DIM_NUM),
                    UNKNOWN_SHAPE.size(), static_cast<long long>(UNKNOWN_RANK[0]), s.GetDim(0) == UNKNOWN_DIM);
    }

    // 8
    std::vector<std::unique_ptr<kgen::host::AttrValue>> av;
    av.push_back(std::make_unique<kgen::host::AttrValue>());
    av[0]->kind = kgen::host::AttrKind::ListInt;
    av[0]->name = "batch_shape";
    av[0]->li = {48, 7, 9};
    av[0]->seal();
    gert::RuntimeAttrs ra(&av);
    const int64_t* as_int = ra.GetInt(0);
    std::printf("list_as_int %lld list_size %zu\n", static_cast<long long>(*as_int), ra.GetListInt(0)->GetSize());

    // 9: a CheckSupported callback's reads of the graph operator (ReverseSequence); kgen never calls one
    {
        ge::Operator op;
        ge::TensorDesc x = op.GetInputDescByName("x");
        int64_t seqDim = 7;
        ge::graphStatus st = op.GetAttr("seq_dim", seqDim);
        std::printf("operator dims=%zu y=%zu attr=%d seq_dim=%lld dt=%d\n", x.GetShape().GetDims().size(),
                    op.GetOutputDescByName("y").GetShape().GetDimNum(), st == ge::GRAPH_FAILED,
                    static_cast<long long>(seqDim), ge::GetSizeByDataType(x.GetDataType()));
    }
    return 0;
}
