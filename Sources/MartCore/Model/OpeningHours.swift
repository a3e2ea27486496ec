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

  private static func format(_ minutes: Int) -> String {
    let hours = minutes / 60
    let rest = minutes % 60
    return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
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
private struct TimeScanner {
  private let characters: [Character]

  init(_ text: String) {
    characters = text.map { character in
      // Full-width digits, colon and tilde as their ASCII forms.
      guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else {
        return character
      }
      switch scalar.value {
      case 0xFF10...0xFF19, 0xFF1A, 0xFF5E:
        return Character(Unicode.Scalar(scalar.value - 0xFEE0)!)
      case 0x301C: return "~"
      case 0x2013, 0x2014, 0x2212: return "-"
      default: return character
      }
    }
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
      if characters[index] == "~" || characters[index] == "-" || startsWith("부터", at: index) {
        if !result.isEmpty { result[result.count - 1].separatorAfter = true }
        index += 1
        continue
      }
      if Self.isASCIIDigit(characters[index]), index == 0 || !isDigit(index - 1) {
        if let (time, length) = time(at: index) {
          var time = time
          time.half = pendingHalf
          // An AM/PM written after the time.
          var next = index + length
          while next < characters.count, characters[next] == " " { next += 1 }
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

  private func isDigit(_ index: Int) -> Bool {
    characters.indices.contains(index) && Self.isASCIIDigit(characters[index])
  }

  private static func isASCIIDigit(_ character: Character) -> Bool { ("0"..."9").contains(character) }

  // Called at every position of every text: no arrays or strings are made to compare.
  private func startsWith(_ word: String, at index: Int) -> Bool {
    var position = index
    for letter in word {
      guard position < characters.count, characters[position] == letter else { return false }
      position += 1
    }
    return true
  }

  private func isLetterAfterHalf(_ index: Int) -> Bool {
    characters.indices.contains(index) && characters[index].isLetter && characters[index].isASCII
  }

  private func half(at index: Int) -> (WrittenTime.Half, Int)? {
    if startsWith("오전", at: index) { return (.morning, 2) }
    if startsWith("오후", at: index) { return (.afternoon, 2) }
    guard index + 2 <= characters.count, characters[index + 1] == "M" || characters[index + 1] == "m" else {
      return nil
    }
    let half: WrittenTime.Half
    switch characters[index] {
    case "A", "a": half = .morning
    case "P", "p": half = .afternoon
    default: return nil
    }
    guard !(index > 0 && characters[index - 1].isASCII && characters[index - 1].isLetter),
      !isLetterAfterHalf(index + 2)
    else { return nil }
    return (half, 2)
  }

  /// `H:MM`, `HH:MM`, `H시`, `H시 MM분` at `index`, with its length.
  private func time(at index: Int) -> (WrittenTime, Int)? {
    var cursor = index
    var hourDigits = ""
    while isDigit(cursor), hourDigits.count < 3 {
      hourDigits.append(characters[cursor])
      cursor += 1
    }
    guard (1...2).contains(hourDigits.count), let hour = Int(hourDigits), cursor < characters.count else {
      return nil
    }
    if characters[cursor] == ":" {
      let minuteStart = cursor + 1
      guard isDigit(minuteStart), isDigit(minuteStart + 1), !isDigit(minuteStart + 2),
        let minute = Int(String(characters[minuteStart...minuteStart + 1]))
      else { return nil }
      return (WrittenTime(hour: hour, minute: minute), minuteStart + 2 - index)
    }
    if characters[cursor] == "시" {
      cursor += 1
      var probe = cursor
      while probe < characters.count, characters[probe] == " " { probe += 1 }
      var minuteDigits = ""
      while isDigit(probe), minuteDigits.count < 3 {
        minuteDigits.append(characters[probe])
        probe += 1
      }
      if (1...2).contains(minuteDigits.count), probe < characters.count, characters[probe] == "분",
        let minute = Int(minuteDigits)
      {
        return (WrittenTime(hour: hour, minute: minute), probe + 1 - index)
      }
      return (WrittenTime(hour: hour, minute: 0), cursor - index)
    }
    return nil
  }
}
