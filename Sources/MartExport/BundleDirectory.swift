import Foundation
import MartFiles

/// What a directory given to `validate` or `diff` holds: the one place that tells an output
/// directory from a bundle directory.
enum BundleDirectory: Equatable {
  /// An output directory: its `latest.json` names the current bundle.
  case output
  /// A bundle directory: it holds `manifest.json`.
  case bundle
  /// Neither, and why: `no such directory`, `is a file, not a directory`, or no `latest.json`
  /// and no `manifest.json`.
  case unusable(String)

  init(_ directory: URL) {
    let kind = Files.kind(at: directory.path, followingLinks: true)
    if kind == nil {
      self = .unusable("no such directory")
    } else if kind != .directory {
      self = .unusable("is a file, not a directory")
    } else if Files.exists(directory.appendingPathComponent(OutputLayout.latestName).path) {
      self = .output
    } else if Files.exists(directory.appendingPathComponent(OutputLayout.manifestName).path) {
      self = .bundle
    } else {
      self = .unusable("neither an output directory (no latest.json) nor a bundle (no manifest.json)")
    }
  }
}

extension BundleDirectory {
  /// `relativePath` under `root`, or nil when it leads outside `root`: an empty or absolute
  /// path, a `.` or `..` component, or a symbolic link on the way (the path as written or
  /// resolved must stay inside). Foreign data (a `latest.json` or a manifest written elsewhere)
  /// then cannot make a reader open a file outside the tree it was given.
  static func confinedURL(_ relativePath: String, in root: URL) -> URL? {
    confinedURL(relativePath, in: root, resolved: Files.ResolvedFolder(root.path))
  }

  /// ``confinedURL(_:in:)`` with `root`'s links resolved once, for the many files of one tree.
  static func confinedURL(_ relativePath: String, in root: URL, resolved: Files.ResolvedFolder) -> URL? {
    let components = relativePath.split(separator: "/", omittingEmptySubsequences: false)
    guard !relativePath.isEmpty, !relativePath.hasPrefix("/"),
      !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." })
    else { return nil }
    let url = root.appendingPathComponent(relativePath)
    return resolved.contains(url.path) ? url : nil
  }
}
