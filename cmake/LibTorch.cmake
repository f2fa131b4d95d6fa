# scalebench::torch: LibTorch for the engine.
# CPU build (default): links libtorch_cpu and libc10 straight from the torch wheel in the set-up's virtual environment,
# so neither the CUDA toolkit nor the multi-GB CUDA wheels are needed. GPU build (SCALEBENCH_CUDA=ON, the cuda preset):
# find_package(Torch) from the same wheel, with torch_cuda and c10_cuda, against a CUDA toolkit (here 13.0 in
# /usr/local/cuda, which has what libtorch_cuda.so loads but cuFile, cuSPARSELt and NVSHMEM: scripts/setup.sh's wheels).
option(SCALEBENCH_CUDA "Build the engine's CUDA/NCCL path with find_package(Torch)" OFF)
set(SCALEBENCH_PYTHON "${CMAKE_SOURCE_DIR}/.venv/bin/python" CACHE FILEPATH "Python whose torch package provides LibTorch")

# What to do when LibTorch is missing: here, the set-up script; on a cluster (SCALEBENCH_ENGINE_ONLY, configured by
# scalebench's deployment job with SCALEBENCH_PYTHON from the cluster's torch_python setting), what to install there.
if(SCALEBENCH_ENGINE_ONLY)
  set(torch_advice "on this cluster, install torch into that Python (${SCALEBENCH_PYTHON} -m pip install torch; the CPU-only wheel: add --index-url https://download.pytorch.org/whl/cpu), or set the cluster's torch_python in scalebench to a Python that has it (a `module load` of one goes in the cluster's setup lines)")
else()
  set(torch_advice "run scripts/setup.sh (make build does) or set SCALEBENCH_PYTHON")
endif()
if(NOT EXISTS "${SCALEBENCH_PYTHON}")
  message(FATAL_ERROR "No Python at '${SCALEBENCH_PYTHON}': ${torch_advice}")
endif()
execute_process(
  COMMAND "${SCALEBENCH_PYTHON}" -c "import importlib.util,os; print(os.path.dirname(importlib.util.find_spec('torch').origin))"
  OUTPUT_VARIABLE SCALEBENCH_TORCH_ROOT OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE torch_found)
if(NOT torch_found EQUAL 0 OR NOT EXISTS "${SCALEBENCH_TORCH_ROOT}/lib/libtorch_cpu.so")
  message(FATAL_ERROR "${SCALEBENCH_PYTHON} has no torch package with LibTorch: ${torch_advice}")
endif()
file(READ "${SCALEBENCH_TORCH_ROOT}/version.py" torch_version_py)
string(REGEX MATCH "__version__ = '([^']+)'" _ "${torch_version_py}")
set(SCALEBENCH_TORCH_VERSION "${CMAKE_MATCH_1}")
message(STATUS "LibTorch ${SCALEBENCH_TORCH_VERSION} from ${SCALEBENCH_TORCH_ROOT}")

add_library(scalebench_torch INTERFACE)
add_library(scalebench::torch ALIAS scalebench_torch)
if(SCALEBENCH_CUDA)
  # The engine compiles no CUDA kernels of its own: the architecture list only has to get Caffe2's CMake past its
  # GPU detection, which fails without a GPU and under CMake 3.25 ("requires the language dialect CUDA20"). H100
  # unless the preset, the cache or the environment says otherwise (a cluster's engine build sets none).
  if(NOT DEFINED TORCH_CUDA_ARCH_LIST AND NOT DEFINED ENV{TORCH_CUDA_ARCH_LIST})
    set(TORCH_CUDA_ARCH_LIST "9.0" CACHE STRING "CUDA architectures for Caffe2's CMake (the engine has no kernels)")
  endif()
  list(APPEND CMAKE_PREFIX_PATH "${SCALEBENCH_TORCH_ROOT}/share/cmake")
  find_package(Torch REQUIRED)
  target_link_libraries(scalebench_torch INTERFACE ${TORCH_LIBRARIES})
  target_compile_definitions(scalebench_torch INTERFACE SCALEBENCH_CUDA=1)
else()
  # LibTorch's headers by a name inside the build tree (BUILD/libtorch, a link to the torch package), not by where
  # the package lies: every compile then reads the same include paths in any tree of the same layout, so that the
  # compiler cache (cmake/CompilerCache.cmake) serves a second clone, and the engine's build on the test cluster
  # (remote/engine_deployment.cpp builds a deployed copy the same way), from this build's compiles. Not named
  # `torch`: Python, run in the build folder above, would import the link as the torch package.
  set(torch_link "${CMAKE_BINARY_DIR}/libtorch")
  file(CREATE_LINK "${SCALEBENCH_TORCH_ROOT}" "${torch_link}" SYMBOLIC)
  target_include_directories(scalebench_torch SYSTEM INTERFACE
    "${torch_link}/include" "${torch_link}/include/torch/csrc/api/include")
  target_link_libraries(scalebench_torch INTERFACE
    "${SCALEBENCH_TORCH_ROOT}/lib/libtorch_cpu.so" "${SCALEBENCH_TORCH_ROOT}/lib/libc10.so")
  # libtorch_cpu.so finds libcudart.so.13 and libcupti.so.13 (nvidia wheels beside torch) through its own RPATH at
  # run time; the linker needs to be told where they are.
  file(GLOB cuda_runtime_dirs LIST_DIRECTORIES true "${SCALEBENCH_TORCH_ROOT}/../nvidia/cu*/lib")
  foreach(dir IN LISTS cuda_runtime_dirs)
    target_link_options(scalebench_torch INTERFACE "LINKER:-rpath-link,${dir}")
  endforeach()
endif()
