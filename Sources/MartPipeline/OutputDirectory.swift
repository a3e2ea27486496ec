import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The checks and chores around a run's directories: what must be a directory is one (or can
/// be created as one), one run at a time per output directory, and old bundles, archives and
/// leftovers of killed runs pruned.
enum OutputDirectory {
  /// Makes sure `url` is a directory, creating it and any missing parents. A regular file
  /// anywhere on the way is one clear error naming `setting`, the path and the file.
  static func prepare(_ url: URL, setting: String) throws(RunSetupError) {
    try checkCanBeDirectory(url, setting: setting)
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    } catch {
      throw RunSetupError(setting: setting, message: "cannot create the directory \(url.path): \(errnoText(error))")
    }
  }

  /// Throws unless `url` is a directory or could be created as one: no component of the path
  /// may be an existing file that is not a directory. Touches nothing.
  static func checkCanBeDirectory(_ url: URL, setting: String) throws(RunSetupError) {
    var path = url.standardizedFileURL.path
    while !path.isEmpty, path != "/" {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
        guard isDirectory.boolValue else {
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
  static func checkCanBeFile(_ url: URL, setting: String) throws(RunSetupError) {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
      throw RunSetupError(setting: setting, message: "\(url.path): is a directory, not a file")
    }
    try checkCanBeDirectory(url.deletingLastPathComponent(), setting: setting)
  }

  /// Throws unless `url` is a directory holding recordings: `replay.json` or at least one
  /// `*.exchange.json` (at any depth). Touches nothing.
  static func checkRecordings(_ url: URL, setting: String) throws(RunSetupError) {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw RunSetupError(setting: setting, message: "\(url.path): no such directory")
    }
    guard isDirectory.boolValue else {
      throw RunSetupError(setting: setting, message: "\(url.path): is a file, not a directory of recordings")
    }
    if FileManager.default.fileExists(atPath: url.appendingPathComponent("replay.json").path) { return }
    // Recordings sit in the folder or one host folder down (docs/recordings.md); a folder that
    // merely contains a recording somewhere deeper (the repository root) is not one.
    for entry in contents(of: url) {
      if entry.hasSuffix(".exchange.json") { return }
      if contents(of: url.appendingPathComponent(entry)).contains(where: { $0.hasSuffix(".exchange.json") }) { return }
    }
    throw RunSetupError(
      setting: setting,
      message:
        "\(url.path): holds no recordings (neither replay.json nor *.exchange.json files, directly or one folder down)")
  }

  /// The text of the POSIX error behind a Foundation file error, without Foundation's domain
  /// and code (`NSCocoaErrorDomain error 512`).
  static func errnoText(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
    return nsError.localizedDescription
  }

  // MARK: Housekeeping

  /// The name prefix of a raw archive still being written (see `RunResources`).
  static let partialArchivePrefix = ".partial-"

  /// Moves what an output directory of the old layout kept among the served files to the
  /// state directory: `cache/` and `raw/` entries the state directory does not have yet, and
  /// the scheduled run's `diff.*` files; removes the old lock files (the lock now lives in the
  /// state directory). Only called while holding the run lock. Returns what was moved or
  /// removed, relative to the output directory.
  static func migrateOldLayout(output: URL, state: URL) -> [String] {
    var moved: [String] = []
    let manager = FileManager.default
    for folder in ["cache", "raw"] {
      let old = output.appendingPathComponent(folder)
      var isDirectory: ObjCBool = false
      guard manager.fileExists(atPath: old.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
      let new = state.appendingPathComponent(folder)
      try? manager.createDirectory(at: new, withIntermediateDirectories: true)
      for name in contents(of: old) where !manager.fileExists(atPath: new.appendingPathComponent(name).path) {
        try? manager.moveItem(at: old.appendingPathComponent(name), to: new.appendingPathComponent(name))
      }
      // What could not be moved (a name the state directory already had) is kept aside there.
      for name in contents(of: old) {
        let aside = new.appendingPathComponent("\(name).from-output")
        if !manager.fileExists(atPath: aside.path) {
          try? manager.moveItem(at: old.appendingPathComponent(name), to: aside)
        }
      }
      if contents(of: old).isEmpty, (try? manager.removeItem(at: old)) != nil { moved.append("\(folder)/") }
    }
    for name in ["diff.txt", "diff.json", "diff.md"]
    where manager.fileExists(atPath: output.appendingPathComponent(name).path) {
      try? manager.removeItem(at: state.appendingPathComponent(name))
      if (try? manager.moveItem(at: output.appendingPathComponent(name), to: state.appendingPathComponent(name))) != nil
      {
        moved.append(name)
      }
    }
    for name in [RunLock.oldFileName, ".scheduled-run.lock"]
    where manager.fileExists(atPath: output.appendingPathComponent(name).path) {
      if (try? manager.removeItem(at: output.appendingPathComponent(name))) != nil { moved.append(name) }
    }
    return moved
  }

  /// Removes what killed runs left behind: staging directories of bundles that were never
  /// published and temporary files of pointers and reports (in the output directory), and raw
  /// archives that were never finished (in the state directory). Only called while holding the
  /// run lock, so nothing else is writing them. Returns the paths removed, relative to their
  /// directory.
  @discardableResult
  static func removeLeftovers(output: URL, state: URL) -> [String] {
    var removed: [String] = []
    for (root, folder, prefix) in [(output, "bundles", ".staging-"), (state, "raw", partialArchivePrefix)] {
      let parent = root.appendingPathComponent(folder)
      for name in contents(of: parent) where name.hasPrefix(prefix) {
        if (try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))) != nil {
          removed.append("\(folder)/\(name)")
        }
      }
    }
    for name in contents(of: output)
    where name.hasPrefix(".latest.json.") || name.hasPrefix(".report.json.") || name.hasPrefix(".report.html.")
      || name.hasPrefix(".current-")
    {
      if (try? FileManager.default.removeItem(at: output.appendingPathComponent(name))) != nil {
        removed.append(name)
      }
    }
    return removed
  }

  /// Keeps the newest `keep` bundles (by modification time), and the one `latest.json` names
  /// whatever its age, and the newest `keep` raw archives; removes the rest. Returns the paths
  /// removed, relative to the output directory (bundles) or the state directory (archives).
  @discardableResult
  static func prune(output: URL, state: URL, keep: Int, current: String?) -> [String] {
    var removed: [String] = []
    for (root, folder, protected) in [
      (output, "bundles", current.map { ($0 as NSString).lastPathComponent }), (state, "raw", nil),
    ] {
      let parent = root.appendingPathComponent(folder)
      let entries = contents(of: parent).filter { !$0.hasPrefix(".") }.compactMap { name -> (String, Date)? in
        let url = parent.appendingPathComponent(name)
        guard let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .contentModificationDateKey]),
          values.isDirectory == true
        else { return nil }
        return (name, values.contentModificationDate ?? .distantPast)
      }
      // Newest first; equal times by name, newest name first.
      let ordered = entries.sorted { ($0.1, $0.0) > ($1.1, $1.0) }.map(\.0)
      var kept = Set(ordered.prefix(max(0, keep)))
      if let protected { kept.insert(protected) }
      for name in ordered where !kept.contains(name) {
        if (try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))) != nil {
          removed.append("\(folder)/\(name)")
        }
      }
    }
    return removed
  }

  /// The bundle `latest.json` names (`bundles/<version>`), if it can be read.
  static func currentBundle(in output: URL) -> String? {
    guard let data = try? Data(contentsOf: output.appendingPathComponent("latest.json")),
      let pointer = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    else { return nil }
    return pointer["bundle"] as? String
  }

  private static func contents(of directory: URL) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
  }
}

/// One run at a time per output directory: the output directory itself is held under an
/// exclusive `flock` (so two runs with different state directories cannot publish into it at
/// once), and `<state>/run.lock` holds the running process's id under another. The kernel drops
/// a `flock` when a process dies, so a lock file whose lock is free was left by a killed run
/// and is taken over.
final class RunLock {
  /// The lock file's name inside the state directory.
  static let fileName = "run.lock"
  /// The lock file's name inside the output directory before the state directory existed.
  static let oldFileName = ".mart-holiday.lock"

  let path: String
  private var descriptor: Int32
  private var outputDescriptor: Int32
  /// The process id a killed run left in the lock file, when this lock took it over.
  let tookOverFromProcess: Int32?

  /// Takes the lock, or throws naming the process that holds it.
  init(output: URL, state: URL) throws(RunSetupError) {
    let path = state.appendingPathComponent(Self.fileName).path
    self.path = path
    let outputFD = open(output.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard outputFD >= 0 else {
      throw RunSetupError(
        setting: "--output", message: "cannot open \(output.path): \(String(cString: strerror(errno)))")
    }
    /// Names the lock that is held: the lock file, or the output directory itself when the
    /// other run keeps its lock file in another state directory.
    func busy(_ holder: Int32?, lockFile: String?) -> RunSetupError {
      let which =
        lockFile.map { "process \(holder.map(String.init) ?? "unknown"), lock file \($0)" }
        ?? "one with another state directory holds the lock on \(output.path) itself"
      return RunSetupError(
        setting: "--output", message: "\(output.path) is in use by another run (\(which)); wait for it to finish")
    }
    while true {
      let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
      guard fd >= 0 else {
        close(outputFD)
        throw RunSetupError(
          setting: "--state", message: "cannot create the lock file \(path): \(String(cString: strerror(errno)))")
      }
      if flock(fd, LOCK_EX | LOCK_NB) != 0 {
        let holder = Self.readProcessID(fd)
        close(fd)
        close(outputFD)
        throw busy(holder, lockFile: path)
      }
      // The holder may have removed the file between our open and flock: lock the file that is there now.
      var opened = stat()
      var current = stat()
      guard fstat(fd, &opened) == 0, stat(path, &current) == 0, opened.st_ino == current.st_ino,
        opened.st_dev == current.st_dev
      else {
        close(fd)
        continue
      }
      if flock(outputFD, LOCK_EX | LOCK_NB) != 0 {
        close(fd)
        close(outputFD)
        throw busy(nil, lockFile: nil)
      }
      let previous = Self.readProcessID(fd)
      tookOverFromProcess = previous
      let text = "\(getpid())\n"
      _ = ftruncate(fd, 0)
      _ = text.withCString { pwrite(fd, $0, strlen($0), 0) }
      descriptor = fd
      outputDescriptor = outputFD
      return
    }
  }

  /// Removes the lock file and releases both locks.
  func release() {
    guard descriptor >= 0 else { return }
    unlink(path)
    close(descriptor)
    close(outputDescriptor)
    descriptor = -1
    outputDescriptor = -1
  }

  deinit { release() }

  private static func readProcessID(_ fd: Int32) -> Int32? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = pread(fd, &buffer, buffer.count, 0)
    guard count > 0 else { return nil }
    return Int32(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
