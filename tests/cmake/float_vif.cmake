# float_vif and float_motion (docs/float-vif.md, docs/float-motion.md):
# their columns of libvmaf's float model logs (tests/data/golden_columns/
# *.vifmotion.json, made by tests/reduce_golden.py from ../shared/golden's
# <pair>.float*.json) and the options no model uses (tests/data/golden_parts/
# float_options/, libvmaf's library driven on the raw frames), through the
# library (vqscore), == every frame and pooled value; one test per pair, on
# the CPU executor and (a CUDA build) the CUDA executor. The parity family
# (the kernels == the CPU loops, word for word) is tests/parity/float_vif.cu
# (vqparity --test float_vif, ctest gpu_parity_float_vif: tests/tests.cmake).
set(VQ_FLOAT_PAIRS balle576 birds720 dog1080 dog1080_self dog1080p10 dog1080p12 dog2160 odd577x323
    birds422p10 birds422p16 checker1080 small36x34)
foreach(pair ${VQ_FLOAT_PAIRS})
  file(GLOB g1 ${VQ_DATA}/golden_columns/${pair}.*.vifmotion.json)
  file(GLOB g2 ${VQ_DATA}/golden_parts/float_options/${pair}.*.json)
  set(goldens ${g1} ${g2})
  if(NOT goldens)
    continue()
  endif()
  foreach(exec cpu cuda)
    if(exec STREQUAL cuda AND NOT VQ_ENABLE_CUDA)
      continue()
    endif()
    set(t lib_float_${pair}_${exec})
    add_test(NAME ${t} COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/lib_float_goldens.py
             $<TARGET_FILE:vqscore> ${VQ_RAW_DIR} ${CMAKE_BINARY_DIR}/out/float ${exec} ${goldens})
    set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1800)
    if(VQ_FFMPEG)
      set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw)
    endif()
  endforeach()
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

# semiplanar host layouts (nv12, p010, p016): the luma and the interleaved chroma of motion_add_uv
# (the pairs with such a layout in tests/data/clips.tsv)
foreach(pair ${VQ_CLIP_NAMES})
  set(as ${VQ_CLIP_${pair}_DEVICE})
  if(NOT as)
    continue()
  endif()
  file(GLOB goldens ${VQ_DATA}/golden_parts/float_options/${pair}.*.json)
  list(APPEND goldens ${VQ_DATA}/golden_columns/${pair}.float.vifmotion.json)
  set(t lib_float_${pair}_cpu_${as})
  add_test(NAME ${t} COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/lib_float_goldens.py
           $<TARGET_FILE:vqscore> ${VQ_RAW_DIR} ${CMAKE_BINARY_DIR}/out/float_${as} cpu ${goldens})
  set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1800 ENVIRONMENT VQ_LIB_AS=${as})
  if(VQ_FFMPEG)
    set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw)
  endif()
endforeach()
