#===- AddKiln.cmake - Helpers to declare Kiln's targets ------------------===#
#
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# See LICENSE for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
#===----------------------------------------------------------------------===#
#
# Thin wrappers over AddLLVM so every Kiln target gets the same include paths,
# output directories and install rules (the shape BOLT and Polly use).
#
#===----------------------------------------------------------------------===#

include_guard(GLOBAL)

# kiln_sanitize(target)
#   Compiles and links \p target with the sanitizers of KILN_USE_SANITIZERS
#   (a list of Address and Undefined) and, in a fuzzer build, with libFuzzer's
#   coverage instrumentation. Undefined behaviour is not recovered from: the
#   first report ends the process, so that a test or a fuzzer sees it.
function(kiln_sanitize target)
  set(flags)
  foreach(sanitizer IN LISTS KILN_USE_SANITIZERS)
    if(sanitizer STREQUAL "Address")
      list(APPEND flags -fsanitize=address)
    elseif(sanitizer STREQUAL "Undefined")
      list(APPEND flags -fsanitize=undefined -fno-sanitize-recover=undefined)
    else()
      message(FATAL_ERROR "KILN_USE_SANITIZERS: unknown sanitizer "
        "'${sanitizer}' (valid: Address, Undefined)")
    endif()
  endforeach()
  if(NOT flags)
    return()
  endif()
  list(APPEND flags -fno-omit-frame-pointer)
  target_compile_options(${target} PRIVATE ${flags})
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "EXECUTABLE")
    target_link_options(${target} PRIVATE ${flags})
  endif()
  if(KILN_BUILD_FUZZERS)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()

# add_kiln_library(name [sources...] [LINK_COMPONENTS ...] [LINK_LIBS ...])
#   A static library of Kiln code. Links LLVM through libLLVM.so (the Debian
#   package is built with LLVM_LINK_LLVM_DYLIB), via LLVM_LINK_COMPONENTS.
#   Static Kiln libraries are internal and are not installed.
#
#   PLUGIN marks a library that the pass plugin links too. The plugin is
#   loaded into clang, opt and lld, which are not sanitized, so in a build
#   with KILN_USE_SANITIZERS such a library is also built unsanitized as
#   <name>Unsanitized (linking the Unsanitized twins of its LINK_LIBS), the
#   copy the plugin links: kiln_plugin_libraries() names it.
function(add_kiln_library name)
  cmake_parse_arguments(ARG "PLUGIN" "" "LINK_COMPONENTS;LINK_LIBS" ${ARGN})
  set(LLVM_LINK_COMPONENTS ${ARG_LINK_COMPONENTS})
  add_llvm_library(${name} STATIC BUILDTREE_ONLY ${ARG_UNPARSED_ARGUMENTS}
    LINK_LIBS ${ARG_LINK_LIBS})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>)
  kiln_sanitize(${name})
  if(ARG_PLUGIN AND KILN_USE_SANITIZERS)
    set(twin_libs ${ARG_LINK_LIBS})
    list(TRANSFORM twin_libs APPEND Unsanitized REGEX "^Kiln")
    add_llvm_library(${name}Unsanitized STATIC BUILDTREE_ONLY
      ${ARG_UNPARSED_ARGUMENTS} LINK_LIBS ${twin_libs})
    target_include_directories(${name}Unsanitized PUBLIC
      $<TARGET_PROPERTY:${name},INTERFACE_INCLUDE_DIRECTORIES>)
  endif()
endfunction()

# kiln_plugin_libraries(out names...)
#   Sets \p out to the copies of the Kiln libraries \p names (declared with
#   PLUGIN) that the pass plugin links: the unsanitized twins in a sanitized
#   build, the libraries themselves otherwise.
function(kiln_plugin_libraries out)
  set(libs ${ARGN})
  if(KILN_USE_SANITIZERS)
    list(TRANSFORM libs APPEND Unsanitized)
  endif()
  set(${out} ${libs} PARENT_SCOPE)
endfunction()

# add_kiln_tool(name [sources...] [LINK_COMPONENTS ...] [LINK_LIBS ...])
#   A user-facing executable, installed into bin/ and exported as Kiln::<name>.
function(add_kiln_tool name)
  cmake_parse_arguments(ARG "" "" "LINK_COMPONENTS;LINK_LIBS" ${ARGN})
  set(LLVM_LINK_COMPONENTS ${ARG_LINK_COMPONENTS})
  add_llvm_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  kiln_sanitize(${name})
  if(ARG_LINK_LIBS)
    target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS})
  endif()
  install(TARGETS ${name} EXPORT KilnTargets
    RUNTIME DESTINATION ${KILN_TOOLS_INSTALL_DIR} COMPONENT ${name})
  set_property(GLOBAL APPEND PROPERTY KILN_EXPORTED_TARGETS ${name})
endfunction()

# add_kiln_unittest(Suite name sources... [LINK_LIBS ...])
#   A GoogleTest binary <name> (which must end in "Tests", so that the lit
#   GoogleTest format in test/Unit finds it), built into
#   <build>/test/Unit/<Suite>/. Uses the system GoogleTest: Debian's LLVM
#   ships no llvm_gtest, so AddLLVM's add_unittest() cannot be used.
function(add_kiln_unittest suite name)
  cmake_parse_arguments(ARG "" "" "LINK_LIBS" ${ARGN})
  add_executable(${name} EXCLUDE_FROM_ALL ${ARG_UNPARSED_ARGUMENTS})
  llvm_update_compile_flags(${name})
  kiln_sanitize(${name})
  target_link_libraries(${name} PRIVATE KilnTestingSupport ${ARG_LINK_LIBS}
    GTest::gmock GTest::gtest_main LLVM)
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${KILN_UNITTEST_DIR}/${suite})
  add_dependencies(KilnUnitTests ${name})
endfunction()
