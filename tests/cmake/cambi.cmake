# CAMBI: the GPU parity program (CUDA executor == CPU executor, word for
# word and c-value for c-value; with the raw clips also dog2160's frames).
# The unit test tests/test_cambi.cpp is picked up by the test_*.cpp glob.
if(VQ_ENABLE_CUDA AND EXISTS ${CMAKE_SOURCE_DIR}/tests/parity/cambi.cu)
  add_executable(vqparity_cambi tests/parity/cambi.cu)
  target_link_libraries(vqparity_cambi PRIVATE vqcuda_obj)
  target_include_directories(vqparity_cambi PRIVATE ${CMAKE_SOURCE_DIR}/tests)   # parity_common.cuh
  target_compile_options(vqparity_cambi PRIVATE --fmad=false)
  add_test(NAME gpu_parity_cambi COMMAND vqparity_cambi)
  set_tests_properties(gpu_parity_cambi PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT "${VQ_TEST_ENV}")
  if(VQ_FFMPEG)
    set_tests_properties(gpu_parity_cambi PROPERTIES FIXTURES_REQUIRED raw)
  endif()
endif()
