import ArgumentParser

struct AddressCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "address", abstract: "Not yet available.")
  func run() async throws {}
}
