# The upscaler: test_scale compares with the ffmpeg under test (VQ_FFMPEG, in
# every unit test's environment); vqparity_scale holds the CUDA executor to
# the CPU one.  The ladder goldens' e2e tests skip (with the reason) until the
# filter scores renditions.
if(VQ_ENABLE_CUDA AND EXISTS ${CMAKE_SOURCE_DIR}/tests/parity/scale.cu)
  add_executable(vqparity_scale tests/parity/scale.cu)
  target_link_libraries(vqparity_scale PRIVATE vqcuda_obj)
  target_include_directories(vqparity_scale PRIVATE ${CMAKE_SOURCE_DIR}/tests)   # parity_common.cuh
  target_compile_options(vqparity_scale PRIVATE --fmad=false)
  add_test(NAME gpu_parity_scale COMMAND vqparity_scale)
  set_tests_properties(gpu_parity_scale PROPERTIES SKIP_RETURN_CODE 77)
endif()
