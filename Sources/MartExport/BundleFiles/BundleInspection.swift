import Foundation
import MartCore
import MartFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The findings of one check of a directory, and the reading every kind's check shares: files
/// read without following a link, JSON decoded with a reason that says where it failed, the
/// entries on disk.
struct BundleInspection {
  /// The checked directory: an output directory or a bundle directory.
  let root: URL
  /// Each brand's source of closing days, for inferring the designations again
  /// (``BundleValidator/sources``).
  let sources: [BrandSlug: String]
  private(set) var findings: [BundleFinding] = []
  /// Symbolic links already reported, each once.
  private var reportedLinks = Set<String>()

  init(root: URL, sources: [BrandSlug: String] = [:]) {
    self.root = root
    self.sources = sources
  }

  /// Reports what is wrong with `path` (relative to the checked directory), concerning
  /// `branch` or `brand` when given (the message does not name them: the path may).
  mutating func report(_ path: String, _ message: String, branch: BranchID? = nil, brand: BrandSlug? = nil) {
    findings.append(BundleFinding(path: path, message: message, branch: branch, brand: brand))
  }

  /// Reports what is wrong with one branch in `path`: `<id>: <detail>`.
  mutating func report(_ path: String, branch: BranchID, _ detail: String) {
    findings.append(BundleFinding(path: path, message: "\(branch): \(detail)", branch: branch))
  }

  func exists(_ relative: String) -> Bool {
    Files.exists(root.appendingPathComponent(relative).path)
  }

  /// The bytes at `relative`; `nil`, and a finding, when a link is on the way or it cannot be
  /// read.
  mutating func read(_ relative: String) -> Data? {
    guard followsNoLink(relative) else { return nil }
    do { return try Data(contentsOf: root.appendingPathComponent(relative)) } catch {
      report(relative, exists(relative) ? "cannot be read" : "missing")
      return nil
    }
  }

  /// `data` decoded as `type`, `what` naming it in the finding when it does not decode; ids
  /// that stand alone are read against `brands`.
  mutating func decode<T: Decodable>(
    _ type: T.Type, _ data: Data, _ relative: String, as what: String, brands: [BrandSlug] = []
  ) -> T? {
    do { return try BundleJSON.decode(T.self, from: data, brands: brands) } catch {
      report(relative, "not a valid \(what): \(Self.reason(error))")
      return nil
    }
  }

  static func reason(_ error: any Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
      DecodingError.valueNotFound(_, let context):
      let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/")
      return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    case DecodingError.keyNotFound(let key, let context):
      let path = (context.codingPath + [key]).map { $0.intValue.map(String.init) ?? $0.stringValue }
      return "\(path.joined(separator: "/")) is missing"
    default: return "\(error)"
    }
  }

  /// The listed file `relative` of `bundle` decoded as `type` (see
  /// ``decode(_:_:_:as:brands:)``); `nil` when it is not there or does not decode.
  mutating func decode<T: Decodable>(
    _ type: T.Type, listed relative: String, in bundle: ListedBundle, as what: String, brands: [BrandSlug] = []
  ) -> T? {
    guard let data = bundle.contents[relative] else { return nil }
    return decode(type, data, bundle.path(relative), as: what, brands: brands)
  }

  /// The listed bytes of `relative` in `bundle`; `nil` when it is not there, with a finding
  /// when the manifest does not list it (a listed file that could not be read was reported).
  mutating func listedData(_ relative: String, in bundle: ListedBundle) -> Data? {
    guard let data = bundle.contents[relative] else {
      if !bundle.listed.contains(relative) { report(bundle.manifestPath, "does not list \(relative)") }
      return nil
    }
    return data
  }

  /// A relative path that stays inside its directory.
  static func isSafe(_ path: String) -> Bool {
    !path.isEmpty && !path.hasPrefix("/") && !path.split(separator: "/").contains { $0 == ".." || $0 == "." }
  }

  /// Whether no part of `relative` below the checked directory is a symbolic link (a bundle
  /// file replaced by a link to identical bytes elsewhere, a bundle directory that is a link):
  /// a bundle holds only its own regular files, and each link is a finding.
  mutating func followsNoLink(_ relative: String) -> Bool {
    var prefix = ""
    let rootPath = root.path
    for component in relative.split(separator: "/") {
      prefix += prefix.isEmpty ? String(component) : "/\(component)"
      guard let kind = Files.kind(at: rootPath + "/" + prefix) else { return true }
      if kind == .symbolicLink {
        if !reportedLinks.contains(prefix) {
          reportedLinks.insert(prefix)
          report(prefix, "is a symbolic link; a bundle holds only regular files and directories")
        }
        return false
      }
    }
    return true
  }

  /// Every entry under the bundle directory that is not a directory, relative to it, hidden
  /// names included; a symbolic link or anything else that is not a regular file is a finding.
  mutating func entriesOnDisk(under prefix: String) -> Set<String> {
    var found = Set<String>()
    for entry in PlainFiles.entries(under: root.appendingPathComponent(prefix).path) {
      switch entry.kind {
      case .regularFile: found.insert(entry.path)
      case .symbolicLink:
        if reportedLinks.insert(prefix + entry.path).inserted {
          report(prefix + entry.path, "is a symbolic link; a bundle holds only regular files and directories")
        }
      default: report(prefix + entry.path, "is not a regular file")
      }
    }
    return found
  }
}

/// A bundle whose manifest was read: every listed file read and checked against its size and
/// digest.
struct ListedBundle {
  /// The bundle's folder relative to the checked directory, with a final `/`; empty when the
  /// bundle directory itself is checked.
  var prefix: String
  /// The manifest's path relative to the checked directory.
  var manifestPath: String
  var manifest: BundleManifest
  /// The bytes of each listed file that could be read, by path in the bundle.
  var contents: [String: Data]
  /// Every path the manifest lists.
  var listed: Set<String>

  /// `relative` (a path in the bundle) relative to the checked directory.
  func path(_ relative: String) -> String { prefix + relative }
}

/// A listed bundle and its `branches.json`, the reference every other file is checked against.
struct BundleReference {
  var bundle: ListedBundle
  var branchesFile: BranchesFile
  /// The branches of each brand, in id order.
  var byBrand: [BrandSlug: [Branch]]
  /// Every brand the manifest lists or a branch has, sorted.
  var brands: [BrandSlug]

  init(bundle: ListedBundle, branchesFile: BranchesFile) {
    self.bundle = bundle
    self.branchesFile = branchesFile
    self.byBrand = Dictionary(grouping: branchesFile.branches, by: \.brand)
    self.brands = Set(bundle.manifest.brands.map(\.slug)).union(byBrand.keys).sorted()
  }

  var branches: [Branch] { branchesFile.branches }
  var manifest: BundleManifest { bundle.manifest }
  var window: DateWindow { bundle.manifest.window }
  /// The manifest's as-of date and window.
  var day: RunDay { bundle.manifest.day }
  func path(_ relative: String) -> String { bundle.path(relative) }
}
