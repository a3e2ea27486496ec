import Foundation

/// The columns of the register (LOCALDATA 대규모점포) read by name, with every spelling the
/// published layouts use (brand-sources.md §11.1): the 2026 layout (26 columns), the 2025 layout
/// (29 quoted columns and a trailing comma) and an older one with `좌표정보(x)`/`(y)`.
public enum RegisterColumn: String, Sendable, Hashable, CaseIterable {
  case managementNumber
  case name
  case statusName
  case statusCode
  case detailStatusName
  case detailStatusCode
  case storeKind
  case businessType
  case roadAddress
  case jibunAddress
  case phone
  case x
  case y
  case permitDate
  case closedDate
  case suspensionStart
  case suspensionEnd
  case reopenDate
  case lastModified

  /// The header names of the column, first the 2026 one.
  public var headerNames: [String] {
    switch self {
    case .managementNumber: ["관리번호"]
    case .name: ["사업장명"]
    case .statusName: ["영업상태명"]
    case .statusCode: ["영업상태코드", "영업상태구분코드"]
    case .detailStatusName: ["상세영업상태명"]
    case .detailStatusCode: ["상세영업상태코드"]
    case .storeKind: ["점포구분명"]
    case .businessType: ["업태구분명"]
    case .roadAddress: ["도로명주소", "도로명전체주소"]
    case .jibunAddress: ["지번주소", "소재지전체주소"]
    case .phone: ["전화번호", "소재지전화"]
    case .x: ["좌표정보(X)", "좌표정보x(epsg5174)"]
    case .y: ["좌표정보(Y)", "좌표정보y(epsg5174)"]
    case .permitDate: ["인허가일자"]
    case .closedDate: ["폐업일자"]
    case .suspensionStart: ["휴업시작일자"]
    case .suspensionEnd: ["휴업종료일자"]
    case .reopenDate: ["재개업일자"]
    case .lastModified: ["최종수정시점"]
    }
  }

  /// The columns without which the register cannot be read: who, what state, what kind, where.
  public static let required: [RegisterColumn] = [
    .managementNumber, .name, .statusName, .detailStatusName, .storeKind, .businessType, .roadAddress,
    .jibunAddress, .x, .y,
  ]

  /// A header name as compared: without spaces, ASCII letters in lower case (`좌표정보(X)` and
  /// `좌표정보(x)` are one column).
  static func key(_ headerName: String) -> String {
    String(headerName.unicodeScalars.filter { !$0.properties.isWhitespace }.map(Character.init)).lowercased()
  }
}

/// Where each column is in one file's header.
struct RegisterHeader: Sendable {
  private var positions: [RegisterColumn: Int] = [:]
  /// How many fields a record has: the header's names, less a trailing empty one.
  let width: Int
  /// Whether the header ends with a comma (the 2025 layout): then every row does too, and a row
  /// without it was cut off inside its last value.
  let endsWithComma: Bool

  /// Finds the columns in `names`; throws the missing required columns, by their 2026 names.
  init(_ names: [String]) throws(RegisterError) {
    var names = names
    // The 2025 layout ends every line with a comma: an empty last column, ignored.
    endsWithComma = names.count > 1 && names.last?.trimmingCharacters(in: .whitespaces).isEmpty == true
    while let last = names.last, last.trimmingCharacters(in: .whitespaces).isEmpty { names.removeLast() }
    width = names.count
    let keys = names.map(RegisterColumn.key)
    for column in RegisterColumn.allCases {
      let wanted = Set(column.headerNames.map(RegisterColumn.key))
      if let position = keys.firstIndex(where: wanted.contains) { positions[column] = position }
    }
    let missing = RegisterColumn.required.filter { positions[$0] == nil }
    if !missing.isEmpty { throw .missingColumns(missing.map { $0.headerNames[0] }) }
  }

  /// The trimmed value of `column` in `fields`, `nil` when the column is absent or the value empty.
  func value(_ column: RegisterColumn, in fields: [String]) -> String? {
    guard let position = positions[column], position < fields.count else { return nil }
    let value = fields[position].trimmingCharacters(in: .whitespacesAndNewlines)
    return value.isEmpty ? nil : value
  }
}
