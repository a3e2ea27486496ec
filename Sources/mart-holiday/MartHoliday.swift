import ArgumentParser
import Foundation
import MartCore

@main
struct MartHoliday: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mart-holiday",
    abstract: "Builds the Korean mart closing-day dataset.",
    version: MartVersion.current,
    subcommands: [
      RunCommand.self, RuleCommand.self, AddressCommand.self, FetchCommand.self, ValidateCommand.self, DiffCommand.self,
      ReportCommand.self, SiteCommand.self, ProbeCommand.self, RegisterCommand.self,
      BenchCommand.self, BenchRunCommand.self, BenchServeCommand.self,
    ])

  /// The usual entry point, except that every error is one `error:` line, as every command
  /// writes its own: bad usage (an unknown option, a missing argument, a value out of range)
  /// names the command's `--help` and has its own exit status: `diff` and `probe` report it
  /// with 2, as diff(1) does, so that CI can tell "changes" (1) from "trouble" (2); every other command
  /// with 1, its "bad input" status (docs/cli.md). A failed write to stdout or stderr never
  /// crashes the process (see `StandardStreams` and ``finish(_:)``).
  static func main() async {
    StandardStreams.ignoreBrokenPipes()
    if let unknown = unknownSubcommand {
      let names = configuration.subcommands.map { $0._commandName }.joined(separator: ", ")
      StandardStreams.err("error: unknown subcommand '\(unknown)' (the commands: \(names); see mart-holiday --help)\n")
      finish(1)
    }
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch let code as ExitCode {
      finish(code.rawValue)
    } catch {
      let status = exitCode(for: error)
      // --help and --version end here too, printed as ArgumentParser prints them.
      if status == .success { exit(withError: error) }
      var text = message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
      if status == .validationFailure {
        let subcommand = CommandLine.arguments.dropFirst().first.map { $0.hasPrefix("-") ? "" : " \($0)" } ?? ""
        text += " (see mart-holiday\(subcommand) --help)"
      }
      StandardStreams.err("error: \(text)\n")
      finish(isDiff ? 2 : status == .validationFailure ? 1 : status.rawValue)
    }
    finish(0)
  }

  /// The first argument, when it is no option and names no command (nor `help`): an unknown
  /// subcommand, which is said as such rather than as an unexpected argument.
  private static var unknownSubcommand: String? {
    guard let first = CommandLine.arguments.dropFirst().first, !first.hasPrefix("-") else { return nil }
    let known = Set(configuration.subcommands.map { $0._commandName } + ["help"])
    return known.contains(first) ? nil : first
  }

  /// Whether the command is `diff` or `probe`, whose trouble status is 2.
  private static var isDiff: Bool { ["diff", "probe"].contains(CommandLine.arguments.dropFirst().first ?? "") }

  /// Ends the process with `status`, unless the command's result could not be written to stdout
  /// (a closed pipe, a full disk): then one `error:` line on stderr and the command's trouble
  /// status (1; 2 for `diff` and `probe`). A run keeps its status, which says what it published, and warns.
  static func finish(_ status: Int32) -> Never {
    if let problem = StandardStreams.outputProblem {
      if CommandLine.arguments.dropFirst().first == "run" {
        StandardStreams.err("warning: standard output: \(problem): the summary was not written\n")
      } else if status == 0 || (isDiff && status == 1) {
        StandardStreams.err("error: cannot write to standard output: \(problem)\n")
        Foundation.exit(isDiff ? 2 : 1)
      }
    }
    Foundation.exit(status)
  }
}
