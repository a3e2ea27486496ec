import MartCore

/// A row of a store list that gave no branch because it lacks what names a store (its id or its
/// name): which list, read from where, which row, and what it lacks. Parsers return these beside
/// the branches they read, and `collect` warns once for each (``SourceSession/warn(skipped:)``),
/// so a dropped store is never silent.
public struct SkippedRow: Hashable, Sendable, CustomStringConvertible {
  /// The list as a message names it, e.g. `the store list (searchType=EM)`.
  public var list: String
  /// The URL the list was read from.
  public var url: String
  /// The row's place in the list, counted from 1.
  public var row: Int
  /// The fields the row lacks or leaves blank, e.g. `["ID"]`; alternatives are written
  /// together (`storId or storCd`).
  public var missing: [String]
  /// The store's name, when the row gives one.
  public var name: String?

  public init(list: String, url: String, row: Int, missing: [String], name: String? = nil) {
    self.list = list
    self.url = url
    self.row = row
    self.missing = missing
    self.name = name
  }

  /// `row 3 of the store list at <url> has no ID ("이마트 성수점"); skipped`.
  public var description: String {
    let named = name.map { " (\"\($0)\")" } ?? ""
    return "row \(row) of \(list) at \(url) has no \(missing.joined(separator: " and "))\(named); skipped"
  }

  /// The row at `index` (from 0) of `list`, skipped for the fields of `required` it lacks or
  /// leaves blank. Each element of `required` is a field, or alternatives of which one is enough
  /// (`["storId", "storCd"]`); `nameKey` is the field whose value names the store in the message.
  init(
    _ row: JSONRow, at index: Int, of list: String, url: String, lacking required: [[String]],
    nameKey: String? = nil
  ) {
    let missing = required.filter { keys in keys.allSatisfy { row.text($0) == nil } }
      .map { $0.joined(separator: " or ") }
    self.init(list: list, url: url, row: index + 1, missing: missing, name: nameKey.flatMap { row.text($0) })
  }
}

/// The branches a store list gave, in its order, and the rows it skipped for lack of an id or a
/// name.
public struct BranchList: Sendable {
  public var branches: [RawBranch]
  public var skipped: [SkippedRow]

  public init(branches: [RawBranch], skipped: [SkippedRow] = []) {
    self.branches = branches
    self.skipped = skipped
  }
}

extension SourceSession {
  /// Warns once for each of `rows`, naming the source: `emart: row 3 of the store list … has no
  /// ID; skipped`.
  public func warn(skipped rows: [SkippedRow]) {
    for row in rows { warn("\(sourceName): \(row)") }
  }
}
