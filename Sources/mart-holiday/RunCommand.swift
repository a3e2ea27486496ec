import ArgumentParser

struct RunCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "run", abstract: "Not yet available.")
  func run() async throws {}
}
