import ArgumentParser
import Foundation
import MartCore
import MartExport
import MartPipeline

/// `mart-holiday validate DIR`: checks a published bundle end to end.
struct ValidateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    abstract: "Checks a published bundle: digests, files, ids, dates, coordinates, derived files.",
    discussion: """
      DIR is an output directory (the bundle its latest.json names is checked) or a bundle directory (the one holding manifest.json).

      Checks that the manifest's SHA-256 digests and sizes match, every listed file is present and parses and no other file is there, branch ids are unique and well-formed, closing dates are real and inside the window, coordinates lie inside Korea, and brands/, index.json, closures.json, the .gz copies and the calendars agree with branches.json.

      Exit status: 0 when everything holds; 1 otherwise, with one line per problem on standard error (error: <path>: <problem>).
      """)

  @Argument(help: ArgumentHelp("An output directory or a bundle directory.", valueName: "dir"))
  var directory: String

  func validate() throws {
    try SupportedPaths.checkNotEmpty(directory, option: "DIR")
  }

  func run() throws {
    let (problems, summary) = BundleValidator(
      directory: URL(fileURLWithPath: directory), sources: Pipeline.independentSources
    ).validate()
    if !problems.isEmpty {
      let text = problems.map { "error: \($0.path == "." ? directory : "\(directory)/\($0.path)"): \($0.message)\n" }
        .joined()
      StandardStreams.err(text)
      throw ExitCode(1)
    }
    if let summary {
      StandardStreams.outLine("valid: bundle \(summary.version), \(summary.branchCount) branches, \(summary.fileCount) files")
    }
  }
}
