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
/// TLS is paid once per client, not per connection: a file of trusted certificates is parsed
/// once into one X509 store that every connection of the client shares, a lane's included
/// (``CertificateStore``), and so are TLS sessions (``TLSSessionCache``), so a new connection to
/// a host, a lane's too, resumes the session of an earlier one instead of a full handshake. Redirects are followed
/// (http and https only), gzip and deflate bodies are decoded, and only transport failures
/// throw: any HTTP status is returned as a response. Cancelling the calling task removes the
/// transfer at once and throws `FetchError.Code.cancelled`.
///
/// A request with a fresh `connection` goes on a new connection that is closed after its
/// answer. After one asked again because an answer was another request's
/// (`freshAfterMismatch`), so does every request to its origin: HTTP/1.1 cannot tell an answer
/// from a leftover copy of an earlier one, so no kept-alive connection to that origin (the one
/// the wrong answer came on included) is used again. A lane's requests are the exception: its
/// connection is a new one of its own, opened after the mismatch.
///
/// A request on a lane (``HTTPRequest/ConnectionChoice/lane(_:closing:)``) goes through an
/// engine of the lane's own, whose connection cache holds the lane's one connection and nothing
/// else; the lane's closing request closes that connection and ends the engine.
public final class CurlHTTPClient: HTTPFetching {
  public let configuration: HTTPClientConfiguration
  private let engine: CurlMultiEngine
  /// The trusted certificates every engine's connections share, when they are one file.
  private let certificates: CertificateStore?
  /// The TLS sessions every engine's connections share.
  private let sessions = TLSSessionCache()
  /// The engines of the lanes in use, by lane.
  private let laneEngines = Mutex<[ConnectionLane: CurlMultiEngine]>([:])

  public init(configuration: HTTPClientConfiguration = HTTPClientConfiguration()) {
    self.configuration = configuration
    certificates = configuration.https.trustedCertificates.file.map(CertificateStore.init(path:))
    engine = CurlMultiEngine(certificates: certificates, sessions: sessions)
  }

  deinit {
    engine.stop()
    for laneEngine in laneEngines.withLock({ Array($0.values) }) { laneEngine.stop() }
  }

  public func fetch(_ request: HTTPRequest) async throws(FetchError) -> HTTPResponse {
    let url = request.url
    guard url.hasPrefixIgnoringASCIICase("http://") || url.hasPrefixIgnoringASCIICase("https://") else {
      throw FetchError(.invalidURL, url: url, message: "only http and https URLs are fetched: \(url)")
    }
    let headers = [HTTPHeader("User-Agent", configuration.userAgent)] + configuration.defaultHeaders + request.headers
    if let problem = headers.lazy.compactMap(\.problem).first {
      throw FetchError(.transport, url: url, message: "not sent: \(problem)")
    }
    if let lane = request.lane { return try await laneTransfer(request, lane: lane) }
    var request = request
    if engine.needsFreshConnection(request), !request.freshConnection { request.connection = .fresh }
    guard request.freshConnection else { return try await transfer(request, on: engine) }
    // libcurl may follow a redirect on a kept-alive connection even in a fresh transfer, so a
    // fresh request's redirects are followed here, each on a fresh connection of its own.
    var current = request
    var plainAfterSecure = false
    for _ in 0...max(0, configuration.maxRedirects) {
      var response = try await transfer(current, on: engine)
      response.cameOverPlainHTTP = response.cameOverPlainHTTP || plainAfterSecure
      guard [301, 302, 303, 307, 308].contains(response.status),
        let location = response.headers.value(named: "Location"),
        let next = URL(string: location, relativeTo: URL(string: current.url))?.absoluteString
      else {
        response.requestURL = request.url
        return response
      }
      guard next.hasPrefixIgnoringASCIICase("http://") || next.hasPrefixIgnoringASCIICase("https://") else {
        throw FetchError(.redirect, url: request.url, message: "refused redirect to \(next)")
      }
      if Self.isDowngrade(from: current.url, to: next) {
        guard configuration.https.allowsInsecureRedirects else {
          throw FetchError(
            .redirect, url: request.url,
            message: Self.insecureRedirectRefusal(
              from: current.url == request.url ? nil : current.url, to: next,
              option: configuration.https.insecureRedirectSetting))
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
    url.hasPrefixIgnoringASCIICase("https://") && next.hasPrefixIgnoringASCIICase("http://")
  }

  /// The message of a refused redirect from HTTPS to plain HTTP, naming the plain URL, and the
  /// HTTPS one it came from when that is not the request's own (which the error names already).
  static func insecureRedirectRefusal(from url: String?, to next: String, option: String?) -> String {
    (url.map { "refused redirect from \($0) to plain HTTP at \(next)" } ?? "refused redirect to plain HTTP at \(next)")
      + ": an HTTPS source is not read over plain HTTP" + (option.map { " (\($0) allows it)" } ?? "")
  }

  /// One transfer of a lane's request, through the lane's engine (made by its first request);
  /// the lane's closing request ends the engine, its connection closed after the answer.
  private func laneTransfer(_ request: HTTPRequest, lane: ConnectionLane) async throws(FetchError) -> HTTPResponse {
    let laneEngine = laneEngines.withLock { engines in
      if let existing = engines[lane] { return existing }
      let made = CurlMultiEngine(certificates: certificates, sessions: sessions)
      engines[lane] = made
      return made
    }
    defer {
      if case .lane(_, closing: true) = request.connection {
        laneEngines.withLock { $0.removeValue(forKey: lane) }?.stop()
      }
    }
    return try await transfer(request, on: laneEngine)
  }

  /// One transfer of `request` through `engine`.
  private func transfer(_ request: HTTPRequest, on engine: CurlMultiEngine) async throws(FetchError) -> HTTPResponse {
    let id = engine.nextID()
    let submission = { (continuation: UnsafeContinuation<Result<HTTPResponse, FetchError>, Never>) in
      CurlMultiEngine.Submission(
        id: id, request: request, configuration: self.configuration, continuation: continuation)
    }
    let result = await withTaskCancellationHandler {
      // Resumed once: by the transfer thread when the transfer ends, or by `submit`.
      await withUnsafeContinuation { continuation in
        engine.submit(submission(continuation))
      }
    } onCancel: {
      engine.cancel(id)
    }
    return try result.get()
  }
}

/// The result of `curl_global_init`, run once (Swift initializes globals lazily and thread-safely).
let curlGlobalInitResult: CURLcode = curl_global_init(Int(CURL_GLOBAL_ALL))

/// The queue between the tasks asking for transfers and the one thread running them.
///
/// `@unchecked Sendable` because the multi handle is used on the transfer thread only, with one
/// exception libcurl documents as safe from any thread: `curl_multi_wakeup`. Everything else
/// shared is in `inbox`, behind a mutex. The thread holds the engine until it ends, so the
/// multi handle is cleaned up (in `deinit`) only once nothing can wake it any more.
final class CurlMultiEngine: @unchecked Sendable {
  /// A request waiting to be started on the transfer thread.
  struct Submission: Sendable {
    var id: Int
    var request: HTTPRequest
    var configuration: HTTPClientConfiguration
    var continuation: UnsafeContinuation<Result<HTTPResponse, FetchError>, Never>
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
  private let inbox = Mutex(Inbox())
  private let ids = Atomic(0)
  /// The client's trusted certificates and TLS sessions, given to each transfer (held here for
  /// as long as the thread runs transfers).
  private let certificates: CertificateStore?
  private let sessions: TLSSessionCache

  init(certificates: CertificateStore?, sessions: TLSSessionCache) {
    self.certificates = certificates
    self.sessions = sessions
    multi = curlGlobalInitResult == CURLE_OK ? curl_multi_init() : nil
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
    // Every easy handle is cleaned up by now (the thread ends with none running); the TLS
    // session cache goes when the last engine using it does.
    if let multi { curl_multi_cleanup(multi) }
  }

  func nextID() -> Int { ids.wrappingAdd(1, ordering: .relaxed).newValue }

  /// Whether `request` must go on a new connection: it follows a mismatched answer, or an
  /// earlier one to its origin did.
  func needsFreshConnection(_ request: HTTPRequest) -> Bool {
    distrustedOrigins.withLock { origins in
      // No origin to look up (the usual case): none is distrusted and this request adds none.
      guard request.connection == .freshAfterMismatch || !origins.isEmpty else { return false }
      let origin = URLParts(request.url.lowercased()).origin
      if request.connection == .freshAfterMismatch { origins.insert(origin) }
      return origins.contains(origin)
    }
  }

  /// Queues a transfer and wakes the thread. A task cancelled by now is answered at once; one
  /// cancelled later reaches `cancel(_:)` after this has queued the submission (the same lock
  /// orders them), so the thread always finds the transfer it is asked to stop.
  ///
  /// Only a submission that finds the inbox empty wakes the thread: one queued behind others
  /// is taken with them, since the thread takes the whole inbox at once after the first one's
  /// wake-up.
  func submit(_ submission: Submission) {
    let url = submission.request.url
    guard let multi else {
      submission.continuation.resume(
        returning: .failure(FetchError(.transport, url: url, message: "libcurl could not be initialized")))
      return
    }
    // nil: cancelled; otherwise whether this submission wakes the thread.
    let wakes: Bool? = inbox.withLock { inbox in
      guard !Task.isCancelled else { return nil }
      let wasEmpty = inbox.submissions.isEmpty && inbox.cancellations.isEmpty
      inbox.submissions.append(submission)
      return wasEmpty
    }
    guard let wakes else {
      submission.continuation.resume(
        returning: .failure(FetchError(.cancelled, url: url, message: "cancelled before the transfer started")))
      return
    }
    if wakes { curl_multi_wakeup(multi) }
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
  ///
  /// Easy handles are kept for the next transfers once theirs is done, reset to libcurl's
  /// defaults (`curl_easy_reset`): connections and TLS sessions live in the multi handle and
  /// the share handle, not in an easy handle, so which connection a transfer goes on does not
  /// depend on the handle it gets.
  private func runTransfers() {
    guard let multi else { return }
    var transfers: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    var handlesByID: [Int: UnsafeMutableRawPointer] = [:]
    var idleHandles: [UnsafeMutableRawPointer] = []
    defer { for handle in idleHandles { curl_easy_cleanup(handle) } }

    func release(_ handle: UnsafeMutableRawPointer) {
      curl_easy_reset(handle)
      idleHandles.append(handle)
    }

    func finish(_ handle: UnsafeMutableRawPointer, with code: CURLcode?) {
      guard let transfer = transfers.removeValue(forKey: handle) else { return }
      handlesByID[transfer.id] = nil
      curl_multi_remove_handle(multi, handle)
      let result = transfer.result(code)
      release(handle)
      transfer.continuation.resume(returning: result)
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
        guard let handle = idleHandles.popLast() ?? curl_easy_init() else {
          submission.continuation.resume(
            returning: .failure(
              FetchError(.transport, url: submission.request.url, message: "libcurl could not create a handle")))
          continue
        }
        switch CurlTransfer.start(
          submission, handle: handle, share: sessions.share, certificates: certificates)
        {
        case .success(let transfer):
          let added = curl_multi_add_handle(multi, transfer.handle)
          guard added == CURLM_OK else {
            release(handle)
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
          release(handle)
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
