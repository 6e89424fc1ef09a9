"""Synchronisation between blocks through GM and scalar GM atomics (kgen_sim/block_sync.h), checked by
hand and with numpy:

- IBSet/IBWait (documented: a 32-byte flag per (event, block) of a zeroed workspace; IBWait returns once
  the flag's IBSet happened): block 1 reads what block 0 wrote before its IBSet; an IBWait nobody can
  end is the hang it would be on hardware (`blocksync-deadlock`).
- InitDetermineComputeWorkspace / WaitPreBlock / NotifyNextBlock (documented: blocks pass in ascending
  blockIdx order): every block appends its index to a GM log under the sequence, in order.
- AtomicAdd/Max/Min/Cas/Exch (documented: one GM element, atomic across cores, the old value returned).
- Read/WriteGmByPassDCache, DataSyncBarrier, SetNextTaskStart/WaitPreTaskEnd.
- GroupBarrier (documented: the wait group returns once the whole arrive group has arrived) and
  InitOutput (the deprecated name of the GM Fill).
"""
from __future__ import annotations

import numpy as np
import pytest

from bench_bridge.sim import compiler, run

PROGRAM = r"""#include "kernel_operator.h"
#include "tikicpulib.h"
#include <cstdio>
using namespace AscendC;
constexpr int BLOCKS = 6;

__global__ __aicore__ void ib(GM_ADDR sync, GM_ADDR data, GM_ADDR out) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 32);
    GlobalTensor<int32_t> s, d, o;
    s.SetGlobalBuffer((__gm__ int32_t *)sync, BLOCKS * 8 * 2);
    d.SetGlobalBuffer((__gm__ int32_t *)data, 8);   // slot 2 * round + member
    o.SetGlobalBuffer((__gm__ int32_t *)out, 8);
    LocalTensor<int32_t> ub = b.Get<int32_t>();
    if (GetBlockIdx() == 0) {
        for (volatile int spin = 0; spin < 200000; ++spin) {}   // late on purpose
        WriteGmByPassDCache(d.GetPhyAddr(), 4242);
        DataSyncBarrier<MemDsbT::DDR>();
        IBSet(s, ub, 0, 1);                                    // event 1 of block 0
    } else if (GetBlockIdx() == 1) {
        IBWait(s, ub, 0, 1);
        WriteGmByPassDCache(o.GetPhyAddr(), ReadGmByPassDCache(d.GetPhyAddr()) + 1);
    }
}

__global__ __aicore__ void seq(GM_ADDR ws, GM_ADDR log, GM_ADDR rounds) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, BLOCKS * 32 + 32);
    GlobalTensor<int32_t> w, l;
    w.SetGlobalBuffer((__gm__ int32_t *)ws, BLOCKS * 8);
    l.SetGlobalBuffer((__gm__ int32_t *)log, 64);
    LocalTensor<int32_t> ub = b.Get<int32_t>();
    WaitPreTaskEnd();
    InitDetermineComputeWorkspace(w, ub);
    int n = *(int32_t *)rounds;
    for (int r = 0; r < n; ++r) {
        WaitPreBlock(w, ub);
        int32_t at = AtomicAdd((__gm__ int32_t *)log, 1);    // log[0] counts entries; entries follow
        l.SetValue(1 + at, (int32_t)(r * 100 + GetBlockIdx()));
        NotifyNextBlock(w, ub);
    }
    SetNextTaskStart();
}

__global__ __aicore__ void atomics(GM_ADDR g, GM_ADDR olds) {
    __gm__ uint32_t *u = (__gm__ uint32_t *)g;
    __gm__ float *f = (__gm__ float *)(g + 64);
    __gm__ int64_t *m = (__gm__ int64_t *)(g + 128);
    __gm__ uint64_t *x = (__gm__ uint64_t *)(g + 192);
    int i = GetBlockIdx();
    ((__gm__ uint32_t *)olds)[i] = AtomicAdd(u, 1u);
    AtomicAdd(f, 0.5f);
    AtomicMax(m, (int64_t)(i * 7 - 20));
    AtomicMin(m + 1, (int64_t)(i * 7 - 20));
    AtomicCas(u + 1, 0u, (uint32_t)(100 + i));               // only the first block finds 0
    AtomicExch(x, (uint64_t)(1000 + i));
}

__global__ __aicore__ void group(GM_ADDR ws, GM_ADDR data, GM_ADDR out) {
    // blocks 0-1 arrive, blocks 2-5 wait; two rounds; InitOutput zeroes the data first
    GlobalTensor<int32_t> d;
    d.SetGlobalBuffer((__gm__ int32_t *)data, 8);   // slot 2 * round + member
    GroupBarrier<PipeMode::MTE3_MODE> bar(ws, 2, 4);
    int id = GetBlockIdx();
    if (id == 0) InitOutput<int32_t>(d, 8);
    SyncAll();
    for (int round = 1; round <= 2; ++round) {
        if (id < 2) {
            for (volatile int spin = 0; spin < 100000 * (id + 1); ++spin) {}
            AtomicAdd((__gm__ int32_t *)data + 2 * round + id, round * 10 + id);
            bar.Arrive(id);
        } else {
            bar.Wait(id - 2);
            int32_t seen = ReadGmByPassDCache((__gm__ int32_t *)data + 2 * round) +
                           ReadGmByPassDCache((__gm__ int32_t *)data + 2 * round + 1);
            ((__gm__ int32_t *)out)[(id - 2) * 2 + round - 1] = seen;
        }
    }
    if (id == 0) ((__gm__ int64_t *)out)[8] = (int64_t)bar.GetWorkspaceLen();
}

__global__ __aicore__ void hang(GM_ADDR sync) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 32);
    GlobalTensor<int32_t> s;
    s.SetGlobalBuffer((__gm__ int32_t *)sync, BLOCKS * 8);
    LocalTensor<int32_t> ub = b.Get<int32_t>();
    if (GetBlockIdx() == 1) IBWait(s, ub, 0, 0);             // @hang  block 0 never sets it
}

int main(int argc, char **argv) {
    int which = atoi(argv[1]);
    if (which == 0) {
        int32_t *s = (int32_t *)GmAlloc(BLOCKS * 64), *d = (int32_t *)GmAlloc(32), *o = (int32_t *)GmAlloc(32);
        memset(s, 0, BLOCKS * 64);
        ib<<<2, nullptr, nullptr>>>((uint8_t *)s, (uint8_t *)d, (uint8_t *)o);
        printf("ib %d %d\n", o[0], s[(2 * 1 + 0) * 8]);      // the flag of (event 1, block 0): cleared again
    } else if (which == 1) {
        int32_t *w = (int32_t *)GmAlloc(BLOCKS * 32), *l = (int32_t *)GmAlloc(256), *r = (int32_t *)GmAlloc(4);
        memset(w, 0xCD, BLOCKS * 32);                          // need not be zeroed
        memset(l, 0, 256);
        r[0] = 3;
        seq<<<BLOCKS, nullptr, nullptr>>>((uint8_t *)w, (uint8_t *)l, (uint8_t *)r);
        printf("seq");
        for (int i = 0; i <= l[0]; ++i) printf(" %d", l[i]);
        printf("\n");
    } else if (which == 2) {
        uint8_t *g = (uint8_t *)GmAlloc(256);
        uint32_t *olds = (uint32_t *)GmAlloc(64);
        memset(g, 0, 256);
        ((int64_t *)(g + 128))[0] = -1000;
        ((int64_t *)(g + 128))[1] = 1000;
        atomics<<<BLOCKS, nullptr, nullptr>>>(g, (uint8_t *)olds);
        printf("atomics %u %u %g %lld %lld %llu", ((uint32_t *)g)[0], ((uint32_t *)g)[1], ((float *)(g + 64))[0],
               (long long)((int64_t *)(g + 128))[0], (long long)((int64_t *)(g + 128))[1], (unsigned long long)((uint64_t *)(g + 192))[0]);
        for (int i = 0; i < BLOCKS; ++i) printf(" %u", olds[i]);
        printf("\n");
    } else if (which == 4) {
        uint8_t *ws = (uint8_t *)GmAlloc(4 * 512);
        int32_t *data = (int32_t *)GmAlloc(32), *out = (int32_t *)GmAlloc(128);
        memset(ws, 0, 4 * 512);
        memset(data, 0x5A, 32);
        group<<<BLOCKS, nullptr, nullptr>>>(ws, (uint8_t *)data, (uint8_t *)out);
        printf("group");
        for (int i = 0; i < 8; ++i) printf(" %d", out[i]);
        printf(" %lld\n", (long long)((int64_t *)out)[8]);
    } else {
        int32_t *s = (int32_t *)GmAlloc(BLOCKS * 32);
        memset(s, 0, BLOCKS * 32);
        hang<<<2, nullptr, nullptr>>>((uint8_t *)s);
    }
    return 0;
}
"""


@pytest.fixture(scope="module")
def binary(tmp_path_factory):
    d = tmp_path_factory.mktemp("blocksync")
    src = d / "blocksync.cpp"
    src.write_text(PROGRAM)
    res = compiler.build([src])
    assert res.ok, "\n".join(x.format() for x in res.diagnostics) + res.log[-2000:]
    return res.binary, d


def _out(binary, which: int) -> list[str]:
    exe, d = binary
    r = run(exe, [str(which)], cwd=d, timeout=60)
    assert r.returncode == 0 and not [x for x in r.diagnostics if x.severity == "error"], r.stderr
    return r.stdout.split()


def test_ibwait_returns_after_the_ibset_and_clears_the_flag(binary):
    w = _out(binary, 0)
    assert w[0] == "ib" and int(w[1]) == 4243 and int(w[2]) == 0


def test_wait_pre_block_passes_blocks_in_ascending_order_every_round(binary):
    w = _out(binary, 1)
    entries = [int(x) for x in w[1:]]
    assert entries[0] == 18
    assert entries[1:] == [r * 100 + b for r in range(3) for b in range(6)]


def test_scalar_atomics_combine_every_block_and_return_old_values(binary):
    w = _out(binary, 2)
    assert w[0] == "atomics"
    total, cas, fsum, mx, mn, exch = int(w[1]), int(w[2]), float(w[3]), int(w[4]), int(w[5]), int(w[6])
    olds = sorted(int(x) for x in w[7:])
    assert total == 6 and olds == list(range(6))            # each block saw a different old value
    assert fsum == 3.0
    assert (mx, mn) == (max(i * 7 - 20 for i in range(6)), min(i * 7 - 20 for i in range(6)))
    assert 100 <= cas <= 105                                  # one block's value, written once
    assert 1000 <= exch <= 1005


def test_group_barrier_waiters_see_every_arrival_of_each_round(binary):
    """GroupBarrier: a waiter's n-th Wait returns after every arrive-group member's n-th Arrive; InitOutput
    zeroed the data; the workspace is waitSize * 512 bytes."""
    w = _out(binary, 4)
    assert w[0] == "group"
    seen = [int(x) for x in w[1:9]]
    assert seen == [21, 41] * 4          # round 1: 10 + 11; round 2: 20 + 21
    assert int(w[9]) == 4 * 512


def test_an_ibwait_nobody_can_end_is_a_located_hang(binary):
    exe, d = binary
    r = run(exe, ["3"], cwd=d, timeout=60)
    errs = [x for x in r.diagnostics if x.severity == "error"]
    assert r.returncode == 3 and errs and errs[0].code == "blocksync-deadlock", r.stderr
    assert errs[0].line == next(i for i, t in enumerate(PROGRAM.splitlines(), 1) if "@hang" in t)
