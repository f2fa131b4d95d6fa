# scalebench_find_cuda_toolkit(ARGS...): find_package(CUDAToolkit ARGS...) for the engine's CUDA parts (trainers/gpu,
# trainers/comm/nccl). CMake 3.25.0 and 3.25.1 (Debian 12's) stop in FindCUDAToolkit when the toolkit has no
# libnvToolsExt, which no CUDA since 12 has (NVTX is the header-only nvtx3): in a project that requires CMake 3.25
# they mark that missing target deprecated ("set_property could not find TARGET CUDA::nvToolsExt"). CMake 3.25.2
# fixed it; before it, the find runs as a project requiring 3.24 would. Found on a debootstrap root: the
# development machines' CMake carries the fix by hand, so only a clean Debian 12 showed it (a GPU cluster on
# Debian 12 would have refused the engine's build the same way).
macro(scalebench_find_cuda_toolkit)
  if(CMAKE_VERSION VERSION_LESS 3.25.2)
    set(scalebench_required_cmake ${CMAKE_MINIMUM_REQUIRED_VERSION})
    set(CMAKE_MINIMUM_REQUIRED_VERSION 3.24)
    find_package(CUDAToolkit ${ARGN})
    set(CMAKE_MINIMUM_REQUIRED_VERSION ${scalebench_required_cmake})
    unset(scalebench_required_cmake)
  else()
    find_package(CUDAToolkit ${ARGN})
  endif()
endmacro()
