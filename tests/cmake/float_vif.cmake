# float_vif and float_motion (docs/float-vif.md, docs/float-motion.md):
# their columns of libvmaf's float model logs (tests/data/golden_columns/
# *.vifmotion.json, made by tests/reduce_golden.py from ../shared/golden's
# <pair>.float*.json) and the options no model uses (tests/data/golden_parts/
# float_options/, libvmaf's library driven on the raw frames), through the
# library (vqscore), == every frame and pooled value; one test per pair.
# The CUDA executor refuses them for now (tests/golden_args.py GPU_LACKS).
set(VQ_FLOAT_PAIRS balle576 birds720 dog1080 dog1080_self dog1080p10 dog1080p12 dog2160 odd577x323
    birds422p10 birds422p16 checker1080 small36x34)
foreach(pair ${VQ_FLOAT_PAIRS})
  file(GLOB g1 ${VQ_DATA}/golden_columns/${pair}.*.vifmotion.json)
  file(GLOB g2 ${VQ_DATA}/golden_parts/float_options/${pair}.*.json)
  set(goldens ${g1} ${g2})
  if(NOT goldens)
    continue()
  endif()
  set(t lib_float_${pair}_cpu)
  add_test(NAME ${t} COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/lib_float_goldens.py
           $<TARGET_FILE:vqscore> ${VQ_RAW_DIR} ${CMAKE_BINARY_DIR}/out/float cpu ${goldens})
  set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1800)
  if(VQ_FFMPEG)
    set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw)
  endif()
endforeach()
# the row bands on 3 threads (the options' goldens of the smaller pairs)
foreach(pair odd577x323 birds422p10 small36x34 balle576)
  file(GLOB goldens ${VQ_DATA}/golden_parts/float_options/${pair}.*.json)
  set(t lib_float_${pair}_cpu3)
  add_test(NAME ${t} COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/lib_float_goldens.py
           $<TARGET_FILE:vqscore> ${VQ_RAW_DIR} ${CMAKE_BINARY_DIR}/out/float3 cpu3 ${goldens})
  set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1800)
  if(VQ_FFMPEG)
    set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw)
  endif()
endforeach()
