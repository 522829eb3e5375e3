# -*- Python -*-
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""lit configuration for Kiln's tests (the logic; paths come from the site file).

Every artifact has one substitution, so no test spells a path:
  %kiln_plugin   the pass-plugin module (KilnPlugin-<major>.so)
  kiln           the command-line tool
  kiln-lld       lld with Kiln loaded
and every LLVM tool is resolved from LLVM 22's bin directory, never from PATH.
"""

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import FindTool, ToolSubst

config.name = "Kiln"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".ll", ".c", ".cpp", ".s", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "README.txt", "Unit", "unittests",
                   "fuzz"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kiln_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
# Tests must not pick up a plugin path from the developer's environment.
config.environment.pop("KILN_PLUGIN", None)

# Target features (x86-registered-target, ...) from llvm-config.
llvm_config.feature_config([("--targets-built", lambda s: [
    t.lower() + "-registered-target" for t in s.split()])])
if config.host_triple.startswith("x86_64") and "linux" in config.host_triple:
    config.available_features.add("x86_64-linux")

config.substitutions.append(("%kiln_plugin", config.kiln_plugin))

# Another LLVM's opt, when the machine has one (Debian's llvm-14 from an older
# toolchain), to check that a host of another version refuses the plugin.
for other_major in ("14", "15", "16", "17", "18", "19", "20", "21"):
    other_opt = "/usr/lib/llvm-%s/bin/opt" % other_major
    if os.path.exists(other_opt):
        config.available_features.add("other-llvm-opt")
        config.substitutions.append(("%other_llvm_opt", other_opt))
        config.substitutions.append(
            ("%other_llvm_clang", os.path.join(os.path.dirname(other_opt), "clang")))
        break
config.substitutions.append(("%kiln_src_root", config.kiln_src_root))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append(("%kiln_obj_root", config.kiln_obj_root))
config.substitutions.append(("%kiln_bin_dir", config.kiln_tools_dir))
config.substitutions.append(("%cmake_c_compiler", config.cmake_c_compiler))
config.substitutions.append(("%cmake", config.cmake_executable))

kiln_tools = [
    # Not inside kiln-lld, -kiln-option or a path.
    ToolSubst("kiln", pre="-./", post="-."),
]
if config.kiln_build_lld_driver:
    config.available_features.add("kiln-lld")
    kiln_tools.append(ToolSubst("kiln-lld", pre="-./", post="-."))
llvm_config.add_tool_substitutions(kiln_tools, [config.kiln_tools_dir])

# A headless browser for the test that renders kiln report's page.
chromium = shutil.which("chromium")
if chromium:
    config.available_features.add("chromium")
    config.substitutions.append(("%chromium", chromium))

# valgrind's callgrind and BOLT's instrumentation, for the block profile
# tests that run a program under them.
valgrind = shutil.which("valgrind")
if valgrind:
    config.available_features.add("valgrind")
    config.substitutions.append(("%valgrind", valgrind))
llvm_bolt = os.path.join(config.llvm_tools_dir, "llvm-bolt")
if os.path.exists(llvm_bolt):
    config.available_features.add("llvm-bolt")
    config.substitutions.append(("%llvm_bolt", llvm_bolt))

llvm_tools = [
    ToolSubst("%clang", FindTool("clang"), unresolved="fatal"),
    ToolSubst("%clangxx", FindTool("clang++"), unresolved="fatal"),
    ToolSubst("opt", unresolved="fatal"),
    ToolSubst("ld.lld", unresolved="fatal"),
    ToolSubst("lld-link", unresolved="fatal"),
    ToolSubst("ld64.lld", unresolved="fatal"),
    ToolSubst("split-file", unresolved="fatal"),
    ToolSubst("llvm-as", unresolved="fatal"),
    ToolSubst("llvm-ar", unresolved="fatal"),
    ToolSubst("llvm-dis", unresolved="fatal"),
    ToolSubst("llvm-dwarfdump", unresolved="fatal"),
    ToolSubst("llvm-mc", unresolved="fatal"),
    ToolSubst("llvm-nm", unresolved="fatal"),
    ToolSubst("llvm-objdump", unresolved="fatal"),
    ToolSubst("llvm-readobj", unresolved="fatal"),
    ToolSubst("llvm-readelf", unresolved="fatal"),
    ToolSubst("llvm-symbolizer", unresolved="fatal"),
    ToolSubst("llvm-profdata", unresolved="fatal"),
    ToolSubst("yaml2obj", unresolved="fatal"),
]
llvm_config.add_tool_substitutions(llvm_tools, [config.llvm_tools_dir])
