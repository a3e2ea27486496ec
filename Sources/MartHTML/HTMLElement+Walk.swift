import CLibXML2
import Foundation

// A tree walk in Swift for the questions brand parsers ask of every row: which elements follow
// in document order, whether an element is a `span` with class `call`, what its text is. Each
// answer reads libxml2's tree in place; nothing is compiled, evaluated or copied per question
// the way an XPath expression is.

extension HTMLElement {
  /// The element descendants of this node in document order (the node itself excluded), as
  /// `.//*` selects them.
  public var descendants: HTMLElementWalk {
    HTMLElementWalk(document: document, first: node.pointee.children, includesText: false)
  }

  /// The element and text descendants of this node in document order (the node itself
  /// excluded), as `.//* | .//text()` selects them.
  public var descendantNodes: HTMLElementWalk {
    HTMLElementWalk(document: document, first: node.pointee.children, includesText: true)
  }

  /// The first element descendant, in document order, for which `predicate` is true.
  public func firstDescendant(where predicate: (HTMLElement) throws -> Bool) rethrows -> HTMLElement? {
    for element in descendants where try predicate(element) { return element }
    return nil
  }

  /// Whether this is an element (`div`), as opposed to a text, comment or other node.
  public var isElement: Bool { node.pointee.type == XML_ELEMENT_NODE }

  /// Whether this is a text node (CDATA included), as `text()` selects them.
  public var isText: Bool {
    node.pointee.type == XML_TEXT_NODE || node.pointee.type == XML_CDATA_SECTION_NODE
  }

  /// Whether this is an element named `name` (lower case, as the HTML parser names them), the
  /// way the XPath name test `name` matches; without building the name as a `String`.
  public func hasName(_ name: String) -> Bool {
    guard node.pointee.type == XML_ELEMENT_NODE, node.pointee.ns == nil, let own = node.pointee.name else {
      return false
    }
    return Self.isNamed(own, name)
  }

  /// Whether libxml2's NUL-terminated name `own` is `name`, as `xmlStrEqual` compares them, byte
  /// by byte against the name's UTF-8: no C string is made of `name` for each call.
  static func isNamed(_ own: UnsafePointer<xmlChar>, _ name: String) -> Bool {
    var index = 0
    for byte in name.utf8 {
      guard own[index] == byte else { return false }
      index += 1
    }
    return own[index] == 0
  }

  /// Whether the element's `class` attribute holds `className` the way `XPath.hasClass` tests
  /// it: `contains(concat(' ', normalize-space(@class), ' '), ' className ')`. For a class name
  /// without spaces that is "one of the classes, split at spaces, tabs and line breaks, is
  /// exactly `className`". Reads the attribute in place.
  public func hasClass(_ className: String) -> Bool {
    guard node.pointee.type == XML_ELEMENT_NODE else { return false }
    return withAttributeBytes("class") { value in
      ClassList.contains(className, in: value ?? UnsafeBufferPointer(start: nil, count: 0))
    }
  }

  /// Whether the element has attribute `name` (possibly empty), as `@name` tests it.
  public func hasAttribute(_ name: String) -> Bool {
    attributeNode(name) != nil
  }

  /// Whether the value of attribute `name` contains `fragment`, as XPath's
  /// `contains(@name, 'fragment')` tests it: `false` without the attribute unless `fragment` is
  /// empty. Reads the attribute in place.
  public func attribute(_ name: String, contains fragment: String) -> Bool {
    withAttributeBytes(name) { value in
      var fragment = fragment
      return fragment.withUTF8 { needle in
        guard needle.count > 0 else { return true }
        guard let value, value.count >= needle.count else { return false }
        return ByteSearch.contains(needle, in: value)
      }
    }
  }

  /// The attribute node `name` without a namespace, as the XPath `@name` finds it.
  private func attributeNode(_ name: String) -> xmlAttrPtr? {
    guard node.pointee.type == XML_ELEMENT_NODE else { return nil }
    var attribute = node.pointee.properties
    while let current = attribute {
      if current.pointee.ns == nil, let own = current.pointee.name, Self.isNamed(own, name) { return current }
      attribute = current.pointee.next
    }
    return nil
  }

  /// Calls `body` with the UTF-8 bytes of attribute `name`'s value, `nil` when the element does
  /// not have it. The bytes are read in place when the value is one text node (as the HTML parser
  /// makes it), and copied otherwise; they are valid only during `body`.
  private func withAttributeBytes<Result>(
    _ name: String, _ body: (UnsafeBufferPointer<UInt8>?) -> Result
  ) -> Result {
    guard let attribute = attributeNode(name) else { return body(nil) }
    guard let value = attribute.pointee.children else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
    if value.pointee.next == nil, value.pointee.type == XML_TEXT_NODE {
      guard let content = value.pointee.content else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
      return body(UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
    }
    // Several nodes (entity references kept as nodes): libxml2 joins them.
    let joined = xmlNodeGetContent(UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: xmlNode.self))
    defer { mart_xml_free(joined) }
    guard let joined else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
    return body(UnsafeBufferPointer(start: joined, count: Int(xmlStrlen(joined))))
  }
}

extension HTMLDocument {
  /// Every element of the document in document order, as `//*` selects them.
  public var elements: HTMLElementWalk {
    HTMLElementWalk(document: self, first: pointer.pointee.children, includesText: false)
  }

  /// Every element and text node of the document in document order, as `//* | //text()`
  /// selects them.
  public var nodes: HTMLElementWalk {
    HTMLElementWalk(document: self, first: pointer.pointee.children, includesText: true)
  }

  /// The first element, in document order, for which `predicate` is true.
  public func firstElement(where predicate: (HTMLElement) throws -> Bool) rethrows -> HTMLElement? {
    for element in elements where try predicate(element) { return element }
    return nil
  }
}

/// A walk down a subtree in document order (each node before its children, children in order),
/// yielding its elements and, when asked for, its text nodes. The iterator's `depth` says how
/// deep the node it last returned is: 1 for a child of the subtree's root (for the document's
/// walk, the `<html>` element), 2 for a grandchild, and so on.
public struct HTMLElementWalk: Sequence, IteratorProtocol {
  private let document: HTMLDocument
  private let includesText: Bool
  /// The next node to look at, and its depth.
  private var pending: xmlNodePtr?
  private var pendingDepth = 1
  /// The depth of the node `next()` returned last; 0 before the first.
  public private(set) var depth = 0

  init(document: HTMLDocument, first: xmlNodePtr?, includesText: Bool) {
    self.document = document
    self.pending = first
    self.includesText = includesText
  }

  public mutating func next() -> HTMLElement? {
    while let node = pending {
      let nodeDepth = pendingDepth
      advance(past: node, depth: nodeDepth)
      let type = node.pointee.type
      if type == XML_ELEMENT_NODE || (includesText && (type == XML_TEXT_NODE || type == XML_CDATA_SECTION_NODE)) {
        depth = nodeDepth
        return HTMLElement(document: document, node: node)
      }
    }
    return nil
  }

  /// Moves `pending` to the node after `node`: its first child when it is an element, else its
  /// next sibling, else the next sibling of the nearest ancestor that has one, without leaving
  /// the subtree (depth 1 is the subtree root's children).
  private mutating func advance(past node: xmlNodePtr, depth nodeDepth: Int) {
    if node.pointee.type == XML_ELEMENT_NODE, let child = node.pointee.children {
      pending = child
      pendingDepth = nodeDepth + 1
      return
    }
    var current = node
    var currentDepth = nodeDepth
    while true {
      if let sibling = current.pointee.next {
        pending = sibling
        pendingDepth = currentDepth
        return
      }
      guard currentDepth > 1, let parent = current.pointee.parent else {
        pending = nil
        return
      }
      current = parent
      currentDepth -= 1
    }
  }
}

@available(*, unavailable)
extension HTMLElementWalk: Sendable {}

/// `XPath.hasClass`'s test on the bytes of a `class` attribute.
enum ClassList {
  /// XPath's whitespace, which `normalize-space` collapses: space, tab, line feed, carriage return.
  static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

  /// Whether `' ' + normalize-space(value) + ' '` contains `' ' + className + ' '`.
  static func contains(_ className: String, in value: UnsafeBufferPointer<UInt8>) -> Bool {
    var className = className
    return className.withUTF8 { name in
      if name.count > 0, !name.contains(where: isBlank) {
        // Without spaces in the name, the match is one whole class.
        var index = 0
        while index < value.count {
          while index < value.count, isBlank(value[index]) { index += 1 }
          let start = index
          while index < value.count, !isBlank(value[index]) { index += 1 }
          if index - start == name.count, memcmp(value.baseAddress! + start, name.baseAddress!, name.count) == 0 {
            return true
          }
        }
        return false
      }
      // A name with spaces (several classes in a row) or an empty one: the XPath test as written.
      var normalized: [UInt8] = [0x20]
      var index = 0
      while index < value.count {
        while index < value.count, isBlank(value[index]) { index += 1 }
        guard index < value.count else { break }
        if normalized.count > 1 { normalized.append(0x20) }
        while index < value.count, !isBlank(value[index]) {
          normalized.append(value[index])
          index += 1
        }
      }
      normalized.append(0x20)
      let needle = [0x20] + Array(name) + [0x20]
      return normalized.withUnsafeBufferPointer { haystack in
        needle.withUnsafeBufferPointer { ByteSearch.contains($0, in: haystack) }
      }
    }
  }
}

/// Substring search on bytes, as XPath's `contains` compares strings.
enum ByteSearch {
  static func contains(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
    guard needle.count > 0 else { return true }
    guard haystack.count >= needle.count, let base = haystack.baseAddress, let needleBase = needle.baseAddress
    else { return false }
    let first = needle[0]
    for start in 0...(haystack.count - needle.count)
    where base[start] == first && memcmp(base + start, needleBase, needle.count) == 0 {
      return true
    }
    return false
  }
}
