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
      ReportCommand.self,
      BenchCommand.self, BenchRunCommand.self, BenchServeCommand.self,
    ])

  /// The usual entry point, except for the exit status of bad usage (an unknown option, a
  /// missing argument, a value out of range): `diff` reports it with 2, as diff(1) does, so that
  /// CI can tell "changes" (1) from "trouble" (2); every other command with 1, its "bad input"
  /// status, as the README says.
  static func main() async {
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      if CommandLine.arguments.dropFirst().first == "diff", !(error is ExitCode), exitCode(for: error) != .success {
        FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
        Foundation.exit(2)
      }
      if !(error is ExitCode), exitCode(for: error) == .validationFailure {
        FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
        Foundation.exit(1)
      }
      exit(withError: error)
    }
  }
}
