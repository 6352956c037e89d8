# Tests: GoogleTest unit tests (tests/test_*.cpp), the GPU parity tool, and
# end-to-end golden comparisons through ffmpeg (when VQ_FFMPEG is given).
find_package(GTest REQUIRED)
find_package(Python3 REQUIRED COMPONENTS Interpreter)

set(VQ_DATA ${CMAKE_SOURCE_DIR}/tests/data)
# the bundled clips decoded (decode_raw, once; the tests only read them): a
# build may share another's (scripts/test.sh's sanitizer build reads the main one's)
set(VQ_RAW_DIR ${CMAKE_BINARY_DIR}/raw CACHE PATH "where the bundled clips are decoded to raw YUV")
if(NOT VQ_MODELS_DIR)
  set(VQ_MODELS_DIR ${CMAKE_SOURCE_DIR}/../shared/models)
endif()
set(VQ_TEST_ENV VQ_RAW_DIR=${VQ_RAW_DIR} VQ_GOLDEN_DIR=${VQ_DATA}/golden
    VQ_MODELS_DIR=${VQ_MODELS_DIR} VQ_CLIPS_DIR=${VQ_DATA}/clips VQ_FFMPEG=${VQ_FFMPEG})

# The test pairs (tests/data/clips.tsv, the one list the C++ tests, the
# scripts and the Python drivers also read): for each pair P, VQ_CLIP_P_REF,
# _DIS (clip names, raw as <clip>.yuv), _SIZE (WxH), _FMT (pixel format),
# _BPC, _SSX, _SSY and _DEVICE (nv12/p010/p016, empty for none); the pair
# names in the table's order in VQ_CLIP_NAMES.  The lists below name their
# pairs and take the rest from here.
set(VQ_CLIPS_TSV ${VQ_DATA}/clips.tsv)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${VQ_CLIPS_TSV})
file(STRINGS ${VQ_CLIPS_TSV} vq_clip_lines REGEX "^[^#]")
list(REMOVE_AT vq_clip_lines 0)   # the column names
set(VQ_CLIP_NAMES)
foreach(line ${vq_clip_lines})
  string(REPLACE "\t" ";" row "${line}")
  list(LENGTH row n)
  if(NOT n EQUAL 9)
    message(FATAL_ERROR "${VQ_CLIPS_TSV}: bad row: ${line}")
  endif()
  list(GET row 0 pair)
  list(APPEND VQ_CLIP_NAMES ${pair})
  set(i 1)
  foreach(col REF DIS SIZE FMT BPC SSX SSY DEVICE)
    list(GET row ${i} VQ_CLIP_${pair}_${col})
    math(EXPR i "${i} + 1")
  endforeach()
  if(VQ_CLIP_${pair}_DEVICE STREQUAL "-")
    set(VQ_CLIP_${pair}_DEVICE "")
  endif()
endforeach()

if(VQ_FFMPEG)
  add_test(NAME decode_raw COMMAND ${CMAKE_SOURCE_DIR}/tests/decode_raw.sh ${VQ_FFMPEG}
           ${VQ_DATA}/clips ${VQ_RAW_DIR})
  set_tests_properties(decode_raw PROPERTIES FIXTURES_SETUP raw)
endif()

# One ctest test per GoogleTest case, so that a case that skips (GTEST_SKIP:
# a golden or raw frame not at hand) shows as skipped with its reason, not as
# a passed binary.
include(GoogleTest)
file(GLOB VQ_UNIT_TESTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/test_*.cpp)
foreach(src ${VQ_UNIT_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src} ${CMAKE_SOURCE_DIR}/tests/unit_env.cpp)
  target_compile_definitions(${name} PRIVATE VQ_TEST_RAW_DIR="${VQ_RAW_DIR}"
      VQ_TEST_GOLDEN_DIR="${VQ_DATA}/golden" VQ_TEST_MODELS_DIR="${VQ_MODELS_DIR}"
      VQ_TEST_CLIPS_DIR="${VQ_DATA}/clips" VQ_TEST_FFMPEG="${VQ_FFMPEG}"
      VQ_CLIPS_TSV="${VQ_CLIPS_TSV}")
  target_link_libraries(${name} PRIVATE vqcuda_obj GTest::gtest GTest::gtest_main)
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/include
                             ${CMAKE_SOURCE_DIR}/kernels ${CMAKE_SOURCE_DIR}/hostmath)
  if(VQ_ENABLE_CUDA)
    set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CUDA)
  endif()
  # (the data directories come from tests/unit_env.cpp: a list-valued
  # ENVIRONMENT does not survive gtest_discover_tests' PROPERTIES)
  set(props PROPERTIES LABELS unit)
  if(VQ_FFMPEG)
    list(APPEND props FIXTURES_REQUIRED raw)
  endif()
  gtest_discover_tests(${name} TEST_PREFIX "${name}." DISCOVERY_MODE PRE_TEST ${props})
endforeach()

# GPU parity (checkasm-style): every CUDA kernel == the CPU executor, word
# for word, on random frames. One program, vqparity (tests/parity/main.cu),
# with one file per family (tests/parity/<family>.cu, its entry in main.cu's
# table); one ctest test per family, `vqparity --test <family>`, named
# gpu_parity_<family> (vmaf's: gpu_parity). Exit 77 (skip) without a GPU.
set(VQ_PARITY_FAMILIES vmaf scale psnr_hvs ssim ciede cambi float_small float_vif float_adm speed)
if(VQ_ENABLE_CUDA AND EXISTS ${CMAKE_SOURCE_DIR}/tests/parity/main.cu)
  set(srcs ${CMAKE_SOURCE_DIR}/tests/parity/main.cu)
  foreach(f ${VQ_PARITY_FAMILIES})
    list(APPEND srcs ${CMAKE_SOURCE_DIR}/tests/parity/${f}.cu)
  endforeach()
  add_executable(vqparity ${srcs})
  target_link_libraries(vqparity PRIVATE vqcuda_obj)
  target_include_directories(vqparity PRIVATE ${CMAKE_SOURCE_DIR}/tests)   # parity_common.cuh
  target_compile_options(vqparity PRIVATE --fmad=false)
  foreach(f ${VQ_PARITY_FAMILIES})
    if(f STREQUAL "vmaf")
      set(t gpu_parity)
    else()
      set(t gpu_parity_${f})
    endif()
    add_test(NAME ${t} COMMAND vqparity --test ${f})
    set_tests_properties(${t} PROPERTIES SKIP_RETURN_CODE 77)
  endforeach()
  # cambi: with the raw clips (VQ_RAW_DIR) also dog2160's frames
  set_tests_properties(gpu_parity_cambi PROPERTIES ENVIRONMENT "${VQ_TEST_ENV}")
  if(VQ_FFMPEG)
    set_tests_properties(gpu_parity_cambi PROPERTIES FIXTURES_REQUIRED raw)
  endif()
  # a family's parity under a kernel variant the environment selects (the
  # same words as its default); raw: with the decoded clips' frames
  function(vq_parity_variant name family sizes env raw)
    add_test(NAME ${name} COMMAND vqparity --test ${family} --sizes ${sizes})
    set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 ENVIRONMENT "${env}")
    if(raw AND VQ_FFMPEG)
      set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED raw)
    endif()
  endfunction()
  # VIF as GPUs without room for scale 0's table in shared memory run it
  # (global table, integer wide sums: the L4, A10, T4)
  vq_parity_variant(gpu_parity_vif_global vmaf 2 "VQ_CUDA_VIF_TABLE=global;VQ_CUDA_VIF_WIDE=int" OFF)
  # ciede's kernel as it was (every pixel its own word, 32 x 4 blocks): the
  # same words as its default (docs/ciede.md section 12)
  vq_parity_variant(gpu_parity_ciede_nodedup ciede 2 "VQ_CUDA_CIEDE_DEDUP=0;VQ_CUDA_CIEDE_ROWS=4" OFF)
  # cambi's c-value blocks through every row (untrimmed), and the window
  # kernel's one-warp blocks (docs/cambi.md section 6)
  vq_parity_variant(gpu_parity_cambi_untrimmed cambi 3 "${VQ_TEST_ENV};VQ_CUDA_CAMBI_TRIM=0;VQ_CUDA_CAMBI_STRIP=32" ON)
  # the compact column kernel with 16 slots (most blocks left to the full
  # kernel after it, both launches busy in one frame) and without it
  vq_parity_variant(gpu_parity_cambi_slots16 cambi 3 "${VQ_TEST_ENV};VQ_CUDA_CAMBI_SLOTS=16" ON)
  vq_parity_variant(gpu_parity_cambi_noslots cambi 3 "${VQ_TEST_ENV};VQ_CUDA_CAMBI_SLOTS=0" ON)
endif()

# Library-level golden runs over raw frames in layouts software decoders never
# give (nv12/p010/p016 in host memory), on the CPU and (if present) the GPU.
if(VQ_FFMPEG)
  # the pairs with a semiplanar layout in the table, in it; two without, planar
  foreach(pair dog1080 dog1080p10 dog1080p12 odd577x323 birds422p10)
    set(ref ${VQ_CLIP_${pair}_REF})
    set(dis ${VQ_CLIP_${pair}_DIS})
    set(size ${VQ_CLIP_${pair}_SIZE})
    set(fmt ${VQ_CLIP_${pair}_FMT})
    set(as "${VQ_CLIP_${pair}_DEVICE}")
    set(aopt)
    set(tag planar)
    if(as)
      set(aopt -a ${as})
      set(tag ${as})
    endif()
    foreach(exec cpu cuda)
      if(exec STREQUAL cuda AND NOT VQ_ENABLE_CUDA)
        continue()
      endif()
      set(t lib_${pair}_${tag}_${exec})
      add_test(NAME ${t} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh $<TARGET_FILE:vqscore>
               ${VQ_RAW_DIR}/${ref}.yuv ${VQ_RAW_DIR}/${dis}.yuv ${size} ${fmt} "${as}" ${exec}
               ${VQ_DATA}/golden/${pair}.json ${CMAKE_BINARY_DIR}/out)
      set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw SKIP_RETURN_CODE 77)
    endforeach()
    # every row-loop table of the CPU executor (the default test above uses the machine's
    # best); a table this CPU lacks skips
    foreach(simd plain sse2 avx2 avx512)
      set(t lib_${pair}_${tag}_cpu_${simd})
      add_test(NAME ${t} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh $<TARGET_FILE:vqscore>
               ${VQ_RAW_DIR}/${ref}.yuv ${VQ_RAW_DIR}/${dis}.yuv ${size} ${fmt} "${as}" cpu
               ${VQ_DATA}/golden/${pair}.json ${CMAKE_BINARY_DIR}/out/${simd})
      set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw SKIP_RETURN_CODE 77
                           ENVIRONMENT VQ_CPU_SIMD=${simd})
    endforeach()
  endforeach()
endif()

# Golden logs of options (the reference's oracle_args: model and features from
# tests/golden_args.py --vqscore) through vqscore over raw frames, planar, each
# pair that has the file: float_ssim's and float_ms_ssim's enable_lcs
# (*.opt_lcs, every pair); vif_skip_scale0, adm_skip_scale0, adm_skip_aim with
# debug (*.opt_skip) and in vmaf_v0.6.1 (*.opt_skip_model); cambi's full_ref
# at the input size (*.opt_cambi_fr) and with src_width/src_height
# (*.opt_cambi_src).  Pairs the reference refused (refused_by_reference) must
# be refused, naming the extractor.
if(VQ_FFMPEG)
  foreach(pair balle576 birds422p10 birds720 checker1080 dog1080 dog1080_self dog1080p10 dog1080p12
               dog2160 odd577x323 small36x34)
    set(size ${VQ_CLIP_${pair}_SIZE})
    set(fmt ${VQ_CLIP_${pair}_FMT})
    foreach(tag opt_lcs opt_skip opt_skip_model opt_cambi_fr opt_cambi_src)
      set(g ${VQ_DATA}/golden/${pair}.${tag}.json)
      if(NOT EXISTS ${g})
        continue()
      endif()
      file(READ ${g} gtext)
      string(JSON gref GET ${gtext} reference)
      string(JSON gdis GET ${gtext} distorted)
      string(REGEX REPLACE "\\.[a-z0-9]+$" "" gref ${gref})
      string(REGEX REPLACE "\\.[a-z0-9]+$" "" gdis ${gdis})
      foreach(exec cpu cuda)
        if(exec STREQUAL cuda AND NOT VQ_ENABLE_CUDA)
          continue()
        endif()
        set(t lib_${pair}_${tag}_${exec})
        add_test(NAME ${t} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh $<TARGET_FILE:vqscore>
                 ${VQ_RAW_DIR}/${gref}.yuv ${VQ_RAW_DIR}/${gdis}.yuv ${size} ${fmt} "" ${exec}
                 ${g} ${CMAKE_BINARY_DIR}/out --golden-args)
        set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw SKIP_RETURN_CODE 77)
      endforeach()
      # the CPU executor's row bands (3 threads, every feature in bands)
      if(pair MATCHES "^(balle576|birds720|odd577x323)$")
        set(t lib_${pair}_${tag}_cpu3)
        add_test(NAME ${t} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh $<TARGET_FILE:vqscore>
                 ${VQ_RAW_DIR}/${gref}.yuv ${VQ_RAW_DIR}/${gdis}.yuv ${size} ${fmt} "" cpu
                 ${g} ${CMAKE_BINARY_DIR}/out/cpu3 --golden-args -t 3)
        set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw SKIP_RETURN_CODE 77
                             ENVIRONMENT VQ_CPU_BANDS=all)
      endif()
    endforeach()
  endforeach()
endif()

# Refusals of those options through vqscore: values out of their ranges (the
# reference's option parser refuses them), and cambi full_ref with a 10-bit
# input and src_width above its width (libvmaf scores a sheared picture).
if(VQ_FFMPEG)
  foreach(v "odd;odd577x323" "b10;birds422p10")
    list(GET v 0 var)
    list(GET v 1 pair)
    set(${var} -r ${VQ_RAW_DIR}/${VQ_CLIP_${pair}_REF}.yuv -d ${VQ_RAW_DIR}/${VQ_CLIP_${pair}_DIS}.yuv
        -s ${VQ_CLIP_${pair}_SIZE} -f ${VQ_CLIP_${pair}_FMT})
  endforeach()
  foreach(c "vif_skip_scale0;odd;name=vif:vif_skip_scale0=2;option vif_skip_scale0: bad or out-of-range value '2'"
            "adm_skip_aim;odd;name=adm:adm_skip_aim=yes;option adm_skip_aim: bad or out-of-range value 'yes'"
            "adm_skip_scale0;odd;name=adm:adm_skip_scale0=-1;option adm_skip_scale0: bad or out-of-range value '-1'"
            "cambi_full_ref;odd;name=cambi:full_ref=2;option full_ref: bad or out-of-range value '2'"
            "cambi_src_width;odd;name=cambi:full_ref=true:src_width=319:src_height=200;option src_width: bad or out-of-range value '319'"
            "cambi_src_height;odd;name=cambi:full_ref=true:src_width=320:src_height=4321;option src_height: bad or out-of-range value '4321'"
            "cambi_src_aspect;odd;name=cambi:full_ref=true:src_width=640:src_height=200;source 640x200 and encode 577x323 differ in aspect direction"
            "cambi_full_ref_10bit_wider;b10;name=cambi:full_ref=true:src_width=800:src_height=450;full_ref, src_width 800 above the 10-bit width 640")
    list(GET c 0 name)
    list(GET c 1 pair)
    list(GET c 2 feature)
    list(GET c 3 message)
    set(t lib_refuse_${name})
    add_test(NAME ${t} COMMAND $<TARGET_FILE:vqscore> ${${pair}} -e cpu -m none -p 0 -F ${feature}
             -o ${CMAKE_BINARY_DIR}/out/${t}.json)
    set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw PASS_REGULAR_EXPRESSION "${message}")
  endforeach()
endif()

# debug=true beside a model that loads the same vif, adm and motion (libvmaf
# drops the request there; vqcuda gives the debug outputs from the model's own
# instances): the opt_debug goldens' columns, made with --no_prediction, must
# all be in the log of vmaf_v0.6.1 + the three debug features.
if(VQ_FFMPEG)
  foreach(pair birds720 dog1080p10)
    set(ref ${VQ_CLIP_${pair}_REF})
    set(dis ${VQ_CLIP_${pair}_DIS})
    set(size ${VQ_CLIP_${pair}_SIZE})
    set(fmt ${VQ_CLIP_${pair}_FMT})
    foreach(exec cpu cuda)
      if(exec STREQUAL cuda AND NOT VQ_ENABLE_CUDA)
        continue()
      endif()
      set(t lib_${pair}_debug_beside_model_${exec})
      add_test(NAME ${t} COMMAND ${CMAKE_SOURCE_DIR}/tests/lib_golden.sh $<TARGET_FILE:vqscore>
               ${VQ_RAW_DIR}/${ref}.yuv ${VQ_RAW_DIR}/${dis}.yuv ${size} ${fmt} "" ${exec}
               ${VQ_DATA}/golden/${pair}.opt_debug.json ${CMAKE_BINARY_DIR}/out/debug_model
               -m version=vmaf_v0.6.1 -F "name=vif:debug=true|name=adm:debug=true|name=motion:debug=true")
      set_tests_properties(${t} PROPERTIES FIXTURES_REQUIRED raw SKIP_RETURN_CODE 77)
    endforeach()
  endforeach()
endif()

# Integer motion's columns of libvmaf logs with features vqcuda lacks (the HFR
# models' five-frame window): vqscore with the motion feature alone, == every
# frame (tests/data/golden_parts; raw frames from VQ_RAW_DIR or the decode
# fixture; skipped without them).
foreach(exec cpu cuda)
  if(exec STREQUAL cuda AND NOT VQ_ENABLE_CUDA)
    continue()
  endif()
  add_test(NAME lib_motion_parts_${exec} COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/lib_motion_parts.py
           $<TARGET_FILE:vqscore> ${VQ_RAW_DIR} ${VQ_DATA}/golden_parts ${CMAKE_BINARY_DIR}/out ${exec})
  set_tests_properties(lib_motion_parts_${exec} PROPERTIES SKIP_RETURN_CODE 77)
  if(VQ_FFMPEG)
    set_tests_properties(lib_motion_parts_${exec} PROPERTIES FIXTURES_REQUIRED raw)
  endif()
endforeach()

# End to end through ffmpeg: every golden pair, default model (and the other
# models where libvmaf's model files are at hand), CPU path and GPU path.
if(VQ_FFMPEG)
  file(GLOB VQ_GOLDENS ${VQ_DATA}/golden/*.json)
  # the ladder's rungs (dog1080_l*) are scored together by e2e_ladder_* below
  list(FILTER VQ_GOLDENS EXCLUDE REGEX "/dog1080_l[0-9]+")
  foreach(g ${VQ_GOLDENS})
    get_filename_component(gname ${g} NAME)
    string(REGEX REPLACE "\\.json$" "" gname ${gname})
    foreach(mode cpu cuda)
      add_test(NAME e2e_${gname}_${mode}
               COMMAND ${CMAKE_SOURCE_DIR}/tests/e2e_golden.sh ${VQ_FFMPEG} ${VQ_DATA}/clips ${g}
                       ${mode} ${CMAKE_BINARY_DIR}/out)
      set_tests_properties(e2e_${gname}_${mode} PROPERTIES SKIP_RETURN_CODE 77)
    endforeach()
  endforeach()
  # the CPU executor's row bands at n_threads=3 (every feature in bands, the
  # ordered sums on one thread): the goldens of every feature, smaller pairs
  foreach(gname small36x34.features odd577x323.features birds422p10.features checker1080.features
                balle576.features birds720.features)
    add_test(NAME e2e_${gname}_cpu3
             COMMAND ${CMAKE_SOURCE_DIR}/tests/e2e_golden.sh ${VQ_FFMPEG} ${VQ_DATA}/clips
                     ${VQ_DATA}/golden/${gname}.json cpu3 ${CMAKE_BINARY_DIR}/out/cpu3)
    # every feature in bands, whatever the cost split would choose
    set_tests_properties(e2e_${gname}_cpu3 PROPERTIES ENVIRONMENT VQ_CPU_BANDS=all SKIP_RETURN_CODE 77)
  endforeach()
  # and the cost split's own choice (beside ciede's cost, the others one task each)
  add_test(NAME e2e_birds720.features_cpu3_auto
           COMMAND ${CMAKE_SOURCE_DIR}/tests/e2e_golden.sh ${VQ_FFMPEG} ${VQ_DATA}/clips
                   ${VQ_DATA}/golden/birds720.features.json cpu3 ${CMAKE_BINARY_DIR}/out/cpu3auto)
  set_tests_properties(e2e_birds720.features_cpu3_auto PROPERTIES SKIP_RETURN_CODE 77)
  # what the VMAF tools ask of the binary: -version, -filters, lavfi inputs
  add_test(NAME e2e_binary COMMAND ${CMAKE_SOURCE_DIR}/tests/e2e_binary.sh ${VQ_FFMPEG})
  add_test(NAME e2e_bad_input COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/e2e_errors.py ${VQ_FFMPEG}
           ${VQ_DATA}/clips ${CMAKE_BINARY_DIR}/out)
endif()

# scripts/build-ffmpeg.sh refuses a release it has no patch for, a source of
# another release, a patch that does not apply: at once, nothing compiled
# (no network; docs/ffmpeg-versions.md)
add_test(NAME build_refusals COMMAND ${CMAKE_SOURCE_DIR}/tests/build_refusals.sh ${CMAKE_BINARY_DIR}/out/build_refusals)

# Per-feature test additions (extra unit tests, golden runs, tools): one file per
# feature under tests/cmake/, so that features can be added independently.
file(GLOB VQ_TEST_CMAKE_PARTS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/cmake/*.cmake)
foreach(part ${VQ_TEST_CMAKE_PARTS})
  include(${part})
endforeach()

# A tool that speaks libvmaf's interface, unmodified (issue: drop-in).
if(VQ_FFMPEG)
  foreach(pair dog1080 birds720)
    add_test(NAME e2e_fqm_${pair} COMMAND ${CMAKE_SOURCE_DIR}/tests/e2e_fqm.sh ${VQ_FFMPEG}
             ${VQ_DATA}/clips ${VQ_DATA}/golden/${pair}.json ${CMAKE_BINARY_DIR}/out)
    set_tests_properties(e2e_fqm_${pair} PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_LOCK fqm_venv)
  endforeach()
endif()

# Encode ladders: vqcuda=inputs=N against libvmaf's logs of each rung.
if(VQ_FFMPEG)
  foreach(kind bicubic bicubic_x86 same)
    foreach(mode cpu cuda)
      add_test(NAME e2e_ladder_${kind}_${mode}
               COMMAND ${CMAKE_SOURCE_DIR}/tests/e2e_ladder.sh ${VQ_FFMPEG} ${VQ_DATA}/clips
                       ${VQ_DATA}/golden ${mode} ${CMAKE_BINARY_DIR}/out ${kind})
      set_tests_properties(e2e_ladder_${kind}_${mode} PROPERTIES SKIP_RETURN_CODE 77)
    endforeach()
  endforeach()
endif()

# Nothing scored is lost: size changes mid-stream (with and without FFmpeg's
# filter re-initialisation), failed log writes, earlier logs kept.
if(VQ_FFMPEG)
  add_test(NAME e2e_noloss COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/e2e_noloss.py ${VQ_FFMPEG}
           ${VQ_DATA}/clips ${VQ_DATA}/golden ${CMAKE_BINARY_DIR}/out/noloss)
endif()

# No hang, no lost log, no stale or mispaired result (the adversarial runs'
# nine findings); the thread cases under a per-user process limit.
if(VQ_FFMPEG)
  add_test(NAME e2e_reliability COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/e2e_reliability.py
           ${VQ_FFMPEG} ${VQ_DATA}/clips ${VQ_DATA}/golden ${CMAKE_BINARY_DIR}/out/reliability)
  set_tests_properties(e2e_reliability PROPERTIES TIMEOUT 1200)
endif()

# Segments, live output and exact pieces of a title.
if(VQ_FFMPEG)
  add_test(NAME e2e_segments COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/e2e_segments.py ${VQ_FFMPEG}
           ${VQ_DATA}/clips ${VQ_DATA}/golden ${CMAKE_BINARY_DIR}/out/segments)
endif()

# Labels: "gpu" for every check that needs a GPU (the parity families and the
# CUDA executor's runs: they skip, reason printed, without one), "cpu" for the
# rest; the unit programs' cases, discovered when they run, are "unit" (their
# GPU cases skip themselves). `ctest -L gpu` runs the GPU checks alone.
get_property(vq_all_tests DIRECTORY ${CMAKE_SOURCE_DIR} PROPERTY TESTS)
foreach(t IN LISTS vq_all_tests)
  if(t MATCHES "^gpu_|_cuda[0-9]*$")
    set_property(TEST ${t} APPEND PROPERTY LABELS gpu)
  else()
    set_property(TEST ${t} APPEND PROPERTY LABELS cpu)
  endif()
endforeach()
