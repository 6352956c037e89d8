# cambi's heatmaps_path (docs/cambi.md "Heatmaps"): vqcuda's files == the
# ones libvmaf v3.2.0 wrote (tests/data/golden_parts/cambi_heatmaps), byte for
# byte, on the CPU executor (one thread and row bands on 3) and (a CUDA build)
# the CUDA executor (exit 77 without a GPU).  The refusals and the failed run:
# tests/test_cambi_heatmaps.cpp.
foreach(exec cpu cpu3 cuda)
  if(exec STREQUAL cuda AND NOT VQ_ENABLE_CUDA)
    continue()
  endif()
  set(t lib_cambi_heatmaps_${exec})
  add_test(NAME ${t} COMMAND ${CMAKE_SOURCE_DIR}/tests/cambi_heatmaps.sh $<TARGET_FILE:vqscore>
           "${VQ_FFMPEG}" ${VQ_DATA}/clips ${VQ_DATA}/golden_parts/cambi_heatmaps
           ${CMAKE_BINARY_DIR}/out/cambi_heatmaps_${exec} ${exec})
  set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600)
endforeach()
