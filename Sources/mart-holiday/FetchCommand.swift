import ArgumentParser
import Foundation
import MartCharset
import MartFetch

/// `mart-holiday fetch URL`: one request with the run's client, limits, politeness and retries;
/// the decoded body on stdout.
struct FetchCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fetch",
    abstract: "Fetch one URL the way a run does and print the decoded body.",
    discussion: """
      Uses the run's HTTP client: its User-Agent, timeouts, size and redirect limits, robots.txt, and retries with backoff on connection errors, timeouts, 408, 429 and 5xx. The body is decoded from the Content-Type charset, a <meta charset> declaration or sniffing, and printed as UTF-8.

      Exit status: 0 when the final status is 2xx; 1 otherwise, with one line on stderr naming the URL and the cause.

      Examples:
        mart-holiday fetch https://store.emart.com/branch/list.do
        mart-holiday fetch --include --method POST --data 'searchType=EM' https://store.emart.com/branch/searchList.do
      """)

  enum Method: String, ExpressibleByArgument, CaseIterable {
    case get = "GET"
    case post = "POST"

    init?(argument: String) { self.init(rawValue: argument.uppercased()) }
  }

  @Option(help: ArgumentHelp("GET or POST. Default: GET, or POST when --data is given.", valueName: "method"))
  var method: Method?

  @Option(
    help: ArgumentHelp(
      "Send BODY as the request body (application/x-www-form-urlencoded, as written).", valueName: "body"))
  var data: String?

  @Flag(help: "Print the status line and the response headers, then a blank line, before the body.")
  var include = false

  @OptionGroup var certificates: CertificateOptions

  @Argument(help: "The absolute http or https URL to fetch.")
  var url: String

  func validate() throws {
    if method == .get, data != nil { throw ValidationError("--data needs --method POST") }
  }

  func run() async throws {
    var request = HTTPRequest.get(url)
    if method == .post || (method == nil && data != nil) {
      request = HTTPRequest(
        method: .post, url: url, headers: [HTTPHeader("Content-Type", "application/x-www-form-urlencoded")],
        body: Data((data ?? "").utf8))
    }
    let stack = FetchStack(client: HTTPClientConfiguration(https: certificates.https))
    let response: HTTPResponse
    do {
      response = try await stack.fetcher.fetch(request)
    } catch {
      Self.fail(url: url, cause: error.message)
    }
    guard response.isSuccess else {
      Self.fail(url: url, cause: response.statusLine ?? "HTTP \(response.status)")
    }
    let contentType = response.headers.value(named: "Content-Type")?.lowercased()
    let decoded = CharsetDecoder.decode(
      response.body, declaredCharset: response.charset, isHTML: contentType.map { $0.contains("html") } ?? true)
    for warning in decoded.warnings {
      StandardStreams.err("warning: \(url): \(warning)\n")
    }
    var output = ""
    if include {
      output += (response.statusLine ?? "HTTP \(response.status)") + "\r\n"
      output += response.headers.map { "\($0.name): \($0.value)\r\n" }.joined() + "\r\n"
    }
    output += decoded.text
    StandardStreams.out(output)
  }

  /// One line on stderr, exit status 1.
  private static func fail(url: String, cause: String) -> Never {
    let oneLine = cause.split(whereSeparator: \.isNewline).joined(separator: " ")
    StandardStreams.err("error: fetching \(url) failed: \(oneLine)\n")
    Foundation.exit(1)
  }
}
