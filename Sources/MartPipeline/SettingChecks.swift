import Foundation
import MartCore
import MartExport
import MartFiles
import MartReplay

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The checks of a run's settings before anything is touched: what must be a directory is one
/// (or can be created as one), what must be a file is not a folder, and a replay folder holds
/// recordings. Each failure is one `RunSetupError` naming the setting.
enum SettingChecks {
  /// Makes sure `url` is a directory, creating it and any missing parents. A regular file
  /// anywhere on the way is one clear error naming `setting`, the path and the file.
  static func prepare(_ url: URL, setting: RunSetting) throws(RunSetupError) {
    try checkCanBeDirectory(url, setting: setting)
    do throws(FileError) { try Files.createDirectory(url.path) } catch {
      throw RunSetupError(setting: setting, message: "cannot create the directory \(url.path)", failure: error)
    }
  }

  /// Throws unless `url` is a directory or could be created as one: no component of the path
  /// may be an existing file that is not a directory. Touches nothing.
  static func checkCanBeDirectory(_ url: URL, setting: RunSetting) throws(RunSetupError) {
    var path = url.standardizedFileURL.path
    while !path.isEmpty, path != "/" {
      if let kind = Files.kind(at: path, followingLinks: true) {
        guard kind == .directory else {
          let detail =
            path == url.standardizedFileURL.path ? "is a file, not a directory" : "\(path) is a file, not a directory"
          throw RunSetupError(setting: setting, message: "\(url.path): \(detail)")
        }
        return
      }
      path = (path as NSString).deletingLastPathComponent
    }
  }

  /// Throws when `url` is a directory, or a folder on its way is a file: where a run must write
  /// a file (`latest.json`, a cache). Touches nothing.
  static func checkCanBeFile(_ url: URL, setting: RunSetting) throws(RunSetupError) {
    if Files.kind(at: url.path, followingLinks: true) == .directory {
      throw RunSetupError(setting: setting, message: "\(url.path): is a directory, not a file")
    }
    try checkCanBeDirectory(url.deletingLastPathComponent(), setting: setting)
  }

  /// Throws unless what must not be served lies outside the output directory, and the output
  /// directory outside each of them: the state directory, the archive folder and the geocoding cache,
  /// each resolved to its real path first
  /// (``Files/realPath(_:)``), so that no link carries caches or raw responses into the served
  /// directory. One line naming both paths. Touches nothing.
  static func checkPrivateApart(output: URL, private settings: [(url: URL?, setting: RunSetting)]) throws(RunSetupError) {
    let served = Files.realPath(output.path)
    func named(_ url: URL, _ real: String) -> String {
      real == url.standardizedFileURL.path ? url.path : "\(url.path) (really \(real))"
    }
    for case let (url?, setting) in settings {
      let real = Files.realPath(url.path)
      if Files.isInside(real, served) {
        throw RunSetupError(
          setting: setting,
          message:
            "\(named(url, real)) is inside the output directory \(named(output, served)), which is served: choose a place outside it")
      }
      if Files.isInside(served, real) {
        throw RunSetupError(
          setting: setting,
          message:
            "the output directory \(named(output, served)) is inside \(named(url, real)), which must not be served: choose places apart")
      }
    }
  }

  /// Throws when a place of the run (the output and state directories, the archive folder, the
  /// geocoding cache) lies inside the output or state directory of another run, or the output
  /// or state directory holds one (either way round): `run --output output/bundles` would put a
  /// second output tree, and its state, inside the one that is served. A folder is another
  /// run's output directory when it holds `latest.json` or `bundles/`, its state directory when
  /// it holds the run lock or a cache of a run, or is an output directory's default state
  /// directory (`<output>-state`), and it is not this run's own. Paths are compared as real paths
  /// (``Files/realPath(_:)``). One line naming both. Touches nothing.
  static func checkNotNested(output: URL, state: URL, others: [(url: URL?, setting: RunSetting)]) throws(RunSetupError) {
    let own = [Files.realPath(output.path), Files.realPath(state.path)]
    func isOutput(_ folder: String) -> Bool {
      Files.kind(at: folder + "/" + OutputLayout.latestName) == .regularFile
        || Files.kind(at: folder + "/" + OutputLayout.bundlesName) == .directory
    }
    func anotherRuns(_ folder: String) -> String? {
      guard !own.contains(folder) else { return nil }
      if isOutput(folder) { return "the output directory of another run" }
      let stateFiles = [StateLayout.runLockName, StateLayout.validatorStoreName, StateLayout.geocodingCacheName]
      if stateFiles.contains(where: { Files.kind(at: folder + "/" + $0) != nil })
        || (folder.hasSuffix("-state") && isOutput(String(folder.dropLast("-state".count))))
      {
        return "the state directory of another run"
      }
      return nil
    }
    let places = [(url: Optional(output), setting: RunSetting.output), (state, .state)] + others
    for case let (url?, setting) in places {
      let real = Files.realPath(url.path)
      var folder = (real as NSString).deletingLastPathComponent
      while folder != "/", !folder.isEmpty {
        if let kind = anotherRuns(folder) {
          throw RunSetupError(
            setting: setting, message: "\(url.path) is inside \(folder), \(kind): choose a place outside it")
        }
        folder = (folder as NSString).deletingLastPathComponent
      }
    }
    for case let (url, setting) in [(output, RunSetting.output), (state, .state)] {
      let real = Files.realPath(url.path)
      for name in PlainFiles.names(in: real).sorted() where Files.kind(at: real + "/" + name) == .directory {
        if let kind = anotherRuns(real + "/" + name) {
          throw RunSetupError(
            setting: setting, message: "\(url.path) holds \(real)/\(name), \(kind): choose a place apart from it")
        }
      }
    }
  }

  /// Throws when `entries` (from `OutputLayout.foreignEntries()` or
  /// `StateLayout.foreignEntries()`) name something a run did not write where it writes in
  /// `root`: one line naming the first, and how many more there are. Touches nothing.
  static func checkNothingForeign(
    _ entries: [(path: String, kind: FileKind)], in root: URL, setting: RunSetting
  ) throws(RunSetupError) {
    guard let first = entries.first else { return }
    let more = entries.count > 1 ? " (and \(entries.count - 1) more)" : ""
    throw RunSetupError(
      setting: setting,
      message:
        "\(root.appendingPathComponent(first.path).path) is \(first.kind)\(more): a run writes only regular files and"
        + " real folders in \(root.path), never through or over anything else: remove it")
  }

  /// Throws unless `url` is a recording folder (``ReplayArchive/isRecordingFolder(_:)``) or a
  /// file named as a WARC file (`*.warc.gz`, `*.warc`). Touches nothing.
  static func checkRecordings(_ url: URL, setting: RunSetting) throws(RunSetupError) {
    guard let kind = Files.kind(at: url.path, followingLinks: true) else {
      throw RunSetupError(setting: setting, message: "\(url.path): no such directory")
    }
    guard kind == .directory else {
      if WARCReader.isWARCName(url) { return }
      throw RunSetupError(
        setting: setting, message: "\(url.path): is a file, not a directory of recordings or a .warc.gz file")
    }
    if ReplayArchive.isRecordingFolder(url) { return }
    throw RunSetupError(
      setting: setting,
      message:
        "\(url.path): holds no recordings (neither replay.json nor *.exchange.json files, directly or one folder down)")
  }
}
