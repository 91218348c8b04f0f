# The nightly statistics run as a CTest dashboard script, fully offline:
#
#   ctest -S stats/nightly/nightly.cmake                    # fresh seed, one machine
#   ctest -S stats/nightly/nightly.cmake -DSTATS_SEED=1234  # replay a night
#   ctest -S stats/nightly/nightly.cmake -DSTATS_N=30000000 -DSTATS_REPORT_DIR=/tmp/r
#   ctest -S stats/nightly/nightly.cmake -DCTEST_BINARY_DIRECTORY=/path/to/build
#
# A night over N machines (GitLab, Jenkins, any CI with a matrix; the GitHub
# Actions form is .github/workflows/nightly.yml), every step with the same
# STATS_SEED:
#
#   ctest -S stats/nightly/nightly.cmake -DSTATS_SEED=1234 -DSTATS_SHARD=K/N \
#         -DSTATS_STATE_FILE=shards/shard-K-of-N.state  # on runner K
#   ctest -S stats/nightly/nightly.cmake -DSTATS_MERGE=shards   # once all N are in
#
# It starts a Nightly dashboard, configures (Release, warnings as errors),
# builds stats_nightly and runs the `nightly` label: the whole night, one
# shard (which writes its state file instead of a report), or the merge
# (which reads the N state files and writes the night's verdict and report).
# There is no update step and no ctest_submit: nothing leaves the machine.
# CTest's own record lands in <build>/Testing/<tag>/ (Configure.xml,
# Build.xml, Test.xml); the report in STATS_REPORT_DIR, by default
# <build>/stats-report. The script fails when any step does.
cmake_minimum_required(VERSION 3.25)

get_filename_component(CTEST_SOURCE_DIRECTORY "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
if(NOT DEFINED CTEST_BINARY_DIRECTORY)
  set(CTEST_BINARY_DIRECTORY "${CTEST_SOURCE_DIRECTORY}/build/nightly")
endif()
set(CTEST_CMAKE_GENERATOR "Ninja")
set(CTEST_BUILD_CONFIGURATION "Release")
cmake_host_system_information(RESULT CTEST_SITE QUERY HOSTNAME)
set(CTEST_BUILD_NAME "acemq-retry-stats-nightly")
# Nightly tags are dated from this time; any fixed time will do offline.
set(CTEST_NIGHTLY_START_TIME "00:00:00 UTC")

# The run's knobs reach stats_nightly through the environment, which CTest
# passes on to the test. Relative paths are the caller's, not the test's.
foreach(knob STATS_SEED STATS_N STATS_REPORT_DIR STATS_JOBS STATS_SHARD STATS_STATE_FILE
        STATS_MERGE)
  if(DEFINED ${knob})
    set(value "${${knob}}")
    if(knob MATCHES "_(DIR|FILE)$|MERGE$" AND NOT IS_ABSOLUTE "${value}")
      get_filename_component(value "${value}" ABSOLUTE BASE_DIR "$ENV{PWD}")
    endif()
    set(ENV{${knob}} "${value}")
  endif()
endforeach()

ctest_start(Nightly)
ctest_configure(
  OPTIONS "-DCMAKE_BUILD_TYPE=Release;-DCMAKE_COMPILE_WARNING_AS_ERROR=ON;-DACEMQ_RETRY_BUILD_BENCH=OFF"
  RETURN_VALUE configure_result)
if(NOT configure_result EQUAL 0)
  message(FATAL_ERROR "nightly: configure failed (${configure_result})")
endif()

# Only what the nightly label runs: the other suites are per-commit work.
# The label also holds `retry-policy stats --quick` on every port's own
# source (conformance/CMakeLists.txt), so the tool is built too.
foreach(target stats_nightly retry-policy)
  ctest_build(TARGET ${target} PARALLEL_LEVEL 2
    NUMBER_ERRORS build_errors RETURN_VALUE build_result)
  if(NOT build_result EQUAL 0 OR build_errors GREATER 0)
    message(FATAL_ERROR "nightly: build of ${target} failed (${build_errors} errors)")
  endif()
endforeach()

# A shard draws, and a merge judges, the battery's cells only: the ports'
# runs are the whole night's once, not every shard's.
if(DEFINED ENV{STATS_SHARD} OR DEFINED ENV{STATS_MERGE})
  ctest_test(INCLUDE "^stats\\.nightly$" RETURN_VALUE test_result)
else()
  ctest_test(INCLUDE_LABEL "^nightly$" RETURN_VALUE test_result)
endif()

# CTest keeps the test's output (seed first, progress after) in
# Testing/Temporary/LastTest_<tag>.log; the seed is repeated here so that a
# failing night can be replayed from this script's output.
if(DEFINED ENV{STATS_SHARD})
  if(NOT test_result EQUAL 0)
    message(FATAL_ERROR "nightly: shard $ENV{STATS_SHARD} FAILED to draw; its log is "
      "${CTEST_BINARY_DIRECTORY}/Testing/Temporary/LastTest_*.log")
  endif()
  message("nightly: shard $ENV{STATS_SHARD} of seed $ENV{STATS_SEED} drawn; merge the shards' "
    "state files with ctest -S stats/nightly/nightly.cmake -DSTATS_MERGE=<their directory>")
  return()
endif()
if(DEFINED ENV{STATS_REPORT_DIR})
  set(report_dir "$ENV{STATS_REPORT_DIR}")
else()
  set(report_dir "${CTEST_BINARY_DIRECTORY}/stats-report")
endif()
set(seed "<see the first line of Testing/Temporary/LastTest_*.log>")
set(replay "")
if(EXISTS "${report_dir}/results.json")
  file(READ "${report_dir}/results.json" results)
  string(JSON seed ERROR_VARIABLE json_error GET "${results}" seed)
  string(JSON replay ERROR_VARIABLE json_error GET "${results}" replay)
endif()
if(NOT test_result EQUAL 0)
  message(FATAL_ERROR "nightly: FAILED with seed ${seed}; replay with ${replay} "
    "(or ctest -S stats/nightly/nightly.cmake -DSTATS_SEED=${seed}); report: ${report_dir}/summary.md")
endif()
message("nightly: passed, seed ${seed}; report: ${report_dir}/summary.md")
