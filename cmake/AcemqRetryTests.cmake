# How every test of this project is registered, so that none is quoted by
# hand and none misses its label: each suite's label (unit, properties,
# stats, nightly, conformance) is what `ctest -L` and the presets select by,
# and a test without one would silently run in no suite.

# acemq_retry_add_test(<name> LABELS <label>... COMMAND <command> <arg>...
#                      [NEEDS <program>...] [WORKING_DIRECTORY <dir>]
#                      [TIMEOUT <seconds>] [COST <seconds>]
#                      [FIXTURES_SETUP <f>...] [FIXTURES_REQUIRED <f>...]
#                      [ENVIRONMENT <VAR=value>...])
#
# NEEDS names programs found by find_program (ACEMQ_GO, ACEMQ_JAVAC, ...);
# when one is missing the test is still registered, and is reported as
# skipped naming it, so a machine without Go shows a skipped test instead of
# a suite that is quietly smaller. COST is the test's measured CPU seconds
# on the idle 2-core machine: CTest starts the costliest first, and
# scripts/harness adds them up against each label's budget (docs/measurements.md).
function(acemq_retry_add_test name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "WORKING_DIRECTORY;TIMEOUT;COST"
    "LABELS;COMMAND;NEEDS;FIXTURES_SETUP;FIXTURES_REQUIRED;ENVIRONMENT")
  if(NOT arg_LABELS)
    message(FATAL_ERROR "acemq_retry_add_test(${name}): LABELS is required")
  endif()
  if(NOT arg_COMMAND)
    message(FATAL_ERROR "acemq_retry_add_test(${name}): COMMAND is required")
  endif()
  set(_missing)
  foreach(_program IN LISTS arg_NEEDS)
    if(NOT ${_program})
      list(APPEND _missing ${_program})
    endif()
  endforeach()
  if(_missing)
    string(REPLACE ";" ", " _missing "${_missing}")
    add_test(NAME ${name} COMMAND ${CMAKE_COMMAND} -E echo
      "SKIPPED: ${_missing} not found on this machine (scripts/install-deps installs it)")
    set_tests_properties(${name} PROPERTIES LABELS "${arg_LABELS}"
      SKIP_REGULAR_EXPRESSION "SKIPPED: ")
    return()
  endif()
  if(arg_WORKING_DIRECTORY)
    add_test(NAME ${name} COMMAND ${arg_COMMAND} WORKING_DIRECTORY ${arg_WORKING_DIRECTORY})
  else()
    add_test(NAME ${name} COMMAND ${arg_COMMAND})
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${arg_LABELS}")
  # A hung adapter or a lost child must end in a failure, not a stalled CI.
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 600)
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${arg_TIMEOUT})
  if(arg_COST)
    set_tests_properties(${name} PROPERTIES COST ${arg_COST})
  endif()
  if(arg_FIXTURES_SETUP)
    set_tests_properties(${name} PROPERTIES FIXTURES_SETUP "${arg_FIXTURES_SETUP}")
  endif()
  if(arg_FIXTURES_REQUIRED)
    set_tests_properties(${name} PROPERTIES FIXTURES_REQUIRED "${arg_FIXTURES_REQUIRED}")
  endif()
  if(arg_ENVIRONMENT)
    set_tests_properties(${name} PROPERTIES ENVIRONMENT "${arg_ENVIRONMENT}")
  endif()
endfunction()

# acemq_retry_add_gtests(<target> LABELS <label>...): every test of a
# GoogleTest executable, one CTest test each, with its suite's label.
function(acemq_retry_add_gtests target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "TEST_LIST" "LABELS")
  if(NOT arg_LABELS)
    message(FATAL_ERROR "acemq_retry_add_gtests(${target}): LABELS is required")
  endif()
  set(_list ${target}_TESTS)
  if(arg_TEST_LIST)
    set(_list ${arg_TEST_LIST})
  endif()
  gtest_discover_tests(${target} PROPERTIES LABELS "${arg_LABELS}" DISCOVERY_TIMEOUT 60
    TEST_LIST ${_list})
endfunction()

# acemq_retry_shell_command(<out-var> <program> <arg>...): one /bin/sh
# command line with each word single-quoted, for the adapter commands that
# `retry-policy check --impl` and `stats --impl` run through the shell, so a
# path with a space or a quote in it is still one word.
function(acemq_retry_shell_command out_var)
  set(_words)
  foreach(_word IN LISTS ARGN)
    string(REPLACE "'" "'\\''" _word "${_word}")
    list(APPEND _words "'${_word}'")
  endforeach()
  list(JOIN _words " " _line)
  set(${out_var} "${_line}" PARENT_SCOPE)
endfunction()
