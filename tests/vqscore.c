/*
 * vqscore - score raw planar YUV files with libvqcuda, without FFmpeg.
 * Used by the tests (library-level golden comparison, layouts FFmpeg's
 * software decoders never produce: nv12/p010/p016 in host memory) and by
 * hand.  Writes libvmaf's JSON log.
 *
 *   vqscore -r ref.yuv -d dis.yuv -s 1920x1080 -f yuv420p [-a nv12|p010|p016]
 *           [-D WxH (distorted size) [-S bicubic|bicubic_x86|none]]
 *           [-e cpu|cuda] [-m MODEL] [-F FEATURES] [-p 0|1] [-n frames] [-t threads] -o out.json
 *   vqscore --simd      prints the CPU executor's row loops (plain, sse2, avx2, avx512)
 * MODEL and FEATURES in libvmaf's filter syntax (model=, feature=); a -m
 * that names a .json file is path=FILE.  -p 0: no psnr unless FEATURES has it
 * (the filter's psnr=0; default 1).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vqcuda.h"

static int parse_pixfmt(const char *s, int *bpc, int *sw, int *sh, int *gray)
{
    *gray = 0;
    if (!strncmp(s, "yuv420p", 7)) { *sw = 1; *sh = 1; }
    else if (!strncmp(s, "yuv422p", 7)) { *sw = 1; *sh = 0; }
    else if (!strncmp(s, "yuv444p", 7)) { *sw = 0; *sh = 0; }
    else if (!strncmp(s, "gray", 4)) { *sw = *sh = 0; *gray = 1; }
    else return -1;
    const char *d = s + (*gray ? 4 : 7);
    *bpc = *d ? atoi(d) : 8;
    return (*bpc >= 8 && *bpc <= 16) ? 0 : -1;
}

typedef struct Pic {
    uint8_t *buf[3];
    ptrdiff_t ls[3];
} Pic;

int main(int argc, char **argv)
{
    const char *ref_path = NULL, *dis_path = NULL, *out = NULL, *model = NULL;
    const char *pixfmt = "yuv420p", *as = NULL, *exec = "cpu", *features = NULL;
    char model_buf[4096];
    int w = 0, h = 0, dw = 0, dh = 0, scaler = VQ_SCALER_BICUBIC, nmax = -1, threads = 1, subsample = 1, opt;
    int psnr = 1;
    if (argc == 2 && !strcmp(argv[1], "--simd")) {   /* the CPU executor's row loops */
        puts(vqcuda_cpu_simd());
        return 0;
    }
    while ((opt = getopt(argc, argv, "r:d:s:D:S:f:a:e:m:F:p:n:o:t:u:")) != -1) {
        switch (opt) {
        case 'r': ref_path = optarg; break;
        case 'd': dis_path = optarg; break;
        case 's': if (sscanf(optarg, "%dx%d", &w, &h) != 2) return 2; break;
        case 'D': if (sscanf(optarg, "%dx%d", &dw, &dh) != 2) return 2; break;
        case 'S': scaler = !strcmp(optarg, "bicubic_x86") ? VQ_SCALER_BICUBIC_X86 :
                           !strcmp(optarg, "none") ? VQ_SCALER_NONE : VQ_SCALER_BICUBIC; break;
        case 'f': pixfmt = optarg; break;
        case 'a': as = optarg; break;
        case 'e': exec = optarg; break;
        case 'm': model = optarg; break;
        case 'F': features = optarg; break;
        case 'p': psnr = atoi(optarg); break;
        case 'n': nmax = atoi(optarg); break;
        case 'o': out = optarg; break;
        case 't': threads = atoi(optarg); break;
        case 'u': subsample = atoi(optarg); break;
        default:
            fprintf(stderr, "usage: vqscore -r ref.yuv -d dis.yuv -s WxH -f pixfmt [-a nv12|p010|p016] "
                            "[-e cpu|cuda] [-m model] [-F features] [-p 0|1] [-n frames] [-t threads] [-u n_subsample] -o out.json\n");
            return 2;
        }
    }
    int bpc, sw, sh, gray;
    if (!ref_path || !dis_path || !w || !h || parse_pixfmt(pixfmt, &bpc, &sw, &sh, &gray) < 0) {
        fprintf(stderr, "vqscore: missing or bad arguments\n");
        return 2;
    }
    int bytes = bpc > 8 ? 2 : 1;
    int cw = (w + sw) >> sw, ch = (h + sh) >> sh;
    size_t ysz = (size_t)w * h * bytes, csz = gray ? 0 : (size_t)cw * ch * bytes;
    size_t fsz = ysz + 2 * csz;
    if (!dw) { dw = w; dh = h; }
    int dcw = (dw + sw) >> sw, dch = (dh + sh) >> sh;
    size_t dysz = (size_t)dw * dh * bytes, dcsz = gray ? 0 : (size_t)dcw * dch * bytes;
    size_t dfsz = dysz + 2 * dcsz;
    int semi = as != NULL, shift = 0;
    if (semi) {
        if (gray || sw != 1) { fprintf(stderr, "vqscore: -a needs a 4:2:x input\n"); return 2; }
        if (!strcmp(as, "p010")) shift = 16 - bpc;
        else if (!strcmp(as, "p016")) shift = 16 - bpc;
        else if (strcmp(as, "nv12")) { fprintf(stderr, "vqscore: -a nv12|p010|p016\n"); return 2; }
        if ((bytes == 1) != !strcmp(as, "nv12")) { fprintf(stderr, "vqscore: -a does not fit the depth\n"); return 2; }
    }

    VqConfig cfg;
    vq_config_default(&cfg);
    cfg.format.width = w;
    cfg.format.height = h;
    cfg.format.bitdepth = bpc;
    cfg.format.bytes_per_sample = bytes;
    cfg.format.msb_aligned = shift != 0;
    cfg.format.chroma_shift_w = sw;
    cfg.format.chroma_shift_h = sh;
    cfg.format.layout = gray ? VQ_LAYOUT_GRAY : semi ? VQ_LAYOUT_SEMIPLANAR : VQ_LAYOUT_PLANAR;
    cfg.executor = !strcmp(exec, "cuda") ? VQ_EXECUTOR_CUDA : VQ_EXECUTOR_CPU;
    if (model && strlen(model) > 5 && !strcmp(model + strlen(model) - 5, ".json") && !strchr(model, '=')) {
        snprintf(model_buf, sizeof(model_buf), "path=%s", model);
        model = model_buf;
    }
    cfg.model = model;
    cfg.feature = features;
    cfg.enable_psnr = psnr;
    cfg.dis_width = dw;
    cfg.dis_height = dh;
    cfg.scaler = scaler;
    cfg.threads = threads;
    cfg.n_subsample = subsample;

    char err[512];
    VqSession *s;
    int ret = vq_session_open(&s, &cfg, err, sizeof(err));
    if (ret < 0) {
        fprintf(stderr, "vqscore: %s\n", err);
        return 1;
    }
    FILE *fr = fopen(ref_path, "rb"), *fd = fopen(dis_path, "rb");
    if (!fr || !fd) {
        fprintf(stderr, "vqscore: cannot open input\n");
        return 1;
    }
    /* [0] reference, [1] distorted (which may be smaller) */
    const int PW[2] = { w, dw }, PH[2] = { h, dh }, PCW[2] = { cw, dcw }, PCH[2] = { ch, dch };
    const size_t PY[2] = { ysz, dysz }, PC[2] = { csz, dcsz };
    uint8_t *raw[2] = { malloc(fsz), malloc(dfsz) };
    Pic pic[2];
    for (int k = 0; k < 2; k++) {
        /* pitch wider than the row, to catch pitch/width mix-ups */
        const int w = PW[k], h = PH[k], cw = PCW[k], ch = PCH[k];
        pic[k].ls[0] = (ptrdiff_t)w * bytes + 64;
        pic[k].buf[0] = malloc(pic[k].ls[0] * h);
        pic[k].ls[1] = semi ? (ptrdiff_t)cw * 2 * bytes + 64 : (ptrdiff_t)cw * bytes + 32;
        pic[k].ls[2] = pic[k].ls[1];
        pic[k].buf[1] = malloc(pic[k].ls[1] * ch + 1);
        pic[k].buf[2] = semi ? NULL : malloc(pic[k].ls[2] * ch + 1);
    }
    int64_t n = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while ((nmax < 0 || n < nmax) && fread(raw[0], 1, fsz, fr) == fsz && fread(raw[1], 1, dfsz, fd) == dfsz) {
        VqPicture vp[2];
        for (int k = 0; k < 2; k++) {
            Pic *p = &pic[k];
            const int w = PW[k], h = PH[k], cw = PCW[k], ch = PCH[k];
            const size_t ysz = PY[k], csz = PC[k];
            for (int i = 0; i < h; i++) {
                uint8_t *dst = p->buf[0] + i * p->ls[0];
                memcpy(dst, raw[k] + (size_t)i * w * bytes, (size_t)w * bytes);
                if (shift)
                    for (int j = 0; j < w; j++)
                        ((uint16_t *)dst)[j] <<= shift;
            }
            for (int c = 0; c < 2 && !gray; c++) {
                const uint8_t *src = raw[k] + ysz + c * csz;
                for (int i = 0; i < ch; i++) {
                    if (!semi) {
                        memcpy(p->buf[1 + c] + i * p->ls[1 + c], src + (size_t)i * cw * bytes, (size_t)cw * bytes);
                        continue;
                    }
                    for (int j = 0; j < cw; j++) {
                        if (bytes == 1)
                            p->buf[1][i * p->ls[1] + 2 * j + c] = src[(size_t)i * cw + j];
                        else
                            ((uint16_t *)(p->buf[1] + i * p->ls[1]))[2 * j + c] =
                                (uint16_t)(((const uint16_t *)src)[(size_t)i * cw + j] << shift);
                    }
                }
            }
            memset(&vp[k], 0, sizeof(vp[k]));
            for (int c = 0; c < 3; c++) {
                vp[k].data[c] = p->buf[c];
                vp[k].linesize[c] = p->ls[c];
            }
        }
        if ((ret = vq_session_submit(s, &vp[0], &vp[1])) < 0) {
            fprintf(stderr, "vqscore: %s\n", vq_session_error(s));
            return 1;
        }
        VqFrameResult r;
        while (vq_session_receive(s, &r) == VQ_OK)
            ;
        n++;
    }
    if ((ret = vq_session_flush(s)) < 0) {
        fprintf(stderr, "vqscore: %s\n", vq_session_error(s));
        return 1;
    }
    VqFrameResult r;
    while (vq_session_receive(s, &r) == VQ_OK)
        ;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    double vmaf = 0;
    if (n && vq_session_pooled(s, "vmaf", VQ_POOL_MEAN, &vmaf) == 0)
        fprintf(stderr, "vqscore: %lld frames, %s executor, %.2f fps, VMAF %f\n", (long long)n,
                vq_session_executor_name(s), n / secs, vmaf);
    if (out && vq_session_write_log(s, out, VQ_LOG_JSON) < 0) {
        fprintf(stderr, "vqscore: %s\n", vq_session_error(s));
        return 1;
    }
    vq_session_close(&s);
    for (int k = 0; k < 2; k++) {
        free(raw[k]);
        for (int c = 0; c < 3; c++)
            free(pic[k].buf[c]);
    }
    fclose(fr);
    fclose(fd);
    return 0;
}
