# ciede: the GPU parity program (CUDA kernel == the device stage on the CPU,
# folds == the reference) and the exhaustive check of the device stage's
# premises against this machine's glibc (not a ctest: minutes of CPU; run
# `ciede_exhaust` by hand, see docs/ciede.md).
if(VQ_ENABLE_CUDA)
  add_executable(vqparity_ciede ${CMAKE_SOURCE_DIR}/tests/parity/ciede.cu)
  target_link_libraries(vqparity_ciede PRIVATE vqcuda_obj)
  target_include_directories(vqparity_ciede PRIVATE ${CMAKE_SOURCE_DIR}/tests)   # parity_common.cuh
  target_compile_options(vqparity_ciede PRIVATE --fmad=false)
  add_test(NAME gpu_parity_ciede COMMAND vqparity_ciede)
  set_tests_properties(gpu_parity_ciede PROPERTIES SKIP_RETURN_CODE 77)
endif()

if(EXISTS ${CMAKE_SOURCE_DIR}/tests/ciede_exhaust.cpp)
  add_executable(ciede_exhaust ${CMAKE_SOURCE_DIR}/tests/ciede_exhaust.cpp)
  target_include_directories(ciede_exhaust PRIVATE ${CMAKE_SOURCE_DIR}/kernels ${CMAKE_SOURCE_DIR}/hostmath
                             ${CMAKE_SOURCE_DIR}/include)
  target_link_libraries(ciede_exhaust PRIVATE Threads::Threads m)
endif()
