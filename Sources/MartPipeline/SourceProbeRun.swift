import Foundation
import MartBrands
import MartCore
import MartFetch
import MartReplay

/// What `mart-holiday probe` found for one source: the pages its parser depends on and the
/// structures counted there.
public struct SourceProbeResult: Sendable, Hashable, Codable {
  /// What the probe concluded for the source.
  public enum Outcome: String, Sendable, Hashable, Codable {
    /// Every page answered and held what the parser needs.
    case expected
    /// A page answered with another status, another format, or too little of a structure.
    case changed
    /// A page did not answer at all: nothing can be said about the structure.
    case unreachable
  }

  public var source: String
  public var brands: [BrandSlug]
  public var outcome: Outcome
  public var pages: [ProbePage]

  public init(source: String, brands: [BrandSlug], pages: [ProbePage]) {
    self.source = source
    self.brands = brands
    self.pages = pages
    outcome =
      pages.contains { !$0.reached } ? .unreachable : pages.allSatisfy(\.asExpected) ? .expected : .changed
  }
}

extension Pipeline {
  /// Probes the sources of `configuration.brands` (every source when empty; the register too when
  /// the configuration reads it and `register` is among the brands or none is named) through the run's
  /// fetch stack (its client, politeness and retries; the replay server for `replayDirectory`,
  /// `mirrors` for the brands given): each requests only the pages its parser depends on and
  /// counts what it reads there. Writes nothing: no output, no state, no archive, no validators.
  public static func probe(_ configuration: RunConfiguration) async throws(RunSetupError) -> [SourceProbeResult] {
    let plan = try RunPlan(probing: configuration)
    var server: ReplayServer?
    if let recordings = plan.recordings {
      do {
        server = try ReplayServer.startForRun(
          recordings, sources: configuration.sources, readsRegister: configuration.readsRegister)
      } catch {
        throw RunSetupError(setting: .replay, message: "cannot serve the recordings", cause: error)
      }
    }
    defer { server?.stop() }
    let asOf = plan.asOf
    let stack = plan.mode.fetchStack(
      client: configuration.client, overrides: plan.routes.overrides(over: server?.baseURLOverrides ?? [:]),
      politeness: configuration.politeness, retry: configuration.retry, validators: nil)
    let selection = BrandSelection(asked: configuration.brands, sources: configuration.sources)
    var results: [SourceProbeResult] = []
    for source in configuration.sources {
      let brands = selection.brands(of: source)
      guard !brands.isEmpty else { continue }
      let session = SourceSession(for: type(of: source), fetcher: stack.fetcher, asOf: asOf, brands: Set(brands))
      results.append(SourceProbeResult(source: source.name, brands: brands, pages: await source.probe(session)))
    }
    if configuration.readsRegister, configuration.brands.isEmpty || configuration.brands.contains(RegisterStage.slug) {
      results.append(
        SourceProbeResult(
          source: "register", brands: [RegisterStage.slug],
          pages: [await RegisterStage(fetcher: stack.fetcher, lastGoodFile: nil).probe()]))
    }
    return results
  }
}

extension SourceProbeResult {
  /// One line per source, then one per page and per count.
  public static func text(_ results: [SourceProbeResult]) -> String {
    var text = ""
    for result in results {
      let brands = result.brands.map(\.rawValue).joined(separator: ", ")
      text += "\(result.source) (\(brands)): \(result.outcome == .expected ? "as expected" : result.outcome.rawValue)\n"
      for page in result.pages {
        text += "  \(page.url): \(page.status.map { "HTTP \($0)" } ?? "no answer")"
        text += page.problem.map { " — \($0)" } ?? ""
        text += "\n"
        for count in page.counts {
          let mark = count.asExpected ? "ok" : "MISSING"
          text += "    \(mark) \(count.found) \(count.what)\(count.needed > 0 ? " (needs \(count.needed))" : "")\n"
        }
      }
    }
    return text
  }
}
