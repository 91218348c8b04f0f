# The mutant schemata build (mutation/README.md): at configure time,
# mutation/schemata.py reads the real core with libclang and writes a copy of
# src/ into the build tree in which every mutant sits behind a run-time
# switch. Editing a core source or the generator configures again.

# Debian's python3 carries python3-clang-14; a python3 earlier on PATH (a
# pyenv shim, say) may not.
find_program(ACEMQ_RETRY_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
find_program(ACEMQ_RETRY_PYTHON NAMES python3 REQUIRED)

# Sets `out_var` to the generated copy of src/.
function(acemq_retry_generate_schemata out_var)
  set(_out ${PROJECT_BINARY_DIR}/schemata)
  file(GLOB_RECURSE _sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/acemq/*)
  file(GLOB _generator CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/mutation/*.py)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_sources} ${_generator})
  find_path(_pcg pcg_random.hpp REQUIRED)
  execute_process(
    COMMAND ${ACEMQ_RETRY_PYTHON} ${PROJECT_SOURCE_DIR}/mutation/schemata.py
      --src ${PROJECT_SOURCE_DIR}/src --out ${_out} --include ${_pcg}
    RESULT_VARIABLE _status OUTPUT_VARIABLE _said ERROR_VARIABLE _said)
  if(NOT _status EQUAL 0)
    message(FATAL_ERROR "mutation/schemata.py failed:\n${_said}")
  endif()
  string(STRIP "${_said}" _said)
  message(STATUS "${_said}")
  set(${out_var} ${_out}/src PARENT_SCOPE)
endfunction()
