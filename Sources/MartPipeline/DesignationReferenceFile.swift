import Foundation
import MartCore

/// `data/designations.json`, the researched designations (``DesignationReference``) a run checks
/// what its stores show against.
public enum DesignationReferenceFile {
  /// The table in the source tree this program was built from (`<repository>/data/designations.json`).
  public static let inRepository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("data/designations.json")

  /// The table at `url`; an error names the file and what is wrong with it.
  public static func read(_ url: URL) throws(DesignationReferenceError) -> DesignationReference {
    let data: Data
    do { data = try Data(contentsOf: url) } catch {
      throw DesignationReferenceError(path: url.path, message: "cannot be read (\(error.localizedDescription))")
    }
    let table: DesignationReference
    do { table = try JSONDecoder().decode(DesignationReference.self, from: data) } catch {
      throw DesignationReferenceError(path: url.path, message: "is not a designations table: \(error)")
    }
    for entry in table.designations where entry.days == nil {
      throw DesignationReferenceError(
        path: url.path, message: "\(entry.district): pattern \(entry.pattern) names a day that is not one")
    }
    return table
  }
}

/// `data/designations.json` could not be used: which file, and why.
public struct DesignationReferenceError: LocatedError, Hashable, Sendable {
  public var path: String
  /// The table's path.
  public var location: String { path }
  public var message: String
  public var description: String { "\(path) \(message)" }
}
