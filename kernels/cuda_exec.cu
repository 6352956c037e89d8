/*
 * cuda_exec.cu - the GPU executor (see cuda_exec.h).
 *
 * Every frame: run the feature kernels on the caller's stream (reading the
 * pictures where the decoder left them), copy the row sums (164 KB at 1080p)
 * into pinned host memory and record an event;
 * all asynchronous.  collect() waits on the oldest frame's event only, so the
 * host folds frame N-1 while the GPU runs frame N.  Nothing is allocated per
 * frame.
 *
 * CUDA graphs: a frame's work is some 30 launches, memsets and event
 * operations, and enqueuing them costs the host more than folding the frame.
 * So the pictures are first copied (device to device, or uploaded) into the
 * slot's own staging planes, whose addresses never change; the work on those
 * is captured once into a graph per (slot, the modules' phases, scored or
 * not, the reference's mode) and replayed: per frame, two to four copies, one
 * graph launch and a few event operations.  The copies run on a stream of
 * their own, beside the previous frame's graph, so that they add no time to
 * a frame's critical path.  A module's frame of its own (module.h's phase:
 * integer motion's first frames, with its store kernel) runs without a graph; a
 * module's cooperative kernels (cambi's pooling) are captured like the
 * others (cooperative kernel nodes).  VQ_CUDA_GRAPHS=0 turns graphs off.  The kernels and their
 * arguments are the same either way.
 *
 * Lanes: a frame's graph does not wait for the previous frame's to end.
 * Frame n runs on lane n % depth (a stream per pipeline slot; depth 3, or 2
 * with VQ_CUDA_DEPTH=2) with its own instance of each module (one per
 * slot), so that the
 * latency-bound ends of one frame's work (ordered sums, selections, a
 * cooperative pooling) overlap the next frame's full-GPU kernels.  A module
 * that carries state from frame to frame (module.h's phase, enqueue_every,
 * temporal: the motions) keeps one instance, and the next frame's graph
 * starts only once that instance's work of this frame is done (an event
 * recorded inside the graph).  Off (one lane, one instance) in a ladder that
 * shares the reference's work, with an upscaler, on the caller's stream,
 * without graphs, with VQ_CUDA_LANES=1, where the second instances would
 * leave less than an eighth of the device's memory free, or where they find
 * no memory.
 *
 * Ladders: the leader's executor also makes the reference's part of the
 * modules that have one (VIF's scale images and moments, ADM's bands and
 * denominators: the tables' ref_* hooks) once per frame, and every
 * rendition's executor reads them (VqCudaRef below); the leader's
 * collect waits once for the frame of every rendition (VQ_CUDA_REF_SHARE=0:
 * each does its own, to compare).
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <new>
#include <vector>
#include "cuda_exec.h"
#include "scale_exec.h"
#include "vqcuda.h"

#define CHECK(call)                                                                   \
    do {                                                                              \
        cudaError_t e_ = (call);                                                      \
        if (e_ != cudaSuccess)                                                        \
            return cuda_fail(err, errlen, #call, e_);                                 \
    } while (0)

static int cuda_fail(char *err, size_t errlen, const char *what, cudaError_t e)
{
    snprintf(err, errlen, "%s failed: %s (%s)", what, cudaGetErrorName(e), cudaGetErrorString(e));
    return VQ_ECUDA;
}

struct Slot {
    int64_t *d_rows;
    int64_t *h_rows;              /* pinned */
    cudaEvent_t done;
    uint8_t *d_upload[2][2];      /* [ref/dis][luma/chroma] staging: host pictures, graphs */
    size_t upload_pitch[2][2];    /* likewise: a rendition's planes are smaller */
};

/* Independent module instances run on side streams forked from the main
 * stream and joined back before the copy to the host.  They write disjoint
 * sections of the frame's buffer; the small, latency-bound kernels of one
 * overlap the others' (several of them, a module's selection or ordered
 * row sums: CAMBI's, SSIM's, CIEDE's, fill only part of the GPU).  Module
 * instance k runs on side[SIDE_MODULES + k] (the last of them from
 * N_MODULE_STREAMS on); side[SIDE_REF] records a ladder's reference work
 * done. */
enum { N_MODULE_STREAMS = 8 };
enum { SIDE_REF, SIDE_MODULES,
       N_SIDE = SIDE_MODULES + N_MODULE_STREAMS };

/* module instance k's side stream */
static inline int module_stream(int k)
{
    return SIDE_MODULES + (k < N_MODULE_STREAMS ? k : N_MODULE_STREAMS - 1);
}

/* graphs per slot: the modules' phases x scored x the reference's
 * work: the executor's own (REF_OWN), shared (a ladder: REF_SHARED), or
 * shared and the reference's picture read from the leader's staging copy
 * too (REF_SHARED_STAGED) */
enum { REF_OWN, REF_SHARED, REF_SHARED_STAGED, N_REFMODE };

/* a slot's graphs, each for one key: the modules' phases (two bits per
 * module instance: its phase hook's 0 .. 3), scored or not, the reference
 * mode; room for N_MODULE_KEYS phase keys (integer motion's two or three
 * phases x float_motion's two: the instances of a module step together) x
 * scored x reference mode: a frame whose key finds no room (modules out of
 * step) is enqueued directly */
enum { N_MODULE_KEYS = 8 };
enum { N_GRAPHS = N_MODULE_KEYS * 2 * N_REFMODE };
struct Graph {
    int score, refmode;
    uint64_t modules;
    cudaGraphExec_t exec;       /* NULL until captured */
};

struct VqCudaExec {
    VqCudaExecConfig cfg;
    cudaStream_t stream;
    int own_stream;
    int legacy_mode;              /* our own non-blocking stream: device pictures wait for the legacy stream */
    cudaEvent_t legacy;           /* the work queued before a frame (legacy or main stream) */
    cudaStream_t side[N_SIDE];    /* non-blocking, like the own stream */
    cudaEvent_t fork, join[N_SIDE];
    Slot slot[VQ_CUDA_PIPELINE_DEPTH];
    int use_graphs;
    /* graphs: the pictures are copied into the slot's staging planes on a
     * stream of their own, so that the copies of frame N+1 run while frame
     * N's graph does; the graph waits for them (copied), the copies wait
     * for the slot's last graph (its done event) and the decoder (legacy) */
    cudaStream_t copy_stream;
    cudaEvent_t copied[VQ_CUDA_PIPELINE_DEPTH];
    /* captures run on streams of their own, non-blocking: a blocking stream
     * in capture would make the decoder's work on the legacy stream fail */
    cudaStream_t cap_main, cap_side[N_SIDE];
    int fail_mid;               /* VQ_CUDA_FAIL_CAPTURE=Nmid: this capture is invalidated after the fork */
    /* lanes (the header comment): lane[slot] is the slot's stream (lane[0]
     * is `stream`; one lane: both are); step[slot][k], recorded once a
     * carrying module instance k's work of the slot's frame is done */
    int lanes;                  /* 0: not decided yet (before the first frame), 1 or depth */
    int depth;                  /* pipeline slots used (vq_cuda_pipeline_depth) */
    cudaStream_t lane[VQ_CUDA_PIPELINE_DEPTH];
    unsigned char carries[VQ_EXEC_MAX_MODULES];
    cudaEvent_t step[VQ_CUDA_PIPELINE_DEPTH][VQ_EXEC_MAX_MODULES];
    int last_slot;              /* the slot collected last (fold_data) */
    size_t inst_bytes;          /* device memory the module instances took at open, about */
    Graph graph[VQ_CUDA_PIPELINE_DEPTH][N_GRAPHS];
    int n_graphs[VQ_CUDA_PIPELINE_DEPTH];
    int head, in_flight;
    int64_t frames;             /* submitted so far */
    /* a ladder: the reference's part of the modules that have one (VIF's
     * images and moments, ADM's bands and denominators), made by the
     * leader's executor (ref_owner) and read by every rendition's */
    VqCudaRef *ref;
    int ref_owner;
    int64_t group_waited;       /* a rendition: the leader's collect waited for this frame of ours */
    /* per module instance: the leader's module whose reference part it
     * reads (VqCudaRef.part), -1: none */
    int ref_part[VQ_EXEC_MAX_MODULES];
    /* inside a frame, the leader's: each part of the reference's work done */
    cudaEvent_t ref_mod[VQ_EXEC_MAX_MODULES];
    VqScaleCuda *scale;         /* distorted pictures of another size */
    /* each module instance's, from its table: [k][0], and with lanes
     * [k][1 .. depth - 1] for an instance that carries nothing from frame to frame */
    void *module_scratch[VQ_EXEC_MAX_MODULES][VQ_CUDA_PIPELINE_DEPTH];
};

/* module instance k's scratch for the frame in `slot` */
static inline void *scratch_of(const VqCudaExec *e, int k, int slot)
{
    return e->module_scratch[k][slot] ? e->module_scratch[k][slot] : e->module_scratch[k][0];
}

/* a ladder's shared reference work (a part of this file) */
/* The flags of the events the caller's thread waits on (a slot's frame
 * done, a ladder's group): the thread sleeps in the wait
 * (cudaEventBlockingSync) instead of spinning on a core, as the driver
 * otherwise does while the GPU is busy with the frame; VQ_CUDA_WAIT=spin
 * spins.  H100, 2026-12-05 (tests/results/h100-2026-12-05-d.txt): CAMBI at
 * 2160p, where the thread waits on every frame, 5.16 -> 0.32 ms of the
 * filter thread's CPU per frame at the same speed (6.269 / 6.265 s); the
 * single pairs, where the GPU is ahead, alike either way. */
static inline unsigned vq_cuda_wait_flags(void)
{
    const char *w = getenv("VQ_CUDA_WAIT");
    return cudaEventDisableTiming | (w && !strcmp(w, "spin") ? 0u : cudaEventBlockingSync);
}

#include "cuda_exec_ref.cuh"

/* The frames an executor opened now holds in flight: 3, or 2 with
 * VQ_CUDA_DEPTH=2 (read at each open: a test compares both in one process).
 * H100, whole commands against decode-only, one binary, 2 -> 3
 * (tests/results/h100-2026-12-06-k.txt): every feature at 2160p 88.1 ->
 * 92.3%, 8 processes at 1080p with cambi 72.0 -> 78.0% and with every
 * feature 44.6 -> 48.4%, the 2160p8 single stream 95.6 -> 99.7% (one run). */
extern "C" int vq_cuda_pipeline_depth(void)
{
    const char *d = getenv("VQ_CUDA_DEPTH");
    return d && !strcmp(d, "2") ? 2 : 3;
}

extern "C" int vq_cuda_available(char *err, size_t errlen)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess) {
        snprintf(err, errlen, "no usable CUDA device: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
        cudaGetLastError();
        return 0;
    }
    if (n <= 0) {
        snprintf(err, errlen, "no CUDA device");
        return 0;
    }
    return 1;
}

static int wrap(int ret, const char *what, char *err, size_t errlen)
{
    if (ret == 0)
        return 0;
    return cuda_fail(err, errlen, what, (cudaError_t)ret);
}

extern "C" int vq_cuda_exec_open(VqCudaExec **out, const VqCudaExecConfig *cfg, char *err, size_t errlen)
{
    VqCudaExec *e;
    int ret;
    *out = NULL;
    if (const char *lacks = vq_exec_plan_gpu_lacks(&cfg->plan)) {
        snprintf(err, errlen, "%s is not on the GPU (the CPU executor computes it: device=cpu, host "
                 "frames)", lacks);
        return VQ_EINVAL;
    }
    if (!vq_cuda_available(err, errlen))
        return VQ_ENODEV;
    e = (VqCudaExec *)calloc(1, sizeof(*e));
    if (!e)
        return VQ_ENOMEM;
    e->cfg = *cfg;
    e->depth = vq_cuda_pipeline_depth();
    e->group_waited = -1;
    for (int k = 0; k < VQ_EXEC_MAX_MODULES; k++)
        e->ref_part[k] = -1;
    *out = e;   /* close() frees what was made, on any failure below */
    /* FFmpeg's CUDA device context has no stream of its own by default
     * (NULL), and NVDEC copies each decoded picture into its frame with an
     * asynchronous copy on the legacy default stream, so device pictures
     * must not be read before the legacy stream's work queued so far.  A
     * blocking stream would give that, but it also makes every later copy
     * of every decoder wait for all the work queued here: the decoders then
     * run in step with the scoring.  So our streams are non-blocking, and
     * each frame of device pictures waits for an event recorded on the
     * legacy stream when it is submitted (the decoder queued its copy before
     * it handed the frame on).  VQ_CUDA_STREAMS=blocking: the former way. */
    const char *streams = getenv("VQ_CUDA_STREAMS");
    const int blocking = streams && !strcmp(streams, "blocking");
    const unsigned sflags = blocking ? cudaStreamDefault : cudaStreamNonBlocking;
    if (cfg->stream) {
        e->stream = (cudaStream_t)cfg->stream;   /* the caller orders its pictures on it */
    } else {
        CHECK(cudaStreamCreateWithFlags(&e->stream, sflags));
        e->own_stream = 1;
        e->legacy_mode = !blocking;
    }
    for (int k = 0; k < VQ_CUDA_PIPELINE_DEPTH; k++)
        e->lane[k] = e->stream;
    CHECK(cudaEventCreateWithFlags(&e->legacy, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&e->fork, cudaEventDisableTiming));
    for (int k = 0; k < N_SIDE; k++) {
        CHECK(cudaStreamCreateWithFlags(&e->side[k], sflags));
        CHECK(cudaEventCreateWithFlags(&e->join[k], cudaEventDisableTiming));
    }
    {
        const char *g = getenv("VQ_CUDA_GRAPHS");
        e->use_graphs = !(g && !strcmp(g, "0"));
    }
    if (e->use_graphs) {
        CHECK(cudaStreamCreateWithFlags(&e->copy_stream, cudaStreamNonBlocking));
        for (int k = 0; k < VQ_CUDA_PIPELINE_DEPTH; k++)
            CHECK(cudaEventCreateWithFlags(&e->copied[k], cudaEventDisableTiming));
        CHECK(cudaStreamCreateWithFlags(&e->cap_main, cudaStreamNonBlocking));
        for (int k = 0; k < N_SIDE; k++)
            CHECK(cudaStreamCreateWithFlags(&e->cap_side[k], cudaStreamNonBlocking));
    }
    for (int k = 0; k < e->depth; k++) {
        Slot *s = &e->slot[k];
        CHECK(cudaMalloc(&s->d_rows, cfg->plan.total * sizeof(int64_t)));
        CHECK(cudaHostAlloc(&s->h_rows, cfg->plan.total * sizeof(int64_t), cudaHostAllocDefault));
        CHECK(cudaEventCreateWithFlags(&s->done, vq_cuda_wait_flags()));
    }
    const VqExecPlan *p = &cfg->plan;
    if (cfg->dis_scale &&
        (ret = wrap(vq_scale_cuda_alloc(&e->scale, cfg->dis_scale), "scale alloc", err, errlen)) < 0)
        return ret;
    size_t free0 = 0, free1 = 0, total = 0;
    cudaMemGetInfo(&free0, &total);
    for (int k = 0; k < p->n_modules; k++)
        if (!p->module[k].skip &&   /* a ladder's member: the leader runs it */
            (ret = wrap(p->module[k].cuda->alloc(&e->module_scratch[k][0], &p->module[k].g), p->module[k].name, err,
                        errlen)) < 0)
            return ret;
    /* what the module instances took (about: other processes allocate too) */
    if (cudaMemGetInfo(&free1, &total) == cudaSuccess && free1 < free0)
        e->inst_bytes = free0 - free1;
    cudaGetLastError();
    return VQ_OK;
}

static void lanes_free(VqCudaExec *e)
{
    const VqExecPlan *p = &e->cfg.plan;
    for (int s = 1; s < VQ_CUDA_PIPELINE_DEPTH; s++) {
        for (int k = 0; k < p->n_modules; k++)
            if (e->module_scratch[k][s]) {
                p->module[k].cuda->free(e->module_scratch[k][s]);
                e->module_scratch[k][s] = NULL;
            }
        if (e->lane[s] != e->stream)
            cudaStreamDestroy(e->lane[s]);
        e->lane[s] = e->stream;
    }
    for (int s = 0; s < VQ_CUDA_PIPELINE_DEPTH; s++)
        for (int k = 0; k < VQ_EXEC_MAX_MODULES; k++)
            if (e->step[s][k]) {
                cudaEventDestroy(e->step[s][k]);
                e->step[s][k] = NULL;
            }
}

/* Before the first frame (a ladder's sharing is set up by then): a lane per
 * pipeline slot where they apply (the header comment), else one. */
static void lanes_setup(VqCudaExec *e)
{
    const VqExecPlan *p = &e->cfg.plan;
    const char *env = getenv("VQ_CUDA_LANES");
    e->lanes = 1;
    if ((env && !strcmp(env, "1")) || !e->use_graphs || !e->own_stream || !e->legacy_mode || e->scale ||
        e->ref)
        return;
    /* the further instances take about as much again each: only where an
     * eighth of the device stays free after them (other processes on the GPU, a
     * farm's next one, need room for their first instances) */
    size_t free_b = 0, total = 0;
    if (cudaMemGetInfo(&free_b, &total) != cudaSuccess || free_b < (e->depth - 1) * e->inst_bytes + total / 8) {
        cudaGetLastError();
        return;
    }
    cudaError_t ce = cudaSuccess;
    for (int k = 0; k < p->n_modules; k++) {
        const VqModuleExec &m = p->module[k];
        e->carries[k] = !m.skip && (m.temporal || m.cuda->phase || m.cuda->enqueue_every || m.cuda->replayed);
        for (int s = 0; s < e->depth && e->carries[k] && ce == cudaSuccess; s++)
            ce = cudaEventCreateWithFlags(&e->step[s][k], cudaEventDisableTiming);
        for (int s = 1; s < e->depth && !m.skip && !e->carries[k] && ce == cudaSuccess; s++) {
            VqModuleGeom g = m.g;   /* read in alloc only: no instance keeps it */
            g.cuda_slot = s;
            ce = (cudaError_t)m.cuda->alloc(&e->module_scratch[k][s], &g);
        }
    }
    for (int s = 1; s < e->depth && ce == cudaSuccess; s++) {
        cudaStream_t st;
        if ((ce = cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking)) == cudaSuccess)
            e->lane[s] = st;
    }
    if (ce != cudaSuccess) {   /* no room for the second instances: one lane, as before */
        cudaGetLastError();
        lanes_free(e);
        return;
    }
    e->lanes = e->depth;
}

/* The chroma planes a picture's copy needs: modules that read them (psnr's
 * cb/cr, float_motion's under motion_add_uv, ...); and the distorted one's
 * for the upscaler. */
static int needs_chroma(const VqCudaExec *e, int which, const VqPlaneView v[3])
{
    const VqExecPlan *p = &e->cfg.plan;
    int mod_uv = 0;
    for (int k = 0; k < p->n_modules; k++)
        mod_uv |= p->module[k].chroma && !p->module[k].skip;
    return v[1].data && (mod_uv || (which == 1 && e->scale));
}

/* Copy the luma plane, and with chroma the chroma planes, of a picture into
 * the staging planes buf[luma/chroma] (allocated at the first copy; pitch
 * alongside) and point the views there: host pictures are uploaded, device
 * pictures (for a graph) copied on the device. */
static int upload(VqPlaneView v[3], int chroma, uint8_t *buf[2], size_t pitch_of[2], cudaStream_t st,
                  char *err, size_t errlen)
{
    int chroma_planes = v[1].step == 2 ? 1 : 2;   /* semiplanar: one UV plane */
    for (int kind = 0; kind < 2; kind++) {
        int np = kind == 0 ? 1 : (chroma ? chroma_planes : 0);
        for (int q = 0; q < np; q++) {
            VqPlaneView *pv = &v[kind == 0 ? 0 : 1 + q];
            size_t row_bytes = (size_t)pv->w * pv->bytes * pv->step;
            const uint8_t *src = pv->data;
            if (!buf[kind]) {
                size_t pitch;
                void *p;
                /* chroma: room for two planes (U, V) */
                CHECK(cudaMallocPitch(&p, &pitch, row_bytes, (size_t)pv->h * (kind ? 2 : 1)));
                buf[kind] = (uint8_t *)p;
                pitch_of[kind] = pitch;
            }
            const size_t pitch = pitch_of[kind];
            uint8_t *dst = buf[kind] + (size_t)q * pv->h * pitch;
            CHECK(cudaMemcpy2DAsync(dst, pitch, src, pv->pitch, row_bytes, pv->h, cudaMemcpyDefault, st));
            pv->data = dst;
            pv->pitch = (ptrdiff_t)pitch;
            if (kind && chroma_planes == 1) {   /* V is U + one sample in the same plane */
                v[2].data = dst + pv->bytes;
                v[2].pitch = pv->pitch;
            }
        }
    }
    return VQ_OK;
}

/* The main stream waits for every side stream's work queued so far (each
 * joined even after one fails, so that a capture can end on every stream):
 * the first error, or cudaSuccess. */
static cudaError_t join_sides(VqCudaExec *e, cudaStream_t main, const cudaStream_t side[N_SIDE])
{
    cudaError_t first = cudaSuccess;
    for (int k = 0; k < N_SIDE; k++) {
        cudaError_t ce = cudaEventRecord(e->join[k], side[k]);
        if (ce == cudaSuccess)
            ce = cudaStreamWaitEvent(main, e->join[k], 0);
        if (first == cudaSuccess)
            first = ce;
    }
    return first;
}

/* One frame's work, from the upscaling to the copy of the row sums into
 * pinned memory, on main and the side streams (forked from main, joined
 * back): enqueued directly, or captured into a graph. */
static int enqueue(VqCudaExec *e, Slot *s, int slot_index, VqPlaneView ref[3], VqPlaneView dis[3],
                   int score, int shared, int capturing, cudaStream_t main, const cudaStream_t side[N_SIDE],
                   char *err, size_t errlen)
{
    const VqExecPlan *c = &e->cfg.plan;
    int ret;
    if (e->scale) {
        /* the rendition, upscaled to the reference's size; the next frame's
         * scaling is queued after this frame's kernels on the same stream */
        if ((ret = wrap(vq_scale_cuda_run(e->scale, dis, main), "scale kernels", err, errlen)) < 0)
            return ret;
        vq_scale_cuda_output(e->scale, dis);
    }
    /* no clearing here: each feature writes every element of its sections
     * (tests/parity.cu poisons the buffer to hold them to that); the sections
     * of features a subsampled frame skips are stale and never folded */
    /* fork: the side streams start after everything queued so far (the
     * uploads, the upscaling, the previous frames) */
    CHECK(cudaEventRecord(e->fork, main));
    for (int k = 0; k < N_SIDE; k++)
        CHECK(cudaStreamWaitEvent(side[k], e->fork, 0));
    if (capturing && e->fail_mid) {   /* VQ_CUDA_FAIL_CAPTURE=Nmid: the capture invalidated here */
        e->fail_mid = 0;
        (void)cudaStreamSynchronize(side[0]);
    }
    if (shared && e->ref_owner) {
        /* the leader: the reference's work for every rendition, first on
         * each module's stream; the renditions' frames wait for ready[slot]
         * (recorded once every part is done) */
        for (int k = 0; k < c->n_modules; k++) {
            const VqModuleExec &m = c->module[k];
            if (e->ref_part[k] != k)
                continue;
            const int si = module_stream(k);
            if ((ret = wrap(m.cuda->ref_enqueue(e->ref->part[k][slot_index], &m.g, ref, side[si]), m.name, err,
                            errlen)) < 0)
                return ret;
            CHECK(cudaEventRecord(e->ref_mod[k], side[si]));
            CHECK(cudaStreamWaitEvent(side[SIDE_REF], e->ref_mod[k], 0));
        }
        /* in a capture, an event record node: each launch records it */
        CHECK(cudaEventRecordWithFlags(e->ref->ready[slot_index], side[SIDE_REF],
                                       capturing ? cudaEventRecordExternal : cudaEventRecordDefault));
    }
    /* the metric modules, each from its table: on a scored frame, the
     * temporal ones (integer motion, float_motion) on every frame */
    for (int k = 0; k < c->n_modules; k++) {
        const VqModuleExec &m = c->module[k];
        const int si = module_stream(k);
        if (m.skip || !(score || m.temporal))
            continue;
        /* a ladder: the reference's part, the leader's of this slot; in the
         * leader, an instance that reads another one's part (vmaf and
         * vmaf_neg's VIF) waits for it on its own stream */
        const void *part = shared && e->ref_part[k] >= 0 ? e->ref->part[e->ref_part[k]][slot_index] : NULL;
        if (part && e->ref_owner && e->ref_part[k] != k)
            CHECK(cudaStreamWaitEvent(side[si], e->ref_mod[e->ref_part[k]], 0));
        void *sc = scratch_of(e, k, slot_index);
        if ((ret = wrap(part ? m.cuda->enqueue_shared(sc, &m.g, part, ref, dis, s->d_rows + m.off, side[si],
                                                      slot_index)
                             : m.cuda->enqueue(sc, &m.g, ref, dis, s->d_rows + m.off, side[si],
                                               slot_index), m.name, err, errlen)) < 0)
            return ret;
    }
    /* the modules' state kept for the next frame, on every frame (scored or
     * not), after their work on the same stream */
    for (int k = 0; k < c->n_modules; k++) {
        const VqModuleExec &m = c->module[k];
        const int si = module_stream(k);
        if (!m.skip && m.cuda->enqueue_every &&
            (ret = wrap(m.cuda->enqueue_every(scratch_of(e, k, slot_index), &m.g, ref, dis, side[si]), m.name,
                        err, errlen)) < 0)
            return ret;
    }
    /* lanes, in a graph: each carrying instance's work of this frame
     * done (the next frame's graph waits for it; a frame enqueued directly
     * records them at its end, in submit) */
    for (int k = 0; capturing && e->lanes > 1 && k < c->n_modules; k++)
        if (e->carries[k])
            CHECK(cudaEventRecordWithFlags(e->step[slot_index][k], side[module_stream(k)], cudaEventRecordExternal));
    /* join: the copy waits for the side streams (and the next frame's
     * upscaling, queued on the main stream, for their reads) */
    CHECK(join_sides(e, main, side));
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(s->h_rows, s->d_rows, c->total * sizeof(int64_t), cudaMemcpyDeviceToHost, main));
    return VQ_OK;
}

/* a frame's graph: its key and its capture (a part of this file) */
#include "cuda_exec_graph.cuh"

/* A frame enqueued directly (no graph) on its lane and the executor's side
 * streams: with lanes, after the whole frame before, and its carrying
 * instances' step events recorded at its end. */
static int enqueue_direct(VqCudaExec *e, Slot *s, int slot_index, int prev_slot, VqPlaneView ref[3],
                          VqPlaneView dis[3], int score, int shared, char *err, size_t errlen)
{
    cudaStream_t ls = e->lane[slot_index];
    int ret;
    if (e->lanes > 1)
        CHECK(cudaStreamWaitEvent(ls, e->slot[prev_slot].done, 0));
    if ((ret = enqueue(e, s, slot_index, ref, dis, score, shared, 0, ls, e->side, err, errlen)) < 0)
        return ret;
    for (int k = 0; e->lanes > 1 && k < e->cfg.plan.n_modules; k++)
        if (e->carries[k])
            CHECK(cudaEventRecord(e->step[slot_index][k], ls));
    return VQ_OK;
}

extern "C" int vq_cuda_exec_submit(VqCudaExec *e, const VqPlaneView ref_in[3], const VqPlaneView dis_in[3],
                                   int on_device, int score, char *err, size_t errlen)
{
    VqPlaneView ref[3], dis[3];
    const VqExecPlan *c = &e->cfg.plan;
    int ret;
    if (e->in_flight >= e->depth) {
        snprintf(err, errlen, "pipeline full: collect first");
        return VQ_EINVAL;
    }
    if (!e->lanes)
        lanes_setup(e);
    const int slot_index = (e->head + e->in_flight) % e->depth;
    const int prev_slot = (slot_index + e->depth - 1) % e->depth;
    Slot *s = &e->slot[slot_index];
    cudaStream_t ls = e->lane[slot_index];   /* the frame's lane (one lane: the main stream) */
    memcpy(ref, ref_in, sizeof(ref));
    memcpy(dis, dis_in, sizeof(dis));
    /* a module's frame of its own (module.h's phase: integer motion's
     * first frames, before frame n-lag is there): no graph for it */
    uint64_t mphase;
    const int graph = module_phases(e, &mphase) && e->use_graphs;
    /* where the pictures are read or copied from: the main stream, or for a
     * graph the copy stream, once the slot's last graph is done */
    cudaStream_t in = graph ? e->copy_stream : ls;
    if (graph)
        CHECK(cudaStreamWaitEvent(in, s->done, 0));
    if (on_device && (e->legacy_mode || graph)) {
        /* the decoder's copies of these pictures: queued on the legacy
         * stream (our own non-blocking stream), else on the main stream
         * (the caller's, or a blocking one), before this call */
        CHECK(cudaEventRecord(e->legacy, e->legacy_mode ? cudaStreamLegacy : e->stream));
        CHECK(cudaStreamWaitEvent(in, e->legacy, 0));
    }
    /* a ladder: the leader's frame rewrites the slot's shared reference
     * work (and its copy of the reference's picture) once every
     * rendition's last frame in the slot is done; a rendition's frame waits
     * for the leader's work in the slot */
    const int shared = ref_shared(e, slot_index, score);
    const int staging = !on_device || graph;
    VqCudaRef *r = e->ref;
    int refmode = shared ? REF_SHARED : REF_OWN;
    if (r && e->ref_owner && (shared || staging)) {
        for (VqCudaExec *m : *r->members)
            CHECK(cudaStreamWaitEvent(in, m->slot[slot_index].done, 0));
    } else if (shared) {
        CHECK(cudaStreamWaitEvent(ls, r->ready[slot_index], 0));
    }
    if (staging) {
        const int ref_chroma = needs_chroma(e, 0, ref);
        if (r && e->ref_owner) {
            /* the leader's copy of the reference goes to the ladder's staging */
            if ((ret = upload(ref, ref_chroma, r->stage[slot_index], r->stage_pitch[slot_index], in, err,
                              errlen)) < 0)
                return ret;
            memcpy(r->staged[slot_index], ref, sizeof(ref));
            r->staged_chroma[slot_index] = ref_chroma;
            r->staged_frame[slot_index] = shared ? e->frames : -1;
        } else if (shared && r->staged_frame[slot_index] == e->frames &&
                   (!ref_chroma || r->staged_chroma[slot_index])) {
            /* a rendition: the leader's copy of the same frame (ready[slot],
             * waited for above, is recorded after it) */
            memcpy(ref, r->staged[slot_index], sizeof(ref));
            refmode = REF_SHARED_STAGED;
        } else if ((ret = upload(ref, ref_chroma, s->d_upload[0], s->upload_pitch[0], in, err, errlen)) < 0) {
            return ret;
        }
        if ((ret = upload(dis, needs_chroma(e, 1, dis), s->d_upload[1], s->upload_pitch[1], in, err,
                          errlen)) < 0)
            return ret;
    }
    if (graph) {
        CHECK(cudaEventRecord(e->copied[slot_index], in));
        CHECK(cudaStreamWaitEvent(ls, e->copied[slot_index], 0));
        Graph *g = find_graph(e, slot_index, mphase, score ? 1 : 0, refmode);
        if (!g) {   /* no room for its key: enqueued directly, on the staging planes */
            if ((ret = enqueue_direct(e, s, slot_index, prev_slot, ref, dis, score, shared, err, errlen)) < 0)
                return ret;
        } else if (!g->exec) {
            VqPlaneView ref0[3], dis0[3];   /* enqueue rewrites dis when it upscales */
            memcpy(ref0, ref, sizeof(ref0));
            memcpy(dis0, dis, sizeof(dis0));
            if ((ret = capture(e, s, slot_index, ref, dis, score, shared, &g->exec, err, errlen)) < 0)
                return ret;
            if (ret == CAPTURE_INVALIDATED) {
                /* the frame runs directly, its modules' host-side state
                 * back at the key's phases; the key's graph is captured
                 * at its next frame */
                trace_invalidated((long long)e->frames);
                if ((ret = rewind_phases(e, slot_index, mphase, err, errlen)) < 0)
                    return ret;
                memcpy(ref, ref0, sizeof(ref0));
                memcpy(dis, dis0, sizeof(dis0));
                if ((ret = enqueue_direct(e, s, slot_index, prev_slot, ref, dis, score, shared, err, errlen)) < 0)
                    return ret;
                g = NULL;
            }
        } else {
            for (int k = 0; k < c->n_modules; k++)
                if (!c->module[k].skip && c->module[k].cuda->replayed)
                    c->module[k].cuda->replayed(scratch_of(e, k, slot_index));
        }
        if (g) {
            /* lanes: the carrying instances' work of the frame before */
            for (int k = 0; e->lanes > 1 && k < c->n_modules; k++)
                if (e->carries[k])
                    CHECK(cudaStreamWaitEvent(ls, e->step[prev_slot][k], 0));
            CHECK(cudaGraphLaunch(g->exec, ls));
        }
    } else if ((ret = enqueue_direct(e, s, slot_index, prev_slot, ref, dis, score, shared, err, errlen)) < 0) {
        return ret;
    }
    CHECK(cudaEventRecord(s->done, ls));
    e->in_flight++;
    if (e->ref_owner)
        e->ref->slot_frame[slot_index] = shared ? e->frames : -1;
    e->frames++;
    return VQ_OK;
}

extern "C" int vq_cuda_exec_in_flight(const VqCudaExec *e)
{
    return e ? e->in_flight : 0;
}

extern "C" int vq_cuda_exec_depth(const VqCudaExec *e)
{
    return e ? e->depth : vq_cuda_pipeline_depth();
}

extern "C" const void *vq_cuda_exec_module_fold_data(const VqCudaExec *e, int k)
{
    if (!e || k < 0 || k >= e->cfg.plan.n_modules || e->cfg.plan.module[k].skip ||
        !e->cfg.plan.module[k].cuda->fold_data)
        return NULL;
    return e->cfg.plan.module[k].cuda->fold_data(scratch_of(e, k, e->last_slot));
}

extern "C" int vq_cuda_exec_collect(VqCudaExec *e, const int64_t **rows, char *err, size_t errlen)
{
    int ret;
    *rows = NULL;
    if (!e->in_flight) {
        snprintf(err, errlen, "nothing in flight");
        return VQ_EINVAL;
    }
    Slot *s = &e->slot[e->head];
    const int64_t n = e->frames - e->in_flight;   /* the frame collected */
    if (e->ref_owner && !e->ref->members->empty()) {
        /* a ladder's leader: one wait for this frame of every rendition
         * that has it in flight (in the same slot) */
        VqCudaRef *r = e->ref;
        CHECK(cudaStreamWaitEvent(r->group, s->done, 0));
        for (VqCudaExec *m : *r->members)
            if (m->frames > n && m->frames - m->in_flight <= n)
                CHECK(cudaStreamWaitEvent(r->group, m->slot[e->head].done, 0));
        CHECK(cudaEventRecord(r->group_done, r->group));
        CHECK(cudaEventSynchronize(r->group_done));
        for (VqCudaExec *m : *r->members)
            if (m->frames > n && m->frames - m->in_flight <= n)
                m->group_waited = n;
    } else if (e->group_waited != n) {
        CHECK(cudaEventSynchronize(s->done));
    }
    *rows = s->h_rows;
    /* the modules' part of collecting (a slot's device memory stays until
     * the next submit reuses the slot: the fold, right after this collect,
     * may read it) */
    for (int k = 0; k < e->cfg.plan.n_modules; k++) {
        const VqModuleExec &m = e->cfg.plan.module[k];
        if (!m.skip && m.cuda->collect &&
            (ret = wrap(m.cuda->collect(scratch_of(e, k, e->head), &m.g, e->head, s->h_rows + m.off,
                                        e->lane[e->head]),
                        m.name, err, errlen)) < 0)
            return ret;
    }
    e->last_slot = e->head;
    e->head = (e->head + 1) % e->depth;
    e->in_flight--;
    return VQ_OK;
}

extern "C" void vq_cuda_exec_close(VqCudaExec **pe)
{
    VqCudaExec *e = pe ? *pe : NULL;
    if (!e)
        return;
    for (int k = 0; k < VQ_CUDA_PIPELINE_DEPTH; k++)
        if (e->lane[k])
            cudaStreamSynchronize(e->lane[k]);
    for (int k = 0; k < N_SIDE; k++)
        if (e->side[k])
            cudaStreamSynchronize(e->side[k]);
    if (e->ref) {
        /* a rendition leaves the ladder (its frames are done); the leader's
         * work stays readable by the others while they hold it */
        std::vector<VqCudaExec *> *m = e->ref->members;
        for (size_t k = 0; k < m->size(); k++)
            if ((*m)[k] == e) {
                m->erase(m->begin() + (ptrdiff_t)k);
                break;
            }
        vq_cuda_ref_release(e->ref);
        e->ref = NULL;
    }
    for (int k = 0; k < VQ_EXEC_MAX_MODULES; k++)
        if (e->ref_mod[k])
            cudaEventDestroy(e->ref_mod[k]);
    if (e->scale) vq_scale_cuda_free(e->scale);
    lanes_free(e);
    for (int k = 0; k < e->cfg.plan.n_modules; k++)
        if (e->module_scratch[k][0])
            e->cfg.plan.module[k].cuda->free(e->module_scratch[k][0]);
    for (int k = 0; k < VQ_CUDA_PIPELINE_DEPTH; k++) {
        Slot *s = &e->slot[k];   /* slots past the executor's depth hold nothing */
        if (s->d_rows)
            cudaFree(s->d_rows);
        if (s->h_rows)
            cudaFreeHost(s->h_rows);
        if (s->done)
            cudaEventDestroy(s->done);
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 2; b++)
                cudaFree(s->d_upload[a][b]);
    }
    for (int k = 0; k < N_SIDE; k++) {
        if (e->side[k])
            cudaStreamDestroy(e->side[k]);
        if (e->join[k])
            cudaEventDestroy(e->join[k]);
    }
    for (int a = 0; a < VQ_CUDA_PIPELINE_DEPTH; a++)
        for (int b = 0; b < e->n_graphs[a]; b++)
            if (e->graph[a][b].exec)
                cudaGraphExecDestroy(e->graph[a][b].exec);
    if (e->cap_main)
        cudaStreamDestroy(e->cap_main);
    if (e->copy_stream) {
        cudaStreamSynchronize(e->copy_stream);
        cudaStreamDestroy(e->copy_stream);
    }
    for (int k = 0; k < VQ_CUDA_PIPELINE_DEPTH; k++)
        if (e->copied[k])
            cudaEventDestroy(e->copied[k]);
    for (int k = 0; k < N_SIDE; k++)
        if (e->cap_side[k])
            cudaStreamDestroy(e->cap_side[k]);
    if (e->fork)
        cudaEventDestroy(e->fork);
    if (e->legacy)
        cudaEventDestroy(e->legacy);
    if (e->own_stream)
        cudaStreamDestroy(e->stream);
    free(e);
    *pe = NULL;
}
