/*
 * cpu_vif.cpp - the CPU executor of integer VIF: plain loops around vif.h.
 *
 * Work goes row by row, and within a row by chunks of columns: the vertical
 * pass fills a small buffer (on the stack, so pieces can run on any thread)
 * at reflected columns, the horizontal pass reads it.  The GPU kernels
 * (cuda_vif.cu) do the same with shared-memory tiles.
 */
#include <stdlib.h>

#include <atomic>
#include <new>

#include "vif.h"
#include "vif_exec.h"
#include "module.h"
#include "simd/cpu_simd.h"

namespace {

/* output columns per chunk: the vertical buffer holds CHUNK + 2r results */
constexpr int kChunk = 256;

} // namespace

struct VqVifCpu {
    int w, h;
    int sw[VQ_VIF_SCALES], sh[VQ_VIF_SCALES];
    uint16_t *img[VQ_VIF_SCALES][2];   /* scales 1..3: ref, dis */
};

static VqPlaneView vif_image_view(const VqVifCpu *v, int s, int which)
{
    return vq_packed_u16_view(v->img[s][which], v->sw[s], v->sh[s]);
}

static bool vif_views_ok(const VqVifCpu *v, VqPlaneView ref, VqPlaneView dis, int bpc)
{
    return v && ref.w == v->w && ref.h == v->h && dis.w == v->w && dis.h == v->h &&
           bpc >= 8 && bpc <= 16;
}

extern "C" VqVifCpu *vq_vif_cpu_alloc(int w, int h)
{
    if (w < VQ_VIF_MIN_SIZE || h < VQ_VIF_MIN_SIZE)
        return NULL;
    VqVifCpu *v = (VqVifCpu *)calloc(1, sizeof(*v));
    if (!v)
        return NULL;
    v->w = w;
    v->h = h;
    for (int s = 0; s < VQ_VIF_SCALES; s++) {
        v->sw[s] = s ? v->sw[s - 1] / 2 : w;
        v->sh[s] = s ? v->sh[s - 1] / 2 : h;
        if (!s)
            continue;
        for (int k = 0; k < 2; k++) {
            v->img[s][k] = (uint16_t *)malloc((size_t)v->sw[s] * v->sh[s] * sizeof(uint16_t));
            if (!v->img[s][k]) {
                vq_vif_cpu_free(v);
                return NULL;
            }
        }
    }
    return v;
}

extern "C" void vq_vif_cpu_free(VqVifCpu *v)
{
    if (!v)
        return;
    for (int s = 1; s < VQ_VIF_SCALES; s++)
        for (int k = 0; k < 2; k++)
            free(v->img[s][k]);
    free(v);
}

/* S is a template argument so that the taps fold into constants */
template <int S>
static void vif_subsample_row(VqPlaneView src_ref, VqPlaneView src_dis, int bpc, int i, int out_w,
                              uint16_t *out_ref, uint16_t *out_dis)
{
    constexpr int r = VQ_VIF_RADIUS(S);
    const int shift = vq_vif_down_shift(S, bpc);
    const int src_w = src_ref.w;
    uint32_t tref[2 * kChunk + 2 * r], tdis[2 * kChunk + 2 * r];

    for (int c0 = 0; c0 < out_w; c0 += kChunk) {
        const int n = out_w - c0 < kChunk ? out_w - c0 : kChunk;
        /* source columns 2*c0 - r .. 2*(c0+n-1) + r, reflected */
        for (int t = 0; t < 2 * (n - 1) + 2 * r + 1; t++) {
            const int x = vq_reflect101(2 * c0 - r + t, src_w);
            tref[t] = vq_vif_down_vertical(S, src_ref, 2 * i, x, shift);
            tdis[t] = vq_vif_down_vertical(S, src_dis, 2 * i, x, shift);
        }
        for (int j = 0; j < n; j++) {
            out_ref[c0 + j] = vq_vif_down_horizontal(S, tref + 2 * j);
            out_dis[c0 + j] = vq_vif_down_horizontal(S, tdis + 2 * j);
        }
    }
}

template <int S, bool EIGHT_BIT>
static void vif_statistic_row(VqPlaneView ref, VqPlaneView dis, int bpc, double egl,
                              const uint16_t *log2_table, int i, int64_t *acc)
{
    constexpr int r = VQ_VIF_RADIUS(S);
    const VqVifStatShift sh = vq_vif_stat_shift(S, bpc);
    const int w = ref.w;
    VqVifMoments t[kChunk + 2 * r];

    for (int k = 0; k < VQ_VIF_NSUMS; k++)
        acc[k] = 0;
    for (int c0 = 0; c0 < w; c0 += kChunk) {
        const int n = w - c0 < kChunk ? w - c0 : kChunk;
        for (int k = 0; k < n + 2 * r; k++) {
            const int j = vq_reflect101(c0 - r + k, w);
            if constexpr (EIGHT_BIT)
                t[k] = vq_vif_stat_vertical_8(ref, dis, i, j);
            else
                t[k] = vq_vif_stat_vertical_16(S, ref, dis, i, j, sh);
        }
        for (int j = 0; j < n; j++)
            vq_vif_accumulate(acc, vq_vif_stat_horizontal(S, t + j), log2_table, egl);
    }
}

extern "C" void vq_vif_sub_row_plain(int s, VqPlaneView src_ref, VqPlaneView src_dis, int i, int bpc,
                                     int out_w, uint16_t *out_ref, uint16_t *out_dis)
{
    switch (s) {
    case 1: vif_subsample_row<1>(src_ref, src_dis, bpc, i, out_w, out_ref, out_dis); break;
    case 2: vif_subsample_row<2>(src_ref, src_dis, bpc, i, out_w, out_ref, out_dis); break;
    case 3: vif_subsample_row<3>(src_ref, src_dis, bpc, i, out_w, out_ref, out_dis); break;
    }
}

extern "C" void vq_vif_stat_row_plain(int s, VqPlaneView ref, VqPlaneView dis, int i, int bpc, double egl,
                                      const uint16_t *log2_table, int64_t *acc)
{
    switch (s) {
    case 0:
        if (bpc == 8)
            vif_statistic_row<0, true>(ref, dis, bpc, egl, log2_table, i, acc);
        else
            vif_statistic_row<0, false>(ref, dis, bpc, egl, log2_table, i, acc);
        break;
    case 1: vif_statistic_row<1, false>(ref, dis, bpc, egl, log2_table, i, acc); break;
    case 2: vif_statistic_row<2, false>(ref, dis, bpc, egl, log2_table, i, acc); break;
    case 3: vif_statistic_row<3, false>(ref, dis, bpc, egl, log2_table, i, acc); break;
    }
}

extern "C" int vq_vif_cpu_subsample_rows(VqVifCpu *v, VqPlaneView ref, VqPlaneView dis, int bpc,
                                         int s, int row_begin, int row_end)
{
    if (!vif_views_ok(v, ref, dis, bpc) || s < 1 || s >= VQ_VIF_SCALES || row_begin < 0 ||
        row_end > v->sh[s] || row_begin > row_end)
        return -1;
    const VqPlaneView src_ref = s == 1 ? ref : vif_image_view(v, s - 1, 0);
    const VqPlaneView src_dis = s == 1 ? dis : vif_image_view(v, s - 1, 1);
    const VqCpuSimd *k = vq_cpu_simd();
    for (int i = row_begin; i < row_end; i++)
        k->vif_sub_row(s, src_ref, src_dis, i, bpc, v->sw[s], v->img[s][0] + (size_t)i * v->sw[s],
                       v->img[s][1] + (size_t)i * v->sw[s]);
    return 0;
}

extern "C" int vq_vif_cpu_statistic_rows(VqVifCpu *v, VqPlaneView ref, VqPlaneView dis, int bpc,
                                         double egl, const uint16_t *log2_table,
                                         const VqRowLayout *l, int s, int row_begin, int row_end,
                                         int64_t *rows)
{
    if (!vif_views_ok(v, ref, dis, bpc) || !l || !rows || !log2_table || s < 0 ||
        s >= VQ_VIF_SCALES || l->w != v->w || l->h != v->h || row_begin < 0 ||
        row_end > v->sh[s] || row_begin > row_end)
        return -1;
    const VqPlaneView img_ref = s == 0 ? ref : vif_image_view(v, s, 0);
    const VqPlaneView img_dis = s == 0 ? dis : vif_image_view(v, s, 1);
    int64_t *out = rows + l->vif_off[s];
    const VqCpuSimd *k = vq_cpu_simd();
    for (int i = row_begin; i < row_end; i++)
        k->vif_stat_row(s, img_ref, img_dis, i, bpc, egl, log2_table, out + (size_t)i * VQ_VIF_NSUMS);
    return 0;
}

extern "C" int vq_vif_cpu_run(VqVifCpu *v, VqPlaneView ref, VqPlaneView dis, int bpc, double egl,
                              const uint16_t *log2_table, const VqRowLayout *l, int64_t *rows)
{
    if (!vif_views_ok(v, ref, dis, bpc))
        return -1;
    for (int s = 0; s < VQ_VIF_SCALES; s++) {
        if (s && vq_vif_cpu_subsample_rows(v, ref, dis, bpc, s, 0, v->sh[s]))
            return -1;
        if (vq_vif_cpu_statistic_rows(v, ref, dis, bpc, egl, log2_table, l, s, 0, v->sh[s], rows))
            return -1;
    }
    return 0;
}

/* ---- the module's CPU table (hostmath/vif/: g.host is a VqVifGeom) ----
 * Step s (0..3): the statistic rows of scale s, then (s < 3) the
 * subsampling rows of scale s + 1, both reading scale s's images: two parts
 * of one step, concurrently. */
namespace {

struct Scratch {
    VqVifCpu *v = nullptr;
    std::atomic<int> failed{0};
};

const VqVifGeom &geom(const VqModuleGeom *g)
{
    return *static_cast<const VqVifGeom *>(g->host);
}

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    Scratch *x = new (std::nothrow) Scratch;
    if (x && !(x->v = vq_vif_cpu_alloc(g->w, g->h))) {
        delete x;
        x = nullptr;
    }
    *scratch = x;
    return x ? 0 : -1;
}

void module_free(void *scratch)
{
    Scratch *x = static_cast<Scratch *>(scratch);
    if (x)
        vq_vif_cpu_free(x->v);
    delete x;
}

int module_step_parts(const VqModuleGeom *g, int step, VqModulePart parts[VQ_MODULE_MAX_PARTS])
{
    const VqRowLayout &l = geom(g).l;
    parts[0] = VqModulePart{ l.vif_h[step], 0, 0 };
    if (step + 1 >= VQ_VIF_SCALES)
        return 1;
    parts[1] = VqModulePart{ l.vif_h[step + 1], 0, 0 };
    return 2;
}

int module_step_rows(const VqModuleGeom *g, int step)
{
    const VqRowLayout &l = geom(g).l;
    return l.vif_h[step] + (step + 1 < VQ_VIF_SCALES ? l.vif_h[step + 1] : 0);
}

void module_rows(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                 int64_t *section, int step, int row_begin, int row_end)
{
    Scratch *x = static_cast<Scratch *>(scratch);
    const VqVifGeom &vg = geom(g);
    const int n = vg.l.vif_h[step];
    int lo, hi;
    if (vq_module_part_rows(0, n, row_begin, row_end, &lo, &hi) &&
        vq_vif_cpu_statistic_rows(x->v, ref[0], dis[0], g->bpc, vg.egl, vg.log2_table, &vg.l, step, lo, hi,
                                  section) < 0)
        x->failed = 1;
    if (step + 1 < VQ_VIF_SCALES && vq_module_part_rows(n, vg.l.vif_h[step + 1], row_begin, row_end, &lo, &hi) &&
        vq_vif_cpu_subsample_rows(x->v, ref[0], dis[0], g->bpc, step + 1, lo, hi) < 0)
        x->failed = 1;
}

/* the pictures against the instance's geometry (no rows) */
int module_check(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3])
{
    const VqVifGeom &vg = geom(g);
    int64_t none = 0;
    return vq_vif_cpu_statistic_rows(static_cast<Scratch *>(scratch)->v, ref[0], dis[0], g->bpc, vg.egl,
                                     vg.log2_table, &vg.l, 0, 0, 0, &none);
}

/* the executor's hint: VIF is the costliest of VMAF's features (ADM 3, motion 0.5) */
double module_cost(const VqModuleGeom *)
{
    return 9.0;
}

int module_rows_failed(void *scratch)
{
    return static_cast<Scratch *>(scratch)->failed.exchange(0);
}

}  // namespace

extern "C" const VqModuleCpu vq_vif_module_cpu = {
    module_alloc, module_free, VQ_VIF_SCALES, module_step_rows, module_rows, 0u, module_check, module_cost,
    nullptr,      nullptr,     module_step_parts, nullptr,        module_rows_failed,
};
