import Foundation

/// Small, pure text clean-ups applied to every published field.
public enum TextCleanup {
  /// NFC-normalizes, turns NBSP, full-width spaces, tabs, newlines and control characters
  /// into plain spaces, collapses runs of spaces and trims. Returns `nil` for text that ends
  /// up empty.
  public static func field(_ text: String?) -> String? {
    guard let text else { return nil }
    var result = ""
    result.reserveCapacity(text.utf8.count)
    var pendingSpace = false
    for scalar in text.precomposedStringWithCanonicalMapping.unicodeScalars {
      if scalar.properties.isWhitespace || scalar == "\u{FEFF}"
        || scalar.properties.generalCategory == .control
      {
        pendingSpace = !result.isEmpty
        continue
      }
      if pendingSpace {
        result.append(" ")
        pendingSpace = false
      }
      result.unicodeScalars.append(scalar)
    }
    return result.isEmpty ? nil : result
  }
}
