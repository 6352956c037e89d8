/*
 * cpu_float_adm.cpp - the CPU executor of float ADM: plain loops around the
 * functions of float_adm.h, in the reference's order (one row's sums on
 * one thread, left to right).  adm_p_norm other than 3 takes glibc's powf
 * per pixel here, as the reference does (the CUDA executor refuses it).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <new>
#include <vector>

#include "float_adm_exec.h"

namespace {

/* the images of one scale: the DWT bands of ref and dis, and per
 * orientation the CSF'd decoupled values and their 1/30 magnitudes */
enum { RA, RH, RV, RD, DA, DH, DV, DD, CSF_R, CSF_A = CSF_R + 3, FLT_R = CSF_A + 3, FLT_A = FLT_R + 3, NPLANES = FLT_A + 3 };

}  // namespace

struct VqFadmCpu {
    int w[VQ_ADM_SCALES], h[VQ_ADM_SCALES];
    std::vector<float> plane[VQ_ADM_SCALES][NPLANES];
    float *at(int s, int k, int i) { return plane[s][k].data() + (size_t)i * w[s]; }
};

extern "C" VqFadmCpu *vq_fadm_cpu_alloc(const VqFadmParams *p)
{
    VqFadmCpu *c = new (std::nothrow) VqFadmCpu;
    if (!c)
        return nullptr;
    try {
        for (int s = 0; s < VQ_ADM_SCALES; s++) {
            c->w[s] = p->s[s].w;
            c->h[s] = p->s[s].h;
            for (int k = 0; k < NPLANES; k++)
                c->plane[s][k].assign((size_t)c->w[s] * c->h[s], 0.0f);
        }
    } catch (const std::bad_alloc &) {
        delete c;
        return nullptr;
    }
    return c;
}

extern "C" void vq_fadm_cpu_free(VqFadmCpu *c)
{
    delete c;
}

extern "C" int vq_fadm_cpu_check(const VqFadmCpu *c, VqPlaneView ref, VqPlaneView dis, const VqFadmParams *p)
{
    if (!c || ref.w != p->w || ref.h != p->h || dis.w != p->w || dis.h != p->h)
        return -1;
    for (int s = 0; s < VQ_ADM_SCALES; s++)
        if (c->w[s] != p->s[s].w || c->h[s] != p->s[s].h)
            return -1;
    return 0;
}

namespace {

/* one band row of both DWTs; the vertical pass over the input row's
 * columns first (as adm_dwt2_s), then the horizontal pass */
template <typename Src>
void dwt_row(const Src &src, int in_w, int in_h, int i, int bw, float *a, float *h, float *v, float *d,
             std::vector<float> &lo, std::vector<float> &hi)
{
    const int y0 = vq_fadm_tap(0, i, in_h), y1 = vq_fadm_tap(1, i, in_h), y2 = vq_fadm_tap(2, i, in_h),
              y3 = vq_fadm_tap(3, i, in_h);
    for (int j = 0; j < in_w; j++)
        vq_fadm_vert(src(y0, j), src(y1, j), src(y2, j), src(y3, j), &lo[(size_t)j], &hi[(size_t)j]);
    for (int j = 0; j < bw; j++) {
        const int x0 = vq_fadm_tap(0, j, in_w), x1 = vq_fadm_tap(1, j, in_w), x2 = vq_fadm_tap(2, j, in_w),
                  x3 = vq_fadm_tap(3, j, in_w);
        a[j] = vq_fadm_horz_lo(lo[(size_t)x0], lo[(size_t)x1], lo[(size_t)x2], lo[(size_t)x3]);
        v[j] = vq_fadm_horz_hi(lo[(size_t)x0], lo[(size_t)x1], lo[(size_t)x2], lo[(size_t)x3]);
        h[j] = vq_fadm_horz_lo(hi[(size_t)x0], hi[(size_t)x1], hi[(size_t)x2], hi[(size_t)x3]);
        d[j] = vq_fadm_horz_hi(hi[(size_t)x0], hi[(size_t)x1], hi[(size_t)x2], hi[(size_t)x3]);
    }
}

/* |x|^p: a cube, or glibc's powf(x, (float)p) */
inline float power(const VqFadmParams *p, float x)
{
    return p->p3 ? vq_fadm_cube(x) : powf(x, p->p_normf);
}

}  // namespace

extern "C" void vq_fadm_cpu_dwt_rows(VqFadmCpu *c, VqPlaneView ref, VqPlaneView dis, const VqFadmParams *p,
                                     int s, int r0, int r1)
{
    const VqFadmScale &sc = p->s[s];
    std::vector<float> lo((size_t)sc.in_w), hi((size_t)sc.in_w);
    for (int i = r0; i < r1; i++) {
        for (int side = 0; side < 2; side++) {
            const int b = side ? DA : RA;
            float *a = c->at(s, b, i), *h = c->at(s, b + 1, i), *v = c->at(s, b + 2, i),
                  *d = c->at(s, b + 3, i);
            if (s == 0) {
                const VqPlaneView pic = side ? dis : ref;
                const int bpc = p->bpc;
                dwt_row([&](int y, int x) { return vq_fadm_sample0(pic, bpc, y, x); }, sc.in_w, sc.in_h, i,
                        sc.w, a, h, v, d, lo, hi);
            } else {
                const float *src = c->plane[s - 1][b].data();
                const int sw = c->w[s - 1];
                dwt_row([&](int y, int x) { return src[(size_t)y * sw + x]; }, sc.in_w, sc.in_h, i, sc.w, a, h,
                        v, d, lo, hi);
            }
        }
    }
}

extern "C" void vq_fadm_cpu_dec_rows(VqFadmCpu *c, const VqFadmParams *p, const VqRcpTable *t, int s, int r0,
                                     int r1)
{
    const VqFadmScale &sc = p->s[s];
    if (sc.dwt_only)
        return;
    const int i0 = r0 > sc.dec.top ? r0 : sc.dec.top, i1 = r1 < sc.dec.bottom ? r1 : sc.dec.bottom;
    for (int i = i0; i < i1; i++) {
        const float *o[3] = { c->at(s, RH, i), c->at(s, RV, i), c->at(s, RD, i) };
        const float *d[3] = { c->at(s, DH, i), c->at(s, DV, i), c->at(s, DD, i) };
        float *cr[3], *ca[3], *fr[3], *fa[3];
        for (int b = 0; b < 3; b++) {
            cr[b] = c->at(s, CSF_R + b, i);
            ca[b] = c->at(s, CSF_A + b, i);
            fr[b] = c->at(s, FLT_R + b, i);
            fa[b] = c->at(s, FLT_A + b, i);
        }
        for (int j = sc.dec.left; j < sc.dec.right; j++) {
            const float ov[3] = { o[0][j], o[1][j], o[2][j] }, dv[3] = { d[0][j], d[1][j], d[2][j] };
            float r[3], a[3];
            vq_fadm_decouple(t, ov, dv, p->egl, p->cos_1deg_sq, r, a);
            for (int b = 0; b < 3; b++) {
                cr[b][j] = vq_fadm_csf(sc.rfactor[b], r[b]);
                ca[b][j] = vq_fadm_csf(sc.rfactor[b], a[b]);
                fr[b][j] = vq_fadm_flt(cr[b][j]);
                fa[b][j] = vq_fadm_flt(ca[b][j]);
            }
        }
    }
}

extern "C" void vq_fadm_cpu_sum_rows(VqFadmCpu *c, const VqFadmParams *p, int s, int64_t *rows, size_t off,
                                     int r0, int r1)
{
    const VqFadmScale &sc = p->s[s];
    const int bw = sc.w, bh = sc.h;
    for (int i = r0; i < r1; i++) {
        int64_t *out = rows + off + (size_t)i * VQ_FADM_NSUMS;
        if (sc.dwt_only || i < sc.cm.top || i >= sc.cm.bottom) {
            for (int k = 0; k < VQ_FADM_NSUMS; k++)
                out[k] = 0;
            continue;
        }
        const int im = vq_fadm_mirror(i - 1, bh), ip = vq_fadm_mirror(i + 1, bh);
        const float *ref[3] = { c->at(s, RH, i), c->at(s, RV, i), c->at(s, RD, i) };
        const float *cr[3][3], *ca[3][3];      /* [orientation][row i-1, i, i+1] */
        const float *fr[3][3], *fa[3][3];
        for (int b = 0; b < 3; b++) {
            const int rr[3] = { im, i, ip };
            for (int q = 0; q < 3; q++) {
                cr[b][q] = c->at(s, CSF_R + b, rr[q]);
                ca[b][q] = c->at(s, CSF_A + b, rr[q]);
                fr[b][q] = c->at(s, FLT_R + b, rr[q]);
                fa[b][q] = c->at(s, FLT_A + b, rr[q]);
            }
        }
        float acc[VQ_FADM_NSUMS];
        for (int k = 0; k < VQ_FADM_NSUMS; k++)
            acc[k] = 0;
        for (int j = sc.cm.left; j < sc.cm.right; j++) {
            const int jm = vq_fadm_mirror(j - 1, bw), jp = vq_fadm_mirror(j + 1, bw);
            /* adm_csf_den_scale_s: |factor * ref|^p */
            for (int b = 0; b < 3; b++)
                acc[VQ_ADM_DEN_H + b] += power(p, vq_fadm_abs(sc.rfactor[b] * ref[b][j]));
            /* adm_cm_s of r, threshold from a's CSF; of a (AIM), from r's */
            float thr_a = 0.0f, thr_r = 0.0f;
            if (!p->bypass_cm) {
                float pa[3], pr[3];
                for (int b = 0; b < 3; b++) {
                    pa[b] = vq_fadm_thr_part(fa[b][0], fa[b][1], fa[b][2], jm, j, jp, ca[b][1][j]);
                    pr[b] = vq_fadm_thr_part(fr[b][0], fr[b][1], fr[b][2], jm, j, jp, cr[b][1][j]);
                }
                thr_a = vq_fadm_thr(pa[0], pa[1], pa[2]);
                thr_r = vq_fadm_thr(pr[0], pr[1], pr[2]);
            }
            for (int b = 0; b < 3; b++) {
                acc[VQ_ADM_NUM_H + b] += power(p, vq_fadm_cm_x(cr[b][1][j], thr_a));
                acc[VQ_ADM_AIM_H + b] += power(p, vq_fadm_cm_x(ca[b][1][j], thr_r));
            }
        }
        for (int k = 0; k < VQ_FADM_NSUMS; k++)
            out[k] = vq_fadm_word(acc[k]);
    }
}

extern "C" int vq_fadm_cpu_run(VqFadmCpu *c, VqPlaneView ref, VqPlaneView dis, const VqFadmParams *p,
                               const VqRcpTable *t, int64_t *rows, const size_t off[VQ_ADM_SCALES])
{
    if (vq_fadm_cpu_check(c, ref, dis, p) < 0)
        return -1;
    for (int s = 0; s < VQ_ADM_SCALES; s++) {
        vq_fadm_cpu_dwt_rows(c, ref, dis, p, s, 0, p->s[s].h);
        vq_fadm_cpu_dec_rows(c, p, t, s, 0, p->s[s].h);
        vq_fadm_cpu_sum_rows(c, p, s, rows, off[s], 0, p->s[s].h);
    }
    return 0;
}
