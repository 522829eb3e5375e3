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

# add_kiln_library(name [sources...] [LINK_COMPONENTS ...] [LINK_LIBS ...])
#   A static library of Kiln code. Links LLVM through libLLVM.so (the Debian
#   package is built with LLVM_LINK_LLVM_DYLIB), via LLVM_LINK_COMPONENTS.
#   Static Kiln libraries are internal and are not installed.
function(add_kiln_library name)
  cmake_parse_arguments(ARG "" "" "LINK_COMPONENTS;LINK_LIBS" ${ARGN})
  set(LLVM_LINK_COMPONENTS ${ARG_LINK_COMPONENTS})
  add_llvm_library(${name} STATIC BUILDTREE_ONLY ${ARG_UNPARSED_ARGUMENTS}
    LINK_LIBS ${ARG_LINK_LIBS})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>)
endfunction()

# add_kiln_tool(name [sources...] [LINK_COMPONENTS ...] [LINK_LIBS ...])
#   A user-facing executable, installed into bin/ and exported as Kiln::<name>.
function(add_kiln_tool name)
  cmake_parse_arguments(ARG "" "" "LINK_COMPONENTS;LINK_LIBS" ${ARGN})
  set(LLVM_LINK_COMPONENTS ${ARG_LINK_COMPONENTS})
  add_llvm_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
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
  target_link_libraries(${name} PRIVATE KilnTestingSupport ${ARG_LINK_LIBS}
    GTest::gmock GTest::gtest_main LLVM)
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${KILN_UNITTEST_DIR}/${suite})
  add_dependencies(KilnUnitTests ${name})
endfunction()
