/*
 * cpu_adm.cpp - the CPU executor of integer ADM: plain loops around the
 * per-sample functions of adm.h, same stages and buffers as the CUDA one.
 */
#include <stdlib.h>
#include <string.h>

#include "adm.h"
#include "adm_exec.h"

struct VqAdmCpu {
    int w, h;
    size_t plane_size;
    int32_t *plane[VQ_ADM_PLANE_COUNT];
};

VqAdmCpu *vq_adm_cpu_alloc(int w, int h)
{
    VqAdmCpu *c;
    int k;
    if (w < 1 || h < 1)
        return NULL;
    c = (VqAdmCpu *)calloc(1, sizeof(*c));
    if (!c)
        return NULL;
    c->w = w;
    c->h = h;
    c->plane_size = (size_t)((w + 1) / 2) * (size_t)((h + 1) / 2);
    for (k = 0; k < VQ_ADM_PLANE_COUNT; k++) {
        c->plane[k] = (int32_t *)malloc(c->plane_size * sizeof(int32_t));
        if (!c->plane[k]) {
            vq_adm_cpu_free(c);
            return NULL;
        }
    }
    return c;
}

void vq_adm_cpu_free(VqAdmCpu *c)
{
    int k;
    if (!c)
        return;
    for (k = 0; k < VQ_ADM_PLANE_COUNT; k++)
        free(c->plane[k]);
    free(c);
}

static int inside(const VqAdmRect *r, int i, int j)
{
    return i >= r->top && i < r->bottom && j >= r->left && j < r->right;
}

/* DWT of ref and dis, then decouple + CSF on the decouple rect */
static void stage_dwt_decouple(VqAdmCpu *c, VqPlaneView ref, VqPlaneView dis,
                               const VqAdmParams *p, int scale)
{
    const VqAdmScaleParams *sp = &p->s[scale];
    const ptrdiff_t stride = sp->w, in_stride = scale ? p->s[scale - 1].w : 0;
    const int cur = scale & 1, prev = cur ^ 1;
    int32_t *const *pl = c->plane;
    int i, j, k;

    for (i = 0; i < sp->h; i++) {
        for (j = 0; j < sp->w; j++) {
            const ptrdiff_t o = (ptrdiff_t)i * stride + j;
            VqAdmDwtOut r, d;
            if (scale == 0) {
                r = vq_adm_dwt0_sample(ref, p->bpc, i, j);
                d = vq_adm_dwt0_sample(dis, p->bpc, i, j);
            } else {
                r = vq_adm_dwt_s123_sample(pl[VQ_ADM_PLANE_A_REF0 + prev], in_stride, sp->in_w,
                                           sp->in_h, scale, i, j);
                d = vq_adm_dwt_s123_sample(pl[VQ_ADM_PLANE_A_DIS0 + prev], in_stride, sp->in_w,
                                           sp->in_h, scale, i, j);
            }
            pl[VQ_ADM_PLANE_A_REF0 + cur][o] = r.a;
            pl[VQ_ADM_PLANE_A_DIS0 + cur][o] = d.a;
            pl[VQ_ADM_PLANE_REF_H][o] = r.h;
            pl[VQ_ADM_PLANE_REF_V][o] = r.v;
            pl[VQ_ADM_PLANE_REF_D][o] = r.d;
            if (inside(&sp->dec, i, j)) {
                const VqAdmCmIn in = vq_adm_pixel_cm_in(r, d, p, scale);
                for (k = 0; k < 3; k++) {
                    pl[VQ_ADM_PLANE_IN0 + VQ_ADM_IN_XR0 + k][o] = in.x_r[k];
                    pl[VQ_ADM_PLANE_IN0 + VQ_ADM_IN_XA0 + k][o] = in.x_a[k];
                }
                pl[VQ_ADM_PLANE_IN0 + VQ_ADM_IN_FA][o] = in.f_a;
                pl[VQ_ADM_PLANE_IN0 + VQ_ADM_IN_CA][o] = in.c_a;
                pl[VQ_ADM_PLANE_IN0 + VQ_ADM_IN_FR][o] = in.f_r;
                pl[VQ_ADM_PLANE_IN0 + VQ_ADM_IN_CR][o] = in.c_r;
            }
        }
    }
}

/* per band row: den, CM and AIM sums over the CM rect (0 outside it) */
static void stage_row_sums(VqAdmCpu *c, const VqAdmParams *p, const VqRowLayout *l,
                           int scale, int64_t *rows)
{
    const VqAdmScaleParams *sp = &p->s[scale];
    const ptrdiff_t stride = sp->w;
    const int32_t *in[VQ_ADM_IN_NPLANES];
    int i, j, k;

    for (k = 0; k < VQ_ADM_IN_NPLANES; k++)
        in[k] = c->plane[VQ_ADM_PLANE_IN0 + k];
    for (i = 0; i < sp->h; i++) {
        uint64_t sum[VQ_ADM_NSUMS] = { 0 };
        int64_t *out = rows + l->adm_off[scale] + (size_t)i * VQ_ADM_NSUMS;
        if (i >= sp->cm.top && i < sp->cm.bottom) {
            for (j = sp->cm.left; j < sp->cm.right; j++) {
                uint64_t t[VQ_ADM_NSUMS];
                vq_adm_pixel_terms(in, c->plane[VQ_ADM_PLANE_REF_H], c->plane[VQ_ADM_PLANE_REF_V],
                                   c->plane[VQ_ADM_PLANE_REF_D], stride, p, scale, i, j, t);
                for (k = 0; k < VQ_ADM_NSUMS; k++)
                    sum[k] += t[k];
            }
        }
        for (k = 0; k < VQ_ADM_NSUMS; k++)
            out[k] = (int64_t)sum[k];
    }
}

int vq_adm_cpu_run(VqAdmCpu *c, VqPlaneView ref, VqPlaneView dis, int bpc,
                   const VqAdmParams *p, const VqRowLayout *l, int64_t *rows)
{
    int scale;
    if (!c || !p || !l || !rows || c->w != p->w || c->h != p->h || bpc != p->bpc ||
        ref.w != p->w || ref.h != p->h || dis.w != p->w || dis.h != p->h ||
        l->w != p->w || l->h != p->h)
        return -1;
    for (scale = 0; scale < VQ_ADM_SCALES; scale++) {
        if (l->adm_w[scale] != p->s[scale].w || l->adm_h[scale] != p->s[scale].h)
            return -1;
        stage_dwt_decouple(c, ref, dis, p, scale);
        stage_row_sums(c, p, l, scale, rows);
    }
    return 0;
}
