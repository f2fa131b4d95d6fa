# Every compile through ccache when this machine has it (Debian's ccache 4.7; scripts/setup.sh installs it for
# `make test`): a rebuild, a second clone, a preset rebuilt after a configure change, and the engine's build on a
# cluster (remote/engine_deployment.cpp runs this same CMakeLists.txt there) compile only what changed.
#
# The launcher carries its own settings, so that no user-wide ccache.conf is written and a Slurm job, whose
# environment is not this shell's, gets them too:
# - base_dir: the folder that holds both the sources and this build; ccache rewrites absolute paths under it to
#   relative ones, so two trees with the same layout (two clones; two engine versions deployed side by side) share
#   results.
# - sloppiness pch_defines,time_macros: what ccache needs to cache compiles that use a precompiled header
#   (LibTorch's, for the engine and the tests: target_precompile_headers). Without it every such compile misses.
# The cache is ccache's own (~/.cache/ccache, or CCACHE_DIR), outside every clone. SCALEBENCH_CCACHE=OFF builds
# without it; a launcher given on the command line (CMAKE_CXX_COMPILER_LAUNCHER) wins.
option(SCALEBENCH_CCACHE "Compile through ccache when it is installed" ON)
if(NOT SCALEBENCH_CCACHE OR CMAKE_CXX_COMPILER_LAUNCHER)
  return()
endif()
find_program(SCALEBENCH_CCACHE_PROGRAM ccache)
if(NOT SCALEBENCH_CCACHE_PROGRAM)
  message(STATUS "ccache: not found, compiling without a compiler cache")
  return()
endif()

# The deepest folder that holds both the sources and the build.
set(base_dir "${CMAKE_SOURCE_DIR}")
cmake_path(IS_PREFIX base_dir "${CMAKE_BINARY_DIR}" NORMALIZE binary_inside)
while(NOT binary_inside)
  cmake_path(GET base_dir PARENT_PATH base_dir)
  cmake_path(IS_PREFIX base_dir "${CMAKE_BINARY_DIR}" NORMALIZE binary_inside)
endwhile()

set(launcher /usr/bin/env "CCACHE_BASEDIR=${base_dir}" "CCACHE_SLOPPINESS=pch_defines,time_macros"
             "${SCALEBENCH_CCACHE_PROGRAM}")
set(CMAKE_C_COMPILER_LAUNCHER ${launcher})
set(CMAKE_CXX_COMPILER_LAUNCHER ${launcher})
message(STATUS "ccache: ${SCALEBENCH_CCACHE_PROGRAM}, base_dir ${base_dir}")
unset(launcher)
unset(base_dir)
unset(binary_inside)
