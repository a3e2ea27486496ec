/// Reads comma-separated values as RFC 4180 writes them: fields in double quotes may hold commas,
/// line breaks and doubled quotes (`""`); records end with CRLF or LF.
///
/// Written here rather than taken from a CSV package: the register must be refused when it is cut
/// off, and both packages kept for Swift (yaslab/CSV.swift 2.5.2, swiftcsv/SwiftCSV 0.10.0) end an
/// open quoted field at the end of the input as if it were closed and keep a character after a
/// closing quote as data, so a truncated download would read as a shorter register. This reader
/// says where such a record starts instead.
public enum RFC4180 {
  /// One record and the line it starts on (1-based).
  public struct Record: Sendable, Hashable {
    public var line: Int
    public var fields: [String]
  }

  /// What makes text not RFC 4180.
  public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
    /// A quoted field still open at the end of the text: the file was cut off.
    case unterminatedQuote(line: Int)
    /// A character other than a comma or a line break after a closing quote.
    case textAfterClosingQuote(line: Int)

    public var description: String {
      switch self {
      case .unterminatedQuote(let line): "line \(line): a quoted field is never closed (the file was cut off?)"
      case .textAfterClosingQuote(let line): "line \(line): text after a closing quote"
      }
    }
  }

  /// The records of `text`; empty lines are skipped.
  public static func records(_ text: String) throws(Problem) -> [Record] {
    let comma = UInt8(ascii: ","), quote = UInt8(ascii: "\""), lineFeed = UInt8(ascii: "\n")
    let carriageReturn = UInt8(ascii: "\r")
    var records: [Record] = []
    var fields: [String] = []
    var field: [UInt8] = []
    var line = 1
    var recordLine = 1
    var inQuotes = false
    var quotedFieldEnded = false
    var recordHasContent = false

    func endField() {
      fields.append(String(decoding: field, as: UTF8.self))
      field.removeAll(keepingCapacity: true)
      quotedFieldEnded = false
    }
    func endRecord() {
      if recordHasContent || fields.count > 0 {
        endField()
        records.append(Record(line: recordLine, fields: fields))
      }
      fields = []
      recordHasContent = false
    }

    let bytes = Array(text.utf8)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if inQuotes {
        if byte == quote {
          if index < bytes.count && bytes[index] == quote {
            field.append(quote)
            index += 1
          } else {
            inQuotes = false
            quotedFieldEnded = true
          }
        } else {
          if byte == lineFeed { line += 1 }
          field.append(byte)
        }
        continue
      }
      switch byte {
      case comma:
        recordHasContent = true
        endField()
      case lineFeed:
        endRecord()
        line += 1
        recordLine = line
      case carriageReturn where index < bytes.count && bytes[index] == lineFeed:
        continue
      case quote where field.isEmpty && !quotedFieldEnded:
        inQuotes = true
        recordHasContent = true
      default:
        if quotedFieldEnded { throw .textAfterClosingQuote(line: line) }
        // A quote inside an unquoted field is kept as written (lenient, as the register's names
        // never need it but a stray one should not lose the row).
        field.append(byte)
        recordHasContent = true
      }
    }
    if inQuotes { throw .unterminatedQuote(line: recordLine) }
    endRecord()
    return records
  }
}
