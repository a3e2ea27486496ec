import Foundation

/// A branch's daily opening hours as two `HH:MM` times, read from the published text.
///
/// `close` may be `24:00` (midnight at the end of the day) or earlier than `open` (closing
/// after midnight). Shops that publish different hours per weekday or season keep only the
/// published text; this type covers the one-range form every source here uses.
public struct OpeningHours: Hashable, Sendable, Codable {
  /// Opening time, `HH:MM`, 24-hour.
  public var open: String
  /// Closing time, `HH:MM`, 24-hour; `24:00` for midnight.
  public var close: String

  public init(open: String, close: String) {
    self.open = open
    self.close = close
  }

  /// Reads the first `time – time` range of a published text, or returns `nil` when the text
  /// has none (a notice, `연중무휴`, a single time such as `오후 7시까지`).
  ///
  /// Understands `10:00~24:00`, `10:00 ~ 23:00`, `오전 10:00 - 오후 10:00` (→ 10:00, 22:00),
  /// `오전 10시 ~ 오후 11시`, `AM`/`PM`, full-width digits and tildes, and `부터 … 까지`.
  /// `오후` before an hour already past noon (`오후 23:00`, as some sites write) is taken as
  /// written.
  public static func parse(_ published: String?) -> OpeningHours? {
    guard let published else { return nil }
    let times = TimeScanner(published).times()
    for index in times.indices.dropLast() {
      let first = times[index]
      let second = times[index + 1]
      guard first.separatorAfter else { continue }
      let open = first.minutes(asClosing: false)
      let close = second.minutes(asClosing: true)
      guard let open, let close, open < 24 * 60, open != close else { continue }
      return OpeningHours(open: format(open), close: format(close))
    }
    return nil
  }

  /// `HH:MM` of minutes since midnight, at most `24:00`.
  private static func format(_ minutes: Int) -> String {
    let (hours, rest) = minutes.quotientAndRemainder(dividingBy: 60)
    func digit(_ value: Int) -> UInt8 { UInt8(ascii: "0") + UInt8(value) }
    let bytes = [digit(hours / 10), digit(hours % 10), UInt8(ascii: ":"), digit(rest / 10), digit(rest % 10)]
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// A time of day as written: an optional 오전/오후, hour and minute.
private struct WrittenTime {
  enum Half { case morning, afternoon }
  var half: Half?
  var hour: Int
  var minute: Int
  /// Whether a range separator (`~`, `-`, `부터`) follows this time before the next one.
  var separatorAfter = false

  /// Minutes since midnight in 24-hour form; a closing midnight is `24:00`. `nil` when the
  /// values are not a time of day.
  func minutes(asClosing closing: Bool) -> Int? {
    guard (0...59).contains(minute), (0...24).contains(hour) else { return nil }
    var hour24 = hour
    switch half {
    case .morning?:
      guard hour <= 12 else { return nil }
      if hour == 12 { hour24 = 0 }
    case .afternoon?:
      if hour < 12 { hour24 = hour + 12 }
    case nil:
      break
    }
    if hour24 == 24 && minute != 0 { return nil }
    if closing && hour24 == 0 && minute == 0 { hour24 = 24 }
    if !closing && hour24 == 24 { return nil }
    return hour24 * 60 + minute
  }
}

/// Finds written times (`10:00`, `10시`, `10시 30분`, with 오전/오후/AM/PM) and range separators.
///
/// The text is read by `Character`, each compared by the scalar it is canonically equal to
/// (``Letter``): comparing `Character`s of Hangul goes through normalization every time.
private struct TimeScanner {
  /// One `Character` of the text, as the scanner asks about it.
  struct Letter {
    /// The one scalar the character is canonically equal to (full-width digits, colon and
    /// tilde as their ASCII forms), or U+FFFF when it equals no single scalar.
    var scalar: Unicode.Scalar
    /// Whether the character lies in `"0"..."9"` as `Character`s order: a digit alone (a
    /// full-width one too), or `0` to `8` with marks after it.
    var isInDigitRange: Bool
    var isWhitespace: Bool
    /// An ASCII letter alone.
    var isASCIILetter: Bool

    init(_ character: Character) {
      let scalars = character.unicodeScalars
      let first = scalars.first!
      let alone = scalars.count == 1
      var scalar = first
      switch first.value {
      case _ where !alone:
        let composed = String(character).precomposedStringWithCanonicalMapping.unicodeScalars
        scalar = composed.count == 1 ? composed.first! : "\u{FFFF}"
      case 0xFF10...0xFF19, 0xFF1A, 0xFF5E: scalar = Unicode.Scalar(first.value - 0xFEE0)!
      case 0x301C: scalar = "~"
      case 0x2013, 0x2014, 0x2212: scalar = "-"
      case 0..<0x300, 0xAC00...0xD7A3: break
      default:
        let composed = String(character).precomposedStringWithCanonicalMapping.unicodeScalars
        scalar = composed.count == 1 ? composed.first! : "\u{FFFF}"
      }
      self.init(scalar: scalar, first: first, alone: alone)
    }

    /// A character that is `scalar` alone, below U+0300 or a precomposed Hangul syllable: what
    /// `init(_:)` makes of it, without making the `Character`.
    init(plain scalar: Unicode.Scalar) {
      self.init(scalar: scalar, first: scalar, alone: true)
    }

    private init(scalar: Unicode.Scalar, first: Unicode.Scalar, alone: Bool) {
      self.scalar = scalar
      // A digit with marks after it orders just after the digit alone: `1\u{301}` is in the range, `9\u{301}` is not.
      isInDigitRange = alone ? ("0"..."9").contains(scalar) : ("0"..."8").contains(first)
      switch first.value {
      case 0x09...0x0D, 0x20: isWhitespace = true
      case 0..<0x80, 0xAC00...0xD7A3: isWhitespace = false
      default: isWhitespace = first.properties.isWhitespace
      }
      isASCIILetter = alone && (("A"..."Z").contains(first) || ("a"..."z").contains(first))
    }

    /// The value of a digit alone.
    var digit: Int? { ("0"..."9").contains(scalar) ? Int(scalar.value - 0x30) : nil }
  }

  private let characters: [Letter]

  /// The letters of `text`, one per `Character`. A scalar below U+0300 or a precomposed Hangul
  /// syllable with a grapheme break after it is a `Character` of its own, read as that scalar
  /// (`TextCleanup.breaksGrapheme` is exact after such a scalar); anything else is read as the
  /// `Character` that starts there.
  init(_ text: String) {
    var letters: [Letter] = []
    letters.reserveCapacity(text.utf8.count)
    let scalars = text.unicodeScalars
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let scalar = scalars[index]
      let next = scalars.index(after: index)
      if scalar.value < 0x300 || scalar.isHangulSyllable,
        next == scalars.endIndex || TextCleanup.breaksGrapheme(scalar, scalars[next])
      {
        letters.append(Letter(plain: scalar))
        index = next
      } else {
        letters.append(Letter(text[index]))
        index = text.index(after: index)
      }
    }
    characters = letters
  }

  func times() -> [WrittenTime] {
    var result: [WrittenTime] = []
    var pendingHalf: WrittenTime.Half?
    var index = 0
    while index < characters.count {
      if let (half, length) = half(at: index) {
        pendingHalf = half
        index += length
        continue
      }
      if characters[index].scalar == "~" || characters[index].scalar == "-" || startsWith(Self.from, at: index) {
        if !result.isEmpty { result[result.count - 1].separatorAfter = true }
        index += 1
        continue
      }
      if characters[index].isInDigitRange, index == 0 || !isDigit(index - 1) {
        if let (time, length) = time(at: index) {
          var time = time
          time.half = pendingHalf
          // An AM/PM written after the time.
          var next = index + length
          while next < characters.count, characters[next].scalar == " " { next += 1 }
          if time.half == nil, let (half, halfLength) = half(at: next), !isLetterAfterHalf(next + halfLength) {
            time.half = half
            next += halfLength
            index = next
          } else {
            index += length
          }
          pendingHalf = nil
          result.append(time)
          continue
        }
      }
      if !characters[index].isWhitespace { pendingHalf = nil }
      index += 1
    }
    return result
  }

  static let from: [Unicode.Scalar] = ["부", "터"]
  static let morning: [Unicode.Scalar] = ["오", "전"]
  static let afternoon: [Unicode.Scalar] = ["오", "후"]

  private func isDigit(_ index: Int) -> Bool {
    characters.indices.contains(index) && characters[index].isInDigitRange
  }

  private func startsWith(_ word: [Unicode.Scalar], at index: Int) -> Bool {
    var position = index
    for letter in word {
      guard position < characters.count, characters[position].scalar == letter else { return false }
      position += 1
    }
    return true
  }

  private func isLetterAfterHalf(_ index: Int) -> Bool {
    characters.indices.contains(index) && characters[index].isASCIILetter
  }

  private func half(at index: Int) -> (WrittenTime.Half, Int)? {
    if startsWith(Self.morning, at: index) { return (.morning, 2) }
    if startsWith(Self.afternoon, at: index) { return (.afternoon, 2) }
    guard index + 2 <= characters.count, characters[index + 1].scalar == "M" || characters[index + 1].scalar == "m"
    else {
      return nil
    }
    let half: WrittenTime.Half
    switch characters[index].scalar {
    case "A", "a": half = .morning
    case "P", "p": half = .afternoon
    default: return nil
    }
    guard !(index > 0 && characters[index - 1].isASCIILetter), !isLetterAfterHalf(index + 2) else { return nil }
    return (half, 2)
  }

  /// `H:MM`, `HH:MM`, `H시`, `H시 MM분` at `index`, with its length.
  private func time(at index: Int) -> (WrittenTime, Int)? {
    /// The value of the characters `range`, `nil` unless each is a digit alone.
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for position in range {
        guard let digit = characters[position].digit else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    var cursor = index
    while isDigit(cursor), cursor - index < 3 { cursor += 1 }
    guard (1...2).contains(cursor - index), let hour = number(index..<cursor), cursor < characters.count else {
      return nil
    }
    if characters[cursor].scalar == ":" {
      let minuteStart = cursor + 1
      guard isDigit(minuteStart), isDigit(minuteStart + 1), !isDigit(minuteStart + 2),
        let minute = number(minuteStart..<(minuteStart + 2))
      else { return nil }
      return (WrittenTime(hour: hour, minute: minute), minuteStart + 2 - index)
    }
    if characters[cursor].scalar == "시" {
      cursor += 1
      var probe = cursor
      while probe < characters.count, characters[probe].scalar == " " { probe += 1 }
      let minuteStart = probe
      while isDigit(probe), probe - minuteStart < 3 { probe += 1 }
      if (1...2).contains(probe - minuteStart), probe < characters.count, characters[probe].scalar == "분",
        let minute = number(minuteStart..<probe)
      {
        return (WrittenTime(hour: hour, minute: minute), probe + 1 - index)
      }
      return (WrittenTime(hour: hour, minute: 0), cursor - index)
    }
    return nil
  }
}
