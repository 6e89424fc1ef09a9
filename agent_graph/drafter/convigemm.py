"""Implicit GEMM: a 2-D convolution (stride 1, dilation 1, one group; fp32, fp16 or bf16) and its elementwise epilogue on the cube
without an im2col matrix in GM (templates ``conv_igemm_*``).

The vector cores write each padded input row the convolution reads as a 5HD row record ([C1][W + 2 PAD_W][C0], zero
positions for the padding, zero records for padded rows) and the weight as L0A fractals to the workspace; each cube
core keeps the whole weight in L1, rotates KH input rows through L1 slots and builds the im2col fractals of L0B with
2-D LoadData straight from them (at stride 1, 16 neighbouring output positions of one tap are one 512-byte run of a
record), accumulates ``C[OC, positions]`` in L0C and Fixpipes it into y (NCHW; a 16-bit convolution's float product
into the workspace); its vector cores then apply the epilogue (in place on an fp32 y), group of output rows by group
of rows (cross-core flags). The GM traffic is the input about
once, y twice and the weight, where the im2col path (``convcube``) writes and reads a matrix KH * KW times the input.

The epilogue is the cube template's (``cubeplan.lower_epilogue``), on UB tiles of [output channels x positions]: a
per-output-channel tensor (a bias, ``[OC, 1, 1]``) is one value per tile row, a tensor of the output's shape is read
at the tile's positions, a one-element tensor is a scalar. In 16 bits every value is computed in float and rounded
where PyTorch rounds it (the program's own casts), the result once more to the output type.

``applies`` keeps the im2col path where the implicit GEMM does not apply, where its buffers do not fit (the weight and
KH row slots in L1, the L0 chunk buffers, UB) or where it is modelled slower: few input channels (``MIN_CHANNELS``),
few output rows a cube core (``MIN_ROWS_PER_CORE``).
"""
from __future__ import annotations

import re
from typing import Any

from agent_graph.drafter.codegen import _attr_code, opdef_params
from agent_graph.drafter.templates import load
from bench_bridge.api import snake_case, soc_facts

SIZE = {"float32": 4, "float16": 2, "bfloat16": 2}
CT = {"float32": "float", "float16": "half", "bfloat16": "bfloat16_t"}
A_BUFS = B_BUFS = 4        # the kernel's L0A / L0B chunk buffers
MAX_KH = 7                 # the kernel's L1 row slots (one event id each)
MIN_TILE = 1024            # floats of the smallest epilogue tile the host accepts
UB_MARGIN = 2048           # the host's UB bytes besides the queues
MIN_CHANNELS = 16
"""Input channels below which the im2col path stays: K = C * KH * KW is then short, each Mmad a few k-blocks, and
the record conversions (one per C0-block of channels and input row, mostly scalar issue) cost about what the im2col
matrix saves. Modelled on [2, C, 128, 128] -> 32 channels, 3 x 3, padding 1, relu: C = 3 13.5 us (im2col) against
19.1 us (implicit GEMM); C = 8 22.0 against 19.6 (a gain too small to leave the path the cube-traffic tests pin);
C = 16 36.2 against 20.1."""
MIN_ROWS_PER_CORE = 3
"""Output rows (N * OH, of the largest case) per cube core below which the im2col path stays: each cube core copies
the whole weight to L1 and starts its row pipeline once, which a few rows do not pay for. Modelled on 64 -> 128
channels, 3 x 3, padding 1, mish twice: [1, 64, 48, 64] (2 rows a core) 27.3 us (im2col) against 28.5 us;
[1, 64, 96, 96] (4 rows a core) 52.3 against 46.2; [2, 64, 128, 128] 149.9 against 106.9."""


def _align(a: int, b: int) -> int:
    return (a + b - 1) // b * b


def fits(x: tuple[int, ...], w: tuple[int, ...], pad: tuple[int, int], per_elem: int, col_vectors: int,
         esize: int = 4) -> str:
    """Why the kernel's buffers do not take a convolution of input ``x`` [N, C, H, W] and weight ``w`` [OC, C, KH, KW]
    (the host's checks), or "". ``per_elem``: UB bytes per element of an epilogue tile; ``col_vectors``: the
    epilogue's per-channel tensors (each kept in UB); ``esize``: bytes of an element."""
    soc = soc_facts()
    c0 = 32 // esize
    _, c, h, wd = x
    oc, _, kh, kw = w
    hp, wr = h + 2 * pad[0], wd + 2 * pad[1]
    if hp < kh or wr < kw:
        return "a kernel larger than the padded input"
    c1, m1, kk = -(-c // c0), -(-oc // 16), kh * kw
    nb = -(-(wr - kw + 1) // 16)
    fa, fb, fc = soc.l0a_bytes // A_BUFS // 512, soc.l0b_bytes // B_BUFS // 512, soc.l0c_bytes // 1024
    if m1 > fa or m1 > fc or kh > MAX_KH:
        return f"{oc} output channels or a {kh}-row kernel (at most {16 * min(fa, fc)} channels, {MAX_KH} rows)"
    n1t = min(nb, fc // m1, fb)
    col_tiles = -(-nb // n1t)
    wp = n1t * 16 if col_tiles == 1 and n1t * 16 >= wr else wr
    slot = max(((c1 - 1) * wp + col_tiles * n1t * 16 + kw - 1) * c0, c1 * wp * c0)
    l1 = soc.l1_bytes - soc.kfc_reserved_bytes
    if (kk * c1 * m1 * 16 * c0 + kh * slot) * esize > l1:
        return f"the weight ({kk * c1 * m1 * 512} bytes as fractals) and {kh} input rows exceed L1"
    pitch, frac = _align(c0 * kk, c0), 16 * c0
    prep = (4 * max(c0 * _align(wd, c0), 16 * pitch) + 2 * max(c0 * wr, kk * frac)) * esize + max(kk * frac, c0 * wd) * 4
    ub = soc.ub_bytes - soc.kfc_reserved_bytes - prep - UB_MARGIN - col_vectors * _align(oc, c0) * esize
    if ub < MIN_TILE * per_elem:
        return "UB is too small for the epilogue tiles next to the row conversion buffers"
    return ""


class Epilogue:
    """The vector part's epilogue code: ``cp``'s one program over a float product tile ``XI0`` of ``no`` output
    channels x ``lenAl`` positions (``n`` elements), each input loaded as its kind says (a 16-bit one widened to
    float), the result stored into y: in place from the fp32 tile, else rounded into a tile of the output type."""

    def __init__(self, cp: Any):
        self.cp = cp
        combo = cp.combos[0]
        self.dtype = combo[1]
        self.wide = self.dtype != "float32"
        nm, eps = cp.names, cp.cg.epilogue_inputs
        self.init: list[str] = []
        self.members: list[str] = []
        self.load: list[str] = []
        self.compute: list[str] = []
        self.prologue: list[str] = []
        self.free: list[str] = []
        self.args: list[str] = []          # the GM arguments the epilogue reads
        self.per_elem = 2 * 4 + (2 * SIZE[self.dtype] if self.wide else 0)   # UB bytes per tile element: the tiles
        self.col_vectors = 0
        self.cols: dict[int, list[str]] = {}   # the epilogue inputs of one value per output channel: their tile fills
        for i, (x, kind) in enumerate(zip(eps, cp.kinds[1:]), 1):
            if nm[x] not in self.args:
                self.args.append(nm[x])
            getattr(self, f"_{kind}")(i, nm[x])
        if self.prologue:
            self.prologue += ["SetFlag<HardEvent::MTE2_S>(0);   // the tile rows' values are read by the scalar unit",
                              "WaitFlag<HardEvent::MTE2_S>(0);"]
        for s in range(cp.nslots):
            self.init.append(f"pipe->InitBuffer(slot{s}_, td.tile * sizeof(float));")
            self.members.append(f"TBuf<TPosition::VECCALC> slot{s}_;")
            self.compute.append(f"LocalTensor<float> S{s} = slot{s}_.Get<float>();")
            self.per_elem += 4
        for dt in cp.round_types:   # the program's roundings to a 16-bit type go through a tile of that type
            ct = CT[dt]
            self.init.append(f"pipe->InitBuffer(rh_{ct}_, td.tile * sizeof({ct}));")
            self.members.append(f"TBuf<TPosition::VECCALC> rh_{ct}_;")
            self.compute.append(f"LocalTensor<{ct}> RH_{ct} = rh_{ct}_.Get<{ct}>();")
            self.per_elem += 2
        for j in range(len(cp.attrs)):
            self.init.append(f"attr{j}_ = td.attr{j};")
            self.members.append(f"float attr{j}_ = 0.0f;")
        prog = cp.progs[combo]
        if cp.c_round[combo]:
            ct = CT[cp.c_round[combo]]
            self.compute += [f"Cast(RH_{ct}, XI0, RoundMode::CAST_RINT, n);   // the product rounded as PyTorch returns it",
                             f"Cast(XI0, RH_{ct}, RoundMode::CAST_NONE, n);"]
        if self.wide:
            self.init.append("pipe->InitBuffer(outQ_, 2, td.tile * sizeof(T));")
            self.members.append("TQue<QuePosition::VECOUT, 2> outQ_;")
            self.compute += prog.body + self.free
            self.store = ["LocalTensor<T> o = outQ_.AllocTensor<T>();",
                          f"Cast(o, {prog.outputs[0].val.expr}, RoundMode::CAST_RINT, n);   // the result in the output type",
                          "ioQ_.FreeTensor(XI0);",
                          "outQ_.EnQue(o);",
                          "o = outQ_.DeQue<T>();",
                          "DataCopyPad(yGm_[at], o, Rows(no, len, lenAl, sizeof(T), true));",
                          "outQ_.FreeTensor(o);"]
        else:
            self.compute += _into_tile(prog) + self.free
            self.store = ["SetFlag<HardEvent::V_MTE3>(ev);",
                          "WaitFlag<HardEvent::V_MTE3>(ev);",
                          "DataCopyPad(yGm_[at], XI0, Rows(no, len, lenAl, sizeof(T), true));",
                          "SetFlag<HardEvent::MTE3_MTE2>(ev);",
                          "ioQ_.FreeTensor(XI0);"]
        for i in self.cols:
            self._per_row(i)
        if self.compute or self.wide:
            self.compute.insert(0, "uint32_t n = no * lenAl;   // the tile's elements, whole rows")
        self.any = self.wide or bool(self.compute or self.load)
        """The vector cores compute something on the product (else the fp32 y that Fixpipe writes is the result)."""

    def _scalar(self, i: int, arg: str) -> None:
        self.init += [f"GlobalTensor<T> xg{i};", f"xg{i}.SetGlobalBuffer((__gm__ T*){arg}, 1);",
                      f"sv{i}_ = static_cast<float>(xg{i}.GetValue(0));"]
        self.members.append(f"float sv{i}_ = 0.0f;")

    def _col(self, i: int, arg: str) -> None:
        """One value per output channel: the values sit in UB (loaded once), each tile row filled with its own."""
        self.init += [f"xg{i}_.SetGlobalBuffer((__gm__ T*){arg}, td.oc);",
                      f"pipe->InitBuffer(colv{i}_, Align(td.oc, C0) * sizeof(T));   // one value per output channel",
                      f"pipe->InitBuffer(f{i}_, td.tile * sizeof(float));"]
        self.members += [f"GlobalTensor<T> xg{i}_;", f"TBuf<TPosition::VECCALC> colv{i}_;", f"TBuf<TPosition::VECCALC> f{i}_;"]
        self.prologue.append(f"DataCopyPad(colv{i}_.Get<T>(), xg{i}_, DataCopyExtParams{{1, td.oc * static_cast<uint32_t>(sizeof(T)), 0, 0, 0}}, "
                             "DataCopyPadExtParams<T>{false, 0, 0, 0});")
        fill = [f"LocalTensor<float> XI{i} = f{i}_.Get<float>();",
                f"LocalTensor<T> cv{i} = colv{i}_.Get<T>();",
                "for (uint32_t k = 0; k < no; ++k) {",
                f"    Duplicate(XI{i}[k * lenAl], static_cast<float>(cv{i}.GetValue(o0 + k)), lenAl);",
                "}"]
        self.compute += fill
        self.per_elem += 4
        self.col_vectors += 1
        self.cols[i] = fill

    def _per_row(self, i: int) -> None:
        """A per-channel tensor the program reads once, added, subtracted or multiplied (a convolution's bias): that
        instruction becomes one scalar instruction per tile row (``Adds``/``Muls`` with the row's value), with no
        tile of repeated values (its ``Duplicate`` pass and its UB tile saved)."""
        name, lines = f"XI{i}", self.cols[i]
        fill = self.compute.index(lines[0])
        users = [k for k, ln in enumerate(self.compute)
                 if re.search(rf"\b{name}\b", ln) and k not in range(fill, fill + len(lines))]
        if len(users) != 1:
            return
        m = re.fullmatch(r"(Add|Sub|Mul)\((\w+), (\w+), (\w+), n\);", self.compute[users[0]])
        if not m or name not in m.group(3, 4) or (m.group(1) == "Sub" and m.group(3) == name):
            return
        op, dst = m.group(1), m.group(2)
        src = m.group(4) if m.group(3) == name else m.group(3)
        value = f"static_cast<float>(cv{i}.GetValue(o0 + k))"
        scalar = {"Add": f"Adds({dst}[k * lenAl], {src}[k * lenAl], {value}, lenAl);",
                  "Sub": f"Adds({dst}[k * lenAl], {src}[k * lenAl], -{value}, lenAl);",
                  "Mul": f"Muls({dst}[k * lenAl], {src}[k * lenAl], {value}, lenAl);"}[op]
        self.compute[users[0]:users[0] + 1] = [
            "for (uint32_t k = 0; k < no; ++k) {   // one value per output channel: a scalar op per tile row",
            f"    {scalar}", "}"]
        self.compute[fill:fill + len(lines)] = [lines[1]]   # only the values' UB tensor stays
        self.init.remove(f"pipe->InitBuffer(f{i}_, td.tile * sizeof(float));")
        self.members.remove(f"TBuf<TPosition::VECCALC> f{i}_;")
        self.per_elem -= 4

    def _full(self, i: int, arg: str) -> None:
        """A tensor of the output's shape: its tile read at the y tile's positions (16-bit: widened to float)."""
        self.init += [f"xg{i}_.SetGlobalBuffer((__gm__ T*){arg}, outElems);",
                      f"pipe->InitBuffer(inQ{i}_, 2, td.tile * sizeof(T));"]
        self.members += [f"GlobalTensor<T> xg{i}_;", f"TQue<QuePosition::VECIN, 2> inQ{i}_;"]
        self.load += [f"LocalTensor<T> x{i} = inQ{i}_.AllocTensor<T>();",
                      f"DataCopyPad(x{i}, xg{i}_[at], Rows(no, len, lenAl, sizeof(T), false), DataCopyPadExtParams<T>{{false, 0, 0, 0}});",
                      f"inQ{i}_.EnQue(x{i});"]
        self.compute.append(f"x{i} = inQ{i}_.DeQue<T>();")
        self.per_elem += 2 * SIZE[self.dtype]
        if self.wide:
            self.init.append(f"pipe->InitBuffer(f{i}_, td.tile * sizeof(float));")
            self.members.append(f"TBuf<TPosition::VECCALC> f{i}_;")
            self.compute += [f"LocalTensor<float> XI{i} = f{i}_.Get<float>();",
                             f"Cast(XI{i}, x{i}, RoundMode::CAST_NONE, n);",
                             f"inQ{i}_.FreeTensor(x{i});"]
            self.per_elem += 4
        else:
            self.compute.append(f"LocalTensor<float> XI{i} = x{i};")
            self.free.append(f"inQ{i}_.FreeTensor(x{i});")

    def _row(self, i: int, arg: str) -> None:
        raise NotIgemm("a tensor along the output positions in the epilogue")


IN_PLACE_OPS = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Adds", "Muls", "Maxs", "Mins", "Relu", "Exp", "Ln", "Abs",
                "Sqrt", "LeakyRelu"}
"""Vector instructions that only read their sources (the destination is not one): their result can go to any tile,
one of their sources included (elementwise, each element read before it is written)."""


def _into_tile(prog: Any) -> list[str]:
    """The program with its result in the y tile XI0: its last instruction writes XI0 instead of a slot when that
    instruction only reads its sources (``IN_PLACE_OPS``), else one copy after it."""
    body, res = list(prog.body), prog.outputs[0].val.expr
    if res == "XI0":
        return body
    m = re.fullmatch(r"(\w+)\(" + re.escape(res) + r", (.*)", body[-1]) if body else None
    if m and m.group(1) in IN_PLACE_OPS:
        return body[:-1] + [f"{m.group(1)}(XI0, {m.group(2)}"]
    return body + [f"DataCopy(XI0, {res}, n);   // the result into the y tile"]


class NotIgemm(Exception):
    """The implicit GEMM does not take the convolution (the im2col path does)."""


def _ind(lines: list[str], n: int) -> str:
    return "\n".join(" " * n + ln if ln else "" for ln in lines)


def applies(cp: Any, geo: Any, shapes: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> str:
    """Why the implicit GEMM does not take the convolution ``cp`` plans (``convcube``'s cube parameters, its geometry,
    each case's input and weight shapes), or ""."""
    if geo.rank != 2 or geo.transposed or geo.pointwise:
        return "not a 2-D convolution with a kernel of several taps"
    if geo.stride != (1, 1, 1) or geo.dilation != (1, 1, 1):
        return "a stride or dilation"
    dtypes = {d for combo in cp.combos for d in (*combo[0], combo[1])}
    if len(dtypes) != 1 or not dtypes <= set(SIZE):
        return f"operands of several types or of a type the kernel does not take ({', '.join(sorted(dtypes))})"
    if min(x[1] for x, _ in shapes) < MIN_CHANNELS:
        return f"fewer than {MIN_CHANNELS} input channels"
    rows = max(x[0] * (x[2] + 2 * geo.padding[1] - w[2] + 1) for x, w in shapes)
    if rows < MIN_ROWS_PER_CORE * soc_facts().ai_cores:
        return f"{rows} output rows: under {MIN_ROWS_PER_CORE} a cube core"
    try:
        ep = Epilogue(cp)
    except NotIgemm as e:
        return str(e)
    for x, w in shapes:
        why = fits(x, w, geo.padding[1:], ep.per_elem, ep.col_vectors, SIZE[ep.dtype])
        if why:
            return why
    return ""


def render(cp: Any, geo: Any) -> dict[str, str]:
    """The op project's files for the implicit GEMM (``applies`` said yes)."""
    snake = snake_case(cp.op_type)
    ep = Epilogue(cp)
    nm, conv = cp.names, cp.conv
    ins = cp.op_inputs()
    x, weight = nm[conv.x], nm[conv.weight]
    vec_args = [x, weight, cp.out] + [a for a in ep.args if a not in (x, weight)]
    gm = [nm[i] for i in ins] + [cp.out]
    kernel = load("conv_igemm_kernel.cpp.tmpl").substitute(
        op_type=cp.op_type, summary=cp.summary, kernel_name=snake, gm_params=", ".join(f"GM_ADDR {a}" for a in gm),
        vec_init_params=", ".join(f"GM_ADDR {a}" for a in vec_args), vec_init_args=", ".join(vec_args),
        x_name=x, w_name=weight, y_name=cp.out, init_body=_ind(ep.init, 8), members=_ind(ep.members, 4),
        t_type=CT[ep.dtype], epilogue="true" if ep.any else "false", load_body=_ind(ep.load, 8), compute_body=_ind(ep.compute, 8), store_body=_ind(ep.store, 8),
        prologue=_ind(ep.prologue, 8) + ("\n" if ep.prologue else ""))
    attr_fields = "".join(f"TILING_DATA_FIELD_DEF(float, attr{j});\n" for j in range(len(cp.attrs)))
    tiling = load("conv_igemm_tiling.h.tmpl").substitute(op_type=cp.op_type, guard=f"{snake.upper()}_TILING_H",
                                                          attr_fields=attr_fields)
    kp = cp.kernel_params()
    host = load("conv_igemm_host.cpp.tmpl").substitute(
        op_type=cp.op_type, summary=cp.summary, op_snake=snake, x_index=ins.index(conv.x), w_index=ins.index(conv.weight),
        pad_h=geo.padding[1], pad_w=geo.padding[2], bytes_per_elem=ep.per_elem,
        budget_note=f"two float product tiles{', two output tiles' if ep.wide else ''}, the epilogue's inputs, "
                    f"{cp.nslots} float slots and {len(cp.round_types)} rounding tiles",
        col_vectors=ep.col_vectors, attr_code="\n".join(_attr_code(kp)), params="\n".join(opdef_params(kp)))
    return {f"op_host/{snake}.cpp": host, f"op_host/{snake}_tiling.h": tiling, f"op_kernel/{snake}.cpp": kernel}
