# CPU executor: SIMD loops == plain loops (checkasm-style), and a per-feature timer.
add_executable(vqcpubench ${CMAKE_SOURCE_DIR}/tests/cpubench.cpp)
target_link_libraries(vqcpubench PRIVATE vqcuda_obj)
if(VQ_ENABLE_CUDA)
  set_target_properties(vqcpubench PROPERTIES LINKER_LANGUAGE CUDA)
endif()
