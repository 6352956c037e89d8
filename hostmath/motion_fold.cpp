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

double vq_motion_sad_score(const VqRowLayout *l, const int64_t *rows, double fps_weight,
                           double max_val)
{
    return vq_motion_sad_score_rows(rows + l->motion_off, l->w, l->h, fps_weight, max_val);
}

void vq_motion2_opts_default(VqMotion2Opts *o)
{
    o->blend_factor = VQ_MOTION_DEFAULT_BLEND_FACTOR;
    o->blend_offset = VQ_MOTION_DEFAULT_BLEND_OFFSET;
    o->max_val = VQ_MOTION_DEFAULT_MAX_VAL;
    o->moving_average = 0;
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
    m->last_sad = 0.;
    m->prev_processed = 0.;
    m->flushed = 0;
}

/* frame i = m->n - 1 of the pushed ones; has_hi: the SAD of frame i+1 is `hi` */
static void emit(VqMotion2 *m, int has_hi, double hi, double *motion2, double *motion3)
{
    const int64_t i = m->n - 1;
    if (i < 1) {
        /* motion3 of frame 0 is the "stamp": processed SAD of frame 1, 0 without one */
        const double stamp = has_hi ? processed(&m->opt, hi) : 0.;
        *motion2 = 0.;
        *motion3 = stamp;
        m->prev_processed = stamp;
    } else {
        const double lo = m->last_sad;
        const double m2 = !has_hi ? lo : (lo < hi ? lo : hi);
        const double p = processed(&m->opt, m2);
        *motion2 = m2;
        *motion3 = m->opt.moving_average ? (p + m->prev_processed) / 2.0 : p;
        m->prev_processed = p;
    }
}

int vq_motion2_push(VqMotion2 *m, double sad, int64_t *index, double *motion2, double *motion3)
{
    int emitted = 0;
    if (m->n > 0) {
        *index = m->n - 1;
        emit(m, 1, sad, motion2, motion3);
        emitted = 1;
    }
    m->last_sad = sad;
    m->n++;
    return emitted;
}

int vq_motion2_flush(VqMotion2 *m, int64_t *index, double *motion2, double *motion3)
{
    if (m->n == 0 || m->flushed)
        return 0;
    *index = m->n - 1;
    emit(m, 0, 0., motion2, motion3);
    m->flushed = 1;
    return 1;
}
