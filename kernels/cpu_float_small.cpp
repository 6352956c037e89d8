/*
 * cpu_float_small.cpp - the CPU executor of float_psnr / float_moment and
 * float_ansnr (docs/float-small.md): plain loops around kernels/
 * float_small.h, in row bands (cpu_exec.cpp), on the same words the CUDA
 * kernels write.
 */
#include <vector>

#include "float_small.h"
#include "float_small_exec.h"

extern "C" void vq_fs_cpu_rows(VqPlaneView ref, VqPlaneView dis, int bpc, int64_t *section, int r0, int r1)
{
    float t[VQ_FS_NSUMS];
    for (int i = r0; i < r1; i++) {
        int64_t s[VQ_FS_NSUMS] = { 0, 0, 0, 0, 0 };
        for (int j = 0; j < ref.w; j++) {
            vq_fs_terms(vq_sample(ref, i, j), vq_sample(dis, i, j), bpc, t);
            for (int k = 0; k < VQ_FS_NSUMS; k++)
                s[k] += vq_fs_fixed(t[k]);
        }
        int64_t *row = section + VQ_FS_NSUMS * (1 + (size_t)i);
        for (int k = 0; k < VQ_FS_NSUMS; k++)
            row[k] = s[k];
    }
}

extern "C" void vq_fs_cpu_finish(VqPlaneView ref, VqPlaneView dis, int bpc, int64_t *section)
{
    if (!vq_fs_finish_rows(section + VQ_FS_NSUMS, ref.h, bpc, section))
        vq_fs_raster(ref, dis, ref.w, ref.h, bpc, section);
}

extern "C" void vq_ansnr_cpu_convert_rows(VqPlaneView ref, VqPlaneView dis, int bpc, float *fref, float *fdis,
                                          int r0, int r1)
{
    const int w = ref.w;
    for (int i = r0; i < r1; i++)
        for (int j = 0; j < w; j++) {
            fref[(size_t)i * w + j] = vq_fs_copy(vq_sample(ref, i, j), bpc, -128);
            fdis[(size_t)i * w + j] = vq_fs_copy(vq_sample(dis, i, j), bpc, -128);
        }
}

namespace {

/* The filter over the inner columns [b, w - b) of an inner row i, a tap at a
 * time across the columns: for each pixel the same products added in the
 * same order as vq_ansnr_filter_at (per filter row a float sum from 0 over
 * its taps left to right, the rows' sums added to a float from 0 top to
 * bottom); only the loops are exchanged, so that the compiler can run the
 * columns side by side (each column's sums stay its own). */
void filter_inner_row(const float *img, int w, int ref, int i, float *out, float *inner)
{
    const int fw = ref ? VQ_ANSNR_REF_W : VQ_ANSNR_DIS_W, b = fw / 2;
    const int n = w - 2 * b;
    float *__restrict acc = out + b;
    float *__restrict in = inner;
    for (int j = 0; j < n; j++)
        acc[j] = 0;
    for (int fi = 0; fi < fw; fi++) {
        for (int j = 0; j < n; j++)
            in[j] = 0;
        const float *row = img + (ptrdiff_t)(i - b + fi) * w;
        for (int fj = 0; fj < fw; fj++) {
            const float c = ref ? vq_ansnr_ref_coef(fi * fw + fj) : vq_ansnr_dis_coef(fi * fw + fj);
            const float *__restrict x = row + fj;
            for (int j = 0; j < n; j++)
                in[j] += c * x[j];
        }
        for (int j = 0; j < n; j++)
            acc[j] += in[j];
    }
}

}  // namespace

extern "C" void vq_ansnr_cpu_rows(const float *fref, const float *fdis, int w, int h, int64_t *section, int r0,
                                  int r1)
{
    /* a row's filtered samples first (vq_ansnr_filter_at's values; inner
     * rows' inner columns by filter_inner_row), then its two sums in column
     * order: vq_ansnr_row's values */
    std::vector<float> r((size_t)w), d((size_t)w), tmp((size_t)w);
    for (int i = r0; i < r1; i++) {
        for (int k = 0; k < 2; k++) {   /* the reference's 3x3, the distorted's 5x5 */
            const int b = (k == 0 ? VQ_ANSNR_REF_W : VQ_ANSNR_DIS_W) / 2;
            const float *img = k == 0 ? fref : fdis;
            float *o = k == 0 ? r.data() : d.data();
            const bool inner = i >= b && i < h - b && w > 2 * b;
            if (inner)
                filter_inner_row(img, w, k == 0, i, o, tmp.data());
            for (int j = 0; j < w; j++)
                if (!inner || j < b || j >= w - b)
                    o[j] = vq_ansnr_filter_at(img, w, w, h, k == 0, i, j);
        }
        float sig = 0, noise = 0;
        for (int j = 0; j < w; j++)
            vq_ansnr_mse_step(r[j], d[j], &sig, &noise);
        section[2 * (size_t)i] = vq_fs_float_word(sig);
        section[2 * (size_t)i + 1] = vq_fs_float_word(noise);
    }
}
