import Foundation
import MartFetch
import MartReplay
import ReplayTestSupport
import Synchronization

/// What the test server saw, sent back as JSON by the `/echo` route.
struct Echo: Codable {
  var method: String
  var path: String
  var query: String
  var headers: [[String]]
  var body: Data

  func header(_ name: String) -> String? {
    headers.last { $0[0].caseInsensitiveCompare(name) == .orderedSame }?[1]
  }
}

enum TestServerRoutes {
  /// `gzip.compress("이마트 의무휴업일: 둘째·넷째 일요일\n".encode(), mtime=0)` from python3.
  static let gzippedKoreanText = Data(
    hex: "1f8b08000000000002037b3377cbebe51d6fbb7628bc993be3f59a2d6fe76c7933bdf5cddc3d560aaf27ce78b37cc7a1"
      + "edaf5bb60369a0fc9e37b3a600492e00f36a308434000000")
  static let koreanText = "이마트 의무휴업일: 둘째·넷째 일요일\n"

  /// `gzip.compress(b"a" * 5000, mtime=0)` from python3: 41 bytes that decode to 5000.
  static let gzippedFiveThousandA = Data(
    hex: "1f8b0800000000000203edc13101000000c2a0aceb5fc2147e4001000000006f037659f44c88130000")

  /// Answers the routes the client tests use.
  @Sendable static func handle(_ request: ServerRequest) -> ServerResponse {
    let parts = request.path.split(separator: "/").map(String.init)
    let query = Dictionary(
      FormEncoding.decode(request.query).map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    switch parts.first ?? "" {
    case "echo":
      let echo = Echo(
        method: request.method, path: request.path, query: request.query,
        headers: request.headers.map { [$0.name, $0.value] }, body: request.body)
      do {
        return ServerResponse(
          headers: [HTTPHeader("Content-Type", "application/json")], body: try JSONEncoder().encode(echo))
      } catch {
        return .text("cannot encode the echo: \(error)", status: 500)
      }
    case "status":
      let status = Int(parts.last ?? "") ?? 500
      return .text("status \(status) body", status: status)
    case "redirect":
      return .redirect(to: query["to"] ?? "/echo", status: Int(parts.last ?? "") ?? 302)
    case "loop":
      let step = Int(parts.last ?? "") ?? 0
      return .redirect(to: "/loop/\(step + 1)")
    case "delay":
      let milliseconds = Int(query["ms"] ?? "") ?? 0
      // The handler runs on the connection's thread: waiting here delays the answer.
      Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
      return .text("delayed \(query["id"] ?? "")")
    case "held":
      // Answered only once the test releases it (or after a minute), on the connection's thread.
      let id = query["id"] ?? ""
      HeldAnswers.shared.wait(for: id)
      return .text("held \(id)")
    case "bytes":
      let count = Int(query["count"] ?? "") ?? 0
      return ServerResponse(body: Data(repeating: UInt8(ascii: "x"), count: count))
    case "gzip":
      return ServerResponse(
        headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8"), HTTPHeader("Content-Encoding", "gzip")],
        body: gzippedKoreanText)
    case "gzip-bomb":
      return ServerResponse(headers: [HTTPHeader("Content-Encoding", "gzip")], body: gzippedFiveThousandA)
    case "truncated":
      return ServerResponse(body: Data(repeating: UInt8(ascii: "t"), count: 100), delivery: .truncated(sentBytes: 10))
    case "slow-body":
      return ServerResponse(
        body: Data("slowly sent body".utf8), delivery: .slow(chunkSize: 4, pause: .milliseconds(20)))
    case "close":
      return .closeWithoutResponse
    case "charset":
      return .text("<html></html>", contentType: "text/html; Charset=\"EUC-KR\"")
    default:
      return .text("no route \(request.path)", status: 404)
    }
  }
}

extension Data {
  /// Bytes from a hex string such as `1f8b08`.
  init(hex: String) {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      bytes.append(UInt8(hex[index..<next], radix: 16)!)
      index = next
    }
    self.init(bytes)
  }
}

/// The answers of the `/held` route, each held until a test releases it by its id: a test can
/// then say what happened while the server had not answered, without measuring time.
final class HeldAnswers: Sendable {
  static let shared = HeldAnswers()

  private let released = Mutex<Set<String>>([])
  private let answered = Mutex<Set<String>>([])

  /// Lets the answer `id` go.
  func release(_ id: String) { _ = released.withLock { $0.insert(id) } }

  /// Whether the server has sent the answer `id`.
  func hasAnswered(_ id: String) -> Bool { answered.withLock { $0.contains(id) } }

  /// Holds the calling (server) thread until `id` is released, a minute at most.
  func wait(for id: String) {
    for _ in 0..<6000 where !released.withLock({ $0.contains(id) }) { Thread.sleep(forTimeInterval: 0.01) }
    _ = answered.withLock { $0.insert(id) }
  }
}
