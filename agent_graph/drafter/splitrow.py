"""The split-row path of the ``row`` template: rows longer than the Unified Buffer holds.

The row program (``lowering``) is a list of statements over one row in UB. For a row that does not
fit, the host tiling sets ``chunkLen`` and the kernel streams each row from GM in chunks of that many
elements, once per group of row reductions and once more to write the outputs (the classic
max-pass / sum-exp-pass / write-pass of a long softmax; mean pass / variance pass / write pass of a
layer norm). The statements are classified:

- **V**: a vector statement over the row (count ``cols_``): re-run on every chunk (count ``cn``) of
  every pass that needs its result;
- **R**: a row reduction (``ReduceSum/Max/Min`` into ``SC0`` then ``float rN = SC0.GetValue(0)``):
  each chunk is folded into a float accumulator vector with ``Add``/``Max``/``Min`` (no scalar
  round trip per chunk), reduced once after its pass;
- **G**: a reduction into a whole-tensor accumulator: run on every chunk of the write pass only;
- **S**: scalar statements (per-row values, ``Duplicate(.., 8)`` blocks): run once per row, after the
  pass that produced the values they read.

- **C**: a scan (cumsum/cumprod, reversed or exclusive: a scalar loop over the row's elements): run on
  every chunk of the write pass with its running value carried from chunk to chunk (declared once per
  row); a reversed scan streams the chunks from the row's end. A row with a scan is never shared by
  several cores (the carry runs along the whole row).

Reductions that do not read each other's results share a pass (layer norm's sum of squares and sum of
residuals). Programs that index into a row (argmax, cross-entropy), and scans together with row
reductions, are not split.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from agent_graph.drafter import sync
from agent_graph.drafter.operands import BYTE_DTYPES, PAIR_OUTPUTS, InputKind, OutputKind

RED = re.compile(r"^(ReduceSum|ReduceMax|ReduceMin)<float>\(SC0, (.+), WK, cols_\);$")
ROW_SUM = re.compile(r"^acc\d+_ \+= (?!SC0\.GetValue)")   # a whole-tensor sum of a per-row value
ROWVAL = re.compile(r"^float (r\d+) = SC0\.GetValue\(0\);$")
TENSOR = re.compile(r"\b(S\d+|M\d+|XI\d+\[o\]|W\d+|RH_\w+\[o\]|B\d+)")   # M<k>: a comparison's mask
VCALL = re.compile(r"^[A-Z]\w*(<[^>]*>)?\(.*\bcols_\);$")   # an API call over the row (count cols_)
# compound APIs whose destination is also an operand (Axpy: dst = src * s + dst; FusedMulAdd: dst = src0 * dst + src1)
READS_DST = ("Axpy(", "FusedMulAdd(", "MulAddDst(", "MulAddRelu(", "FusedMulAddRelu(")
KIND = {"ReduceSum": 0, "ReduceMax": 1, "ReduceMin": 2}
CMP_COUNT = "(cols_ + 63) / 64 * 64);"   # a Compare/Compares count: whole 256-byte blocks of the row
COMBINE = {"ReduceSum": ("Add", "0.0f"), "ReduceMax": ("Max", "-INFINITY"), "ReduceMin": ("Min", "INFINITY")}


class NotSplittable(Exception):
    """The row program has a statement the split-row path cannot stream."""


@dataclass
class Reduction:
    name: str          # the per-row float it defines
    api: str           # ReduceSum | ReduceMax | ReduceMin
    src: str           # vector expression reduced


@dataclass
class Pass:
    vec: list[str] = field(default_factory=list)          # V lines run per chunk (count cn)
    reds: list[Reduction] = field(default_factory=list)
    scalar_after: list[str] = field(default_factory=list)  # S lines run once after the pass


@dataclass
class SplitProgram:
    scalar_before: list[str]
    passes: list[Pass]
    write: list[str]                                       # V, G and C lines of the write pass (count cn)
    carries: list[str] = field(default_factory=list)       # the scans' running values, declared once per row
    reverse: bool = False                                  # the write pass streams the chunks from the row's end


SCAN_LOOP = re.compile(r"^for \((?:uint32_t j = 0; j < cols_; \+\+j|int32_t j = static_cast<int32_t>\(cols_\) - 1; j >= 0; --j)\) \{$")


def _scan(body: list[str], i: int, k: int) -> tuple[str, list[str], bool, int]:
    """The scan block opening at ``body[i]`` (``{``, ``float run = ..;`` and its other carried floats, its loop,
    ``}``) as the chunk's code with its carried values renamed ``run<k>``, ``comp<k>``: (chunk code, carry
    declarations, reversed, index after the block)."""
    j, decls = i + 1, []
    while j < len(body) and body[j].strip().startswith("float "):
        decls.append(body[j].strip().split("//")[0].strip())
        j += 1
    loop = body[j].strip() if j < len(body) else ""
    if not decls or not decls[0].startswith("float run = ") or not SCAN_LOOP.match(loop):
        raise NotSplittable(loop)
    carried = [d.split()[1] for d in decls]
    j, depth, inner = j + 1, 1, []
    while j < len(body) and depth:
        ln = body[j].strip()
        depth += ln.count("{") - ln.count("}")
        if depth:
            inner.append(ln)
        j += 1
    if j >= len(body) or body[j].strip() != "}":
        raise NotSplittable(loop)
    def rename(ln: str) -> str:
        for v in carried:
            ln = re.sub(rf"\b{v}\b", f"{v}{k}", ln)
        return ln
    code = [rename(ln) for ln in [loop.replace("cols_", "cn"), *("    " + ln for ln in inner), "}"]]
    block = "\n".join([sync.VECTOR_TO_SCALAR, *code, sync.SCALAR_TO_VECTOR])
    return block, [rename(d) for d in decls], loop.startswith("for (int32_t"), j + 1


def _chunked(line: str) -> str:
    if line.endswith(CMP_COUNT):    # a comparison counts whole 256-byte blocks: the chunk's, rounded up the same way
        return line[: -len(CMP_COUNT)] + CMP_COUNT.replace("cols_", "cn")
    if not line.endswith("cols_);") and not line.endswith("cols_, true);"):
        raise NotSplittable(line)
    return line[: line.rindex("cols_")] + "cn" + line[line.rindex("cols_") + 5:]


def analyse(body: list[str]) -> SplitProgram:
    """Classify a row body into passes (raises NotSplittable)."""
    segs: list[list[tuple[str, str]]] = [[]]   # per segment: (kind, line) with kind V | S | G | C
    reds: list[Reduction] = []
    carries: list[str] = []
    directions: set[bool] = set()
    i = 0
    while i < len(body):
        ln = body[i].strip()
        if ln == "{" and i + 1 < len(body) and body[i + 1].strip().startswith("float run = "):
            block, decls, rev, i = _scan(body, i, sum(k == "C" for seg in segs for k, _ in seg))
            if segs[-1] and segs[-1][-1] == ("S", sync.VECTOR_TO_SCALAR):
                segs[-1].pop()                 # the block brings its own barriers into the chunk loop
            if i < len(body) and body[i].strip() == sync.SCALAR_TO_VECTOR:
                i += 1
            segs[-1].append(("C", block))
            carries.extend(decls)
            directions.add(rev)
            continue
        m = RED.match(ln)
        if m:
            if i + 2 >= len(body) or body[i + 1].strip() != sync.VECTOR_TO_SCALAR:
                raise NotSplittable(ln)
            nxt = body[i + 2].strip()
            rv = ROWVAL.match(nxt)
            if rv:
                reds.append(Reduction(rv.group(1), m.group(1), m.group(2)))
                segs.append([])
            elif "SC0.GetValue(0)" in nxt and nxt.startswith("acc"):
                segs[-1].append(("G", "\n".join([_chunked(ln), sync.VECTOR_TO_SCALAR, nxt])))
            else:
                raise NotSplittable(nxt)
            i += 3
            continue
        if "GetValue(j)" in ln or "SetValue(j" in ln or ", true);" in ln or "static_cast<uint32_t>(" in ln and "GetValue" in ln:
            raise NotSplittable(ln)
        if VCALL.match(ln) or ln.endswith(CMP_COUNT):
            segs[-1].append(("V", _chunked(ln)))
        elif ln in (sync.VECTOR_TO_SCALAR, sync.SCALAR_TO_VECTOR) or ln in ("{", "}"):
            segs[-1].append(("S", ln))
        elif ROW_SUM.match(ln):
            # a per-row value summed over the rows: a row shared by several cores counts once (its first core)
            segs[-1].append(("S", f"if (GetBlockIdx() % rowCores_ == 0) {ln}"))
        else:
            segs[-1].append(("S", ln))
        i += 1
    # group reductions into passes: R(k+1) joins R(k)'s pass when nothing between them is scalar work
    # and the vector work between them does not read R(k)
    passes: list[Pass] = []
    vec_so_far: list[str] = [ln for k, ln in segs[0] if k == "V"]
    before = [ln for k, ln in segs[0] if k == "S"]
    if any(k == "G" for k, _ in segs[0]) and reds:
        pass  # G lines are only run by the write pass (below)
    for r_i, red in enumerate(reds):
        seg = segs[r_i + 1]
        if passes and not passes[-1].scalar_after and _joinable(passes[-1], segs[r_i]):
            passes[-1].reds.append(red)
            passes[-1].vec = list(vec_so_far)    # the vector work before this reduction runs in the shared pass too
        else:
            passes.append(Pass(vec=list(vec_so_far), reds=[red]))
        vec_so_far += [ln for k, ln in seg if k == "V"]
        passes[-1].scalar_after += [ln for k, ln in seg if k == "S"]
    if directions and (reds or len(directions) > 1):
        raise NotSplittable("a scan together with row reductions or with a scan in the other direction")
    write = [ln for seg in segs for k, ln in seg if k in ("V", "G", "C")]
    for p in passes:
        p.vec = _prune(p.vec, {r.src for r in p.reds})
    return SplitProgram(before, passes, write, carries, True in directions)


def _joinable(prev: Pass, seg_between: list[tuple[str, str]]) -> bool:
    """Whether the next reduction may share ``prev``'s pass: the vector work between them neither reads ``prev``'s
    results nor overwrites a tensor ``prev`` reduces (the pass folds every source into its accumulator after all of
    its statements: a buffer the row program reuses would be folded with its later value)."""
    names = {r.name for r in prev.reds}
    sources = {t for r in prev.reds for t in (_tensors(r.src) or [r.src])}
    for kind, ln in seg_between:
        if kind != "V" or any(re.search(rf"\b{n}\b", ln) for n in names):
            return False
        refs = _tensors(ln)
        if refs and refs[0] in sources:
            return False
    return True


def _tensors(line: str) -> list[str]:
    return TENSOR.findall(line)


def _prune(lines: list[str], needed_exprs: set[str]) -> list[str]:
    """Keep only the vector statements the pass's reductions depend on (backward liveness)."""
    needed = set()
    for e in needed_exprs:  # an output tile (B<k>, XI<i>) is the row value S<k>, XI<i>[o]
        e = re.sub(r"^B(\d+)$", r"S\1", re.sub(r"^(XI\d+(?:w\d+)?)$", r"\1[o]", e))
        needed.update(_tensors(e) or [e])
    kept: list[str] = []
    for ln in reversed(lines):
        refs = _tensors(ln)
        if "\n" in ln:  # a whole-tensor reduction group: always run, reads its source
            kept.append(ln)
            needed.update(refs)
            continue
        if not refs:
            continue
        dest, reads = refs[0], refs[1:]
        if dest not in needed:
            continue
        kept.append(ln)
        if dest not in reads and not ln.startswith(READS_DST):
            needed.discard(dest)
        needed.update(reads)
    return list(reversed(kept))


def inputs_read(lines: list[str], exprs: list[str] = ()) -> set[tuple[int, int | None]]:
    """The streamed inputs (XI<i> / W<i>) the lines read, as (input index, window) (window None: the whole row;
    k: window k of a windowed input, XI<i>w<k>)."""
    out: set[tuple[int, int | None]] = set()
    for ln in [*lines, *exprs]:
        out.update((int(i), int(k) if k else None) for i, k in re.findall(r"\b(?:XI|W)(\d+)(?:w(\d+))?\b", ln))
    return out


def _load_window(kp, i: int, k: int) -> list[str]:
    """Chunk [c0, c0 + cn) of window k of windowed input i (its row r; the window's start from the tiling)."""
    start = kp.extra["windows"][i][k]
    at = "" if start == "0" else f" + {start}"
    return [f"    LocalTensor<TI{i}> xt{i}w{k} = iq{i}w{k}_.AllocTensor<TI{i}>();",
            f"    DataCopyPad(xt{i}w{k}, xg{i}_[static_cast<uint64_t>(r) * srcCols{i}_{at} + c0], "
            f"DataCopyExtParams{{1, static_cast<uint32_t>(cn * sizeof(TI{i})), 0, 0, 0}}, "
            f"DataCopyPadExtParams<TI{i}>{{false, 0, 0, 0}});",
            f"    iq{i}w{k}_.EnQue(xt{i}w{k});"]


# ---- kernel code -------------------------------------------------------------------------------

def max_reds_per_pass(body_variants: list[list[str]]) -> int:
    return max([1] + [len(p.reds) for b in body_variants for p in analyse(b).passes])


def _chunk_loop(kp, streamed: list[int], lines: list[str], tail: list[str], reverse: bool = False) -> list[str]:
    """for every chunk of the row (from its end when ``reverse``): load the streamed inputs it reads, run
    ``lines``, then ``tail``."""
    if reverse:
        L = ["for (uint32_t k = (colEnd_ - colBeg_ + chunkLen_ - 1) / chunkLen_; k-- > 0;) {",
             "    uint32_t c0 = colBeg_ + k * chunkLen_;",
             "    uint32_t cn = colEnd_ - c0 < chunkLen_ ? colEnd_ - c0 : chunkLen_;"]
    else:
        L = ["for (uint32_t c0 = colBeg_; c0 < colEnd_; c0 += chunkLen_) {",
             "    uint32_t cn = colEnd_ - c0 < chunkLen_ ? colEnd_ - c0 : chunkLen_;"]
    for i, k in streamed:
        if k is not None:
            L += _load_window(kp, i, k)
            continue
        src = f"xg{i}_[rowOff + c0]" if kp.inputs[i].kind == InputKind.FULL else f"xg{i}_[c0]"
        L += [f"    LocalTensor<TI{i}> xt{i} = iq{i}_.AllocTensor<TI{i}>();",
              f"    DataCopyPad(xt{i}, {src}, DataCopyExtParams{{1, static_cast<uint32_t>(cn * sizeof(TI{i})), 0, 0, 0}}, "
              f"DataCopyPadExtParams<TI{i}>{{false, 0, 0, 0}});",
              f"    iq{i}_.EnQue(xt{i});"]
    for i, k in streamed:
        if k is not None:
            widen = (f"WidenBytes<float>(xt{i}w{k}, hb{i}w{k}_.Get<half>(), ic{i}w{k}_.Get<float>(), cn)"   # int8
                     if set(kp.inputs[i].dtypes) & set(BYTE_DTYPES) else f"ToFloat(xt{i}w{k}, ic{i}w{k}_.Get<float>(), cn)")
            L += [f"    xt{i}w{k} = iq{i}w{k}_.DeQue<TI{i}>();", f"    LocalTensor<float> XI{i}w{k} = {widen};"]
            continue
        name = f"XI{i}" if kp.inputs[i].kind == InputKind.FULL else f"W{i}"
        widen = (f"WidenBytes<float>(xt{i}, hb{i}_.Get<half>(), ic{i}_.Get<float>(), cn)"   # a bool mask, int8
                 if set(kp.inputs[i].dtypes) & set(BYTE_DTYPES) else f"ToFloat(xt{i}, ic{i}_.Get<float>(), cn)")
        L += [f"    xt{i} = iq{i}_.DeQue<TI{i}>();", f"    LocalTensor<float> {name} = {widen};"]
    L += ["    " + x for ln in lines for x in ln.split("\n")]
    L += ["    " + x for x in tail]
    L += [f"    iq{i}{'' if k is None else f'w{k}'}_.FreeTensor(xt{i}{'' if k is None else f'w{k}'});" for i, k in streamed]
    return L + ["}"]


def _variant_row(kp, body: list[str], out_exprs: list[str]) -> list[str]:
    sp = analyse(body)
    L = list(sp.scalar_before)
    for slot, p in enumerate(sp.passes):
        tail = []
        for k, red in enumerate(p.reds):
            comb, init = COMBINE[red.api]
            L.append(f"Duplicate(A{k}, {init}, chunkLen_);")
            tail.append(f"{comb}(A{k}, A{k}, {red.src}, cn);")
        L += _chunk_loop(kp, sorted(inputs_read(p.vec, [r.src for r in p.reds]), key=lambda t: (t[0], -1 if t[1] is None else t[1])),
                         p.vec, tail)
        for k, red in enumerate(p.reds):
            L += [f"{red.api}<float>(SC0, A{k}, WK, cols_ < chunkLen_ ? cols_ : chunkLen_);", sync.VECTOR_TO_SCALAR,
                  f"float {red.name} = SC0.GetValue(0);"]
        for k, red in enumerate(p.reds):  # a row shared by several cores: combine their partial results
            L.append(f"if (rowCores_ > 1) {red.name} = RowCombine({red.name}, {slot * 8 + k}, {KIND[red.api]});")
        L += p.scalar_after
    vec_outs = [j for j, o in enumerate(kp.outputs) if o.kind in (OutputKind.VEC, OutputKind.CAT)]
    if vec_outs or any(ln.startswith("ReduceSum") or "\n" in ln for ln in sp.write):
        tail = []
        tiles = []
        for j in vec_outs:
            pieces = out_exprs[j].split("|")      # a concatenated output: one tile per piece of its rows
            for k, tile in enumerate(pieces):
                y, q = (f"yt{j}", f"oq{j}_") if len(pieces) == 1 else (f"yt{j}w{k}", f"oq{j}w{k}_")
                piece = {0: "", 1: " + cols_"}.get(k, f" + {k} * cols_")
                at = "rowOff + c0" if len(pieces) == 1 else f"static_cast<uint64_t>(r) * {len(pieces)} * cols_{piece} + c0"
                stage = f"hs{j}_" if len(pieces) == 1 else f"hs{j}w{k}_"      # a one-byte output narrows through half
                store = (f"NarrowToBytes<false>({y}, {tile}, {stage}.Get<half>(), cn);"
                         if set(kp.outputs[j].dtypes) & set(BYTE_DTYPES) else f"FromFloat({y}, {tile}, cn);")
                tail += [f"LocalTensor<TO{j}> {y} = {q}.AllocTensor<TO{j}>();", store,
                         f"{q}.EnQue({y});", f"{y} = {q}.DeQue<TO{j}>();",
                         f"DataCopyPad(yg{j}_[{at}], {y}, DataCopyExtParams{{1, static_cast<uint32_t>(cn * sizeof(TO{j})), 0, 0, 0}});",
                         f"{q}.FreeTensor({y});"]
                tiles.append(tile)
        write = _prune(sp.write, set(tiles))
        L += sp.carries
        L += _chunk_loop(kp, sorted(inputs_read(write, tiles), key=lambda t: (t[0], -1 if t[1] is None else t[1])),
                         write, tail, sp.reverse)
    for j, o in enumerate(kp.outputs):
        if o.kind == OutputKind.RS:
            L += ["if (GetBlockIdx() % rowCores_ == 0) {", f"RO{j}.SetValue(0, {out_exprs[j]});", sync.SCALAR_TO_VECTOR,
                  f"LocalTensor<TO{j}> yr{j} = oq{j}_.AllocTensor<TO{j}>();", f"FromFloat(yr{j}, RO{j}, 16);",
                  f"oq{j}_.EnQue(yr{j});", f"yr{j} = oq{j}_.DeQue<TO{j}>();",
                  f"DataCopyPad(yg{j}_[r], yr{j}, DataCopyExtParams{{1, static_cast<uint32_t>(sizeof(TO{j})), 0, 0, 0}});",
                  f"oq{j}_.FreeTensor(yr{j});", "}"]
    return L


def process_split(kp, variants_fn, views: list[str]) -> str:
    """The ``ProcessSplit`` member: rows of this core one at a time, streamed in chunks (``views``: the rounding
    buffers' and comparison masks' local tensors)."""
    nacc = kp.extra.get("split_accs", 1)
    L = ["LocalTensor<float> WK = wk_.Get<float>();", "LocalTensor<float> SC = sc_.Get<float>();"]
    L += [f"LocalTensor<float> SC{k} = SC[{8 * k}];" for k in range(5)]
    L += [f"LocalTensor<float> A{k} = ac{k}_.Get<float>();" for k in range(nacc)]
    L += [f"LocalTensor<float> B{k} = sb{k}_.Get<float>();" for k in range(kp.nslots)]
    L += [f"LocalTensor<float> S{k} = B{k};" for k in range(kp.nslots)]
    L += views
    L += [f"LocalTensor<float> RO{j} = ro{j}_.Get<float>();" for j, o in enumerate(kp.outputs) if o.kind == OutputKind.RS]
    # (a value per row is read at row first_ + off + r: one row at a time here, no tile offset)
    off = ["const uint32_t off = 0;"] if any(p.kind == InputKind.GRS for p in kp.inputs) else []
    L += ["const uint32_t o = 0;", "(void)o;", *off, "for (uint32_t r = 0; r < count_; ++r) {",
          "    uint64_t rowOff = static_cast<uint64_t>(r) * cols_;"]
    L += ["    " + ln if not ln.startswith("#") else ln for ln in variants_fn(lambda v: _variant_row(kp, v.body, v.out_exprs))]
    L += ["}"]
    body = "\n".join("        " + ln if ln else "" for ln in L)
    return (ROW_COMBINE +"    // split-row path: each row is streamed from GM in chunks of chunkLen_ elements, once per group of\n"
            "    // row reductions (folded into float accumulator vectors) and once more to write the outputs\n"
            f"    __aicore__ inline void ProcessSplit()\n    {{\n{body}\n    }}")


def has_scan(body_variants: list[list[str]]) -> bool:
    return any(analyse(b).carries for b in body_variants)


def max_passes(body_variants: list[list[str]]) -> int:
    return max([1] + [len(analyse(b).passes) for b in body_variants])


# partial reductions of the cores sharing a row, exchanged through the workspace (one slot of 8 floats
# per core and per reduction; slots are never reused within a launch, so one SyncAll per exchange suffices)
ROW_COMBINE = """    __aicore__ inline float RowCombine(float v, uint32_t slot, int kind)
    {
        LocalTensor<float> pb = pr_.Get<float>();
        pb.SetValue(0, v);
        """ + sync.SCALAR_TO_COPY_OUT + """
        uint64_t mine = (static_cast<uint64_t>(slot / 8) * GetBlockNum() + GetBlockIdx()) * 8 * 8 + slot % 8 * 8;
        DataCopyPad(wsr_[mine], pb, DataCopyExtParams{1, 4, 0, 0, 0});
        """ + sync.COPY_OUT_DONE + """   // this core's partial is in GM before the cores meet
        SyncAll();
        uint64_t first = (static_cast<uint64_t>(slot / 8) * GetBlockNum() + GetBlockIdx() / rowCores_ * rowCores_) * 8 * 8 + slot % 8 * 8;
        DataCopyPad(pb, wsr_[first], DataCopyExtParams{static_cast<uint16_t>(rowCores_), 4, 252, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0});
        """ + sync.COPY_IN_TO_SCALAR + """
        float acc = pb.GetValue(0);
        for (uint32_t k = 1; k < rowCores_; ++k) {
            float x = pb.GetValue(k * 8);
            acc = kind == 0 ? acc + x : (kind == 1 ? (x > acc ? x : acc) : (x < acc ? x : acc));
        }
        return acc;
    }

"""


def splittable(kp) -> bool:
    if (kp.template != "row" or any(p.kind in (InputKind.RIDX, InputKind.GROW, InputKind.PAIR) for p in kp.inputs)
            or kp.nmasks and any(set(BYTE_DTYPES) & set(p.dtypes) for p in kp.inputs)   # a bool read as a mask
            or any(p.kind == InputKind.BVEC and set(BYTE_DTYPES) & set(p.dtypes) for p in kp.inputs)
            or any(o.kind == OutputKind.IDX or o.kind in PAIR_OUTPUTS or o.kind == OutputKind.RS and set(BYTE_DTYPES) & set(o.dtypes)
                   for o in kp.outputs)):
        return False
    try:
        for v in kp.variants:
            analyse(v.body)
    except NotSplittable:
        return False
    return True
