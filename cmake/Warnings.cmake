# Project-wide warning flags, applied through the sf_warnings interface target.
add_library(sf_warnings INTERFACE)
target_compile_options(sf_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                             -Wcast-align -Wunused -Woverloaded-virtual)
# A unity build includes each .cpp into a generated one, where GCC takes a class holding types
# from the .cpp's anonymous namespace (ModelBuilder::State) for a header's and warns.
if(CMAKE_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  target_compile_options(sf_warnings INTERFACE -Wno-subobject-linkage)
endif()
if(SF_WERROR)
  target_compile_options(sf_warnings INTERFACE -Werror)
endif()
if(SF_SANITIZE)
  add_compile_options(-fsanitize=${SF_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  # GCC's flow analysis misfires on libstdc++'s std::regex once instrumented (GCC bug 105562).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    add_compile_options(-Wno-maybe-uninitialized)
  endif()
  # One known defect of a Debian library's header, and only that check there (the file says which).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_compile_options(-fsanitize-ignorelist=${PROJECT_SOURCE_DIR}/cmake/sanitizer-ignorelist.txt)
  endif()
  add_link_options(-fsanitize=${SF_SANITIZE})
endif()

# simdjson's On-Demand API is compiled into our code, and picks its SIMD kernel at compile
# time: without -march it falls back to the scalar kernel, several times slower. The project
# is built from source where it runs, so target the build machine by default.
option(SF_MARCH_NATIVE "Compile for the build machine's CPU (needed for simdjson's fast kernels)" ON)
if(SF_MARCH_NATIVE)
  add_compile_options(-march=native)
endif()
