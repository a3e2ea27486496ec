import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One run at a time per output directory: the output directory itself is held under an
/// exclusive `flock` (so two runs with different state directories cannot publish into it at
/// once), and `<state>/run.lock` holds the running process's id under another. The kernel drops
/// a `flock` when a process dies, so a lock file whose lock is free was left by a killed run
/// and is taken over.
final class RunLock {
  let path: String
  private var descriptor: Int32
  private var outputDescriptor: Int32
  /// The process id a killed run left in the lock file, when this lock took it over.
  let tookOverFromProcess: Int32?

  /// Takes the lock, or throws naming the process that holds it.
  init(output: URL, state: URL) throws(RunSetupError) {
    let path = StateLayout(state).runLock.path
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
      // Not through a link: the process id is never written into a file elsewhere.
      let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
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
