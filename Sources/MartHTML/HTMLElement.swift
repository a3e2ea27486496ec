import CLibXML2

/// One node of an `HTMLDocument`. Holds a strong reference to its document, so it stays valid
/// for as long as it exists, even after every other reference to the document is gone.
public struct HTMLElement {
  /// The document owning `node`; kept strong so the tree outlives every element taken from it.
  public let document: HTMLDocument
  let node: xmlNodePtr

  init(document: HTMLDocument, node: xmlNodePtr) {
    self.document = document
    self.node = node
  }

  /// The lower-case tag name (`div`), or libxml2's name for other nodes (`text`).
  public var name: String {
    node.pointee.name.map { String(cString: $0) } ?? ""
  }

  /// The text content with every run of whitespace (NBSP included) collapsed to one space, trimmed.
  public var text: String {
    guard let length = TextContent.length(of: node) else { return Self.collapsingWhitespace(rawText) }
    guard length > 0 else { return "" }
    // Collapsed straight from libxml2's text nodes into the string's storage; whitespace only
    // shrinks, so the content's length is room enough.
    return String(unsafeUninitializedCapacity: length) { buffer in
      var collapser = WhitespaceCollapser(into: buffer)
      TextContent.forEachSegment(of: node) { collapser.append($0) }
      return collapser.count
    }
  }

  /// `text` with every run of whitespace collapsed to one space, trimmed: the scalar by scalar
  /// form of `WhitespaceCollapser`, for nodes whose content libxml2 assembles itself.
  static func collapsingWhitespace(_ text: String) -> String {
    var collapsed = String.UnicodeScalarView()
    var pendingSpace = false
    for scalar in text.unicodeScalars {
      if Self.isWhitespace(scalar) {
        pendingSpace = !collapsed.isEmpty
        continue
      }
      if pendingSpace {
        collapsed.append(" ")
        pendingSpace = false
      }
      collapsed.append(scalar)
    }
    return String(collapsed)
  }

  /// Unicode's White_Space property, spelled out: the property lookup is slow, and these are
  /// the only scalars that have it (tab to carriage return, space, NEL, NBSP, ogham space, the
  /// typographic spaces, line and paragraph separators, narrow NBSP, math space, ideographic
  /// space).
  static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
    default: false
    }
  }

  /// The text content exactly as in the document (entities decoded), whitespace untouched.
  public var rawText: String {
    if isText, let content = node.pointee.content { return String(cString: content) }
    guard let content = xmlNodeGetContent(node) else { return "" }
    defer { mart_xml_free(content) }
    return String(cString: content)
  }

  /// The value of attribute `name`, or `nil` when the element does not have it.
  public func attribute(_ name: String) -> String? {
    guard let value = xmlGetProp(node, name) else { return nil }
    defer { mart_xml_free(value) }
    return String(cString: value)
  }

  /// The child elements, in document order (text and comment nodes skipped).
  public var children: [HTMLElement] {
    var result: [HTMLElement] = []
    var child = node.pointee.children
    while let current = child {
      if current.pointee.type == XML_ELEMENT_NODE {
        result.append(HTMLElement(document: document, node: current))
      }
      child = current.pointee.next
    }
    return result
  }

  /// The parent element, or `nil` at the root (whose parent is the document).
  public var parent: HTMLElement? {
    guard let parent = node.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE else { return nil }
    return HTMLElement(document: document, node: parent)
  }

  /// The nodes `xpath` selects with this node as the context node (start it with `.` to stay
  /// below this node, e.g. `.//span`).
  public func select(_ xpath: String) throws(HTMLError) -> [HTMLElement] {
    try document.evaluate(xpath, contextNode: node)
  }

  /// The first node `xpath` selects relative to this node, or `nil`.
  public func first(_ xpath: String) throws(HTMLError) -> HTMLElement? {
    try select(xpath).first
  }
}

/// Two elements are equal when they are the same node of the same document.
extension HTMLElement: Hashable {
  public static func == (lhs: HTMLElement, rhs: HTMLElement) -> Bool { lhs.node == rhs.node }
  public func hash(into hasher: inout Hasher) { hasher.combine(node) }
}

@available(*, unavailable)
extension HTMLElement: Sendable {}
