/*
 * vqcuda filter: the carry-over when FFmpeg re-creates the filter graph (a
 * change of an input's frame size or format, unless -reinit_filter 0).
 * What the instance that goes away holds - its libvqcuda session, the
 * frames in flight and the frames not yet paired - is kept under its log
 * path; the next instance with that path takes it over and pairs the kept
 * frames by timestamp before framesync sees any frame, so that none is lost
 * at the change.  FFmpeg glue only, in one place: it reads framesync's
 * per-input state (no API gives the frames it holds).
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include "libavutil/mathematics.h"
#include "libavutil/mem.h"
#include "libavutil/thread.h"
#include "avfilter_internal.h"
#include "filters.h"
#include "vf_vqcuda.h"

/* f (owned) kept at the stash's end, or freed on failure */
static int stash_push(AVFifo *stash, AVFrame *f)
{
    int ret = av_fifo_write(stash, &f, 1);
    if (ret < 0)
        av_frame_free(&f);
    return ret;
}

/* the stash's first frame, or NULL */
static AVFrame *stash_first(AVFifo *stash)
{
    AVFrame *f = NULL;
    av_fifo_peek(stash, &f, 1, 0);
    return f;
}

void ff_vqcuda_stash_free(AVFifo **stash)
{
    AVFrame *f;
    while (*stash && av_fifo_read(*stash, &f, 1) >= 0)
        av_frame_free(&f);
    av_fifo_freep2(stash);
}

/*
 * FFmpeg re-creates the filter graph when an input's frame size or format
 * changes (unless -reinit_filter 0).  The session of the instance that goes
 * away is kept here, under its log path, and the next instance with that
 * path carries it on: frame numbers, pools and the log continue, and the
 * frames after the change are a new section.  One process, one map.
 */
typedef struct Carried {
    char *log_path;
    VQCUDARun run;              /* the instance's run, whole */
    struct Carried *next;
} Carried;

static AVMutex carried_lock = AV_MUTEX_INITIALIZER;
static Carried *carried;

void ff_vqcuda_carry_put(VQCUDAContext *s)
{
    Carried *c = av_mallocz(sizeof(*c));

    if (!c || !(c->log_path = av_strdup(s->log_path))) {
        av_free(c);
        vq_ladder_close(&s->run.ladder);
        s->run.session = NULL;
        return;
    }
    c->run = s->run;
    /* the next instance's warning counts this instance's unpaired frames too */
    c->run.nb_mismatched += s->nb_unpaired;
    memset(&s->run, 0, sizeof(s->run));
    ff_mutex_lock(&carried_lock);
    c->next = carried;
    carried = c;
    ff_mutex_unlock(&carried_lock);
}

int ff_vqcuda_carry_take(VQCUDAContext *s)
{
    Carried **p, *c = NULL;

    ff_mutex_lock(&carried_lock);
    for (p = &carried; *p; p = &(*p)->next)
        if (!strcmp((*p)->log_path, s->log_path)) {
            c = *p;
            *p = c->next;
            break;
        }
    ff_mutex_unlock(&carried_lock);
    if (!c)
        return 0;
    /* this instance's own containers are empty: it has had no frame yet */
    ff_vqcuda_stash_free(&s->run.stash[0]);
    ff_vqcuda_stash_free(&s->run.stash[1]);
    av_fifo_freep2(&s->run.pending);
    s->run = c->run;
    av_free(c->log_path);
    av_free(c);
    return 1;
}

/* The input has ended (all its frames consumed), without acknowledging the
 * status: framesync, which runs after, must still see it. */
static int input_ended(AVFilterLink *l)
{
    return !ff_inlink_queued_frames(l) && ff_link_internal(l)->status_in;
}

/*
 * Frames taken over from a graph FFmpeg re-created (and, while the inputs
 * have two sizes, every frame that comes): paired here by timestamp, before
 * framesync sees any frame, so that none is lost at the change.  1 while
 * more frames are needed to pair them, 0 when the stash is empty.
 */
int ff_vqcuda_drain_stash(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    AVFilterLink *in[2] = { ctx->inputs[0], ctx->inputs[s->nb_rend] };
    int ret;

    while (s->transition) {
        /* inputs of two sizes: keep every frame for the graph FFmpeg makes
         * when the other input changes too; at an input's end there is none */
        int got = 0;
        for (int i = 0; i < 2; i++) {
            AVFrame *f = NULL;
            if ((ret = ff_inlink_consume_frame(in[i], &f)) < 0)
                return ret;
            if (ret > 0) {
                if ((ret = stash_push(s->run.stash[i], f)) < 0)
                    return ret;
                got = 1;
            } else if (input_ended(in[i])) {
                s->transition = 0;
            }
        }
        if (!s->transition)
            break;
        if (!got) {
            ff_inlink_request_frame(in[0]);
            ff_inlink_request_frame(in[1]);
            return 1;
        }
    }

    while (av_fifo_can_read(s->run.stash[0]) || av_fifo_can_read(s->run.stash[1])) {
        AVFrame *d, *r;
        int c;
        for (int i = 0; i < 2; i++) {
            AVFrame *f = NULL;
            if (av_fifo_can_read(s->run.stash[i]))
                continue;
            if ((ret = ff_inlink_consume_frame(in[i], &f)) < 0)
                return ret;
            if (ret > 0) {
                if ((ret = stash_push(s->run.stash[i], f)) < 0)
                    return ret;
                continue;
            }
            if (input_ended(in[i])) {
                /* one input has no frame for the other's: they go unpaired */
                AVFrame *x;
                while (av_fifo_read(s->run.stash[!i], &x, 1) >= 0) {
                    s->run.nb_mismatched++;
                    if (i == 1) {
                        x->pts = av_rescale_q(x->pts, in[0]->time_base, ctx->outputs[0]->time_base);
                        if ((ret = ff_vqcuda_pass_frame(ctx, x)) < 0)
                            return ret;
                    } else {
                        av_frame_free(&x);
                    }
                }
                return 0;
            }
            ff_inlink_request_frame(in[i]);
            return 1;
        }
        d = stash_first(s->run.stash[0]);
        r = stash_first(s->run.stash[1]);
        c = av_compare_ts(d->pts, in[0]->time_base, r->pts, in[1]->time_base);
        if (c > 0) {                /* a reference frame no main frame pairs with */
            av_frame_free(&r);
            av_fifo_drain2(s->run.stash[1], 1);
            continue;
        }
        av_fifo_drain2(s->run.stash[0], 1);
        if (c < 0 && s->run.session)    /* listed in the log */
            vq_session_note_unpaired(s->run.session, d->pts * av_q2d(in[0]->time_base), NAN);
        d->pts = av_rescale_q(d->pts, in[0]->time_base, ctx->outputs[0]->time_base);
        if (c < 0) {                /* a main frame with no reference frame of its time */
            s->nb_unpaired++;
            if ((ret = ff_vqcuda_pass_frame(ctx, d)) < 0)
                return ret;
            continue;
        }
        av_fifo_drain2(s->run.stash[1], 1);
        ret = ff_vqcuda_handle_pair(ctx, d, r);
        av_frame_free(&r);
        if (ret < 0)
            return ret;
    }
    return 0;
}

/* What the graph still holds and has not scored: framesync's next frames
 * and the frames queued on the inputs, kept for the graph FFmpeg makes next. */
int ff_vqcuda_collect_leftovers(AVFilterContext *ctx)
{
    VQCUDAContext *s = ctx->priv;
    const int idx[2] = { 0, s->nb_rend };
    AVFrame *f;
    int ret;

    for (int i = 0; i < 2; i++) {
        FFFrameSyncIn *in = s->fs.in ? &s->fs.in[idx[i]] : NULL;
        int64_t done = i ? s->last_ref_pts : s->last_main_pts;
        /* the current frame, if no event has had it yet, and the next one;
         * framesync keeps their pts in its own time base: back to the link's */
        if (in && in->frame && (done == AV_NOPTS_VALUE || in->pts > done)) {
            f = in->frame;
            in->frame = NULL;
            f->pts = av_rescale_q(f->pts, s->fs.time_base, ctx->inputs[idx[i]]->time_base);
            if ((ret = stash_push(s->run.stash[i], f)) < 0)
                return ret;
        }
        if (in && in->have_next && in->frame_next) {
            f = in->frame_next;
            in->frame_next = NULL;
            in->have_next = 0;
            f->pts = av_rescale_q(f->pts, s->fs.time_base, ctx->inputs[idx[i]]->time_base);
            if ((ret = stash_push(s->run.stash[i], f)) < 0)
                return ret;
        }
        while ((ret = ff_inlink_consume_frame(ctx->inputs[idx[i]], &f)) > 0)
            if ((ret = stash_push(s->run.stash[i], f)) < 0)
                return ret;
    }
    av_log(ctx, AV_LOG_VERBOSE, "the graph goes away holding %zu main and %zu reference frames "
           "not yet scored: they go to the next one\n",
           av_fifo_can_read(s->run.stash[0]), av_fifo_can_read(s->run.stash[1]));
    for (int i = 0; i < 2; i++)
        for (size_t j = 0; av_fifo_peek(s->run.stash[i], &f, 1, j) >= 0; j++)
            av_log(ctx, AV_LOG_DEBUG, "  input %d: pts %"PRId64" %dx%d\n", i, f->pts,
                   f->width, f->height);
    return 0;
}
