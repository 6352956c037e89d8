/*
 * psnr.cpp - the psnr module (hostmath/module.hpp): libvmaf v3.2.0's psnr
 * extractor (feature/integer_psnr.c) and its options.  Its row work
 * (kernels/psnr/) leaves each row's exact sum of squared errors, plane 0's
 * rows then, with chroma, plane 1's and plane 2's; its fold
 * (hostmath/psnr/psnr_fold.h) makes psnr_* (and mse_* under enable_mse); under
 * enable_apsnr the instance keeps the SSE and pixel counts of every frame
 * scored, across sections, for apsnr_y/cb/cr at the end.  docs/psnr.md.
 */
#include <cfloat>
#include <memory>

#include "module.hpp"
#include "psnr/psnr_exec.h"
#include "psnr_fold.h"

extern "C" const VqModuleCpu vq_psnr_module_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_psnr_module_cuda;
#endif

namespace vq {
namespace {

/* the planes an instance scores: luma alone on gray frames or without enable_chroma */
int planes_of(const FeatureOptions &o, const VqFormat &fmt)
{
    return fmt.layout == VQ_LAYOUT_GRAY || !o.get("enable_chroma") ? 1 : 3;
}

/* what the fold reads besides the section: init()'s peak and psnr_max, the options */
struct FoldHost {
    VqPsnrParams pp;
    bool mse, apsnr;
};

/* enable_apsnr: flush()'s sums, over every frame scored in the title */
struct Kept {
    VqPsnrParams pp;
    uint64_t sse[3] = { 0, 0, 0 }, n_pixels[3] = { 0, 0, 0 };
};

std::string plan(const FeatureOptions &o, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                 std::shared_ptr<const void> &owner)
{
    const int np = planes_of(o, fmt);
    g.opt[VQ_PSNR_OPT_NPLANES] = np;
    for (int q = np; q < 3; q++)    /* planes it does not read (no chroma copy for it) */
        g.plane_w[q] = g.plane_h[q] = 0;
    VqPsnrLayout l;
    vq_psnr_module_layout(&g, &l);
    words = l.total;
    auto h = std::make_shared<FoldHost>();
    vq_psnr_params_init(&h->pp, fmt.bitdepth, o.get("reduced_hbd_peak") != 0, o.get("min_sse"), &l, np);
    h->mse = o.get("enable_mse") != 0;
    h->apsnr = o.get("enable_apsnr") != 0;
    g.fold_host = h.get();
    owner = std::move(h);
    return "";
}

/* integer_psnr.c: per plane psnr_*, then mse_* under enable_mse */
std::vector<const char *> outputs(const FeatureOptions &o, const VqFormat &fmt)
{
    static const char *const psnr_names[3] = { "psnr_y", "psnr_cb", "psnr_cr" };
    static const char *const mse_names[3] = { "mse_y", "mse_cb", "mse_cr" };
    std::vector<const char *> out;
    for (int p = 0; p < planes_of(o, fmt); p++) {
        out.push_back(psnr_names[p]);
        if (o.get("enable_mse"))
            out.push_back(mse_names[p]);
    }
    return out;
}

std::string keep(const FeatureOptions &o, const VqModuleGeom &g, const RunInfo &run,
                 const std::shared_ptr<void> &before, std::shared_ptr<void> &state)
{
    if (!o.get("enable_apsnr"))
        return "";
    /* libvmaf's psnr runs on every frame, n_subsample or not (it is a
     * temporal extractor), and apsnr sums them all; the executors give
     * psnr's rows for the frames scored only */
    if (run.n_subsample > 1)
        return "psnr: enable_apsnr with n_subsample=" + std::to_string(run.n_subsample) +
               " is not supported: libvmaf sums the SSE of every frame, and vqcuda computes psnr on the "
               "scored frames only";
    if (run.piece)
        return "psnr: enable_apsnr in a piece of a title (score_frames) is not supported: apsnr sums the SSE "
               "of the whole title";
    auto k = std::make_shared<Kept>();
    k->pp = static_cast<const FoldHost *>(g.fold_host)->pp;
    /* a new section goes on with the sums of the one before */
    if (before) {
        const Kept &b = *static_cast<const Kept *>(before.get());
        if (b.pp.peak != k->pp.peak)
            return "psnr: enable_apsnr cannot go on across a change of bit depth (" + std::to_string(b.pp.bpc) +
                   " to " + std::to_string(k->pp.bpc) + " bits): apsnr has one peak value";
        for (int i = 0; i < 3; i++) {
            k->sse[i] = b.sse[i];
            k->n_pixels[i] = b.n_pixels[i];
        }
    }
    state = std::move(k);
    return "";
}

void fold(const VqModuleGeom &g, const int64_t *section, int64_t, void *state, double *out)
{
    const FoldHost &h = *static_cast<const FoldHost *>(g.fold_host);
    const int np = (int)g.opt[VQ_PSNR_OPT_NPLANES];
    VqPsnrLayout l;
    vq_psnr_module_layout(&g, &l);
    double p[3], m[3];
    uint64_t sse[3];
    vq_psnr_fold_params(&h.pp, &l, section, np, p, m, sse);
    int j = 0;
    for (int k = 0; k < np; k++) {
        out[j++] = p[k];
        if (h.mse)
            out[j++] = m[k];
    }
    if (h.apsnr) {
        Kept &kept = *static_cast<Kept *>(state);
        for (int k = 0; k < np; k++) {
            const unsigned w = (unsigned)(k ? l.cw : l.w);
            const unsigned hh = (unsigned)(k ? l.ch : l.h);
            kept.sse[k] += sse[k];
            kept.n_pixels[k] += hh * w;     /* ref_pic->h[p] * ref_pic->w[p]: unsigned */
        }
    }
}

/* flush(): apsnr_y/cb/cr under enable_apsnr, all three planes whatever
 * enable_chroma (a plane never summed gives -inf, as there) */
void end(const void *state, std::vector<std::pair<std::string, double>> &out)
{
    static const char *const apsnr_name[3] = { "apsnr_y", "apsnr_cb", "apsnr_cr" };
    const Kept &k = *static_cast<const Kept *>(state);
    for (int i = 0; i < 3; i++)
        out.emplace_back(apsnr_name[i], vq_apsnr(k.pp.peak, k.sse[i], k.n_pixels[i]));
}

constexpr OptType B = OptType::Bool, D = OptType::Double;

}  // namespace

const Module &psnr_module()
{
    static const Module m = {
        FeatureSpec{
            "psnr",
            {
                { "enable_chroma", nullptr, B, 1, 0, 1, false, true },
                { "enable_mse", nullptr, B, 0, 0, 1, false, true },
                { "enable_apsnr", nullptr, B, 0, 0, 1, false, true },
                { "reduced_hbd_peak", nullptr, B, 0, 0, 1, false, true },
                { "min_sse", nullptr, D, 0.0, 0.0, DBL_MAX, false, true },
            },
            { "psnr_y", "psnr_cb", "psnr_cr" },
            { "psnr_y", "psnr_cb", "psnr_cr" },
            {},
        },
        &vq_psnr_module_cpu,
#if VQ_HAVE_CUDA
        &vq_psnr_module_cuda,
#else
        nullptr,
#endif
        false,  /* under enable_apsnr the fold adds to the kept sums: on the caller's thread */
        true,   /* the chroma planes, with enable_chroma (the plan clears the others' sizes) */
        plan,
        fold,
        nullptr,    /* no share: a second psnr instance would repeat its names */
        outputs,
        keep,
        end,
    };
    return m;
}

}  // namespace vq
