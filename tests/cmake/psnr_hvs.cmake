# psnr_hvs: the GPU parity program (CUDA executor == CPU executor, terms and
# sums).  The unit test tests/test_psnr_hvs.cpp comes with the test_*.cpp glob.
if(VQ_ENABLE_CUDA)
  add_executable(parity_psnr_hvs ${CMAKE_SOURCE_DIR}/tests/parity/psnr_hvs.cu)
  target_link_libraries(parity_psnr_hvs PRIVATE vqcuda_obj)
  target_include_directories(parity_psnr_hvs PRIVATE ${CMAKE_SOURCE_DIR}/tests)   # parity_common.cuh
  target_compile_options(parity_psnr_hvs PRIVATE --fmad=false)
  add_test(NAME gpu_parity_psnr_hvs COMMAND parity_psnr_hvs)
  set_tests_properties(gpu_parity_psnr_hvs PROPERTIES SKIP_RETURN_CODE 77)
endif()
