/// Escaping for the text and attribute values the report page and the site write.
public enum HTML {
  /// `text` safe as element content or inside a double-quoted attribute value.
  ///
  /// Works on the UTF-8 bytes: the five characters escaped are ASCII, so no byte of another
  /// character can be taken for one, and text without them (most of it) is returned as it is.
  public static func escape(_ text: String) -> String {
    let utf8 = text.utf8
    // Read from the contiguous bytes: the view's own `contains` steps through indices.
    func isEscaped(_ byte: UInt8) -> Bool {
      byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27
    }
    guard utf8.withContiguousStorageIfAvailable({ $0.contains(where: isEscaped) }) ?? utf8.contains(where: isEscaped)
    else { return text }
    var out: [UInt8] = []
    out.reserveCapacity(utf8.count + 16)
    for byte in utf8 {
      switch byte {
      case 0x26: out += "&amp;".utf8
      case 0x3C: out += "&lt;".utf8
      case 0x3E: out += "&gt;".utf8
      case 0x22: out += "&quot;".utf8
      case 0x27: out += "&#39;".utf8
      default: out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// A number as SVG writes it: one decimal.
  static func number(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    let whole = Int(tenths) / 10
    let fraction = abs(Int(tenths)) % 10
    return (tenths < 0 && whole == 0 ? "-" : "") + "\(whole).\(fraction)"
  }
}
