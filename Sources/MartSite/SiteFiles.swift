import Foundation
import MartCore
import MartExport
import MartFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The site's edges: reads the bundle an output directory publishes (checked as `validate`
/// checks it) and writes the site's files into a folder, whole or not at all.
public enum SiteFiles {
  /// The site's data from the bundle `latest.json` names in `outputDirectory`: never a bundle
  /// being written (a bundle becomes current only once whole), and never an invalid one.
  ///
  /// Throws, naming the first problem, when `validate` finds any (nothing is written then), and
  /// when `latest.json` moves to another bundle while it is read. `sources` is each brand's
  /// source of closing days, as ``BundleValidator/sources``.
  public static func read(
    outputDirectory: URL, baseURL: String?, sources: [BrandSlug: String] = [:]
  ) throws(FileError) -> SiteData {
    guard Files.kind(at: OutputLayout(outputDirectory).latest.path) != nil else {
      throw FileError(.read,
        path: outputDirectory.path, message: "not an output directory: no latest.json naming a published bundle")
    }
    let (problems, summary) = BundleValidator(directory: outputDirectory, sources: sources).validate()
    if let first = problems.first {
      let more = problems.count > 1 ? " (and \(problems.count - 1) more problems)" : ""
      throw FileError(.malformed,
        path: first.path == "." ? outputDirectory.path : outputDirectory.appendingPathComponent(first.path).path,
        message: "\(first.message)\(more); the bundle is not valid (mart-holiday validate lists every problem), no site written")
    }
    guard let summary,
      let bundle = try BundleStore(outputDirectory: outputDirectory).latest()
    else {
      throw FileError(.read,
        path: outputDirectory.path, message: "not an output directory: no latest.json naming a published bundle")
    }
    guard bundle.manifest.version == summary.version else {
      throw FileError(.mismatch,
        path: OutputLayout(outputDirectory).latest.path,
        message: "moved from bundle \(summary.version) to \(bundle.manifest.version) while the site was read; run again")
    }
    // A bundle's directory never changes once published (its name is its content's hash), and
    // it is the one just checked.
    var districts: DistrictsFile?
    var calendars: [String: [UInt8]] = [:]
    for file in bundle.manifest.files {
      let isCalendar = file.path.hasPrefix("calendars/") && file.path.hasSuffix(".ics")
      guard isCalendar || file.path == "districts.json" else { continue }
      let data = try PlainFiles.contentsOrError(of: bundle.directory.appendingPathComponent(file.path).path)
      if isCalendar {
        calendars[file.path] = [UInt8](data)
      } else {
        do {
          let decoder = JSONDecoder()
          decoder.userInfo[BranchID.bundleBrands] = bundle.manifest.brands.map(\.slug)
          districts = try decoder.decode(DistrictsFile.self, from: data)
        } catch {
          throw FileError(.malformed, path: bundle.directory.appendingPathComponent(file.path).path, message: "\(error)")
        }
      }
    }
    return SiteData(bundle: bundle, districts: districts, calendars: calendars, baseURL: baseURL)
  }

  /// Writes `site` as the folder `directory`, replacing the site there: the files are written
  /// beside it under a hidden name (`.<name>.<process id>`) and the folder is swapped in by
  /// renames, so a reader sees the old site or the new one, never a mix, and a failure leaves
  /// the old site in place.
  ///
  /// Only a folder this command wrote is replaced (its `index.html` carries the site's
  /// generator mark), or an empty one; anything else there is refused.
  public static func write(_ site: Site, to directory: URL) throws(FileError) {
    let target = directory.standardizedFileURL.path
    let parent = (target as NSString).deletingLastPathComponent
    let name = (target as NSString).lastPathComponent
    try checkReplaceable(target)
    try Files.createDirectory(parent.isEmpty ? "." : parent)
    let staging = "\(parent)/.\(name).\(getpid())"
    let old = "\(parent)/.\(name).old.\(getpid())"
    removeLeftovers(of: name, in: parent)
    Files.remove(staging)
    do throws(FileError) {
      try Files.createDirectory(staging)
      for file in site.files {
        let path = "\(staging)/\(file.path)"
        try Files.createDirectory((path as NSString).deletingLastPathComponent)
        try Files.write(file.data, to: path)
      }
      try Files.makeTreeDurable(staging)
      let hadSite = Files.kind(at: target) != nil
      if hadSite { try moveDirectory(target, to: old) }
      do throws(FileError) { try moveDirectory(staging, to: target) } catch {
        if hadSite { try? moveDirectory(old, to: target) }
        throw error
      }
      if hadSite { Files.remove(old) }
    } catch {
      Files.remove(staging)
      throw error
    }
  }

  /// Removes what an earlier build of the site `name` left in `parent` when it was killed: its
  /// hidden `.<name>.<process id>` and `.<name>.old.<process id>` folders, once that process is
  /// gone.
  static func removeLeftovers(of name: String, in parent: String) {
    for entry in PlainFiles.names(in: parent) {
      guard let (file, process) = Files.temporaryProcess(entry), file == name || file == "\(name).old",
        kill(process, 0) != 0, errno == ESRCH
      else { continue }
      Files.remove("\(parent)/\(entry)")
    }
  }

  /// Throws unless `path` is free, an empty folder, or a site this command wrote.
  static func checkReplaceable(_ path: String) throws(FileError) {
    guard let kind = Files.kind(at: path) else { return }
    guard kind == .directory else {
      throw FileError(.foreign, path: path, message: "is \(kind), not a directory: the site is written only as a folder")
    }
    if PlainFiles.names(in: path).isEmpty { return }
    let index = PlainFiles.contents(of: "\(path)/\(SitePaths.index)")
    guard let index, String(decoding: index.prefix(2048), as: UTF8.self).contains(SitePage.generatorMark) else {
      throw FileError(.foreign,
        path: path, message: "holds files that are not a site mart-holiday wrote; give an empty or new directory")
    }
  }

  private static func moveDirectory(_ source: String, to destination: String) throws(FileError) {
    guard rename(source, destination) == 0 else {
      throw Files.failure(.rename, destination, "rename from \(source) failed")
    }
  }
}
