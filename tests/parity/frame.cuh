/*
 * frame.cuh - the test frame the parity families share (vmaf, scale,
 * psnr_hvs, ciede): a luma plane and a chroma allocation (two planes one
 * after the other, or one interleaved UV plane), each in host memory and a
 * copy on the device, and the executors' views of it. Each family fills its
 * frames with content of its own (its make_frame).
 */
#ifndef VQ_PARITY_FRAME_CUH
#define VQ_PARITY_FRAME_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <vector>

#include "vq_common.h"

namespace parity_frame {

struct Frame {
    std::vector<uint8_t> host[2];           /* luma, chroma */
    uint8_t *dev[2] = { nullptr, nullptr };
    ptrdiff_t pitch[2] = { 0, 0 };
    int w = 0, h = 0, cw = 0, ch = 0;       /* w, h: set by the families that keep them */
};

inline void free_frame(Frame &f)
{
    cudaFree(f.dev[0]);
    cudaFree(f.dev[1]);
    f.dev[0] = f.dev[1] = nullptr;
}

/* The views of f's planes (luma w x h), in host (dev 0) or device memory;
 * L: a family's layout (bytes, shift, semi: interleaved chroma). */
template <typename Layout>
void views(const Frame &f, const Layout &L, int w, int h, int dev, VqPlaneView v[3])
{
    for (int p = 0; p < 3; p++) {
        VqPlaneView &x = v[p];
        x.bytes = L.bytes;
        x.shift = L.shift;
        x.step = (p && L.semi) ? 2 : 1;
        x.w = p ? f.cw : w;
        x.h = p ? f.ch : h;
        const uint8_t *base = dev ? f.dev[p ? 1 : 0] : f.host[p ? 1 : 0].data();
        x.pitch = f.pitch[p ? 1 : 0];
        if (p == 0)
            x.data = base;
        else if (L.semi)
            x.data = base + (p == 2 ? L.bytes : 0);
        else
            x.data = base + (p == 2 ? (size_t)f.ch * f.pitch[1] : 0);
    }
}

}  // namespace parity_frame

#endif /* VQ_PARITY_FRAME_CUH */
