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
    let stores = branches.filter { $0.source == .register }
    guard let register = report?.register else {
      return stores.isEmpty
        ? ""
        : "<section id=\"register\"><h2>National register of large stores</h2>\n"
          + registerStores(stores) + "</section>\n"
    }
    var html = "<section id=\"register\"><h2>National register of large stores</h2>\n"
    html += registerStores(stores)
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

  /// The stores no brand source covers, published from the register (`source: register`): by
  /// brand, each with its district, class and expected days, or unknown. They are also on the
  /// map, each register brand a layer of its own.
  private func registerStores(_ stores: [Branch]) -> String {
    guard !stores.isEmpty else { return "" }
    let expected = stores.filter { $0.closing.expected != nil }.count
    var html = "<h3>Stores outside the brands, from the register</h3>\n"
    html +=
      "<p>\(stores.count) stores no brand source covers, published from the register: \(expected) with days "
      + "<em>expected</em> from their district's pattern for their class, \(stores.count - expected) unknown "
      + "(no pattern established there, or a 농협 하나로마트, whose exemption is decided store by store). "
      + "None publishes days of its own.</p>\n"
    html += "<div class=\"scroll\" tabindex=\"0\" role=\"region\" aria-label=\"Stores outside the brands\">\n"
    html +=
      "<table><thead><tr><th>Brand</th><th>Store</th><th>District</th><th>Class</th><th>Expected closing days</th>"
      + "</tr></thead><tbody>\n"
    for branch in stores.sorted(by: { ($0.brand, $0.id) < ($1.brand, $1.id) }) {
      let district = [branch.address.sido, branch.address.sigungu].compactMap { $0 }.joined(separator: " ")
      let days =
        branch.closing.expected.map { "expected " + $0.dates.map(\.iso).joined(separator: ", ") } ?? "unknown"
      html +=
        "<tr><td>\(HTML.escape(name(branch.brand)))</td>"
        + "<td>\(escapedTitle(branch)) <code>\(HTML.escape(branch.id.description))</code></td>"
        + "<td>\(HTML.escape(district))</td><td>\(HTML.escape(branch.storeClass?.rawValue ?? ""))</td>"
        + "<td>\(HTML.escape(days))</td></tr>\n"
    }
    return html + "</tbody></table></div>\n"
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
