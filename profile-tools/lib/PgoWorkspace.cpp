//===- PgoWorkspace.cpp - The kiln pgo workspace --------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/PgoWorkspace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Chrono.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;
using namespace kiln;

std::vector<std::string> PgoManifest::usableScenarios() const {
  std::vector<std::string> Names;
  for (const PgoRun &R : Runs)
    if (R.Used && R.Generation == Generation &&
        !is_contained(Names, R.Scenario))
      Names.push_back(R.Scenario);
  return Names;
}

std::vector<const PgoRun *> PgoManifest::usedRuns(StringRef Scenario) const {
  std::vector<const PgoRun *> Result;
  for (const PgoRun &R : Runs)
    if (R.Used && R.Generation == Generation && R.Scenario == Scenario)
      Result.push_back(&R);
  return Result;
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

namespace kiln {

static json::Value toJSON(const PgoFileStamp &S) {
  json::Object O{{"path", S.Path},
                 {"size", static_cast<int64_t>(S.Size)},
                 {"mtime", S.MTime}};
  if (!S.Hash.empty())
    O["hash"] = S.Hash;
  return O;
}

static json::Value toJSON(const PgoBlockLayout &L) {
  return json::Object{
      {"program", L.Program},
      {"outcome", L.Outcome},
      {"profile", L.Profile},
      {"replays", static_cast<int64_t>(L.Replays)},
      {"policy", L.Policy},
      {"default_instructions", static_cast<int64_t>(L.DefaultInstructions)},
      {"alternative_instructions",
       static_cast<int64_t>(L.AlternativeInstructions)},
      {"binary_instructions", static_cast<int64_t>(L.BinaryInstructions)}};
}

static json::Value toJSON(const PgoLinkCost &C) {
  return json::Object{{"program", C.Program},
                      {"link", C.Link},
                      {"wall_seconds", C.WallSeconds},
                      {"cpu_seconds", C.CPUSeconds},
                      {"peak_rss_kib", static_cast<int64_t>(C.PeakRSSKiB)}};
}

static json::Value toJSON(const PgoBuild &B) {
  json::Array Programs, Sources, BlockLayouts, FinalLinks;
  for (const PgoBlockLayout &L : B.BlockLayouts)
    BlockLayouts.push_back(toJSON(L));
  for (const PgoLinkCost &C : B.FinalLinks)
    FinalLinks.push_back(toJSON(C));
  for (const PgoFileStamp &S : B.Programs)
    Programs.push_back(toJSON(S));
  for (const PgoFileStamp &S : B.Sources)
    Sources.push_back(toJSON(S));
  return json::Object{{"command", B.Command},
                      {"cwd", B.Cwd},
                      {"time", B.Time},
                      {"exit_status", B.ExitStatus},
                      {"succeeded", B.Succeeded},
                      {"generation", static_cast<int64_t>(B.Generation)},
                      {"compiles", static_cast<int64_t>(B.Compiles)},
                      {"links", static_cast<int64_t>(B.Links)},
                      {"programs", std::move(Programs)},
                      {"sources", std::move(Sources)},
                      {"options", B.Options},
                      {"flags", B.Flags},
                      {"compile_policy", B.CompilePolicy},
                      {"context_sensitive", B.ContextSensitive},
                      {"replays", static_cast<int64_t>(B.Replays)},
                      {"block_layout_source", B.BlockLayoutSource},
                      {"block_layouts", std::move(BlockLayouts)},
                      {"final_links", std::move(FinalLinks)}};
}

static json::Value toJSON(const PgoRun &R) {
  json::Object O{{"id", static_cast<int64_t>(R.Id)},
                 {"scenario", R.Scenario},
                 {"command", R.Command},
                 {"cwd", R.Cwd},
                 {"time", R.Time},
                 {"seconds", R.Seconds},
                 {"exit_status", R.ExitStatus},
                 {"outcome", R.Outcome},
                 {"used", R.Used},
                 {"generation", static_cast<int64_t>(R.Generation)},
                 {"raw_profiles", R.RawProfiles},
                 {"stdin", R.Stdin}};
  if (R.Program)
    O["program"] = toJSON(*R.Program);
  return O;
}

static bool fromJSON(const json::Value &V, PgoFileStamp &S, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("path", S.Path) && O.mapOptional("size", S.Size) &&
         O.mapOptional("mtime", S.MTime) && O.mapOptional("hash", S.Hash);
}

static bool fromJSON(const json::Value &V, PgoBlockLayout &L, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("program", L.Program) && O.map("outcome", L.Outcome) &&
         O.mapOptional("profile", L.Profile) &&
         O.mapOptional("replays", L.Replays) &&
         O.mapOptional("policy", L.Policy) &&
         O.mapOptional("default_instructions", L.DefaultInstructions) &&
         O.mapOptional("alternative_instructions", L.AlternativeInstructions) &&
         O.mapOptional("binary_instructions", L.BinaryInstructions);
}

static bool fromJSON(const json::Value &V, PgoLinkCost &C, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("program", C.Program) && O.mapOptional("link", C.Link) &&
         O.mapOptional("wall_seconds", C.WallSeconds) &&
         O.mapOptional("cpu_seconds", C.CPUSeconds) &&
         O.mapOptional("peak_rss_kib", C.PeakRSSKiB);
}

static bool fromJSON(const json::Value &V, PgoBuild &B, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("command", B.Command) && O.mapOptional("cwd", B.Cwd) &&
         O.mapOptional("time", B.Time) &&
         O.mapOptional("exit_status", B.ExitStatus) &&
         O.mapOptional("succeeded", B.Succeeded) &&
         O.mapOptional("generation", B.Generation) &&
         O.mapOptional("compiles", B.Compiles) &&
         O.mapOptional("links", B.Links) &&
         O.mapOptional("programs", B.Programs) &&
         O.mapOptional("sources", B.Sources) &&
         O.mapOptional("options", B.Options) &&
         O.mapOptional("flags", B.Flags) &&
         O.mapOptional("compile_policy", B.CompilePolicy) &&
         O.mapOptional("context_sensitive", B.ContextSensitive) &&
         O.mapOptional("replays", B.Replays) &&
         O.mapOptional("block_layout_source", B.BlockLayoutSource) &&
         O.mapOptional("block_layouts", B.BlockLayouts) &&
         O.mapOptional("final_links", B.FinalLinks);
}

static bool fromJSON(const json::Value &V, PgoRun &R, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("id", R.Id) && O.map("scenario", R.Scenario) &&
         O.map("command", R.Command) && O.mapOptional("cwd", R.Cwd) &&
         O.mapOptional("time", R.Time) && O.mapOptional("seconds", R.Seconds) &&
         O.mapOptional("exit_status", R.ExitStatus) &&
         O.map("outcome", R.Outcome) && O.map("used", R.Used) &&
         O.mapOptional("generation", R.Generation) &&
         O.mapOptional("raw_profiles", R.RawProfiles) &&
         O.mapOptional("program", R.Program) && O.mapOptional("stdin", R.Stdin);
}

} // namespace kiln

void kiln::recordFinalLink(PgoBuild &B, PgoLinkCost Cost) {
  erase_if(B.FinalLinks,
           [&](const PgoLinkCost &C) { return C.Program == Cost.Program; });
  B.FinalLinks.push_back(std::move(Cost));
}

std::string kiln::manifestToJSON(const PgoManifest &M) {
  json::Array Runs;
  for (const PgoRun &R : M.Runs)
    Runs.push_back(toJSON(R));
  json::Object O{{"format", static_cast<int64_t>(M.Format)},
                 {"kiln_version", M.KilnVersion},
                 {"workspace", M.Workspace},
                 {"phase", M.Phase},
                 {"generation", static_cast<int64_t>(M.Generation)},
                 {"runs", std::move(Runs)}};
  if (M.Instrument)
    O["instrument"] = toJSON(*M.Instrument);
  if (M.Optimize)
    O["optimize"] = toJSON(*M.Optimize);
  std::string Text;
  raw_string_ostream OS(Text);
  OS << formatv("{0:2}", json::Value(std::move(O))) << '\n';
  return Text;
}

Expected<PgoManifest> kiln::manifestFromJSON(StringRef JSON, StringRef Path) {
  Expected<json::Value> V = json::parse(JSON);
  if (!V)
    return createStringError(
        inconvertibleErrorCode(),
        Path + ": not a kiln pgo manifest: " + toString(V.takeError()));
  PgoManifest M;
  json::Path::Root Root("manifest");
  json::ObjectMapper O(*V, Root);
  bool OK = O && O.map("format", M.Format) &&
            O.mapOptional("kiln_version", M.KilnVersion) &&
            O.mapOptional("workspace", M.Workspace) &&
            O.map("phase", M.Phase) &&
            O.mapOptional("generation", M.Generation) &&
            O.mapOptional("runs", M.Runs) &&
            O.mapOptional("instrument", M.Instrument) &&
            O.mapOptional("optimize", M.Optimize);
  if (!OK)
    return createStringError(
        inconvertibleErrorCode(),
        Path + ": not a kiln pgo manifest: " + toString(Root.getError()));
  if (M.Format != PgoManifest::CurrentFormat)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": manifest format " + Twine(M.Format) +
                                 " is not the one this kiln reads (" +
                                 Twine(PgoManifest::CurrentFormat) + ")");
  return M;
}

Expected<PgoManifest> kiln::readManifest(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(
        Buf.getError(), Path + ": cannot read: " + Buf.getError().message());
  return manifestFromJSON((*Buf)->getBuffer(), Path);
}

Error kiln::writeFileAtomically(StringRef Path, StringRef Contents) {
  SmallString<256> Temp(Path);
  Temp += ".tmp-%%%%%%";
  int FD;
  SmallString<256> TempPath;
  if (std::error_code EC = sys::fs::createUniqueFile(Temp, FD, TempPath))
    return createStringError(EC, Path + ": cannot write: " + EC.message());
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
    OS.flush();
    if (OS.has_error()) {
      std::error_code EC = OS.error();
      OS.clear_error();
      sys::fs::remove(TempPath);
      return createStringError(EC, Path + ": cannot write: " + EC.message());
    }
  }
  if (std::error_code EC = sys::fs::rename(TempPath, Path)) {
    sys::fs::remove(TempPath);
    return createStringError(EC, Path + ": cannot write: " + EC.message());
  }
  return Error::success();
}

Error kiln::writeManifest(StringRef Path, const PgoManifest &M) {
  return writeFileAtomically(Path, manifestToJSON(M));
}

Expected<PgoFileStamp> kiln::stampFile(StringRef Path, bool WithHash) {
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Path, Status))
    return createStringError(EC, Path + ": " + EC.message());
  PgoFileStamp S;
  S.Path = Path.str();
  S.Size = Status.getSize();
  S.MTime = sys::toTimeT(Status.getLastModificationTime());
  if (!WithHash)
    return S;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buf)
    return createStringError(Buf.getError(),
                             Path + ": " + Buf.getError().message());
  raw_string_ostream OS(S.Hash);
  OS << format_hex_no_prefix(xxh3_64bits((*Buf)->getBuffer()), 16);
  return S;
}

Error kiln::checkScenarioName(StringRef Name) {
  bool OK = !Name.empty() && Name.front() != '.' && all_of(Name, [](char C) {
    return isAlnum(C) || C == '-' || C == '_' || C == '.';
  });
  if (OK)
    return Error::success();
  return createStringError(inconvertibleErrorCode(),
                           "'" + Name +
                               "' is not a scenario name (letters, digits, "
                               "'-', '_' and '.', not starting with '.')");
}
