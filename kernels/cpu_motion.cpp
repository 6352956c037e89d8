/* cpu_motion.cpp - the CPU executor of integer motion: plain loops around kernels/motion.h. */
#include <stdlib.h>
#include <string.h>

#include "motion.h"
#include "motion_exec.h"

struct VqMotionCpu {
    int w, h;
    int have_prev;      /* 0 until the first frame was stored */
    uint16_t *prev;     /* previous reference luma, w x h, packed */
    int32_t *y_row;     /* one vertically blurred row */
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
    m->prev = (uint16_t *)malloc((size_t)w * h * sizeof(*m->prev));
    m->y_row = (int32_t *)malloc((size_t)w * sizeof(*m->y_row));
    if (!m->prev || !m->y_row) {
        vq_motion_cpu_free(m);
        return NULL;
    }
    return m;
}

void vq_motion_cpu_free(VqMotionCpu *m)
{
    if (!m)
        return;
    free(m->prev);
    free(m->y_row);
    free(m);
}

static VqPlaneView prev_view(const VqMotionCpu *m)
{
    VqPlaneView v;
    v.data = (const uint8_t *)m->prev;
    v.pitch = (ptrdiff_t)m->w * 2;
    v.w = m->w;
    v.h = m->h;
    v.bytes = 2;
    v.shift = 0;
    v.step = 1;
    return v;
}

void vq_motion_cpu_run(VqMotionCpu *m, VqPlaneView cur, int bpc, const VqRowLayout *l, int64_t *rows)
{
    const int w = m->w, h = m->h;
    int64_t *out = rows + l->motion_off;

    if (!m->have_prev) {
        memset(out, 0, (size_t)h * sizeof(*out));
    } else {
        const VqPlaneView prev = prev_view(m);
        for (int i = 0; i < h; i++) {
            int64_t row_sad = 0;
            for (int j = 0; j < w; j++)
                m->y_row[j] = vq_motion_vblur_diff(prev, cur, i, j, h, bpc);
            for (int j = 0; j < w; j++)
                row_sad += vq_motion_hblur_abs(m->y_row, j, w);
            out[i] = row_sad;
        }
    }

    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++)
            m->prev[(size_t)i * w + j] = (uint16_t)vq_sample(cur, i, j);
    m->have_prev = 1;
}
