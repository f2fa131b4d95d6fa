# scalebench::warnings: the project's warning flags as an INTERFACE target instead of global flags. Flags one
# compiler lacks (GCC's -Wshadow=local; Clang has only -Wshadow) are added where the compiler takes them, so a
# Clang build with warnings as errors builds too.
include(CheckCXXCompilerFlag)
add_library(scalebench_warnings INTERFACE)
add_library(scalebench::warnings ALIAS scalebench_warnings)
target_compile_options(scalebench_warnings INTERFACE -Wall -Wextra -Wpedantic -Wnon-virtual-dtor)
check_cxx_compiler_flag(-Wshadow=local SCALEBENCH_HAVE_WSHADOW_LOCAL)
if(SCALEBENCH_HAVE_WSHADOW_LOCAL)
  target_compile_options(scalebench_warnings INTERFACE -Wshadow=local)
endif()
if(SCALEBENCH_WARNINGS_AS_ERRORS)
  target_compile_options(scalebench_warnings INTERFACE -Werror)
endif()
