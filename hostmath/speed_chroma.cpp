// speed_chroma.cpp - libvmaf v3.2.0's speed_chroma on the CPU (see
// speed_chroma.hpp, docs/speed.md).  Every expression keeps the reference's
// types: where speed.c or vif_tools.c mixes a float with a double constant
// or calls a double libm function on a float, so does this file, and the
// comments say so.  Built with -ffp-contract=off (no fused multiply-add), as
// the reference is built for x86-64 baseline.
#include "speed_chroma.hpp"
#include "speed_linalg.hpp"

#include <cmath>
#include <cstring>
#include <system_error>
#include <thread>

namespace vq {
namespace speed {

namespace {

constexpr int kBlock = VQ_SPEED_BLOCK;
constexpr int kElems = kBlock * kBlock; // elements_in_block

// vif_tools.h's valid_kernelscales, as the floats it stores
const float kValidKernelscales[] = {
    1.0f, 1.0f / 2.0f, 3.0f / 2.0f, 2.0f, 2.0f / 3.0f, 24.0f / 10.0f, 360.0f / 97.0f,
    4.0f / 3.0f, 3.5f / 3.0f, 3.75f / 3.0f, 4.25f / 3.0f, 5.0f / 3.0f, 3.0f,
    1.0f / 2.25f, 1.4746f, 1.54f, 1.6f, 1.06667f, 0.711111f, 0.740740f, 1.111111f,
};

bool almost_equal(double x, double c) { return std::fabs(x - c) < 1.0e-3; }

}  // namespace

bool kernelscale_valid(float kernelscale)
{
    for (float k : kValidKernelscales)
        if (std::fabs(kernelscale - k) < 1e-3)
            return true;
    return false;
}

const char *const prescale_methods[] = { "nearest", "bilinear", "bicubic", "lanczos4", nullptr };

int scale_method(const std::string &name)
{
    if (name == "nearest")
        return VQ_SPEED_NEAREST;
    if (name == "bilinear")
        return VQ_SPEED_BILINEAR;
    if (name == "bicubic")
        return VQ_SPEED_BICUBIC;
    if (name == "lanczos4")
        return VQ_SPEED_LANCZOS4;
    return -1;
}

int filter_size(int scale, float kernelscale)
{
    const int n = (1 << (4 - scale)) + 1;
    int c = (int)std::ceil(n * kernelscale);   // round_up_to_odd: ceil in double
    if (c % 2 == 0)
        c += 1;
    return c > 3 ? c : 3;
}

std::vector<float> antialias_taps(float kernelscale)
{
    // always the size of the scale-1 filter; stdev "sqrt(scale) *
    // window_size / 5.0f" in double (sqrt(4) = 2), rounded to float
    const int ws = filter_size(1, kernelscale);
    return gaussian_kernel(ws, (float)(std::sqrt((double)VQ_SPEED_NUM_SCALES) * ws / 5.0f));
}

std::vector<float> vif_taps(int scale, float kernelscale)
{
    const int ws = filter_size(scale, kernelscale);
    return gaussian_kernel(ws, ws / 5.0f);   // int / float: a float quotient
}

std::vector<float> local_mean_taps(float kernelscale)
{
    return vif_taps(VQ_SPEED_NUM_SCALES, kernelscale);
}

Dims dims(const Options &opt, int luma_w, int luma_h, int chroma_ss_x, int chroma_ss_y)
{
    Dims d;
    d.w = luma_w >> chroma_ss_x;
    d.h = luma_h >> chroma_ss_y;
    d.sw = (int)(d.w * opt.prescale + 0.5);
    d.sh = (int)(d.h * opt.prescale + 0.5);
    d.ow = d.sw >> VQ_SPEED_NUM_SCALES;
    d.oh = d.sh >> VQ_SPEED_NUM_SCALES;
    d.tw = d.ow / kBlock * kBlock;
    d.th = d.oh / kBlock * kBlock;
    d.bw = d.tw / kBlock;
    d.bh = d.th / kBlock;
    d.scaled = !almost_equal(opt.prescale, 1.0);
    return d;
}

std::string check(const Options &opt, int luma_w, int luma_h, int chroma_ss_x,
                  int chroma_ss_y, bool has_chroma, int bpc)
{
    if (!has_chroma)
        return "speed_chroma: 4:0:0 (no chroma planes) is refused, as libvmaf does";
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16)
        return "speed_chroma: bit depth must be 8, 10, 12 or 16";
    if (!(opt.kernelscale >= 0.1 && opt.kernelscale <= 4.0))
        return "speed_chroma: speed_kernelscale must be in [0.1, 4.0]";
    if (!(opt.prescale >= 0.1 && opt.prescale <= 4.0))
        return "speed_chroma: speed_prescale must be in [0.1, 4.0]";
    if (!(opt.sigma_nn >= 0.1 && opt.sigma_nn <= 2.0))
        return "speed_chroma: speed_sigma_nn must be in [0.1, 2.0]";
    if (!(opt.nn_floor >= 0.0 && opt.nn_floor <= 1.0))
        return "speed_chroma: speed_nn_floor must be in [0.0, 1.0]";
    if (!(opt.max_val >= 0.0 && opt.max_val <= 1000.0))
        return "speed_chroma: speed_max_val must be in [0, 1000]";
    if (opt.weight_var_mode < 0 || opt.weight_var_mode > 6)
        return "speed_chroma: speed_weight_var_mode must be in [0, 6]";
    if (!kernelscale_valid((float)opt.kernelscale))
        return "speed_chroma: invalid speed_kernelscale (libvmaf accepts only its list)";
    if (scale_method(opt.prescale_method) < 0)
        return "speed_chroma: speed_prescale_method must be nearest, bilinear, bicubic "
               "or lanczos4";
    const Dims d = dims(opt, luma_w, luma_h, chroma_ss_x, chroma_ss_y);
    // speed_init_dimensions' error, which libvmaf logs and then ignores
    // before reading outside its buffers: refused
    if (d.tw == 0 || d.th == 0)
        return "speed_chroma: image too small (the 1/16 chroma image holds no 5x5 block)";
    // a prescale within 1e-3 of 1 is skipped, yet the size rounds to
    // another: the reference then filters samples it never wrote
    if (!d.scaled && (d.sw != d.w || d.sh != d.h))
        return "speed_chroma: speed_prescale this close to 1 changes the size without "
               "scaling (libvmaf reads unwritten memory)";
    return "";
}

std::vector<float> eigenvalues(const std::vector<float> &a_in, int n)
{
    std::vector<float> a(a_in);
    if (n == 1)
        return a;
    std::vector<float> d(n), sd(n - 1);
    tridiagonalise(a.data(), n, d.data(), sd.data());
    tridiagonal_eigenvalues(d.data(), sd.data(), n);
    return d;
}

bool solve(const std::vector<float> &a, int n, const std::vector<float> &b, int m,
           std::vector<float> &x)
{
    std::vector<float> q(n * n), r(n * n), qb(n * m);
    qr_decompose(a.data(), n, q.data(), r.data());
    // the reference transposes Q twice: Q^T B with Q^T = H_{n-2} ... H_0
    mat_mul(qb.data(), q.data(), b.data(), n, n, m);
    // back substitution: per column j, "t -= x[k][j] * r[i][k]" for k
    // ascending, then t / den; the columns advance together (independent
    // chains, each in the reference's order)
    x.assign((size_t)n * m, 0.0f);
    std::vector<float> t(m);
    for (int i = n - 1; i >= 0; i--) {
        const float den = r[i * n + i];
        if (std::fabs(den) < kEigenEps)
            return false;
        for (int j = 0; j < m; j++)
            t[j] = qb[(size_t)i * m + j];
        for (int k = i + 1; k < n; k++) {
            const float rik = r[i * n + k];
            const float *xk = &x[(size_t)k * m];
            for (int j = 0; j < m; j++)
                t[j] -= xk[j] * rik;
        }
        for (int j = 0; j < m; j++)
            x[(size_t)i * m + j] = t[j] / den;
    }
    return true;
}

bool est_params(const Dims &dm, const std::vector<float> &d, float sigma_nn,
                std::vector<float> &entropies, std::vector<float> &variances)
{
    const int stride = dm.ow;
    const int subw = dm.tw - kBlock + 1, subh = dm.th - kBlock + 1;
    const size_t nsub = (size_t)subw * (size_t)subh;
    // 1. window means: a float sum in raster order, divided by the count
    //    (a size_t converted to float); the 25 sums advance together, each
    //    over its window in raster order
    float msum[kElems] = {};
    for (int i = 0; i < subh; i++)
        for (int j = 0; j < subw; j++)
            for (int sr = 0; sr < kBlock; sr++) {
                const float *row = &d[(size_t)(sr + i) * stride + j];
                for (int sc = 0; sc < kBlock; sc++)
                    msum[sr * kBlock + sc] += row[sc];
            }
    float means[kElems];
    for (int e = 0; e < kElems; e++)
        means[e] = msum[e] / (float)nsub;
    // 2. covariances: double terms (float samples minus the float means
    //    as doubles), a double sum in raster order, / count in double,
    //    rounded to float.  The centred samples of every window position
    //    are formed first (the same doubles); the 325 sums (x >= y) then
    //    advance together, position by position, each in raster order.
    //    Rows of kPad doubles (zeros past 25): every sum runs the full
    //    square with a fixed trip count; (x, y) and (y, x) get the same
    //    products in the same order, the lower half is used.
    constexpr int kPad = 28;
    std::vector<double> cen(nsub * kPad, 0.0);
    for (int i = 0; i < subh; i++)
        for (int j = 0; j < subw; j++) {
            double *c = &cen[((size_t)i * subw + j) * kPad];
            for (int e = 0; e < kElems; e++)
                c[e] = (double)d[(size_t)(e / kBlock + i) * stride + e % kBlock + j] - (double)means[e];
        }
    // register tiles of 5 x 4 sums, each tile over every position in order
    std::vector<double> acc((size_t)kElems * kPad, 0.0);
    for (int x0 = 0; x0 < kElems; x0 += 5)
        for (int y0 = 0; y0 <= x0 + 4 && y0 < kPad; y0 += 4) {
            double t[5][4] = {};
            for (size_t k = 0; k < nsub; k++) {
                const double *__restrict c = &cen[k * kPad];
                for (int a = 0; a < 5; a++)
                    for (int b = 0; b < 4; b++)
                        t[a][b] += c[x0 + a] * c[y0 + b];
            }
            for (int a = 0; a < 5; a++)
                for (int b = 0; b < 4; b++)
                    acc[(size_t)(x0 + a) * kPad + y0 + b] = t[a][b];
        }
    std::vector<float> cov(kElems * kElems);
    for (int xi = 0; xi < kElems; xi++)
        for (int yi = 0; yi <= xi; yi++) {
            const float c = (float)(acc[(size_t)xi * kPad + yi] / (double)nsub);
            cov[xi * kElems + yi] = c;
            cov[yi * kElems + xi] = c;
        }
    // 3. eigenvalues
    const std::vector<float> eig = eigenvalues(cov, kElems);
    // 4. the independent term: row (i%5)*5 + j%5, column = block index
    const int nb = dm.bw * dm.bh;
    std::vector<float> y((size_t)kElems * nb);
    for (int si = 0; si < kBlock; si++)
        for (int sj = 0; sj < kBlock; sj++)
            for (int i = si; i < dm.th; i += kBlock)
                for (int j = sj; j < dm.tw; j += kBlock)
                    y[(size_t)(si * kBlock + sj) * nb + (i - si) / kBlock * dm.bw +
                      (j - sj) / kBlock] = d[(size_t)i * stride + j];
    // 5. solve K X = Y unless an eigenvalue is below 1e-6 (compared as a
    //    double); singular: X = 0
    bool regular = true;
    for (int i = 0; i < kElems; i++)
        if (eig[i] < kEigenEps)
            regular = false;
    std::vector<float> x;
    bool ok = regular && solve(cov, kElems, y, nb, x);
    if (!ok)
        x.assign((size_t)kElems * nb, 0.0f);
    // 6. (X .* Y) / 25 in float, then the 25 rows summed into row 0 in order
    const float den = (float)kElems;
    for (size_t i = 0; i < x.size(); i++)
        x[i] = (x[i] * y[i]) / den;
    for (int i = 1; i < kElems; i++)
        for (int j = 0; j < nb; j++)
            x[j] += x[(size_t)i * nb + j];
    // 7. entropies: per eigenvalue (negative ones as 0), in order,
    //    "e += log2(L * S + sigma_nn) + log2(2 * M_PI * M_E)": the float
    //    argument to the double log2, the sum in double, rounded to float
    entropies.assign(nb, 0.0f);
    for (int k = 0; k < kElems; k++) {
        const float l = eig[k] < 0 ? 0 : eig[k];
        for (int j = 0; j < nb; j++)
            entropies[j] = (float)(entropies[j] +
                                   (std::log2((double)(l * x[j] + sigma_nn)) + std::log2(2 * M_PI * M_E)));
    }
    variances.assign(x.begin(), x.begin() + nb);
    return ok;
}

float score(const Dims &dm, const std::vector<float> &er, const std::vector<float> &vr,
            const std::vector<float> &ed, const std::vector<float> &vd, float sigma_nn,
            float nn_floor, int mode)
{
    const size_t nb = (size_t)dm.bw * dm.bh;
    float s = 0;
    // "size_t * (double + double)", rounded to float
    const float base = (float)(kElems * (std::log2((double)((1 + nn_floor) * sigma_nn)) +
                                         std::log2(2 * M_PI * M_E)));
    for (size_t i = 0; i < nb; i++) {
        if (er[i] < base && ed[i] < base)
            continue;   // "score += 0"
        float sr = 0.0f, sd = 0.0f;
        // every product "float entropy * double log2(...)": double,
        // rounded to float
        switch (mode) {
        case 0:
            sr = (float)(er[i] * std::log2((double)(1 + vr[i])));
            sd = (float)(ed[i] * std::log2((double)(1 + vd[i])));
            break;
        case 1:
            sr = (float)(er[i] * std::log2((double)(1 + vr[i])));
            sd = (float)(ed[i] * std::log2((double)(1 + vr[i])));
            break;
        case 2:
            sr = (float)(er[i] * std::log2((double)(1 + vd[i])));
            sd = (float)(ed[i] * std::log2((double)(1 + vd[i])));
            break;
        case 3:
            sr = (float)(er[i] * std::log2(1 + (vr[i] + vd[i]) / 2.0));
            sd = (float)(ed[i] * std::log2(1 + (vr[i] + vd[i]) / 2.0));
            break;
        case 4:
            sr = (float)(er[i] * std::log2((double)(1 + vr[i])));
            sd = (float)(ed[i] * std::log2(1 + (vr[i] + vd[i]) / 2.0));
            break;
        case 5:
            sr = (float)(er[i] * std::log2((double)(1 + vr[i])));
            sd = (float)(ed[i] * std::log2(1 + (0.75 * vr[i] + 0.25 * vd[i])));
            break;
        case 6:
            sr = (float)(er[i] * std::log2((double)(1 + vr[i])));
            sd = (float)(ed[i] * std::log2(1 + (0.25 * vr[i] + 0.75 * vd[i])));
            break;
        default:
            return (float)-22;   // "return -EINVAL" (check() refuses it)
        }
        s += std::fabs(sr - sd);
    }
    return s / (float)nb;
}

void lanczos4_weights(int n, float ratio, std::vector<float> &w, std::vector<int> &x0)
{
    // per output position: the floor of the float position and the 9
    // weights "a * sin(M_PI * x) * sin(M_PI * x / a) / (M_PI * M_PI * x * x)"
    // (a, x floats; in double), rounded to float; 1 at 0, 0 outside (-a, a)
    const int a = VQ_SPEED_LANCZOS_A;
    const float fa = (float)a;
    w.resize((size_t)n * VQ_SPEED_LANCZOS_TAPS);
    x0.resize(n);
    for (int p = 0; p < n; p++) {
        const float pos = vq_speed_scale_pos(p, ratio);
        const int p0 = (int)std::floor(pos);
        const float dp = pos - p0;
        x0[p] = p0;
        for (int i = -a; i <= a; i++) {
            const float t = i - dp;
            float k;
            if (t == 0.0)
                k = 1.0f;
            else if (t > -fa && t < fa)
                k = (float)(fa * std::sin(M_PI * t) * std::sin(M_PI * t / fa) /
                            (M_PI * M_PI * t * t));
            else
                k = 0.0f;
            w[(size_t)p * VQ_SPEED_LANCZOS_TAPS + i + a] = k;
        }
    }
}

std::vector<float> dec16_image(const Options &opt, const Dims &dm, const VqPlaneView &plane,
                               int bpc)
{
    // the executors' loop (kernels/cpu_speed.cpp) on this geometry
    Setup st;
    st.opt = opt;
    st.dm = dm;
    st.bpc = bpc;
    fill_geom(st);
    std::vector<float> d((size_t)dm.ow * dm.oh);
    vq_speed_cpu_dec16(&st.geom, plane, bpc, d.data());
    return d;
}

void remove_local_mean(const Options &opt, const Dims &dm, std::vector<float> &d)
{
    // 4. the local mean (vif_filter1d_s: vertical pass of a row, then its
    //    horizontal pass), subtracted
    const std::vector<float> lm = local_mean_taps((float)opt.kernelscale);
    const int fw = (int)lm.size();
    std::vector<float> mean((size_t)dm.ow * dm.oh), tmp(dm.ow);
    for (int i = 0; i < dm.oh; i++) {
        for (int j = 0; j < dm.ow; j++)
            tmp[j] = vq_speed_vpass(d.data(), dm.oh, dm.ow, lm.data(), fw, i, j);
        for (int j = 0; j < dm.ow; j++) {
            float acc = 0;
            for (int k = 0; k < fw; k++)
                acc += lm[k] * tmp[vq_speed_reflect(j - fw / 2 + k, dm.ow)];
            mean[(size_t)i * dm.ow + j] = acc;
        }
    }
    for (size_t i = 0; i < d.size(); i++)
        d[i] -= mean[i];
}

std::vector<float> operating_image(const Options &opt, const Dims &dm,
                                   const VqPlaneView &plane, int bpc)
{
    std::vector<float> d = dec16_image(opt, dm, plane, bpc);
    remove_local_mean(opt, dm, d);
    return d;
}

// samples of a 1/16 image above which its two halves take two threads
constexpr size_t kThreadedSamples = 64 * 1024;

float score_from_dec16(const Options &opt, const Dims &dm, std::vector<float> ref,
                       std::vector<float> dis, bool *singular)
{
    const float snn = (float)opt.sigma_nn;
    std::vector<float> er, vr, ed, vd;
    bool ok_ref = false;
    // the reference's half and the distorted's are independent: on a second
    // thread where they are large (speed_temporal's luma: ~1 ms each at 1080p)
    auto ref_half = [&] {
        remove_local_mean(opt, dm, ref);
        ok_ref = est_params(dm, ref, snn, er, vr);
    };
    struct Joined {     // joined however this scope ends
        std::thread t;
        ~Joined()
        {
            if (t.joinable())
                t.join();
        }
    } j;
    if ((size_t)dm.ow * dm.oh >= kThreadedSamples)
        j.t = std::thread(ref_half);
    else
        ref_half();
    remove_local_mean(opt, dm, dis);
    const bool ok_dis = est_params(dm, dis, snn, ed, vd);
    if (j.t.joinable())
        j.t.join();
    *singular = !ok_ref || !ok_dis;
    // one side singular: 0, not an inflated score
    if (ok_ref != ok_dis)
        return 0.0f;
    return score(dm, er, vr, ed, vd, snn, (float)opt.nn_floor, opt.weight_var_mode);
}

Result combine(const Options &opt, float su, bool err_u, float sv, bool err_v)
{
    // one plane singular: uv is the other plane's score
    float suv;
    if (err_u && !err_v)
        suv = sv;
    else if (err_v && !err_u)
        suv = su;
    else
        suv = (float)((su + sv) / 2.0);
    // "MIN(score, max_val)": a float against a double, the double result
    auto clip = [&](float s) { return s < opt.max_val ? (double)s : opt.max_val; };
    Result r;
    r.u = clip(su);
    r.v = clip(sv);
    r.uv = clip(suv);
    return r;
}

float plane_score(const Options &opt, const Dims &dm, const VqPlaneView &ref,
                  const VqPlaneView &dis, int bpc, bool *singular)
{
    return score_from_dec16(opt, dm, dec16_image(opt, dm, ref, bpc),
                            dec16_image(opt, dm, dis, bpc), singular);
}

Result chroma_frame(const Options &opt, const Dims &dm, const VqPlaneView &ref_u,
                    const VqPlaneView &ref_v, const VqPlaneView &dis_u,
                    const VqPlaneView &dis_v, int bpc)
{
    bool err_u = false, err_v = false;
    const float su = plane_score(opt, dm, ref_u, dis_u, bpc, &err_u);
    const float sv = plane_score(opt, dm, ref_v, dis_v, bpc, &err_v);
    return combine(opt, su, err_u, sv, err_v);
}

}  // namespace speed
}  // namespace vq

namespace vq {
namespace speed {

void fill_geom(Setup &s)
{
    VqSpeedGeom &g = s.geom;
    g = VqSpeedGeom{};
    g.w = s.dm.w;
    g.h = s.dm.h;
    g.sw = s.dm.sw;
    g.sh = s.dm.sh;
    g.ow = s.dm.ow;
    g.oh = s.dm.oh;
    // dec16_image's rule: the prescale runs when it is asked for and the size changes
    g.scaled = s.dm.scaled && (s.dm.sw != s.dm.w || s.dm.sh != s.dm.h);
    if (!g.scaled) {
        g.sw = s.dm.w;
        g.sh = s.dm.h;
    }
    g.method = scale_method(s.opt.prescale_method);
    g.ratio_x = (float)s.dm.w / s.dm.sw;
    g.ratio_y = (float)s.dm.h / s.dm.sh;
    const std::vector<float> taps = antialias_taps((float)s.opt.kernelscale);
    g.fw = (int)taps.size();
    std::memcpy(g.taps, taps.data(), sizeof(float) * taps.size());
    s.lx0.clear();
    s.ly0.clear();
    s.lwx.clear();
    s.lwy.clear();
    if (g.scaled && g.method == VQ_SPEED_LANCZOS4) {
        lanczos4_weights(g.sw, g.ratio_x, s.lwx, s.lx0);
        lanczos4_weights(g.sh, g.ratio_y, s.lwy, s.ly0);
    }
    g.lx0 = s.lx0.empty() ? nullptr : s.lx0.data();
    g.ly0 = s.ly0.empty() ? nullptr : s.ly0.data();
    g.lwx = s.lwx.empty() ? nullptr : s.lwx.data();
    g.lwy = s.lwy.empty() ? nullptr : s.lwy.data();
}

Result frame_from_dec16(const Setup &s, const float *images)
{
    const size_t n = (size_t)s.dm.ow * s.dm.oh;
    auto img = [&](int q) { return std::vector<float>(images + q * n, images + (q + 1) * n); };
    bool err_u = false, err_v = false;
    float sv = 0;
    auto plane_v = [&] { sv = score_from_dec16(s.opt, s.dm, img(1), img(3), &err_v); };
    std::thread tv;
    try {
        tv = std::thread(plane_v);
    } catch (const std::system_error &) {   // no thread to be had: one after the other
    }
    const float su = score_from_dec16(s.opt, s.dm, img(0), img(2), &err_u);
    if (tv.joinable())
        tv.join();
    else
        plane_v();
    return combine(s.opt, su, err_u, sv, err_v);
}

}  // namespace speed
}  // namespace vq

namespace vq {
namespace speed {

std::string temporal_check(const Options &opt, int w, int h, int bpc)
{
    if (bpc != 8 && bpc != 10 && bpc != 12 && bpc != 16)
        return "speed_temporal: bit depth must be 8, 10, 12 or 16";
    if (!(opt.kernelscale >= 0.1 && opt.kernelscale <= 4.0))
        return "speed_temporal: speed_kernelscale must be in [0.1, 4.0]";
    if (!(opt.prescale >= 0.1 && opt.prescale <= 4.0))
        return "speed_temporal: speed_prescale must be in [0.1, 4.0]";
    if (!(opt.sigma_nn >= 0.1 && opt.sigma_nn <= 2.0))
        return "speed_temporal: speed_sigma_nn must be in [0.1, 2.0]";
    if (!(opt.nn_floor >= 0.0 && opt.nn_floor <= 1.0))
        return "speed_temporal: speed_nn_floor must be in [0.0, 1.0]";
    if (!kernelscale_valid((float)opt.kernelscale))
        return "speed_temporal: invalid speed_kernelscale (libvmaf accepts only its list)";
    if (scale_method(opt.prescale_method) < 0)
        return "speed_temporal: speed_prescale_method must be nearest, bilinear, bicubic or lanczos4";
    const Dims d = dims(opt, w, h, 0, 0);
    // speed_init_dimensions' error, which libvmaf logs and ignores; the vmaf
    // tool then fails (small36x34 in the golden files)
    if (d.tw == 0 || d.th == 0)
        return "speed_temporal: image too small (the 1/16 luma image holds no 5x5 block: libvmaf "
               "fails with \"SpEED: image too small\")";
    if (!d.scaled && (d.sw != d.w || d.sh != d.h))
        return "speed_temporal: speed_prescale this close to 1 changes the size without scaling "
               "(libvmaf reads unwritten memory)";
    // speed_temporal's frame buffers hold h rows (init(): float_stride * h),
    // but the prescale writes sh rows into them: beyond their end
    if (d.scaled && d.sh > d.h)
        return "speed_temporal: a speed_prescale that makes the frame taller writes past the end of "
               "libvmaf's frame buffers (they hold the original height): no reference result";
    return "";
}

Options shared_options(const FeatureOptions &o)
{
    Options opt;
    opt.kernelscale = o.get("speed_kernelscale");
    opt.prescale = o.get("speed_prescale");
    opt.prescale_method = o.get_str("speed_prescale_method");
    opt.sigma_nn = o.get("speed_sigma_nn");
    opt.nn_floor = o.get("speed_nn_floor");
    opt.max_val = o.get("speed_max_val");
    return opt;
}

double temporal_from_dec16(const Setup &s, const float *images)
{
    const size_t n = (size_t)s.dm.ow * s.dm.oh;
    Options opt = s.opt;
    opt.weight_var_mode = 0;    // SpeedTemporalState sets none: 0
    bool singular = false;
    const float score = score_from_dec16(opt, s.dm, std::vector<float>(images, images + n),
                                         std::vector<float>(images + n, images + 2 * n), &singular);
    return score;   // a float, appended as a double, unclipped
}

}  // namespace speed
}  // namespace vq
