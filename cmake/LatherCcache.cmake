# ccache as the compiler launcher (top-level builds only; a parent project chooses its own).
# Paths under the source folder are hashed relative to the build's working directory and the
# working directory itself is not hashed, so a fresh clone in another folder (CI, a second
# worktree, tests/consumer's builds under build/) hits the objects another clone compiled.
# A launcher the user set on the command line wins; -DLATHER_CCACHE=OFF turns this off.
include_guard(GLOBAL)
option(LATHER_CCACHE "Compile through ccache when it is installed (top-level builds)" ON)
if(LATHER_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(LATHER_CCACHE_PROGRAM ccache)
  mark_as_advanced(LATHER_CCACHE_PROGRAM)
  if(LATHER_CCACHE_PROGRAM)
    # ccache 4.7 (Debian 12) takes settings from the environment, not its command line.
    set(CMAKE_CXX_COMPILER_LAUNCHER
        ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_NOHASHDIR=1
        ${LATHER_CCACHE_PROGRAM})
  endif()
endif()
