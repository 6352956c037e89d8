/*
 * null.cpp - the null module (hostmath/module.hpp): libvmaf v3.2.0's null
 * extractor (feature/null.c): no options, no row work, no outputs.
 */
#include "module.hpp"

namespace vq {
namespace {

int alloc(void **out, const VqModuleGeom *)
{
    *out = nullptr;
    return 0;
}

void release(void *)
{
}

int step_rows(const VqModuleGeom *, int)
{
    return 0;
}

void rows(void *, const VqModuleGeom *, const VqPlaneView *, const VqPlaneView *, int64_t *, int, int, int)
{
}

int enqueue(void *, const VqModuleGeom *, const VqPlaneView *, const VqPlaneView *, int64_t *, void *, int)
{
    return 0;
}

const VqModuleCpu null_cpu = { alloc, release, 0, step_rows, rows };
const VqModuleCuda null_cuda = { alloc, release, enqueue };

std::string plan(const FeatureOptions &, const VqFormat &, VqModuleGeom &, size_t &words,
                 std::shared_ptr<const void> &)
{
    words = 0;
    return "";
}

void fold(const VqModuleGeom &, const int64_t *, int64_t, void *, double *)
{
}

}  // namespace

/* a function-local static: made at its first use, whatever the order
 * in which the library's files are initialised */
const Module &null_module()
{
    static const Module m = {
        FeatureSpec{ "null", {}, {}, {}, {} }, &null_cpu, &null_cuda, true, false, plan, fold,
    };
    return m;
}

}  // namespace vq
