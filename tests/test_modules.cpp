// The metric modules (hostmath/module.hpp, hostmath/modules.cpp): each
// describes itself to the registry, its tables are complete, the plan gives
// each instance its own section after the others, and the CPU executor runs
// it from its table alone (the values: every float_ansnr golden, e2e_* and
// lib_*, through the same tables).
#include <gtest/gtest.h>

#include <set>
#include <vector>
#include <string>

#include "feature_plan.hpp"
#include "float_motion/float_motion.h"
#include "module.hpp"
#include "motion_late.hpp"
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
        EXPECT_EQ(s->kind, vq::FexKind::Module) << name;
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
        // session's thread; values at the end come from that state
        EXPECT_TRUE(!m->keep || !m->deferrable) << name;
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
            // state kept from frame to frame: by both executors
            EXPECT_EQ(m->cpu->frame_end == nullptr, m->cuda->enqueue_every == nullptr) << name;
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
    EXPECT_GE(m.off, e.base.total);                 // after the kinds' sections
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
        if (in.opts.spec().kind == vq::FexKind::Module) {
            EXPECT_EQ(in.exec_index, modules++);
        }
    EXPECT_EQ(modules, 3);
    EXPECT_EQ(p.columns(), (std::vector<std::string>{ "float_ansnr", "float_anpsnr", "float_psnr", "psnr_y",
                                                      "psnr_cb", "psnr_cr" }));
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
    ASSERT_EQ(s.exec().n_modules, 2);
    EXPECT_EQ(s.instances()[0].exec_index, 0);
    EXPECT_EQ(s.instances()[2].exec_index, 0);
    EXPECT_EQ(s.instances()[3].exec_index, 1);
    EXPECT_EQ(s.exec().module[1].words, 0u);

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

// integer motion's host half on the same hook: its spec's late outputs (the
// flush columns, appended at flush) over a VqMotion2 stream made by start;
// take gives what vq_motion2_push made final, rest what vq_motion2_flush
// would, without changing the stream (the five-frame window and the moving
// average: frames 0 and 1 together, with frame 2's SAD)
TEST(Modules, IntegerMotionLateOutputs)
{
    const VqFormat f = format_420(64, 48);
    vq::FeaturePlan p(f, "none", "name=motion:motion_five_frame_window=true:motion_moving_average=true", false);
    const vq::Instance &in = p.instances()[0];
    const vq::LateOutputs *late = in.opts.spec().late;
    ASSERT_NE(late, nullptr);
    EXPECT_FALSE(late->with_frame1);
    ASSERT_NE(late->start, nullptr);
    EXPECT_EQ(p.columns(), (std::vector<std::string>{ "VMAF_integer_feature_motion_sad_score_mffw_mma",
                                                      "integer_motion2_mffw_mma", "integer_motion3_mffw_mma" }));
    std::shared_ptr<void> st = late->start(in.opts);
    VqMotion2Opts o;
    vq_motion2_opts_default(&o);
    o.five_frame_window = o.moving_average = 1;
    VqMotion2 want;
    vq_motion2_init(&want, &o);
    const double sad[] = { 0.0, 0.0, 3.5, 1.25, 7.0, 2.0 };
    for (int n = 0; n < 6; n++) {
        vq::motion::push(st.get(), sad[n]);
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
