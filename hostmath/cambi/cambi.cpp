/*
 * cambi.cpp - the cambi module (hostmath/module.hpp): libvmaf v3.2.0's cambi
 * extractor (feature/cambi.c) and its options.  Its row work
 * (kernels/cambi/) leaves each pass's words (the distorted luma's; with
 * full_ref the reference luma's too) and, with heatmaps_path, the distorted
 * pass's c-values (kernels/cambi/cambi_module.h); its fold
 * (hostmath/cambi/cambi_fold.h) makes the score, with full_ref
 * cambi_source and cambi_full_reference.  Under heatmaps_path the instance
 * keeps the heatmap files (hostmath/cambi/cambi_heatmaps.h): opened when its
 * state is made (before any frame), a scored frame's c-values written by its
 * fold in frame order, made final at a flush that ends a good run (commit);
 * a failed run leaves the named files as they were.  docs/cambi.md.
 */
#include <algorithm>
#include <memory>
#include <string>

#include <sys/stat.h>

#include "cambi/cambi_fold.h"
#include "cambi/cambi_heatmaps.h"
#include "cambi/cambi_module.h"
#include "module.hpp"
#include "vq_error.h"
#include "vqcuda.h"

extern "C" const VqModuleCpu vq_cambi_module_cpu;
#if VQ_HAVE_CUDA
extern "C" const VqModuleCuda vq_cambi_module_cuda;
#endif

namespace vq {

const Module &cambi_module();

namespace {

/* the reference's options from the parsed ones (the registry's defaults:
 * vq_cambi_default_options below reads them too) */
VqCambiOptions options_of(const FeatureOptions &o)
{
    VqCambiOptions c{};
    c.cambi_max_val = o.get("cambi_max_val");
    c.enc_width = (int)o.get("enc_width");
    c.enc_height = (int)o.get("enc_height");
    c.enc_bitdepth = (int)o.get("enc_bitdepth");
    c.src_width = (int)o.get("src_width");
    c.src_height = (int)o.get("src_height");
    c.window_size = (int)o.get("window_size");
    c.topk = o.get("topk");
    c.cambi_topk = o.get("cambi_topk");
    c.tvi_threshold = o.get("tvi_threshold");
    c.cambi_vis_lum_threshold = o.get("cambi_vis_lum_threshold");
    c.max_log_contrast = (int)o.get("max_log_contrast");
    c.full_ref = o.get("full_ref") != 0;
    c.eotf = o.get_str("eotf");
    c.cambi_eotf = o.get_str("cambi_eotf");
    c.cambi_high_res_speedup = (int)o.get("cambi_high_res_speedup");
    return c;
}

/* what the tables and the fold read: the passes' parameters and layouts
 * (a kernels/ type), and the tables they point to */
struct Host {
    VqCambiModuleHost h;
    VqCambiTables t[2];
};

std::string plan(const FeatureOptions &o, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                 std::shared_ptr<const void> &owner)
{
    const VqCambiOptions c = options_of(o);
    auto host = std::make_shared<Host>();
    VqCambiModuleHost &h = host->h;
    h = VqCambiModuleHost{};
    char msg[256] = "";
    if (vq_cambi_check(&c, fmt.width, fmt.height, fmt.bitdepth, msg, sizeof(msg)) < 0 ||
        vq_cambi_setup(&c, fmt.width, fmt.height, fmt.bitdepth, 0, &h.p[0], &host->t[0], msg, sizeof(msg)) < 0)
        return "cambi cannot score " + std::to_string(fmt.width) + "x" + std::to_string(fmt.height) + " " + std::to_string(fmt.bitdepth) +
               "-bit frames: " + msg;
    h.t[0] = &host->t[0];
    h.passes = 1;
    if (c.full_ref) {
        /* the source pass: the reference picture at src_width x src_height
         * (default: the input size), its own window */
        if (vq_cambi_setup(&c, fmt.width, fmt.height, fmt.bitdepth, 1, &h.p[1], &host->t[1], msg, sizeof(msg)) < 0)
            return "cambi full_ref cannot score " + std::to_string(fmt.width) + "x" + std::to_string(fmt.height) +
                   " " + std::to_string(fmt.bitdepth) + "-bit reference frames: " + msg;
        h.t[1] = &host->t[1];
        h.passes = 2;
    }
    /* heatmaps_path: the executors also hand over the distorted pass's
     * c-values; the kept state writes the files */
    h.cv = !o.is_default("heatmaps_path");
    vq_cambi_module_layout(&h);
    words = h.words;
    /* luma only: no chroma copy for it */
    for (int q = 1; q < 3; q++)
        g.plane_w[q] = g.plane_h[q] = 0;
    g.host = &host->h;
    g.fold_host = &host->h;
    owner = std::move(host);
    return "";
}

/* heatmaps_path: the files, from the title's first section on */
struct Heat {
    VqCambiHeatmaps *files = nullptr;
    int w = 0, h = 0;               /* the frame size the files have */
    int64_t first = 0;              /* the section's first frame in the title's numbering */
    Heat() = default;
    Heat(const Heat &) = delete;
    Heat &operator=(const Heat &) = delete;
    ~Heat() { vq_cambi_heatmaps_close(files); }    /* not committed: the temporary files go */
};

std::string keep(const FeatureOptions &o, const VqModuleGeom &g, const RunInfo &run,
                 const std::shared_ptr<void> &before, std::shared_ptr<void> &state)
{
    if (o.is_default("heatmaps_path"))
        return "";
    if (before) {
        /* a new section goes on writing the same files */
        Heat &b = *static_cast<Heat *>(before.get());
        if (b.w != g.w || b.h != g.h)
            return "cambi heatmaps_path: the frame size cannot change (" + std::to_string(b.w) + "x" +
                   std::to_string(b.h) + " to " + std::to_string(g.w) + "x" + std::to_string(g.h) +
                   "): the heatmap files have one size";
        b.first = run.first_frame;
        state = before;
        return "";
    }
    /* a piece writes its frames only, and its files replace the others'
     * pieces' at the end: the title's heatmaps would be the last piece's */
    std::string path = o.get_str("heatmaps_path");
    if (run.piece)
        return "cambi heatmaps_path " + path + " in a piece of a title (score_frames): the piece's files would "
               "replace those of the other pieces, leaving their frames empty; score the title in one run "
               "to write its heatmaps";
    /* a ladder's renditions would all write the same files: each its own
     * through %d (its number, as in log_path) */
    if (run.rendition > 0) {
        if (path.find("%d") == std::string::npos)
            return "cambi heatmaps_path " + path + ": every rendition of the ladder would write the same "
                   "files; put %d in the path (replaced by the rendition's number, as in log_path)";
        char buf[4096];
        if (vq_ladder_path(path.c_str(), run.rendition - 1, buf, sizeof(buf)) < 0)
            return "cambi heatmaps_path " + path + ": too long";
        path = buf;
    }
    /* created and checked now, before any frame */
    auto heat = std::make_shared<Heat>();
    const VqCambiModuleHost &h = *static_cast<const VqCambiModuleHost *>(g.fold_host);
    char m[1024] = "";
    const int r = vq_cambi_heatmaps_open(&heat->files, path.c_str(), &h.p[0], m, sizeof(m));
    if (r < 0)
        fail(r, "%s", m);   /* its own code (VQ_EIO: the path cannot be written) */
    /* two instances writing the same files (the same directory, however
     * named, and the same encode size): libvmaf would interleave both in
     * them; refused */
    struct stat st;
    if (run.claimed && stat(path.c_str(), &st) == 0) {
        const std::string key = std::to_string((unsigned long long)st.st_dev) + ":" +
                                std::to_string((unsigned long long)st.st_ino) + ":" + std::to_string(h.p[0].w) +
                                "x" + std::to_string(h.p[0].h);
        if (std::find(run.claimed->begin(), run.claimed->end(), key) != run.claimed->end())
            return "cambi heatmaps_path " + path + ": two cambi instances would write the same heatmap files (" +
                   std::to_string(h.p[0].w) + "x" + std::to_string(h.p[0].h) +
                   "); give each its own heatmaps_path";
        run.claimed->push_back(key);
    }
    heat->w = g.w;
    heat->h = g.h;
    heat->first = run.first_frame;
    state = std::move(heat);
    return "";
}

void fold(const VqModuleGeom &g, const int64_t *section, int64_t frame, void *state, double *out)
{
    const VqCambiModuleHost &h = *static_cast<const VqCambiModuleHost *>(g.fold_host);
    if (vq_cambi_fold_needs_cvalues(&h.p[0], &h.l[0], section))
        fail(VQ_EINVAL, "frame %lld: cambi's top-k sum needs the c-values in the reference's order, which the "
             "executors did not give", (long long)frame);
    out[0] = vq_cambi_fold(&h.p[0], &h.l[0], section, nullptr);
    if (h.passes > 1) {
        /* full_ref: cambi.c extract()'s cambi_source, then
         * cambi_full_reference from the two unclipped scores */
        if (vq_cambi_fold_needs_cvalues(&h.p[1], &h.l[1], section))
            fail(VQ_EINVAL, "frame %lld: cambi's source pass needs the c-values in the reference's order, "
                 "which the executors did not give", (long long)frame);
        const double dist = vq_cambi_fold_unclipped(&h.p[0], &h.l[0], section, nullptr);
        const double src = vq_cambi_fold_unclipped(&h.p[1], &h.l[1], section, nullptr);
        out[1] = src < h.p[1].max_val ? src : h.p[1].max_val;
        out[2] = vq_cambi_full_reference(dist, src, h.p[0].max_val);
    }
    if (state) {
        /* cambi.c dump_c_values: the distorted pass, the frame's index */
        Heat &heat = *static_cast<Heat *>(state);
        const float *cv[VQ_CAMBI_SCALES];
        for (int s = 0; s < VQ_CAMBI_SCALES; s++)
            cv[s] = (const float *)(section + h.cv_off[s]);
        char m[1024] = "";
        const int r = vq_cambi_heatmaps_write(heat.files, heat.first + frame, cv, m, sizeof(m));
        if (r < 0)
            fail(r, "frame %lld: %s", (long long)(heat.first + frame), m);
    }
}

/* the run ended well: the heatmaps replace the named files */
void commit(void *state)
{
    Heat &heat = *static_cast<Heat *>(state);
    char m[1024] = "";
    const int r = vq_cambi_heatmaps_commit(heat.files, m, sizeof(m));
    if (r < 0)
        fail(r, "%s", m);
}

constexpr OptType B = OptType::Bool, I = OptType::Int, D = OptType::Double, E = OptType::Enum,
                  S = OptType::String;
const char *const eotfs[] = { "bt1886", "pq", nullptr };

}  // namespace

/* cambi.c; full_ref adds the source pass's outputs, cambi_source and
 * cambi_full_reference (not in its provided_features: printed without
 * suffix); heatmaps_path: a string, no FEATURE_PARAM
 * (hostmath/cambi/cambi_heatmaps.h) */
const Module &cambi_module()
{
    static const Module m = {
        FeatureSpec{
            "cambi",
            {
                { "cambi_max_val", "cmxv", D, 1000.0, 0.0, 1000.0, true, true },
                { "enc_width", "encw", I, 0, 180, 7680, true, true },
                { "enc_height", "ench", I, 0, 150, 7680, true, true },
                { "enc_bitdepth", "encbd", I, 0, 6, 16, true, true },
                { "src_width", "srcw", I, 0, 320, 7680, true, true },
                { "src_height", "srch", I, 0, 200, 4320, true, true },
                { "window_size", "ws", I, 65, 15, 127, true, true },
                { "topk", nullptr, D, 0.6, 0.0001, 1.0, true, true },
                { "cambi_topk", "ctpk", D, 0.6, 0.0001, 1.0, true, true },
                { "tvi_threshold", "tvit", D, 0.019, 0.0001, 1.0, true, true },
                { "cambi_vis_lum_threshold", "vlt", D, 0.0, 0.0, 300.0, true, true },
                { "max_log_contrast", "mlc", I, 2, 0, 5, true, true },
                { "full_ref", nullptr, B, 0, 0, 1, false, true },
                { "eotf", nullptr, E, 0, 0, 1, true, true, eotfs },
                { "cambi_eotf", "ceot", E, 0, 0, 1, true, true, eotfs },
                { "cambi_high_res_speedup", "hrs", I, 0, 0, 2160, true, true },
                { "heatmaps_path", nullptr, S, 0, 0, 0, false, true },
            },
            { "Cambi_feature_cambi_score" }, { "Cambi_feature_cambi_score" }, {},
            { "cambi_source", "cambi_full_reference" }, "full_ref", true,
        },
        &vq_cambi_module_cpu,
#if VQ_HAVE_CUDA
        &vq_cambi_module_cuda,
#else
        nullptr,
#endif
        true,   /* its fold reads the section alone; under heatmaps_path it has state (the files, written
                 * in frame order), and such an instance folds on the caller's thread */
        false,  /* luma only */
        plan,
        fold,
        nullptr,    /* no share: each option set runs its own passes */
        nullptr,    /* outputs: the spec's, and under full_ref its debug outputs */
        keep,
        nullptr,    /* end */
        false,      /* not temporal */
        commit,
    };
    return m;
}

}  // namespace vq

/* cambi.c's defaults: the registry's (the module's spec), the one home of them */
extern "C" void vq_cambi_default_options(VqCambiOptions *o)
{
    *o = vq::options_of(vq::FeatureOptions(vq::cambi_module().spec));
}
