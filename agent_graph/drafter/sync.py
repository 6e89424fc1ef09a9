"""Synchronisation in drafted kernels: the narrowest wait that orders one pipe after another.

``PipeBarrier<PIPE_ALL>`` stalls every pipe, the copy engines included (the next tile's copy-in stops
with it); a SetFlag/WaitFlag pair on a HardEvent stalls only the consumer pipe until the producer pipe has
drained what it was given. Flags are issued in program order into their pipe, so a wait also covers what
that producer pipe itself waited for before (a DeQue's MTE2->V wait, for one): a V_S wait after a DeQue'd
tile also orders the scalar read after the tile's copy-in.

The kernels define one helper for the pair, ``WaitPipe<HardEvent::X_Y>()`` (templates/kernel.cpp.tmpl);
the lowering emits it through the names below, never PIPE_ALL.
"""
from __future__ import annotations


def wait(event: str) -> str:
    """The statement that makes the consumer pipe of ``event`` ("V_S": the scalar unit) wait for its producer."""
    return f"WaitPipe<HardEvent::{event}>();"


VECTOR_TO_SCALAR = wait("V_S")      # GetValue of what a vector instruction wrote
SCALAR_TO_VECTOR = wait("S_V")      # a vector instruction reads what SetValue wrote
VECTOR_TO_COPY_OUT = wait("V_MTE3")  # DataCopy to GM of a plain TBuf tile the vector unit wrote
SCALAR_TO_COPY_OUT = wait("S_MTE3")  # DataCopy to GM of what SetValue wrote
COPY_OUT_DONE = wait("MTE3_S")      # GM written before the cores meet (SyncAll) or the scalar reuses the tile
COPY_IN_TO_SCALAR = wait("MTE2_S")  # GetValue of a tile DataCopy filled from GM
COPY_IN_TO_VECTOR = wait("MTE2_V")  # a vector instruction reads a plain TBuf tile DataCopy filled
