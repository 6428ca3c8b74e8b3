# lather_add_test(NAME name SOURCES a.cpp ... LIBS lib ... [LABELS l ...])
# One GoogleTest executable per call, registered with CTest through gtest_discover_tests
# so each TEST shows up (and can be filtered) on its own.
include_guard(GLOBAL)

set(LATHER_WSDL_CORPUS "${PROJECT_SOURCE_DIR}/../shared/wsdl-corpus" CACHE PATH
    "The WSDL corpus (shared/wsdl-corpus); its tests skip when it is absent")
# The paths tests look things up by (tests/support/paths.hpp), in one generated source: on a
# test's own compile command they would make its object differ from clone to clone.
configure_file(${PROJECT_SOURCE_DIR}/tests/support/paths.cpp.in
               ${PROJECT_BINARY_DIR}/tests/support/paths.cpp @ONLY)
add_library(lather_test_paths STATIC ${PROJECT_BINARY_DIR}/tests/support/paths.cpp)

function(lather_add_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS" ${ARGN})
  find_package(GTest REQUIRED)
  include(GoogleTest)
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} lather_test_paths GTest::gtest
                        GTest::gtest_main Threads::Threads)
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  # Sanitized code runs 2-3x (ASan) to 5-15x (TSan) slower, and the interop peers' calls wait
  # on it: the limits stay those of the release build, scaled.
  if(LATHER_SANITIZE)
    math(EXPR T_TIMEOUT "${T_TIMEOUT} * 3")
  endif()
  gtest_discover_tests(${T_NAME} DISCOVERY_TIMEOUT 60
    PROPERTIES TIMEOUT ${T_TIMEOUT} LABELS "${T_LABELS}")
  # gtest_discover_tests passes its PROPERTIES through a command line that splits a list, so
  # a second label would be lost: all labels are set again once the tests are discovered
  # (the discovery script leaves their names in ${T_NAME}_TESTS).
  list(LENGTH T_LABELS label_count)
  if(label_count GREATER 1)
    set(labels_file "${CMAKE_CURRENT_BINARY_DIR}/${T_NAME}_labels.cmake")
    file(WRITE "${labels_file}"
         "if(${T_NAME}_TESTS)\n"
         "  set_tests_properties(\${${T_NAME}_TESTS} PROPERTIES LABELS \"${T_LABELS}\")\n"
         "endif()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${labels_file}")
  endif()
endfunction()
