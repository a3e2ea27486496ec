import ArgumentParser

struct RuleCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "rule", abstract: "Not yet available.")
  func run() async throws {}
}
