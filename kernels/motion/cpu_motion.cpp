/* cpu_motion.cpp - the CPU executor of integer motion: plain loops around
 * motion.h (SIMD twins in simd/), in row bands, and the module's CPU table
 * (kernels/module.h).  A
 * ring of frame stores (two, three with lag 2): bands read frames n-1, n-2
 * from theirs and copy the current one into the next, so they can run
 * concurrently; commit turns the ring.  A store holds its frame's luma
 * packed, in uint8 for bpc <= 8 (half the memory traffic), else uint16. */
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "motion.h"
#include "motion_exec.h"
#include "module.h"
#include "simd/cpu_simd.h"

struct VqMotionCpu {
    int w, h;
    int lags;           /* VQ_MOTION_LAG1 | VQ_MOTION_LAG2 */
    int nstore;         /* the largest lag + 1 */
    int have;           /* frames stored so far, up to the largest lag */
    int pos;            /* the store the current frame goes into; frame n-k is in (pos - k) mod nstore */
    uint16_t *store[3]; /* reference luma, w x h, packed (room for uint16) */
    int bytes[3];       /* each store's sample size: 1 (bpc <= 8) or 2 */
};

VqMotionCpu *vq_motion_cpu_alloc(int w, int h, int lags)
{
    VqMotionCpu *m;
    if (w < 3 || h < 3 || !(lags & (VQ_MOTION_LAG1 | VQ_MOTION_LAG2)))
        return NULL;
    m = (VqMotionCpu *)calloc(1, sizeof(*m));
    if (!m)
        return NULL;
    m->w = w;
    m->h = h;
    m->lags = lags & (VQ_MOTION_LAG1 | VQ_MOTION_LAG2);
    m->nstore = (m->lags & VQ_MOTION_LAG2) ? 3 : 2;
    for (int k = 0; k < m->nstore; k++) {
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
    for (int k = 0; k < 3; k++)
        free(m->store[k]);
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

/* rows row_begin..row_end-1 of the SAD against frame n-lag into out[] (zeros
 * while that frame is missing) */
static void lag_rows(const VqMotionCpu *m, int lag, VqPlaneView cur, int bpc, int64_t *out, int row_begin,
                     int row_end)
{
    if (m->have < lag) {
        for (int i = row_begin; i < row_end; i++)
            out[i] = 0;
        return;
    }
    const int s = (m->pos + m->nstore - lag) % m->nstore;
    VqPlaneView prev = vq_packed_u16_view(m->store[s], m->w, m->h);
    prev.bytes = m->bytes[s];
    prev.pitch = (ptrdiff_t)m->w * m->bytes[s];
    thread_local std::vector<int32_t> y_row;
    if ((int)y_row.size() < m->w + 64)
        y_row.resize(m->w + 64);
    const VqCpuSimd *k = vq_cpu_simd();
    for (int i = row_begin; i < row_end; i++)
        out[i] = (int64_t)k->motion_row(prev, cur, i, bpc, y_row.data());
}

extern "C" void vq_motion_cpu_rows(VqMotionCpu *m, VqPlaneView cur, int bpc, int64_t *section, int row_begin,
                                   int row_end)
{
    const int w = m->w;
    uint16_t *next = m->store[m->pos];
    const int nb = bpc <= 8 ? 1 : 2;

    /* each lag has its rows: zeros when not asked for */
    for (int lag = 1; lag <= 2; lag++) {
        int64_t *out = section + (size_t)(lag - 1) * m->h;
        if (m->lags & (lag == 1 ? VQ_MOTION_LAG1 : VQ_MOTION_LAG2))
            lag_rows(m, lag, cur, bpc, out, row_begin, row_end);
        else
            for (int i = row_begin; i < row_end; i++)
                out[i] = 0;
    }
    if (row_begin == 0)     /* one band says the store's sample size (read after commit) */
        m->bytes[m->pos] = nb;
    for (int i = row_begin; i < row_end; i++) {
        if (nb == 1) {
            uint8_t *dst = (uint8_t *)next + (size_t)i * w;
            if (cur.bytes == 1 && cur.step == 1)
                memcpy(dst, cur.data + (ptrdiff_t)i * cur.pitch, (size_t)w);
            else
                for (int j = 0; j < w; j++)
                    dst[j] = (uint8_t)vq_sample(cur, i, j);
        } else {
            uint16_t *dst = next + (size_t)i * w;
            for (int j = 0; j < w; j++)
                dst[j] = (uint16_t)vq_sample(cur, i, j);
        }
    }
}

extern "C" void vq_motion_cpu_commit(VqMotionCpu *m)
{
    m->pos = (m->pos + 1) % m->nstore;
    if (m->have < m->nstore - 1)
        m->have++;
}

void vq_motion_cpu_run(VqMotionCpu *m, VqPlaneView cur, int bpc, int64_t *section)
{
    vq_motion_cpu_rows(m, cur, bpc, section, 0, m->h);
    vq_motion_cpu_commit(m);
}

/* ---- the module's CPU table (hostmath/motion/: g.opt[0] the lags) ---- */

static int module_alloc(void **scratch, const VqModuleGeom *g)
{
    *scratch = vq_motion_cpu_alloc(g->w, g->h, (int)g->opt[0]);
    return *scratch ? 0 : -1;
}

static void module_free(void *scratch)
{
    vq_motion_cpu_free((VqMotionCpu *)scratch);
}

static int module_step_rows(const VqModuleGeom *g, int step)
{
    return step == 0 ? g->h : 0;
}

static void module_rows(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView *,
                        int64_t *section, int, int row_begin, int row_end)
{
    vq_motion_cpu_rows((VqMotionCpu *)scratch, ref[0], g->bpc, section, row_begin, row_end);
}

/* a pass over the reference's luma: about a sixth of ADM's, 1/18 of VIF's */
static double module_cost(const VqModuleGeom *)
{
    return 0.5;
}

static void module_frame_end(void *scratch, const VqModuleGeom *, const VqPlaneView *, const VqPlaneView *)
{
    vq_motion_cpu_commit((VqMotionCpu *)scratch);
}

extern "C" const VqModuleCpu vq_motion_module_cpu = {
    module_alloc, module_free, 1, module_step_rows, module_rows, 0u, nullptr, module_cost, nullptr,
    module_frame_end, nullptr, nullptr, nullptr,
};
