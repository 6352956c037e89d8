# float_adm (docs/float-adm.md).
#
# The RCPSS table generator and checker, static so that they run on another
# machine (the lead's Intel host) as built here:
#   rcp_table_gen    scripts/rcp_table_gen.c: a CPU's _mm_rcp_ss as a table
#                    (hostmath/float_adm/rcp_table_<vendor>.h), or --check FILE
#   rcp_table_check  the library's table of this CPU's vendor against its RCPSS
# (not static in a sanitizer build: -static and -fsanitize do not link together)
set(vq_rcp_static -static)
if("${CMAKE_C_FLAGS} ${CMAKE_CXX_FLAGS} ${CMAKE_EXE_LINKER_FLAGS}" MATCHES "-fsanitize")
  set(vq_rcp_static)
endif()
add_executable(rcp_table_gen ${CMAKE_SOURCE_DIR}/scripts/rcp_table_gen.c)
target_compile_options(rcp_table_gen PRIVATE -O2)
target_link_options(rcp_table_gen PRIVATE ${vq_rcp_static})
add_executable(rcp_table_check ${CMAKE_SOURCE_DIR}/tests/rcp_table_check.cpp
               ${CMAKE_SOURCE_DIR}/hostmath/float_adm/rcp_select.cpp)
target_include_directories(rcp_table_check PRIVATE ${CMAKE_SOURCE_DIR}/kernels ${CMAKE_SOURCE_DIR}/hostmath)
target_compile_options(rcp_table_check PRIVATE -O2)
target_link_options(rcp_table_check PRIVATE ${vq_rcp_static})
add_test(NAME rcp_table_this_cpu COMMAND rcp_table_check)
set_tests_properties(rcp_table_this_cpu PROPERTIES SKIP_RETURN_CODE 77)
# a new table (the Intel one replacing its placeholder) reconfigures
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/hostmath/float_adm/rcp_table_intel.h)

# libvmaf's float_adm outputs through the library (vqscore, float_adm alone):
# the float_adm columns of the float-model goldens, AMD's and Intel's
# (tests/data/golden_columns/*.fadm.json: tests/reduce_golden.py of
# ../shared/golden/<pair>.float*.json), and float_adm's own goldens with
# options, sizes and rcp=div (tests/data/golden/*.fadm_*.json).  Intel's skip,
# saying why, while the Intel table is a placeholder.
if(VQ_FFMPEG)
  file(GLOB VQ_FADM_GOLDENS CONFIGURE_DEPENDS ${VQ_DATA}/golden_columns/*.fadm.json
       ${VQ_DATA}/golden/*.fadm_*.json)
  foreach(g ${VQ_FADM_GOLDENS})
    get_filename_component(gname ${g} NAME)
    string(REGEX REPLACE "(\\.fadm)?\\.json$" "" gname ${gname})
    foreach(exec cpu cuda)
      if(exec STREQUAL cuda AND NOT VQ_ENABLE_CUDA)
        continue()
      endif()
      # on the CPU executor the 720p-2160p pairs' float-model columns are
      # already compared, with every other column, by e2e_<pair>.float*_cpu
      # (the same executor and golden): only the smaller pairs run here
      if(exec STREQUAL cpu AND g MATCHES "golden_columns/(dog|balle576|birds720)")
        continue()
      endif()
      set(t lib_fadm_${gname}_${exec})
      add_test(NAME ${t} COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/lib_fadm.py
               $<TARGET_FILE:vqscore> ${VQ_RAW_DIR} ${g} ${CMAKE_BINARY_DIR}/out/fadm ${exec})
      set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw SKIP_RETURN_CODE 77)
    endforeach()
  endforeach()
endif()

# glibc's powf as the device computes it (kernels/float_adm/glibc_powf.h) against the
# host's on every non-negative float; by hand with more exponents:
#   glibc_powf_gpu 1 1.5 2.5 7.3 20
if(VQ_ENABLE_CUDA)
  add_executable(glibc_powf_gpu ${CMAKE_SOURCE_DIR}/tests/glibc_powf_gpu.cu)
  target_include_directories(glibc_powf_gpu PRIVATE ${CMAKE_SOURCE_DIR}/kernels ${CMAKE_SOURCE_DIR}/tests)
  target_compile_options(glibc_powf_gpu PRIVATE --fmad=false)
  add_test(NAME gpu_glibc_powf COMMAND glibc_powf_gpu 2.5)
  set_tests_properties(gpu_glibc_powf PROPERTIES SKIP_RETURN_CODE 77)
endif()
