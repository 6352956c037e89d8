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
#include "module.hpp"
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
        if (m->cuda) {
            EXPECT_EQ(m->cpu->fold_data == nullptr, m->cuda->fold_data == nullptr) << name;
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
