# scalebench::warnings: the project's warning flags as an INTERFACE target instead of global flags.
add_library(scalebench_warnings INTERFACE)
add_library(scalebench::warnings ALIAS scalebench_warnings)
target_compile_options(scalebench_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor)
if(SCALEBENCH_WARNINGS_AS_ERRORS)
  target_compile_options(scalebench_warnings INTERFACE -Werror)
endif()
