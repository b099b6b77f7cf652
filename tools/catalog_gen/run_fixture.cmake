# Runs kp_catalog_gen on the fixture in FIXTURE and fails unless the output equals
# FIXTURE/expected.json. Invoked by ctest (see tools/CMakeLists.txt).
execute_process(
  COMMAND ${GEN} --instance-types ${FIXTURE}/instance_types.json
          --offerings ${FIXTURE}/offerings.json --region us-east-1 --source fixture --out ${OUT}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "kp_catalog_gen failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${FIXTURE}/expected.json
                RESULT_VARIABLE diff)
if(NOT diff EQUAL 0)
  message(FATAL_ERROR "kp_catalog_gen output ${OUT} differs from ${FIXTURE}/expected.json")
endif()
