# Helpers that every folder uses, so flags live in one place (after absl_cc_library).
#
# kp_cc_library(NAME DEPS ...): one folder = one library target `kp_<NAME>`, built from every
# *.cc in the folder except *_test.cc, *_fuzz.cc and *_benchmark.cc. Tests next to the code
# become one GoogleTest binary `kp_<NAME>_test` registered with ctest (label `unit`).

set(KP_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
                -Wmissing-declarations -Wno-missing-field-initializers)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # GCC 12's flow-sensitive warnings fire inside libstdc++ (std::regex, std::function,
  # char_traits) once sanitizers or -O2 inlining are on; they are false positives there and
  # would make -Werror builds depend on the optimisation level.
  list(APPEND KP_WARNINGS -Wno-maybe-uninitialized -Wno-restrict -Wno-stringop-overflow)
endif()

function(kp_apply_flags target)
  target_compile_options(${target} PRIVATE ${KP_WARNINGS})
  if(KP_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

if(KP_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()

function(kp_cc_library)
  cmake_parse_arguments(KP "" "NAME" "DEPS;TEST_DEPS" ${ARGN})
  file(GLOB _srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  list(FILTER _srcs EXCLUDE REGEX "_(test|fuzz|benchmark)\\.cc$")
  add_library(kp_${KP_NAME} ${_srcs})
  target_include_directories(kp_${KP_NAME} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(kp_${KP_NAME} PUBLIC ${KP_DEPS})
  kp_apply_flags(kp_${KP_NAME})

  file(GLOB _tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cc)
  if(_tests)
    add_executable(kp_${KP_NAME}_test ${_tests})
    target_link_libraries(kp_${KP_NAME}_test PRIVATE kp_${KP_NAME} ${KP_TEST_DEPS}
                          GTest::gtest GTest::gmock GTest::gtest_main)
    target_compile_definitions(kp_${KP_NAME}_test PRIVATE
                               KP_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
    kp_apply_flags(kp_${KP_NAME}_test)
    gtest_discover_tests(kp_${KP_NAME}_test PROPERTIES LABELS unit DISCOVERY_TIMEOUT 60)
  endif()
endfunction()

# kp_fuzz_target(NAME name SRCS ... DEPS ...): a libFuzzer binary `name` (e.g. quantity_fuzz),
# linked with -fsanitize=fuzzer,address. With KP_FUZZ on, every other target is compiled with
# coverage instrumentation (fuzzer-no-link) and ASan, so libFuzzer is guided by the code under test,
# not only by the fuzz entry point. The `kp_fuzz_all` target builds every fuzz target; the `fuzz`
# build preset and scripts/test.sh build just that, then run each `*_fuzz` binary found.
if(KP_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "KP_FUZZ needs clang (libFuzzer); use the `fuzz` preset (clang++-14)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address)
  add_custom_target(kp_fuzz_all)
endif()

function(kp_fuzz_target)
  cmake_parse_arguments(KP "" "NAME" "SRCS;DEPS" ${ARGN})
  if(NOT KP_FUZZ)
    return()
  endif()
  add_executable(${KP_NAME} ${KP_SRCS})
  target_include_directories(${KP_NAME} PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(${KP_NAME} PRIVATE ${KP_DEPS})
  target_link_options(${KP_NAME} PRIVATE -fsanitize=fuzzer,address)
  kp_apply_flags(${KP_NAME})
  add_dependencies(kp_fuzz_all ${KP_NAME})
endfunction()
