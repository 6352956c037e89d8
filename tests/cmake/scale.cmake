# The upscaler: test_scale compares with the ffmpeg under test (VQ_FFMPEG);
# vqparity_scale holds the CUDA executor to the CPU one.
if(TARGET test_scale)
  set_tests_properties(test_scale PROPERTIES ENVIRONMENT "${VQ_TEST_ENV};VQ_FFMPEG=${VQ_FFMPEG}")
endif()
if(VQ_ENABLE_CUDA AND EXISTS ${CMAKE_SOURCE_DIR}/tests/parity_scale.cu)
  add_executable(vqparity_scale tests/parity_scale.cu)
  target_link_libraries(vqparity_scale PRIVATE vqcuda_obj)
  target_compile_options(vqparity_scale PRIVATE --fmad=false)
  add_test(NAME gpu_parity_scale COMMAND vqparity_scale)
  set_tests_properties(gpu_parity_scale PROPERTIES SKIP_RETURN_CODE 77)
endif()

# The ladder goldens (tests/data/golden/dog1080_l*.json) score a rendition
# against the 1920x1080 reference after upscaling: the generic e2e tests of
# tests.cmake cannot run them until the filter scales (and they read
# "<pair>.x86" as a model name).  Disabled here until the lead wires the
# upscaler into the filter; test_scale holds the upscaler itself to ffmpeg.
if(VQ_FFMPEG)
  foreach(rung 720 540 360)
    foreach(kind "" ".x86")
      foreach(mode cpu cuda)
        if(TEST e2e_dog1080_l${rung}${kind}_${mode})
          set_tests_properties(e2e_dog1080_l${rung}${kind}_${mode} PROPERTIES DISABLED TRUE)
        endif()
      endforeach()
    endforeach()
  endforeach()
endif()
