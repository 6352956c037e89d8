/*
 * modules.cpp - the one list of metric modules (hostmath/module.hpp).  A new
 * metric adds its folders (kernels/<metric>/, hostmath/<metric>/) and one line
 * here.
 */
#include "module.hpp"

namespace vq {

extern const Module float_ansnr_module;     /* hostmath/float_ansnr/ */

const std::vector<const Module *> &modules()
{
    static const std::vector<const Module *> list = {
        &float_ansnr_module,
    };
    return list;
}

}  // namespace vq
