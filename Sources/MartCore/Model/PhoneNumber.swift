/// Korean phone numbers in the one format clients can dial and display: `055-211-1234`,
/// `02-1234-5678`, `1899-9900`.
public enum PhoneNumber {
  /// Formats a published phone number, or returns `nil` when it is not a recognisable Korean
  /// number. Handles spaces (`064 798 2500`), no separators (`0332402500`), `)` separators and
  /// range suffixes (`054)278-1448~9`), and the `+82` country code (`+82-1899-9900`).
  ///
  /// The text is read by `Character`: a digit, `~`, `+` or space with a mark combined with it
  /// is none of those.
  public static func format(_ published: String?) -> String? {
    guard let published else { return nil }
    let scalars = Array(published.unicodeScalars)
    /// The ASCII byte of the `Character` that is the scalar at `index` alone, if it is one.
    func ascii(_ index: Int) -> UInt8? {
      let scalar = scalars[index]
      guard scalar.isASCII, index == 0 || TextCleanup.breaksGrapheme(scalars[index - 1], scalar),
        index + 1 == scalars.count || TextCleanup.breaksGrapheme(scalar, scalars[index + 1])
      else { return nil }
      return UInt8(scalar.value)
    }
    // A "~9" suffix lists extra lines (1448 to 1449); the first number is the main line (the
    // first text between `~`s that is not empty).
    var start = 0
    while start < scalars.count, ascii(start) == UInt8(ascii: "~") { start += 1 }
    var end = start
    while end < scalars.count, ascii(end) != UInt8(ascii: "~") { end += 1 }
    var digits: [UInt8] = []
    digits.reserveCapacity(end - start)
    for index in start..<end {
      if let byte = ascii(index), byte >= 0x30, byte <= 0x39 { digits.append(byte) }
    }
    var afterSpaces = start
    while afterSpaces < end, ascii(afterSpaces) == 0x20 { afterSpaces += 1 }
    let international =
      afterSpaces + 3 <= end && ascii(afterSpaces) == UInt8(ascii: "+") && ascii(afterSpaces + 1) == 0x38
      && ascii(afterSpaces + 2) == 0x32
    if international {
      digits.removeFirst(2)
      if digits.first != 0x30 && !isNationalRepresentative(digits) { digits.insert(0x30, at: 0) }
    }
    if isNationalRepresentative(digits) { return dashed(digits, before: [4]) }
    // Area codes are 0 and a non-zero digit; placeholders such as 00-000-0000 are not numbers.
    guard digits.first == 0x30, digits.count < 2 || digits[1] != 0x30 else { return nil }
    let areaLength = digits.count >= 2 && digits[1] == 0x32 ? 2 : 3
    let subscriber = digits.count - areaLength
    guard subscriber == 7 || subscriber == 8 else { return nil }
    return dashed(digits, before: [areaLength, digits.count - 4])
  }

  /// The ASCII `digits` with a dash before each of the offsets `cuts`, written once into a string
  /// of the exact length.
  private static func dashed(_ digits: [UInt8], before cuts: [Int]) -> String {
    String(unsafeUninitializedCapacity: digits.count + cuts.count) { buffer in
      var count = 0
      for (offset, digit) in digits.enumerated() {
        if cuts.contains(offset) {
          buffer[count] = UInt8(ascii: "-")
          count += 1
        }
        buffer[count] = digit
        count += 1
      }
      return count
    }
  }

  /// 8-digit nationwide numbers such as 1588-xxxx, 1899-xxxx.
  private static func isNationalRepresentative(_ digits: [UInt8]) -> Bool {
    digits.count == 8 && digits[0] == 0x31 && (digits[1] == 0x35 || digits[1] == 0x36 || digits[1] == 0x38)
  }
}
