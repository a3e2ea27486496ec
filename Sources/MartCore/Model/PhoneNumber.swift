/// Korean phone numbers in the one format clients can dial and display: `055-211-1234`,
/// `02-1234-5678`, `1899-9900`.
public enum PhoneNumber {
  /// Formats a published phone number, or returns `nil` when it is not a recognisable Korean
  /// number. Handles spaces (`064 798 2500`), no separators (`0332402500`), `)` separators and
  /// range suffixes (`054)278-1448~9`), and the `+82` country code (`+82-1899-9900`).
  public static func format(_ published: String?) -> String? {
    guard let published else { return nil }
    // A "~9" suffix lists extra lines (1448 to 1449); the first number is the main line.
    let main = published.split(separator: "~", maxSplits: 1).first.map(String.init) ?? ""
    var digits = main.filter { $0.isASCII && $0.isNumber }
    let international = main.trimmingPrefixWhitespace.hasPrefix("+82")
    if international {
      digits.removeFirst(2)
      if !digits.hasPrefix("0") && !isNationalRepresentative(digits) { digits = "0" + digits }
    }
    if isNationalRepresentative(digits) {
      return "\(digits.prefix(4))-\(digits.suffix(4))"
    }
    // Area codes are 0 and a non-zero digit; placeholders such as 00-000-0000 are not numbers.
    guard digits.hasPrefix("0"), digits.dropFirst().first != "0" else { return nil }
    let areaLength = digits.hasPrefix("02") ? 2 : 3
    let subscriber = digits.count - areaLength
    guard subscriber == 7 || subscriber == 8 else { return nil }
    let area = digits.prefix(areaLength)
    let rest = digits.dropFirst(areaLength)
    return "\(area)-\(rest.dropLast(4))-\(rest.suffix(4))"
  }

  /// 8-digit nationwide numbers such as 1588-xxxx, 1899-xxxx.
  private static func isNationalRepresentative(_ digits: String) -> Bool {
    digits.count == 8 && digits.hasPrefix("1") && ["15", "16", "18"].contains(String(digits.prefix(2)))
  }
}

extension String {
  fileprivate var trimmingPrefixWhitespace: Substring { drop(while: { $0 == " " }) }
}
