import MartCore

/// One thing ``BundleValidator`` found wrong with a bundle on disk: the file, relative to the
/// directory that was checked (`.` for the directory itself), the branch or brand concerned
/// when there is one, and what is wrong.
public struct BundleFinding: Sendable, Hashable, CustomStringConvertible {
  /// The file or folder, relative to the checked directory; `.` for the directory itself.
  public var path: String
  /// What is wrong, as printed (it starts with the branch's id when it concerns one branch).
  public var message: String
  /// The branch the finding concerns, if it concerns one.
  public var branch: BranchID?
  /// The brand the finding concerns, if it concerns one.
  public var brand: BrandSlug?

  public init(path: String, message: String, branch: BranchID? = nil, brand: BrandSlug? = nil) {
    self.path = path
    self.message = message
    self.branch = branch
    self.brand = brand ?? branch?.brand
  }

  /// `<path>: <message>`.
  public var description: String { "\(path): \(message)" }
}
