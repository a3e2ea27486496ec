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
  /// names the command's `--help`, and ends with the command's trouble status (``ExitStatuses``):
  /// 2 for `diff` and `probe`, as diff(1) has it, so that CI can tell "changes" (1) from
  /// "trouble" (2); 1 for every other command, its "bad input" status (docs/cli.md). A failed
  /// write to stdout or stderr never crashes the process (see `StandardStreams` and
  /// ``finish(_:_:)``).
  static func main() async {
    StandardStreams.ignoreBrokenPipes()
    if let unknown = unknownSubcommand {
      let names = configuration.subcommands.map { $0._commandName }.joined(separator: ", ")
      StandardStreams.err("error: unknown subcommand '\(unknown)' (the commands: \(names); see mart-holiday --help)\n")
      finish(1, .standard)
    }
    // Until the arguments are parsed, the command is the one they name first.
    var command: any ParsableCommand.Type = namedCommand
    do {
      var parsed = try parseAsRoot()
      command = type(of: parsed)
      if var asyncCommand = parsed as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try parsed.run()
      }
    } catch let code as ExitCode {
      finish(code.rawValue, ExitStatuses(of: command))
    } catch {
      let status = exitCode(for: error)
      // --help and --version end here too, printed as ArgumentParser prints them.
      if status == .success { exit(withError: error) }
      var text = message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
      if status == .validationFailure {
        let subcommand = command is MartHoliday.Type ? "" : " \(command._commandName)"
        text += " (see mart-holiday\(subcommand) --help)"
      }
      StandardStreams.err("error: \(text)\n")
      finish(ExitStatuses(of: command).trouble, ExitStatuses(of: command))
    }
    finish(0, ExitStatuses(of: command))
  }

  /// The first argument, when it is no option and names no command (nor `help`): an unknown
  /// subcommand, which is said as such rather than as an unexpected argument.
  private static var unknownSubcommand: String? {
    guard let first = CommandLine.arguments.dropFirst().first, !first.hasPrefix("-") else { return nil }
    let known = Set(configuration.subcommands.map { $0._commandName } + ["help"])
    return known.contains(first) ? nil : first
  }

  /// The command the first argument names, as the parser finds it; this one when it names none.
  private static var namedCommand: any ParsableCommand.Type {
    guard let first = CommandLine.arguments.dropFirst().first else { return self }
    return configuration.subcommands.first { $0._commandName == first } ?? self
  }

  /// Ends the process with `status`, unless the command's result could not be written to stdout
  /// (a closed pipe, a full disk): then one `error:` line on stderr and the command's trouble
  /// status, in place of a result (a status below it). A command whose status outlives its
  /// output (`run`, whose status says what it published) keeps it, and warns.
  static func finish(_ status: Int32, _ statuses: ExitStatuses) -> Never {
    if let problem = StandardStreams.outputProblem {
      if statuses.outlivesOutput {
        StandardStreams.err("warning: standard output: \(problem): the summary was not written\n")
      } else if status < statuses.trouble {
        StandardStreams.err("error: cannot write to standard output: \(problem)\n")
        Foundation.exit(statuses.trouble)
      }
    }
    Foundation.exit(status)
  }
}
