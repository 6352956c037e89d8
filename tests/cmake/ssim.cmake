# float_ssim / float_ms_ssim: the GPU parity program (CUDA executor == CPU
# executor, bit for bit, on random frames).  The unit test tests/test_ssim.cpp
# comes from the tests/test_*.cpp glob.
if(VQ_ENABLE_CUDA)
  add_executable(parity_ssim ${CMAKE_SOURCE_DIR}/tests/parity/ssim.cu)
  target_link_libraries(parity_ssim PRIVATE vqcuda_obj)
  target_include_directories(parity_ssim PRIVATE ${CMAKE_SOURCE_DIR}/tests)   # parity_common.cuh
  target_compile_options(parity_ssim PRIVATE --fmad=false)
  add_test(NAME gpu_parity_ssim COMMAND parity_ssim)
  set_tests_properties(gpu_parity_ssim PROPERTIES SKIP_RETURN_CODE 77)
endif()
