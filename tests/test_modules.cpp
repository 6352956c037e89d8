// The metric modules (hostmath/module.hpp, hostmath/modules.cpp): each
// describes itself to the registry, its tables are complete, the plan gives
// each instance its own section after the others, and the CPU executor runs
// it from its table alone (the values: every float_ansnr golden, e2e_* and
// lib_*, through the same tables).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>
#include <vector>
#include <string>

#include <dirent.h>
#include <sys/stat.h>

#include "cambi/cambi_fold.h"
#include "cambi/cambi_module.h"
#include "feature_plan.hpp"
#include "float_small_exec.h"
#include "float_motion/float_motion.h"
#include "module.hpp"
#include "motion/motion_fold.h"
#include "registry.hpp"
#include "vq_error.h"

TEST(Modules, EachDescribesItselfToTheRegistry)
{
    std::set<std::string> names;
    ASSERT_FALSE(vq::modules().empty());
    for (const vq::Module *m : vq::modules()) {
        ASSERT_NE(m, nullptr);
        const std::string name = m->spec.name;
        EXPECT_TRUE(names.insert(name).second) << name << " listed twice";
        const vq::FeatureSpec *s = vq::find_extractor(name);
        ASSERT_NE(s, nullptr) << name;
        EXPECT_EQ(s->module, m) << name;
        EXPECT_TRUE(!s->outputs.empty() || name == "null") << name;
        ASSERT_NE(m->cpu, nullptr) << name;
        EXPECT_GE(m->cpu->steps, name == "null" ? 0 : 1) << name;
        EXPECT_TRUE(m->cpu->alloc && m->cpu->free && m->cpu->step_rows && m->cpu->rows) << name;
#if VQ_HAVE_CUDA
        if (m->cuda) {
            EXPECT_TRUE(m->cuda->alloc && m->cuda->free && m->cuda->enqueue) << name;
        }
#endif
        EXPECT_TRUE(m->plan && m->fold) << name;
        // a fold that reads what the executor kept of the frame (valid until
        // its next frame) runs on the session's thread, and both executors
        // keep it
        const bool reads_exec = m->cpu->fold_data || (m->cuda && m->cuda->fold_data);
        EXPECT_TRUE(!reads_exec || !m->deferrable) << name;
        // a fold that adds to its kept state runs in frame order, on the
        // session's thread (an instance with state is never deferred:
        // test_session's FoldWorkersGiveTheCallersFolds); values at the end
        // come from that state
        EXPECT_TRUE(!m->end || !m->deferrable) << name;
        EXPECT_TRUE(!m->end || m->keep) << name;
        // late outputs come from the kept state, fed by folds in frame
        // order; a temporal module folds every frame on the session's thread
        if (m->spec.late) {
            EXPECT_TRUE(m->keep && m->spec.late->take && m->spec.late->rest) << name;
        }
        EXPECT_TRUE(!m->temporal || !m->deferrable) << name;
        if (m->cuda) {
            EXPECT_EQ(m->cpu->fold_data == nullptr, m->cuda->fold_data == nullptr) << name;
            // a phase that steps without the executor: it is told of replays
            EXPECT_EQ(m->cuda->phase == nullptr, m->cuda->replayed == nullptr) << name;
            EXPECT_TRUE(!m->cuda->collect || m->cuda->fold_data) << name;
            // a reference part (a ladder's, kernels/cuda_exec_ref.cuh): every hook of it or none
            const bool part = m->cuda->ref_alloc != nullptr;
            EXPECT_TRUE(part == (m->cuda->ref_free != nullptr) && part == (m->cuda->ref_enqueue != nullptr) &&
                        part == (m->cuda->enqueue_shared != nullptr))
                << name;
            // state kept from frame to frame: by both executors (a temporal
            // module's enqueue runs on every frame and may keep it itself:
            // integer motion's)
            if (!m->temporal)
                EXPECT_EQ(m->cpu->frame_end == nullptr, m->cuda->enqueue_every == nullptr) << name;
            else
                EXPECT_TRUE(m->cpu->frame_end) << name;
        }
    }
    // float_ansnr: libvmaf's names, and a model may ask for float_ansnr only
    const vq::FeatureSpec *a = vq::find_extractor("float_ansnr");
    ASSERT_NE(a, nullptr);
    ASSERT_EQ(a->outputs.size(), 2u);
    EXPECT_STREQ(a->outputs[0], "float_ansnr");
    EXPECT_STREQ(a->outputs[1], "float_anpsnr");
    EXPECT_EQ(vq::extractor_providing("float_ansnr"), a);
    EXPECT_EQ(vq::extractor_providing("float_anpsnr"), nullptr);
}

TEST(Modules, ThePlanGivesAnInstanceItsSection)
{
    VqFormat f = {};
    f.width = 64;
    f.height = 48;
    f.bitdepth = 10;
    f.bytes_per_sample = 2;
    f.chroma_shift_w = f.chroma_shift_h = 1;
    f.layout = VQ_LAYOUT_PLANAR;
    // float_ansnr twice (one instance), beside float_psnr and psnr (other modules)
    vq::FeaturePlan p(f, "none", "name=float_ansnr|name=float_psnr|name=float_ansnr|name=psnr", false);
    const VqExecPlan &e = p.exec();
    ASSERT_EQ(e.n_modules, 3);
    const VqModuleExec &m = e.module[0];
    EXPECT_STREQ(m.name, "float_ansnr");
    EXPECT_EQ(m.cpu, vq::find_extractor("float_ansnr")->module->cpu);
    EXPECT_EQ(m.g.w, 64);
    EXPECT_EQ(m.g.h, 48);
    EXPECT_EQ(m.g.bpc, 10);
    EXPECT_EQ(m.g.plane_w[1], 32);
    EXPECT_EQ(m.words, VQ_ANSNR_WORDS(48));
    EXPECT_EQ(m.off, 0u);                           // the first section
    const VqModuleExec &m2 = e.module[1];
    EXPECT_STREQ(m2.name, "float_psnr");
    EXPECT_EQ(m2.words, VQ_FS_WORDS(48));
    EXPECT_EQ(m2.off, m.off + m.words);             // one after the other
    const VqModuleExec &m3 = e.module[2];
    EXPECT_STREQ(m3.name, "psnr");
    EXPECT_EQ(m3.words, 48u + 2 * 24);              // each row of the three planes
    EXPECT_TRUE(m3.chroma);
    EXPECT_EQ(m3.off, m2.off + m2.words);
    EXPECT_EQ(m3.off + m3.words, e.total);
    int modules = 0;
    for (const vq::Instance &in : p.instances())
        EXPECT_EQ(in.exec_index, modules++);
    EXPECT_EQ(modules, 3);
    EXPECT_EQ(p.columns(), (std::vector<std::string>{ "float_ansnr", "float_anpsnr", "float_psnr", "psnr_y",
                                                      "psnr_cb", "psnr_cr" }));
}

// every extractor at once beside two models (vmaf and vmaf_neg: two VIF and
// two ADM row works, one motion): more module instances than the 16 the
// plan once held, each with its section, one after another
TEST(Modules, EveryExtractorBesideTwoModels)
{
    VqFormat f = {};
    f.width = 1920;
    f.height = 1080;
    f.bitdepth = 8;
    f.bytes_per_sample = 1;
    f.chroma_shift_w = f.chroma_shift_h = 1;
    f.layout = VQ_LAYOUT_PLANAR;
    std::string features;
    int others = 0;
    for (const vq::FeatureSpec &s : vq::feature_specs()) {
        const std::string n = s.name;
        if (n == "vif" || n == "adm" || n == "motion")
            continue;
        features += (features.empty() ? "" : "|") + ("name=" + n);
        others++;
    }
    vq::FeaturePlan p(f, "version=vmaf_v0.6.1|version=vmaf_v0.6.1neg:name=vmaf_neg", features, false);
    const VqExecPlan &e = p.exec();
    int vif = 0, adm = 0, motion = 0;
    size_t off = 0;
    for (int k = 0; k < e.n_modules; k++) {
        vif += !std::strcmp(e.module[k].name, "vif");
        adm += !std::strcmp(e.module[k].name, "adm");
        motion += !std::strcmp(e.module[k].name, "motion");
        EXPECT_EQ(e.module[k].off, off) << e.module[k].name;
        off += e.module[k].words;
    }
    EXPECT_EQ(off, e.total);
    EXPECT_EQ(vif, 2);
    EXPECT_EQ(adm, 2);
    EXPECT_EQ(motion, 1);
    // float_ssim and float_ms_ssim run one row work
    EXPECT_EQ(e.n_modules, 5 + others - 1);
    EXPECT_GT(e.n_modules, 16);
    EXPECT_LE(e.n_modules, VQ_EXEC_MAX_MODULES);
}

// psnr: its outputs follow its options and the format; without chroma it
// reads none; a second psnr would repeat its names (refused, as libvmaf
// would overwrite them)
TEST(Modules, PsnrOutputsAndPlanes)
{
    VqFormat f = {};
    f.width = 64;
    f.height = 48;
    f.bitdepth = 8;
    f.bytes_per_sample = 1;
    f.chroma_shift_w = f.chroma_shift_h = 1;
    f.layout = VQ_LAYOUT_PLANAR;
    vq::FeaturePlan a(f, "none", "name=psnr:enable_mse=true", false);
    ASSERT_EQ(a.exec().n_modules, 1);
    EXPECT_EQ(a.instances()[0].outputs, (std::vector<std::string>{ "psnr_y", "mse_y", "psnr_cb", "mse_cb",
                                                                   "psnr_cr", "mse_cr" }));
    EXPECT_EQ(a.exec().module[0].words, 48u + 2 * 24);
    EXPECT_TRUE(a.exec().module[0].chroma);
    vq::FeaturePlan b(f, "none", "name=psnr:enable_chroma=false", true);   // the shorthand adds none
    ASSERT_EQ(b.exec().n_modules, 1);
    EXPECT_EQ(b.exec().module[0].words, 48u);
    EXPECT_FALSE(b.exec().module[0].chroma);        // no chroma copy for it
    EXPECT_EQ(b.exec().module[0].g.plane_w[1], 0);
    EXPECT_EQ(b.instances()[0].outputs, (std::vector<std::string>{ "psnr_y" }));
    EXPECT_THROW(vq::FeaturePlan(f, "none", "name=psnr|name=psnr:enable_mse=true", false), vq::Error);
    f.layout = VQ_LAYOUT_GRAY;
    vq::FeaturePlan g(f, "none", "name=psnr", false);
    EXPECT_EQ(g.instances()[0].outputs, (std::vector<std::string>{ "psnr_y" }));
    EXPECT_FALSE(g.exec().module[0].chroma);
}

namespace {

VqFormat format_420(int w, int h)
{
    VqFormat f = {};
    f.width = w;
    f.height = h;
    f.bitdepth = 8;
    f.bytes_per_sample = 1;
    f.chroma_shift_w = f.chroma_shift_h = 1;
    f.layout = VQ_LAYOUT_PLANAR;
    return f;
}

}  // namespace

// float_motion: motion2 and (debug, on by default) motion per frame, motion3
// a flush column first appended with frame 1 (before integer motion's, which
// come at flush); under motion_force_zero all three per frame, nothing run;
// instances of one geometry share a section; motion_add_uv reads the chroma
TEST(Modules, FloatMotionOutputsAndSections)
{
    const VqFormat f = format_420(64, 48);
    vq::FeaturePlan a(f, "none", "name=float_motion", false);
    ASSERT_EQ(a.exec().n_modules, 1);
    const vq::Instance &in = a.instances()[0];
    EXPECT_EQ(in.outputs, (std::vector<std::string>{ "VMAF_feature_motion2_score", "VMAF_feature_motion_score" }));
    EXPECT_EQ(a.columns(), (std::vector<std::string>{ "motion2", "motion", "motion3" }));
    EXPECT_EQ(in.first_col, 0);
    EXPECT_EQ(in.first_flush_col, 2);
    const VqModuleExec &x = a.exec().module[0];
    EXPECT_STREQ(x.name, "float_motion");
    EXPECT_TRUE(x.temporal);
    EXPECT_FALSE(x.chroma);                         // the luma alone: no chroma copy
    EXPECT_EQ(x.g.plane_w[1], 0);
    EXPECT_EQ(x.words, 48u);                        // a float SAD per luma row

    vq::FeaturePlan z(f, "none", "name=float_motion:motion_force_zero=true:debug=true", false);
    ASSERT_EQ(z.exec().n_modules, 1);
    EXPECT_EQ(z.columns(), (std::vector<std::string>{ "motion2_force_0", "motion3_force_0", "motion_force_0" }));
    EXPECT_EQ(z.instances()[0].first_flush_col, -1);
    EXPECT_EQ(z.exec().module[0].words, 0u);        // nothing computed

    vq::FeaturePlan nd(f, "none", "name=float_motion:debug=false", false);
    EXPECT_EQ(nd.columns(), (std::vector<std::string>{ "motion2", "motion3" }));

    // fps weight and force_zero act in the fold: one row work for the first
    // two, none for the third; motion3 of every instance after the frame's
    // outputs, integer motion's motion2/motion3 after those
    vq::FeaturePlan s(f, "none",
                      "name=float_motion|name=motion|name=float_motion:motion_fps_weight=2|"
                      "name=float_motion:motion_force_zero=true:debug=false",
                      false);
    EXPECT_EQ(s.columns(), (std::vector<std::string>{ "motion2", "motion", "VMAF_integer_feature_motion_sad_score",
                                                      "motion2_mfw_2", "motion_mfw_2", "motion2_force_0",
                                                      "motion3_force_0", "motion3", "motion3_mfw_2",
                                                      "integer_motion2", "integer_motion3" }));
    ASSERT_EQ(s.exec().n_modules, 3);     // integer motion's the second
    EXPECT_EQ(s.instances()[0].exec_index, 0);
    EXPECT_EQ(s.instances()[1].exec_index, 1);
    EXPECT_STREQ(s.exec().module[1].name, "motion");
    EXPECT_EQ(s.instances()[2].exec_index, 0);
    EXPECT_EQ(s.instances()[3].exec_index, 2);
    EXPECT_EQ(s.exec().module[2].words, 0u);

    // motion_add_uv: every row of the three planes, the half-size images'
    // rows too under motion_add_scale1 ((int)(n * 0.5 + 0.5))
    vq::FeaturePlan uv(f, "none", "name=float_motion:motion_add_uv=true", false);
    EXPECT_TRUE(uv.exec().module[0].chroma);
    EXPECT_EQ(uv.exec().module[0].words, 48u + 24 + 24);
    vq::FeaturePlan s1(format_420(64, 47), "none", "name=float_motion:motion_add_scale1=true", false);
    EXPECT_EQ(s1.exec().module[0].words, 47u + 24);
    // refused as libvmaf does: no chroma on gray frames
    VqFormat g = f;
    g.layout = VQ_LAYOUT_GRAY;
    try {
        vq::FeaturePlan(g, "none", "name=float_motion:motion_add_uv=true", false);
        ADD_FAILURE() << "add_uv on gray frames was accepted";
    } catch (const vq::Error &e) {
        EXPECT_STREQ(e.what(), "float_motion: motion_add_uv needs chroma planes (libvmaf's init refuses 4:0:0) "
                               "(frames 64x48)");
    }
}

namespace {

/* a luma section of 64x48 whose every row's float SAD is 64 * s: the
 * frame's score S = s */
std::vector<int64_t> section_of_score(float s)
{
    return std::vector<int64_t>(48, vq_fmotion_word(64.0f * s));
}

struct Late {
    std::vector<vq::LateValue> v;
    int64_t final;
};

}  // namespace

// float_motion's late outputs through the module's hooks: the fold feeds
// the kept stream, take gives the values made final (motion2, motion3 of the
// frame before; frame 0's motion3 with frame 1), rest those of the last
// frame as at flush without changing the state
TEST(Modules, FloatMotionLateOutputs)
{
    const VqFormat f = format_420(64, 48);
    // p(x) = MIN(2x, 5); b(x) = MIN(blend(2x), 5), blend(y) = 0.5y + 0.5 MIN(3, y)
    vq::FeaturePlan p(f, "none",
                      "name=float_motion:motion_fps_weight=2:motion_max_val=5:motion_blend_factor=0.5:"
                      "motion_blend_offset=3",
                      false);
    const vq::Instance &in = p.instances()[0];
    const vq::Module &m = *in.opts.spec().module;
    const vq::LateOutputs *late = in.opts.spec().late;
    ASSERT_NE(late, nullptr);
    EXPECT_TRUE(late->with_frame1);
    EXPECT_TRUE(m.temporal);
    std::shared_ptr<void> st;
    ASSERT_EQ(m.keep(in.opts, p.module_geom(in), vq::RunInfo{ 1, false }, nullptr, st), "");
    ASSERT_TRUE(st);
    const VqModuleGeom g = p.module_geom(in);
    auto step = [&](int64_t frame, float s, double *out) {
        const std::vector<int64_t> sec = section_of_score(s);
        m.fold(g, sec.data(), frame, st.get(), out);
        Late l;
        l.final = late->take(st.get(), l.v);
        return l;
    };
    auto is = [](const vq::LateValue &v, int64_t frame, bool flush, int k, double value) {
        return v.frame == frame && v.flush == flush && v.k == k && v.value == value;
    };
    double out[2] = { -1, -1 };
    Late l = step(0, 9.0f, out);                    // frame 0: no frame before, its section unread
    EXPECT_EQ(out[1], 0.0);                         // motion
    EXPECT_TRUE(l.v.empty());
    EXPECT_EQ(l.final, 0);
    l = step(1, 2.0f, out);                         // S(1) = 2: frame 0's motion2 0, motion3 b(2) = 3.5
    EXPECT_EQ(out[1], 4.0);
    ASSERT_EQ(l.v.size(), 2u);
    EXPECT_TRUE(is(l.v[0], 0, false, 0, 0.0));
    EXPECT_TRUE(is(l.v[1], 0, true, 0, 3.5));
    EXPECT_EQ(l.final, 1);
    l = step(2, 1.0f, out);                         // frame 1: MIN(S(1), S(2)) = 1: p 2, b 2
    EXPECT_EQ(out[1], 2.0);
    ASSERT_EQ(l.v.size(), 2u);
    EXPECT_TRUE(is(l.v[0], 1, false, 0, 2.0));
    EXPECT_TRUE(is(l.v[1], 1, true, 0, 2.0));
    EXPECT_EQ(l.final, 2);
    l = step(3, 4.0f, out);                         // frame 2: MIN(1, 4) = 1
    EXPECT_EQ(out[1], 5.0);                         // MIN(8, 5)
    ASSERT_EQ(l.v.size(), 2u);
    EXPECT_TRUE(is(l.v[0], 2, false, 0, 2.0));
    EXPECT_TRUE(is(l.v[1], 2, true, 0, 2.0));
    EXPECT_EQ(l.final, 3);
    // the end: the last frame's own score, p(4) = 5, b(4) = MIN(5.5, 5) = 5;
    // twice the same, the state unchanged
    for (int k = 0; k < 2; k++) {
        std::vector<vq::LateValue> r;
        late->rest(st.get(), r);
        ASSERT_EQ(r.size(), 2u);
        EXPECT_TRUE(is(r[0], 3, false, 0, 5.0));
        EXPECT_TRUE(is(r[1], 3, true, 0, 5.0));
    }
    std::vector<vq::LateValue> none;
    EXPECT_EQ(late->take(st.get(), none), 3);
    EXPECT_TRUE(none.empty());
    l = step(4, 0.5f, out);                         // the session goes on: frame 3 from S(4)
    ASSERT_EQ(l.v.size(), 2u);
    EXPECT_TRUE(is(l.v[0], 3, false, 0, 1.0));      // MIN(4, 0.5) = 0.5: p 1, b 1
    EXPECT_TRUE(is(l.v[1], 3, true, 0, 1.0));
    EXPECT_EQ(l.final, 4);

    // a single frame: motion3 0 at the end (flush())
    std::shared_ptr<void> one;
    ASSERT_EQ(m.keep(in.opts, g, vq::RunInfo{ 1, false }, st, one), "");
    EXPECT_NE(one, st);                             // a section starts afresh
    const std::vector<int64_t> sec = section_of_score(1.0f);
    m.fold(g, sec.data(), 0, one.get(), out);
    std::vector<vq::LateValue> r;
    EXPECT_EQ(late->take(one.get(), r), 0);
    late->rest(one.get(), r);
    ASSERT_EQ(r.size(), 2u);
    EXPECT_TRUE(is(r[0], 0, false, 0, 0.0));
    EXPECT_TRUE(is(r[1], 0, true, 0, 0.0));

    // motion_force_zero: all three with the frame (motion3 a per-frame output)
    vq::FeaturePlan z(f, "none", "name=float_motion:motion_force_zero=true", false);
    const vq::Instance &iz = z.instances()[0];
    std::shared_ptr<void> sz;
    ASSERT_EQ(m.keep(iz.opts, z.module_geom(iz), vq::RunInfo{ 2, true }, nullptr, sz), "");
    for (int64_t n = 0; n < 3; n++) {
        double o3[3] = { -1, -1, -1 };
        m.fold(z.module_geom(iz), nullptr, n, sz.get(), o3);
        EXPECT_EQ(o3[2], 0.0);                      // motion, after motion2 and motion3
        std::vector<vq::LateValue> v;
        EXPECT_EQ(late->take(sz.get(), v), n + 1);
        ASSERT_EQ(v.size(), 2u);
        EXPECT_TRUE(is(v[0], n, false, 0, 0.0));
        EXPECT_TRUE(is(v[1], n, false, 1, 0.0));
    }
    std::vector<vq::LateValue> v;
    late->rest(sz.get(), v);
    EXPECT_TRUE(v.empty());
}

// integer motion as a module: its fold makes the SAD score of a frame from
// the section's rows (against frame n-2 under the five-frame window: the
// second h rows) and feeds the instance's VqMotion2 stream, made by keep;
// its spec's late outputs (the flush columns, appended at flush): take gives
// what vq_motion2_push made final, rest what vq_motion2_flush would, without
// changing the stream (the five-frame window and the moving average: frames
// 0 and 1 together, with frame 2's SAD)
TEST(Modules, IntegerMotionLateOutputs)
{
    const int fw = 64, fh = 48;
    const VqFormat f = format_420(fw, fh);
    vq::FeaturePlan p(f, "none", "name=motion:motion_five_frame_window=true:motion_moving_average=true", false);
    const vq::Instance &in = p.instances()[0];
    const vq::Module *m = in.opts.spec().module;
    ASSERT_NE(m, nullptr);
    EXPECT_TRUE(m->temporal && m->ref_only && !m->deferrable);
    const vq::LateOutputs *late = in.opts.spec().late;
    ASSERT_NE(late, nullptr);
    EXPECT_FALSE(late->with_frame1);
    EXPECT_EQ(p.columns(), (std::vector<std::string>{ "VMAF_integer_feature_motion_sad_score_mffw_mma",
                                                      "integer_motion2_mffw_mma", "integer_motion3_mffw_mma" }));
    EXPECT_EQ(m->context(in.opts), 4);  // the window's 3, one more for the moving average
    const VqModuleGeom g = p.module_geom(in);
    ASSERT_EQ(p.exec().module[in.exec_index].words, 2u * fh);
    std::shared_ptr<void> st;
    vq::RunInfo run{ 1, false };
    ASSERT_EQ(m->keep(in.opts, g, run, nullptr, st), "");
    ASSERT_TRUE(st);
    VqMotion2Opts o;
    vq_motion2_opts_default(&o);
    o.five_frame_window = o.moving_average = 1;
    VqMotion2 want;
    vq_motion2_init(&want, &o);
    const double sad[] = { 0.0, 0.0, 3.5, 1.25, 7.0, 2.0 };
    for (int n = 0; n < 6; n++) {
        // the rows against frame n-1 are noise the fold must not read; row 0
        // against n-2 holds the whole SAD (sad * 256 * w * h, below 2^32)
        std::vector<int64_t> section(2 * (size_t)fh, 0);
        for (int i = 0; i < fh; i++)
            section[(size_t)i] = 1000 + i;
        section[(size_t)fh] = (int64_t)(sad[n] * 256 * fw * fh);
        double out[1] = { -1.0 };
        m->fold(g, section.data(), n, st.get(), out);
        EXPECT_EQ(out[0], sad[n]) << "frame " << n;
        VqMotion2Out w[2];
        const int k = vq_motion2_push(&want, sad[n], w);
        std::vector<vq::LateValue> v;
        EXPECT_EQ(late->take(st.get(), v), vq_motion2_final(&want));
        ASSERT_EQ(v.size(), 2u * k);
        for (int i = 0; i < k; i++) {
            EXPECT_TRUE(v[2 * i].frame == w[i].index && v[2 * i].flush && v[2 * i].k == 0 &&
                        v[2 * i].value == w[i].motion2);
            EXPECT_TRUE(v[2 * i + 1].frame == w[i].index && v[2 * i + 1].flush && v[2 * i + 1].k == 1 &&
                        v[2 * i + 1].value == w[i].motion3);
        }
        if (n == 2) {   // frames 0 and 1: motion2 0, motion3 p(sad[2]) = 3.5 (the stamp)
            ASSERT_EQ(k, 2);
            EXPECT_EQ(v[2].value, 0.0);
            EXPECT_EQ(v[3].value, 3.5);
        }
        if (n == 5) {   // frame 4: MIN(sad[3], sad[5]) = 1.25, motion3 (1.25 + p of frame 3's 3.5) / 2
            ASSERT_EQ(k, 1);
            EXPECT_EQ(v[0].frame, 4);
            EXPECT_EQ(v[0].value, 1.25);
            EXPECT_EQ(v[1].value, 2.375);
        }
    }
    for (int r = 0; r < 2; r++) {   // the end, twice: the last frame, its own SAD 2, motion3 (2 + 1.25) / 2
        std::vector<vq::LateValue> v;
        late->rest(st.get(), v);
        ASSERT_EQ(v.size(), 2u);
        EXPECT_EQ(v[0].frame, 5);
        EXPECT_EQ(v[0].value, 2.0);
        EXPECT_EQ(v[1].value, 1.625);
    }
    std::vector<vq::LateValue> none;
    EXPECT_EQ(late->take(st.get(), none), 5);       // the stream as it was
    EXPECT_TRUE(none.empty());
}

namespace {

/* a cambi session's frames: a ramp in steps (bands for cambi to see) */
struct CambiFrame {
    static const int W = 240, H = 136;
    std::vector<uint8_t> p[3];
    VqPicture pic;
    explicit CambiFrame(int shift)
    {
        p[0].resize((size_t)W * H);
        p[1].assign((size_t)W * H / 4, 128);
        p[2].assign((size_t)W * H / 4, 128);
        for (int i = 0; i < H; i++)
            for (int j = 0; j < W; j++)
                p[0][(size_t)i * W + j] = (uint8_t)(60 + (j + shift + i / 8) / 24);
        std::memset(&pic, 0, sizeof(pic));
        for (int k = 0; k < 3; k++)
            pic.data[k] = p[k].data();
        pic.linesize[0] = W;
        pic.linesize[1] = pic.linesize[2] = W / 2;
    }
};

struct SessionRun {
    std::vector<std::string> names;
    std::vector<std::vector<double>> values;   /* per frame */
};

/* an 8-bit 4:2:0 planar session's configuration of this size */
VqConfig planar8(int w, int h, VqExecutor exe)
{
    VqConfig c;
    vq_config_default(&c);
    c.format.width = w;
    c.format.height = h;
    c.format.bitdepth = 8;
    c.format.bytes_per_sample = 1;
    c.format.chroma_shift_w = c.format.chroma_shift_h = 1;
    c.format.layout = VQ_LAYOUT_PLANAR;
    c.executor = exe;
    return c;
}

/* A session of configuration c over nframes frames, submit(s, i) giving
 * frame i to it (its vq_session_submit's value); then flushed: every frame's
 * values (and the first frame's names) in out; VQ_OK or the first error,
 * its message in err. */
int run_session(const VqConfig &c, int nframes, const std::function<int(VqSession *, int)> &submit, SessionRun &out,
                std::string &err)
{
    VqSession *s = nullptr;
    char e[1024] = "";
    int r = vq_session_open(&s, &c, e, sizeof(e));
    if (r < 0) {
        err = e;
        return r;
    }
    for (int i = 0; i < nframes && r >= 0; i++)
        r = submit(s, i);
    if (r < 0)
        err = vq_session_error(s);
    const int f = vq_session_flush(s);
    if (r >= 0 && f < 0) {
        err = vq_session_error(s);
        r = f;
    }
    VqFrameResult fr;
    while (vq_session_receive(s, &fr) == VQ_OK) {
        if (out.names.empty())
            out.names.assign(fr.name, fr.name + fr.n);
        out.values.emplace_back(fr.value, fr.value + fr.n);
    }
    vq_session_close(&s);
    return r;
}

/* frames (ref shift, dis shift) through a CPU (or CUDA) session with these features */
int cambi_run(const std::string &features, int threads, const std::vector<std::pair<int, int>> &frames,
              SessionRun &out, std::string &err, int fail_at = -1, VqExecutor exe = VQ_EXECUTOR_CPU)
{
    VqConfig c = planar8(CambiFrame::W, CambiFrame::H, exe);
    c.model = "none";
    c.feature = features.c_str();
    c.enable_psnr = 0;
    c.threads = threads;
    return run_session(c, (int)frames.size(), [&](VqSession *s, int i) {
        CambiFrame ref(frames[(size_t)i].first), dis(frames[(size_t)i].second);
        VqPicture d = dis.pic;
        if (i == fail_at)
            d.data[0] = nullptr;
        return vq_session_submit(s, &ref.pic, &d);
    }, out, err);
}

std::vector<std::string> files_in(const std::string &dir)
{
    std::vector<std::string> v;
    if (DIR *d = opendir(dir.c_str())) {
        while (dirent *e = readdir(d))
            if (std::strcmp(e->d_name, ".") && std::strcmp(e->d_name, ".."))
                v.push_back(e->d_name);
        closedir(d);
    }
    std::sort(v.begin(), v.end());
    return v;
}

size_t file_size(const std::string &f)
{
    struct stat st;
    return stat(f.c_str(), &st) == 0 ? (size_t)st.st_size : (size_t)-1;
}

}  // namespace

// cambi: its score, under full_ref the source pass's two outputs (printed
// without suffix); its section: the distorted pass's words, the source
// pass's, under heatmaps_path the c-values; the luma alone; two option sets
// are two instances; sizes the reference would not score are refused
TEST(Modules, CambiOutputsAndSections)
{
    const VqFormat f = format_420(240, 136);
    vq::FeaturePlan a(f, "none", "name=cambi", false);
    ASSERT_EQ(a.exec().n_modules, 1);
    EXPECT_EQ(a.columns(), (std::vector<std::string>{ "cambi" }));
    const VqModuleExec &x = a.exec().module[0];
    EXPECT_STREQ(x.name, "cambi");
    EXPECT_FALSE(x.temporal);
    EXPECT_FALSE(x.chroma);
    EXPECT_EQ(x.g.plane_w[1], 0);
    const VqCambiModuleHost &h = *static_cast<const VqCambiModuleHost *>(x.g.host);
    EXPECT_EQ(h.passes, 1);
    EXPECT_EQ(h.cv, 0);
    EXPECT_EQ(h.l[0].sel_off[0], 0u);
    EXPECT_EQ(x.words, h.l[0].total);
    EXPECT_EQ(x.off + x.words, a.exec().total);

    vq::FeaturePlan fr(f, "none", "name=cambi:full_ref=true:window_size=63", false);
    EXPECT_EQ(fr.columns(), (std::vector<std::string>{ "cambi_ws_63", "cambi_source", "cambi_full_reference" }));
    const VqModuleExec &y = fr.exec().module[0];
    const VqCambiModuleHost &hy = *static_cast<const VqCambiModuleHost *>(y.g.host);
    EXPECT_EQ(hy.passes, 2);
    EXPECT_EQ(hy.l[1].sel_off[0], hy.l[0].total);   // the source pass's words after the distorted pass's
    EXPECT_EQ(y.words, hy.l[0].total + hy.l[1].total);

    vq::FeaturePlan hm(f, "none", "name=cambi:heatmaps_path=/nonexistent/x", false);   // the plan opens nothing
    const VqModuleExec &z = hm.exec().module[0];
    const VqCambiModuleHost &hz = *static_cast<const VqCambiModuleHost *>(z.g.host);
    EXPECT_EQ(hz.cv, 1);
    EXPECT_EQ(hz.cv_off[0], hz.l[0].total);
    size_t cv_words = 0;
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        EXPECT_EQ(hz.cv_off[s], hz.l[0].total + cv_words);
        cv_words += ((size_t)hz.p[0].sw[s] * hz.p[0].sh[s] + 1) / 2;
    }
    EXPECT_EQ(z.words, hz.l[0].total + cv_words);
    EXPECT_EQ(hz.cv_off[0] + (size_t)240 * 136 / 2, hz.cv_off[1]);

    // two option sets: two instances, each its own section
    vq::FeaturePlan two(f, "none", "name=cambi|name=cambi:window_size=63:full_ref=true", false);
    ASSERT_EQ(two.exec().n_modules, 2);
    EXPECT_EQ(two.instances()[0].exec_index, 0);
    EXPECT_EQ(two.instances()[1].exec_index, 1);
    EXPECT_EQ(two.exec().module[1].off, two.exec().module[0].off + two.exec().module[0].words);
    EXPECT_EQ(two.columns(),
              (std::vector<std::string>{ "cambi", "cambi_ws_63", "cambi_source", "cambi_full_reference" }));

    // libvmaf's init refuses encode sizes below 216 both ways
    try {
        vq::FeaturePlan(format_420(36, 34), "none", "name=cambi", false);
        ADD_FAILURE() << "36x34 was accepted";
    } catch (const vq::Error &e) {
        EXPECT_EQ(std::string(e.what()).rfind("cambi cannot score 36x34 8-bit frames: ", 0), 0u) << e.what();
    }
    try {
        vq::FeaturePlan(f, "none", "name=cambi:full_ref=true:src_width=400:src_height=100", false);
        ADD_FAILURE() << "src_height 100 was accepted";
    } catch (const vq::Error &e) {
        EXPECT_NE(std::string(e.what()).find("src_height"), std::string::npos) << e.what();
    }
    // the defaults have one home: the module's spec
    VqCambiOptions d;
    vq_cambi_default_options(&d);
    EXPECT_EQ(d.cambi_max_val, 1000.0);
    EXPECT_EQ(d.window_size, 65);
    EXPECT_EQ(d.topk, 0.6);
    EXPECT_EQ(d.cambi_topk, 0.6);
    EXPECT_EQ(d.tvi_threshold, 0.019);
    EXPECT_EQ(d.max_log_contrast, 2);
    EXPECT_EQ(d.enc_width, 0);
    EXPECT_EQ(d.full_ref, 0);
    EXPECT_STREQ(d.eotf, "bt1886");
    EXPECT_STREQ(d.cambi_eotf, "bt1886");
}

// cambi through a session: two option sets in one run give each its values
// of a run alone; full_ref's score is the same; the bands' split (steps)
// and the whole-pass task give the same bits
TEST(Modules, CambiInstancesAndSplits)
{
    const std::vector<std::pair<int, int>> frames = { { 0, 5 }, { 3, 11 }, { 7, 2 } };
    std::string err;
    SessionRun one, two, both, fr, banded, fr_banded;
    ASSERT_EQ(cambi_run("name=cambi", 1, frames, one, err), VQ_OK) << err;
    ASSERT_EQ(cambi_run("name=cambi:window_size=31", 1, frames, two, err), VQ_OK) << err;
    ASSERT_EQ(cambi_run("name=cambi|name=cambi:window_size=31", 1, frames, both, err), VQ_OK) << err;
    ASSERT_EQ(cambi_run("name=cambi:full_ref=true", 1, frames, fr, err), VQ_OK) << err;
    ASSERT_EQ(both.names, (std::vector<std::string>{ "cambi", "cambi_ws_31" }));
    ASSERT_EQ(fr.names, (std::vector<std::string>{ "cambi", "cambi_source", "cambi_full_reference" }));
    ASSERT_EQ(one.values.size(), frames.size());
    ASSERT_EQ(both.values.size(), frames.size());
    bool banding = false;
    for (size_t i = 0; i < frames.size(); i++) {
        EXPECT_EQ(both.values[i][0], one.values[i][0]) << i;
        EXPECT_EQ(both.values[i][1], two.values[i][0]) << i;
        EXPECT_EQ(fr.values[i][0], one.values[i][0]) << i;
        banding = banding || one.values[i][0] > 0.0;
    }
    EXPECT_TRUE(banding) << "the frames show no banding: a weak test";
    // three threads: in the steps' bands (VQ_CPU_BANDS=all), and as one task
    ::setenv("VQ_CPU_BANDS", "all", 1);
    const int rb = cambi_run("name=cambi:full_ref=true", 3, frames, fr_banded, err);
    ::setenv("VQ_CPU_BANDS", "none", 1);
    const int rt = cambi_run("name=cambi:full_ref=true", 3, frames, banded, err);
    ::unsetenv("VQ_CPU_BANDS");
    ASSERT_EQ(rb, VQ_OK) << err;
    ASSERT_EQ(rt, VQ_OK) << err;
    EXPECT_EQ(fr_banded.values, fr.values);
    EXPECT_EQ(banded.values, fr.values);
}

// the same on the CUDA executor (each instance on a module stream of its
// own, its graphs): two option sets and full_ref give the CPU's values;
// skipped without a GPU
TEST(Modules, CambiInstancesOnCuda)
{
    const std::vector<std::pair<int, int>> frames = { { 0, 5 }, { 3, 11 }, { 7, 2 }, { 1, 9 } };
    std::string err;
    SessionRun cpu, gpu, cpu_fr, gpu_fr;
    const char *both = "name=cambi|name=cambi:window_size=31";
    const int r = cambi_run(both, 1, frames, gpu, err, -1, VQ_EXECUTOR_CUDA);
    if (r < 0)
        GTEST_SKIP() << "no CUDA executor here: " << err;
    ASSERT_EQ(cambi_run(both, 1, frames, cpu, err), VQ_OK) << err;
    ASSERT_EQ(cambi_run("name=cambi:full_ref=true", 1, frames, cpu_fr, err), VQ_OK) << err;
    ASSERT_EQ(cambi_run("name=cambi:full_ref=true", 1, frames, gpu_fr, err, -1, VQ_EXECUTOR_CUDA), VQ_OK) << err;
    ASSERT_EQ(gpu.names, cpu.names);
    ASSERT_EQ(gpu.values, cpu.values);
    ASSERT_EQ(gpu_fr.names, cpu_fr.names);
    ASSERT_EQ(gpu_fr.values, cpu_fr.values);
    ASSERT_EQ(cpu.values.size(), frames.size());
}

// cambi's heatmaps_path as the instance's kept state: opened when the state
// is made (before any frame), the scored frames' c-values written by the
// fold, committed at a flush that ends a good run; a failed run, or a state
// dropped without commit, leaves the named files as they were; a new
// section of another size is refused, one of the same size goes on
TEST(Modules, CambiHeatmapsState)
{
    char t[] = "/tmp/vq_modules_heat_XXXXXX";
    ASSERT_NE(mkdtemp(t), nullptr);
    const std::string dir = t;
    const std::string s0 = dir + "/cambi_heatmap_scale_0_240x136_16b.gray";
    const vq::Module &m = *vq::find_extractor("cambi")->module;
    ASSERT_TRUE(m.keep && m.commit);
    // its fold reads the section alone: deferred on the session's fold
    // workers, unless heatmaps_path gives the instance state (below)
    EXPECT_TRUE(m.deferrable);
    const VqFormat f = format_420(240, 136);
    {
        // no heatmaps_path: no state
        vq::FeaturePlan p(f, "none", "name=cambi", false);
        std::shared_ptr<void> st;
        EXPECT_EQ(m.keep(p.instances()[0].opts, p.module_geom(p.instances()[0]), vq::RunInfo{ 1, false }, nullptr,
                         st), "");
        EXPECT_EQ(st, nullptr);
    }
    vq::FeaturePlan p(f, "none", "name=cambi:heatmaps_path=" + dir, false);
    const vq::Instance &in = p.instances()[0];
    {
        std::shared_ptr<void> st;
        ASSERT_EQ(m.keep(in.opts, p.module_geom(in), vq::RunInfo{ 1, false }, nullptr, st), "");
        ASSERT_NE(st, nullptr);
        EXPECT_EQ(files_in(dir).size(), 5u);        // the temporary files, made now
        EXPECT_EQ(file_size(s0), (size_t)-1);       // not the named ones
        // a section of another size: refused; of the same size: the same state
        VqModuleGeom g = p.module_geom(in);
        g.w = 320;
        std::shared_ptr<void> next;
        EXPECT_EQ(m.keep(in.opts, g, vq::RunInfo{ 1, false }, st, next),
                  "cambi heatmaps_path: the frame size cannot change (240x136 to 320x136): the heatmap files "
                  "have one size");
        ASSERT_EQ(m.keep(in.opts, p.module_geom(in), vq::RunInfo{ 1, false, 4 }, st, next), "");
        EXPECT_EQ(next, st);
    }   // dropped without commit: the temporary files go
    EXPECT_TRUE(files_in(dir).empty());
    {
        std::shared_ptr<void> st;
        ASSERT_EQ(m.keep(in.opts, p.module_geom(in), vq::RunInfo{ 1, false }, nullptr, st), "");
        m.commit(st.get());
        EXPECT_EQ(file_size(s0), 0u);               // committed: the named files, no frame in them
    }
    EXPECT_EQ(files_in(dir).size(), 5u);

    // through a session: frames written at their index, committed at flush
    const std::vector<std::pair<int, int>> frames = { { 0, 5 }, { 3, 11 } };
    SessionRun with, without;
    std::string err;
    ASSERT_EQ(cambi_run("name=cambi:full_ref=true:heatmaps_path=" + dir, 3, frames, with, err), VQ_OK) << err;
    ASSERT_EQ(cambi_run("name=cambi:full_ref=true", 3, frames, without, err), VQ_OK) << err;
    EXPECT_EQ(with.values, without.values);
    EXPECT_EQ(files_in(dir).size(), 5u);
    EXPECT_EQ(file_size(s0), (size_t)2 * 240 * 136 * 2);
    EXPECT_EQ(file_size(dir + "/cambi_heatmap_scale_4_15x9_16b.gray"), (size_t)2 * 15 * 9 * 2);
    // a run that fails leaves them as they were
    SessionRun failed;
    EXPECT_EQ(cambi_run("name=cambi:heatmaps_path=" + dir, 1, { { 0, 5 }, { 3, 11 }, { 7, 2 } }, failed, err, 1),
              VQ_EINVAL);
    EXPECT_EQ(files_in(dir).size(), 5u);
    EXPECT_EQ(file_size(s0), (size_t)2 * 240 * 136 * 2);
    std::system(("rm -rf '" + dir + "'").c_str());
}

namespace {

/* every extractor beside two models, on frames of texture that moves, through
 * a session (CPU or CUDA, n_subsample); the values of every frame */
int all_run(VqExecutor exe, int n_subsample, int nframes, SessionRun &out, std::string &err)
{
    const int W = 384, H = 216;
    std::string features;
    for (const vq::FeatureSpec &s : vq::feature_specs()) {
        const std::string n = s.name;
        if (n != "vif" && n != "adm" && n != "motion")
            features += (features.empty() ? "" : "|") + ("name=" + n);
    }
    VqConfig c = planar8(W, H, exe);
    c.model = "version=vmaf_v0.6.1|version=vmaf_v0.6.1neg:name=vmaf_neg";
    c.feature = features.c_str();
    c.n_subsample = n_subsample;
    auto hash = [](uint32_t x) {
        x ^= x >> 16;
        x *= 0x7feb352dU;
        x ^= x >> 15;
        x *= 0x846ca68bU;
        return x ^ (x >> 16);
    };
    std::vector<uint8_t> p[2][3];
    return run_session(c, nframes, [&](VqSession *s, int i) {
        VqPicture pic[2];
        for (int k = 0; k < 2; k++) {   /* ref, dis */
            std::memset(&pic[k], 0, sizeof(pic[k]));
            for (int q = 0; q < 3; q++) {
                const int w = q ? W / 2 : W, h = q ? H / 2 : H;
                p[k][q].resize((size_t)w * h);
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++) {
                        /* a ramp in steps (banding), blocks of texture that move by i, and noise on dis */
                        const uint32_t t = hash((uint32_t)(((y / 6) * 977 + (x + 3 * i) / 5) * 3 + q));
                        int v = 40 + (x + y / 4) / 6 + (int)(t % (y < h / 2 ? 48u : 6u));
                        if (k)
                            v += (int)(hash((uint32_t)((i * H + y) * W + x + q * 7919)) % 9) - 4;
                        p[k][q][(size_t)y * w + x] = (uint8_t)std::min(255, std::max(0, v));
                    }
                pic[k].data[q] = p[k][q].data();
                pic[k].linesize[q] = w;
            }
        }
        return vq_session_submit(s, &pic[0], &pic[1]);
    }, out, err);
}

}  // namespace

// the CUDA executor's lanes (kernels/cuda_exec.cu: consecutive frames at
// once, an instance per lane of each module that carries nothing from frame
// to frame, the motions' work ordered from frame to frame), three by default
// and two with VQ_CUDA_DEPTH=2, give the CPU's values, as one lane does,
// for every extractor beside two models, every frame scored or one in
// three; skipped without a GPU
TEST(Modules, EveryExtractorOnLanes)
{
    const int n = 14;
    for (int sub : { 1, 3 }) {
        std::string err;
        SessionRun cpu, one, two, three;
        ASSERT_EQ(all_run(VQ_EXECUTOR_CPU, sub, n, cpu, err), VQ_OK) << err;
        ASSERT_GT(cpu.names.size(), 60u);
        ASSERT_EQ(cpu.values.size(), (size_t)n) << sub;   /* a result per frame, scored or not */
        ASSERT_NE(cpu.values.front(), cpu.values.back()) << "the frames do not differ: a weak test";
        ::unsetenv("VQ_CUDA_LANES");
        ::unsetenv("VQ_CUDA_DEPTH");
        /* the default: three frames in flight, on three lanes */
        const int r = all_run(VQ_EXECUTOR_CUDA, sub, n, three, err);
        if (r == VQ_ENODEV)
            GTEST_SKIP() << "no CUDA executor here: " << err;
        ASSERT_EQ(r, VQ_OK) << err;
        ::setenv("VQ_CUDA_LANES", "1", 1);
        const int r1 = all_run(VQ_EXECUTOR_CUDA, sub, n, one, err);
        ::unsetenv("VQ_CUDA_LANES");
        ASSERT_EQ(r1, VQ_OK) << err;
        ::setenv("VQ_CUDA_DEPTH", "2", 1);
        const int r2 = all_run(VQ_EXECUTOR_CUDA, sub, n, two, err);
        ::unsetenv("VQ_CUDA_DEPTH");
        ASSERT_EQ(r2, VQ_OK) << err;
        const SessionRun *runs[3] = { &one, &two, &three };
        for (int l = 0; l < 3; l++) {
            const SessionRun &g = *runs[l];
            EXPECT_EQ(g.names, cpu.names) << l + 1 << " lanes";
            ASSERT_EQ(g.values.size(), cpu.values.size()) << l + 1 << " lanes";
            for (size_t i = 0; i < cpu.values.size(); i++) {
                /* a frame n_subsample skips has fewer values (its temporal ones) */
                ASSERT_EQ(g.values[i].size(), cpu.values[i].size()) << l + 1 << " lanes, frame " << i;
                for (size_t j = 0; j < cpu.values[i].size(); j++)
                    EXPECT_EQ(g.values[i][j], cpu.values[i][j]) << l + 1 << " lanes, frame " << i << ", value " << j;
            }
        }
    }
}
