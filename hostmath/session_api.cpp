/*
 * session_api.cpp - the extern "C" functions of include/vqcuda.h: each runs the
 * session's method and turns an exception into a return code and message.
 */
#include "session_impl.hpp"

using vq::fail;
using vq::session::check_size;

namespace {

template <typename F> int guarded(VqSession *s, F &&fn)
{
    return s ? vq::guard(s->err, "", fn) : VQ_EINVAL;
}

/* The same for a call without a session: the message into the caller's errbuf */
template <typename F> int guarded(char *errbuf, size_t errlen, F &&fn)
{
    std::string msg;
    const int ret = vq::guard(msg, "", fn);
    if (ret < 0 && errbuf && errlen)
        std::snprintf(errbuf, errlen, "%s", msg.c_str());
    return ret;
}

/* A failed submit, new section or flush: the run failed, and no module's
 * commit runs at flush (what a module wrote outside stays as it was). */
int failing(VqSession *s, int ret)
{
    if (ret < 0 && s)
        s->failed = true;
    return ret;
}

}  // namespace

extern "C" {

const char *vqcuda_version(void)
{
    return VQ_VERSION_STRING;
}

void vq_config_default(VqConfig *cfg)
{
    std::memset(cfg, 0, sizeof(*cfg));
    cfg->struct_size = sizeof(*cfg);
    cfg->executor = VQ_EXECUTOR_AUTO;
    cfg->n_subsample = 1;
    cfg->enable_psnr = 1;
    cfg->threads = 1;
    cfg->keep_frames = 1;
}

const char *vq_session_error(const VqSession *s)
{
    return s ? s->err.c_str() : "no session";
}

const char *vq_session_executor_name(const VqSession *s)
{
    return !s ? "none" : s->use_cuda ? "cuda" : "cpu";
}

const char *vq_session_model_name(const VqSession *s, int i)
{
    if (!s || !s->plan || i < 0 || (size_t)i >= s->plan->models().size())
        return nullptr;
    return s->names[(size_t)s->plan->models()[(size_t)i].first_col];
}

int vq_session_open(VqSession **out, const VqConfig *cfg, char *errbuf, size_t errlen)
{
    *out = nullptr;
    if (!cfg || cfg->struct_size != sizeof(VqConfig)) {
        if (errbuf && errlen)
            std::snprintf(errbuf, errlen, "VqConfig of another libvqcuda version (call vq_config_default)");
        return VQ_EINVAL;
    }
    VqSession *s = new (std::nothrow) VqSession;
    if (!s) {
        if (errbuf && errlen)
            std::snprintf(errbuf, errlen, "out of memory");
        return VQ_ENOMEM;
    }
    int ret = guarded(s, [&] {
        s->cfg = *cfg;
        s->fmt = cfg->format;
        s->model_str = cfg->model ? cfg->model : "";
        s->feature_str = cfg->feature ? cfg->feature : "";
        s->cfg.model = s->cfg.feature = nullptr;
        s->stream = (FILE *)cfg->stream_file;
        s->open();
    });
    if (ret < 0) {
        if (errbuf && errlen)
            std::snprintf(errbuf, errlen, "%s", s->err.c_str());
        delete s;
        return ret;
    }
    *out = s;
    return VQ_OK;
}

int vq_session_submit(VqSession *s, const VqPicture *ref, const VqPicture *dis)
{
    return failing(s, guarded(s, [&] { s->submit(ref, dis, NAN, false); }));
}

int vq_session_submit_at(VqSession *s, const VqPicture *ref, const VqPicture *dis, double time,
                         int keyframe)
{
    return failing(s, guarded(s, [&] { s->submit(ref, dis, time, keyframe != 0); }));
}

int vq_session_new_section(VqSession *s, const VqFormat *fmt)
{
    return failing(s, guarded(s, [&] {
        if (!fmt)
            fail(VQ_EINVAL, "no format");
        s->new_section(*fmt);
    }));
}

int vq_session_flush(VqSession *s)
{
    return failing(s, guarded(s, [&] { s->flush(); }));
}

int vq_session_receive(VqSession *s, VqFrameResult *out)
{
    int ret = VQ_OK;
    const int g = guarded(s, [&] { ret = s->receive(out); });
    return g < 0 ? g : ret;
}

int vq_session_pooled(VqSession *s, const char *name, enum VqPool pool, double *out)
{
    return guarded(s, [&] {
        const int c = name ? s->plan->column(name) : -1;
        if (c < 0)
            fail(VQ_EINVAL, "no feature named '%s'", name ? name : "(null)");
        if (!s->pool[(size_t)c].count())
            fail(VQ_EINVAL, "no frame was scored");
        const vq::Pooled p = s->pool[(size_t)c].get();
        *out = pool == VQ_POOL_MIN ? p.min : pool == VQ_POOL_MAX ? p.max
             : pool == VQ_POOL_HARMONIC_MEAN ? p.harmonic_mean : p.mean;
    });
}

int vq_session_write_log(VqSession *s, const char *path, enum VqLogFormat fmt)
{
    return guarded(s, [&] { s->write_log(path, fmt); });
}

int vq_session_set_stream(VqSession *s, void *stream_file)
{
    return guarded(s, [&] {
        if (s->n_submitted)
            fail(VQ_EINVAL, "the live output is set before the first frame");
        s->stream = (FILE *)stream_file;
        s->stream_errno = 0;
    });
}

int vq_session_stream_status(VqSession *s)
{
    return guarded(s, [&] {
        if (s->stream_errno)
            fail(VQ_EIO, "writing the live output failed: %s (nothing was written to it after that)",
                 std::strerror(s->stream_errno));
    });
}

int vq_session_note_unpaired(VqSession *s, double time, double ref_time)
{
    return guarded(s, [&] { s->unpaired.emplace_back(time, ref_time); });
}

int vq_frame_size_check(int width, int height, char *errbuf, size_t errlen)
{
    return guarded(errbuf, errlen, [&] { check_size(width, height); });
}

int vq_log_check(const char *path, char *errbuf, size_t errlen)
{
    return guarded(errbuf, errlen, [&] { vq::log_target_check(path ? path : ""); });
}

int vq_log_remove(const char *path)
{
    try {
        return path && vq::log_target_remove(path) ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

int vq_log_same_file(const char *a, const char *b)
{
    try {
        return a && b && vq::log_target_same(a, b) ? 1 : 0;
    } catch (...) {
        return 0;
    }
}

int vq_output_claim(const void *owner, const char *kind, const char *what, const char *path, char *errbuf,
                    size_t errlen)
{
    return guarded(errbuf, errlen, [&] {
        if (!owner || !path)
            vq::fail(VQ_EINVAL, "vq_output_claim: no owner or no path");
        vq::output_claim(owner, kind ? kind : "owner", what ? what : "output", path);
    });
}

void vq_output_release(const void *owner)
{
    vq::output_release(owner);
}

int vq_ladder_claim_outputs(const void *owner, const char *kind, int n, const char *log_path,
                            const char *segment_path, const char *stream_path, char *errbuf, size_t errlen)
{
    const int ret = guarded(errbuf, errlen, [&] {
        if (!owner)
            fail(VQ_EINVAL, "vq_ladder_claim_outputs: no owner");
        const auto files = vq::output_files(n, log_path, segment_path, stream_path);
        for (const auto &f : files)
            if (f.log)
                vq::log_target_check(f.path);
        for (const auto &f : files)
            vq::output_claim(owner, kind ? kind : "owner", f.what, f.path);
    });
    if (ret < 0 && owner)
        vq::output_release(owner);
    return ret;
}

int vq_ladder_remove_logs(int n, const char *log_path, const char *segment_path, char *list, size_t len)
{
    int removed = 0;
    std::string names;

    if (list && len)
        *list = 0;
    try {
        for (const auto &f : vq::output_files(n, log_path, segment_path, nullptr))
            if (vq::log_target_remove(f.path))
                names += (removed++ ? ", " : "") + f.path;
    } catch (...) {
        /* templates that break the rules were refused before any run */
    }
    if (list && len)
        std::snprintf(list, len, "%s", names.c_str());
    return removed;
}

int vq_session_write_segments(VqSession *s, const char *path)
{
    return guarded(s, [&] {
        if (!path)
            fail(VQ_EINVAL, "no segment path");
        if (!s->cfg.keep_frames)
            fail(VQ_EINVAL, "the session was opened without keep_frames: no segment log");
        vq::LogTable t;
        t.names = s->plan->columns();
        t.segments = s->segments;
        vq::write_segments_csv(path, t);
    });
}

void vq_session_close(VqSession **ps)
{
    if (ps) {
        delete *ps;
        *ps = nullptr;
    }
}

}  // extern "C"
