// One small kernel per hardware rule the emulator enforces. Each offending line carries a
// marker comment; the tests check the diagnostic code, that it names that line, and that the
// program ends with exit status 3 (warnings: the program goes on).
#include "kgen_test_io.h"

using namespace AscendC;

// ---- GM outside the SetGlobalBuffer view --------------------------------------------------------
__global__ __aicore__ void gm_view_kernel(GM_ADDR x, GM_ADDR z) {
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float*)x, 64);
    zg.SetGlobalBuffer((__gm__ float*)z, 64);
    float v = xg.GetValue(64);  // @gm-view (a read past the view: a warning)
    zg.SetValue(0, v);
    zg.SetValue(64, v);  // @gm-view-write (a write past the view: a warning too)
}
KT_CASE(gm_view) {
    kt::Dev<float> dx(std::vector<float>(128, 1.0f)), dz(64);
    gm_view_kernel<<<1, nullptr, nullptr>>>(dx.gm(), dz.gm());
}

// ---- GM outside the device allocation (view declared larger than the allocation) -----------------
__global__ __aicore__ void gm_alloc_kernel(GM_ADDR x) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256 * sizeof(float));
    GlobalTensor<float> xg;
    xg.SetGlobalBuffer((__gm__ float*)x, 256);  // the allocation holds 64 floats
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xg, 256);  // @gm-alloc
    q.FreeTensor(t);
}
KT_CASE(gm_alloc) {
    kt::Dev<float> dx(std::vector<float>(64, 1.0f));
    gm_alloc_kernel<<<1, nullptr, nullptr>>>(dx.gm());
}

// ---- GM write through an unbounded view past the allocation ------------------------------------
__global__ __aicore__ void gm_write_kernel(GM_ADDR z) {
    GlobalTensor<int32_t> zg;
    zg.SetGlobalBuffer((__gm__ int32_t*)z);  // no size: only the allocation bounds it
    for (uint32_t i = 0; i < 16; ++i) zg.SetValue(i, (int32_t)i);
    zg.SetValue(16, 16);   // past the end, inside the 512-byte granule: a warning
    zg.SetValue(128, 128);  // @gm-write (past the granule: an error)
}
KT_CASE(gm_write) {
    kt::Dev<int32_t> dz(16);
    gm_write_kernel<<<1, nullptr, nullptr>>>(dz.gm());
}

// ---- UB outside a tensor: GetValue, SetValue, a vector op ---------------------------------------
// which: 0 GetValue, 1 SetValue, 2 Add over more elements than the tensors hold
__global__ __aicore__ void ub_oob_kernel(int which) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, 64 * sizeof(float));
    pipe.InitBuffer(by, 64 * sizeof(float));
    pipe.InitBuffer(bz, 64 * sizeof(float));
    LocalTensor<float> x = bx.Get<float>(), y = by.Get<float>(), z = bz.Get<float>();
    if (which == 0) {
        float v = x.GetValue(64);  // @ub-get
        z.SetValue(0, v);
    } else if (which == 1) {
        x.SetValue(70, 1.0f);  // @ub-set
    } else {
        Add(z, x, y, 128);  // @ub-vec
    }
}
KT_CASE(ub_oob) { ub_oob_kernel<<<1, nullptr, nullptr>>>((int)kt::param("which")); }

// ---- UB allocation over capacity: InitBuffer totals beyond 192 KB ---------------------------------
// which: 0 never touches the buffers past UB (a warning only), 1 writes the second outQ buffer (past UB)
__global__ __aicore__ void ub_overflow_kernel(int which) {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQ;
    TQue<TPosition::VECOUT, 2> outQ;
    pipe.InitBuffer(inQ, 2, 64 * 1024);   // 128 KB
    pipe.InitBuffer(outQ, 2, 32 * 1024 + 32);  // @ub-overflow  +64 KB + 64 B > 192 KB
    LocalTensor<float> a = outQ.AllocTensor<float>();   // UB bytes [131072, 163872): inside UB
    Duplicate(a, 1.0f, 64);
    if (which == 1) {
        LocalTensor<float> b = outQ.AllocTensor<float>();   // bytes [163872, 196672): its tail is past UB
        Duplicate(b, 2.0f, 8);                  // the first 32 bytes are still inside UB
        Duplicate(b, 2.0f, 8200);               // @ub-overflow-access  ends at byte 196672 > 196608
    }
}
KT_CASE(ub_overflow) { ub_overflow_kernel<<<1, nullptr, nullptr>>>((int)kt::param("which")); }

// ---- misaligned UB address: tensor[3] of float into DataCopy or a vector op ------------------------
// which: 0 DataCopy GM->UB, 1 DataCopy UB->GM, 2 Add
__global__ __aicore__ void misaligned_kernel(GM_ADDR x, int which) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> xg;
    xg.SetGlobalBuffer((__gm__ float*)x, 64);
    if (which == 0) {
        DataCopy(t[3], xg, 64);  // @misaligned-in
    } else if (which == 1) {
        DataCopy(xg, t[3], 64);  // @misaligned-out
    } else {
        Add(t[3], t[64], t[128], 64);  // @misaligned-vec
    }
}
KT_CASE(misaligned) {
    kt::Dev<float> dx(std::vector<float>(64, 1.0f));
    misaligned_kernel<<<1, nullptr, nullptr>>>(dx.gm(), (int)kt::param("which"));
}

// ---- DataCopy length rounded down: a warning, the program goes on ----------------------------------
__global__ __aicore__ void rounded_kernel(GM_ADDR x, GM_ADDR z, uint32_t n) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 64 * sizeof(half));
    GlobalTensor<half> xg, zg;
    xg.SetGlobalBuffer((__gm__ half*)x, 64);
    zg.SetGlobalBuffer((__gm__ half*)z, 64);
    LocalTensor<half> t = q.AllocTensor<half>();
    for (uint32_t i = 0; i < 64; ++i) t.SetValue(i, half(0));
    DataCopy(t, xg, n);  // @rounded
    DataCopy(zg, t, 64);
    q.FreeTensor(t);
}
KT_CASE(rounded) {
    auto x = kt::load<half>("x");
    kt::Dev<half> dx(x), dz(64);
    rounded_kernel<<<1, nullptr, nullptr>>>(dx.gm(), dz.gm(), (uint32_t)kt::param("n"));
    kt::save("z", dz.host());
}

// ---- DeQue on an empty queue (deadlock) ------------------------------------------------------------
__global__ __aicore__ void deque_empty_kernel() {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<float> a = q.AllocTensor<float>();
    q.EnQue(a);
    LocalTensor<float> b = q.DeQue<float>();
    LocalTensor<float> c = q.DeQue<float>();  // @deque-empty
    q.FreeTensor(b);
    q.FreeTensor(c);
}
KT_CASE(deque_empty) { deque_empty_kernel<<<1, nullptr, nullptr>>>(); }

// ---- use of a tensor after FreeTensor ------------------------------------------------------------
// which: 0 GetValue, 1 vector op, 2 DataCopy (after the buffer was handed out again: errors);
// 3 GetValue while the buffer is still free (a warning: the bytes are the tensor's own)
__global__ __aicore__ void use_after_free_kernel(GM_ADDR x, int which) {
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 64 * sizeof(float));
    GlobalTensor<float> xg;
    xg.SetGlobalBuffer((__gm__ float*)x, 64);
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xg, 64);
    q.FreeTensor(t);
    if (which == 3) {
        float v = t.GetValue(5);  // @uaf-stale
        xg.SetValue(0, v + 1.0f);
        return;
    }
    LocalTensor<float> again = q.AllocTensor<float>();   // the buffer belongs to `again` now
    (void)again;
    if (which == 0) {
        float v = t.GetValue(0);  // @uaf-get
        (void)v;
    } else if (which == 1) {
        Add(t, t, t, 64);  // @uaf-vec
    } else {
        DataCopy(xg, t, 64);  // @uaf-copy
    }
}
KT_CASE(use_after_free) {
    kt::Dev<float> dx(std::vector<float>(64, 1.0f));
    use_after_free_kernel<<<1, nullptr, nullptr>>>(dx.gm(), (int)kt::param("which"));
}

// ---- more AllocTensor than buffers -----------------------------------------------------------------
__global__ __aicore__ void alloc_exhausted_kernel() {
    TPipe pipe;
    TQue<TPosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 256);
    LocalTensor<half> a = q.AllocTensor<half>();
    LocalTensor<half> b = q.AllocTensor<half>();
    LocalTensor<half> c = q.AllocTensor<half>();  // @alloc-exhausted
    q.FreeTensor(a);
    q.FreeTensor(b);
    q.FreeTensor(c);
}
KT_CASE(alloc_exhausted) { alloc_exhausted_kernel<<<1, nullptr, nullptr>>>(); }

// ---- WaitFlag without SetFlag ------------------------------------------------------------------
// which: 0 no SetFlag at all, 1 SetFlag with another event id, 2 correct pairing (no error)
__global__ __aicore__ void waitflag_kernel(int which) {
    if (which == 1) SetFlag<HardEvent::MTE2_V>(1);
    if (which == 2) SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);  // @waitflag
}
KT_CASE(waitflag) { waitflag_kernel<<<2, nullptr, nullptr>>>((int)kt::param("which")); }

// ---- a kernel that crashes: null GM pointer dereferenced directly -----------------------------------
__global__ __aicore__ void crash_kernel(GM_ADDR x) {
    __gm__ float* p = (__gm__ float*)x;
    p[5] = 1.0f;  // @crash
}
KT_CASE(crash) { crash_kernel<<<1, nullptr, nullptr>>>(nullptr); }

// ---- a kernel that never ends --------------------------------------------------------------------
__global__ __aicore__ void endless_kernel(GM_ADDR z) {
    GlobalTensor<int32_t> zg;
    zg.SetGlobalBuffer((__gm__ int32_t*)z, 8);
    volatile int32_t i = 0;
    while (i >= 0) i = (i + 1) & 0xFFFF;  // @endless
    zg.SetValue(0, i);
}
KT_CASE(endless) {
    kt::Dev<int32_t> dz(8);
    endless_kernel<<<1, nullptr, nullptr>>>(dz.gm());
}

KT_MAIN()
