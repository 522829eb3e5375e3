//===- kiln/Layout/LayoutAlgorithmOption.h - Algorithm values ---*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The cl::values of an option that names an OrderAlgorithm, generated from
/// the registry (LayoutAlgorithms.def), so that `kiln order --algorithm=`
/// and the plugin's -kiln-layout-algorithm= offer every algorithm with the
/// registry's names and help texts, and nothing else.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_LAYOUTALGORITHMOPTION_H
#define KILN_LAYOUT_LAYOUTALGORITHMOPTION_H

#include "kiln/Layout/LayoutAlgorithm.h"

#include "llvm/Support/CommandLine.h"

namespace kiln::layout {

/// \returns the values for a `cl::opt<OrderAlgorithm>`.
inline llvm::cl::ValuesClass getOrderAlgorithmValues() {
  return llvm::cl::ValuesClass({
#define LAYOUT_ALGORITHM(Enum, Name, Description)                              \
  llvm::cl::OptionEnumValue{Name, int(OrderAlgorithm::Enum), Description},
#include "kiln/Layout/LayoutAlgorithms.def"
  });
}

} // namespace kiln::layout

#endif // KILN_LAYOUT_LAYOUTALGORITHMOPTION_H
