import ArgumentParser
import Foundation
import MartExport
import MartPipeline

/// `mart-holiday diff OLD NEW`: what changed between two bundles, for people and CI.
struct DiffCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Shows the branches added, removed and changed, brand freshness and the window between two bundles.",
    discussion: """
      OLD and NEW are output directories (the bundles their latest.json names) or bundle directories. Branches are matched by id. Changes of a branch: \(ChangeKind.allCases.filter(\.isBranchField).map(\.rawValue).joined(separator: ", ")). Coordinates count as moved beyond \(Int(BundleDiff.movedThresholdMeters)) m; closing dates and unknown days are compared on the days both bundles' windows cover from the later as-of date on (the days before it are history: a site that lists only upcoming days, or a store shut since, says nothing new of them). Besides branches: brand-freshness (a brand's freshness in the manifest changed, or the brand appeared or vanished) window (the window moved) and district-pattern (the closing days a district's stores keep changed, appeared or vanished). When NEW is an output directory whose report.json is of the run that made its bundle and read the national register of large stores, its cross-checks that OLD's report (read the same way) did not give are changes too (none when OLD has no such report): register-shut (a branch listed as trading that the register records as closed or suspended, with dates), register-unlisted (an open register store of a covered brand its source does not list), register-new-permit (a store permitted and not yet open). Every brand stale in NEW is listed with the day of its last good fetch, the days since and, when NEW is an output directory whose report.json is of the run that made its bundle, the error that run gave it; a brand that stays stale is no change. Identical changes within a brand are grouped; dates show their weekday.

      Formats: text (default, for people), json (stable, for programs), markdown (a pull-request comment or CI job summary, at most --max-bytes bytes: long sections are collapsed and lists shortened, saying what was left out).

      Exit status, as diff(1): 0 no changes, 1 changes, 2 trouble (a bundle missing or invalid, or leading outside the directory given, bad options, a result that cannot be written to stdout). With --fail-on, only the listed kinds give 1; other changes are still shown and give 0. Kinds: \(ChangeKind.allCases.map(\.rawValue).joined(separator: ", ")).

      Example: mart-holiday diff previous/ output/ --format markdown --fail-on removed,closing-dates
      """)

  @Argument(help: ArgumentHelp("The earlier output or bundle directory.", valueName: "old"))
  var old: String

  @Argument(help: ArgumentHelp("The later output or bundle directory.", valueName: "new"))
  var new: String

  @Option(help: ArgumentHelp("text, json or markdown.", valueName: "format"))
  var format: String = "text"

  @Option(
    name: .customLong("fail-on"),
    help: ArgumentHelp(
      "Comma-separated kinds of change that give exit status 1 (repeatable). Default: every kind.",
      valueName: "kinds"))
  var failOn: [String] = []

  @Option(
    name: .customLong("max-bytes"), parsing: .unconditional,
    help: ArgumentHelp(
      "The most bytes of markdown to write (default \(BundleDiff.defaultMarkdownMaxBytes)); markdown only.",
      valueName: "n"))
  var maxBytes: Int = BundleDiff.defaultMarkdownMaxBytes

  func run() throws {
    do {
      try compare()
    } catch let code as ExitCode {
      throw code
    } catch {
      StandardStreams.err("error: \(error)\n")
      throw ExitCode(Self.exitStatuses.trouble)
    }
  }

  private struct UsageProblem: Error, CustomStringConvertible {
    var description: String
  }

  private func compare() throws {
    guard ["text", "json", "markdown"].contains(format) else {
      throw UsageProblem(description: "--format must be text, json or markdown, not \"\(format)\"")
    }
    var failing = Set(ChangeKind.allCases)
    if !failOn.isEmpty {
      failing = []
      for name in failOn.flatMap({ $0.split(separator: ",") }).map({ $0.trimmingCharacters(in: .whitespaces) }) {
        guard let kind = ChangeKind(rawValue: name) else {
          throw UsageProblem(
            description:
              "--fail-on: unknown kind \"\(name)\" (kinds: \(ChangeKind.allCases.map(\.rawValue).joined(separator: ", ")))"
          )
        }
        failing.insert(kind)
      }
      guard !failing.isEmpty else {
        throw UsageProblem(
          description: "--fail-on names no kind (kinds: \(ChangeKind.allCases.map(\.rawValue).joined(separator: ", ")))"
        )
      }
    }
    for (path, name) in [(old, "OLD"), (new, "NEW")] where path.isEmpty {
      throw UsageProblem(description: "\(name) must not be empty")
    }
    guard maxBytes > 0 else { throw UsageProblem(description: "--max-bytes must be a positive number of bytes") }
    let before = try BundleStore.readBundle(at: URL(fileURLWithPath: old))
    let after = try BundleStore.readBundle(at: URL(fileURLWithPath: new))
    let diff = BundleDiff(old: before, new: after, sources: Pipeline.independentSources).withStaleBrandErrors(
      BundleDiff.brandErrors(inOutput: URL(fileURLWithPath: new), version: after.manifest.version)
    ).withRegisterFindings(
      new: BundleDiff.registerFindings(inOutput: URL(fileURLWithPath: new), version: after.manifest.version),
      old: BundleDiff.registerFindings(inOutput: URL(fileURLWithPath: old), version: before.manifest.version))
    switch format {
    case "json": StandardStreams.out(String(decoding: try diff.json(), as: UTF8.self))
    case "markdown":
      do {
        StandardStreams.out(try diff.markdown(maxBytes: maxBytes, jsonOption: "--format json"))
      } catch let error as BundleDiff.MarkdownLimitTooSmall {
        throw UsageProblem(
          description: "--max-bytes \(error.maxBytes) cannot hold the header of the diff (\(error.minimum) bytes at least)")
      }
    default: StandardStreams.outLine(diff.text())
    }
    if !diff.kinds.isDisjoint(with: failing) { throw ExitCode(1) }
  }
}
