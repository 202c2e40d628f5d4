# SF_PYTHON: the Python package's extension module (python/), built as a target of this build so
# that `make test` and CI compile the library once for the program, the tests and the module.
#   AUTO (the default): on when a Python with nanobind is found: Python_EXECUTABLE if given, else
#        the project's .venv (scripts/install-python.sh puts nanobind there), and off under
#        SF_SANITIZE/SF_FUZZ (an instrumented module cannot load into an uninstrumented
#        interpreter). Decided again at every configure, like SF_WEB.
#   ON   required (`pip install .` sets it through scikit-build-core), OFF never.
# When enabled every object is compiled position-independent (a shared module links the static
# layer libraries); GCC on Debian already compiles PIE by default, so the program barely changes.
set(SF_PYTHON AUTO CACHE STRING "Build the Python extension module (python/): AUTO, ON or OFF")
set_property(CACHE SF_PYTHON PROPERTY STRINGS AUTO ON OFF)

set(SF_PYTHON_ENABLED FALSE)
if(SF_PYTHON STREQUAL "AUTO" AND (SF_SANITIZE OR SF_FUZZ))
  message(STATUS "Python module: off (sanitized or fuzzing build)")
elseif(SF_PYTHON)
  if(NOT DEFINED Python_EXECUTABLE AND EXISTS "${PROJECT_SOURCE_DIR}/.venv/bin/python")
    set(Python_EXECUTABLE "${PROJECT_SOURCE_DIR}/.venv/bin/python")
  endif()
  if(SF_PYTHON STREQUAL "AUTO")
    find_package(Python 3.9 COMPONENTS Interpreter Development.Module)
  else()
    find_package(Python 3.9 COMPONENTS Interpreter Development.Module REQUIRED)
  endif()
  if(Python_FOUND)
    execute_process(COMMAND "${Python_EXECUTABLE}" -m nanobind --cmake_dir
                    OUTPUT_VARIABLE nanobind_cmake_dir OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(nanobind_cmake_dir)
      list(APPEND CMAKE_PREFIX_PATH "${nanobind_cmake_dir}")
    endif()
    find_package(nanobind CONFIG QUIET)
  endif()
  if(nanobind_FOUND)
    set(SF_PYTHON_ENABLED TRUE)
    set(CMAKE_POSITION_INDEPENDENT_CODE ON)
    message(STATUS "Python module: on (${Python_EXECUTABLE}, nanobind ${nanobind_VERSION})")
  elseif(SF_PYTHON STREQUAL "AUTO")
    message(STATUS "Python module: off (no Python with nanobind: make python-deps makes .venv)")
  else()
    message(FATAL_ERROR "SF_PYTHON=ON needs a Python with nanobind (Python_EXECUTABLE=${Python_EXECUTABLE})")
  endif()
endif()
