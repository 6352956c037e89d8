/* oracle harness (kept outside vqcuda): libvmaf v3.2.0's speed.c core and
 * vif_tools.c (C path) on raw planar clips; prints u v uv per frame (%.17g).
 * usage: harness REF DIS W H SSX SSY BPC NFRAMES KS PS PSM SNN NNF MXV WVM */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "speed_core.c"
#define MIN(x, y) (((x) < (y)) ? (x) : (y))
void *aligned_malloc(size_t size, size_t a) { void *p; return posix_memalign(&p, a, size) ? NULL : p; }
void aligned_free(void *p) { free(p); }
static void copy_plane(float *dst, size_t stride_bytes, const uint8_t *src, int cw, int w, int h, int bpc)
{
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            float *d = dst + i * (stride_bytes / sizeof(float)) + j;
            if (bpc == 8) *d = (float)src[i * cw + j] + -128;
            else { uint16_t v = ((const uint16_t *)src)[i * cw + j];
                   float sc = bpc == 10 ? 4.0f : bpc == 12 ? 16.0f : 256.0f;
                   *d = (float)v / sc + -128; }
        }
}
int main(int argc, char **argv)
{
    if (argc < 16) return 2;
    FILE *fr = fopen(argv[1], "rb"), *fd = fopen(argv[2], "rb");
    int W = atoi(argv[3]), H = atoi(argv[4]), ssx = atoi(argv[5]), ssy = atoi(argv[6]), bpc = atoi(argv[7]), nf = atoi(argv[8]);
    SpeedOptions o = { atof(argv[9]), atof(argv[10]), argv[11], atof(argv[12]), atof(argv[13]), atoi(argv[15]) };
    double mxv = atof(argv[14]);
    int B = bpc > 8 ? 2 : 1, cw = (W + ssx) >> ssx, ch = (H + ssy) >> ssy;
    size_t ys = (size_t)W * H * B, cs = (size_t)cw * ch * B, fs = ys + 2 * cs;
    int w = W >> ssx, h = H >> ssy;
    SpeedState s; memset(&s, 0, sizeof s);
    speed_init(&s, &o, w, h);
    size_t fsz = s.float_stride * s.dimensions.alloc_height;
    float *br = aligned_malloc(fsz, 32), *bd = aligned_malloc(fsz, 32);
    uint8_t *r = malloc(fs), *d = malloc(fs);
    for (int f = 0; f < nf; f++) {
        if (fread(r, 1, fs, fr) != fs || fread(d, 1, fs, fd) != fs) break;
        float sc[2]; int err[2];
        for (int p = 0; p < 2; p++) {
            memset(br, 0, fsz); memset(bd, 0, fsz);
            copy_plane(br, s.float_stride, r + ys + p * cs, cw, w, h, bpc);
            copy_plane(bd, s.float_stride, d + ys + p * cs, cw, w, h, bpc);
            err[p] = speed_extract_score(&s, &o, br, bd, &sc[p]);
        }
        float uv;
        if (err[0] && !err[1]) uv = sc[1]; else if (err[1] && !err[0]) uv = sc[0]; else uv = (sc[0] + sc[1]) / 2.0;
        printf("%.17g %.17g %.17g\n", MIN(sc[0], mxv), MIN(sc[1], mxv), MIN(uv, mxv));
    }
    return 0;
}
