import CLibXML2
import Foundation
import MartCharset

/// A parsed HTML document, owning libxml2's tree.
///
/// Parsing is forgiving, like a browser: unclosed tags, stray end tags and broken quotes are
/// recovered rather than rejected. Not `Sendable`: libxml2 trees are not safe to share between
/// threads; brand parsers turn what they read into plain `Sendable` values.
public final class HTMLDocument {
  let pointer: htmlDocPtr
  /// The URL the document came from, for error messages.
  public let url: String?
  /// The encoding the bytes were read as, where it came from, and any doubts about it (an
  /// unknown charset label, bytes that do not fit the declared encoding).
  public let decoding: DecodedText.Summary

  /// Parses `data` as HTML.
  ///
  /// - Parameters:
  ///   - url: where the bytes came from; used as the base URL and in errors.
  ///   - charset: the `charset` of the HTTP Content-Type header, when known. It wins over the
  ///     document's own declaration. Without it (or when it is unknown or does not fit the
  ///     bytes), a `<meta charset>` or `http-equiv` declaration is honoured, and undeclared
  ///     documents are sniffed (UTF-8, else CP949); see `CharsetDecoder`.
  public init(data: Data, url: String? = nil, charset: String? = nil) throws(HTMLError) {
    HTMLDocument.initializeLibrary
    // Decoded here, once, so libxml2 only ever sees UTF-8 and ignores in-document declarations.
    // Bytes that are UTF-8 already are handed over as they are, not copied.
    let decoded = CharsetDecoder.decodeToUTF8(data, declaredCharset: charset, isHTML: true)
    let utf8 = decoded.utf8
    xmlResetLastError()
    let parsed = utf8.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> htmlDocPtr? in
      guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
      return HTMLDocument.parse(base.assumingMemoryBound(to: CChar.self), count: bytes.count, url: url)
    }
    guard let parsed else {
      throw HTMLError(.parse, url: url, detail: HTMLDocument.lastErrorMessage() ?? "no document (empty input?)")
    }
    self.pointer = parsed
    self.url = url
    self.decoding = decoded.summary
  }

  /// The XPath context of every evaluation on this document, created on first use.
  private var xpathContext: xmlXPathContextPtr?
  /// Each expression compiled once: brand parsers evaluate the same few for every row.
  private var compiledExpressions: [String: xmlXPathCompExprPtr] = [:]

  deinit {
    for compiled in compiledExpressions.values { xmlXPathFreeCompExpr(compiled) }
    if let xpathContext { xmlXPathFreeContext(xpathContext) }
    xmlFreeDoc(pointer)
  }

  /// The root element (`<html>`), if the document has one.
  public var root: HTMLElement? {
    xmlDocGetRootElement(pointer).map { HTMLElement(document: self, node: $0) }
  }

  /// The nodes `xpath` selects, evaluated from the document root, in document order.
  public func select(_ xpath: String) throws(HTMLError) -> [HTMLElement] {
    try evaluate(xpath, contextNode: nil)
  }

  /// The first node `xpath` selects, or `nil` when it selects none.
  public func first(_ xpath: String) throws(HTMLError) -> HTMLElement? {
    try select(xpath).first
  }

  /// Evaluates `xpath` with `contextNode` (the document when `nil`) as the context node.
  func evaluate(_ xpath: String, contextNode: xmlNodePtr?) throws(HTMLError) -> [HTMLElement] {
    let context: xmlXPathContextPtr
    if let existing = xpathContext {
      context = existing
    } else {
      guard let created = xmlXPathNewContext(pointer) else {
        throw HTMLError(.xpathEvaluation(xpath), url: url, detail: "cannot create an XPath context")
      }
      mart_xml_xpath_silence_errors(created)
      xpathContext = created
      context = created
    }
    // The state a fresh context starts with, so no evaluation sees what the previous one left.
    context.pointee.node = contextNode
    context.pointee.contextSize = -1
    context.pointee.proximityPosition = -1
    xmlResetError(&context.pointee.lastError)

    let compiled: xmlXPathCompExprPtr
    if let cached = compiledExpressions[xpath] {
      compiled = cached
    } else {
      guard let fresh = xmlXPathCtxtCompile(context, xpath) else {
        throw HTMLError(.invalidXPath(xpath), url: url, detail: HTMLDocument.describe(context.pointee.lastError))
      }
      compiledExpressions[xpath] = fresh
      compiled = fresh
    }
    guard let result = xmlXPathCompiledEval(compiled, context) else {
      throw HTMLError(
        .xpathEvaluation(xpath), url: url, detail: HTMLDocument.describe(context.pointee.lastError))
    }
    defer { xmlXPathFreeObject(result) }
    guard result.pointee.type == XPATH_NODESET else {
      throw HTMLError(.xpathEvaluation(xpath), url: url, detail: "the expression does not select nodes")
    }
    let nodes = result.pointee.nodesetval
    let count = mart_xml_node_set_count(nodes)
    return (0..<count).compactMap { index in
      mart_xml_node_set_item(nodes, index).map { HTMLElement(document: self, node: $0) }
    }
  }

  // MARK: - libxml2 plumbing

  /// Parses `count` bytes of UTF-8 at `bytes` as `htmlReadMemory(bytes, count, url, "UTF-8",
  /// options)` does, without three costs of libxml2 2.9 that made up a fifth of a small page's
  /// parse: an ID table for every document (nothing here looks elements up by ID), a pass of
  /// the whole text through libxml2's UTF-8 to UTF-8 converter, and a call to the input's
  /// reader each time the parser looks ahead, though the whole input is in memory from the
  /// start. The bytes are UTF-8 already (decoded above), so libxml2 has no encoding to detect.
  /// Short text nodes are stored compactly, as `HTML_PARSE_COMPACT` says (see below).
  private static func parse(_ bytes: UnsafePointer<CChar>, count: Int, url: String?) -> htmlDocPtr? {
    guard let context = htmlCreateMemoryParserCtxt(bytes, Int32(clamping: count)) else { return nil }
    defer { htmlFreeParserCtxt(context) }
    let options = Int32(
      HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
        | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue | HTML_PARSE_IGNORE_ENC.rawValue)
    _ = htmlCtxtUseOptions(context, options)
    // `HTML_PARSE_COMPACT` keeps a text node under 16 bytes (most of a page's: the white space
    // between tags, labels, numbers) inside the node instead of in a string of its own, but
    // libxml2 2.9 does so only with `dictNames` set, which `htmlCtxtUseOptions` clears. The HTML
    // parser hands every text over NUL-terminated, so no text is put in the context's dictionary,
    // which the document does not keep.
    context.pointee.dictNames = 1
    context.pointee.charset = Int32(XML_CHAR_ENCODING_UTF8.rawValue)
    context.pointee.encoding = UnsafePointer(xmlCharStrdup("UTF-8"))
    context.pointee.loadsubset |= XML_SKIP_IDS
    if let input = context.pointee.input {
      input.pointee.buf?.pointee.readcallback = nil
      if let url, let copy = xmlCharStrdup(url) {
        input.pointee.filename = UnsafeRawPointer(copy).assumingMemoryBound(to: CChar.self)
      }
    }
    _ = htmlParseDocument(context)
    let document = context.pointee.myDoc
    context.pointee.myDoc = nil
    // As `htmlReadMemory` leaves it: a document made with the context's dictionary keeps it.
    if context.pointee.dictNames != 0, let document, document.pointee.dict == context.pointee.dict {
      context.pointee.dict = nil
    }
    return document
  }

  /// Runs `xmlInitParser` once, before any parse, as libxml2 requires for threaded use.
  private static let initializeLibrary: Void = { xmlInitParser() }()

  /// libxml2's thread-local last error message, trimmed, if any.
  private static func lastErrorMessage() -> String? {
    guard let error = xmlGetLastError(), let message = error.pointee.message else { return nil }
    return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A readable summary of an XPath error record (libxml2 leaves `message` empty for XPath).
  private static func describe(_ error: xmlError) -> String {
    if let message = error.message {
      return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    guard error.code != 0 else { return "unknown XPath error" }
    let code = Int(error.code) - Int(XML_XPATH_EXPRESSION_OK.rawValue)
    let reason = xpathErrorReasons[code] ?? "libxml2 XPath error \(error.code)"
    return "\(reason) at offset \(error.int1)"
  }

  /// libxml2's `xmlXPathErrorMessages`, which it does not export, indexed by `xmlXPathError`.
  private static let xpathErrorReasons: [Int: String] = [
    1: "number encoding", 2: "unfinished literal", 3: "start of literal", 4: "expected $ for variable reference",
    5: "undefined variable", 6: "invalid predicate", 7: "invalid expression", 8: "missing closing curly brace",
    9: "unregistered function", 10: "invalid operand", 11: "invalid type", 12: "invalid number of arguments",
    13: "invalid context size", 14: "invalid context position", 15: "memory allocation error",
    16: "syntax error", 17: "resource error", 18: "sub resource error", 19: "undefined namespace prefix",
    20: "encoding error", 21: "char out of XML range", 22: "invalid or incomplete context",
    23: "stack usage error", 24: "forbidden variable",
  ]
}

@available(*, unavailable)
extension HTMLDocument: Sendable {}
