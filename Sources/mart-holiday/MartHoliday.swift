import ArgumentParser

@main
struct MartHoliday: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "mart-holiday",
    abstract: "Builds the Korean mart closing-day dataset.",
    subcommands: [RunCommand.self, RuleCommand.self, AddressCommand.self, BenchCommand.self, BenchRunCommand.self])
}
