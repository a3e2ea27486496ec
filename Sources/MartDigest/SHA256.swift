import COpenSSLCrypto
import Foundation

/// SHA-256 digests (OpenSSL's libcrypto).
public enum SHA256 {
  /// The lower-case hex SHA-256 of `data`.
  public static func hex(_ data: Data) -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    let ok = data.withUnsafeBytes { buffer in
      mart_sha256(buffer.baseAddress, buffer.count, &digest)
    }
    precondition(ok == 1, "libcrypto's SHA-256 failed")
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    hex.reserveCapacity(64)
    for byte in digest { hex += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
    return String(decoding: hex, as: UTF8.self)
  }
}

extension SHA256 {
  /// A SHA-256 computed over bytes given piece by piece; equal to ``SHA256/hex(_:)`` of all the
  /// pieces joined.
  public final class Hasher {
    private let context: OpaquePointer

    public init() {
      guard let context = mart_sha256_new() else { preconditionFailure("libcrypto cannot start a SHA-256") }
      self.context = context
    }

    deinit { mart_sha256_free(context) }

    /// Adds `bytes` to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
      guard bytes.count > 0 else { return }
      precondition(mart_sha256_update(context, bytes.baseAddress, bytes.count) == 1, "libcrypto's SHA-256 failed")
    }

    /// The lower-case hex digest of everything added. Call once.
    public func finalize() -> String {
      var digest = [UInt8](repeating: 0, count: 32)
      precondition(mart_sha256_final(context, &digest) == 1, "libcrypto's SHA-256 failed")
      return SHA256.hexDigits(digest)
    }
  }

  static func hexDigits(_ digest: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    hex.reserveCapacity(64)
    for byte in digest { hex += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
    return String(decoding: hex, as: UTF8.self)
  }
}
