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

  /// The usual entry point, except for bad usage (an unknown option, a missing argument, a
  /// value out of range), which gets one `error:` line naming the command's `--help`, and its
  /// own exit status: `diff` reports it with 2, as diff(1) does, so that CI can tell "changes"
  /// (1) from "trouble" (2); every other command with 1, its "bad input" status, as the README
  /// says.
  static func main() async {
    do {
      var command = try parseAsRoot()
      if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.run()
      } else {
        try command.run()
      }
    } catch {
      let isDiff = CommandLine.arguments.dropFirst().first == "diff"
      let status = exitCode(for: error)
      if !(error is ExitCode), status == .validationFailure || (isDiff && status != .success) {
        let subcommand = CommandLine.arguments.dropFirst().first.map { $0.hasPrefix("-") ? "" : " \($0)" } ?? ""
        let line = "error: \(message(for: error)) (see mart-holiday\(subcommand) --help)\n"
        FileHandle.standardError.write(Data(line.utf8))
        Foundation.exit(isDiff ? 2 : 1)
      }
      exit(withError: error)
    }
  }
}
