/*
 * session_log.cpp - a frame's results made final (the models, segments and
 * pools), the live JSON Lines stream, and the logs.
 */
#include "session_impl.hpp"

using vq::fail;

namespace {

void json_metrics(std::string &o, const std::vector<const char *> &names, const double *v, size_t stride)
{
    o += "{";
    for (size_t k = 0; k < names.size(); k++) {
        o += k ? ", \"" : "\"";
        o += names[k];
        o += "\": ";
        vq::append_json_number(o, v[k * stride]);
    }
    o += "}";
}

}  // namespace

/* one line of the live output, flushed; the first failure is kept (and
 * nothing written after it), for vq_session_stream_status */
void VqSession::stream_put(const std::string &line)
{
    if (!stream || stream_errno)
        return;
    errno = 0;
    if (std::fputs(line.c_str(), stream) < 0 || std::fflush(stream) != 0)
        stream_errno = errno ? errno : EIO;
}

void VqSession::stream_frame(int64_t i, const FrameRec &fr)
{
    if (!stream)
        return;
    std::string o = "{\"frameNum\": " + std::to_string(title(i));
    if (cfg.stream_rendition > 0)
        o += ", \"rendition\": " + std::to_string(cfg.stream_rendition);
    o += ", \"time\": ";
    vq::append_json_number(o, fr.time);
    o += ", \"metrics\": ";
    json_metrics(o, names, fr.v.data(), 1);
    o += "}\n";
    stream_put(o);
}

void VqSession::stream_segment(const vq::LogSegment &g)
{
    if (!stream)
        return;
    std::string o = "{\"segment\": {\"first_frame\": " + std::to_string(g.first_frame) +
                    ", \"last_frame\": " + std::to_string(g.last_frame) + ", \"start_time\": ";
    vq::append_json_number(o, g.start_time);
    o += ", \"end_time\": ";
    vq::append_json_number(o, g.end_time);
    if (cfg.stream_rendition > 0)
        o += ", \"rendition\": " + std::to_string(cfg.stream_rendition);
    o += ", \"pooled_metrics\": {";
    for (size_t k = 0; k < names.size(); k++) {
        const vq::Pooled &p = g.pooled[k];
        o += std::string(k ? ", \"" : "\"") + names[k] + "\": {\"min\": ";
        vq::append_json_number(o, p.min);
        o += ", \"max\": ";
        vq::append_json_number(o, p.max);
        o += ", \"mean\": ";
        vq::append_json_number(o, p.mean);
        o += ", \"harmonic_mean\": ";
        vq::append_json_number(o, p.harmonic_mean);
        o += "}";
    }
    o += "}}}\n";
    stream_put(o);
}

void VqSession::stream_pooled()
{
    if (!stream)
        return;
    std::string o = "{\"pooled_metrics\": {";
    for (size_t k = 0; k < names.size(); k++) {
        o += std::string(k ? ", \"" : "\"") + names[k] + "\": {";
        if (pool[k].count()) {
            const vq::Pooled p = pool[k].get();
            o += "\"min\": ";
            vq::append_json_number(o, p.min);
            o += ", \"max\": ";
            vq::append_json_number(o, p.max);
            o += ", \"mean\": ";
            vq::append_json_number(o, p.mean);
            o += ", \"harmonic_mean\": ";
            vq::append_json_number(o, p.harmonic_mean);
        }
        o += "}";
    }
    o += "}";
    if (cfg.stream_rendition > 0)
        o += ", \"rendition\": " + std::to_string(cfg.stream_rendition);
    o += "}\n";
    stream_put(o);
}

/* The segment a frame belongs to (only the order of the numbers matters). */
int64_t VqSession::segment_of(int64_t i)
{
    const FrameRec &fr = frame(i);
    if (cfg.segment_frames)
        return title(i) / cfg.segment_frames;
    if (cfg.segment_duration) {
        if (!std::isfinite(fr.time))
            fail(VQ_EINVAL, "segment_duration needs the frames' times (vq_session_submit_at)");
        return (int64_t)std::floor(fr.time / cfg.segment_duration);
    }
    if (cfg.segment_keyframes)
        return seg_key_count;
    return -1;
}

/* The open segment ends: to the list, the stream, and the next result. */
bool VqSession::close_segment()
{
    if (seg.id < 0 || !seg.any) {
        seg.id = -1;
        return false;
    }
    vq::LogSegment g;
    g.first_frame = seg.first;
    g.last_frame = seg.last;
    g.start_time = seg.t0;
    g.end_time = seg.t1;
    seg_values.clear();
    for (vq::PoolAcc &a : seg.pool) {
        const vq::Pooled p = a.count() ? a.get() : vq::Pooled{ NAN, NAN, NAN, NAN };
        g.pooled.push_back(p);
        seg_values.insert(seg_values.end(), { p.min, p.max, p.mean, p.harmonic_mean });
        a = vq::PoolAcc();
    }
    if (cfg.keep_frames)
        segments.push_back(g);
    seg_closed_first = seg.first;
    stream_segment(g);
    seg.id = -1;
    seg.any = false;
    return true;
}

/* The models' scores of frame i (its motion2 is known), the running pools
 * and the segment's.  true when frame i ends a segment. */
bool VqSession::complete(int64_t i)
{
    FrameRec &fr = frame(i);
    bool ended = false;
    if (fr.key && cfg.segment_keyframes && i > 0)
        seg_key_count++;
    if (!in_range(i))
        return false;
    if (fr.scored) {
        std::vector<double> in;
        for (const vq::ModelUse &m : plan->models()) {
            in.clear();
            for (int c : m.input_cols)
                in.push_back(fr.v[(size_t)c]);
            m.model->predict(in.data(), &fr.v[(size_t)m.first_col]);
        }
        for (size_t c = 0; c < pool.size(); c++)
            pool[c].add(fr.v[c]);
        stream_frame(i, fr);
    }
    if (cfg.segment_frames || cfg.segment_duration || cfg.segment_keyframes) {
        const int64_t id = segment_of(i);
        if (seg.id != id) {
            close_segment();
            seg.id = id;
            seg.first = title(i);
            seg.t0 = fr.time;
        }
        seg.last = title(i);
        seg.t1 = fr.time;
        if (fr.scored) {
            seg.any = true;
            for (size_t c = 0; c < pool.size(); c++)
                seg.pool[c].add(fr.v[c]);
        }
        /* does the next frame start another segment? (flushed: none comes) */
        int64_t next_id = -2;
        if (i + 1 < n_submitted && in_range(i + 1)) {
            const bool key_next = frame(i + 1).key && cfg.segment_keyframes;
            next_id = cfg.segment_keyframes ? (key_next ? id + 1 : id) : segment_of(i + 1);
        }
        if (next_id != id && (flushed || i + 1 < n_submitted || !in_range(i + 1)))
            ended = close_segment();
    }
    return ended;
}

/* The log as it stands; before flush, as if the input ended here (the last
 * frames' motion2/3 and scores made final on a copy: the session goes on). */
void VqSession::write_log(const char *path, VqLogFormat fmt_)
{
    if (!cfg.keep_frames)
        fail(VQ_EINVAL, "the session was opened without keep_frames: no per-frame log");
    if (!path)
        fail(VQ_EINVAL, "no log path");
    drain();
    settle(true);
    std::deque<FrameRec> live;
    std::vector<vq::PoolAcc> live_pool;
    const int64_t live_received = n_received;
    /* the segment state and the live output go on from where the session stands */
    const Segment live_seg = seg;
    const std::vector<vq::LogSegment> live_segments = segments;
    const int64_t live_key_count = seg_key_count, live_closed_first = seg_closed_first;
    const std::vector<double> live_seg_values = seg_values;
    FILE *const live_stream = stream;
    if (!flushed) {
        live = frames;
        live_pool = pool;
        stream = nullptr;
        rest_late(sections.back().first_frame);
        for (; n_received < n_folded; n_received++)
            complete(n_received);
        close_segment();    /* the open one, as at the end of the input */
    }
    vq::LogTable t;
    t.version = vqcuda_version();
    t.width = fmt.width;
    t.height = fmt.height;
    t.names = plan->columns();
    /* the frames given out before this call (kept), then those made final
     * here, as at the end of the input (receive() skips the same ones) */
    t.kept = kept.get();
    for (int64_t i = live_received; i < n_received; i++) {
        const FrameRec &fr = frame(i);
        if (!fr.scored || t.names.empty())
            continue;
        t.frame_num.push_back(title(i));
        t.values.insert(t.values.end(), fr.v.begin(), fr.v.end());
    }
    for (const Section &x : sections)
        t.sections.push_back(vq::LogSection{ title(x.first_frame), x.fmt.width, x.fmt.height, x.fmt.bitdepth });
    t.segments = segments;
    t.unpaired = unpaired;
    t.segmented = cfg.segment_frames || cfg.segment_duration || cfg.segment_keyframes;
    if (cfg.score_begin > 0 || cfg.score_end) {
        t.piece = true;
        t.piece_begin = cfg.score_begin;
        t.piece_end = cfg.score_end ? cfg.score_end : title(n_submitted);
        t.piece_key = model_str + "|" + feature_str + "|psnr=" + std::to_string(cfg.enable_psnr) +
                      "|n_subsample=" + std::to_string(cfg.n_subsample) + "|" + std::to_string(fmt.width) +
                      "x" + std::to_string(fmt.height) + "x" + std::to_string(fmt.bitdepth) + "|dis=" +
                      std::to_string(dis_w) + "x" + std::to_string(dis_h) + "|scaler=" +
                      std::to_string((int)cfg.scaler) + "|segments=" + std::to_string(cfg.segment_frames) +
                      "," + std::to_string(cfg.segment_duration) + "," + std::to_string(cfg.segment_keyframes);
    }
    if (t.frames())
        for (const vq::PoolAcc &p : pool)
            t.pooled.push_back(p.get());
    t.aggregate = aggregates();
    const double secs = std::chrono::duration<double>((flushed ? t_end : std::chrono::steady_clock::now()) -
                                                      t_start).count();
    t.fps = secs > 0 ? (double)n_folded / secs : 0.0;
    if (!flushed) {     /* back to where the session stands */
        frames.swap(live);
        pool.swap(live_pool);
        n_received = live_received;
        seg = live_seg;
        segments = live_segments;
        seg_key_count = live_key_count;
        seg_closed_first = live_closed_first;
        seg_values = live_seg_values;
        stream = live_stream;
    }
    vq::write_log(path, fmt_, t);
}

/* The log's aggregate_metrics: what libvmaf's extractors set at flush
 * (psnr's apsnr_y/cb/cr under enable_apsnr), from what the module instances
 * kept so far. */
std::vector<std::pair<std::string, double>> VqSession::aggregates() const
{
    std::vector<std::pair<std::string, double>> out;
    for (size_t i = 0; plan && i < plan->instances().size() && i < module_state.size(); i++) {
        const vq::Module *m = plan->instances()[i].opts.spec().module;
        if (!m || !m->end || !module_state[i])
            continue;
        std::vector<std::pair<std::string, double>> v;
        m->end(module_state[i].get(), v);
        for (auto &a : v) {     /* a name already there is kept as it is */
            bool have = false;
            for (const auto &b : out)
                have = have || b.first == a.first;
            if (!have)
                out.push_back(std::move(a));
        }
    }
    return out;
}

/* ---- the C API --------------------------------------------------------- */
