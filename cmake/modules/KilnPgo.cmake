#===- KilnPgo.cmake - kiln_pgo(): the guided flow for a CMake target -----===#
#
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Shipped with Kiln's CMake package and included by KilnConfig.cmake, so that
# a project that calls find_package(Kiln CONFIG) gets kiln_pgo():
#
#   kiln_pgo(TARGET <executable>
#            [BUILD_DIR <dir>]
#            [CMAKE_ARGS <arg>...]
#            [OPTIMIZE_OPTIONS <kiln pgo optimize option>...]
#            SCENARIO <name> COMMAND <program> <arg>... [COMMAND ...]
#                     [WORKING_DIRECTORY <dir>] [INPUT <file>]
#            [SCENARIO ...])
#
# It adds targets that drive `kiln pgo` (docs/CommandGuide/kiln-pgo.rst) on a
# second build of the same source tree, in <dir>/build: the compiler has to
# be Kiln's wrapper when that build is configured, which only a build
# configured under `kiln pgo instrument` has.
#
#   <target>-kiln-instrument  kiln pgo instrument: configure and build the
#                             target in <dir>/build
#   <target>-kiln-train       kiln pgo run, for each COMMAND of each SCENARIO
#   <target>-kiln-optimize    kiln pgo optimize: build the target again with
#                             the profiles, and copy the program to
#                             <dir>/<file name of the target>
#   <target>-kiln-status      kiln pgo status
#   <target>-kiln-pgo         the three steps, in order
#
# None is part of `all`. <dir> defaults to <build>/kiln-pgo/<target>; the
# workspace is <dir>/workspace. A COMMAND whose first word is the target's
# name runs the second build's program; other words are passed as they are
# (generator expressions are evaluated). WORKING_DIRECTORY defaults to
# <dir>; INPUT is the command's standard input (a file, so that the
# context-sensitive step of optimize can replay it), relative to the
# current source directory.
#
# The flow is ELF's (Linux, with clang and lld): elsewhere kiln_pgo() stops
# the configure with a message saying what is not supported.
#
#===----------------------------------------------------------------------===#

include_guard(GLOBAL)

# The directory of this file, for the step script.
set(_KILN_PGO_MODULE_DIR "${CMAKE_CURRENT_LIST_DIR}")

# Appends \p args to the variable \p out as bracket arguments, so that no
# character of theirs (quotes, semicolons, `$`) changes in the script.
function(_kiln_pgo_quote out)
  set(text "")
  foreach(arg IN LISTS ARGN)
    string(APPEND text " [==[${arg}]==]")
  endforeach()
  set(${out} "${${out}}${text}" PARENT_SCOPE)
endfunction()

# Stops the configure unless kiln_pgo() can run the flow for \p target.
function(_kiln_pgo_check_platform target)
  if(NOT CMAKE_EXECUTABLE_FORMAT STREQUAL "ELF" OR
     NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
    if(CMAKE_EXECUTABLE_FORMAT STREQUAL "MACHO" OR APPLE)
      set(what "Mach-O (${CMAKE_SYSTEM_NAME})")
    elseif(CMAKE_EXECUTABLE_FORMAT STREQUAL "PE" OR WIN32)
      set(what "COFF (${CMAKE_SYSTEM_NAME})")
    else()
      set(what "${CMAKE_SYSTEM_NAME} (executable format '${CMAKE_EXECUTABLE_FORMAT}')")
    endif()
    message(FATAL_ERROR "kiln_pgo(TARGET ${target}): the guided flow "
      "supports ELF programs on Linux only; ${what} is not supported. Use "
      "kiln-lld (kiln-lld-link, kiln-ld64.lld) with --kiln-profile= there, "
      "as docs/UsersGuide.rst says")
  endif()
  get_property(multi GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi)
    message(FATAL_ERROR "kiln_pgo(TARGET ${target}): the generator "
      "'${CMAKE_GENERATOR}' is multi-config, which kiln_pgo() does not "
      "support; configure with a single-config generator (Ninja, Unix "
      "Makefiles)")
  endif()
endfunction()

# Parses kiln_pgo()'s arguments into the caller's variables: target,
# build_dir, cmake_args, optimize_options, scenarios (names), and for each
# scenario <name>: scenario_<name>_commands (how many),
# scenario_<name>_command_<i>, scenario_<name>_dir, scenario_<name>_input.
macro(_kiln_pgo_parse)
  set(target "")
  set(build_dir "")
  set(cmake_args "")
  set(optimize_options "")
  set(scenarios "")
  set(_keywords TARGET BUILD_DIR CMAKE_ARGS OPTIMIZE_OPTIONS SCENARIO COMMAND
    WORKING_DIRECTORY INPUT)
  set(_state "")
  set(_scenario "")
  foreach(_arg IN ITEMS ${ARGN})
    if(_arg IN_LIST _keywords)
      if(_state MATCHES "^(TARGET|BUILD_DIR|WORKING_DIRECTORY|INPUT|SCENARIO)$")
        message(FATAL_ERROR "kiln_pgo: ${_state} needs a value before ${_arg}")
      endif()
      if(_arg MATCHES "^(COMMAND|WORKING_DIRECTORY|INPUT)$" AND
         _scenario STREQUAL "")
        message(FATAL_ERROR "kiln_pgo: ${_arg} belongs to a SCENARIO; "
          "write SCENARIO <name> before it")
      endif()
      if(_arg STREQUAL "COMMAND")
        math(EXPR _n "${scenario_${_scenario}_commands} + 1")
        set(scenario_${_scenario}_commands ${_n})
        set(scenario_${_scenario}_command_${_n} "")
        set(_state "COMMAND_FIRST")
      else()
        set(_state "${_arg}")
      endif()
      continue()
    endif()
    if(_state STREQUAL "TARGET")
      set(target "${_arg}")
      set(_state "")
    elseif(_state STREQUAL "BUILD_DIR")
      get_filename_component(build_dir "${_arg}" ABSOLUTE
        BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
      set(_state "")
    elseif(_state STREQUAL "CMAKE_ARGS")
      list(APPEND cmake_args "${_arg}")
    elseif(_state STREQUAL "OPTIMIZE_OPTIONS")
      list(APPEND optimize_options "${_arg}")
    elseif(_state STREQUAL "SCENARIO")
      if(NOT _arg MATCHES "^[A-Za-z0-9_-][A-Za-z0-9_.-]*$")
        message(FATAL_ERROR "kiln_pgo: '${_arg}' is not a scenario name "
          "(letters, digits, '-', '_' and '.', not starting with '.')")
      endif()
      if(_arg IN_LIST scenarios)
        message(FATAL_ERROR "kiln_pgo: scenario '${_arg}' is given twice; "
          "give one SCENARIO several COMMANDs")
      endif()
      set(_scenario "${_arg}")
      list(APPEND scenarios "${_arg}")
      set(scenario_${_scenario}_commands 0)
      set(scenario_${_scenario}_dir "")
      set(scenario_${_scenario}_input "")
      set(_state "")
    elseif(_state STREQUAL "WORKING_DIRECTORY")
      get_filename_component(scenario_${_scenario}_dir "${_arg}" ABSOLUTE
        BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
      set(_state "")
    elseif(_state STREQUAL "INPUT")
      get_filename_component(scenario_${_scenario}_input "${_arg}" ABSOLUTE
        BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      set(_state "")
    elseif(_state MATCHES "^COMMAND")
      # The command's words, as a list (a word cannot hold a semicolon).
      set(_n ${scenario_${_scenario}_commands})
      if(_state STREQUAL "COMMAND_FIRST")
        set(scenario_${_scenario}_command_${_n} "${_arg}")
        set(_state "COMMAND")
      else()
        list(APPEND scenario_${_scenario}_command_${_n} "${_arg}")
      endif()
    else()
      message(FATAL_ERROR "kiln_pgo: unknown argument '${_arg}' (the keywords "
        "are TARGET, BUILD_DIR, CMAKE_ARGS, OPTIMIZE_OPTIONS, SCENARIO, "
        "COMMAND, WORKING_DIRECTORY and INPUT)")
    endif()
  endforeach()
  if(_state MATCHES "^(TARGET|BUILD_DIR|WORKING_DIRECTORY|INPUT|SCENARIO)$")
    message(FATAL_ERROR "kiln_pgo: ${_state} needs a value")
  endif()
  if(_state STREQUAL "COMMAND_FIRST")
    message(FATAL_ERROR "kiln_pgo: scenario '${_scenario}': COMMAND needs "
      "a program to run")
  endif()
endmacro()

# kiln_pgo(TARGET <executable> SCENARIO <name> COMMAND ... ...): see the
# file comment.
function(kiln_pgo)
  # The second build configures this project again: there kiln_pgo() adds
  # nothing.
  if(KILN_PGO_SECOND_BUILD)
    return()
  endif()
  _kiln_pgo_parse(${ARGN})
  if(target STREQUAL "")
    message(FATAL_ERROR "kiln_pgo: TARGET <executable> is missing")
  endif()
  if(NOT TARGET "${target}")
    message(FATAL_ERROR "kiln_pgo(TARGET ${target}): no target of that "
      "name (declare it with add_executable before kiln_pgo)")
  endif()
  get_target_property(type "${target}" TYPE)
  get_target_property(imported "${target}" IMPORTED)
  if(NOT type STREQUAL "EXECUTABLE" OR imported)
    message(FATAL_ERROR "kiln_pgo(TARGET ${target}): not an executable "
      "this project builds (its type is ${type}); the flow trains and "
      "optimizes a program")
  endif()
  if(NOT scenarios)
    message(FATAL_ERROR "kiln_pgo(TARGET ${target}): no SCENARIO; add "
      "SCENARIO startup COMMAND ${target} <args> (and steady-state ones)")
  endif()
  foreach(s IN LISTS scenarios)
    if(scenario_${s}_commands EQUAL 0)
      message(FATAL_ERROR "kiln_pgo(TARGET ${target}): scenario '${s}' has "
        "no COMMAND")
    endif()
    if(NOT scenario_${s}_input STREQUAL "" AND
       NOT EXISTS "${scenario_${s}_input}")
      message(FATAL_ERROR "kiln_pgo(TARGET ${target}): scenario '${s}': "
        "INPUT ${scenario_${s}_input} does not exist")
    endif()
  endforeach()
  foreach(arg IN LISTS cmake_args)
    if(arg MATCHES "^-DCMAKE_(C|CXX)_COMPILER(:[A-Z]+)?=")
      message(FATAL_ERROR "kiln_pgo(TARGET ${target}): CMAKE_ARGS may not "
        "set the compiler (${arg}): the second build's compiler is Kiln's "
        "wrapper, which runs LLVM's clang")
    endif()
  endforeach()
  _kiln_pgo_check_platform("${target}")
  if(NOT TARGET Kiln::kiln)
    message(FATAL_ERROR "kiln_pgo: Kiln::kiln is not defined; call "
      "find_package(Kiln CONFIG REQUIRED) first")
  endif()
  if(build_dir STREQUAL "")
    set(build_dir "${CMAKE_BINARY_DIR}/kiln-pgo/${target}")
  endif()
  set(second_build "${build_dir}/build")
  set(workspace "${build_dir}/workspace")

  # One script per step, written at generate time so that generator
  # expressions (the program's path, Kiln::kiln's) are evaluated.
  set(prologue "# Written by kiln_pgo(TARGET ${target}); do not edit.\n")
  _kiln_pgo_quote(kiln "$<TARGET_FILE:Kiln::kiln>")
  string(APPEND prologue "set(kiln${kiln})\n")
  string(APPEND prologue "set(workspace [==[${workspace}]==])\n")
  string(APPEND prologue
    "include([==[${_KILN_PGO_MODULE_DIR}/KilnPgoStep.cmake]==])\n")
  # Where the second build puts the program: where this build does, under
  # the second build's directory.
  string(APPEND prologue "kiln_pgo_program(program\n"
    "  [==[${CMAKE_BINARY_DIR}]==] [==[$<TARGET_FILE:${target}>]==]\n"
    "  [==[${second_build}]==])\n")

  set(configure "${CMAKE_COMMAND}" -S "${CMAKE_SOURCE_DIR}"
    -B "${second_build}" -G "${CMAKE_GENERATOR}"
    "-DKILN_PGO_SECOND_BUILD=ON" "-DKiln_DIR=${Kiln_DIR}")
  if(CMAKE_MAKE_PROGRAM)
    list(APPEND configure "-DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}")
  endif()
  if(CMAKE_BUILD_TYPE)
    list(APPEND configure "-DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}")
  endif()
  list(APPEND configure ${cmake_args})
  set(build_script "${prologue}kiln_pgo_run(\"configure the second build\"")
  _kiln_pgo_quote(build_script ${configure})
  string(APPEND build_script ")\nkiln_pgo_run(\"build ${target}\"")
  _kiln_pgo_quote(build_script "${CMAKE_COMMAND}" --build "${second_build}"
    --target "${target}")
  string(APPEND build_script ")\n")
  file(GENERATE OUTPUT "${build_dir}/build.cmake" CONTENT "${build_script}")

  set(instrument "${prologue}kiln_pgo_run(\"kiln pgo instrument\"\n ${kiln}")
  _kiln_pgo_quote(instrument pgo instrument "--workspace=${workspace}" --
    "${CMAKE_COMMAND}" -P "${build_dir}/build.cmake")
  string(APPEND instrument ")\n")
  file(GENERATE OUTPUT "${build_dir}/instrument.cmake"
    CONTENT "${instrument}")

  set(train "${prologue}")
  foreach(s IN LISTS scenarios)
    set(dir "${scenario_${s}_dir}")
    if(dir STREQUAL "")
      set(dir "${build_dir}")
    endif()
    foreach(i RANGE 1 ${scenario_${s}_commands})
      set(words ${scenario_${s}_command_${i}})
      list(GET words 0 first)
      list(REMOVE_AT words 0)
      string(APPEND train "kiln_pgo_train([==[${s}]==] [==[${dir}]==] "
        "[==[${scenario_${s}_input}]==]")
      if(first STREQUAL target)
        string(APPEND train " \${program}")
      else()
        _kiln_pgo_quote(train "${first}")
      endif()
      _kiln_pgo_quote(train ${words})
      string(APPEND train ")\n")
    endforeach()
  endforeach()
  file(GENERATE OUTPUT "${build_dir}/train.cmake" CONTENT "${train}")

  set(optimize "${prologue}kiln_pgo_run(\"kiln pgo optimize\"\n ${kiln}")
  _kiln_pgo_quote(optimize pgo optimize "--workspace=${workspace}"
    ${optimize_options} -- "${CMAKE_COMMAND}" -P "${build_dir}/build.cmake")
  string(APPEND optimize ")\nkiln_pgo_copy_program(\${program} "
    "[==[${build_dir}]==])\n")
  file(GENERATE OUTPUT "${build_dir}/optimize.cmake" CONTENT "${optimize}")

  set(status "${prologue}kiln_pgo_run(\"kiln pgo status\"\n ${kiln}")
  _kiln_pgo_quote(status pgo status "--workspace=${workspace}")
  string(APPEND status ")\n")
  file(GENERATE OUTPUT "${build_dir}/status.cmake" CONTENT "${status}")

  # The steps run in this build's directory, not in <dir>: kiln prints the
  # paths of a workspace whose directory is not the current one in full,
  # which is what a user running `cmake --build` here can follow (and its
  # next-step hints name that workspace).
  foreach(step instrument train optimize status)
    add_custom_target(${target}-kiln-${step}
      COMMAND "${CMAKE_COMMAND}" -P "${build_dir}/${step}.cmake"
      WORKING_DIRECTORY "${CMAKE_BINARY_DIR}"
      COMMENT "kiln_pgo(${target}): ${step}"
      USES_TERMINAL VERBATIM)
  endforeach()
  add_custom_target(${target}-kiln-pgo
    COMMAND "${CMAKE_COMMAND}" -P "${build_dir}/instrument.cmake"
    COMMAND "${CMAKE_COMMAND}" -P "${build_dir}/train.cmake"
    COMMAND "${CMAKE_COMMAND}" -P "${build_dir}/optimize.cmake"
    WORKING_DIRECTORY "${CMAKE_BINARY_DIR}"
    COMMENT "kiln_pgo(${target}): instrument, train, optimize"
    USES_TERMINAL VERBATIM)
  set_target_properties(${target}-kiln-pgo ${target}-kiln-optimize PROPERTIES
    KILN_PGO_PROGRAM "${build_dir}/$<TARGET_FILE_NAME:${target}>")
endfunction()
