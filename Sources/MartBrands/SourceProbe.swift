import Foundation
import MartCore
import MartFetch

/// One structure a source's parser reads, counted on one page: `found` of it, and the fewest
/// the parser needs (`needed`; `0` when the count is given for information only).
public struct ProbeCount: Sendable, Hashable, Codable {
  public var what: String
  public var found: Int
  public var needed: Int

  public init(_ what: String, found: Int, needed: Int = 1) {
    self.what = what
    self.found = found
    self.needed = needed
  }

  public var asExpected: Bool { found >= needed }
}

/// One page a source's parser depends on, as a probe found it: reached or not, its HTTP
/// status, and the structures counted on it.
public struct ProbePage: Sendable, Hashable, Codable {
  public var url: String
  /// The final HTTP status, `nil` when no answer came (connection refused, time-out).
  public var status: Int?
  /// Why the page is not as expected: no answer, a status other than 2xx, or a body that is
  /// not the expected format; `nil` when it could be counted.
  public var problem: String?
  public var counts: [ProbeCount]

  public init(url: String, status: Int?, problem: String? = nil, counts: [ProbeCount] = []) {
    self.url = url
    self.status = status
    self.problem = problem
    self.counts = counts
  }

  /// Whether the page answered at all: a page without an answer says nothing about a change.
  public var reached: Bool { status != nil }
  public var asExpected: Bool { problem == nil && counts.allSatisfy(\.asExpected) }
}

extension SourceSession {
  /// Sends `request` and counts what `count` finds in a 2xx answer; a page without an answer,
  /// another status, or a body `count` cannot read (it throws) is a page with a problem.
  public func probe(
    _ request: HTTPRequest, count: (HTTPResponse) throws -> [ProbeCount]
  ) async -> ProbePage {
    let response: HTTPResponse
    do {
      response = try await fetcher.fetch(request)
    } catch {
      return ProbePage(url: request.url, status: nil, problem: "no answer: \(error)")
    }
    guard response.isSuccess else {
      return ProbePage(url: request.url, status: response.status, problem: "HTTP \(response.status)")
    }
    do {
      return ProbePage(url: request.url, status: response.status, counts: try count(response))
    } catch {
      return ProbePage(url: request.url, status: response.status, problem: "\(error)")
    }
  }
}

extension BrandSource {
  /// The default probe, for sources without one of their own: the whole collection, counted as
  /// branches (its pages are then every page the source reads).
  public func probe(_ session: SourceSession) async -> [ProbePage] {
    do throws(SourceError) {
      let branches = try await collect(session)
      return [
        ProbePage(url: session.baseURL, status: 200, counts: [ProbeCount("branches read", found: branches.count)])
      ]
    } catch {
      guard case .fetch(let fetchError) = error.reason else {
        return [ProbePage(url: error.url, status: 200, problem: "\(error)")]
      }
      if case .httpStatus(let status) = fetchError.code {
        return [ProbePage(url: error.url, status: status, problem: "HTTP \(status)")]
      }
      return [ProbePage(url: error.url, status: nil, problem: "no answer: \(error)")]
    }
  }
}
