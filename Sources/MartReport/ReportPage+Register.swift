import MartCore

/// `report.json`'s `register`: what the national register of large stores says of the run's
/// branches, as the page reads it.
public struct RegisterFindings: Decodable, Sendable, Hashable {
  /// A register store (관리번호 `id`).
  public struct Store: Decodable, Sendable, Hashable {
    public var id: String
    public var name: String
    public var kind: String
    public var brand: String?
    public var sido: String?
    public var sigungu: String?
    public var roadAddress: String?
    public var permitDate: CalendarDate?
  }

  /// A branch listed as trading that the register closed (`closed`) or suspended (`suspended`).
  public struct Shut: Decodable, Sendable, Hashable {
    public var branch: String
    public var registerID: String
    public var state: String
    public var since: CalendarDate?
    public var until: CalendarDate?
  }

  /// `fetched` or `kept`.
  public var origin: String
  public var openStores: Int
  public var notYetOpenStores: Int
  public var registerIDs: [String: String]
  public var shutInRegister: [Shut]
  public var unlisted: [Store]
  public var newPermits: [Store]
}

extension ReportPage {
  /// The register's cross-checks, when the run read a register: branches it closed or
  /// suspended, open stores of covered brands their sources do not list, and new permits.
  func registerSection() -> String {
    guard let register = report?.register else { return "" }
    var html = "<section id=\"register\"><h2>National register of large stores</h2>\n"
    let origin = register.origin == "kept" ? "the last good register (this run's was refused)" : "fetched in this run"
    html +=
      "<p>\(register.openStores) open stores and \(register.notYetOpenStores) not yet open, \(HTML.escape(origin)); "
      + "\(register.registerIDs.count) published branches matched.</p>\n"
    html += "<h3>Trading by their brand, closed or suspended in the register</h3>\n"
    html += list(register.shutInRegister) { shut in
      let dates = [shut.since.map { "since \($0.iso)" }, shut.until.map { "until \($0.iso)" }].compactMap { $0 }
      return "<code>\(HTML.escape(shut.branch))</code> \(HTML.escape(shut.state))"
        + (dates.isEmpty ? "" : " (" + dates.joined(separator: ", ") + ")") + " · 관리번호 \(HTML.escape(shut.registerID))"
    }
    html += "<h3>Open in the register, not listed by their brand</h3>\n"
    html += list(register.unlisted, item: store)
    html += "<h3>New permits, not yet open</h3>\n"
    html += list(register.newPermits) { store($0) + ($0.permitDate.map { " · permit \($0.iso)" } ?? "") }
    return html + "</section>\n"
  }

  private func store(_ store: RegisterFindings.Store) -> String {
    let place = [store.sido, store.sigungu].compactMap { $0 }.joined(separator: " ")
    return "\(HTML.escape(store.name)) (\(HTML.escape(store.brand ?? "no covered brand")), \(HTML.escape(store.kind)))"
      + (place.isEmpty ? "" : " · \(HTML.escape(place))") + " · 관리번호 \(HTML.escape(store.id))"
  }

  private func list<Item>(_ items: [Item], item: (Item) -> String) -> String {
    items.isEmpty ? "<p>None.</p>\n" : "<ul>" + items.map { "<li>\(item($0))</li>" }.joined() + "</ul>\n"
  }
}
