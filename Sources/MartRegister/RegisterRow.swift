import Foundation
import MartCharset
import MartCore

/// Why a register file cannot be read. Each names what is wrong; ``RegisterFileError`` adds where.
public enum RegisterError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Neither UTF-8 nor CP949.
  case notText
  /// An HTML page (an error or login page) where the CSV should be.
  case htmlPage
  /// No header line.
  case empty
  /// The header lacks columns the register needs (their 2026 names).
  case missingColumns([String])
  /// Not RFC 4180, or a record with fewer fields than the header: a cut-off file.
  case malformed(String)

  public var description: String {
    switch self {
    case .notText: "not a register: neither UTF-8 nor CP949 text"
    case .htmlPage: "not a register: an HTML page, not CSV"
    case .empty: "not a register: no header line"
    case .missingColumns(let names): "not a register: missing columns " + names.joined(separator: ", ")
    case .malformed(let problem): "malformed register: \(problem)"
    }
  }
}

/// A register that could not be read, and which one.
public struct RegisterFileError: LocatedError, Sendable, Hashable {
  /// The file or URL read.
  public var source: String
  public var problem: RegisterError

  public init(source: String, problem: RegisterError) {
    self.source = source
    self.problem = problem
  }

  /// The file or URL read.
  public var location: String { source }
  /// What is wrong with it.
  public var message: String { problem.description }

  /// `<source>: <problem>`.
  public var description: String { "\(source): \(problem)" }
}

/// A store's state in the register (영업상태코드 and 상세영업상태).
public enum RegisterState: String, Sendable, Hashable, Codable {
  /// 영업/정상, 상세 정상영업.
  case open
  /// 영업/정상, 상세 영업개시전: registered, not yet trading.
  case notYetOpen
  /// 영업/정상 untouched since 2007 (상세 `BBBB`, or no 상세 at all).
  case legacy
  /// 휴업.
  case suspended
  /// 폐업.
  case closed
  /// 취소/말소/만료/정지/중지.
  case cancelled
  /// Any other state.
  case other
}

/// One row of the register, its values trimmed, nothing decided but its state.
public struct RegisterRow: Sendable, Hashable {
  /// 관리번호.
  public var id: String
  /// 사업장명.
  public var name: String
  public var state: RegisterState
  /// 점포구분명: `대규모점포`, `준대규모점포`, or `nil` (legacy rows).
  public var storeKind: String?
  /// 업태구분명: 대형마트, 구분없음, 쇼핑센터, 백화점, …
  public var businessType: String?
  public var roadAddress: String?
  public var jibunAddress: String?
  public var phone: String?
  /// EPSG:5174 easting and northing, in metres, as written (`nil` when empty or not a number).
  public var x: Double?
  public var y: Double?
  public var permitDate: CalendarDate?
  public var closedDate: CalendarDate?
  public var suspensionStart: CalendarDate?
  public var suspensionEnd: CalendarDate?
  /// 최종수정시점 as written (`2024-11-19 09:48:29`), which sorts in time order.
  public var lastModified: String
  /// The line the row starts on.
  public var line: Int
}

/// Reads a register file into rows.
public enum RegisterReader {
  /// The rows of `data`, a register in CP949 or UTF-8 (a byte order mark stripped).
  public static func rows(_ data: Data) throws(RegisterError) -> [RegisterRow] {
    let text = try decode(data)
    let records: [RFC4180.Record]
    do {
      records = try RFC4180.records(text)
    } catch {
      throw .malformed(error.description)
    }
    guard let headerRecord = records.first else { throw .empty }
    let header = try RegisterHeader(headerRecord.fields)
    var rows: [RegisterRow] = []
    rows.reserveCapacity(records.count)
    for record in records.dropFirst() {
      var fields = record.fields
      let hasTrailingComma =
        fields.count == header.width + 1 && fields.last?.trimmingCharacters(in: .whitespaces).isEmpty == true
      if hasTrailingComma { fields.removeLast() }
      guard fields.count == header.width, hasTrailingComma || !header.endsWithComma else {
        let count = record.fields.count
        let expected = header.width + (header.endsWithComma ? 1 : 0)
        throw .malformed(
          "line \(record.line): \(count) fields where the header has \(expected) (a cut-off row?)")
      }
      rows.append(row(fields, header: header, line: record.line))
    }
    return rows
  }

  /// The text of `data`: UTF-8 when it is valid UTF-8 (after a byte order mark), else CP949.
  static func decode(_ data: Data) throws(RegisterError) -> String {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let body = data.starts(with: bom) ? data.dropFirst(3) : data[...]
    let text: String
    if let utf8 = String(validating: body, as: UTF8.self) {
      text = utf8
    } else if let cp949 = CharsetDecoder.convert(Data(body), from: "CP949") {
      text = cp949
    } else {
      throw .notText
    }
    let start = text.drop { $0.isWhitespace }.prefix(64).lowercased()
    if start.hasPrefix("<!doctype") || start.hasPrefix("<html") || start.hasPrefix("<?xml") || start.hasPrefix("<head")
      || start.hasPrefix("<body")
    {
      throw .htmlPage
    }
    return text
  }

  private static func row(_ fields: [String], header: RegisterHeader, line: Int) -> RegisterRow {
    func value(_ column: RegisterColumn) -> String? { header.value(column, in: fields) }
    func date(_ column: RegisterColumn) -> CalendarDate? { value(column).flatMap(RegisterDates.date) }
    return RegisterRow(
      id: value(.managementNumber) ?? "", name: value(.name) ?? "",
      state: RegisterState(
        statusName: value(.statusName), statusCode: value(.statusCode), detailName: value(.detailStatusName),
        detailCode: value(.detailStatusCode)),
      storeKind: value(.storeKind), businessType: value(.businessType), roadAddress: value(.roadAddress),
      jibunAddress: value(.jibunAddress), phone: value(.phone), x: value(.x).flatMap(Double.init),
      y: value(.y).flatMap(Double.init), permitDate: date(.permitDate), closedDate: date(.closedDate),
      suspensionStart: date(.suspensionStart), suspensionEnd: date(.suspensionEnd),
      lastModified: value(.lastModified) ?? "", line: line)
  }
}

extension RegisterState {
  /// The state of a row from its 영업상태 and 상세영업상태 names and codes.
  init(statusName: String?, statusCode: String?, detailName: String?, detailCode: String?) {
    let status = statusName ?? ""
    switch (status, statusCode) {
    case (_, "01"?), ("영업/정상", _):
      switch (detailName, detailCode) {
      case ("정상영업"?, _), (_, "1"?): self = .open
      case ("영업개시전"?, _), (_, "5"?): self = .notYetOpen
      case (nil, _), (_, "BBBB"?): self = .legacy
      default: self = .other
      }
    case (_, "02"?), ("휴업", _): self = .suspended
    case (_, "03"?), ("폐업", _): self = .closed
    case (_, "04"?): self = .cancelled
    default:
      self = ["취소", "말소", "만료", "정지", "중지"].contains(where: status.contains) ? .cancelled : .other
    }
  }
}

/// The register's two date forms, `2001-05-26` and `20120322`.
enum RegisterDates {
  static func date(_ text: String) -> CalendarDate? {
    text.count == 8 ? CalendarDate(compact: text) : CalendarDate(iso: text.prefix(10))
  }
}
