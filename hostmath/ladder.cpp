/*
 * ladder.cpp - one reference and its renditions as one object (include/vqcuda.h,
 * vq_ladder_*): renditions 1..n of a title scored against the same reference
 * frames; n = 1 is a plain pair.
 *
 * Each rendition is a session of the ladder's configuration with its own
 * distorted size (session.cpp: its plan, executor, folds, pools, logs).  The
 * reference's own work is done once, for all of them, and the ladder alone
 * ties them together; no rendition knows another:
 *   - the ref_only modules' row work (integer motion): rendition 1 runs it
 *     and puts each frame's sections into the ladder's RefShare
 *     (ref_share.hpp), the others fold them from there;
 *   - on the GPU, the reference's part of VIF and ADM (their scale images
 *     and moments, bands and denominators): rendition 1's executor makes it
 *     once per frame and every rendition's executor reads it (VqCudaRef,
 *     kernels/cuda_exec_ref.cuh), set up here before the first frame.
 * What keeps that exact is the order, which is the ladder's: every reference
 * frame goes to rendition 1 first, then to the others; rendition 1 folds
 * what it has in flight before another rendition ends, and is flushed first.
 */
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "session_impl.hpp"

struct VqLadder {
    std::vector<VqSession *> s;
    std::vector<int64_t> submitted;
    std::vector<char> ended, flushed;
    std::unique_ptr<vq::RefShare> ref;  /* the ref_only modules' sections (none: n = 1, or no such module) */
    bool started = false;               /* the executors are set up (the first frame) */
    std::string err;
};

namespace {

/* rendition k's name in messages ("" for a single pair) */
std::string who(const VqLadder *l, int k)
{
    return l->s.size() > 1 ? "rendition " + std::to_string(k + 1) + ": " : "";
}

int session_failed(VqLadder *l, int k, int ret)
{
    if (ret < 0)
        l->err = who(l, k) + vq_session_error(l->s[(size_t)k]);
    return ret;
}

/* fn on rendition k's session; what it throws into a return code and l->err */
template <typename F> int guarded(VqLadder *l, int k, F &&fn)
{
    return vq::guard(l->err, who(l, k), [&] { fn(l->s[(size_t)k]); });
}

/* Before the first frame: every rendition's executor for these pictures;
 * on the GPU rendition 1's executor makes the reference's part of VIF and
 * ADM for every rendition's (where one runs on the CPU, it does its own). */
int start(VqLadder *l, const VqPicture *ref)
{
    l->started = true;
    for (size_t k = 0; k < l->s.size(); k++) {
        const int ret = guarded(l, (int)k, [&](VqSession *s) { s->prepare(ref->on_device != 0); });
        if (ret < 0)
            return ret;
    }
    VqSession *first = l->s[0];
    if (l->s.size() < 2 || !first->use_cuda || !first->cuda)
        return VQ_OK;
    char e[512] = "";
    const int ret = vq_cuda_exec_lead(first->cuda, e, sizeof(e));
    if (ret < 0) {
        l->err = who(l, 0) + "cuda executor: " + e;
        return ret;
    }
    VqCudaRef *r = vq_cuda_exec_ref(first->cuda);
    if (!r)
        return VQ_OK;
    for (size_t k = 1; k < l->s.size(); k++)
        if (l->s[k]->use_cuda && l->s[k]->cuda)
            vq_cuda_exec_share(l->s[k]->cuda, r);
    vq_cuda_ref_release(r);
    return VQ_OK;
}

bool valid(const VqLadder *l, int k)
{
    return l && k >= 0 && (size_t)k < l->s.size();
}

int flush_one(VqLadder *l, int k)
{
    if (l->flushed[(size_t)k])
        return VQ_OK;
    l->flushed[(size_t)k] = 1;
    return session_failed(l, k, vq_session_flush(l->s[(size_t)k]));
}

}  // namespace

extern "C" {

int vq_ladder_path(const char *tmpl, int k, char *out, size_t len)
{
    const char *d = tmpl ? std::strstr(tmpl, "%d") : nullptr;
    const int n = !tmpl ? -1
                : d ? std::snprintf(out, len, "%.*s%d%s", (int)(d - tmpl), tmpl, k + 1, d + 2)
                    : std::snprintf(out, len, "%s", tmpl);
    return n < 0 || (size_t)n >= len ? VQ_EINVAL : VQ_OK;
}

int vq_ladder_open(VqLadder **out, const VqConfig *cfg, int n, const int *dis_w, const int *dis_h,
                   char *errbuf, size_t errlen)
{
    *out = nullptr;
    if (!cfg || n < 1 || n > VQ_LADDER_MAX) {
        if (errbuf && errlen)
            std::snprintf(errbuf, errlen, "a ladder has 1 to %d renditions (%d given)", VQ_LADDER_MAX, n);
        return VQ_EINVAL;
    }
    VqLadder *l = new (std::nothrow) VqLadder;
    if (!l) {
        if (errbuf && errlen)
            std::snprintf(errbuf, errlen, "out of memory");
        return VQ_ENOMEM;
    }
    try {
        l->s.assign((size_t)n, nullptr);
        l->submitted.assign((size_t)n, 0);
        l->ended.assign((size_t)n, 0);
        l->flushed.assign((size_t)n, 0);
    } catch (const std::bad_alloc &) {
        delete l;
        if (errbuf && errlen)
            std::snprintf(errbuf, errlen, "out of memory");
        return VQ_ENOMEM;
    }
    for (int k = 0; k < n; k++) {
        VqConfig c = *cfg;
        char e[512] = "";
        c.dis_width = dis_w ? dis_w[k] : cfg->dis_width;
        c.dis_height = dis_h ? dis_h[k] : cfg->dis_height;
        if (n > 1)
            c.stream_rendition = k + 1;
        const int ret = vq_session_open(&l->s[(size_t)k], &c, e, sizeof(e));
        if (ret < 0) {
            if (errbuf && errlen)
                std::snprintf(errbuf, errlen, "%s%s", who(l, k).c_str(), e);
            vq_ladder_close(&l);
            return ret;
        }
    }
    /* the ref_only modules' row work: rendition 1's, once for all */
    int ret = VQ_OK;
    if (n > 1) {
        for (int k = 0; k < n && ret == VQ_OK; k++)
            ret = guarded(l, k, [&](VqSession *s) {
                s->in_ladder = true;
                if (!k) {
                    std::vector<VqModuleExec> parts = s->ref_parts();
                    if (parts.empty())
                        return;
                    l->ref = std::make_unique<vq::RefShare>(std::move(parts));
                    s->lead_reference(l->ref.get());
                } else if (l->ref) {
                    s->follow_reference(l->ref.get());
                }
            });
    }
    if (ret < 0) {
        if (errbuf && errlen)
            std::snprintf(errbuf, errlen, "%s", l->err.c_str());
        vq_ladder_close(&l);
        return ret;
    }
    *out = l;
    return VQ_OK;
}

int vq_ladder_renditions(const VqLadder *l)
{
    return l ? (int)l->s.size() : 0;
}

VqSession *vq_ladder_session(const VqLadder *l, int k)
{
    return valid(l, k) ? l->s[(size_t)k] : nullptr;
}

const char *vq_ladder_error(const VqLadder *l)
{
    return l ? l->err.c_str() : "no ladder";
}

int vq_ladder_submit(VqLadder *l, const VqPicture *ref, const VqPicture *const *dis, double time,
                     int keyframe)
{
    if (!l || !dis)
        return VQ_EINVAL;
    if (!dis[0] || l->ended[0]) {
        l->err = "rendition 1 drives the ladder: it is given every reference frame";
        return VQ_EINVAL;
    }
    if (!l->started && ref && ref->data[0]) {
        const int ret = start(l, ref);
        if (ret < 0)
            return ret;
    }
    for (size_t k = 0; k < l->s.size(); k++) {
        if (l->ended[k])
            continue;
        if (!dis[k]) {
            const int ret = vq_ladder_end(l, (int)k);
            if (ret < 0)
                return ret;
            continue;
        }
        const int ret = vq_session_submit_at(l->s[k], ref, dis[k], time, keyframe);
        if (ret < 0)
            return session_failed(l, (int)k, ret);
        l->submitted[k]++;
    }
    return VQ_OK;
}

int vq_ladder_end(VqLadder *l, int k)
{
    if (!valid(l, k) || k == 0)
        return VQ_EINVAL;
    l->ended[(size_t)k] = 1;
    /* its results come now; the reference's work need not wait for it.
     * Its frames in flight fold the reference's sections of their frames:
     * rendition 1 folds those first */
    const int ret = guarded(l, 0, [](VqSession *s) {
        try {
            s->drain();
        } catch (...) {
            s->failed = true;   /* as a failed submit: no module's commit at flush */
            throw;
        }
    });
    return ret < 0 ? ret : flush_one(l, k);
}

int vq_ladder_ended(const VqLadder *l, int k)
{
    return valid(l, k) ? l->ended[(size_t)k] : 1;
}

int64_t vq_ladder_submitted(const VqLadder *l, int k)
{
    return valid(l, k) ? l->submitted[(size_t)k] : 0;
}

int vq_ladder_receive(VqLadder *l, int *k, VqFrameResult *out)
{
    if (!l || !k || !out)
        return VQ_EINVAL;
    bool waiting = false;
    for (size_t r = 0; r < l->s.size(); r++) {
        const int ret = vq_session_receive(l->s[r], out);
        if (ret == VQ_OK) {
            *k = (int)r;
            return VQ_OK;
        }
        if (ret == VQ_EAGAIN) {
            if (l->flushed[r]) {
                l->err = who(l, (int)r) + "no result after flush";
                return VQ_EINVAL;
            }
            waiting = true;
        } else if (ret != VQ_EOF) {
            return session_failed(l, (int)r, ret);
        }
    }
    return waiting ? VQ_EAGAIN : VQ_EOF;
}

int vq_ladder_flush(VqLadder *l)
{
    if (!l)
        return VQ_EINVAL;
    for (size_t k = 0; k < l->s.size(); k++) {
        const int ret = flush_one(l, (int)k);
        if (ret < 0)
            return ret;
    }
    return VQ_OK;
}

int vq_ladder_write_logs(VqLadder *l, const char *path, enum VqLogFormat fmt, const char *segments)
{
    if (!l || !path)
        return VQ_EINVAL;
    int first = VQ_OK;
    std::string errs;
    for (size_t k = 0; k < l->s.size(); k++) {
        char p[4096];
        int ret = vq_ladder_path(path, (int)k, p, sizeof(p));
        if (ret == VQ_OK)
            ret = vq_session_write_log(l->s[k], p, fmt);
        if (ret == VQ_OK && segments && (ret = vq_ladder_path(segments, (int)k, p, sizeof(p))) == VQ_OK)
            ret = vq_session_write_segments(l->s[k], p);
        if (ret < 0) {  /* the other renditions' logs are written all the same */
            errs += (errs.empty() ? "" : "; ") + who(l, (int)k) + vq_session_error(l->s[k]);
            if (first == VQ_OK)
                first = ret;
        }
    }
    if (first < 0)
        l->err = errs;
    return first;
}

int vq_ladder_set_stream(VqLadder *l, void *stream_file)
{
    if (!l)
        return VQ_EINVAL;
    for (size_t k = 0; k < l->s.size(); k++) {
        const int ret = vq_session_set_stream(l->s[k], stream_file);
        if (ret < 0)
            return session_failed(l, (int)k, ret);
    }
    return VQ_OK;
}

int vq_ladder_stream_status(VqLadder *l)
{
    if (!l)
        return VQ_EINVAL;
    for (size_t k = 0; k < l->s.size(); k++) {
        const int ret = vq_session_stream_status(l->s[k]);
        if (ret < 0) {
            l->err = vq_session_error(l->s[k]);     /* the same file for every rendition */
            return ret;
        }
    }
    return VQ_OK;
}

void vq_ladder_close(VqLadder **pl)
{
    if (!pl || !*pl)
        return;
    VqLadder *l = *pl;
    /* rendition 1 last: the others' executors read its reference work */
    for (size_t k = l->s.size(); k-- > 0;)
        vq_session_close(&l->s[k]);
    delete l;
    *pl = nullptr;
}

}  // extern "C"
