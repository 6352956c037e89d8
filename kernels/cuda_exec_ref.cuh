/*
 * cuda_exec_ref.cuh - a part of cuda_exec.cu, included there after the
 * executor's struct (it uses that file's types and helpers): a ladder's
 * reference work shared between the renditions' executors (VqCudaRef).
 */
#ifndef VQ_CUDA_EXEC_REF_CUH
#define VQ_CUDA_EXEC_REF_CUH

/*
 * A ladder's reference work on the GPU: per pipeline slot, the reference's
 * part of each of the leader's modules that has one (module.h's ref_*
 * hooks: VIF's scale images and moments mu1, xx; ADM's DWT bands and
 * denominators) of the frame in that slot, made once by the leader's executor and read by
 * the renditions' (the leader's own included; a rendition's instance reads
 * the part of the leader's first instance of its table and geometry).  The
 * slots follow the frame numbers (frame n: slot n % depth) in every
 * executor of the ladder, since each is given the same frames.
 *   - ready[slot] is recorded when the leader's frame in that slot has made
 *     them; a rendition's frame waits for it on the device.
 *   - The leader's frame n + depth, which rewrites the slot, waits on the
 *     device for every rendition's last frame in that slot (its done event).
 *   - A rendition whose frame n is no longer in a slot (the leader was given
 *     frames ahead of it by more than the depth) or not yet (the leader has
 *     not been given it) does that frame's reference work itself.
 * Held by the executors and the session that hands it on; used from one
 * thread, like the sessions of a ladder.
 */
struct VqCudaRef {
    int refs;
    int device;                        /* the leader's CUDA device */
    int w, h;
    int64_t slot_frame[VQ_CUDA_PIPELINE_DEPTH];   /* the frame whose work is in the slot; -1: none */
    /* the leader's module instance j's part of each slot (NULL: it has none) */
    void *part[VQ_EXEC_MAX_MODULES][VQ_CUDA_PIPELINE_DEPTH];
    const VqModuleCuda *part_table[VQ_EXEC_MAX_MODULES];   /* NULL: no part */
    VqModuleGeom part_geom[VQ_EXEC_MAX_MODULES];
    cudaEvent_t ready[VQ_CUDA_PIPELINE_DEPTH];
    std::vector<VqCudaExec *> *members;
    /* one host wait per ladder frame: the leader's collect waits for every
     * rendition's frame in flight (an event on this stream after all of
     * theirs), whose collects then need not wait */
    cudaStream_t group;
    cudaEvent_t group_done;
    /* the reference's picture of each slot, as the leader staged it (graphs,
     * host pictures): a rendition given the same frame reads it there
     * instead of copying the picture again.  Owned here, so that it outlives
     * the leader's executor. */
    uint8_t *stage[VQ_CUDA_PIPELINE_DEPTH][2];      /* luma, chroma */
    size_t stage_pitch[VQ_CUDA_PIPELINE_DEPTH][2];
    VqPlaneView staged[VQ_CUDA_PIPELINE_DEPTH][3];
    int staged_chroma[VQ_CUDA_PIPELINE_DEPTH];
    int64_t staged_frame[VQ_CUDA_PIPELINE_DEPTH];   /* -1: none */
};

/* whether the leader's module instance j's reference part serves an
 * instance m: the same table and geometry */
static bool part_serves(const VqCudaRef *r, int j, const VqModuleExec &m)
{
    return r->part_table[j] && r->part_table[j] == m.cuda && r->part_geom[j].w == m.g.w &&
           r->part_geom[j].h == m.g.h && r->part_geom[j].bpc == m.g.bpc;
}

extern "C" void vq_cuda_ref_release(VqCudaRef *r)
{
    if (!r || --r->refs > 0)
        return;
    for (int k = 0; k < VQ_CUDA_PIPELINE_DEPTH; k++) {
        for (int j = 0; j < VQ_EXEC_MAX_MODULES; j++)
            if (r->part[j][k])
                r->part_table[j]->ref_free(r->part[j][k]);
        if (r->ready[k])
            cudaEventDestroy(r->ready[k]);
        cudaFree(r->stage[k][0]);
        cudaFree(r->stage[k][1]);
    }
    delete r->members;
    if (r->group_done)
        cudaEventDestroy(r->group_done);
    if (r->group)
        cudaStreamDestroy(r->group);
    free(r);
}

extern "C" VqCudaRef *vq_cuda_exec_ref(VqCudaExec *e)
{
    if (!e || !e->ref || !e->ref_owner)
        return NULL;
    e->ref->refs++;
    return e->ref;
}

extern "C" int vq_cuda_exec_share(VqCudaExec *e, VqCudaRef *r)
{
    const VqExecPlan *p = &e->cfg.plan;
    int dev = -1;
    if (!r || e->ref || e->frames || r->w != p->w || r->h != p->h || cudaGetDevice(&dev) != cudaSuccess ||
        dev != r->device)
        return 0;
    r->refs++;
    e->ref = r;
    r->members->push_back(e);
    /* each module instance with a reference part: the leader's first of
     * the same table and geometry */
    for (int k = 0; k < p->n_modules; k++) {
        const VqModuleExec &m = p->module[k];
        for (int j = 0; j < VQ_EXEC_MAX_MODULES && !m.skip && e->ref_part[k] < 0; j++)
            if (part_serves(r, j, m))
                e->ref_part[k] = j;
    }
    return 1;
}

extern "C" int vq_cuda_exec_lead(VqCudaExec *e, char *err, size_t errlen)
{
    const VqExecPlan *p = &e->cfg.plan;
    const char *env = getenv("VQ_CUDA_REF_SHARE");   /* 0: every rendition does its own (to compare) */
    int parts = 0;
    for (int k = 0; k < p->n_modules; k++)
        parts += !p->module[k].skip && p->module[k].cuda->ref_alloc != NULL;
    if (e->ref || e->frames || !parts || (env && !strcmp(env, "0")))
        return VQ_OK;
    VqCudaRef *r = (VqCudaRef *)calloc(1, sizeof(*r));
    if (!r)
        return VQ_ENOMEM;
    r->refs = 1;
    for (int k = 0; k < VQ_CUDA_PIPELINE_DEPTH; k++)
        r->slot_frame[k] = r->staged_frame[k] = -1;
    r->w = p->w;
    r->h = p->h;
    r->members = new (std::nothrow) std::vector<VqCudaExec *>();
    cudaError_t ce = r->members ? cudaGetDevice(&r->device) : cudaErrorMemoryAllocation;
    const char *what = "reference work";
    /* the leader's instances with a reference part: the first of each
     * table and geometry makes it (another reads it, as a rendition's do) */
    int own[VQ_EXEC_MAX_MODULES];
    for (int k = 0; k < p->n_modules; k++) {
        const VqModuleExec &m = p->module[k];
        own[k] = -1;
        if (m.skip || !m.cuda->ref_alloc)
            continue;
        own[k] = k;
        for (int j = 0; j < k; j++)
            if (own[j] == j && part_serves(r, j, m))
                own[k] = j;
        if (own[k] == k) {
            r->part_table[k] = m.cuda;
            r->part_geom[k] = m.g;
        }
    }
    for (int k = 0; k < e->depth && ce == cudaSuccess; k++) {
        for (int j = 0; j < p->n_modules && ce == cudaSuccess; j++)
            if (r->part_table[j] &&
                (ce = (cudaError_t)r->part_table[j]->ref_alloc(&r->part[j][k], &p->module[j].g)) != cudaSuccess)
                what = p->module[j].name;
        if (ce == cudaSuccess)
            ce = cudaEventCreateWithFlags(&r->ready[k], cudaEventDisableTiming);
    }
    for (int j = 0; j < p->n_modules && ce == cudaSuccess; j++)
        if (r->part_table[j] && !e->ref_mod[j])
            ce = cudaEventCreateWithFlags(&e->ref_mod[j], cudaEventDisableTiming);
    if (ce == cudaSuccess)
        ce = cudaStreamCreateWithFlags(&r->group, cudaStreamNonBlocking);
    if (ce == cudaSuccess)
        ce = cudaEventCreateWithFlags(&r->group_done, vq_cuda_wait_flags());
    if (ce != cudaSuccess) {
        vq_cuda_ref_release(r);   /* the leader does its own work, as without a ladder */
        return cuda_fail(err, errlen, what, ce);
    }
    e->ref = r;
    e->ref_owner = 1;
    for (int k = 0; k < p->n_modules; k++)
        e->ref_part[k] = own[k];
    return VQ_OK;
}

/* the next frame's reference work is shared: the leader makes it (when the
 * frame is scored), or it is the frame a rendition is given */
static int ref_shared(const VqCudaExec *e, int slot_index, int score)
{
    const VqCudaRef *r = e->ref;
    if (!r)
        return 0;
    if (e->ref_owner)
        return score;
    return r->slot_frame[slot_index] == e->frames;
}

#endif /* VQ_CUDA_EXEC_REF_CUH */
