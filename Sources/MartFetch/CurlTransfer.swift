import CCurl
import Foundation

/// One transfer: configures the easy handle its engine lends it (a new one, or one reset after
/// an earlier transfer: `curl_easy_reset` keeps nothing of that transfer's options), owns the
/// header list and the error buffer, and collects the response while libcurl runs. Lives on the
/// transfer thread only.
final class CurlTransfer {
  let id: Int
  let handle: UnsafeMutableRawPointer
  let continuation: UnsafeContinuation<Result<HTTPResponse, FetchError>, Never>
  private let url: String
  /// Whether `url` is an HTTPS URL.
  private let isHTTPS: Bool
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
    isHTTPS = url.hasPrefixIgnoringASCIICase("https://")
    continuation = submission.continuation
    maxBodyBytes = submission.configuration.maxBodyBytes
    https = submission.configuration.https
    errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
    errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
  }

  deinit {
    curl_slist_free_all(requestHeaderList)
    errorBuffer.deallocate()
  }

  /// A configured transfer on `handle` (new, or reset by `curl_easy_reset`), ready to be added
  /// to the multi handle. The handle stays the caller's.
  static func start(
    _ submission: CurlMultiEngine.Submission, handle: UnsafeMutableRawPointer, share: UnsafeMutableRawPointer?,
    certificates: CertificateStore?
  ) -> Result<CurlTransfer, FetchError> {
    let url = submission.request.url
    let transfer = CurlTransfer(handle: handle, submission: submission)
    if let failure = transfer.configure(
      submission.request, configuration: submission.configuration, share: share, certificates: certificates)
    {
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
    response.connectionsOpened = newConnections
    response.cameOverPlainHTTP = isHTTPS && CurlHTTPClient.isDowngrade(from: url, to: finalURL)
    return .success(response)
  }

  /// Sets every option; returns a description of the first option libcurl rejected, if any.
  private func configure(
    _ request: HTTPRequest, configuration: HTTPClientConfiguration, share: UnsafeMutableRawPointer?,
    certificates: CertificateStore?
  ) -> String? {
    var failures: [String] = []
    func check(_ code: CURLcode, _ option: String) {
      if code != CURLE_OK { failures.append("\(option): \(String(cString: curl_easy_strerror(code)))") }
    }
    let context = Unmanaged.passUnretained(self).toOpaque()

    check(setString(CURLOPT_URL, request.url), "URL")
    check(mart_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer), "ERRORBUFFER")
    check(mart_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1), "NOSIGNAL")
    if request.freshConnection {
      check(mart_curl_setopt_long(handle, CURLOPT_FRESH_CONNECT, 1), "FRESH_CONNECT")
      check(mart_curl_setopt_long(handle, CURLOPT_FORBID_REUSE, 1), "FORBID_REUSE")
    } else if case .lane(_, closing: true) = request.connection {
      check(mart_curl_setopt_long(handle, CURLOPT_FORBID_REUSE, 1), "FORBID_REUSE")
    }
    check(setString(CURLOPT_PROTOCOLS_STR, "http,https"), "PROTOCOLS_STR")
    // A redirect from HTTPS to plain HTTP fails the transfer unless allowed (see `error(for:url:)`).
    let refusesPlainHTTP = isHTTPS && !configuration.https.allowsInsecureRedirects
    check(
      setString(CURLOPT_REDIR_PROTOCOLS_STR, refusesPlainHTTP ? "https" : "http,https"),
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
    check(setString(CURLOPT_ACCEPT_ENCODING, "gzip, deflate"), "ACCEPT_ENCODING")
    check(setString(CURLOPT_USERAGENT, configuration.userAgent), "USERAGENT")
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
    if isHTTPS {
      check(mart_curl_setopt_long(handle, CURLOPT_PIPEWAIT, 1), "PIPEWAIT")
    }
    // Set for plain URLs too: a redirect may lead to HTTPS.
    configureTrust(configuration.https.trustedCertificates, certificates: certificates, check: check)
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
      guard let extended = line.withCString({ curl_slist_append(requestHeaderList, $0) }) else {
        failures.append("header \(line)")
        break
      }
      requestHeaderList = extended
    }
    check(mart_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, requestHeaderList), "HTTPHEADER")
    return failures.first
  }

  /// Sets a string option: `withCString` lends a native string's own bytes, where a `String`
  /// passed to C as it is would be copied first.
  private func setString(_ option: CURLoption, _ value: String?) -> CURLcode {
    guard let value else { return mart_curl_setopt_string(handle, option, nil) }
    return value.withCString { mart_curl_setopt_string(handle, option, $0) }
  }

  /// Names the trusted certificates. A file is given as the client's one parsed store
  /// (``CertificateStore``) where libcurl's TLS library allows it, with neither `CURLOPT_CAINFO`
  /// nor the build's default certificate directory (Debian's `/etc/ssl/certs`, which holds the
  /// same certificates as its bundle) left for libcurl to parse; elsewhere it is named as
  /// `CURLOPT_CAINFO` alone, which libcurl parses once per multi handle.
  private func configureTrust(
    _ trust: TrustedCertificates, certificates: CertificateStore?, check: (CURLcode, String) -> Void
  ) {
    if let file = trust.file {
      let shared = certificates?.configure(handle) == true
      check(setString(CURLOPT_CAINFO, shared ? nil : file), "CAINFO")
      check(setString(CURLOPT_CAPATH, nil), "CAPATH")
    } else if case .directory(let path, _) = trust {
      check(setString(CURLOPT_CAPATH, path), "CAPATH")
      check(setString(CURLOPT_CAINFO, nil), "CAINFO")
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
          "\(message) (checked against \(https.trustedCertificates)\(https.certificateSetting.map { "; \($0) names other authorities" } ?? ""))"
      )
    case CURLE_TOO_MANY_REDIRECTS:
      return FetchError(.redirect, url: url, message: message)
    case CURLE_UNSUPPORTED_PROTOCOL where isHTTPS && !https.allowsInsecureRedirects:
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
    // Trailing line breaks (what `Character.isNewline` holds for: LF, VT, FF, CR, NEL, LS, PS,
    // and CR LF) are left out by their bytes before the text is made: a valid sequence at the
    // end decodes as itself whatever comes before it.
    var end = bytes.count
    while end > 0 {
      let last = bytes[end - 1]
      if (0x0A...0x0D).contains(last) {
        end -= 1
      } else if end >= 2, last == 0x85, bytes[end - 2] == 0xC2 {
        end -= 2
      } else if end >= 3, last == 0xA8 || last == 0xA9, bytes[end - 2] == 0x80, bytes[end - 3] == 0xE2 {
        end -= 3
      } else {
        break
      }
    }
    let line = UnsafeRawBufferPointer(rebasing: bytes[..<end]).assumingMemoryBound(to: UInt8.self)
    if line.starts(with: "HTTP/".utf8) {
      statusLine = String(decoding: line, as: UTF8.self)
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
let systemCertificateBundle: String? = {
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
