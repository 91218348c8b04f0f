# Every target of this project is made by acemq_retry_add_library or
# acemq_retry_add_executable, so none can be compiled without the
# floating-point contract's flags; acemq_retry_check_targets(), called last
# by the top-level CMakeLists.txt, fails the configure step naming any
# target made another way.

# The floating-point contract is binary64, round-to-nearest, in the
# reference's order. GCC fuses a*b+c into one FMA by default for GNU C++
# wherever the CPU has one, which changed 12.5% of 10^6 jittered delays under
# -march=native, so every target of ours compiles with contraction off.
# Fast-math flags (and the optimisation level that implies them) are never
# used: they license reordering, which is the bug this project exists to
# catch.
add_library(acemq_retry_strict_fp INTERFACE)
target_compile_options(acemq_retry_strict_fp INTERFACE -ffp-contract=off
  $<$<BOOL:${ACEMQ_RETRY_NATIVE}>:-march=native>)

# -Wconversion because a silent int64 -> double or double -> float on the way
# to a delay is a change of bits that no compiler error would otherwise show.
# Errors where CMAKE_COMPILE_WARNING_AS_ERROR is set (the release and native
# presets).
add_library(acemq_retry_warnings INTERFACE)
target_compile_options(acemq_retry_warnings INTERFACE -Wall -Wextra -Wpedantic
  -Wconversion -Wsign-conversion)

# What every compiled target of ours gets. ISO C++20, not gnu++20: GNU modes
# default to -ffp-contract=fast, so a target that lost the flag would fuse.
function(_acemq_retry_contract_flags name)
  get_target_property(_type ${name} TYPE)
  if(_type STREQUAL "INTERFACE_LIBRARY")
    message(FATAL_ERROR "acemq_retry: ${name} is an INTERFACE library; it compiles nothing, "
      "so make it with add_library directly")
  endif()
  target_link_libraries(${name} PRIVATE
    $<BUILD_INTERFACE:acemq_retry_strict_fp> $<BUILD_INTERFACE:acemq_retry_warnings>)
  target_compile_features(${name} PUBLIC cxx_std_20)
  set_target_properties(${name} PROPERTIES CXX_EXTENSIONS OFF ACEMQ_RETRY_CONTRACT_FLAGS ON)
endfunction()

# add_library(name ...) with the contract's flags.
function(acemq_retry_add_library name)
  add_library(${name} ${ARGN})
  _acemq_retry_contract_flags(${name})
endfunction()

# add_executable(name ...) with the contract's flags.
function(acemq_retry_add_executable name)
  add_executable(${name} ${ARGN})
  _acemq_retry_contract_flags(${name})
endfunction()

function(_acemq_retry_check_directory directory)
  get_property(_targets DIRECTORY ${directory} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(_target IN LISTS _targets)
    get_target_property(_type ${_target} TYPE)
    if(_type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
      get_target_property(_flagged ${_target} ACEMQ_RETRY_CONTRACT_FLAGS)
      if(NOT _flagged)
        message(FATAL_ERROR "acemq_retry: target ${_target} (${directory}) was not made by "
          "acemq_retry_add_library or acemq_retry_add_executable, so it would compile without "
          "-ffp-contract=off (cmake/AcemqRetryTargets.cmake)")
      endif()
    endif()
  endforeach()
  get_property(_subdirectories DIRECTORY ${directory} PROPERTY SUBDIRECTORIES)
  foreach(_subdirectory IN LISTS _subdirectories)
    _acemq_retry_check_directory(${_subdirectory})
  endforeach()
endfunction()

# Fails the configure step if any compiled target of the project lacks the
# contract's flags.
function(acemq_retry_check_targets)
  _acemq_retry_check_directory(${PROJECT_SOURCE_DIR})
endfunction()
