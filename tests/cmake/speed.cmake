# speed_chroma: the GPU parity program (steps 1-3 on the CUDA executor == the
# CPU's, bit for bit, on random planes).  The unit test tests/test_speed.cpp
# comes from the tests/test_*.cpp glob.
if(VQ_ENABLE_CUDA)
  add_executable(parity_speed ${CMAKE_SOURCE_DIR}/tests/parity/speed.cu)
  target_link_libraries(parity_speed PRIVATE vqcuda_obj)
  target_include_directories(parity_speed PRIVATE ${CMAKE_SOURCE_DIR}/kernels
                             ${CMAKE_SOURCE_DIR}/hostmath ${CMAKE_SOURCE_DIR}/include)
  target_compile_options(parity_speed PRIVATE --fmad=false)
  add_test(NAME gpu_parity_speed COMMAND parity_speed)
  set_tests_properties(gpu_parity_speed PROPERTIES SKIP_RETURN_CODE 77)
endif()
