/*
 * session.cpp - one scoring session (include/vqcuda.h; the struct in
 * session_impl.hpp): opening, sections of one size and format, the
 * executors, submit, collect, flush and receive.
 *
 * Per frame pair an executor (CPU loops or CUDA kernels, kernels/) fills the
 * row-sum buffer laid out by the feature plan; session_fold.cpp folds it into
 * each instance's outputs with hostmath/'s formulas; session_log.cpp runs
 * motion2/motion3 and the models once the next frame is known, pools, and
 * writes the logs; results go back in frame order.  Exceptions (vq::Error)
 * stop at each extern "C" function (session_api.cpp).
 */
#include "session_impl.hpp"

using vq::fail;

namespace vq {
namespace session {

void check_size(int w, int h)
{
    if (w < 33 || h < 33)
        fail(VQ_EINVAL, "frame size %dx%d is below 33x33: libvmaf reads outside such frames, so there "
             "is no reference result to match", w, h);
}

void check_format(const VqFormat &f)
{
    check_size(f.width, f.height);
    if (f.bitdepth != 8 && f.bitdepth != 10 && f.bitdepth != 12 && f.bitdepth != 16)
        fail(VQ_EINVAL, "bit depth %d is not supported (8, 10, 12 or 16, as libvmaf's psnr)", f.bitdepth);
    if (f.bytes_per_sample != (f.bitdepth > 8 ? 2 : 1))
        fail(VQ_EINVAL, "%d-bit samples in %d bytes are not supported", f.bitdepth, f.bytes_per_sample);
    if (f.chroma_shift_w < 0 || f.chroma_shift_w > 1 || f.chroma_shift_h < 0 || f.chroma_shift_h > 1)
        fail(VQ_EINVAL, "chroma subsampling %d/%d is not supported", f.chroma_shift_w, f.chroma_shift_h);
    if (f.layout < VQ_LAYOUT_PLANAR || f.layout > VQ_LAYOUT_GRAY)
        fail(VQ_EINVAL, "unknown plane layout %d", (int)f.layout);
    if (f.msb_aligned && f.bytes_per_sample != 2)
        fail(VQ_EINVAL, "msb-aligned samples need 16-bit storage");
}

/* the module of the plan's module instance k (the first of its instances) */
const vq::Module *module_of(const vq::FeaturePlan &p, int k)
{
    for (const vq::Instance &in : p.instances())
        if (in.opts.spec().module && in.exec_index == k)
            return in.opts.spec().module;
    return nullptr;
}

/* the plan's module instances whose row work reads the reference alone */
std::vector<int> ref_only_modules(const vq::FeaturePlan &p)
{
    std::vector<int> v;
    for (int k = 0; k < p.exec().n_modules; k++)
        if (module_of(p, k)->ref_only)
            v.push_back(k);
    return v;
}

}  // namespace session
}  // namespace vq

using vq::session::check_format;
using vq::session::check_size;
using vq::session::module_of;
using vq::session::ref_only_modules;

void VqSession::open()
{
    const char *tm = std::getenv("VQ_TIMING");
    timing.on = tm && *tm && std::strcmp(tm, "0") != 0;
    /* fold workers (started at the first deferred fold): half the cores,
     * 1 to 8 (speed_temporal's fold takes some 20 ms per 2160p frame) */
    const char *ft = std::getenv("VQ_FOLD_THREADS");
    const unsigned ncores = std::thread::hardware_concurrency();
    fold_threads = ft && *ft ? std::atoi(ft) : (int)std::min(8u, std::max(1u, ncores / 2));
    fold_threads = std::max(0, std::min(fold_threads, 16));
    if (cfg.n_subsample < 1)
        cfg.n_subsample = 1;
    /* more threads than a machine can mean only exhaust its processes */
    const unsigned cores = std::thread::hardware_concurrency();
    const int max_threads = cores ? 4 * (int)cores : 64;
    if (cfg.threads < 0 || cfg.threads > max_threads)
        fail(VQ_EINVAL, "n_threads=%d: give 0 to %d (at most 4 threads for each of this machine's %u "
             "cores)", cfg.threads, max_threads, cores ? cores : 16);
    if ((cfg.segment_frames != 0) + (cfg.segment_duration != 0) + (cfg.segment_keyframes != 0) > 1)
        fail(VQ_EINVAL, "give one segment option: segment_frames, segment_duration or segment=keyframes");
    if (cfg.segment_frames < 0 || cfg.segment_duration < 0 || !std::isfinite(cfg.segment_duration))
        fail(VQ_EINVAL, "a segment length must be positive");
    if (cfg.first_frame < 0 || cfg.score_begin < 0 || (cfg.score_end && cfg.score_end <= cfg.score_begin))
        fail(VQ_EINVAL, "score_frames=%lld-%lld: the first frame must come before the end",
             (long long)cfg.score_begin, (long long)cfg.score_end);
    make_plan();
    /* a piece's first scored frames read motion of the frames before: as
     * many as its modules' options need (Module::context) must be given */
    int context = 1;
    for (const vq::Instance &in : plan->instances()) {
        const vq::Module *m = in.opts.spec().module;
        if (m && m->context)
            context = std::max(context, m->context(in.opts));
    }
    if (cfg.score_begin > 0 && cfg.first_frame > 0 && cfg.first_frame > cfg.score_begin - context)
        fail(VQ_EINVAL, "score_frames=%lld-...: motion of frame %lld needs frame %lld, which the piece "
             "does not give (it starts at %lld)", (long long)cfg.score_begin, (long long)cfg.score_begin,
             (long long)std::max<int64_t>(0, cfg.score_begin - context), (long long)cfg.first_frame);
    make_scaler();
    for (const std::string &c : plan->columns())
        names.push_back(c.c_str());
    set_kinds();
    pool.resize(names.size());
    seg.pool.resize(names.size());
    if (cfg.keep_frames) {
        /* VQ_FRAMES_SPILL: the bytes gathered before they go to disk (default 4 MiB) */
        const char *sp = std::getenv("VQ_FRAMES_SPILL");
        const long long spill = sp && *sp ? std::atoll(sp) : 4ll << 20;
        kept = std::make_unique<vq::FrameLog>(names.size(), (size_t)std::max(1ll, spill));
    }
    if (cfg.executor != VQ_EXECUTOR_AUTO)
        init_executor(cfg.executor == VQ_EXECUTOR_CUDA);
}

/* the plan's ref_only module instances (integer motion's), for a ladder's RefShare */
std::vector<VqModuleExec> VqSession::ref_parts() const
{
    std::vector<VqModuleExec> v;
    for (int k : ref_only_modules(*plan))
        v.push_back(plan->exec().module[k]);
    return v;
}

/* A ladder's rendition 1: it puts the sections of its ref_only module
 * instances of each frame it folds into rs. */
void VqSession::lead_reference(vq::RefShare *rs)
{
    if (n_submitted || share)
        fail(VQ_EINVAL, "a ladder's reference work is set up once, before the first frame");
    share = rs;
    share_leader = true;
    share_out = ref_only_modules(*plan);
}

/* Another rendition: each of its ref_only module instances that one of rs's
 * parts gives as it is (the same table; share() takes it in without
 * widening the part's settings, or else the same settings) folds that
 * part's words and runs no row work. */
void VqSession::follow_reference(vq::RefShare *rs)
{
    if (n_submitted || share)
        fail(VQ_EINVAL, "a ladder's reference work is set up once, before the first frame");
    const std::vector<int> mine = ref_only_modules(*plan);
    if (mine.empty())
        return;     /* nothing here that rendition 1 computes */
    share = rs;
    share_member = share->join();
    share_in.assign((size_t)exec_plan.n_modules, -1);
    for (int k : mine) {
        VqModuleExec &x = exec_plan.module[k];
        const vq::Module *m = module_of(*plan, k);
        int64_t off = 0;
        for (const VqModuleExec &y : rs->parts()) {
            VqModuleGeom g = y.g;
            const bool same = y.cpu == x.cpu && y.words == x.words && (!m->share || m->share(g, x.g)) &&
                              std::memcmp(g.opt, (m->share ? y.g.opt : x.g.opt), sizeof(g.opt)) == 0;
            if (same) {
                share_in[(size_t)k] = off;
                x.skip = 1;
                break;
            }
            off += (int64_t)y.words;
        }
    }
}

/* A distorted picture of another size: swscale's upscaler, exactly. */
void VqSession::make_scaler()
{
    dis_w = cfg.dis_width ? cfg.dis_width : fmt.width;
    dis_h = cfg.dis_height ? cfg.dis_height : fmt.height;
    if (dis_w == fmt.width && dis_h == fmt.height)
        return;
    if (cfg.scaler == VQ_SCALER_NONE)
        fail(VQ_EINVAL, "the distorted picture is %dx%d, the reference %dx%d, and scaler=none "
             "was asked for", dis_w, dis_h, fmt.width, fmt.height);
    if (cfg.scaler != VQ_SCALER_BICUBIC && cfg.scaler != VQ_SCALER_BICUBIC_X86)
        fail(VQ_EINVAL, "unknown scaler %d", (int)cfg.scaler);
    const int np = fmt.layout == VQ_LAYOUT_GRAY ? 1 : 3;
    VqScaleFormat src = { dis_w, dis_h, fmt.bitdepth, fmt.chroma_shift_w, fmt.chroma_shift_h, np };
    VqScaleFormat dst = { fmt.width, fmt.height, fmt.bitdepth, fmt.chroma_shift_w, fmt.chroma_shift_h, np };
    char msg[256] = "";
    const int mode = cfg.scaler == VQ_SCALER_BICUBIC ? VQ_SCALE_BICUBIC : VQ_SCALE_BICUBIC_X86;
    const int ret = vq_scale_plan_create(&scale, &src, &dst, mode, msg, sizeof(msg));
    if (ret < 0)
        fail(ret, "cannot upscale the %dx%d distorted picture to the %dx%d reference: %s", dis_w, dis_h,
             fmt.width, fmt.height, msg);
}

/* The plan and the per-instance host state for the section's format. */
void VqSession::make_plan()
{
    check_format(fmt);
    plan = std::make_unique<vq::FeaturePlan>(fmt, model_str, feature_str, cfg.enable_psnr != 0);
    exec_plan = plan->exec();
    sections.push_back(Section{ n_submitted, fmt });
    /* what instances keep across frames: each module's keep makes it from
     * the section before's (integer motion's stream starts afresh) */
    std::vector<std::shared_ptr<void>> before;
    before.swap(module_state);
    module_state.resize(plan->instances().size());
    std::vector<std::string> claimed;
    vq::RunInfo run{ cfg.n_subsample, cfg.score_begin > 0 || cfg.score_end != 0, title(n_submitted) };
    run.rendition = cfg.stream_rendition;
    run.claimed = &claimed;
    for (size_t i = 0; i < plan->instances().size(); i++) {
        const vq::Instance &in = plan->instances()[i];
        const vq::Module *m = in.opts.spec().module;
        if (!m || !m->keep)
            continue;
        const std::string why = m->keep(in.opts, plan->module_geom(in), run, i < before.size() ? before[i] : nullptr, module_state[i]);
        if (!why.empty())
            fail(VQ_EINVAL, "%s", why.c_str());
    }
}

/* Everything submitted is folded and its motion2/3 made final, as at the
 * end of a title. */
void VqSession::end_section()
{
    drain();
    settle(true);
    rest_late(sections.back().first_frame);
    motion_final = n_folded;
}

/* A new size or format from the next frame on: what came before is scored
 * as a title of its own; the next section starts afresh (motion too). */
void VqSession::new_section(const VqFormat &f)
{
    if (flushed)
        fail(VQ_EINVAL, "new section after flush");
    if (in_ladder)
        fail(VQ_EINVAL, "the renditions of a ladder cannot change size");
    if (n_submitted == sections.back().first_frame) {   /* nothing in this one yet */
        sections.pop_back();
    } else {
        end_section();
    }
    if (scale)
        fail(VQ_EINVAL, "a rendition of another size than its reference cannot change size");
    const std::vector<std::string> before = plan->columns();
    fmt = f;
    dis_w = f.width;
    dis_h = f.height;
    make_plan();
    if (plan->columns() != before)
        fail(VQ_EINVAL, "the new format %dx%d gives other outputs than the one before (e.g. "
             "chroma psnr): it cannot continue the same log", f.width, f.height);
    names.clear();
    for (const std::string &c : plan->columns())
        names.push_back(c.c_str());
    set_kinds();
    vq_cuda_exec_close(&cuda);
    vq_cpu_exec_close(&cpu);
    executor_ready = false;
    if (cfg.executor != VQ_EXECUTOR_AUTO)
        init_executor(cfg.executor == VQ_EXECUTOR_CUDA);
    else if (use_cuda)
        init_executor(true);
}

/* CPU loops or CUDA kernels; AUTO decides on the first picture (device or
 * host memory), and takes the GPU for host pictures too when one is usable. */
void VqSession::init_executor(bool cuda_wanted)
{
    char e[512] = "";
    int ret;
    executor_ready = true;
    if (cfg.executor == VQ_EXECUTOR_AUTO && !cuda_wanted)
        cuda_wanted = vq_cuda_available(e, sizeof(e)) != 0 && !vq_exec_plan_gpu_lacks(&exec_plan);
    use_cuda = cuda_wanted;
    if (use_cuda) {
        VqCudaExecConfig cc;
        std::memset(&cc, 0, sizeof(cc));
        cc.plan = exec_plan;
        cc.dis_scale = scale;
        cc.stream = cfg.cuda_stream;
        if ((ret = vq_cuda_exec_open(&cuda, &cc, e, sizeof(e))) < 0)
            fail(ret, "cuda executor: %s", e);
        return;
    }
    if ((ret = vq_cpu_exec_open(&cpu, &exec_plan, scale, cfg.threads, e, sizeof(e))) < 0)
        fail(ret, "cpu executor: %s", e);
}

void VqSession::views(const VqPicture *p, VqPlaneView v[3], int width, int height) const
{
    for (int plane = 0; plane < 3; plane++) {
        VqPlaneView &x = v[plane];
        int idx = plane;
        std::memset(&x, 0, sizeof(x));
        x.bytes = fmt.bytes_per_sample;
        x.shift = fmt.msb_aligned ? 16 - fmt.bitdepth : 0;
        x.step = 1;
        if (plane == 0) {
            x.w = width;
            x.h = height;
        } else {
            x.w = (width + (1 << fmt.chroma_shift_w) - 1) >> fmt.chroma_shift_w;
            x.h = (height + (1 << fmt.chroma_shift_h) - 1) >> fmt.chroma_shift_h;
            if (fmt.layout == VQ_LAYOUT_SEMIPLANAR) {
                idx = 1;
                x.step = 2;
            }
        }
        x.data = (const uint8_t *)p->data[idx];
        x.pitch = p->linesize[idx];
        if (plane == 2 && fmt.layout == VQ_LAYOUT_SEMIPLANAR && x.data)
            x.data += x.bytes;
    }
}

void VqSession::drain()
{
    while (use_cuda && cuda && vq_cuda_exec_in_flight(cuda) > 0)
        collect_cuda();
}

void VqSession::collect_cuda()
{
    const int64_t *rows;
    char e[512] = "";
    const auto t0 = std::chrono::steady_clock::now();
    int ret = vq_cuda_exec_collect(cuda, &rows, e, sizeof(e));
    if (timing.on)
        timing.wait += since(t0);
    if (ret < 0)
        fail(ret, "cuda executor: %s", e);
    fold(rows, frame(n_folded).scored);
}

void VqSession::print_timing() const
{
    if (!plan)
        return;
    const double n = timing.frames ? (double)timing.frames : 1.0;
    std::fprintf(stderr, "vqcuda timing: %lld frames folded; per frame: executor submit %.3f ms, wait for the "
                 "sums %.3f ms, fold %.3f ms\n", (long long)timing.frames, timing.submit / n, timing.wait / n,
                 timing.fold / n);
    const std::vector<vq::Instance> &inst = plan->instances();
    for (size_t i = 0; i < timing.inst.size() && i < inst.size(); i++)
        std::fprintf(stderr, "vqcuda timing:   fold of %s: %.3f ms per frame\n",
                     inst[i].opts.spec().name, timing.inst[i] / n);
}

void VqSession::submit(const VqPicture *ref, const VqPicture *dis, double time, bool key)
{
    if (flushed)
        fail(VQ_EINVAL, "submit after flush");
    if (!ref || !dis || !ref->data[0] || !dis->data[0])
        fail(VQ_EINVAL, "missing picture");
    if (ref->on_device != dis->on_device)
        fail(VQ_EINVAL, "one picture is in device memory, the other in host memory");
    prepare(ref->on_device != 0);
    if (!n_submitted)
        t_start = std::chrono::steady_clock::now();
    /* room for this frame; drop received frames (their values for the log are in `kept`) */
    while (base < n_received && base < n_folded - 1 && base < motion_final) {
        frames.pop_front();
        base++;
    }
    /* n_subsample counts title frames; a piece scores its own range only */
    const bool score = title(n_submitted) % cfg.n_subsample == 0 && in_range(n_submitted);
    FrameRec fr;
    fr.v.assign(names.size(), 0.0);
    fr.scored = score;
    fr.time = time;
    fr.key = key;
    frames.push_back(std::move(fr));
    VqPlaneView r[3], d[3];
    views(ref, r, fmt.width, fmt.height);
    views(dis, d, dis_w, dis_h);
    char e[512] = "";
    int ret;
    const auto t_submit = std::chrono::steady_clock::now();
    if (!use_cuda) {
        const int64_t *rows;
        if ((ret = vq_cpu_exec_run(cpu, r, d, score, &rows, e, sizeof(e))) < 0) {
            frames.pop_back();
            fail(ret, "cpu executor: %s", e);
        }
        fold(rows, score);
    } else {
        if ((ret = vq_cuda_exec_submit(cuda, r, d, ref->on_device, score, e, sizeof(e))) < 0) {
            frames.pop_back();
            fail(ret, "cuda executor: %s", e);
        }
        if (timing.on)
            timing.submit += since(t_submit);
        /* fold the oldest frame while the later ones run */
        while (vq_cuda_exec_in_flight(cuda) >= vq_cuda_exec_depth(cuda))
            collect_cuda();
    }
    n_submitted++;
}

void VqSession::prepare(bool on_device)
{
    if (!executor_ready)
        init_executor(on_device);
    if (on_device && !use_cuda)
        fail(VQ_EINVAL, "device pictures need the cuda executor (device=cpu was asked for)");
}

void VqSession::flush()
{
    if (flushed)
        return;
    end_section();
    /* the run ended well: what module instances wrote outside the session
     * becomes final (their commit) */
    for (size_t i = 0; !failed && i < plan->instances().size() && i < module_state.size(); i++) {
        const vq::Module *m = plan->instances()[i].opts.spec().module;
        if (m && m->commit && module_state[i])
            m->commit(module_state[i].get());
    }
    flushed = true;
    t_end = std::chrono::steady_clock::now();
    if (share && share_member >= 0) {
        share->leave(share_member);
        share_member = -2;  /* done: folds nothing more */
    }
}

int VqSession::receive(VqFrameResult *out)
{
    settle(false);
    const int64_t i = n_received;
    if (i >= n_settled())
        return flushed ? VQ_EOF : VQ_EAGAIN;
    /* motion2 of frame i needs frame i+1 (motion3 of frame 0 too; with the
     * five-frame window frames 0 and 1 need frame 2) */
    if (i >= motion_final)
        return VQ_EAGAIN;
    const bool seg_end = complete(i);
    FrameRec &fr = frame(i);
    out->index = title(i);
    out->n = fr.scored ? (int)names.size() : 0;
    result = fr.v;
    out->name = names.data();
    out->value = result.data();
    out->kind = kinds.data();
    out->segment_end = seg_end;
    out->segment_first = seg_end ? seg_closed_first : 0;
    out->segment_pooled = seg_end ? seg_values.data() : nullptr;
    /* libvmaf's writers skip a frame with no value written: every frame
     * where nothing has outputs (the null extractor alone) */
    if (kept && fr.scored && !names.empty())
        kept->add(title(i), fr.v.data());
    n_received++;
    if (flushed && n_received == n_folded)
        stream_pooled();
    return VQ_OK;
}
