# lather_generate(<target> WSDL <file>... [CATALOG <file>...] [NAMESPACE <ns>]
#                 [OPERATIONS <operation>...] [SOURCES <n>] [KEEP_UNKNOWN])
#
# Generates C++ from a WSDL contract at build time with lather-wsdl2cpp (docs/wsdl2cpp.md) and
# builds it as the static library <target> (linking lather::lather, C++20). The code goes to
# <current binary dir>/lather_generate/<target>/, which is on the target's include path with
# its parent: `#include "Greeter.hpp"` or `#include "<target>/Greeter.hpp"`.
#
#   WSDL        the contract's WSDL (or XSD) files; relative to the current source directory
#   CATALOG     OASIS XML catalogs for absolute schema URLs (--catalog)
#   NAMESPACE   C++ namespace of the generated code (default: <target>, made an identifier)
#   OPERATIONS  generate only these operations and what they reach (names or PortType.Op)
#   SOURCES     translation units of the library (code_<k>.cpp; default 1): more compile in
#               parallel, for big contracts
#   KEEP_UNKNOWN  every type with element content keeps the child elements the contract does
#               not declare (--keep-unknown: a lather::bind::unknown_elements member)
#
# The generator reruns when a WSDL, a catalog or any document they import changes (its
# --depfile lists every file it read), and a file whose content did not change keeps its time
# stamp, so only what changed is recompiled. It needs lather's tools: installed (the default
# `cmake --install`, or its component lather_tools), or, with lather as a subproject, built
# with -DLATHER_TOOLS=ON.
include_guard(GLOBAL)

# The depfile's paths are absolute; CMake 3.20's handling of depfiles applies to both Ninja
# and Makefiles (policy settings are recorded with the function).
cmake_policy(PUSH)
cmake_policy(SET CMP0116 NEW)

function(lather_generate target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "KEEP_UNKNOWN" "NAMESPACE;SOURCES"
                        "WSDL;CATALOG;OPERATIONS")
  set(where "lather_generate(${target})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_WSDL)
    message(FATAL_ERROR "${where}: WSDL <file> is required")
  endif()
  if(NOT TARGET lather::wsdl2cpp)
    message(FATAL_ERROR
            "${where} needs lather-wsdl2cpp, which this lather does not provide: install "
            "lather's tools (`cmake --install <build> --component lather_tools`), or configure a "
            "vendored lather with -DLATHER_TOOLS=ON")
  endif()
  set(namespace ${arg_NAMESPACE})
  if(NOT namespace)
    string(MAKE_C_IDENTIFIER ${target} namespace)
  endif()
  set(sources 1)
  if(DEFINED arg_SOURCES)
    if(NOT arg_SOURCES MATCHES "^[1-9][0-9]*$")
      message(FATAL_ERROR "${where}: SOURCES must be a positive number, not '${arg_SOURCES}'")
    endif()
    set(sources ${arg_SOURCES})
  endif()

  set(root ${CMAKE_CURRENT_BINARY_DIR}/lather_generate)
  set(out ${root}/${target})
  set(command $<TARGET_FILE:lather::wsdl2cpp>)
  set(depends $<TARGET_FILE:lather::wsdl2cpp>)
  get_target_property(tool lather::wsdl2cpp ALIASED_TARGET)
  if(tool)
    list(APPEND depends ${tool})  # built here: also a target-level dependency
  endif()
  foreach(wsdl IN LISTS arg_WSDL)
    get_filename_component(wsdl ${wsdl} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND command ${wsdl})
    list(APPEND depends ${wsdl})
  endforeach()
  list(APPEND command -o ${out} --namespace ${namespace} --sources ${sources} -q
       --depfile ${root}/${target}.d)
  foreach(catalog IN LISTS arg_CATALOG)
    get_filename_component(catalog ${catalog} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND command --catalog ${catalog})
    list(APPEND depends ${catalog})
  endforeach()
  if(arg_OPERATIONS)
    list(JOIN arg_OPERATIONS "," operations)
    list(APPEND command --operations ${operations})
  endif()
  if(arg_KEEP_UNKNOWN)
    list(APPEND command --keep-unknown)
  endif()

  # names.txt first: the generator rewrites it on every run, so it is the rule's stamp; the
  # sources keep their time stamps when unchanged.
  set(outputs ${out}/names.txt)
  set(library_sources "")
  foreach(k RANGE 1 ${sources})
    list(APPEND library_sources ${out}/code_${k}.cpp)
  endforeach()
  add_custom_command(
    OUTPUT ${outputs} ${library_sources}
    COMMAND ${command}
    DEPENDS ${depends}
    DEPFILE ${root}/${target}.d
    COMMENT "lather-wsdl2cpp: generating ${target} from ${arg_WSDL}"
    VERBATIM)
  add_library(${target} STATIC ${library_sources})
  target_include_directories(${target} PUBLIC ${out} ${root})
  target_link_libraries(${target} PUBLIC lather::lather)
  target_compile_features(${target} PUBLIC cxx_std_20)
endfunction()

cmake_policy(POP)
