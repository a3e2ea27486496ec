// Token access and warnings.

extension ClosingTextParser {
  // MARK: - Token access

  func keyword(at index: Int) -> ClosingKeyword? {
    guard tokens.indices.contains(index), case .keyword(let keyword) = tokens[index].kind else { return nil }
    return keyword
  }

  func number(at index: Int) -> (value: Int, digits: Int)? {
    guard tokens.indices.contains(index), case .number(let value, let digits) = tokens[index].kind, value >= 0
    else { return nil }
    return (value, digits)
  }

  func symbol(at index: Int) -> Unicode.Scalar? {
    guard tokens.indices.contains(index), case .symbol(let symbol) = tokens[index].kind else { return nil }
    return symbol
  }

  func isListSeparator(at index: Int) -> Bool {
    if keyword(at: index) == .and { return true }
    guard let symbol = symbol(at: index) else { return false }
    return symbol == "," || symbol == "·" || symbol == "/" || symbol == "&"
  }

  func weekday(at index: Int) -> Weekday? {
    if case .weekday(let weekday)? = keyword(at: index) { return weekday }
    return nil
  }

  func excerpt(_ start: Int, _ end: Int) -> String {
    let from = tokens[min(start, tokens.count - 1)].start
    let to = tokens[min(max(end, start + 1), tokens.count) - 1].end
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars[from..<min(to, from + 60)])
    return String(view)
  }

  mutating func warn(_ message: String, _ start: Int, _ end: Int) {
    warn("\(message): \"\(excerpt(start, end))\"")
  }

  mutating func warn(_ message: String) {
    if warnings.count < Self.maximumWarnings { warnings.append(message) } else { droppedWarnings += 1 }
  }
}
