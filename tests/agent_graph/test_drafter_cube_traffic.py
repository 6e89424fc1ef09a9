"""What a drafted cube kernel reads from GM: each block of the large operand once, the small one once per core.

The Matmul API keeps the A block in L1 while the N index moves (iterateOrder 1, ``SetTraverse(FIRSTN)``) and the B
block while the M index moves; the host (``templates/mm_host.cpp.tmpl``) picks the traversal that reads fewer
elements, and when all of M is one base block it splits the cores over N only. The bytes are the performance
model's count of the traced copies, checked against the operands' sizes computed here by hand."""
from __future__ import annotations

import pytest

from agent_graph.drafter import measure, write_project
from bench_bridge.tasks import load_task
from tests.agent_graph.drafter_checks import assert_verified, write_reference

CORES = 48   # vector cores of the 910B2 the model prices (one core block each at most)
F32 = 4


def _read_bytes(ref, tmp_path) -> int:
    d = assert_verified(ref, tmp_path)
    assert d.plan.template == "cube"
    m = measure.modelled(load_task(ref), write_project(d.plan, tmp_path / "measured"))
    assert "error" not in m, m
    return m["report"].gm_read_bytes


@pytest.mark.slow
def test_a_convolution_reads_its_im2col_matrix_once_and_its_weight_once_per_core(tmp_path):
    """Conv2d 4 -> 32 channels, 3 x 3, one 160 x 160 image: the im2col matrix [36, 158 x 158] is read once by the
    matmul, the input once per kernel row by the im2col phase, the weight [32, 36] once per core. Before, the weight
    was read again at every N step and two cores read each block of the matrix (10.3 MB read against 5.0 MB)."""
    ref = write_reference(tmp_path, "torch.relu(self.c(x))", "torch.randn(1, 4, 160, 160)",
                          "self.c = nn.Conv2d(4, 32, 3)")
    col = 36 * 158 * 158 * F32
    rows_read = 3 * 4 * 160 * 160 * F32   # each input row by the three kernel rows (fewer at the edges)
    weight = 32 * 36 * F32
    read = _read_bytes(ref, tmp_path)
    assert col + 0.9 * rows_read <= read <= col + rows_read + CORES * weight, read


@pytest.mark.slow
def test_a_matmul_of_a_few_rows_reads_the_wide_operand_once(tmp_path):
    """x [32, 256] @ w [256, 6144]: w is read once (cores split its columns), x once per core. Before, each core
    read x again at every N step (9.4 MB read against 7.9 MB)."""
    ref = write_reference(tmp_path, "torch.relu(x @ w)", "torch.randn(32, 256), torch.randn(256, 6144)", sig="x, w")
    w, x = 256 * 6144 * F32, 32 * 256 * F32
    assert w <= _read_bytes(ref, tmp_path) <= w + CORES * x


@pytest.mark.slow
def test_a_tall_matmul_keeps_the_narrow_operand_in_l1(tmp_path):
    """x [3072, 128] @ w [128, 48]: N is one base block, the B block stays while M moves (iterateOrder 0): x is read
    once and w once per core."""
    ref = write_reference(tmp_path, "x @ w + 1.0", "torch.randn(3072, 128), torch.randn(128, 48)", sig="x, w")
    x, w = 3072 * 128 * F32, 128 * 48 * F32
    assert x <= _read_bytes(ref, tmp_path) <= x + CORES * w


@pytest.mark.slow
def test_a_pointwise_convolution_reads_its_input_once(tmp_path):
    """Conv2d 64 -> 32 channels, 1 x 1, 2 images of 64 x 64: the input is the product's B, read once in place; no
    im2col matrix is written or read (before: the input copied to the workspace and read back, 3 times its bytes)."""
    ref = write_reference(tmp_path, "F.gelu(self.c(x))", "torch.randn(2, 64, 64, 64)", "self.c = nn.Conv2d(64, 32, 1)")
    x, weight = 2 * 64 * 64 * 64 * F32, 32 * 64 * F32
    assert x <= _read_bytes(ref, tmp_path) <= x + CORES * weight + 32 * F32 * CORES


@pytest.mark.slow
def test_a_convolution_of_128_output_channels_reads_its_im2col_matrix_once(tmp_path):
    """Conv2d 8 -> 128 channels, 3 x 3, then mish twice: the epilogue's tiles leave UB room for 4096-element blocks.
    All 128 output channels go in one base block (128 x 32), so the matmul reads each block of the im2col matrix
    once. Before, the square 64 x 64 block split M in two and the matrix was read twice (MKB's conv2d_mish_mish:
    1.29 GB read against 0.41 GB now)."""
    ref = write_reference(tmp_path, "F.mish(F.mish(self.c(x)))", "torch.randn(1, 8, 100, 100)",
                          "self.c = nn.Conv2d(8, 128, 3)")
    col = 72 * 98 * 98 * F32
    rows_read = 3 * 8 * 100 * 100 * F32
    weight = 128 * 72 * F32
    read = _read_bytes(ref, tmp_path)
    assert col + 0.9 * rows_read <= read <= col + rows_read + CORES * (weight + 128 * F32), read


@pytest.mark.slow
def test_a_matmul_as_tall_as_its_base_block_does_not_give_every_core_all_of_a(tmp_path):
    """x [128, 1024] @ w [1024, 1024], then mish twice (the epilogue's tiles leave room for 128 x 32 blocks): all of
    M fits one base block, but splitting the cores over N only would have each of 32 cores read all of x (21.0 MB
    read in all). The host splits over N only while the cores' reads of A stay within B's; here
    MultiCoreMatmulTiling splits both (16.8 MB; MKB's matmul_mish_mish at batch 128: 1.0x of eager with the N-only
    split, 1.19x)."""
    ref = write_reference(tmp_path, "F.mish(F.mish(x @ w))", "torch.randn(128, 1024) / 32, torch.randn(1024, 1024) / 32",
                          sig="x, w")
    w, x = 1024 * 1024 * F32, 128 * 1024 * F32
    read = _read_bytes(ref, tmp_path)
    assert read <= 4 * w + 2 * x, read
