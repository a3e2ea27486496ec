import ArgumentParser
import Foundation
import MartCore

/// `mart-holiday address "<text>"`: parses one address and prints its parts, canonical forms and
/// geocoding queries.
struct AddressCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "address",
    abstract: "Normalizes a Korean address and prints its canonical forms and geocoding queries.")

  enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  @Option(help: "Output format: text or json (one object with sorted keys).")
  var format: OutputFormat = .text

  @Argument(help: "The address as published, e.g. \"경북 포항시 북구 중흥로 244(죽도동 607-1)\".")
  var text: String

  func run() async throws {
    let address = KoreanAddress(parsing: text)
    switch format {
    case .json:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      StandardStreams.outLine(String(decoding: try encoder.encode(address), as: UTF8.self))
    case .text:
      StandardStreams.outLine(Self.describe(address))
    }
  }

  static func describe(_ address: KoreanAddress) -> String {
    let rows: [(String, String?)] = [
      ("input", address.raw),
      ("sido", address.province?.officialName),
      ("sigungu", address.sigungu),
      ("eup/myeon", address.eupMyeon),
      ("dong/ri", address.dongRi),
      ("road name", address.roadName),
      ("building no.", address.buildingNumber?.description),
      ("lot no.", address.lotNumber?.description),
      ("detail", address.detail),
      ("reference", address.reference),
      ("road address", address.roadAddress),
      ("lot address", address.jibunAddress),
    ]
    var lines = rows.compactMap { label, value in
      value.map { "\(label.padding(toLength: 13, withPad: " ", startingAt: 0)) \($0)" }
    }
    if address.queries.isEmpty {
      lines.append("queries       (none)")
    } else {
      lines.append("queries")
      lines += address.queries.enumerated().map { "  \($0.offset + 1). \($0.element)" }
    }
    if !address.unparsed.isEmpty {
      lines.append("not understood: " + address.unparsed.map { "\"\($0)\"" }.joined(separator: ", "))
    }
    lines += address.warnings.map { "warning: \($0)" }
    return lines.joined(separator: "\n")
  }
}
