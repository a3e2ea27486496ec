import ArgumentParser
import Foundation
import MartCore
import MartExport
import MartPipeline
import MartReport

/// `mart-holiday report OUTPUT`: the page a person looks at, for any published output.
struct ReportCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "report",
    abstract: "Writes report.html: a map of the branches, a table per brand, a calendar and the changes.",
    discussion: """
      OUTPUT is an output directory: its report.json and the bundle its latest.json names. The page is one self-contained file (no network, no external fonts or tiles): a map of the branches over an outline of Korea, the brands with their status, counts and warnings, the window as a calendar of how many branches close each day, and the changes against the previous bundle with the run's warnings and errors. Every run writes it beside report.json.

      The previous bundle is --previous (an output or bundle directory), else the one report.json names as previous when it is still under OUTPUT/bundles/.

      Exit status: 0 written; 1 bad input, with one error: line on standard error.
      """)

  @Argument(help: ArgumentHelp("An output directory (report.json, latest.json).", valueName: "output"))
  var output: String

  @Option(help: ArgumentHelp("The output or bundle directory to compare with.", valueName: "old"))
  var previous: String?

  @Option(
    name: .customLong("output"),
    help: ArgumentHelp("Where to write the page (default: OUTPUT/report.html).", valueName: "file"))
  var file: String?

  func validate() throws {
    for (path, name) in [(output, "OUTPUT"), (previous, "--previous"), (file, "--output")] {
      if let path { try SupportedPaths.checkNotEmpty(path, option: name) }
    }
  }

  func run() throws {
    do {
      let written = try ReportFiles.write(
        outputDirectory: URL(fileURLWithPath: output), previous: previous.map { URL(fileURLWithPath: $0) },
        to: file.map { URL(fileURLWithPath: $0) }, sources: Pipeline.independentSources)
      StandardStreams.outLine("wrote \(written.path)")
    } catch {
      StandardStreams.err("error: \(error)\n")
      throw ExitCode(1)
    }
  }
}
