import Foundation
import MartCore
import MartFetch
import MartFiles

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension RecordedExchange {
  /// The parts of `url` that matching and serving use.
  var parsedURL: URLParts { URLParts(url) }
}

/// A failure reading or writing a recording, naming the file.

/// A folder of recorded exchanges, as used for `fixtures/web` and run archives.
public struct ReplayArchive: Sendable {
  /// Every exchange, in recording order: exchange file paths, numbers compared as numbers (the
  /// last match wins, see `docs/recordings.md`).
  public var exchanges: [RecordedExchange]
  /// `recordedOn` from `replay.json` (`YYYY-MM-DD`), if present.
  public var recordedOn: String?
  /// `description` from `replay.json`, if present.
  public var description: String?

  public init(exchanges: [RecordedExchange], recordedOn: String? = nil, description: String? = nil) {
    self.exchanges = exchanges
    self.recordedOn = recordedOn
    self.description = description
  }

  /// Loads `replay.json` (optional) and every `*.exchange.json` below `directory`; or, when
  /// `directory` is a file, the WARC file it is (``WARCReader``).
  public static func load(from directory: URL) throws(FileError) -> ReplayArchive {
    if let kind = Files.kind(at: directory.path, followingLinks: true), kind != .directory {
      return try WARCReader.load(from: directory)
    }
    let manifestURL = directory.appendingPathComponent(manifestName)
    var manifest = Manifest()
    if Files.exists(manifestURL.path) {
      manifest = try decode(Manifest.self, from: manifestURL)
    }
    var exchangeFiles: [URL] = []
    PlainFiles.walk(directory.path) { relative, _ in
      if relative.hasSuffix(exchangeSuffix) { exchangeFiles.append(directory.appendingPathComponent(relative)) }
      return true
    }
    var exchanges: [RecordedExchange] = []
    let root = Files.ResolvedFolder(directory.path)
    for index in RecordingOrder.sorted(exchangeFiles.map(\.path)) {
      exchanges.append(try readExchange(exchangeFiles[index], within: root))
    }
    return ReplayArchive(exchanges: exchanges, recordedOn: manifest.recordedOn, description: manifest.description)
  }

  /// The name of a recording folder's manifest.
  static let manifestName = "replay.json"
  /// How the name of a recorded exchange ends.
  static let exchangeSuffix = ".exchange.json"

  /// Whether `url` is a recording folder, the one definition every reader uses: a folder
  /// (reached through links or not) holding `replay.json` or `*.exchange.json` files, directly
  /// or one host folder down (docs/recordings.md). A folder that merely contains a recording
  /// somewhere deeper (the repository root) is not one, nor is a WARC file.
  public static func isRecordingFolder(_ url: URL) -> Bool {
    guard Files.kind(at: url.path, followingLinks: true) == .directory else { return false }
    if Files.exists(url.appendingPathComponent(manifestName).path) { return true }
    for entry in PlainFiles.names(in: url.path) {
      if entry.hasSuffix(exchangeSuffix) { return true }
      let inside = PlainFiles.names(in: url.appendingPathComponent(entry).path)
      if inside.contains(where: { $0.hasSuffix(exchangeSuffix) }) { return true }
    }
    return false
  }

  /// Writes `replay.json` into `directory`, creating the folder if needed.
  public static func writeManifest(recordedOn: String, description: String, to directory: URL) throws(FileError) {
    try createDirectory(directory)
    try write(
      encode(Manifest(recordedOn: recordedOn, description: description)),
      to: directory.appendingPathComponent(manifestName))
  }

  /// Writes `<directory>/<host>/<name>.exchange.json` and, for a non-empty body,
  /// `<name>.body.<ext>` beside it (`ext` from the Content-Type: json, html, xml or txt).
  /// Returns the exchange file's URL.
  @discardableResult
  public static func write(_ exchange: RecordedExchange, name: String, to directory: URL) throws(FileError) -> URL {
    let host = exchange.parsedURL.host
    guard !host.isEmpty else { throw FileError(.invalid, path: exchange.url, message: "the recorded URL has no host") }
    guard !name.isEmpty, !name.contains("/") else {
      throw FileError(.invalid, path: name, message: "an exchange name must be non-empty and contain no '/'")
    }
    let folder = directory.appendingPathComponent(host)
    try createDirectory(folder)
    var bodyFile: String?
    if !exchange.body.isEmpty {
      let fileName = "\(name).body.\(bodyExtension(contentType: exchange.headers.value(named: "Content-Type")))"
      try writeUnsynced(exchange.body, to: folder.appendingPathComponent(fileName))
      bodyFile = fileName
    }
    let file = ExchangeFile(
      request: .init(body: exchange.requestBody, method: exchange.method, url: exchange.url),
      response: .init(
        bodyFile: bodyFile, headers: exchange.headers.map { [$0.name, $0.value] }, status: exchange.status))
    let exchangeURL = folder.appendingPathComponent(name + exchangeSuffix)
    try writeUnsynced(encode(file), to: exchangeURL)
    return exchangeURL
  }

  /// Makes everything written under `directory` durable with one barrier (see
  /// ``Files/makeTreeDurable(_:)``). ``write(_:name:to:)`` does not flush what it writes; an
  /// archive is made durable once, when its run ends.
  public static func makeDurable(_ directory: URL) throws(FileError) {
    try Files.makeTreeDurable(directory.path)
  }

  /// Writes `data` to a new file without flushing it (see ``makeDurable(_:)``).
  private static func writeUnsynced(_ data: Data, to file: URL) throws(FileError) {
    try Files.write(data, to: file.path)
  }

  /// The last exchange recorded for `host` that matches `request` (see `docs/recordings.md`).
  /// To answer many requests, build a `RecordingIndex` once instead.
  public func match(_ request: ServerRequest, host: String) -> RecordedExchange? {
    RecordingIndex(self).match(request, host: host)
  }

  /// The last exchange that matches `request` the way the replay server matches what it
  /// receives: for answering requests without a listener.
  public func match(_ request: HTTPRequest) -> RecordedExchange? {
    let url = URLParts(request.url)
    let received = ServerRequest(
      method: request.method.rawValue, path: url.path, query: url.query, headers: request.headers,
      body: request.body ?? Data())
    return match(received, host: url.host)
  }

  /// The same archive with only the exchanges recorded for `hosts`.
  public func restricted(toHosts hosts: Set<String>) -> ReplayArchive {
    let hosts = Set(hosts.map { $0.lowercased() })
    var copy = self
    copy.exchanges = exchanges.filter { hosts.contains($0.parsedURL.host) }
    return copy
  }

  // MARK: File format

  private struct Manifest: Codable {
    var recordedOn: String?
    var description: String?
  }

  private struct ExchangeFile: Codable {
    struct Request: Codable {
      var body: String?
      var method: String
      var url: String
    }
    struct Response: Codable {
      var bodyFile: String?
      var headers: [[String]]
      var status: Int
    }
    var request: Request
    var response: Response
  }

  /// Reads one `*.exchange.json` file and its body file. Both must lie inside `recording`
  /// (default: the exchange file's folder), as written and with symbolic links resolved: a
  /// `bodyFile` that is absolute, has a `..` component or is a link leading out is refused, so
  /// that a foreign recording cannot bring another file into a bundle.
  public static func readExchange(_ file: URL, within recording: URL? = nil) throws(FileError) -> RecordedExchange {
    try readExchange(file, within: Files.ResolvedFolder((recording ?? file.deletingLastPathComponent()).path))
  }

  private static func readExchange(_ file: URL, within root: Files.ResolvedFolder) throws(FileError) -> RecordedExchange
  {
    guard root.contains(file.path) else {
      throw FileError(
        .foreign, path: file.path, message: "leads outside the recording \(root.path) (a symbolic link)")
    }
    let exchangeFile = try decode(ExchangeFile.self, from: file)
    var headers: [HTTPHeader] = []
    for pair in exchangeFile.response.headers {
      guard pair.count == 2 else {
        throw FileError(.malformed, path: file.path, message: "a header must be a [name, value] pair, found \(pair)")
      }
      headers.append(HTTPHeader(pair[0], pair[1]))
    }
    var body = Data()
    if let bodyFile = exchangeFile.response.bodyFile {
      let bodyURL = file.deletingLastPathComponent().appendingPathComponent(bodyFile)
      let components = bodyFile.split(separator: "/", omittingEmptySubsequences: false)
      guard !bodyFile.hasPrefix("/"), !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
        root.contains(bodyURL.path)
      else {
        throw FileError(
          .foreign,
          path: file.path,
          message:
            "response.bodyFile \"\(bodyFile)\" leads outside the recording \(root.path); it must name a file beside the exchange"
        )
      }
      do {
        body = try Data(contentsOf: bodyURL)
      } catch {
        throw FileError(
          .read,
          path: file.path, message: "cannot read body file \(bodyURL.path): \(error.localizedDescription)")
      }
    }
    return RecordedExchange(
      method: exchangeFile.request.method, url: exchangeFile.request.url, requestBody: exchangeFile.request.body,
      status: exchangeFile.response.status, headers: headers, body: body)
  }

  private static func decode<Value: Decodable>(_ type: Value.Type, from file: URL) throws(FileError) -> Value {
    let data: Data
    do {
      data = try Data(contentsOf: file)
    } catch {
      throw FileError(.read, path: file.path, message: "cannot read: \(error.localizedDescription)")
    }
    do {
      return try JSONDecoder().decode(type, from: data)
    } catch {
      throw FileError(.malformed, path: file.path, message: "malformed JSON", cause: error)
    }
  }

  private static func encode<Value: Encodable>(_ value: Value) throws(FileError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    do {
      return try encoder.encode(value) + Data("\n".utf8)
    } catch {
      throw FileError(.encode, path: "\(Value.self)", message: "cannot encode", cause: error)
    }
  }

  private static func write(_ data: Data, to file: URL) throws(FileError) {
    try Files.replace(file.path, with: data)
  }

  private static func createDirectory(_ directory: URL) throws(FileError) {
    try Files.createDirectory(directory.path)
  }

  private static func bodyExtension(contentType: String?) -> String {
    let type = contentType?.lowercased() ?? ""
    if type.contains("json") { return "json" }
    if type.contains("html") { return "html" }
    if type.contains("xml") { return "xml" }
    return "txt"
  }
}

/// An archive's exchanges grouped by what a match needs to agree on — host, method, decoded path
/// and query fields — so that answering a request checks only the exchanges that can match
/// (usually one), in recording order. Gives the same answers as checking every exchange.
public struct RecordingIndex: Sendable {
  private struct Key: Hashable {
    var host: String
    var method: String
    var path: String
    var query: [[String]]
  }

  /// A recorded exchange with its request body read once, as text, bytes and form fields.
  private struct Candidate: Sendable {
    var exchange: RecordedExchange
    var body: Data
    var bodyLooksLikeForm: Bool
    var bodyFields: [[String]]
  }

  private var candidates: [Key: [Candidate]] = [:]

  public init(_ archive: ReplayArchive) {
    for exchange in archive.exchanges {
      let url = exchange.parsedURL
      let key = Key(
        host: url.host, method: exchange.method.uppercased(), path: RecordingMatcher.decodedPath(url.path),
        query: RecordingMatcher.fieldMultiset(url.query))
      let body = exchange.requestBody ?? ""
      candidates[key, default: []].append(
        Candidate(
          exchange: exchange, body: Data(body.utf8), bodyLooksLikeForm: RecordingMatcher.looksLikeForm(body),
          bodyFields: RecordingMatcher.fieldMultiset(body)))
    }
  }

  /// The last exchange recorded for `host` that matches `request` (see `docs/recordings.md`):
  /// for a request a run asked more than once, the answer it got last, the one it used.
  ///
  /// Method, path and query are the key; among the exchanges under it, the bodies decide: as
  /// form fields when the request says it is a form or the recorded body looks like one, else
  /// byte for byte.
  public func match(_ request: ServerRequest, host: String) -> RecordedExchange? {
    let key = Key(
      host: host.lowercased(), method: request.method.uppercased(), path: RecordingMatcher.decodedPath(request.path),
      query: RecordingMatcher.fieldMultiset(request.query))
    guard let bucket = candidates[key] else { return nil }
    let requestIsForm = RecordingMatcher.isForm(request)
    var requestFields: [[String]]?
    for candidate in bucket.reversed() {
      if requestIsForm || candidate.bodyLooksLikeForm {
        if requestFields == nil {
          requestFields = RecordingMatcher.fieldMultiset(String(decoding: request.body, as: UTF8.self))
        }
        if requestFields == candidate.bodyFields { return candidate.exchange }
      } else if request.body == candidate.body {
        return candidate.exchange
      }
    }
    return nil
  }
}

/// The matching rules of `docs/recordings.md`.
enum RecordingMatcher {
  /// Whether the request says its body is a form (`application/x-www-form-urlencoded`).
  static func isForm(_ request: ServerRequest) -> Bool {
    request.headers.value(named: "Content-Type")?.lowercased().hasPrefix("application/x-www-form-urlencoded") ?? false
  }

  /// `a=1&b=2`: name=value pairs with no whitespace, not JSON or XML.
  static func looksLikeForm(_ body: String) -> Bool {
    guard let first = body.first, !"{[<".contains(first), body.contains("=") else { return false }
    return !body.contains { $0.isWhitespace }
  }

  /// The decoded name/value pairs, sorted, so that order and encoding do not matter.
  static func fieldMultiset(_ text: String) -> [[String]] {
    FormEncoding.decode(text).map { [$0.name, $0.value] }.sorted { ($0[0], $0[1]) < ($1[0], $1[1]) }
  }

  static func decodedPath(_ path: String) -> String {
    path.removingPercentEncoding ?? path
  }
}

/// The order of a recording's exchange files: by path, with runs of digits compared as numbers,
/// so that an archive's `9999-…` comes before its `10000-…` and the order is the order in which
/// the run received the answers.
enum RecordingOrder {
  /// `paths` in recording order, each path's key built once.
  static func sorted(_ paths: [String]) -> [Int] {
    let keys = paths.map(sortKey)
    return paths.indices.sorted { precedes(keys[$0], keys[$1]) }
  }

  /// `first.lexicographicallyPrecedes(second)`, on the keys' buffers: the generic algorithm,
  /// unspecialized in a debug build, was most of the time a replay took to load.
  static func precedes(_ first: [UInt32], _ second: [UInt32]) -> Bool {
    first.withUnsafeBufferPointer { first in
      second.withUnsafeBufferPointer { second in
        for index in 0..<min(first.count, second.count) where first[index] != second[index] {
          return first[index] < second[index]
        }
        return first.count < second.count
      }
    }
  }

  /// A key whose plain lexicographic order is the recording order: a byte that is not a digit
  /// stands for itself; a run of digits becomes `0`, the length of its number without leading
  /// zeros, that number's digits and the run's whole length, so that a shorter number comes
  /// first and, for equal numbers, the run with fewer leading zeros. No byte but a digit is `0`,
  /// so a run's first element orders against another byte as any digit does.
  static func sortKey(_ path: String) -> [UInt32] {
    let bytes = Array(path.utf8)
    var key: [UInt32] = []
    key.reserveCapacity(bytes.count + 8)
    var index = 0
    while index < bytes.count {
      guard isDigit(bytes[index]) else {
        key.append(UInt32(bytes[index]))
        index += 1
        continue
      }
      var end = index
      while end < bytes.count, isDigit(bytes[end]) { end += 1 }
      var start = index
      while start < end, bytes[start] == UInt8(ascii: "0") { start += 1 }
      key.append(UInt32(UInt8(ascii: "0")))
      key.append(UInt32(end - start))
      for position in start..<end { key.append(UInt32(bytes[position])) }
      key.append(UInt32(end - index))
      index = end
    }
    return key
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}
