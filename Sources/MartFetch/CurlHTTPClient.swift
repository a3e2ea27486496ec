import CCurl
import Foundation
import MartCore
import Synchronization

/// An `HTTPFetching` client backed by libcurl, meant to be shared by every request of a run.
///
/// One libcurl multi handle drives all transfers on one dedicated thread (`curl_multi_poll`),
/// so requests cost no OS thread each and share libcurl's connection cache: connections are
/// kept alive and reused, HTTP/2 is negotiated over TLS where the server offers it, and
/// transfers to one HTTP/2 host are multiplexed over one connection.
///
/// TLS is paid once per client, not per connection: the trusted certificates are named as one
/// file (`CURLOPT_CAINFO`, no `CURLOPT_CAPATH`), which lets libcurl parse them into one X509
/// store that every connection of the multi handle shares, and TLS sessions are shared
/// between transfers (a share handle), so a new connection to a host resumes the session of
/// an earlier one instead of a full handshake. Redirects are followed
/// (http and https only), gzip and deflate bodies are decoded, and only transport failures
/// throw: any HTTP status is returned as a response. Cancelling the calling task removes the
/// transfer at once and throws `FetchError.Code.cancelled`.
///
/// A request with a fresh `connection` goes on a new connection that is closed after its
/// answer. After one asked again because an answer was another request's
/// (`freshAfterMismatch`), so does every request to its origin: HTTP/1.1 cannot tell an answer
/// from a leftover copy of an earlier one, so no kept-alive connection to that origin (the one
/// the wrong answer came on included) is used again.
public final class CurlHTTPClient: HTTPFetching {
  public let configuration: HTTPClientConfiguration
  private let engine: CurlMultiEngine

  public init(configuration: HTTPClientConfiguration = HTTPClientConfiguration()) {
    self.configuration = configuration
    engine = CurlMultiEngine()
  }

  deinit { engine.stop() }

  public func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    let url = request.url
    let lowercasedURL = url.lowercased()
    guard lowercasedURL.hasPrefix("http://") || lowercasedURL.hasPrefix("https://") else {
      throw FetchError(.invalidURL, url: url, message: "only http and https URLs are fetched: \(url)")
    }
    let headers = [HTTPHeader("User-Agent", configuration.userAgent)] + configuration.defaultHeaders + request.headers
    if let problem = headers.lazy.compactMap(\.problem).first {
      throw FetchError(.transport, url: url, message: "not sent: \(problem)")
    }
    var request = request
    if engine.needsFreshConnection(request), !request.freshConnection { request.connection = .fresh }
    guard request.freshConnection else { return try await transfer(request) }
    // libcurl may follow a redirect on a kept-alive connection even in a fresh transfer, so a
    // fresh request's redirects are followed here, each on a fresh connection of its own.
    var current = request
    var plainAfterSecure = false
    for _ in 0...max(0, configuration.maxRedirects) {
      var response = try await transfer(current)
      response.cameOverPlainHTTP = response.cameOverPlainHTTP || plainAfterSecure
      guard [301, 302, 303, 307, 308].contains(response.status),
        let location = response.headers.value(named: "Location"),
        let next = URL(string: location, relativeTo: URL(string: current.url))?.absoluteString
      else {
        response.requestURL = request.url
        return response
      }
      guard ["http://", "https://"].contains(where: next.lowercased().hasPrefix) else {
        throw FetchError(.redirect, url: request.url, message: "refused redirect to \(next)")
      }
      if Self.isDowngrade(from: current.url, to: next) {
        guard configuration.https.allowsInsecureRedirects else {
          throw FetchError(
            .redirect, url: request.url,
            message: Self.insecureRedirectRefusal(
              from: current.url == request.url ? nil : current.url, to: next, option: configuration.https.insecureRedirectSetting))
        }
        plainAfterSecure = true
      }
      // As libcurl does: 303, and 301 or 302 after a POST, turn into a GET.
      if response.status == 303 || (current.method == .post && [301, 302].contains(response.status)) {
        current.method = .get
        current.body = nil
        current.headers.removeAll { $0.name.equalsIgnoringASCIICase("Content-Type") }
      }
      current.url = next
    }
    throw FetchError(.redirect, url: request.url, message: "more than \(configuration.maxRedirects) redirects")
  }

  /// Whether a redirect from `url` to `next` leaves HTTPS for plain HTTP.
  static func isDowngrade(from url: String, to next: String) -> Bool {
    url.lowercased().hasPrefix("https://") && next.lowercased().hasPrefix("http://")
  }

  /// The message of a refused redirect from HTTPS to plain HTTP, naming the plain URL, and the
  /// HTTPS one it came from when that is not the request's own (which the error names already).
  static func insecureRedirectRefusal(from url: String?, to next: String, option: String?) -> String {
    (url.map { "refused redirect from \($0) to plain HTTP at \(next)" } ?? "refused redirect to plain HTTP at \(next)")
      + ": an HTTPS source is not read over plain HTTP" + (option.map { " (\($0) allows it)" } ?? "")
  }

  /// One transfer of `request` through the engine.
  private func transfer(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    let engine = self.engine
    let id = engine.nextID()
    let submission = { (continuation: CheckedContinuation<Result<HTTPResponse, FetchError>, Never>) in
      CurlMultiEngine.Submission(
        id: id, request: request, configuration: self.configuration, continuation: continuation)
    }
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        engine.submit(submission(continuation))
      }
    } onCancel: {
      engine.cancel(id)
    }
    return try result.get()
  }
}

/// The result of `curl_global_init`, run once (Swift initializes globals lazily and thread-safely).
private let curlGlobalInitResult: CURLcode = curl_global_init(Int(CURL_GLOBAL_ALL))

/// The queue between the tasks asking for transfers and the one thread running them.
///
/// `@unchecked Sendable` because the multi handle is used on the transfer thread only, with one
/// exception libcurl documents as safe from any thread: `curl_multi_wakeup`. Everything else
/// shared is in `inbox`, behind a mutex. The thread holds the engine until it ends, so the
/// multi handle is cleaned up (in `deinit`) only once nothing can wake it any more.
private final class CurlMultiEngine: @unchecked Sendable {
  /// A request waiting to be started on the transfer thread.
  struct Submission: Sendable {
    var id: Int
    var request: HTTPRequest
    var configuration: HTTPClientConfiguration
    var continuation: CheckedContinuation<Result<HTTPResponse, FetchError>, Never>
  }

  private struct Inbox {
    var submissions: [Submission] = []
    var cancellations: [Int] = []
    var isStopping = false
  }

  /// Origins whose kept-alive connections are not trusted any more (see `CurlHTTPClient`).
  private let distrustedOrigins = Mutex(Set<String>())

  /// nil when libcurl could not be initialized; every request then fails.
  private let multi: UnsafeMutableRawPointer?
  /// The TLS session cache every transfer uses. Used on the transfer thread only, so it needs no
  /// lock callbacks.
  private let share: UnsafeMutableRawPointer?
  private let inbox = Mutex(Inbox())
  private let ids = Atomic(0)

  init() {
    multi = curlGlobalInitResult == CURLE_OK ? curl_multi_init() : nil
    share = multi == nil ? nil : curl_share_init()
    if let share {
      _ = mart_curl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
    }
    guard let multi else { return }
    // Multiplex HTTP/2 streams over one connection, and keep enough idle connections for
    // every host a run talks to at once.
    _ = mart_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
    _ = mart_curl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, 64)
    let thread = Thread { self.runTransfers() }
    thread.name = "mart-holiday.curl"
    thread.start()
  }

  deinit {
    // Every easy handle is cleaned up by now (the thread ends with none running), so the share
    // handle is no longer in use.
    if let multi { curl_multi_cleanup(multi) }
    if let share { curl_share_cleanup(share) }
  }

  func nextID() -> Int { ids.wrappingAdd(1, ordering: .relaxed).newValue }

  /// Whether `request` must go on a new connection: it follows a mismatched answer, or an
  /// earlier one to its origin did.
  func needsFreshConnection(_ request: HTTPRequest) -> Bool {
    let origin = URLParts(request.url.lowercased()).origin
    return distrustedOrigins.withLock { origins in
      if request.connection == .freshAfterMismatch { origins.insert(origin) }
      return origins.contains(origin)
    }
  }

  /// Queues a transfer and wakes the thread. A task cancelled by now is answered at once; one
  /// cancelled later reaches `cancel(_:)` after this has queued the submission (the same lock
  /// orders them), so the thread always finds the transfer it is asked to stop.
  func submit(_ submission: Submission) {
    let url = submission.request.url
    guard let multi else {
      submission.continuation.resume(
        returning: .failure(FetchError(.transport, url: url, message: "libcurl could not be initialized")))
      return
    }
    let queued = inbox.withLock { inbox in
      guard !Task.isCancelled else { return false }
      inbox.submissions.append(submission)
      return true
    }
    guard queued else {
      submission.continuation.resume(
        returning: .failure(FetchError(.cancelled, url: url, message: "cancelled before the transfer started")))
      return
    }
    curl_multi_wakeup(multi)
  }

  /// Asks the thread to stop transfer `id`, if it is still running.
  func cancel(_ id: Int) {
    guard let multi else { return }
    inbox.withLock { $0.cancellations.append(id) }
    curl_multi_wakeup(multi)
  }

  /// Ends the thread once the transfers in progress are done.
  func stop() {
    guard let multi else { return }
    inbox.withLock { $0.isStopping = true }
    curl_multi_wakeup(multi)
  }

  /// The transfer thread: starts queued transfers, stops cancelled ones, lets libcurl work and
  /// answers each finished transfer's caller, until stopped with nothing left to run.
  private func runTransfers() {
    guard let multi else { return }
    var transfers: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    var handlesByID: [Int: UnsafeMutableRawPointer] = [:]

    func finish(_ handle: UnsafeMutableRawPointer, with code: CURLcode?) {
      guard let transfer = transfers.removeValue(forKey: handle) else { return }
      handlesByID[transfer.id] = nil
      curl_multi_remove_handle(multi, handle)
      transfer.continuation.resume(returning: transfer.result(code))
    }

    while true {
      let (submissions, cancellations, isStopping) = inbox.withLock { inbox in
        defer {
          inbox.submissions = []
          inbox.cancellations = []
        }
        return (inbox.submissions, inbox.cancellations, inbox.isStopping)
      }
      for submission in submissions {
        switch CurlTransfer.start(submission, share: share) {
        case .success(let transfer):
          let added = curl_multi_add_handle(multi, transfer.handle)
          guard added == CURLM_OK else {
            submission.continuation.resume(
              returning: .failure(
                FetchError(
                  .transport, url: submission.request.url,
                  message: "libcurl could not start the transfer: \(String(cString: curl_multi_strerror(added)))")))
            continue
          }
          transfers[transfer.handle] = transfer
          handlesByID[transfer.id] = transfer.handle
        case .failure(let error):
          submission.continuation.resume(returning: .failure(error))
        }
      }
      // A cancellation naming no running transfer came after that transfer finished.
      for id in cancellations {
        if let handle = handlesByID[id] { finish(handle, with: nil) }
      }
      if isStopping && transfers.isEmpty { return }

      var running: Int32 = 0
      curl_multi_perform(multi, &running)
      var queued: Int32 = 0
      while let message = curl_multi_info_read(multi, &queued) {
        var handle: UnsafeMutableRawPointer?
        var code = CURLE_OK
        if mart_curl_message_done(message, &handle, &code) != 0, let handle {
          finish(handle, with: code)
        }
      }
      // Returns when a socket is ready, when libcurl's own timers are due, when woken by
      // `curl_multi_wakeup`, or after a second at most.
      curl_multi_poll(multi, nil, 0, 1000, nil)
    }
  }
}

/// One transfer: owns the easy handle, the header list and the error buffer, and collects the
/// response while libcurl runs. Lives on the transfer thread only.
private final class CurlTransfer {
  let id: Int
  let handle: UnsafeMutableRawPointer
  let continuation: CheckedContinuation<Result<HTTPResponse, FetchError>, Never>
  private let url: String
  private var requestHeaderList: UnsafeMutablePointer<curl_slist>?
  private let errorBuffer: UnsafeMutablePointer<CChar>
  private let maxBodyBytes: Int
  private let https: HTTPSPolicy

  private var body = Data()
  private var statusLine: String?
  private var responseHeaders: [HTTPHeader] = []
  private var bodyLimitExceeded = false

  private init(handle: UnsafeMutableRawPointer, submission: CurlMultiEngine.Submission) {
    self.handle = handle
    id = submission.id
    url = submission.request.url
    continuation = submission.continuation
    maxBodyBytes = submission.configuration.maxBodyBytes
    https = submission.configuration.https
    errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
  }

  deinit {
    curl_easy_cleanup(handle)
    curl_slist_free_all(requestHeaderList)
    errorBuffer.deallocate()
  }

  /// A configured transfer, ready to be added to the multi handle.
  static func start(
    _ submission: CurlMultiEngine.Submission, share: UnsafeMutableRawPointer?
  ) -> Result<CurlTransfer, FetchError> {
    let url = submission.request.url
    guard let handle = curl_easy_init() else {
      return .failure(FetchError(.transport, url: url, message: "libcurl could not create a handle"))
    }
    let transfer = CurlTransfer(handle: handle, submission: submission)
    if let failure = transfer.configure(submission.request, configuration: submission.configuration, share: share) {
      return .failure(FetchError(.transport, url: url, message: "could not configure libcurl: \(failure)"))
    }
    return .success(transfer)
  }

  /// The response, or the failure `code` stands for; nil `code`: the caller cancelled.
  func result(_ code: CURLcode?) -> Result<HTTPResponse, FetchError> {
    guard let code else {
      return .failure(FetchError(.cancelled, url: url, message: "cancelled while the transfer was running"))
    }
    guard code == CURLE_OK else {
      return .failure(error(for: code, url: url))
    }
    var status = 0
    _ = mart_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
    var effectiveURL: UnsafePointer<CChar>?
    _ = mart_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effectiveURL)
    let finalURL = effectiveURL.map { String(cString: $0) } ?? url
    var newConnections = 0
    _ = mart_curl_getinfo_long(handle, CURLINFO_NUM_CONNECTS, &newConnections)
    var redirects = 0
    _ = mart_curl_getinfo_long(handle, CURLINFO_REDIRECT_COUNT, &redirects)
    var response = HTTPResponse(
      requestURL: url, finalURL: finalURL, status: status, headers: responseHeaders, body: body,
      statusLine: statusLine)
    // After redirects the final answer may have come on a kept-alive connection even when the
    // first one was new.
    response.cameOnReusedConnection = newConnections == 0 || redirects > 0
    response.cameOverPlainHTTP = CurlHTTPClient.isDowngrade(from: url, to: finalURL)
    return .success(response)
  }

  /// Sets every option; returns a description of the first option libcurl rejected, if any.
  private func configure(
    _ request: HTTPRequest, configuration: HTTPClientConfiguration, share: UnsafeMutableRawPointer?
  ) -> String? {
    var failures: [String] = []
    func check(_ code: CURLcode, _ option: String) {
      if code != CURLE_OK { failures.append("\(option): \(String(cString: curl_easy_strerror(code)))") }
    }
    let context = Unmanaged.passUnretained(self).toOpaque()

    check(mart_curl_setopt_string(handle, CURLOPT_URL, request.url), "URL")
    check(mart_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "ERRORBUFFER")
    check(mart_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "NOSIGNAL")
    if request.freshConnection {
      check(mart_curl_setopt_long(handle, CURLOPT_FRESH_CONNECT, 1), "FRESH_CONNECT")
      check(mart_curl_setopt_long(handle, CURLOPT_FORBID_REUSE, 1), "FORBID_REUSE")
    }
    check(mart_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"), "PROTOCOLS_STR")
    // A redirect from HTTPS to plain HTTP fails the transfer unless allowed (see `error(for:url:)`).
    let refusesPlainHTTP = request.url.lowercased().hasPrefix("https://") && !configuration.https.allowsInsecureRedirects
    check(
      mart_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, refusesPlainHTTP ? "https" : "http,https"),
      "REDIR_PROTOCOLS_STR")
    // A fresh request's redirects are followed by `CurlHTTPClient.fetch`, each on a new connection.
    check(mart_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, request.freshConnection ? 0 : 1), "FOLLOWLOCATION")
    check(mart_curl_setopt_long(handle, CURLOPT_MAXREDIRS, max(0, configuration.maxRedirects)), "MAXREDIRS")
    check(
      mart_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(configuration.connectTimeout)),
      "CONNECTTIMEOUT_MS")
    check(mart_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(configuration.totalTimeout)), "TIMEOUT_MS")
    if configuration.lowSpeedLimit > 0 {
      check(mart_curl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, configuration.lowSpeedLimit), "LOW_SPEED_LIMIT")
      check(
        mart_curl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, wholeSecondsRoundedUp(configuration.lowSpeedTime)),
        "LOW_SPEED_TIME")
    }
    // Only the encodings whose decoded size the write callback bounds.
    check(mart_curl_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, "gzip, deflate"), "ACCEPT_ENCODING")
    check(mart_curl_setopt_string(handle, CURLOPT_USERAGENT, configuration.userAgent), "USERAGENT")
    check(
      mart_curl_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(configuration.maxBodyBytes)),
      "MAXFILESIZE_LARGE")

    check(mart_curl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, curlWriteCallback), "WRITEFUNCTION")
    check(mart_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context), "WRITEDATA")
    check(mart_curl_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION, curlHeaderCallback), "HEADERFUNCTION")
    check(mart_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, context), "HEADERDATA")
    // HTTP/2 when TLS negotiates it (ALPN), HTTP/1.1 with keep-alive otherwise; a new transfer
    // to an HTTPS host waits for a connection being set up to it, to multiplex over it.
    check(mart_curl_setopt_long(handle, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS)), "HTTP_VERSION")
    if request.url.lowercased().hasPrefix("https://") {
      check(mart_curl_setopt_long(handle, CURLOPT_PIPEWAIT, 1), "PIPEWAIT")
    }
    // Set for plain URLs too: a redirect may lead to HTTPS.
    configureTrust(configuration.https.trustedCertificates, check: check)
    if let share { check(mart_curl_setopt_pointer(handle, CURLOPT_SHARE, share), "SHARE") }

    switch request.method {
    case .get:
      check(mart_curl_setopt_long(handle, CURLOPT_HTTPGET, 1), "HTTPGET")
    case .post:
      // The size goes first so that COPYPOSTFIELDS copies exactly these bytes, NULs included.
      let body = request.body ?? Data()
      check(mart_curl_setopt_long(handle, CURLOPT_POST, 1), "POST")
      check(mart_curl_setopt_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)), "POSTFIELDSIZE_LARGE")
      body.withUnsafeBytes { bytes in
        // An empty body still needs a valid pointer.
        let pointer = bytes.baseAddress ?? UnsafeRawPointer(("" as StaticString).utf8Start)
        check(
          mart_curl_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: pointer)),
          "COPYPOSTFIELDS")
      }
    }

    // An empty `Expect:` stops libcurl from waiting for `100 Continue` before larger bodies.
    var headerLines = ["Expect:"]
    headerLines += (configuration.defaultHeaders + request.headers).map { "\($0.name): \($0.value)" }
    for line in headerLines {
      guard let extended = curl_slist_append(requestHeaderList, line) else {
        failures.append("header \(line)")
        break
      }
      requestHeaderList = extended
    }
    check(mart_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, requestHeaderList), "HTTPHEADER")
    return failures.first
  }

  /// Names the trusted certificates so that libcurl caches them: its X509 store is kept in the
  /// multi handle and reused by later connections only when it came from one file alone, so
  /// the build's default certificate directory (Debian's `/etc/ssl/certs`, which holds the
  /// same certificates as its bundle) is unset whenever a file is named.
  private func configureTrust(_ trust: TrustedCertificates, check: (CURLcode, String) -> Void) {
    switch trust {
    case .system:
      guard let bundle = systemCertificateBundle else { return }
      check(mart_curl_setopt_string(handle, CURLOPT_CAINFO, bundle), "CAINFO")
      check(mart_curl_setopt_string(handle, CURLOPT_CAPATH, nil), "CAPATH")
    case .bundle(let path, _):
      check(mart_curl_setopt_string(handle, CURLOPT_CAINFO, path), "CAINFO")
      check(mart_curl_setopt_string(handle, CURLOPT_CAPATH, nil), "CAPATH")
    case .directory(let path, _):
      check(mart_curl_setopt_string(handle, CURLOPT_CAPATH, path), "CAPATH")
      check(mart_curl_setopt_string(handle, CURLOPT_CAINFO, nil), "CAINFO")
    }
  }

  private func error(for code: CURLcode, url: String) -> FetchError {
    let detail = String(cString: errorBuffer)
    let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
    if bodyLimitExceeded || code == CURLE_FILESIZE_EXCEEDED {
      return FetchError(
        .bodyTooLarge(limit: maxBodyBytes), url: url,
        message: "response body exceeds the limit of \(maxBodyBytes) bytes")
    }
    var redirectCount = 0
    _ = mart_curl_getinfo_long(handle, CURLINFO_REDIRECT_COUNT, &redirectCount)
    switch code {
    case CURLE_OPERATION_TIMEDOUT:
      return FetchError(.timeout, url: url, message: message)
    case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_GOT_NOTHING,
      CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_SSL_CONNECT_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM,
      CURLE_WEIRD_SERVER_REPLY:
      // Failures of the connection or its framing: worth another attempt.
      return FetchError(.connection, url: url, message: message)
    case CURLE_PARTIAL_FILE:
      return FetchError(.bodyCutShort, url: url, message: "body cut short of its declared length (\(message))")
    case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE:
      // Not worth another attempt: the same certificate fails the same check.
      return FetchError(
        .transport, url: url,
        message:
          "\(message) (checked against \(https.trustedCertificates)\(https.certificateSetting.map { "; \($0) names other authorities" } ?? ""))")
    case CURLE_TOO_MANY_REDIRECTS:
      return FetchError(.redirect, url: url, message: message)
    case CURLE_UNSUPPORTED_PROTOCOL where url.lowercased().hasPrefix("https://") && !https.allowsInsecureRedirects:
      // Refused by the redirect protocols (https only): libcurl then gives the refused
      // plain-HTTP URL as the effective one; the HTTPS request led to it.
      var effective: UnsafePointer<CChar>?
      var next: UnsafePointer<CChar>?
      _ = mart_curl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effective)
      _ = mart_curl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &next)
      let target = [effective, next].compactMap { $0.map { String(cString: $0) } }.first {
        $0.lowercased().hasPrefix("http://")
      }
      guard let target else {
        return redirectCount > 0
          ? FetchError(.redirect, url: url, message: "refused redirect: \(message)")
          : FetchError(.invalidURL, url: url, message: message)
      }
      return FetchError(
        .redirect, url: url,
        message: CurlHTTPClient.insecureRedirectRefusal(from: nil, to: target, option: https.insecureRedirectSetting))
    case CURLE_UNSUPPORTED_PROTOCOL where redirectCount > 0:
      return FetchError(.redirect, url: url, message: "refused redirect: \(message)")
    case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
      return FetchError(.invalidURL, url: url, message: message)
    default:
      return FetchError(.transport, url: url, message: message)
    }
  }

  fileprivate func receiveBody(_ chunk: UnsafeRawBufferPointer) -> Bool {
    guard body.count + chunk.count <= maxBodyBytes else {
      bodyLimitExceeded = true
      return false
    }
    body.append(contentsOf: chunk)
    return true
  }

  /// Receives one header line. A status line starts a new response (after a redirect or a
  /// `100 Continue`), so only the final response's headers are kept.
  fileprivate func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
    var line = String(decoding: bytes, as: UTF8.self)
    while let last = line.last, last.isNewline { line.removeLast() }
    if line.hasPrefix("HTTP/") {
      statusLine = line
      responseHeaders = []
    } else {
      // The blank line that ends the block, or anything else that is not a field, is skipped.
      _ = responseHeaders.appendFieldLine(line)
    }
  }
}

@available(*, unavailable)
extension CurlTransfer: Sendable {}

/// The CA bundle libcurl was built to use (`CURLINFO_CAINFO`), or nil when it names none (a
/// build that trusts a directory or the TLS library's own store: left as it is).
private let systemCertificateBundle: String? = {
  guard curlGlobalInitResult == CURLE_OK, let handle = curl_easy_init() else { return nil }
  defer { curl_easy_cleanup(handle) }
  var path: UnsafePointer<CChar>?
  guard mart_curl_getinfo_string(handle, CURLINFO_CAINFO, &path) == CURLE_OK, let path else { return nil }
  return String(cString: path)
}()

private func wholeSecondsRoundedUp(_ duration: Duration) -> Int {
  let (seconds, attoseconds) = duration.components
  return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
}

private func milliseconds(_ duration: Duration) -> Int {
  let (seconds, attoseconds) = duration.components
  return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
}

private func curlWriteCallback(
  data: UnsafeMutablePointer<CChar>?, size: Int, count: Int, context: UnsafeMutableRawPointer?
) -> Int {
  guard let data, let context else { return 0 }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  // Returning a different count makes libcurl abort the transfer with CURLE_WRITE_ERROR.
  return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private func curlHeaderCallback(
  data: UnsafeMutablePointer<CChar>?, size: Int, count: Int, context: UnsafeMutableRawPointer?
) -> Int {
  guard let data, let context else { return 0 }
  let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: length))
  return length
}
