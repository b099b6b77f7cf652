# Runs kp_catalog_gen on the fixture in FIXTURE and fails unless the outputs equal
# FIXTURE/expected.json and FIXTURE/expected-offerings.txt. Invoked by ctest (see
# tools/CMakeLists.txt).
execute_process(
  COMMAND ${GEN} --instance-types ${FIXTURE}/instance_types.json
          --offerings ${FIXTURE}/offerings.json --offerings ${FIXTURE}/offerings-eu-west-1.json
          --source fixture --out ${OUT} --offerings-out ${OUT}.offerings.txt
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kp_catalog_gen failed (${rc})")
endif()
foreach(pair "${OUT};expected.json" "${OUT}.offerings.txt;expected-offerings.txt")
  list(GET pair 0 got)
  list(GET pair 1 want)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${got} ${FIXTURE}/${want}
                  RESULT_VARIABLE diff)
  if(NOT diff EQUAL 0)
    message(FATAL_ERROR "kp_catalog_gen output ${got} differs from ${FIXTURE}/${want}")
  endif()
endforeach()
