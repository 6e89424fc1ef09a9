"""Fill the templates from ``KernelParams``: op_kernel/<op>.cpp, op_host/<op>.cpp, op_host/<op>_tiling.h."""
from __future__ import annotations


from agent_graph.drafter import operands, rowreduce, splitrow
from agent_graph.drafter import sync
from agent_graph.drafter.colplan import scratch_count, scratch_rows
from agent_graph.drafter.budget import UB_BUDGET, budget, operand_layout, split_budget, user_workspace
from agent_graph.drafter.native import compute_type as _compute_type, direct_outputs as _direct_outputs, native_body as _native_body
from agent_graph.drafter.operands import MAX_CORES, InputKind
from agent_graph.drafter.scratch import CT, Scratch
from agent_graph.drafter.templates import KernelParams, load
from bench_bridge.api import snake_case

GE = {"float16": "ge::DT_FLOAT16", "bfloat16": "ge::DT_BF16", "float32": "ge::DT_FLOAT", "int64": "ge::DT_INT64",
      "int32": "ge::DT_INT32", "int16": "ge::DT_INT16", "bool": "ge::DT_BOOL", "int8": "ge::DT_INT8", "uint8": "ge::DT_UINT8",
      "complex64": "ge::DT_COMPLEX64"}


def _ind(lines: list[str], n: int) -> str:
    pad = " " * n
    return "\n".join(pad + ln if ln else "" for ln in lines)


def _macro(name: str) -> str:
    return name.upper()


def _alias(alias: str, p) -> str:
    """A tensor's element type in the kernel: its DTYPE macro; a complex64 tensor's (real, imag) float pairs."""
    if p.kind in (InputKind.PAIR, *operands.PAIR_OUTPUTS):
        return f"using {alias} = float;   // complex64 '{p.name}': (real, imag) float pairs"
    return f"using {alias} = DTYPE_{_macro(p.name)};"


class KernelWriter:
    def __init__(self, kp: KernelParams):
        self.kp = kp
        self.lay = operand_layout(kp)
        self.row, self.split = self.lay.row, self.lay.split
        self.ins = operands.inputs(kp.inputs, self.lay, kp.extra.get("windows"))
        self.outs = operands.outputs(kp.outputs, self.lay, kp.extra.get("pieces"))
        self.scratch = Scratch(kp, self.lay)
        unread = {p.name for p in kp.inputs if p.kind == InputKind.UNREAD}
        # foreach: the tensor-list operands the kernel reads or writes
        self.lists = [n for n in kp.extra.get("foreach", {}).get("lists", ()) if n not in unread]
        self.foreach = kp.template == "foreach"

    def render(self) -> str:
        kp = self.kp
        aliases = [_alias(f"TI{i}", p) for i, p in enumerate(kp.inputs)]
        aliases += [_alias(f"TO{j}", p) for j, p in enumerate(kp.outputs)]
        aliases += _compute_type(kp)
        maps = [m for op in self.ins for m in op.tiling_params()]
        if any(hasattr(op, "map_params") for op in self.ins):
            aliases += ["", load("row_map.tmpl").template.rstrip("\n")]
        gm = [p.name for p in (*kp.inputs, *kp.outputs)]
        read = [p.name for p in (*kp.inputs, *kp.outputs) if p.kind != InputKind.UNREAD]   # what Init binds
        if self.foreach:     # the list's layout (host tiling): each item's first element and length in the joined run
            maps += ["tensorCount"]
        return load("kernel.cpp.tmpl").substitute(
            op_type=kp.op_type, template=kp.template, summary=kp.summary,
            mode_note=("Rows are split over the cores; each UB tile holds several rows at a pitch of colsPad."
                       if self.row else
                       "The list's tensors, joined into one run of elements, are split over the cores in 32-byte blocks;\n"
                       "// each core computes the part of each tensor its run overlaps." if self.foreach else
                       "The tensor is one run of elements split over the cores in 32-byte blocks."),
            type_aliases="\n".join(aliases), cls=f"Kernel{kp.op_type}",
            wait_pipe=load("wait_pipe.tmpl").template.rstrip("\n"),
            init_params=", ".join(f"GM_ADDR {n}" for n in read),
            attr_params="".join(f", float {a}" for a in self._attr_names()) + "".join(f", uint32_t {m}" for m in maps)
            + (", const uint64_t* tensorStart, const uint64_t* tensorLen" if self.foreach else ""),
            attr_init=_ind([f"attr{j}_ = {a};" for j, a in enumerate(self._attr_names())], 8),
            init_body=_ind(self._init(), 8), process_body=_ind(self._process(), 8),
            methods=self._methods(), members=_ind(self._members(), 4),
            kernel_name=snake_case(kp.op_type), gm_params=", ".join(f"GM_ADDR {n}" for n in gm),
            chunk_init="        chunkLen_ = chunkLen;" + ("\n        rowCores_ = rowCores > 1 ? rowCores : 1;" if self.split else ""),
            gm_args=", ".join(read), attr_args="".join(f", t.attr{j}" for j in range(kp.nattrs)) + "".join(f", t.{m}" for m in maps)
            + (", t.tensorStart, t.tensorLen" if self.foreach else ""))

    def _attr_names(self) -> list[str]:
        return [f"a{j}" for j in range(self.kp.nattrs)]

    # ---- Init ---------------------------------------------------------------------------------
    def _init(self) -> list[str]:
        kp, sc = self.kp, self.scratch
        L: list[str] = []
        if self.row:
            L += ["first_ = rowsPerCore * GetBlockIdx();",
                  "count_ = first_ >= rows ? 0 : (rows - first_ < rowsPerCore ? rows - first_ : rowsPerCore);"]
            if self.split:  # split rows shared by rowCores cores: one row per core, a column segment each
                L += ["colEnd_ = cols;", "if (rowCores > 1) {", "    first_ = GetBlockIdx() / rowCores;",
                      "    count_ = first_ < rows ? 1 : 0;", "    colBeg_ = GetBlockIdx() % rowCores * segLen;",
                      "    colEnd_ = colBeg_ + segLen < cols ? colBeg_ + segLen : cols;", "}"]
            L += [
                  "uint64_t base = static_cast<uint64_t>(first_) * cols;",
                  "uint64_t span = static_cast<uint64_t>(count_) * cols;",
                  "uint32_t tileElems = chunkLen > 0 ? chunkLen : tileRows * colsPad;" if self.split else
                  "uint32_t tileElems = tileRows * colsPad;"]
        elif self.foreach:   # the GM views are set per item (Bind); UB is laid out once here
            L += ["perCore_ = perCore;", "tensorCount_ = tensorCount;", "tensorStart_ = tensorStart;",
                  "tensorLen_ = tensorLen;", "uint32_t tileElems = tileLen;"]
            L += [f"{n}List_.Init(reinterpret_cast<__gm__ void*>({n}));" for n in self.lists]
        else:
            L += ["first_ = perCore * GetBlockIdx();",
                  "count_ = first_ >= total ? 0 : (total - first_ < perCore ? total - first_ : perCore);",
                  "uint64_t base = first_;", "uint64_t span = count_;", "uint32_t tileElems = tileLen;"]
        for op in (*self.ins, *self.outs):
            L += op.setup() if self.foreach and op.per_item else op.init()
        L += [b.init for b in (*sc.slots(), *sc.masks())]
        if self.split:
            L += ["if (chunkLen > 0) {", *["    " + b.init for b in sc.chunk_work()], "} else {", "    " + sc.work().init, "}"]
        else:
            L.append(sc.work().init)
        L.append(sc.scalars().init)
        L += [b.init for b in sc.rounding()]
        if self.split:
            L += [f"wsr_.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace) + {MAX_CORES * 8}, "
                  f"{MAX_CORES * 64 * kp.extra.get('split_passes', 1)});", sc.split_partials().init]
        if kp.accs:
            L += ["wsg_.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), static_cast<uint64_t>(GetBlockNum()) * 8);",
                  *[b.init for b in sc.partials()]]
            for name, kind in kp.accs:
                L.append(f"{name} = {'0.0f' if kind == 'sum' else ('-INFINITY' if kind == 'max' else 'INFINITY')};")
        for op in self.ins:
            L += op.load()
        return L
    # ---- Process ------------------------------------------------------------------------------
    def _process(self) -> list[str]:
        step = "tileRows_" if self.row else "tileLen_"
        L = [f"for (uint32_t off = 0; off < count_; off += {step}) {{",
             f"    uint32_t n = count_ - off < {step} ? count_ - off : {step};",
             "    CopyIn(off, n);", "    Compute(off, n);", "    CopyOut(off, n);", "}"]
        if self.foreach:
            L = ["// this core's run of the joined list (each tensor starts on a 32-byte block): the part of each",
                 "// tensor it overlaps",
                 "uint64_t begin = static_cast<uint64_t>(perCore_) * GetBlockIdx();",
                 "uint64_t end = begin + perCore_;",
                 "for (uint32_t item = 0; item < tensorCount_; ++item) {",
                 "    uint64_t start = tensorStart_[item];",
                 "    uint64_t stop = start + tensorLen_[item];",
                 "    uint64_t lo = begin > start ? begin : start;",
                 "    uint64_t hi = end < stop ? end : stop;",
                 "    if (lo >= hi) {", "        continue;", "    }",
                 "    Bind(item, lo - start, hi - lo);", *["    " + x for x in L], "}"]
        if self.split:
            L = ["if (chunkLen_ > 0) {", "    ProcessSplit();", "} else {", *["    " + x for x in L], "}"]
        if self.kp.accs:
            L += self._final()
        return L

    def _final(self) -> list[str]:
        kp = self.kp
        na = len(kp.accs)
        L = ["LocalTensor<float> pb = pb_.Get<float>();"]
        L += [f"pb.SetValue({k}, {name});" for k, (name, _) in enumerate(kp.accs)]
        L += [sync.SCALAR_TO_COPY_OUT,
              f"DataCopyPad(wsg_[static_cast<uint64_t>(GetBlockIdx()) * 8], pb, DataCopyExtParams{{1, {na * 4}, 0, 0, 0}});",
              sync.COPY_OUT_DONE, "SyncAll();", "if (GetBlockIdx() != 0) return;",
              "uint32_t nb = GetBlockNum();",
              f"DataCopyPad(pb, wsg_, DataCopyExtParams{{static_cast<uint16_t>(nb), {na * 4}, {32 - na * 4}, 0, 0}}, "
              "DataCopyPadExtParams<float>{false, 0, 0, 0});", sync.COPY_IN_TO_SCALAR]
        for k, (_, kind) in enumerate(kp.accs):
            comb = {"sum": f"G{k} += v;", "max": f"G{k} = v > G{k} ? v : G{k};", "min": f"G{k} = v < G{k} ? v : G{k};"}[kind]
            L += [f"float G{k} = pb.GetValue({k});", "for (uint32_t b = 1; b < nb; ++b) {",
                  f"    float v = pb.GetValue(b * 8 + {k});", f"    {comb}", "}"]
        L += ["LocalTensor<float> SC = sc_.Get<float>();"] + [f"LocalTensor<float> SC{k} = SC[{8 * k}];" for k in range(5)]
        L += self._round_views(scalar_only=True)
        def one(v):
            out = list(v.final)
            for j, p in enumerate(kp.outputs):
                if p.kind == operands.OutputKind.GS_PAIR:    # a complex value: its (real, imag) pair
                    re, im = v.out_exprs[j].split("|")
                    out += [f"LocalTensor<float> oh{j} = oh{j}_.Get<float>();", f"oh{j}.SetValue(0, {re});",
                            f"oh{j}.SetValue(1, {im});", sync.SCALAR_TO_COPY_OUT,
                            f"DataCopyPad(yg{j}_, oh{j}, DataCopyExtParams{{1, 2 * sizeof(float), 0, 0, 0}});"]
                    continue
                out += [f"Duplicate(SC0, {v.out_exprs[j]}, 8);",
                        f"LocalTensor<TO{j}> oh{j} = oh{j}_.Get<TO{j}>();", f"FromFloat(oh{j}, SC0, 8);", sync.VECTOR_TO_COPY_OUT,
                        f"DataCopyPad(yg{j}_, oh{j}, DataCopyExtParams{{1, static_cast<uint32_t>(sizeof(TO{j})), 0, 0, 0}});"]
            return out
        return L + _variants(kp, one)

    def _round_views(self, scalar_only: bool = False) -> list[str]:
        L = []
        for dt in self.kp.round_types:
            ct = CT[dt]
            if not scalar_only:
                L.append(f"LocalTensor<{ct}> RH_{ct} = rh_{ct}_.Get<{ct}>();")
            L.append(f"LocalTensor<{ct}> RS_{ct} = rs_{ct}_.Get<{ct}>();")
        return L

    # ---- CopyIn / Compute / CopyOut -------------------------------------------------------------
    def _methods(self) -> str:
        kp = self.kp
        row = self.row
        cin = [x for op in self.ins for x in op.copy_in()]
        comp = [("uint32_t cnt = n * colsPad_;" if row else "uint32_t cnt = n;")]
        comp += [x for op in self.ins for x in op.compute_in()]
        direct = {} if row else _direct_outputs(kp)        # slot -> output written in place (flat)
        for k, j in direct.items():
            comp.append(f"LocalTensor<TO{j}> yt{j} = oq{j}_.AllocTensor<TO{j}>();")
        comp += [(f"LocalTensor<TC> B{k} = SlotOrOut<TC>(yt{direct[k]}, sb{k}_);" if k in direct else
                  f"LocalTensor<{'float' if row else 'TC'}> B{k} = sb{k}_.Get<{'float' if row else 'TC'}>();")
                 for k in range(kp.nslots)]
        comp += self.scratch.mask_views()
        comp += [x for op in self.ins for x in op.view()]
        comp += ["LocalTensor<float> WK = wk_.Get<float>();", "LocalTensor<float> SC = sc_.Get<float>();"]
        comp += [f"LocalTensor<float> SC{k} = SC[{8 * k}];" for k in range(5)]
        comp += self._round_views()
        comp += [x for op in self.outs for x in op.view()]
        in_place = set(direct.values())

        def per_row_out(v):
            return [x for op in self.outs for x in op.per_row(v.out_exprs[op.index])]

        def after(v):
            return [x for op in self.outs for x in op.after(v.out_exprs[op.index], op.index in in_place)]
        if row:
            loop = ["for (uint32_t r = 0; r < n; ++r) {", "    uint32_t o = r * colsPad_;"]
            loop += [f"    LocalTensor<float> S{k} = B{k}[o];" for k in range(kp.nslots)]
            loop += ["    " + ln if not ln.startswith("#") else ln for ln in _variants(kp, lambda v: v.body + per_row_out(v))]
            loop += ["}", *dict.fromkeys(op.after_rows for op in self.outs if op.after_rows)]
            if self.lay.batched:   # every row of the tile reduced by two instructions (rowreduce.py)
                loop = (["if (cols_ <= 512 && colsPad_ % 64 == 0) {"] + ["    " + x for x in rowreduce.compute(kp)]
                        + ["} else {"] + ["    " + x for x in loop] + ["}"])
            comp += loop
        else:
            comp += [f"LocalTensor<TC> S{k} = B{k};" for k in range(kp.nslots)]
            comp += _variants(kp, _native_body)
        comp += _variants(kp, after)
        comp += [x for op in self.ins for x in op.free()]
        cout = [x for op in self.outs for x in op.copy_out()]
        unused = ("\n\n" + splitrow.process_split(kp, lambda fn: _variants(kp, fn), self._round_views() + self.scratch.mask_views())) if self.split else ""
        return (self._bind() +
                f"    __aicore__ inline void CopyIn(uint32_t off, uint32_t n)\n    {{\n{_ind(cin, 8)}\n    }}\n\n"
                f"    __aicore__ inline void Compute(uint32_t off, uint32_t n)\n    {{\n{_ind(comp, 8)}\n    }}\n\n"
                f"    __aicore__ inline void CopyOut(uint32_t off, uint32_t n)\n    {{\n{_ind(cout, 8)}\n    }}{unused}")

    def _bind(self) -> str:
        """Foreach kernels: Bind(item, first, count) points the GM views at elements [first, first + count) of
        the item's tensors and loads the item's scalars."""
        if not self.foreach:
            return ""
        body = ["first_ = static_cast<uint32_t>(first);", "count_ = static_cast<uint32_t>(count);",
                "uint64_t base = first;", "uint64_t span = count;"]
        body += [x for op in (*self.ins, *self.outs) if op.per_item for x in op.bind()]
        return (f"    __aicore__ inline void Bind(uint32_t item, uint64_t first, uint64_t count)\n    {{\n"
                f"{_ind(body, 8)}\n    }}\n\n")

    def _members(self) -> list[str]:
        kp = self.kp
        L = [x for op in (*self.ins, *self.outs) for x in op.members()]
        if self.foreach:
            L += [f"ListTensorDesc {n}List_;" for n in self.lists]
            L += ["const uint64_t* tensorStart_ = nullptr;", "const uint64_t* tensorLen_ = nullptr;",
                  "uint32_t tensorCount_ = 0, perCore_ = 0;"]
        L += [f"TBuf<TPosition::VECCALC> sb{k}_;" for k in range(kp.nslots)]
        L += [f"TBuf<TPosition::VECCALC> mk{k}_;" for k in range(kp.nmasks)]
        L += ["TBuf<TPosition::VECCALC> wk_, sc_;"]
        if self.split:
            L += [f"TBuf<TPosition::VECCALC> ac{k}_;" for k in range(kp.extra.get("split_accs", 1))]
            L += ["GlobalTensor<float> wsr_;", "TBuf<TPosition::VECCALC> pr_;", "uint32_t rowCores_ = 1, colBeg_ = 0, colEnd_ = 0;"]
        for dt in kp.round_types:
            L.append(f"TBuf<TPosition::VECCALC> rh_{CT[dt]}_, rs_{CT[dt]}_;")
        if kp.accs:
            L += ["GlobalTensor<float> wsg_;", "TBuf<TPosition::VECCALC> pb_;"]
            L += [f"float {name} = 0.0f;" for name, _ in kp.accs]
        L += [f"float attr{j}_ = 0.0f;" for j in range(kp.nattrs)]
        return L


def _variants(kp: KernelParams, fn) -> list[str]:
    """Code per dtype combination, selected by the preprocessor when the combinations differ."""
    chunks = [fn(v) for v in kp.variants]
    if len(chunks) == 1 or all(c == chunks[0] for c in chunks):
        return chunks[0]
    out = []
    for k, (v, c) in enumerate(zip(kp.variants, chunks)):
        out.append(("#if " if k == 0 else "#elif ") + v.cond)
        out += c
    return out + ["#endif"]


def row_pitch(kp: KernelParams) -> int:
    """The row template's row pitch in elements (host ``colsPad``): 64 (whole 256-byte float repeats) for batched
    row reductions and for comparisons, whose count rounds up to 64 and must stay inside the row; else 16."""
    return 64 if rowreduce.batched_kind(kp) or kp.nmasks else 16


def render_kernel(kp: KernelParams) -> str:
    return KernelWriter(kp).render()


def render_tiling(kp: KernelParams) -> str:
    snake = snake_case(kp.op_type)
    fields = "".join(f"TILING_DATA_FIELD_DEF(float, attr{j});     // attr '{a}'\n" for j, a in enumerate(kp.attrs))
    fields += "".join(f"TILING_DATA_FIELD_DEF(float, attr{len(kp.attrs) + k});     // {d.describe(kp.attrs)} (the host computes it)\n"
                      for k, d in enumerate(kp.derived))
    for i, kept in sorted(kp.extra.get("row_maps", {}).items()):
        name = kp.inputs[i].name
        fields += f"// row map of input '{name}', broadcast against the output (kernel RowMap)\n"
        fields += "".join(f"TILING_DATA_FIELD_DEF(uint32_t, {name}{fld});\n" for fld in operands.ROW_MAP_FIELDS)
    for i in sorted(kp.extra.get("windows", {})):
        name = kp.inputs[i].name
        fields += f"TILING_DATA_FIELD_DEF(uint32_t, {name}Cols);     // the length of a row of '{name}' (read in windows)\n"
    constants = ""
    if kp.template == "foreach":
        constants = f"constexpr uint32_t MAX_TENSORS = {MAX_LIST_TENSORS};   // tensors of one list a launch takes\n\n"
        fields += "TILING_DATA_FIELD_DEF(uint32_t, tensorCount);  // tensors in the list\n"
        if (11 + kp.nattrs + 1) % 2:
            fields += "TILING_DATA_FIELD_DEF(uint32_t, reserved);     // keeps the 8-byte arrays 8-byte aligned\n"
        fields += ("TILING_DATA_FIELD_DEF_ARR(uint64_t, MAX_TENSORS, tensorStart);  // each tensor's first element in the joined run\n"
                   "TILING_DATA_FIELD_DEF_ARR(uint64_t, MAX_TENSORS, tensorLen);    // each tensor's elements\n")
    return load("tiling.h.tmpl").substitute(op_type=kp.op_type, template=kp.template, guard=f"{snake.upper()}_TILING_H",
                                            attr_fields=fields, constants=constants)


MAX_LIST_TENSORS = 128
"""Foreach kernels: the most tensors one list may hold (the tiling's per-tensor arrays)."""


def render_foreach_host(kp: KernelParams) -> str:
    """The foreach template's host: the list's tensors joined into one run, split over the cores as the flat
    template splits one tensor (split_flat.tmpl)."""
    b = budget(kp)
    chunk = 64 if kp.nmasks else 32
    split = load("split_flat.tmpl").substitute(fixed_bytes=b["fixed"], flat_bytes_per_elem=b["per_elem"] + 1, chunk_code="")
    split = "\n".join(ln for ln in split.splitlines() if ln.strip())    # CHUNK is the foreach host's own
    split = split.replace("flat template: the tensor as one run", "the list's tensors joined into one run")
    first_list = next(i for i, p in enumerate(kp.inputs) if p.name in kp.extra["foreach"]["lists"])
    return load("foreach_host.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, op_snake=snake_case(kp.op_type), chunk=chunk,
        chunk_note=" (64: a comparison's count rounds up to 64)" if kp.nmasks else "",
        list_input=first_list, attr_code="".join(ln + "\n" for ln in _attr_code(kp)), host_helpers=host_helpers(kp),
        budget_note="tiles, scratch slots and queues as the kernel's InitBuffer calls add up", ub_budget=UB_BUDGET,
        split_code=split.rstrip("\n"), params="\n".join(opdef_params(kp)))


def _attr_code(kp: KernelParams) -> list[str]:
    """The TilingFunc lines that copy the op's float attributes (their defaults when not given) into the tiling."""
    code = []
    for j, a in enumerate(kp.attrs):
        code += [f"    const float* attr{j} = context->GetAttrs()->GetAttrPointer<float>({j});",
                 f"    tiling.set_attr{j}(attr{j} ? *attr{j} : {kp.attr_defaults[j] if j < len(kp.attr_defaults) else 0.0!r}f);"]
    if kp.derived:
        code += ["    // numbers computed from the attributes" + (" and a one-element input's value" if kp.extra.get("value_depend")
                                                               else " alone") + ", in double from the values as written",
                 "    // (as PyTorch computes them in Python), rounded to float once"]
    for k, d in enumerate(kp.derived):
        code += [f"    tiling.set_attr{len(kp.attrs) + k}(static_cast<float>({d.host_expr()}));   // {d.describe(kp.attrs)}"]
    return code


def host_helpers(kp: KernelParams) -> str:
    """The host's helper functions the TilingFunc calls: the row map's, ``AsWritten`` for derived numbers."""
    return ((load("row_map_host.tmpl").template if kp.extra.get("row_maps") else "")
            + (load("as_written_host.tmpl").template if kp.derived else "")
            + (load("input_number_host.tmpl").template if kp.extra.get("value_depend") else ""))


def render_host(kp: KernelParams, main_input: int) -> str:
    b = budget(kp)
    if kp.template == "row":
        if kp.extra.get("split"):
            sb = split_budget(kp)
            too_long = (f"        // split-row path: stream each row in chunks (multiple of 64 elements) through UB\n"
                        f"        chunkLen = static_cast<uint32_t>((UB_BUDGET - {sb['fixed']}) / {sb['per_elem']} / 64 * 64);")
        else:
            too_long = (f'        std::printf("{kp.op_type}: a row of %u elements does not fit in the Unified Buffer\\n", cols);\n'
                        "        return ge::GRAPH_FAILED;")
        split = load("split_row.tmpl").substitute(row_bytes_per_elem=b["per_elem"], row_bytes_per_row=b["per_row"],
                                                  fixed_per_col=b["fixed_per_col"], fixed_bytes=b["fixed"], too_long=too_long,
                                                  rows_shareable=("    constexpr bool ROWS_SHAREABLE = false;   // a scan carries its "
                                                                  "running value along the whole row: one core per row\n"
                                                                  if kp.extra.get("split_scan") else
                                                                  "    constexpr bool ROWS_SHAREABLE = true;\n"))
    else:
        split = load("split_flat.tmpl").substitute(fixed_bytes=b["fixed"], flat_bytes_per_elem=b["per_elem"] + 1,
                                                   chunk_code=_chunk_code(kp))
    attr_code = _attr_code(kp)
    map_code = []
    for i, kept in sorted(kp.extra.get("row_maps", {}).items()):
        name = kp.inputs[i].name
        map_code += [f"    uint32_t {name}Map[7];   // input '{name}' holds the output dimensions of mask {kept:#x} (from the end)",
                     f"    if (!RowMapOf(xs, {kept:#x}U, {name}Map{_row_dims_arg(kp)})) {{",
                     f'        std::printf("{kp.op_type}: input {name} broadcasts over more than two groups of dimensions\\n");',
                     "        return ge::GRAPH_FAILED;", "    }"]
        map_code += [f"    tiling.set_{name}{fld}({name}Map[{k}]);" for k, fld in enumerate(operands.ROW_MAP_FIELDS)]
    k = int(kp.extra.get("row_dims", 1))
    for i in sorted(kp.extra.get("windows", {})):
        name = kp.inputs[i].name
        map_code += [f"    const gert::Shape& {name}Shape = context->GetInputShape({i})->GetStorageShape();"]
        if k == 1:
            map_code += [f"    tiling.set_{name}Cols(static_cast<uint32_t>({name}Shape.GetDim({name}Shape.GetDimNum() - 1)));"]
            continue
        map_code += [f"    uint64_t {name}RowLen = 1;   // a row of '{name}' is its last {k} dimensions",
                     f"    for (size_t d = {name}Shape.GetDimNum() - {k}; d < {name}Shape.GetDimNum(); ++d) {{",
                     f"        {name}RowLen *= static_cast<uint64_t>({name}Shape.GetDim(d));", "    }",
                     f"    tiling.set_{name}Cols(static_cast<uint32_t>({name}RowLen));"]
    params = opdef_params(kp)
    pad = row_pitch(kp)
    if any(d in ("bool", "int8", "uint8") for p in (*kp.inputs, *kp.outputs) for d in p.dtypes):
        pad = max(pad, 32)                               # a one-byte row's UB pitch must be whole 32-byte blocks
    cols_code = _cols_code(kp)
    pieces = kp.extra.get("pieces", {}).get(0)
    if main_input < 0 and pieces:     # the output's rows hold `pieces` rows of the kernel side by side (torch.cat)
        cols_code += (f"\n    cols /= {pieces};   // output 0's rows hold {pieces} of the kernel's rows side by side (torch.cat)"
                      f"\n    total /= {pieces};")
    host = load("host.cpp.tmpl").substitute(col_pad=pad, cols_code=cols_code,
        op_type=kp.op_type, template=kp.template, summary=kp.summary, op_snake=snake_case(kp.op_type),
        main_shape=f"GetInputShape({main_input})" if main_input >= 0 else "GetOutputShape(0)",
        main_note=(f"the shape of input '{kp.inputs[main_input].name}', which every other tensor broadcasts to"
                   if main_input >= 0 else "the output's shape: the inputs broadcast against each other to it"),
        budget_note="tiles, scratch slots and queues as the kernel's InitBuffer calls add up",
        ub_budget=UB_BUDGET, split_code=split.rstrip("\n"), attr_code="\n".join(attr_code),
        map_code="".join(x + "\n" for x in map_code),
        host_helpers=host_helpers(kp),
        user_workspace=str(user_workspace(kp)), params="\n".join(params))
    if any("std::pow" in d.host_expr() for d in kp.derived):
        host = host.replace("#include <cstdio>\n", "#include <cmath>\n#include <cstdio>\n", 1)
    return host


def _row_dims_arg(kp: KernelParams) -> str:
    """RowMapOf's rowDims argument when a row holds several trailing dimensions (default 1: written only then)."""
    k = int(kp.extra.get("row_dims", 1))
    return f", {k}" if k != 1 else ""


def opdef_params(kp: KernelParams) -> list[str]:
    """The OpDef's Input/Output/Attr lines: every tensor with its dtype per combination, float attrs."""
    params = []
    for kind, plist in (("Input", kp.inputs), ("Output", kp.outputs)):
        for p in plist:
            dts = ", ".join(GE[d] for d in p.dtypes)
            fmts = ", ".join("ge::FORMAT_ND" for _ in p.dtypes)
            ptype = "DYNAMIC" if p.name in kp.extra.get("foreach", {}).get("lists", ()) else "REQUIRED"   # a tensor list
            depend = ".ValueDepend(REQUIRED)" if p.name in kp.extra.get("value_depend", ()) else ""  # read by the host
            params.append(f'        this->{kind}("{p.name}").ParamType({ptype}).DataType({{{dts}}}).Format({{{fmts}}}){depend};')
    for j, a in enumerate(kp.attrs):
        dflt = kp.attr_defaults[j] if j < len(kp.attr_defaults) else 0.0
        params.append(f'        this->Attr("{a}").AttrType(OPTIONAL).Float({float(dflt)!r}f);')
    return params


def _cols_code(kp: KernelParams) -> str:
    """The host's row length: the main input's last dimension, or its last ``row_dims`` dimensions split
    into ``row_div`` groups (a layer norm over several trailing dimensions, a group norm)."""
    k, div = kp.extra.get("row_dims", 1), kp.extra.get("row_div", 1)
    if k == 1 and div == 1:
        return "    uint32_t cols = xs.GetDimNum() > 0 ? static_cast<uint32_t>(xs.GetDim(xs.GetDimNum() - 1)) : 1;"
    lines = [f"    // a row is the last {k} dimensions" + (f" split into {div} groups" if div > 1 else ""),
             "    uint64_t rowLen = 1;",
             f"    for (size_t d = xs.GetDimNum() >= {k} ? xs.GetDimNum() - {k} : 0; d < xs.GetDimNum(); ++d) {{",
             "        rowLen *= static_cast<uint64_t>(xs.GetDim(d));", "    }"]
    return "\n".join(lines + [f"    uint32_t cols = static_cast<uint32_t>(rowLen{f' / {div}' if div > 1 else ''});"])


def _chunk_code(kp: KernelParams) -> str:
    """The flat split's unit: one 32-byte block of the narrowest tensor, so every core starts on a block
    of every tensor; 64 elements (whole 256-byte float repeats) when a comparison rounds its count up
    to 64 and must stay inside the tile."""
    if kp.nmasks:
        return "    constexpr uint64_t CHUNK = 64;"
    lines = ["    uint64_t esz = 4;   // bytes per element of the narrowest tensor"]
    for kind, n in (("Input", len(kp.inputs)), ("Output", len(kp.outputs))):
        lines += [f"    for (uint32_t i = 0; i < {n}; ++i) {{",
                  f"        const auto* desc = context->Get{kind}Desc(i);",
                  "        int sz = desc != nullptr ? ge::GetSizeByDataType(desc->GetDataType()) : 0;",
                  "        if (sz > 0 && static_cast<uint64_t>(sz) < esz) esz = static_cast<uint64_t>(sz);", "    }"]
    return "\n".join(lines + ["    const uint64_t CHUNK = 32 / esz;"])


def _cascade_parts(on: bool) -> dict[str, str]:
    """The col kernel's pieces of a sum in PyTorch's order (``col_cascade.tmpl``), or nothing."""
    if not on:
        return dict(cascade="", cascade_init="", cascade_start="", cascade_step="", cascade_end="", cascade_members="")
    return dict(
        cascade=load("col_cascade.tmpl").template,
        cascade_init=("        pipe_.InitBuffer(lv_, 3 * tile * sizeof(float));   // levels 1-3 of the cascade sum\n"
                      "        // PyTorch's block of 2^power_ rows: ceil(log2(reduce)) / 4 levels' worth, at least 16 rows\n"
                      "        uint32_t lg = 0;\n"
                      "        while ((static_cast<uint64_t>(1) << lg) < reduce) ++lg;\n"
                      "        power_ = lg / 4 > 4 ? lg / 4 : 4;\n"),
        cascade_start="            CascadeStart();\n",
        cascade_step="\n                CascadeStep(acc, static_cast<uint64_t>(r) + j + 1, len);",
        cascade_end="            CascadeEnd(acc, len);\n",
        cascade_members=", lv_")


def render_col(kp: KernelParams) -> dict[str, str]:
    """The three files of the inner-dimension reduction template (forms: agent_graph/drafter/colplan.py)."""
    snake = snake_case(kp.op_type)
    x, y = kp.inputs[0], kp.outputs[0]
    mode = int(kp.extra.get("mode", 0))
    finish = "            Muls(acc, acc, 1.0f / static_cast<float>(reduce_), len);" if kp.extra.get("mean") else ""
    epilogue = kp.extra.get("epilogue") or []
    prologue = kp.extra.get("prologue") or []
    post = ""
    if epilogue and mode in (1, 2):   # elementwise ops on each softmax / log_softmax result, before its store
        post = ("                // the ops after the " + ("softmax" if mode == 1 else "log_softmax") + "\n"
                + "".join(f"                {st}\n" for st in scratch_rows(epilogue))
                + "".join(f"                {st}\n" for st in epilogue))
    elif epilogue:   # elementwise ops on the reduced values (scratch rows of the tile: colplan.SCRATCH)
        finish += ("\n            // the ops after the reduction, on the reduced values\n"
                   + "".join(f"            {st}\n" for st in scratch_rows(epilogue))
                   + "\n".join(f"            {st}" for st in epilogue))
    before = ""
    if prologue:   # elementwise ops on each reduced row before it combines (x's own values stay for the scale pass)
        before = ("                // the ops before the reduction, on this row\n"
                  "                LocalTensor<float> row = xf[j * tile_];\n"
                  + "".join(f"                {st}\n" for st in scratch_rows(prologue))
                  + "".join(f"                {st}\n" for st in prologue))
    nrows = scratch_count(epilogue + prologue)
    modes_1_3 = mode in (1, 2, 3)
    cascade = mode == 0 and kp.extra["combine"] == "Add" and not kp.extra.get("arg")   # a sum or a mean
    kernel = load("col_kernel.cpp.tmpl").substitute(
        op_type=kp.op_type, summary=kp.summary, cls=f"Kernel{kp.op_type}", in_macro=_macro(x.name), out_macro=_macro(y.name),
        finish=finish, combine=kp.extra["combine"], kernel_name=snake, in_name=x.name, out_name=y.name,
        mode=mode, prologue=before, float_helpers=load("float_helpers.tmpl").template,
        mode_init=("        pipe_.InitBuffer(sum_, tile * sizeof(float));    // the sum of exp(x - max)\n"
                   "        pipe_.InitBuffer(term_, tile * sizeof(float));   // one row's exp(x - max)\n") if modes_1_3 else "",
        mode_members=", sum_, term_" if modes_1_3 else "",
        normalise=load("col_normalise.tmpl").substitute(post=post) if modes_1_3 else "",
        scale=load("col_scale.tmpl").substitute(scale_op=kp.extra.get("scale")) if mode == 4 else "",
        mode_call="            Normalise(base, acc, len);\n" if modes_1_3 else "",
        combine_call=("                Scan(acc, base + static_cast<uint64_t>(r) * inner_, r, len, k);" if mode == 5 else
                      "                Combine(acc, r, len, k);"),
        scan=load("col_scan.tmpl").substitute(combine=kp.extra["combine"]) if mode == 5 else "",
        scale_call="            Scale(base, acc, len);\n" if mode == 4 else "",
        epilogue_init=f"        pipe_.InitBuffer(scr_, {nrows} * tile * sizeof(float));   // scratch rows of the ops on rows\n"
                      if nrows else "", epilogue_members=", scr_" if nrows else "",
        arg_index="true" if kp.extra.get("arg") else "false", keep_mode="LE" if kp.extra["combine"] == "Max" else "GE",
        **_cascade_parts(cascade))
    # UB: the input batches (double-buffered), their float copy and the output rows share what the accumulator,
    # the sum / term rows (modes 1-3) and the scratch rows of the ops on rows (up to five) leave
    if epilogue and mode in (1, 2):
        batch_kib, batch_note = 48, "the rest for the sum / term rows, the output rows and five scratch rows"
    elif epilogue or prologue or mode == 4:
        batch_kib, batch_note = 72, "the rest for the output rows and the scratch rows of the ops on rows"
    elif mode in (1, 2):
        batch_kib, batch_note = 80, "a third for the output rows and the sum / term rows"
    elif mode == 5:
        batch_kib, batch_note = 80, "a third for the output rows (each reduced row's running value)"
    else:
        batch_kib, batch_note = 120, "input batches"
    params = opdef_params(kp)
    host = load("col_host.cpp.tmpl").substitute(op_type=kp.op_type, summary=kp.summary, op_snake=snake,
                                                dim_first=int(kp.extra["dim"]), dim_last=int(kp.extra.get("dim_last", kp.extra["dim"])),
                                                params="\n".join(params),
                                                tile_align=64 if kp.extra.get("arg") else 16,
                                                batch_kib=batch_kib, batch_note=batch_note)
    tiling = load("col_tiling.h.tmpl").substitute(op_type=kp.op_type, guard=f"{snake.upper()}_TILING_H")
    return {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": tiling, f"op_kernel/{snake}.cpp": kernel}
