import Foundation
import MartCore
import MartFiles
import SystemPackage
import Testing

/// One holder at a time: the lock file holds its process id, and a second taker is told who
/// holds it; a released lock is free again.
@Suite struct FileLockTests {
  let directory: URL

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("file-lock-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  @Test func aHeldLockNamesItsHolderAndIsFreeOnceReleased() throws {
    let path = directory.appendingPathComponent("run.lock").path
    let lock = try FileLock(file: path, guarding: directory.path)
    #expect(lock.tookOverFromProcess == nil)
    let pid = try String(contentsOfFile: path, encoding: .utf8)
    #expect(pid == "\(ProcessInfo.processInfo.processIdentifier)\n")
    let held = try #require(throws: FileLockError.self) { try FileLock(file: path) }
    #expect(held == .held(file: path, byProcess: ProcessInfo.processInfo.processIdentifier))
    let otherFile = directory.appendingPathComponent("other.lock").path
    let guarded = try #require(throws: FileLockError.self) { try FileLock(file: otherFile, guarding: directory.path) }
    #expect(guarded == .directoryHeld(directory.path))
    lock.release()
    #expect(!FileManager.default.fileExists(atPath: path))
    let again = try FileLock(file: path, guarding: directory.path)
    again.release()
  }

  @Test func aLockFileLeftByAProcessThatIsGoneIsTakenOver() throws {
    let path = directory.appendingPathComponent("run.lock").path
    try "4242\n".write(toFile: path, atomically: true, encoding: .utf8)
    let lock = try FileLock(file: path)
    defer { lock.release() }
    #expect(lock.tookOverFromProcess == 4242)
  }

  @Test func aMissingDirectoryCannotBeGuarded() throws {
    let missing = directory.appendingPathComponent("missing").path
    let error = try #require(throws: FileLockError.self) {
      try FileLock(file: directory.appendingPathComponent("run.lock").path, guarding: missing)
    }
    guard case .cannotOpenDirectory(let failure) = error else {
      Issue.record("\(error)")
      return
    }
    #expect(failure.location == missing)
    #expect(failure.errno == .noSuchFileOrDirectory)
  }
}
