import CZlib
import Foundation
import MartCore
import MartDigest
import Synchronization

/// What ``BundleBuilder/build(branches:brands:asOf:window:removed:shouldStop:)`` made.
struct BuiltBundle {
  var manifest: BundleManifest
  var manifestData: Data
  /// Every file but the manifest, sorted by path.
  var files: [(path: String, data: Data)]
  /// `branches.json` as written: the branches and removed ids sorted by id.
  var branches: BranchesFile
}

/// Makes every file of a bundle in memory in one pass over the branches, composing one exporter
/// per kind of file (``BundleExporter``: branches, brand files, calendars, index, closures,
/// districts):
/// each branch is encoded once, by ``CanonicalJSONWriter``, and its bytes go both to
/// `branches.json` and to its brand's file; the SHA-256 and the gzip copy of each file are
/// computed on the bytes as they are made. The bytes are those of the `CanonicalJSON` encoding
/// of the bundle's types (see ``BundleContents``). The whole bundle, and so its version, is known
/// before anything is written: ``BundleStore`` writes nothing when it is already published, and
/// links the files an earlier bundle already has.
enum BundleBuilder {
  /// Builds the bundle, with `removed` as the ids the sources stopped listing. Returns `nil` when `shouldStop` (asked between files and every few
  /// hundred branches) answers `true`.
  static func build(
    branches unsorted: [Branch], brands: [BrandSummary], asOf: CalendarDate, window: DateWindow,
    removed unsortedRemoved: [RemovedBranch] = [],
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

    let output = BundleOutput()
    let frame = BranchListFrame(asOf: asOf, window: window)
    var exporters: [any BundleExporter] = [
      BranchesExporter(frame: frame, removed: removed),
      BrandFilesExporter(frame: frame, brands: brandSlugs, removed: removed),
      CalendarsExporter(asOf: asOf, brands: brandSlugs, brandName: name),
      IndexExporter(),
      ClosuresExporter(branches: branches, asOf: asOf, window: window),
      DistrictsExporter(branches: branches, window: window, exempt: summaries.exemptFromDesignation),
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
    return BuiltBundle(
      manifest: manifest, manifestData: manifestData,
      files: output.kept.sorted { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) },
      branches: BranchesFile(
        schemaVersion: bundleSchemaVersion, asOf: asOf, window: window, branches: branches, removed: removed))
  }
}

/// The files of one bundle being built: keeps each one closed, and lists it for the manifest.
final class BundleOutput {
  private(set) var listed: [BundleManifest.File] = []
  private(set) var kept: [(path: String, data: Data)] = []

  /// A new file at `path`, with a `.gz` copy made as it is written when `gzip`.
  func open(_ path: String, gzip: Bool) -> BundleFileStream {
    let file = BundleFileStream(path: path)
    if gzip { file.gzip = GzipStream(into: BundleFileStream(path: path + ".gz")) }
    return file
  }

  /// Finishes `file` (and its `.gz` copy) and lists them.
  func close(_ file: BundleFileStream) throws(ExportError) {
    for finished in try file.finish() { add(finished) }
  }

  /// Adds a file made whole in memory.
  func whole(_ path: String, _ data: Data) {
    listed.append(BundleManifest.File(path: path, sha256: SHA256.hex(data), bytes: data.count))
    kept.append((path, data))
  }

  private func add(_ finished: BundleFileStream.Finished) {
    listed.append(BundleManifest.File(path: finished.path, sha256: finished.sha256, bytes: finished.bytes))
    kept.append((finished.path, finished.data))
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

/// One file being made: bytes are kept, hashed, and passed to its gzip copy, as they come.
final class BundleFileStream {
  struct Finished {
    var path: String
    var sha256: String
    var bytes: Int
    var data: Data
  }

  let path: String
  private var buffer: [UInt8] = []
  private let hasher = SHA256.Hasher()
  var gzip: GzipStream?

  init(path: String) { self.path = path }

  func write(_ bytes: [UInt8]) throws(ExportError) {
    try withBytes(bytes) { buffer throws(ExportError) in try write(buffer) }
  }

  func write(_ bytes: ArraySlice<UInt8>) throws(ExportError) {
    try withBytes(bytes) { buffer throws(ExportError) in try write(buffer) }
  }

  func write(_ bytes: UnsafeRawBufferPointer) throws(ExportError) {
    guard bytes.count > 0 else { return }
    hasher.update(bytes)
    try gzip?.write(bytes)
    buffer.append(contentsOf: bytes)
  }

  /// Finishes the file and its gzip copy, and says what they hold.
  func finish() throws(ExportError) -> [Finished] {
    var finished: [Finished] = []
    if let gzip {
      finished += try gzip.finish()
      self.gzip = nil
    }
    let data = Data(buffer)
    buffer = []
    finished.insert(Finished(path: path, sha256: hasher.finalize(), bytes: data.count, data: data), at: 0)
    return finished
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
