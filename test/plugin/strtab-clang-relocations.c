// With the plugin loaded (kiln-strtab is on by default; -mllvm -kiln-strtab
// says so explicitly), clang lowers the string tables of a PIC shared
// library in its default -O2 pipeline (before RelLookupTableConverter), so
// the tables' R_X86_64_RELATIVE relocations disappear.
// REQUIRES: x86_64-linux
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -fPIC -shared %s -o %t/plain.so
// The pass is on wherever the plugin is loaded; -kiln-strtab=false turns it
// off, and then the plugin changes nothing.
// RUN: %clang -O2 -fPIC -shared -fpass-plugin=%kiln_plugin -mllvm -kiln-strtab=false \
// RUN:   %s -o %t/off.so
// RUN: cmp %t/plain.so %t/off.so
// RUN: %clang -O2 -fPIC -shared -fpass-plugin=%kiln_plugin %s -o %t/default.so
// RUN: %clang -O2 -fPIC -shared -fpass-plugin=%kiln_plugin -mllvm -kiln-strtab \
// RUN:   -Rpass=kiln-strtab %s -o %t/lowered.so 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: llvm-readelf -r %t/plain.so | grep -c R_X86_64_RELATIVE > %t/plain.count
// RUN: llvm-readelf -r %t/lowered.so | grep -c R_X86_64_RELATIVE > %t/lowered.count
// RUN: %python -c "import sys; plain, lowered = (int(open(f).read()) for f in \
// RUN:   sys.argv[1:]); sys.exit(0 if plain - lowered == 8 else \
// RUN:   'expected 8 fewer relocations, got %%d -> %%d' %% (plain, lowered))" \
// RUN:   %t/plain.count %t/lowered.count
// RUN: cmp %t/default.so %t/lowered.so
//
// The same happens at ThinLTO pre-link (the module is still per TU).
// RUN: %clang -O2 -fPIC -flto=thin -fpass-plugin=%kiln_plugin -mllvm -kiln-strtab \
// RUN:   -Rpass=kiln-strtab -c %s -o %t/thin.o 2>&1 | FileCheck %s --check-prefix=REMARK

// REMARK-DAG: remark: string table errors lowered: 6 entries (5 strings)
// REMARK-DAG: remark: string table commands lowered: 3 entries (3 strings)

// Without Kiln, five non-null entries of errors and three names of commands
// each need an R_X86_64_RELATIVE; with it, none does (the C runtime's own
// relocations, counted in both, remain).

#include <stddef.h>

static const char *errors[] = {"no error", "on fire", "out of memory",
                               NULL,       "fire",    "no error"};

const char *error_message(unsigned code) {
  return code < sizeof(errors) / sizeof(errors[0]) ? errors[code] : "?";
}

struct command {
  const char *name;
  int id;
};

static const struct command commands[] = {{"run", 1}, {"stop", 2}, {"wait", 3}};

const char *command_name(int i) { return commands[i].name; }
int command_id(int i) { return commands[i].id; }
