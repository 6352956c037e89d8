/* cpu_motion.cpp - the CPU executor of integer motion: plain loops around
 * kernels/motion.h (SIMD twins in simd/), in row bands (cpu_bands.h).  Two
 * frame stores: bands read the previous frame from one and copy the current
 * one into the other, so they can run concurrently; commit swaps them. */
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "cpu_bands.h"
#include "motion.h"
#include "motion_exec.h"
#include "simd/cpu_simd.h"

struct VqMotionCpu {
    int w, h;
    int have_prev;      /* 0 until the first frame was stored */
    int cur;            /* store holding the previous frame */
    uint16_t *store[2]; /* reference luma, w x h, packed */
};

VqMotionCpu *vq_motion_cpu_alloc(int w, int h)
{
    VqMotionCpu *m;
    if (w < 3 || h < 3)
        return NULL;
    m = (VqMotionCpu *)calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->w = w;
    m->h = h;
    for (int k = 0; k < 2; k++) {
        m->store[k] = (uint16_t *)malloc((size_t)w * h * sizeof(uint16_t));
        if (!m->store[k]) {
            vq_motion_cpu_free(m);
            return NULL;
        }
    }
    return m;
}

void vq_motion_cpu_free(VqMotionCpu *m)
{
    if (!m)
        return;
    free(m->store[0]);
    free(m->store[1]);
    free(m);
}

/* the plain loops of one row (the SIMD twins' reference) */
extern "C" uint64_t vq_motion_row_plain(VqPlaneView prev, VqPlaneView cur, int i, int bpc, int32_t *y_row)
{
    const int w = cur.w, h = cur.h;
    uint64_t row_sad = 0;
    for (int j = 0; j < w; j++)
        y_row[j] = vq_motion_vblur_diff(prev, cur, i, j, h, bpc);
    for (int j = 0; j < w; j++)
        row_sad += vq_motion_hblur_abs(y_row, j, w);
    return row_sad;
}

extern "C" void vq_motion_cpu_rows(VqMotionCpu *m, VqPlaneView cur, int bpc, const VqRowLayout *l,
                                   int64_t *rows, int row_begin, int row_end)
{
    const int w = m->w;
    int64_t *out = rows + l->motion_off;
    uint16_t *next = m->store[m->cur ^ 1];

    if (!m->have_prev) {
        for (int i = row_begin; i < row_end; i++)
            out[i] = 0;
    } else {
        const VqPlaneView prev = vq_packed_u16_view(m->store[m->cur], w, m->h);
        thread_local std::vector<int32_t> y_row;
        if ((int)y_row.size() < w + 64)
            y_row.resize(w + 64);
        const VqCpuSimd *k = vq_cpu_simd();
        for (int i = row_begin; i < row_end; i++)
            out[i] = (int64_t)k->motion_row(prev, cur, i, bpc, y_row.data());
    }
    for (int i = row_begin; i < row_end; i++) {
        uint16_t *dst = next + (size_t)i * w;
        if (cur.bytes == 1 && cur.step == 1) {
            const uint8_t *src = cur.data + (ptrdiff_t)i * cur.pitch;
            for (int j = 0; j < w; j++)
                dst[j] = src[j];
        } else {
            for (int j = 0; j < w; j++)
                dst[j] = (uint16_t)vq_sample(cur, i, j);
        }
    }
}

extern "C" void vq_motion_cpu_commit(VqMotionCpu *m)
{
    m->cur ^= 1;
    m->have_prev = 1;
}

void vq_motion_cpu_run(VqMotionCpu *m, VqPlaneView cur, int bpc, const VqRowLayout *l, int64_t *rows)
{
    vq_motion_cpu_rows(m, cur, bpc, l, rows, 0, m->h);
    vq_motion_cpu_commit(m);
}
