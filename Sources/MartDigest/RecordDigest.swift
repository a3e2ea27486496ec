import COpenSSLCrypto
import Foundation

/// A digest as WARC files label it (`WARC-Block-Digest`, `WARC-Payload-Digest`):
/// `algorithm:value`, with SHA-256 or SHA-1 and the value in hex or base32 (RFC 4648), as the
/// writers of WARC files use them.
public struct LabeledDigest: Sendable, Hashable, CustomStringConvertible {
  public enum Algorithm: String, Sendable {
    case sha256
    case sha1
  }

  public var algorithm: Algorithm
  /// The digest's bytes.
  public var bytes: [UInt8]
  /// The label as written.
  public var description: String

  /// The digest `label` names; nil when its algorithm is not SHA-256 or SHA-1 or its value is
  /// neither hex nor base32 of the right length.
  public init?(_ label: String) {
    let parts = label.trimmingCharacters(in: .whitespaces).split(separator: ":", maxSplits: 1)
    guard parts.count == 2, let algorithm = Algorithm(rawValue: parts[0].lowercased().replacingOccurrences(of: "-", with: ""))
    else { return nil }
    let length = algorithm == .sha256 ? 32 : 20
    guard let bytes = Self.hex(parts[1]) ?? Self.base32(parts[1]), bytes.count == length else { return nil }
    self.algorithm = algorithm
    self.bytes = bytes
    description = label
  }

  /// Whether `data` has this digest.
  public func matches(_ data: some DataProtocol) -> Bool {
    let contiguous = Data(data)
    var digest = [UInt8](repeating: 0, count: bytes.count)
    let ok = contiguous.withUnsafeBytes { buffer in
      algorithm == .sha256
        ? mart_sha256(buffer.baseAddress, buffer.count, &digest) : mart_sha1(buffer.baseAddress, buffer.count, &digest)
    }
    precondition(ok == 1, "libcrypto's \(algorithm.rawValue) failed")
    return digest == bytes
  }

  private static func hex(_ text: Substring) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    func value(_ digit: UInt8) -> UInt8? {
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
      default: nil
      }
    }
    var bytes: [UInt8] = []
    var index = 0
    while index < digits.count {
      guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  private static func base32(_ text: Substring) -> [UInt8]? {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
    var bits = 0
    var buffer = 0
    var bytes: [UInt8] = []
    for character in text.uppercased().utf8 where character != UInt8(ascii: "=") {
      guard let value = alphabet.firstIndex(of: character) else { return nil }
      buffer = (buffer << 5) | value
      bits += 5
      if bits >= 8 {
        bits -= 8
        bytes.append(UInt8((buffer >> bits) & 0xFF))
      }
    }
    return bytes
  }
}
