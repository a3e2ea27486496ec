import Foundation

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
    var isDirectory: ObjCBool = false
    let manager = FileManager.default
    if !manager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
      self = .unusable("no such directory")
    } else if !isDirectory.boolValue {
      self = .unusable("is a file, not a directory")
    } else if manager.fileExists(atPath: directory.appendingPathComponent(OutputLayout.latestName).path) {
      self = .output
    } else if manager.fileExists(atPath: directory.appendingPathComponent("manifest.json").path) {
      self = .bundle
    } else {
      self = .unusable("neither an output directory (no latest.json) nor a bundle (no manifest.json)")
    }
  }
}
