/* cambi_heatmaps.cpp - cambi's heatmaps_path files: see cambi_heatmaps.h. */
#include "cambi/cambi_heatmaps.h"

#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "vqcuda.h"

struct VqCambiHeatmaps {
    std::string dir;
    std::string final_path[VQ_CAMBI_SCALES], tmp_path[VQ_CAMBI_SCALES];
    int fd[VQ_CAMBI_SCALES] = { -1, -1, -1, -1, -1 };
    int sw[VQ_CAMBI_SCALES], sh[VQ_CAMBI_SCALES];
    double scale = 0.0;
    bool committed = false;
    std::vector<uint16_t> row;
};

namespace {

int say(char *msg, size_t n, int code, const char *fmt, ...)
{
    if (msg && n) {
        va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(msg, n, fmt, ap);
        va_end(ap);
    }
    return code;
}

/* libvmaf's mkdirp: every parent first, mode 0770; an existing one is fine
 * (libvmaf accepts EEXIST even for a file: the fopen below then fails) */
int mkdir_p(const std::string &path)
{
    std::string norm;   /* runs of '/' as one */
    for (size_t i = 0; i < path.size(); i++)
        if (!(path[i] == '/' && i && path[i - 1] == '/'))
            norm += path[i];
    for (size_t i = 1; i <= norm.size(); i++) {
        if (i < norm.size() && norm[i] != '/')
            continue;
        const std::string part = norm.substr(0, i);
        if (mkdir(part.c_str(), 0770) != 0 && errno != EEXIST)
            return -1;
    }
    return 0;
}

void drop_temps(VqCambiHeatmaps *h)
{
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        if (h->fd[s] >= 0) {
            close(h->fd[s]);
            h->fd[s] = -1;
        }
        if (!h->committed && !h->tmp_path[s].empty())
            unlink(h->tmp_path[s].c_str());
    }
}

}  // namespace

extern "C" double vq_cambi_heatmap_scale(const VqCambiParams *p)
{
    int max_w = p->diff_weights[0];
    for (int d = 0; d < p->num_diffs; d++)
        if (p->diff_weights[d] > max_w)
            max_w = p->diff_weights[d];
    const int max_c_value = max_w * p->window * p->window / 4;
    return (double)((1 << 16) - 1) / max_c_value;
}

extern "C" uint16_t vq_cambi_heatmap_value(double scale, float c)
{
    /* (uint16_t)(double): c-values are >= 0 and at most max_c_value (the
     * product then at most 65535, up to rounding, which truncation drops);
     * through a wide integer so that no value is undefined here */
    const double v = scale * c;
    if (!(v >= 0.0))
        return 0;
    if (v >= 9.2e18)
        return 0;
    return (uint16_t)(int64_t)v;
}

extern "C" int vq_cambi_heatmaps_open(VqCambiHeatmaps **out, const char *path,
                                      const VqCambiParams *p, char *msg, size_t n)
{
    *out = nullptr;
    if (!path || !*path)
        return say(msg, n, VQ_EINVAL, "cambi: heatmaps_path is empty");
    VqCambiHeatmaps *h;
    try {
        h = new VqCambiHeatmaps;
        h->dir = path;
        h->row.resize((size_t)p->sw[0]);
    } catch (...) {
        return say(msg, n, VQ_ENOMEM, "cambi: heatmaps_path %s: out of memory", path);
    }
    if (mkdir_p(h->dir) != 0) {
        const int e = errno;
        delete h;
        return say(msg, n, VQ_EIO, "cambi: heatmaps_path %s: cannot create the directory: %s", path,
                   std::strerror(e));
    }
    h->scale = vq_cambi_heatmap_scale(p);
    int name_w = p->w, name_h = p->h;   /* cambi.c init: the encode size, halved per scale */
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        h->sw[s] = p->sw[s];
        h->sh[s] = p->sh[s];
        char name[128];
        std::snprintf(name, sizeof(name), "cambi_heatmap_scale_%d_%dx%d_16b.gray", s, name_w, name_h);
        name_w = (name_w + 1) >> 1;
        name_h = (name_h + 1) >> 1;
        h->final_path[s] = h->dir + "/" + name;
        /* the named file must be one libvmaf could open for writing */
        struct stat st;
        const char *why = nullptr;
        if (stat(h->final_path[s].c_str(), &st) == 0) {
            if (S_ISDIR(st.st_mode))
                why = "is a directory";
            else if (access(h->final_path[s].c_str(), W_OK) != 0)
                why = "exists and cannot be written";
        }
        if (why) {
            const std::string f = h->final_path[s];
            vq_cambi_heatmaps_close(h);
            return say(msg, n, VQ_EIO, "cambi: heatmaps_path: %s %s", f.c_str(), why);
        }
        for (int k = 0; k < 100 && h->fd[s] < 0; k++) {
            h->tmp_path[s] = h->dir + "/." + name + ".vqtmp." + std::to_string((long)getpid()) + "." +
                             std::to_string(k);
            h->fd[s] = open(h->tmp_path[s].c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (h->fd[s] < 0 && errno != EEXIST)
                break;
        }
        if (h->fd[s] < 0) {
            const int e = errno;
            h->tmp_path[s].clear();
            const std::string f = h->final_path[s];
            vq_cambi_heatmaps_close(h);
            return say(msg, n, VQ_EIO, "cambi: heatmaps_path %s: cannot write %s: %s", path, f.c_str(),
                       std::strerror(e));
        }
    }
    *out = h;
    return 0;
}

extern "C" int vq_cambi_heatmaps_write(VqCambiHeatmaps *h, int64_t frame, const float *const *cv,
                                       char *msg, size_t n)
{
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        const int w = h->sw[s], ht = h->sh[s];
        for (int i = 0; i < ht; i++) {
            const float *src = cv[s] + (size_t)i * w;
            for (int j = 0; j < w; j++) {
                const uint16_t v = vq_cambi_heatmap_value(h->scale, src[j]);
                std::memcpy(&h->row[(size_t)j], &v, 2);   /* native order, as fwrite */
            }
            const off_t at = (off_t)((frame * ht + i) * (int64_t)w * 2);
            const size_t len = (size_t)w * 2;
            size_t done = 0;
            while (done < len) {
                const ssize_t r = pwrite(h->fd[s], (const char *)h->row.data() + done, len - done,
                                         at + (off_t)done);
                if (r < 0 && errno == EINTR)
                    continue;
                if (r <= 0)
                    return say(msg, n, VQ_EIO, "cambi: heatmaps_path: writing %s (frame %lld): %s",
                               h->final_path[s].c_str(), (long long)frame,
                               r < 0 ? std::strerror(errno) : "nothing written");
                done += (size_t)r;
            }
        }
    }
    return 0;
}

extern "C" int vq_cambi_heatmaps_commit(VqCambiHeatmaps *h, char *msg, size_t n)
{
    if (h->committed)
        return 0;
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        if (h->fd[s] >= 0 && close(h->fd[s]) != 0) {
            h->fd[s] = -1;
            return say(msg, n, VQ_EIO, "cambi: heatmaps_path: closing %s: %s", h->tmp_path[s].c_str(),
                       std::strerror(errno));
        }
        h->fd[s] = -1;
    }
    for (int s = 0; s < VQ_CAMBI_SCALES; s++) {
        if (rename(h->tmp_path[s].c_str(), h->final_path[s].c_str()) != 0)
            return say(msg, n, VQ_EIO, "cambi: heatmaps_path: cannot rename %s to %s: %s",
                       h->tmp_path[s].c_str(), h->final_path[s].c_str(), std::strerror(errno));
        h->tmp_path[s].clear();
    }
    h->committed = true;
    return 0;
}

extern "C" void vq_cambi_heatmaps_close(VqCambiHeatmaps *h)
{
    if (!h)
        return;
    drop_temps(h);
    delete h;
}
