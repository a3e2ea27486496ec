import Foundation
import MartCharset
import MartCore
import MartRegister
import TestSupport
import Testing

/// Reading register files: RFC 4180, both encodings, both layouts, and the files that are no
/// register at all.
@Suite("Register: reading the CSV")
struct RegisterReadingTests {
  @Test func quotedFieldsHoldCommasQuotesAndLineBreaks() throws {
    let records = try RFC4180.records("a,\"b, c\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",,x\r\n")
    #expect(records.map(\.fields) == [["a", "b, c", "say \"hi\""], ["two\nlines", "", "x"]])
    #expect(records.map(\.line) == [1, 2])
  }

  @Test func anOpenQuoteAtTheEndIsACutOffFile() {
    #expect(throws: RFC4180.Problem.unterminatedQuote(line: 2)) { try RFC4180.records("a,b\n1,\"cut off") }
    #expect(throws: RFC4180.Problem.textAfterClosingQuote(line: 1)) { try RFC4180.records("\"a\"b,c\n") }
  }

  static let header2026 =
    "개방자치단체코드,관리번호,인허가일자,인허가취소일자,영업상태명,폐업일자,휴업시작일자,휴업종료일자,재개업일자,소재지면적,소재지우편번호,도로명우편번호,사업장명,업태구분명,데이터갱신구분,데이터갱신시점,도로명주소,상세영업상태명,상세영업상태코드,영업상태코드,전화번호,점포구분명,좌표정보(X),좌표정보(Y),지번주소,최종수정시점"
  /// brand-sources.md §11.1, verbatim.
  static let row2026 =
    "3010000,2008301010007500002,2008-06-26,,영업/정상,,,,,20144.48,100-899,,주식회사 이마트 청계천점,대형마트,I,2026-03-26 22:48:22,서울특별시 중구 청계천로 400-0 (황학동),정상영업,1,01,0222901234,대규모점포,201823.908977364    ,452076.818664092    ,서울특별시 중구 황학동 2545번지,2024-11-19 09:48:29"

  @Test func utf8WithAByteOrderMarkReadsAsCP949Does() throws {
    let text = Self.header2026 + "\r\n" + Self.row2026 + "\r\n"
    let utf8 = try RegisterReader.rows(Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8))
    let cp949 = try RegisterReader.rows(try #require(text.data(using: .init(rawValue: 0x80000422))))
    #expect(utf8 == cp949)
    let row = try #require(utf8.first)
    #expect(row.id == "2008301010007500002")
    #expect(row.name == "주식회사 이마트 청계천점")
    #expect(row.state == .open)
    #expect(row.x == 201823.908977364)
    #expect(row.y == 452076.818664092)
    #expect(row.permitDate?.iso == "2008-06-26")
    #expect(row.lastModified == "2024-11-19 09:48:29")
  }

  /// The older layout spells the coordinates `좌표정보(x)`, `좌표정보(y)`; compact dates read too.
  @Test func olderCoordinateNamesAndCompactDates() throws {
    let header = Self.header2026.replacingOccurrences(of: "(X)", with: "(x)").replacingOccurrences(
      of: "(Y)", with: "(y)")
    let row = Self.row2026.replacingOccurrences(of: "2008-06-26", with: "20080626")
    let rows = try RegisterReader.rows(Data((header + "\n" + row + "\n").utf8))
    #expect(rows.first?.x == 201823.908977364)
    #expect(rows.first?.permitDate?.iso == "2008-06-26")
  }

  @Test func missingColumnsAreNamed() {
    let header = Self.header2026.replacingOccurrences(of: ",점포구분명", with: "").replacingOccurrences(
      of: ",좌표정보(Y)", with: "")
    #expect(throws: RegisterError.missingColumns(["점포구분명", "좌표정보(Y)"])) {
      try RegisterReader.rows(Data((header + "\n").utf8))
    }
  }

  @Test func aCutOffRowIsAnError() throws {
    let full = try FixturePaths.data("register/register-2026.csv")
    // Cut inside the last row: fewer fields than the header.
    let cut = full.prefix(full.count - 60)
    #expect(throws: RegisterError.self) { try RegisterReader.rows(cut) }
    do {
      _ = try RegisterReader.rows(cut)
    } catch {
      #expect(error.description.contains("fields where the header has 26"), "\(error)")
    }
  }

  /// The 2025 layout ends every line with a comma: a last row without it was cut off after its
  /// last quote, which RFC 4180 alone cannot tell.
  @Test func a2025RowWithoutItsTrailingCommaIsCutOff() throws {
    let full = try FixturePaths.data("register/register-2025.csv")
    #expect(full.suffix(3) == Data(",\r\n".utf8))
    let complete = try RegisterReader.rows(full)
    #expect(try RegisterReader.rows(full.dropLast(2)) == complete)
    #expect(throws: RegisterError.self) { try RegisterReader.rows(full.dropLast(3)) }
    do {
      _ = try RegisterReader.rows(full.dropLast(3))
    } catch {
      #expect(error.description.contains("29 fields where the header has 30"), "\(error)")
    }
  }

  @Test func bytesOfNoKoreanEncodingAreAnError() {
    #expect(throws: RegisterError.notText) {
      try RegisterReader.rows(Data(Self.header2026.utf8) + Data([0x0A, 0xFF, 0xFE, 0xFF, 0x0A]))
    }
  }

  @Test func anHTMLPageIsNoRegister() {
    let page = Data("\n<!DOCTYPE html><html><body>로그인이 필요합니다</body></html>".utf8)
    #expect(throws: RegisterError.htmlPage) { try RegisterReader.rows(page) }
  }
}
