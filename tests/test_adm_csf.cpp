/*
 * test_adm_csf.cpp - ADM's contrast sensitivity functions (adm_csf_mode
 * 1, 2, 3; docs/adm_csf.md): the float factors and their fixed-point
 * multipliers, pinned to what libvmaf v3.2.0's barten_csf_tools.h and
 * integer_adm.c give (its header's functions compiled by gcc -O2
 * -ffp-contract=off on x86-64; the multipliers include the reference's
 * wrapping conversions of Barten's factors, which exceed Q21/Q23 and Q32),
 * and the refusals.
 */
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "adm/adm_params.h"

namespace {

struct Case {
    int mode;
    double nvd;
    int rdh;
    double scf, scfd;
    int scale;
    float f_hv, f_d;            /* the reference's float factors */
    uint32_t i_hv, i_d;         /* its i_rfactor: Q21 / Q23 at scale 0, Q32 above */
};

const Case cases[] = {
    { 1, 3, 1080, 1, 1, 0, 0x1.35e31ap+0, 0x1.35e31ap+0, 48227u, 61837u },
    { 1, 3, 1080, 1, 1, 1, 0x1.42b3c6p+2, 0x1.42b3c6p+2, 181344256u, 181344256u },
    { 1, 3, 1080, 1, 1, 2, 0x1.d410eap+3, 0x1.d410eap+3, 2693222400u, 2693222400u },
    { 1, 3, 1080, 1, 1, 3, 0x1.af9d36p+4, 0x1.af9d36p+4, 4191379456u, 4191379456u },
    { 1, 5, 2160, 0.37, 2.5, 0, 0x1.80c89ap-7, 0x1.44fc74p-4, 24626u, 10211u },
    { 1, 5, 2160, 0.37, 2.5, 1, 0x1.f9909p-4, 0x1.aaff4ap-1, 530123008u, 3581912320u },
    { 1, 5, 2160, 0.37, 2.5, 2, 0x1.575f1p-1, 0x1.220274p+2, 2880407552u, 2282344448u },
    { 1, 5, 2160, 0.37, 2.5, 3, 0x1.49f986p+1, 0x1.16b1e2p+4, 2482179072u, 1797136384u },
    { 1, 1.5, 2160, 0.001, 0, 0, 0x1.3d530cp-10, 0x0p+0, 2538u, 0u },
    { 1, 1.5, 2160, 0.001, 0, 1, 0x1.4a7274p-8, 0x0p+0, 21656180u, 0u },
    { 1, 1.5, 2160, 0.001, 0, 2, 0x1.df4cb6p-7, 0x0p+0, 62822764u, 0u },
    { 1, 1.5, 2160, 0.001, 0, 3, 0x1.b9f90cp-6, 0x0p+0, 115860528u, 0u },
    { 1, 3, 1080, 50, 0.02, 0, 0x1.e432d8p+5, 0x1.8ca7dp-6, 52064u, 6479u },
    { 1, 3, 1080, 50, 0.02, 1, 0x1.f838e6p+7, 0x1.9d0f12p-4, 477298688u, 433123616u },
    { 1, 3, 1080, 50, 0.02, 2, 0x1.6dad36p+9, 0x1.2b8ff2p-2, 1517027328u, 1256455296u },
    { 1, 3, 1080, 50, 0.02, 3, 0x1.5132d2p+10, 0x1.143ba8p-1, 3410493440u, 2317210624u },
    { 2, 3, 1080, 1, 1, 0, 0x1.83a53cp-7, 0x1.19ef96p-8, 24809u, 36087u },
    { 2, 3, 1080, 1, 1, 1, 0x1.9a06a6p-6, 0x1.81f106p-7, 107485848u, 50586124u },
    { 2, 3, 1080, 1, 1, 2, 0x1.5fd8aep-5, 0x1.87df5cp-6, 184468848u, 102727024u },
    { 2, 3, 1080, 1, 1, 3, 0x1.e03926p-5, 0x1.2619dap-5, 251775280u, 154193616u },
    { 2, 5, 720, 1, 1, 0, 0x1.4c660ap-7, 0x1.c5e7p-9, 21273u, 29049u },
    { 2, 5, 720, 1, 1, 1, 0x1.71a3b2p-6, 0x1.50ebaap-7, 96898760u, 44160852u },
    { 2, 5, 720, 1, 1, 2, 0x1.4a361ap-5, 0x1.65cf68p-6, 173125840u, 93797792u },
    { 2, 5, 720, 1, 1, 3, 0x1.d0a676p-5, 0x1.1bc772p-5, 243610544u, 148781968u },
    { 3, 1.5, 2160, 1, 1, 0, 0x1.709b74p-7, 0x1.0c8042p-8, 23590u, 34368u },
    { 3, 1.5, 2160, 1, 1, 1, 0x1.72607p-6, 0x1.65dbfcp-7, 97092032u, 46905336u },
    { 3, 1.5, 2160, 1, 1, 2, 0x1.2656acp-5, 0x1.5f1bfp-6, 154318176u, 92041152u },
    { 3, 1.5, 2160, 1, 1, 3, 0x1.76273ap-5, 0x1.00841ep-5, 196164048u, 134488304u },
    { 3, 5, 2160, 1, 1, 0, 0x1.42f61ep-14, 0x1.797cc4p-15, 161u, 377u },
    { 3, 5, 2160, 1, 1, 1, 0x1.098d48p-8, 0x1.e603d6p-11, 17403208u, 3981434u },
    { 3, 5, 2160, 1, 1, 2, 0x1.c8c0cep-7, 0x1.6b54e2p-8, 59867548u, 23811298u },
    { 3, 5, 2160, 1, 1, 3, 0x1.aeddcep-6, 0x1.b7952ep-7, 112949048u, 57616988u },
};

uint32_t float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

VqAdmOptions options(int mode, double nvd, int rdh, double scf = 1.0, double scfd = 1.0)
{
    VqAdmOptions o;
    vq_adm_options_default(&o);
    o.csf_mode = mode;
    o.norm_view_dist = nvd;
    o.ref_display_height = rdh;
    o.csf_scale = scf;
    o.csf_diag_scale = scfd;
    return o;
}

TEST(AdmCsf, FactorsAndMultipliersAreTheReferences)
{
    for (const Case &c : cases) {
        const VqAdmOptions o = options(c.mode, c.nvd, c.rdh, c.scf, c.scfd);
        SCOPED_TRACE(testing::Message() << "mode " << c.mode << " nvd " << c.nvd << " rdh " << c.rdh
                                        << " scf " << c.scf << " scfd " << c.scfd << " scale " << c.scale);
        EXPECT_EQ(float_bits(vq_adm_csf_factor(&o, c.scale, 0)), float_bits(c.f_hv));
        EXPECT_EQ(float_bits(vq_adm_csf_factor(&o, c.scale, 1)), float_bits(c.f_d));
        VqAdmParams p;
        ASSERT_EQ(vq_adm_params_init(&p, 1920, 1080, 8, &o), 0);
        const VqAdmScaleParams &s = p.s[c.scale];
        EXPECT_EQ(float_bits(s.rfactor[0]), float_bits(c.f_hv));
        EXPECT_EQ(float_bits(s.rfactor[1]), float_bits(c.f_hv));
        EXPECT_EQ(float_bits(s.rfactor[2]), float_bits(c.f_d));
        EXPECT_EQ(s.i_rfactor[0], c.i_hv);
        EXPECT_EQ(s.i_rfactor[1], c.i_hv);
        EXPECT_EQ(s.i_rfactor[2], c.i_d);
    }
}

/* the blend tables as libvmaf's header types them, [h/v, d][scale] */
struct Table {
    int rdh;
    double nvd;
    float blend[2][4], mae[2][4];
};
const Table tables[] = {
    { 1080, 3.0, { { 0.01183, 0.025026, 0.04295, 0.058621 }, { 0.004302, 0.011778, 0.023918, 0.035901 } },
      { { 0.011249, 0.022606, 0.035930, 0.045673 }, { 0.004097, 0.010921, 0.021430, 0.031313 } } },
    { 1080, 5.0, { { 0.004212, 0.014809, 0.029642, 0.047464 }, { 0.000984, 0.005852, 0.0146, 0.027574 } },
      { { 0.004052, 0.013939, 0.026298, 0.038833 }, { 0.000927, 0.005544, 0.013415, 0.024515 } } },
    /* 2160 at 1.5H: 1080 at 3H's table */
    { 2160, 1.5, { { 0.01183, 0.025026, 0.04295, 0.058621 }, { 0.004302, 0.011778, 0.023918, 0.035901 } },
      { { 0.011249, 0.022606, 0.035930, 0.045673 }, { 0.004097, 0.010921, 0.021430, 0.031313 } } },
    { 2160, 3.0, { { 0.00226, 0.01183, 0.025026, 0.04295 }, { 0.000479, 0.004302, 0.011778, 0.023918 } },
      { { 0.002166, 0.011249, 0.022606, 0.035930 }, { 0.000447, 0.004097, 0.010921, 0.021430 } } },
    { 2160, 5.0, { { 0.000092, 0.004212, 0.014809, 0.029642 }, { 0.000050, 0.000984, 0.005852, 0.0146 } },
      { { 0.000077, 0.004052, 0.013939, 0.026298 }, { 0.000045, 0.000927, 0.005544, 0.013415 } } },
    { 720, 3.0, { { 0.018715, 0.035637, 0.052798, 0.061509 }, { 0.007999, 0.018396, 0.031851, 0.037718 } },
      { { 0.017329, 0.030870, 0.042134, 0.047410 }, { 0.007509, 0.016707, 0.028072, 0.032722 } } },
    { 720, 5.0, { { 0.010144, 0.022561, 0.040309, 0.05672 }, { 0.003463, 0.010282, 0.021839, 0.034641 } },
      { { 0.009689, 0.020577, 0.034162, 0.044523 }, { 0.003302, 0.009579, 0.019661, 0.030318 } } },
    { 480, 3.0, { { 0.027961, 0.045875, 0.060275, 0.056234 }, { 0.013572, 0.026277, 0.036959, 0.034511 } },
      { { 0.024969, 0.037825, 0.046676, 0.043974 }, { 0.012511, 0.023424, 0.032139, 0.030166 } } },
    { 480, 5.0, { { 0.016781, 0.032822, 0.05032, 0.061594 }, { 0.00691, 0.016545, 0.029917, 0.037777 } },
      { { 0.015665, 0.028766, 0.040612, 0.047483 }, { 0.006514, 0.015107, 0.026476, 0.032776 } } },
};

TEST(AdmCsf, BlendTables)
{
    for (const Table &t : tables)
        for (int mode = 2; mode <= 3; mode++) {
            const VqAdmOptions o = options(mode, t.nvd, t.rdh);
            EXPECT_TRUE(vq_adm_csf_supported(&o));
            for (int s = 0; s < 4; s++)
                for (int d = 0; d < 2; d++)
                    EXPECT_EQ(float_bits(vq_adm_csf_factor(&o, s, d)),
                              float_bits(mode == 2 ? t.blend[d][s] : t.mae[d][s]))
                        << "rdh " << t.rdh << " nvd " << t.nvd << " mode " << mode << " scale " << s;
            /* the ones below 3 * 1080 have a table but libvmaf's extract refuses them */
            VqAdmParams p;
            EXPECT_EQ(vq_adm_params_init(&p, 64, 64, 8, &o) == 0, t.nvd * t.rdh >= 3240.0);
        }
}

TEST(AdmCsf, PairsWithoutATableAreRefused)
{
    /* the reference would use -22 (-EINVAL as a float) as every factor */
    const struct { double nvd; int rdh; } bad[] = { { 4.0, 1080 }, { 3.0, 1440 }, { 1.5, 4320 },
                                                    { 3.0000001, 1080 }, { 6.0, 540 } };
    for (const auto &b : bad)
        for (int mode = 2; mode <= 3; mode++) {
            const VqAdmOptions o = options(mode, b.nvd, b.rdh);
            EXPECT_FALSE(vq_adm_csf_supported(&o));
            EXPECT_EQ(vq_adm_csf_factor(&o, 0, 0), -22.0f);
            VqAdmParams p;
            EXPECT_LT(vq_adm_params_init(&p, 64, 64, 8, &o), 0);
            /* Watson and Barten have factors for every pair */
            const VqAdmOptions w = options(mode - 2, b.nvd, b.rdh);
            EXPECT_TRUE(vq_adm_csf_supported(&w));
            EXPECT_EQ(vq_adm_params_init(&p, 64, 64, 8, &w), 0);
        }
    EXPECT_NE(strstr(vq_adm_csf_pairs(), "2160:1.5"), nullptr);
}

TEST(AdmCsf, OutOfRangeOptionsAreRefused)
{
    VqAdmParams p;
    VqAdmOptions o = options(1, 3.0, 1080, 50.0, 0.0);
    EXPECT_EQ(vq_adm_params_init(&p, 64, 64, 8, &o), 0);
    o.csf_scale = 50.5;
    EXPECT_LT(vq_adm_params_init(&p, 64, 64, 8, &o), 0);
    o = options(1, 3.0, 1080, 1.0, -0.1);
    EXPECT_LT(vq_adm_params_init(&p, 64, 64, 8, &o), 0);
    o = options(4, 3.0, 1080);
    EXPECT_LT(vq_adm_params_init(&p, 64, 64, 8, &o), 0);
    o = options(-1, 3.0, 1080);
    EXPECT_LT(vq_adm_params_init(&p, 64, 64, 8, &o), 0);
}

TEST(AdmCsf, WatsonKeepsItsHardCodedScale0OnlyInMode0)
{
    VqAdmParams p0, p2;
    VqAdmOptions o = options(0, 3.0, 1080);
    ASSERT_EQ(vq_adm_params_init(&p0, 1920, 1080, 8, &o), 0);
    EXPECT_EQ(p0.s[0].i_rfactor[0], 36453u);
    EXPECT_EQ(p0.s[0].i_rfactor[2], 49417u);
    /* adm_csf_scale is Barten's only: Watson's factors ignore it */
    o.csf_scale = 7.0;
    o.csf_diag_scale = 0.5;
    ASSERT_EQ(vq_adm_params_init(&p2, 1920, 1080, 8, &o), 0);
    EXPECT_EQ(0, memcmp(&p0, &p2, sizeof(p0)));
}

}  // namespace
