/*
 * cpu_ciede.cpp - the ciede executors' CPU loops.
 *
 * vq_ciede_cpu_run: the reference itself per pixel (vq_ciede_pixel_ref,
 * below: glibc), exact words only.
 * vq_ciede_dev_cpu_run: the device stage (kernels/ciede/ciede.h, pure IEEE
 * arithmetic) in a plain loop: the words the CUDA kernel writes.
 */
/* GCC 12.2 (Debian 12) at -O2/-O3 SLP-vectorizes pairs of float
 * conversions and then folds (double)(float)x back to x: wrong code for the
 * reference's float roundings (docs/ciede.md, "Compiler").  No vectorizing in
 * this file. */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#pragma GCC optimize("no-tree-vectorize", "no-tree-slp-vectorize", "no-tree-loop-vectorize")
#endif
#include <math.h>
#include <string.h>

#include <new>
#include <vector>

#include "ciede.h"
#include "ciede_exec.h"
#include "module.h"

/* The reference's math calls, as libvmaf's ciede.c makes them once the
 * compiler has folded pow(x, 2) into x * x and pow(25, 7), powf(25., 7)
 * into constants: pow(base, 2.4), pow(c, 1.0 / 3.0), pow(cbar, 7), atan2,
 * sin, cos, exp (double) and powf(C'bar, 7) (float), here with glibc (host
 * code only).  The arithmetic between them is kernels/ciede/ciede.h's, shared
 * with the device stage. */
namespace {

VqCiedeLab lab_ref(uint32_t ys, uint32_t us, uint32_t vs, int bpc)
{
    double rgb[3], lin[3], xyz[3];
    float f[3];
    vq_ciede_rgb(ys, us, vs, bpc, rgb);
    for (int c = 0; c < 3; c++)
        lin[c] = vq_ciede_gamma_is_pow(rgb[c]) ? pow(vq_ciede_gamma_base(rgb[c]), VQ_CIEDE_GAMMA_EXP)
                                               : vq_ciede_gamma_lin(rgb[c]);
    vq_ciede_xyz<double>(lin[0], lin[1], lin[2], xyz);
    for (int c = 0; c < 3; c++)
        f[c] = vq_ciede_lab_is_cbrt(xyz[c]) ? (float)pow(xyz[c], VQ_CIEDE_THIRD)
                                            : vq_ciede_lab_lin<double>(xyz[c]);
    return vq_ciede_lab(f[0], f[1], f[2]);
}

float hue_ref(float b, float ap)
{
    if (vq_ciede_hue_is_zero(b, ap))
        return 0.0f;
    return vq_ciede_hue_wrap((float)atan2((double)b, (double)ap));
}

float de00_ref(VqCiedeLab c1, VqCiedeLab c2)
{
    const VqCiedeB0 b0 = vq_ciede_b0(c1, c2);
    const double p = pow((double)b0.cbar, 7.0);
    const float ap1 = vq_ciede_a_prime<double>(c1.a, p);
    const float ap2 = vq_ciede_a_prime<double>(c2.a, p);
    const float cp1 = vq_ciede_hypot(ap1, c1.b);
    const float cp2 = vq_ciede_hypot(ap2, c2.b);
    const float cbp = (cp1 + cp2) / 2;
    VqCiedeB1 b1;
    b1.dl = b0.dl;
    b1.dcp = cp2 - cp1;
    b1.s_l = vq_ciede_s_l(b0.lbar);
    b1.s_c = vq_ciede_s_c(cbp);
    const float h1 = hue_ref(c1.b, ap1);
    const float h2 = hue_ref(c2.b, ap2);
    const float dhp = vq_ciede_delta_h_prime(b0.c1, b0.c2, h1, h2);
    b1.dhp_big = vq_ciede_delta_H<double>(cp1, cp2, sin(vq_ciede_dh_sin_arg(dhp)));
    const float hbp = vq_ciede_h_bar_prime(h1, h2);
    double arg[4];
    vq_ciede_t_args(hbp, arg);
    const float t = vq_ciede_t<double>(cos(arg[0]), cos(arg[1]), cos(arg[2]), cos(arg[3]));
    b1.s_h = vq_ciede_s_h(cbp, t);
    const float deg = vq_ciede_rt_degrees(hbp);
    const float rad = vq_ciede_rt_rad<double>(exp(vq_ciede_rt_exp_arg(deg)));
    const float p7 = powf(cbp, 7.0f);
    const float rt = vq_ciede_rt<double>(p7, sin((double)rad));
    return vq_ciede_de00(&b1, rt);
}

}  // namespace

extern "C" float vq_ciede_pixel_ref(const uint32_t s[6], int bpc)
{
    return de00_ref(lab_ref(s[0], s[1], s[2], bpc), lab_ref(s[3], s[4], s[5], bpc));
}


void vq_ciede_cpu_run_rows(const VqPlaneView ref[3], const VqPlaneView dis[3], const VqCiedeGeom *g,
                           int64_t *buf, int64_t *px, int row0, int row1)
{
    /* The reference's stage A of a sample triple is a function of the triple
     * alone: a pixel whose triple is the last one's (flat areas, chroma
     * shared by neighbours) reuses that Lab.  A pixel whose two triples are
     * equal has dE00 = +0 (docs/ciede.md section 12). */
    uint32_t last[2][3] = { { ~0u, ~0u, ~0u }, { ~0u, ~0u, ~0u } };
    VqCiedeLab lab[2];
    for (int i = row0; i < row1; i++) {
        VqCiedeRowAcc acc;
        vq_ciede_acc_zero(&acc);
        for (int j = 0; j < g->w; j++) {
            uint32_t s[6];
            vq_ciede_fetch(ref, dis, g, i, j, s);
            float v = 0.0f;
            if (!vq_ciede_same_samples(s)) {
                for (int k = 0; k < 2; k++) {
                    const uint32_t *t = s + 3 * k;
                    if (t[0] != last[k][0] || t[1] != last[k][1] || t[2] != last[k][2]) {
                        lab[k] = lab_ref(t[0], t[1], t[2], g->bpc);
                        last[k][0] = t[0];
                        last[k][1] = t[1];
                        last[k][2] = t[2];
                    }
                }
                v = de00_ref(lab[0], lab[1]);
            }
            const uint64_t word = vq_ciede_exact_word(vq_f32_bits(v));
            px[(size_t)i * g->w + j] = (int64_t)word;
            vq_ciede_acc_word(&acc, word);
        }
        vq_ciede_acc_store(&acc, buf + VQ_CIEDE_ROW_OFF + (size_t)VQ_CIEDE_ROW_WORDS * i);
    }
}

void vq_ciede_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3], const VqCiedeGeom *g,
                      int64_t *buf, int64_t *px)
{
    memset(buf, 0, sizeof(int64_t) * VQ_CIEDE_ROW_OFF);
    vq_ciede_cpu_run_rows(ref, dis, g, buf, px, 0, g->h);
}

void vq_ciede_dev_cpu_run(const VqPlaneView ref[3], const VqPlaneView dis[3], const VqCiedeGeom *g,
                          int64_t *buf, int64_t *extra, int64_t *px)
{
    int64_t n = 0;
    for (int i = 0; i < g->h; i++) {
        VqCiedeRowAcc acc;
        vq_ciede_acc_zero(&acc);
        for (int j = 0; j < g->w; j++) {
            uint32_t s[6];
            const size_t k = (size_t)i * g->w + j;
            vq_ciede_fetch(ref, dis, g, i, j, s);
            uint64_t word = vq_ciede_dev_pixel(s, g->bpc);
            if ((uint32_t)(word >> 32) != VQ_CIEDE_TAG_EXACT) {
                /* listed (word 0) or two-candidate: a list entry */
                uint64_t e[2];
                if (word)
                    vq_ciede_two_entry(word, (uint32_t)k, e);
                else
                    vq_ciede_list_entry(s, (uint32_t)k, e);
                int64_t *dst = n < VQ_CIEDE_LIST_INLINE ? buf + 1 + 2 * n
                                                        : extra ? extra + 2 * (n - VQ_CIEDE_LIST_INLINE)
                                                                : nullptr;
                if (dst) {
                    dst[0] = (int64_t)e[0];
                    dst[1] = (int64_t)e[1];
                }
                if (!word)
                    word = ((uint64_t)VQ_CIEDE_TAG_LIST << 32) | (uint32_t)n;
                n++;
            }
            if (px)
                px[k] = (int64_t)word;
            vq_ciede_acc_word(&acc, word);
        }
        vq_ciede_acc_store(&acc, buf + VQ_CIEDE_ROW_OFF + (size_t)VQ_CIEDE_ROW_WORDS * i);
    }
    for (int64_t k = n; k < VQ_CIEDE_LIST_INLINE; k++)
        buf[1 + 2 * k] = buf[2 + 2 * k] = 0;
    buf[0] = n;
}

/* The module's table (kernels/module.h): g->host is the instance's
 * VqCiedeGeom; the scratch keeps the frame's pixel words for the fold.
 * Each row is a long item of its own (the slowest per pixel of all: libm
 * per pixel), first in its step. */
namespace {

struct CpuScratch {
    std::vector<int64_t> px;
    VqCiedeFoldData fd;
};

const VqCiedeGeom *geom_of(const VqModuleGeom *g)
{
    return static_cast<const VqCiedeGeom *>(g->host);
}

int module_alloc(void **scratch, const VqModuleGeom *g)
{
    CpuScratch *c = new (std::nothrow) CpuScratch;
    try {
        if (c)
            c->px.assign((size_t)g->w * g->h, 0);
    } catch (const std::bad_alloc &) {
        delete c;
        c = nullptr;
    }
    if (c) {
        c->fd = VqCiedeFoldData{};
        c->fd.src.px = c->px.data();
    }
    *scratch = c;
    return c ? 0 : -1;
}

void module_free(void *scratch)
{
    delete static_cast<CpuScratch *>(scratch);
}

int module_step_rows(const VqModuleGeom *g, int step)
{
    return step == 0 ? g->h : 0;
}

/* the section's head stays 0 (the executor clears the buffer): no list on the CPU */
void module_rows(void *scratch, const VqModuleGeom *g, const VqPlaneView ref[3], const VqPlaneView dis[3],
                 int64_t *section, int, int a, int b)
{
    vq_ciede_cpu_run_rows(ref, dis, geom_of(g), section, static_cast<CpuScratch *>(scratch)->px.data(), a, b);
}

const void *module_fold_data(void *scratch)
{
    return &static_cast<CpuScratch *>(scratch)->fd;
}

/* the slowest per pixel of all (libm per pixel) */
double module_cost(const VqModuleGeom *)
{
    return 290.0;
}

}  // namespace

extern "C" const VqModuleCpu vq_ciede_module_cpu = { module_alloc, module_free, 1, module_step_rows, module_rows,
                                                     1u, nullptr, module_cost, module_fold_data };
