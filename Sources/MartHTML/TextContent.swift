import CLibXML2

/// An element's text content read from libxml2's text nodes in place, in the order
/// `xmlNodeGetContent` joins them.
enum TextContent {
  /// The number of bytes of `node`'s text content, or `nil` when it is not an element or text
  /// node, or its content has parts other than text (entity references), which libxml2 joins
  /// itself.
  static func length(of node: xmlNodePtr) -> Int? {
    switch node.pointee.type {
    case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
      return node.pointee.content.map { Int(xmlStrlen($0)) } ?? 0
    case XML_ELEMENT_NODE:
      var length = 0
      var plain = true
      walk(node) { current in
        switch current.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
          if let content = current.pointee.content { length += Int(xmlStrlen(content)) }
        case XML_ENTITY_REF_NODE: plain = false
        default: break
        }
      }
      return plain ? length : nil
    default:
      return nil
    }
  }

  /// Calls `body` with the bytes of each text and CDATA node of `node`'s subtree in document
  /// order (`node` itself when it is one). For the nodes `length(of:)` measures.
  static func forEachSegment(of node: xmlNodePtr, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
    walk(node) { current in
      if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
        let content = current.pointee.content
      {
        body(UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
      }
    }
  }

  /// Visits `root`'s subtree in document order as `xmlBufGetNodeContent` does: into the
  /// children of every node except entity declarations.
  private static func walk(_ root: xmlNodePtr, _ visit: (xmlNodePtr) -> Void) {
    var current = root
    while true {
      visit(current)
      if let child = current.pointee.children, child.pointee.type != XML_ENTITY_DECL {
        current = child
        continue
      }
      if current == root { return }
      if let sibling = current.pointee.next {
        current = sibling
        continue
      }
      while true {
        guard let parent = current.pointee.parent, parent != root else { return }
        current = parent
        if let sibling = current.pointee.next {
          current = sibling
          break
        }
      }
    }
  }
}

/// Writes text with every run of whitespace collapsed to one space and none at either end, byte
/// by byte: the whitespace is `HTMLElement.isWhitespace`'s, in UTF-8.
struct WhitespaceCollapser {
  private let buffer: UnsafeMutableBufferPointer<UInt8>
  /// Bytes written so far.
  private(set) var count = 0
  private var pendingSpace = false

  init(into buffer: UnsafeMutableBufferPointer<UInt8>) {
    self.buffer = buffer
  }

  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    var index = 0
    while index < bytes.count {
      let width = Self.whitespaceWidth(bytes, at: index)
      if width > 0 {
        pendingSpace = count > 0
        index += width
        continue
      }
      if pendingSpace {
        buffer[count] = 0x20
        count += 1
        pendingSpace = false
      }
      buffer[count] = bytes[index]
      count += 1
      index += 1
    }
  }

  /// The length of the whitespace character at `index`, 0 when there is none: tab to carriage
  /// return and space (1 byte); NEL, NBSP (2); ogham space, U+2000…U+200A, line and paragraph
  /// separators, narrow NBSP, math space, ideographic space (3).
  static func whitespaceWidth(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
    let byte = bytes[index]
    switch byte {
    case 0x09...0x0D, 0x20: return 1
    case 0xC2:
      guard index + 1 < bytes.count else { return 0 }
      return bytes[index + 1] == 0x85 || bytes[index + 1] == 0xA0 ? 2 : 0
    case 0xE1, 0xE2, 0xE3:
      guard index + 2 < bytes.count else { return 0 }
      let second = bytes[index + 1]
      let third = bytes[index + 2]
      switch (byte, second) {
      case (0xE1, 0x9A): return third == 0x80 ? 3 : 0
      case (0xE2, 0x80): return (0x80...0x8A).contains(third) || third == 0xA8 || third == 0xA9 || third == 0xAF ? 3 : 0
      case (0xE2, 0x81): return third == 0x9F ? 3 : 0
      case (0xE3, 0x80): return third == 0x80 ? 3 : 0
      default: return 0
      }
    default: return 0
    }
  }
}
