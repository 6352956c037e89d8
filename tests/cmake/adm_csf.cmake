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
  # (the clips of each pair: tests/data/clips.tsv, through tests/tests.cmake)
  foreach(pair balle576 birds422p10 birds720 checker1080 dog1080 dog1080_self dog1080p10 dog1080p12
               dog2160 odd577x323)
    set(ref ${VQ_CLIP_${pair}_REF})
    set(dis ${VQ_CLIP_${pair}_DIS})
    set(size ${VQ_CLIP_${pair}_SIZE})
    set(fmt ${VQ_CLIP_${pair}_FMT})
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
