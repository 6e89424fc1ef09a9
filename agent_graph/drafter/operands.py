"""The drafted kernel's operands as typed objects: each kind of input and output writes its own members, its ``InitBuffer`` calls and its CopyIn/Compute/CopyOut lines,
and reports the Unified Buffer bytes those calls take, so the host's tiling budget (budget.py) is the sum
of what the operands (and scratch.py's kernel-wide buffers) say and cannot disagree with the kernel
codegen writes.

Inputs (``InputKind``):
    full   a tensor of the whole shape, streamed tile by tile (double-buffered queue + a float copy)
    bvec   a row vector broadcast over the rows (loaded once into UB as float; streamed on the split path)
    ridx   per-row integers (class indices), read from GM by scalar loads: no UB
    scalar a one-element tensor (a 0-d ``value``), read once by a scalar load into a float member: no UB
    grow   a tensor broadcast over some leading dimensions (``b.view(1, C, 1, W)`` against ``[N, C, H, W]``):
           each of its rows is copied in from the row the host's row map names (row template)
    grs    a tensor whose last dimension is broadcast (``b.view(1, C, 1, 1)``): one value per output row,
           read from the row map's element by a scalar load: no UB
    slice  a tensor read only through windows of its last dimension (``x.chunk(2, -1)``, ``x[..., :d]``): each
           window streamed into its own queue, its rows ``<input>Cols`` apart in GM (row template)
    pair   a complex64 tensor read through its real and imaginary parts (complexparts.py): its (real, imag)
           float pairs streamed in, taken apart by GatherMask (even / odd elements)
Outputs (``OutputKind``):
    vec    a tensor of the whole shape, written tile by tile
    rs     one value per row (rounded up to 16 rows a tile), staged as float
    idx    one integer per row (argmax/argmin)
    gs     one value for the whole tensor (block 0 writes it)
    col    the inner-dimension reduction template's output (codegen.render_col writes that template whole)
    cat    ``torch.cat(pieces, -1)`` of pieces as long as the kernel's rows: each piece written into its
           window of the output rows by a strided DataCopyPad (row template)
    pair   a complex64 result from its real and imaginary parts: interleaved by Gather into (real, imag) pairs
    gspair a complex64 result of one value (``torch.vdot``): block 0 writes its (real, imag) pair
    rspair a complex64 result of one value per row (a complex row sum): (real, imag) pairs staged as floats

UB bytes are worst cases (4-byte data, 8-byte indices) in four terms the host's TilingFunc combines:
per tile element, per tile row, per padded column and fixed (:class:`UbBytes`).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

from agent_graph.drafter import sync

if TYPE_CHECKING:
    from agent_graph.drafter.templates import TensorParam

MAX_CORES = 64


class InputKind(StrEnum):
    FULL = "full"
    BVEC = "bvec"
    RIDX = "ridx"
    SCALAR = "scalar"
    GROW = "grow"
    GRS = "grs"
    SLICE = "slice"
    PAIR = "pair"
    UNREAD = "unread"


ROW_MAP_FIELDS = ("RowDiv0", "RowMod0", "RowStep0", "RowDiv1", "RowMod1", "RowStep1", "Rows")
"""The host's row map of a broadcast input (tiling fields ``<input><field>``): output row r reads the input's row
(r / RowDiv0 % RowMod0) * RowStep0 + (r / RowDiv1 % RowMod1) * RowStep1 of its Rows rows (two groups of kept
dimensions; the dimensions between them are broadcast)."""


class OutputKind(StrEnum):
    VEC = "vec"
    RS = "rs"
    IDX = "idx"
    GS = "gs"
    COL = "col"          # the col template's output (that template is written whole, no operand code)
    CAT = "cat"          # equal pieces side by side in each row (torch.cat(pieces, -1)): WindowOutput
    PAIR = "pair"        # a complex64 result: its real and imaginary parts interleaved (PairOutput)
    GS_PAIR = "gspair"   # a complex64 result of one value (a complex sum): its two parts (GlobalPairOutput)
    RS_PAIR = "rspair"   # a complex64 result of one value per row: (real, imag) pairs (RowPairOutput)


PAIR_OUTPUTS = (OutputKind.PAIR, OutputKind.GS_PAIR, OutputKind.RS_PAIR)
"""Complex64 results: (real, imag) float pairs in GM."""


@dataclass(frozen=True)
class UbBytes:
    """UB bytes as the host sizes tiles: ``per_elem`` x tile elements + ``per_row`` x tile rows +
    ``per_col`` x padded columns + ``fixed``."""

    per_elem: int = 0
    per_row: int = 0
    per_col: int = 0
    fixed: int = 0

    def __add__(self, other: "UbBytes") -> "UbBytes":
        return UbBytes(self.per_elem + other.per_elem, self.per_row + other.per_row, self.per_col + other.per_col,
                       self.fixed + other.fixed)


def total(parts) -> UbBytes:
    out = UbBytes()
    for p in parts:
        out = out + p
    return out


@dataclass(frozen=True)
class Buffer:
    """One ``pipe_.InitBuffer`` call and the UB bytes it takes at most."""

    member: str                  # the TBuf/TQue member (``iq0_``)
    size: str                    # C++ size expression (bytes)
    ub: UbBytes
    queue: bool = False          # a TQue: BUFFER_NUM (2) buffers of ``size``

    @property
    def init(self) -> str:
        return f"pipe_.InitBuffer({self.member}, {'BUFFER_NUM, ' if self.queue else ''}{self.size});"


@dataclass(frozen=True)
class Layout:
    """What the operands' code depends on besides their own kind: the template and its paths."""

    row: bool                    # the row template (else flat)
    split: bool                  # row template with the split-row path (rows streamed in chunks)
    batched: bool                # row template whose row reduction reduces a whole tile at once (rowreduce.py)
    pad_value: str = "0"         # batched: the reduction's neutral value in the last block of a row
    lists: frozenset[str] = frozenset()     # foreach: operands that are tensor lists (DYNAMIC), one tensor per item
    per_item: frozenset[str] = frozenset()  # foreach: one-dimensional inputs holding one scalar per item
    wide: int = 4                # bytes of the widest element a queue holds (int64 data: 8)


def gm_address(name: str, t: str, lay: Layout) -> str:
    """The GM address of an operand's data: the current item's tensor of a list (foreach kernels)."""
    return f"{name}List_.GetDataPtr<{t}>(item)" if name in lay.lists else f"(__gm__ {t}*){name}"


# ---- inputs ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Input:
    """An op input: the ``index``-th kernel argument ``name`` (type alias ``TI<index>``)."""

    index: int
    name: str
    lay: Layout
    kind: ClassVar[InputKind]

    @property
    def t(self) -> str:
        return f"TI{self.index}"

    @property
    def gm(self) -> str:
        return gm_address(self.name, self.t, self.lay)

    @property
    def per_item(self) -> bool:
        """Foreach kernels: bound again for each item of the list (``bind``), not once in Init."""
        return self.name in self.lay.lists or self.name in self.lay.per_item

    def members(self) -> list[str]:
        return [f"GlobalTensor<{self.t}> xg{self.index}_;"]

    def tiling_params(self) -> list[str]:
        """The tiling fields this input's Init reads (Init's extra parameters, in order)."""
        return []

    def buffers(self) -> list[Buffer]:
        """The UB this input takes on the row/flat path."""
        return []

    def chunk_buffers(self) -> list[Buffer]:
        """The UB this input takes on the split-row path (per chunk element)."""
        return []

    def init(self) -> list[str]:
        return [f"xg{self.index}_.SetGlobalBuffer((__gm__ {self.t}*){self.name} + first_, count_);"]

    def load(self) -> list[str]:
        """Lines at the end of Init (a broadcast vector is loaded once)."""
        return []

    def copy_in(self) -> list[str]:
        return []

    def compute_in(self) -> list[str]:
        """Compute's opening lines for this input (dequeue + float view)."""
        return []

    def view(self) -> list[str]:
        """Compute's view of a once-loaded input (after the scratch views)."""
        return []

    def free(self) -> list[str]:
        return []

    def ub(self) -> UbBytes:
        return total(b.ub for b in self.buffers())

    def chunk_ub(self) -> UbBytes:
        return total(b.ub for b in self.chunk_buffers())


class FullInput(Input):
    kind = InputKind.FULL

    def members(self) -> list[str]:
        i = self.index
        return super().members() + [f"TQue<TPosition::VECIN, BUFFER_NUM> iq{i}_;", f"TBuf<TPosition::VECCALC> ic{i}_;"]

    def buffers(self) -> list[Buffer]:
        i, t = self.index, self.t
        ic = (f"std::is_same_v<{t}, float> ? 32 : tileElems * sizeof(float)" if self.lay.row else
              f"std::is_same_v<{t}, TC> ? 32 : tileElems * sizeof(TC)")
        return [Buffer(f"iq{i}_", f"tileElems * sizeof({t})", UbBytes(per_elem=2 * self.lay.wide), queue=True),
                Buffer(f"ic{i}_", ic, UbBytes(per_elem=4))]

    def chunk_buffers(self) -> list[Buffer]:
        return self.buffers()        # the same queue and float copy, sized by tileElems = chunkLen

    def bind(self) -> list[str]:
        """The GM view of this core's run of elements (``base``, ``span``)."""
        return [f"xg{self.index}_.SetGlobalBuffer({self.gm} + base, span);"]

    def setup(self) -> list[str]:
        return [b.init for b in self.buffers()]

    def init(self) -> list[str]:
        return self.bind() + self.setup()

    def copy_in(self) -> list[str]:
        i, t = self.index, self.t
        pad = f"DataCopyPadExtParams<{t}>{{false, 0, 0, 0}}"
        if self.lay.row:
            prm = f"RowsIn<{t}>(n, cols_, colsPad_)"
            src = f"xg{i}_[static_cast<uint64_t>(off) * cols_]"
            if self.lay.batched:   # the partial last block of a row holds the reduction's neutral value
                pad = (f"DataCopyPadExtParams<{t}>{{true, 0, RightPad<{t}>(cols_), "
                       f"static_cast<{t}>({self.lay.pad_value})}}")
        else:
            prm = f"DataCopyExtParams{{1, static_cast<uint32_t>(n * sizeof({t})), 0, 0, 0}}"
            src = f"xg{i}_[off]"
        return [f"LocalTensor<{t}> xt{i} = iq{i}_.AllocTensor<{t}>();",
                f"DataCopyPad(xt{i}, {src}, {prm}, {pad});", f"iq{i}_.EnQue(xt{i});"]

    def compute_in(self) -> list[str]:
        i, t = self.index, self.t
        return [f"LocalTensor<{t}> xt{i} = iq{i}_.DeQue<{t}>();",
                f"LocalTensor<float> XI{i} = ToFloat(xt{i}, ic{i}_.Get<float>(), cnt);" if self.lay.row else
                f"LocalTensor<TC> XI{i} = ToCompute(xt{i}, ic{i}_.Get<TC>(), cnt);"]

    def free(self) -> list[str]:
        return [f"iq{self.index}_.FreeTensor(xt{self.index});"]


@dataclass(frozen=True)
class WindowInput(FullInput):
    """An input read only through windows of its last dimension, each as long as the output's rows: window k
    starts at ``starts[k]`` (C++, in terms of ``cols_`` and the input's own row length ``<name>Cols``) and is
    copied in as rows ``<name>Cols`` apart in GM into a queue of its own (UB addresses stay 32-byte aligned
    whatever the window's start)."""

    starts: tuple[str, ...] = ()
    kind = InputKind.SLICE

    def tiling_params(self) -> list[str]:
        return [f"{self.name}Cols"]

    def members(self) -> list[str]:
        i = self.index
        return ([f"GlobalTensor<{self.t}> xg{i}_;", f"uint32_t srcCols{i}_ = 0;   // the length of a row of {self.name}"]
                + [m for k in range(len(self.starts)) for m in
                   (f"TQue<TPosition::VECIN, BUFFER_NUM> iq{i}w{k}_;", f"TBuf<TPosition::VECCALC> ic{i}w{k}_;")])

    def buffers(self) -> list[Buffer]:
        i, t = self.index, self.t
        return [b for k in range(len(self.starts)) for b in
                (Buffer(f"iq{i}w{k}_", f"tileElems * sizeof({t})", UbBytes(per_elem=2 * self.lay.wide), queue=True),
                 Buffer(f"ic{i}w{k}_", f"std::is_same_v<{t}, float> ? 32 : tileElems * sizeof(float)", UbBytes(per_elem=4)))]

    def chunk_buffers(self) -> list[Buffer]:
        return self.buffers()        # the same queues and float copies, sized by tileElems = chunkLen

    def init(self) -> list[str]:
        i, t = self.index, self.t
        return ([f"srcCols{i}_ = {self.name}Cols;",
                 f"xg{i}_.SetGlobalBuffer((__gm__ {t}*){self.name} + static_cast<uint64_t>(first_) * srcCols{i}_, "
                 f"static_cast<uint64_t>(count_) * srcCols{i}_);"] + [b.init for b in self.buffers()])

    def copy_in(self) -> list[str]:
        i, t = self.index, self.t
        pad = f"DataCopyPadExtParams<{t}>{{false, 0, 0, 0}}"
        if self.lay.batched:
            pad = f"DataCopyPadExtParams<{t}>{{true, 0, RightPad<{t}>(cols_), static_cast<{t}>({self.lay.pad_value})}}"
        lines = [f"// n rows of cols_ elements, srcCols{i}_ apart in GM (srcStride: the bytes skipped between them)",
                 f"DataCopyExtParams win{i}{{static_cast<uint16_t>(n), static_cast<uint32_t>(cols_ * sizeof({t})),",
                 f"                      static_cast<uint32_t>((srcCols{i}_ - cols_) * sizeof({t})), "
                 f"RowGap<{t}>(cols_, colsPad_), 0}};"]
        for k, start in enumerate(self.starts):
            at = "" if start == "0" else f" + {start}"
            end = "cols_" if start == "0" else ("2 * cols_" if start == "cols_" else f"{start} + cols_")
            lines += [f"LocalTensor<{t}> xt{i}w{k} = iq{i}w{k}_.AllocTensor<{t}>();   // columns [{start}, {end}) "
                      f"of {self.name}'s rows",
                      f"DataCopyPad(xt{i}w{k}, xg{i}_[static_cast<uint64_t>(off) * srcCols{i}_{at}], win{i}, {pad});",
                      f"iq{i}w{k}_.EnQue(xt{i}w{k});"]
        return lines

    def compute_in(self) -> list[str]:
        i, t = self.index, self.t
        return [x for k in range(len(self.starts)) for x in
                (f"LocalTensor<{t}> xt{i}w{k} = iq{i}w{k}_.DeQue<{t}>();",
                 f"LocalTensor<float> XI{i}w{k} = ToFloat(xt{i}w{k}, ic{i}w{k}_.Get<float>(), cnt);")]

    def free(self) -> list[str]:
        return [f"iq{self.index}w{k}_.FreeTensor(xt{self.index}w{k});" for k in range(len(self.starts))]


@dataclass(frozen=True)
class PairInput(FullInput):
    """A complex64 input read through its parts: each tile of ``n`` elements is ``2 n`` floats in GM, (real, imag)
    pairs, copied in whole and taken apart by GatherMask in counter mode (built-in pattern 1: the even elements,
    the real parts; 2: the odd ones, the imaginary parts) into two float tiles, ``XI<i>p0`` and ``XI<i>p1``. On the
    row path a row of ``cols_`` elements is ``2 cols_`` floats at a pitch of ``2 colsPad_``, so the parts come out at
    the tile's pitch ``colsPad_``."""

    kind = InputKind.PAIR

    def members(self) -> list[str]:
        i = self.index
        return [f"GlobalTensor<{self.t}> xg{i}_;   // (real, imag) float pairs",
                f"TQue<TPosition::VECIN, BUFFER_NUM> iq{i}_;", f"TBuf<TPosition::VECCALC> ir{i}_, ii{i}_;"]

    def buffers(self) -> list[Buffer]:
        i, t = self.index, self.t
        return [Buffer(f"iq{i}_", f"2 * tileElems * sizeof({t})", UbBytes(per_elem=2 * 8), queue=True),
                Buffer(f"ir{i}_", "tileElems * sizeof(float)", UbBytes(per_elem=4)),
                Buffer(f"ii{i}_", "tileElems * sizeof(float)", UbBytes(per_elem=4))]

    def bind(self) -> list[str]:
        return [f"xg{self.index}_.SetGlobalBuffer({self.gm} + 2 * base, 2 * span);"]

    def copy_in(self) -> list[str]:
        i, t = self.index, self.t
        if self.lay.row:
            prm, src = f"RowsIn<{t}>(n, 2 * cols_, 2 * colsPad_)", f"xg{i}_[static_cast<uint64_t>(off) * 2 * cols_]"
        else:
            prm, src = f"DataCopyExtParams{{1, static_cast<uint32_t>(2 * n * sizeof({t})), 0, 0, 0}}", f"xg{i}_[2 * off]"
        return [f"LocalTensor<{t}> xt{i} = iq{i}_.AllocTensor<{t}>();",
                f"DataCopyPad(xt{i}, {src}, {prm}, DataCopyPadExtParams<{t}>{{false, 0, 0, 0}});", f"iq{i}_.EnQue(xt{i});"]

    def compute_in(self) -> list[str]:
        i, t = self.index, self.t
        return [f"LocalTensor<{t}> xt{i} = iq{i}_.DeQue<{t}>();",
                f"LocalTensor<float> XI{i}p0 = ir{i}_.Get<float>();   // the real parts",
                f"LocalTensor<float> XI{i}p1 = ii{i}_.Get<float>();   // the imaginary parts",
                f"uint64_t taken{i} = 0;",
                f"GatherMask(XI{i}p0, xt{i}, REDUCEV2_MODE_ONE, true, 2 * cnt, GatherMaskParams{{1, 1, 8, 0}}, taken{i});",
                f"GatherMask(XI{i}p1, xt{i}, REDUCEV2_MODE_TWO, true, 2 * cnt, GatherMaskParams{{1, 1, 8, 0}}, taken{i});"]


BYTE_DTYPES = ("bool", "int8", "uint8")
"""One-byte tensors: converted through a half staging tile (the only casts into and out of 8-bit types)."""


@dataclass(frozen=True)
class ByteWindowInput(WindowInput):
    """Windows of an input with a one-byte dtype in some combination (int8): each window's bytes widen to float
    through a half staging tile of its own (the only casts out of 8-bit types go through half)."""

    def members(self) -> list[str]:
        return super().members() + [f"TBuf<TPosition::VECCALC> hb{self.index}w{k}_;" for k in range(len(self.starts))]

    def buffers(self) -> list[Buffer]:
        i = self.index
        return super().buffers() + [Buffer(f"hb{i}w{k}_", "tileElems * sizeof(half)", UbBytes(per_elem=2))
                                    for k in range(len(self.starts))]

    def compute_in(self) -> list[str]:
        i, t = self.index, self.t
        return [x for k in range(len(self.starts)) for x in
                (f"LocalTensor<{t}> xt{i}w{k} = iq{i}w{k}_.DeQue<{t}>();",
                 f"LocalTensor<float> XI{i}w{k} = WidenBytes<float>(xt{i}w{k}, hb{i}w{k}_.Get<half>(), "
                 f"ic{i}w{k}_.Get<float>(), cnt);")]


class ByteInput(FullInput):
    """A full input with a one-byte dtype in some combination (a bool mask, int8): its bytes widen to
    float through half."""

    def members(self) -> list[str]:
        return super().members() + [f"TBuf<TPosition::VECCALC> hb{self.index}_;"]

    def buffers(self) -> list[Buffer]:
        i, t = self.index, self.t
        return [Buffer(f"iq{i}_", f"tileElems * sizeof({t})", UbBytes(per_elem=2 * self.lay.wide), queue=True),
                Buffer(f"ic{i}_", "tileElems * sizeof(float)", UbBytes(per_elem=4)),
                Buffer(f"hb{i}_", "tileElems * sizeof(half)", UbBytes(per_elem=2))]

    def compute_in(self) -> list[str]:
        i, t = self.index, self.t
        ct = "float" if self.lay.row else "TC"
        return [f"LocalTensor<{t}> xt{i} = iq{i}_.DeQue<{t}>();",
                f"LocalTensor<{ct}> XI{i} = WidenBytes<{ct}>(xt{i}, hb{i}_.Get<half>(), ic{i}_.Get<{ct}>(), cnt);"]


class BcastInput(Input):
    kind = InputKind.BVEC

    def members(self) -> list[str]:
        i = self.index
        out = super().members() + [f"TBuf<TPosition::VECCALC> ws{i}_, wb{i}_;", f"LocalTensor<float> W{i}_;"]
        if self.lay.split:
            out += [f"TQue<TPosition::VECIN, BUFFER_NUM> iq{i}_;", f"TBuf<TPosition::VECCALC> ic{i}_;"]
        return out

    def buffers(self) -> list[Buffer]:
        i, t = self.index, self.t
        return [Buffer(f"ws{i}_", f"colsPad * sizeof({t})", UbBytes(per_col=4)),
                Buffer(f"wb{i}_", f"std::is_same_v<{t}, float> ? 32 : colsPad * sizeof(float)", UbBytes(per_col=4))]

    def chunk_buffers(self) -> list[Buffer]:
        i, t = self.index, self.t      # streamed chunk by chunk like a full input
        return [Buffer(f"iq{i}_", f"tileElems * sizeof({t})", UbBytes(per_elem=2 * self.lay.wide), queue=True),
                Buffer(f"ic{i}_", f"std::is_same_v<{t}, float> ? 32 : tileElems * sizeof(float)", UbBytes(per_elem=4))]

    def init(self) -> list[str]:
        gm = f"xg{self.index}_.SetGlobalBuffer((__gm__ {self.t}*){self.name}, cols);"
        whole = [b.init for b in self.buffers()]
        if not self.lay.split:
            return [gm, *whole]
        return [gm, "if (chunkLen > 0) {", *["    " + b.init for b in self.chunk_buffers()], "} else {",
                *["    " + x for x in whole], "}"]

    def load(self) -> list[str]:
        i, t = self.index, self.t
        lines = [f"LocalTensor<{t}> wst{i} = ws{i}_.Get<{t}>();",
                 f"DataCopyPad(wst{i}, xg{i}_, DataCopyExtParams{{1, static_cast<uint32_t>(cols * sizeof({t})), "
                 f"0, 0, 0}}, DataCopyPadExtParams<{t}>{{false, 0, 0, 0}});",
                 sync.COPY_IN_TO_VECTOR, f"W{i}_ = ToFloat(wst{i}, wb{i}_.Get<float>(), colsPad);"]
        return ["if (chunkLen == 0) {", *["    " + x for x in lines], "}"] if self.lay.split else lines

    def view(self) -> list[str]:
        return [f"LocalTensor<float> W{self.index} = W{self.index}_;"]


class RowIndexInput(Input):
    kind = InputKind.RIDX


class _RowMapped:
    """An input read through the host's row map (``RowMap`` in the kernel, ``ROW_MAP_FIELDS`` in the tiling)."""

    index: int
    name: str
    t: str

    def map_params(self) -> list[str]:
        return [f"{self.name}{f}" for f in ROW_MAP_FIELDS]

    def tiling_params(self) -> list[str]:
        return self.map_params()

    def map_init(self) -> list[str]:
        p = self.map_params()
        size = f"static_cast<uint64_t>({p[6]}) * cols" if self.kind == InputKind.GROW else p[6]
        return [f"rowMap{self.index}_ = RowMap{{{', '.join(p[:6])}}};",
                f"xg{self.index}_.SetGlobalBuffer((__gm__ {self.t}*){self.name}, {size});"]


class GatherRowInput(_RowMapped, FullInput):
    kind = InputKind.GROW

    def members(self) -> list[str]:
        return super().members() + [f"RowMap rowMap{self.index}_;"]

    def init(self) -> list[str]:
        return self.map_init() + [b.init for b in self.buffers()]

    def copy_in(self) -> list[str]:
        i, t = self.index, self.t
        pad = f"DataCopyPadExtParams<{t}>{{false, 0, 0, 0}}"
        if self.lay.batched:
            pad = f"DataCopyPadExtParams<{t}>{{true, 0, RightPad<{t}>(cols_), static_cast<{t}>({self.lay.pad_value})}}"
        return [f"LocalTensor<{t}> xt{i} = iq{i}_.AllocTensor<{t}>();",
                f"for (uint32_t k = 0; k < n; ++k) {{   // each row from the row of {self.name} it broadcasts",
                f"    DataCopyPad(xt{i}[k * colsPad_], xg{i}_[rowMap{i}_(first_ + off + k) * cols_],",
                f"                DataCopyExtParams{{1, static_cast<uint32_t>(cols_ * sizeof({t})), 0, 0, 0}}, {pad});",
                "}", f"iq{i}_.EnQue(xt{i});"]


class ByteGatherRowInput(GatherRowInput, ByteInput):
    """A one-byte input broadcast over leading dimensions (a bool mask of [B, 1, D] against [B, S, D]): its rows
    gathered through the row map, its bytes widened to float through half."""


class RowValueInput(_RowMapped, Input):
    kind = InputKind.GRS

    def members(self) -> list[str]:
        return super().members() + [f"RowMap rowMap{self.index}_;"]

    def init(self) -> list[str]:
        return self.map_init()

    def value(self) -> str:
        """The float value of output row ``r`` of the tile at ``off``."""
        return f"static_cast<float>(xg{self.index}_.GetValue(rowMap{self.index}_(first_ + off + r)))"


class ScalarInput(Input):
    kind = InputKind.SCALAR

    def members(self) -> list[str]:
        return super().members() + [f"float sv{self.index}_ = 0.0f;"]

    def init(self) -> list[str]:
        return [f"xg{self.index}_.SetGlobalBuffer((__gm__ {self.t}*){self.name}, 1);"]

    def load(self) -> list[str]:
        return [] if self.per_item else [f"sv{self.index}_ = static_cast<float>(xg{self.index}_.GetValue(0));"]

    def setup(self) -> list[str]:
        """Foreach kernels, once: a one-dimensional input holds the scalar of every item."""
        if self.name in self.lay.per_item:
            return [f"xg{self.index}_.SetGlobalBuffer((__gm__ {self.t}*){self.name}, tensorCount);"]
        return []

    def bind(self) -> list[str]:
        """Foreach kernels, per item: its scalar (element ``item``, or the one element of the item's tensor)."""
        i = self.index
        if self.name in self.lay.per_item:
            return [f"sv{i}_ = static_cast<float>(xg{i}_.GetValue(item));"]
        return [f"xg{i}_.SetGlobalBuffer({self.gm}, 1);", f"sv{i}_ = static_cast<float>(xg{i}_.GetValue(0));"]


# ---- outputs -----------------------------------------------------------------------------------

# every output keeps 16 rows of 24 bytes free: a tile's row count is rounded up to 16 for the per-row
# queues and their float staging
ROW_ROUNDING = UbBytes(fixed=16 * 24)


@dataclass(frozen=True)
class Output:
    """An op output: the ``index``-th output argument ``name`` (type alias ``TO<index>``)."""

    index: int
    name: str
    lay: Layout
    kind: ClassVar[OutputKind]

    @property
    def t(self) -> str:
        return f"TO{self.index}"

    @property
    def gm(self) -> str:
        return gm_address(self.name, self.t, self.lay)

    @property
    def per_item(self) -> bool:
        return self.name in self.lay.lists

    def members(self) -> list[str]:
        return [f"GlobalTensor<{self.t}> yg{self.index}_;"]

    def buffers(self) -> list[Buffer]:
        return []

    def chunk_buffers(self) -> list[Buffer]:
        return []

    def reserve(self) -> UbBytes:
        """UB the budget keeps for this output beyond its buffers' sizes."""
        return ROW_ROUNDING + UbBytes(fixed=32)     # + the queue's last 32-byte block (InitBuffer rounds up)

    def init(self) -> list[str]:
        return ([f"yg{self.index}_.SetGlobalBuffer((__gm__ {self.t}*){self.name} + first_, count_);"]
                + [b.init for b in self.buffers()])

    def view(self) -> list[str]:
        """Compute's view of this output before the loop."""
        return []

    def per_row(self, expr: str) -> list[str]:
        """Row template: what the row loop writes for row ``r`` (``expr``: the output's value)."""
        return []

    # the wait between per_row's scalar writes and what reads them after the row loop (None: no scalar writes)
    after_rows: ClassVar[str | None] = None

    def after(self, expr: str, direct: bool) -> list[str]:
        """After the compute loop: the result enqueued for CopyOut (``direct``: flat, written in place)."""
        return []

    def copy_out(self) -> list[str]:
        j, t = self.index, self.t
        prm = f"DataCopyExtParams{{1, static_cast<uint32_t>(n * sizeof({t})), 0, 0, 0}}"
        return [f"LocalTensor<{t}> yt{j} = oq{j}_.DeQue<{t}>();", f"DataCopyPad(yg{j}_[off], yt{j}, {prm});",
                f"oq{j}_.FreeTensor(yt{j});"]

    def ub(self) -> UbBytes:
        return total(b.ub for b in self.buffers()) + self.reserve()

    def chunk_ub(self) -> UbBytes:
        return total(b.ub for b in self.chunk_buffers())


class VecOutput(Output):
    kind = OutputKind.VEC
    boolean: bool = False    # a comparison's result: 0/1 bytes, converted through a half staging tile

    def members(self) -> list[str]:
        out = super().members() + [f"TQue<TPosition::VECOUT, BUFFER_NUM> oq{self.index}_;"]
        return out + ([f"TBuf<TPosition::VECCALC> hs{self.index}_;"] if self.boolean else [])

    def buffers(self) -> list[Buffer]:
        out = [Buffer(f"oq{self.index}_", f"tileElems * sizeof({self.t})", UbBytes(per_elem=2 * self.lay.wide), queue=True)]
        if self.boolean:
            out.append(Buffer(f"hs{self.index}_", "tileElems * sizeof(half)", UbBytes(per_elem=2)))
        return out

    def chunk_buffers(self) -> list[Buffer]:
        return self.buffers()

    def bind(self) -> list[str]:
        """The GM view of this core's run of elements (``base``, ``span``)."""
        return [f"yg{self.index}_.SetGlobalBuffer({self.gm} + base, span);"]

    def setup(self) -> list[str]:
        return [b.init for b in self.buffers()]

    def init(self) -> list[str]:
        return self.bind() + self.setup()

    def after(self, expr: str, direct: bool) -> list[str]:
        j, t = self.index, self.t
        if self.boolean:
            alloc = [] if direct else [f"LocalTensor<{t}> yt{j} = oq{j}_.AllocTensor<{t}>();"]
            return alloc + [f"NarrowToBytes<{'true' if direct else 'false'}>(yt{j}, {expr}, hs{j}_.Get<half>(), cnt);",
                            f"oq{j}_.EnQue(yt{j});"]
        if direct:
            return [f"StoreOut(yt{j}, {expr}, cnt);", f"oq{j}_.EnQue(yt{j});"]
        return [f"LocalTensor<{t}> yt{j} = oq{j}_.AllocTensor<{t}>();",
                f"{'FromFloat' if self.lay.row else 'FromCompute'}(yt{j}, {expr}, cnt);", f"oq{j}_.EnQue(yt{j});"]

    def copy_out(self) -> list[str]:
        if not self.lay.row:
            return super().copy_out()
        j, t = self.index, self.t
        return [f"LocalTensor<{t}> yt{j} = oq{j}_.DeQue<{t}>();",
                f"DataCopyPad(yg{j}_[static_cast<uint64_t>(off) * cols_], yt{j}, RowsOut<{t}>(n, cols_, colsPad_));",
                f"oq{j}_.FreeTensor(yt{j});"]


@dataclass(frozen=True)
class WindowOutput(VecOutput):
    """``torch.cat(pieces, -1)``: output rows of ``pieces`` windows, each as long as the kernel's rows; piece k goes
    through a queue of its own to columns [k * cols_, (k + 1) * cols_) of its rows (one strided DataCopyPad)."""

    pieces: int = 2
    kind = OutputKind.CAT

    def members(self) -> list[str]:
        j = self.index
        return [f"GlobalTensor<{self.t}> yg{j}_;"] + [f"TQue<TPosition::VECOUT, BUFFER_NUM> oq{j}w{k}_;"
                                                     for k in range(self.pieces)]

    def buffers(self) -> list[Buffer]:
        return [Buffer(f"oq{self.index}w{k}_", f"tileElems * sizeof({self.t})", UbBytes(per_elem=2 * self.lay.wide), queue=True)
                for k in range(self.pieces)]

    def chunk_buffers(self) -> list[Buffer]:
        return self.buffers()

    def init(self) -> list[str]:
        j, m = self.index, self.pieces
        return ([f"yg{j}_.SetGlobalBuffer((__gm__ {self.t}*){self.name} + static_cast<uint64_t>(first_) * {m} * cols, "
                 f"static_cast<uint64_t>(count_) * {m} * cols);"] + [b.init for b in self.buffers()])

    def after(self, expr: str, direct: bool) -> list[str]:
        j, t = self.index, self.t
        return [x for k, tile in enumerate(expr.split("|")) for x in
                (f"LocalTensor<{t}> yt{j}w{k} = oq{j}w{k}_.AllocTensor<{t}>();",
                 f"FromFloat(yt{j}w{k}, {tile}, cnt);", f"oq{j}w{k}_.EnQue(yt{j}w{k});")]

    def copy_out(self) -> list[str]:
        j, t, m = self.index, self.t, self.pieces
        skip = "" if m == 2 else f"{m - 1} * "       # the other pieces' columns between two rows of this one
        lines = [f"// n rows of cols_ elements into rows {m} * cols_ long in GM (dstStride: the bytes skipped between them)",
                 f"DataCopyExtParams win{j}{{static_cast<uint16_t>(n), static_cast<uint32_t>(cols_ * sizeof({t})),",
                 f"                      RowGap<{t}>(cols_, colsPad_), static_cast<uint32_t>({skip}cols_ * sizeof({t})), 0}};"]
        for k in range(m):
            at = "" if k == 0 else (" + cols_" if k == 1 else f" + {k} * cols_")
            lines += [f"LocalTensor<{t}> yt{j}w{k} = oq{j}w{k}_.DeQue<{t}>();   // piece {k} of {self.name}'s rows",
                      f"DataCopyPad(yg{j}_[static_cast<uint64_t>(off) * {m} * cols_{at}], yt{j}w{k}, win{j});",
                      f"oq{j}w{k}_.FreeTensor(yt{j}w{k});"]
        return lines


class PairOutput(VecOutput):
    """A complex64 result from its real and imaginary parts (``expr``: ``re|im`` tiles): both copied into one
    staging tile, the real parts first and the imaginary parts ``tileElems`` floats after them, and interleaved
    into (real, imag) pairs by one Gather whose byte offsets (pair k: k, then tileElems + k floats) Init writes
    once."""

    kind = OutputKind.PAIR

    def members(self) -> list[str]:
        j = self.index
        return [f"GlobalTensor<{self.t}> yg{j}_;   // (real, imag) float pairs",
                f"TQue<TPosition::VECOUT, BUFFER_NUM> oq{j}_;", f"TBuf<TPosition::VECCALC> ps{j}_, po{j}_;",
                f"uint32_t imagAt{j}_ = 0;   // where the imaginary parts start in ps{j}_ (floats)"]

    def buffers(self) -> list[Buffer]:
        j, t = self.index, self.t
        return [Buffer(f"oq{j}_", f"2 * tileElems * sizeof({t})", UbBytes(per_elem=2 * 8), queue=True),
                Buffer(f"ps{j}_", "2 * tileElems * sizeof(float)", UbBytes(per_elem=8)),
                Buffer(f"po{j}_", "2 * tileElems * sizeof(uint32_t)", UbBytes(per_elem=8))]

    def chunk_buffers(self) -> list[Buffer]:
        return self.buffers()

    def bind(self) -> list[str]:
        return [f"yg{self.index}_.SetGlobalBuffer({self.gm} + 2 * base, 2 * span);"]

    def setup(self) -> list[str]:
        j = self.index
        return [b.init for b in self.buffers()] + [
            f"imagAt{j}_ = tileElems;",
            f"LocalTensor<uint32_t> pairAt{j} = po{j}_.Get<uint32_t>();",
            "for (uint32_t k = 0; k < tileElems; ++k) {   // pair k: real part k, imaginary part tileElems + k (bytes)",
            f"    pairAt{j}.SetValue(2 * k, k * sizeof(float));",
            f"    pairAt{j}.SetValue(2 * k + 1, (tileElems + k) * sizeof(float));",
            "}", sync.SCALAR_TO_VECTOR]     # Gather (vector) reads what SetValue wrote

    def after(self, expr: str, direct: bool) -> list[str]:
        j, t = self.index, self.t
        re, im = expr.split("|")
        return [f"LocalTensor<float> parts{j} = ps{j}_.Get<float>();",
                f"DataCopy(parts{j}, {re}, (cnt + 7) / 8 * 8);",
                f"DataCopy(parts{j}[imagAt{j}_], {im}, (cnt + 7) / 8 * 8);",
                f"LocalTensor<{t}> yt{j} = oq{j}_.AllocTensor<{t}>();",
                f"Gather(yt{j}, parts{j}, po{j}_.Get<uint32_t>(), 0, 2 * cnt);", f"oq{j}_.EnQue(yt{j});"]

    def copy_out(self) -> list[str]:
        j, t = self.index, self.t
        if self.lay.row:
            prm, dst = f"RowsOut<{t}>(n, 2 * cols_, 2 * colsPad_)", f"yg{j}_[static_cast<uint64_t>(off) * 2 * cols_]"
        else:
            prm, dst = f"DataCopyExtParams{{1, static_cast<uint32_t>(2 * n * sizeof({t})), 0, 0, 0}}", f"yg{j}_[2 * off]"
        return [f"LocalTensor<{t}> yt{j} = oq{j}_.DeQue<{t}>();", f"DataCopyPad({dst}, yt{j}, {prm});",
                f"oq{j}_.FreeTensor(yt{j});"]


@dataclass(frozen=True)
class ByteWindowOutput(WindowOutput):
    """``torch.cat`` output rows with a one-byte dtype in some combination: each piece narrows through a half
    staging tile of its own."""

    def members(self) -> list[str]:
        return super().members() + [f"TBuf<TPosition::VECCALC> hs{self.index}w{k}_;" for k in range(self.pieces)]

    def buffers(self) -> list[Buffer]:
        j = self.index
        return super().buffers() + [Buffer(f"hs{j}w{k}_", "tileElems * sizeof(half)", UbBytes(per_elem=2))
                                    for k in range(self.pieces)]

    def after(self, expr: str, direct: bool) -> list[str]:
        j, t = self.index, self.t
        return [x for k, tile in enumerate(expr.split("|")) for x in
                (f"LocalTensor<{t}> yt{j}w{k} = oq{j}w{k}_.AllocTensor<{t}>();",
                 f"NarrowToBytes<false>(yt{j}w{k}, {tile}, hs{j}w{k}_.Get<half>(), cnt);", f"oq{j}w{k}_.EnQue(yt{j}w{k});")]


ROWS16 = "(tileRows + 15) / 16 * 16"


class RowScalarOutput(Output):
    kind = OutputKind.RS
    after_rows = sync.SCALAR_TO_VECTOR     # RO, written with SetValue, is cast by the vector unit

    def members(self) -> list[str]:
        j = self.index
        return super().members() + [f"TQue<TPosition::VECOUT, BUFFER_NUM> oq{j}_;", f"TBuf<TPosition::VECCALC> ro{j}_;"]

    def buffers(self) -> list[Buffer]:
        j = self.index
        return [Buffer(f"oq{j}_", f"{ROWS16} * sizeof({self.t})", UbBytes(per_row=2 * 8), queue=True),
                Buffer(f"ro{j}_", f"{ROWS16} * sizeof(float)", UbBytes(per_row=4))]

    def view(self) -> list[str]:
        return [f"LocalTensor<float> RO{self.index} = ro{self.index}_.Get<float>();"]

    def per_row(self, expr: str) -> list[str]:
        return [f"RO{self.index}.SetValue(r, {expr});"]

    def after(self, expr: str, direct: bool) -> list[str]:
        j, t = self.index, self.t
        return [f"LocalTensor<{t}> yt{j} = oq{j}_.AllocTensor<{t}>();", f"FromFloat(yt{j}, RO{j}, (n + 15) / 16 * 16);",
                f"oq{j}_.EnQue(yt{j});"]


class RowPairOutput(RowScalarOutput):
    """A complex64 result of one value per row (``expr``: ``re|im``): row r's pair staged at 2r and 2r + 1."""

    kind = OutputKind.RS_PAIR

    def buffers(self) -> list[Buffer]:
        j = self.index
        return [Buffer(f"oq{j}_", f"2 * {ROWS16} * sizeof({self.t})", UbBytes(per_row=2 * 8), queue=True),
                Buffer(f"ro{j}_", f"2 * {ROWS16} * sizeof(float)", UbBytes(per_row=8))]

    def init(self) -> list[str]:
        return ([f"yg{self.index}_.SetGlobalBuffer((__gm__ {self.t}*){self.name} + 2 * first_, 2 * count_);"]
                + [b.init for b in self.buffers()])

    def per_row(self, expr: str) -> list[str]:
        re, im = expr.split("|")
        return [f"RO{self.index}.SetValue(2 * r, {re});", f"RO{self.index}.SetValue(2 * r + 1, {im});"]

    def after(self, expr: str, direct: bool) -> list[str]:
        j, t = self.index, self.t
        return [f"LocalTensor<{t}> yt{j} = oq{j}_.AllocTensor<{t}>();", f"FromFloat(yt{j}, RO{j}, (2 * n + 15) / 16 * 16);",
                f"oq{j}_.EnQue(yt{j});"]

    def copy_out(self) -> list[str]:
        j, t = self.index, self.t
        prm = f"DataCopyExtParams{{1, static_cast<uint32_t>(2 * n * sizeof({t})), 0, 0, 0}}"
        return [f"LocalTensor<{t}> yt{j} = oq{j}_.DeQue<{t}>();", f"DataCopyPad(yg{j}_[2 * off], yt{j}, {prm});",
                f"oq{j}_.FreeTensor(yt{j});"]


class ByteRowScalarOutput(RowScalarOutput):
    """A per-row output with a one-byte dtype (``any``/``all`` over the last dimension: bool): the float row
    values go float -> half -> bytes through a half staging tile."""

    def members(self) -> list[str]:
        return super().members() + [f"TBuf<TPosition::VECCALC> hs{self.index}_;"]

    def buffers(self) -> list[Buffer]:
        return super().buffers() + [Buffer(f"hs{self.index}_", f"{ROWS16} * sizeof(half)", UbBytes(per_row=2))]

    def after(self, expr: str, direct: bool) -> list[str]:
        j, t = self.index, self.t
        return [f"LocalTensor<{t}> yt{j} = oq{j}_.AllocTensor<{t}>();",
                f"NarrowToBytes<false>(yt{j}, RO{j}, hs{j}_.Get<half>(), (n + 15) / 16 * 16);", f"oq{j}_.EnQue(yt{j});"]


class IndexOutput(Output):
    kind = OutputKind.IDX
    after_rows = sync.SCALAR_TO_COPY_OUT   # the tile SetValue wrote goes straight to GM

    def members(self) -> list[str]:
        return super().members() + [f"TQue<TPosition::VECOUT, BUFFER_NUM> oq{self.index}_;"]

    def buffers(self) -> list[Buffer]:
        return [Buffer(f"oq{self.index}_", f"{ROWS16} * sizeof({self.t})", UbBytes(per_row=2 * 8), queue=True)]

    def reserve(self) -> UbBytes:
        return super().reserve() + UbBytes(per_row=4)   # a float a row, as an rs output stages (a margin)

    def view(self) -> list[str]:
        return [f"LocalTensor<{self.t}> yt{self.index} = oq{self.index}_.AllocTensor<{self.t}>();"]

    def per_row(self, expr: str) -> list[str]:
        return [f"yt{self.index}.SetValue(r, static_cast<{self.t}>({expr}));"]

    def after(self, expr: str, direct: bool) -> list[str]:
        return [f"oq{self.index}_.EnQue(yt{self.index});"]


class GlobalScalarOutput(Output):
    kind = OutputKind.GS

    def members(self) -> list[str]:
        return super().members() + [f"TBuf<TPosition::VECCALC> oh{self.index}_;"]

    def buffers(self) -> list[Buffer]:
        return [Buffer(f"oh{self.index}_", "32", UbBytes(fixed=32))]

    def reserve(self) -> UbBytes:
        return ROW_ROUNDING

    def init(self) -> list[str]:
        gm = f"yg{self.index}_.SetGlobalBuffer((__gm__ {self.t}*){self.name}, 1);"
        return [gm] + [b.init for b in self.buffers()]

    def copy_out(self) -> list[str]:
        return []                     # block 0 writes it in the epilogue (codegen._final)


class GlobalPairOutput(GlobalScalarOutput):
    """A complex64 result of one value: block 0 writes its real and imaginary parts, one float pair."""

    kind = OutputKind.GS_PAIR

    def init(self) -> list[str]:
        gm = f"yg{self.index}_.SetGlobalBuffer((__gm__ {self.t}*){self.name}, 2);"
        return [gm] + [b.init for b in self.buffers()]


class UnreadInput(Input):
    """An input the program never reads (``zeros_like(x)``, a forward argument left unused): the entry takes its
    address, as the op's signature has it; Init binds nothing, and nothing is copied in."""

    kind = InputKind.UNREAD

    def members(self) -> list[str]:
        return []

    def init(self) -> list[str]:
        return []

    def bind(self) -> list[str]:
        return []

    def setup(self) -> list[str]:
        return []


INPUTS: dict[InputKind, type[Input]] = {InputKind.UNREAD: UnreadInput, InputKind.FULL: FullInput, InputKind.BVEC: BcastInput,
                                        InputKind.RIDX: RowIndexInput, InputKind.SCALAR: ScalarInput,
                                        InputKind.GROW: GatherRowInput, InputKind.GRS: RowValueInput,
                                        InputKind.PAIR: PairInput}
OUTPUTS: dict[OutputKind, type[Output]] = {OutputKind.VEC: VecOutput, OutputKind.RS: RowScalarOutput,
                                           OutputKind.IDX: IndexOutput, OutputKind.GS: GlobalScalarOutput,
                                           OutputKind.PAIR: PairOutput, OutputKind.GS_PAIR: GlobalPairOutput,
                                           OutputKind.RS_PAIR: RowPairOutput}


def inputs(params: list["TensorParam"], lay: Layout, windows: dict | None = None) -> list[Input]:
    """The kernel's input operands; ``windows``: input index -> the C++ start of each window (``slice`` inputs)."""
    return [(ByteWindowInput if set(p.dtypes) & set(BYTE_DTYPES) else WindowInput)(i, p.name, lay, tuple((windows or {})[i]))
            if p.kind == InputKind.SLICE else _input_class(p)(i, p.name, lay) for i, p in enumerate(params)]


class ByteOutput(VecOutput):
    """An output with a one-byte dtype in some combination (a comparison's bool, int8)."""

    boolean = True


def _input_class(p: "TensorParam") -> type[Input]:
    if p.kind in (InputKind.FULL, InputKind.GROW) and any(d in BYTE_DTYPES for d in p.dtypes):
        return ByteInput if p.kind == InputKind.FULL else ByteGatherRowInput
    return INPUTS[InputKind(p.kind)]


def outputs(params: list["TensorParam"], lay: Layout, pieces: dict | None = None) -> list[Output]:
    """The kernel's output operands; ``pieces``: output index -> how many pieces a ``cat`` output's rows hold."""
    return [(ByteWindowOutput if set(p.dtypes) & set(BYTE_DTYPES) else WindowOutput)(j, p.name, lay, (pieces or {})[j])
            if p.kind == OutputKind.CAT else
            (ByteOutput if p.kind == OutputKind.VEC and any(d in BYTE_DTYPES for d in p.dtypes)
             else ByteRowScalarOutput if p.kind == OutputKind.RS and any(d in BYTE_DTYPES for d in p.dtypes)
             else OUTPUTS[OutputKind(p.kind)])(j, p.name, lay) for j, p in enumerate(params)]


__all__ = ["Buffer", "BcastInput", "FullInput", "GlobalScalarOutput", "IndexOutput", "Input", "InputKind", "Layout",
           "MAX_CORES", "Output", "OutputKind", "RowIndexInput", "RowScalarOutput", "UbBytes", "VecOutput", "WindowInput", "WindowOutput", "inputs",
           "outputs", "total"]
