/*
 * speed_exec.h - the CUDA executor of speed_chroma's per-pixel steps 1-3
 * (kernels/speed.h): a plane on the device in, its anti-aliased 1/16 image
 * (ow x oh floats) into a row buffer (or back on the host), where
 * hostmath/speed_chroma's frame_from_dec16() runs steps 4-7.
 */
#ifndef VQ_SPEED_EXEC_H
#define VQ_SPEED_EXEC_H

#include "speed.h"

/* what one plane size and option set needs; the host fills it from
 * vq::speed::dims(), antialias_taps() and lanczos4_weights() */
typedef struct VqSpeedGeom {
    int w, h;              /* the plane as speed_chroma reads it */
    int sw, sh;            /* after the prescale */
    int ow, oh;            /* the 1/16 image */
    int scaled;            /* 1: the prescale runs (sizes differ) */
    int method;            /* VqSpeedScaleMethod */
    float ratio_x, ratio_y;
    int fw;                /* anti-alias taps */
    float taps[VQ_SPEED_MAX_TAPS];
    const int *lx0, *ly0;  /* lanczos4 tables (host memory; sw, sh entries) */
    const float *lwx, *lwy;   /* (sw, sh) x VQ_SPEED_LANCZOS_TAPS */
} VqSpeedGeom;

/* the 1/16 images of one frame (ref U, ref V, dis U, dis V) in int64 words
 * of a row buffer, floats packed in memory order */
#define VQ_SPEED_IMAGES 4
static inline size_t vq_speed_words(const VqSpeedGeom *g)
{
    return ((size_t)VQ_SPEED_IMAGES * (size_t)g->ow * (size_t)g->oh + 1) / 2;
}

/* Steps 1-3 of one plane on the CPU (kernels/cpu_speed.cpp): the 1/16
 * image, ow * oh floats, into out. */
void vq_speed_cpu_dec16(const VqSpeedGeom *g, VqPlaneView plane, int bpc, float *out);

/* speed_temporal (docs/float-small.md): per instance a flag word (1: the
 * images are there; 0: the executor had no previous frame) and the 1/16
 * images of the reference's and the distorted's luma differences (ow * oh
 * floats each, in that order, from the word after the flag) */
#define VQ_SPEED_T_IMAGES 2
static inline size_t vq_speed_temporal_words(const VqSpeedGeom *g)
{
    return 1 + ((size_t)VQ_SPEED_T_IMAGES * (size_t)g->ow * (size_t)g->oh + 1) / 2;
}

/* Steps 1-3 of speed_temporal on the CPU: the float image prev - cur
 * (vq_speed_temporal_diff, both luma views of the geometry's size), then
 * speed_chroma's prescale and anti-alias filter; ow * oh floats into out. */
void vq_speed_temporal_cpu_dec16(const VqSpeedGeom *g, VqPlaneView prev, VqPlaneView cur, int bpc, float *out);

typedef struct VqSpeedCuda VqSpeedCuda;

/* NULL on failure (no device, no memory) */
VqSpeedCuda *vq_speed_cuda_alloc(const VqSpeedGeom *g);
/* plane: a view of device memory; out: ow * oh floats in host memory;
 * 0 or a CUDA error code */
int vq_speed_cuda_dec16(VqSpeedCuda *c, VqPlaneView plane, int bpc, float *out);
/* The same, queued on stream (a cudaStream_t) with no synchronisation:
 * the image goes to out, device memory (a row buffer's section).  Calls
 * on one VqSpeedCuda must be ordered (one stream): they share its scratch. */
int vq_speed_cuda_run(VqSpeedCuda *c, VqPlaneView plane, int bpc, float *out, void *stream);
void vq_speed_cuda_free(VqSpeedCuda *c);

/* speed_temporal on the GPU: steps 1-3 of prev - cur (device views of the
 * geometry's size) into out (device memory), queued on stream; while
 * *d_have_prev is 0 (the executor's first frame) the difference is taken as
 * 0, so the image is 0, as the CPU executor leaves it.  Calls on one
 * VqSpeedCuda must be ordered (one stream). */
int vq_speed_temporal_cuda_run(VqSpeedCuda *c, VqPlaneView prev, VqPlaneView cur, int bpc, const int *d_have_prev,
                               float *out, void *stream);
/* the section's flag word: 1 where *d_have_prev, else 0 */
int vq_speed_temporal_cuda_flag(const int *d_have_prev, int64_t *d_flag, void *stream);
/* after the frame's speed_temporal work: its luma planes (w x h) become the
 * previous ones (packed uint16 in device memory), and *d_have_prev 1 */
int vq_speed_temporal_cuda_keep(VqPlaneView ref, VqPlaneView dis, uint16_t *d_prev_ref, uint16_t *d_prev_dis,
                                int *d_have_prev, void *stream);

#endif /* VQ_SPEED_EXEC_H */
