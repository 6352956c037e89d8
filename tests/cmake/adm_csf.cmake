# ADM's contrast sensitivity functions (docs/adm_csf.md).  adm_csf_mode 1
# and 3 have whole goldens in tests/data/golden (the e2e glob); mode 2 is
# the vmaf_v1.0.16 models' ADM, whose other features vqcuda does not all
# compute: its ADM columns (tests/data/golden_columns/*.adm.json, made by
# tests/reduce_golden.py from the models' goldens) are checked through the
# library with the model's adm options as a feature, CPU and GPU.
if(VQ_FFMPEG)
  set(VQ_V1_ADM "name=adm:adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_noise_weight=0.02:adm_min_val=0.5")
  set(VQ_V1_ADM_3d0h "")
  set(VQ_V1_ADM_5d0h ":adm_norm_view_dist=5")
  set(VQ_V1_ADM_1d5h_2160 ":adm_norm_view_dist=1.5:adm_ref_display_height=2160")
  set(VQ_V1_ADM_3d0h_2160 ":adm_ref_display_height=2160")
  foreach(c "balle576;balle576_ref;balle576_crf36;720x576;yuv420p"
            "birds422p10;birds422p10_ref;birds422p10_dist;640x360;yuv422p10"
            "birds720;birds720_ref;birds720_crf30;1280x720;yuv420p"
            "checker1080;checker1080_ref;checker1080_dist;1920x1080;yuv420p"
            "dog1080;dog1080_ref;dog1080_crf34;1920x1080;yuv420p"
            "dog1080_self;dog1080_ref;dog1080_ref;1920x1080;yuv420p"
            "dog1080p10;dog1080p10_ref;dog1080p10_crf30;1920x1080;yuv420p10"
            "dog1080p12;dog1080p12_ref;dog1080p12_crf30;1920x1080;yuv420p12"
            "dog2160;dog2160_ref;dog2160_crf32;3840x2160;yuv420p"
            "odd577x323;odd577x323_ref;odd577x323_dist;577x323;yuv444p")
    list(GET c 0 pair)
    list(GET c 1 ref)
    list(GET c 2 dis)
    list(GET c 3 size)
    list(GET c 4 fmt)
    foreach(kind 3d0h 5d0h 1d5h_2160 3d0h_2160)
      set(g ${VQ_DATA}/golden_columns/${pair}.v1_${kind}.adm.json)
      if(NOT EXISTS ${g})
        continue()
      endif()
      foreach(exec cpu cuda)
        if(exec STREQUAL cuda AND NOT VQ_ENABLE_CUDA)
          continue()
        endif()
        set(t lib_adm_csf2_${pair}_${kind}_${exec})
        add_test(NAME ${t} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh $<TARGET_FILE:vqscore>
                 ${VQ_RAW_DIR}/${ref}.yuv ${VQ_RAW_DIR}/${dis}.yuv ${size} ${fmt} "" ${exec}
                 ${g} ${CMAKE_BINARY_DIR}/out/adm_csf -F "${VQ_V1_ADM}${VQ_V1_ADM_${kind}}")
        set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw SKIP_RETURN_CODE 77)
      endforeach()
    endforeach()
  endforeach()
endif()
