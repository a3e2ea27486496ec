import Foundation
import MartCharset
import MartCore
import MartFetch
import Synchronization

/// One brand website (or API) and how its responses become raw branch records.
///
/// A source is one file: it names the brands it yields, where the site lives, which requests
/// to make, and how to read the answers. All I/O goes through `SourceSession`, so the same
/// code runs against the live site, a mirror, or the local replay server.
///
/// What a source is (its name, brands and origin) is known without an instance; parsers name
/// themselves in errors with `Self.name`.
public protocol BrandSource: Sendable {
  /// A stable name for reports and options, e.g. `emart`.
  static var name: String { get }
  /// The brands whose branches this source yields.
  static var brands: [BrandSlug] { get }
  /// The real site's `scheme://host[:port]`, e.g. `https://store.emart.com`.
  static var origin: String { get }
  /// What the closing dates the source publishes speak of: whole months, or only the days from
  /// the as-of date through the last date listed. Days they do not cover are unknown unless a
  /// rule of the same text covers them (see docs/closing-days.md).
  static var closingDateCoverage: DateCoverage { get }
  /// What the explicit dates of the source's closing-day text speak of when the text itself
  /// does not say (a month label such as `12월 휴무일:` does): `wholeMonths` only for a field
  /// whose lists are known to give every closing day of their months, with the evidence beside
  /// it; a list of next closing days is `asOfThroughLastListed` (see docs/closing-days.md).
  static var closingTextCoverage: DateCoverage { get }
  /// The path under `origin` that holds everything this source requests (e.g. `/mobiledowa`),
  /// when another source reads other parts of the same site; empty for the whole site. A mirror
  /// given for this source's brands replaces `origin + scope` only.
  static var scope: String { get }
  /// What a run reads from the site when nothing fails, as reports name it (e.g.
  /// `costco OCC API (/rest/v2/korea/stores)`); the source's `name` unless it says more.
  static var primaryData: String { get }
  /// Fetches and parses the branches of `session.brands`. Keeping only the requested brands'
  /// rows and dropping repeated ids is the pipeline's job, not the source's.
  func collect(_ session: SourceSession) async throws(SourceError) -> [RawBranch]
  /// Requests the one or two pages the parser depends on and counts the structures it reads
  /// there (`mart-holiday probe`); publishes nothing. The default collects and counts branches.
  func probe(_ session: SourceSession) async -> [ProbePage]
}

extension BrandSource {
  public static var scope: String { "" }
  public static var primaryData: String { name }
  /// `Self.scope`, through an existential.
  public var scope: String { Self.scope }
  /// `Self.name`, through an existential.
  public var name: String { Self.name }
  /// `Self.brands`, through an existential.
  public var brands: [BrandSlug] { Self.brands }
  /// `Self.origin`, through an existential.
  public var origin: String { Self.origin }
  /// The host of ``origin`` (`store.emart.com`): the one source of the closing days of all the
  /// brands the site publishes, whose agreement with each other is no confirmation of a
  /// district's designation (``KnownBrands/independentSources``). Two sources reading other
  /// parts of one site (롯데마트 and its 도와센터 formats) are one.
  public static var host: String {
    let afterScheme = origin.range(of: "://").map { origin[$0.upperBound...] } ?? origin[...]
    return String(afterScheme.prefix { $0 != ":" && $0 != "/" })
  }
  /// `Self.primaryData`, through an existential.
  public var primaryData: String { Self.primaryData }
  /// `Self.closingDateCoverage`, through an existential.
  public var closingDateCoverage: DateCoverage { Self.closingDateCoverage }
  /// `Self.closingTextCoverage`, through an existential.
  public var closingTextCoverage: DateCoverage { Self.closingTextCoverage }

  /// Decodes a JSON body; when it does not fit, the error names the source, the URL, the
  /// shape that was expected (e.g. `a "data" array`) and what the body is instead, in a person's
  /// words (``ResponseDescription``): `an HTML page titled '시스템 점검 안내'`, `the key "data" is
  /// missing`.
  static func decodeJSON<Body: Decodable>(
    _ type: Body.Type, from data: Data, url: String, expecting shape: String
  ) throws(SourceError) -> Body {
    do {
      return try JSONDecoder().decode(Body.self, from: data)
    } catch {
      let found = ResponseDescription.body(data)
      guard found.hasPrefix("JSON ") else {
        throw SourceError(
          source: name, url: url, reason: .unexpectedContent("expected a JSON object with \(shape)"), answered: found)
      }
      throw SourceError(
        source: name, url: url,
        reason: .unexpectedContent(
          "expected a JSON object with \(shape), but \(ResponseDescription.decodingProblem(error))"))
    }
  }
}

/// What a brand source may use while collecting: the site's base URL, the fetcher, the as-of
/// date, and the brands requested. The base URL is the real site's; sending requests to a
/// mirror or the replay server is the fetcher's job (`OriginRedirectingFetcher`).
///
/// A reference type: the source and the pipeline see the same warnings.
public final class SourceSession: Sendable {
  /// `scheme://host[:port]` with no trailing slash; paths are appended to it.
  public let baseURL: String
  public let fetcher: any HTTPFetching
  /// The day the run treats as today.
  public let asOf: CalendarDate
  /// The brands requested of this source (a subset of `BrandSource.brands`).
  public let brands: Set<BrandSlug>
  /// The source's name, for error messages.
  public let sourceName: String
  /// Each warning with the request this session had sent last when it was given (nil before
  /// any): the asking it belongs to, dropped with that asking's answer when the request is asked
  /// again (``dropWarnings(ofAskings:)``).
  private let warningLog = Mutex<[AskedWarning]>([])
  /// The request this session sent last.
  private let lastAsked = Mutex<AskedRequest?>(nil)
  /// Per URL, the last response from it, as much as ``ResponseDescription`` reads, so that an
  /// error about its content can say what it answered. Described only when an error asks.
  private let responses = Mutex<[String: AnswerHead]>([:])
  private let fallbackLog = Mutex<String?>(nil)
  private let completeLog = Mutex<[BrandSlug: String]>([:])
  /// Every answer of this session and of its item sessions (``sideBySide(_:_:)``), by body.
  let answers: AnswerLedger

  public convenience init(
    baseURL: String, fetcher: any HTTPFetching, asOf: CalendarDate, brands: Set<BrandSlug>,
    sourceName: String
  ) {
    self.init(
      baseURL: baseURL, fetcher: fetcher, asOf: asOf, brands: brands, sourceName: sourceName, answers: AnswerLedger())
  }

  init(
    baseURL: String, fetcher: any HTTPFetching, asOf: CalendarDate, brands: Set<BrandSlug>,
    sourceName: String, answers: AnswerLedger
  ) {
    self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
    self.fetcher = fetcher
    self.asOf = asOf
    self.brands = brands
    self.sourceName = sourceName
    self.answers = answers
  }

  /// A session for `source` at its real origin.
  public convenience init(
    for source: any BrandSource.Type, fetcher: any HTTPFetching, asOf: CalendarDate, brands: Set<BrandSlug>
  ) {
    self.init(baseURL: source.origin, fetcher: fetcher, asOf: asOf, brands: brands, sourceName: source.name)
  }

  /// Records a problem that did not stop the source (a detail page that failed, a row that
  /// was skipped); the run report lists it with the branch, when given.
  public func warn(_ message: String, branch: BranchID? = nil) {
    let asking = lastAsked.withLock { $0 }
    warningLog.withLock {
      $0.append(AskedWarning(warning: SourceWarning(branch: branch, message: message), asking: asking))
    }
  }

  /// Records that the source's primary pages failed and its data came from `fallback` (a
  /// description such as `costco store finder (/store-finder/search)`), with a warning naming
  /// the failure: the brand is published fresh, and the report says where its data came from.
  public func usedFallback(_ fallback: String, primaryFailure: SourceError) {
    warn("primary pages failed (\(primaryFailure.url): \(primaryFailure)); data from the fallback, \(fallback)")
    fallbackLog.withLock { $0 = fallback }
  }

  /// The fallback the data came from, when ``usedFallback(_:primaryFailure:)`` was called;
  /// `nil` when it came from the primary pages.
  public var fallbackUsed: String? { fallbackLog.withLock { $0 } }

  /// Records that the answer lists every store of `brand`: it states how many stores it holds
  /// (`stated`, e.g. `the OCC API states 19 stores (pagination.totalResults)`) and the run read
  /// that many. A branch missing from a complete answer is removed at once, not kept for the
  /// grace period (``MissingFromSource``): nothing was lost on the way.
  public func listedEveryStore(of brand: BrandSlug, stated: String) {
    completeLog.withLock { $0[brand] = stated }
  }

  /// The brands whose answer proved complete (``listedEveryStore(of:stated:)``), with what it stated.
  public var completeAnswers: [BrandSlug: String] { completeLog.withLock { $0 } }

  /// Everything passed to `warn(_:branch:)` so far, in order.
  public var warnings: [SourceWarning] { warningLog.withLock { $0.map(\.warning) } }

  /// The warnings with the askings they belong to, for a session that takes this one's over.
  var askedWarnings: [AskedWarning] { warningLog.withLock { $0 } }

  /// Adds another session's warnings, with their askings (an item's, a lane's).
  func keep(_ warnings: [AskedWarning]) {
    if !warnings.isEmpty { warningLog.withLock { $0 += warnings } }
  }

  /// Forgets the warnings given while `askings` were this session's (or an item session's) last
  /// requests: those requests are being asked again, and what their first answers warned about
  /// goes with those answers.
  func dropWarnings(ofAskings askings: Set<AskedRequest>) {
    warningLog.withLock { log in log.removeAll { $0.asking.map(askings.contains) ?? false } }
  }

  /// The absolute URL of `pathAndQuery` (which starts with `/`) on this session's site.
  public func url(_ pathAndQuery: String) -> String { baseURL + pathAndQuery }

  /// GETs `pathAndQuery` and requires a 2xx status.
  public func get(_ pathAndQuery: String) async throws(SourceError) -> HTTPResponse {
    try await send(.get(url(pathAndQuery)))
  }

  /// POSTs a form to `pathAndQuery` and requires a 2xx status.
  public func postForm(
    _ pathAndQuery: String, fields: [(name: String, value: String)]
  ) async throws(SourceError) -> HTTPResponse {
    try await send(.postForm(url(pathAndQuery), fields: fields))
  }

  /// How many items ``sideBySide(_:_:)`` works at once: well above any per-host limit the
  /// fetcher is given, so the limit, not this, decides how many requests a host sees at once.
  public static let itemsInFlight = 64

  /// Runs `work` on the items side by side and returns the results in `items`' order, so that
  /// what a source makes of them does not depend on which answer came first. Use it for pages
  /// that do not depend on one another (per-store pages, per-area or per-month lists, the pages
  /// of a list whose page count is known); the fetcher still admits requests to a host only up
  /// to its per-host limit and delay. At most ``itemsInFlight`` items are worked at once, taken
  /// in order: a source with 30,000 store pages holds a few dozen waiting requests, not 30,000.
  ///
  /// Each item's work gets a session of its own; its warnings join this session's in `items`'
  /// order, as if the items had been worked one after another. When items fail, the error of
  /// the first failing one in that order is thrown (once every item is done), after the
  /// warnings of the items before it.
  public func sideBySide<Item: Sendable, Output: Sendable, Failure: Error>(
    _ items: [Item], _ work: @escaping @Sendable (SourceSession, Item) async throws(Failure) -> Output
  ) async throws(Failure) -> [Output] {
    // Each item's session is let go with its work: only its warnings are kept.
    let outcomes = await withTaskGroup(of: (Int, Result<Output, Failure>, [AskedWarning]).self) { group in
      var started = 0
      func start(_ group: inout TaskGroup<(Int, Result<Output, Failure>, [AskedWarning])>) {
        guard started < items.count else { return }
        let (index, item) = (started, items[started])
        started += 1
        let itemSession = SourceSession(
          baseURL: baseURL, fetcher: fetcher, asOf: asOf, brands: brands, sourceName: sourceName, answers: answers)
        group.addTask {
          do throws(Failure) {
            return (index, .success(try await work(itemSession, item)), itemSession.askedWarnings)
          } catch {
            return (index, .failure(error), itemSession.askedWarnings)
          }
        }
      }
      for _ in 0..<Self.itemsInFlight { start(&group) }
      var outcomes = [(Result<Output, Failure>, [AskedWarning])?](repeating: nil, count: items.count)
      for await (index, result, warnings) in group {
        outcomes[index] = (result, warnings)
        start(&group)
      }
      return outcomes
    }
    var results: [Output] = []
    results.reserveCapacity(items.count)
    for case let (result, warnings)? in outcomes {
      keep(warnings)
      results.append(try result.get())
    }
    return results
  }

  /// How many times a request is asked before an answer that is not its page fails it: the
  /// first time, then again on fresh connections (`HTTPRequest.ConnectionChoice.freshAfterMismatch`).
  public static let askingsPerMismatchedAnswer = 3

  /// Sends `request`, requires a 2xx status and an answer that is the page asked for: `mismatch`
  /// says why an answer is not (`"the page is of store 1203, not 1201"`), or nil when it is.
  ///
  /// A kept-alive connection can carry another request's answer (a server or proxy that sent
  /// one twice); HTTP/1.1 cannot tell, so the page itself must. A mismatching answer is never
  /// data: it is warned about and the request is asked again on a fresh connection, up to
  /// ``askingsPerMismatchedAnswer`` times in all, after which the request fails with
  /// `SourceError.Reason.unexpectedContent` naming the URL and the mismatch.
  ///
  /// An answer that carries nothing of its request (`unproven`: a client-rendered shell, a list
  /// without its query) is compared with the other answers of the run instead: one equal to
  /// another request's answer that came on a reused connection may be that request's leftover,
  /// and is asked again once on a fresh connection, which no leftover can reach. An answer that
  /// differs from every other is believed as it came: nothing is asked twice because a marker is
  /// missing. An answer on a lane (``HTTPRequest/ConnectionChoice/lane(_:closing:)``) is not
  /// compared: the lane's last answer proves or disproves all of them at once
  /// (``onOneConnection(_:closingWith:_:)``). What the run's answers say together (every one alike: a cache that ignores the
  /// query) is the source's to judge, with ``AnswerChecks/allAlike(_:)``.
  public func send(
    _ request: HTTPRequest, answering mismatch: (HTTPResponse) -> String?,
    unproven: (HTTPResponse) -> Bool = { _ in false }
  ) async throws(SourceError) -> HTTPResponse {
    var request = request
    var problem = ""
    var askedAgainForARepeat = false
    for _ in 0..<Self.askingsPerMismatchedAnswer {
      let response = try await send(request)
      if let found = mismatch(response) {
        problem = found
        if let lane = request.lane { answers.breakLane(lane) }
        warn("\(request.url): the answer is not the page asked for (\(found)); asked again on a fresh connection")
        request.connection = .freshAfterMismatch
      } else if request.lane == nil, !askedAgainForARepeat, response.cameOnReusedConnection, unproven(response),
        answers.repeats(response.body, answering: request)
      {
        askedAgainForARepeat = true
        request.connection = .fresh
      } else {
        return response
      }
    }
    var error = SourceError(
      source: sourceName, url: request.url,
      reason: .unexpectedContent(
        "the answer is not the page asked for, \(Self.askingsPerMismatchedAnswer) times: \(problem)"))
    error.isMismatch = true
    throw error
  }

  /// GETs `pathAndQuery`, requiring a 2xx status and the page asked for (``send(_:answering:unproven:)``).
  public func get(
    _ pathAndQuery: String, answering mismatch: (HTTPResponse) -> String?,
    unproven: (HTTPResponse) -> Bool = { _ in false }
  ) async throws(SourceError) -> HTTPResponse {
    try await send(.get(url(pathAndQuery)), answering: mismatch, unproven: unproven)
  }

  /// Sends `request` as ``send(_:answering:unproven:)`` does, reading each answer once: `read`
  /// makes what both checks look at and what the caller keeps, so the answer returned comes
  /// with the reading its checks passed, not read a second time.
  public func send<Reading>(
    _ request: HTTPRequest, reading read: (HTTPResponse) -> Reading, answering mismatch: (Reading) -> String?,
    unproven: (Reading) -> Bool = { _ in false }
  ) async throws(SourceError) -> (response: HTTPResponse, reading: Reading) {
    var lastReading: Reading?
    func reading(_ answer: HTTPResponse) -> Reading {
      if let lastReading { return lastReading }
      let reading = read(answer)
      lastReading = reading
      return reading
    }
    let response = try await send(
      request,
      answering: { answer in
        lastReading = nil
        return mismatch(reading(answer))
      }, unproven: { unproven(reading($0)) })
    return (response, reading(response))
  }

  /// POSTs a form, requiring a 2xx status and the page asked for (``send(_:answering:unproven:)``).
  public func postForm(
    _ pathAndQuery: String, fields: [(name: String, value: String)], answering mismatch: (HTTPResponse) -> String?,
    unproven: (HTTPResponse) -> Bool = { _ in false }
  ) async throws(SourceError) -> HTTPResponse {
    try await send(.postForm(url(pathAndQuery), fields: fields), answering: mismatch, unproven: unproven)
  }

  /// Sends any request and requires a 2xx status. An unknown Content-Type charset is a warning
  /// (the parsers then sniff the encoding).
  public func send(_ request: HTTPRequest) async throws(SourceError) -> HTTPResponse {
    let response: HTTPResponse
    do {
      response = try await fetcher.fetch(request).requireSuccess()
    } catch {
      if let lane = request.lane { answers.breakLane(lane) }
      throw SourceError(source: sourceName, url: request.url, reason: .fetch(error))
    }
    let asked = AskedRequest(request)
    lastAsked.withLock { $0 = asked }
    let head = AnswerHead(response)
    responses.withLock { $0[request.url] = head }
    answers.record(response.body, answering: asked)
    if let lane = request.lane { answers.note(response, on: lane) }
    if let label = response.charset, CharsetDecoder.encodingName(forLabel: label) == nil {
      warn("\(request.url): unknown charset \"\(label)\" in the Content-Type header; the encoding was sniffed")
    }
    return response
  }
}

extension SourceSession {
  /// What the last response from `url` was: its status and content type (`HTTP 200,
  /// text/html`) and its body (`an HTML page titled '…'`), when this session received one.
  public func response(from url: String) -> (facts: String, body: String)? {
    guard let head = responses.withLock({ $0[url] }) else { return nil }
    return (ResponseDescription.facts(head.response), ResponseDescription.body(head.response))
  }

  /// `error` with what its URL answered (``SourceError/answered``, ``SourceError/responseFacts``),
  /// when it is about unexpected content and this session received the response.
  public func described(_ error: SourceError) -> SourceError {
    guard case .unexpectedContent = error.reason, let known = response(from: error.url) else { return error }
    var described = error
    described.responseFacts = known.facts
    if described.answered == nil { described.answered = known.body }
    return described
  }
}

/// What ``ResponseDescription`` reads of a response, kept by a session until an error asks:
/// the status, the headers and the body's first ``ResponseDescription/prefixBytes`` bytes, copied
/// (a session keeps no whole bodies).
struct AnswerHead: Sendable {
  var response: HTTPResponse

  init(_ response: HTTPResponse) {
    var head = response
    if head.body.count > ResponseDescription.prefixBytes {
      head.body = Data(head.body.prefix(ResponseDescription.prefixBytes))
    }
    self.response = head
  }
}

/// A brand source failed: which source, which URL, and why.
public struct SourceError: LocatedError, Sendable {
  public enum Reason: Sendable {
    /// The request failed or returned a non-2xx status.
    case fetch(FetchError)
    /// The response did not have the expected structure (site redesign, broken page).
    case unexpectedContent(String)
  }

  public var source: String
  public var url: String
  public var reason: Reason
  /// For unexpected content, what the body at `url` was, in a person's words (`an HTML page
  /// titled '시스템 점검 안내'`, ``ResponseDescription/body(_:declaredCharset:)``), when known.
  public var answered: String?
  /// For unexpected content, the response's status and content type (`HTTP 200, text/html;
  /// charset=utf-8`), when the session that received it knows.
  public var responseFacts: String?
  /// Whether the request failed because every answer was another request's (a request check
  /// failed each time), not because the site failed or the answer did not read: a source drops
  /// that one answer (its area, month or page) rather than fail.
  public var isMismatch = false

  public init(source: String, url: String, reason: Reason, answered: String? = nil, responseFacts: String? = nil) {
    self.source = source
    self.url = url
    self.reason = reason
    self.answered = answered
    self.responseFacts = responseFacts
  }

  /// This error, the request that failed first, with `fallback` said to have failed too: the
  /// reason stays one short sentence about what failed where (a site that is down fails its
  /// fallback the same way), rather than one failure nested in another.
  public func withFallbackFailed(_ fallback: String) -> SourceError {
    var first = self
    switch first.reason {
    case .fetch(var fetch):
      fetch.message += "; \(fallback) failed too"
      first.reason = .fetch(fetch)
    case .unexpectedContent(let detail):
      first.reason = .unexpectedContent("\(detail); \(fallback) failed too")
    }
    return first
  }

  /// The page requested.
  public var location: String { url }

  /// What failed: the request, or the content the page answered with.
  public var message: String {
    switch reason {
    case .fetch: "fetching failed"
    case .unexpectedContent(let detail): "unexpected content: \(detail)"
    }
  }

  /// The failed request, when the request failed.
  public var cause: (any Error)? {
    guard case .fetch(let error) = reason else { return nil }
    return error
  }

  public var description: String {
    switch reason {
    case .fetch(let error): return "\(source): \(error)"
    case .unexpectedContent(let detail):
      guard let answered else { return "\(source): unexpected content at \(url): \(detail)" }
      return "\(source): unexpected content at \(url): it answered \(answered)"
        + "\(responseFacts.map { " (\($0))" } ?? "") — \(detail)"
    }
  }
}

/// A problem a source met without failing, for the run report.
public struct SourceWarning: Hashable, Sendable, CustomStringConvertible {
  /// The branch concerned, when there is one.
  public var branch: BranchID?
  public var message: String

  public init(branch: BranchID?, message: String) {
    self.branch = branch
    self.message = message
  }

  /// `<branch id>: <message>`, or the message alone.
  public var description: String { branch.map { "\($0): \(message)" } ?? message }
}

/// A warning and the request its session had sent last when it was given.
struct AskedWarning: Sendable {
  var warning: SourceWarning
  var asking: AskedRequest?
}
