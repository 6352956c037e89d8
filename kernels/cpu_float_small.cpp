/*
 * cpu_float_small.cpp - the CPU executor of float_psnr / float_moment and
 * float_ansnr (docs/float-small.md): plain loops around kernels/
 * float_small.h, in row bands (cpu_exec.cpp), on the same words the CUDA
 * kernels write.
 */
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

extern "C" void vq_ansnr_cpu_rows(const float *fref, const float *fdis, int w, int h, int64_t *section, int r0,
                                  int r1)
{
    for (int i = r0; i < r1; i++) {
        float sig, noise;
        vq_ansnr_row(fref, fdis, w, w, h, i, &sig, &noise);
        section[2 * (size_t)i] = vq_fs_float_word(sig);
        section[2 * (size_t)i + 1] = vq_fs_float_word(noise);
    }
}
