/*
 * adm_outputs.hpp - adm's and float_adm's outputs in libvmaf's append
 * order: adm2, aim, adm3, the four scales; with debug=true (n_outputs 18)
 * then extract()'s score, score_num, score_den and scores[] (num and den of
 * each scale).  Scores: VqAdmScores or VqFadmScores.
 */
#ifndef VQ_ADM_OUTPUTS_HPP
#define VQ_ADM_OUTPUTS_HPP

namespace vq {

template <typename Scores>
void put_adm_outputs(const Scores &a, int n_outputs, double *out)
{
    out[0] = a.adm2;
    out[1] = a.aim;
    out[2] = a.adm3;
    for (int k = 0; k < 4; k++)
        out[3 + k] = a.scale[k];
    if (n_outputs > 7) {
        out[7] = a.adm2;
        out[8] = a.num;
        out[9] = a.den;
        for (int k = 0; k < 4; k++) {
            out[10 + 2 * k] = a.num_scale[k];
            out[11 + 2 * k] = a.den_scale[k];
        }
    }
}

}  // namespace vq

#endif /* VQ_ADM_OUTPUTS_HPP */
