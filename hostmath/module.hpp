/*
 * module.hpp - a metric module as the engine sees it (docs/adding-a-metric.md):
 * what libvmaf's extractor is (name, options, outputs: a FeatureSpec), its row
 * work for the executors (kernels/module.h: the CPU and CUDA tables, in
 * kernels/<metric>/), how an instance is set up for a format (plan: its
 * settings and section size, or why the reference would not score it), and
 * its fold (section -> the frame's outputs, on the host).  hostmath/modules.cpp
 * names every module; nothing else in the engine names one.
 */
#ifndef VQ_MODULE_HPP
#define VQ_MODULE_HPP

#include <cstddef>
#include <climits>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "vqcuda.h"
#include "module.h"
#include "registry.hpp"

namespace vq {

/* What a module's keep hook may need of the session's run. */
struct RunInfo {
    int n_subsample;        /* every n-th frame scored (1: every frame) */
    bool piece;             /* a piece of a title (score_frames) */
    /* the section's first frame in the title's numbering (libvmaf's frame
     * index: first_frame of a piece counted in); the fold's frame adds to it */
    int64_t first_frame = 0;
    /* a ladder's rendition, from 1 (VqConfig.stream_rendition); 0: a single pair */
    int rendition = 0;
    /* the files this session's instances write outside the session (a key
     * per file set: keep claims its own and refuses one already claimed);
     * nullptr: no check */
    std::vector<std::string> *claimed = nullptr;
};

/* A value a frame gets after its own fold (LateOutputs): frame, within its
 * section (0: the first); the output: the instance's k-th per-frame output
 * (Instance.outputs), or under flush its k-th flush output. */
struct LateValue {
    int64_t frame;
    bool flush;
    int k;
    double value;
};

/* Late outputs (FeatureSpec.late; a module sets it in its spec): values a
 * frame gets from later frames' folds or at the title's end (float_motion's
 * motion2/motion3 of frame i: with frame i+1's score, the last frame's at
 * flush), per-frame outputs or flush outputs.  The state is the instance's
 * kept state (Module::keep), which its fold feeds; the session holds a
 * frame's results (models, pools, the caller's) back until every instance
 * made the frame's values final. */
struct LateOutputs {
    /* the flush outputs' collector names for these options (nullptr: the
     * spec's flush_outputs) */
    std::vector<const char *> (*flush_outputs)(const FeatureOptions &o);
    /* libvmaf first appends them with frame 1 (float_motion's motion3):
     * their columns come before those of the extractors that append theirs
     * at flush */
    bool with_frame1;
    /* after each frame's folds, on the caller's thread, in frame order: the
     * values made final since the last call, appended to out; returns how
     * many of the section's frames have all their values final */
    int64_t (*take)(void *state, std::vector<LateValue> &out);
    /* the values still to come, as at the end of the title, appended to
     * out; the state does not change (the session goes on after a log
     * written mid-way) */
    void (*rest)(const void *state, std::vector<LateValue> &out);
};

struct Module {
    FeatureSpec spec;               /* its module is set by the registry */
    const VqModuleCpu *cpu;
    const VqModuleCuda *cuda;       /* nullptr: CPU executor only (the CUDA executor refuses it) */
    /* its fold reads only the plan and the frame's section: it may run on a
     * fold worker, several frames at once */
    bool deferrable;
    bool chroma;                    /* its row work reads the chroma planes */
    /* The instance for this format: g's settings (geometry is filled
     * already), the section's words and, where it needs them, host memory
     * of its own (tables, set-up) handed over in `owner`, with g.host and
     * g.fold_host pointing into it; "" or why the reference would not score
     * such frames (the session refuses them with it). */
    std::string (*plan)(const FeatureOptions &o, const VqFormat &fmt, VqModuleGeom &g, size_t &words,
                        std::shared_ptr<const void> &owner);
    /* The frame's outputs (the instance's, in order) from its section; frame
     * is the frame's index within its section of the title (0: the first);
     * state: the instance's kept state (keep below), nullptr without. */
    void (*fold)(const VqModuleGeom &g, const int64_t *section, int64_t frame, void *state, double *out);
    /* Optional (nullptr: every instance runs its own row work): whether b's
     * row work can be had from into's, into widened in place where it must
     * (the settings in opt[] only: host memory is read-only); the plan then
     * runs it once, and each instance folds the one section with its own
     * g.fold_host.  Tried on the instances of every module with the same
     * CPU table (two modules may share a row work). */
    bool (*share)(VqModuleGeom &into, const VqModuleGeom &b) = nullptr;
    /* Optional (nullptr: the spec's outputs, then its debug outputs under
     * its debug option): an instance's per-frame outputs for these options
     * and this format, in libvmaf's append order (psnr: its planes', with
     * mse_* after each psnr_* under enable_mse). */
    std::vector<const char *> (*outputs)(const FeatureOptions &o, const VqFormat &fmt) = nullptr;
    /* Optional (nullptr: the fold keeps nothing): what an instance keeps
     * from frame to frame and across the title's sections (psnr's apsnr
     * sums), made at each section's plan from the same instance's state of
     * the section before (nullptr at the first); "" or why the session
     * cannot score with it (the session refuses it).  An instance with
     * state (keep made one) folds on the caller's thread, in frame order,
     * whatever deferrable says (cambi: only under heatmaps_path). */
    std::string (*keep)(const FeatureOptions &o, const VqModuleGeom &g, const RunInfo &run,
                        const std::shared_ptr<void> &before, std::shared_ptr<void> &state) = nullptr;
    /* Optional (nullptr: none): what the extractor sets at flush (the log's
     * aggregate metrics), from the state kept so far: (name, value) pairs
     * appended to out (the session keeps the first of a name). */
    void (*end)(const void *state, std::vector<std::pair<std::string, double>> &out) = nullptr;
    /* libvmaf's temporal extractor (float_motion): its row work and its fold
     * run on every frame, scored or not (n_subsample, a piece's frames
     * before its range), the fold on the caller's thread (not deferrable) */
    bool temporal = false;
    /* Optional (nullptr: none): at the session's flush, after the last
     * fold, when no call of the run failed: what the instance wrote
     * outside the session becomes final (cambi's heatmaps replace the named
     * files); a failure throws (vq::fail) and fails the flush.  A run that
     * failed never calls it: the state's destructor then undoes what was
     * written (the files stay as they were). */
    void (*commit)(void *state) = nullptr;
    /* its row work reads the reference's pictures alone (integer motion):
     * a ladder runs it once, in rendition 1, and the other renditions fold
     * rendition 1's section of the frame (their instance of the same table
     * and settings: share() takes it in as it is; hostmath/ladder.cpp) */
    bool ref_only = false;
    /* Optional (nullptr: 1): the frames before a piece's first scored frame
     * that its values there read (integer motion's motion2, its window and
     * moving average): a piece must start that early. */
    int (*context)(const FeatureOptions &o) = nullptr;
};

/* why's refusal of such frames: "why (frames WxH, N-bit)" */
inline std::string frame_refusal(const std::string &why, const VqFormat &fmt)
{
    return why + " (frames " + std::to_string(fmt.width) + "x" + std::to_string(fmt.height) + ", " +
           std::to_string(fmt.bitdepth) + "-bit)";
}

/* "" or the refusal for frames whose w * h overflows the reference's int
 * (psnr.c, moment.c, ansnr.c divide by or multiply with it) */
inline std::string int_area_refusal(const char *name, const VqFormat &fmt)
{
    if ((int64_t)fmt.width * fmt.height <= INT32_MAX)
        return "";
    return std::string(name) + ": " + std::to_string(fmt.width) + "x" + std::to_string(fmt.height) +
           " frames overflow libvmaf's int w * h";
}

/* every module, in a fixed order (hostmath/modules.cpp) */
const std::vector<const Module *> &modules();

}  // namespace vq

#endif /* VQ_MODULE_HPP */
