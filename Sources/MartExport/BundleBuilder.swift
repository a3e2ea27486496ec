import CZlib
import Foundation
import MartCore
import MartDigest
import MartFiles
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where ``BundleBuilder`` puts a bundle's files as it makes them.
enum BundleDestination {
  /// Kept in memory (``BundleContents``).
  case memory
  /// Written under this directory, which must exist; nothing is flushed.
  case directory(URL)
}

/// What ``BundleBuilder/build(branches:brands:asOf:window:removed:into:shouldStop:)`` made.
struct BuiltBundle {
  var manifest: BundleManifest
  var manifestData: Data
  /// Every file but the manifest, sorted by path; empty unless built in memory.
  var files: [(path: String, data: Data)]
  /// The directories files were written in, relative to the bundle (`""` for itself).
  var directories: Set<String>
  /// `branches.json` as written: the branches and removed ids sorted by id.
  var branches: BranchesFile
}

/// Makes every file of a bundle in one pass over the branches, composing one exporter per kind
/// of file (``BundleExporter``: branches, brand files, calendars, index, closures, districts), each streaming
/// its files to the destination as they are made: each branch is encoded once, by
/// ``CanonicalJSONWriter``, and its bytes go both to `branches.json` and to its brand's file; the
/// SHA-256 and the gzip copy of each file are computed on the bytes as they are written. The bytes are those of the
/// `CanonicalJSON` encoding of the bundle's types (see ``BundleContents``).
enum BundleBuilder {
  /// Builds the bundle into `destination`, with `removed` as the ids the sources stopped
  /// listing. Returns `nil`, having written only part, when `shouldStop` (asked between files
  /// and every few hundred branches) answers `true`.
  static func build(
    branches unsorted: [Branch], brands: [BrandSummary], asOf: CalendarDate, window: DateWindow,
    removed unsortedRemoved: [RemovedBranch] = [], into destination: BundleDestination,
    shouldStop: () -> Bool = { false }
  ) throws(ExportError) -> BuiltBundle? {
    let branches = unsorted.sorted { $0.id < $1.id }
    let removed = unsortedRemoved.sorted { $0.id < $1.id }
    // Ids are compared as text: they name files, and clients store them as text.
    var seen = Set<String>()
    for branch in branches {
      guard BranchIDFormat.isWellFormed(branch.id) else {
        throw ExportError(path: "branches", message: "branch id \"\(branch.id)\" cannot name a file")
      }
      guard seen.insert(branch.id.description).inserted else {
        throw ExportError(path: "branches", message: "branch id \(branch.id) occurs twice")
      }
    }
    for entry in removed {
      guard seen.insert(entry.id.description).inserted else {
        throw ExportError(path: "branches", message: "removed branch id \(entry.id) is listed or occurs twice")
      }
    }
    seen = []
    let summaries = brands.map(\.manifestEntry).sorted { $0.slug < $1.slug }
    let brandSlugs = Set(summaries.map(\.slug)).union(branches.map(\.brand)).sorted()
    let names = Dictionary(summaries.map { ($0.slug, $0.name) }, uniquingKeysWith: { first, _ in first })
    func name(_ slug: BrandSlug) -> String { names[slug] ?? slug.rawValue }

    let output = BundleOutput(destination)
    let frame = BranchListFrame(asOf: asOf, window: window)
    var exporters: [any BundleExporter] = [
      BranchesExporter(frame: frame, removed: removed),
      BrandFilesExporter(frame: frame, brands: brandSlugs, removed: removed),
      CalendarsExporter(asOf: asOf, brands: brandSlugs, brandName: name),
      IndexExporter(),
      ClosuresExporter(branches: branches, asOf: asOf, window: window),
      DistrictsExporter(branches: branches, window: window),
    ]
    for index in exporters.indices { try exporters[index].begin(output) }
    // A brand's files are finished as soon as its last branch is written, so that only the
    // brands in progress (one, when ids keep a brand together) are held in memory.
    var lastIndex: [BrandSlug: Int] = [:]
    for (index, branch) in branches.enumerated() { lastIndex[branch.brand] = index }
    var writer = CanonicalJSONWriter(capacity: 8192)
    for (index, branch) in branches.enumerated() {
      if index % 256 == 0, shouldStop() { return nil }
      writer.bytes.removeAll(keepingCapacity: true)
      do { try writer.branch(branch) } catch {
        throw ExportError(path: "branches.json", message: "encoding failed: \(error)")
      }
      let exported = ExportedBranch(
        branch: branch, json: writer.bytes[...], brandName: name(branch.brand), lastOfBrand: lastIndex[branch.brand] == index)
      for exporter in exporters.indices { try exporters[exporter].add(exported, to: output) }
    }
    for index in exporters.indices {
      if shouldStop() { return nil }
      try exporters[index].finish(output)
    }

    let listed = output.listed.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
    // The version hashes everything the manifest says except the version itself.
    var manifest = BundleManifest(
      schemaVersion: bundleSchemaVersion, version: "", asOf: asOf, window: window, brands: summaries, files: listed)
    func encoded(_ manifest: BundleManifest) throws(ExportError) -> Data {
      var writer = CanonicalJSONWriter(capacity: 128 * listed.count + 4096)
      do { try writer.manifest(manifest) } catch {
        throw ExportError(path: OutputLayout.manifestName, message: "encoding failed: \(error)")
      }
      writer.bytes.append(0x0A)
      return Data(writer.bytes)
    }
    manifest.version = "\(asOf.iso)-\(SHA256.hex(try encoded(manifest)).prefix(12))"
    let manifestData = try encoded(manifest)
    try output.whole(OutputLayout.manifestName, manifestData, listed: false)
    return BuiltBundle(
      manifest: manifest, manifestData: manifestData,
      files: output.kept.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) },
      directories: output.directories,
      branches: BranchesFile(
        schemaVersion: bundleSchemaVersion, asOf: asOf, window: window, branches: branches, removed: removed))
  }
}

/// The files of one bundle being built: opens them at their destination and lists each one
/// closed for the manifest.
final class BundleOutput {
  let destination: BundleDestination
  private(set) var listed: [BundleManifest.File] = []
  private(set) var kept: [(path: String, data: Data)] = []
  private(set) var directories: Set<String> = [""]

  init(_ destination: BundleDestination) { self.destination = destination }

  /// A new file at `path`, with a `.gz` copy made as it is written when `gzip`.
  func open(_ path: String, gzip: Bool) throws(ExportError) -> BundleFileStream {
    let file = BundleFileStream(path: path, file: try create(path))
    if gzip {
      file.gzip = GzipStream(into: BundleFileStream(path: path + ".gz", file: try create(path + ".gz")))
    }
    return file
  }

  /// Finishes `file` (and its `.gz` copy) and lists them.
  func close(_ file: BundleFileStream) throws(ExportError) {
    for finished in try file.finish() { add(finished) }
  }

  /// Writes a file made whole in memory; listed in the manifest unless `listed` is `false`.
  func whole(_ path: String, _ data: Data, listed: Bool = true) throws(ExportError) {
    let file = BundleFileStream(path: path, file: try create(path), hashed: listed)
    try withBytes(data) { buffer throws(ExportError) in try file.write(buffer) }
    let finished = try file.finish()
    if listed { for item in finished { add(item) } }
  }

  private func add(_ finished: BundleFileStream.Finished) {
    listed.append(BundleManifest.File(path: finished.path, sha256: finished.sha256, bytes: finished.bytes))
    if let data = finished.data { kept.append((finished.path, data)) }
  }

  /// A new file at `path` under the destination directory (creating its parent directory on
  /// first use), or `nil` in memory.
  private func create(_ path: String) throws(ExportError) -> WritableFile? {
    guard case .directory(let root) = destination else { return nil }
    let parent = (path as NSString).deletingLastPathComponent
    if directories.insert(parent).inserted { try Files.createDirectory(root.appendingPathComponent(parent).path) }
    return try WritableFile(creating: root.appendingPathComponent(path).path)
  }
}

/// Calls `body` with the bytes of `collection`, passing on its typed error.
private func withBytes<C: ContiguousBytes>(
  _ collection: C, _ body: (UnsafeRawBufferPointer) throws(ExportError) -> Void
) throws(ExportError) {
  var failure: ExportError?
  collection.withUnsafeBytes { buffer in
    do throws(ExportError) { try body(buffer) } catch { failure = error }
  }
  if let failure { throw failure }
}

/// One file being written: bytes are buffered and written to its file (or kept in memory),
/// hashed, and passed to its gzip copy, as they come.
final class BundleFileStream {
  struct Finished {
    var path: String
    var sha256: String
    var bytes: Int
    /// The bytes, when kept in memory.
    var data: Data?
  }

  let path: String
  /// `nil` when the bytes are kept in memory.
  private var file: WritableFile?
  private let inMemory: Bool
  private var buffer: [UInt8] = []
  private let hasher: SHA256.Hasher?
  private var count = 0
  var gzip: GzipStream?

  /// Buffered bytes are written out in pieces of this size.
  static let pieceSize = 1 << 17

  /// A stream into `file`, or kept in memory when `file` is `nil`.
  init(path: String, file: WritableFile?, hashed: Bool = true) {
    self.path = path
    self.file = file
    self.inMemory = file == nil
    self.hasher = hashed ? SHA256.Hasher() : nil
  }

  func write(_ bytes: [UInt8]) throws(ExportError) {
    try withBytes(bytes) { buffer throws(ExportError) in try write(buffer) }
  }

  func write(_ bytes: ArraySlice<UInt8>) throws(ExportError) {
    try withBytes(bytes) { buffer throws(ExportError) in try write(buffer) }
  }

  func write(_ bytes: UnsafeRawBufferPointer) throws(ExportError) {
    guard bytes.count > 0 else { return }
    hasher?.update(bytes)
    count += bytes.count
    try gzip?.write(bytes)
    buffer.append(contentsOf: bytes)
    if file != nil, buffer.count >= Self.pieceSize { try flushBuffer() }
  }

  /// Writes what is left, closes the file and its gzip copy, and says what they hold.
  func finish() throws(ExportError) -> [Finished] {
    var finished: [Finished] = []
    if let gzip {
      finished += try gzip.finish()
      self.gzip = nil
    }
    var data: Data?
    if let file {
      try flushBuffer()
      self.file = nil
      try file.close()
    } else if inMemory {
      data = Data(buffer)
      buffer = []
    }
    finished.insert(Finished(path: path, sha256: hasher?.finalize() ?? "", bytes: count, data: data), at: 0)
    return finished
  }

  private func flushBuffer() throws(ExportError) {
    try file?.write(buffer)
    buffer.removeAll(keepingCapacity: true)
  }
}

/// A gzip copy made as its file is written; the same bytes as ``Gzip/compress(_:)`` of the
/// whole file. Compressing (at level 9, which the format fixes) runs on a queue of its own, beside
/// the encoding of what comes next: the writer hands over pieces of the file, at most a few at
/// a time, and ``finish()`` waits for the last.
///
/// After `init`, `stream`, `output` and `target` are used on `queue` only, and `pending` on the
/// writer's thread only; that confinement is why the class is `@unchecked Sendable`.
final class GzipStream: @unchecked Sendable {
  private let target: BundleFileStream
  private let stream: UnsafeMutablePointer<z_stream>
  private var output = [UInt8](repeating: 0, count: 1 << 16)
  private var pending: [UInt8] = []
  private let queue = DispatchQueue(label: "mart-holiday.gzip")
  /// Pieces handed over and not yet compressed: bounds the memory a fast writer can fill.
  private let inFlight = DispatchSemaphore(value: 4)
  private let failure = Mutex<ExportError?>(nil)

  /// The size of the pieces handed to the queue.
  static let pieceSize = 1 << 18

  init(into target: BundleFileStream) {
    self.target = target
    guard let stream = mart_gzip_stream_new() else { preconditionFailure("zlib cannot start a gzip stream") }
    self.stream = stream
  }

  deinit { mart_gzip_stream_free(stream) }

  func write(_ bytes: UnsafeRawBufferPointer) throws(ExportError) {
    pending.append(contentsOf: bytes)
    if pending.count >= Self.pieceSize { try handOver(finish: false) }
  }

  /// Compresses what is left, waits for the queue, and closes the gzip file.
  func finish() throws(ExportError) -> [BundleFileStream.Finished] {
    try handOver(finish: true)
    queue.sync {}
    if let error = failure.withLock({ $0 }) { throw error }
    return try target.finish()
  }

  private func handOver(finish: Bool) throws(ExportError) {
    if let error = failure.withLock({ $0 }) { throw error }
    let piece = pending
    pending = []
    pending.reserveCapacity(Self.pieceSize + (1 << 16))
    inFlight.wait()
    queue.async { [self] in
      defer { inFlight.signal() }
      guard failure.withLock({ $0 == nil }) else { return }
      do throws(ExportError) {
        try withBytes(piece) { bytes throws(ExportError) in try compress(bytes, finish: finish) }
      } catch {
        failure.withLock { $0 = error }
      }
    }
  }

  /// Runs on `queue`.
  private func compress(_ bytes: UnsafeRawBufferPointer, finish: Bool) throws(ExportError) {
    var input = bytes
    while true {
      var consumed = 0
      var written = 0
      let capacity = output.count
      let status = output.withUnsafeMutableBytes { out in
        mart_gzip_stream_write(
          stream, input.baseAddress, input.count, finish ? 1 : 0, out.baseAddress, capacity, &consumed, &written)
      }
      precondition(status == Z_OK || status == Z_STREAM_END, "zlib's deflate failed with \(status)")
      if written > 0 {
        try withBytes(output[..<written]) { out throws(ExportError) in try target.write(out) }
      }
      input = UnsafeRawBufferPointer(rebasing: input[consumed...])
      if finish {
        if status == Z_STREAM_END { return }
      } else if input.isEmpty && written < capacity {
        return
      }
    }
  }
}
