import Foundation
import MartCore
import MartDigest
import MartFiles

/// One thing wrong with a bundle on disk: the file, relative to the directory that was checked
/// (`.` for the directory itself), and what is wrong with it.
public typealias BundleProblem = FileError

/// Checks a published bundle the way a careful client would, and more: the pointer and the
/// manifest's digests and sizes, that every listed file is there and parses and nothing else
/// is, that ids are unique and well-formed, dates real and inside the window, coordinates
/// inside Korea, and that every derived file (`brands/`, `index.json`, `closures.json`, the
/// `.gz` copies and the calendars) agrees with `branches.json`.
public struct BundleValidator {
  /// An output directory (with `latest.json`) or a bundle directory (with `manifest.json`).
  public let directory: URL

  public init(directory: URL) {
    self.directory = directory
  }

  /// What was checked, for a one-line summary.
  public struct Summary: Sendable {
    public var version: String
    public var branchCount: Int
    public var fileCount: Int
  }

  /// Every problem found, in a stable order; empty when the bundle is valid.
  public func validate() -> (problems: [BundleProblem], summary: Summary?) {
    var check = Check(root: directory)
    let summary = check.run()
    return (check.problems, summary)
  }
}

private struct Check {
  let root: URL
  var problems: [BundleProblem] = []
  /// Symbolic links already reported, each once.
  var reportedLinks = Set<String>()

  init(root: URL) {
    self.root = root
  }

  mutating func problem(_ path: String, _ message: String) {
    problems.append(BundleProblem(.malformed, path: path, message: message))
  }

  func exists(_ relative: String) -> Bool {
    FileManager.default.fileExists(atPath: root.appendingPathComponent(relative).path)
  }

  mutating func read(_ relative: String) -> Data? {
    guard followsNoLink(relative) else { return nil }
    do { return try Data(contentsOf: root.appendingPathComponent(relative)) } catch {
      problem(relative, exists(relative) ? "cannot be read" : "missing")
      return nil
    }
  }

  mutating func decode<T: Decodable>(
    _ type: T.Type, _ data: Data, _ relative: String, brands: [BrandSlug] = []
  ) -> T? {
    do { return try BundleJSON.decode(T.self, from: data, brands: brands) } catch {
      problem(relative, "not a valid \(Self.describe(T.self)): \(Self.reason(error))")
      return nil
    }
  }

  static func describe(_ type: Any.Type) -> String {
    switch type {
    case is LatestPointer.Type: OutputLayout.latestName
    case is BundleManifest.Type: "manifest"
    case is BranchesFile.Type: "branch file"
    case is IndexFile.Type: "index"
    case is ClosuresFile.Type: "closures file"
    case is DistrictsFile.Type: "districts file"
    default: "\(type)"
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

  mutating func run() -> BundleValidator.Summary? {
    // Where is the bundle?
    var bundlePrefix = ""
    var pointer: LatestPointer?
    switch BundleDirectory(root) {
    case .unusable(let reason):
      problem(".", reason)
      return nil
    case .bundle:
      // A bundle named directly (`validate output/bundles/<v>`, with or without a trailing `/`
      // or `/.`) is a link when its own name is: a bundle holds only its own directory.
      if let name = Self.ownName(of: root.path), Files.kind(at: name) == .symbolicLink {
        problem(".", "is a symbolic link; a bundle holds only regular files and directories")
        return nil
      }
    case .output:
      let latest = OutputLayout.latestName
      guard let data = read(latest), let decoded = decode(LatestPointer.self, data, latest) else {
        return nil
      }
      pointer = decoded
      if decoded.schemaVersion != bundleSchemaVersion {
        problem(latest, "schemaVersion \(decoded.schemaVersion) is not \(bundleSchemaVersion)")
      }
      guard isSafe(decoded.bundle) else {
        problem(latest, "bundle \"\(decoded.bundle)\" is not a path inside the output directory")
        return nil
      }
      bundlePrefix = decoded.bundle + "/"
      if decoded.bundle != OutputLayout.bundlePath(version: decoded.version) {
        problem(latest, "bundle \(decoded.bundle) does not match version \(decoded.version)")
      }
    }

    let manifestPath = bundlePrefix + OutputLayout.manifestName
    guard let manifestData = read(manifestPath) else { return nil }
    if let pointer, SHA256.hex(manifestData) != pointer.manifestSHA256 {
      problem(manifestPath, "SHA-256 does not match manifestSHA256 in latest.json")
    }
    guard let manifest = decode(BundleManifest.self, manifestData, manifestPath) else { return nil }
    if manifest.schemaVersion != bundleSchemaVersion {
      problem(manifestPath, "schemaVersion \(manifest.schemaVersion) is not \(bundleSchemaVersion)")
    }
    if let pointer {
      if manifest.version != pointer.version {
        problem(manifestPath, "version \(manifest.version) differs from latest.json's \(pointer.version)")
      }
      if manifest.asOf != pointer.asOf {
        problem(manifestPath, "asOf \(manifest.asOf) differs from latest.json's \(pointer.asOf)")
      }
    }
    if !manifest.version.hasPrefix(manifest.asOf.iso + "-") {
      problem(manifestPath, "version \(manifest.version) does not start with the as-of date \(manifest.asOf)")
    }
    let window = manifest.window
    if window.from > window.through {
      problem(manifestPath, "window from \(window.from) is after through \(window.through)")
    }

    // Every listed file: present, right size and digest; nothing unlisted.
    var contents: [String: Data] = [:]
    var listed = Set<String>()
    for file in manifest.files {
      let path = bundlePrefix + file.path
      guard isSafe(file.path) else {
        problem(manifestPath, "file path \"\(file.path)\" is not inside the bundle")
        continue
      }
      guard listed.insert(file.path).inserted else {
        problem(manifestPath, "\(file.path) is listed twice")
        continue
      }
      guard let data = read(path) else { continue }
      if data.count != file.bytes {
        problem(path, "\(data.count) bytes, manifest.json says \(file.bytes)")
      } else if SHA256.hex(data) != file.sha256 {
        problem(path, "SHA-256 does not match manifest.json")
      }
      contents[file.path] = data
    }
    for unlisted in entriesOnDisk(under: bundlePrefix).subtracting(listed).subtracting([OutputLayout.manifestName]).sorted() {
      problem(bundlePrefix + unlisted, "not listed in manifest.json")
    }
    if pointer != nil { checkLeftovers() }
    for required in ["branches.json", "index.json", "closures.json"] where !listed.contains(required) {
      problem(manifestPath, "does not list \(required)")
    }

    // branches.json: the reference every other file is checked against.
    guard let branchesData = contents["branches.json"],
      let branchesFile = decode(BranchesFile.self, branchesData, bundlePrefix + "branches.json")
    else { return nil }
    checkHeader(branchesFile, manifest: manifest, path: bundlePrefix + "branches.json")
    let branches = branchesFile.branches
    checkBranches(branches, window: window, asOf: manifest.asOf, path: bundlePrefix + "branches.json")
    checkRemoved(branchesFile, path: bundlePrefix + "branches.json")

    // Brands: manifest counts, one file each, agreeing with branches.json.
    let byBrand = Dictionary(grouping: branches, by: \.brand)
    var summarized = Set<BrandSlug>()
    for summary in manifest.brands {
      if !summarized.insert(summary.slug).inserted {
        problem(manifestPath, "brand \(summary.slug.rawValue) is listed twice")
      }
      let count = byBrand[summary.slug]?.count ?? 0
      if summary.branchCount != count {
        problem(
          manifestPath,
          "brand \(summary.slug.rawValue) has branchCount \(summary.branchCount), branches.json has \(count)")
      }
    }
    for brand in byBrand.keys.sorted() where !summarized.contains(brand) {
      problem(manifestPath, "brand \(brand.rawValue) has branches but no entry in brands")
    }
    for brand in summarized.union(byBrand.keys).sorted() {
      let relative = "brands/\(brand.rawValue).json"
      guard let data = contents[relative] else {
        if !listed.contains(relative) { problem(manifestPath, "does not list \(relative)") }
        continue
      }
      guard let file = decode(BranchesFile.self, data, bundlePrefix + relative) else { continue }
      checkHeader(file, manifest: manifest, path: bundlePrefix + relative)
      if file.branches != (byBrand[brand] ?? []) {
        let expected = Set((byBrand[brand] ?? []).map(\.id))
        let actual = Set(file.branches.map(\.id))
        var detail = "differs from the \(brand.rawValue) branches in branches.json"
        if let extra = actual.subtracting(expected).min() {
          detail += " (has \(extra))"
        } else if let lacking = expected.subtracting(actual).min() {
          detail += " (lacks \(lacking))"
        }
        problem(bundlePrefix + relative, detail)
      }
      if file.removed != branchesFile.removed.filter({ $0.brand == brand }) {
        problem(bundlePrefix + relative, "removed differs from the \(brand.rawValue) entries of branches.json's removed")
      }
    }

    // index.json and closures.json.
    if let data = contents["index.json"], let index = decode(IndexFile.self, data, bundlePrefix + "index.json") {
      checkIndex(index, branches: branches, path: bundlePrefix + "index.json")
    }
    if let data = contents["closures.json"],
      // Its ids stand alone: they are read against the brands this bundle lists and has.
      let closures = decode(
        ClosuresFile.self, data, bundlePrefix + "closures.json", brands: summarized.union(byBrand.keys).sorted())
    {
      checkClosures(
        closures, branches: branches, window: window, asOf: manifest.asOf, path: bundlePrefix + "closures.json")
    }
    // districts.json (bundles made before it existed have none).
    if let data = contents["districts.json"],
      let districts = decode(
        DistrictsFile.self, data, bundlePrefix + "districts.json", brands: summarized.union(byBrand.keys).sorted())
    {
      checkDistricts(
        districts, branches: branches, window: window, exempt: manifest.brands.exemptFromDesignation,
        path: bundlePrefix + "districts.json")
    }

    // Compressed copies: every JSON file has one, and it decompresses to that file.
    for path in listed.sorted() where path.hasSuffix(".json") && !listed.contains(path + ".gz") {
      problem(manifestPath, "does not list \(path).gz")
    }
    for path in listed.sorted() where path.hasSuffix(".gz") {
      guard let data = contents[path] else { continue }
      let original = String(path.dropLast(3))
      // Inflating stops past the size of the file it copies: a small copy of a huge stream
      // costs no more memory than the file itself.
      guard let expected = contents[original] else {
        if !listed.contains(original) { problem(bundlePrefix + path, "copies \(original), which is not listed") }
        continue
      }
      do {
        if try Gzip.decompress(data, atMost: expected.count) != expected {
          problem(bundlePrefix + path, "does not decompress to \(original)")
        }
      } catch let failure where failure.limit != nil {
        problem(bundlePrefix + path, "does not decompress to \(original) (\(failure))")
      } catch {
        problem(bundlePrefix + path, "\(error)")
      }
    }

    // Calendars.
    for branch in branches {
      let relative = "calendars/branches/\(branch.id).ics"
      guard let data = contents[relative] else {
        if !listed.contains(relative) { problem(manifestPath, "does not list \(relative)") }
        continue
      }
      checkCalendar(
        data, expected: ICalendar.coveredDays(of: branch), tentative: branch.closing.expected?.dates ?? [],
        path: bundlePrefix + relative)
    }
    for brand in summarized.union(byBrand.keys).sorted() {
      let relative = "calendars/brands/\(brand.rawValue).ics"
      guard let data = contents[relative] else {
        if !listed.contains(relative) { problem(manifestPath, "does not list \(relative)") }
        continue
      }
      checkCalendar(
        data, expected: (byBrand[brand] ?? []).flatMap(ICalendar.coveredDays(of:)),
        tentative: (byBrand[brand] ?? []).flatMap { $0.closing.expected?.dates ?? [] }, path: bundlePrefix + relative)
    }
    // An output directory's current/ follows the bundle latest.json names.
    if pointer != nil, exists(OutputLayout.currentName) {
      do {
        for mismatch in try CurrentDirectory(outputDirectory: root).mismatches() {
          let (path, message) = mismatch.split(separator: ":", maxSplits: 1).map(String.init).splitPair
          problem(path, message.trimmingCharacters(in: .whitespaces))
        }
      } catch {
        problem(OutputLayout.currentName, "cannot be checked: \(error)")
      }
    }
    return BundleValidator.Summary(version: manifest.version, branchCount: branches.count, fileCount: listed.count + 1)
  }

  /// `path` without trailing `/` and `/.`, so that the last component is the directory's own
  /// name (which `lstat` then does not follow); nil when nothing is left of it.
  static func ownName(of path: String) -> String? {
    var path = Substring(path)
    while path.count > 1, path.hasSuffix("/") || path.hasSuffix("/.") {
      path = path.hasSuffix("/") ? path.dropLast() : path.dropLast(2)
    }
    return path.isEmpty || path == "." ? nil : String(path)
  }

  /// A relative path that stays inside its directory.
  func isSafe(_ path: String) -> Bool {
    !path.isEmpty && !path.hasPrefix("/") && !path.split(separator: "/").contains { $0 == ".." || $0 == "." }
  }

  /// Whether no part of `relative` below the checked directory is a symbolic link (a bundle
  /// file replaced by a link to identical bytes elsewhere, a bundle directory that is a link):
  /// a bundle holds only its own regular files, and each link is a problem.
  mutating func followsNoLink(_ relative: String) -> Bool {
    var prefix = ""
    for component in relative.split(separator: "/") {
      prefix += prefix.isEmpty ? String(component) : "/\(component)"
      guard let kind = Files.kind(at: root.appendingPathComponent(prefix).path) else { return true }
      if kind == .symbolicLink {
        if !reportedLinks.contains(prefix) {
          reportedLinks.insert(prefix)
          problem(prefix, "is a symbolic link; a bundle holds only regular files and directories")
        }
        return false
      }
    }
    return true
  }

  /// Every entry under the bundle directory that is not a directory, relative to it, hidden
  /// names included; a symbolic link or anything else that is not a regular file is a problem.
  mutating func entriesOnDisk(under prefix: String) -> Set<String> {
    var found = Set<String>()
    for entry in PlainFiles.entries(under: root.appendingPathComponent(prefix).path) {
      switch entry.kind {
      case .regularFile: found.insert(entry.path)
      case .symbolicLink:
        if reportedLinks.insert(prefix + entry.path).inserted {
          problem(prefix + entry.path, "is a symbolic link; a bundle holds only regular files and directories")
        }
      default: problem(prefix + entry.path, "is not a regular file")
      }
    }
    return found
  }

  /// Hidden names an interrupted run left in the output directory, `bundles/` or `current/`
  /// (`OutputLayout.leftovers()`: a staging bundle, a half-written pointer or current file),
  /// and symbolic links in `current/`. A name whose process is still running belongs to a run
  /// in progress.
  mutating func checkLeftovers() {
    for path in OutputLayout(root).leftovers() where OutputLayout.runningProcess(of: path) == nil {
      problem(path, "left by an interrupted run (a hidden temporary name); the next run removes it")
    }
    let current = OutputLayout.currentName
    if Files.kind(at: root.appendingPathComponent(current).path) == .directory {
      for entry in PlainFiles.foreignEntries(under: root.appendingPathComponent(current).path)
      where !entry.path.split(separator: "/").contains(where: { $0.hasPrefix(".") }) {
        _ = followsNoLink("\(current)/\(entry.path)")
      }
    } else {
      _ = followsNoLink(current)
    }
  }

  mutating func checkHeader(_ file: BranchesFile, manifest: BundleManifest, path: String) {
    if file.schemaVersion != bundleSchemaVersion {
      problem(path, "schemaVersion \(file.schemaVersion) is not \(bundleSchemaVersion)")
    }
    if file.asOf != manifest.asOf { problem(path, "asOf \(file.asOf) differs from the manifest's \(manifest.asOf)") }
    if file.window != manifest.window {
      problem(path, "window \(file.window.from)…\(file.window.through) differs from the manifest's")
    }
  }

  mutating func checkBranches(_ branches: [Branch], window: DateWindow, asOf: CalendarDate, path: String) {
    var seen = Set<BranchID>()
    var previous: BranchID?
    for branch in branches {
      let id = branch.id
      if !BranchIDFormat.isWellFormed(id) { problem(path, "\(id): id is not well-formed") }
      if !seen.insert(id).inserted { problem(path, "\(id): id occurs more than once") }
      if let previous, !(previous < id) { problem(path, "\(id): not sorted by id (after \(previous))") }
      previous = id
      if branch.brand != id.brand { problem(path, "\(id): brand \(branch.brand.rawValue) does not match the id") }
      if branch.name.trimmingCharacters(in: .whitespaces).isEmpty { problem(path, "\(id): name is empty") }
      let dates = branch.closing.dates
      if dates != Array(Set(dates)).sorted() { problem(path, "\(id): closing.dates are not sorted and unique") }
      for date in dates where date < window.from || date > window.through {
        problem(path, "\(id): closing date \(date) is outside the window \(window.from)…\(window.through)")
      }
      if branch.closing.status != .closures, !dates.isEmpty {
        problem(path, "\(id): closing.status is \(branch.closing.status.rawValue) but closing.dates is not empty")
      }
      if let expected = branch.closing.expected {
        if branch.closing.status != .unknown {
          problem(path, "\(id): has expected days but closing.status is \(branch.closing.status.rawValue), not unknown")
        }
        if expected.dates != Array(Set(expected.dates)).sorted() {
          problem(path, "\(id): closing.expected.dates are not sorted and unique")
        }
        for date in expected.dates where !window.contains(date) {
          problem(path, "\(id): expected date \(date) is outside the window \(window.from)…\(window.through)")
        }
      }
      let unknown = branch.closing.unknownRanges
      for range in unknown
      where range.from > range.through || range.from < window.from || range.through > window.through {
        problem(path, "\(id): unknown range \(range.from)…\(range.through) is not inside the window")
      }
      for (earlier, later) in zip(unknown, unknown.dropFirst()) where earlier.through.adding(days: 1) >= later.from {
        problem(path, "\(id): unknown ranges are not sorted and apart at \(later.from)")
      }
      for date in dates where unknown.contains(where: { $0.from <= date && date <= $0.through }) {
        problem(path, "\(id): closing date \(date) lies in an unknown range")
      }
      // Every day of the window after knownThrough is unknown, never open.
      if let known = branch.closing.knownThrough, known < window.through {
        let first = max(known.adding(days: 1), window.from)
        if !unknown.contains(where: { $0.from <= first && window.through <= $0.through }) {
          problem(path, "\(id): days after knownThrough \(known) are not all in unknownRanges")
        }
      }
      if let coordinate = branch.coordinate, !CoordinateValidation.isDomestic(coordinate.point) {
        problem(path, "\(id): coordinate (\(coordinate.latitude), \(coordinate.longitude)) is outside Korea")
      }
      // A store that is not trading is closed every day it is shut, so no client shows it open.
      if let shut = branch.storeStatus.shutDays(from: window.from, through: window.through, asOf: asOf) {
        let closed = Set(dates)
        var day = shut.lowerBound
        while day <= shut.upperBound, closed.contains(day) { day = day.adding(days: 1) }
        if day <= shut.upperBound {
          problem(path, "\(id): the store is \(branch.storeStatus.state.rawValue) but \(day) is not a closing date")
        }
      }
    }
  }

  /// `removed`: sorted by id and unique, ids of their brand that the file does not list, each
  /// last listed no later than the as-of day. Former ids: well-formed, of the branch's brand,
  /// no branch's id and listed by one branch once, and never removed.
  mutating func checkRemoved(_ file: BranchesFile, path: String) {
    let listed = Set(file.branches.map(\.id))
    var formerOwner: [BranchID: BranchID] = [:]
    for branch in file.branches {
      for former in branch.formerIDs {
        if !BranchIDFormat.isWellFormed(former) || former.brand != branch.brand {
          problem(path, "\(branch.id): former id \(former) is not an id of brand \(branch.brand)")
        }
        if listed.contains(former) { problem(path, "\(branch.id): former id \(former) is a branch's id") }
        if let owner = formerOwner[former] {
          problem(path, "\(branch.id): former id \(former) is also listed by \(owner)")
        }
        formerOwner[former] = branch.id
      }
    }
    var previous: BranchID?
    for entry in file.removed {
      let id = entry.id
      if let previous, !(previous < id) { problem(path, "removed \(id): not sorted by id or repeated (after \(previous))") }
      previous = id
      if !BranchIDFormat.isWellFormed(id) { problem(path, "removed \(id): id is not well-formed") }
      if listed.contains(id) { problem(path, "removed \(id): the branch is listed") }
      if let owner = formerOwner[id] { problem(path, "removed \(id): a former id of \(owner)") }
      if let lastListed = entry.lastListed, lastListed > file.asOf {
        problem(path, "removed \(id): lastListed \(lastListed) is after the as-of date \(file.asOf)")
      }
    }
  }

  mutating func checkIndex(_ index: IndexFile, branches: [Branch], path: String) {
    if index.schemaVersion != bundleSchemaVersion {
      problem(path, "schemaVersion \(index.schemaVersion) is not \(bundleSchemaVersion)")
    }
    let expected = IndexFile(branches: branches)
    guard index != expected else { return }
    let actual = Dictionary(index.branches.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    let wanted = Dictionary(expected.branches.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    var reported = 0
    for id in Set(actual.keys).union(wanted.keys).sorted() where actual[id] != wanted[id] {
      switch (actual[id], wanted[id]) {
      case (nil, _): problem(path, "\(id): missing (it is in branches.json)")
      case (_, nil): problem(path, "\(id): not in branches.json")
      default: problem(path, "\(id): row differs from branches.json")
      }
      reported += 1
    }
    if reported == 0 { problem(path, "rows are not sorted by id or repeat an id") }
  }

  mutating func checkClosures(
    _ closures: ClosuresFile, branches: [Branch], window: DateWindow, asOf: CalendarDate, path: String
  ) {
    if closures.schemaVersion != bundleSchemaVersion {
      problem(path, "schemaVersion \(closures.schemaVersion) is not \(bundleSchemaVersion)")
    }
    if closures.window != window {
      problem(path, "window \(closures.window.from)…\(closures.window.through) differs from the manifest's")
    }
    let expected = ClosuresFile(branches: branches, window: window, asOf: asOf)
    for day in Set(closures.dates.keys).union(expected.dates.keys).sorted() {
      guard let date = CalendarDate(iso: day) else {
        problem(path, "\"\(day)\" is not a YYYY-MM-DD date")
        continue
      }
      if date < window.from || date > window.through {
        problem(path, "\(day) is outside the window \(window.from)…\(window.through)")
      }
      let listed = closures.dates[day] ?? []
      let wanted = expected.dates[day] ?? []
      if listed != listed.sorted() || Set(listed).count != listed.count {
        problem(path, "\(day): ids are not sorted and unique")
      }
      for id in Set(listed).subtracting(wanted).sorted() {
        problem(path, "\(day): lists \(id), which branches.json does not close that day")
      }
      for id in Set(wanted).subtracting(listed).sorted() {
        problem(path, "\(day): lacks \(id), which branches.json closes that day")
      }
      if listed.isEmpty, closures.dates[day] != nil { problem(path, "\(day): lists no branch") }
    }
    if closures.unknown != expected.unknown {
      let day = Set(closures.unknown.keys).union(expected.unknown.keys).sorted().first {
        closures.unknown[$0] != expected.unknown[$0]
      }
      problem(path, "unknown does not list the unknown days of branches.json (first at \(day ?? "?"))")
    }
    if closures.expected != expected.expected {
      problem(path, "expected does not list the closing.expected dates of branches.json")
    }
    if closures.closingForGood != expected.closingForGood {
      problem(path, "closingForGood does not list the closesOn dates of branches.json's trading branches")
    }
    if closures.shut != expected.shut {
      problem(
        path,
        "shut lists \(closures.shut.map(\.description)), branches.json has \(expected.shut.map(\.description)) not trading"
      )
    }
  }

  /// `districts.json` against the inference made again from `branches.json` (leaving out the
  /// branches of `exempt` brands, which the manifest marks `designated: false` or `stale`), and
  /// every branch's expected days against its district's.
  mutating func checkDistricts(
    _ file: DistrictsFile, branches: [Branch], window: DateWindow, exempt: Set<BrandSlug>, path: String
  ) {
    if file.schemaVersion != bundleSchemaVersion {
      problem(path, "schemaVersion \(file.schemaVersion) is not \(bundleSchemaVersion)")
    }
    if file.window != window {
      problem(path, "window \(file.window.from)…\(file.window.through) differs from the manifest's")
    }
    let names = file.districts.map(\.name)
    if names != names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) || Set(names).count != names.count {
      problem(path, "districts are not sorted and unique")
    }
    let inference = DistrictDesignations.infer(from: branches, window: window, exempt: exempt)
    let inferred = Dictionary(
      inference.districts.map { (DistrictsFile.Entry($0).name, DistrictsFile.Entry($0)) }, uniquingKeysWith: { a, _ in a })
    let listed = Dictionary(file.districts.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
    for name in Set(inferred.keys).union(listed.keys).sorted() {
      switch (listed[name], inferred[name]) {
      case (nil, _?): problem(path, "\(name): lacks this district, which the branches of branches.json support")
      case (_?, nil): problem(path, "\(name): the branches of branches.json support no pattern here")
      case (let entry?, let wanted?) where entry != wanted:
        problem(path, "\(name): differs from what branches.json supports (\(wanted.patternDescription), evidence \(wanted.evidence.map(\.description)))")
      default: break
      }
    }
    let expectedDates = Dictionary(
      inference.expectedDates.map { ($0.key.description, $0.value) }, uniquingKeysWith: { a, _ in a })
    for branch in branches {
      guard let expected = branch.closing.expected else { continue }
      if exempt.contains(branch.brand) {
        problem(
          path,
          "\(branch.id): has closing.expected, but the manifest says \(branch.brand) is not designated or is stale")
      }
      if expected.basis != "district" {
        problem(path, "\(branch.id): closing.expected.basis is \"\(expected.basis)\", not \"district\"")
      }
      guard let wanted = expectedDates[expected.district] else {
        problem(path, "\(branch.id): closing.expected names \(expected.district), which has no pattern here")
        continue
      }
      if expected.dates != wanted {
        problem(path, "\(branch.id): closing.expected.dates are not the expected days of \(expected.district)")
      }
    }
  }

  /// The RFC 5545 rules the writer follows, all-day events covering exactly the expected
  /// dates, and tentative events on exactly the expected days of `closing.expected`
  /// (``ICalendarReader``).
  mutating func checkCalendar(_ data: Data, expected: [CalendarDate], tentative: [CalendarDate], path: String) {
    let reading = ICalendarReader.read(data)
    for message in reading.problems { problem(path, message) }
    if reading.covered != nil, reading.tentative.sorted() != tentative.sorted() {
      problem(
        path,
        "tentative events on \(reading.tentative.count) days do not match the \(tentative.count) expected days"
          + " in branches.json")
    }
    if let covered = reading.covered, covered.sorted() != expected.sorted() {
      problem(
        path,
        "\(reading.events) events covering \(covered.count) days do not match the \(expected.count) closing dates"
          + " in branches.json"
      )
    }
  }
}

extension Array where Element == String {
  /// The first two elements, the second empty when missing.
  fileprivate var splitPair: (String, String) { (first ?? "", count > 1 ? self[1] : "") }
}
