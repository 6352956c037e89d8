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
  # each pair planar, and then in its semiplanar layout where the table
  # (tests/data/clips.tsv, through tests/tests.cmake) gives one
  set(VQ_FSMALL_RUNS)
  foreach(pair balle576 birds422p10 birds720 checker1080 dog1080 dog1080_self dog1080p10 dog1080p12
               dog2160 odd577x323 small36x34)
    list(APPEND VQ_FSMALL_RUNS ${pair}/)
    if(VQ_CLIP_${pair}_DEVICE)
      list(APPEND VQ_FSMALL_RUNS ${pair}/${VQ_CLIP_${pair}_DEVICE})
    endif()
  endforeach()
  foreach(run ${VQ_FSMALL_RUNS})
    string(REGEX REPLACE "/.*" "" pair ${run})
    string(REGEX REPLACE ".*/" "" as ${run})
    set(ref ${VQ_CLIP_${pair}_REF})
    set(dis ${VQ_CLIP_${pair}_DIS})
    set(size ${VQ_CLIP_${pair}_SIZE})
    set(fmt ${VQ_CLIP_${pair}_FMT})
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
  foreach(pair birds422p10 odd577x323)
    set(ref ${VQ_CLIP_${pair}_REF})
    set(dis ${VQ_CLIP_${pair}_DIS})
    set(size ${VQ_CLIP_${pair}_SIZE})
    set(fmt ${VQ_CLIP_${pair}_FMT})
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
  # lib_golden.sh's reference, distorted, size and format of the two pairs
  foreach(v "b720;birds720" "d10;dog1080p10")
    list(GET v 0 var)
    list(GET v 1 pair)
    set(${var} ${VQ_RAW_DIR}/${VQ_CLIP_${pair}_REF}.yuv ${VQ_RAW_DIR}/${VQ_CLIP_${pair}_DIS}.yuv
        ${VQ_CLIP_${pair}_SIZE} ${VQ_CLIP_${pair}_FMT})
  endforeach()
  set(VQ_FSMALL_OPTS1 "name=speed_temporal:speed_use_ref_diff=true|name=speed_temporal:speed_kernelscale=2:speed_sigma_nn=0.5:speed_nn_floor=0.1:speed_max_val=10")
  set(VQ_FSMALL_OPTS2 "name=speed_temporal:speed_prescale=0.5|name=speed_temporal:speed_prescale=0.5:speed_prescale_method=bilinear|name=speed_temporal:speed_prescale=0.5:speed_prescale_method=bicubic:speed_kernelscale=1.5|name=speed_temporal:speed_prescale=0.75:speed_prescale_method=lanczos4")
  foreach(exec ${VQ_FSMALL_EXECS})
    add_test(NAME lib_fsmall_speedt_opts1_${exec} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh
             $<TARGET_FILE:vqscore> ${b720} "" ${exec} ${P}/fsmall_birds720_speedt_opts1.json ${CMAKE_BINARY_DIR}/out/fsmall_${exec} -m none -n 10
             -F "${VQ_FSMALL_OPTS1}")
    add_test(NAME lib_fsmall_speedt_opts2_${exec} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh
             $<TARGET_FILE:vqscore> ${b720} "" ${exec} ${P}/fsmall_birds720_speedt_opts2.json ${CMAKE_BINARY_DIR}/out/fsmall_${exec} -m none -n 10
             -F "${VQ_FSMALL_OPTS2}")
    add_test(NAME lib_fsmall_subsample3_${exec} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh
             $<TARGET_FILE:vqscore> ${d10} "" ${exec} ${P}/fsmall_dog1080p10_subsample3.json ${CMAKE_BINARY_DIR}/out/fsmall_${exec}
             -m none -n 12 -u 3 -F "${VQ_FSMALL_FEATURES}")
    set_tests_properties(lib_fsmall_speedt_opts1_${exec} lib_fsmall_speedt_opts2_${exec}
                         lib_fsmall_subsample3_${exec} PROPERTIES FIXTURES_REQUIRED raw SKIP_RETURN_CODE 77)
  endforeach()
endif()
