import Foundation
import MartCore
import MartDigest
import MartFiles
import MartGzip
import Synchronization

/// What ``BundleBuilder/build(branches:brands:day:removed:districts:into:shouldStop:)`` made: the
/// manifest (every file's path, size and SHA-256) and its bytes. The files themselves went to
/// the ``BundleFileSink`` the build was given.
struct BuiltBundle {
  var manifest: BundleManifest
  var manifestData: Data
  /// `branches.json` as written: the branches and removed ids sorted by id.
  var branches: BranchesFile
  /// `closures.json` as written.
  var closures: ClosuresFile
  /// Each branch's JSON as the files hold it, in the order of `branches`, when the build wrote
  /// files (a sink was given); `nil` for a build of digests alone.
  var encodedBranches: EncodedBranches?
}

/// Each branch's canonical JSON (``CanonicalJSONWriter/branch(_:)``) as a build wrote it, in id
/// order, in one buffer: `current/` frames these bytes for each listed branch instead of
/// encoding the branch again.
struct EncodedBranches: Sendable {
  private var bytes: [UInt8] = []
  /// Where each branch's bytes end in ``bytes``.
  private var ends: [Int] = []

  var count: Int { ends.count }

  mutating func append(_ json: ArraySlice<UInt8>) {
    bytes += json
    ends.append(bytes.count)
  }

  /// The JSON of the branch at `index` in the build's order.
  subscript(index: Int) -> ArraySlice<UInt8> {
    bytes[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
  }
}

/// Makes every file of a bundle in one pass over the branches, composing the exporter of each
/// kind of file (``BundleFileKinds/all``: branches, brand files, index, closures, districts,
/// calendars):
/// each branch is encoded once, by ``CanonicalJSONWriter``, and its bytes go both to
/// `branches.json` and to its brand's file; the SHA-256 and the gzip copy of each file are
/// computed on the bytes as they are made. The bytes are those of the `CanonicalJSON` encoding
/// of the bundle's types (see ``BundleContents``).
///
/// Each file is handed to the build's ``BundleFileSink`` as soon as it is finished, and then
/// let go: a build holds only the files still open (`branches.json` the largest) and the ones
/// being compressed, never the whole bundle. Without a sink a build keeps digests alone, which
/// is how ``BundleStore`` learns a bundle's version before it writes anything.
enum BundleBuilder {
  /// Builds the bundle, with `removed` as the ids the sources stopped listing and `districts`
  /// as `districts.json` (inferred from the branches when not given), handing each finished
  /// file to `sink` (none: digests only). Returns `nil` when `shouldStop` (asked
  /// between files and every few hundred branches) answers `true`. Problems with the data throw
  /// an error whose path is a file of the bundle, relative to it; a sink's errors are its own.
  static func build(
    branches unsorted: [Branch], brands: [BrandSummary], day: RunDay,
    removed unsortedRemoved: [RemovedBranch] = [], districts: DistrictsFile? = nil,
    into sink: (any BundleFileSink)? = nil, shouldStop: () -> Bool = { false }
  ) throws(FileError) -> BuiltBundle? {
    let branches = unsorted.sorted { $0.id < $1.id }
    let removed = unsortedRemoved.sorted { $0.id < $1.id }
    // Ids are compared as text: they name files, and clients store them as text.
    var seen = Set<String>()
    for branch in branches {
      guard BranchIDFormat.isWellFormed(branch.id) else {
        throw FileError(.invalid, path: "branches", message: "branch id \"\(branch.id)\" cannot name a file")
      }
      guard seen.insert(branch.id.description).inserted else {
        throw FileError(.invalid, path: "branches", message: "branch id \(branch.id) occurs twice")
      }
    }
    for entry in removed {
      guard seen.insert(entry.id.description).inserted else {
        throw FileError(.invalid, path: "branches", message: "removed branch id \(entry.id) is listed or occurs twice")
      }
    }
    seen = []
    let summaries = brands.map(\.manifestEntry).sorted { $0.slug < $1.slug }
    let brandSlugs = Set(summaries.map(\.slug)).union(branches.map(\.brand)).sorted()
    let names = Dictionary(summaries.map { ($0.slug, $0.name) }, uniquingKeysWith: { first, _ in first })
    func name(_ slug: BrandSlug) -> String { names[slug] ?? slug.rawValue }
    let staleSince = summaries.staleSince

    let output = BundleOutput(sink: sink)
    let input = BundleExportInput(
      branches: branches, removed: removed, summaries: summaries, brands: brandSlugs, day: day,
      districts: districts, closures: ClosuresFile(branches: branches, day: day),
      frame: BranchListFrame(window: day.window), brandName: name, staleSince: { staleSince[$0] })
    var exporters = BundleFileKinds.all.compactMap { $0.exporter(input) }
    for index in exporters.indices { try exporters[index].begin(output) }
    // A brand's files are finished as soon as its last branch is written, so that only the
    // brands in progress (one, when ids keep a brand together) are held in memory.
    var lastIndex: [BrandSlug: Int] = [:]
    for (index, branch) in branches.enumerated() { lastIndex[branch.brand] = index }
    var writer = CanonicalJSONWriter(capacity: 8192)
    var encoded = sink == nil ? nil : EncodedBranches()
    for (index, branch) in branches.enumerated() {
      if index % 256 == 0, shouldStop() { return nil }
      writer.bytes.removeAll(keepingCapacity: true)
      do { try writer.branch(branch) } catch {
        throw FileError(.encode, path: BranchesFileKind.name, message: "encoding failed", cause: error)
      }
      let exported = ExportedBranch(
        branch: branch, json: writer.bytes[...], brandName: name(branch.brand),
        lastOfBrand: lastIndex[branch.brand] == index)
      for exporter in exporters.indices { try exporters[exporter].add(exported, to: output) }
      encoded?.append(exported.json)
    }
    for index in exporters.indices {
      if shouldStop() { return nil }
      try exporters[index].finish(output)
    }
    try output.finishCopies()

    let listed = output.listed.sorted { $0.path.precedesInUTF8($1.path) }
    var manifest = BundleManifest(
      schemaVersion: bundleSchemaVersion, version: "", asOf: day.asOf, window: day.window, brands: summaries,
      files: listed)
    let manifestData = try ManifestFileKind.encodeVersioning(&manifest)
    return BuiltBundle(
      manifest: manifest, manifestData: manifestData,
      branches: BranchesFile(
        schemaVersion: bundleSchemaVersion, window: day.window, branches: branches, removed: removed),
      closures: input.closures, encodedBranches: encoded)
  }
}

/// Where ``BundleOutput`` puts each finished file of a bundle, on the thread that builds it:
/// memory (``KeptBundleFiles``), or a staging directory (``BundleStore``). A file is handed
/// over once, with the entry the manifest lists for it; what the sink does not keep is freed.
protocol BundleFileSink: AnyObject {
  func put(_ file: BundleManifest.File, _ data: Data) throws(FileError)
}

/// Keeps every file of a bundle in memory: ``BundleContents``, for tests and tools.
final class KeptBundleFiles: BundleFileSink {
  private(set) var files: [(path: String, data: Data)] = []

  func put(_ file: BundleManifest.File, _ data: Data) {
    files.append((file.path, data))
  }

  /// The files, sorted by path as the manifest lists them.
  var sorted: [(path: String, data: Data)] {
    files.sorted { $0.path.precedesInUTF8($1.path) }
  }
}

/// The files of one bundle being built: lists each one for the manifest when it is closed, and
/// hands it to the sink, if any. A file's gzip copy is compressed on a queue of its own, beside
/// the encoding of what comes next, and handed over at the next close or at
/// ``finishCopies()``, which waits for the last.
final class BundleOutput {
  private(set) var listed: [BundleManifest.File] = []
  private let sink: (any BundleFileSink)?
  private let copies = DispatchQueue(label: "mart-holiday.gzip")
  private let compressed = CompressedCopies()

  /// The gzip copies the queue has made, not yet listed.
  private final class CompressedCopies: Sendable {
    let files = Mutex<[BundleFileStream.Finished]>([])
  }

  /// Files are handed to `sink` as they are finished; without one, only their digests stay.
  init(sink: (any BundleFileSink)? = nil) {
    self.sink = sink
  }

  /// A new file at `path`, with a `.gz` copy made when it is closed when `gzip`.
  func open(_ path: String, gzip: Bool) -> BundleFileStream {
    BundleFileStream(path: path, gzip: gzip)
  }

  /// Finishes `file`, lists it and hands it over; its `.gz` copy follows (``finishCopies()``).
  func close(_ file: BundleFileStream) throws(FileError) {
    let finished = file.finish()
    try add(finished)
    try takeCopies()
    guard file.gzip else { return }
    copies.async { [compressed] in
      let data = Gzip.compress(finished.data)
      let copy = BundleFileStream.Finished(
        path: GzipCopiesKind.path(of: finished.path), sha256: SHA256.hex(data), bytes: data.count, data: data)
      compressed.files.withLock { $0.append(copy) }
    }
  }

  /// Waits for the gzip copies of the closed files, and lists and hands over them.
  func finishCopies() throws(FileError) {
    copies.sync {}
    try takeCopies()
  }

  /// Adds a file made whole in memory.
  func whole(_ path: String, _ data: Data) throws(FileError) {
    try add(BundleFileStream.Finished(path: path, sha256: SHA256.hex(data), bytes: data.count, data: data))
  }

  /// Lists and hands over the gzip copies made so far.
  private func takeCopies() throws(FileError) {
    let made = compressed.files.withLock { files in
      defer { files = [] }
      return files
    }
    for copy in made { try add(copy) }
  }

  private func add(_ finished: BundleFileStream.Finished) throws(FileError) {
    let file = BundleManifest.File(path: finished.path, sha256: finished.sha256, bytes: finished.bytes)
    listed.append(file)
    try sink?.put(file, finished.data)
  }
}

/// One file being made: bytes are kept and hashed as they come, in a buffer of its own that
/// grows by doubling and becomes the file's `Data` as it is when the file is finished (no copy;
/// a `Data` grown by appends reallocates and checks its storage on every append).
final class BundleFileStream {
  struct Finished: Sendable {
    var path: String
    var sha256: String
    var bytes: Int
    var data: Data
  }

  let path: String
  /// Whether the file gets a `.gz` copy when closed.
  let gzip: Bool
  /// The bytes so far (`count` of them, room for `capacity`); `nil` before the first.
  private var buffer: UnsafeMutableRawPointer?
  private var count = 0
  private var capacity = 0
  private let hasher = SHA256.Hasher()

  init(path: String, gzip: Bool = false) {
    self.path = path
    self.gzip = gzip
  }

  deinit { free(buffer) }

  func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { write($0) }
  }

  func write(_ bytes: ArraySlice<UInt8>) {
    bytes.withUnsafeBytes { write($0) }
  }

  func write(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    hasher.update(bytes)
    if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
    (buffer! + count).copyMemory(from: source, byteCount: bytes.count)
    count += bytes.count
  }

  /// Gives the buffer room for `needed` bytes, at least twice what it had.
  private func grow(toHold needed: Int) {
    let grownCapacity = max(needed, 2 * capacity, 4096)
    guard let grown = realloc(buffer, grownCapacity) else {
      fatalError("out of memory for \(grownCapacity) bytes of \(path)")
    }
    buffer = grown
    capacity = grownCapacity
  }

  /// Finishes the file and says what it holds (its bytes handed over, not copied).
  func finish() -> Finished {
    let data = buffer.map { Data(bytesNoCopy: $0, count: count, deallocator: .free) } ?? Data()
    buffer = nil
    count = 0
    capacity = 0
    return Finished(path: path, sha256: hasher.finalize(), bytes: data.count, data: data)
  }
}
