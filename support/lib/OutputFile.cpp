//===- OutputFile.cpp - Outputs that never destroy inputs -----------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

using namespace llvm;

static Error fileError(StringRef Path, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           (Path + ": " + Message).str());
}

static Error fileError(StringRef Path, std::error_code EC) {
  return fileError(Path, EC.message());
}

namespace {
/// What identifies a file: its device and inode if it exists, otherwise its
/// absolute path with symbolic links of the existing directories resolved.
struct FileIdentity {
  std::optional<sys::fs::UniqueID> ID;
  std::string ResolvedPath;
  bool IsRegularOrAbsent = true;

  bool operator==(const FileIdentity &Other) const {
    if (ID && Other.ID)
      return *ID == *Other.ID;
    if (ID || Other.ID)
      return false;
    return ResolvedPath == Other.ResolvedPath;
  }
};
} // namespace

static FileIdentity identify(StringRef Path) {
  FileIdentity Identity;
  sys::fs::file_status Status;
  if (!sys::fs::status(Path, Status)) {
    Identity.ID = Status.getUniqueID();
    Identity.IsRegularOrAbsent =
        Status.type() == sys::fs::file_type::regular_file;
    return Identity;
  }
  SmallString<256> Absolute(Path);
  sys::fs::make_absolute(Absolute);
  SmallString<256> Parent(sys::path::parent_path(Absolute));
  SmallString<256> RealParent;
  if (!Parent.empty() && !sys::fs::real_path(Parent, RealParent)) {
    sys::path::append(RealParent, sys::path::filename(Absolute));
    Identity.ResolvedPath = RealParent.str().str();
  } else {
    sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    Identity.ResolvedPath = Absolute.str().str();
  }
  return Identity;
}

static bool isChecked(StringRef Path) { return !Path.empty() && Path != "-"; }

Error kiln::checkOutputPaths(ArrayRef<NamedFile> Outputs,
                             ArrayRef<NamedFile> Inputs) {
  std::vector<FileIdentity> InputIDs;
  InputIDs.reserve(Inputs.size());
  for (const NamedFile &In : Inputs)
    InputIDs.push_back(isChecked(In.Path) ? identify(In.Path) : FileIdentity());
  std::vector<FileIdentity> OutputIDs;
  for (size_t O = 0; O < Outputs.size(); ++O) {
    const NamedFile &Out = Outputs[O];
    OutputIDs.push_back(identify(Out.Path));
    // Writing a device or a FIFO replaces nothing.
    if (!isChecked(Out.Path) || !OutputIDs[O].IsRegularOrAbsent)
      continue;
    for (size_t I = 0; I < Inputs.size(); ++I)
      if (isChecked(Inputs[I].Path) && OutputIDs[O] == InputIDs[I])
        return fileError(Out.Path, Out.Role +
                                       " would overwrite an input of this "
                                       "command (" +
                                       Inputs[I].Role + ")");
    for (size_t P = 0; P < O; ++P)
      if (isChecked(Outputs[P].Path) && OutputIDs[O] == OutputIDs[P])
        return fileError(Out.Path, Outputs[P].Role + " and " + Out.Role +
                                       " name the same file");
  }
  return Error::success();
}

Expected<std::unique_ptr<kiln::OutputFile>>
kiln::OutputFile::create(StringRef Path, sys::fs::OpenFlags Flags) {
  std::unique_ptr<OutputFile> File(new OutputFile(Path));
  if (Path == "-") {
    File->Path = "<stdout>";
    File->OS = &outs();
    return std::move(File);
  }
  std::error_code EC;
  sys::fs::file_status Status;
  if (!sys::fs::status(Path, Status) &&
      Status.type() != sys::fs::file_type::regular_file &&
      Status.type() != sys::fs::file_type::directory_file) {
    // A device or a FIFO cannot be replaced: write it in place.
    File->Owned = std::make_unique<raw_fd_ostream>(Path, EC, Flags);
    if (EC) {
      File->Owned->clear_error();
      File->Owned.reset();
      return fileError(Path, EC);
    }
    File->OS = File->Owned.get();
    return std::move(File);
  }
  // Write the file its symbolic link names, not over the link.
  SmallString<256> Target(Path);
  if (sys::fs::is_symlink_file(Path))
    sys::fs::real_path(Path, Target);
  // Next to the output, so that the rename stays within one file system
  // (FileOutputBuffer names its temporaries the same way).
  Expected<sys::fs::TempFile> Temp = sys::fs::TempFile::create(
      Target + ".tmp%%%%%%%", sys::fs::all_read | sys::fs::all_write, Flags);
  if (!Temp)
    return fileError(Path, toString(Temp.takeError()));
  File->Temp.emplace(std::move(*Temp));
  File->Owned =
      std::make_unique<raw_fd_ostream>(File->Temp->FD, /*shouldClose=*/false);
  File->OS = File->Owned.get();
  return std::move(File);
}

StringRef kiln::OutputFile::pathToWrite() const {
  if (Temp)
    return Temp->TmpName;
  return OS == &outs() ? StringRef("-") : StringRef(Path);
}

void kiln::OutputFile::discard() {
  // The temporary's descriptor belongs to Temp: only flush its stream.
  if (Owned && !Temp)
    Owned->close();
  else if (OS)
    OS->flush();
  if (OS)
    OS->clear_error();
  Owned.reset();
  OS = nullptr;
  if (Temp) {
    consumeError(Temp->discard());
    Temp.reset();
  }
  Done = true;
}

kiln::OutputFile::~OutputFile() {
  if (!Done)
    discard();
}

Error kiln::OutputFile::commit() {
  assert(!Done && "OutputFile committed twice");
  // Closing an owned stream also reports a failed close of a device; the
  // temporary's descriptor belongs to Temp, so only flush it.
  if (Owned && !Temp)
    Owned->close();
  else
    OS->flush();
  if (OS->has_error()) {
    std::error_code EC = OS->error();
    discard();
    return fileError(Path, EC);
  }
  Owned.reset();
  OS = nullptr;
  Done = true;
  if (!Temp)
    return Error::success();
  SmallString<256> Target(Path);
  if (sys::fs::is_symlink_file(Path))
    sys::fs::real_path(Path, Target);
  Error E = Temp->keep(Target);
  Temp.reset();
  if (E)
    return fileError(Path, toString(std::move(E)));
  return Error::success();
}

Error kiln::writeOutputFile(StringRef Path,
                            function_ref<void(raw_ostream &)> Write,
                            sys::fs::OpenFlags Flags) {
  Expected<std::unique_ptr<kiln::OutputFile>> File =
      kiln::OutputFile::create(Path, Flags);
  if (!File)
    return File.takeError();
  Write((*File)->os());
  return (*File)->commit();
}

Error kiln::checkStdout() {
  outs().flush();
  if (!outs().has_error())
    return Error::success();
  std::error_code EC = outs().error();
  outs().clear_error();
  return fileError("<stdout>", EC);
}
