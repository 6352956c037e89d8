/*
 * modules.cpp - the one list of metric modules (hostmath/module.hpp).  A new
 * metric adds its folders (kernels/<metric>/, hostmath/<metric>/) and one line
 * here.
 */
#include "module.hpp"

namespace vq {

const Module &vif_module();             /* hostmath/vif/ */
const Module &adm_module();             /* hostmath/adm/ */
const Module &motion_module();          /* hostmath/motion/ */
const Module &cambi_module();           /* hostmath/cambi/ */
const Module &float_motion_module();    /* hostmath/float_motion/ */
const Module &psnr_module();            /* hostmath/psnr/ */
const Module &float_psnr_module();      /* hostmath/float_psnr/ */
const Module &float_ansnr_module();     /* hostmath/float_ansnr/ */
const Module &float_moment_module();    /* hostmath/float_moment/ */
const Module &float_vif_module();       /* hostmath/float_vif/ */
const Module &float_adm_module();       /* hostmath/float_adm/ */
const Module &ciede_module();           /* hostmath/ciede/ */
const Module &speed_temporal_module();  /* hostmath/speed_temporal/ */
const Module &float_ssim_module();      /* hostmath/ssim/ */
const Module &float_ms_ssim_module();   /* hostmath/ssim/ */
const Module &null_module();            /* hostmath/null/ */
const Module &psnr_hvs_module();        /* hostmath/psnr_hvs/ */
const Module &speed_chroma_module();    /* hostmath/speed_chroma/ */

const std::vector<const Module *> &modules()
{
    static const std::vector<const Module *> list = {
        &vif_module(),              /* vif, adm, motion, cambi and float_motion first: the */
        &adm_module(),              /* extractors' list keeps its older order */
        &motion_module(),
        &cambi_module(),
        &float_motion_module(),
        &psnr_module(),
        &float_psnr_module(),
        &float_ansnr_module(),
        &float_moment_module(),
        &float_vif_module(),
        &float_adm_module(),
        &ciede_module(),
        &speed_temporal_module(),
        &float_ssim_module(),
        &float_ms_ssim_module(),
        &null_module(),
        &psnr_hvs_module(),
        &speed_chroma_module(),
    };
    return list;
}

}  // namespace vq
