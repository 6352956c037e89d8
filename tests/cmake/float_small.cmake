# float_psnr, float_moment, float_ansnr and speed_temporal (docs/float-small.md).
#
# Their goldens are libvmaf's vmaf_float_v0.6.1 logs with those features
# (../shared/golden/<pair>.float.json), whose float model needs float
# features computed elsewhere: their columns (tests/data/golden_columns/
# <pair>.float.fsmall.json, made by tests/reduce_golden.py; small36x34 keeps
# the reference's refusal) are checked through the library with the four
# features alone (no model), == every frame and pooled value, on the CPU
# executor and (CUDA builds, a GPU) the CUDA executor; three pairs also in
# the semiplanar host layouts (nv12, p010, p016).
if(VQ_FFMPEG)
  set(VQ_FSMALL_FEATURES "name=float_psnr|name=float_ansnr|name=float_moment|name=speed_temporal")
  set(VQ_FSMALL_EXECS cpu)
  if(VQ_ENABLE_CUDA)
    list(APPEND VQ_FSMALL_EXECS cuda)
  endif()
  foreach(c "balle576;balle576_ref;balle576_crf36;720x576;yuv420p;"
            "birds422p10;birds422p10_ref;birds422p10_dist;640x360;yuv422p10;"
            "birds720;birds720_ref;birds720_crf30;1280x720;yuv420p;"
            "checker1080;checker1080_ref;checker1080_dist;1920x1080;yuv420p;"
            "dog1080;dog1080_ref;dog1080_crf34;1920x1080;yuv420p;"
            "dog1080;dog1080_ref;dog1080_crf34;1920x1080;yuv420p;nv12"
            "dog1080_self;dog1080_ref;dog1080_ref;1920x1080;yuv420p;"
            "dog1080p10;dog1080p10_ref;dog1080p10_crf30;1920x1080;yuv420p10;"
            "dog1080p10;dog1080p10_ref;dog1080p10_crf30;1920x1080;yuv420p10;p010"
            "dog1080p12;dog1080p12_ref;dog1080p12_crf30;1920x1080;yuv420p12;"
            "dog1080p12;dog1080p12_ref;dog1080p12_crf30;1920x1080;yuv420p12;p016"
            "dog2160;dog2160_ref;dog2160_crf32;3840x2160;yuv420p;"
            "odd577x323;odd577x323_ref;odd577x323_dist;577x323;yuv444p;"
            "small36x34;small36x34_ref;small36x34_dist;36x34;yuv420p;")
    list(GET c 0 pair)
    list(GET c 1 ref)
    list(GET c 2 dis)
    list(GET c 3 size)
    list(GET c 4 fmt)
    list(GET c 5 as)
    set(tag "")
    if(as)
      set(tag _${as})
    endif()
    foreach(exec ${VQ_FSMALL_EXECS})
      set(t lib_fsmall_${pair}${tag}_${exec})
      add_test(NAME ${t} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh $<TARGET_FILE:vqscore>
               ${VQ_RAW_DIR}/${ref}.yuv ${VQ_RAW_DIR}/${dis}.yuv ${size} ${fmt} "${as}" ${exec}
               ${VQ_DATA}/golden_columns/${pair}.float.fsmall.json ${CMAKE_BINARY_DIR}/out/fsmall_${exec}
               -m none -F "${VQ_FSMALL_FEATURES}")
      set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw SKIP_RETURN_CODE 77)
    endforeach()
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

  # The options and modes the float goldens do not use, against libvmaf's
  # own values (tests/data/golden_parts/fsmall_*.json, produced through
  # libvmaf v3.2.0's API, C path; docs/float-small.md): speed_temporal's
  # speed_use_ref_diff, kernelscale, sigma_nn, nn_floor, max_val (renames
  # only), the four prescale methods, two or four instances at once; all four
  # features with n_subsample=3 (speed_temporal still sees every frame).
  set(P ${VQ_DATA}/golden_parts)
  set(VQ_FSMALL_OPTS1 "name=speed_temporal:speed_use_ref_diff=true|name=speed_temporal:speed_kernelscale=2:speed_sigma_nn=0.5:speed_nn_floor=0.1:speed_max_val=10")
  set(VQ_FSMALL_OPTS2 "name=speed_temporal:speed_prescale=0.5|name=speed_temporal:speed_prescale=0.5:speed_prescale_method=bilinear|name=speed_temporal:speed_prescale=0.5:speed_prescale_method=bicubic:speed_kernelscale=1.5|name=speed_temporal:speed_prescale=0.75:speed_prescale_method=lanczos4")
  foreach(exec ${VQ_FSMALL_EXECS})
    add_test(NAME lib_fsmall_speedt_opts1_${exec} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh
             $<TARGET_FILE:vqscore> ${VQ_RAW_DIR}/birds720_ref.yuv ${VQ_RAW_DIR}/birds720_crf30.yuv 1280x720 yuv420p
             "" ${exec} ${P}/fsmall_birds720_speedt_opts1.json ${CMAKE_BINARY_DIR}/out/fsmall_${exec} -m none -n 10
             -F "${VQ_FSMALL_OPTS1}")
    add_test(NAME lib_fsmall_speedt_opts2_${exec} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh
             $<TARGET_FILE:vqscore> ${VQ_RAW_DIR}/birds720_ref.yuv ${VQ_RAW_DIR}/birds720_crf30.yuv 1280x720 yuv420p
             "" ${exec} ${P}/fsmall_birds720_speedt_opts2.json ${CMAKE_BINARY_DIR}/out/fsmall_${exec} -m none -n 10
             -F "${VQ_FSMALL_OPTS2}")
    add_test(NAME lib_fsmall_subsample3_${exec} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh
             $<TARGET_FILE:vqscore> ${VQ_RAW_DIR}/dog1080p10_ref.yuv ${VQ_RAW_DIR}/dog1080p10_crf30.yuv 1920x1080
             yuv420p10 "" ${exec} ${P}/fsmall_dog1080p10_subsample3.json ${CMAKE_BINARY_DIR}/out/fsmall_${exec}
             -m none -n 12 -u 3 -F "${VQ_FSMALL_FEATURES}")
    set_tests_properties(lib_fsmall_speedt_opts1_${exec} lib_fsmall_speedt_opts2_${exec}
                         lib_fsmall_subsample3_${exec} PROPERTIES FIXTURES_REQUIRED raw SKIP_RETURN_CODE 77)
  endforeach()
endif()

# The GPU parity program: CUDA kernels == CPU loops, word for word, on random
# frames (the raster-order finish at 16 bits; speed_temporal's steps 1-3).
if(VQ_ENABLE_CUDA)
  add_executable(parity_float_small ${CMAKE_SOURCE_DIR}/tests/parity_float_small.cu)
  target_link_libraries(parity_float_small PRIVATE vqcuda_obj)
  target_include_directories(parity_float_small PRIVATE ${CMAKE_SOURCE_DIR}/kernels
                             ${CMAKE_SOURCE_DIR}/hostmath ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/tests)
  target_compile_options(parity_float_small PRIVATE --fmad=false)
  add_test(NAME gpu_parity_float_small COMMAND parity_float_small)
  set_tests_properties(gpu_parity_float_small PROPERTIES SKIP_RETURN_CODE 77)
endif()
