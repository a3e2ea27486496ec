/// The one shape of the project's errors, as swift-nio's `FileSystemError` and the kit's
/// `MartBundleError` have it: what failed (``message``), where (``location``: a path, a URL, a
/// brand, a setting) and why (``cause``: the error underneath, which may have a cause of its
/// own). Each error keeps its own ``description``, the one line the command line prints.
public protocol LocatedError: Error, CustomStringConvertible {
  /// Where it failed: the file, folder or URL concerned, the brand, or the setting at fault.
  var location: String { get }
  /// What failed, in words, without the cause; empty when the cause says it all.
  var message: String { get }
  /// The error underneath (a system error number, a decoding error, another error of the
  /// project), or `nil` when this one is the first.
  var cause: (any Error)? { get }
}

extension LocatedError {
  /// No cause: the error is the first of its chain.
  public var cause: (any Error)? { nil }

  /// The causes below this error, nearest first: its ``cause``, that one's cause, and so on.
  public var causes: [any Error] {
    var chain: [any Error] = []
    var next = cause
    while let error = next {
      chain.append(error)
      next = (error as? any LocatedError)?.cause
    }
    return chain
  }

  /// ``message`` followed by the words of its ``cause`` (`write failed: No space left on
  /// device`), or the cause's words alone when the message is empty: the cause's own
  /// ``description`` carries the rest of the chain.
  public var messageWithCause: String {
    guard let cause else { return message }
    return message.isEmpty ? "\(cause)" : "\(message): \(cause)"
  }
}
