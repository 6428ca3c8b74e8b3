# How lather's targets are built, exported and installed.
#
#   lather_warnings   INTERFACE: -Wall -Wextra (+ -Werror with LATHER_WERROR) for lather's own
#                     code; never propagated to a consumer of the libraries.
#   lather_sanitize   INTERFACE: the LATHER_SANITIZE flags (compile and link).
#   lather_export_library(<target> <component>)
#                     a layer library: lather::<component> (ALIAS in the build, imported target
#                     when installed), headers from include/, part of lather::lather.
#   lather_install_tool(<target>)
#                     a user-facing tool: lather::<target without "lather-"> (ALIAS in the
#                     build), installed to bin/ and exported in the `tools` component when
#                     LATHER_TOOLS is ON. A new tool (e.g. lather-wsdl2cpp) calls it once
#                     after its add_executable.
#   lather_apply_build_flags(<dir>)
#                     links lather_warnings and lather_sanitize into every target built below
#                     <dir>, so tests, benchmarks and tools added anywhere get them.
#   lather_finish_package()
#                     install rules, latherConfig.cmake (with lather_generate(), from
#                     latherGenerate.cmake), lather.pc; and, when lather is a
#                     subproject, the find_package(lather) redirect that makes a consumer's
#                     CMakeLists.txt work unchanged over add_subdirectory.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

add_library(lather_warnings INTERFACE)
target_compile_options(lather_warnings INTERFACE -Wall -Wextra $<$<BOOL:${LATHER_WERROR}>:-Werror>)

add_library(lather_sanitize INTERFACE)
if(LATHER_SANITIZE STREQUAL "address")
  # GCC 12's -Wmaybe-uninitialized misreads ASan-instrumented code at -O1 (libstdc++'s <regex>
  # std::function, std::variant's move assignment in bind::finalize_field): the release build
  # checks the same code with the warning on, so the ASan build leaves it out.
  target_compile_options(lather_sanitize INTERFACE -fsanitize=address,undefined
                         -fno-omit-frame-pointer -fno-sanitize-recover=undefined
                         $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>)
  target_link_options(lather_sanitize INTERFACE -fsanitize=address,undefined)
elseif(LATHER_SANITIZE STREQUAL "thread")
  # GCC 12's -Wtsan flags Boost.Asio's std::atomic_thread_fence (TSan does not model fences);
  # the TSan run is what checks the threads, so the warning is not made an error.
  target_compile_options(lather_sanitize INTERFACE -fsanitize=thread -fno-omit-frame-pointer
                         $<$<CXX_COMPILER_ID:GNU>:-Wno-tsan>)
  target_link_options(lather_sanitize INTERFACE -fsanitize=thread)
elseif(NOT LATHER_SANITIZE STREQUAL "")
  message(FATAL_ERROR "LATHER_SANITIZE must be '', 'address' or 'thread', not '${LATHER_SANITIZE}'")
endif()

# lather::lather: every layer library (the umbrella <lather/lather.hpp> includes them all).
add_library(lather_all INTERFACE)
set_target_properties(lather_all PROPERTIES EXPORT_NAME lather)
add_library(lather::lather ALIAS lather_all)

# Components a consumer can ask find_package(lather COMPONENTS ...) for, with the option that
# builds each (none: always built).
set_property(GLOBAL PROPERTY LATHER_LIBRARY_COMPONENTS "")
set_property(GLOBAL PROPERTY LATHER_LIBRARY_TARGETS "")
set_property(GLOBAL PROPERTY LATHER_TOOL_TARGETS "")

function(lather_export_library target component)
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
                                              $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${target} PUBLIC cxx_std_20)
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${component})
  add_library(lather::${component} ALIAS ${target})
  target_link_libraries(lather_all INTERFACE ${target})
  set_property(GLOBAL APPEND PROPERTY LATHER_LIBRARY_COMPONENTS ${component})
  set_property(GLOBAL APPEND PROPERTY LATHER_LIBRARY_TARGETS ${target})
  if(LATHER_INSTALL)
    install(TARGETS ${target} EXPORT latherTargets
            ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lather_development
            LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lather_development
            RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT lather_development)
  endif()
endfunction()

function(lather_install_tool target)
  string(REGEX REPLACE "^lather-" "" export_name ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
  add_executable(lather::${export_name} ALIAS ${target})
  if(LATHER_TOOLS)
    set_property(GLOBAL APPEND PROPERTY LATHER_TOOL_TARGETS ${target})
    if(LATHER_INSTALL)
      install(TARGETS ${target} EXPORT latherToolsTargets
              RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT lather_tools)
    endif()
  endif()
endfunction()

# The targets of <dir> and of every directory below it.
function(lather_targets_below dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    lather_targets_below(${sub} sub_targets)
    list(APPEND targets ${sub_targets})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(lather_apply_build_flags dir)
  lather_targets_below(${dir} targets)
  foreach(target ${targets})
    get_target_property(type ${target} TYPE)
    if(type MATCHES "^(STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY|EXECUTABLE)$")
      # BUILD_INTERFACE: a static library's private links are exported (as link-only); these
      # two are build settings, not part of the installed package.
      target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:lather_warnings>
                                              $<BUILD_INTERFACE:lather_sanitize>)
    endif()
  endforeach()
endfunction()

set(LATHER_PACKAGE_DIR ${CMAKE_CURRENT_LIST_DIR})

function(lather_finish_package)
  get_property(library_components GLOBAL PROPERTY LATHER_LIBRARY_COMPONENTS)
  get_property(tool_targets GLOBAL PROPERTY LATHER_TOOL_TARGETS)
  set(tool_names "")
  foreach(tool ${tool_targets})
    get_target_property(name ${tool} EXPORT_NAME)
    list(APPEND tool_names ${name})
  endforeach()
  # Read by latherComponents.cmake (installed and in-build).
  set(LATHER_CONFIG_LIBRARY_COMPONENTS "${library_components}")
  set(LATHER_CONFIG_TOOLS "${tool_names}")
  set(LATHER_CONFIG_TOOLS_BUILT ${LATHER_TOOLS})
  set(gen ${PROJECT_BINARY_DIR}/lather-package)
  configure_file(${LATHER_PACKAGE_DIR}/latherComponents.cmake.in ${gen}/latherComponents.cmake
                 @ONLY)
  write_basic_package_version_file(${gen}/latherConfigVersion.cmake
                                   VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)

  if(NOT PROJECT_IS_TOP_LEVEL)
    # A consumer's find_package(lather) after add_subdirectory(lather) finds the targets of
    # this build (CMAKE_FIND_PACKAGE_REDIRECTS_DIR is searched before anything else).
    file(WRITE ${CMAKE_FIND_PACKAGE_REDIRECTS_DIR}/lather-config.cmake
         "include(\"${gen}/latherComponents.cmake\")\n"
         "include(\"${LATHER_PACKAGE_DIR}/latherGenerate.cmake\")\n")
    configure_file(${gen}/latherConfigVersion.cmake
                   ${CMAKE_FIND_PACKAGE_REDIRECTS_DIR}/lather-config-version.cmake COPYONLY)
  endif()

  if(NOT LATHER_INSTALL)
    return()
  endif()
  set(config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/lather)
  install(TARGETS lather_all EXPORT latherTargets COMPONENT lather_development)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          COMPONENT lather_development FILES_MATCHING PATTERN "*.hpp")
  install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR}
          COMPONENT lather_development)
  install(EXPORT latherTargets NAMESPACE lather:: DESTINATION ${config_dir}
          COMPONENT lather_development)
  if(tool_targets)
    install(EXPORT latherToolsTargets NAMESPACE lather:: DESTINATION ${config_dir}
            COMPONENT lather_tools)
  endif()
  configure_package_config_file(${LATHER_PACKAGE_DIR}/latherConfig.cmake.in
                                ${gen}/latherConfig.cmake INSTALL_DESTINATION ${config_dir})
  install(FILES ${gen}/latherConfig.cmake ${gen}/latherConfigVersion.cmake
                ${gen}/latherComponents.cmake ${LATHER_PACKAGE_DIR}/latherGenerate.cmake
          DESTINATION ${config_dir} COMPONENT lather_development)

  # lather.pc: the static libraries, highest layer first, then what they link privately;
  # the prefix is found from the .pc file's own place, as `cmake --install --prefix` may move it.
  get_property(library_targets GLOBAL PROPERTY LATHER_LIBRARY_TARGETS)
  set(pc_libs "")
  foreach(target IN LISTS library_targets)
    list(PREPEND pc_libs "-l${target}")
  endforeach()
  list(JOIN pc_libs " " LATHER_PC_LIBS)
  list(TRANSFORM LATHER_BOOST_COMPONENTS PREPEND "-lboost_" OUTPUT_VARIABLE pc_boost)
  list(JOIN pc_boost " " LATHER_PC_BOOST_LIBS)
  file(RELATIVE_PATH pc_up /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
  string(REGEX REPLACE "/$" "" LATHER_PC_PREFIX_FROM_PCFILEDIR ${pc_up})
  configure_file(${LATHER_PACKAGE_DIR}/lather.pc.in ${gen}/lather.pc @ONLY)
  install(FILES ${gen}/lather.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
          COMPONENT lather_development)
endfunction()
