import ArgumentParser
import Foundation
import MartCore
import MartFiles
import MartProjection
import MartRegister

/// `mart-holiday register FILE`: the stores the closing-day law binds, from a national register
/// of large stores (LOCALDATA 대규모점포) saved as CSV.
struct RegisterCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "register",
    abstract: "Lists the stores the closing-day law binds from a national register of large stores (CSV).",
    discussion: """
      FILE is the register as LOCALDATA publishes it (대규모점포, 2026 or 2025 layout), in CP949 or UTF-8.

      Lists open and not-yet-open hypermarkets (대규모점포 that are marts) and SSMs (준대규모점포), one entry per physical store, with the covered brand each is a branch of, its 시·도 and 시·군·구, and WGS84 coordinates converted from EPSG:5174 by PROJ; says how many rows were left out and why.

      Exit status: 0 when the file was read; 1 when it cannot be (not CSV, not UTF-8 or CP949, a column missing, a row cut off), with one line on standard error.
      """)

  enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  @Option(help: "Output format: text or json (one object with sorted keys).")
  var format: OutputFormat = .text

  @Argument(help: ArgumentHelp("The register CSV file.", valueName: "file"))
  var file: String

  func validate() throws {
    try SupportedPaths.checkNotEmpty(file, option: "FILE")
  }

  func run() throws {
    switch Files.kind(at: file) {
    case nil: throw FileError(.read, path: file, message: "does not exist")
    case .regularFile?, .symbolicLink?: break
    case let kind?: throw FileError(.read, path: file, message: "is \(kind), not a register file")
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: file))
    } catch {
      throw FileError(.read, path: file, message: "cannot read: \((error as NSError).localizedDescription)")
    }
    let rows: [RegisterRow]
    do {
      rows = try RegisterReader.rows(data)
    } catch {
      throw RegisterFileError(source: file, problem: error)
    }
    let listing = RegisterSelector(converter: try RegisterCoordinateConverter()).select(rows)
    switch format {
    case .json: StandardStreams.outLine(try RegisterListingJSON.text(listing))
    case .text: StandardStreams.out(Self.describe(listing))
    }
  }

  /// One line a store (id, class, state, brand, district, name), then the rows left out.
  static func describe(_ listing: RegisterListing) -> String {
    var lines = listing.stores.map { store in
      [
        store.id, store.kind.rawValue, store.status.rawValue, store.brand?.rawValue ?? "-",
        [store.sido, store.sigungu].compactMap { $0 }.joined(separator: " "), store.name,
      ].joined(separator: "\t")
    }
    let skipped = listing.skipped.sorted { $0.key < $1.key }.map { "\($0.key.rawValue) \($0.value)" }
    lines.append(
      "\(listing.stores.count) stores" + (skipped.isEmpty ? "" : "; skipped: " + skipped.joined(separator: ", ")))
    return lines.joined(separator: "\n") + "\n"
  }
}
