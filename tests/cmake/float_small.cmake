# float_psnr, float_moment, float_ansnr and speed_temporal (docs/float-small.md).
# Their goldens are libvmaf's vmaf_float_v0.6.1 logs with those features
# (../shared/golden/<pair>.float.json), whose float model vqcuda's float
# features may not all compute: their columns (tests/data/golden_columns/
# <pair>.float.fsmall.json, made by tests/reduce_golden.py; small36x34 keeps
# the reference's refusal) are checked through the library with the four
# features alone (no model), == every frame and pooled value, CPU executor.
if(VQ_FFMPEG)
  set(VQ_FSMALL_FEATURES "name=float_psnr|name=float_ansnr|name=float_moment|name=speed_temporal")
  foreach(c "balle576;balle576_ref;balle576_crf36;720x576;yuv420p"
            "birds422p10;birds422p10_ref;birds422p10_dist;640x360;yuv422p10"
            "birds720;birds720_ref;birds720_crf30;1280x720;yuv420p"
            "checker1080;checker1080_ref;checker1080_dist;1920x1080;yuv420p"
            "dog1080;dog1080_ref;dog1080_crf34;1920x1080;yuv420p"
            "dog1080_self;dog1080_ref;dog1080_ref;1920x1080;yuv420p"
            "dog1080p10;dog1080p10_ref;dog1080p10_crf30;1920x1080;yuv420p10"
            "dog1080p12;dog1080p12_ref;dog1080p12_crf30;1920x1080;yuv420p12"
            "dog2160;dog2160_ref;dog2160_crf32;3840x2160;yuv420p"
            "odd577x323;odd577x323_ref;odd577x323_dist;577x323;yuv444p"
            "small36x34;small36x34_ref;small36x34_dist;36x34;yuv420p")
    list(GET c 0 pair)
    list(GET c 1 ref)
    list(GET c 2 dis)
    list(GET c 3 size)
    list(GET c 4 fmt)
    set(g ${VQ_DATA}/golden_columns/${pair}.float.fsmall.json)
    set(t lib_fsmall_${pair}_cpu)
    add_test(NAME ${t} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh $<TARGET_FILE:vqscore>
             ${VQ_RAW_DIR}/${ref}.yuv ${VQ_RAW_DIR}/${dis}.yuv ${size} ${fmt} "" cpu
             ${g} ${CMAKE_BINARY_DIR}/out/fsmall -m none -F "${VQ_FSMALL_FEATURES}")
    set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw SKIP_RETURN_CODE 77)
  endforeach()
  # the CPU executor's row bands at 3 threads (the exact row sums, the ordered
  # finish on one thread, the tasks beside them): two pairs
  foreach(c "birds422p10;birds422p10_ref;birds422p10_dist;640x360;yuv422p10"
            "odd577x323;odd577x323_ref;odd577x323_dist;577x323;yuv444p")
    list(GET c 0 pair)
    list(GET c 1 ref)
    list(GET c 2 dis)
    list(GET c 3 size)
    list(GET c 4 fmt)
    set(t lib_fsmall_${pair}_cpu3)
    add_test(NAME ${t} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh $<TARGET_FILE:vqscore>
             ${VQ_RAW_DIR}/${ref}.yuv ${VQ_RAW_DIR}/${dis}.yuv ${size} ${fmt} "" cpu
             ${VQ_DATA}/golden_columns/${pair}.float.fsmall.json ${CMAKE_BINARY_DIR}/out/fsmall3
             -m none -t 3 -F "${VQ_FSMALL_FEATURES}")
    set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw SKIP_RETURN_CODE 77)
  endforeach()
endif()
