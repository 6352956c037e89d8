/*
 * parity.h - what the parity driver (tests/parity/main.cu, program
 * `vqparity`) hands each family of checks (tests/parity/<family>.cu), in the
 * manner of dav1d's checkasm: one program, one table of families, one seed.
 *
 * Each family file keeps its helpers in a namespace of its own and exposes
 * one entry, int parity_<family>(const ParityArgs &), registered in the
 * driver's table. The entry seeds parity_common.cuh's generator (one per
 * translation unit, so one per family) from the args, prints its seed, runs
 * its checks (or its bench) and returns 0 when everything was equal,
 * non-zero on a difference. The driver has already checked for a CUDA
 * device.
 */
#ifndef VQ_PARITY_H
#define VQ_PARITY_H

#include <stdint.h>

struct ParityArgs {
    uint64_t seed;        /* --seed N, else the driver's time(NULL) */
    bool seed_given;      /* --seed was given: the families with a fixed default seed take it too */
    int sizes;            /* --sizes N (the random size or case count); -1: each family's default */
    bool bench;           /* --bench: the family's bench instead of (float_adm: after) its checks */
    bool bench_sessions;  /* --bench-sessions (vmaf): the sessions' benches alone */
    bool profile;         /* --profile (vmaf): one 1080p pair's launches, for ncu */
    const char *frame;    /* --frame PATH WxH (cambi's bench): an 8-bit 4:2:0 raw frame */
    int frame_w, frame_h;
    bool frame_only;      /* --frame-only (cambi's bench): that frame's benches alone */
    const char *pair[2];  /* --pair REF DIST WxH (ciede's bench): 8-bit 4:2:0 raw files, their first frames */
    int pair_w, pair_h;
};

/* the families (tests/parity/<family>.cu) */
int parity_vmaf(const ParityArgs &args);
int parity_scale(const ParityArgs &args);
int parity_psnr_hvs(const ParityArgs &args);
int parity_ssim(const ParityArgs &args);
int parity_ciede(const ParityArgs &args);
int parity_cambi(const ParityArgs &args);
int parity_float_small(const ParityArgs &args);
int parity_float_vif(const ParityArgs &args);
int parity_float_adm(const ParityArgs &args);
int parity_speed(const ParityArgs &args);

#endif /* VQ_PARITY_H */
