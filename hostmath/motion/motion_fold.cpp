/* motion_fold.c - integer motion on the host: see motion_fold.h. */
#include "motion_fold.h"

/* integer_motion.c's MIN: the second operand wins ties and NaN */
static double min_d(double x, double y)
{
    return x < y ? x : y;
}

double vq_motion_sad_score_rows(const int64_t *row_sad, int w, int h, double fps_weight,
                                double max_val)
{
    const unsigned wh = (unsigned)w * (unsigned)h;   /* unsigned, as w * h there */
    uint64_t sad = 0;
    int i;
    for (i = 0; i < h; i++)
        sad += (uint32_t)row_sad[i];    /* the reference's uint32 row_sad */
    return min_d((double)sad / 256. / wh * fps_weight, max_val);
}

void vq_motion2_opts_default(VqMotion2Opts *o)
{
    o->blend_factor = VQ_MOTION_DEFAULT_BLEND_FACTOR;
    o->blend_offset = VQ_MOTION_DEFAULT_BLEND_OFFSET;
    o->max_val = VQ_MOTION_DEFAULT_MAX_VAL;
    o->moving_average = 0;
    o->five_frame_window = 0;
}

/* motion_blend_tools.h's motion_blend, then the clip to max_val */
static double processed(const VqMotion2Opts *o, double m)
{
    const double blend = m * o->blend_factor + (1 - o->blend_factor) * min_d(o->blend_offset, m);
    return min_d(blend, o->max_val);
}

void vq_motion2_init(VqMotion2 *m, const VqMotion2Opts *opt)
{
    if (opt)
        m->opt = *opt;
    else
        vq_motion2_opts_default(&m->opt);
    m->n = 0;
    m->sad1 = m->sad2 = 0.;
    m->prev_processed = 0.;
    m->flushed = 0;
}

/* frames 0 .. count-1 (all below the lag): motion2 0, motion3 the stamp */
static int emit_stamped(VqMotion2 *m, int64_t count, double stamp, VqMotion2Out *out)
{
    int64_t i;
    for (i = 0; i < count; i++) {
        out[i].index = i;
        out[i].motion2 = 0.;
        out[i].motion3 = stamp;
    }
    m->prev_processed = stamp;
    return (int)count;
}

/* frame i = m->n - 1 (i >= lag), its SAD m->sad1, that of frame i-1
 * m->sad2; has_hi: frame i+1's SAD is `hi` */
static int emit(VqMotion2 *m, int has_hi, double hi, VqMotion2Out *out)
{
    const int64_t i = m->n - 1;
    const int lag = vq_motion2_lag(&m->opt);
    double m2;
    if (!has_hi) {
        m2 = m->sad1;
    } else {
        /* the lower neighbour: frame i itself (lag 1) or frame i-1 (lag 2),
         * if it is not below the lag */
        const double lo = lag == 1 ? m->sad1 : m->sad2;
        if (i - (lag - 1) >= lag)
            m2 = lo < hi ? lo : hi;
        else
            m2 = hi;
    }
    const double p = processed(&m->opt, m2);
    out->index = i;
    out->motion2 = m2;
    out->motion3 = m->opt.moving_average ? (p + m->prev_processed) / 2.0 : p;
    m->prev_processed = p;
    return 1;
}

int vq_motion2_push(VqMotion2 *m, double sad, VqMotion2Out out[2])
{
    const int lag = vq_motion2_lag(&m->opt);
    int emitted = 0;
    if (m->n == lag)
        emitted = emit_stamped(m, lag, processed(&m->opt, sad), out);
    else if (m->n > lag)
        emitted = emit(m, 1, sad, out);
    m->sad2 = m->sad1;
    m->sad1 = sad;
    m->n++;
    return emitted;
}

int vq_motion2_flush(VqMotion2 *m, VqMotion2Out out[2])
{
    const int lag = vq_motion2_lag(&m->opt);
    int emitted;
    if (m->n == 0 || m->flushed)
        return 0;
    if (m->n <= lag)     /* no SAD at the lag: the stamp is 0 */
        emitted = emit_stamped(m, m->n, 0., out);
    else
        emitted = emit(m, 0, 0., out);
    m->flushed = 1;
    return emitted;
}

int64_t vq_motion2_final(const VqMotion2 *m)
{
    const int lag = vq_motion2_lag(&m->opt);
    if (m->flushed)
        return m->n;
    return m->n > lag ? m->n - 1 : 0;
}
