import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every entry below a folder (files, folders, links, hidden names included) with the inode it
/// names and its modification and status-change times in nanoseconds, as `lstat` says: two
/// snapshots are equal when nothing was created, removed, replaced, written or relinked.
public struct TreeSnapshot: Equatable, CustomStringConvertible {
  public struct Entry: Equatable {
    public var inode: UInt64
    public var links: UInt64
    public var modified: Int64
    public var changed: Int64
    public var isRegularFile: Bool
  }

  /// By path relative to the root (`""` for the root itself).
  public var entries: [String: Entry]

  public init(_ root: URL) throws {
    var entries: [String: Entry] = [:]
    var pending = [""]
    while let relative = pending.popLast() {
      let path = relative.isEmpty ? root.path : root.path + "/" + relative
      var status = stat()
      guard lstat(path, &status) == 0 else {
        throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])
      }
      entries[relative] = Entry(
        inode: UInt64(status.st_ino), links: UInt64(status.st_nlink),
        modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec),
        changed: Int64(status.st_ctim.tv_sec) * 1_000_000_000 + Int64(status.st_ctim.tv_nsec),
        isRegularFile: (status.st_mode & S_IFMT) == S_IFREG)
      guard (status.st_mode & S_IFMT) == S_IFDIR else { continue }
      for name in try FileManager.default.contentsOfDirectory(atPath: path) {
        pending.append(relative.isEmpty ? name : relative + "/" + name)
      }
    }
    self.entries = entries
  }

  /// How many distinct inodes the tree uses (a hard-linked file counts once).
  public var inodeCount: Int { Set(entries.values.map(\.inode)).count }

  /// The regular files no entry of `earlier` had, by inode and modification time: the files
  /// written anew. (A hard link to an earlier file keeps both; a new file may be given the inode
  /// of one removed in between, but not its modification time.)
  public func newFiles(since earlier: TreeSnapshot) -> Set<String> {
    struct Identity: Hashable {
      var inode: UInt64
      var modified: Int64
    }
    let known = Set(earlier.entries.values.map { Identity(inode: $0.inode, modified: $0.modified) })
    return Set(
      entries.filter { $0.value.isRegularFile && !known.contains(Identity(inode: $0.value.inode, modified: $0.value.modified)) }
        .keys)
  }

  /// The paths whose entry differs from `other`'s, or that only one of them has, sorted.
  public func differences(from other: TreeSnapshot) -> [String] {
    Set(entries.keys).union(other.entries.keys).filter { entries[$0] != other.entries[$0] }.sorted()
  }

  public var description: String { "\(entries.count) entries, \(inodeCount) inodes" }
}
