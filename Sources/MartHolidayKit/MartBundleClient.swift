import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Fetches the newest bundle from where an output directory is served (HTTPS), verifies it,
/// and keeps the last good one.
///
/// - `latest.json` is asked for with `If-None-Match` / `If-Modified-Since`; a `304` reuses the
///   copy kept on disk.
/// - Bundle files never change (their folder is named after their content), so the files the
///   kit reads (`manifest.json`, `branches.json`) are kept in a small on-disk cache and fetched
///   once. Each is checked against `latest.json` or `manifest.json` before it is used or kept.
/// - When the network fails or a file fails its check, ``latest()`` throws and nothing kept is
///   replaced: ``lastGoodBundle()`` still answers, even after a restart without a network.
///
/// ```swift
/// let client = MartBundleClient(baseURL: URL(string: "https://example.com/mart-holiday/")!)
/// let bundle = try await client.latest()
/// ```
public actor MartBundleClient {
  /// The URL of the served output directory (the folder holding `latest.json`).
  public let baseURL: URL
  /// Where the kept files live.
  public let cacheDirectory: URL
  private let session: URLSession
  private var lastGood: MartBundle?

  /// The validators of the kept `latest.json`.
  private struct Validators: Codable {
    var etag: String?
    var lastModified: String?
  }

  /// A client for the output directory served at `baseURL`.
  ///
  /// - Parameters:
  ///   - baseURL: the folder holding `latest.json`, e.g. `https://example.com/mart-holiday/`.
  ///   - cacheDirectory: where to keep `latest.json` and the bundle files; by default a folder
  ///     named after the host under the user's caches directory.
  ///   - session: the session to use; by default an ephemeral one without a URL cache (the
  ///     client keeps its own).
  public init(baseURL: URL, cacheDirectory: URL? = nil, session: URLSession? = nil) {
    self.baseURL = baseURL
    self.cacheDirectory =
      cacheDirectory
      ?? FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
      .appendingPathComponent("MartHolidayKit")
      .appendingPathComponent(Self.folderName(for: baseURL))
    if let session {
      self.session = session
    } else {
      let configuration = URLSessionConfiguration.ephemeral
      configuration.urlCache = nil
      configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
      configuration.timeoutIntervalForRequest = 30
      self.session = URLSession(configuration: configuration)
    }
  }

  /// Fetches `latest.json` and, when it names a bundle not yet loaded, the bundle; verifies it
  /// and keeps it as the last good bundle.
  ///
  /// - Throws: ``MartBundleError`` naming the URL that failed (``MartBundleError/Code/network``,
  ///   ``MartBundleError/Code/httpStatus``, ``MartBundleError/Code/digestMismatch`` …). Nothing
  ///   kept is replaced then; ``lastGoodBundle()`` still answers.
  public func latest() async throws(MartBundleError) -> MartBundle {
    let latestURL = baseURL.appendingPathComponent("latest.json")
    let keptPointer = readKept("latest.json")
    let keptValidators = readKept("latest.validators.json").flatMap {
      try? JSONDecoder().decode(Validators.self, from: $0)
    }
    var request = URLRequest(url: latestURL)
    if keptPointer != nil, let keptValidators {
      if let etag = keptValidators.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
      if let date = keptValidators.lastModified { request.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
    }
    let (body, response) = try await fetch(request)
    let pointerData: Data
    var validators = keptValidators
    switch response.statusCode {
    case 304 where keptPointer != nil:
      pointerData = keptPointer!
    case 200:
      pointerData = body
      validators = Validators(
        etag: response.value(forHTTPHeaderField: "ETag"),
        lastModified: response.value(forHTTPHeaderField: "Last-Modified"))
    default:
      throw Self.statusError(response.statusCode, url: latestURL)
    }
    let pointer = try BundleReader.pointer(from: pointerData, location: latestURL.absoluteString)
    let bundle: MartBundle
    if let lastGood = lastGoodBundle(), lastGood.version == pointer.version {
      bundle = lastGood
    } else {
      bundle = try await load(pointer)
    }
    lastGood = bundle
    keep(pointerData, as: "latest.json")
    if let validators, let data = try? JSONEncoder().encode(validators) { keep(data, as: "latest.validators.json") }
    pruneKeptBundles(except: pointer.bundle)
    return bundle
  }

  /// The last bundle that loaded and verified: the one in memory, or else the one kept on disk
  /// (checked again), or `nil` when there is none.
  public func lastGoodBundle() -> MartBundle? {
    if let lastGood { return lastGood }
    guard let pointerData = readKept("latest.json"),
      let pointer = try? BundleReader.pointer(from: pointerData, location: "latest.json"),
      let manifestData = readKept("\(pointer.bundle)/manifest.json"),
      let manifest = try? BundleReader.manifest(from: manifestData, pointer: pointer, location: "manifest.json"),
      let entry = try? BundleReader.entry(BundleReader.branchesPath, in: manifest, location: "manifest.json"),
      let branchesData = readKept("\(pointer.bundle)/\(entry.path)"),
      (try? BundleReader.verify(branchesData, against: entry, location: entry.path)) != nil,
      let bundle = try? BundleReader.bundle(
        pointer: pointer, manifest: manifest, branchesData: branchesData, location: entry.path)
    else { return nil }
    lastGood = bundle
    return bundle
  }

  /// Loads the bundle `pointer` names: its manifest and `branches.json`, from the disk cache
  /// when kept there intact, else from the server; each is verified before use.
  private func load(_ pointer: LatestFile) async throws(MartBundleError) -> MartBundle {
    let manifestPath = "\(pointer.bundle)/manifest.json"
    let manifestURL = url(of: manifestPath)
    let manifestData = try await file(manifestPath) { data throws(MartBundleError) in
      _ = try BundleReader.manifest(from: data, pointer: pointer, location: manifestURL.absoluteString)
    }
    let manifest = try BundleReader.manifest(
      from: manifestData, pointer: pointer, location: manifestURL.absoluteString)
    let entry = try BundleReader.entry(BundleReader.branchesPath, in: manifest, location: manifestURL.absoluteString)
    let branchesPath = "\(pointer.bundle)/\(entry.path)"
    let branchesURL = url(of: branchesPath)
    let branchesData = try await file(branchesPath) { data throws(MartBundleError) in
      try BundleReader.verify(data, against: entry, location: branchesURL.absoluteString)
    }
    return try BundleReader.bundle(
      pointer: pointer, manifest: manifest, branchesData: branchesData, location: branchesURL.absoluteString)
  }

  /// An immutable bundle file: the kept copy when it passes `check`, else the server's, which
  /// must pass `check` before it is kept.
  private func file(
    _ path: String, check: (Data) throws(MartBundleError) -> Void
  ) async throws(MartBundleError) -> Data {
    if let kept = readKept(path), (try? check(kept)) != nil { return kept }
    let url = url(of: path)
    let (data, response) = try await fetch(URLRequest(url: url))
    guard response.statusCode == 200 else { throw Self.statusError(response.statusCode, url: url) }
    try check(data)
    keep(data, as: path)
    return data
  }

  private func fetch(_ request: URLRequest) async throws(MartBundleError) -> (Data, HTTPURLResponse) {
    let location = request.url?.absoluteString ?? "?"
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.data(for: request)
    } catch {
      throw MartBundleError(.network, location: location, message: error.localizedDescription)
    }
    guard let http = response as? HTTPURLResponse else {
      throw MartBundleError(.network, location: location, message: "not an HTTP response")
    }
    return (data, http)
  }

  private static func statusError(_ status: Int, url: URL) -> MartBundleError {
    MartBundleError(status == 404 ? .missingFile : .httpStatus, location: url.absoluteString, message: "HTTP \(status)")
  }

  private func url(of path: String) -> URL {
    path.split(separator: "/").reduce(baseURL) { $0.appendingPathComponent(String($1)) }
  }

  private func readKept(_ path: String) -> Data? {
    try? Data(contentsOf: cacheDirectory.appendingPathComponent(path))
  }

  /// Keeps `data` at `path` under the cache directory, written whole (a failure to keep only
  /// costs a later download).
  private func keep(_ data: Data, as path: String) {
    let url = cacheDirectory.appendingPathComponent(path)
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? data.write(to: url, options: .atomic)
  }

  /// Removes kept bundles other than `current` (a path such as `bundles/<version>`).
  private func pruneKeptBundles(except current: String) {
    let folder = cacheDirectory.appendingPathComponent("bundles")
    let currentName = URL(fileURLWithPath: current).lastPathComponent
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    for name in names where name != currentName {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
  }

  /// A file-name-safe folder for `url`: its host and path with other characters as `_`.
  private static func folderName(for url: URL) -> String {
    let text = (url.host ?? "local") + url.path
    return String(text.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
  }
}
