"""What a reviewer checks first in a drafted kernel: nothing declared that is not used, and no
synchronisation wider than the two pipes it orders.

Every suite reference is drafted (no build) and its kernel scanned by a checker written apart from the
pruner (agent_graph/drafter/prune.py): each class member must be read somewhere other than where it is
declared and set up (InitBuffer, SetGlobalBuffer, an assignment), each Init parameter must be read in
Init, each top-level helper must be called. No ``PipeBarrier<PIPE_ALL>`` anywhere (a full barrier stalls the
copy engines too; the kernels wait on one HardEvent flag between the two pipes involved, sync.py).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from agent_graph.drafter import Unsupported, draft
from agent_graph.drafter.prune import prune

SUITE = Path(__file__).resolve().parents[1] / "data" / "drafter"
SPECS = sorted(p.name for p in SUITE.iterdir() if (p / "kgen-task.toml").is_file())


def _unused(src: str) -> list[str]:
    found = []
    lines = src.split("\n")
    for i, line in enumerate(lines):
        m = re.match(r"^    (?:TBuf<[^>]*>|TQue<[^;]*>|GlobalTensor<\w+>|LocalTensor<\w+>|float|uint32_t|uint64_t)\s+([^;()]+);$", line)
        if not m:
            continue
        for name in (re.sub(r"\[.*\]$", "", p.split("=")[0].strip()) for p in m.group(1).split(",")):   # arrays too
            reads = [ln for j, ln in enumerate(lines) if j != i and re.search(rf"\b{name}\b", ln)
                     and not re.match(rf"^\s+(pipe_\.InitBuffer\({name}\b|{name}(\[[^]]*\])?\.SetGlobalBuffer|{name} = )", ln)]
            if not reads:
                found.append(f"member {name}")
    sig = re.search(r"void Init\(([^)]*)\)\s*\{", src)
    if sig:
        body = src[sig.end():src.index("void Process")]
        for p in sig.group(1).split(","):
            name = p.split()[-1]
            if not re.search(rf"\b{name}\b", body):
                found.append(f"Init parameter {name}")
    for m in re.finditer(r"^(?:template <[^>]*>\n)?__aicore__ inline \S+(?:<[^>]*>)? (\w+)\(", src, re.M):
        if len(re.findall(rf"\b{m.group(1)}\b", src)) < 2:
            found.append(f"helper {m.group(1)}")
    return found


@pytest.mark.parametrize("name", SPECS)
def test_drafted_kernel_declares_nothing_unused_and_syncs_narrowly(name):
    d = draft(SUITE / name / "kgen-task.toml")
    assert not isinstance(d, Unsupported), str(d)
    kernel = next(text for path, text in d.plan.files.items() if path.startswith("op_kernel/"))
    assert _unused(kernel) == []
    assert "PIPE_ALL" not in kernel
    assert "__aicore__ inline void Init(" in kernel and "op.Init(" in kernel


KERNEL = """\
template <typename T>
__aicore__ inline T Twice(T v)
{
    return v + v;
}

// a helper nobody calls
template <typename T>
__aicore__ inline T Never(T v)
{
    return v;
}

class K {
public:
    __aicore__ inline void Init(GM_ADDR x, uint32_t n, uint32_t unused)
    {
        n_ = n;
        dead_ = n;
        xg_.SetGlobalBuffer((__gm__ float*)x, n);
        pipe_.InitBuffer(used_, 64);
        pipe_.InitBuffer(idle_, 64);
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> a = used_.Get<float>();
        LocalTensor<float> b = idle_.Get<float>();
        LocalTensor<float> q = que_.AllocTensor<float>();
        Adds(a, a, Twice(1.0f), n_);
    }

    TPipe pipe_;
    GlobalTensor<float> xg_;
    TBuf<TPosition::VECCALC> used_, idle_;
    uint32_t n_ = 0, dead_ = 0;
};

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    K op;
    op.Init(x, t.n, t.unused);
    op.Process();
}
"""


def test_prune_removes_only_what_is_never_read():
    out = prune(KERNEL)
    assert "Never" not in out and "a helper nobody calls" not in out and "Twice(1.0f)" in out
    assert "idle_" not in out and "LocalTensor<float> b" not in out and "dead_" not in out
    assert "xg_" not in out                                # set up but never read
    assert "pipe_.InitBuffer(used_, 64);" in out and "uint32_t n_ = 0;" in out
    assert "q = que_.AllocTensor" in out                   # an effect stays even when its result is unused
    assert "void Init(GM_ADDR x, uint32_t n)" not in out   # x only fed xg_, which went: x goes too
    assert "void Init(uint32_t n)" in out and "op.Init(t.n);" in out
    assert _unused(out) == []
    assert _unused(KERNEL) != []                           # the checker sees what the pruner removes


def test_the_checker_reads_array_members():
    arrays = KERNEL.replace("    GlobalTensor<float> xg_;", "    GlobalTensor<float> xg_[MAX_SOURCES];").replace(
        "xg_.SetGlobalBuffer", "xg_[0].SetGlobalBuffer")
    assert "member xg_" in _unused(arrays)                  # set up, never read: still found when it is an array


SCOPED = """\
class K {
public:
    __aicore__ inline void Process()
    {
        LocalTensor<float> SC = sc_.Get<float>();
        LocalTensor<float> SC1 = SC[8];
        Compute();
        Flush();
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<float> SC = sc_.Get<float>();
        LocalTensor<float> SC1 = SC[8];
        float run = 0.0f;
        for (uint32_t j = 0; j < 4; ++j) {
            float y = SC.GetValue(j) - run; float t = run + y; run = t;
        }
        Adds(SC1, SC1, run, 8);
    }

    __aicore__ inline void Flush()
    {

    }

    TBuf<TPosition::VECCALC> sc_;
};
"""


def test_prune_scopes_locals_to_their_block_and_drops_empty_methods():
    out = prune(SCOPED)
    process = out[out.index("void Process()"):out.index("void Compute()")]
    assert "SC1" not in process and "SC = sc_" not in process      # Compute's SC1 does not keep Process's alive
    assert "LocalTensor<float> SC1 = SC[8];" in out[out.index("void Compute()"):]
    assert "float y = SC.GetValue(j) - run; float t = run + y; run = t;" in out   # a line of statements stays
    assert "Flush" not in out and "Compute();" in out               # the empty method and its call go


def test_a_negated_or_inverted_number_is_computed_on_the_scalar_unit(tmp_path):
    """A number the kernel reads from a one-element input (a 0-d float32 tensor, used as a tensor: PyTorch computes
    on it in float32, as the kernel does) negated, inverted or squared is one float operation the scalar unit does
    as the vector unit would: ``float r = (-s)``, not Duplicate into a scratch tile, a vector Muls and a GetValue
    behind a V_S flag. Checked against PyTorch on the emulator."""
    from tests.agent_graph.drafter_checks import assert_verified, write_reference
    body = "x * torch.reciprocal(1.0 - s) + y * (-(s * s))"
    d = assert_verified(write_reference(tmp_path, body, "torch.randn(40, 96), torch.randn(40, 96), torch.tensor(0.3)",
                                        sig="x, y, s"), tmp_path)
    kernel = next(text for path, text in d.plan.files.items() if path.startswith("op_kernel/"))
    assert "Duplicate(SC1" not in kernel and "SC0.GetValue(0)" not in kernel, kernel
    assert re.search(r"float r\d+ = \(-r\d+\);", kernel) and re.search(r"float r\d+ = \(1\.0f / r\d+\);", kernel), kernel
