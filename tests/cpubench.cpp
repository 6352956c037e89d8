/*
 * cpubench - time the CPU executor's features on one frame pair of a raw
 * yuv420p file (per frame, median of N runs), single-threaded:
 *     cpubench ref.yuv dis.yuv W H [bpc] [runs]
 * VQ_CPU_SIMD=0 times the plain loops.
 */
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include "adm/adm_exec.h"
#include "adm/adm_params.h"
#include "motion/motion_exec.h"
#include "psnr/psnr_exec.h"
#include "vif/vif_exec.h"
#include "vif/vif_fold.h"

static double median_ms(int runs, const std::function<void()> &fn)
{
    std::vector<double> t;
    for (int k = 0; k < runs; k++) {
        auto a = std::chrono::steady_clock::now();
        fn();
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        std::fprintf(stderr, "usage: cpubench ref.yuv dis.yuv W H [bpc] [runs]\n");
        return 2;
    }
    const int w = std::atoi(argv[3]), h = std::atoi(argv[4]);
    const int bpc = argc > 5 ? std::atoi(argv[5]) : 8, runs = argc > 6 ? std::atoi(argv[6]) : 5;
    const int bytes = bpc > 8 ? 2 : 1;
    const size_t ysize = (size_t)w * h * bytes, csize = (size_t)(w / 2) * (h / 2) * bytes;
    std::vector<uint8_t> ref(2 * (ysize + 2 * csize)), dis(ref.size());
    FILE *fr = std::fopen(argv[1], "rb"), *fd = std::fopen(argv[2], "rb");
    if (!fr || !fd || std::fread(ref.data(), 1, ref.size(), fr) != ref.size() ||
        std::fread(dis.data(), 1, dis.size(), fd) != dis.size()) {
        std::fprintf(stderr, "cpubench: cannot read two frames\n");
        return 1;
    }
    auto view = [&](const std::vector<uint8_t> &b, int frame, int p) {
        VqPlaneView v;
        size_t off = frame * (ysize + 2 * csize) + (p ? ysize + (p - 1) * csize : 0);
        v.data = b.data() + off;
        v.w = p ? w / 2 : w;
        v.h = p ? h / 2 : h;
        v.pitch = (ptrdiff_t)v.w * bytes;
        v.bytes = bytes;
        v.shift = 0;
        v.step = 1;
        return v;
    };
    VqPlaneView r[3], d[3];
    for (int p = 0; p < 3; p++) {
        r[p] = view(ref, 1, p);
        d[p] = view(dis, 1, p);
    }
    VqRowLayout l;
    vq_row_layout_init(&l, w, h, w / 2, h / 2);
    VqPsnrLayout pl;
    vq_psnr_layout_init(&pl, w, h, w / 2, h / 2);
    std::vector<int64_t> rows(l.total), psnr_rows(pl.total);
    std::vector<uint16_t> table(65536);
    vq_vif_log2_table(table.data());
    VqVifCpu *vif = vq_vif_cpu_alloc(w, h);
    VqAdmParams ap;
    vq_adm_params_init(&ap, w, h, bpc, NULL);
    VqAdmCpu *adm = vq_adm_cpu_alloc(w, h);
    VqMotionCpu *mo = vq_motion_cpu_alloc(w, h, VQ_MOTION_LAG1);
    std::vector<int64_t> motion_rows(VQ_MOTION_WORDS(h));
    vq_motion_cpu_run(mo, view(ref, 0, 0), bpc, motion_rows.data());

    double tot = 0, t;
    for (int s = 0; s < 4; s++) {
        if (s) {
            t = median_ms(runs, [&] { vq_vif_cpu_subsample_rows(vif, r[0], d[0], bpc, s, 0, l.vif_h[s]); });
            std::printf("vif subsample %d  %8.2f ms\n", s, t);
            tot += t;
        }
        t = median_ms(runs, [&] {
            vq_vif_cpu_statistic_rows(vif, r[0], d[0], bpc, 100.0, table.data(), &l, s, 0, l.vif_h[s], rows.data());
        });
        std::printf("vif statistic %d  %8.2f ms\n", s, t);
        tot += t;
    }
    std::printf("vif total        %8.2f ms\n", tot);
    t = median_ms(runs, [&] { vq_adm_cpu_run(adm, r[0], d[0], bpc, &ap, &l, rows.data()); });
    std::printf("adm              %8.2f ms\n", t);
    tot += t;
    t = median_ms(runs, [&] { vq_motion_cpu_run(mo, r[0], bpc, motion_rows.data()); });
    std::printf("motion           %8.2f ms\n", t);
    tot += t;
    t = median_ms(runs, [&] { vq_psnr_cpu_run(r, d, 3, bpc, &pl, psnr_rows.data()); });
    std::printf("psnr             %8.2f ms\n", t);
    tot += t;
    std::printf("all              %8.2f ms\n", tot);
    vq_vif_cpu_free(vif);
    vq_adm_cpu_free(adm);
    vq_motion_cpu_free(mo);
    return 0;
}
