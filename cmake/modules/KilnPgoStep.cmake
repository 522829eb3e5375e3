#===- KilnPgoStep.cmake - What kiln_pgo()'s step scripts run -------------===#
#
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Included by the scripts kiln_pgo() (KilnPgo.cmake) writes for each step
# and runs with `cmake -P`; they set `kiln` (the tool) and `workspace` first.
# Each step stops at the first command that fails, naming it.
#
#===----------------------------------------------------------------------===#

# kiln_pgo_run(<what> <command>...)
#   Runs the command; its failure stops the step with <what> named.
function(kiln_pgo_run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "kiln_pgo: ${what} failed (exit status ${status})")
  endif()
endfunction()

# kiln_pgo_program(<out> <binary dir> <program> <second build dir>)
#   Sets <out> to where the second build links <program>, which this build
#   links in <binary dir>.
function(kiln_pgo_program out binary_dir program second_build)
  file(RELATIVE_PATH relative "${binary_dir}" "${program}")
  if(relative MATCHES "^\\.\\./" OR IS_ABSOLUTE "${relative}")
    message(FATAL_ERROR "kiln_pgo: ${program} is outside the build tree "
      "(${binary_dir}), so the second build would link the same file; "
      "leave RUNTIME_OUTPUT_DIRECTORY inside the build tree")
  endif()
  set(${out} "${second_build}/${relative}" PARENT_SCOPE)
endfunction()

# kiln_pgo_train(<scenario> <directory> <input or ""> <command>...)
#   One training run: kiln pgo run --scenario=<scenario> -- <command>, in
#   <directory>, with <input> as its standard input if given.
function(kiln_pgo_train scenario directory input)
  file(MAKE_DIRECTORY "${directory}")
  set(run "${kiln}" pgo run "--workspace=${workspace}"
    "--scenario=${scenario}" -- ${ARGN})
  if(input STREQUAL "")
    execute_process(COMMAND ${run} WORKING_DIRECTORY "${directory}"
      RESULT_VARIABLE status)
  else()
    execute_process(COMMAND ${run} WORKING_DIRECTORY "${directory}"
      INPUT_FILE "${input}" RESULT_VARIABLE status)
  endif()
  if(NOT status EQUAL 0)
    string(REPLACE ";" " " words "${ARGN}")
    message(FATAL_ERROR "kiln_pgo: training run of scenario '${scenario}' "
      "failed (exit status ${status}): ${words}")
  endif()
endfunction()

# kiln_pgo_copy_program(<program> <directory>)
#   Copies the optimized program to <directory>, its documented place.
function(kiln_pgo_copy_program program directory)
  if(NOT EXISTS "${program}")
    message(FATAL_ERROR "kiln_pgo: the optimized build did not link "
      "${program}")
  endif()
  file(COPY "${program}" DESTINATION "${directory}")
  get_filename_component(name "${program}" NAME)
  message(STATUS "kiln_pgo: the optimized program is ${directory}/${name}")
endfunction()
