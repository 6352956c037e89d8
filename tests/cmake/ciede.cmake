# ciede: the exhaustive check of the device stage's premises against this
# machine's glibc (not a ctest: minutes of CPU; run `ciede_exhaust` by hand,
# see docs/ciede.md). The GPU parity family is tests/parity/ciede.cu
# (vqparity --test ciede, ctest gpu_parity_ciede: tests/tests.cmake).

if(EXISTS ${CMAKE_SOURCE_DIR}/tests/ciede_exhaust.cpp)
  add_executable(ciede_exhaust ${CMAKE_SOURCE_DIR}/tests/ciede_exhaust.cpp)
  target_include_directories(ciede_exhaust PRIVATE ${CMAKE_SOURCE_DIR}/kernels ${CMAKE_SOURCE_DIR}/hostmath
                             ${CMAKE_SOURCE_DIR}/include)
  target_link_libraries(ciede_exhaust PRIVATE Threads::Threads m)
endif()
