/// Escaping for the text and attribute values the report page writes.
enum HTML {
  /// `text` safe as element content or inside a double-quoted attribute value.
  static func escape(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text {
      switch character {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default: out.append(character)
      }
    }
    return out
  }

  /// A number as SVG writes it: one decimal.
  static func number(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    let whole = Int(tenths) / 10
    let fraction = abs(Int(tenths)) % 10
    return (tenths < 0 && whole == 0 ? "-" : "") + "\(whole).\(fraction)"
  }
}
