import Foundation
import MartCore

extension BundleDiff {
  /// A cross-check of the national register of large stores that the run which made the new
  /// bundle reported (its `report.json` `register`) and the run of the old one did not: a
  /// branch listed as trading that the register closed or suspended (`register-shut`), an open
  /// register store of a covered brand its source does not list (`register-unlisted`), a permit
  /// of a store not yet trading (`register-new-permit`).
  public struct RegisterFinding: Hashable, Sendable, Encodable, Comparable {
    /// `register-shut`, `register-unlisted` or `register-new-permit`.
    public var kind: ChangeKind
    /// The register entry's 관리번호.
    public var registerId: String
    /// The branch the register closed or suspended (`register-shut`); `null` otherwise.
    public var branch: String?
    /// The register's name of the store (`register-unlisted`, `register-new-permit`).
    public var name: String?
    /// The covered brand the store is a branch of, if any.
    public var brand: String?
    /// `closed` (폐업) or `suspended` (휴업), for `register-shut`.
    public var state: String?
    /// 폐업일자 or 휴업시작일자.
    public var since: CalendarDate?
    /// 휴업종료일자.
    public var until: CalendarDate?
    /// 인허가일자, for `register-new-permit`.
    public var permitDate: CalendarDate?
    /// `<sido> <sigungu>` of the store, when the register places it.
    public var district: String?

    public static func < (lhs: Self, rhs: Self) -> Bool {
      (lhs.kind, lhs.branch ?? "", lhs.registerId) < (rhs.kind, rhs.branch ?? "", rhs.registerId)
    }

    /// `homeplus-603 closed in the register since 2026-10-31 (관리번호 2001305010807500003)`.
    public var text: String {
      let dates = [since.map { "since \($0.iso)" }, until.map { "until \($0.iso)" }].compactMap { $0 }
      let when = dates.isEmpty ? "" : " " + dates.joined(separator: " ")
      let place = district.map { ", \($0)" } ?? ""
      switch kind {
      case .registerShut:
        return "\(branch ?? "?") \(state ?? "shut") in the register\(when) (관리번호 \(registerId))"
      case .registerNewPermit:
        return "\(name ?? registerId)\(place): permit \(permitDate?.iso ?? "without a date"), not yet open (관리번호 \(registerId))"
      default:
        return "\(name ?? registerId) (\(brand ?? "no covered brand")\(place)): open in the register, not listed by its source (관리번호 \(registerId))"
      }
    }
  }

  /// The register's cross-checks in the `report.json` of the output directory `directory`, when
  /// that report is of the run that published bundle `version` and read a register; `nil`
  /// otherwise (a bundle directory, no such report, a run without the register).
  public static func registerFindings(inOutput directory: URL, version: String) -> [RegisterFinding]? {
    struct Report: Decodable {
      struct Published: Decodable { var version: String }
      struct Store: Decodable {
        var id: String
        var name: String
        var brand: String?
        var sido: String?
        var sigungu: String?
        var permitDate: CalendarDate?
      }
      struct Shut: Decodable {
        var branch: String
        var registerID: String
        var state: String
        var since: CalendarDate?
        var until: CalendarDate?
      }
      struct Register: Decodable {
        var shutInRegister: [Shut]
        var unlisted: [Store]
        var newPermits: [Store]
      }
      var published: Published?
      var register: Register?
    }
    let file = directory.appendingPathComponent("report.json")
    guard let data = FileManager.default.contents(atPath: file.path),
      let report = try? JSONDecoder().decode(Report.self, from: data), report.published?.version == version,
      let register = report.register
    else { return nil }
    func finding(_ kind: ChangeKind, _ store: Report.Store) -> RegisterFinding {
      let district = [store.sido, store.sigungu].compactMap { $0 }.joined(separator: " ")
      return RegisterFinding(
        kind: kind, registerId: store.id, name: store.name, brand: store.brand,
        permitDate: kind == .registerNewPermit ? store.permitDate : nil, district: district.isEmpty ? nil : district)
    }
    return
      (register.shutInRegister.map {
        RegisterFinding(
          kind: .registerShut, registerId: $0.registerID, branch: $0.branch, state: $0.state, since: $0.since,
          until: $0.until)
      }
      + register.unlisted.map { finding(.registerUnlisted, $0) }
      + register.newPermits.map { finding(.registerNewPermit, $0) }).sorted()
  }

  /// This diff with the register's cross-checks of the new bundle's run (`new`) that the old
  /// one's (`old`) did not report, as changes of their kinds; none when either run's are not
  /// known (`nil`: a bundle directory, a report of another run), since what is new cannot be
  /// told then.
  public func withRegisterFindings(new: [RegisterFinding]?, old: [RegisterFinding]?) -> BundleDiff {
    var copy = self
    guard let new, let old else { return copy }
    let before = Set(old)
    copy.registerFindings = new.filter { !before.contains($0) }.sorted()
    return copy
  }

  /// The register's findings as lines (`- **register-shut** …` in Markdown), at most `limit`
  /// of each kind, with how many more (`… and 35 more register-shut`, or with none shown
  /// `40 register-shut`).
  func registerLines(markdown: Bool, limit: Int = .max) -> [String] {
    var lines: [String] = []
    for (kind, findings) in Dictionary(grouping: registerFindings, by: \.kind).sorted(by: { $0.key < $1.key }) {
      for finding in findings.prefix(limit) {
        lines.append(markdown ? "- **\(kind.rawValue)** \(Self.cell(finding.text))" : "\(kind.rawValue)  \(finding.text)")
      }
      if findings.count > limit {
        let rest = findings.count - limit
        let more =
          limit == 0
          ? "\(rest) \(kind.rawValue) (see the JSON diff)" : "… and \(rest) more \(kind.rawValue) (see the JSON diff)"
        lines.append(markdown ? "- \(more)" : "  \(more)")
      }
    }
    return lines
  }
}
