/*
 * cuda_exec_graph.cuh - a part of cuda_exec.cu, included there where it
 * stands (it uses that file's types and enqueue): a frame's CUDA graph,
 * its key (the modules' phases) and its capture, and the test hooks of
 * an invalidated capture (docs/reliability.md).
 */
#ifndef VQ_CUDA_EXEC_GRAPH_CUH
#define VQ_CUDA_EXEC_GRAPH_CUH

/* The modules' phases (module.h) as one graph key: bits 2k and 2k + 1,
 * instance k's phase; 0 while one of them enqueues a frame of its own (or
 * has a phase the key cannot hold), else 1. */
static_assert(2 * VQ_EXEC_MAX_MODULES <= 64, "a graph key holds two bits per module instance");
static int module_phases(const VqCudaExec *e, uint64_t *key)
{
    const VqExecPlan *c = &e->cfg.plan;
    *key = 0;
    for (int k = 0; k < c->n_modules; k++) {
        if (c->module[k].skip || !c->module[k].cuda->phase)
            continue;
        const int ph = c->module[k].cuda->phase(scratch_of(e, k, 0));
        if (ph < 0 || ph > 3)
            return 0;
        *key |= (uint64_t)ph << (2 * k);
    }
    return 1;
}

/* The slot's graph of this key: captured already (exec set), or a new
 * entry (exec NULL) to capture into; NULL when the slot has no room. */
static Graph *find_graph(VqCudaExec *e, int slot_index, uint64_t modules, int score, int refmode)
{
    Graph *t = e->graph[slot_index];
    for (int k = 0; k < e->n_graphs[slot_index]; k++)
        if (t[k].modules == modules && t[k].score == score && t[k].refmode == refmode)
            return &t[k];
    if (e->n_graphs[slot_index] == N_GRAPHS)
        return NULL;
    Graph *g = &t[e->n_graphs[slot_index]++];
    g->modules = modules;
    g->score = score;
    g->refmode = refmode;
    g->exec = NULL;
    return g;
}

/* VQ_CUDA_FAIL_CAPTURE=N: the process's Nth capture is invalidated on
 * purpose (a synchronisation of a capturing stream), as another thread's
 * synchronisation on the GPU can do; for testing the retry.  N alone: at
 * the capture's start; "Nmid": after the side streams have forked, so that
 * the modules' launches fail inside it.  Returns 0, 1 (start) or 2 (mid). */
static int fail_this_capture()
{
    static const char *v = getenv("VQ_CUDA_FAIL_CAPTURE");
    static const int nth = v ? atoi(v) : 0;
    static const int where = v && strstr(v, "mid") ? 2 : 1;
    static std::atomic<int> count{ 0 };
    return nth > 0 && ++count == nth ? where : 0;
}

/* capture's answer when the capture was invalidated and nothing else went
 * wrong: the frame can be run directly instead */
#define CAPTURE_INVALIDATED 1

/* VQ_CUDA_CAPTURE_TRACE set: each invalidated capture is told on stderr
 * (for measuring how often it happens; the run goes on either way) */
static void trace_invalidated(long long frame)
{
    static const bool on = getenv("VQ_CUDA_CAPTURE_TRACE") != NULL;
    if (on)
        fprintf(stderr, "vqcuda: a CUDA graph capture was invalidated at frame %lld; that frame ran directly\n",
                frame);
}

/* Capture one frame's work (enqueue) into *g, on the capture streams.  The
 * modules' host-side state steps as at a direct run: this frame's work is
 * the graph's first replay.  CAPTURE_INVALIDATED when the capture was
 * invalidated (seen at 4K on the first frame, while the decoders start:
 * docs/reliability.md), every capture stream out of capture again. */
static int capture(VqCudaExec *e, Slot *s, int slot_index, VqPlaneView ref[3], VqPlaneView dis[3],
                   int score, int shared, cudaGraphExec_t *g, char *err, size_t errlen)
{
    cudaGraph_t graph = NULL;
    /* relaxed: the decoder threads' own CUDA calls go on during a capture */
    CHECK(cudaStreamBeginCapture(e->cap_main, cudaStreamCaptureModeRelaxed));
    const int fail = fail_this_capture();
    if (fail == 1)
        (void)cudaStreamSynchronize(e->cap_main);   /* not allowed in a capture: invalidates it */
    e->fail_mid = fail == 2;
    int ret = enqueue(e, s, slot_index, ref, dis, score, shared, 1, e->cap_main, e->cap_side, err, errlen);
    if (ret < 0)   /* the side streams joined back, so that the capture ends on every stream (errors ignored) */
        (void)join_sides(e, e->cap_main, e->cap_side);
    cudaError_t ce = cudaStreamEndCapture(e->cap_main, &graph);
    if (ce == cudaErrorStreamCaptureInvalidated) {
        if (graph)
            cudaGraphDestroy(graph);
        cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
        int out = cudaStreamIsCapturing(e->cap_main, &st) == cudaSuccess && st == cudaStreamCaptureStatusNone;
        for (int k = 0; out && k < N_SIDE; k++)
            out = cudaStreamIsCapturing(e->cap_side[k], &st) == cudaSuccess && st == cudaStreamCaptureStatusNone;
        if (out) {
            cudaGetLastError();   /* the invalidated capture's errors: not this frame's */
            return CAPTURE_INVALIDATED;
        }
        return ret < 0 ? ret : cuda_fail(err, errlen, "cudaStreamEndCapture", ce);
    }
    if (ret < 0) {
        if (graph)
            cudaGraphDestroy(graph);
        return ret;
    }
    CHECK(ce);
    ce = cudaGraphInstantiate(g, graph, 0);
    cudaGraphDestroy(graph);
    CHECK(ce);
    return VQ_OK;
}

/* After an invalidated capture: the modules' host-side state set back to
 * the key's phases (the capture stepped it, or part of it), each instance's
 * replayed hook stepping a cycle of at most four phases (module.h). */
static int rewind_phases(VqCudaExec *e, int slot_index, uint64_t key, char *err, size_t errlen)
{
    const VqExecPlan *c = &e->cfg.plan;
    for (int k = 0; k < c->n_modules; k++) {
        const VqModuleCuda *mc = c->module[k].cuda;
        if (c->module[k].skip || !mc->phase)
            continue;
        void *sk = scratch_of(e, k, slot_index);
        const int want = (int)((key >> (2 * k)) & 3);
        for (int i = 0; i < 4 && mc->replayed && mc->phase(sk) != want; i++)
            mc->replayed(sk);
        if (mc->phase(sk) != want) {
            snprintf(err, errlen, "a CUDA graph capture was invalidated and %s's state could not be set back",
                     c->module[k].name);
            return VQ_EINVAL;
        }
    }
    return VQ_OK;
}

#endif /* VQ_CUDA_EXEC_GRAPH_CUH */
